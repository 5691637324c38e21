"""Clean-up of tiled IR: what tiling and fusion leave behind, folded away.

The tiling drivers build loop nests piece by piece (one `extract_slice` per
operand, an `affine.min` per partial tile, `tensor.dim`s to size things), so
their raw output has slices of slices, constant index arithmetic, sizes
asked of values whose sizes are known, and the untiled originals left
unused. `apply_tiling_cleanup` runs, to a fixpoint, xDSL's canonicalization
patterns (scf's: constants hoisted, trivial loops removed; arith's), the
patterns of this module and of `cleanup_affine` (what xDSL 0.74 has no
canonicalization for, on `tensor` and `affine` ops: see `cleanup_patterns`),
dead-code elimination and CSE
(`xdsl.transforms.common_subexpression_elimination`).

Every pattern keeps the meaning; none decides to compute anything
differently. Where upstream's `--canonicalize` does the same fold, the result
has the same shape; some folds here go further than upstream's canonicalizer
(slices of slices merged, `affine.min` over a loop with constant bounds
resolved: upstream keeps those for dedicated passes).
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.context import Context
from xdsl.dialects import arith, scf, tensor
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    IndexType,
    TensorType,
)
from xdsl.ir import BlockArgument, Operation, OpResult, SSAValue
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriterListener,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.transforms.canonicalization_patterns.utils import const_evaluate_operand
from xdsl.transforms.canonicalize import CanonicalizationRewritePattern
from xdsl.transforms.common_subexpression_elimination import cse
from xdsl.transforms.dead_code_elimination import region_dce
from xdsl.utils.exceptions import VerifyException

from linalg_ext.compat.slice_checks import rank_reduction_mask
from linalg_ext.tiling.cleanup_affine import (
    FoldAffineMapOp,
    FoldAffineMinMaxOverLoops,
    canonical_map,
)
from linalg_ext.transforms.dps import (
    aliased_operand,
    has_no_effects,
    has_pure_tensor_semantics,
    is_structured,
)
from linalg_ext.transforms.mixed_sizes import Mixed, sum_mixed
from linalg_ext.transforms.shape_reification import reify_dim
from linalg_ext.transforms.slices import (
    insert_slice,
    slice_offsets,
    slice_sizes,
    slice_strides,
)

MAX_ROUNDS = 8
"""Rounds of patterns + CSE `canonicalize_to_fixpoint` runs at most (CSE can
enable more folds; two or three rounds are typical)."""


# --- slice ops ----------------------------------------------------------------


def _has_unit_strides(op: tensor.ExtractSliceOp | tensor.InsertSliceOp) -> bool:
    return not op.strides and all(s == 1 for s in op.static_strides.get_values())


def _static_value(value: Mixed) -> int | None:
    """An int for a static value or an `arith.constant` index."""
    if isinstance(value, int):
        return value
    return const_evaluate_operand(value)


def kept_dims(op: tensor.ExtractSliceOp) -> list[int] | None:
    """The dimensions of the source that the slice's result keeps, in order
    (all of them unless the slice is rank-reducing: then the unit dimensions
    it drops are missing), or None if the result type does not match the
    sizes (MLIR's rank-reduction mask)."""
    result_type = op.result.type
    assert isinstance(result_type, TensorType)
    sizes = op.static_sizes.get_values()
    dropped = rank_reduction_mask(sizes, result_type.get_shape())
    if dropped is None:
        return None
    return [dim for dim in range(len(sizes)) if dim not in dropped]


def _same_slice(
    a: tensor.ExtractSliceOp | tensor.InsertSliceOp,
    b: tensor.ExtractSliceOp | tensor.InsertSliceOp,
) -> bool:
    return (
        a.static_offsets == b.static_offsets
        and a.static_sizes == b.static_sizes
        and a.static_strides == b.static_strides
        and tuple(a.offsets) == tuple(b.offsets)
        and tuple(a.sizes) == tuple(b.sizes)
        and tuple(a.strides) == tuple(b.strides)
    )


def _covers_whole(
    op: tensor.ExtractSliceOp | tensor.InsertSliceOp, whole: TensorType
) -> bool:
    """Whether the slice is all of a static tensor of type `whole`."""
    shape = list(whole.get_shape())
    return (
        whole.has_static_shape()
        and not op.offsets
        and not op.sizes
        and _has_unit_strides(op)
        and all(o == 0 for o in op.static_offsets.get_values())
        and list(op.static_sizes.get_values()) == shape
    )


# --- tensor patterns ----------------------------------------------------------


class FoldExtractSliceOfExtractSlice(RewritePattern):
    """`extract_slice(extract_slice(t))`, both with unit strides, is one
    `extract_slice` of `t`: offsets add (an `affine.apply` where one is
    dynamic), sizes are the outer slice's. The inner slice may be
    rank-reducing (its dropped unit dimensions stay at size 1 and are
    dropped again by the result type)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: tensor.ExtractSliceOp, rewriter: PatternRewriter
    ) -> None:
        inner = op.source.owner
        if not isinstance(inner, tensor.ExtractSliceOp):
            return
        if not (_has_unit_strides(op) and _has_unit_strides(inner)):
            return
        kept = kept_dims(inner)
        if kept is None:
            return
        offsets = slice_offsets(inner)
        sizes = slice_sizes(inner)
        outer_offsets = slice_offsets(op)
        outer_sizes = slice_sizes(op)
        new_ops: list[Operation] = []
        for position, dim in enumerate(kept):
            offsets[dim] = sum_mixed([offsets[dim], outer_offsets[position]], new_ops)
            sizes[dim] = outer_sizes[position]
        merged = tensor.ExtractSliceOp(
            inner.source, offsets, sizes, [1] * len(sizes), op.result.type
        )
        if _verified([*new_ops, merged], merged):
            rewriter.replace(op, [*new_ops, merged])


class FoldExtractSliceOfEmpty(RewritePattern):
    """A slice of a `tensor.empty` is a `tensor.empty` of the slice's shape
    (upstream's `FoldEmptyTensorWithExtractSliceOp`, one of the
    `fold_tensor_empty` patterns; `--canonicalize` lacks it): a fused tile
    then allocates its own tile, not the whole tensor it was cut from (the
    score matrix of a flash-attention loop)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: tensor.ExtractSliceOp, rewriter: PatternRewriter
    ) -> None:
        if not isinstance(op.source.owner, tensor.EmptyOp):
            return
        kept = kept_dims(op)
        if kept is None:
            return
        result_type = op.result.type
        assert isinstance(result_type, TensorType)
        sizes = slice_sizes(op)
        dynamic: list[SSAValue] = []
        for position, extent in enumerate(result_type.get_shape()):
            if extent == DYNAMIC_INDEX:
                size = sizes[kept[position]]
                if not isinstance(size, SSAValue):
                    return
                dynamic.append(size)
        rewriter.replace(op, tensor.EmptyOp(dynamic, result_type))


class FoldConstantEmptySizes(RewritePattern):
    """A `tensor.empty` whose dynamic sizes are constants is a static one,
    cast back to the dynamic type (upstream's canonicalization); the cast
    then folds into the users that take the static type (a peeled tile's
    `tensor.empty(%c8) : tensor<?x10xf32>` becomes `tensor<8x10xf32>`)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: tensor.EmptyOp, rewriter: PatternRewriter) -> None:
        result_type = op.tensor.type
        assert isinstance(result_type, TensorType)
        constants = [_static_value(size) for size in op.dynamic_sizes]
        if all(c is None for c in constants):
            return
        shape: list[int] = []
        dynamic: list[SSAValue] = []
        position = 0
        for extent in result_type.get_shape():
            if extent != DYNAMIC_INDEX:
                shape.append(extent)
                continue
            constant = constants[position]
            if constant is None or constant < 0:
                shape.append(DYNAMIC_INDEX)
                dynamic.append(op.dynamic_sizes[position])
            else:
                shape.append(constant)
            position += 1
        empty = tensor.EmptyOp(dynamic, TensorType(result_type.element_type, shape))
        cast = tensor.CastOp(empty.tensor, result_type)
        rewriter.replace(op, [empty, cast])


class FoldInsertOfUnchangedExtract(RewritePattern):
    """`insert_slice(extract_slice(t)[P]) into t[P]` writes back what was
    read: the result is `t` (upstream's InsertSliceOp fold)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: tensor.InsertSliceOp, rewriter: PatternRewriter
    ) -> None:
        extract = op.source.owner
        if (
            isinstance(extract, tensor.ExtractSliceOp)
            and extract.source == op.dest
            and _same_slice(extract, op)
            and op.result.type == op.dest.type
        ):
            rewriter.replace(op, [], [op.dest])


class FoldWholeSlice(RewritePattern):
    """An `extract_slice` that is all of its static source is the source; an
    `insert_slice` that overwrites all of its static dest is its source
    (upstream's folds of both)."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if isinstance(op, tensor.ExtractSliceOp):
            whole = op.source.type
            if isinstance(whole, TensorType) and op.result.type == whole:
                if _covers_whole(op, whole):
                    rewriter.replace(op, [], [op.source])
        elif isinstance(op, tensor.InsertSliceOp):
            whole = op.dest.type
            if isinstance(whole, TensorType) and op.source.type == whole:
                if _covers_whole(op, whole):
                    rewriter.replace(op, [], [op.source])


class FoldConstantSliceOperands(RewritePattern):
    """Offsets, sizes and strides of slices given by `arith.constant`s
    become static (upstream's constant-argument folder). An
    `extract_slice` whose result type becomes more static is followed by a
    `tensor.cast` back to the old type; an `insert_slice` inserts a source
    of the more static type (the source of the `tensor.cast` that made it
    less static, or a new cast)."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, tensor.ExtractSliceOp | tensor.InsertSliceOp):
            return
        lists = [
            slice_offsets(op),
            slice_sizes(op),
            slice_strides(op),
        ]
        folded = [[_fold_constant(v) for v in values] for values in lists]
        if folded == lists:
            return
        offsets, sizes, strides = folded
        slice_type = (
            op.result.type if isinstance(op, tensor.ExtractSliceOp) else op.source.type
        )
        assert isinstance(slice_type, TensorType)
        dropped = rank_reduction_mask(
            op.static_sizes.get_values(), slice_type.get_shape()
        )
        if dropped is None:
            return
        new_type = TensorType(
            slice_type.get_element_type(),
            [
                size if isinstance(size, int) else DYNAMIC_INDEX
                for dim, size in enumerate(sizes)
                if dim not in dropped
            ],
        )
        new_ops: list[Operation] = []
        if isinstance(op, tensor.ExtractSliceOp):
            new = tensor.ExtractSliceOp(op.source, offsets, sizes, strides, new_type)
            new_ops.append(new)
            results = [new.result]
            if new_type != slice_type:
                new_ops.append(cast := tensor.CastOp(new.result, slice_type))
                results = [cast.dest]
        else:
            source = op.source
            cast = source.owner
            if isinstance(cast, tensor.CastOp) and cast.source.type == new_type:
                source = cast.source
            elif source.type != new_type:
                new_ops.append(cast := tensor.CastOp(source, new_type))
                source = cast.dest
            new = insert_slice(source, op.dest, offsets, sizes, strides)
            new_ops.append(new)
            results = [new.result]
        if _verified(new_ops, new):
            rewriter.replace(op, new_ops, results)


def _verified(built: Sequence[Operation], checked: Operation) -> bool:
    """Whether `checked`, one of the ops `built` for a rewrite (not inserted
    yet), verifies: a slice made static may be seen out of bounds where the
    dynamic one was left to run time, a destination-style op may refuse a
    more static operand. If not, the built ops are discarded (the uses they
    hold on the IR's values dropped) and nothing is rewritten."""
    try:
        checked.verify()
    except VerifyException:
        for op in reversed(built):
            op.drop_all_references()
        return False
    return True


def _fold_constant(value: Mixed) -> Mixed:
    constant = _static_value(value)
    return value if constant is None else constant


class FoldTensorCasts(RewritePattern):
    """`tensor.cast`s that only make a type less static go where they are
    not needed (upstream's cast folds and FoldTensorCastProducerOp): a cast
    to its own type or of a cast is folded; an `insert_slice` of a cast
    inserts the cast's source; a destination-style op on tensors with such
    a cast operand reads the more static source (its results then more
    static too, cast back for their users)."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if isinstance(op, tensor.CastOp):
            source = op.source
            inner = source.owner
            if isinstance(inner, tensor.CastOp):
                source = inner.source
            if source.type == op.dest.type:
                rewriter.replace(op, [], [source])
            elif source is not op.source and isinstance(op.dest.type, TensorType):
                rewriter.replace(op, tensor.CastOp(source, op.dest.type))
            return
        if isinstance(op, tensor.InsertSliceOp):
            cast = op.source.owner
            if isinstance(cast, tensor.CastOp) and _more_static(
                cast.source.type, cast.dest.type
            ):
                new = insert_slice(
                    cast.source,
                    op.dest,
                    slice_offsets(op),
                    slice_sizes(op),
                    slice_strides(op),
                )
                if _verified([new], new):
                    rewriter.replace(op, new)
            return
        if is_structured(op) and has_pure_tensor_semantics(op):
            self._fold_into_dps(op, rewriter)

    @staticmethod
    def _fold_into_dps(op: Operation, rewriter: PatternRewriter) -> None:
        operands = list(op.operands)
        for index, value in enumerate(operands):
            cast = value.owner
            if isinstance(cast, tensor.CastOp) and _more_static(
                cast.source.type, cast.dest.type
            ):
                operands[index] = cast.source
        if operands == list(op.operands):
            return
        result_types = []
        for result in op.results:
            tied = aliased_operand(result)
            if tied is None:
                return
            result_types.append(operands[tied].type)
        new = type(op).create(
            operands=operands,
            result_types=result_types,
            properties=dict(op.properties),
            attributes=dict(op.attributes),
            regions=[region.clone() for region in op.regions],
        )
        if not _verified([new], new):
            return
        new_ops: list[Operation] = [new]
        values: list[SSAValue] = []
        for old, result in zip(op.results, new.results, strict=True):
            if old.type == result.type or not isinstance(old.type, TensorType):
                values.append(result)
                continue
            new_ops.append(cast := tensor.CastOp(result, old.type))
            values.append(cast.dest)
        rewriter.replace(op, new_ops, values)


def _more_static(narrow: object, wide: object) -> bool:
    """Whether tensor type `narrow` is `wide` with some dynamic extents
    known (the same rank and element type)."""
    if not (isinstance(narrow, TensorType) and isinstance(wide, TensorType)):
        return False
    if narrow.get_element_type() != wide.get_element_type():
        return False
    a, b = narrow.get_shape(), wide.get_shape()
    return len(a) == len(b) and all(
        y in (x, DYNAMIC_INDEX) for x, y in zip(a, b, strict=True)
    )


class FoldDimOp(RewritePattern):
    """`tensor.dim` answered without the tensor where its extent is known:
    a static extent (a constant), a slice's size, `tensor.empty`'s size
    operand, a destination-style result's or an `insert_slice`'s or a
    `tensor.cast`'s dimension (that of the init, dest, source), and an
    `scf.for` result's or iter_arg's dimension, that of the loop's init when
    every iteration yields an update of the iter_arg in place (an
    `insert_slice` into it, a destination-style op on it, ...: upstream's
    DimOfIterArgFolder / DimOfLoopResultFolder)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: tensor.DimOp, rewriter: PatternRewriter) -> None:
        dim = const_evaluate_operand(op.index)
        source_type = op.source.type
        if dim is None or not isinstance(source_type, TensorType):
            return
        if not 0 <= dim < source_type.get_num_dims():
            return  # out of range: left for the run-time check
        extent = source_type.get_shape()[dim]
        if extent != DYNAMIC_INDEX:
            rewriter.replace(
                op, arith.ConstantOp.from_int_and_width(extent, IndexType())
            )
            return
        replacement = _known_dim(op.source, dim)
        if replacement is None:
            return
        if isinstance(replacement, SSAValue):
            rewriter.replace(op, [], [replacement])
            return
        new_ops: list[Operation] = []
        value = reify_dim(replacement[0], dim, new_ops)
        if isinstance(value, int):
            new_ops.append(c := arith.ConstantOp.from_int_and_width(value, IndexType()))
            value = c.result
        if new_ops and isinstance(new_ops[-1], tensor.DimOp):
            # Reuse the index operand rather than a new constant.
            new_ops = [tensor.DimOp(new_ops[-1].source, op.index)]
            value = new_ops[0].results[0]
        rewriter.replace(op, new_ops, [value])


def _known_dim(value: SSAValue, dim: int) -> SSAValue | tuple[SSAValue] | None:
    """Where the extent of dimension `dim` of `value` is known: an index
    value, or `(tensor,)` for a tensor (defined before `value`) of the same
    extent, or None."""
    if isinstance(value, BlockArgument):
        loop = value.block.parent_op()
        if isinstance(loop, scf.ForOp) and value.index > 0:
            if _preserves_shape(loop, value.index - 1):
                return (loop.iter_args[value.index - 1],)
        return None
    assert isinstance(value, OpResult)
    owner = value.op
    if isinstance(owner, tensor.ExtractSliceOp):
        kept = kept_dims(owner)
        if kept is None:
            return None
        size = slice_sizes(owner)[kept[dim]]
        return size if isinstance(size, SSAValue) else None
    if isinstance(owner, tensor.EmptyOp):
        return (value,) if owner.dynamic_sizes else None
    if isinstance(owner, scf.ForOp):
        if _preserves_shape(owner, value.index):
            return (owner.iter_args[value.index],)
        return None
    if isinstance(owner, tensor.CastOp):
        return (owner.source,) if isinstance(owner.source.type, TensorType) else None
    operand = aliased_operand(value)
    if operand is not None:
        return (owner.operands[operand],)
    return None


def _preserves_shape(loop: scf.ForOp, index: int) -> bool:
    """Whether iter_arg `index` of `loop` keeps its shape on every
    iteration: what the body yields for it is the iter_arg updated in place
    (through ops whose result is an updated operand, nested loops that
    preserve shapes in turn)."""
    yielded = loop.body.block.last_op
    if not isinstance(yielded, scf.YieldOp):
        return False
    iter_arg = loop.body.block.args[index + 1]
    value = yielded.operands[index]
    seen: set[Operation] = set()
    while value is not iter_arg:
        if not isinstance(value, OpResult) or value.op in seen:
            return False
        owner = value.op
        seen.add(owner)
        if isinstance(owner, scf.ForOp) and not _preserves_shape(owner, value.index):
            return False
        operand = aliased_operand(value)
        if operand is None:
            return False
        value = owner.operands[operand]
    return True


class ForwardUnchangedIterArgs(RewritePattern):
    """An `scf.for` iter_arg that every iteration yields unchanged is its
    init throughout: the iter_arg's and the result's uses read the init
    (upstream's ForOpIterArgsFolder; the loop, if then unused and without
    effects, is erased as dead)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: scf.ForOp, rewriter: PatternRewriter) -> None:
        yielded = op.body.block.last_op
        if not isinstance(yielded, scf.YieldOp):
            return
        for index, init in enumerate(op.iter_args):
            iter_arg = op.body.block.args[index + 1]
            if yielded.operands[index] is not iter_arg:
                continue
            rewriter.replace_uses_with_if(
                iter_arg, init, lambda use: use.operation is not yielded
            )
            rewriter.replace_all_uses_with(op.results[index], init)


# --- dead code ----------------------------------------------------------------


class EraseDeadOps(RewritePattern):
    """An op whose results are unused and that has no other effect is
    erased: untiled originals left by tiling, slices nobody reads, a loop
    nest whose results are unused (what xDSL's `dce` misses because it does
    not know linalg ops on tensors to be pure)."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not op.results or op.parent is None:
            return
        if any(result.uses for result in op.results):
            return
        if has_no_effects(op):
            rewriter.erase(op)


# --- driver -------------------------------------------------------------------


def cleanup_patterns() -> list[RewritePattern]:
    """The patterns of this module: what tiled IR needs beyond xDSL's own
    canonicalization (which has none for `tensor` and `affine` ops)."""
    return [
        FoldExtractSliceOfExtractSlice(),
        FoldInsertOfUnchangedExtract(),
        FoldWholeSlice(),
        FoldConstantSliceOperands(),
        # After the slice's own folds (a whole slice is its source; constant
        # sizes become static), as upstream's driver folds before patterns.
        FoldExtractSliceOfEmpty(),
        FoldConstantEmptySizes(),
        FoldTensorCasts(),
        FoldDimOp(),
        ForwardUnchangedIterArgs(),
        FoldAffineMapOp(),
        FoldAffineMinMaxOverLoops(),
        EraseDeadOps(),
    ]


def _folding_context() -> Context:
    from xdsl.dialects.arith import Arith

    context = Context()
    context.load_dialect(Arith)
    return context


def apply_tiling_cleanup(
    root: Operation,
    ctx: Context | None = None,
    listener: PatternRewriterListener | None = None,
) -> None:
    """Clean up the tiled IR inside `root` (a module, a function, a loop:
    `root` itself stays): xDSL's canonicalization patterns with folding,
    `cleanup_patterns`, dead-code elimination and CSE, repeated until
    nothing changes (`canonicalize_to_fixpoint`). `ctx` materialises folded
    constants (one with `arith` is made if not given). `listener` hears
    every replacement and erasure the patterns make (for drivers that keep
    handles on ops: a destination-style op whose operand casts are folded is
    replaced by a new one); CSE only merges ops without effects (slices,
    index arithmetic), never a structured op or a loop."""
    canonicalize_to_fixpoint(root, cleanup_patterns(), ctx, listener)


def canonicalize_to_fixpoint(
    root: Operation,
    patterns: Sequence[RewritePattern],
    ctx: Context | None = None,
    listener: PatternRewriterListener | None = None,
) -> None:
    """Rewrite the IR inside `root` (`root` itself stays) with xDSL's
    canonicalization patterns (with folding) and `patterns` in one greedy
    applier, dead-code elimination after each walk, then CSE, until a round
    changes nothing (`MAX_ROUNDS` at most). The driver of
    `apply_tiling_cleanup` and of `canonicalize-ext`; `ctx` and `listener`
    as in `apply_tiling_cleanup`."""
    applier = GreedyRewritePatternApplier(
        [CanonicalizationRewritePattern(), *patterns],
        ctx=ctx or _folding_context(),
        folding_enabled=True,
    )
    walker = PatternRewriteWalker(applier, post_walk_func=region_dce)
    if listener is not None:
        walker.listener = listener
    for _ in range(MAX_ROUNDS):
        changed = False
        for region in root.regions:
            changed |= walker.rewrite_region(region)
        before = _count_ops(root)
        for region in root.regions:
            cse(region)
        if not changed and _count_ops(root) == before:
            return


def _count_ops(root: Operation) -> int:
    return sum(1 for _ in root.walk())


__all__ = [
    "EraseDeadOps",
    "FoldAffineMapOp",
    "FoldAffineMinMaxOverLoops",
    "FoldConstantSliceOperands",
    "FoldDimOp",
    "FoldExtractSliceOfExtractSlice",
    "FoldInsertOfUnchangedExtract",
    "FoldTensorCasts",
    "FoldWholeSlice",
    "ForwardUnchangedIterArgs",
    "apply_tiling_cleanup",
    "canonical_map",
    "canonicalize_to_fixpoint",
    "cleanup_patterns",
    "has_no_effects",
    "kept_dims",
]
