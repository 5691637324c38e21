"""The extent of a tensor dimension as a static int or an SSA value
(MLIR's reifyResultShapes), looking through the ops that define it.

A static extent is an int. A dynamic one is taken, without keeping the
tensor itself alive where possible, from `tensor.empty`'s size operand or,
for the result of a destination-style op, from its init; otherwise a
`tensor.dim` is emitted.
"""

from __future__ import annotations

from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import DYNAMIC_INDEX, IndexType, TensorType
from xdsl.ir import Operation, OpResult, SSAValue

from linalg_ext.transforms.dps import init_for_result
from linalg_ext.transforms.mixed_sizes import Mixed


def reify_dim(value: SSAValue, dim: int, new_ops: list[Operation]) -> Mixed:
    """The extent of dimension `dim` of tensor `value`, emitting any ops
    needed into `new_ops` (to be inserted where `value` is available)."""
    assert isinstance(value.type, TensorType)
    extent = value.type.get_shape()[dim]
    if extent != DYNAMIC_INDEX:
        return extent
    if isinstance(value, OpResult):
        owner = value.op
        if isinstance(owner, tensor.EmptyOp):
            shape = value.type.get_shape()
            position = sum(1 for e in shape[:dim] if e == DYNAMIC_INDEX)
            return owner.dynamic_sizes[position]
        init = init_for_result(owner, value.index)
        if init is not None:
            return reify_dim(init, dim, new_ops)
    return tensor_dim(value, dim, new_ops)


def tensor_dim(value: SSAValue, dim: int, new_ops: list[Operation]) -> SSAValue:
    """`tensor.dim %value, dim`, always (upstream's form)."""
    index = arith.ConstantOp.from_int_and_width(dim, IndexType())
    dim_op = tensor.DimOp(value, index)
    new_ops.extend((index, dim_op))
    return dim_op.result
