"""`lower-affine-ext`: the `affine` dialect as `arith`, `memref` and `scf` ops.

Replaces xDSL 0.74's pass of this name, which evaluates maps without their
symbols, lowers `mod` as `arith.remsi` (negative for a negative dividend),
takes only constant loop bounds and has no `affine.min`, `affine.max` or
`affine.if`. Here every map is applied to its dimension operands and then
its symbol operands, and each affine expression becomes index arithmetic
with upstream MLIR's meaning:

- `+`, `*`: `arith.addi`, `arith.muli` (`a + b * -1` and `b * -1 + a` as
  `arith.subi`);
- `a mod c`, `a floordiv c`, `a ceildiv c` by a positive constant: upstream's
  expansions (`arith.remsi` made non-negative by adding `c`; a division
  rounded towards minus infinity, resp. plus infinity, through
  `arith.divsi` of an adjusted dividend), so `-7 mod 4 = 1`,
  `-7 floordiv 4 = -2`, `-7 ceildiv 4 = -1`;
- by any other divisor (a symbol, for semi-affine maps, which upstream
  refuses): `arith.divsi` / `arith.remsi` corrected by the signs of the
  remainder and the divisor, i.e. `arith.floordivsi` and `arith.ceildivsi`
  and a modulo with the sign of the divisor, as MLIR folds them.

Ops: `affine.apply`; `affine.min` and `affine.max` (the least, resp.
greatest, result of the map: a chain of `arith.minsi` / `arith.maxsi`);
`affine.load` / `affine.store` (`memref.load` / `memref.store` at the
map's results); `affine.for` (`scf.for` from the greatest lower-bound
result to the least upper-bound result, with its `iter_args`);
`affine.if` (`scf.if` on the conjunction of its set's constraints,
each `expr >= 0` / `expr == 0` an `arith.cmpi`); `affine.yield` (the
terminator of the op it ends).

Refused, with a diagnostic naming the op and the module left unchanged:
any other `affine` op (`affine.parallel`, `affine.vector_load`, ...).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import affine, arith, memref, scf
from xdsl.dialects.builtin import IntegerAttr, ModuleOp, i1
from xdsl.ir import Operation, Region, SSAValue
from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineDimExpr,
    AffineExpr,
    AffineMap,
    AffineSymExpr,
)
from xdsl.ir.affine.affine_set import AffineConstraintKind
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.traits import IsTerminator

from linalg_ext.compat.affine_ops import MaxOp
from linalg_ext.diagnostics import OpPassFailed
from linalg_ext.lowering.loop_nest import LoopNestBuilder

# --------------------------------------------------------------------------
# Affine expressions as index arithmetic
# --------------------------------------------------------------------------


class AffineExpander:
    """Builds the ops computing affine expressions over given dimension and
    symbol values (index constants made once, ahead of the rest)."""

    def __init__(
        self,
        builder: LoopNestBuilder,
        dims: Sequence[SSAValue],
        symbols: Sequence[SSAValue],
    ):
        self.builder = builder
        self.dims = dims
        self.symbols = symbols

    def _emit(self, op: Operation) -> SSAValue:
        return self.builder.add(op)

    def expand(self, expr: AffineExpr) -> SSAValue:
        match expr:
            case AffineConstantExpr():
                return self.builder.index(expr.value)
            case AffineDimExpr():
                return self.dims[expr.position]
            case AffineSymExpr():
                return self.symbols[expr.position]
            case AffineBinaryOpExpr():
                return self._binary(expr)
            case _:
                raise AssertionError(f"unexpected affine expression {expr}")

    def _binary(self, expr: AffineBinaryOpExpr) -> SSAValue:
        kind, rhs = expr.kind, expr.rhs
        if kind == AffineBinaryOpKind.Add:
            negated = _negated(rhs)
            if negated is not None:
                return self._emit(
                    arith.SubiOp(self.expand(expr.lhs), self.expand(negated))
                )
            negated = _negated(expr.lhs)
            if negated is not None:  # `c - x` is kept as `x * -1 + c`
                return self._emit(arith.SubiOp(self.expand(rhs), self.expand(negated)))
            return self._emit(arith.AddiOp(self.expand(expr.lhs), self.expand(rhs)))
        lhs = self.expand(expr.lhs)
        if kind == AffineBinaryOpKind.Mul:
            return self._emit(arith.MuliOp(lhs, self.expand(rhs)))
        if isinstance(rhs, AffineConstantExpr) and rhs.value > 0:
            divisor = self.builder.index(rhs.value)
            if kind == AffineBinaryOpKind.Mod:
                return self._mod_by_positive(lhs, divisor)
            if kind == AffineBinaryOpKind.FloorDiv:
                return self._floordiv_by_positive(lhs, divisor)
            return self._ceildiv_by_positive(lhs, divisor)
        return self._signed_division(kind, lhs, self.expand(rhs))

    def _compare(self, lhs: SSAValue, rhs: SSAValue, predicate: str) -> SSAValue:
        return self._emit(arith.CmpiOp(lhs, rhs, predicate))

    def _select(self, cond: SSAValue, lhs: SSAValue, rhs: SSAValue) -> SSAValue:
        return self._emit(arith.SelectOp(cond, lhs, rhs))

    def _mod_by_positive(self, lhs: SSAValue, divisor: SSAValue) -> SSAValue:
        """rem = lhs remsi c; rem < 0 ? rem + c : rem."""
        remainder = self._emit(arith.RemSIOp(lhs, divisor))
        negative = self._compare(remainder, self.builder.index(0), "slt")
        shifted = self._emit(arith.AddiOp(remainder, divisor))
        return self._select(negative, shifted, remainder)

    def _floordiv_by_positive(self, lhs: SSAValue, divisor: SSAValue) -> SSAValue:
        """lhs < 0 ? -1 - ((-1 - lhs) divsi c) : lhs divsi c."""
        minus_one = self.builder.index(-1)
        negative = self._compare(lhs, self.builder.index(0), "slt")
        flipped = self._emit(arith.SubiOp(minus_one, lhs))
        dividend = self._select(negative, flipped, lhs)
        quotient = self._emit(arith.DivSIOp(dividend, divisor))
        unflipped = self._emit(arith.SubiOp(minus_one, quotient))
        return self._select(negative, unflipped, quotient)

    def _ceildiv_by_positive(self, lhs: SSAValue, divisor: SSAValue) -> SSAValue:
        """lhs <= 0 ? -((-lhs) divsi c) : ((lhs - 1) divsi c) + 1."""
        zero, one = self.builder.index(0), self.builder.index(1)
        non_positive = self._compare(lhs, zero, "sle")
        negated = self._emit(arith.SubiOp(zero, lhs))
        decremented = self._emit(arith.SubiOp(lhs, one))
        dividend = self._select(non_positive, negated, decremented)
        quotient = self._emit(arith.DivSIOp(dividend, divisor))
        negated_quotient = self._emit(arith.SubiOp(zero, quotient))
        incremented = self._emit(arith.AddiOp(quotient, one))
        return self._select(non_positive, negated_quotient, incremented)

    def _signed_division(
        self, kind: AffineBinaryOpKind, lhs: SSAValue, rhs: SSAValue
    ) -> SSAValue:
        """Any divisor: truncating division and remainder, corrected where
        the remainder is non-zero and its sign says the truncation went the
        wrong way (floordiv, mod: signs differ; ceildiv: signs agree)."""
        zero = self.builder.index(0)
        remainder = self._emit(arith.RemSIOp(lhs, rhs))
        inexact = self._compare(remainder, zero, "ne")
        remainder_negative = self._compare(remainder, zero, "slt")
        divisor_negative = self._compare(rhs, zero, "slt")
        predicate = "eq" if kind == AffineBinaryOpKind.CeilDiv else "ne"
        wrong_way = self._compare(remainder_negative, divisor_negative, predicate)
        correct = self._emit(arith.AndIOp(inexact, wrong_way))
        if kind == AffineBinaryOpKind.Mod:
            shifted = self._emit(arith.AddiOp(remainder, rhs))
            return self._select(correct, shifted, remainder)
        quotient = self._emit(arith.DivSIOp(lhs, rhs))
        one = self.builder.index(1)
        if kind == AffineBinaryOpKind.FloorDiv:
            adjusted = self._emit(arith.SubiOp(quotient, one))
        else:
            adjusted = self._emit(arith.AddiOp(quotient, one))
        return self._select(correct, adjusted, quotient)

    def expand_map(self, map_: AffineMap) -> list[SSAValue]:
        return [self.expand(e) for e in map_.results]

    def extremum(self, map_: AffineMap, largest: bool) -> SSAValue:
        """The least (or greatest) result of `map_`, as a chain of
        `arith.minsi` (`arith.maxsi`) over its results in order."""
        results = self.expand_map(map_)
        value = results[0]
        for other in results[1:]:
            op = arith.MaxSIOp(value, other) if largest else arith.MinSIOp(value, other)
            value = self._emit(op)
        return value


def _negated(expr: AffineExpr) -> AffineExpr | None:
    """`x` if `expr` is `x * -1`, else None."""
    if (
        isinstance(expr, AffineBinaryOpExpr)
        and expr.kind == AffineBinaryOpKind.Mul
        and isinstance(expr.rhs, AffineConstantExpr)
        and expr.rhs.value == -1
    ):
        return expr.lhs
    return None


def _expander(
    b: LoopNestBuilder, map_: AffineMap, operands: Sequence[SSAValue]
) -> AffineExpander:
    return AffineExpander(b, operands[: map_.num_dims], operands[map_.num_dims :])


def _replace(
    rewriter: PatternRewriter,
    op: Operation,
    b: LoopNestBuilder,
    new_results: Sequence[SSAValue],
    new_op: Operation | None = None,
) -> None:
    """Replace `op` by what `b` built, then `new_op`."""
    if new_op is not None:
        b.insert(new_op)
    rewriter.replace(op, b.take_ops(), list(new_results))


# --------------------------------------------------------------------------
# Patterns
# --------------------------------------------------------------------------


class LowerAffineApply(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: affine.ApplyOp, rewriter: PatternRewriter, /):
        b = LoopNestBuilder.detached()
        map_ = op.map.data
        (result,) = _expander(b, map_, op.mapOperands).expand_map(map_)
        _replace(rewriter, op, b, [result])


class LowerAffineMin(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: affine.MinOp, rewriter: PatternRewriter, /):
        b = LoopNestBuilder.detached()
        map_ = op.map.data
        result = _expander(b, map_, op.arguments).extremum(map_, largest=False)
        _replace(rewriter, op, b, [result])


class LowerAffineMax(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: MaxOp, rewriter: PatternRewriter, /):
        b = LoopNestBuilder.detached()
        map_ = op.map.data
        result = _expander(b, map_, op.arguments).extremum(map_, largest=True)
        _replace(rewriter, op, b, [result])


class LowerAffineLoad(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: affine.LoadOp, rewriter: PatternRewriter, /):
        b = LoopNestBuilder.detached()
        map_ = op.map.data
        indices = _expander(b, map_, op.indices).expand_map(map_)
        load = memref.LoadOp.get(op.memref, indices)
        _replace(rewriter, op, b, load.results, load)


class LowerAffineStore(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: affine.StoreOp, rewriter: PatternRewriter, /):
        b = LoopNestBuilder.detached()
        map_ = op.map.data
        indices = _expander(b, map_, op.indices).expand_map(map_)
        store = memref.StoreOp.get(op.value, op.memref, indices)
        _replace(rewriter, op, b, [], store)


def _move_body(region: Region, rewriter: PatternRewriter) -> Region:
    """The region's blocks in a new region, each `affine.yield` that ends
    one of them an `scf.yield`, and a missing terminator an empty
    `scf.yield` (xDSL's `affine.for` may have none)."""
    moved = rewriter.move_region_contents_to_new_regions(region)
    for block in moved.blocks:
        last = block.last_op
        if isinstance(last, affine.YieldOp):
            rewriter.replace(last, scf.YieldOp(*last.arguments))
        elif last is None or not last.has_trait(IsTerminator):
            block.add_op(scf.YieldOp())
    return moved


class LowerAffineFor(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: affine.ForOp, rewriter: PatternRewriter, /):
        b = LoopNestBuilder.detached()
        lower_map = op.lowerBoundMap.data
        upper_map = op.upperBoundMap.data
        lower = _expander(b, lower_map, op.lowerBoundOperands).extremum(
            lower_map, largest=True
        )
        upper = _expander(b, upper_map, op.upperBoundOperands).extremum(
            upper_map, largest=False
        )
        step = b.index(op.step.value.data)
        loop = scf.ForOp(lower, upper, step, op.inits, _move_body(op.body, rewriter))
        _replace(rewriter, op, b, loop.results, loop)


_PREDICATES = {
    AffineConstraintKind.ge: "sge",
    AffineConstraintKind.le: "sle",
    AffineConstraintKind.eq: "eq",
}


class LowerAffineIf(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: affine.IfOp, rewriter: PatternRewriter, /):
        b = LoopNestBuilder.detached()
        set_ = op.condition.data
        expander = AffineExpander(b, op.args[: set_.num_dims], op.args[set_.num_dims :])
        condition: SSAValue | None = None
        for constraint in set_.constraints:
            holds = b.add(
                arith.CmpiOp(
                    expander.expand(constraint.lhs),
                    expander.expand(constraint.rhs),
                    _PREDICATES[constraint.kind],
                )
            )
            condition = (
                holds if condition is None else b.add(arith.AndIOp(condition, holds))
            )
        if condition is None:  # no constraint: always true
            condition = b.add(arith.ConstantOp(IntegerAttr(1, i1)))
        then_region = _move_body(op.then_region, rewriter)
        else_region = (
            _move_body(op.else_region, rewriter) if op.else_region.blocks else Region()
        )
        if_op = scf.IfOp(condition, op.result_types, then_region, else_region)
        _replace(rewriter, op, b, if_op.results, if_op)


LOWERED_OPS: tuple[type[Operation], ...] = (
    affine.ApplyOp,
    affine.MinOp,
    MaxOp,
    affine.LoadOp,
    affine.StoreOp,
    affine.ForOp,
    affine.IfOp,
    affine.YieldOp,
)
"""The affine ops this pass lowers (`affine.yield` with the op it ends)."""


@dataclass(frozen=True)
class LowerAffinePass(ModulePass):
    """Lower `affine` ops to `arith`, `memref` and `scf` (see the module
    docstring)."""

    name = "lower-affine-ext"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        refused_ops = [
            target
            for target in op.walk()
            if target.dialect_name() == "affine" and not isinstance(target, LOWERED_OPS)
        ]
        if refused_ops:
            refused = sorted({target.name for target in refused_ops})
            raise OpPassFailed(
                f"{self.name}: "
                + "; ".join(f"'{name}' is not supported" for name in refused),
                refused_ops[0],
            )
        PatternRewriteWalker(
            GreedyRewritePatternApplier(
                [
                    LowerAffineApply(),
                    LowerAffineMin(),
                    LowerAffineMax(),
                    LowerAffineLoad(),
                    LowerAffineStore(),
                    LowerAffineFor(),
                    LowerAffineIf(),
                ],
                dce_enabled=False,
            ),
            apply_recursively=False,
        ).rewrite_module(op)
