"""Dropping the unit-extent loops and dimensions of a `linalg.generic`
(upstream MLIR's `linalg::dropUnitDims`, the rewriting behind
`--linalg-fold-unit-extent-dims` and `transform.structured.fold_unit_extent_dims`).

A loop is a *unit loop* when the operand dimension that fixes its extent
(the first one, over the operands in order, that its indexing map reads as
that plain loop) is statically 1. Unit loops are removed: every map reads
them as the constant 0, and `linalg.index` of one is the constant 0. An
operand dimension is dropped when it is statically 1 and its map reads it
as a unit loop or as the constant 0. Each dropped dimension joins the group
of the kept dimension before it (leading ones join the first kept one), so
an operand of `tensor<1x3x1xf32>` becomes `tensor<3xf32>` by the
reassociation `[[0, 1, 2]]`, and one of only unit dimensions becomes 0-d
(reassociation `[]`).

Operands are reshaped in one of two ways, as upstream's
`RankReductionStrategy`:

- `reshape` (upstream's default `ReassociativeReshape`):
  `tensor.collapse_shape` / `memref.collapse_shape` of each changed operand,
  `tensor.expand_shape` of each changed result back to its old type;
- `slices` (`ExtractInsertSlice`): a rank-reducing `tensor.extract_slice` /
  `memref.subview` of the whole operand, and each changed result
  `tensor.insert_slice`d into the old init.

An init made by `tensor.empty` is replaced by a smaller `tensor.empty`
rather than reshaped (what upstream's folding of an empty tensor through a
reshape or slice gives), and, with reshapes, one made by `linalg.fill` by
the fill of a smaller init (upstream's folding of a fill through a
reshape). Memref operands must have the identity layout (upstream leaves a
generic with any other layout alone, and so do we).

`fold_unit_dims(op, rewriter, strategy)` rewrites one generic and returns
the new one, or None when there is nothing to drop; the folds that clean up
between rewritten generics (a collapse of an expand, an extract of an
insert) are `FOLD_PATTERNS`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from xdsl.dialects import arith, memref, tensor
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AffineMapAttr,
    AnyFloat,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    NoneAttr,
    ShapedType,
    StridedLayoutAttr,
    TensorType,
    i64,
)
from xdsl.dialects.linalg.ops import FillOp, GenericOp, IndexOp
from xdsl.ir import Attribute, Operation, OpResult, Region, SSAValue
from xdsl.ir.affine import AffineConstantExpr, AffineDimExpr, AffineExpr, AffineMap
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.traits import IsolatedFromAbove

from linalg_ext.transforms.dps import generic_like
from linalg_ext.transforms.mixed_sizes import Mixed
from linalg_ext.transforms.reassociation import (
    Groups,
    collapse_shape,
    expand_shape,
    groups_of,
    reassociation_attr,
)
from linalg_ext.transforms.shape_reification import reify_dim
from linalg_ext.transforms.slices import (
    insert_slice,
    slice_offsets,
    slice_sizes,
    slice_strides,
)

Strategy = Literal["reshape", "slices"]
"""How operands lose their unit dimensions (see the module docstring)."""


@dataclass
class OperandPlan:
    """What happens to one operand: its new indexing map and, when some of
    its dimensions are dropped, the groups of old dimensions that make up
    each new one (`groups` is None when the operand is kept as it is)."""

    map_: AffineMap
    groups: Groups | None
    kept: list[int]
    """The old dimension each new one is (one per group)."""


def unit_loops(op: GenericOp) -> set[int] | None:
    """The unit loops of `op`, or None when some loop is read as a plain
    dimension by no map (upstream needs the maps to be invertible)."""
    extent_of: dict[int, int] = {}
    for value, attr in zip(op.operands, op.indexing_maps.data, strict=True):
        shape = _shape(value)
        for position, expr in enumerate(attr.data.results):
            if isinstance(expr, AffineDimExpr) and expr.position not in extent_of:
                extent_of[expr.position] = shape[position]
    num_loops = len(op.iterator_types.data)
    if len(extent_of) != num_loops:
        return None
    return {loop for loop, extent in extent_of.items() if extent == 1}


def _shape(value: SSAValue) -> tuple[int, ...]:
    value_type = value.type
    if isinstance(value_type, ShapedType):
        return tuple(value_type.get_shape())
    return ()


def _operand_plan(
    value: SSAValue, map_: AffineMap, dropped: set[int], replacements: list[AffineExpr]
) -> OperandPlan:
    """How `value`, read by `map_`, loses its unit dimensions."""
    num_dims = len(replacements) - len(dropped)
    new_exprs = [
        e.replace_dims_and_symbols(replacements, []).simplify(num_dims, 0)
        for e in map_.results
    ]
    shape = _shape(value)

    def is_unit(position: int) -> bool:
        if shape[position] != 1:
            return False
        expr = map_.results[position]
        if isinstance(expr, AffineDimExpr):
            return expr.position in dropped
        return isinstance(expr, AffineConstantExpr) and expr.value == 0

    if not isinstance(value.type, ShapedType) or not any(
        is_unit(p) for p in range(len(shape))
    ):
        return OperandPlan(
            AffineMap(num_dims, 0, tuple(new_exprs)), None, list(range(len(shape)))
        )
    groups: Groups = []
    kept: list[int] = []
    pending: list[int] = []
    for position in range(len(shape)):
        if is_unit(position):
            # A unit dimension joins the group of the kept one before it;
            # leading ones wait for the first kept dimension.
            if groups:
                groups[-1].append(position)
            else:
                pending.append(position)
            continue
        groups.append([*pending, position])
        pending = []
        kept.append(position)
    map_ = AffineMap(num_dims, 0, tuple(new_exprs[d] for d in kept))
    return OperandPlan(map_, groups, kept)


def _refusal(op: GenericOp) -> bool:
    """Whether `op` has an operand this rewriting does not handle: a tensor
    with an encoding or a memref with a layout other than the identity."""
    for value in op.operands:
        value_type = value.type
        if isinstance(value_type, MemRefType) and not isinstance(
            value_type.layout, NoneAttr
        ):
            return True
        if isinstance(value_type, TensorType) and not isinstance(
            value_type.encoding, NoneAttr
        ):
            return True
    return False


def _reduced_type(value_type: Attribute, kept: Sequence[int]) -> Attribute:
    """`value_type` (a tensor or identity-layout memref) with only the
    dimensions `kept`."""
    assert isinstance(value_type, TensorType | MemRefType)
    shape = value_type.get_shape()
    sizes = [shape[d] for d in kept]
    if isinstance(value_type, TensorType):
        return TensorType(value_type.get_element_type(), sizes)
    return MemRefType(
        value_type.get_element_type(), sizes, NoneAttr(), value_type.memory_space
    )


def _sizes(value: SSAValue, new_ops: list[Operation]) -> list[Mixed]:
    """Every extent of `value`, dynamic ones read with `tensor.dim` /
    `memref.dim` (or from the `tensor.empty` that made it)."""
    value_type = value.type
    if isinstance(value_type, TensorType):
        return [reify_dim(value, d, new_ops) for d in range(value_type.get_num_dims())]
    assert isinstance(value_type, MemRefType)
    sizes: list[Mixed] = []
    for dim, extent in enumerate(value_type.get_shape()):
        if extent != DYNAMIC_INDEX:
            sizes.append(extent)
            continue
        index = arith.ConstantOp.from_int_and_width(dim, IndexType())
        dim_op = memref.DimOp(value, index)
        new_ops.extend((index, dim_op))
        sizes.append(dim_op.result)
    return sizes


def _subview_type(value_type: MemRefType, kept: Sequence[int]) -> MemRefType:
    """The type upstream infers for a rank-reducing subview of the whole of
    an identity-layout memref: the kept extents and their strides."""
    strides = value_type.get_strides()
    assert strides is not None
    shape = value_type.get_shape()
    return MemRefType(
        value_type.get_element_type(),
        [shape[d] for d in kept],
        StridedLayoutAttr([strides[d] for d in kept], 0),
        value_type.memory_space,
    )


def _reduced_operand(
    value: SSAValue,
    plan: OperandPlan,
    strategy: Strategy,
    new_ops: list[Operation],
    fold_producers: bool = True,
) -> SSAValue:
    """`value` without the dimensions `plan` drops, by `strategy`; with
    `fold_producers`, a `tensor.empty` (and, with reshapes, a `linalg.fill`)
    is made anew, smaller."""
    assert plan.groups is not None
    groups, kept = plan.groups, plan.kept
    value_type = value.type
    producer = value.op if isinstance(value, OpResult) and fold_producers else None
    if isinstance(producer, tensor.EmptyOp):
        assert isinstance(value_type, TensorType)
        shape = value_type.get_shape()
        dynamic = iter(producer.dynamic_sizes)
        by_dim = {d: next(dynamic) for d in range(len(shape)) if shape[d] < 0}
        empty = tensor.EmptyOp(
            [by_dim[d] for d in kept if d in by_dim],
            _reduced_type(value_type, kept),
        )
        new_ops.append(empty)
        return empty.tensor
    if (
        strategy == "reshape"
        and isinstance(producer, FillOp)
        and isinstance(value_type, TensorType)
    ):
        # The fill of a smaller init rather than a reshape of the fill
        # (upstream's `FoldFillWithTensorReshape`).
        fill = producer
        init = _reduced_operand(fill.outputs[0], plan, strategy, new_ops)
        new_fill = FillOp(fill.inputs, [init], [init.type])
        new_ops.append(new_fill)
        return new_fill.results[0]
    if strategy == "reshape":
        if isinstance(value_type, TensorType):
            reshape = collapse_shape(value, groups, _reduced_type(value_type, kept))
        else:
            reshape = memref.CollapseShapeOp.build(
                operands=[value],
                result_types=[_reduced_type(value_type, kept)],
                properties={"reassociation": reassociation_attr(groups)},
            )
        new_ops.append(reshape)
        return reshape.results[0]
    sizes = _sizes(value, new_ops)
    zeros: list[Mixed] = [0] * len(sizes)
    ones: list[Mixed] = [1] * len(sizes)
    if isinstance(value_type, TensorType):
        sliced = tensor.ExtractSliceOp(
            value, zeros, sizes, ones, _reduced_type(value_type, kept)
        )
        new_ops.append(sliced)
        return sliced.result
    assert isinstance(value_type, MemRefType)
    subview = memref.SubviewOp.get(
        value, zeros, sizes, ones, _subview_type(value_type, kept)
    )
    new_ops.append(subview)
    return subview.result


def _restored_result(
    result: SSAValue,
    old_init: SSAValue,
    groups: Groups,
    strategy: Strategy,
    new_ops: list[Operation],
) -> SSAValue:
    """`result` given the type of `old_init` back, by `strategy`."""
    sizes = _sizes(old_init, new_ops)
    if strategy == "reshape":
        expand = expand_shape(result, groups, sizes)
        new_ops.append(expand)
        return expand.result
    insert = insert_slice(result, old_init, [0] * len(sizes), sizes)
    new_ops.append(insert)
    return insert.result


def _shared(ops: list[Operation], known: dict[object, SSAValue]) -> list[Operation]:
    """`ops` without the index constants and `tensor.dim` / `memref.dim`
    that repeat one already in `known` (or earlier in `ops`): their uses
    take the first one (what CSE after upstream's rewriting gives)."""
    kept: list[Operation] = []
    for new in ops:
        key: object = None
        if isinstance(new, arith.ConstantOp) and isinstance(new.value, IntegerAttr):
            key = ("constant", new.value.value.data, new.result.type)
        elif isinstance(new, tensor.DimOp | memref.DimOp):
            key = ("dim", new.source, new.index)
        if key is None:
            kept.append(new)
            continue
        if key in known:
            new.results[0].replace_all_uses_with(known[key])
            new.erase()
            continue
        known[key] = new.results[0]
        kept.append(new)
    return kept


def _constants_before(op: Operation) -> dict[object, SSAValue]:
    """The index constants defined before `op` in its block and the blocks
    around it, up to the isolated op (function) holding it, keyed as in
    `_shared`: reused rather than made again (upstream's folder keeps one
    constant per value)."""
    known: dict[object, SSAValue] = {}
    anchor: Operation | None = op
    while anchor is not None:
        block = anchor.parent_block()
        if block is None:
            break
        for other in block.ops:
            if other is anchor:
                break
            if isinstance(other, arith.ConstantOp) and isinstance(
                other.value, IntegerAttr
            ):
                key = ("constant", other.value.value.data, other.result.type)
                known.setdefault(key, other.result)
        anchor = block.parent_op()
        if anchor is None or anchor.has_trait(IsolatedFromAbove):
            break
    return known


def _zero_of(user: Operation) -> arith.ConstantOp | None:
    """The constant a cast `user` of a zero makes (0 or 0.0 of its result
    type), or None if `user` is not such a cast."""
    if not isinstance(user, arith.IndexCastOp | arith.SIToFPOp | arith.UIToFPOp):
        return None
    result_type = user.results[0].type
    if isinstance(result_type, IntegerType | IndexType):
        return arith.ConstantOp.from_int_and_width(0, result_type)
    if isinstance(result_type, AnyFloat):
        return arith.ConstantOp(FloatAttr(0.0, result_type))
    return None


def _fold_zero_index(zero: SSAValue) -> None:
    """Uses of a dropped loop's index that need no zero: `x + 0` and
    `x - 0` are `x`, `x * 0` is 0, a cast of 0 is a constant, and so on
    through what those feed (upstream's greedy driver folds these too; a
    float zero is only made a constant, as upstream keeps `x * 0.0`)."""
    worklist = [(use, zero) for use in zero.uses]
    while worklist:
        use, value = worklist.pop()
        user = use.operation
        if user.parent is None:
            continue
        constant = _zero_of(user)
        if constant is not None:
            Rewriter.replace_op(user, constant)
            if not isinstance(constant.result.type, AnyFloat):
                worklist.extend((u, constant.result) for u in constant.result.uses)
            continue
        if isinstance(user, arith.AddiOp) or (
            isinstance(user, arith.SubiOp) and use.index == 1
        ):
            replacement = user.operands[1 - use.index]
        elif isinstance(user, arith.MuliOp):
            replacement = value
            worklist.extend((u, value) for u in user.result.uses)
        else:
            continue
        user.result.replace_all_uses_with(replacement)
        user.detach()
        user.erase()


def fold_unit_dims(
    op: GenericOp,
    rewriter: PatternRewriter,
    strategy: Strategy = "reshape",
    fold_producers: bool = True,
) -> GenericOp | None:
    """Replace `op` by the generic without its unit loops and dimensions
    (see the module docstring); None, and `op` left alone, when nothing is
    dropped or an operand is not handled. Without `fold_producers`, every
    changed operand is reshaped (or sliced) as it is, and no op but `op`
    is replaced or erased (what a transform op on `op` may do)."""
    if _refusal(op):
        return None
    dropped = unit_loops(op)
    if dropped is None:
        return None
    num_loops = len(op.iterator_types.data)
    new_loop: dict[int, int] = {}
    replacements: list[AffineExpr] = []
    for loop in range(num_loops):
        if loop in dropped:
            replacements.append(AffineExpr.constant(0))
        else:
            new_loop[loop] = len(new_loop)
            replacements.append(AffineExpr.dimension(new_loop[loop]))
    plans = [
        _operand_plan(value, attr.data, dropped, replacements)
        for value, attr in zip(op.operands, op.indexing_maps.data, strict=True)
    ]
    if not dropped and all(plan.groups is None for plan in plans):
        return None

    new_ops: list[Operation] = []
    operands: list[SSAValue] = []
    for value, plan in zip(op.operands, plans, strict=True):
        if plan.groups is None:
            operands.append(value)
        else:
            operands.append(
                _reduced_operand(value, plan, strategy, new_ops, fold_producers)
            )
    known = _constants_before(op)
    rewriter.insert(_shared(new_ops, known), InsertPoint.before(op))

    num_inputs = len(op.inputs)
    outputs = operands[num_inputs:]
    body = Region()
    op.body.clone_into(body)
    for index_op in [o for o in body.walk() if isinstance(o, IndexOp)]:
        loop = index_op.dim.value.data
        if loop in new_loop:
            index_op.dim = IntegerAttr(new_loop[loop], i64)
            continue
        # The body is a detached copy: edited directly, not through
        # `rewriter`, whose listeners only follow the payload.
        zero = arith.ConstantOp.from_int_and_width(0, IndexType())
        Rewriter.replace_op(index_op, zero)
        _fold_zero_index(zero.result)
    new_op = generic_like(
        op,
        operands[:num_inputs],
        outputs,
        body,
        [AffineMapAttr(plan.map_) for plan in plans],
        [t for loop, t in enumerate(op.iterator_types.data) if loop not in dropped],
        [v.type for v in outputs] if op.results else [],
    )
    rewriter.insert(new_op, InsertPoint.before(op))

    results: list[SSAValue] = []
    restore: list[Operation] = []
    for result, old_init, plan in zip(
        new_op.results, op.outputs, plans[num_inputs:], strict=False
    ):
        if plan.groups is None:
            results.append(result)
        else:
            results.append(
                _restored_result(result, old_init, plan.groups, strategy, restore)
            )
    rewriter.insert(_shared(restore, known), InsertPoint.before(op))
    bypassed = [
        v.op
        for v in op.operands
        if fold_producers and isinstance(v, OpResult) and isinstance(v.op, FillOp)
    ]
    rewriter.replace(op, [], results)
    for fill in bypassed:
        _erase_if_unused(fill, rewriter)
    return new_op


def _erase_if_unused(fill: FillOp, rewriter: PatternRewriter) -> None:
    """Erase a tensor `linalg.fill` nothing uses any more, and the
    `tensor.empty` it filled if that is unused then (xDSL does not know a
    fill on tensors has no effects, so its dead-code removal keeps it)."""
    if fill.parent is None or any(r.uses for r in fill.results):
        return
    if not all(isinstance(r.type, TensorType) for r in fill.results):
        return
    init = fill.outputs[0]
    rewriter.erase(fill)
    if (
        isinstance(init, OpResult)
        and isinstance(init.op, tensor.EmptyOp)
        and not init.uses
    ):
        rewriter.erase(init.op)


# --------------------------------------------------------------------------
# Folds between rewritten generics
# --------------------------------------------------------------------------


def _reassociation_groups(op: Operation) -> Groups:
    return groups_of(op.properties["reassociation"])


def _one_dynamic_per_group(value_type: Attribute, groups: Groups) -> bool:
    assert isinstance(value_type, ShapedType)
    shape = value_type.get_shape()
    return all(sum(1 for d in g if shape[d] == DYNAMIC_INDEX) <= 1 for g in groups)


class FoldCollapseOfExpand(RewritePattern):
    """`tensor.collapse_shape` undoing a `tensor.expand_shape` (the same
    groups, back to the expanded value's type) is that value."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: tensor.CollapseShapeOp, rewriter: PatternRewriter
    ) -> None:
        source = op.src
        if not isinstance(source, OpResult) or not isinstance(
            source.op, tensor.ExpandShapeOp
        ):
            return
        expand = source.op
        if expand.src.type != op.result.type:
            return
        if _reassociation_groups(expand) != _reassociation_groups(op):
            return
        rewriter.replace(op, [], [expand.src])


class FoldExpandOfCollapse(RewritePattern):
    """`tensor.expand_shape` undoing a `tensor.collapse_shape` is the
    collapsed value, when its type is the result's and no group has two
    dynamic extents (so the expansion cannot split them differently)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: tensor.ExpandShapeOp, rewriter: PatternRewriter
    ) -> None:
        source = op.src
        if not isinstance(source, OpResult) or not isinstance(
            source.op, tensor.CollapseShapeOp
        ):
            return
        collapse = source.op
        groups = _reassociation_groups(op)
        if collapse.src.type != op.result.type or groups != _reassociation_groups(
            collapse
        ):
            return
        if not _one_dynamic_per_group(op.result.type, groups):
            return
        rewriter.replace(op, [], [collapse.src])


class FoldExtractOfInsert(RewritePattern):
    """`tensor.extract_slice` of exactly the slice a `tensor.insert_slice`
    wrote, typed as what was inserted, is that value (upstream's folder)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: tensor.ExtractSliceOp, rewriter: PatternRewriter
    ) -> None:
        source = op.source
        if not isinstance(source, OpResult) or not isinstance(
            source.op, tensor.InsertSliceOp
        ):
            return
        insert = source.op
        if insert.source.type != op.result.type:
            return
        if (
            slice_offsets(insert) != slice_offsets(op)
            or slice_sizes(insert) != slice_sizes(op)
            or slice_strides(insert) != slice_strides(op)
        ):
            return
        rewriter.replace(op, [], [insert.source])


FOLD_PATTERNS: tuple[RewritePattern, ...] = (
    FoldCollapseOfExpand(),
    FoldExpandOfCollapse(),
    FoldExtractOfInsert(),
)
"""The folds that remove the reshapes and slices left between two rewritten
generics."""
