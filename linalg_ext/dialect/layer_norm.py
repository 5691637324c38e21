"""`linalg_ext.layer_norm`: normalisation over some axes, with optional statistics."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from xdsl.dialects.builtin import (
    I64,
    ArrayAttr,
    Float64Type,
    FloatAttr,
    IntegerAttr,
    ShapedType,
)
from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import irdl_op_definition, prop_def

from linalg_ext.assembly import I64ArrayList, MlirF64
from linalg_ext.dialect.destination_style import INS, OUTS, LinalgExtDpsOp, input_loops
from linalg_ext.dialect.verifiers import (
    expect_count,
    expect_dimension_in_range,
    expect_float_elements,
    expect_same_element_type,
    expect_shape,
)
from linalg_ext.shaped import drop_dims, rank_of, shape_of
from linalg_ext.verification import op_error


@irdl_op_definition
class LayerNormOp(LinalgExtDpsOp):
    """Layer normalisation over the `axis` dimensions.

    ins(input [, weight, bias]) outs(output [, mean, rstd]);
    output = (x − mean) · rstd · weight + bias with the biased variance and
    rstd = 1 / sqrt(var + epsilon).
    """

    name = "linalg_ext.layer_norm"

    axis = prop_def(ArrayAttr[IntegerAttr[I64]])
    epsilon = prop_def(FloatAttr[Float64Type])

    def get_iterator_types(self) -> ArrayAttr[IteratorTypeAttr]:
        """The input's loops; the `axis` dimensions are reductions."""
        axes = tuple(a.value.data for a in self.axis)
        return input_loops(self, axes)

    custom_directives = (I64ArrayList, MlirF64)
    assembly_format = (
        "attr-dict `axis` `(` custom<I64ArrayList>($axis) `)` "
        f"`epsilon` `(` custom<MlirF64>($epsilon) `)` {INS} {OUTS} "
        "(`:` type($res)^)?"
    )

    def __init__(
        self,
        inputs: Sequence[SSAValue],
        outputs: Sequence[SSAValue],
        axis: Sequence[int],
        epsilon: float,
        attributes: Mapping[str, Attribute] | None = None,
    ):
        super().__init__(
            inputs,
            outputs,
            properties={
                "axis": ArrayAttr(IntegerAttr(a, 64) for a in axis),
                "epsilon": FloatAttr(epsilon, Float64Type()),
            },
            attributes=attributes,
        )

    @property
    def axis_values(self) -> tuple[int, ...]:
        return tuple(a.value.data for a in self.axis.data)

    def verify_operands(self) -> None:
        expect_count(self, "input", len(self.inputs), (1, 3), "input, weight, bias")
        expect_count(self, "output", len(self.outputs), (1, 3), "output, mean, rstd")
        input_type = self.inputs[0].type
        assert isinstance(input_type, ShapedType)
        expect_float_elements(self, "input", input_type)
        rank = rank_of(input_type)
        axis = self.axis_values
        if not axis:
            op_error(self, "expected at least one axis")
        for a in axis:
            expect_dimension_in_range(self, "axis", a, rank)
        if list(axis) != sorted(set(axis)):
            op_error(self, f"expected axis to be strictly increasing, got {list(axis)}")
        epsilon = self.epsilon.value.data
        if not epsilon >= 0.0 or epsilon == float("inf"):
            op_error(self, f"expected epsilon to be finite and >= 0, got {epsilon}")
        operand_types = [v.type for v in (*self.inputs, *self.outputs)]
        roles = ("input", "weight", "bias")[: len(self.inputs)]
        roles += ("output", "mean", "rstd")[: len(self.outputs)]
        for role, type_ in zip(roles[1:], operand_types[1:], strict=True):
            assert isinstance(type_, ShapedType)
            expect_same_element_type(self, role, type_, "input", input_type)
        output_type = self.outputs[0].type
        assert isinstance(output_type, ShapedType)
        shape = expect_shape(self, "output", output_type, shape_of(input_type))
        if len(self.inputs) == 3:
            normalized_shape = tuple(shape[a] for a in axis)
            for role, value in zip(("weight", "bias"), self.inputs[1:], strict=True):
                assert isinstance(value.type, ShapedType)
                normalized_shape = expect_shape(
                    self, role, value.type, normalized_shape
                )
        if len(self.outputs) == 3:
            statistics_shape = drop_dims(shape, axis)
            for role, value in zip(("mean", "rstd"), self.outputs[1:], strict=True):
                assert isinstance(value.type, ShapedType)
                statistics_shape = expect_shape(
                    self, role, value.type, statistics_shape
                )
