"""The short form of `linalg.map` and `linalg.reduce`: `{ payload-op attrs? }`.

MLIR prints a map or reduce whose body is one op applied to the block's
arguments, its one result yielded, as just that op's name (and attributes) in
braces in front of `ins`. xDSL 0.74 reads the short form of neither op (see
`linalg_ops` and `linalg_reduce`); both read and print it through the helpers
here, which differ only in which block arguments the payload takes (map: the
inputs' elements; reduce: the init's element first, then the inputs').
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from xdsl.dialects import arith
from xdsl.dialects.linalg.ops import YieldOp
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.irdl import IRDLOperation
from xdsl.parser import Parser
from xdsl.printer import Printer

from linalg_ext.compat.checks import element_type
from linalg_ext.compat.syntax import sorted_attributes, split_properties

PayloadOperands = Callable[[Block], Sequence[SSAValue]]
"""Which block arguments the payload op takes, in order."""


@dataclass(frozen=True)
class ShortFormPayload:
    """`{ name attrs }` as read, before the operands it applies to are known."""

    name: str
    entries: dict[str, Attribute]
    name_pos: int


def parse_optional_short_form(parser: Parser, op_name: str) -> ShortFormPayload | None:
    """`{ payload-op attr-dict? }`, if the op is written in the short form."""
    if parser.parse_optional_punctuation("{") is None:
        return None
    name_pos = parser.pos
    name = parser.parse_identifier(f" (the payload op of {op_name})")
    payload = ShortFormPayload(name, parser.parse_optional_attr_dict(), name_pos)
    parser.parse_punctuation("}")
    return payload


def build_short_form_region(
    parser: Parser,
    op_name: str,
    payload: ShortFormPayload,
    operands: Sequence[SSAValue],
    payload_operands: PayloadOperands,
    result_type: Attribute,
) -> Region:
    """The body the short form stands for: one block argument per element of
    `operands`, the payload op applied to `payload_operands(block)`, its one
    result (of `result_type`) yielded."""
    op_type = parser.ctx.get_optional_op(payload.name)
    if op_type is None:
        parser.raise_error(
            f"unknown operation '{payload.name}' in the short form of {op_name}",
            payload.name_pos,
            payload.name_pos + len(payload.name),
        )
    property_names = (
        op_type.get_irdl_definition().properties
        if issubclass(op_type, IRDLOperation)
        else ()
    )
    properties, attributes = split_properties(payload.entries, property_names)
    block = Block(arg_types=[element_type(v.type) for v in operands])
    payload_op = op_type.create(
        operands=payload_operands(block),
        result_types=[result_type],
        properties=properties,
        attributes=attributes,
    )
    block.add_ops([payload_op, YieldOp(payload_op.results[0])])
    return Region(block)


def short_form_payload(
    region: Region, payload_operands: PayloadOperands
) -> Operation | None:
    """The one op of the body if MLIR prints it in the short form: it takes
    `payload_operands(block)`, has one result and no regions, and the body
    yields exactly that result."""
    block = region.block
    payload, terminator = block.first_op, block.last_op
    if payload is None or payload.next_op is not terminator:
        return None
    if not isinstance(terminator, YieldOp) or len(payload.results) != 1:
        return None
    if tuple(terminator.arguments) != tuple(payload.results):
        return None
    if payload.regions or payload.successors:
        return None
    if not payload.operands or tuple(payload.operands) != tuple(
        payload_operands(block)
    ):
        return None
    return payload


def print_short_form(printer: Printer, payload: Operation) -> None:
    """` { name attrs }`; MLIR leaves out the first fastmath flags that are
    `none` (and only those: other defaults, like `overflowFlags`, stay)."""
    printer.print_string(f" {{ {payload.name}")
    entries = sorted_attributes({**payload.properties, **payload.attributes})
    for name, value in entries.items():
        if isinstance(value, arith.FastMathFlagsAttr):
            if value == arith.FastMathFlagsAttr("none"):
                del entries[name]
            break
    if entries:
        printer.print_string(" ")
        printer.print_attr_dict(entries)
    printer.print_string(" }")
