"""More of upstream's `--canonicalize` folds that xDSL 0.74 lacks, for
`canonicalize-ext` (see `linalg_ext.canonicalization.patterns`): reshapes,
pads, `from_elements`, copies, `linalg.index` of unit loops, trivial
`scf.if`s, single-result `affine.min`/`max`, float identities, and slices
of slices merged where that needs no new op.
"""

from __future__ import annotations

import math

from xdsl.dialects import affine, arith, scf, tensor
from xdsl.dialects.builtin import (
    AffineMapAttr,
    FloatAttr,
    IndexType,
    IntegerAttr,
    ShapedType,
    TensorType,
)
from xdsl.dialects.linalg.ops import CopyOp, FillOp, IndexOp
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import AffineDimExpr
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.transforms.canonicalization_patterns.utils import const_evaluate_operand

from linalg_ext.compat.affine_ops import MaxOp as AffineMaxOp
from linalg_ext.tiling.cleanup import FoldExtractSliceOfExtractSlice, kept_dims
from linalg_ext.transforms.dps import has_pure_tensor_semantics, is_structured
from linalg_ext.transforms.slices import slice_offsets
from linalg_ext.transforms.unit_dims import FoldCollapseOfExpand, FoldExpandOfCollapse

# --- reshapes -----------------------------------------------------------------


class FoldCollapseOfCast(RewritePattern):
    """A `collapse_shape` of a `tensor.cast` that only makes its source less
    static collapses the source (cast after, if the result type changes:
    upstream's FoldCollapseOfCastOp)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: tensor.CollapseShapeOp, rewriter: PatternRewriter):
        cast = op.src.owner
        if not isinstance(cast, tensor.CastOp):
            return
        source_type = cast.source.type
        if not isinstance(source_type, TensorType):
            return
        groups = [[int(d.value.data) for d in group] for group in op.reassociation]
        shape = source_type.get_shape()
        result_shape: list[int] = []
        for group in groups:
            extents = [shape[d] for d in group]
            product = 1
            for extent in extents:
                product = -1 if product < 0 or extent < 0 else product * extent
            result_shape.append(product)
        old_type = op.result.type
        assert isinstance(old_type, TensorType)
        new_type = TensorType(
            old_type.get_element_type(),
            [
                new if new >= 0 else old
                for new, old in zip(result_shape, old_type.get_shape(), strict=True)
            ],
        )
        if any(
            old >= 0 and new >= 0 and new != old
            for new, old in zip(new_type.get_shape(), old_type.get_shape(), strict=True)
        ):
            return
        collapse = tensor.CollapseShapeOp.create(
            operands=[cast.source],
            result_types=[new_type],
            properties=dict(op.properties),
            attributes=dict(op.attributes),
        )
        if new_type == old_type:
            rewriter.replace(op, collapse)
        else:
            cast_back = tensor.CastOp(collapse.results[0], old_type)
            rewriter.replace(op, [collapse, cast_back])


# --- pads and elements --------------------------------------------------------


class FoldPadWithoutPadding(RewritePattern):
    """A `tensor.pad` adding nothing (every low and high padding a static
    0) whose result has the source's type is its source (upstream's fold,
    unless `nofold`)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: tensor.PadOp, rewriter: PatternRewriter):
        if op.nofold is not None or op.low or op.high:
            return
        pads = [*op.static_low.get_values(), *op.static_high.get_values()]
        if all(p == 0 for p in pads) and op.source.type == op.result.type:
            rewriter.replace(op, [], [op.source])


class FoldExtractOfFromElements(RewritePattern):
    """`tensor.extract` at constant indices of a `tensor.from_elements` is
    that element (upstream's ExtractFromTensorFromElements)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: tensor.ExtractOp, rewriter: PatternRewriter):
        elements = op.tensor.owner
        if not isinstance(elements, tensor.FromElementsOp):
            return
        tensor_type = op.tensor.type
        assert isinstance(tensor_type, TensorType)
        indices = [const_evaluate_operand(i) for i in op.indices]
        shape = tensor_type.get_shape()
        linear = 0
        for index, extent in zip(indices, shape, strict=True):
            if index is None or not 0 <= index < extent:
                return
            linear = linear * extent + index
        rewriter.replace(op, [], [elements.elements[linear]])


# --- copies and linalg.index --------------------------------------------------


class FoldCopies(RewritePattern):
    """A `linalg.copy` on tensors of a value of the result's type is that
    value (upstream's EraseIdentityLinalgOp); a copy of a fill's result is a
    fill of the copy's init (upstream's FoldFillWithCopy)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: CopyOp, rewriter: PatternRewriter):
        if len(op.results) != 1 or not has_pure_tensor_semantics(op):
            return
        (source,), (init,) = op.inputs, op.outputs
        result_type = op.results[0].type
        if source.type == result_type:
            rewriter.replace(op, [], [source])
            return
        fill = source.owner
        if isinstance(fill, FillOp) and _element_type(source) == _element_type(init):
            rewriter.replace(op, FillOp(fill.inputs, [init], [result_type]))


def _element_type(value: SSAValue) -> object:
    value_type = value.type
    return value_type.get_element_type() if isinstance(value_type, TensorType) else None


class FoldUnitLoopIndex(RewritePattern):
    """`linalg.index` of a loop whose extent is 1 (read off a static
    operand dimension that the loop indexes alone) is 0 (upstream's
    fold)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: IndexOp, rewriter: PatternRewriter):
        structured = op.parent_op()
        if structured is None or not is_structured(structured):
            return
        dim = op.dim.value.data
        maps = structured.get_indexing_maps().data  # pyright: ignore[reportAttributeAccessIssue]
        # Operands and maps pair up (scalar operands have a map too).
        for value, affine_map in zip(structured.operands, maps, strict=False):
            value_type = value.type
            if not isinstance(value_type, ShapedType):
                continue
            shape = value_type.get_shape()
            for position, expr in enumerate(affine_map.data.results):
                if isinstance(expr, AffineDimExpr) and expr.position == dim:
                    if position < len(shape) and shape[position] == 1:
                        zero = arith.ConstantOp(IntegerAttr(0, IndexType()))
                        rewriter.replace(op, zero)
                        return


# --- scf.if -------------------------------------------------------------------


class IfToSelect(RewritePattern):
    """An `scf.if` whose branches only yield (values defined outside it) is
    one `arith.select` per result that differs (upstream's
    ConvertTrivialIfToSelect; one-shot-bufferize here bufferizes a select
    of tensors as a select of buffers)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: scf.IfOp, rewriter: PatternRewriter):
        if not op.output or not op.false_region.blocks:
            return
        then_block, else_block = op.true_region.block, op.false_region.block
        if len(then_block.ops) != 1 or len(else_block.ops) != 1:
            return
        then_yield, else_yield = then_block.last_op, else_block.last_op
        assert then_yield is not None and else_yield is not None
        selects: list[Operation] = []
        values: list[SSAValue] = []
        for a, b in zip(then_yield.operands, else_yield.operands, strict=True):
            if a is b:
                values.append(a)
                continue
            selects.append(select := arith.SelectOp(op.cond, a, b))
            values.append(select.result)
        rewriter.replace(op, selects, values)


class SingleResultMinMax(RewritePattern):
    """An `affine.min` / `affine.max` of one result is an `affine.apply` of
    it (upstream's fold; an identity apply then folds to its operand)."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter):
        if not isinstance(op, affine.MinOp | AffineMaxOp):
            return
        map_attr = op.properties["map"]
        assert isinstance(map_attr, AffineMapAttr)
        if len(map_attr.data.results) == 1:
            rewriter.replace(op, affine.ApplyOp(list(op.operands), map_attr))


class FoldFloatIdentities(RewritePattern):
    """Float operations with an operand that leaves the other unchanged
    under IEEE arithmetic are that operand (upstream's arith folds):
    `x + -0.0`, `x - +0.0`, `x * 1.0`, `x / 1.0`, `minimumf` with `+inf`,
    `maximumf` with `-inf` (either side where the op commutes). Not
    `x + 0.0` (`-0.0 + 0.0` is `+0.0`) nor `minnumf`/`maxnumf` (which
    return the other operand for a NaN)."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter):
        if not isinstance(op, arith.FloatingPointLikeBinaryOperation):
            return
        lhs, rhs = op.lhs, op.rhs
        candidates = [(rhs, lhs)]
        if isinstance(op, _COMMUTATIVE_FLOAT_OPS):
            candidates.append((lhs, rhs))
        for constant, other in candidates:
            value = _float_constant(constant)
            if value is not None and _is_neutral(op, value):
                rewriter.replace(op, [], [other])
                return


_COMMUTATIVE_FLOAT_OPS = (
    arith.AddfOp,
    arith.MulfOp,
    arith.MinimumfOp,
    arith.MaximumfOp,
)


def _float_constant(value: SSAValue) -> float | None:
    owner = value.owner
    if isinstance(owner, arith.ConstantOp) and isinstance(owner.value, FloatAttr):
        return owner.value.value.data
    return None


def _is_neutral(op: Operation, value: float) -> bool:
    negative_zero = value == 0.0 and math.copysign(1.0, value) < 0
    positive_zero = value == 0.0 and not negative_zero
    if isinstance(op, arith.AddfOp):
        return negative_zero
    if isinstance(op, arith.SubfOp):
        return positive_zero
    if isinstance(op, arith.MulfOp | arith.DivfOp):
        return value == 1.0
    # Only the NaN-propagating forms: `minnumf(NaN, +inf)` is `+inf`.
    if isinstance(op, arith.MinimumfOp):
        return value == math.inf
    if isinstance(op, arith.MaximumfOp):
        return value == -math.inf
    return False


# --- slices -------------------------------------------------------------------


class MergeSlicesWithoutNewOps(RewritePattern):
    """`extract_slice(extract_slice(t))` as one slice (the tiling clean-up's
    merge), only where no offset needs an `affine.apply` to add (both
    static, or one a static 0): upstream's canonicalizer keeps both slices,
    and an added apply would make more ops than it."""

    _merge = FoldExtractSliceOfExtractSlice()

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: tensor.ExtractSliceOp, rewriter: PatternRewriter):
        inner = op.source.owner
        if not isinstance(inner, tensor.ExtractSliceOp):
            return
        kept = kept_dims(inner)
        if kept is None:
            return
        offsets = slice_offsets(inner)
        outer = slice_offsets(op)
        for position, dim in enumerate(kept):
            a, b = offsets[dim], outer[position]
            if not (isinstance(a, int) and isinstance(b, int)) and 0 not in (a, b):
                return
        self._merge.match_and_rewrite(op, rewriter)


def more_canonicalization_patterns() -> list[RewritePattern]:
    """The patterns of this module."""
    return [
        # A reshape undoing its inverse (the unit-dims fold's patterns: an
        # expand of a collapse only where no group has two dynamic extents).
        FoldCollapseOfExpand(),
        FoldExpandOfCollapse(),
        FoldCollapseOfCast(),
        FoldPadWithoutPadding(),
        FoldExtractOfFromElements(),
        FoldCopies(),
        FoldUnitLoopIndex(),
        IfToSelect(),
        SingleResultMinMax(),
        FoldFloatIdentities(),
        MergeSlicesWithoutNewOps(),
    ]
