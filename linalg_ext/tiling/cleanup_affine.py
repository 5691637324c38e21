"""Clean-up patterns for the index arithmetic of tiled IR: `affine.apply`,
`affine.min` and `affine.max` with constant operands folded into their maps,
and minima/maxima over loops with constant bounds resolved. Part of the
clean-up `linalg_ext.tiling.cleanup` applies (xDSL 0.74 has no
canonicalization for `affine` ops)."""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from xdsl.dialects import affine, arith, scf
from xdsl.dialects.builtin import AffineMapAttr, IndexType
from xdsl.ir import BlockArgument, Operation, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap
from xdsl.ir.affine.affine_expr import AffineSymExpr
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern
from xdsl.transforms.canonicalization_patterns.utils import const_evaluate_operand

from linalg_ext.compat.affine_ops import MaxOp

MAX_ENUMERATED_POINTS = 4096
"""The most loop iterations (all loops an `affine.min` depends on, together)
that `FoldAffineMinMaxOverLoops` evaluates the map at; beyond, it leaves the
op alone."""


AffineMapOp = affine.ApplyOp | affine.MinOp | MaxOp


def _map_operands(op: AffineMapOp) -> list[SSAValue]:
    if isinstance(op, affine.ApplyOp):
        return list(op.mapOperands)
    return list(op.arguments)


def _rebuilt(op: AffineMapOp, map_: AffineMap, operands: list[SSAValue]) -> Operation:
    """An op of `op`'s kind (an `affine.apply` if the map has one result, an
    `arith.constant` if that result is constant) for `map_(operands)`."""
    if len(map_.results) == 1:
        only = map_.results[0]
        if only.used_dims() == set() and not _used_symbols(only):
            value = only.eval([], [])
            return arith.ConstantOp.from_int_and_width(value, IndexType())
        return affine.ApplyOp(operands, AffineMapAttr(map_))
    if isinstance(op, affine.MinOp):
        return affine.MinOp(operands, AffineMapAttr(map_))
    return MaxOp(tuple(operands), AffineMapAttr(map_))


def _used_symbols(expr: AffineExpr) -> set[int]:
    return {e.position for e in expr.dfs() if isinstance(e, AffineSymExpr)}


def canonical_map(
    map_: AffineMap, operands: Sequence[SSAValue], *, compose: bool = True
) -> tuple[AffineMap, list[SSAValue]]:
    """`map_(operands)` with constant operands folded into the map, operands
    that are `affine.apply` results replaced by their expressions (one level
    per call: upstream's composeAffineMapAndOperands; not where that would
    make a result semi-affine), an operand given twice given once, unused
    operands dropped (upstream's canonicalizeMapAndOperands). Dims stay
    dims, symbols stay symbols (an apply's operands take the kind of the
    slot it fills)."""
    new_dims: list[SSAValue] = []
    new_symbols: list[SSAValue] = []

    def expression(value: SSAValue, as_dim: bool, nested: bool) -> AffineExpr:
        constant = const_evaluate_operand(value)
        if constant is not None:
            return AffineExpr.constant(constant)
        producer = value.owner
        if compose and not nested and isinstance(producer, affine.ApplyOp):
            inner = producer.map.data
            inner_operands = list(producer.mapOperands)
            return inner.results[0].replace_dims_and_symbols(
                [expression(v, as_dim, True) for v in inner_operands[: inner.num_dims]],
                [expression(v, False, True) for v in inner_operands[inner.num_dims :]],
            )
        group = new_dims if as_dim else new_symbols
        if value not in group:
            group.append(value)
        index = group.index(value)
        return AffineExpr.dimension(index) if as_dim else AffineExpr.symbol(index)

    num_dims = map_.num_dims
    dim_exprs = [expression(v, True, False) for v in operands[:num_dims]]
    symbol_exprs = [expression(v, False, False) for v in operands[num_dims:]]
    substituted = map_.replace_dims_and_symbols(
        dim_exprs, symbol_exprs, len(new_dims), len(new_symbols)
    )
    if compose and not all(e.is_pure_affine() for e in substituted.results):
        return canonical_map(map_, operands, compose=False)
    used_dims = set[int]().union(*(e.used_dims() for e in substituted.results))
    used_symbols = set[int]().union(*(_used_symbols(e) for e in substituted.results))
    dim_order = sorted(used_dims)
    symbol_order = sorted(used_symbols)
    compacted = substituted.replace_dims_and_symbols(
        [
            AffineExpr.dimension(dim_order.index(d))
            if d in used_dims
            else AffineExpr.constant(0)
            for d in range(len(new_dims))
        ],
        [
            AffineExpr.symbol(symbol_order.index(s))
            if s in used_symbols
            else AffineExpr.constant(0)
            for s in range(len(new_symbols))
        ],
        len(dim_order),
        len(symbol_order),
    )
    return compacted, [new_dims[d] for d in dim_order] + [
        new_symbols[s] for s in symbol_order
    ]


class FoldAffineMapOp(RewritePattern):
    """`affine.apply` / `affine.min` / `affine.max` with constant operands
    folded into their maps, repeated and unused operands dropped, and, for
    min/max, repeated results dropped and constant results reduced to one:
    an op whose value is then a constant becomes an `arith.constant`, a
    min/max left with one result an `affine.apply`, an identity apply its
    operand."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, AffineMapOp):
            return
        old_map = op.map.data
        operands = _map_operands(op)
        map_, new_operands = canonical_map(old_map, operands)
        if not isinstance(op, affine.ApplyOp):
            map_ = _without_redundant_results(map_, is_min=isinstance(op, affine.MinOp))
        if (
            isinstance(op, affine.ApplyOp)
            and len(new_operands) == 1
            and map_ in (AffineMap.identity(1), AffineMap.identity(0, 1))
        ):
            rewriter.replace(op, [], [new_operands[0]])
            return
        if map_ == old_map and new_operands == operands:
            return
        rewriter.replace(op, _rebuilt(op, map_, new_operands))


def _without_redundant_results(map_: AffineMap, *, is_min: bool) -> AffineMap:
    results = list(dict.fromkeys(map_.results))
    constants = [
        r.eval([], []) for r in results if not r.used_dims() and not _used_symbols(r)
    ]
    if len(constants) > 1:
        keep = min(constants) if is_min else max(constants)
        results = [
            r
            for r in results
            if r.used_dims() or _used_symbols(r) or r.eval([], []) == keep
        ]
        results = list(dict.fromkeys(results))
    return AffineMap(map_.num_dims, map_.num_symbols, tuple(results))


def _loop_points(iv: SSAValue) -> range | None:
    """The values an `scf.for` induction variable takes, if its bounds and
    step are constants (and the step positive)."""
    if not isinstance(iv, BlockArgument) or iv.index != 0:
        return None
    loop = iv.block.parent_op()
    if not isinstance(loop, scf.ForOp):
        return None
    bounds = [const_evaluate_operand(v) for v in (loop.lb, loop.ub, loop.step)]
    lb, ub, step = bounds
    if lb is None or ub is None or step is None or step <= 0:
        return None
    return range(lb, ub, step)


class FoldAffineMinMaxOverLoops(RewritePattern):
    """An `affine.min` (`affine.max`) whose operands are `scf.for` induction
    variables with constant bounds, where one result is the smallest
    (largest) at every iteration: that result alone, an `affine.apply`, or a
    constant when it is the same everywhere. The typical case: the tile
    size `min(4, 16 - iv)` with `iv` stepping by 4 from 0 to 16 is 4
    (upstream does this in scf's loop canonicalization, not in
    `--canonicalize`). Decided by evaluating the map at every iteration
    (at most `MAX_ENUMERATED_POINTS`)."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, affine.MinOp | MaxOp):
            return
        map_ = op.map.data
        operands = _map_operands(op)
        if len(map_.results) < 2 or not operands:
            return
        ranges: list[range] = []
        for value in operands:
            if (points_of_value := _loop_points(value)) is None:
                return
            ranges.append(points_of_value)
        points = 1
        for r in ranges:
            points *= len(r)
        if points == 0 or points > MAX_ENUMERATED_POINTS:
            return
        is_min = isinstance(op, affine.MinOp)
        num_dims = map_.num_dims
        candidates = set(range(len(map_.results)))
        values: set[int] = set()
        for point in itertools.product(*ranges):
            results = map_.eval(point[:num_dims], point[num_dims:])
            best = min(results) if is_min else max(results)
            candidates &= {j for j, r in enumerate(results) if r == best}
            if not candidates:
                return
            values.add(best)
        chosen = min(candidates)
        if len(values) == 1:
            rewriter.replace(
                op, arith.ConstantOp.from_int_and_width(values.pop(), IndexType())
            )
            return
        single = AffineMap(map_.num_dims, map_.num_symbols, (map_.results[chosen],))
        rewriter.replace(op, affine.ApplyOp(operands, AffineMapAttr(single)))
