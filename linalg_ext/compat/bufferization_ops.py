"""`bufferization.to_tensor` / `to_buffer` with any memref layout.

Upstream lets a tensor meet a buffer of any layout (`memref<4xf32,
strided<[?], offset: ?>>` to `tensor<4xf32>`); xDSL 0.74 ties both sides to
one type variable, so only identity layouts verify. The fix swaps the two
ops' type constraints for "a memref" and "a tensor" and checks, in the op
verifier, what upstream checks: same shape and element type.
"""

from __future__ import annotations

from xdsl.dialects import bufferization
from xdsl.dialects.builtin import (
    MemRefType,
    TensorType,
    UnrankedMemRefType,
    UnrankedTensorType,
)
from xdsl.irdl import OperandDef, ResultDef
from xdsl.irdl.constraints import AnyOf, BaseAttr
from xdsl.utils.exceptions import VerifyException

_ANY_MEMREF = AnyOf((BaseAttr(MemRefType), BaseAttr(UnrankedMemRefType)))
_ANY_TENSOR = AnyOf((BaseAttr(TensorType), BaseAttr(UnrankedTensorType)))


def _single(constraint: AnyOf) -> AnyOf:
    # OperandDef/ResultDef wrap a single-value constraint themselves.
    return constraint


def _check_match(op_name: str, tensor_type: object, memref_type: object) -> None:
    if isinstance(tensor_type, TensorType) and isinstance(memref_type, MemRefType):
        if (
            tensor_type.get_shape() != memref_type.get_shape()
            or tensor_type.get_element_type() != memref_type.get_element_type()
        ):
            raise VerifyException(
                f"{op_name}: {tensor_type} and {memref_type} differ in shape or "
                "element type"
            )
    elif isinstance(tensor_type, TensorType) != isinstance(memref_type, MemRefType):
        raise VerifyException(
            f"{op_name}: one of {tensor_type} and {memref_type} is unranked"
        )


def install_bufferization_fixes() -> None:
    to_tensor = bufferization.ToTensorOp.get_irdl_definition()
    to_tensor.operands[0] = ("memref", OperandDef(_single(_ANY_MEMREF)))
    to_tensor.results[0] = ("tensor", ResultDef(_single(_ANY_TENSOR)))
    to_buffer = bufferization.ToBufferOp.get_irdl_definition()
    to_buffer.operands[0] = ("tensor", OperandDef(_single(_ANY_TENSOR)))
    to_buffer.results[0] = ("memref", ResultDef(_single(_ANY_MEMREF)))

    def verify_to_tensor(op: bufferization.ToTensorOp) -> None:
        _check_match(op.name, op.tensor.type, op.memref.type)

    def verify_to_buffer(op: bufferization.ToBufferOp) -> None:
        _check_match(op.name, op.tensor.type, op.memref.type)

    bufferization.ToTensorOp.verify_ = (  # pyright: ignore[reportAttributeAccessIssue]
        _chain(bufferization.ToTensorOp.verify_, verify_to_tensor)
    )
    bufferization.ToBufferOp.verify_ = (  # pyright: ignore[reportAttributeAccessIssue]
        _chain(bufferization.ToBufferOp.verify_, verify_to_buffer)
    )


def _chain(first, second):
    def verify(op):
        first(op)
        second(op)

    return verify
