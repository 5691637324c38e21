"""Run a module natively: lower it in Python, JIT it with llvmlite, call it with numpy.

    from linalg_ext.jit import compile_module

    compiled = compile_module(module)          # a ModuleOp, tensors or memrefs
    result = compiled["square"](x)             # numpy arrays and Python scalars in
    compiled["square"](x, out=y)               # the result copied into y
    compiled.compile_seconds                   # what compiling took, by stage

A call that fails a run-time check raises `JitError` with the
interpreter's message; so does every misuse of the API.

The package, by concept:

- `compiler`: `compile_module`, the pipeline from a module to machine code
  (bufferize, `lower-to-llvm`, translate, optimize, MCJIT);
- `llvm_additions`: what it adds to the module on the way (packed entry
  points, `_lx_malloc`, `_lx_fail`, the reset of mutable globals, the
  renaming of defined functions);
- `failures`: how a call fails (its context, the message);
- `writes`: which memref arguments and globals a function may write;
- `compiled`: what it returns (`JitModule`, `JitFunction`, `run_function`);
- `call_plan`, `call_results`: how a call converts numpy values and results
  (`out=` too), prepared once per function, by
  `linalg_ext.calling_convention` (the convention the upstream oracle,
  `linalg_ext.upstream`, uses too);
- `errors`: `JitError`;
- `memory`: memory tracking (`TRACKER`, per call `CallMemory`) and the
  ownership of returned buffers.

`run_function(compiled, name, inputs)` returns the interpreter's
`FunctionRun` shape (results, arguments after the call, leaks), so tools
compare the two backends value for value. Leaks are known when the module
was compiled with `track_memory=True`: allocation then goes through
`_mlir_memref_to_llvm_alloc`/`_free` (upstream's generic allocation
functions), bound to functions that also count bytes (`MemoryTracker`:
current and peak) and, per call, what the call holds (`CallMemory`), so
that calls from several threads at once each know their own leaks.
"""

from linalg_ext.jit.call_results import GLOBAL_MARKER
from linalg_ext.jit.compiled import (
    CompileTimes,
    JitError,
    JitFunction,
    JitModule,
    run_function,
)
from linalg_ext.jit.compiler import (
    BUFFERIZATION,
    compile_module,
    optimized_assembly,
    optimized_llvm_ir,
)
from linalg_ext.jit.llvm_additions import (
    ALLOCATION_FAILED,
    CLOCK_MONOTONIC,
    DEFINED_PREFIX,
    HUGE_PAGE,
    HUGE_PAGE_THRESHOLD,
    MADV_HUGEPAGE,
    PACKED_PREFIX,
    RUNTIME_MALLOC,
)
from linalg_ext.jit.memory import TRACKER, CallMemory, MemoryTracker

__all__ = [
    "ALLOCATION_FAILED",
    "BUFFERIZATION",
    "CLOCK_MONOTONIC",
    "DEFINED_PREFIX",
    "GLOBAL_MARKER",
    "HUGE_PAGE",
    "HUGE_PAGE_THRESHOLD",
    "MADV_HUGEPAGE",
    "PACKED_PREFIX",
    "RUNTIME_MALLOC",
    "TRACKER",
    "CallMemory",
    "CompileTimes",
    "JitError",
    "JitFunction",
    "JitModule",
    "MemoryTracker",
    "compile_module",
    "optimized_assembly",
    "optimized_llvm_ir",
    "run_function",
]
