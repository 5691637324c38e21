"""`canonicalize-ext`'s patterns: xDSL's canonicalization, plus ByteIR's
extra linalg folds, plus what upstream MLIR's `--canonicalize` does on
linalg / tensor / scf IR that xDSL 0.74 lacks.

`apply_canonicalize_ext(root)` runs to a fixpoint, in one greedy applier:

- xDSL's own canonicalization (`CanonicalizationRewritePattern`: the
  patterns every op declares, arith's and scf's) with constant folding;
- the clean-up patterns of `linalg_ext.tiling.cleanup` (tensor.cast chains
  and casts folded into destination-style ops -- linalg's and `linalg_ext`'s
  alike, upstream's FoldTensorCastProducerOp --, whole and constant-sized
  slices, `tensor.dim` of known extents, unchanged `scf.for` iter_args,
  dead ops, affine index arithmetic);
- the patterns of this module: ByteIR's `FoldGenericOp` (with its defects
  fixed, see the class), and the upstream folds those lack (identity
  generics, unused results and duplicate inputs of generics, unused loop
  iter_args, `scf.if` results, reads, fills, reshapes, pads and slices of
  fills, integer arithmetic that cancels), and those of
  `canonicalization_folds` (reshapes, pads, `from_elements`, copies,
  `linalg.index` of unit loops, trivial `scf.if`s, slices of slices);
- dead-code elimination and CSE (upstream's canonicalizer uniques
  constants; CSE does that and more).

Nothing here is registered on xDSL's ops: xDSL's `canonicalize` pass is
unchanged by installing this package.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.context import Context
from xdsl.dialects import arith, scf, tensor
from xdsl.dialects.builtin import (
    AffineMapAttr,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    TensorType,
)
from xdsl.dialects.linalg.ops import FillOp, GenericOp
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineMap
from xdsl.pattern_rewriter import (
    PatternRewriter,
    PatternRewriterListener,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.traits import is_side_effect_free

from linalg_ext.canonicalization.folds import (
    more_canonicalization_patterns,
)
from linalg_ext.tiling.cleanup import (
    FoldExtractSliceOfExtractSlice,
    canonicalize_to_fixpoint,
    cleanup_patterns,
)
from linalg_ext.transforms.dps import (
    generic_like,
    has_pure_tensor_semantics,
    is_all_parallel,
)

# --- helpers ------------------------------------------------------------------


def _constant_value(value: SSAValue) -> int | float | None:
    """The number an `arith.constant` scalar holds, or None."""
    owner = value.owner
    if not isinstance(owner, arith.ConstantOp):
        return None
    attr = owner.value
    if isinstance(attr, IntegerAttr | FloatAttr):
        return attr.value.data
    return None


def _is_identity_map(op: Operation, index: int) -> bool:
    maps = op.get_indexing_maps().data  # pyright: ignore[reportAttributeAccessIssue]
    affine_map = maps[index].data
    return affine_map == AffineMap.identity(affine_map.num_dims)


def _yielded(block: Block) -> list[SSAValue]:
    last = block.last_op
    assert last is not None
    return list(last.operands)


def _fill_of(value: SSAValue) -> FillOp | None:
    """The `linalg.fill` on tensors whose result `value` is, or None."""
    owner = value.owner
    if isinstance(owner, FillOp) and len(owner.results) == 1:
        return owner
    return None


# --- ByteIR's FoldGenericOp ---------------------------------------------------


class FoldGenericOp(RewritePattern):
    """ByteIR's `FoldGenericOp`: an all-parallel `linalg.generic` adding its
    one input to its one init, where the init is a fill with zero, is its
    input.

    ByteIR's pattern checks the input's indexing map only, and replaces the
    op whatever its result type; it also folds an init that is a bare
    `tensor.empty` (the sum then reads undefined values) and ops on
    buffers. Here the input's and the init's maps must both be the
    identity (a transposing or broadcasting generic is not a copy), the
    input must have the result's type (or a less static one, then cast),
    the op must be on tensors (on buffers it writes its init), the body
    must be exactly `yield(add(in, out))`, and the fill's value a zero of
    the element type: the integer 0, or either float zero (the sum of a
    `-0.0` input and `+0.0` is `+0.0`, equal to the input under IEEE
    comparison, as ByteIR accepts; with a `-0.0` fill the fold is exact).
    The fill may be of any init (it overwrites all of it), not only of a
    `tensor.empty`.
    """

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: GenericOp, rewriter: PatternRewriter):
        if len(op.inputs) != 1 or len(op.outputs) != 1 or len(op.results) != 1:
            return
        if not has_pure_tensor_semantics(op) or not is_all_parallel(op):
            return
        if not (_is_identity_map(op, 0) and _is_identity_map(op, 1)):
            return
        fill = _fill_of(op.outputs[0])
        if fill is None or _constant_value(fill.inputs[0]) != 0:
            return
        block = op.body.block
        (yielded,) = _yielded(block)
        add = yielded.owner
        if not isinstance(add, arith.AddfOp | arith.AddiOp):
            return
        if len(block.ops) != 2:
            return
        operands = {add.lhs, add.rhs}
        if operands != {block.args[0], block.args[1]} or add.lhs is add.rhs:
            return
        source = op.inputs[0]
        result_type = op.results[0].type
        if source.type == result_type:
            rewriter.replace(op, [], [source])
        elif isinstance(source.type, TensorType) and isinstance(
            result_type, TensorType
        ):
            rewriter.replace(op, tensor.CastOp(source, result_type))


# --- upstream's linalg folds --------------------------------------------------


class EraseIdentityGeneric(RewritePattern):
    """An all-parallel `linalg.generic` on tensors whose maps are all the
    identity and whose body only yields its inputs (or inits) is those
    values (upstream's EraseIdentityLinalgOp), cast where the result type
    is more or less static."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: GenericOp, rewriter: PatternRewriter):
        if not has_pure_tensor_semantics(op) or not is_all_parallel(op):
            return
        count = len(op.inputs) + len(op.outputs)
        if not all(_is_identity_map(op, i) for i in range(count)):
            return
        block = op.body.block
        if len(block.ops) != 1 or len(op.results) != len(op.outputs):
            return
        operands = [*op.inputs, *op.outputs]
        new_ops: list[Operation] = []
        values: list[SSAValue] = []
        for value, result in zip(_yielded(block), op.results, strict=True):
            if value.owner is not block:
                return  # not an argument of the body
            source = operands[block.args.index(value)]
            if source.type == result.type:
                values.append(source)
            elif isinstance(result.type, TensorType):
                new_ops.append(cast := tensor.CastOp(source, result.type))
                values.append(cast.dest)
            else:
                return
        rewriter.replace(op, new_ops, values)


class RemoveDeadGenericResults(RewritePattern):
    """A `linalg.generic` on tensors drops its dead outputs and the inputs
    it receives twice or does not read (upstream's
    DeduplicateAndRemoveDeadOperandsAndResults, extended), with the body
    ops that only computed what a dropped output yielded.

    An output is dead when its result is unused and its init is read only
    by the ops that compute the value yielded for it (its "exclusive
    slice": the pure body ops whose values flow into dead yields only).
    Upstream keeps every output whose init the body reads; here the argmax
    torch-mlir computes beside a max (`linalg.index`, `arith.cmpf`,
    `arith.select` of the init into an i64 output) goes when only the max
    is used. A live result's computation is never touched: an op whose
    value also reaches a live yield is not in the slice."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: GenericOp, rewriter: PatternRewriter):
        if not has_pure_tensor_semantics(op):
            return
        if len(op.results) != len(op.outputs):
            return
        block = op.body.block
        maps = list(op.indexing_maps.data)
        yielded = _yielded(block)
        dead, sliced = _dead_outputs(op)
        keep_out = [i not in dead for i in range(len(op.outputs))]
        # Inputs: the first of equal (value, map) pairs is kept; later
        # duplicates read through it; inputs read only by the dropped
        # slice (or not at all) go.
        keep_in: list[bool] = []
        replacement: dict[int, int] = {}
        for i, value in enumerate(op.inputs):
            first = next(
                (
                    j
                    for j in range(i)
                    if keep_in[j] and op.inputs[j] is value and maps[j] == maps[i]
                ),
                None,
            )
            if first is not None:
                replacement[i] = first
                keep_in.append(False)
            else:
                keep_in.append(
                    any(
                        _in_block(use.operation, block) not in sliced
                        for use in block.args[i].uses
                    )
                )
        if all(keep_in) and all(keep_out):
            return
        # Loop bounds come from the operands' shapes: every loop must still
        # be read off some kept operand's map, or the op changes its trip
        # count.
        kept_maps = [m for m, k in zip(maps, [*keep_in, *keep_out], strict=True) if k]
        if not _covers_loops(kept_maps, len(op.iterator_types)):
            return
        new_block = Block(
            arg_types=[
                a.type
                for a, k in zip(block.args, [*keep_in, *keep_out], strict=True)
                if k
            ]
        )
        new_args = iter(new_block.args)
        arg_map: dict[SSAValue, SSAValue] = {}
        for keep, arg in zip([*keep_in, *keep_out], block.args, strict=True):
            if keep:
                arg_map[arg] = next(new_args)
        for i, first in replacement.items():
            arg_map[block.args[i]] = arg_map[block.args[first]]
        new_yield_values = [v for v, k in zip(yielded, keep_out, strict=True) if k]
        new = generic_like(
            op,
            [v for v, k in zip(op.inputs, keep_in, strict=True) if k],
            [v for v, k in zip(op.outputs, keep_out, strict=True) if k],
            Region(new_block),
            kept_maps,
            op.iterator_types.data,
            [r.type for r, k in zip(op.results, keep_out, strict=True) if k],
        )
        terminator = block.last_op
        assert terminator is not None
        for nested in block.ops:
            # The slice reads dropped block arguments: it is not cloned
            # (nothing kept uses it).
            if nested is not terminator and nested not in sliced:
                new_block.add_op(nested.clone(value_mapper=arg_map))
        new_block.add_op(
            type(terminator).create(
                operands=[arg_map.get(v, v) for v in new_yield_values]
            )
        )
        results = iter(new.results)
        values: list[SSAValue | None] = [next(results) if k else None for k in keep_out]
        rewriter.replace(op, new, values)


def _in_block(op: Operation, block: Block) -> Operation:
    """`op`'s ancestor directly in `block` (`op` itself if it is there)."""
    while op.parent_block() is not block:
        parent = op.parent_op()
        assert parent is not None, "a use inside the block's ops"
        op = parent
    return op


def _exclusive_slice(block: Block, dead: set[int]) -> set[Operation]:
    """The effect-free ops of `block` whose values all flow only into the
    terminator's operands at positions `dead` (directly or through other
    such ops): what computes only dead yields."""
    terminator = block.last_op
    sliced: set[Operation] = set()
    # Uses follow definitions in a block: walking backwards, every user of
    # an op is already classified when the op is reached.
    for nested in reversed(list(block.ops)):
        if nested is terminator or not is_side_effect_free(nested):
            continue
        users_dead = True
        for result in nested.results:
            for use in result.uses:
                user = _in_block(use.operation, block)
                if user is terminator:
                    users_dead = users_dead and use.index in dead
                else:
                    users_dead = users_dead and user in sliced
        if users_dead:
            sliced.add(nested)
    return sliced


def _dead_outputs(op: GenericOp) -> tuple[set[int], set[Operation]]:
    """The outputs `op` may drop (their results unused, their inits read
    only by their exclusive slice) and the body ops computing only them.
    One output stays when no result is used: a generic needs an output
    (upstream keeps one); the unused op is then left to dead-code
    elimination."""
    block = op.body.block
    terminator = block.last_op
    n_in = len(op.inputs)
    dead = {i for i, result in enumerate(op.results) if not result.uses}
    if len(dead) == len(op.results):
        dead.discard(0)
    # Keeping an output keeps its yield's slice, which may read the init
    # of another unused output: iterate until no more outputs are kept.
    while True:
        sliced = _exclusive_slice(block, dead)
        still_dead = {
            i
            for i in dead
            if all(
                (user := _in_block(use.operation, block)) in sliced
                or (user is terminator and use.index in dead)
                for use in block.args[n_in + i].uses
            )
        }
        if still_dead == dead:
            return dead, sliced
        dead = still_dead


def _covers_loops(maps: Sequence[AffineMapAttr], num_loops: int) -> bool:
    """Whether every loop is a result of some map (so that its extent is
    read off an operand's shape)."""
    seen: set[int] = set()
    for m in maps:
        for expr in m.data.results:
            if isinstance(expr, AffineDimExpr):
                seen.add(expr.position)
    return seen >= set(range(num_loops))


# --- fills --------------------------------------------------------------------


class FoldExtractOfFill(RewritePattern):
    """`tensor.extract` of a `linalg.fill`'s result is the fill value
    (upstream's FoldFillWithTensorExtract)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: tensor.ExtractOp, rewriter: PatternRewriter):
        fill = _fill_of(op.tensor)
        if fill is not None and fill.inputs[0].type == op.result.type:
            rewriter.replace(op, [], [fill.inputs[0]])


class FoldFillOfFill(RewritePattern):
    """A `linalg.fill` of a fill's result overwrites all of it: it fills
    the first fill's init instead (upstream's fill-of-fill fold); the first
    fill, then unused, is dead."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: FillOp, rewriter: PatternRewriter):
        if len(op.results) != 1:
            return
        inner = _fill_of(op.outputs[0])
        if inner is None:
            return
        rewriter.replace(
            op,
            FillOp(op.inputs, inner.outputs, [op.results[0].type]),
        )


class FoldReshapeOfFill(RewritePattern):
    """A `tensor.collapse_shape` / `expand_shape` of a fill's result is a
    fill of the reshaped init (upstream's FoldFillWithTensorReshape)."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter):
        if not isinstance(op, tensor.CollapseShapeOp | tensor.ExpandShapeOp):
            return
        fill = _fill_of(op.operands[0])
        if fill is None:
            return
        reshaped = op.clone()
        reshaped.operands = [fill.outputs[0], *op.operands[1:]]
        new_fill = FillOp(fill.inputs, reshaped.results, [op.results[0].type])
        rewriter.replace(op, [reshaped, new_fill])


class FoldReshapeOfEmpty(RewritePattern):
    """A `tensor.collapse_shape` / `expand_shape` of a `tensor.empty` with a
    static result is a `tensor.empty` of that type (upstream's
    `populateFoldTensorEmptyPatterns`, which ByteIR's canonicalize-ext
    runs)."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter):
        if not isinstance(op, tensor.CollapseShapeOp | tensor.ExpandShapeOp):
            return
        result_type = op.results[0].type
        if not isinstance(op.operands[0].owner, tensor.EmptyOp):
            return
        if isinstance(result_type, TensorType) and result_type.has_static_shape():
            rewriter.replace(op, tensor.EmptyOp([], result_type))


class FoldPadOfFill(RewritePattern):
    """A `tensor.pad` of a fill's result, padding with the fill's value, is
    a fill of a new `tensor.empty` of the padded (static) shape (upstream's
    FoldFillWithPad)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: tensor.PadOp, rewriter: PatternRewriter):
        fill = _fill_of(op.source)
        result_type = op.result.type
        if fill is None or op.nofold is not None:
            return
        if not (isinstance(result_type, TensorType) and result_type.has_static_shape()):
            return
        block = op.region.block
        if len(block.ops) != 1:
            return
        (padding,) = _yielded(block)
        value = fill.inputs[0]
        if padding is not value and not _same_constant(padding, value):
            return
        empty = tensor.EmptyOp([], result_type)
        rewriter.replace(op, [empty, FillOp([value], [empty.tensor], [result_type])])


def _same_constant(a: SSAValue, b: SSAValue) -> bool:
    first, second = a.owner, b.owner
    return (
        isinstance(first, arith.ConstantOp)
        and isinstance(second, arith.ConstantOp)
        and first.value == second.value
    )


class FoldExtractSliceOfFill(RewritePattern):
    """A slice of a fill's result is a fill of the slice of its init (with
    `FoldExtractSliceOfEmpty`, of a `tensor.empty` of the slice's shape):
    the fill then writes only what is read. Upstream's canonicalizer keeps
    the whole fill; this is its `populateFoldTensorEmptyPatterns` kind of
    fold, which ByteIR's canonicalize-ext runs."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: tensor.ExtractSliceOp, rewriter: PatternRewriter):
        fill = _fill_of(op.source)
        if fill is None or not fill.results[0].has_one_use():
            return  # the whole fill is needed anyway: one more fill is more ops
        init = fill.outputs[0]
        sliced = op.clone()
        sliced.operands = [init, *op.operands[1:]]
        new_fill = FillOp(fill.inputs, sliced.results, [op.result.type])
        rewriter.replace(op, [sliced, new_fill])


# --- scf ----------------------------------------------------------------------
class ForwardSameIfResults(RewritePattern):
    """An `scf.if` result that both branches yield as the same value,
    defined outside the `scf.if`, is that value (upstream's
    RemoveUnusedResults / ReplaceIfYieldWithConditionOrValue kind of fold);
    an `scf.if` left without used results and without effects is dead."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: scf.IfOp, rewriter: PatternRewriter):
        if not op.false_region.blocks or not op.output:
            return
        then_values = _yielded(op.true_region.block)
        else_values = _yielded(op.false_region.block)
        for result, a, b in zip(op.output, then_values, else_values, strict=True):
            if a is not b or not result.uses or _defined_inside(a, op):
                continue
            rewriter.replace_all_uses_with(result, a)


def _defined_inside(value: SSAValue, op: Operation) -> bool:
    owner = value.owner
    block = owner if isinstance(owner, Block) else owner.parent_block()
    while block is not None:
        parent = block.parent_op()
        if parent is op:
            return True
        block = parent.parent_block() if parent is not None else None
    return False


class RemoveUnusedIterArgs(RewritePattern):
    """An `scf.for` iter_arg that each iteration yields unchanged and whose
    result is unused (after `ForwardUnchangedIterArgs`, its uses read the
    init) is dropped from the loop (upstream's ForOpIterArgsFolder)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: scf.ForOp, rewriter: PatternRewriter):
        body = op.body.block
        yielded = body.last_op
        if not isinstance(yielded, scf.YieldOp):
            return
        drop = [
            i
            for i in range(len(op.iter_args))
            if yielded.operands[i] is body.args[i + 1]
            and not op.results[i].uses
            and all(u.operation is yielded for u in body.args[i + 1].uses)
        ]
        if not drop:
            return
        keep = [i for i in range(len(op.iter_args)) if i not in drop]
        new_body = Block(
            arg_types=[body.args[0].type, *(body.args[i + 1].type for i in keep)]
        )
        mapping: dict[SSAValue, SSAValue] = {body.args[0]: new_body.args[0]}
        for position, i in enumerate(keep):
            mapping[body.args[i + 1]] = new_body.args[position + 1]
        for nested in body.ops:
            if nested is yielded:
                break
            new_body.add_op(nested.clone(value_mapper=mapping))
        new_body.add_op(
            scf.YieldOp(
                *(mapping.get(yielded.operands[i], yielded.operands[i]) for i in keep)
            )
        )
        new = scf.ForOp(
            op.lb, op.ub, op.step, [op.iter_args[i] for i in keep], Region(new_body)
        )
        results = iter(new.results)
        values: list[SSAValue | None] = [
            None if i in drop else next(results) for i in range(len(op.iter_args))
        ]
        rewriter.replace(op, new, values)


# --- arith --------------------------------------------------------------------


class FoldIntegerSelfInverse(RewritePattern):
    """Integer arithmetic that cancels (upstream's arith folds xDSL 0.74
    lacks): `x - x` and `x ^ x` are 0; `(a - b) + b`, `b + (a - b)` and
    `(a + b) - b` are `a`; `(a + b) - a` is `b`. ByteIR's canonicalize-ext
    also folds a multiplication by zero: exact on integers (xDSL's own
    patterns do it), not on floats (`NaN * 0`, `inf * 0`, `-1 * 0`), so no
    float product is folded here."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter):
        if isinstance(op, arith.SubiOp | arith.XOrIOp) and op.lhs is op.rhs:
            result_type = op.result.type
            if isinstance(result_type, IntegerType | IndexType):
                zero = arith.ConstantOp(IntegerAttr(0, result_type))
                rewriter.replace(op, zero)
            return
        if isinstance(op, arith.AddiOp):
            for diff, other in ((op.lhs, op.rhs), (op.rhs, op.lhs)):
                sub = diff.owner
                if isinstance(sub, arith.SubiOp) and sub.rhs is other:
                    rewriter.replace(op, [], [sub.lhs])
                    return
        if isinstance(op, arith.SubiOp):
            add = op.lhs.owner
            if isinstance(add, arith.AddiOp):
                if add.rhs is op.rhs:
                    rewriter.replace(op, [], [add.lhs])
                elif add.lhs is op.rhs:
                    rewriter.replace(op, [], [add.rhs])


# --- driver -------------------------------------------------------------------


def canonicalize_ext_patterns() -> list[RewritePattern]:
    """The patterns `canonicalize-ext` adds to xDSL's canonicalization."""
    return [
        FoldGenericOp(),
        EraseIdentityGeneric(),
        RemoveDeadGenericResults(),
        FoldExtractOfFill(),
        FoldFillOfFill(),
        FoldReshapeOfFill(),
        FoldReshapeOfEmpty(),
        RemoveUnusedIterArgs(),
        ForwardSameIfResults(),
        FoldPadOfFill(),
        FoldExtractSliceOfFill(),
        FoldIntegerSelfInverse(),
        *more_canonicalization_patterns(),
        # The tiling clean-up's merge of slices of slices can add an
        # affine.apply per offset: MergeSlicesWithoutNewOps merges only
        # where it does not.
        *(
            p
            for p in cleanup_patterns()
            if not isinstance(p, FoldExtractSliceOfExtractSlice)
        ),
    ]


def apply_canonicalize_ext(
    root: Operation,
    ctx: Context | None = None,
    listener: PatternRewriterListener | None = None,
) -> None:
    """Canonicalize the IR inside `root` (`root` itself stays) to a
    fixpoint: xDSL's canonicalization with folding, `canonicalize_ext_patterns`,
    dead-code elimination and CSE (the tiling clean-up's driver,
    `canonicalize_to_fixpoint`). `ctx` materialises folded constants."""
    canonicalize_to_fixpoint(root, canonicalize_ext_patterns(), ctx, listener)


__all__ = [
    "EraseIdentityGeneric",
    "FoldExtractOfFill",
    "FoldFillOfFill",
    "FoldExtractSliceOfFill",
    "FoldGenericOp",
    "FoldIntegerSelfInverse",
    "FoldPadOfFill",
    "ForwardSameIfResults",
    "FoldReshapeOfEmpty",
    "FoldReshapeOfFill",
    "RemoveDeadGenericResults",
    "RemoveUnusedIterArgs",
    "apply_canonicalize_ext",
    "canonicalize_ext_patterns",
]
