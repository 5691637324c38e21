"""How `linalg_ext.topk` tiles.

The loops are the input's; `dimension` (the one the K first elements are
chosen along) stays whole, the others are parallel. A tile reads the values
(and indices) at the tile, whole along `dimension`, and writes the outputs
at the tile's offsets on the other dimensions and whole (0 to K) along
`dimension`. ByteIR slices the outputs at the input tile's offset along
`dimension` and reports the same position for both results; we use the
outputs' own extent and offset 0 there.
"""

from __future__ import annotations

from xdsl.ir import Operation

from linalg_ext.dialect.tiling_support import (
    OperandTiling,
    ProjectedTilingModel,
    identity_tiling,
)
from linalg_ext.dialect.topk import TopkOp
from linalg_ext.shaped import rank_of_value
from linalg_ext.tiling.interface import register_tiling


class TopkTiling(ProjectedTilingModel):
    """Tiles along every loop but `dimension`."""

    def whole_dims(self, op: Operation) -> set[int]:
        assert isinstance(op, TopkOp)
        return {op.dimension.value.data}

    def why_whole(self, op: Operation, loop: int) -> str:
        return "the first K elements are chosen among all of it"

    def operand_tilings(self, op: Operation) -> list[OperandTiling]:
        assert isinstance(op, TopkOp)
        rank = rank_of_value(op.inputs[0])
        dimension = op.dimension.value.data
        identity = identity_tiling(rank)
        output = OperandTiling(identity.map, frozenset((dimension,)))
        return [identity] * len(op.inputs) + [output, output]


register_tiling(TopkOp, TopkTiling())
