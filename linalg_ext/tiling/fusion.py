"""Fusing the producer of a tensor slice into the loops that read the slice:
upstream's `fuseProducerOfTensor` (seed 001 §5), over the `TilingModel`
interface.

    %p = producer ... -> tensor<128x128xf32>
    scf.for ... {
      %s = tensor.extract_slice %p[%i, %j] [32, 32] [1, 1]
      ... %s ...
    }

becomes

    scf.for ... {
      %t = <the producer's tile at [%i, %j] [32, 32]>   (model.result_tile)
      ... %t ...
    }

The producer is found through chains of `extract_slice` (their offsets
composed, rank-reducing ones included) and, for the destination of a tiled
op, through the `iter_args` of the loops that carry it. The tile replaces
the slice; a `tensor.cast` is added where their types differ only in what
is static, and a rank-reducing `extract_slice` (of the whole tile, offsets
0) where the slice drops unit dimensions: that keeps the slice's exact type,
bufferizes to a subview and folds away when nothing is dropped (a
`collapse_shape` would need reassociation groups for the same result).

What is never done: fusing the producer of a destination into a loop that
tiles a reduction dimension. Such a loop reads the same destination tile on
every iteration and must see the partial sums the previous iterations left,
not the producer's value again (MLIR 22's `transform.structured.fuse`
re-zeroes the accumulator of a matmul tiled along k that way). The caller
says which loops are parallel (`parallel_loops`): `iter_args` are followed
only through those, so by default a destination's producer is never fused.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from xdsl.dialects import scf, tensor
from xdsl.dialects.builtin import DYNAMIC_INDEX, TensorType
from xdsl.ir import Block, BlockArgument, Operation, OpResult, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from linalg_ext.compat.slice_checks import rank_reduction_mask
from linalg_ext.tiling.interface import TiledOp, TilingRefused, tiling_model
from linalg_ext.tiling.loops import discard
from linalg_ext.transforms.dps import aliased_operand, is_pure_on_tensors
from linalg_ext.transforms.mixed_sizes import Mixed, sum_mixed
from linalg_ext.transforms.slices import slice_offsets, slice_sizes, slice_strides


@dataclass
class SliceOrigin:
    """Where a slice's elements come from: the tile (`offsets`, `sizes`,
    one per dimension) of the producer result `result`, of which the slice
    drops the unit dimensions `dropped`. `loops` are the `scf.for`s whose
    `iter_args` were followed to get there (innermost first; empty for an
    input's producer), `carried` the innermost `iter_arg` sliced and
    `init_position` the position of `result` among the outermost loop's
    inits."""

    result: OpResult
    offsets: list[Mixed]
    sizes: list[Mixed]
    dropped: set[int]
    loops: list[scf.ForOp]
    carried: BlockArgument | None
    init_position: int = 0


def slice_parameters(
    slice_op: tensor.ExtractSliceOp,
) -> tuple[list[Mixed], list[Mixed], set[int]] | None:
    """The offsets and sizes of a unit-stride slice and the dimensions of
    its source it drops (rank reduction); None for other strides."""
    strides = slice_strides(slice_op)
    if any(stride != 1 for stride in strides):
        return None
    offsets = slice_offsets(slice_op)
    static_sizes = slice_op.static_sizes.get_values()
    sizes = slice_sizes(slice_op)
    result_type = slice_op.result.type
    assert isinstance(result_type, TensorType)
    dropped = rank_reduction_mask(static_sizes, result_type.get_shape())
    if dropped is None:
        return None
    return offsets, sizes, dropped


def _compose(
    outer: tensor.ExtractSliceOp,
    offsets: list[Mixed],
    sizes: list[Mixed],
    dropped: set[int],
    new_ops: list[Operation],
) -> tuple[list[Mixed], list[Mixed], set[int]] | None:
    """A slice (offsets, sizes, dropped) of the result of `outer`, as the
    same elements sliced from `outer`'s source."""
    parameters = slice_parameters(outer)
    if parameters is None:
        return None
    outer_offsets, outer_sizes, outer_dropped = parameters
    kept = [d for d in range(len(outer_offsets)) if d not in outer_dropped]
    composed_offsets = list(outer_offsets)
    composed_sizes = list(outer_sizes)
    composed_dropped = set(outer_dropped)
    for position, dim in enumerate(kept):
        composed_offsets[dim] = sum_mixed(
            [outer_offsets[dim], offsets[position]], new_ops
        )
        composed_sizes[dim] = sizes[position]
        if position in dropped:
            composed_dropped.add(dim)
    return composed_offsets, composed_sizes, composed_dropped


def _carried_chain_is_plain(
    carried: BlockArgument, slice_op: Operation, inner_loop: scf.ForOp | None
) -> bool:
    """Whether the loop-carried value is only sliced by `slice_op`, written
    back by `insert_slice`s, asked its dims, or handed to `inner_loop` as an
    init: then the producer's value is read through `slice_op` alone, and
    replacing the loop's init by the producer's init changes nothing else."""
    readers = 0  # the slice, or the inner loop's init
    for use in carried.uses:
        user = use.operation
        if isinstance(user, tensor.InsertSliceOp) and use.index == 1:
            continue
        if isinstance(user, tensor.DimOp):
            continue
        if user is (slice_op if inner_loop is None else inner_loop):
            readers += 1
            continue
        return False
    return readers == 1


def find_slice_origin(
    slice_op: tensor.ExtractSliceOp,
    parallel_loops: Collection[scf.ForOp],
    new_ops: list[Operation],
) -> SliceOrigin | None:
    """Upstream's `getProducerOfTensor`: follow the slice's source back
    through `extract_slice`s (composing their offsets; index arithmetic
    appended to `new_ops`) and through the `iter_args` of the loops in
    `parallel_loops`, to the op result the elements come from. None when
    that is not an op result (a function argument), when a slice on the way
    has non-unit strides, or when an `iter_arg` is used other than as a
    plain destination."""
    parameters = slice_parameters(slice_op)
    if parameters is None:
        return None
    offsets, sizes, dropped = parameters
    value = slice_op.source
    loops: list[scf.ForOp] = []
    carried: BlockArgument | None = None
    init_position = 0
    while True:
        if isinstance(value, OpResult) and isinstance(value.op, tensor.ExtractSliceOp):
            if loops:
                return None  # a slice of a slice of a carried value: not a destination
            composed = _compose(value.op, offsets, sizes, dropped, new_ops)
            if composed is None:
                return None
            offsets, sizes, dropped = composed
            value = value.op.source
            continue
        loop = _carrying_loop(value)
        if loop is None:
            break
        assert isinstance(value, BlockArgument)
        if loop not in parallel_loops:
            return None
        if not loops and value is not slice_op.source:
            return None  # only the slice of the carried value itself
        if not _carried_chain_is_plain(value, slice_op, loops[-1] if loops else None):
            return None
        if not loops:
            carried = value
        loops.append(loop)
        init_position = value.index - 1
        value = loop.iter_args[init_position]
    if not isinstance(value, OpResult):
        return None
    return SliceOrigin(value, offsets, sizes, dropped, loops, carried, init_position)


def _carrying_loop(value: SSAValue) -> scf.ForOp | None:
    """The `scf.for` whose loop-carried block argument `value` is."""
    if not isinstance(value, BlockArgument) or value.index == 0:
        return None
    block = value.owner
    assert isinstance(block, Block)
    loop = block.parent_op()
    return loop if isinstance(loop, scf.ForOp) else None


def fuse_producer_of_tensor(
    slice_op: tensor.ExtractSliceOp,
    parallel_loops: Collection[scf.ForOp] = (),
) -> TiledOp | None:
    """Replace `slice_op` by the tile of its producer computed right before
    it (upstream's `fuseProducerOfTensor`). Returns what was built (`ops`
    in order, `results` one per producer result, `slices` the slices of the
    producer's operands the tile reads: the next candidates), or None, with
    the IR unchanged, when the slice's elements do not come from an op
    result, the producer has no model or refuses the tile, has side effects
    (a body that writes memory), or is in the slice's own block (nothing to
    fuse into).

    A slice of a loop-carried value (the destination of a tiled op) is
    followed through the loops' `iter_args` only when every such loop is in
    `parallel_loops`: loops whose iterations each read and write their own
    tile, and together cover the whole value (as `tile_using_for` builds
    them along parallel dimensions). Then the producer's tile writes into
    that slice of the carried value and the outermost loop's init becomes
    the producer's own init (upstream's destination chain). The producer
    itself stays (for any other user); the caller erases it when dead."""
    new_ops: list[Operation] = []
    origin = find_slice_origin(slice_op, parallel_loops, new_ops)
    fused = None if origin is None else _fuse(slice_op, origin, new_ops)
    if fused is None:
        discard(new_ops)
    return fused


def _fuse(
    slice_op: tensor.ExtractSliceOp, origin: SliceOrigin, new_ops: list[Operation]
) -> TiledOp | None:
    producer = origin.result.op
    model = tiling_model(producer)
    if model is None or model.refusal(producer) is not None:
        return None
    if producer.parent_block() is slice_op.parent_block():
        return None
    if not all(isinstance(r.type, TensorType) for r in producer.results):
        return None
    if not is_pure_on_tensors(producer):
        return None  # computing it again per tile would repeat its effects
    source = producer
    init_index: int | None = None
    if origin.carried is not None:
        # The tile writes into the carried slice: tile a copy of the
        # producer whose tied init is the carried value (never inserted).
        init_index = aliased_operand(origin.result)
        if init_index is None:
            return None
        source = producer.clone()
        source.operands[init_index] = origin.carried
    try:
        tiled = model.result_tile(
            source, origin.result.index, origin.offsets, origin.sizes, new_ops
        )
    except TilingRefused:
        return None
    finally:
        if source is not producer:
            discard([source])
    tile = tiled.results[origin.result.index]
    if origin.dropped:
        reduced = _drop_unit_dims(tile, origin.sizes, origin.dropped)
        new_ops.append(reduced)
        tile = reduced.result
    if tile.type != slice_op.result.type:
        cast = tensor.CastOp(tile, slice_op.result.type)
        new_ops.append(cast)
        tile = cast.dest
    Rewriter.insert_op(new_ops, InsertPoint.before(slice_op))
    Rewriter.replace_op(slice_op, [], [tile])
    if init_index is not None:
        # Every element of the destination is now first read through the
        # fused tile, which reads the producer's init there instead.
        outermost = origin.loops[-1]
        first_init = len(outermost.operands) - len(outermost.iter_args)
        outermost.operands[first_init + origin.init_position] = producer.operands[
            init_index
        ]
    return TiledOp(new_ops, list(tiled.results), list(tiled.slices))


def _drop_unit_dims(
    tile: SSAValue, sizes: Sequence[Mixed], dropped: set[int]
) -> tensor.ExtractSliceOp:
    """The whole of `tile` (of `sizes`) without its unit dimensions
    `dropped`: a rank-reducing `extract_slice` at offsets 0."""
    tile_type = tile.type
    assert isinstance(tile_type, TensorType)
    shape = tile_type.get_shape()
    whole: list[Mixed] = [
        extent if extent != DYNAMIC_INDEX else sizes[dim]
        for dim, extent in enumerate(shape)
    ]
    full = tensor.ExtractSliceOp.infer_result_type(tile_type, whole)
    reduced = [e for dim, e in enumerate(full.get_shape()) if dim not in dropped]
    return tensor.ExtractSliceOp(
        tile,
        [0] * len(shape),
        whole,
        [1] * len(shape),
        TensorType(tile_type.element_type, reduced),
    )
