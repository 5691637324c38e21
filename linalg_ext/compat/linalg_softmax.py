"""`linalg.softmax` (MLIR 22), which xDSL 0.74 lacks.

    linalg.softmax attr-dict? dimension(1) ins(%x : T) outs(%o : T) (-> T)?

The generic form has the `dimension` property, the input and the output,
no region, and a result when the output is a tensor. The verifier applies
MLIR's rules (and words them as MLIR does): the dimension is one of the
input's, the output's shape is compatible with the input's, both have one
element type. Like upstream, a tensor input may be written into a memref
output.
"""

from __future__ import annotations

from typing import Self

from xdsl.dialects.builtin import (
    I64,
    IntegerAttr,
    MemRefType,
    TensorType,
    i64,
)
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    prop_def,
    var_result_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer

from linalg_ext.assembly import parse_optional_operand_group, print_operand_group
from linalg_ext.compat.checks import element_type
from linalg_ext.compat.linalg_ops import TENSOR_OR_MEMREF
from linalg_ext.compat.syntax import (
    parse_optional_result_types,
    print_result_types,
    sorted_attributes,
)
from linalg_ext.shaped import extents_compatible
from linalg_ext.verification import op_error


@irdl_op_definition
class SoftmaxOp(IRDLOperation):
    """Softmax of the input along `dimension`, written to the output:
    `exp(x - max(x)) / sum(exp(x - max(x)))`, the maximum and the sum taken
    over `dimension` (subtracting the maximum keeps `exp` from overflowing;
    the result is the same).

    See external [documentation](https://mlir.llvm.org/docs/Dialects/Linalg/#linalgsoftmax-linalgsoftmaxop).
    """

    name = "linalg.softmax"

    input = operand_def(TENSOR_OR_MEMREF)
    output = operand_def(TENSOR_OR_MEMREF)
    result = var_result_def(TensorType)
    dimension = prop_def(IntegerAttr[I64])

    def __init__(
        self,
        input: SSAValue,
        output: SSAValue,
        dimension: int | IntegerAttr,
        result_types: tuple[Attribute, ...] | None = None,
        attributes: dict[str, Attribute] | None = None,
    ):
        if result_types is None:
            result_types = (output.type,) if isinstance(output.type, TensorType) else ()
        if isinstance(dimension, int):
            dimension = IntegerAttr(dimension, i64)
        super().__init__(
            operands=[input, output],
            result_types=[result_types],
            properties={"dimension": dimension},
            attributes=attributes,
        )

    @property
    def inputs(self) -> tuple[SSAValue]:
        return (self.input,)

    @property
    def outputs(self) -> tuple[SSAValue]:
        return (self.output,)

    def reads_output(self, index: int) -> bool:
        """The output's old elements are never read (for bufferization)."""
        return False

    def verify_(self) -> None:
        input_type, output_type = self.input.type, self.output.type
        assert isinstance(input_type, TensorType | MemRefType)
        assert isinstance(output_type, TensorType | MemRefType)
        if element_type(input_type) != element_type(output_type):
            op_error(
                self, "failed to verify that input and output have same element type"
            )
        input_shape, output_shape = input_type.get_shape(), output_type.get_shape()
        if len(input_shape) != len(output_shape) or not all(
            extents_compatible(a, b)
            for a, b in zip(input_shape, output_shape, strict=True)
        ):
            op_error(self, "incompatible output shape")
        if not 0 <= self.dimension.value.data < len(input_shape):
            op_error(self, "incorrect dimension specified")
        expected = [output_type] if isinstance(output_type, TensorType) else []
        if len(self.result) != len(expected):
            op_error(
                self,
                f"expected {len(expected)} result(s) for a "
                f"{'tensor' if expected else 'memref'} output, got "
                f"{len(self.result)}",
            )
        for result, type_ in zip(self.result, expected, strict=True):
            if result.type != type_:
                op_error(
                    self,
                    f"expected type of operand #1 ('{type_}') to match type of "
                    f"corresponding result ('{result.type}')",
                )

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        start = parser.pos
        attributes = parser.parse_optional_attr_dict()
        parser.parse_keyword("dimension")
        dimension = _parse_dimension(parser)
        operands = []
        for keyword in ("ins", "outs"):
            values = parse_optional_operand_group(parser, keyword)
            if values is None or len(values) != 1:
                parser.raise_error(
                    f"'linalg.softmax' expects {keyword}(...) with one operand",
                    start,
                    parser.pos,
                )
            operands.append(values[0])
        result_types = tuple(parse_optional_result_types(parser))
        input, output = operands
        return cls(input, output, dimension, result_types, attributes)

    def print(self, printer: Printer) -> None:
        printer.print_op_attributes(sorted_attributes(self.attributes))
        printer.print_string(f" dimension({self.dimension.value.data})")
        print_operand_group(printer, "ins", (self.input,))
        print_operand_group(printer, "outs", (self.output,))
        print_result_types(printer, self.result.types)


def _parse_dimension(parser: Parser) -> int:
    """`(N)`; N may be negative here (the verifier refuses it, as MLIR's)."""
    parser.parse_punctuation("(")
    value = parser.parse_integer(allow_boolean=False)
    parser.parse_punctuation(")")
    return value
