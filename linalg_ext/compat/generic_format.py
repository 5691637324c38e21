"""`linalg.generic`'s custom syntax as MLIR 22 reads and prints it.

xDSL 0.74's own parser and printer for `linalg.generic` fall short of
upstream in three ways, each of which loses IR:

- It prints several results as `-> (T1, T2)` but reads the types after `->`
  as a bare list, so it cannot read its own output back.
- Attributes other than the op's own (`indexing_maps`, `iterator_types`,
  `doc`, `library_call`) written in the leading dictionary are dropped, while
  MLIR keeps them as discardable attributes (printed after `attrs =`).
- A leading dictionary entry of the wrong kind is an `assert`, not a parse
  error.
- The leading dictionary may be an attribute alias (`#trait = {indexing_maps
  = [...], iterator_types = [...]}` at the top of the file, then
  `linalg.generic #trait ins(...)`), as upstream's and ByteIR's tests write
  it; xDSL 0.74 reads only a literal `{...}`. The op prints the dictionary
  written out, as MLIR does.

`install_generic_format` swaps in the functions below as
`GenericOp.parse`/`GenericOp.print`. The class itself stays xDSL's, so every
`linalg.generic` (parsed, or built by a pass) prints the same way.
"""

from __future__ import annotations

from xdsl.dialects.builtin import (
    AffineMapAttr,
    ArrayAttr,
    DictionaryAttr,
    StringAttr,
)
from xdsl.dialects.linalg.attrs import IteratorType, IteratorTypeAttr
from xdsl.dialects.linalg.ops import GenericOp
from xdsl.ir import Attribute
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.mlir_lexer import MLIRTokenKind

from linalg_ext.assembly import (
    parse_optional_operand_group,
    print_operand_group,
)
from linalg_ext.compat.syntax import (
    parse_optional_result_types,
    print_result_types,
    sorted_attributes,
)

GENERIC_PROPERTY_NAMES = ("doc", "indexing_maps", "iterator_types", "library_call")
"""The op's own attributes, in the (sorted) order MLIR prints them."""


def _iterator_type(parser: Parser, entry: Attribute) -> IteratorTypeAttr:
    if isinstance(entry, IteratorTypeAttr):
        return entry
    if isinstance(entry, StringAttr) and entry.data in set(IteratorType):
        return IteratorTypeAttr(IteratorType(entry.data))
    parser.raise_error(f"'linalg.generic' unknown iterator type {entry}")


def _parse_leading_dictionary(parser: Parser) -> dict[str, Attribute]:
    """`{...}`, or an alias of a dictionary attribute (`#trait`)."""
    # The parser's private token stream (no public look-ahead).
    token = parser._current_token  # pyright: ignore[reportPrivateUsage]
    if token.kind != MLIRTokenKind.HASH_IDENT:
        return parser.parse_optional_attr_dict()
    start = parser.pos
    alias = parser.parse_attribute()
    if not isinstance(alias, DictionaryAttr):
        parser.raise_error(
            f"'linalg.generic' expects a dictionary attribute, got {alias}",
            start,
            parser.pos,
        )
    return dict(alias.data)


def parse_generic(cls: type[GenericOp], parser: Parser) -> GenericOp:
    """`{maps, iterators, doc?, library_call?, other-attrs?} ins(...)? outs(...)?
    (attrs = {...})? region (-> types)?`."""
    start = parser.pos
    entries = _parse_leading_dictionary(parser)
    end = parser.pos

    def missing(name: str):
        parser.raise_error(f"'linalg.generic' expects {name}", start, end)

    indexing_maps = entries.pop("indexing_maps", None)
    if indexing_maps is None:
        missing("indexing_maps")
    if not (
        isinstance(indexing_maps, ArrayAttr)
        and all(isinstance(m, AffineMapAttr) for m in indexing_maps.data)
    ):
        parser.raise_error(
            "'linalg.generic' expects indexing_maps to be a list of affine maps",
            start,
            end,
        )
    iterator_entries = entries.pop("iterator_types", None)
    if iterator_entries is None:
        missing("iterator_types")
    if not isinstance(iterator_entries, ArrayAttr):
        parser.raise_error(
            "'linalg.generic' expects iterator_types to be a list", start, end
        )
    iterator_types = [_iterator_type(parser, e) for e in iterator_entries.data]
    strings: dict[str, StringAttr | None] = {}
    for name in ("doc", "library_call"):
        value = entries.pop(name, None)
        if value is not None and not isinstance(value, StringAttr):
            parser.raise_error(
                f"'linalg.generic' expects {name} to be a string", start, end
            )
        strings[name] = value
    # What is left of the leading dictionary is discardable, as in MLIR.
    attributes = entries

    inputs = parse_optional_operand_group(parser, "ins") or ()
    outputs = parse_optional_operand_group(parser, "outs") or ()
    if parser.parse_optional_keyword("attrs") is not None:
        parser.parse_punctuation("=")
        attributes |= parser.expect(
            parser.parse_optional_attr_dict, "'linalg.generic' expects attributes"
        )
    body = parser.parse_region()
    result_types = parse_optional_result_types(parser)

    generic = cls(
        inputs,
        outputs,
        body,
        indexing_maps.data,
        iterator_types,
        result_types,
        strings["doc"],
        strings["library_call"],
    )
    generic.attributes |= attributes
    return generic


def print_generic(op: GenericOp, printer: Printer) -> None:
    """As mlir-opt-22 prints it: the op's own attributes sorted by name,
    the others after `attrs = ` (with MLIR's two spaces), and `-> (T1, T2)`
    for several results."""
    own: list[tuple[str, Attribute]] = []
    for name in GENERIC_PROPERTY_NAMES:
        value = op.properties.get(name)
        if value is not None:
            own.append((name, value))
    printer.print_string(" {")

    def print_entry(entry: tuple[str, Attribute]) -> None:
        name, value = entry
        printer.print_string(f"{name} = ")
        if name == "iterator_types" and isinstance(value, ArrayAttr):
            # MLIR spells iterator types as strings in the custom form.
            with printer.in_square_brackets():
                printer.print_list(
                    value.data,
                    lambda it: printer.print_string_literal(_iterator_name(it)),
                )
        else:
            printer.print_attribute(value)

    printer.print_list(own, print_entry)
    printer.print_string("}")
    if op.inputs:
        print_operand_group(printer, "ins", op.inputs)
    if op.outputs:
        print_operand_group(printer, "outs", op.outputs)
    if op.attributes:
        printer.print_string(" attrs = ")
        printer.print_op_attributes(sorted_attributes(op.attributes))
    printer.print_string(" ")
    printer.print_region(op.body)
    print_result_types(printer, op.res.types)


def _iterator_name(iterator_type: Attribute) -> str:
    if isinstance(iterator_type, IteratorTypeAttr):
        return str(iterator_type.data)  # a StrEnum: its value
    return str(iterator_type)


def install_generic_format() -> None:
    """Make `GenericOp` read and print MLIR's syntax (see the module doc)."""
    # Replacing xDSL's methods: pyright holds a class to its declared methods.
    GenericOp.parse = classmethod(parse_generic)  # pyright: ignore[reportAttributeAccessIssue]
    GenericOp.print = print_generic  # pyright: ignore[reportAttributeAccessIssue]
