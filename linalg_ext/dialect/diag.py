"""`linalg_ext.diag`: a diagonal matrix from the last dimension of its input."""

from __future__ import annotations

from collections.abc import Mapping

from xdsl.dialects.builtin import AffineMapAttr, ArrayAttr, ShapedType
from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.ir import Attribute, SSAValue
from xdsl.ir.affine import AffineMap
from xdsl.irdl import irdl_op_definition

from linalg_ext.dialect.destination_style import INS, OUTS, LinalgExtDpsOp
from linalg_ext.dialect.verifiers import (
    expect_count,
    expect_rank_at_least,
    expect_same_element_type,
    expect_shape,
)
from linalg_ext.iterator_types import iterator_types
from linalg_ext.shaped import extents_compatible, rank_of_value, shape_of
from linalg_ext.verification import op_error


@irdl_op_definition
class DiagOp(LinalgExtDpsOp):
    """A diagonal matrix from the last dimension of its input.

    ins(input: [B..., N]) outs(output: [B..., N, N]);
    output[b, i, j] = input[b, i] if i == j else 0.
    """

    name = "linalg_ext.diag"

    def get_iterator_types(self) -> ArrayAttr[IteratorTypeAttr]:
        """One parallel loop per output dimension."""
        return iterator_types(rank_of_value(self.outputs[0]))

    def get_indexing_maps(self) -> ArrayAttr[AffineMapAttr]:
        """input: (b..., i, j) -> (b..., i); output: identity. The input is
        only read where i == j: the maps say which elements exist, not which
        are read."""
        rank = rank_of_value(self.outputs[0])
        identity = AffineMap.identity(rank)
        without_j = identity.drop_results([False] * (rank - 1) + [True])
        return ArrayAttr((AffineMapAttr(without_j), AffineMapAttr(identity)))

    def reads_output(self, index: int) -> bool:
        return False  # every element, on the diagonal or not, is written

    assembly_format = f"attr-dict {INS} {OUTS} (`:` type($res)^)?"

    def __init__(
        self,
        input: SSAValue,
        output: SSAValue,
        attributes: Mapping[str, Attribute] | None = None,
    ):
        super().__init__([input], [output], attributes=attributes)

    def verify_operands(self) -> None:
        expect_count(self, "input", len(self.inputs), (1,), "input")
        expect_count(self, "output", len(self.outputs), (1,), "output")
        input_type, output_type = self.inputs[0].type, self.outputs[0].type
        assert isinstance(input_type, ShapedType)
        assert isinstance(output_type, ShapedType)
        expect_rank_at_least(self, "input", input_type, 1)
        expect_same_element_type(self, "output", output_type, "input", input_type)
        input_shape = shape_of(input_type)
        shape = expect_shape(
            self, "output", output_type, input_shape + input_shape[-1:]
        )
        if not extents_compatible(shape[-2], shape[-1]):
            op_error(
                self,
                f"expected output to be square in its last two dimensions, "
                f"got {output_type}",
            )
