"""Tiling an op with a nest of `scf.for` loops: upstream's `scf::tileUsingSCF`
with `scf.for`, generic over the `TilingModel` interface.

`tile_using_for(op, tile_sizes, interchange)` builds, before `op`, one
`scf.for` per loop of the iteration domain with a nonzero tile size (in the
`interchange` order), threads the op's destinations through the loops'
`iter_args`, computes one tile in the innermost body (`model.tile`), writes
it into the carried destination (`tensor.insert_slice` at
`model.result_tile_position`), and replaces the op by the outermost loop's
results. A loop whose extent its tile size does not divide (or may not: a
dynamic extent or size) clamps its last tile with `affine.min`.

The pieces are public for the other drivers (tile-and-fuse re-uses them):
`check_tile_request` validates sizes and interchange against a model,
`build_tile_loop_nest` builds the loops around an empty innermost body,
`TileLoopNest.close` adds the `scf.yield`s, `destinations_of` gives the
tensors an op's results are written into (creating `tensor.empty`s for an op
that is not destination-style) and `discard` forgets ops built for a
refused attempt.

Tiling a reduction loop carries the partial result through `iter_args`: the
tiled op's init is the slice of the carried value, so each tile accumulates
onto what the previous tiles of the same result tile left. The init is NOT
re-filled inside the loops: whatever fills it (a `linalg.fill` of the
destination) stays before the nest and runs once, which is what makes this
exact (for floats too: the tiles run in the order of the untiled loop).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from xdsl.dialects import arith, scf, tensor
from xdsl.dialects.builtin import DYNAMIC_INDEX, IndexType, IntegerAttr, TensorType
from xdsl.ir import Block, Operation, OpResult, Region, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.rewriter import InsertPoint, Rewriter

from linalg_ext.tiling.interface import (
    TiledOp,
    TilingModel,
    TilingRefused,
    tiling_model,
)
from linalg_ext.transforms.dps import aliased_operand
from linalg_ext.transforms.mixed_sizes import Mixed, affine_min, as_index_value
from linalg_ext.transforms.slices import insert_slice


@dataclass
class TilingLoops:
    """What `tile_using_for` built.

    `tiled`: the tile computed in the innermost loop (its `ops` are in the
    innermost body). `loops`: the `scf.for`s, outermost first, one per tiled
    loop of the iteration domain, in interchange order (empty when nothing
    was tiled). `replacements`: one value per result of the original op (the
    outermost loop's results, or the op's own results when nothing was
    tiled). `offsets` and `sizes`: the iteration-space tile of the innermost
    body (as `TileLoopNest` has them; empty when nothing was tiled)."""

    tiled: TiledOp
    loops: list[scf.ForOp]
    replacements: list[SSAValue]
    offsets: list[Mixed] = field(default_factory=list[Mixed])
    sizes: list[Mixed] = field(default_factory=list[Mixed])


@dataclass
class TileLoopNest:
    """A nest of `scf.for` loops over the tiles of an iteration domain, built
    by `build_tile_loop_nest`; the innermost body has no terminator until
    `close`.

    `offsets` and `sizes` (one per loop of the iteration domain) describe the
    tile of the current iteration: the induction variable and the (clamped)
    tile size of a tiled loop, 0 and the whole extent of the others; the
    `affine.min`s that clamp partial tiles are already in the innermost
    body. `carried` are the innermost loop's `iter_args` (the destinations
    as the previous iterations left them)."""

    loops: list[scf.ForOp]
    offsets: list[Mixed]
    sizes: list[Mixed]
    carried: list[SSAValue]

    @property
    def body(self) -> Block:
        """The innermost loop's body, where the tile's ops go."""
        return self.loops[-1].body.block

    def close(self, yielded: Sequence[SSAValue]) -> list[SSAValue]:
        """End each body with an `scf.yield`: the innermost yields `yielded`
        (one per carried value), each outer loop its inner loop's results.
        Returns the outermost loop's results."""
        values: list[SSAValue] = list(yielded)
        for loop in reversed(self.loops):
            loop.body.block.add_op(scf.YieldOp(*values))
            values = list(loop.results)
        return values


def check_tile_request(
    op: Operation,
    model: TilingModel,
    tile_sizes: Sequence[Mixed],
    interchange: Sequence[int],
    loop_count: int,
) -> tuple[list[Mixed], list[int]]:
    """Validate a tiling request as `tile_using_for` does and normalise it:
    returns the tile sizes padded with zeros to `loop_count` and the loops to
    tile (nonzero size) in nesting order, outermost first.

    `interchange` orders the loops of the iteration domain (upstream's rule:
    a shorter one is completed by the missing trailing loops in order; zero
    sized loops are then skipped). Raises `TilingRefused` (naming the op) for
    a model refusal, a negative size, more sizes than loops, a nonzero size
    on one of the model's `whole_dims`, or an interchange that is not a
    permutation of the loops."""
    reason = model.refusal(op)
    if reason is not None:
        raise TilingRefused(reason, op)
    if len(tile_sizes) > loop_count:
        raise TilingRefused(
            f"{op.name} has {loop_count} loops but {len(tile_sizes)} tile sizes "
            "were given",
            op,
        )
    sizes = [_constant_or_value(size) for size in tile_sizes]
    sizes += [0] * (loop_count - len(sizes))
    for dim, size in enumerate(sizes):
        if isinstance(size, int) and size < 0:
            raise TilingRefused(
                f"{op.name}: tile size {size} of loop {dim} is negative", op
            )
    whole = model.whole_dims(op)
    for dim, size in enumerate(sizes):
        if dim in whole and not (isinstance(size, int) and size == 0):
            raise TilingRefused(
                f"{op.name} cannot be tiled along loop {dim}: it must stay whole",
                op,
            )
    order = [*interchange, *range(len(interchange), loop_count)]
    if sorted(order) != list(range(loop_count)):
        raise TilingRefused(
            f"{op.name}: interchange {list(interchange)} is not a permutation of "
            f"its {loop_count} loops",
            op,
        )
    tiled = [d for d in order if not (isinstance(sizes[d], int) and sizes[d] == 0)]
    return sizes, tiled


def _constant_or_value(size: Mixed) -> Mixed:
    """A size made by an `arith.constant` is that int (as upstream reads an
    OpFoldResult): a constant 0 leaves its loop untiled, a constant that
    divides the extent needs no `affine.min`."""
    if isinstance(size, OpResult) and isinstance(size.op, arith.ConstantOp):
        value = size.op.value
        if isinstance(value, IntegerAttr):
            return value.value.data
    return size


def build_tile_loop_nest(
    domain: Sequence[Mixed],
    tile_sizes: Sequence[Mixed],
    tiled_dims: Sequence[int],
    destinations: Sequence[SSAValue],
    new_ops: list[Operation],
) -> TileLoopNest:
    """Loops over the tiles of the iteration domain `domain` (one extent per
    loop, offsets 0): one `scf.for %iv = 0 to extent step size` per loop in
    `tiled_dims` (nonempty; outermost first), carrying `destinations` as
    `iter_args` from the outermost loop to the innermost. The constants of
    the bounds and steps and the outermost loop are appended to `new_ops`
    (the caller inserts them where the extents and sizes are available); the
    inner loops are inside it. The tile size of a tiled loop is its step when
    the step divides the static extent (or covers it: then the extent),
    otherwise `affine.min(extent - iv, size)`, built at the start of the
    innermost body (as upstream and xDSL do). Close the nest with
    `TileLoopNest.close` after filling `body`."""
    assert tiled_dims, "a loop nest needs a tiled loop"
    constants: dict[int, SSAValue] = {}

    def index_value(value: Mixed) -> SSAValue:
        if isinstance(value, SSAValue):
            return value
        if value not in constants:
            constant = arith.ConstantOp.from_int_and_width(value, IndexType())
            new_ops.append(constant)
            constants[value] = constant.result
        return constants[value]

    zero = index_value(0)
    upper_bounds = {dim: index_value(domain[dim]) for dim in tiled_dims}
    steps = {dim: index_value(tile_sizes[dim]) for dim in tiled_dims}

    loops: list[scf.ForOp] = []
    carried: list[SSAValue] = list(destinations)
    carried_types = [value.type for value in destinations]
    ivs: dict[int, SSAValue] = {}
    for dim in tiled_dims:
        body = Block(arg_types=(IndexType(), *carried_types))
        loop = scf.ForOp(zero, upper_bounds[dim], steps[dim], carried, Region(body))
        if loops:
            loops[-1].body.block.add_op(loop)
        else:
            new_ops.append(loop)
        loops.append(loop)
        ivs[dim] = body.args[0]
        carried = list(body.args[1:])

    innermost = loops[-1].body.block
    offsets: list[Mixed] = [ivs.get(dim, 0) for dim in range(len(domain))]
    sizes: list[Mixed] = list(domain)
    clamps: list[Operation] = []
    for dim in tiled_dims:  # the clamps in loop order, as upstream's
        sizes[dim] = _bounded_tile_size(tile_sizes[dim], domain[dim], ivs[dim], clamps)
    innermost.add_ops(clamps)
    return TileLoopNest(loops, offsets, sizes, carried)


def _bounded_tile_size(
    size: Mixed, extent: Mixed, iv: SSAValue, new_ops: list[Operation]
) -> Mixed:
    """The size of the tile starting at `iv` of a loop of `extent` tiled by
    `size`: `size` itself when it divides the static extent, the extent when
    the one tile covers it, else `affine.min(extent - iv, size)` (appended
    to `new_ops`; upstream's order, static parts folded in)."""
    if isinstance(size, int) and isinstance(extent, int):
        if extent % size == 0:
            return size
        if size >= extent:
            return extent
    iv_dim, extent_symbol, size_symbol = (
        AffineExpr.dimension(0),
        AffineExpr.symbol(0),
        AffineExpr.symbol(1),
    )
    bounds = AffineMap(1, 2, (extent_symbol - iv_dim, size_symbol))
    return affine_min(bounds, [iv, extent, size], new_ops)


def destinations_of(
    op: Operation,
    model: TilingModel,
    domain: Sequence[Mixed],
    new_ops: list[Operation],
) -> list[SSAValue]:
    """The tensors `op`'s results are written into (upstream's
    `getOrCreateDestinations`): the init each result is tied to for a
    destination-style op, else a `tensor.empty` per result (its ops appended
    to `new_ops`), shaped as the tile covering the whole iteration `domain`
    lies in the result (`result_tile_position`), which gives a dynamic
    extent without reading the result itself."""
    tied = _tied_inits(op)
    if tied is not None:
        return [op.operands[index] for index in tied]
    zeros: list[Mixed] = [0] * len(domain)
    destinations: list[SSAValue] = []
    for result in op.results:
        assert isinstance(result.type, TensorType)
        _, extents = model.result_tile_position(
            op, result.index, zeros, domain, new_ops
        )
        dynamic = [
            as_index_value(extent, new_ops)
            for extent, static in zip(extents, result.type.get_shape(), strict=True)
            if static == DYNAMIC_INDEX
        ]
        empty = tensor.EmptyOp(dynamic, result.type)
        new_ops.append(empty)
        destinations.append(empty.tensor)
    return destinations


def _tied_inits(op: Operation) -> list[int] | None:
    """The operand index of the init each result of `op` is tied to, or
    None if some result has none (the op is not destination-style)."""
    tied = [aliased_operand(result) for result in op.results]
    if any(index is None for index in tied):
        return None
    return [index for index in tied if index is not None]


def tile_using_for(
    op: Operation,
    tile_sizes: Sequence[Mixed],
    interchange: Sequence[int] = (),
    rewriter: PatternRewriter | None = None,
) -> TilingLoops:
    """Tile `op` by `tile_sizes` (one per loop of its iteration domain,
    missing ones 0 = not tiled; ints or `index` values defined before `op`)
    with a nest of `scf.for` loops in `interchange` order (see
    `check_tile_request`), replacing `op` by the nest. With no nonzero size,
    nothing changes (`loops` is empty and `op` stays). Raises
    `TilingRefused` (nothing changed) when `op` has no model or the request
    is invalid (see `check_tile_request`), or for ops on memrefs.

    A dynamic tile size is trusted to be positive (a zero one would loop
    forever, as upstream's would). With `rewriter` (inside a pattern), the
    IR is changed through it."""
    model = tiling_model(op)
    if model is None:
        raise TilingRefused(f"{op.name} has no tiling model", op)
    if not op.results or not all(
        isinstance(result.type, TensorType) for result in op.results
    ):
        raise TilingRefused(f"{op.name}: tiling works on tensors", op)
    loop_count = len(model.loop_types(op))
    sizes, tiled_dims = check_tile_request(
        op, model, tile_sizes, interchange, loop_count
    )
    if not tiled_dims:
        return TilingLoops(TiledOp([op], list(op.results)), [], list(op.results))

    new_ops: list[Operation] = []
    try:
        domain = model.iteration_domain(op, new_ops)
        destinations = destinations_of(op, model, domain, new_ops)
        nest = build_tile_loop_nest(domain, sizes, tiled_dims, destinations, new_ops)
        tiled, yielded = _tile_into(op, model, nest)
    except TilingRefused:
        discard(new_ops)
        raise
    results = nest.close(yielded)

    if rewriter is None:
        Rewriter.insert_op(new_ops, InsertPoint.before(op))
        Rewriter.replace_op(op, [], results)
    else:
        rewriter.insert(new_ops, InsertPoint.before(op))
        rewriter.replace(op, [], results)
    return TilingLoops(tiled, nest.loops, results, nest.offsets, nest.sizes)


def _tile_into(
    op: Operation, model: TilingModel, nest: TileLoopNest
) -> tuple[TiledOp, list[SSAValue]]:
    """Build the tile of the nest's current iteration in its innermost body
    and write each result tile into its carried destination; returns the
    tile and the updated destinations (to yield).

    The model slices the op's own operands, so it is asked to tile a copy
    whose inits are the carried values (upstream's
    `cloneOpAndUpdateDestinationArgs`): the tiled op then reads and updates
    the slice of the destination as the previous iterations left it. The
    copy is never inserted."""
    source = op
    tied = _tied_inits(op)
    if tied is not None:
        source = op.clone()
        for index, value in zip(tied, nest.carried, strict=True):
            source.operands[index] = value
    body_ops: list[Operation] = []
    try:
        tiled = model.tile(source, nest.offsets, nest.sizes, body_ops)
        yielded: list[SSAValue] = []
        for index, (tile, destination) in enumerate(
            zip(tiled.results, nest.carried, strict=True)
        ):
            offsets, sizes = model.result_tile_position(
                source, index, nest.offsets, nest.sizes, body_ops
            )
            insertion = insert_slice(tile, destination, offsets, sizes)
            body_ops.append(insertion)
            yielded.append(insertion.result)
    except TilingRefused as refused:
        discard(body_ops)
        if refused.op is source:
            refused.op = op  # the copy is about to go: locate it at the op
        raise
    finally:
        if source is not op:
            discard([source])
    for body_op in body_ops:
        nest.body.add_op(body_op)
    return tiled, yielded


def discard(ops: Sequence[Operation]) -> None:
    """Forget ops built but never inserted (a refused tile): drop the uses
    they (and the ops nested in them) hold on other values, so the IR they
    read is as before."""
    for built in reversed(ops):
        built.drop_all_references()


def carry_through_loops(loops: Sequence[scf.ForOp], init: SSAValue) -> list[scf.ForOp]:
    """Carry one more value through a perfect nest of `scf.for`s (outermost
    first, each loop's last body op before the yield containing the next):
    appended as the last `iter_arg` of every loop, the outermost starting
    from `init`, each inner loop from its parent's new block argument, and
    passed along unchanged (the innermost loop yields its block argument:
    replace that yield operand to update the value). The loops are rebuilt
    (an op's results cannot grow): returns the new ones, whose last result
    is the carried value; the bodies are moved, not copied, and uses of the
    old loops' results now use the new loops' first results."""
    blocks = [loop.body.block for loop in loops]
    for block in blocks:
        block.insert_arg(init.type, len(block.args))
    new_loops: list[scf.ForOp] = []
    for depth, loop in enumerate(loops):
        start = init if depth == 0 else blocks[depth - 1].args[-1]
        body = loop.detach_region(loop.body)
        rebuilt = scf.ForOp(loop.lb, loop.ub, loop.step, [*loop.iter_args, start], body)
        rebuilt.attributes.update(loop.attributes)
        Rewriter.insert_op(rebuilt, InsertPoint.before(loop))
        for old, new in zip(loop.results, rebuilt.results, strict=False):
            old.replace_all_uses_with(new)
        Rewriter.erase_op(loop)
        new_loops.append(rebuilt)
    for depth, block in enumerate(blocks):
        terminator = block.last_op
        assert isinstance(terminator, scf.YieldOp)
        passed = (
            block.args[-1]
            if depth == len(blocks) - 1
            else new_loops[depth + 1].results[-1]
        )
        rebuilt_yield = scf.YieldOp(*terminator.operands, passed)
        Rewriter.replace_op(terminator, rebuilt_yield)
    return new_loops


def enclosing_loops(op: Operation) -> list[scf.ForOp]:
    """The `scf.for` ops around `op`, outermost first."""
    loops: list[scf.ForOp] = []
    parent = op.parent_op()
    while parent is not None:
        if isinstance(parent, scf.ForOp):
            loops.append(parent)
        parent = parent.parent_op()
    loops.reverse()
    return loops
