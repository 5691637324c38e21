"""Parallel loops on several cores: the JIT's thread runtime.

`outline-parallel-loops-ext` (passes/outline_parallel_loops.py) turns each
outermost 1-D `scf.parallel` into a call of a declared
`__lx_parallel_launch_<i>(captured..., lower, upper, step)`, the loop's body
becoming `__lx_parallel_body_<i>(captured..., lo, hi)` (an `scf.for` from
`lo` to `hi`). After lowering and translation the body is
`_lx_fn___lx_parallel_body_<i>` (`rename_defined_functions`) and every
argument is a scalar (memrefs expanded into their descriptors' fields).
`define_parallel_launches` defines, in the translated llvmlite module:

- each `__lx_parallel_launch_<i>`: it stores the captured values in a frame
  on its stack (a struct of their types) and calls `_lx_parallel_for` with
  the frame and `__lx_parallel_tramp_<i>`;
- `__lx_parallel_tramp_<i>(ptr frame, i64 lo, i64 hi)`: loads the captured
  values back and calls the body;
- `_lx_parallel_for(ptr trampoline, ptr frame, i64 lower, i64 upper, i64
  step)`: the n = ceil((upper - lower) / step) iterations in T = min(threads,
  n) contiguous chunks whose sizes differ by at most one; chunks 1..T-1 on
  new threads (`pthread_create`), chunk 0 on the calling thread, then it
  joins them all. With T <= 1 it calls the trampoline once for the whole
  range. A step that is not positive fails the call with the interpreter's
  `scf.parallel` message (`STEP_NOT_POSITIVE`), whatever the range.

Failures. The run-time functions find the running call's context with
`pthread_getspecific` (linalg_ext/jit/failures.py); a new thread has none.
So every chunk, chunk 0 included, runs in a context of its own, zeroed, kept
in the chunk's record on `_lx_parallel_for`'s stack: `_lx_parallel_worker`
makes it the thread's and `_lx_parallel_chunk` saves the registers there
(`setjmp`), as a packed entry point does. A chunk that fails jumps back
there; the worker frees the buffers the chunk still held and marks the
record. Once every thread has been joined, the first failed chunk's message
(template and values) goes to `_lx_fail` on the calling thread, which ends
the call under the caller's context. Each chunk runs its iterations in
order and stops at its first failure, so the first failed chunk holds the
lowest failing iteration: the message is the one a sequential run gives.
"""

from __future__ import annotations

from typing import Any

from linalg_ext.jit.errors import JitError
from linalg_ext.jit.failures import (
    CONTEXT_COUNT,
    CONTEXT_LIVE,
    CONTEXT_LIVE_COUNT,
    CONTEXT_TEMPLATE,
    CONTEXT_VALUES,
    CONTEXT_WORDS,
    JMP_BUF_WORD,
    MAX_LIVE_BUFFERS,
)
from linalg_ext.jit.llvm_additions import (
    DEFINED_PREFIX,
    constant_string,
    declare_runtime_fail,
    declared_function,
)

LAUNCH_PREFIX = "__lx_parallel_launch_"
"""Prefix of the declared function that runs an outlined parallel loop."""

BODY_PREFIX = "__lx_parallel_body_"
"""Prefix of an outlined loop's body (before `rename_defined_functions`)."""

TRAMPOLINE_PREFIX = "__lx_parallel_tramp_"
"""Prefix of the function that unpacks a frame and calls a body."""

PARALLEL_FOR = "_lx_parallel_for"
"""The function that splits a range into chunks and runs them on threads."""

STEP_NOT_POSITIVE = "scf.parallel: steps ({},) are not all positive"
"""The interpreter's message for a 1-D `scf.parallel` whose step is not
positive (linalg_ext/semantics/control_ops.py), which the launch checks:
once outlined, the loop is no longer an `scf.parallel` that
`lower-to-llvm`'s run-time checks would check."""

WORKER = "_lx_parallel_worker"
CHUNK = "_lx_parallel_chunk"
RUN_CHUNK = "_lx_parallel_run_chunk"

# A chunk's record, in 8-byte words: its context first (16-byte aligned, for
# the jmp_buf inside), then what the chunk runs.
RECORD_TRAMPOLINE = CONTEXT_WORDS
RECORD_FRAME = CONTEXT_WORDS + 1
RECORD_LO = CONTEXT_WORDS + 2
RECORD_HI = CONTEXT_WORDS + 3
RECORD_FAILED = CONTEXT_WORDS + 4
RECORD_THREAD = CONTEXT_WORDS + 5
"""The chunk's `pthread_t` (an unsigned long on Linux)."""
RECORD_STARTED = CONTEXT_WORDS + 6
"""1 when the chunk runs on a thread of its own (to join)."""
RECORD_WORDS = (CONTEXT_WORDS + 7 + 1) // 2 * 2
"""Even, so that every record of an array stays 16-byte aligned."""


def check_threads(threads: object, what: str = "compile_module: threads") -> int:
    """`threads` if it is an int >= 1; else a one-line `JitError`."""
    if isinstance(threads, bool) or not isinstance(threads, int) or threads < 1:
        raise JitError(f"{what} must be an int >= 1, not {threads!r}")
    return threads


def launch_names(llvm_module: Any) -> list[str]:
    """The declared `__lx_parallel_launch_<i>` functions of a translated
    module, which `define_parallel_launches` defines."""
    return [
        function.name
        for function in llvm_module.functions
        if function.is_declaration and function.name.startswith(LAUNCH_PREFIX)
    ]


def define_parallel_launches(llvm_module: Any, threads: int, key: int) -> None:
    """Define every declared `__lx_parallel_launch_<i>` of `llvm_module`
    (see the module docstring), running each loop on up to `threads`
    threads; `key` is the process's context key (`failures.context_key`).
    Raises `JitError` for a launch whose body is missing or does not take
    its captured values followed by `lo` and `hi`."""
    from llvmlite import ir

    check_threads(threads, "define_parallel_launches: threads")
    names = launch_names(llvm_module)
    if not names:
        return
    parallel_for = _define_parallel_for(llvm_module, threads, key)
    i64, pointer = ir.IntType(64), ir.PointerType()
    for name in names:
        launch = llvm_module.get_global(name)
        suffix = name[len(LAUNCH_PREFIX) :]
        body_name = DEFINED_PREFIX + BODY_PREFIX + suffix
        arguments = list(launch.function_type.args)
        captured = arguments[:-3]
        if len(arguments) < 3 or any(str(t) != str(i64) for t in arguments[-3:]):
            raise JitError(
                f"@{name}: a parallel launch takes its captured values, then "
                f"lower, upper and step (i64), not ({_types(arguments)})"
            )
        body = llvm_module.globals.get(body_name)
        expected = [*captured, i64, i64]
        if (
            not isinstance(body, ir.Function)
            or body.is_declaration
            or _types(body.function_type.args) != _types(expected)
        ):
            raise JitError(
                f"@{name}: no body @{BODY_PREFIX}{suffix} defined with arguments "
                f"({_types(expected)})"
            )
        frame_type = ir.LiteralStructType(captured)

        trampoline = ir.Function(
            llvm_module,
            ir.FunctionType(ir.VoidType(), [pointer, i64, i64]),
            name=TRAMPOLINE_PREFIX + suffix,
        )
        trampoline.linkage = "internal"
        frame, lo, hi = trampoline.args
        builder = ir.IRBuilder(trampoline.append_basic_block("entry"))
        values = [
            builder.load(_field(builder, frame_type, frame, index), typ=type_)
            for index, type_ in enumerate(captured)
        ]
        builder.call(body, [*values, lo, hi])
        builder.ret_void()

        launch.linkage = "internal"
        builder = ir.IRBuilder(launch.append_basic_block("entry"))
        frame = builder.alloca(frame_type)
        for index, value in enumerate(launch.args[:-3]):
            builder.store(value, _field(builder, frame_type, frame, index))
        lower, upper, step = launch.args[-3:]
        builder.call(parallel_for, [trampoline, frame, lower, upper, step])
        builder.ret_void()


def _types(types: Any) -> str:
    return ", ".join(str(t) for t in types)


def _gep(builder: Any, base: Any, indices: list[Any], element: Any) -> Any:
    """`getelementptr element, base, indices`. llvmlite types an `alloca`
    with its pointee and a `gep` with `source_etype` like its base, so the
    pointee is given only for an untyped base."""
    if base.type.is_opaque:
        return builder.gep(base, indices, source_etype=element)
    return builder.gep(base, indices)


def _field(builder: Any, struct: Any, base: Any, index: int) -> Any:
    from llvmlite import ir

    i32 = ir.IntType(32)
    return _gep(builder, base, [ir.Constant(i32, 0), ir.Constant(i32, index)], struct)


def _word(builder: Any, record: Any, index: Any) -> Any:
    """The address of word `index` (an int or an i64) of a record."""
    from llvmlite import ir

    i64 = ir.IntType(64)
    if isinstance(index, int):
        index = ir.Constant(i64, index)
    return _gep(builder, record, [index], i64)


def _trampoline_type() -> Any:
    from llvmlite import ir

    i64 = ir.IntType(64)
    return ir.FunctionType(ir.VoidType(), [ir.PointerType(), i64, i64])


def _define_parallel_for(llvm_module: Any, threads: int, key: int) -> Any:
    """`_lx_parallel_for` for at most `threads` threads (see the module
    docstring); with one thread, a plain call of the trampoline."""
    from llvmlite import ir

    if PARALLEL_FOR in llvm_module.globals:
        return llvm_module.get_global(PARALLEL_FOR)
    i64 = ir.IntType(64)
    pointer = ir.PointerType()
    function = ir.Function(
        llvm_module,
        # The trampoline's pointer type says its function type (printed as
        # `ptr`): llvmlite needs it for the indirect call.
        ir.FunctionType(
            ir.VoidType(),
            [ir.PointerType(_trampoline_type()), pointer, i64, i64, i64],
        ),
        name=PARALLEL_FOR,
    )
    function.linkage = "internal"
    trampoline, frame, lower, upper, step = function.args
    zero, one = ir.Constant(i64, 0), ir.Constant(i64, 1)
    fail = declare_runtime_fail(llvm_module)
    builder = ir.IRBuilder(function.append_basic_block("entry"))
    refuse = function.append_basic_block("step.refused")
    start = function.append_basic_block("step.positive")
    direct = function.append_basic_block("direct")
    stored_step = builder.alloca(i64)
    base: Any = None
    if threads > 1:
        # The chunks' records, 16-byte aligned for the jmp_buf in each
        # context (llvmlite's annotations type `align` as None).
        base = builder.alloca(i64, size=ir.Constant(i64, threads * RECORD_WORDS))
        base.align = 16
    # Checked whatever the range, before any iteration, as the interpreter.
    builder.cbranch(builder.icmp_signed(">", step, zero), start, refuse)
    builder.position_at_end(refuse)
    builder.store(step, stored_step)
    template = constant_string(llvm_module, "__lx_parallel_step", STEP_NOT_POSITIVE)
    builder.call(fail, [template, one, stored_step])
    builder.unreachable()
    builder.position_at_end(start)
    if threads == 1:
        builder.branch(direct)
        builder.position_at_end(direct)
        builder.call(trampoline, [frame, lower, upper])
        builder.ret_void()
        return function

    worker = _define_worker(llvm_module, key)
    create = declared_function(
        llvm_module,
        "pthread_create",
        ir.FunctionType(ir.IntType(32), [pointer, pointer, pointer, pointer]),
    )
    join = declared_function(
        llvm_module, "pthread_join", ir.FunctionType(ir.IntType(32), [i64, pointer])
    )
    count = function.append_basic_block("count")
    split = function.append_basic_block("split")
    builder.cbranch(builder.icmp_signed(">", upper, lower), count, direct)

    builder.position_at_end(direct)
    builder.call(trampoline, [frame, lower, upper])
    builder.ret_void()

    # n = (upper - lower - 1) / step + 1, unsigned: no overflow for any range.
    builder.position_at_end(count)
    span = builder.sub(upper, lower)
    n = builder.add(builder.udiv(builder.sub(span, one), step), one)
    most = ir.Constant(i64, threads)
    chunks = builder.select(builder.icmp_unsigned("<", n, most), n, most)
    builder.cbranch(
        builder.icmp_unsigned("<", chunks, ir.Constant(i64, 2)), direct, split
    )

    def record_at(c: Any) -> Any:
        return _word(builder, base, builder.mul(c, ir.Constant(i64, RECORD_WORDS)))

    # Chunk c starts at iteration c·q + min(c, r), q = n / T, r = n % T: the
    # first r chunks take q + 1 iterations, the others q. (Not c·n/T, whose
    # product may overflow, and a 128-bit division is a call of compiler-rt's
    # `__udivti3`, which the process need not have.)
    builder.position_at_end(split)
    quotient = builder.udiv(n, chunks)
    remainder = builder.urem(n, chunks)

    def boundary(c: Any) -> Any:
        """The first iteration of chunk `c` (n for c = T)."""
        extra = builder.select(builder.icmp_unsigned("<", c, remainder), c, remainder)
        return builder.add(builder.mul(c, quotient), extra)

    def loop(name: str, start: int) -> tuple[Any, Any, Any]:
        """A loop c = start .. chunks-1 from the current block, the builder
        left in its body: (c, its head, the block after it), which the
        caller passes to `next_of` at the end of the body."""
        head = function.append_basic_block(f"{name}.head")
        body = function.append_basic_block(f"{name}.body")
        after = function.append_basic_block(f"{name}.done")
        entry = builder.block
        builder.branch(head)
        builder.position_at_end(head)
        c = builder.phi(i64)
        c.add_incoming(ir.Constant(i64, start), entry)
        builder.cbranch(builder.icmp_unsigned("<", c, chunks), body, after)
        builder.position_at_end(body)
        return c, head, after

    def next_of(c: Any, head: Any, after: Any) -> None:
        c.add_incoming(builder.add(c, one), builder.block)
        builder.branch(head)
        builder.position_at_end(after)

    # Fill every record, then start chunks 1..T-1 on threads of their own.
    c, head, after = loop("fill", 0)
    record = record_at(c)
    first, last = boundary(c), boundary(builder.add(c, one))
    lo = builder.add(lower, builder.mul(first, step))
    is_last = builder.icmp_unsigned("==", builder.add(c, one), chunks)
    # The last chunk ends at `upper`: lower + n·step may overflow.
    hi = builder.select(is_last, upper, builder.add(lower, builder.mul(last, step)))
    builder.store(
        builder.ptrtoint(trampoline, i64), _word(builder, record, RECORD_TRAMPOLINE)
    )
    builder.store(builder.ptrtoint(frame, i64), _word(builder, record, RECORD_FRAME))
    builder.store(lo, _word(builder, record, RECORD_LO))
    builder.store(hi, _word(builder, record, RECORD_HI))
    builder.store(zero, _word(builder, record, RECORD_FAILED))
    builder.store(zero, _word(builder, record, RECORD_STARTED))
    builder.store(zero, _word(builder, record, CONTEXT_LIVE_COUNT))
    next_of(c, head, after)

    c, head, after = loop("start", 1)
    record = record_at(c)
    status = builder.call(
        create,
        [
            _word(builder, record, RECORD_THREAD),
            ir.Constant(pointer, None),
            worker,
            record,
        ],
    )
    # A thread that cannot be created: its chunk runs on this one, below.
    started = builder.icmp_signed("==", status, ir.Constant(ir.IntType(32), 0))
    builder.store(builder.zext(started, i64), _word(builder, record, RECORD_STARTED))
    next_of(c, head, after)

    # Chunk 0 (and any chunk without a thread) on the calling thread.
    c, head, after = loop("here", 0)
    record = record_at(c)
    run_here = function.append_basic_block("here.run")
    here_next = function.append_basic_block("here.next")
    on_thread = builder.load(_word(builder, record, RECORD_STARTED), typ=i64)
    builder.cbranch(builder.icmp_unsigned("==", on_thread, zero), run_here, here_next)
    builder.position_at_end(run_here)
    builder.call(worker, [record])
    builder.branch(here_next)
    builder.position_at_end(here_next)
    next_of(c, head, after)

    c, head, after = loop("join", 1)
    record = record_at(c)
    wait = function.append_basic_block("join.wait")
    join_next = function.append_basic_block("join.next")
    on_thread = builder.load(_word(builder, record, RECORD_STARTED), typ=i64)
    builder.cbranch(builder.icmp_unsigned("!=", on_thread, zero), wait, join_next)
    builder.position_at_end(wait)
    thread = builder.load(_word(builder, record, RECORD_THREAD), typ=i64)
    builder.call(join, [thread, ir.Constant(pointer, None)])
    builder.branch(join_next)
    builder.position_at_end(join_next)
    next_of(c, head, after)

    # Every thread has ended: the first failed chunk fails the call.
    c, head, after = loop("check", 0)
    record = record_at(c)
    report = function.append_basic_block("check.fail")
    check_next = function.append_basic_block("check.next")
    failed = builder.load(_word(builder, record, RECORD_FAILED), typ=i64)
    builder.cbranch(builder.icmp_unsigned("!=", failed, zero), report, check_next)
    builder.position_at_end(report)
    template = builder.inttoptr(
        builder.load(_word(builder, record, CONTEXT_TEMPLATE), typ=i64), pointer
    )
    values_count = builder.load(_word(builder, record, CONTEXT_COUNT), typ=i64)
    builder.call(fail, [template, values_count, _word(builder, record, CONTEXT_VALUES)])
    builder.unreachable()
    builder.position_at_end(check_next)
    next_of(c, head, after)
    builder.ret_void()
    return function


def _define_worker(llvm_module: Any, key: int) -> Any:
    """`_lx_parallel_worker(ptr record) -> ptr`, a thread's start routine:
    it runs the record's chunk under the record's context (the thread's
    previous context restored after) and, when the chunk failed, frees what
    it still held and marks the record."""
    from llvmlite import ir

    i32, i64, pointer = ir.IntType(32), ir.IntType(64), ir.PointerType()
    getspecific = declared_function(
        llvm_module, "pthread_getspecific", ir.FunctionType(pointer, [i32])
    )
    setspecific = declared_function(
        llvm_module, "pthread_setspecific", ir.FunctionType(i32, [i32, pointer])
    )
    free = declared_function(
        llvm_module, "free", ir.FunctionType(ir.VoidType(), [pointer])
    )
    chunk = _define_chunk(llvm_module)
    thread_key = ir.Constant(i32, key)
    zero, one = ir.Constant(i64, 0), ir.Constant(i64, 1)

    worker = ir.Function(llvm_module, ir.FunctionType(pointer, [pointer]), name=WORKER)
    worker.linkage = "internal"
    (record,) = worker.args
    builder = ir.IRBuilder(worker.append_basic_block("entry"))
    cleanup = worker.append_basic_block("cleanup")
    head = worker.append_basic_block("free.head")
    body = worker.append_basic_block("free.body")
    marked = worker.append_basic_block("marked")
    done = worker.append_basic_block("done")
    previous = builder.call(getspecific, [thread_key])
    builder.call(setspecific, [thread_key, record])
    status = builder.call(chunk, [record])
    builder.cbranch(
        builder.icmp_signed("!=", status, ir.Constant(i32, 0)), cleanup, done
    )

    builder.position_at_end(cleanup)
    held = builder.load(_word(builder, record, CONTEXT_LIVE_COUNT), typ=i64)
    room = ir.Constant(i64, MAX_LIVE_BUFFERS)
    held = builder.select(builder.icmp_unsigned("<", held, room), held, room)
    builder.branch(head)
    builder.position_at_end(head)
    index = builder.phi(i64)
    index.add_incoming(zero, cleanup)
    builder.cbranch(builder.icmp_unsigned("<", index, held), body, marked)
    builder.position_at_end(body)
    slot = _word(builder, record, builder.add(index, ir.Constant(i64, CONTEXT_LIVE)))
    builder.call(free, [builder.inttoptr(builder.load(slot, typ=i64), pointer)])
    index.add_incoming(builder.add(index, one), body)
    builder.branch(head)
    builder.position_at_end(marked)
    builder.store(zero, _word(builder, record, CONTEXT_LIVE_COUNT))
    builder.store(one, _word(builder, record, RECORD_FAILED))
    builder.branch(done)

    builder.position_at_end(done)
    builder.call(setspecific, [thread_key, previous])
    builder.ret(ir.Constant(pointer, None))
    return worker


def _define_chunk(llvm_module: Any) -> Any:
    """`_lx_parallel_chunk(ptr record) -> i32`: 0 once the chunk has run, 1
    when it failed (`_lx_fail` jumped back to its `setjmp`). Not inlined, as
    the packed entry point: only this small function calls `setjmp`, and the
    chunk itself runs in `_lx_parallel_run_chunk`, also not inlined."""
    from llvmlite import ir

    i32, i64, pointer = ir.IntType(32), ir.IntType(64), ir.PointerType()
    setjmp = declared_function(llvm_module, "_setjmp", ir.FunctionType(i32, [pointer]))
    setjmp.attributes.add("returns_twice")

    run = ir.Function(
        llvm_module, ir.FunctionType(ir.VoidType(), [pointer]), name=RUN_CHUNK
    )
    run.linkage = "internal"
    run.attributes.add("noinline")
    (record,) = run.args
    builder = ir.IRBuilder(run.append_basic_block("entry"))
    trampoline = builder.inttoptr(
        builder.load(_word(builder, record, RECORD_TRAMPOLINE), typ=i64),
        ir.PointerType(_trampoline_type()),
    )
    frame = builder.inttoptr(
        builder.load(_word(builder, record, RECORD_FRAME), typ=i64), pointer
    )
    lo = builder.load(_word(builder, record, RECORD_LO), typ=i64)
    hi = builder.load(_word(builder, record, RECORD_HI), typ=i64)
    builder.call(trampoline, [frame, lo, hi])
    builder.ret_void()

    chunk = ir.Function(llvm_module, ir.FunctionType(i32, [pointer]), name=CHUNK)
    chunk.linkage = "internal"
    chunk.attributes.add("noinline")
    (record,) = chunk.args
    builder = ir.IRBuilder(chunk.append_basic_block("entry"))
    calling = chunk.append_basic_block("call")
    failed = chunk.append_basic_block("failed")
    resumed = builder.call(setjmp, [_word(builder, record, JMP_BUF_WORD)])
    builder.cbranch(
        builder.icmp_signed("==", resumed, ir.Constant(i32, 0)), calling, failed
    )
    builder.position_at_end(calling)
    builder.call(run, [record])
    builder.ret(ir.Constant(i32, 0))
    builder.position_at_end(failed)
    builder.ret(ir.Constant(i32, 1))
    return chunk
