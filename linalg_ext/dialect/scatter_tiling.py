"""How `linalg_ext.scatter` tiles: ByteIR's batch/window split.

The loops are the updates' dimensions: the batch loops (those of the
indices but their last dimension) are reductions, since two updates may
hit one position; the window loops are parallel. A tile reads the indices
and updates at its batch (and window) positions and updates the slice of
`src` that is whole along the indexed dimensions (any of its positions may
be hit) and at the tile's window positions along the window dimensions.
The tiles along a batch loop update the same `src` tile one after the
other, which the drivers do in increasing order.

Where we differ from ByteIR: duplicate indices are applied in row-major
batch order (docs/ops/scatter.md), so with an overwriting region the order
of the tiles matters. A tile of a batch loop covers a run of consecutive
positions only when the batch loops after it are whole; tiling an inner
batch loop too would apply the updates of one tile of it for every outer
position before those of the next, another order. So only the outermost
batch loop may be tiled: the others are `whole_dims`. A result tile asked
alone (fusion) must be whole along the indexed dimensions.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.ir import Operation, SSAValue

from linalg_ext.dialect.scatter import ScatterOp
from linalg_ext.dialect.tiling_support import (
    loop_types_of,
    memref_refusal,
    rebuilt,
    require_whole,
)
from linalg_ext.shaped import rank_of_value, shape_of
from linalg_ext.tiling.interface import (
    LoopType,
    TiledOp,
    TilingModel,
    TilingRefused,
    register_tiling,
)
from linalg_ext.transforms.mixed_sizes import Mixed
from linalg_ext.transforms.shape_reification import reify_dim
from linalg_ext.transforms.slices import extract_slice


def _batches(op: ScatterOp) -> int:
    return rank_of_value(op.inputs[0]) - 1


def _depth(op: ScatterOp) -> int:
    """How many dimensions of `src` the indices index (static: verified)."""
    indices_type = op.inputs[0].type
    return shape_of(indices_type)[-1]  # pyright: ignore[reportArgumentType]


class ScatterTiling(TilingModel):
    """Tiles along the outermost batch loop and the window loops."""

    def refusal(self, op: Operation) -> str | None:
        return memref_refusal(op)

    def loop_types(self, op: Operation) -> list[LoopType]:
        return loop_types_of(op)

    def iteration_domain(self, op: Operation, new_ops: list[Operation]) -> list[Mixed]:
        assert isinstance(op, ScatterOp)
        updates = op.inputs[1]
        return [reify_dim(updates, d, new_ops) for d in range(rank_of_value(updates))]

    def whole_dims(self, op: Operation) -> set[int]:
        assert isinstance(op, ScatterOp)
        return set(range(1, _batches(op)))

    def fuses_producers(self, op: Operation) -> bool:
        # ByteIR fuses nothing into a tiled scatter: its destination is
        # updated at data-dependent places, and a fused producer of the
        # indices or updates would only pay off with the window tiles.
        return False

    def _extent_sources(self, op: ScatterOp, loop: int) -> list[tuple[SSAValue, int]]:
        sources = [(op.inputs[1], loop)]
        if loop < _batches(op):
            sources.append((op.inputs[0], loop))
        return sources

    def _src_position(
        self,
        op: ScatterOp,
        offsets: Sequence[Mixed],
        sizes: Sequence[Mixed],
        new_ops: list[Operation],
    ) -> tuple[list[Mixed], list[Mixed]]:
        """Whole along the indexed dimensions, the tile's window after."""
        depth, batches = _depth(op), _batches(op)
        src = op.outputs[0]
        indexed_sizes = [reify_dim(src, k, new_ops) for k in range(depth)]
        return (
            [0] * depth + list(offsets[batches:]),
            indexed_sizes + list(sizes[batches:]),
        )

    def tile(
        self,
        op: Operation,
        offsets: Sequence[Mixed],
        sizes: Sequence[Mixed],
        new_ops: list[Operation],
    ) -> TiledOp:
        assert isinstance(op, ScatterOp)
        if (reason := self.refusal(op)) is not None:
            raise TilingRefused(reason, op)
        for loop in sorted(self.whole_dims(op)):
            require_whole(
                op,
                f"loop {loop}",
                offsets[loop],
                sizes[loop],
                self._extent_sources(op, loop),
                "it is an inner batch loop, and duplicate indices are applied "
                "in row-major batch order",
            )
        start = len(new_ops)
        batches, depth = _batches(op), _depth(op)
        indices, updates, src = op.operands
        slices: list[Operation] = []

        def sliced(value: SSAValue, at: Sequence[Mixed], extent: Sequence[Mixed]):
            slice_op = extract_slice(value, at, extent)
            new_ops.append(slice_op)
            slices.append(slice_op)
            return slice_op.result

        if batches:
            indices = sliced(
                indices, [*offsets[:batches], 0], [*sizes[:batches], depth]
            )
        updates = sliced(updates, offsets, sizes)
        if rank_of_value(src) > depth:
            src = sliced(src, *self._src_position(op, offsets, sizes, new_ops))
        tiled = rebuilt(op, [indices, updates, src])
        new_ops.append(tiled)
        return TiledOp(new_ops[start:], list(tiled.results), slices)

    def result_tile_position(
        self,
        op: Operation,
        result_index: int,
        offsets: Sequence[Mixed],
        sizes: Sequence[Mixed],
        new_ops: list[Operation],
    ) -> tuple[list[Mixed], list[Mixed]]:
        assert isinstance(op, ScatterOp)
        return self._src_position(op, offsets, sizes, new_ops)

    def iteration_tile_of_result(
        self,
        op: Operation,
        result_index: int,
        offsets: Sequence[Mixed],
        sizes: Sequence[Mixed],
        new_ops: list[Operation],
    ) -> tuple[list[Mixed], list[Mixed]]:
        """Every batch position (any may hit the tile), the result tile's
        window; the tile must be whole along the indexed dimensions."""
        assert isinstance(op, ScatterOp)
        if (reason := self.refusal(op)) is not None:
            raise TilingRefused(reason, op)
        depth, batches = _depth(op), _batches(op)
        for k in range(depth):
            require_whole(
                op,
                f"dimension {k} of its result",
                offsets[k],
                sizes[k],
                [(op.outputs[0], k), (op.results[0], k)],
                "the indices say which of its positions the updates hit, "
                "and they are known only when running",
            )
        batch_extents = [reify_dim(op.inputs[1], d, new_ops) for d in range(batches)]
        return (
            [0] * batches + list(offsets[depth:]),
            batch_extents + list(sizes[depth:]),
        )


register_tiling(ScatterOp, ScatterTiling())
