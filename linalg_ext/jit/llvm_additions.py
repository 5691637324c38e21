"""What the JIT adds to a module on its way to machine code.

On the `llvm` dialect module, before translation:

- `rename_defined_functions`: every function the module defines gets the
  prefix `_lx_fn_`, so that no user function is mistaken for a C library
  function LLVM calls (`llvm.pow.f32` becomes a call to `powf`);
- `route_malloc`: its `malloc` calls go to `_lx_malloc`.

On the translated llvmlite module:

- `define_runtime_malloc`: `_lx_malloc`, which gives large buffers
  transparent huge pages;
- `add_packed_entry_points`: `_lx_packed_<name>(ptr slots, ptr result,
  ptr nanoseconds)` per public function, which reads the arguments from
  8-byte slots (`linalg_ext.calling_convention.pack_slots`), calls the
  function, stores its result and the time the call took.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from xdsl.dialects import llvm
from xdsl.dialects.builtin import ModuleOp, StringAttr, SymbolRefAttr

PACKED_PREFIX = "_lx_packed_"
"""Prefix of the generated entry point of each function."""

DEFINED_PREFIX = "_lx_fn_"
"""Prefix given to every function the module defines, in the machine code."""


def rename_defined_functions(module: ModuleOp) -> None:
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


def route_malloc(module: ModuleOp) -> bool:
    """Point the module's `malloc` calls at `_lx_malloc` (defined by
    `define_runtime_malloc`); returns whether it calls `malloc` at all."""
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


def define_runtime_malloc(llvm_module: Any) -> None:
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


def add_packed_entry_points(llvm_module: Any, names: Sequence[str]) -> None:
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
