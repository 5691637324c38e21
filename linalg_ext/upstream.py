"""Run a function compiled by upstream MLIR 22: the oracle for our interpreter.

`run_upstream(source, name, inputs)` lowers the module with `mlir-opt-22`
(one-shot bufferization at function boundaries with identity layouts, then
everything to the LLVM dialect, with C wrappers), translates it with
`mlir-translate-22`, JIT-compiles the LLVM IR with llvmlite and calls
`_mlir_ciface_<name>` through ctypes with memref descriptors built over numpy
arrays (by `linalg_ext.calling_convention`, as `linalg_ext.jit` calls our own
compiled code). Results come back as numpy arrays, copied out of upstream's
buffers.

Only for programs upstream can compile and whose arguments and results are
ranked tensors or memrefs of int/float/index elements, or such scalars.
`upstream_available()` says whether the tools are installed.
"""

from __future__ import annotations

import ctypes
import shutil
import subprocess
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
from xdsl.dialects import func
from xdsl.dialects.builtin import MemRefType, ModuleOp

from linalg_ext.calling_convention import (
    LIBC,
    array_view,
    descriptor_of,
    python_scalar,
    result_fields,
    results_ctype,
    scalar_argument,
    scalar_ctype,
    value_dtype,
)
from linalg_ext.running import FunctionRun, find_function
from linalg_ext.shaped import is_ranked_shaped

MLIR_OPT = "mlir-opt-22"
MLIR_TRANSLATE = "mlir-translate-22"

LOWERING = (
    "--one-shot-bufferize=bufferize-function-boundaries=1 "
    "function-boundary-type-conversion=identity-layout-map",
    "--convert-linalg-to-loops",
    "--lower-affine",
    "--convert-scf-to-cf",
    "--expand-strided-metadata",
    "--lower-affine",
    "--finalize-memref-to-llvm",
    "--convert-math-to-llvm",
    "--convert-math-to-libm",
    "--convert-arith-to-llvm",
    "--convert-index-to-llvm",
    "--convert-cf-to-llvm",
    "--llvm-request-c-wrappers",
    "--convert-func-to-llvm",
    "--reconcile-unrealized-casts",
)
"""The upstream pipeline from tensors to the LLVM dialect."""

OPTIMIZED_LOWERING = (
    LOWERING[0],
    "--buffer-deallocation-pipeline",
    "--canonicalize",
    "--cse",
    *LOWERING[1:],
)
"""As LOWERING, plus what a production pipeline adds after bufferization:
buffers that do not escape are freed, and canonicalization removes the
copies of a buffer onto itself that bufferizing in place leaves. For
benchmarks: the oracle compiles the program as it is."""


class UpstreamError(Exception):
    """Upstream could not compile or run the program."""


def upstream_available() -> bool:
    return (
        shutil.which(MLIR_OPT) is not None and shutil.which(MLIR_TRANSLATE) is not None
    )


def _run_tool(command: Sequence[str], text: str) -> str:
    result = subprocess.run(list(command), input=text, capture_output=True, text=True)
    if result.returncode != 0:
        raise UpstreamError(f"{command[0]} failed: {result.stderr.strip()}")
    return result.stdout


def lower_to_llvm_ir(source: str, lowering: Sequence[str] = LOWERING) -> str:
    """The module as LLVM IR, lowered by upstream MLIR."""
    llvm_dialect = _run_tool([MLIR_OPT, *lowering], source)
    return _run_tool([MLIR_TRANSLATE, "--mlir-to-llvmir"], llvm_dialect)


@cache
def _llvm() -> Any:
    import llvmlite.binding as llvm

    llvm.initialize_native_target()
    llvm.initialize_native_asmprinter()
    # Lowered code calls into MLIR's C runner library (memrefCopy for strided
    # copies, for instance), as `mlir-runner -shared-libs` would provide it.
    tool = shutil.which(MLIR_OPT)
    if tool is not None:
        lib_dir = Path(tool).resolve().parent.parent / "lib"
        for library in sorted(lib_dir.glob("libmlir_c_runner_utils.so*")):
            llvm.load_library_permanently(str(library))
            break
    return llvm


def run_upstream(
    source: str, module: ModuleOp, name: str, inputs: Sequence[Any]
) -> FunctionRun:
    """Compile `source` with upstream MLIR and call `@name` on `inputs`, like
    `linalg_ext.running.run_function` (results, and arguments as the call
    left them; the inputs themselves are not written).

    `module` is `source` parsed by us, for the function's signature.
    """
    return compile_upstream(source, module, name)(inputs)


class UpstreamFunction:
    """`@name` of a module compiled once by upstream MLIR, callable many
    times (what `make bench` times)."""

    def __init__(
        self,
        source: str,
        module: ModuleOp,
        name: str,
        lowering: Sequence[str] = LOWERING,
    ):
        function: func.FuncOp = find_function(module, name)
        self.name = name
        self.arg_types = function.function_type.inputs.data
        self.result_types = function.function_type.outputs.data
        llvm = _llvm()
        try:
            llvm_module = llvm.parse_assembly(lower_to_llvm_ir(source, lowering))
            llvm_module.verify()
        except RuntimeError as error:
            raise UpstreamError(f"llvmlite rejected the LLVM IR: {error}") from error
        # Calling a function whose symbol the JIT cannot resolve would jump to
        # address 0 and kill the process: refuse instead.
        for declared in llvm_module.functions:
            if (
                declared.is_declaration
                and not declared.name.startswith("llvm.")
                and not llvm.address_of_symbol(declared.name)
            ):
                raise UpstreamError(
                    f"the compiled program calls {declared.name}, "
                    "which is not available"
                )
        target = llvm.Target.from_default_triple().create_target_machine()
        self._engine = llvm.create_mcjit_compiler(llvm_module, target)
        self._engine.finalize_object()
        self._llvm_module = llvm_module
        address = self._engine.get_function_address(f"_mlir_ciface_{name}")
        if not address:
            raise UpstreamError(f"no C interface for @{name}")
        # The C interface: a memref argument by pointer to its descriptor, a
        # scalar by value; a single scalar result is returned, any other
        # results are written through a pointer to their struct, passed first.
        self._returns_by_value = len(self.result_types) == 1 and not is_ranked_shaped(
            self.result_types[0]
        )
        self._results_ctype = results_ctype(self.result_types)
        argument_ctypes = [
            ctypes.c_void_p if is_ranked_shaped(t) else scalar_ctype(t)
            for t in self.arg_types
        ]
        if self._returns_by_value:
            prototype = ctypes.CFUNCTYPE(self._results_ctype, *argument_ctypes)
        elif self._results_ctype is not None:
            prototype = ctypes.CFUNCTYPE(None, ctypes.c_void_p, *argument_ctypes)
        else:
            prototype = ctypes.CFUNCTYPE(None, *argument_ctypes)
        self._entry = prototype(address)

    def __call__(
        self, inputs: Sequence[Any], *, free_results: bool = False
    ) -> FunctionRun:
        """Call the function. Its shaped results are copied out; with
        `free_results`, their buffers are then freed, which is only right
        when the function returns buffers it allocated itself (not an
        argument, not a global), as a benchmark of a known program does."""
        result_types = self.result_types
        # The compiled code reads and writes these arrays: alive until it returns.
        keep_alive: list[Any] = []
        arguments_after: list[Any] = []
        call_args: list[Any] = []
        for value, type_ in zip(inputs, self.arg_types, strict=True):
            if is_ranked_shaped(type_):
                array = np.ascontiguousarray(np.array(value, dtype=value_dtype(type_)))
                keep_alive.append(array)
                # A tensor argument is a value; upstream may still reuse its
                # buffer (function arguments are writable), so report the
                # value passed.
                is_buffer = isinstance(type_, MemRefType)
                arguments_after.append(array if is_buffer else value)
                descriptor = descriptor_of(array)
                keep_alive.append(descriptor)
                call_args.append(ctypes.byref(descriptor))
            else:
                call_args.append(scalar_argument(value, type_))
                arguments_after.append(value)

        if self._returns_by_value:
            returned = self._entry(*call_args)
            value = python_scalar(returned, result_types[0])
            return FunctionRun(results=[value], arguments=arguments_after)
        fields: list[Any] = []
        if self._results_ctype is not None:
            results = self._results_ctype()
            self._entry(ctypes.byref(results), *call_args)
            fields = result_fields(results, len(result_types))
        else:
            self._entry(*call_args)
        outputs: list[Any] = []
        for field, type_ in zip(fields, result_types, strict=True):
            if is_ranked_shaped(type_):
                outputs.append(array_view(field, value_dtype(type_)).copy())
            else:
                outputs.append(python_scalar(field, type_))
        if free_results:
            allocations = {
                field.allocated
                for field, type_ in zip(fields, result_types, strict=True)
                if is_ranked_shaped(type_)
            }
            for allocation in allocations:
                LIBC.free(allocation)
        return FunctionRun(results=outputs, arguments=arguments_after)


def compile_upstream(
    source: str, module: ModuleOp, name: str, lowering: Sequence[str] = LOWERING
) -> UpstreamFunction:
    """`@name` of `source` compiled by upstream MLIR (see `run_upstream`)."""
    return UpstreamFunction(source, module, name, lowering)
