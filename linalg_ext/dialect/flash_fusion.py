"""Flash attention by fusion: a softmax tiled along its own dimension into
the loops of a matmul tiled along k (a `SPECIAL_FUSIONS` entry of
`linalg_ext.tiling.fuse_ext`; ByteIR's `compiler/doc/attention.md`).

    %p:4 = linalg_ext.softmax dimension(D) ins(%s) outs(%o, %m0, %a0, %sc)
    %r = linalg.matmul ins(%p#0, %v) outs(%zero)    (the root, k tiled)

A softmax alone cannot be cut along `dimension` (every output element is
divided by the sum over its whole row; its tiling model refuses), but its
running statistics let the *consumer* correct earlier tiles: when the
softmax's output is the left operand of the root matmul and a loop tiles
the root's k (the softmax's `dimension`), each iteration computes the
softmax of its k-tile from the running max and sum (carried through the
loops' `iter_args`, their inits left before the loops) and rescales the
rows accumulated so far before adding its own product:

    m, a, P_t, scale = softmax_tile(S_t; m, a)
    O = diag(scale) · O + P_t · V_t

With the softmax's definition (docs/ops/softmax.md), P_t = exp(S_t − m)/a
and scale = a_old·exp(m_old − m)/a, so after each step
O = Σ_{k seen} exp(S_k − m)/a · V_k: after the last, softmax(S)·V. For
`unnorm_softmax` P_t = exp(S_t − m) and scale = exp(m_old − m) (its own
definition), so O = Σ_{k seen} exp(S_k − m) · V_k: unnorm_softmax(S)·V
with the final max, still to be divided by the final sum (a later op, which
reads the loops' carried sum). The derivation and a numerical check are in
docs/fuse-ext-attention.md.

Both need the root's init to be zero: the first step's scale is 0 for a
plain softmax (a0 = 0) and exp(m0 − m) ≠ 1 in general, so a nonzero init
would be rescaled away, where the untiled matmul adds it. The other
refusals: a loop tiles the matmul's N (each softmax tile would be computed
once per N tile, updating the statistics as often), the softmax's output or
scale is read by anything else, `keep_intermediates` (its output tiles are
not its final values), or element types that differ between the softmax and
the matmul's init. A refusal changes nothing and adds its reason to the
report (`state.outside`); the general rule then refuses to cut the softmax's
dimension, and it stays whole before the loops. A matmul with non-default
`indexing_maps` is not recognised at all.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.dialects import arith, scf, tensor
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AffineMapAttr,
    AnyFloat,
    ArrayAttr,
    DenseIntOrFPElementsAttr,
    FloatAttr,
    TensorType,
)
from xdsl.dialects.linalg.ops import FillOp, MatmulOp
from xdsl.ir import Attribute, BlockArgument, Operation, OpResult, SSAValue
from xdsl.ir.affine import AffineMap
from xdsl.rewriter import InsertPoint, Rewriter

from linalg_ext.compat.linalg_ops import BATCH_MATMUL_DEFAULT_MAPS
from linalg_ext.compat.linalg_ops import BatchMatmulOp as LinalgBatchMatmulOp
from linalg_ext.dialect.batch_matmul import BatchMatmulOp
from linalg_ext.dialect.diag import DiagOp
from linalg_ext.dialect.softmax import SoftmaxLikeOp
from linalg_ext.dialect.tiling_support import rebuilt
from linalg_ext.tiling.fuse_ext import (
    SPECIAL_FUSIONS,
    FusionState,
    SliceUse,
    replace_slice_by_part,
)
from linalg_ext.tiling.interface import TiledOp
from linalg_ext.transforms.mixed_sizes import Mixed, as_index_value
from linalg_ext.transforms.shape_reification import reify_dim
from linalg_ext.transforms.slices import extract_slice, insert_slice

MAX_INIT_REASON = (
    "it initialises the running max of a softmax tiled along the matmul's k "
    "(flash attention): it stays before the loops, which carry the max"
)
SUM_INIT_REASON = (
    "it initialises the running sum of a softmax tiled along the matmul's k "
    "(flash attention): it stays before the loops, which carry the sum"
)


_MATMUL_DEFAULT_MAPS = ArrayAttr(
    (
        AffineMapAttr(AffineMap.from_callable(lambda m, n, k: (m, k))),
        AffineMapAttr(AffineMap.from_callable(lambda m, n, k: (k, n))),
        AffineMapAttr(AffineMap.from_callable(lambda m, n, k: (m, n))),
    )
)
"""`linalg.matmul`'s maps over its loops (m, n, k) when none are given."""


@dataclass(frozen=True)
class MatmulLayout:
    """Where the parts of a matmul-like consumer are: `lhs_k` the dimension
    of its left operand that k indexes (the softmax's `dimension` must be
    it), `k_loop` and `n_loop` its k and N loops among the root's loops.
    The init's dimensions are the loops (batch..., m, n) in order."""

    lhs_k: int
    k_loop: int
    n_loop: int


def matmul_layout(op: Operation) -> MatmulLayout | None:
    """The layout of a `linalg.matmul`, `linalg.batch_matmul` (default
    maps) or `linalg_ext.batch_matmul` (any layout), None for other ops."""
    if isinstance(op, MatmulOp):
        if op.indexing_maps != _MATMUL_DEFAULT_MAPS:
            return None
        return MatmulLayout(lhs_k=1, k_loop=2, n_loop=1)
    if isinstance(op, LinalgBatchMatmulOp):
        if op.indexing_maps != BATCH_MATMUL_DEFAULT_MAPS:
            return None
        return MatmulLayout(lhs_k=2, k_loop=3, n_loop=2)
    if isinstance(op, BatchMatmulOp):
        init_type = op.init.type
        assert isinstance(init_type, TensorType)
        rank = init_type.get_num_dims()
        lhs_k = rank - 1 if op.layout.data[0] == "n" else rank - 2
        return MatmulLayout(lhs_k=lhs_k, k_loop=rank, n_loop=rank - 1)
    return None


@dataclass
class FlashPlan:
    """What `plan_flash_fusion` found: the use of the softmax output (the
    slice the root's tile reads as its left operand), the root's tile, and
    the row part (the tile without the softmax dimension)."""

    use: SliceUse
    consumer: Operation
    row_offsets: list[Mixed]
    row_sizes: list[Mixed]


def plan_flash_fusion(
    state: FusionState, producer: Operation, uses: dict[int, list[SliceUse]]
) -> FlashPlan | str | None:
    """The plan of the flash form for `producer`; None if it is not a
    softmax read as the left operand of the root tiled along k; why not
    (a str) if it is but the flash form would change the meaning (see the
    module docstring)."""
    if not isinstance(producer, SoftmaxLikeOp):
        return None
    found = next(
        (
            (use, consumer, layout)
            for use in uses.get(0, [])
            if (consumer := _left_operand_reader(use)) is not None
            and (layout := matmul_layout(consumer)) is not None
            and consumer.parent_block() is state.body
            and producer.dimension.value.data == layout.lhs_k
            and _k_tiled(state, use, layout)
        ),
        None,
    )
    if found is None:
        return None
    use, consumer, layout = found
    if state.keep_intermediates:
        return "keep_intermediates asks for its output whole"
    if set(uses) != {0} or len(uses[0]) != 1:
        return "another op of the cone reads it"
    if any(dim == layout.n_loop for dim in state.loop_dims):
        return (
            "a loop tiles the matmul's N: each softmax tile would be computed, "
            "and its running max and sum updated, once per N tile"
        )
    if not _only_read_by(producer.results[0], use.slice_op):
        return "its output is used outside the loops, where it is never whole"
    if producer.results[3].uses:
        return "its scale is used, which has no value for the whole tensor"
    init = consumer.operands[-1]
    if not _carried_init_is_zero(state, init):
        return (
            "the matmul's init is not a zero fill: the rescaling of the rows "
            "accumulated so far would rescale it too"
        )
    scale_type, init_type = producer.results[3].type, init.type
    assert isinstance(scale_type, TensorType) and isinstance(init_type, TensorType)
    if scale_type.element_type != init_type.element_type:
        return "its element type is not the matmul init's"
    dimension = layout.lhs_k
    row_offsets = [o for d, o in enumerate(use.origin.offsets) if d != dimension]
    row_sizes = [s for d, s in enumerate(use.origin.sizes) if d != dimension]
    return FlashPlan(use, consumer, row_offsets, row_sizes)


def _left_operand_reader(use: SliceUse) -> Operation | None:
    """The op reading the slice of `use` as its first operand, and nothing
    else reading it."""
    if use.origin.dropped:
        return None
    readers = list(use.slice_op.result.uses)
    if len(readers) != 1 or readers[0].index != 0:
        return None
    return readers[0].operation


def _k_tiled(state: FusionState, use: SliceUse, layout: MatmulLayout) -> bool:
    """Whether a reduction loop of the root tiles its k and the slice reads
    the root's k tile there (the consumer is then the root's tile: fused
    producers are computed whole along their reductions)."""
    if layout.k_loop not in state.loop_dims:
        return False
    position = state.loop_dims.index(layout.k_loop)
    if state.parallel[position]:
        return False
    offset = use.origin.offsets[layout.lhs_k]
    size = use.origin.sizes[layout.lhs_k]
    return _same(offset, state.root_offsets[layout.k_loop]) and _same(
        size, state.root_sizes[layout.k_loop]
    )


def _same(a: Mixed, b: Mixed) -> bool:
    return a is b if isinstance(a, SSAValue) else a == b


def _only_read_by(value: SSAValue, reader: Operation) -> bool:
    return all(use.operation is reader for use in value.uses)


def _carried_init_is_zero(state: FusionState, init: SSAValue) -> bool:
    """Whether the consumer's init is a slice of the root's destination,
    carried from outside the loops, and that destination is zero."""
    if not isinstance(init, OpResult) or not isinstance(init.op, tensor.ExtractSliceOp):
        return False
    value: SSAValue = init.op.source
    for loop in reversed(state.loops):
        if not isinstance(value, BlockArgument) or value.owner is not loop.body.block:
            return False
        if value.index == 0:
            return False
        value = loop.iter_args[value.index - 1]
    return _is_zero_tensor(value)


def _is_zero_tensor(value: SSAValue) -> bool:
    """A `linalg.fill` of a float 0 (or −0), or a zero splat constant."""
    if not isinstance(value, OpResult):
        return False
    owner = value.op
    if isinstance(owner, FillOp):
        scalar = owner.inputs[0]
        return (
            isinstance(scalar, OpResult)
            and isinstance(scalar.op, arith.ConstantOp)
            and isinstance(scalar.op.value, FloatAttr)
            and scalar.op.value.value.data == 0.0
        )
    if isinstance(owner, arith.ConstantOp) and isinstance(
        owner.value, DenseIntOrFPElementsAttr
    ):
        values = owner.value.get_values()
        return all(v == 0 for v in values)
    return False


def _empty(
    sizes: Sequence[Mixed], element_type: Attribute, new_ops: list[Operation]
) -> SSAValue:
    """A `tensor.empty` of `sizes` (static where they are ints)."""
    shape = [s if isinstance(s, int) else DYNAMIC_INDEX for s in sizes]
    dynamic = [as_index_value(s, new_ops) for s in sizes if not isinstance(s, int)]
    empty = tensor.EmptyOp(dynamic, TensorType(element_type, shape))
    new_ops.append(empty)
    return empty.tensor


def _element_type(value: SSAValue) -> Attribute:
    value_type = value.type
    assert isinstance(value_type, TensorType)
    return value_type.element_type


def _carry(state: FusionState, init: SSAValue) -> tuple[BlockArgument, int]:
    """Carry `init` through the loops: its block argument in the innermost
    body and its position among the innermost yield's operands."""
    carried, _ = state.carry(init)
    assert isinstance(carried, BlockArgument)
    terminator = state.body.last_op
    assert isinstance(terminator, scf.YieldOp)
    return carried, len(terminator.operands) - 1


def build_flash_form(
    state: FusionState, producer: SoftmaxLikeOp, plan: FlashPlan
) -> None:
    """Build the softmax tile on the running statistics and the rescale of
    the root's accumulated rows (see the module docstring)."""
    use = plan.use
    offsets, sizes = use.origin.offsets, use.origin.sizes
    # The running max and sum, carried as whole tensors (the row loops may
    # be tiled too), read and written at the row tile.
    max_carried, max_position = _carry(state, producer.outputs[1])
    sum_carried, sum_position = _carry(state, producer.outputs[2])
    element_type = _element_type(producer.results[0])
    tile_ops: list[Operation] = []
    input_slice = extract_slice(producer.inputs[0], offsets, sizes)
    tile_ops.append(input_slice)
    output = _empty(sizes, element_type, tile_ops)
    max_slice = extract_slice(max_carried, plan.row_offsets, plan.row_sizes)
    sum_slice = extract_slice(sum_carried, plan.row_offsets, plan.row_sizes)
    tile_ops += [max_slice, sum_slice]
    scale = _empty(plan.row_sizes, element_type, tile_ops)
    tile = rebuilt(
        producer,
        [input_slice.result, output, max_slice.result, sum_slice.result, scale],
    )
    tile_ops.append(tile)
    Rewriter.insert_op(tile_ops, InsertPoint.before(use.slice_op))
    replace_slice_by_part(use, tile.results[0], offsets, sizes)

    rescale_ops = _rescale(plan, tile.results[3])
    Rewriter.insert_op(rescale_ops, InsertPoint.before(plan.consumer))
    plan.consumer.operands[len(plan.consumer.operands) - 1] = rescale_ops[-1].results[0]

    terminator = state.body.last_op
    assert isinstance(terminator, scf.YieldOp)
    new_max = insert_slice(
        tile.results[1], max_carried, plan.row_offsets, plan.row_sizes
    )
    new_sum = insert_slice(
        tile.results[2], sum_carried, plan.row_offsets, plan.row_sizes
    )
    Rewriter.insert_op([new_max, new_sum], InsertPoint.before(terminator))
    terminator.operands[max_position] = new_max.result
    terminator.operands[sum_position] = new_sum.result

    # The final max and sum are exact: users outside read the loops' results.
    # (Every loop carries the same values: the outermost loop's results
    # are in the innermost yield's order.)
    outer_results = state.loops[0].results
    for index, position in ((1, max_position), (2, sum_position)):
        producer.results[index].replace_all_uses_with(outer_results[position])
    for init, reason in (
        (producer.outputs[1], MAX_INIT_REASON),
        (producer.outputs[2], SUM_INIT_REASON),
    ):
        if isinstance(init, OpResult) and init.op in state.cone:
            state.outside.append((init.op, reason))
    state.fused.extend([tile, *(op for op in rescale_ops if _is_computation(op))])
    state.enqueue(TiledOp(tile_ops, list(tile.results), [input_slice]))


def _is_computation(op: Operation) -> bool:
    return isinstance(
        op, DiagOp | FillOp | MatmulOp | LinalgBatchMatmulOp | BatchMatmulOp
    )


def _rescale(plan: FlashPlan, scale: SSAValue) -> list[Operation]:
    """diag(scale) · init into a fresh zero tensor: the rows accumulated by
    the earlier k tiles, brought to the new running max (and sum)."""
    new_ops: list[Operation] = []
    previous = plan.consumer.operands[len(plan.consumer.operands) - 1]
    element_type = _element_type(previous)
    rows = plan.row_sizes
    diag = DiagOp(scale, _empty([*rows, rows[-1]], element_type, new_ops))
    new_ops.append(diag)
    previous_type = previous.type
    assert isinstance(previous_type, TensorType)
    extents = [
        reify_dim(previous, d, new_ops) for d in range(previous_type.get_num_dims())
    ]
    assert isinstance(element_type, AnyFloat)
    zero = arith.ConstantOp(FloatAttr(0.0, element_type))
    new_ops.append(zero)
    fill = FillOp([zero.result], [_empty(extents, element_type, new_ops)])
    new_ops.append(fill)
    operands = [diag.results[0], previous]
    product: Operation
    if isinstance(plan.consumer, MatmulOp):
        product = MatmulOp(operands, [fill.results[0]])
    elif isinstance(plan.consumer, LinalgBatchMatmulOp):
        product = LinalgBatchMatmulOp(operands, [fill.results[0]])
    else:
        product = BatchMatmulOp(diag.results[0], previous, fill.results[0], "nn")
    new_ops.append(product)
    return new_ops


def fuse_flash_attention(
    state: FusionState, producer: Operation, uses: dict[int, list[SliceUse]]
) -> bool:
    """The `SPECIAL_FUSIONS` entry: the flash form when it applies."""
    plan = plan_flash_fusion(state, producer, uses)
    if plan is None:
        return False
    if isinstance(plan, str):
        # Said for the report; the general rule then refuses to cut the
        # softmax's dimension and says so too.
        state.outside.append((producer, f"no flash-attention form: {plan}"))
        return False
    assert isinstance(producer, SoftmaxLikeOp)
    build_flash_form(state, producer, plan)
    return True


if fuse_flash_attention not in SPECIAL_FUSIONS:
    SPECIAL_FUSIONS.append(fuse_flash_attention)
