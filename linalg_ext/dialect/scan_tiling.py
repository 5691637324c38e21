"""How `linalg_ext.scan` tiles.

The loops are the input's; the scanned `dimension` is a reduction loop that
may be tiled, the others are parallel. A tile reads the input and writes
the output at the tile, and reads and writes the accumulator at the tile
without `dimension` (its own rank), ByteIR's rule. Tiling along `dimension`
is exact thanks to our scan's carry (docs/ops/scan.md): the tile starts
from the accumulator slice as its carry in and leaves there its carry out,
so when the loop threads the accumulator from tile to tile (the drivers'
`iter_args`), tile t continues exactly where tile t-1 stopped. A result
tile asked alone (fusion) must start at the beginning of the dimension: a
prefix of the scan is computed exactly from the carry in, a later piece
is not.
"""

from __future__ import annotations

from xdsl.ir import Operation

from linalg_ext.dialect.scan import ScanOp
from linalg_ext.dialect.tiling_support import (
    OperandTiling,
    ProjectedTilingModel,
    dropping_tiling,
    identity_tiling,
)
from linalg_ext.shaped import rank_of_value
from linalg_ext.tiling.interface import register_tiling


class ScanTiling(ProjectedTilingModel):
    """Tiles along every loop; along `dimension` the accumulator carries."""

    def operand_tilings(self, op: Operation) -> list[OperandTiling]:
        assert isinstance(op, ScanOp)
        rank = rank_of_value(op.inputs[0])
        identity = identity_tiling(rank)
        return [identity, identity, dropping_tiling(rank, (op.dimension.value.data,))]


register_tiling(ScanOp, ScanTiling())
