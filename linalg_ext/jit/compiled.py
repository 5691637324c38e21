"""What `compile_module` returns: compiled functions, called with numpy.

`JitModule` holds the compiled functions by name and how compiling went;
`JitFunction` calls one through its packed entry point
(`_lx_packed_<name>(slots, result, nanoseconds)`), passing arguments and
reading results by `linalg_ext.calling_convention`:

- a memref argument takes a numpy array of the element's dtype (i1 as int8
  or bool, index as int64) and fitting shape; it is passed as a descriptor
  pointing at the array's own memory (no copy: what the function writes
  into it, the caller sees). Strides are the array's, in elements;
- a scalar argument takes a Python or numpy scalar;
- a memref result comes back as a numpy array: a buffer the call allocated
  is owned by that array (freed when it is collected, no leak); a view of
  an argument is a view of that array; a constant (a `memref.global`) is
  copied. Several results come back as a tuple, none as None.

`run_function(compiled, name, inputs)` gives the interpreter's `FunctionRun`
(results, arguments after the call and, when tracked, leaks).
"""

from __future__ import annotations

import ctypes
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from xdsl.dialects.builtin import MemRefType
from xdsl.ir import Attribute

from linalg_ext.calling_convention import (
    ArgumentError,
    RawMemory,
    array_view,
    pack_slots,
    python_scalar,
    result_fields,
    slot_converter,
    value_dtype,
)
from linalg_ext.jit.memory import TRACKER, OwnedBuffer
from linalg_ext.running import FunctionRun

GLOBAL_MARKER = 0xDEADBEEF
"""The allocated pointer finalize-memref-to-llvm gives `memref.get_global`
descriptors (as upstream): such a buffer is a constant, never freed."""

PACKED_SIGNATURE = ctypes.CFUNCTYPE(
    None, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p
)
"""`void _lx_packed_<name>(int64 *slots, void *result, int64 *nanoseconds)`."""


class JitError(Exception):
    """Compiling or calling failed; the message says which function and why."""


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
    _converters: list[Callable[[Any], tuple[Any, np.ndarray | None]]] = field(
        default_factory=list[Callable[[Any], tuple[Any, np.ndarray | None]]]
    )
    """Per argument: value -> (its C value, the array it is passed as)."""
    _elapsed: Any = field(default_factory=ctypes.c_int64)
    """Nanoseconds the last call took, written by the entry point."""

    def call(self, *arguments: Any) -> tuple[Any, list[Any]]:
        """Call; returns the result(s) and the arrays the arguments were passed
        as (what memref arguments look like after the call)."""
        if len(arguments) != len(self.argument_types):
            raise JitError(
                f"@{self.name} takes {len(self.argument_types)} arguments, "
                f"got {len(arguments)}"
            )
        try:
            if not self._converters:
                self._converters = [
                    slot_converter(f"argument #{i} of @{self.name}", t)
                    for i, t in enumerate(self.argument_types)
                ]
            values: list[Any] = []
            passed: list[Any] = []
            inputs_by_pointer: dict[int, np.ndarray] = {}
            for convert, value in zip(self._converters, arguments, strict=True):
                slots, array = convert(value)
                values.append(slots)
                if array is not None:
                    # slots[0]: the descriptor's allocated pointer.
                    inputs_by_pointer.setdefault(slots[0], array)
                    passed.append(array)
                else:
                    passed.append(value)
        except ArgumentError as error:
            raise JitError(str(error)) from error
        packed = pack_slots(values)
        result = self._result_ctype() if self._result_ctype is not None else None
        self._entry(
            packed.ctypes.data,
            ctypes.addressof(result) if result is not None else None,
            ctypes.addressof(self._elapsed),
        )
        return self._unpack(result, inputs_by_pointer), passed

    def __call__(self, *arguments: Any) -> Any:
        return self.call(*arguments)[0]

    @property
    def last_call_seconds(self) -> float:
        """How long the last call took in machine code, without the Python
        around it (the clock is read just before and after the call, inside
        the entry point): what benchmarks compare with upstream's `rtclock`
        timings."""
        return self._elapsed.value / 1e9

    def _unpack(self, result: Any, inputs: dict[int, np.ndarray]) -> Any:
        if result is None:
            return None
        owners: dict[int, OwnedBuffer] = {}
        unpacked = [
            self._python_value(value, type_, inputs, owners)
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
        else:
            owner = owners.get(allocated)
            if owner is None and allocated:
                owner = owners[allocated] = OwnedBuffer(allocated, self._tracked)
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
    before = dict(TRACKER.live) if compiled.tracked else {}
    result, passed = function.call(*inputs)
    if result is None:
        results: list[Any] = []
    elif isinstance(result, tuple):
        results = list(result)
    else:
        results = [result]
    leaks: list[str] = []
    if compiled.tracked:
        returned = {_base_pointer(r) for r in results if isinstance(r, np.ndarray)}
        for pointer, size in TRACKER.live.items():
            if pointer not in before and pointer not in returned:
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
