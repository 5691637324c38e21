"""The few `shape` dialect ops upstream's Linalg tests use; xDSL 0.74 has no
`shape` dialect.

Only extent tensors (`tensor<?xindex>`, `tensor<Nxindex>`) are supported as
shapes; upstream's `!shape.shape` type, and the ops on it, are not.

- `shape.shape_of %t : tensor<?x4xf32> -> tensor<2xindex>`: the extents of
  a tensor or memref (ranked or not). The result is a 1-D tensor of index
  whose static size, if any, is the operand's rank.
- `shape.to_extent_tensor %s : tensor<?xindex> -> tensor<2xindex>`: the same
  extents as a tensor of index of another (static) type; upstream checks no
  sizes here, the interpreter checks them at run time.
- `shape.const_shape [1, 2] : tensor<2xindex>`: constant extents.

The verifiers use upstream's messages; the interpreter functions are in
`linalg_ext/semantics/compat_ops.py`.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    IndexType,
    MemRefType,
    TensorType,
    UnrankedMemRefType,
    UnrankedTensorType,
)
from xdsl.ir import Attribute, Dialect, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.hints import isa

from linalg_ext.verification import op_error

SHAPED = TensorType | MemRefType | UnrankedTensorType | UnrankedMemRefType


def is_extent_tensor(type_: Attribute) -> bool:
    """`tensor<?xindex>` or `tensor<Nxindex>`."""
    return (
        isa(type_, TensorType)
        and type_.get_num_dims() == 1
        and isinstance(type_.get_element_type(), IndexType)
    )


def extent_tensor_type(rank: int) -> TensorType[IndexType]:
    return TensorType(IndexType(), [rank])


def _parse_unary(parser: Parser) -> tuple[SSAValue, Attribute, dict[str, Attribute]]:
    """`%x attr-dict : T1 -> T2`: the operand, the result type, attributes."""
    operand = parser.parse_unresolved_operand()
    attributes = parser.parse_optional_attr_dict()
    parser.parse_punctuation(":")
    operand_type = parser.parse_type()
    parser.parse_punctuation("->")
    result_type = parser.parse_type()
    return parser.resolve_operand(operand, operand_type), result_type, attributes


def _print_unary(
    printer: Printer, op: IRDLOperation, operand: SSAValue, result: SSAValue
) -> None:
    printer.print_string(" ")
    printer.print_operand(operand)
    printer.print_op_attributes(op.attributes)
    printer.print_string(" : ")
    printer.print_attribute(operand.type)
    printer.print_string(" -> ")
    printer.print_attribute(result.type)


@irdl_op_definition
class ShapeOfOp(IRDLOperation):
    """The extents of a shaped value, as a 1-D tensor of index.

    See external [documentation](https://mlir.llvm.org/docs/Dialects/ShapeDialect/#shapeshape_of-shapeshapeofop).
    """

    name = "shape.shape_of"

    arg = operand_def(SHAPED)
    result = result_def(TensorType)

    def __init__(
        self,
        arg: SSAValue,
        result_type: Attribute | None = None,
        attributes: dict[str, Attribute] | None = None,
    ):
        if result_type is None:
            arg_type = arg.type
            rank = arg_type.get_num_dims() if isa(arg_type, TensorType) else -1
            result_type = TensorType(IndexType(), [rank])
        super().__init__(
            operands=[arg], result_types=[result_type], attributes=attributes
        )

    def verify_(self) -> None:
        result_type = self.result.type
        if not is_extent_tensor(result_type):
            op_error(
                self,
                f"result #0 must be shape or extent tensor, but got '{result_type}'",
            )
        arg_type = self.arg.type
        if not isa(arg_type, TensorType | MemRefType):
            return  # unranked: any number of extents
        assert isa(result_type, TensorType)
        size = result_type.get_shape()[0]
        if size >= 0 and size != arg_type.get_num_dims():
            op_error(
                self,
                f"inferred type(s) '{extent_tensor_type(arg_type.get_num_dims())}' "
                f"are incompatible with return type(s) of operation '{result_type}'",
            )

    @classmethod
    def parse(cls, parser: Parser) -> ShapeOfOp:
        arg, result_type, attributes = _parse_unary(parser)
        return cls(arg, result_type, attributes)

    def print(self, printer: Printer) -> None:
        _print_unary(printer, self, self.arg, self.result)


@irdl_op_definition
class ToExtentTensorOp(IRDLOperation):
    """An extent tensor as a tensor of index of the given type.

    See external [documentation](https://mlir.llvm.org/docs/Dialects/ShapeDialect/#shapeto_extent_tensor-shapetoextenttensorop).
    """

    name = "shape.to_extent_tensor"

    input = operand_def(TensorType)
    result = result_def(TensorType)

    def __init__(
        self,
        input: SSAValue,
        result_type: Attribute,
        attributes: dict[str, Attribute] | None = None,
    ):
        super().__init__(
            operands=[input], result_types=[result_type], attributes=attributes
        )

    def verify_(self) -> None:
        if not is_extent_tensor(self.input.type):
            op_error(
                self,
                "operand #0 must be shape or extent tensor, but got "
                f"'{self.input.type}'",
            )
        result_type = self.result.type
        if not (
            isa(result_type, TensorType)
            and isinstance(result_type.get_element_type(), IndexType)
        ):
            op_error(
                self,
                f"result #0 must be tensor of index values, but got '{result_type}'",
            )

    @classmethod
    def parse(cls, parser: Parser) -> ToExtentTensorOp:
        input, result_type, attributes = _parse_unary(parser)
        return cls(input, result_type, attributes)

    def print(self, printer: Printer) -> None:
        _print_unary(printer, self, self.input, self.result)


@irdl_op_definition
class ConstShapeOp(IRDLOperation):
    """Constant extents, as a 1-D tensor of index.

    See external [documentation](https://mlir.llvm.org/docs/Dialects/ShapeDialect/#shapeconst_shape-shapeconstshapeop).
    """

    name = "shape.const_shape"

    shape = prop_def(DenseIntOrFPElementsAttr[IndexType])
    result = result_def(TensorType)

    def __init__(
        self,
        extents: Sequence[int],
        result_type: Attribute | None = None,
        attributes: dict[str, Attribute] | None = None,
    ):
        type_ = extent_tensor_type(len(extents))
        super().__init__(
            properties={"shape": DenseIntOrFPElementsAttr.from_list(type_, extents)},
            result_types=[type_ if result_type is None else result_type],
            attributes=attributes,
        )

    @property
    def extents(self) -> tuple[int, ...]:
        return self.shape.get_values()

    def verify_(self) -> None:
        inferred = extent_tensor_type(len(self.extents))
        if self.result.type != inferred:
            op_error(
                self,
                f"inferred type(s) '{inferred}' are incompatible with return "
                f"type(s) of operation '{self.result.type}'",
            )

    @classmethod
    def parse(cls, parser: Parser) -> ConstShapeOp:
        """`attr-dict [e0, e1, ...] : type`."""
        attributes = parser.parse_optional_attr_dict()
        extents = parser.parse_comma_separated_list(
            Parser.Delimiter.SQUARE, parser.parse_integer
        )
        parser.parse_punctuation(":")
        return cls(extents, parser.parse_type(), attributes)

    def print(self, printer: Printer) -> None:
        printer.print_op_attributes(self.attributes)
        printer.print_string(" [")
        printer.print_list(self.extents, lambda e: printer.print_string(str(e)))
        printer.print_string("] : ")
        printer.print_attribute(self.result.type)


Shape = Dialect("shape", [ShapeOfOp, ToExtentTensorOp, ConstShapeOp])
"""The `shape` dialect as far as upstream's Linalg tests use it."""
