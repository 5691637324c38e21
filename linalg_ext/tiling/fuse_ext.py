"""ByteIR's tile-and-fuse (`transform.structured.fuse_ext`, seed 002) and its
multi-root form (`transform.structured.fuse_operands`), on the tiling models.

Where upstream's tile-and-fuse (`tile_and_fuse` in `fusion_driver`) fuses a
producer once per slice that reads it, here every producer of the root's
*cone* (the ops the root depends on, up to the `stops`) is tiled once per
tile of the loop nest:

- the in-cone uses of each producer are counted first; a producer is fused
  when the last of its uses has been reached from tiled consumers, and the
  slices its consumers read are merged into one bounding box, of which each
  consumer then reads its part. On a chain of residual blocks (each value
  read by the next block twice) upstream makes 2^N copies of the first op;
  this makes one per op;
- a fused producer whose value is also used outside the cone is yielded from
  the loops (an `iter_arg` per value) and the outside users read the loops'
  result, provided its tiles cover it whole; otherwise it also stays, whole,
  outside;
- a producer of the root's destination (a fill) is fused only when every
  loop tiles a parallel dimension of the root (a loop along a reduction must
  accumulate onto what earlier iterations left);
- `tensor.dim`s of intermediate values are first rewritten to the first
  equivalent (tensor, dimension) (`simplify_tensor_dims`), so that a loop
  bound does not depend on a value the loops compute.

A softmax feeding the left operand of a matmul tiled along its reduction
dimension is tiled along its own dimension, flash-attention style, by a
fusion of `SPECIAL_FUSIONS` (`linalg_ext.dialect.flash_fusion`, which builds
`linalg_ext` ops and so lives with the dialect, registered when it loads).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field

from xdsl.dialects import scf, tensor
from xdsl.dialects.builtin import DYNAMIC_INDEX, TensorType
from xdsl.ir import Block, Operation, OpResult, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.transforms.canonicalization_patterns.utils import const_evaluate_operand

from linalg_ext.tiling.dims import simplify_tensor_dims
from linalg_ext.tiling.fusion import (
    SliceOrigin,
    find_slice_origin,
    fuse_producer_of_tensor,
)
from linalg_ext.tiling.fusion_driver import erase_dead_ops, parallel_tile_loops
from linalg_ext.tiling.interface import TiledOp, TilingRefused, tiling_model
from linalg_ext.tiling.loops import (
    build_tile_loop_nest,
    carry_through_loops,
    check_tile_request,
    discard,
    tile_using_for,
)
from linalg_ext.transforms.dps import is_pure_on_tensors
from linalg_ext.transforms.mixed_sizes import (
    Mixed,
    apply_affine_map,
    max_mixed,
    min_mixed,
    sum_mixed,
)
from linalg_ext.transforms.ordering import (
    ancestor_in,
    isolated_scope,
    sort_topologically,
)
from linalg_ext.transforms.shape_reification import reify_dim
from linalg_ext.transforms.slices import extract_slice, insert_slice


@dataclass
class FuseExtResult:
    """What `fuse_ext` / `fuse_operands` built.

    `tiled`: the root's tile ops in the innermost loop (for `fuse_operands`,
    the tiles of the producers of the target's operands). `loops`: the
    `scf.for` nest, outermost first, one per tiled loop. `fused`: the tile
    ops of the fused producers, in fusion order. `outside`: ops of the cone
    that stayed outside the loops, with the reason."""

    tiled: list[Operation]
    loops: list[scf.ForOp]
    fused: list[Operation] = field(default_factory=list[Operation])
    outside: list[tuple[Operation, str]] = field(
        default_factory=list[tuple[Operation, str]]
    )


@dataclass
class SliceUse:
    """One in-cone use of a producer's result, reached from a tiled
    consumer: the slice the consumer's tile reads and where it lies in the
    producer's result (`origin`)."""

    slice_op: tensor.ExtractSliceOp
    origin: SliceOrigin


SpecialFusion = Callable[["FusionState", Operation, dict[int, list[SliceUse]]], bool]
"""A fusion for a producer the general rule cannot tile (a softmax along its
dimension): given the state and the producer's uses per result, builds the
tiles, replaces every use's slice and returns True; or returns False, having
changed nothing."""

SPECIAL_FUSIONS: list[SpecialFusion] = []
"""Tried in order before the general rule for every producer."""


class FusionState:
    """The loop nest being fused into, for the fusion steps and the
    `SPECIAL_FUSIONS`."""

    def __init__(
        self,
        loops: list[scf.ForOp],
        loop_dims: list[int],
        parallel: list[bool],
        root_offsets: list[Mixed],
        root_sizes: list[Mixed],
        cone: set[Operation],
        in_cone_uses: dict[Operation, int],
        keep_intermediates: bool,
    ) -> None:
        self.loops = loops
        self.loop_dims = loop_dims
        self.parallel = parallel
        self.root_offsets = root_offsets
        self.root_sizes = root_sizes
        self.cone = cone
        self.in_cone_uses = in_cone_uses
        self.keep_intermediates = keep_intermediates
        self.uses: dict[Operation, dict[int, list[SliceUse]]] = {}
        self.reached: dict[Operation, int] = {}
        self.worklist: list[tensor.ExtractSliceOp] = []
        self.fused: list[Operation] = []
        self.fused_originals: list[Operation] = []
        self.outside: list[tuple[Operation, str]] = []

    @property
    def body(self) -> Block:
        """The innermost loop's body."""
        return self.loops[-1].body.block

    def parallel_loops(self) -> list[scf.ForOp]:
        return [loop for loop, p in zip(self.loops, self.parallel, strict=True) if p]

    def carry(self, init: SSAValue) -> tuple[SSAValue, OpResult]:
        """Carry a new value through the loops from `init`: returns its
        block argument in the innermost body and the outermost loop's result
        (the innermost yield passes it on unchanged until `set_yielded`)."""
        self.loops = carry_through_loops(self.loops, init)
        return self.body.args[-1], self.loops[0].results[-1]

    def set_yielded(self, value: SSAValue) -> None:
        """Make the innermost loop yield `value` for the last carried value."""
        terminator = self.body.last_op
        assert isinstance(terminator, scf.YieldOp)
        terminator.operands[len(terminator.operands) - 1] = value

    def enqueue(self, tiled: TiledOp) -> None:
        """Look at the operand slices of a new tile."""
        self.worklist.extend(
            s for s in tiled.slices if isinstance(s, tensor.ExtractSliceOp)
        )


def replace_slice_by_part(
    use: SliceUse,
    tile: SSAValue,
    tile_offsets: Sequence[Mixed],
    tile_sizes: Sequence[Mixed],
) -> None:
    """Replace the slice of `use` by the same elements taken from `tile`, the
    tile (`tile_offsets`, `tile_sizes`) of the producer's result: the tile
    itself when it is exactly the slice, else a slice of it (rank-reducing
    like the original, cast to the original's type)."""
    slice_op = use.slice_op
    origin = use.origin
    tile_type = tile.type
    assert isinstance(tile_type, TensorType)
    new_ops: list[Operation] = []
    same = (
        all(_same(a, b) for a, b in zip(tile_offsets, origin.offsets, strict=True))
        and all(_same(a, b) for a, b in zip(tile_sizes, origin.sizes, strict=True))
        and not origin.dropped
    )
    value: SSAValue = tile
    if not same:
        relative = [
            _difference(offset, start, new_ops)
            for offset, start in zip(origin.offsets, tile_offsets, strict=True)
        ]
        part = extract_slice(tile, relative, origin.sizes)
        if origin.dropped:
            shape = part.result.type.get_shape()
            reduced = TensorType(
                tile_type.element_type,
                [e for d, e in enumerate(shape) if d not in origin.dropped],
            )
            part = tensor.ExtractSliceOp(
                tile, relative, origin.sizes, [1] * len(relative), reduced
            )
        new_ops.append(part)
        value = part.result
    if value.type != slice_op.result.type:
        cast = tensor.CastOp(value, slice_op.result.type)
        new_ops.append(cast)
        value = cast.dest
    Rewriter.insert_op(new_ops, InsertPoint.before(slice_op))
    Rewriter.replace_op(slice_op, [], [value])


def _same(a: Mixed, b: Mixed) -> bool:
    return a is b if isinstance(a, SSAValue) else a == b


def _difference(a: Mixed, b: Mixed, new_ops: list[Operation]) -> Mixed:
    if _same(a, b):
        return 0
    if isinstance(a, int) and isinstance(b, int):
        return a - b
    d0, d1 = AffineExpr.dimension(0), AffineExpr.dimension(1)
    return apply_affine_map(AffineMap(2, 0, (d0 - d1,)), [a, b], new_ops)[0]


def _bounding_box(
    boxes: Sequence[tuple[Sequence[Mixed], Sequence[Mixed]]], new_ops: list[Operation]
) -> tuple[list[Mixed], list[Mixed]]:
    """The smallest box containing all `boxes` (offsets, sizes)."""
    offsets = list(boxes[0][0])
    sizes = list(boxes[0][1])
    for dim in range(len(offsets)):
        column = [(box[0][dim], box[1][dim]) for box in boxes]
        if all(_same(o, offsets[dim]) and _same(s, sizes[dim]) for o, s in column):
            continue
        low = min_mixed([o for o, _ in column], new_ops)
        high = max_mixed([sum_mixed([o, s], new_ops) for o, s in column], new_ops)
        offsets[dim] = low
        sizes[dim] = _difference(high, low, new_ops)
    return offsets, sizes


def _eligible(op: Operation, block: Block) -> bool:
    """Whether `op` can join a cone in `block`: tileable on tensors, with no
    effect that computing it per tile would repeat."""
    model = tiling_model(op)
    return (
        model is not None
        and op.parent_block() is block
        and bool(op.results)
        and all(isinstance(r.type, TensorType) for r in op.results)
        and model.refusal(op) is None
        and is_pure_on_tensors(op)
    )


def _upstream_of(starts: Sequence[Operation], block: Block) -> set[Operation]:
    """The ops of `block` that `starts` depend on, transitively (any op)."""
    seen: set[Operation] = set()
    pending = list(starts)
    while pending:
        op = pending.pop()
        for nested in op.walk():
            for operand in nested.operands:
                if not isinstance(operand, OpResult):
                    continue
                definer = ancestor_in(block, operand.op)
                if (
                    definer is not None
                    and definer not in seen
                    and definer not in starts
                ):
                    seen.add(definer)
                    pending.append(definer)
    return seen


def compute_cone(
    consumers: Sequence[Operation],
    values: Sequence[SSAValue],
    stops: Collection[Operation],
    block: Block,
) -> tuple[set[Operation], dict[Operation, int]]:
    """The cone of `consumers` (the roots, or nothing for `fuse_operands`)
    and of `values` (read whole by the loops, for `fuse_operands`): the ops
    of `block` they depend on through tileable ops, up to the `stops`; and
    for each, how many operands of the cone's ops (and of `consumers`, plus
    one per value of `values` it defines) read its results.

    A producer with a user outside the cone that the roots depend on cannot
    move into the loops (that user comes before them): it is left out, and
    so, in turn, are the producers only it led to."""
    cone: set[Operation] = set()
    pending: list[SSAValue] = [
        *values,
        *(operand for op in consumers for operand in op.operands),
    ]
    while pending:
        value = pending.pop()
        if not isinstance(value, OpResult):
            continue
        op = value.op
        if op in cone or op in stops or op in consumers or not _eligible(op, block):
            continue
        cone.add(op)
        pending.extend(op.operands)
    feeding = _upstream_of(list(consumers), block) if consumers else set[Operation]()
    changed = True
    while changed:
        changed = False
        for op in list(cone):
            if any(
                _feeds_outside(use.operation, block, cone, consumers, feeding)
                for result in op.results
                for use in result.uses
            ):
                cone.discard(op)
                changed = True
        if changed:  # what is left must still be reachable from the roots
            cone = _reachable(consumers, values, cone)
    counts: dict[Operation, int] = dict.fromkeys(cone, 0)
    for op in [*consumers, *cone]:
        for operand in op.operands:
            if isinstance(operand, OpResult) and operand.op in cone:
                counts[operand.op] += 1
    for value in dict.fromkeys(values):
        if isinstance(value, OpResult) and value.op in cone:
            counts[value.op] += 1
    return cone, counts


def _feeds_outside(
    user: Operation,
    block: Block,
    cone: set[Operation],
    consumers: Sequence[Operation],
    feeding: set[Operation],
) -> bool:
    if isinstance(user, tensor.DimOp):
        return False
    anchor = ancestor_in(block, user)
    if anchor is None:
        return True
    return anchor not in cone and anchor not in consumers and anchor in feeding


def _reachable(
    consumers: Sequence[Operation], values: Sequence[SSAValue], cone: set[Operation]
) -> set[Operation]:
    kept: set[Operation] = set()
    pending: list[SSAValue] = [
        *values,
        *(operand for op in consumers for operand in op.operands),
    ]
    while pending:
        value = pending.pop()
        if isinstance(value, OpResult) and value.op in cone and value.op not in kept:
            kept.add(value.op)
            pending.extend(value.op.operands)
    return kept


def _consumer_allows_fusion(slice_op: tensor.ExtractSliceOp) -> bool:
    """Whether the tile reading `slice_op` lets its producers fuse (a
    scatter's model says none may)."""
    for use in slice_op.result.uses:
        model = tiling_model(use.operation)
        if model is not None and not model.fuses_producers(use.operation):
            return False
    return True


def _process_slice(state: FusionState, slice_op: tensor.ExtractSliceOp) -> None:
    if slice_op.parent is None or not _consumer_allows_fusion(slice_op):
        return
    new_ops: list[Operation] = []
    origin = find_slice_origin(slice_op, state.parallel_loops(), new_ops)
    if origin is None or origin.result.op not in state.cone:
        discard(new_ops)
        if origin is None:
            _note_reduction_destination(state, slice_op)
        return
    producer = origin.result.op
    if origin.loops:
        # The root's destination, read through the loops' iter_args (every
        # loop on the way tiles a parallel dimension): fused in place of
        # its slice, writing into the carried value, when it has no other
        # in-cone use.
        discard(new_ops)
        if state.in_cone_uses[producer] == 1:
            fused = fuse_producer_of_tensor(slice_op, state.parallel_loops())
            if fused is not None:
                state.fused.extend(_computing_ops(fused))
                state.fused_originals.append(producer)
                state.enqueue(fused)
        return
    Rewriter.insert_op(new_ops, InsertPoint.before(slice_op))
    uses = state.uses.setdefault(producer, {})
    uses.setdefault(origin.result.index, []).append(SliceUse(slice_op, origin))
    state.reached[producer] = state.reached.get(producer, 0) + 1
    if state.reached[producer] == state.in_cone_uses[producer]:
        _fuse_producer(state, producer, state.uses.pop(producer))


def _note_reduction_destination(
    state: FusionState, slice_op: tensor.ExtractSliceOp
) -> None:
    """Record why the producer of a destination carried along a reduction
    loop stays before the loops."""
    new_ops: list[Operation] = []
    origin = find_slice_origin(slice_op, state.loops, new_ops)
    discard(new_ops)
    if origin is not None and origin.loops and origin.result.op in state.cone:
        state.outside.append(
            (
                origin.result.op,
                "it initialises a destination carried along a reduction loop, "
                "whose iterations accumulate onto it: it stays before the loops",
            )
        )


def _computing_ops(tiled: TiledOp) -> list[Operation]:
    found: list[Operation] = []
    for result in tiled.results:
        if isinstance(result, OpResult) and result.op not in found:
            found.append(result.op)
    return found


def _fuse_producer(
    state: FusionState, producer: Operation, uses: dict[int, list[SliceUse]]
) -> None:
    for special in SPECIAL_FUSIONS:
        if special(state, producer, uses):
            state.fused_originals.append(producer)
            return
    model = tiling_model(producer)
    assert model is not None
    new_ops: list[Operation] = []
    try:
        result_boxes = {
            index: _bounding_box(
                [(u.origin.offsets, u.origin.sizes) for u in result_uses], new_ops
            )
            for index, result_uses in uses.items()
        }
        iteration_boxes = [
            model.iteration_tile_of_result(producer, index, offsets, sizes, new_ops)
            for index, (offsets, sizes) in result_boxes.items()
        ]
        offsets, sizes = (
            iteration_boxes[0]
            if len(iteration_boxes) == 1
            else _bounding_box(iteration_boxes, new_ops)
        )
        tiled = model.tile(producer, offsets, sizes, new_ops)
        positions = [
            model.result_tile_position(producer, index, offsets, sizes, new_ops)
            for index in range(len(producer.results))
        ]
    except TilingRefused as refusal:
        discard(new_ops)
        state.outside.append((producer, str(refusal)))
        return
    body = state.body
    first = min(
        (u.slice_op for result_uses in uses.values() for u in result_uses),
        key=body.get_operation_index,
    )
    Rewriter.insert_op(new_ops, InsertPoint.before(first))
    for index, result_uses in uses.items():
        tile_offsets, tile_sizes = positions[index]
        for use in result_uses:
            replace_slice_by_part(use, tiled.results[index], tile_offsets, tile_sizes)
    state.fused.extend(_computing_ops(tiled))
    state.fused_originals.append(producer)
    state.enqueue(tiled)
    for index, result in enumerate(producer.results):
        _yield_if_needed(state, result, tiled.results[index], positions[index])


def _outside_uses(state: FusionState, result: OpResult) -> list[tuple[Operation, int]]:
    outer = state.loops[0]
    found: list[tuple[Operation, int]] = []
    for use in result.uses:
        user = use.operation
        if isinstance(user, tensor.DimOp) or user in state.cone:
            continue
        if outer.is_ancestor(user):
            continue
        found.append((user, use.index))
    return found


def _yield_if_needed(
    state: FusionState,
    result: OpResult,
    tile: SSAValue,
    position: tuple[list[Mixed], list[Mixed]],
) -> None:
    """Yield the tiles of an intermediate value from the loops when users
    outside the cone read it (or `keep_intermediates`), so that they read
    the loops' result rather than an untiled copy."""
    outside = _outside_uses(state, result)
    if not outside and not state.keep_intermediates:
        return
    offsets, sizes = position
    if not _covers(state, result, offsets, sizes):
        if outside:
            state.outside.append(
                (
                    result.op,
                    f"its tiles do not cover result #{result.index}: it stays "
                    "whole for the users outside the loops",
                )
            )
        return
    new_ops: list[Operation] = []
    carrier = _empty_like(result, new_ops)
    Rewriter.insert_op(new_ops, InsertPoint.before(state.loops[0]))
    carried, loop_result = state.carry(carrier)
    written = insert_slice(tile, carried, offsets, sizes)
    terminator = state.body.last_op
    assert terminator is not None
    Rewriter.insert_op(written, InsertPoint.before(terminator))
    state.set_yielded(written.result)
    for user, index in outside:
        user.operands[index] = loop_result


def _empty_like(value: SSAValue, new_ops: list[Operation]) -> SSAValue:
    value_type = value.type
    assert isinstance(value_type, TensorType)
    dynamic: list[SSAValue] = []
    for dim, extent in enumerate(value_type.get_shape()):
        if extent == DYNAMIC_INDEX:
            size = reify_dim(value, dim, new_ops)
            assert isinstance(size, SSAValue)
            dynamic.append(size)
    empty = tensor.EmptyOp(dynamic, value_type)
    new_ops.append(empty)
    return empty.tensor


def _extent_key(value: Mixed) -> object:
    """A comparable stand-in for an extent: the int when static (constants
    included), else the (tensor, dim) it is the size of, seen through
    `reify_dim`, else the value itself."""
    if isinstance(value, int):
        return value
    constant = const_evaluate_operand(value)
    if constant is not None:
        return constant
    owner = value.owner
    if isinstance(owner, tensor.DimOp):
        dim = const_evaluate_operand(owner.index)
        if dim is not None:
            return _dim_key(owner.source, dim)
    return value


def _dim_key(value: SSAValue, dim: int) -> object:
    new_ops: list[Operation] = []
    extent = reify_dim(value, dim, new_ops)
    key: object = extent
    if isinstance(extent, SSAValue):
        owner = extent.owner
        if isinstance(owner, tensor.DimOp) and owner in new_ops:
            key = (owner.source, dim)
        else:
            key = _extent_key(extent)
    discard(new_ops)
    return key


def _covers(
    state: FusionState,
    result: OpResult,
    offsets: Sequence[Mixed],
    sizes: Sequence[Mixed],
) -> bool:
    """Whether the tiles (offsets, sizes) of `result`, over all iterations
    of the loops, cover it whole: along each dimension the tile is either
    the whole extent or exactly one loop's tile (its induction variable and
    tile size, over a loop from 0 to that extent), each loop at most once."""
    used: set[int] = set()
    for dim, (offset, size) in enumerate(zip(offsets, sizes, strict=True)):
        extent = _dim_key(result, dim)
        if _extent_key(offset) == 0 and _extent_key(size) == extent:
            continue
        position = next(
            (
                k
                for k, loop in enumerate(state.loops)
                if offset is loop.body.block.args[0]
            ),
            None,
        )
        if position is None or position in used:
            return False
        loop = state.loops[position]
        root_dim = state.loop_dims[position]
        if not _same(size, state.root_sizes[root_dim]):
            return False
        if _extent_key(loop.lb) != 0 or _extent_key(loop.ub) != extent:
            return False
        used.add(position)
    return True


def _run(state: FusionState) -> None:
    while state.worklist:
        _process_slice(state, state.worklist.pop(0))


def _finish(state: FusionState, block: Block, scope: Operation) -> None:
    """Drop what the loops replaced, simplify the dims left on intermediate
    values, and put every block in dependence order (a fused tile was built
    before slices whose offsets it uses; an outside user of a yielded value
    may stand before the loops)."""
    simplify_tensor_dims(scope)
    erase_dead_ops([*state.fused_originals, *state.cone])
    for loop in state.loops:
        sort_topologically(loop.body.block)
    sort_topologically(block)
    fused = set(state.fused_originals)
    for op in state.cone:
        if (
            op.parent is not None
            and op not in fused
            and all(op is not o for o, _ in state.outside)
        ):
            state.outside.append(
                (op, "a consumer of it in the cone stayed outside the loops")
            )


def fuse_ext(
    root: Operation,
    tile_sizes: Sequence[Mixed],
    interchange: Sequence[int] = (),
    stops: Collection[Operation] = (),
    keep_intermediates: bool = False,
) -> FuseExtResult:
    """Tile `root` by `tile_sizes` (in `interchange` order) and fuse its cone
    into the loops, ByteIR's way (see the module docstring). A root among
    the `stops` is left as it is. Raises `TilingRefused`, with the IR
    unchanged, when the root cannot be tiled so."""
    if root in stops:
        return FuseExtResult([root], [])
    model = tiling_model(root)
    if model is None:
        raise TilingRefused(f"{root.name} has no tiling model", root)
    parallel = parallel_tile_loops(root, tile_sizes, interchange)
    _, loop_dims = check_tile_request(
        root, model, tile_sizes, interchange, len(model.loop_types(root))
    )
    block = root.parent_block()
    assert block is not None
    scope = isolated_scope(root)
    simplify_tensor_dims(scope)
    cone, counts = compute_cone([root], [], stops, block)
    tiling = tile_using_for(root, tile_sizes, interchange)
    if not tiling.loops:
        return FuseExtResult(_computing_ops(tiling.tiled), [])
    state = FusionState(
        tiling.loops,
        list(loop_dims),
        parallel,
        tiling.offsets,
        tiling.sizes,
        cone,
        counts,
        keep_intermediates,
    )
    state.enqueue(tiling.tiled)
    _run(state)
    _finish(state, block, scope)
    return FuseExtResult(
        _computing_ops(tiling.tiled), state.loops, state.fused, state.outside
    )


def fuse_operands(
    target: Operation,
    tile_nums: Sequence[int],
    interchange: Sequence[int] = (),
    expect_whole_graph_fusion: bool = False,
) -> FuseExtResult:
    """Tile every tensor operand of `target` (usually a `func.return`)
    together, `tile_nums[d]` tiles along dimension d (1 or missing: not
    tiled), in `interchange` order, and fuse their cones into the one loop
    nest (ByteIR's `fuse_operands`, the multi-root `fuse_ext`). The operands
    must have one shape. With `expect_whole_graph_fusion`, an op of the cones
    left outside the loops is an error. Raises `TilingRefused` with the IR
    unchanged (after a fusion left something outside, by putting back a copy
    of the function taken before: its ops are then new objects)."""
    values = list(
        dict.fromkeys(v for v in target.operands if isinstance(v.type, TensorType))
    )
    if not values:
        raise TilingRefused(f"{target.name} has no tensor operand to tile", target)
    shape_type = values[0].type
    assert isinstance(shape_type, TensorType)
    rank = shape_type.get_num_dims()
    for value in values[1:]:
        assert isinstance(value.type, TensorType)
        if value.type.get_shape() != shape_type.get_shape():
            raise TilingRefused(
                f"the operands of {target.name} must have one shape to be tiled "
                f"together ({shape_type} and {value.type})",
                target,
            )
    if len(tile_nums) > rank or any(n < 1 for n in tile_nums):
        raise TilingRefused(
            f"tile_nums {list(tile_nums)} do not fit operands of rank {rank} "
            "(one positive number per dimension)",
            target,
        )
    order = list(interchange) if interchange else list(range(rank))
    if sorted(order) != list(range(len(order))) or len(order) > rank:
        raise TilingRefused(
            f"tile_interchange {list(interchange)} is not a permutation of the "
            f"{rank} dimensions",
            target,
        )
    order += [d for d in range(rank) if d not in order]
    nums = [*tile_nums, *([1] * (rank - len(tile_nums)))]
    block = target.parent_block()
    assert block is not None
    scope = isolated_scope(target)
    snapshot = scope.clone()
    simplify_tensor_dims(scope)
    new_ops: list[Operation] = []
    domain = [reify_dim(values[0], d, new_ops) for d in range(rank)]
    sizes: list[Mixed] = [
        0 if nums[d] == 1 else _ceil_div(domain[d], nums[d], new_ops)
        for d in range(rank)
    ]
    tiled_dims = [d for d in order if nums[d] != 1]
    if not tiled_dims:
        discard(new_ops)
        return FuseExtResult([target], [])
    cone, counts = compute_cone([], values, (), block)
    carriers = [_empty_like(v, new_ops) for v in values]
    nest = build_tile_loop_nest(domain, sizes, tiled_dims, carriers, new_ops)
    seeds: list[tensor.ExtractSliceOp] = []
    yielded: list[SSAValue] = []
    for value, carried in zip(values, nest.carried, strict=True):
        seed = extract_slice(value, nest.offsets, nest.sizes)
        written = insert_slice(seed.result, carried, nest.offsets, nest.sizes)
        nest.body.add_ops([seed, written])
        seeds.append(seed)
        yielded.append(written.result)
    results = nest.close(yielded)
    Rewriter.insert_op(new_ops, InsertPoint.before(target))
    for index, operand in enumerate(target.operands):
        if operand in values:
            target.operands[index] = results[values.index(operand)]
    state = FusionState(
        nest.loops,
        tiled_dims,
        [True] * len(tiled_dims),
        nest.offsets,
        nest.sizes,
        cone,
        counts,
        False,
    )
    state.worklist.extend(seeds)
    _run(state)
    _finish(state, block, scope)
    if expect_whole_graph_fusion:
        left = [op for op in cone if op.parent is not None]
        if left:
            first = min(left, key=block.get_operation_index)
            names = ", ".join(sorted({op.name for op in left}))
            error = TilingRefused(
                f"expect_whole_graph_fusion: {len(left)} op(s) stayed outside the "
                f"loops ({names})",
                first,
            )
            Rewriter.replace_op(scope, snapshot)
            raise error
    return FuseExtResult([target], state.loops, state.fused, state.outside)


def _ceil_div(extent: Mixed, parts: int, new_ops: list[Operation]) -> Mixed:
    if isinstance(extent, int):
        return -(-extent // parts)
    d0 = AffineExpr.dimension(0)
    return apply_affine_map(AffineMap(1, 0, (d0.ceil_div(parts),)), [extent], new_ops)[
        0
    ]
