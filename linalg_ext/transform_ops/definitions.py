"""What the definitions of our transform ops and the payload rewrites beside
them share: the constraint of a handle operand or result (`ANY_HANDLE`), the
type of a handle operand in ByteIR's syntax, which writes no types
(`handle_type_or_pdl`, `defined_handle_type`), and why a payload op cannot be
rewritten (`PayloadRefused`, which `handles.refusal` makes a failure of the
transform op).

Loaded with the ops' definitions: imports no transform interpreter (what
handles hold while a script runs is `handles`).
"""

from __future__ import annotations

from xdsl.dialects import pdl, transform
from xdsl.ir import Attribute, Operation
from xdsl.irdl import base
from xdsl.parser import Parser, UnresolvedOperand

ANY_HANDLE = base(transform.TransformHandleType)
"""An op handle of either form: MLIR 22's `!transform.*` types or the
`!pdl.operation` of ByteIR's scripts (`linalg_ext.compat.transform_sequence`
makes `pdl.OperationType` a handle type when the package is loaded)."""


def handle_type_or_pdl(parser: Parser, operand: UnresolvedOperand) -> Attribute:
    """The type `operand` was defined with, or `!pdl.operation` (ByteIR's
    handle type) for one not defined yet (a forward reference, which must
    then be defined with that type)."""
    values = parser.ssa_values.get(operand.operand_name)
    if values is not None and operand.index < len(values):
        return values[operand.index].type
    return pdl.OperationType()


def defined_handle_type(
    parser: Parser, operand: UnresolvedOperand, gives: str
) -> Attribute:
    """The type of `operand`, a handle defined before the op being parsed;
    a parse error at `operand` if it is not, saying that its type gives
    `gives` (what the op's syntax leaves out, e.g. "the results' type")."""
    values = parser.ssa_values.get(operand.operand_name)
    if values is None or operand.index >= len(values):
        parser.raise_error(
            f"expected a handle defined before this op (its type gives {gives})",
            operand.span,
        )
    return values[operand.index].type


class PayloadRefused(Exception):
    """Why a payload rewrite refuses a payload op (`str(error)`), and that
    op (`payload`), raised before the payload changes."""

    def __init__(self, reason: str, payload: Operation):
        super().__init__(reason)
        self.payload = payload
