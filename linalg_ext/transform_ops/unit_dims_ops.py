"""ByteIR's `transform.structured.fold_unit_extent_dims`: its definition,
with ByteIR's syntax (its interpreter function is in `unit_dims_functions`).

    %folded = transform.structured.fold_unit_extent_dims %generics

Printed without types, as ByteIR prints it (its handles are
`!pdl.operation`): the result has the type of the target handle, which
must be defined before the op. Each target must be a `linalg.generic`; it
is replaced by the generic without its unit-extent loops and dimensions
(`linalg_ext.transforms.unit_dims`, the rewriting of
`linalg-fold-unit-extent-dims`, operands collapsed and results expanded
back), and the result holds the new generics (a target with nothing to
drop stands for itself). Only the targets are replaced: unlike the pass,
an init made by `tensor.empty` or `linalg.fill` is collapsed as it is, and
the reshapes between two rewritten generics stay.

ByteIR's op only drops the operand dimensions of extent 1 that a map reads
as the constant 0 (broadcast dimensions), and keeps every loop; it builds
`tensor.collapse_shape` on memref operands too (invalid IR). Here unit
loops are dropped as well (what the op's name and upstream's pass promise),
and memrefs are collapsed with `memref.collapse_shape`.
"""

from __future__ import annotations

from typing import Self

from xdsl.ir import SSAValue
from xdsl.irdl import IRDLOperation, irdl_op_definition, operand_def, result_def
from xdsl.parser import Parser
from xdsl.printer import Printer

from linalg_ext.transform_ops.definitions import ANY_HANDLE, defined_handle_type


@irdl_op_definition
class FoldUnitExtentDimsOp(IRDLOperation):
    """`transform.structured.fold_unit_extent_dims %target`: drop the
    unit-extent loops and dimensions of each target `linalg.generic`;
    returns the new generics (ByteIR's op and syntax)."""

    name = "transform.structured.fold_unit_extent_dims"

    target = operand_def(ANY_HANDLE)

    transformed = result_def(ANY_HANDLE)

    def __init__(self, target: SSAValue):
        super().__init__(operands=[target], result_types=[target.type])

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        unresolved = parser.parse_unresolved_operand()
        handle_type = defined_handle_type(parser, unresolved, "the result's type")
        target = parser.resolve_operand(unresolved, handle_type)
        attributes = parser.parse_optional_attr_dict()
        return cls.create(
            operands=[target], attributes=attributes, result_types=[handle_type]
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_ssa_value(self.target)
        printer.print_op_attributes(self.attributes)


UNIT_DIMS_TRANSFORM_OPS: tuple[type[IRDLOperation], ...] = (FoldUnitExtentDimsOp,)
"""The ops of this module, for `TRANSFORM_OPS`."""
