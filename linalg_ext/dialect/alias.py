"""`linalg_ext.alias`: the identity, kept apart from canonicalisation."""

from __future__ import annotations

from xdsl.ir import SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    result_def,
    traits_def,
)
from xdsl.traits import Pure

from linalg_ext.verification import op_error


@irdl_op_definition
class AliasOp(IRDLOperation):
    """The identity: `result` is `operand`.

    An auxiliary op of input-sharing fusion, kept apart from canonicalisation
    so a fused body can name the same input twice.
    """

    name = "linalg_ext.alias"

    operand = operand_def()
    result = result_def()

    traits = traits_def(Pure())

    assembly_format = "`(` $operand `:` type($operand) `)` attr-dict `:` type($result)"

    def __init__(self, operand: SSAValue):
        super().__init__(operands=[operand], result_types=[operand.type])

    def verify_(self) -> None:
        if self.operand.type != self.result.type:
            op_error(
                self,
                f"expected result type to match operand type {self.operand.type}, "
                f"got {self.result.type}",
            )
