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
    none on memrefs, which are written in place (MLIR's
    `DestinationStyleOpInterface` rules and messages)."""
    first_init = len(op.operands) - len(outputs)
    tensor_outputs = [
        (first_init + index, output)
        for index, output in enumerate(outputs)
        if isinstance(output.type, TensorType)
    ]
    tensor_results = [r for r in results if isinstance(r.type, TensorType)]
    if len(tensor_results) != len(tensor_outputs):
        op_error(
            op,
            f"expected the number of tensor results ({len(tensor_results)}) to be "
            f"equal to the number of output tensors ({len(tensor_outputs)})",
        )
    for result, (number, output) in zip(results, tensor_outputs, strict=False):
        if result.type != output.type:
            op_error(
                op,
                f"expected type of operand #{number} ('{output.type}') to match "
                f"type of corresponding result ('{result.type}')",
            )
