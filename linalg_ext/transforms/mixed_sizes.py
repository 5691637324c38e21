"""Sizes, offsets and strides that are either static or dynamic.

A `Mixed` value is an `int` (known when compiling) or an `index`-typed
`SSAValue` (known when running), like MLIR's OpFoldResult. Splitting a list
of them into an op's static and dynamic halves, and joining those back, is
xDSL's (`xdsl.dialects.utils.split_dynamic_index_list` and
`get_dynamic_index_list`, with `DYNAMIC_INDEX` as the marker). What xDSL
lacks is here: arithmetic on them that folds what is static and emits
`affine.apply` for the rest (`sum_mixed`, `apply_affine_map`), minima
(`affine_min`, `min_mixed`) and maxima (`affine_max`, `max_mixed`), and
materialising one as an SSA value.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xdsl.dialects import affine, arith
from xdsl.dialects.builtin import AffineMapAttr, IndexType
from xdsl.ir import Operation, OpResult, SSAValue
from xdsl.ir.affine import AffineConstantExpr, AffineDimExpr, AffineExpr, AffineMap

from linalg_ext.compat.affine_ops import MaxOp

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


def _node_count(expression: AffineExpr) -> int:
    return sum(1 for _ in expression.dfs())


def _simplified(expression: AffineExpr, num_dims: int) -> AffineExpr:
    """`expression` flattened and rebuilt (`d0 + d1 - d0` is `d1`), unless
    that makes it longer (the flattener spells `d0 mod 4` with a floordiv)."""
    if not expression.is_pure_affine():
        return expression
    simpler = expression.simplify(num_dims, 0)
    return simpler if _node_count(simpler) <= _node_count(expression) else expression


class _OperandTable:
    """The SSA operands of an `affine.apply`/`affine.min` being built, one
    dimension each (a value used twice is one dimension). An operand that is
    itself an `affine.apply` is composed into the expression instead (as
    MLIR's `makeComposedFoldedAffineApply` does), so chains of index
    arithmetic stay one op."""

    def __init__(self) -> None:
        self.values: list[SSAValue] = []

    def dimension(self, value: SSAValue) -> AffineExpr:
        for position, known in enumerate(self.values):
            if known is value:
                return AffineExpr.dimension(position)
        self.values.append(value)
        return AffineExpr.dimension(len(self.values) - 1)

    def expression(self, value: Mixed) -> AffineExpr:
        """`value` as an expression over the table's dimensions."""
        if isinstance(value, int):
            return AffineExpr.constant(value)
        if isinstance(value, OpResult) and isinstance(value.op, affine.ApplyOp):
            producer = value.op.map.data
            if len(producer.results) == 1:
                inner = [self.expression(v) for v in value.op.mapOperands]
                return producer.results[0].replace_dims_and_symbols(
                    inner[: producer.num_dims], inner[producer.num_dims :]
                )
        return self.dimension(value)

    def substitute(
        self, map_: AffineMap, operands: Sequence[Mixed]
    ) -> list[AffineExpr]:
        """The results of `map_` with its dimensions then symbols replaced by
        `operands` (ints folded in, values as the table's dimensions)."""
        assert len(operands) == map_.num_dims + map_.num_symbols, (
            f"{map_} takes {map_.num_dims + map_.num_symbols} operands, "
            f"given {len(operands)}"
        )
        replacements = [self.expression(v) for v in operands]
        return [
            r.replace_dims_and_symbols(
                replacements[: map_.num_dims], replacements[map_.num_dims :]
            )
            for r in map_.results
        ]


def _renumbered(
    expressions: Sequence[AffineExpr], values: Sequence[SSAValue]
) -> tuple[list[AffineExpr], list[SSAValue]]:
    """`expressions` (over one dimension per value) simplified and renumbered
    over only the dimensions they use, and those dimensions' values."""
    simplified = [_simplified(e, len(values)) for e in expressions]
    used = sorted(set[int]().union(*(e.used_dims() for e in simplified)))
    renumber: list[AffineExpr] = [AffineExpr.constant(0)] * len(values)
    for new_position, old_position in enumerate(used):
        renumber[old_position] = AffineExpr.dimension(new_position)
    return (
        [e.replace_dims_and_symbols(renumber, ()) for e in simplified],
        [values[p] for p in used],
    )


def _emit_apply(
    expression: AffineExpr, values: list[SSAValue], new_ops: list[Operation]
) -> Mixed:
    if isinstance(expression, AffineConstantExpr):
        return expression.value
    if isinstance(expression, AffineDimExpr):
        return values[expression.position]
    apply = affine.ApplyOp(
        values, AffineMapAttr(AffineMap(len(values), 0, (expression,)))
    )
    new_ops.append(apply)
    return apply.result


def apply_affine_map(
    map_: AffineMap, operands: Sequence[Mixed], new_ops: list[Operation]
) -> list[Mixed]:
    """Each result of `map_` applied to `operands` (its dimensions, then its
    symbols), folded: an int where every operand it uses is static, the value
    itself where it is one operand alone (`d1`), else an `affine.apply`
    appended to `new_ops` over only the values it uses, the static ones
    written into its map (`affine_map<(d0) -> (d0 * 2 + 3)>`). Operands made
    by an `affine.apply` are composed in, so no apply feeds another.

    `apply_affine_map(AffineMap(2, 0, (d0 * 2 + d1,)), [%iv, 1], ops)` is
    `[affine.apply affine_map<(d0) -> (d0 * 2 + 1)>(%iv)]`."""
    table = _OperandTable()
    expressions = table.substitute(map_, operands)
    results: list[Mixed] = []
    for expression in expressions:
        (folded,), values = _renumbered([expression], table.values)
        results.append(_emit_apply(folded, values, new_ops))
    return results


def _affine_bound(
    map_: AffineMap,
    operands: Sequence[Mixed],
    new_ops: list[Operation],
    pick: Callable[[list[int]], int],
    make: Callable[[tuple[SSAValue, ...], AffineMapAttr], Operation],
) -> Mixed:
    """`affine_min` (`pick=min`, `affine.MinOp`) or `affine_max`."""
    table = _OperandTable()
    expressions, values = _renumbered(table.substitute(map_, operands), table.values)
    constants = [e.value for e in expressions if isinstance(e, AffineConstantExpr)]
    kept: list[AffineExpr] = []
    for expression in expressions:
        if isinstance(expression, AffineConstantExpr):
            # The bound of the constants, where the first one was (upstream's
            # order).
            expression = AffineExpr.constant(pick(constants))
        if expression not in kept:
            kept.append(expression)
    if len(kept) == 1:
        (single,), single_values = _renumbered(kept, values)
        return _emit_apply(single, single_values, new_ops)
    kept_expressions, kept_values = _renumbered(kept, values)
    bound = make(
        tuple(kept_values),
        AffineMapAttr(AffineMap(len(kept_values), 0, tuple(kept_expressions))),
    )
    new_ops.append(bound)
    return bound.results[0]


def affine_min(
    map_: AffineMap, operands: Sequence[Mixed], new_ops: list[Operation]
) -> Mixed:
    """The smallest result of `map_` applied to `operands` (dimensions, then
    symbols): an int when every result folds to one, else one `affine.min`
    appended to `new_ops` (its constant results reduced to the smallest one,
    in the first one's place, repeated results dropped; a single result left
    is `apply_affine_map`'s).

    The partial tile size `min(4, 10 - %iv)` is
    `affine_min(AffineMap(1, 0, (c(4), c(10) - d0)), [%iv], ops)`, i.e.
    `affine.min affine_map<(d0) -> (4, -d0 + 10)>(%iv)`. (Write `c(10) - d0`
    with `c = AffineExpr.constant`: xDSL 0.74's `10 - d0` is `d0 - 10`.)"""
    assert map_.results, "affine_min of a map without results"
    return _affine_bound(map_, operands, new_ops, min, affine.MinOp)


def min_mixed(values: Sequence[Mixed], new_ops: list[Operation]) -> Mixed:
    """The smallest of `values`: an int when all are static, else an
    `affine.min` appended to `new_ops` (static ones folded into one constant
    result: `min_mixed([4, %n, 8], ops)` is
    `affine.min affine_map<(d0) -> (4, d0)>(%n)`)."""
    assert values, "min_mixed of nothing"
    identity = AffineMap(
        len(values), 0, tuple(AffineExpr.dimension(i) for i in range(len(values)))
    )
    return affine_min(identity, values, new_ops)


def affine_max(
    map_: AffineMap, operands: Sequence[Mixed], new_ops: list[Operation]
) -> Mixed:
    """The largest result of `map_` applied to `operands` (dimensions, then
    symbols): `affine_min`'s mirror, with `affine.max` (constant results
    reduced to the largest one). `max(%o - 2, 0)` is
    `affine_max(AffineMap(1, 0, (d0 - 2, c(0))), [%o], ops)`, i.e.
    `affine.max affine_map<(d0) -> (d0 - 2, 0)>(%o)`."""
    assert map_.results, "affine_max of a map without results"
    return _affine_bound(map_, operands, new_ops, max, MaxOp)


def max_mixed(values: Sequence[Mixed], new_ops: list[Operation]) -> Mixed:
    """The largest of `values`: an int when all are static, else an
    `affine.max` appended to `new_ops` (static ones folded into one constant
    result)."""
    assert values, "max_mixed of nothing"
    identity = AffineMap(
        len(values), 0, tuple(AffineExpr.dimension(i) for i in range(len(values)))
    )
    return affine_max(identity, values, new_ops)
