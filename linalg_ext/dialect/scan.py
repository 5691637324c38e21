"""`linalg_ext.scan`: a prefix combination along one dimension."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from xdsl.dialects.builtin import (
    I64,
    AffineMapAttr,
    ArrayAttr,
    BoolAttr,
    IntegerAttr,
    ShapedType,
)
from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.ir import Attribute, Region, SSAValue
from xdsl.ir.affine import AffineMap
from xdsl.irdl import irdl_op_definition, prop_def, region_def

from linalg_ext.dialect.destination_style import LinalgExtDpsOp, input_loops
from linalg_ext.dialect.verifiers import (
    expect_count,
    expect_dimension_in_range,
    expect_rank_at_least,
    expect_same_element_type,
    expect_shape,
    verify_body,
)
from linalg_ext.dialect.yield_op import YieldOp
from linalg_ext.shaped import (
    drop_dims,
    element_type_of,
    rank_of,
    rank_of_value,
    shape_of,
)


@irdl_op_definition
class ScanOp(LinalgExtDpsOp):
    """Inclusive or exclusive scan along `dimension` with a combiner region.

    ins(input) outs(output, accumulator); the accumulator (rank − 1) is the
    carry-in and receives the carry-out. The region combines
    (running value, element) into the next running value.
    """

    name = "linalg_ext.scan"

    dimension = prop_def(IntegerAttr[I64])
    inclusive = prop_def(BoolAttr)
    region = region_def()

    def get_iterator_types(self) -> ArrayAttr[IteratorTypeAttr]:
        """The input's loops; `dimension` is a reduction."""
        return input_loops(self, (self.dimension.value.data,))

    def get_indexing_maps(self) -> ArrayAttr[AffineMapAttr]:
        """input and output: identity; accumulator: without `dimension`."""
        rank = rank_of_value(self.inputs[0])
        identity = AffineMap.identity(rank)
        dimension = self.dimension.value.data
        reduced = identity.drop_results([d == dimension for d in range(rank)])
        return ArrayAttr(
            (AffineMapAttr(identity), AffineMapAttr(identity), AffineMapAttr(reduced))
        )

    assembly_format = (
        "attr-dict `dimension` `(` $dimension `)` `inclusive` `(` $inclusive `)` "
        "`ins` `(` $inputs `:` type($inputs) `)` "
        "`outs` `(` $outputs `:` type($outputs) `)` "
        "$region (`->` type($res)^)?"
    )

    def __init__(
        self,
        input: SSAValue,
        outputs: Sequence[SSAValue],
        dimension: int,
        inclusive: bool,
        region: Region,
        attributes: Mapping[str, Attribute] | None = None,
    ):
        super().__init__(
            [input],
            outputs,
            properties={
                "dimension": IntegerAttr(dimension, 64),
                "inclusive": IntegerAttr(int(inclusive), 1),
            },
            attributes=attributes,
            regions=[region],
        )

    def verify_operands(self) -> None:
        expect_count(self, "input", len(self.inputs), (1,), "input")
        expect_count(self, "output", len(self.outputs), (2,), "output, accumulator")
        input_type = self.inputs[0].type
        output_type, accumulator_type = (o.type for o in self.outputs)
        assert isinstance(input_type, ShapedType)
        assert isinstance(output_type, ShapedType)
        assert isinstance(accumulator_type, ShapedType)
        expect_rank_at_least(self, "input", input_type, 1)
        dimension = self.dimension.value.data
        expect_dimension_in_range(self, "dimension", dimension, rank_of(input_type))
        expect_same_element_type(self, "output", output_type, "input", input_type)
        expect_same_element_type(
            self, "accumulator", accumulator_type, "input", input_type
        )
        shape = expect_shape(self, "output", output_type, shape_of(input_type))
        expect_shape(
            self, "accumulator", accumulator_type, drop_dims(shape, [dimension])
        )
        element = element_type_of(input_type)
        verify_body(
            self,
            self.region,
            YieldOp,
            (element, element),
            "running value, element",
            (element,),
            "next running value",
        )
