"""`linalg_ext.softmax` and `linalg_ext.unnorm_softmax`: softmax with running
statistics."""

from __future__ import annotations

from abc import ABC
from collections.abc import Mapping, Sequence

from xdsl.dialects.builtin import I64, AffineMapAttr, ArrayAttr, IntegerAttr, ShapedType
from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.ir import Attribute, SSAValue
from xdsl.ir.affine import AffineMap
from xdsl.irdl import irdl_op_definition, prop_def

from linalg_ext.dialect.destination_style import INS, OUTS, LinalgExtDpsOp, input_loops
from linalg_ext.dialect.verifiers import (
    expect_count,
    expect_dimension_in_range,
    expect_float_elements,
    expect_rank_at_least,
    expect_same_element_type,
    expect_shape,
)
from linalg_ext.shaped import drop_dims, rank_of, rank_of_value, shape_of


class SoftmaxLikeOp(LinalgExtDpsOp, ABC):
    """Shared operand layout of `softmax` and `unnorm_softmax`.

    ins(input) outs(output, max, accumulator, scale); `dimension` is reduced.
    """

    dimension = prop_def(IntegerAttr[I64])

    assembly_format = (
        f"attr-dict `dimension` `(` $dimension `)` {INS} {OUTS} (`:` type($res)^)?"
    )

    def get_iterator_types(self) -> ArrayAttr[IteratorTypeAttr]:
        """The input's loops; `dimension` is a reduction."""
        return input_loops(self, (self.dimension.value.data,))

    def get_indexing_maps(self) -> ArrayAttr[AffineMapAttr]:
        """input and output: identity; max, accumulator, scale: without
        `dimension`."""
        rank = rank_of_value(self.inputs[0])
        dimension = self.dimension.value.data
        identity = AffineMap.identity(rank)
        reduced = AffineMapAttr(
            identity.drop_results([d == dimension for d in range(rank)])
        )
        whole = AffineMapAttr(identity)
        return ArrayAttr((whole, whole, reduced, reduced, reduced))

    def __init__(
        self,
        input: SSAValue,
        outputs: Sequence[SSAValue],
        dimension: int,
        attributes: Mapping[str, Attribute] | None = None,
    ):
        super().__init__(
            [input],
            outputs,
            properties={"dimension": IntegerAttr(dimension, 64)},
            attributes=attributes,
        )

    def verify_operands(self) -> None:
        expect_count(self, "input", len(self.inputs), (1,), "input")
        expect_count(
            self, "output", len(self.outputs), (4,), "output, max, accumulator, scale"
        )
        input_type = self.inputs[0].type
        assert isinstance(input_type, ShapedType)
        expect_rank_at_least(self, "input", input_type, 1)
        expect_float_elements(self, "input", input_type)
        dimension = self.dimension.value.data
        expect_dimension_in_range(self, "dimension", dimension, rank_of(input_type))
        for role, value in zip(
            ("output", "max", "accumulator", "scale"), self.outputs, strict=True
        ):
            assert isinstance(value.type, ShapedType)
            expect_same_element_type(self, role, value.type, "input", input_type)
        output_type = self.outputs[0].type
        assert isinstance(output_type, ShapedType)
        shape = expect_shape(self, "output", output_type, shape_of(input_type))
        reduced_shape = drop_dims(shape, [dimension])
        for role, value in zip(
            ("max", "accumulator", "scale"), self.outputs[1:], strict=True
        ):
            assert isinstance(value.type, ShapedType)
            reduced_shape = expect_shape(self, role, value.type, reduced_shape)


@irdl_op_definition
class SoftmaxOp(SoftmaxLikeOp):
    """Softmax along `dimension`, continuing from running max/sum inits.

    With m0 = max init, a0 = accumulator init, x = input:
    max = max(m0, max_d x); acc = a0·exp(m0 − max) + Σ_d exp(x − max);
    output = exp(x − max) / acc; scale = a0·exp(m0 − max) / acc.
    """

    name = "linalg_ext.softmax"


@irdl_op_definition
class UnnormSoftmaxOp(SoftmaxLikeOp):
    """Unnormalised softmax: like `softmax`, without the division.

    max and accumulator as for softmax; output = exp(x − max);
    scale = exp(m0 − max).
    """

    name = "linalg_ext.unnorm_softmax"
