"""Where ops stand relative to each other: what a pass checks before it
moves a computation to a new place (the new op must come before every user
of the values it replaces, and after the definitions of what it uses)."""

from __future__ import annotations

import heapq
from collections.abc import Sequence

from xdsl.ir import Block, BlockArgument, Operation, OpResult, Region, SSAValue
from xdsl.irdl.dominance import DominanceInfo
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.traits import IsolatedFromAbove, IsTerminator

from linalg_ext.transforms.dps import has_no_effects, is_pure_on_tensors


def isolated_scope(op: Operation) -> Operation:
    """The closest ancestor of `op` isolated from above (its function), or
    `op` itself when there is none."""
    scope = op.parent_op()
    while scope is not None and not scope.has_trait(IsolatedFromAbove):
        scope = scope.parent_op()
    return scope if scope is not None else op


def ancestor_in(block: Block, op: Operation) -> Operation | None:
    """The op of `block` that is `op` or contains it, or None if `op` is not
    nested in `block`."""
    while op.parent_block() is not block:
        parent = op.parent_op()
        if parent is None:
            return None
        op = parent
    return op


def _ancestor_in_region(region: Region, op: Operation) -> Operation | None:
    """The op of a block of `region` that is `op` or contains it."""
    current: Operation | None = op
    while current is not None:
        block = current.parent_block()
        if block is None:
            return None
        if block.parent is region:
            return current
        current = block.parent_op()
    return None


def point_dominates(block: Block, after: Operation | None, op: Operation) -> bool:
    """Whether the point of `block` right after `after` (its start when None)
    comes before `op` on every path to it: `op` is, or is nested in, a later
    op of `block`, or lies in a block that `block` dominates."""
    region = block.parent
    if region is None:
        return False
    target = _ancestor_in_region(region, op)
    if target is None:
        return False
    target_block = target.parent_block()
    if target_block is block:
        return after is None or (
            after is not target and after.is_before_in_block(target)
        )
    assert target_block is not None
    return DominanceInfo(region).strictly_dominates(block, target_block)


def available_before(value: SSAValue, op: Operation) -> bool:
    """Whether an op placed right before `op` may use `value`."""
    if isinstance(value, BlockArgument):
        return point_dominates(value.block, None, op)
    assert isinstance(value, OpResult)
    block = value.op.parent_block()
    return block is not None and point_dominates(block, value.op, op)


def placed_before_dominates(anchor: Operation, op: Operation) -> bool:
    """Whether an op placed right before `anchor` dominates `op`."""
    block = anchor.parent_block()
    return block is not None and point_dominates(block, anchor.prev_op, op)


def _values_used(op: Operation) -> list[SSAValue]:
    """The operands of `op` and the values its regions use from outside it."""
    used = list(op.operands)
    for region in op.regions:
        for nested in region.walk():
            for operand in nested.operands:
                owner = operand.owner
                if isinstance(owner, Block):
                    owner = owner.parent_op()
                if owner is None or not op.is_ancestor(owner):
                    used.append(operand)
    return used


class CannotMove(Exception):
    """Why definitions cannot move where they are needed."""


def definitions_to_move(values: Sequence[SSAValue], op: Operation) -> list[Operation]:
    """The ops to move right before `op` (in this order) so that every value
    of `values` is available there: the definitions not yet available and,
    transitively, those of what they use. Raises `CannotMove` when that is
    impossible: a definition has (or may have) side effects, depends on `op`
    itself, or is not in the block of `op` (or of an op containing it)."""
    to_move: set[Operation] = set()
    blocks: set[Block] = set()
    pending = [v for v in values if not available_before(v, op)]
    while pending:
        value = pending.pop()
        if not isinstance(value, OpResult):
            raise CannotMove("a block argument is out of scope")
        definition = value.op
        if definition in to_move:
            continue
        block = definition.parent_block()
        anchor = None if block is None else ancestor_in(block, op)
        if block is None or anchor is None:
            raise CannotMove(f"{definition.name} is in another region")
        if anchor is definition or definition.is_ancestor(op):
            raise CannotMove(f"they depend on the result of {op.name}")
        if not is_pure_on_tensors(definition):
            raise CannotMove(f"{definition.name} may have side effects")
        blocks.add(block)
        to_move.add(definition)
        pending.extend(
            v for v in _values_used(definition) if not available_before(v, op)
        )
    if len(blocks) > 1:
        raise CannotMove("they are in different blocks")
    return sorted(to_move, key=_position)


def _position(op: Operation) -> int:
    block = op.parent_block()
    assert block is not None
    return block.get_operation_index(op)


def move_before(ops: Sequence[Operation], op: Operation) -> None:
    """Move `ops` (in this order) right before the op of their block that is
    or contains `op`."""
    for moved in ops:
        block = moved.parent_block()
        assert block is not None
        anchor = ancestor_in(block, op)
        assert anchor is not None
        moved.detach()
        Rewriter.insert_op(moved, InsertPoint.before(anchor))


def sort_topologically(block: Block) -> bool:
    """Reorder the ops of `block` so that every op comes after the ops of the
    block whose results it (or an op nested in it) uses, changing as little
    as possible: among the ops ready to be placed, the one first in the
    current order goes first, ops that may have side effects keep their
    relative order and the terminator stays last (upstream's
    `sortTopologically`). Returns False, changing nothing, when the uses
    form a cycle."""
    ops = list(block.ops)
    terminator = ops[-1] if ops and ops[-1].has_trait(IsTerminator) else None
    if terminator is not None:
        ops.pop()
    index = {op: position for position, op in enumerate(ops)}
    waiting_on: dict[Operation, int] = {}
    users: dict[Operation, list[Operation]] = {op: [] for op in ops}
    previous_effect: Operation | None = None
    for op in ops:
        producers: set[Operation] = set()
        for value in _values_used(op):
            if isinstance(value, OpResult):
                definer = ancestor_in(block, value.op)
                if definer is not None and definer is not op and definer in index:
                    producers.add(definer)
        if not has_no_effects(op):
            if previous_effect is not None:
                producers.add(previous_effect)
            previous_effect = op
        waiting_on[op] = len(producers)
        for producer in producers:
            users[producer].append(op)
    ready = [index[op] for op in ops if waiting_on[op] == 0]
    heapq.heapify(ready)
    order: list[Operation] = []
    while ready:
        op = ops[heapq.heappop(ready)]
        order.append(op)
        for user in users[op]:
            waiting_on[user] -= 1
            if waiting_on[user] == 0:
                heapq.heappush(ready, index[user])
    if len(order) != len(ops):
        return False
    if order == ops:
        return True
    for op in order:
        op.detach()
    anchor = (
        InsertPoint.at_start(block)
        if terminator is None
        else InsertPoint.before(terminator)
    )
    Rewriter.insert_op(order, anchor)
    return True
