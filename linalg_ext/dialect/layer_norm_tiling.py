"""How `linalg_ext.layer_norm` tiles.

The loops are the input's; the `axis` loops stay whole (`whole_dims`: the
mean and variance are over all of them), the others are parallel. A tile
reads the input and writes the output at the tile, reads weight and bias
whole (they span the axis dimensions only), and writes mean and rstd at the
tile without the axis dimensions: at their own rank, where ByteIR slices
them with the input's offsets and sizes (a slice of the wrong rank).
"""

from __future__ import annotations

from xdsl.ir import Operation

from linalg_ext.dialect.layer_norm import LayerNormOp
from linalg_ext.dialect.tiling_support import (
    OperandTiling,
    ProjectedTilingModel,
    dropping_tiling,
    identity_tiling,
)
from linalg_ext.shaped import rank_of_value
from linalg_ext.tiling.interface import register_tiling


class LayerNormTiling(ProjectedTilingModel):
    """Tiles along every loop but the `axis` ones."""

    def whole_dims(self, op: Operation) -> set[int]:
        assert isinstance(op, LayerNormOp)
        return set(op.axis_values)

    def why_whole(self, op: Operation, loop: int) -> str:
        return "it is a normalised axis, over which the mean and variance are taken"

    def operand_tilings(self, op: Operation) -> list[OperandTiling]:
        assert isinstance(op, LayerNormOp)
        rank = rank_of_value(op.inputs[0])
        whole = OperandTiling(None)
        statistics = dropping_tiling(rank, op.axis_values)
        inputs = [identity_tiling(rank)] + [whole] * (len(op.inputs) - 1)
        outputs = [identity_tiling(rank)] + [statistics] * (len(op.outputs) - 1)
        return inputs + outputs


register_tiling(LayerNormOp, LayerNormTiling())
