"""What a value is, structurally: all of which other values it may be.

`whole_source` follows a value back to the one it is all of (whole views,
loops carrying a buffer unchanged, scf.ifs yielding the same buffer, calls
returning an argument whole); `choices` lists every value it may be all of
on some run (also through `arith.select` and the yields of scf.ifs and
loops), which is what run-time ownership compares addresses against.
`copyable` and `is_copy_choice` are about returning a result the function
may not own (as it is, or a copy).
"""

from __future__ import annotations

from xdsl.dialects import func, memref, scf
from xdsl.dialects.builtin import MemRefType, NoneAttr, StridedLayoutAttr
from xdsl.ir import Attribute, BlockArgument, Operation, OpResult, SSAValue

from linalg_ext.deallocation.buffers import CHOICE_OPS, WHOLE_VIEW_OPS
from linalg_ext.deallocation.summary import CallSummaries


def whole_source(value: SSAValue, summaries: CallSummaries) -> SSAValue:
    """The value `value` is all of, from its first element: back through
    whole views, calls that return an argument whole, loops that carry
    a buffer unchanged (update it in place) and scf.ifs whose branches
    yield the same buffer."""
    while isinstance(owner := value.owner, Operation):
        assert isinstance(value, OpResult)
        if owner.name in WHOLE_VIEW_OPS:
            value = owner.operands[0]
        elif isinstance(owner, scf.ForOp):
            body = owner.body.block
            assert body.last_op is not None
            yielded = whole_source(body.last_op.operands[value.index], summaries)
            if yielded is not body.args[value.index + 1]:
                break
            value = owner.iter_args[value.index]
        elif isinstance(owner, scf.IfOp):
            yielded = {
                whole_source(block.last_op.operands[value.index], summaries)
                for region in owner.regions
                for block in region.blocks
                if block.last_op is not None
            }
            if len(yielded) != 1:
                break
            (value,) = yielded
        elif isinstance(owner, func.CallOp):
            summary = summaries.of_call(owner)
            argument = summary.whole_arguments.get(value.index)
            if argument is None or argument >= len(owner.arguments):
                break
            value = owner.arguments[argument]
        else:
            break
    return value


def choices(
    value: SSAValue, summaries: CallSummaries
) -> tuple[set[SSAValue], set[SSAValue]]:
    """The values `value` is all of on some run (through whole views, the
    choices of `arith.select`, what scf.ifs and loops yield), and among
    them the ends: those not made of others that way. If `value` is a
    buffer, it is all of one of the ends."""
    visited: set[SSAValue] = set()
    ends: set[SSAValue] = set()
    stack = [value]
    while stack:
        current = stack.pop()
        if current in visited:
            continue
        visited.add(current)
        whole = whole_source(current, summaries)
        if whole is not current:
            stack.append(whole)
            continue
        owner = whole.owner
        if isinstance(owner, Operation) and owner.name in CHOICE_OPS:
            stack.extend(owner.operands[1:])
        elif isinstance(owner, scf.IfOp) and isinstance(whole, OpResult):
            stack.extend(
                block.last_op.operands[whole.index]
                for region in owner.regions
                for block in region.blocks
                if block.last_op is not None
            )
        elif isinstance(owner, scf.ForOp) and isinstance(whole, OpResult):
            stack.append(owner.body.block.args[whole.index + 1])
        elif (
            isinstance(whole, BlockArgument)
            and isinstance(loop := whole.block.parent_op(), scf.ForOp)
            and whole.index > 0
        ):
            terminator = whole.block.last_op
            assert terminator is not None
            stack.append(loop.iter_args[whole.index - 1])
            stack.append(terminator.operands[whole.index - 1])
        else:
            ends.add(whole)
    return visited, ends


def is_copy_choice(value: SSAValue) -> bool:
    """Whether `value` is an scf.if result that is some value in one branch
    and a copy of it (`memref.copy` into a new buffer, maybe cast) in the
    other: how the pass passes on a result it may not own (recognised so
    that a second run leaves it)."""
    op = value.owner
    if not isinstance(op, scf.IfOp) or not isinstance(value, OpResult):
        return False
    yields = [region.block.last_op for region in op.regions]
    if any(y is None or not y.operands for y in yields):
        return False
    first, second = (y.operands[value.index] for y in yields if y is not None)
    for kept, copy, region in (
        (first, second, op.false_region),
        (second, first, op.true_region),
    ):
        if isinstance(cast := copy.owner, memref.CastOp):
            copy = cast.source
        if any(
            isinstance(o, memref.CopyOp) and o.source is kept and o.destination is copy
            for o in region.block.ops
        ):
            return True
    return False


def copyable(type_: Attribute) -> bool:
    """Whether a new buffer (of the identity layout) can stand for a value
    of `type_`: a ranked memref of the identity layout, or of a layout whose
    strides and offset are all dynamic (a `memref.cast` of the copy)."""
    if not isinstance(type_, MemRefType):
        return False
    layout = type_.layout
    if isinstance(layout, NoneAttr):
        return True
    return (
        isinstance(layout, StridedLayoutAttr)
        and layout.get_offset() is None
        and all(stride is None for stride in layout.get_strides())
    )
