"""The order of a structured op's loops that LLVM's loop vectoriser can use.

A generic's loops run in its iteration domain's order (upstream's): for
`linalg.matmul` that is `i, j, k`, the reduction `k` innermost, a scalar
accumulator and `B` read down a column. Without reassociation (no
fast-math) LLVM cannot vectorise that loop. Moving a parallel loop `d`
innermost (`i, k, j`), along which every output is unit-stride and every
input unit-stride or invariant, gives a loop whose iterations are
independent and whose accesses are contiguous: the vectoriser's textbook
case.

The reorder changes no result bit: each point of the iteration space
computes the same scalar body on the same values, and for any one output
element the reduction loops still run in their own order (ascending, the
reduction loops keep their relative order and only parallel loops move);
only the interleaving of different output elements changes, which a body
without side effects cannot observe (outputs must not share a buffer
with another operand: the caller checks that).

A loop shorter than `SHORT_LOOP` (statically) is not moved: LLVM unrolls
such a constant loop fully before its vectoriser runs, so nothing is
vectorised, while in the domain's order a short reduction loop is the one
unrolled and the loop around it vectorised. Measured on matmul N³ (AVX-512,
GFLOP/s, domain -> unit-stride): N=16 54.6 -> 7.0, 32 61.2 -> 6.3,
48 56.9 -> 24.3, 64 4.1 -> 31.2, 128 3.2 -> 43.3, 1024 0.4 -> 36.

`vectorizable_order` is the rule on the indexing maps; the pass
(`convert-linalg-to-loops-ext`) adds the conditions on the operands and
the body.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import Enum

from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineDimExpr,
    AffineExpr,
    AffineMap,
)

SHORT_LOOP = 64
"""Loops with fewer iterations than this (statically) stay where they are."""


class Stride(Enum):
    """How an operand's element moves when one loop advances by one."""

    INVARIANT = "invariant"
    """The loop does not index the operand: the same element."""
    UNIT = "unit"
    """The next element of the operand's innermost dimension."""
    STRIDED = "strided"
    """Anything else: an outer dimension, a coefficient other than 1, or a
    non-linear use (`mod`, `floordiv`, `ceildiv`)."""


def coefficient(expr: AffineExpr, dim: int) -> int | None:
    """The coefficient of loop `dim` in `expr` if `expr` is linear in it
    (`2 * d0 + d1` -> 2 for d0, 1 for d1, 0 for d2), else None."""
    if isinstance(expr, AffineDimExpr):
        return 1 if expr.position == dim else 0
    if isinstance(expr, AffineConstantExpr):
        return 0
    if not isinstance(expr, AffineBinaryOpExpr):
        return None  # a symbol: not in the maps this is used on
    if dim not in expr.used_dims():
        return 0
    lhs, rhs = coefficient(expr.lhs, dim), coefficient(expr.rhs, dim)
    if lhs is None or rhs is None:
        return None
    if expr.kind == AffineBinaryOpKind.Add:
        return lhs + rhs
    if expr.kind == AffineBinaryOpKind.Mul:
        # Affine: one side is a constant (after folding, the right one).
        for factor, other in ((expr.lhs, rhs), (expr.rhs, lhs)):
            if isinstance(factor, AffineConstantExpr):
                return factor.value * other
    return None


def stride_along(map_: AffineMap, dim: int) -> Stride:
    """How an operand indexed by `map_` moves along loop `dim`: unit stride
    when only its last index uses the loop, with coefficient 1 (for a
    contiguous innermost dimension, as identity layouts have)."""
    users = [i for i, e in enumerate(map_.results) if dim in e.used_dims()]
    if not users:
        return Stride.INVARIANT
    if users == [len(map_.results) - 1] and coefficient(map_.results[-1], dim) == 1:
        return Stride.UNIT
    return Stride.STRIDED


def vectorizable_order(
    maps: Sequence[AffineMap],
    outputs: Sequence[bool],
    parallel: Sequence[bool],
    extents: Sequence[int | None],
) -> list[int]:
    """The loops in the order to run them, outermost first: the domain's
    order, except that the last parallel loop along which every output is
    unit-stride and every input unit-stride or invariant, and which is not
    statically shorter than `SHORT_LOOP`, moves innermost. The domain's
    order when no loop qualifies (e.g. a row reduction, whose input is
    strided along its only parallel loop) or one already is innermost.

    `maps` are the indexing maps of the operands that are buffers (scalar
    inputs do not matter), `outputs` says which are outputs, `parallel`
    which loops are parallel, `extents` each loop's static extent (None:
    dynamic)."""
    order = list(range(len(parallel)))
    if not any(outputs):
        return order
    for dim in reversed(order):
        extent = extents[dim]
        if not parallel[dim] or (extent is not None and extent < SHORT_LOOP):
            continue
        strides = [stride_along(m, dim) for m in maps]
        if all(
            s == Stride.UNIT or (s == Stride.INVARIANT and not is_output)
            for s, is_output in zip(strides, outputs, strict=True)
        ):
            return [d for d in order if d != dim] + [dim]
    return order
