"""Verification helpers shared by the compat ops.

Each raises a `VerifyException` worded as MLIR words it: the op's name in
quotes, then `op`, then the reason.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import MemRefType, TensorType
from xdsl.ir import Attribute, Operation, SSAValue

from linalg_ext.shaped import is_ranked_shaped
from linalg_ext.verification import op_error


def element_type(type_: Attribute) -> Attribute:
    """A tensor's or memref's element type; any other type is its own."""
    return (
        type_.get_element_type()
        if isinstance(type_, TensorType | MemRefType)
        else type_
    )


def verify_shaped_operands(op: Operation, roles: Sequence[tuple[str, SSAValue]]):
    """Every operand is a ranked tensor or a memref, and all are of one kind."""
    for role, value in roles:
        if not is_ranked_shaped(value.type):
            op_error(
                op, f"expected {role} to be a ranked tensor or memref, got {value.type}"
            )
    kinds = {isinstance(value.type, TensorType) for _, value in roles}
    if len(kinds) > 1:
        op_error(op, "expected to have pure tensor or buffer semantics")


def verify_destination_results(
    op: Operation, outputs: Sequence[SSAValue], results: Sequence[SSAValue]
) -> None:
    """Destination style: one result per tensor output, of the output's type;
    none on memrefs, which are written in place."""
    tensor_types = [o.type for o in outputs if isinstance(o.type, TensorType)]
    if len(results) != len(tensor_types):
        op_error(
            op,
            f"expected the number of tensor results ({len(results)}) to be equal "
            f"to the number of output tensors ({len(tensor_types)})",
        )
    for index, (result, expected) in enumerate(zip(results, tensor_types, strict=True)):
        if result.type != expected:
            op_error(
                op,
                f"expected type of result #{index} ({result.type}) to match the "
                f"type of its output ({expected})",
            )
