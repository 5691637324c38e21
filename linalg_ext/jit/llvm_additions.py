"""What the JIT adds to a module on its way to machine code.

On the `llvm` dialect module, before translation:

- `rename_defined_functions`: every function the module defines gets the
  prefix `_lx_fn_`, so that no user function is mistaken for a C library
  function LLVM calls (`llvm.pow.f32` becomes a call to `powf`);
- `route_calls`: its allocation calls (`malloc`, or
  `_mlir_memref_to_llvm_alloc` when tracked) go to `_lx_malloc`, its
  `free` calls (untracked) to `_lx_free`.

On the translated llvmlite module:

- `define_runtime_malloc`: `_lx_malloc`, which gives large buffers
  transparent huge pages, fails the call when there is no memory, and notes
  the buffers a call holds in its context; `define_runtime_free`:
  `_lx_free`, which takes them out (so that a failed call's are freed);
- `define_runtime_fail`: `_lx_fail`, the function a failing check calls
  (linalg_ext/lowering/llvm_asserts.py), which ends the call
  (linalg_ext/jit/failures.py);
- `add_packed_entry_points`: `_lx_packed_<name>(ptr slots, ptr result,
  ptr nanoseconds, ptr context)` per public function, which returns 0, or 1
  when the call failed. It resets the module's mutable globals, keeps the
  context for `_lx_fail`, then reads the arguments from 8-byte slots
  (`linalg_ext.calling_convention.pack_slots`), calls the function, stores
  its result and the time the call took.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from xdsl.dialects import llvm
from xdsl.dialects.builtin import ModuleOp, StringAttr, SymbolRefAttr

from linalg_ext.jit.failures import (
    CONTEXT_COUNT,
    CONTEXT_LIVE,
    CONTEXT_LIVE_COUNT,
    CONTEXT_TEMPLATE,
    CONTEXT_VALUES,
    FAILED,
    JMP_BUF_WORD,
    MAX_LIVE_BUFFERS,
)
from linalg_ext.lowering.llvm_asserts import FAIL_FUNCTION, MAX_FAIL_VALUES

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

RUNTIME_FREE = "_lx_free"
"""What the compiled code's `free` calls are routed to (untracked)."""

HUGE_PAGE_THRESHOLD = (32 << 20) + 1
"""Buffers at least this large are advised for transparent huge pages: those
larger than glibc's largest mmap threshold (32 MiB), which `malloc` maps
afresh, and the kernel faults in page by page, on every call. Smaller ones
are reused from malloc's heap after the first call, with no faults (the
JIT fixes glibc's thresholds for that: `memory.keep_freed_buffers_mapped`)."""

HUGE_PAGE = 2 << 20
MADV_HUGEPAGE = 14


ALLOCATION_FAILED = "memref.alloc: cannot allocate {} bytes"
"""The message of a call whose allocation failed (the interpreter's)."""


def route_calls(module: ModuleOp, callee: str, target: str) -> bool:
    """Point the module's calls of `callee` (and its declaration) at
    `target`; returns whether it calls it at all. The JIT routes `malloc`
    (or `_mlir_memref_to_llvm_alloc`) to `_lx_malloc` and `free` to
    `_lx_free`, which it defines."""
    found = False
    for op in module.walk():
        if isinstance(op, llvm.FuncOp) and op.sym_name.data == callee:
            op.sym_name = StringAttr(target)
            found = True
        elif (
            isinstance(op, llvm.CallOp)
            and op.callee is not None
            and op.callee.string_value() == callee
        ):
            op.callee = SymbolRefAttr(target)
    return found


def _declared(llvm_module: Any, name: str, type_: Any) -> Any:
    """The module's function `name`, declared with `type_` if it has none."""
    from llvmlite import ir

    if name in llvm_module.globals:
        return llvm_module.get_global(name)
    return ir.Function(llvm_module, type_, name=name)


def declared_function(llvm_module: Any, name: str, type_: Any) -> Any:
    """The module's function `name`, declared with `type_` if it has none
    (for the JIT's other run-time code, linalg_ext/jit/parallel.py)."""
    return _declared(llvm_module, name, type_)


def constant_string(llvm_module: Any, name: str, text: str) -> Any:
    """A private constant, null-terminated copy of `text` (for the JIT's
    other run-time code, linalg_ext/jit/parallel.py)."""
    return _c_string(llvm_module, name, text)


def _c_string(llvm_module: Any, name: str, text: str) -> Any:
    """A private constant, null-terminated copy of `text`."""
    from llvmlite import ir

    data = bytearray(text.encode("utf-8") + b"\0")
    constant = ir.Constant(ir.ArrayType(ir.IntType(8), len(data)), data)
    # llvmlite's annotations type `initializer` as None.
    variable: Any = ir.GlobalVariable(llvm_module, constant.type, name=name)
    variable.linkage = "private"
    variable.global_constant = True
    variable.initializer = constant
    return variable


def define_runtime_malloc(llvm_module: Any, allocator: str, key: int) -> None:
    """`_lx_malloc(size)`: `allocator`, checked: when it gives no memory for
    a nonzero size, the call fails with ALLOCATION_FAILED (`_lx_fail`).
    `malloc` is used as it is for small buffers; for large ones
    (`HUGE_PAGE_THRESHOLD`) `posix_memalign` at 2 MiB and `madvise(...,
    MADV_HUGEPAGE)`, as numpy does for its own large arrays. Freed with
    `free` either way. A 64 MiB result then costs 32 page faults instead of
    16384, which otherwise dominate an elementwise kernel (3x its time).
    A buffer from `malloc` is also noted in the call's context (`_note`),
    so that a call that fails frees it. The tracked allocator
    (`_mlir_memref_to_llvm_alloc`) is only checked: tracking frees what a
    failed call held."""
    from llvmlite import ir

    pointer = ir.PointerType()
    i32, i64 = ir.IntType(32), ir.IntType(64)
    allocate = _declared(llvm_module, allocator, ir.FunctionType(pointer, [i64]))
    fail = declare_runtime_fail(llvm_module)
    template = _c_string(llvm_module, "__lx_allocation_failed", ALLOCATION_FAILED)
    function = llvm_module.get_global(RUNTIME_MALLOC)
    (size,) = function.args
    entry = function.append_basic_block("entry")
    failed = function.append_basic_block("failed")
    checked = function.append_basic_block("checked")
    builder = ir.IRBuilder(entry)
    value = builder.alloca(i64)
    if allocator == "malloc":
        memalign = _declared(
            llvm_module, "posix_memalign", ir.FunctionType(i32, [pointer, i64, i64])
        )
        madvise = _declared(
            llvm_module, "madvise", ir.FunctionType(i32, [pointer, i64, i32])
        )
        small = function.append_basic_block("small")
        large = function.append_basic_block("large")
        advise = function.append_basic_block("advise")
        slot = builder.alloca(pointer)
        threshold = ir.Constant(i64, HUGE_PAGE_THRESHOLD)
        builder.cbranch(builder.icmp_unsigned(">=", size, threshold), large, small)
        builder.position_at_end(small)
        plain = builder.call(allocate, [size])
        builder.branch(checked)
        builder.position_at_end(large)
        status = builder.call(memalign, [slot, ir.Constant(i64, HUGE_PAGE), size])
        builder.cbranch(
            builder.icmp_signed("==", status, ir.Constant(i32, 0)), advise, failed
        )
        builder.position_at_end(advise)
        aligned = builder.load(slot, typ=pointer)
        builder.call(madvise, [aligned, size, ir.Constant(i32, MADV_HUGEPAGE)])
        builder.branch(checked)
        builder.position_at_end(checked)
        buffer = builder.phi(pointer)
        buffer.add_incoming(plain, small)
        buffer.add_incoming(aligned, advise)
    else:
        buffer = builder.call(allocate, [size])
        builder.branch(checked)
        builder.position_at_end(checked)
    is_null = builder.icmp_unsigned("==", buffer, ir.Constant(pointer, None))
    is_empty = builder.icmp_unsigned("==", size, ir.Constant(i64, 0))
    refused = builder.and_(is_null, builder.not_(is_empty))
    ok = function.append_basic_block("ok")
    builder.cbranch(refused, failed, ok)
    builder.position_at_end(ok)
    if allocator == "malloc":
        _note(llvm_module, builder, key, buffer)
    builder.ret(buffer)
    builder.position_at_end(failed)
    builder.store(size, value)
    builder.call(fail, [template, ir.Constant(i64, 1), value])
    builder.unreachable()


def _context_word(builder: Any, context: Any, index: Any) -> Any:
    """The address of word `index` (an int or an i64) of a context."""
    from llvmlite import ir

    i64 = ir.IntType(64)
    if isinstance(index, int):
        index = ir.Constant(i64, index)
    return builder.gep(context, [index], source_etype=i64)


def _thread_context(llvm_module: Any, builder: Any, key: int) -> Any:
    """The context of the call running on this thread (null outside one)."""
    from llvmlite import ir

    getspecific = _declared(
        llvm_module,
        "pthread_getspecific",
        ir.FunctionType(ir.PointerType(), [ir.IntType(32)]),
    )
    return builder.call(getspecific, [ir.Constant(ir.IntType(32), key)])


def _note(llvm_module: Any, builder: Any, key: int, buffer: Any) -> None:
    """Add `buffer` (not null) to the live buffers of the running call's
    context, if there is a call and room (MAX_LIVE_BUFFERS); the builder
    ends in a new block."""
    from llvmlite import ir

    i64, pointer = ir.IntType(64), ir.PointerType()
    function = builder.function
    context = _thread_context(llvm_module, builder, key)
    has_room = function.append_basic_block("note")
    done = function.append_basic_block("noted")
    in_call = builder.icmp_unsigned("!=", context, ir.Constant(pointer, None))
    look = function.append_basic_block("look")
    builder.cbranch(in_call, look, done)
    builder.position_at_end(look)
    count_word = _context_word(builder, context, CONTEXT_LIVE_COUNT)
    count = builder.load(count_word, typ=i64)
    room = builder.icmp_unsigned("<", count, ir.Constant(i64, MAX_LIVE_BUFFERS))
    builder.cbranch(room, has_room, done)
    builder.position_at_end(has_room)
    index = builder.add(count, ir.Constant(i64, CONTEXT_LIVE))
    builder.store(builder.ptrtoint(buffer, i64), _context_word(builder, context, index))
    builder.store(builder.add(count, ir.Constant(i64, 1)), count_word)
    builder.branch(done)
    builder.position_at_end(done)


def define_runtime_free(llvm_module: Any, key: int) -> None:
    """`_lx_free(buffer)`: `free`, after taking `buffer` out of the live
    buffers of the running call's context (see `_note`): the last entry
    takes its place."""
    from llvmlite import ir

    i64, pointer = ir.IntType(64), ir.PointerType()
    free = _declared(llvm_module, "free", ir.FunctionType(ir.VoidType(), [pointer]))
    function = llvm_module.get_global(RUNTIME_FREE)
    (buffer,) = function.args
    entry = function.append_basic_block("entry")
    search = function.append_basic_block("search")
    loop = function.append_basic_block("loop")
    compare = function.append_basic_block("compare")
    found = function.append_basic_block("found")
    release = function.append_basic_block("release")
    builder = ir.IRBuilder(entry)
    context = _thread_context(llvm_module, builder, key)
    in_call = builder.icmp_unsigned("!=", context, ir.Constant(pointer, None))
    builder.cbranch(in_call, search, release)
    builder.position_at_end(search)
    count_word = _context_word(builder, context, CONTEXT_LIVE_COUNT)
    count = builder.load(count_word, typ=i64)
    address = builder.ptrtoint(buffer, i64)
    builder.branch(loop)
    builder.position_at_end(loop)
    index = builder.phi(i64)
    index.add_incoming(ir.Constant(i64, 0), search)
    builder.cbranch(builder.icmp_unsigned("<", index, count), compare, release)
    builder.position_at_end(compare)
    word = _context_word(
        builder, context, builder.add(index, ir.Constant(i64, CONTEXT_LIVE))
    )
    next_index = builder.add(index, ir.Constant(i64, 1))
    index.add_incoming(next_index, compare)
    matches = builder.icmp_unsigned("==", builder.load(word, typ=i64), address)
    builder.cbranch(matches, found, loop)
    builder.position_at_end(found)
    last = builder.sub(count, ir.Constant(i64, 1))
    last_word = _context_word(
        builder, context, builder.add(last, ir.Constant(i64, CONTEXT_LIVE))
    )
    builder.store(builder.load(last_word, typ=i64), word)
    builder.store(last, count_word)
    builder.branch(release)
    builder.position_at_end(release)
    builder.call(free, [buffer])
    builder.ret_void()


def declare_runtime_fail(llvm_module: Any) -> Any:
    """The module's `_lx_fail` (declared if it is not), marked as never
    returning."""
    from llvmlite import ir

    pointer = ir.PointerType()
    function = _declared(
        llvm_module,
        FAIL_FUNCTION,
        ir.FunctionType(ir.VoidType(), [pointer, ir.IntType(64), pointer]),
    )
    function.attributes.add("noreturn")
    function.attributes.add("cold")
    return function


def define_runtime_fail(llvm_module: Any, key: int) -> None:
    """`_lx_fail(ptr template, i64 count, ptr values)`, if the module calls
    it: the context of the call running on this thread
    (`pthread_getspecific(key)`) gets the template, the count (at most
    MAX_FAIL_VALUES) and the values, and the call jumps back to its entry
    point (`longjmp`). With no call running (it cannot happen from Python)
    the process aborts."""
    from llvmlite import ir

    if FAIL_FUNCTION not in llvm_module.globals:
        return
    pointer = ir.PointerType()
    i32, i64 = ir.IntType(32), ir.IntType(64)
    function = declare_runtime_fail(llvm_module)
    if not function.is_declaration:
        return
    function.attributes.add("noinline")
    function.linkage = "internal"
    getspecific = _declared(
        llvm_module, "pthread_getspecific", ir.FunctionType(pointer, [i32])
    )
    longjmp = _declared(
        llvm_module, "longjmp", ir.FunctionType(ir.VoidType(), [pointer, i32])
    )
    longjmp.attributes.add("noreturn")
    abort = _declared(llvm_module, "abort", ir.FunctionType(ir.VoidType(), []))
    abort.attributes.add("noreturn")
    memcpy = llvm_module.declare_intrinsic("llvm.memcpy", [pointer, pointer, i64])
    template, count, values = function.args
    builder = ir.IRBuilder(function.append_basic_block("entry"))
    store = function.append_basic_block("store")
    orphan = function.append_basic_block("orphan")
    context = builder.call(getspecific, [ir.Constant(i32, key)])
    builder.cbranch(
        builder.icmp_unsigned("==", context, ir.Constant(pointer, None)), orphan, store
    )
    builder.position_at_end(orphan)
    builder.call(abort, [])
    builder.unreachable()
    builder.position_at_end(store)

    def word(index: int) -> Any:
        return builder.gep(context, [ir.Constant(i64, index)], source_etype=i64)

    builder.store(builder.ptrtoint(template, i64), word(CONTEXT_TEMPLATE))
    limit = ir.Constant(i64, MAX_FAIL_VALUES)
    kept = builder.select(builder.icmp_unsigned("<", count, limit), count, limit)
    builder.store(kept, word(CONTEXT_COUNT))
    size = builder.mul(kept, ir.Constant(i64, 8))
    builder.call(
        memcpy, [word(CONTEXT_VALUES), values, size, ir.Constant(ir.IntType(1), 0)]
    )
    builder.call(longjmp, [word(JMP_BUF_WORD), ir.Constant(i32, 1)])
    builder.unreachable()


CLOCK_MONOTONIC = 1
"""Linux's clock id for `clock_gettime`, which the entry points time with."""


RUN_PREFIX = "_lx_run_"
"""Prefix of the function an entry point calls once it can fail cleanly:
it reads the arguments, calls the compiled function, stores the results."""

INITIAL_SUFFIX = ".lx_initial"
"""Suffix of the constant copy of a mutable global's initial value."""


def _size_of(builder: Any, type_: Any) -> Any:
    """The size of `type_` in bytes, as an i64 (a constant once folded)."""
    from llvmlite import ir

    pointer = ir.PointerType()
    end = builder.gep(
        ir.Constant(pointer, None), [ir.Constant(ir.IntType(64), 1)], source_etype=type_
    )
    return builder.ptrtoint(end, ir.IntType(64))


def mutable_globals(llvm_module: Any, keep: Sequence[str] = ()) -> list[Any]:
    """The module's global variables a call may change: not constant, with
    an initial value, and not in `keep` (globals known never to be
    written)."""
    from llvmlite import ir

    return [
        value
        for value in llvm_module.global_values
        if isinstance(value, ir.GlobalVariable)
        and not value.global_constant
        and value.initializer is not None
        and value.name not in keep
    ]


def _reset_globals(llvm_module: Any, builder: Any, variables: Sequence[Any]) -> None:
    """Copy each variable's initial value (kept in a constant twin) into it:
    each call starts from the module's initial state, as the interpreter
    does."""
    from llvmlite import ir

    if not variables:
        return
    pointer, i64 = ir.PointerType(), ir.IntType(64)
    memcpy = llvm_module.declare_intrinsic("llvm.memcpy", [pointer, pointer, i64])
    for variable in variables:
        name = variable.name + INITIAL_SUFFIX
        if name in llvm_module.globals:
            initial = llvm_module.get_global(name)
        else:
            initial = ir.GlobalVariable(llvm_module, variable.value_type, name=name)
            initial.linkage = "private"
            initial.global_constant = True
            initial.initializer = variable.initializer
        size = _size_of(builder, variable.value_type)
        builder.call(memcpy, [variable, initial, size, ir.Constant(ir.IntType(1), 0)])


def add_packed_entry_points(
    llvm_module: Any,
    names: Sequence[str],
    key: int,
    reset: Sequence[Any] = (),
) -> None:
    """`_lx_packed_<name>(ptr slots, ptr result, ptr nanoseconds, ptr
    context)` per function name, returning 0, or FAILED when the call
    failed:

    - it copies the initial values of the global variables `reset` into
      them (`mutable_globals`), so that every call starts afresh;
    - it makes `context` the thread's (`pthread_setspecific(key, ...)`,
      the previous one restored on return) and saves its registers in it
      (`setjmp`), where `_lx_fail` jumps back to (linalg_ext/jit/failures.py);
    - it calls `_lx_run_<name>` (not inlined: only this small function
      calls `setjmp`, which LLVM optimizes around with care), which reads
      argument i (every argument is a scalar of at most 8 bytes once memrefs
      are expanded) from the 8-byte slot i, calls the function, stores the
      result through `result` and the time the call took (monotonic clock,
      read just before and after it, as upstream's benchmarks read
      `rtclock`) through `nanoseconds`.

    Python fills one int64 array of slots and one context per call."""
    from llvmlite import ir

    pointer = ir.PointerType()
    i32, i64 = ir.IntType(32), ir.IntType(64)
    timespec = ir.LiteralStructType([i64, i64])
    clock_gettime = _declared(
        llvm_module, "clock_gettime", ir.FunctionType(i32, [i32, pointer])
    )
    getspecific = _declared(
        llvm_module, "pthread_getspecific", ir.FunctionType(pointer, [i32])
    )
    setspecific = _declared(
        llvm_module, "pthread_setspecific", ir.FunctionType(i32, [i32, pointer])
    )
    setjmp = _declared(llvm_module, "_setjmp", ir.FunctionType(i32, [pointer]))
    setjmp.attributes.add("returns_twice")
    thread_key = ir.Constant(i32, key)

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
        run = ir.Function(
            llvm_module,
            ir.FunctionType(ir.VoidType(), [pointer, pointer, pointer]),
            name=RUN_PREFIX + name,
        )
        run.linkage = "internal"
        run.attributes.add("noinline")
        builder = ir.IRBuilder(run.append_basic_block("entry"))
        slots, result, elapsed = run.args
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

        entry = ir.Function(
            llvm_module,
            ir.FunctionType(i32, [pointer, pointer, pointer, pointer]),
            name=PACKED_PREFIX + name,
        )
        slots, result, elapsed, context = entry.args
        builder = ir.IRBuilder(entry.append_basic_block("entry"))
        calling = entry.append_basic_block("call")
        failed = entry.append_basic_block("failed")
        _reset_globals(llvm_module, builder, reset)
        previous = builder.call(getspecific, [thread_key])
        builder.call(setspecific, [thread_key, context])
        jump_buffer = builder.gep(
            context, [ir.Constant(i64, JMP_BUF_WORD)], source_etype=i64
        )
        resumed = builder.call(setjmp, [jump_buffer])
        builder.cbranch(
            builder.icmp_signed("==", resumed, ir.Constant(i32, 0)), calling, failed
        )
        builder.position_at_end(calling)
        builder.call(run, [slots, result, elapsed])
        builder.call(setspecific, [thread_key, previous])
        builder.ret(ir.Constant(i32, 0))
        builder.position_at_end(failed)
        builder.call(setspecific, [thread_key, previous])
        builder.ret(ir.Constant(i32, FAILED))
