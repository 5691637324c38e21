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
  copied. Several results come back as a tuple, none as None. With
  `out=`, memref results are copied into the caller's arrays instead
  (linalg_ext/jit/call_plan.py).

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
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from xdsl.ir import Attribute

from linalg_ext.calling_convention import ArgumentError
from linalg_ext.jit.call_plan import CallPlan
from linalg_ext.jit.call_results import owned_pointer
from linalg_ext.jit.errors import JitError
from linalg_ext.jit.memory import CallMemory
from linalg_ext.running import FunctionRun

PACKED_SIGNATURE = ctypes.CFUNCTYPE(
    ctypes.c_int32, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p
)
"""`int32 _lx_packed_<name>(int64 *slots, void *result, int64 *nanoseconds,
int64 *context)`: 0, or 1 when the call failed."""


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
    _elapsed: Any = field(default_factory=ctypes.c_int64)
    """Nanoseconds the last call took, written by the entry point."""
    _plan: CallPlan | None = field(default=None, repr=False, compare=False)
    """How a call packs arguments and reads results (`call_plan`), made at
    the first call."""

    def call(self, *arguments: Any, out: Any = None) -> tuple[Any, list[Any]]:
        """Call; returns the result(s) and the arrays the arguments were passed
        as (what memref arguments look like after the call)."""
        result, passed, _ = self.call_tracked(*arguments, out=out)
        return result, passed

    def call_tracked(
        self, *arguments: Any, out: Any = None
    ) -> tuple[Any, list[Any], CallMemory]:
        """`call`, and what the call allocated and neither freed nor
        returned (known when the module is tracked; empty otherwise)."""
        result, passed, memory = self._call(arguments, out)
        return result, passed, memory if memory is not None else CallMemory()

    def __call__(self, *arguments: Any, out: Any = None) -> Any:
        """The result(s) of calling with `arguments`. `out`: arrays the
        memref results are copied into and returned as, one per result (an
        array for the one result, or a tuple with None where the result
        comes back as usual); the buffer the call allocated is freed at
        once (linalg_ext/jit/call_plan.py)."""
        plan = self._plan
        if plan is not None and len(arguments) == plan.argument_count:
            return plan.call(arguments, out)[0]
        return self._call(arguments, out)[0]

    def _call(
        self, arguments: Sequence[Any], out: Any
    ) -> tuple[Any, list[Any], CallMemory | None]:
        if len(arguments) != len(self.argument_types):
            raise JitError(
                f"@{self.name} takes {len(self.argument_types)} arguments, "
                f"got {len(arguments)}"
            )
        plan = self._plan
        if plan is None:
            try:
                plan = self._plan = CallPlan(
                    self.name,
                    self.argument_types,
                    self.result_types,
                    self._written or [False] * len(self.argument_types),
                    self._result_ctype,
                    self._entry,
                    self._elapsed,
                    self._tracked,
                    self._turns,
                )
            except ArgumentError as error:
                raise JitError(str(error)) from error
        return plan.call(arguments, out)

    @property
    def last_call_seconds(self) -> float:
        """How long the last call took in machine code, without the Python
        around it (the clock is read just before and after the call, inside
        the entry point): what benchmarks compare with upstream's `rtclock`
        timings."""
        return self._elapsed.value / 1e9


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
        returned = {owned_pointer(r) for r in results if isinstance(r, np.ndarray)}
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
