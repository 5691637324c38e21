"""Custom assembly-format directives shared by the project's ops.

Only what xDSL's declarative format cannot say on its own lives here.
"""

from __future__ import annotations

from xdsl.dialects.builtin import I64, ArrayAttr, IntegerAttr, i64
from xdsl.irdl.declarative_assembly_format import (
    AttributeVariable,
    CustomDirective,
    IRDLOperation,
    ParsingState,
    PrintingState,
    irdl_custom_directive,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.hints import isa


@irdl_custom_directive
class I64ArrayList(CustomDirective):
    """An `I64ArrayAttr` spelled as MLIR prints it, `[2, 3]`, without `: i64`.

    xDSL prints each element of an `ArrayAttr` with its type (`[2 : i64]`);
    MLIR elides the default integer type, and ByteIR's IR is written that way.
    """

    values: AttributeVariable

    def parse(self, parser: Parser, state: ParsingState) -> None:
        def parse_element() -> int:
            value = parser.parse_integer(allow_boolean=False)
            # MLIR also accepts the element type spelled out, `[2 : i64]`.
            if parser.parse_optional_punctuation(":") is not None:
                pos = parser.pos
                if parser.parse_type() != i64:
                    parser.raise_error("expected i64 elements", pos, parser.pos)
            return value

        ints = parser.parse_comma_separated_list(Parser.Delimiter.SQUARE, parse_element)
        self.values.set(state, ArrayAttr(IntegerAttr(v, 64) for v in ints))

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        state.print_whitespace(printer)
        attr = self.values.get(op)
        if not isa(attr, ArrayAttr[IntegerAttr[I64]]):
            # Only reachable for unverified IR (`--disable-verify`): print it
            # as it is rather than fail.
            assert attr is not None
            printer.print_attribute(attr)
            return
        printer.print_string(
            "[" + ", ".join(str(element.value.data) for element in attr.data) + "]"
        )
