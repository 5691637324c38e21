"""`rtcheck.assert`: a run-time check that carries the interpreter's message.

Compiled code must refuse what the interpreter refuses (an index out of
bounds, extents that disagree, a division by zero, a loop step that is not
positive), with the same message. Upstream's `cf.assert` carries a fixed
string; the interpreter's messages name the values involved, so this op
carries a message template with one `{}` per value, formatted only when the
check fails:

    rtcheck.assert %ok, "memref.load: index [{}] is out of bounds of shape ({},)"
        (%i, %n : index, index)

(one line in the IR).

The interpreter raises an `InterpretationError` with the formatted message
when `%in_bounds` is false; `linalg_ext.jit` lowers the op to a branch to a
failure call that ends the compiled call and raises `JitError` with the same
text. Values are formatted as signed 64-bit integers.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import IndexType, IntegerType, StringAttr, i1
from xdsl.ir import Dialect, Operation, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    prop_def,
    var_operand_def,
)

from linalg_ext.verification import op_error

ORIGIN = "rtcheck.origin"
"""A discardable attribute naming the op whose interpreter message a failed
run-time check of the marked op gives: one-shot-bufferize puts it on the
loads, stores, subviews, expansions, casts and copies it makes from tensor
ops (`rtcheck.origin = "tensor.extract"`), and `insert-runtime-checks`
reports under that name ("tensor.extract: index [5] ..." rather than
"memref.load: index [5] ..."), as the interpreter does for the marked op."""


def reported_name(op: Operation) -> str:
    """The op name the failures of `op` give: its `ORIGIN` if it has one
    (the tensor op it was bufferized from), else its own."""
    origin = op.attributes.get(ORIGIN)
    return origin.data if isinstance(origin, StringAttr) else op.name


@irdl_op_definition
class RuntimeAssertOp(IRDLOperation):
    """Fail the run with `message.format(*values)` when `condition` is false."""

    name = "rtcheck.assert"

    condition = operand_def(i1)
    values = var_operand_def(IndexType | IntegerType)
    message = prop_def(StringAttr)

    assembly_format = (
        "$condition `,` $message (` ` `(` $values^ `:` type($values) `)`)? attr-dict"
    )

    def __init__(
        self,
        condition: SSAValue,
        message: str,
        values: Sequence[SSAValue] = (),
    ):
        super().__init__(
            operands=[condition, list(values)],
            properties={"message": StringAttr(message)},
        )

    def verify_(self) -> None:
        placeholders = self.message.data.count("{}")
        if placeholders != len(self.values):
            op_error(
                self,
                f"expected {placeholders} values for the message's placeholders, "
                f"got {len(self.values)}",
            )

    def formatted(self, values: Sequence[int]) -> str:
        """The message with `values` in its placeholders."""
        return self.message.data.format(*values)


RtCheck = Dialect("rtcheck", [RuntimeAssertOp])
"""The run-time checks dialect: `rtcheck.assert`."""
