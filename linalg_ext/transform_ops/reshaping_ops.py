"""ByteIR's transform ops that reshape what Linalg ops compute on:
`transform.structured.collapse_dims`, `transform.structured.detensorize`
and `transform.structured.insert_slice_to_copy_ext` (the definitions, with
ByteIR's syntax; their interpreter functions are in `reshaping_functions`).

    %collapsed = transform.structured.collapse_dims %generic [[0], [1, 2]]
    transform.structured.detensorize %ops
    %copy = transform.structured.insert_slice_to_copy_ext %insert
        : (!transform.any_op) -> !transform.any_op

`collapse_dims` and `detensorize` print no types, as ByteIR prints them
(its operands are `!pdl.operation`): the result has the type of the target
handle, which must be defined before the op (always so in a script).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Self

from xdsl.dialects.builtin import ArrayAttr, IntegerAttr, IntegerType, i64
from xdsl.ir import SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer

from linalg_ext.transform_ops.definitions import ANY_HANDLE, defined_handle_type

Reassociation = ArrayAttr[ArrayAttr[IntegerAttr[IntegerType]]]


def reassociation_attr(groups: Sequence[Sequence[int]]) -> Reassociation:
    """`[[0], [1, 2]]` as ByteIR's `IndexListArrayAttr` holds it."""
    return ArrayAttr(
        [ArrayAttr([IntegerAttr(d, i64) for d in group]) for group in groups]
    )


@irdl_op_definition
class CollapseDimsOp(IRDLOperation):
    """`transform.structured.collapse_dims %target [[0], [1, 2]]`: merge the
    loops of each target `linalg.generic` group by group, the operands
    collapsed and the results expanded back; returns the new generics
    (ByteIR's op and syntax). Loops no group names stay alone."""

    name = "transform.structured.collapse_dims"

    target = operand_def(ANY_HANDLE)
    reassociation = prop_def(Reassociation)

    transformed = result_def(ANY_HANDLE)

    def __init__(self, target: SSAValue, groups: Sequence[Sequence[int]]):
        super().__init__(
            operands=[target],
            properties={"reassociation": reassociation_attr(groups)},
            result_types=[target.type],
        )

    def groups(self) -> list[list[int]]:
        """The reassociation as lists of loop numbers."""
        return [[e.value.data for e in group.data] for group in self.reassociation]

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        unresolved = parser.parse_unresolved_operand()
        handle_type = defined_handle_type(
            parser, unresolved, "the operand's and results' type"
        )
        target = parser.resolve_operand(unresolved, handle_type)
        groups = parser.parse_comma_separated_list(
            Parser.Delimiter.SQUARE,
            lambda: parser.parse_comma_separated_list(
                Parser.Delimiter.SQUARE, parser.parse_integer
            ),
        )
        attributes = parser.parse_optional_attr_dict()
        return cls.create(
            operands=[target],
            properties={"reassociation": reassociation_attr(groups)},
            attributes=attributes,
            result_types=[handle_type],
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_ssa_value(self.target)
        text = ", ".join(
            "[" + ", ".join(str(d) for d in group) + "]" for group in self.groups()
        )
        printer.print_string(f" [{text}]")
        printer.print_op_attributes(self.attributes)


@irdl_op_definition
class DetensorizeOp(IRDLOperation):
    """`transform.structured.detensorize %target`: replace each target, a
    Linalg op without loops on 0-d tensors and scalars, by its body on the
    elements (`tensor.extract`, the body's ops, `tensor.from_elements`);
    no results (ByteIR's op and syntax)."""

    name = "transform.structured.detensorize"

    target = operand_def(ANY_HANDLE)

    def __init__(self, target: SSAValue):
        super().__init__(operands=[target])

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        unresolved = parser.parse_unresolved_operand()
        operand_type = defined_handle_type(parser, unresolved, "the operand's type")
        target = parser.resolve_operand(unresolved, operand_type)
        attributes = parser.parse_optional_attr_dict()
        return cls.create(operands=[target], attributes=attributes)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_ssa_value(self.target)
        printer.print_op_attributes(self.attributes)


@irdl_op_definition
class InsertSliceToCopyExtOp(IRDLOperation):
    """`transform.structured.insert_slice_to_copy_ext %t : (...) -> ...`:
    the source of each target `tensor.insert_slice` (or
    `parallel_insert_slice`) is first copied, by a `linalg.copy`, into the
    slice of the destination it is inserted into; returns the copies
    (ByteIR's op and syntax, upstream's `insert_slice_to_copy` with the
    slice rank-reduced as the inserted source is)."""

    name = "transform.structured.insert_slice_to_copy_ext"

    target = operand_def(ANY_HANDLE)

    transformed = result_def(ANY_HANDLE)

    assembly_format = "$target attr-dict `:` functional-type(operands, results)"

    def __init__(self, target: SSAValue):
        super().__init__(operands=[target], result_types=[target.type])


RESHAPING_TRANSFORM_OPS: tuple[type[IRDLOperation], ...] = (
    CollapseDimsOp,
    DetensorizeOp,
    InsertSliceToCopyExtOp,
)
"""The ops of this module, for `TRANSFORM_OPS`."""
