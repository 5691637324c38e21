"""`affine.max`, which xDSL 0.74's `affine` dialect lacks."""

from __future__ import annotations

from xdsl.dialects.builtin import AffineMapAttr, IndexType
from xdsl.ir import Operation, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.irdl.declarative_assembly_format import (
    AttributeVariable,
    CustomDirective,
    ParsingState,
    PrintingState,
    VariadicOperandVariable,
    irdl_custom_directive,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import Pure

from linalg_ext.verification import op_error


@irdl_custom_directive
class AffineMapApplication(CustomDirective):
    """A map applied to its operands as MLIR spells it, the dimensions in
    parentheses right after the map and the symbols, if any, in brackets:
    `affine_map<(d0)[s0] -> (d0, s0 + 2)>(%i)[%n]`."""

    map: AttributeVariable
    operands: VariadicOperandVariable

    def parse(self, parser: Parser, state: ParsingState) -> None:
        pos = parser.pos
        map_ = parser.parse_attribute()
        if not isinstance(map_, AffineMapAttr):
            parser.raise_error(
                f"'affine.max' expects an affine map, got {map_}", pos, parser.pos
            )
        dims = parser.parse_comma_separated_list(
            Parser.Delimiter.PAREN, parser.parse_unresolved_operand
        )
        symbols = (
            parser.parse_optional_comma_separated_list(
                Parser.Delimiter.SQUARE, parser.parse_unresolved_operand
            )
            or []
        )
        self.map.set(state, map_)
        self.operands.set(state, [*dims, *symbols])

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        state.print_whitespace(printer)
        map_ = self.map.get(op)
        operands = tuple(self.operands.get(op))
        assert isinstance(map_, AffineMapAttr)
        printer.print_attribute(map_)
        num_dims = map_.data.num_dims
        with printer.in_parens():
            printer.print_list(operands[:num_dims], printer.print_ssa_value)
        if operands[num_dims:]:
            with printer.in_square_brackets():
                printer.print_list(operands[num_dims:], printer.print_ssa_value)


@irdl_op_definition
class MaxOp(IRDLOperation):
    """The largest of the results of an affine map applied to index operands
    (dimensions, then symbols). The mirror of `affine.min`.

    See external [documentation](https://mlir.llvm.org/docs/Dialects/Affine/#affinemax-affineaffinemaxop).
    """

    name = "affine.max"

    map = prop_def(AffineMapAttr)
    arguments = var_operand_def(IndexType())
    result = result_def(IndexType())

    traits = traits_def(Pure())

    assembly_format = "custom<AffineMapApplication>($map, $arguments) attr-dict"
    custom_directives = (AffineMapApplication,)

    def __init__(
        self, map_operands: tuple[SSAValue | Operation, ...], map: AffineMapAttr
    ):
        super().__init__(
            operands=[map_operands],
            properties={"map": map},
            result_types=[IndexType()],
        )

    def verify_(self) -> None:
        map_ = self.map.data
        expected = map_.num_dims + map_.num_symbols
        if len(self.arguments) != expected:
            op_error(
                self,
                f"expects {expected} operands ({map_.num_dims} dimension(s) and "
                f"{map_.num_symbols} symbol(s) of its map), got {len(self.arguments)}",
            )
        if not map_.results:
            op_error(self, "expects a map with at least one result")
