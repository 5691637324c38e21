"""How `linalg_ext.softmax` and `linalg_ext.unnorm_softmax` tile.

The loops are the input's; every loop but `dimension` is parallel and may
be tiled: a tile reads the input and writes the output at the tile, and
reads and writes max, accumulator and scale at the tile without
`dimension` (their own rank, one less than the input's; ByteIR's rule).
`dimension` stays whole (`whole_dims`): an output element is normalised by
the sum over the whole row, so a tile along it would need the later tiles'
statistics (the op's running statistics let a *consumer* rescale, but the
op alone cannot produce its output tile by tile).
"""

from __future__ import annotations

from xdsl.ir import Operation

from linalg_ext.dialect.softmax import SoftmaxLikeOp, SoftmaxOp, UnnormSoftmaxOp
from linalg_ext.dialect.tiling_support import (
    OperandTiling,
    ProjectedTilingModel,
    dropping_tiling,
    identity_tiling,
)
from linalg_ext.shaped import rank_of_value
from linalg_ext.tiling.interface import register_tiling


class SoftmaxTiling(ProjectedTilingModel):
    """Tiles along every loop but `dimension`."""

    def whole_dims(self, op: Operation) -> set[int]:
        assert isinstance(op, SoftmaxLikeOp)
        return {op.dimension.value.data}

    def why_whole(self, op: Operation, loop: int) -> str:
        return (
            "it is the softmax dimension, and every output element is "
            "normalised by its whole row"
        )

    def operand_tilings(self, op: Operation) -> list[OperandTiling]:
        assert isinstance(op, SoftmaxLikeOp)
        rank = rank_of_value(op.inputs[0])
        reduced = dropping_tiling(rank, (op.dimension.value.data,))
        return [identity_tiling(rank), identity_tiling(rank), reduced, reduced, reduced]


register_tiling(SoftmaxOp, SoftmaxTiling())
register_tiling(UnnormSoftmaxOp, SoftmaxTiling())
