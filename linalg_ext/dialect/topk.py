"""`linalg_ext.topk`: the first k elements along a dimension, in a region's order."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from xdsl.dialects.builtin import I64, ArrayAttr, IntegerAttr, ShapedType, i1
from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.ir import Attribute, Region, SSAValue
from xdsl.irdl import irdl_op_definition, prop_def, region_def

from linalg_ext.dialect.destination_style import LinalgExtDpsOp, input_loops
from linalg_ext.dialect.verifiers import (
    expect_count,
    expect_dimension_in_range,
    expect_integer_elements,
    expect_rank_at_least,
    expect_same_element_type,
    expect_shape,
    verify_body,
)
from linalg_ext.dialect.yield_op import YieldOp
from linalg_ext.shaped import element_type_of, rank_of, shape_of
from linalg_ext.verification import op_error


@irdl_op_definition
class TopkOp(LinalgExtDpsOp):
    """The first K elements along `dimension` in comparator order.

    ins(values [, indices]) outs(output values, output indices); K is the
    extent of the outputs along `dimension`. The region (a, b) -> i1 says
    whether a comes before b; ties keep the smaller original index first.
    """

    name = "linalg_ext.topk"

    dimension = prop_def(IntegerAttr[I64])
    region = region_def()

    def get_iterator_types(self) -> ArrayAttr[IteratorTypeAttr]:
        """The input's loops; `dimension` is a reduction."""
        return input_loops(self, (self.dimension.value.data,))

    assembly_format = (
        "attr-dict `dimension` `(` $dimension `)` "
        "`ins` `(` $inputs `:` type($inputs) `)` "
        "`outs` `(` $outputs `:` type($outputs) `)` "
        "$region (`->` type($res)^)?"
    )

    def __init__(
        self,
        inputs: Sequence[SSAValue],
        outputs: Sequence[SSAValue],
        dimension: int,
        region: Region,
        attributes: Mapping[str, Attribute] | None = None,
    ):
        super().__init__(
            inputs,
            outputs,
            properties={"dimension": IntegerAttr(dimension, 64)},
            attributes=attributes,
            regions=[region],
        )

    def verify_operands(self) -> None:
        expect_count(
            self, "input", len(self.inputs), (1, 2), "values, optional indices"
        )
        expect_count(self, "output", len(self.outputs), (2,), "values, indices")
        values_type = self.inputs[0].type
        out_values_type, out_indices_type = (o.type for o in self.outputs)
        assert isinstance(values_type, ShapedType)
        assert isinstance(out_values_type, ShapedType)
        assert isinstance(out_indices_type, ShapedType)
        expect_rank_at_least(self, "input values", values_type, 1)
        rank = rank_of(values_type)
        dimension = self.dimension.value.data
        expect_dimension_in_range(self, "dimension", dimension, rank)
        values_shape = shape_of(values_type)
        if len(self.inputs) == 2:
            in_indices_type = self.inputs[1].type
            assert isinstance(in_indices_type, ShapedType)
            expect_integer_elements(self, "input indices", in_indices_type)
            values_shape = expect_shape(
                self, "input indices", in_indices_type, values_shape
            )
            expect_same_element_type(
                self,
                "output indices",
                out_indices_type,
                "input indices",
                in_indices_type,
            )
        expect_same_element_type(
            self, "output values", out_values_type, "input values", values_type
        )
        expect_integer_elements(self, "output indices", out_indices_type)
        if rank_of(out_values_type) != rank:
            op_error(
                self,
                f"expected output values to have rank {rank}, got {out_values_type}",
            )
        # The outputs have the input's shape but along `dimension`, where both
        # have the extent K.
        k_extent = shape_of(out_values_type)[dimension]
        out_shape = expect_shape(
            self,
            "output values",
            out_values_type,
            values_shape[:dimension] + (k_extent,) + values_shape[dimension + 1 :],
        )
        out_shape = expect_shape(self, "output indices", out_indices_type, out_shape)
        k, n = out_shape[dimension], values_shape[dimension]
        if k >= 0 and n >= 0 and k > n:
            op_error(
                self,
                f"expected K ({k}, the outputs' extent along dimension {dimension}) "
                f"not to exceed the input extent along that dimension ({n})",
            )
        element = element_type_of(values_type)
        verify_body(
            self,
            self.region,
            YieldOp,
            (element, element),
            "lhs value, rhs value",
            (i1,),
            "lhs comes first",
        )
