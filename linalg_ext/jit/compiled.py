"""What `compile_module` returns: compiled functions, called with numpy.

`JitModule` holds the compiled functions by name and how compiling went;
`JitFunction` calls one through its packed entry point
(`_lx_packed_<name>(slots, result, nanoseconds, context)`), passing
arguments and reading results by `linalg_ext.calling_convention`:

- a memref argument takes a numpy array of the element's dtype (i1 as int8
  or bool, index as int64) and fitting shape; it is passed as a descriptor
  pointing at the array's own memory (no copy: what the function writes
  into it, the caller sees). Strides are the array's, in elements. A
  read-only array is refused where the function may write the argument
  (`linalg_ext.jit.writes`);
- a scalar argument takes a Python or numpy scalar that its type holds
  (`linalg_ext.argument_values`' rule, as the interpreter);
- a memref result comes back as a numpy array: a buffer the call allocated
  is owned by that array (freed when it is collected, no leak); a view of
  an argument is a view of that array; a constant (a `memref.global`) is
  copied. Several results come back as a tuple, none as None.

A call that fails a run-time check (or cannot allocate) ends there and
raises `JitError` with the interpreter's message
(linalg_ext/jit/failures.py); with tracking, what it had allocated is freed.
Calls may run on several threads at once; those of a module with mutable
globals take turns (each starts from the globals' initial values).

`run_function(compiled, name, inputs)` gives the interpreter's `FunctionRun`
(results, arguments after the call and, when tracked, the call's leaks).
"""

from __future__ import annotations

import ctypes
import threading
from collections.abc import Callable, Sequence
from contextlib import nullcontext
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from xdsl.dialects.builtin import MemRefType
from xdsl.ir import Attribute

from linalg_ext.calling_convention import (
    ArgumentError,
    RawMemory,
    array_view,
    python_scalar,
    result_fields,
    slot_converter,
    value_dtype,
)
from linalg_ext.jit.failures import (
    FAILED,
    failure_message,
    free_live_buffers,
    new_context,
)
from linalg_ext.jit.memory import CallMemory, OwnedBuffer, tracking_call
from linalg_ext.running import FunctionRun

GLOBAL_MARKER = 0xDEADBEEF
"""The allocated pointer finalize-memref-to-llvm gives `memref.get_global`
descriptors (as upstream): such a buffer is a constant, never freed."""

PACKED_SIGNATURE = ctypes.CFUNCTYPE(
    ctypes.c_int32, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p
)
"""`int32 _lx_packed_<name>(int64 *slots, void *result, int64 *nanoseconds,
int64 *context)`: 0, or 1 when the call failed."""


class JitError(Exception):
    """Compiling or calling failed: the message says which function and why,
    or, for a call that failed at run time, is the interpreter's message."""


@dataclass
class JitFunction:
    """A compiled function, called with numpy arrays and scalars."""

    name: str
    argument_types: list[Attribute]
    """The function's argument types after bufferization (memrefs, scalars)."""
    result_types: list[Attribute]
    _entry: Any
    """The packed entry point, as a `PACKED_SIGNATURE`."""
    _result_ctype: Any
    """`results_ctype(result_types)`, or None for no result."""
    _tracked: bool
    _engine: Any = None
    """The execution engine owning the code: alive as long as the function."""
    _written: list[bool] = field(default_factory=list[bool])
    """Per argument: a memref the function may write (a read-only array is
    refused for it)."""
    _turns: threading.Lock | None = None
    """Taken around each call when the module has mutable globals (shared by
    its functions): calls then take turns."""
    _converters: list[Callable[[Any], tuple[Any, np.ndarray | None]]] = field(
        default_factory=list[Callable[[Any], tuple[Any, np.ndarray | None]]]
    )
    """Per argument: value -> (its C value, the array it is passed as)."""
    _elapsed: Any = field(default_factory=ctypes.c_int64)
    """Nanoseconds the last call took, written by the entry point."""

    def call(self, *arguments: Any) -> tuple[Any, list[Any]]:
        """Call; returns the result(s) and the arrays the arguments were passed
        as (what memref arguments look like after the call)."""
        result, passed, _ = self.call_tracked(*arguments)
        return result, passed

    def call_tracked(self, *arguments: Any) -> tuple[Any, list[Any], CallMemory]:
        """`call`, and what the call allocated and neither freed nor
        returned (known when the module is tracked; empty otherwise)."""
        if len(arguments) != len(self.argument_types):
            raise JitError(
                f"@{self.name} takes {len(self.argument_types)} arguments, "
                f"got {len(arguments)}"
            )
        try:
            if not self._converters:
                written = self._written or [False] * len(self.argument_types)
                self._converters = [
                    slot_converter(f"argument #{i} of @{self.name}", t, w)
                    for i, (t, w) in enumerate(
                        zip(self.argument_types, written, strict=True)
                    )
                ]
            flat: list[int] = []
            passed: list[Any] = []
            inputs_by_pointer: dict[int, np.ndarray] = {}
            for convert, value in zip(self._converters, arguments, strict=True):
                slots, array = convert(value)
                if array is not None:
                    # slots[0]: the descriptor's allocated pointer.
                    inputs_by_pointer.setdefault(slots[0], array)
                    passed.append(array)
                else:
                    passed.append(value)
                flat += slots
        except ArgumentError as error:
            raise JitError(str(error)) from error
        # The slots as one int64 array, built by ctypes (`pack_slots`' layout):
        # cheaper from Python than a numpy array's address.
        packed = (ctypes.c_int64 * len(flat))(*flat)
        result = self._result_ctype() if self._result_ctype is not None else None
        context = new_context()
        entry_arguments = (
            packed,
            ctypes.addressof(result) if result is not None else None,
            ctypes.addressof(self._elapsed),
            context,
        )
        if self._turns is None and not self._tracked:
            memory = CallMemory()
            if self._entry(*entry_arguments) == FAILED:
                free_live_buffers(context)
                raise JitError(failure_message(context))
            return self._unpack(result, inputs_by_pointer, memory), passed, memory
        with (
            self._turns or nullcontext(),
            tracking_call() if self._tracked else nullcontext(CallMemory()) as memory,
        ):
            if self._entry(*entry_arguments) == FAILED:
                memory.free_all()
                free_live_buffers(context)
                raise JitError(failure_message(context))
            unpacked = self._unpack(result, inputs_by_pointer, memory)
        return unpacked, passed, memory

    def __call__(self, *arguments: Any) -> Any:
        return self.call(*arguments)[0]

    @property
    def last_call_seconds(self) -> float:
        """How long the last call took in machine code, without the Python
        around it (the clock is read just before and after the call, inside
        the entry point): what benchmarks compare with upstream's `rtclock`
        timings."""
        return self._elapsed.value / 1e9

    def _unpack(
        self, result: Any, inputs: dict[int, np.ndarray], memory: CallMemory
    ) -> Any:
        if result is None:
            return None
        owners: dict[int, OwnedBuffer] = {}
        unpacked = [
            self._python_value(value, type_, inputs, owners, memory)
            for value, type_ in zip(
                result_fields(result, len(self.result_types)),
                self.result_types,
                strict=True,
            )
        ]
        return unpacked[0] if len(unpacked) == 1 else tuple(unpacked)

    def _python_value(
        self,
        value: Any,
        type_: Attribute,
        inputs: dict[int, np.ndarray],
        owners: dict[int, OwnedBuffer],
        memory: CallMemory,
    ) -> Any:
        """A result as numpy sees it: a buffer the call allocated is owned
        by the array (one owner per buffer, shared by the results that view
        it); a view of an argument keeps that argument's array alive."""
        if not isinstance(type_, MemRefType):
            return python_scalar(value, type_)
        dtype = value_dtype(type_)
        allocated = value.allocated or 0
        if allocated == GLOBAL_MARKER:
            return array_view(value, dtype).copy()
        if allocated in inputs:
            owner: Any = inputs[allocated]
            if not owner.flags.writeable:
                # A view of a read-only argument is read-only too.
                view = array_view(value, dtype, owner)
                view.flags.writeable = False
                return view
        else:
            owner = owners.get(allocated)
            if owner is None and allocated:
                owner = owners[allocated] = OwnedBuffer(
                    allocated, self._tracked, memory
                )
        # An empty result is a fresh array; a buffer allocated for it is
        # freed with `owners`.
        return array_view(value, dtype, owner)


@dataclass
class CompileTimes:
    """Seconds spent per stage of `compile_module`."""

    bufferization: float = 0.0
    lowering: float = 0.0
    translation: float = 0.0
    llvm: float = 0.0

    @property
    def total(self) -> float:
        return self.bufferization + self.lowering + self.translation + self.llvm


@dataclass
class JitModule:
    """A compiled module: its functions by name, and how it was compiled."""

    functions: dict[str, JitFunction]
    compile_seconds: CompileTimes
    llvm_ir: str
    """The LLVM IR before optimization."""
    tracked: bool
    _engine: Any = None

    def __getitem__(self, name: str) -> JitFunction:
        try:
            return self.functions[name]
        except KeyError:
            raise JitError(f"no function @{name} in the compiled module") from None


def run_function(compiled: JitModule, name: str, inputs: Sequence[Any]) -> FunctionRun:
    """Call `@name` like `linalg_ext.running.run_function` does on the
    interpreter: results as numpy arrays or Python scalars, the arguments as
    the call left them, and (with `track_memory`) the buffers it allocated
    and neither freed nor returned."""
    function = compiled[name]
    result, passed, memory = function.call_tracked(*inputs)
    if result is None:
        results: list[Any] = []
    elif isinstance(result, tuple):
        results = list(result)
    else:
        results = [result]
    leaks: list[str] = []
    if compiled.tracked:
        returned = {_base_pointer(r) for r in results if isinstance(r, np.ndarray)}
        for pointer, size in list(memory.live.items()):
            if pointer not in returned:
                leaks.append(f"{size} bytes allocated by the compiled @{name}")
    return FunctionRun(
        # Copies, as the interpreter's runs give: independent of the arguments.
        results=[
            np.array(r, copy=True) if isinstance(r, np.ndarray) else r for r in results
        ],
        arguments=[
            np.array(p, copy=True) if isinstance(p, np.ndarray) else p for p in passed
        ],
        leaks=leaks,
    )


def _base_pointer(array: np.ndarray) -> int | None:
    """The buffer a result array owns, if it owns one."""
    base = array
    while isinstance(base, np.ndarray) and base.base is not None:
        base = base.base
    if isinstance(base, RawMemory) and isinstance(base.owner, OwnedBuffer):
        return base.owner.pointer
    return None
