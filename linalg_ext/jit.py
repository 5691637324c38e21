"""Run a module natively: lower it in Python, JIT it with llvmlite, call it with numpy.

    from linalg_ext.jit import compile_module

    compiled = compile_module(module)          # a ModuleOp, tensors or memrefs
    result = compiled["square"](x)             # numpy arrays and Python scalars in
    compiled.compile_seconds                   # what compiling took, by stage

Compilation, all in this process and without `mlir-opt`:

1. a program with tensors is bufferized first: `one-shot-bufferize` with
   function boundaries and identity layouts, then
   `buffer-deallocation-pipeline`. Tensor arguments of public functions are
   marked `bufferization.writable = false`, so a call never writes into the
   caller's arrays (the analysis copies only where the function would);
2. `lower-to-llvm` (passes/lower_to_llvm.py) takes the memref program to the
   `llvm` dialect;
3. xDSL's translation (with `linalg_ext.compat`'s additions) gives LLVM IR,
   to which a packed entry point `_lx_packed_<name>(ptr slots, ptr result,
   ptr nanoseconds)` is added per function: it reads argument i from the
   8-byte slot i (memref arguments are expanded into their descriptor's
   scalars), calls the function, stores its result through `result` and
   the call's duration through `nanoseconds` (`last_call_seconds`), so one
   ctypes signature calls any function and a call fills one int64 array;
4. llvmlite optimizes the IR at `-O3` (LLVM's new pass manager, loop and SLP
   vectorization on) for the host CPU and MCJIT compiles it.

Calling convention (what `JitFunction.__call__` does):

- a memref argument takes a numpy array of the element's dtype (i1 as int8
  or bool, index as int64) and fitting shape; it is passed as a descriptor
  pointing at the array's own memory (no copy: what the function writes
  into it, the caller sees). Strides are the array's, in elements;
- a scalar argument takes a Python or numpy scalar;
- a memref result comes back as a numpy array: a buffer the call allocated
  is owned by that array (freed when it is collected, no leak); a view of
  an argument is a view of that array; a constant (a `memref.global`) is
  copied. Several results come back as a tuple, none as None.

`run_function(compiled, name, inputs)` returns the interpreter's
`FunctionRun` shape (results, arguments after the call, leaks), so tools
compare the two backends value for value. Leaks are known when the module
was compiled with `track_memory=True`: allocation then goes through
`_mlir_memref_to_llvm_alloc`/`_free` (upstream's generic allocation
functions), bound here to functions that also count bytes
(`MemoryTracker`: current and peak).
"""

from __future__ import annotations

import ctypes
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from xdsl.dialects import func, llvm
from xdsl.dialects.builtin import (
    AnyFloat,
    ArrayAttr,
    BoolAttr,
    DictionaryAttr,
    IndexType,
    IntegerType,
    MemRefType,
    ModuleOp,
    NoneAttr,
    StridedLayoutAttr,
    StringAttr,
    SymbolRefAttr,
    TensorType,
    UnrankedMemRefType,
)
from xdsl.ir import Attribute
from xdsl.passes import PassPipeline
from xdsl.utils.exceptions import DiagnosticException

from linalg_ext.bufferization.layouts import row_major_strides
from linalg_ext.context import make_context
from linalg_ext.running import FunctionRun
from linalg_ext.semantics.arrays import is_i1, numpy_dtype

BUFFERIZATION = (
    "one-shot-bufferize{bufferize-function-boundaries=true "
    "function-boundary-type-conversion=identity-layout-map},"
    "buffer-deallocation-pipeline"
)
"""How a tensor program is bufferized before lowering."""

PACKED_PREFIX = "_lx_packed_"
"""Prefix of the generated `void(ptr)` entry point of each function."""

GLOBAL_MARKER = 0xDEADBEEF
"""The allocated pointer finalize-memref-to-llvm gives `memref.get_global`
descriptors (as upstream): such a buffer is a constant, never freed."""


class JitError(Exception):
    """Compiling or calling failed; the message says which function and why."""


# --------------------------------------------------------------------------
# LLVM (llvmlite) set-up


_llvm_ready = False


def _binding():
    """llvmlite's binding, with the native target initialised once."""
    global _llvm_ready
    import llvmlite.binding as llvm_binding

    if not _llvm_ready:
        llvm_binding.initialize_native_target()
        llvm_binding.initialize_native_asmprinter()
        _llvm_ready = True
    return llvm_binding


def _host_target_machine(opt_level: int):
    binding = _binding()
    target = binding.Target.from_default_triple()
    return target.create_target_machine(
        cpu=binding.get_host_cpu_name(),
        features=binding.get_host_cpu_features().flatten(),
        opt=opt_level,
        codemodel="jitdefault",
    )


_libc = ctypes.CDLL(None)
_libc.malloc.restype = ctypes.c_void_p
_libc.malloc.argtypes = [ctypes.c_size_t]
_libc.free.restype = None
_libc.free.argtypes = [ctypes.c_void_p]


# --------------------------------------------------------------------------
# Memory tracking (upstream's generic allocation functions)


@dataclass
class MemoryTracker:
    """Bytes the compiled code holds through `_mlir_memref_to_llvm_alloc`:
    now, at most since `reset`, and which pointers are still live."""

    current: int = 0
    peak: int = 0
    allocations: int = 0
    live: dict[int, int] = field(default_factory=dict[int, int])

    def reset(self) -> None:
        self.peak = self.current

    def allocate(self, size: int) -> int:
        pointer = _libc.malloc(max(size, 1)) or 0
        self.live[pointer] = size
        self.current += size
        self.allocations += 1
        self.peak = max(self.peak, self.current)
        return pointer

    def free(self, pointer: int | None) -> None:
        if not pointer:
            return
        size = self.live.pop(pointer, None)
        if size is not None:
            self.current -= size
        _libc.free(pointer)


TRACKER = MemoryTracker()
"""The process's one tracker: LLVM symbols are process-wide."""

_ALLOC_TYPE = ctypes.CFUNCTYPE(ctypes.c_void_p, ctypes.c_uint64)
_FREE_TYPE = ctypes.CFUNCTYPE(None, ctypes.c_void_p)
_alloc_callback = _ALLOC_TYPE(lambda size: TRACKER.allocate(size))
_free_callback = _FREE_TYPE(lambda pointer: TRACKER.free(pointer))
_symbols_bound = False


def _bind_tracking_symbols() -> None:
    global _symbols_bound
    if _symbols_bound:
        return
    binding = _binding()
    binding.add_symbol(
        "_mlir_memref_to_llvm_alloc",
        ctypes.cast(_alloc_callback, ctypes.c_void_p).value,
    )
    binding.add_symbol(
        "_mlir_memref_to_llvm_free",
        ctypes.cast(_free_callback, ctypes.c_void_p).value,
    )
    _symbols_bound = True


# --------------------------------------------------------------------------
# ctypes views of LLVM types


def _ctype(type_: Attribute) -> Any:
    """The ctypes type with the memory layout of an LLVM dialect type."""
    if isinstance(type_, llvm.LLVMPointerType):
        return ctypes.c_void_p
    if isinstance(type_, IntegerType):
        width = type_.width.data
        return {
            1: ctypes.c_uint8,
            8: ctypes.c_int8,
            16: ctypes.c_int16,
            32: ctypes.c_int32,
            64: ctypes.c_int64,
        }[width]
    if isinstance(type_, AnyFloat):
        width = type_.bitwidth
        return {16: ctypes.c_uint16, 32: ctypes.c_float, 64: ctypes.c_double}[width]
    if isinstance(type_, llvm.LLVMArrayType):
        return _ctype(type_.type) * type_.size.data
    if isinstance(type_, llvm.LLVMStructType):
        fields = [(f"f{i}", _ctype(t)) for i, t in enumerate(type_.types.data)]
        return type("LLVMStruct", (ctypes.Structure,), {"_fields_": fields})
    raise JitError(f"no ctypes layout for {type_}")


class _ArrayInterface:
    """Exposes raw memory to numpy; keeps `owner` alive as long as the array."""

    def __init__(self, pointer: int, shape, strides, dtype: np.dtype, owner: Any):
        self.__array_interface__ = {
            "data": (pointer, False),
            "shape": tuple(shape),
            "strides": tuple(strides),
            "typestr": dtype.str,
            "version": 3,
        }
        self.owner = owner


class _OwnedBuffer:
    """A buffer the compiled code allocated and returned: freed with it."""

    def __init__(self, pointer: int, tracked: bool):
        self.pointer = pointer
        self.tracked = tracked

    def __del__(self):
        if self.tracked:
            TRACKER.free(self.pointer)
        else:
            _libc.free(self.pointer)


# --------------------------------------------------------------------------
# Compiled functions


def _strides_checker(what: str, type_: MemRefType) -> Callable[..., int]:
    """For a memref type: (shape, strides in elements) -> the descriptor
    offset, after checking the array fits the layout: an identity layout
    needs a row-major contiguous array, a strided layout its static strides
    (a static offset is honoured by pointing the aligned pointer before the
    array)."""
    layout = type_.layout
    if isinstance(layout, NoneAttr):
        static: Sequence[int | None] | None = None
        offset = 0
        needs = "a row-major contiguous array (identity layout)"
    elif isinstance(layout, StridedLayoutAttr):
        static = layout.get_strides()
        offset = layout.get_offset() or 0
        needs = f"strides {layout}"
    else:
        raise JitError(f"{what}: layout {layout} is not supported")

    def check(shape: Sequence[int], strides: Sequence[int]) -> int:
        expected = row_major_strides(shape) if static is None else static
        for extent, want, have in zip(shape, expected, strides, strict=True):
            if extent > 1 and want is not None and want != have:
                raise JitError(
                    f"{what}: {type_} needs {needs}, the array has strides "
                    f"{list(strides)} (elements); pass np.ascontiguousarray(...) "
                    "or declare a strided layout"
                )
        return offset

    return check


def _argument_converter(
    what: str, type_: Attribute
) -> Callable[[Any], tuple[list[int], Any]]:
    """value -> (the 8-byte slots it is passed in, the array it is passed as
    or None), with the checks of `type_` prepared once."""
    if isinstance(type_, MemRefType):
        element = type_.get_element_type()
        dtype = numpy_dtype(element)
        accepted = {dtype, np.dtype(np.bool_)} if is_i1(element) else {dtype}
        static_shape = type_.get_shape()
        check_layout = _strides_checker(what, type_)

        def memref(value: Any) -> tuple[list[int], Any]:
            if not isinstance(value, np.ndarray):
                value = np.asarray(value, dtype=dtype)
            if value.dtype not in accepted:
                raise JitError(f"{what} has dtype {value.dtype}, {type_} needs {dtype}")
            shape = value.shape
            if len(static_shape) != len(shape) or any(
                e >= 0 and e != s for e, s in zip(static_shape, shape, strict=True)
            ):
                raise JitError(
                    f"{what} has shape {list(shape)}, which does not fit {type_}"
                )
            itemsize = value.itemsize
            if any(s % itemsize for s in value.strides):
                raise JitError(
                    f"{what}: strides {value.strides} are not whole elements"
                )
            strides = [s // itemsize for s in value.strides]
            offset = check_layout(shape, strides)
            pointer = value.__array_interface__["data"][0]
            aligned = pointer - offset * itemsize
            return [pointer, aligned, offset, *shape, *strides], value

        return memref
    if isinstance(type_, IntegerType) and type_.width.data == 1:
        return lambda value: ([1 if value else 0], None)
    if isinstance(type_, IndexType | IntegerType):
        width = 64 if isinstance(type_, IndexType) else type_.width.data
        mask = (1 << width) - 1

        def integer(value: Any) -> tuple[list[int], Any]:
            # Two's complement in the type's width, as int64 slot bits.
            bits = int(value) & mask
            return [bits - (1 << 64) if bits >= 1 << 63 else bits], None

        return integer
    if isinstance(type_, AnyFloat):
        kind = {16: np.float16, 32: np.float32, 64: np.float64}[type_.bitwidth]
        unsigned = f"u{type_.bitwidth // 8}"

        def floating(value: Any) -> tuple[list[int], Any]:
            raw = np.array(value, kind).view(unsigned).item()
            return [raw - (1 << 64) if raw >= 1 << 63 else raw], None

        return floating
    raise JitError(f"{what}: unsupported type {type_}")


@dataclass
class JitFunction:
    """A compiled function, called with numpy arrays and scalars."""

    name: str
    argument_types: list[Attribute]
    """The function's argument types after bufferization (memrefs, scalars)."""
    result_types: list[Attribute]
    _entry: Any
    """The packed entry point: `void(int64 *slots, void *result)`."""
    _result_ctype: Any
    _tracked: bool
    _engine: Any = None
    """The execution engine owning the code: alive as long as the function."""
    _converters: list[Callable[[Any], tuple[list[int], Any]]] = field(
        default_factory=list[Callable[[Any], tuple[list[int], Any]]]
    )
    """Per argument: value -> (its 8-byte slots, the array it is passed as)."""
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
        slots: list[int] = []
        passed: list[Any] = []
        inputs_by_pointer: dict[int, np.ndarray] = {}
        if not self._converters:
            self._converters = [
                _argument_converter(f"argument #{i} of @{self.name}", t)
                for i, t in enumerate(self.argument_types)
            ]
        for convert, value in zip(self._converters, arguments, strict=True):
            values, array = convert(value)
            if array is not None:
                inputs_by_pointer.setdefault(values[0], array)
                passed.append(array)
            else:
                passed.append(value)
            slots += values
        packed = np.array(slots, dtype=np.int64)
        result = self._result_ctype() if self._result_ctype is not None else None
        self._entry(
            packed.__array_interface__["data"][0],
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
        if len(self.result_types) == 1:
            values = [result]
        else:
            values = [getattr(result, f"f{i}") for i in range(len(self.result_types))]
        owners: dict[int, Any] = {}
        unpacked = [
            self._python_value(v, t, inputs, owners)
            for v, t in zip(values, self.result_types, strict=True)
        ]
        return unpacked[0] if len(unpacked) == 1 else tuple(unpacked)

    def _python_value(
        self, value: Any, type_: Attribute, inputs: dict[int, np.ndarray], owners
    ) -> Any:
        if not isinstance(type_, MemRefType):
            if isinstance(type_, AnyFloat) and type_.bitwidth == 16:
                return float(np.uint16(value).view(np.float16))
            if isinstance(value, ctypes._SimpleCData):
                value = value.value
            return value
        rank = len(type_.get_shape())
        dtype = numpy_dtype(type_.get_element_type())
        allocated = value.f0 or 0
        aligned = value.f1 or 0
        offset = value.f2
        shape = list(value.f3) if rank else []
        strides = [s * dtype.itemsize for s in value.f4] if rank else []
        pointer = aligned + offset * dtype.itemsize
        if allocated == GLOBAL_MARKER:
            if 0 in shape:
                return np.zeros(shape, dtype)
            view = np.asarray(_ArrayInterface(pointer, shape, strides, dtype, None))
            return view.copy()
        if allocated in inputs:
            owner: Any = inputs[allocated]
        else:
            owner = owners.get(allocated)
            if owner is None and allocated:
                owner = owners[allocated] = _OwnedBuffer(allocated, self._tracked)
        if 0 in shape:
            # Nothing to view; a buffer allocated for it is freed with `owners`.
            return np.zeros(shape, dtype)
        return np.asarray(_ArrayInterface(pointer, shape, strides, dtype, owner))


_PACKED_SIGNATURE = ctypes.CFUNCTYPE(
    None, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p
)


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


def _has_tensors(module: ModuleOp) -> bool:
    for op in module.walk():
        for value in (*op.operands, *op.results):
            if isinstance(value.type, TensorType):
                return True
        if isinstance(op, func.FuncOp) and any(
            isinstance(t, TensorType)
            for t in (*op.function_type.inputs, *op.function_type.outputs)
        ):
            return True
    return False


def _mark_tensor_arguments_read_only(module: ModuleOp) -> None:
    """Calls must not write into the caller's arrays: a tensor is a value."""
    for op in module.ops:
        if not isinstance(op, func.FuncOp) or op.is_declaration:
            continue
        if op.sym_visibility == StringAttr("private"):
            continue
        inputs = op.function_type.inputs.data
        old = op.arg_attrs.data if op.arg_attrs is not None else None
        new = []
        for index, type_ in enumerate(inputs):
            attrs = dict(old[index].data) if old is not None else {}
            if isinstance(type_, TensorType):
                attrs.setdefault("bufferization.writable", BoolAttr.from_bool(False))
            new.append(DictionaryAttr(attrs))
        op.arg_attrs = ArrayAttr(new)


def _apply(pipeline: str, module: ModuleOp) -> None:
    from linalg_ext.tools.check import parse_pipeline

    PassPipeline(tuple(parse_pipeline(pipeline).passes)).apply(make_context(), module)


def _signatures(module: ModuleOp) -> dict[str, func.FuncOp]:
    return {
        op.sym_name.data: op
        for op in module.ops
        if isinstance(op, func.FuncOp)
        and not op.is_declaration
        and op.sym_visibility != StringAttr("private")
    }


DEFINED_PREFIX = "_lx_fn_"
"""Prefix given to every function the module defines, in the machine code."""


def _rename_defined_functions(module: ModuleOp) -> None:
    """Prefix the names of the functions `module` defines (and the references
    to them): LLVM lowers some intrinsics to libm calls (`llvm.pow.f32` ->
    `powf`), which would otherwise bind to a user function of that name.
    Declarations keep their names: they are the external symbols."""
    renamed = {
        op.sym_name.data
        for op in module.ops
        if isinstance(op, llvm.FuncOp) and op.body.blocks
    }
    for op in module.walk():
        if isinstance(op, llvm.FuncOp) and op.sym_name.data in renamed:
            op.sym_name = StringAttr(DEFINED_PREFIX + op.sym_name.data)
        elif isinstance(op, llvm.CallOp) and op.callee is not None:
            callee = op.callee.string_value()
            if callee in renamed:
                op.callee = SymbolRefAttr(DEFINED_PREFIX + callee)
        elif isinstance(op, llvm.AddressOfOp):
            target = op.global_name.string_value()
            if target in renamed:
                op.global_name = SymbolRefAttr(DEFINED_PREFIX + target)


RUNTIME_MALLOC = "_lx_malloc"
"""What the compiled code's `malloc` calls are routed to (see below)."""

HUGE_PAGE_THRESHOLD = (32 << 20) + 1
"""Buffers at least this large are advised for transparent huge pages: those
larger than glibc's largest mmap threshold (32 MiB), which `malloc` maps
afresh, and the kernel faults in page by page, on every call. Smaller ones
are reused from malloc's heap after the first call, with no faults."""

HUGE_PAGE = 2 << 20
MADV_HUGEPAGE = 14


def _route_malloc(module: ModuleOp) -> bool:
    """Point the module's `malloc` calls at `_lx_malloc` (defined by
    `_define_runtime_malloc`); returns whether it calls `malloc` at all."""
    found = False
    for op in module.walk():
        if isinstance(op, llvm.FuncOp) and op.sym_name.data == "malloc":
            op.sym_name = StringAttr(RUNTIME_MALLOC)
            found = True
        elif (
            isinstance(op, llvm.CallOp)
            and op.callee is not None
            and op.callee.string_value() == "malloc"
        ):
            op.callee = SymbolRefAttr(RUNTIME_MALLOC)
    return found


def _define_runtime_malloc(llvm_module: Any) -> None:
    """`_lx_malloc(size)`: `malloc` for small buffers; for large ones
    (`HUGE_PAGE_THRESHOLD`) `posix_memalign` at 2 MiB and `madvise(...,
    MADV_HUGEPAGE)`, as numpy does for its own large arrays. Freed with
    `free` either way. A 64 MiB result then costs 32 page faults instead of
    16384, which otherwise dominate an elementwise kernel (3x its time)."""
    from llvmlite import ir

    pointer = ir.PointerType()
    i32, i64 = ir.IntType(32), ir.IntType(64)

    def declared(name: str, type_: ir.FunctionType) -> Any:
        if name in llvm_module.globals:
            return llvm_module.get_global(name)
        return ir.Function(llvm_module, type_, name=name)

    malloc = declared("malloc", ir.FunctionType(pointer, [i64]))
    memalign = declared("posix_memalign", ir.FunctionType(i32, [pointer, i64, i64]))
    madvise = declared("madvise", ir.FunctionType(i32, [pointer, i64, i32]))
    function = llvm_module.get_global(RUNTIME_MALLOC)
    (size,) = function.args
    entry = function.append_basic_block("entry")
    small = function.append_basic_block("small")
    large = function.append_basic_block("large")
    advise = function.append_basic_block("advise")
    failed = function.append_basic_block("failed")
    builder = ir.IRBuilder(entry)
    slot = builder.alloca(pointer)
    is_large = builder.icmp_unsigned(">=", size, ir.Constant(i64, HUGE_PAGE_THRESHOLD))
    builder.cbranch(is_large, large, small)
    builder.position_at_end(small)
    builder.ret(builder.call(malloc, [size]))
    builder.position_at_end(large)
    status = builder.call(memalign, [slot, ir.Constant(i64, HUGE_PAGE), size])
    builder.cbranch(
        builder.icmp_signed("==", status, ir.Constant(i32, 0)), advise, failed
    )
    builder.position_at_end(advise)
    buffer = builder.load(slot, typ=pointer)
    builder.call(madvise, [buffer, size, ir.Constant(i32, MADV_HUGEPAGE)])
    builder.ret(buffer)
    builder.position_at_end(failed)
    builder.ret(ir.Constant(pointer, None))


CLOCK_MONOTONIC = 1
"""Linux's clock id for `clock_gettime`, which the entry points time with."""


def _add_packed_entry_points(llvm_module: Any, names: Sequence[str]) -> None:
    """`_lx_packed_<name>(ptr slots, ptr result, ptr nanoseconds)`: argument
    i (every argument is a scalar of at most 8 bytes once memrefs are
    expanded) is read from the 8-byte slot i, the result is stored through
    `result`, and the time the call took (monotonic clock, read just before
    and after it, as upstream's benchmarks read `rtclock`) through
    `nanoseconds`. Python fills one int64 array per call."""
    from llvmlite import ir

    pointer = ir.PointerType()
    i32, i64 = ir.IntType(32), ir.IntType(64)
    timespec = ir.LiteralStructType([i64, i64])
    clock_gettime = ir.Function(
        llvm_module, ir.FunctionType(i32, [i32, pointer]), name="clock_gettime"
    )

    def now(builder: ir.IRBuilder, storage: Any) -> Any:
        builder.call(clock_gettime, [ir.Constant(i32, CLOCK_MONOTONIC), storage])
        seconds = builder.load(
            builder.gep(storage, [ir.Constant(i32, 0), ir.Constant(i32, 0)]), typ=i64
        )
        nanos = builder.load(
            builder.gep(storage, [ir.Constant(i32, 0), ir.Constant(i32, 1)]), typ=i64
        )
        return builder.add(builder.mul(seconds, ir.Constant(i64, 10**9)), nanos)

    for name in names:
        callee = llvm_module.get_global(DEFINED_PREFIX + name)
        function_type = callee.function_type
        wrapper = ir.Function(
            llvm_module,
            ir.FunctionType(ir.VoidType(), [pointer, pointer, pointer]),
            name=PACKED_PREFIX + name,
        )
        builder = ir.IRBuilder(wrapper.append_basic_block("entry"))
        slots, result, elapsed = wrapper.args
        storage = builder.alloca(timespec)
        loaded = []
        for i, argument_type in enumerate(function_type.args):
            slot = builder.gep(slots, [ir.Constant(i64, i)], source_etype=i64)
            loaded.append(builder.load(slot, typ=argument_type))
        start = now(builder, storage)
        returned = builder.call(callee, loaded)
        builder.store(builder.sub(now(builder, storage), start), elapsed)
        if not isinstance(function_type.return_type, ir.VoidType):
            builder.store(returned, result)
        builder.ret_void()


def compile_module(
    module: ModuleOp,
    *,
    opt_level: int = 3,
    track_memory: bool = False,
) -> JitModule:
    """Compile every public function of `module` (see the module docstring).

    Raises `JitError` naming what could not be compiled."""
    from linalg_ext.compat import install

    install()
    times = CompileTimes()
    work = module.clone()
    start = time.perf_counter()
    if _has_tensors(work):
        _mark_tensor_arguments_read_only(work)
        try:
            _apply(BUFFERIZATION, work)
        except DiagnosticException as error:
            raise JitError(f"cannot bufferize: {error}") from error
    times.bufferization = time.perf_counter() - start
    signatures = {
        name: (
            list(op.function_type.inputs.data),
            list(op.function_type.outputs.data),
        )
        for name, op in _signatures(work).items()
    }
    for name, (inputs, outputs) in signatures.items():
        for type_ in (*inputs, *outputs):
            if isinstance(type_, UnrankedMemRefType | TensorType):
                raise JitError(f"@{name}: cannot pass {type_} to compiled code")
    start = time.perf_counter()
    from linalg_ext.passes.lower_to_llvm import LowerToLLVMPass

    try:
        LowerToLLVMPass(use_generic_functions=track_memory).apply(make_context(), work)
    except DiagnosticException as error:
        raise JitError(str(error)) from error
    times.lowering = time.perf_counter() - start

    start = time.perf_counter()
    from xdsl.backend.llvm.convert import convert_module

    _rename_defined_functions(work)
    calls_malloc = _route_malloc(work)
    try:
        llvm_module = convert_module(work, fallback_target_triple=None)
    except (NotImplementedError, Exception) as error:
        raise JitError(f"cannot translate to LLVM IR: {error}") from error
    _add_packed_entry_points(llvm_module, list(signatures))
    if calls_malloc:
        _define_runtime_malloc(llvm_module)
    llvm_ir = str(llvm_module)
    times.translation = time.perf_counter() - start

    start = time.perf_counter()
    binding = _binding()
    if track_memory:
        _bind_tracking_symbols()
    machine = _host_target_machine(opt_level)
    try:
        parsed = binding.parse_assembly(llvm_ir)
        parsed.triple = machine.triple
        parsed.data_layout = str(machine.target_data)
        parsed.verify()
    except RuntimeError as error:
        raise JitError(f"invalid LLVM IR: {error}") from error
    if opt_level > 0:
        tuning = binding.create_pipeline_tuning_options(speed_level=opt_level)
        tuning.loop_vectorization = True
        tuning.slp_vectorization = True
        builder = binding.create_pass_builder(machine, tuning)
        builder.getModulePassManager().run(parsed, builder)
    engine = binding.create_mcjit_compiler(parsed, machine)
    engine.finalize_object()
    times.llvm = time.perf_counter() - start

    functions: dict[str, JitFunction] = {}
    lowered_types = {
        op.sym_name.data: op.function_type
        for op in work.ops
        if isinstance(op, llvm.FuncOp)
    }
    for name, (inputs, outputs) in signatures.items():
        output_type = lowered_types[DEFINED_PREFIX + name].output
        result_ctype = (
            None if isinstance(output_type, llvm.LLVMVoidType) else _ctype(output_type)
        )
        functions[name] = JitFunction(
            name=name,
            argument_types=inputs,
            result_types=outputs,
            _entry=_PACKED_SIGNATURE(engine.get_function_address(PACKED_PREFIX + name)),
            _result_ctype=result_ctype,
            _tracked=track_memory,
            _engine=engine,
        )
    return JitModule(functions, times, llvm_ir, track_memory, engine)


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
    base = array
    while isinstance(base, np.ndarray) and base.base is not None:
        base = base.base
    if isinstance(base, _ArrayInterface) and isinstance(base.owner, _OwnedBuffer):
        return base.owner.pointer
    return None
