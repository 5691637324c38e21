"""Software prefetch of a copy in an `scf.for` loop: ByteIR's
`linalg-prefetch` (see passes/linalg_prefetch.py for what it does).

A tagged `linalg.copy` brings the tile of iteration `iv` (its source, a view
computed from `iv`) into a buffer allocated before the loop (its
destination), and the rest of the body reads that buffer. With a count `c`
the copies of the first `c` iterations move before the loop, into the
destination and `c - 1` new buffers, and each iteration copies the tile of
iteration `iv + c * step` into one more new buffer, so that its tile is
ready `c` iterations before it is needed. Without unrolling, the buffers
are shifted down by copies at the end of each iteration; with unrolling,
the body is repeated `c + 1` times per iteration, each repetition reading
its own buffer, and no shifting copy is needed.

`plan_prefetch` checks that the rewrite keeps the program's meaning and says
why not (`PrefetchRefused`), or that ByteIR's rule leaves the copy alone
(None); `prefetch` rewrites.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.dialects import arith, memref, scf
from xdsl.dialects.builtin import IndexType, IntegerAttr, MemRefType, UnitAttr
from xdsl.dialects.linalg.ops import CopyOp
from xdsl.ir import BlockArgument, Operation, OpResult, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.traits import (
    IsTerminator,
    MemoryEffectKind,
    RecursiveMemoryEffect,
    get_effects,
    is_side_effect_free,
)

from linalg_ext.transforms.dps import buffer_root, has_loops

PREFETCH_ATTR = "__byteir_prefetch__"
"""The attribute that marks a copy for prefetching (ByteIR's name)."""


class PrefetchRefused(Exception):
    """Prefetching the copy would change what the program computes; the
    message says why."""


def prefetch_count(copy: Operation, default: int) -> int | None:
    """How many iterations ahead the copy's tag asks for: the pass's count
    for the unit tag, the tag's own integer otherwise; None for no tag or
    one of another kind."""
    tag = copy.attributes.get(PREFETCH_ATTR)
    if isinstance(tag, UnitAttr):
        return default
    if isinstance(tag, IntegerAttr):
        return tag.value.data
    return None


@dataclass
class PrefetchPlan:
    """A copy the rewrite applies to, and what it needs."""

    copy: CopyOp
    loop: scf.ForOp
    count: int
    source_ops: list[Operation]
    """The ops of the loop body that compute the copy's source from the
    induction variable, in order."""
    buffer: memref.AllocOp | memref.AllocaOp
    trip_count_known: bool
    """Whether the loop statically runs at least `count` times (the
    copies before the loop need no guard)."""


def _constant(value: SSAValue) -> int | None:
    if isinstance(value, OpResult) and isinstance(value.op, arith.ConstantOp):
        attr = value.op.value
        if isinstance(attr, IntegerAttr):
            return attr.value.data
    return None


def _static_trip_count(loop: scf.ForOp) -> int | None:
    lb, ub, step = (_constant(v) for v in (loop.lb, loop.ub, loop.step))
    if lb is None or ub is None or step is None or step <= 0:
        return None
    return max(0, -((lb - ub) // step))


def _source_ops(copy: CopyOp, loop: scf.ForOp) -> list[Operation]:
    """The body ops the copy's source is computed by (see PrefetchPlan)."""
    body = loop.body.block
    needed: set[Operation] = set()
    uses_iv = False
    pending: list[SSAValue] = [copy.inputs[0]]
    while pending:
        value = pending.pop()
        if value is loop.body.block.args[0]:
            uses_iv = True
            continue
        if isinstance(value, BlockArgument) and value.block is body:
            raise PrefetchRefused("its source depends on a loop-carried value")
        if not isinstance(value, OpResult) or not loop.is_ancestor(value.op):
            continue  # defined before the loop: the same in every iteration
        op = value.op
        if op.parent_block() is not body or op.regions or not is_side_effect_free(op):
            raise PrefetchRefused(
                f"its source is computed by '{op.name}', which is not a pure op "
                "of the loop body"
            )
        if op not in needed:
            needed.add(op)
            pending.extend(op.operands)
    if not uses_iv:
        raise PrefetchRefused(
            "its source does not change with the loop's induction variable: "
            "there is nothing to prefetch"
        )
    return [op for op in body.ops if op in needed]


def _distinct_root(value: SSAValue) -> bool:
    """Whether `value` is a buffer of its own: an allocation, a global or a
    function argument."""
    if isinstance(value, BlockArgument):
        parent = value.block.parent_op()
        return parent is not None and parent.name == "func.func"
    known = (memref.AllocOp, memref.AllocaOp, memref.GetGlobalOp)
    return isinstance(value, OpResult) and isinstance(value.op, known)


def _may_alias(a: SSAValue, b: SSAValue) -> bool:
    """Whether two buffer roots may share memory. Distinct allocations,
    globals and function arguments are taken to be disjoint (as a caller
    passing distinct buffers does)."""
    if a is b or not _distinct_root(a) or not _distinct_root(b):
        return True
    globals_ = [v.op for v in (a, b) if isinstance(v, OpResult)]
    if (
        all(isinstance(op, memref.GetGlobalOp) for op in globals_)
        and len(globals_) == 2
    ):
        first, second = globals_
        assert isinstance(first, memref.GetGlobalOp)
        assert isinstance(second, memref.GetGlobalOp)
        return first.name_ == second.name_
    return False


def _written_roots(loop: scf.ForOp) -> list[SSAValue]:
    """The buffers ops in the loop may write or free."""
    roots: list[SSAValue] = []
    for op in loop.body.walk():
        if has_loops(op):
            written = list(op.outputs)  # pyright: ignore[reportAttributeAccessIssue]
        elif isinstance(op, memref.StoreOp):
            written = [op.memref]
        elif isinstance(op, memref.CopyOp):
            written = [op.destination]
        elif isinstance(op, memref.DeallocOp):
            written = [op.memref]
        elif op.has_trait(IsTerminator) or op.has_trait(RecursiveMemoryEffect):
            continue
        else:
            effects = get_effects(op)
            if effects is None:
                if op.regions:
                    continue  # control flow: the ops it holds are walked
                if op.parent_op() is not None and has_loops(op.parent_op()):  # pyright: ignore[reportArgumentType]
                    continue  # the scalar body of a structured op
                raise PrefetchRefused(
                    f"the loop holds '{op.name}', whose memory effects are unknown"
                )
            kinds = {effect.kind for effect in effects}
            if not kinds & {MemoryEffectKind.WRITE, MemoryEffectKind.FREE}:
                continue
            written = [v for v in op.operands if isinstance(v.type, MemRefType)]
            if not written:
                raise PrefetchRefused(
                    f"the loop holds '{op.name}', which writes memory it does not name"
                )
        roots.extend(buffer_root(v) for v in written if isinstance(v.type, MemRefType))
    return roots


def _check_buffer(
    plan_copy: CopyOp, loop: scf.ForOp
) -> memref.AllocOp | memref.AllocaOp:
    destination = plan_copy.outputs[0]
    if not (
        isinstance(destination, OpResult)
        and isinstance(destination.op, memref.AllocOp | memref.AllocaOp)
        and not loop.is_ancestor(destination.op)
    ):
        raise PrefetchRefused(
            "its destination is not a buffer allocated before the loop"
        )
    body = loop.body.block
    position = {op: i for i, op in enumerate(body.ops)}
    for use in destination.uses:
        user = use.operation
        if user is plan_copy:
            continue
        if isinstance(user, memref.DeallocOp) and not loop.is_ancestor(user):
            continue
        if not loop.is_ancestor(user):
            raise PrefetchRefused(
                f"its destination is used outside the loop by '{user.name}', which "
                "would see another iteration's tile"
            )
        top = body.find_ancestor_op_in_block(user)
        if top is None or position[top] < position[plan_copy]:
            raise PrefetchRefused(
                f"its destination is used by '{user.name}' before the copy in the loop"
            )
    return destination.op


def plan_prefetch(copy: CopyOp, count: int, unroll: bool) -> PrefetchPlan | None:
    """What prefetching `copy` `count` iterations ahead needs; None where
    ByteIR leaves the copy alone (count <= 0, no enclosing `scf.for`, a loop
    statically shorter than `count`)."""
    loop = copy.parent_op()
    while loop is not None and not isinstance(loop, scf.ForOp):
        loop = loop.parent_op()
    if count <= 0 or loop is None:
        return None
    if copy.parent_block() is not loop.body.block:
        raise PrefetchRefused(
            "it is not directly in the body of its scf.for (it runs conditionally)"
        )
    trips = _static_trip_count(loop)
    if trips is not None and trips < count:
        return None
    if len(copy.inputs) != 1 or len(copy.outputs) != 1:
        raise PrefetchRefused("it does not copy one memref into another")
    if unroll and loop.iter_args:
        raise PrefetchRefused("unrolling needs an scf.for without loop-carried values")
    source_ops = _source_ops(copy, loop)
    buffer = _check_buffer(copy, loop)
    source = buffer_root(copy.inputs[0])
    for root in _written_roots(loop):
        if _may_alias(root, source):
            raise PrefetchRefused(
                "the loop writes the memory it copies from: a prefetched tile "
                "would be stale"
            )
    return PrefetchPlan(copy, loop, count, source_ops, buffer, trips is not None)


# --------------------------------------------------------------------------
# The rewrite


class _Emitter:
    """Builds ops at an insertion point."""

    def __init__(self, point: InsertPoint):
        self.point = point
        self.rewriter = Rewriter()

    def emit(self, *ops: Operation) -> None:
        self.rewriter.insert_op(ops, self.point)

    def index(self, value: int) -> SSAValue:
        op = arith.ConstantOp.from_int_and_width(value, IndexType())
        self.emit(op)
        return op.result

    def ahead(self, base: SSAValue, steps: int, step: SSAValue) -> SSAValue:
        """`base + steps * step`."""
        if steps == 0:
            return base
        known = _constant(step)
        if steps == 1:
            distance = step
        elif known is not None:
            distance = self.index(steps * known)
        else:
            product = arith.MuliOp(step, self.index(steps))
            self.emit(product)
            distance = product.result
        total = arith.AddiOp(base, distance)
        self.emit(total)
        return total.result

    def below(self, index: SSAValue, upper: SSAValue) -> SSAValue:
        """`index < upper`."""
        condition = arith.CmpiOp(index, upper, "slt")
        self.emit(condition)
        return condition.result

    def guard(self, index: SSAValue, upper: SSAValue) -> _Emitter:
        """An `scf.if index < upper` here; an emitter into its body."""
        return self.guard_on(self.below(index, upper))

    def guard_on(self, condition: SSAValue) -> _Emitter:
        """An `scf.if condition` here; an emitter into its body."""
        yield_ = scf.YieldOp()
        guard = scf.IfOp(condition, [], [yield_])
        self.emit(guard)
        return _Emitter(InsertPoint.before(yield_))


def _copy_tile(
    at: _Emitter, plan: PrefetchPlan, iteration: SSAValue, target: SSAValue
) -> None:
    """Copy the tile of `iteration` into `target`."""
    mapping: dict[SSAValue, SSAValue] = {plan.loop.body.block.args[0]: iteration}
    for op in plan.source_ops:
        at.emit(op.clone(mapping))
    source = mapping.get(plan.copy.inputs[0], plan.copy.inputs[0])
    at.emit(CopyOp([source], [target], []))


def _new_buffers(plan: PrefetchPlan, before_loop: _Emitter) -> list[SSAValue]:
    buffers: list[SSAValue] = [plan.copy.outputs[0]]
    for _ in range(plan.count):
        alloc = plan.buffer.clone()
        before_loop.emit(alloc)
        buffers.append(alloc.results[0])
    return buffers


def _prologue(plan: PrefetchPlan, buffers: Sequence[SSAValue]) -> None:
    """The tiles of the first `count` iterations, before the loop (guarded
    by the loop's bound unless it statically runs that often)."""
    loop = plan.loop
    at = _Emitter(InsertPoint.before(loop))
    for i in range(plan.count):
        iteration = at.ahead(loop.lb, i, loop.step)
        target = at if plan.trip_count_known else at.guard(iteration, loop.ub)
        _copy_tile(target, plan, iteration, buffers[i])


def _erase_copy(plan: PrefetchPlan) -> None:
    plan.copy.detach()
    plan.copy.erase()
    for op in reversed(plan.source_ops):
        if all(not result.uses for result in op.results):
            op.detach()
            op.erase()


def prefetch(plan: PrefetchPlan, unroll: bool) -> None:
    """Rewrite the loop as the module docstring says."""
    loop, count = plan.loop, plan.count
    iv = loop.body.block.args[0]
    original = [op for op in loop.body.block.ops if not op.has_trait(IsTerminator)]
    buffers = _new_buffers(plan, _Emitter(InsertPoint.before(loop)))
    _prologue(plan, buffers)
    # The tile `count` iterations ahead, where the copy was.
    at_copy = _Emitter(InsertPoint.before(plan.copy))
    ahead = at_copy.ahead(iv, count, loop.step)
    ahead_exists = at_copy.below(ahead, loop.ub)
    _copy_tile(at_copy.guard_on(ahead_exists), plan, ahead, buffers[count])
    terminator = loop.body.block.last_op
    assert terminator is not None
    at_end = _Emitter(InsertPoint.before(terminator))
    if unroll:
        _unroll(plan, original, buffers, at_end)
    else:
        # Shift the buffers down; a tile past the loop's end is not moved.
        for j in range(1, count + 1):
            exists = ahead_exists
            if j < count:
                exists = at_end.below(at_end.ahead(iv, j, loop.step), loop.ub)
            move = CopyOp([buffers[j]], [buffers[j - 1]], [])
            at_end.guard_on(exists).emit(move)
    _erase_copy(plan)
    if isinstance(plan.buffer, memref.AllocOp):
        # Stack buffers (alloca) are released with their frame instead.
        after_loop = _Emitter(InsertPoint.after(loop))
        after_loop.emit(*(memref.DeallocOp.get(b) for b in buffers[1:]))


def _unroll(
    plan: PrefetchPlan,
    original: Sequence[Operation],
    buffers: Sequence[SSAValue],
    at_end: _Emitter,
) -> None:
    """Repeat the `original` body `count` more times per iteration,
    repetition `j` running iteration `iv + j * step` on buffer `j`, and
    multiply the step by `count + 1`."""
    loop, count = plan.loop, plan.count
    iv = loop.body.block.args[0]
    for j in range(1, count + 1):
        iteration = at_end.ahead(iv, j, loop.step)
        inner = at_end.guard(iteration, loop.ub)
        mapping: dict[SSAValue, SSAValue] = {iv: iteration, buffers[0]: buffers[j]}
        for op in original:
            if op is plan.copy:
                ahead = inner.ahead(iteration, count, loop.step)
                target = buffers[(j + count) % (count + 1)]
                _copy_tile(inner.guard(ahead, loop.ub), plan, ahead, target)
            elif op in plan.source_ops and _only_feeds_copy(op, plan):
                continue
            else:
                inner.emit(op.clone(mapping))
    before_loop = _Emitter(InsertPoint.before(loop))
    known = _constant(loop.step)
    if known is not None:
        step = before_loop.index(known * (count + 1))
    else:
        product = arith.MuliOp(loop.step, before_loop.index(count + 1))
        before_loop.emit(product)
        step = product.result
    loop.operands[2] = step


def _only_feeds_copy(op: Operation, plan: PrefetchPlan) -> bool:
    """Whether every use of `op`'s results leads only to the copy (so a
    repetition of the body need not recompute it)."""
    for result in op.results:
        for use in result.uses:
            user = use.operation
            if user is plan.copy:
                continue
            if user in plan.source_ops and _only_feeds_copy(user, plan):
                continue
            return False
    return True
