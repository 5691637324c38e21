"""`transform.structured.shared_output_to_distributed_style` (ByteIR's op and
syntax; its interpreter function is in `distribution_functions`):

    %new_loop, %new_init = transform.structured.shared_output_to_distributed_style
        %loop, %init, %merge

`%loop`, `%init` and `%merge` are the `scf.forall`, the `linalg.fill` and the
merging op that `tile_reduction_using_forall` makes of a reduction (one
payload op each, or as many of each, taken in order): each iteration of the
loop reduces its part into its own column of a shared partial tensor, and
the merge reduces the columns. The op gives each iteration the whole
result instead (a fresh fill of the result's shape: its own, distributed,
output), combines the iterations' partial results with `ccl.all_reduce`
inside the loop, merges the combined value into the original output there,
and writes it whole. Results: the new loop and the new fill.

Written without types, as ByteIR's tests write it; the results have the
type of `%loop` (`!pdl.operation` in ByteIR's scripts).
"""

from __future__ import annotations

from typing import Self

from xdsl.irdl import IRDLOperation, irdl_op_definition, operand_def, result_def
from xdsl.parser import Parser
from xdsl.printer import Printer

from linalg_ext.transform_ops.definitions import ANY_HANDLE, handle_type_or_pdl


@irdl_op_definition
class SharedOutputToDistributedStyleOp(IRDLOperation):
    """`transform.structured.shared_output_to_distributed_style %loop, %init,
    %merge` (see the module docstring)."""

    name = "transform.structured.shared_output_to_distributed_style"

    loop = operand_def(ANY_HANDLE)
    init = operand_def(ANY_HANDLE)
    merge = operand_def(ANY_HANDLE)

    new_loop = result_def(ANY_HANDLE)
    new_init = result_def(ANY_HANDLE)

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        unresolved = [parser.parse_unresolved_operand()]
        for _ in range(2):
            parser.parse_punctuation(",")
            unresolved.append(parser.parse_unresolved_operand())
        attributes = parser.parse_optional_attr_dict()
        operands = [
            parser.resolve_operand(o, handle_type_or_pdl(parser, o)) for o in unresolved
        ]
        return cls.create(
            operands=operands,
            result_types=[operands[0].type] * 2,
            attributes=dict(attributes),
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list(self.operands, printer.print_ssa_value)
        if self.attributes:
            printer.print_op_attributes(self.attributes)


DISTRIBUTION_TRANSFORM_OPS: tuple[type[IRDLOperation], ...] = (
    SharedOutputToDistributedStyleOp,
)
"""The ops of this module, for `TRANSFORM_OPS`."""
