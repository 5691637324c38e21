"""`tensor.generate`, which xDSL 0.74's `tensor` dialect lacks.

Its body ends in xDSL's own `tensor.yield` (which `tensor.pad` uses too).
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import DYNAMIC_INDEX, IndexType, TensorType
from xdsl.dialects.tensor import YieldOp
from xdsl.ir import Attribute, Region, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.traits import RecursiveMemoryEffect

from linalg_ext.verification import op_error


@irdl_op_definition
class GenerateOp(IRDLOperation):
    """A new tensor whose element at each index is what the body yields for
    that index. The body takes one `index` argument per dimension; the
    operands are the extents of the result's dynamic dimensions, in order.

    See external [documentation](https://mlir.llvm.org/docs/Dialects/TensorOps/#tensorgenerate-tensorgenerateop).
    """

    name = "tensor.generate"

    dynamic_extents = var_operand_def(IndexType)
    result = result_def(TensorType)
    body = region_def("single_block")

    traits = traits_def(RecursiveMemoryEffect())

    assembly_format = "$dynamic_extents $body attr-dict `:` type($result)"

    def __init__(
        self,
        dynamic_extents: Sequence[SSAValue],
        result_type: TensorType[Attribute],
        body: Region,
    ):
        super().__init__(
            operands=[dynamic_extents], result_types=[result_type], regions=[body]
        )

    def verify_(self) -> None:
        result_type = self.result.type
        shape = result_type.get_shape()
        dynamic = sum(1 for extent in shape if extent == DYNAMIC_INDEX)
        if dynamic != len(self.dynamic_extents):
            op_error(
                self,
                f"expected {dynamic} dynamic extent(s) for {result_type}, got "
                f"{len(self.dynamic_extents)}",
            )
        args = self.body.block.args
        if len(args) != len(shape) or not all(
            isinstance(a.type, IndexType) for a in args
        ):
            op_error(
                self,
                f"expected the body to take {len(shape)} index argument(s), one "
                "per dimension of the result",
            )
        terminator = self.body.block.last_op
        if not isinstance(terminator, YieldOp) or len(terminator.arguments) != 1:
            op_error(self, "expected the body to end with tensor.yield of one value")
        yielded = terminator.arguments[0].type
        if yielded != result_type.get_element_type():
            # MLIR 22's words; the types are ours.
            op_error(
                self,
                "body must be terminated with a `yield` operation of the tensor "
                f"element type ({result_type.get_element_type()}, got {yielded})",
            )


TENSOR_OPS = (GenerateOp,)
"""The `tensor` ops `linalg_ext.compat` adds; `tensor.parallel_insert_slice`
is in `forall_ops`, with the loop it belongs to."""
