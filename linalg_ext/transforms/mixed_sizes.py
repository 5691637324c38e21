"""Sizes, offsets and strides that are either static or dynamic.

A `Mixed` value is an `int` (known when compiling) or an `index`-typed
`SSAValue` (known when running), like MLIR's OpFoldResult. Splitting a list
of them into an op's static and dynamic halves, and joining those back, is
xDSL's (`xdsl.dialects.utils.split_dynamic_index_list` and
`get_dynamic_index_list`, with `DYNAMIC_INDEX` as the marker). What xDSL
lacks is here: arithmetic on them that folds what is static and emits
`affine.apply` for the rest, and materialising one as an SSA value.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import affine, arith
from xdsl.dialects.builtin import AffineMapAttr, IndexType
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap

Mixed = int | SSAValue
"""The element type of xDSL's dynamic index lists (`SSAValue | int`)."""


def sum_mixed(terms: Sequence[Mixed], new_ops: list[Operation]) -> Mixed:
    """The sum of `terms`: an int when all are static, else an
    `affine.apply ()[s0, …] -> (s0 + … + c)` appended to `new_ops`."""
    constant = sum(t for t in terms if isinstance(t, int))
    symbols = [t for t in terms if isinstance(t, SSAValue)]
    if not symbols:
        return constant
    expression: AffineExpr = AffineExpr.symbol(0)
    for position in range(1, len(symbols)):
        expression = expression + AffineExpr.symbol(position)
    if constant:
        expression = expression + constant
    apply = affine.ApplyOp(
        symbols, AffineMapAttr(AffineMap(0, len(symbols), (expression,)))
    )
    new_ops.append(apply)
    return apply.result


def as_index_value(value: Mixed, new_ops: list[Operation]) -> SSAValue:
    """`value` as an SSA value, materialising a static one as a constant."""
    if isinstance(value, SSAValue):
        return value
    constant = arith.ConstantOp.from_int_and_width(value, IndexType())
    new_ops.append(constant)
    return constant.result
