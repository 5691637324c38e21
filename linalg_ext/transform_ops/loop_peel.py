"""`transform.loop.peel`: split an `scf.for` into the loop over its whole
steps and a loop for the last, partial one (upstream's
`scf::peelForLoopAndSimplifyBounds`), so the `affine.min` of a partial tile
becomes a constant in each (for loops with constant bounds)."""

from __future__ import annotations

from xdsl.dialects import affine, arith, scf
from xdsl.dialects.builtin import AffineMapAttr, IndexType
from xdsl.interpreter import (
    Interpreter,
    InterpreterFunctions,
    PythonValues,
    impl,
    register_impls,
)
from xdsl.interpreters.transform import OperationHandle
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import AffineConstantExpr, AffineExpr, AffineMap
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriteWalker,
)
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.transforms.canonicalization_patterns.utils import const_evaluate_operand

from linalg_ext.tiling.cleanup_affine import FoldAffineMapOp, FoldAffineMinMaxOverLoops
from linalg_ext.transform_ops.handles import failure, op_handle
from linalg_ext.transform_ops.ops import LoopPeelOp


class CannotPeel(Exception):
    """Why the loop has no partial last step to peel."""


def _split_point(loop: scf.ForOp, new_ops: list[Operation]) -> SSAValue:
    """Where the whole steps end: `ub - (ub - lb) mod step` (a constant when
    the bounds are). Raises `CannotPeel` when there is no partial step."""
    step = const_evaluate_operand(loop.step)
    if step is None or step <= 0:
        raise CannotPeel("the step is not a positive constant")
    lb = const_evaluate_operand(loop.lb)
    ub = const_evaluate_operand(loop.ub)
    if lb is not None and ub is not None:
        split = ub - (ub - lb) % step if ub > lb else ub
        if split == ub:
            raise CannotPeel("the loop has no partial last step")
        constant = arith.ConstantOp.from_int_and_width(split, IndexType())
        new_ops.append(constant)
        return constant.result
    lower, upper = AffineExpr.dimension(0), AffineExpr.dimension(1)
    expression = upper - (upper - lower) % step
    apply = affine.ApplyOp(
        [loop.lb, loop.ub], AffineMapAttr(AffineMap(2, 0, (expression,)))
    )
    new_ops.append(apply)
    return apply.result


def _is_remaining_extent(expression: AffineExpr, iv_dim: int, ub_dim: int) -> bool:
    """Whether `expression` is `ub - iv` (checked on a few points: the
    expressions here are affine in two dimensions)."""
    for iv, ub in ((0, 10), (3, 7), (5, 20), (1, 2)):
        point = [0, 0]
        point[iv_dim], point[ub_dim] = iv, ub
        if expression.eval(point, []) != ub - iv:
            return False
    return True


def _fold_whole_step_mins(loop: scf.ForOp, upper: SSAValue, step: int) -> None:
    """In the loop over whole steps, `min(upper - iv, step)` is `step` (every
    iteration has a whole step before `upper`): what the constant-bounds
    folding cannot show when `upper` is dynamic."""
    for op in list(loop.body.walk()):
        if not isinstance(op, affine.MinOp) or op.map.data.num_symbols:
            continue
        map_ = op.map.data
        operands = list(op.operands)
        if len(map_.results) != 2 or len(operands) != 2 or map_.num_dims != 2:
            continue
        if loop.body.block.args[0] not in operands or upper not in operands:
            continue
        iv_dim = operands.index(loop.body.block.args[0])
        ub_dim = operands.index(upper)
        constants = [r.value for r in map_.results if isinstance(r, AffineConstantExpr)]
        others = [r for r in map_.results if not isinstance(r, AffineConstantExpr)]
        if constants != [step] or len(others) != 1:
            continue
        if _is_remaining_extent(others[0], iv_dim, ub_dim):
            constant = arith.ConstantOp.from_int_and_width(step, IndexType())
            Rewriter.replace_op(op, constant)


def peel_last_iteration(loop: scf.ForOp) -> scf.ForOp:
    """Split `loop` at its last whole step: `loop` now runs the whole steps,
    the returned loop (right after it, carrying on from its results) the
    partial one. Then the `affine.min`/`max` of both bodies that are the
    same at every iteration are folded. Raises `CannotPeel`, with the IR
    unchanged, when there is nothing to peel."""
    new_ops: list[Operation] = []
    split = _split_point(loop, new_ops)
    Rewriter.insert_op(new_ops, InsertPoint.before(loop))
    remainder = loop.clone()
    Rewriter.insert_op(remainder, InsertPoint.after(loop))
    for old, new in zip(loop.results, remainder.results, strict=True):
        old.replace_all_uses_with(new)
    first_init = len(remainder.operands) - len(remainder.iter_args)
    for index, result in enumerate(loop.results):
        remainder.operands[first_init + index] = result
    upper = loop.ub
    remainder.operands[0] = split
    loop.operands[1] = split
    step = const_evaluate_operand(loop.step)
    assert step is not None
    _fold_whole_step_mins(loop, upper, step)
    simplifier = PatternRewriteWalker(
        GreedyRewritePatternApplier([FoldAffineMinMaxOverLoops(), FoldAffineMapOp()])
    )
    for peeled in (loop, remainder):
        simplifier.rewrite_region(peeled.body)
    return remainder


@register_impls
class LoopPeelFunctions(InterpreterFunctions):
    """The impl of `transform.loop.peel`, registered by `install`."""

    @impl(LoopPeelOp)
    def run_loop_peel(
        self, interpreter: Interpreter, op: LoopPeelOp, args: PythonValues
    ) -> PythonValues:
        targets = op_handle(op, args[0], "the target")
        if op.peel_front.value.data:
            raise failure(op, "peel_front is not supported")
        peeled: list[Operation] = []
        remainders: list[Operation] = []
        for target in targets.ops:
            if not isinstance(target, scf.ForOp):
                raise failure(op, "expects scf.for targets", target)
            try:
                remainders.append(peel_last_iteration(target))
            except CannotPeel as reason:
                raise failure(
                    op, f"failed to peel the last iteration: {reason}", target
                ) from reason
            peeled.append(target)
        return (OperationHandle(*peeled), OperationHandle(*remainders))
