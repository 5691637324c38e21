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

Except before a tiny window: when the domain's innermost loops are
reductions that run fewer than `TINY_WINDOW` iterations in all (statically:
a depthwise convolution's or a pooling's 3x3 window), a parallel loop of at
least `MIN_VECTOR_LOOP` iterations still moves, to just before the window:
once LLVM unrolls the window it is innermost, its body the window's
multiply-adds on one accumulator per element, and vectorised (moved past
the window, LLVM would unroll it fully instead: `linalg.pooling_nhwc_sum`
1x58x58x32 0.027 ms in the domain's order, 0.25 moved). The parallel loops
before it then run in the order of the output's dimensions when the output
reads exactly them (an NCHW image channel by channel, each channel's rows
in turn), else in the domain's. In the domain's order a depthwise NCHW
convolution's output is a chain of a few dependent multiply-adds per
element that LLVM leaves scalar or vectorises across channels with
gathers. Measured (AVX-512, one thread) on `linalg.depthwise_conv_2d_nchw_chw`
1x32x58x58 * 32x3x3: 0.67 ms in the domain's order, 0.069 ms with the row
innermost past the window (nine read-modify-write passes over each output
row), 0.031 ms with it before the window in (n, c, oh) order.

`vectorizable_order` is the rule on the indexing maps; the pass
(`convert-linalg-to-loops-ext`) adds the conditions on the operands and
the body.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import Enum

from xdsl.ir import Block, BlockArgument, SSAValue
from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineDimExpr,
    AffineExpr,
    AffineMap,
)

SHORT_LOOP = 64
"""Loops with fewer iterations than this (statically) stay where they are
(unless the loops after them form a tiny window)."""

TINY_WINDOW = 16
"""Innermost reduction loops whose static iteration count (product) is
below this are a window LLVM unrolls fully: a shorter parallel loop may
then move innermost."""

MIN_VECTOR_LOOP = 8
"""The fewest iterations (static) a loop moved past a tiny window needs."""


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
    statically shorter than `SHORT_LOOP` (`MIN_VECTOR_LOOP` when the
    domain's innermost loops are a tiny reduction window), moves innermost.
    The domain's
    order when no loop qualifies (e.g. a row reduction, whose input is
    strided along its only parallel loop) or one already is innermost.

    `maps` are the indexing maps of the operands that are buffers (scalar
    inputs do not matter), `outputs` says which are outputs, `parallel`
    which loops are parallel, `extents` each loop's static extent (None:
    dynamic)."""
    order = list(range(len(parallel)))
    if not any(outputs):
        return order
    tiny = _tiny_window(parallel, extents)
    for dim in reversed(order):
        extent = extents[dim]
        if not parallel[dim]:
            continue
        if extent is not None and extent < SHORT_LOOP:
            if extent < MIN_VECTOR_LOOP or not tiny:
                continue
            if all(not parallel[d] for d in order[dim + 1 :]):
                # Only the window follows: once LLVM unrolls it, this loop
                # is innermost in the domain's order already (moved, LLVM
                # would unroll it too).
                continue
        strides = [stride_along(m, dim) for m in maps]
        if all(
            s == Stride.UNIT or (s == Stride.INVARIANT and not is_output)
            for s, is_output in zip(strides, outputs, strict=True)
        ):
            if tiny:
                return _before_window(maps, outputs, parallel, dim)
            return [d for d in order if d != dim] + [dim]
    return order


def _before_window(
    maps: Sequence[AffineMap],
    outputs: Sequence[bool],
    parallel: Sequence[bool],
    dim: int,
) -> list[int]:
    """The order with loop `dim` right before the trailing reduction
    window, the loops before it in the order of the output's dimensions
    when every output reads exactly those loops through one map (ending in
    `dim`, along which it is unit-stride), else in the domain's."""
    window_start = len(parallel)
    while not parallel[window_start - 1]:
        window_start -= 1
    window = list(range(window_start, len(parallel)))
    head = [d for d in range(window_start) if d != dim]
    output_maps = {m for m, is_output in zip(maps, outputs, strict=True) if is_output}
    if len(output_maps) == 1:
        (output_map,) = output_maps
        read = [e.position for e in output_map.results if isinstance(e, AffineDimExpr)]
        if len(read) == len(output_map.results) and sorted(read) == list(
            range(window_start)
        ):
            return read + window
    return [*head, dim, *window]


def _tiny_window(parallel: Sequence[bool], extents: Sequence[int | None]) -> bool:
    """Whether the domain's innermost loops are reductions (at least one)
    that run, statically, fewer than `TINY_WINDOW` iterations in all."""
    total, count = 1, len(parallel)
    while count and not parallel[count - 1]:
        extent = extents[count - 1]
        if extent is None:
            return False
        total *= extent
        count -= 1
    return count < len(parallel) and total < TINY_WINDOW


SELF_VECTORISED = frozenset(
    {
        "arith.maximumf",
        "arith.minimumf",
        "arith.addi",
        "arith.muli",
        "arith.andi",
        "arith.ori",
        "arith.xori",
        "arith.maxsi",
        "arith.minsi",
        "arith.maxui",
        "arith.minui",
    }
)
"""Reduction steps LLVM's loop vectoriser splits over vector lanes in any
fast-math mode: exact whatever the order (integers wrap; `maximumf` and
`minimumf` are associative, NaN and signed zeros included)."""

REASSOCIATED = frozenset({"arith.addf", "arith.subf", "arith.mulf"})
"""Float reduction steps it splits over lanes only when allowed to
reassociate (fast-math `reassoc` or looser)."""


def reduction_self_vectorised(
    block: Block, accumulators: Sequence[BlockArgument], reassociate: bool
) -> bool:
    """Whether LLVM vectorises, by itself, a loop of the body `block` that
    carries `accumulators` (block arguments) from one iteration to the
    next: every op on the way from an accumulator to what the body yields
    is a step of `SELF_VECTORISED` (or `REASSOCIATED` when
    `reassociate`). An argmax's `select`, a sum at fast-math `none` and
    anything else in the chain keep the loop scalar: one dependent chain
    per output, which computing several outputs together speeds up."""
    allowed = SELF_VECTORISED | REASSOCIATED if reassociate else SELF_VECTORISED
    reached: set[SSAValue] = set(accumulators)
    for op in block.ops:
        if not any(operand in reached for operand in op.operands):
            continue
        if op.name == "linalg.yield":
            continue
        if op.name not in allowed:
            return False
        reached.update(op.results)
    return True
