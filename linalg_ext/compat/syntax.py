"""Pieces of upstream MLIR's textual syntax shared by the compat ops.

Structured ops spell their operands as `ins(%a, %b : T1, T2) outs(%c : T3)`
(those groups live in `linalg_ext.assembly`, shared with the linalg_ext ops)
and their tensor results as `-> T` or `-> (T1, T2)`; MLIR prints attribute
dictionaries sorted by name. These helpers read and write exactly that.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from xdsl.ir import Attribute
from xdsl.parser import Parser
from xdsl.printer import Printer


def parse_optional_result_types(parser: Parser) -> Sequence[Attribute]:
    """`-> T` or `-> (T1, T2)`; no arrow means no results."""
    if parser.parse_optional_punctuation("->") is None:
        return ()
    types = parser.parse_optional_comma_separated_list(
        Parser.Delimiter.PAREN, parser.parse_type
    )
    return (parser.parse_type(),) if types is None else types


def print_result_types(printer: Printer, types: Sequence[Attribute]) -> None:
    """` -> T` for one result, ` -> (T1, T2)` for more, nothing for none."""
    if not types:
        return
    printer.print_string(" -> ")
    if len(types) == 1:
        printer.print_attribute(types[0])
        return
    with printer.in_parens():
        printer.print_list(types, printer.print_attribute)


def sorted_attributes(attributes: Mapping[str, Attribute]) -> dict[str, Attribute]:
    """The entries in MLIR's order: a dictionary attribute is sorted by name."""
    return dict(sorted(attributes.items()))


def split_properties(
    entries: Mapping[str, Attribute], property_names: Iterable[str]
) -> tuple[dict[str, Attribute], dict[str, Attribute]]:
    """An attribute dictionary as MLIR reads it for an op: entries named like
    one of its properties set that property, the others stay attributes."""
    names = set(property_names)
    properties = {k: v for k, v in entries.items() if k in names}
    attributes = {k: v for k, v in entries.items() if k not in names}
    return properties, attributes
