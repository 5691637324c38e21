"""Run a function compiled by upstream MLIR 22: the oracle for our interpreter.

`run_upstream(source, name, inputs)` lowers the module with `mlir-opt-22`
(one-shot bufferization at function boundaries with identity layouts, then
everything to the LLVM dialect, with C wrappers), translates it with
`mlir-translate-22`, JIT-compiles the LLVM IR with llvmlite and calls
`_mlir_ciface_<name>` through ctypes with memref descriptors built over numpy
arrays. Results come back as numpy arrays, copied out of upstream's buffers.

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
from xdsl.ir import Attribute

from linalg_ext.running import INDEX_BITWIDTH, FunctionRun, find_function
from linalg_ext.semantics.arrays import numpy_dtype
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


def _descriptor_type(rank: int) -> type[ctypes.Structure]:
    """MLIR's memref descriptor: allocated and aligned pointers, offset,
    sizes and strides (in elements)."""

    class Descriptor(ctypes.Structure):
        _fields_ = [
            ("allocated", ctypes.c_void_p),
            ("aligned", ctypes.c_void_p),
            ("offset", ctypes.c_int64),
            ("sizes", ctypes.c_int64 * rank),
            ("strides", ctypes.c_int64 * rank),
        ]

    return Descriptor


_SCALAR_CTYPES = {
    np.dtype(np.float16): ctypes.c_uint16,  # passed as its bits
    np.dtype(np.float32): ctypes.c_float,
    np.dtype(np.float64): ctypes.c_double,
    np.dtype(np.int8): ctypes.c_int8,
    np.dtype(np.int16): ctypes.c_int16,
    np.dtype(np.int32): ctypes.c_int32,
    np.dtype(np.int64): ctypes.c_int64,
}


def _dtype(type_: Attribute) -> np.dtype:
    element = type_.get_element_type() if is_ranked_shaped(type_) else type_
    return numpy_dtype(element, INDEX_BITWIDTH)


def _array_from_descriptor(descriptor: Any, dtype: np.dtype) -> np.ndarray:
    rank = len(descriptor.sizes)
    sizes = [descriptor.sizes[i] for i in range(rank)]
    strides = [descriptor.strides[i] for i in range(rank)]
    if 0 in sizes:
        return np.zeros(sizes, dtype)
    extent = 1 + sum(
        (size - 1) * stride for size, stride in zip(sizes, strides, strict=True)
    )
    base = descriptor.aligned + descriptor.offset * dtype.itemsize
    flat = np.ctypeslib.as_array(
        (ctypes.c_uint8 * (extent * dtype.itemsize)).from_address(base)
    )
    view = np.lib.stride_tricks.as_strided(
        flat.view(dtype),
        shape=sizes,
        strides=[s * dtype.itemsize for s in strides],
    )
    return view.copy()


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
        self._address = self._engine.get_function_address(f"_mlir_ciface_{name}")
        if not self._address:
            raise UpstreamError(f"no C interface for @{name}")

    def __call__(
        self, inputs: Sequence[Any], *, free_results: bool = False
    ) -> FunctionRun:
        """Call the function. Its shaped results are copied out; with
        `free_results`, their buffers are then freed, which is only right
        when the function returns buffers it allocated itself (not an
        argument, not a global), as a benchmark of a known program does."""
        arg_types, result_types = self.arg_types, self.result_types
        address = self._address
        keep_alive: list[Any] = [self]
        arguments_after: list[Any] = []
        call_args: list[Any] = []
        call_types: list[Any] = []

        # Results: a single scalar is returned by value; anything else comes back
        # through a pointer to a struct passed first.
        result_fields = []
        for index, type_ in enumerate(result_types):
            if is_ranked_shaped(type_):
                field_type = _descriptor_type(len(type_.get_shape()))
            else:
                field_type = _SCALAR_CTYPES[_dtype(type_)]
            result_fields.append((f"r{index}", field_type))
        returns_by_value = len(result_types) == 1 and not is_ranked_shaped(
            result_types[0]
        )
        results_struct = None
        if result_types and not returns_by_value:
            fields = {"_fields_": result_fields}
            results_type = type("Results", (ctypes.Structure,), fields)
            results_struct = results_type()
            call_args.append(ctypes.byref(results_struct))
            call_types.append(ctypes.c_void_p)

        for value, type_ in zip(inputs, arg_types, strict=True):
            dtype = _dtype(type_)
            if is_ranked_shaped(type_):
                array = np.ascontiguousarray(np.array(value, dtype=dtype))
                # The compiled code reads and writes this memory: it must outlive
                # the call.
                keep_alive.append(array)
                # A tensor argument is a value; upstream may still reuse its
                # buffer (function arguments are writable), so report the
                # value passed.
                is_buffer = isinstance(type_, MemRefType)
                arguments_after.append(array if is_buffer else value)
                descriptor = _descriptor_type(array.ndim)()
                pointer = array.ctypes.data
                descriptor.allocated = descriptor.aligned = pointer
                descriptor.offset = 0
                for axis, size in enumerate(array.shape):
                    descriptor.sizes[axis] = size
                    descriptor.strides[axis] = array.strides[axis] // dtype.itemsize
                keep_alive.append(descriptor)
                call_args.append(ctypes.byref(descriptor))
                call_types.append(ctypes.c_void_p)
            else:
                scalar_type = _SCALAR_CTYPES[dtype]
                scalar = np.array(value, dtype=dtype)
                if dtype == np.float16:
                    scalar = scalar.view(np.uint16)
                call_args.append(scalar_type(scalar.item()))
                call_types.append(scalar_type)
                arguments_after.append(value)

        return_type = result_fields[0][1] if returns_by_value else None
        prototype = ctypes.CFUNCTYPE(return_type, *call_types)
        returned = prototype(address)(*call_args)

        if returns_by_value:
            value = np.array(returned, dtype=_dtype(result_types[0])).item()
            return FunctionRun(results=[value], arguments=arguments_after)
        outputs: list[Any] = []
        for index, type_ in enumerate(result_types):
            field = getattr(results_struct, f"r{index}")
            if is_ranked_shaped(type_):
                outputs.append(_array_from_descriptor(field, _dtype(type_)))
            else:
                outputs.append(field)
        if free_results:
            allocations = {
                getattr(results_struct, f"r{index}").allocated
                for index, type_ in enumerate(result_types)
                if is_ranked_shaped(type_)
            }
            for allocation in allocations:
                _libc_free()(allocation)
        return FunctionRun(results=outputs, arguments=arguments_after)


def compile_upstream(
    source: str, module: ModuleOp, name: str, lowering: Sequence[str] = LOWERING
) -> UpstreamFunction:
    """`@name` of `source` compiled by upstream MLIR (see `run_upstream`)."""
    return UpstreamFunction(source, module, name, lowering)


@cache
def _libc_free() -> Any:
    free = ctypes.CDLL(None).free
    free.argtypes = [ctypes.c_void_p]
    free.restype = None
    return free
