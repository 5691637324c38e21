"""`arith.remf` and `arith.index_castui`, which xDSL 0.74's `arith` lacks.

Both are upstream `arith` ops that programs (and upstream's output for
them) use, and xDSL 0.74 cannot read them:

    %r = arith.remf %a, %b fastmath<fast> : f32
    %i = arith.index_castui %n : i32 to index

- `arith.remf`: the remainder of `a / b` with the sign of `a` (C's `fmod`,
  LLVM's `frem`); operands and result of one float type (or a vector or
  tensor of it), with fast-math flags.
- `arith.index_castui`: between `index` and an integer type, zero-extending
  (or truncating); exactly one side is `index`.

Interpreter functions: `semantics/scalar_ops.py` (`remf`) and
`semantics/extended_arith_ops.py` (`index_castui`); `convert-arith-to-llvm`
lowers them to `llvm.frem` and to `llvm.zext`/`llvm.trunc`.
"""

from __future__ import annotations

from xdsl.dialects import arith
from xdsl.dialects.builtin import IndexType, IntegerType
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    base,
    irdl_op_definition,
    operand_def,
    result_def,
    traits_def,
)
from xdsl.traits import Pure

from linalg_ext.verification import op_error


@irdl_op_definition
class RemFOp(arith.FloatingPointLikeBinaryOperation):
    """Float remainder with the sign of the dividend (`fmod`).

    See external [documentation](https://mlir.llvm.org/docs/Dialects/ArithOps/#arithremf-arithremfop).
    """

    name = "arith.remf"

    traits = traits_def(Pure())


@irdl_op_definition
class IndexCastUIOp(IRDLOperation):
    """An integer to `index` (zero-extended) or `index` to an integer
    (truncated), the integer read as unsigned.

    See external [documentation](https://mlir.llvm.org/docs/Dialects/ArithOps/#arithindex_castui-arithindexcastuiop).
    """

    name = "arith.index_castui"

    input = operand_def(base(IntegerType) | base(IndexType))
    result = result_def(base(IntegerType) | base(IndexType))

    traits = traits_def(Pure())

    assembly_format = "$input attr-dict `:` type($input) `to` type($result)"

    def __init__(self, input: SSAValue | Operation, target_type: Attribute):
        super().__init__(operands=[input], result_types=[target_type])

    def verify_(self) -> None:
        source, target = self.input.type, self.result.type
        if isinstance(source, IndexType) == isinstance(target, IndexType):
            op_error(
                self,
                f"operand type '{source}' and result type '{target}' are cast "
                "incompatible",
            )


ARITH_OPS: tuple[type[IRDLOperation], ...] = (RemFOp, IndexCastUIOp)
"""The `arith` ops `linalg_ext.compat` adds."""
