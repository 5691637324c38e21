"""How `linalg_ext.batch_matmul` tiles: like `linalg.batch_matmul`.

The loops are (batch..., m, n, k); k is a reduction, the others parallel.
Each operand is sliced at the projection of the tile through its layout's
map: lhs (b..., m, k) or (b..., k, m), rhs (b..., k, n) or (b..., n, k),
init (b..., m, n). Tiling k accumulates the tiles into the init in order
(the drivers carry it); a result tile is computed over the whole of k.
"""

from __future__ import annotations

from xdsl.ir import Operation
from xdsl.ir.affine import AffineExpr, AffineMap

from linalg_ext.dialect.batch_matmul import BatchMatmulOp
from linalg_ext.dialect.tiling_support import OperandTiling, ProjectedTilingModel
from linalg_ext.shaped import rank_of_value
from linalg_ext.tiling.interface import LoopType, register_tiling


def _loops(rank: int, *order: str) -> AffineMap:
    """The map from the loops (b..., m, n, k) to an operand's dimensions:
    the batch loops, then the named loops in `order`."""
    batches = rank - 2
    position = {"m": batches, "n": batches + 1, "k": batches + 2}
    loops = [*range(batches), *(position[name] for name in order)]
    return AffineMap(rank + 1, 0, tuple(AffineExpr.dimension(d) for d in loops))


class BatchMatmulTiling(ProjectedTilingModel):
    """Tiles along every loop; k is a reduction."""

    def loop_types(self, op: Operation) -> list[LoopType]:
        assert isinstance(op, BatchMatmulOp)
        parallel: list[LoopType] = ["parallel"] * rank_of_value(op.init)
        return [*parallel, "reduction"]

    def operand_tilings(self, op: Operation) -> list[OperandTiling]:
        assert isinstance(op, BatchMatmulOp)
        rank = rank_of_value(op.init)
        layout = op.layout.data
        lhs = ("m", "k") if layout[0] == "n" else ("k", "m")
        rhs = ("k", "n") if layout[1] == "n" else ("n", "k")
        return [
            OperandTiling(_loops(rank, *lhs)),
            OperandTiling(_loops(rank, *rhs)),
            OperandTiling(_loops(rank, "m", "n")),
        ]


register_tiling(BatchMatmulOp, BatchMatmulTiling())
