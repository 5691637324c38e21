"""How `linalg_ext.diag` tiles (ByteIR gives it no tiling).

The loops are the output's (b..., i, j), all parallel. A tile whose rows
and columns are the same range (i and j at the same offset, of the same
size: every tile along the batch loops only, with i and j whole) is the
diag of the input slice [b..., i-range]: a `linalg_ext.diag` on slices.
Any other tile (rows and columns cut apart, as tiling i or j makes them) is
not a diag of anything: it holds the input where the row equals the
column, shifted by the tile's offsets, and zeros elsewhere. It is computed
by a `linalg.generic` over the tile, reading the input at (b, i) and
selecting it where i + i-offset == j + j-offset, so every tile is exact,
including those that miss the diagonal (all zeros).
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    AffineMapAttr,
    AnyFloat,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
)
from xdsl.dialects.linalg import ops as linalg
from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap

from linalg_ext.dialect.diag import DiagOp
from linalg_ext.dialect.tiling_support import (
    OperandTiling,
    ProjectedTilingModel,
    constant_index,
    dropping_tiling,
    identity_tiling,
)
from linalg_ext.shaped import element_type_of, rank_of_value
from linalg_ext.tiling.interface import TiledOp, TilingRefused, register_tiling
from linalg_ext.transforms.mixed_sizes import Mixed, apply_affine_map
from linalg_ext.transforms.slices import extract_slice


def _same(a: Mixed, b: Mixed) -> bool:
    """Whether `a` and `b` are provably equal."""
    if a is b:
        return True
    known = constant_index(a)
    return known is not None and known == constant_index(b)


def constant_or_value(value: Mixed) -> Mixed:
    """`value` as an int when it is known (an `arith.constant`)."""
    known = constant_index(value)
    return value if known is None else known


def _zero(element: Attribute) -> arith.ConstantOp | None:
    if isinstance(element, AnyFloat):
        return arith.ConstantOp(FloatAttr(0.0, element))
    if isinstance(element, IntegerType | IndexType):
        return arith.ConstantOp(IntegerAttr(0, element))
    return None


class DiagTiling(ProjectedTilingModel):
    """Tiles along every loop: a diag on slices where the tile is square on
    the diagonal, a `linalg.generic` elsewhere."""

    def operand_tilings(self, op: Operation) -> list[OperandTiling]:
        rank = rank_of_value(op.operands[1])
        return [dropping_tiling(rank, (rank - 1,)), identity_tiling(rank)]

    def tile(
        self,
        op: Operation,
        offsets: Sequence[Mixed],
        sizes: Sequence[Mixed],
        new_ops: list[Operation],
    ) -> TiledOp:
        assert isinstance(op, DiagOp)
        if _same(offsets[-2], offsets[-1]) and _same(sizes[-2], sizes[-1]):
            return super().tile(op, offsets, sizes, new_ops)
        if (reason := self.refusal(op)) is not None:
            raise TilingRefused(reason, op)
        element = element_type_of(op.outputs[0].type)  # pyright: ignore[reportArgumentType]
        zero = _zero(element)
        if zero is None:
            raise TilingRefused(
                f"{op.name}: a tile off the diagonal needs a zero of {element}", op
            )
        start = len(new_ops)
        input_slice = extract_slice(op.inputs[0], offsets[:-1], sizes[:-1])
        output_slice = extract_slice(op.outputs[0], offsets, sizes)
        # Tile element (i, j) is on the diagonal when i + oi == j + oj.
        difference = AffineMap(
            2, 0, (AffineExpr.dimension(0) - AffineExpr.dimension(1),)
        )
        (shift,) = apply_affine_map(
            difference,
            [constant_or_value(offsets[-1]), constant_or_value(offsets[-2])],
            new_ops,
        )
        new_ops += [input_slice, output_slice]
        generic = self._off_diagonal_generic(
            input_slice.result, output_slice.result, shift, zero
        )
        new_ops.append(generic)
        return TiledOp(
            new_ops[start:], list(generic.results), [input_slice, output_slice]
        )

    @staticmethod
    def _off_diagonal_generic(
        vector: SSAValue, matrix: SSAValue, shift: Mixed, zero: arith.ConstantOp
    ) -> linalg.GenericOp:
        """out[b, i, j] = vector[b, i] if i - j == shift else 0."""
        rank = rank_of_value(matrix)
        element = element_type_of(matrix.type)  # pyright: ignore[reportArgumentType]
        block = Block(arg_types=(element, element))
        row, column = linalg.IndexOp(rank - 2), linalg.IndexOp(rank - 1)
        distance = arith.SubiOp(row, column)
        body: list[Operation] = [row, column, distance]
        if isinstance(shift, int):
            constant = arith.ConstantOp(IntegerAttr(shift, IndexType()))
            body.append(constant)
            shift = constant.result
        on_diagonal = arith.CmpiOp(distance, shift, "eq")
        chosen = arith.SelectOp(on_diagonal, block.args[0], zero)
        body += [on_diagonal, zero, chosen, linalg.YieldOp(chosen)]
        block.add_ops(body)
        identity = AffineMap.identity(rank)
        return linalg.GenericOp(
            (vector,),
            (matrix,),
            Region(block),
            (
                AffineMapAttr(identity.drop_results([False] * (rank - 1) + [True])),
                AffineMapAttr(identity),
            ),
            [IteratorTypeAttr.parallel()] * rank,
            [matrix.type],
        )


register_tiling(DiagOp, DiagTiling())
