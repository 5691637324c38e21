"""`vector.print` as MLIR 22 writes it; xDSL 0.74's cannot read it.

xDSL's `vector.print` has one required operand and no custom syntax, so
upstream's tests (`vector.print %v : vector<4xf32>`, `vector.print str
"hello\\n"`, `vector.print punctuation <comma>`) do not parse. The compat
`PrintOp` replaces it in the `vector` dialect:

    vector.print (%source `:` type)? (str "literal" | punctuation <p>)? attr-dict

with upstream's properties: `punctuation` (`#vector.punctuation<newline>` by
default: `no_punctuation`, `newline`, `comma`, `open`, `close`) and the
optional `stringLiteral`. A string is printed alone: with a source or a
punctuation other than the default it is refused, in upstream's words.

The interpreter prints as upstream's runtime prints after
`convert-vector-to-llvm` (`linalg_ext/semantics/compat_ops.py`): floats as C's
`%g`, signless integers signed (`i1` as 0 or 1), `index` unsigned, vectors as
`( 1, 2, 3 )` (nested for more dimensions), then the punctuation.
"""

from __future__ import annotations

from xdsl.dialects.builtin import (
    AnyFloat,
    IndexType,
    IntegerType,
    StringAttr,
    VectorType,
)
from xdsl.dialects.utils.enum_attribute import EnumAttribute
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_attr_definition,
    irdl_op_definition,
    opt_operand_def,
    opt_prop_def,
    prop_def,
)
from xdsl.parser import AttrParser, Parser
from xdsl.printer import Printer
from xdsl.utils.str_enum import StrEnum

from linalg_ext.verification import op_error


class PrintPunctuation(StrEnum):
    """What `vector.print` prints after its value (or alone)."""

    NO_PUNCTUATION = "no_punctuation"
    NEWLINE = "newline"
    COMMA = "comma"
    OPEN = "open"
    CLOSE = "close"


PUNCTUATION_TEXT = {
    PrintPunctuation.NO_PUNCTUATION: "",
    PrintPunctuation.NEWLINE: "\n",
    PrintPunctuation.COMMA: ", ",
    PrintPunctuation.OPEN: "( ",
    PrintPunctuation.CLOSE: " )",
}
"""What upstream's runtime (`printNewline`, `printComma`, ...) writes."""


@irdl_attr_definition
class PrintPunctuationAttr(EnumAttribute[PrintPunctuation]):
    """`#vector.punctuation<comma>`."""

    name = "vector.punctuation"

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> PrintPunctuation:
        with parser.in_angle_brackets():
            return super().parse_parameter(parser)

    def print_parameter(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            super().print_parameter(printer)


NEWLINE = PrintPunctuationAttr(PrintPunctuation.NEWLINE)


def is_printable_type(type_: Attribute) -> bool:
    """Upstream's print types: a vector (any rank), index, integer, float."""
    return isinstance(type_, VectorType | IndexType | IntegerType | AnyFloat)


@irdl_op_definition
class PrintOp(IRDLOperation):
    """Print a value (scalar or vector), a string, or a punctuation.

    See external [documentation](https://mlir.llvm.org/docs/Dialects/Vector/#vectorprint-vectorprintop).
    """

    name = "vector.print"

    source = opt_operand_def()
    punctuation = prop_def(PrintPunctuationAttr, NEWLINE)
    string_literal = opt_prop_def(StringAttr, prop_name="stringLiteral")

    def __init__(
        self,
        source: SSAValue | None = None,
        punctuation: PrintPunctuation = PrintPunctuation.NEWLINE,
        string_literal: str | None = None,
        attributes: dict[str, Attribute] | None = None,
    ):
        properties: dict[str, Attribute] = {
            "punctuation": PrintPunctuationAttr(punctuation)
        }
        if string_literal is not None:
            properties["stringLiteral"] = StringAttr(string_literal)
        super().__init__(
            operands=[[source] if source is not None else []],
            properties=properties,
            attributes=attributes,
        )

    def verify_(self) -> None:
        if self.source is not None and not is_printable_type(self.source.type):
            op_error(
                self,
                "operand #0 must be a vector, an index, an integer or a float, "
                f"but got '{self.source.type}'",
            )
        if self.string_literal is not None and (
            self.source is not None or self.punctuation != NEWLINE
        ):
            op_error(
                self,
                "failed to verify that `source` or `punctuation` are not set "
                "when printing strings",
            )

    @classmethod
    def parse(cls, parser: Parser) -> PrintOp:
        source = None
        operand = parser.parse_optional_unresolved_operand()
        if operand is not None:
            parser.parse_punctuation(":")
            source = parser.resolve_operand(operand, parser.parse_type())
        punctuation = PrintPunctuation.NEWLINE
        string_literal = None
        # `str` and `punctuation` in any order, each at most once.
        for _ in range(2):
            if string_literal is None and parser.parse_optional_keyword("str"):
                string_literal = parser.parse_str_literal()
            elif (
                punctuation == PrintPunctuation.NEWLINE
                and parser.parse_optional_keyword("punctuation") is not None
            ):
                punctuation = PrintPunctuationAttr.parse_parameter(parser)
        attributes = parser.parse_optional_attr_dict()
        return cls(source, punctuation, string_literal, attributes)

    def print(self, printer: Printer) -> None:
        if self.source is not None:
            printer.print_string(" ")
            printer.print_operand(self.source)
            printer.print_string(" : ")
            printer.print_attribute(self.source.type)
        if self.string_literal is not None:
            printer.print_string(" str ")
            printer.print_string_literal(self.string_literal.data)
        if self.punctuation != NEWLINE:
            printer.print_string(" punctuation ")
            self.punctuation.print_parameter(printer)
        printer.print_op_attributes(self.attributes)
