"""The fusion drivers: tile a root and fuse its producers into the loops
(`tile_and_fuse`, what `linalg-tile-and-fuse` and
`transform.structured.fuse` do), and upstream's greedy fusion of the
producers of already tiled consumers (`greedy_fusion`, the pass
`test-linalg-greedy-fusion`, seed 001 §3). Both are built on
`fuse_producer_of_tensor` (`linalg_ext.tiling.fusion`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from xdsl.dialects import scf, tensor
from xdsl.ir import Block, Operation, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.traits import IsTerminator
from xdsl.transforms.loop_invariant_code_motion import can_be_hoisted

from linalg_ext.tiling.fusion import find_slice_origin, fuse_producer_of_tensor
from linalg_ext.tiling.interface import TiledOp, TilingRefused, tiling_model
from linalg_ext.tiling.loops import (
    check_tile_request,
    discard,
    enclosing_loops,
    tile_using_for,
)
from linalg_ext.transforms.dps import has_loops, is_pure_on_tensors
from linalg_ext.transforms.mixed_sizes import Mixed


@dataclass
class TileAndFuseResult:
    """What `tile_and_fuse` built.

    `tiled`: the root's tile in the innermost loop. `fused`: the tile of
    each producer fused into the loops, in the order they were fused.
    `producers`: the original op of each of those (the same order; an
    original left without users was erased: its `parent` is None).
    `loops`: the `scf.for` nest, outermost first (empty when nothing was
    tiled). `replacements`: one value per result of the root."""

    tiled: TiledOp
    fused: list[TiledOp] = field(default_factory=list[TiledOp])
    producers: list[Operation] = field(default_factory=list[Operation])
    loops: list[scf.ForOp] = field(default_factory=list[scf.ForOp])
    replacements: list[SSAValue] = field(default_factory=list[SSAValue])


def parallel_tile_loops(
    root: Operation, tile_sizes: Sequence[Mixed], interchange: Sequence[int]
) -> list[bool]:
    """For each loop `tile_using_for(root, tile_sizes, interchange)` builds
    (outermost first), whether it tiles a parallel dimension. Raises
    `TilingRefused` as `tile_using_for` would."""
    model = tiling_model(root)
    if model is None:
        raise TilingRefused(f"{root.name} has no tiling model", root)
    loop_types = model.loop_types(root)
    _, tiled_dims = check_tile_request(
        root, model, tile_sizes, interchange, len(loop_types)
    )
    return [loop_types[dim] == "parallel" for dim in tiled_dims]


def tile_and_fuse(
    root: Operation, tile_sizes: Sequence[Mixed], interchange: Sequence[int] = ()
) -> TileAndFuseResult:
    """Tile `root` with `tile_using_for`, then fuse into the loops the
    producers of every slice the tiled ops read, to a fixpoint (each fused
    producer's own slices are candidates in turn). Untiled originals left
    without users are erased.

    The producer of a destination (the init of the root, carried through
    the loops' `iter_args`) is fused only when every loop tiles a parallel
    dimension: a loop along a reduction must accumulate onto the partial
    result, not restart from the producer's value (see
    `linalg_ext.tiling.fusion`). Raises `TilingRefused`, with the IR
    unchanged, when `root` cannot be tiled so."""
    parallel = parallel_tile_loops(root, tile_sizes, interchange)
    tiling = tile_using_for(root, tile_sizes, interchange)
    result = TileAndFuseResult(
        tiling.tiled, loops=tiling.loops, replacements=tiling.replacements
    )
    if not tiling.loops:
        return result
    parallel_loops = {
        loop
        for loop, is_parallel in zip(tiling.loops, parallel, strict=True)
        if is_parallel
    }
    worklist = list(tiling.tiled.slices)
    while worklist:
        candidate = worklist.pop(0)
        if candidate.parent is None or not isinstance(candidate, tensor.ExtractSliceOp):
            continue
        producer = _producer_hint(candidate)
        fused = fuse_producer_of_tensor(candidate, parallel_loops)
        if fused is None:
            continue
        result.fused.append(fused)
        result.producers.append(producer)
        worklist.extend(fused.slices)
    erase_dead_ops(result.producers)
    return result


def _producer_hint(slice_op: tensor.ExtractSliceOp) -> Operation:
    """The op the slice's elements come from, for the record (the fusion
    itself finds it again, through loops and slices)."""
    new_ops: list[Operation] = []
    origin = find_slice_origin(slice_op, enclosing_loops(slice_op)[::-1], new_ops)
    discard(new_ops)
    return origin.result.op if origin is not None else slice_op


def erase_dead_ops(ops: Sequence[Operation]) -> None:
    """Erase those of `ops` (still in the IR) whose results are unused and
    that have no other effect, repeatedly (erasing one can leave another
    unused)."""
    changed = True
    while changed:
        changed = False
        for op in ops:
            if op.parent is None or any(r.uses for r in op.results):
                continue
            if is_pure_on_tensors(op):
                Rewriter.erase_op(op)
                changed = True


def _consumers(root: Operation) -> list[Operation]:
    """The ops greedy fusion fuses producers into: destination-style ops
    with a tiling model, in walk order."""
    return [
        op
        for op in root.walk()
        if op is not root and has_loops(op) and tiling_model(op) is not None
    ]


def greedy_fusion_round(root: Operation) -> bool:
    """One round of upstream's `fuseLinalgOpsGreedily`: in reverse order of
    the consumers, fuse the producer of each input operand read through an
    `extract_slice` (never the inits: their producers are followed by
    `tile_and_fuse` only, where the loops are known). Returns whether
    anything was fused."""
    changed = False
    for consumer in reversed(_consumers(root)):
        if consumer.parent is None:
            continue
        for operand in list(consumer.inputs):  # pyright: ignore[reportAttributeAccessIssue]
            slice_op = getattr(operand, "op", None)
            # A slice read twice by one consumer (`linalg.add %s, %s`) is
            # fused (and erased) the first time.
            if (
                not isinstance(slice_op, tensor.ExtractSliceOp)
                or slice_op.parent is None
            ):
                continue
            producer = _producer_hint(slice_op)
            if fuse_producer_of_tensor(slice_op) is not None:
                changed = True
                erase_dead_ops([producer])
    return changed


def hoist_loop_invariant_ops(root: Operation) -> None:
    """Move out of every `scf.for` under `root` (innermost first) the ops
    that have no effect and use no value defined in the loop: xDSL's
    loop-invariant code motion, which also moves destination-style ops on
    tensors (a fused producer whose tile does not depend on the loop's
    induction variable is computed once, before the loop, as upstream's
    greedy fusion pipeline does with its LICM)."""
    loops = [op for op in root.walk(reverse=True) if isinstance(op, scf.ForOp)]
    for loop in reversed(loops):
        _hoist_from(loop)


def _hoist_from(loop: scf.ForOp) -> None:
    region = loop.body
    worklist = list(region.block.ops)
    while worklist:
        op = worklist.pop(0)
        if op.parent_region() is not region:
            continue
        if op.has_trait(IsTerminator) or not is_pure_on_tensors(op):
            continue
        if not can_be_hoisted(op, region):
            continue
        op.detach()
        Rewriter.insert_op(op, InsertPoint.before(loop))
        worklist.extend(
            use.operation
            for result in op.results
            for use in result.uses
            if use.operation.parent_region() is region
        )


def greedy_fusion(
    root: Operation, cleanup: Callable[[Operation], None] | None = None
) -> bool:
    """Upstream's `test-linalg-greedy-fusion` on `root` (a function or a
    module): rounds of `greedy_fusion_round`, each followed by
    `hoist_loop_invariant_ops` and `cleanup(root)` (if given), until nothing
    more fuses. Returns whether anything was fused."""
    fused_any = False
    while greedy_fusion_round(root):
        fused_any = True
        hoist_loop_invariant_ops(root)
        if cleanup is not None:
            cleanup(root)
    return fused_any


@dataclass
class RootOutcome:
    """What `tile_and_fuse_roots` did with one root: `result` when tiled,
    else `reason` it was left alone."""

    root: Operation
    result: TileAndFuseResult | None = None
    reason: str | None = None


def find_roots(root: Operation) -> list[Operation]:
    """The tileable ops under `root` (a model, no refusal) whose results no
    other tileable op of the same block uses: the ends of the chains
    tile-and-fuse starts from, in walk order."""

    def tileable(op: Operation) -> bool:
        model = tiling_model(op)
        return model is not None and model.refusal(op) is None

    roots: list[Operation] = []
    for op in root.walk():
        if op is root or not tileable(op):
            continue
        block: Block | None = op.parent_block()
        consumed = any(
            use.operation.parent_block() is block and tileable(use.operation)
            for result in op.results
            for use in result.uses
        )
        if not consumed:
            roots.append(op)
    return roots


def tile_and_fuse_roots(
    root: Operation, tile_sizes: Sequence[int], interchange: Sequence[int] = ()
) -> list[RootOutcome]:
    """`tile_and_fuse` every root of `find_roots(root)`, the last first (a
    root nested in a region after another one may fuse it; the other is then
    gone); a root the request does not fit (refused by its model, more sizes
    than its loops, a size on a loop that must stay whole, an interchange of
    other loops) is left as it is, with the reason. Outcomes in walk order."""
    outcomes: list[RootOutcome] = []
    for op in reversed(find_roots(root)):
        if op.parent is None:
            continue  # fused into a later root's loops, and erased there
        try:
            outcomes.append(RootOutcome(op, tile_and_fuse(op, tile_sizes, interchange)))
        except TilingRefused as refusal:
            outcomes.append(RootOutcome(op, reason=str(refusal)))
    outcomes.reverse()
    return outcomes
