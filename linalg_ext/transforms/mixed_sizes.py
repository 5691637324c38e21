"""Sizes, offsets and strides that are either static or dynamic.

A `Mixed` value is an `int` (known when compiling) or an `index`-typed
`SSAValue` (known when running), like MLIR's OpFoldResult. Arithmetic on
them folds what is static and emits `affine.apply` for the rest.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import affine, arith
from xdsl.dialects.builtin import DYNAMIC_INDEX, AffineMapAttr, IndexType
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap

Mixed = int | SSAValue


def split_mixed(values: Sequence[Mixed]) -> tuple[list[int], list[SSAValue]]:
    """(static list with DYNAMIC_INDEX for each dynamic entry, dynamic values):
    the two halves slice ops keep."""
    static = [v if isinstance(v, int) else DYNAMIC_INDEX for v in values]
    dynamic = [v for v in values if isinstance(v, SSAValue)]
    return static, dynamic


def join_mixed(static: Sequence[int], dynamic: Sequence[SSAValue]) -> list[Mixed]:
    """The inverse of `split_mixed`."""
    remaining = iter(dynamic)
    return [next(remaining) if s == DYNAMIC_INDEX else s for s in static]


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
