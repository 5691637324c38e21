"""`convert-scf-to-cf-ext`: structured control flow as blocks and branches.

Replaces xDSL 0.74's pass of this name, which lowers `scf.if`, `scf.for`
and `scf.index_switch` only (the last into a `cf.switch` on the index
truncated to i32). Every `scf` op lowers here:

- `scf.for` (with `iter_args`) and `scf.if` (with results): xDSL's patterns,
  which are upstream's: a condition block testing `iv < ub` whose arguments
  are the induction variable and the carried values, resp. a conditional
  branch to the inlined regions and a continuation block whose arguments are
  the results.
- `scf.while`: the `before` region's blocks, entered with the operands; its
  `scf.condition` becomes a `cf.cond_br` to the `after` region (with the
  forwarded values) or to the continuation (whose arguments are the
  results); each `scf.yield` of `after` branches back to `before`.
- `scf.execute_region`: its blocks inlined, entered by a branch; each
  `scf.yield` branches to the continuation.
- `scf.index_switch`: a chain of `arith.cmpi eq` and `cf.cond_br`, one link
  per case in order, ending in the default region (upstream emits a
  `cf.switch`; the chain compares the whole index and needs nothing beyond
  `cf.cond_br` downstream).
- `scf.parallel` and `scf.forall` (on memrefs: no shared outputs) first
  become nests of `scf.for`, outermost dimension first, which then lower as
  above: the iterations run one after the other, which is one of the orders
  the ops allow. `scf.parallel`'s reductions are carried in `iter_args`:
  each starts as its init, and each iteration combines the value it reduces
  into it with the reduction's region (upstream's lowering).

Refused, with a diagnostic naming the op and the module left unchanged: an
`scf.forall` with shared outputs (tensors: bufferize first).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, cf, scf
from xdsl.dialects.builtin import IntegerAttr, ModuleOp
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import BlockInsertPoint, InsertPoint, Rewriter
from xdsl.transforms.convert_scf_to_cf import ForLowering, IfLowering

from linalg_ext.compat.forall_ops import ForallOp, InParallelOp
from linalg_ext.diagnostics import OpPassFailed
from linalg_ext.lowering.loop_nest import LoopNestBuilder

# --------------------------------------------------------------------------
# Parallel loops as nests of scf.for
# --------------------------------------------------------------------------


def _move_ops(block: Block, b: LoopNestBuilder) -> None:
    """Move the ops of `block` but its terminator to where `b` builds."""
    for op in list(block.ops)[:-1]:
        op.detach()
        b.insert(op)


class ParallelToFor(RewritePattern):
    """`scf.parallel` as a nest of `scf.for`; its reductions carried."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: scf.ParallelOp, rewriter: PatternRewriter, /):
        body = op.body.block
        reduce_op = body.last_op
        assert isinstance(reduce_op, scf.ReduceOp)

        def innermost(
            b: LoopNestBuilder,
            ivs: Sequence[SSAValue],
            accumulators: Sequence[SSAValue],
        ) -> Sequence[SSAValue]:
            for arg, iv in zip(body.args, ivs, strict=True):
                arg.replace_all_uses_with(iv)
            _move_ops(body, b)
            combined: list[SSAValue] = []
            for region, value, accumulator in zip(
                reduce_op.reductions, reduce_op.args, accumulators, strict=True
            ):
                block = region.block
                block.args[0].replace_all_uses_with(accumulator)
                block.args[1].replace_all_uses_with(value)
                returned = block.last_op
                assert isinstance(returned, scf.ReduceReturnOp)
                _move_ops(block, b)
                combined.append(returned.result)
            return combined

        b = LoopNestBuilder.detached()
        results = b.loop_nest(
            op.upperBound,
            op.initVals,
            innermost,
            lowers=op.lowerBound,
            steps=op.step,
            ivs=None,
        )
        rewriter.replace(op, b.take_ops(), list(results))


class ForallToFor(RewritePattern):
    """`scf.forall` without shared outputs as a nest of `scf.for`."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ForallOp, rewriter: PatternRewriter, /):
        if op.outputs:
            return  # refused by the pass beforehand
        body = op.body.block
        lower, upper, steps = op.mixed_bounds()

        def innermost(
            b: LoopNestBuilder, ivs: Sequence[SSAValue], _: Sequence[SSAValue]
        ) -> Sequence[SSAValue]:
            for arg, iv in zip(body.args, ivs, strict=True):
                arg.replace_all_uses_with(iv)
            _move_ops(body, b)
            return ()

        b = LoopNestBuilder.detached()
        b.loop_nest(upper, (), innermost, lowers=lower, steps=steps, ivs=None)
        rewriter.replace(op, b.take_ops(), [])


# --------------------------------------------------------------------------
# Branching ops
# --------------------------------------------------------------------------


def _split_for_results(op: Operation) -> tuple[Block, Block]:
    """Split the block of `op` before it: (the block up to `op`, the
    continuation starting at `op`, given one argument per result)."""
    current = op.parent_block()
    assert current is not None
    continuation = current.split_before(op)
    for result in op.results:
        continuation.insert_arg(result.type, len(continuation.args))
    return current, continuation


def _terminators(region: Region, kind: type[Operation]) -> list[Operation]:
    """The terminators of `kind` that end the region's own blocks."""
    return [block.last_op for block in region.blocks if isinstance(block.last_op, kind)]


def _inline_with_exits(
    region: Region, continuation: Block, rewriter: PatternRewriter
) -> Block:
    """Inline `region` before `continuation`, each `scf.yield` ending one of
    its blocks a branch to `continuation` with the yielded values; returns
    the region's entry block."""
    entry = region.first_block
    assert entry is not None
    for yield_op in _terminators(region, scf.YieldOp):
        rewriter.replace(yield_op, cf.BranchOp(continuation, *yield_op.operands))
    rewriter.inline_region(region, BlockInsertPoint.before(continuation))
    return entry


class WhileLowering(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: scf.WhileOp, rewriter: PatternRewriter, /):
        current, continuation = _split_for_results(op)
        before_entry = op.before_region.first_block
        after_entry = op.after_region.first_block
        assert before_entry is not None and after_entry is not None
        for condition in _terminators(op.before_region, scf.ConditionOp):
            assert isinstance(condition, scf.ConditionOp)
            forwarded = tuple(condition.args)
            rewriter.replace(
                condition,
                cf.ConditionalBranchOp(
                    condition.condition, after_entry, forwarded, continuation, forwarded
                ),
            )
        for yield_op in _terminators(op.after_region, scf.YieldOp):
            rewriter.replace(yield_op, cf.BranchOp(before_entry, *yield_op.operands))
        rewriter.inline_region(op.before_region, BlockInsertPoint.before(continuation))
        rewriter.inline_region(op.after_region, BlockInsertPoint.before(continuation))
        rewriter.insert(
            cf.BranchOp(before_entry, *op.arguments), InsertPoint.at_end(current)
        )
        rewriter.replace(op, [], list(continuation.args))


class ExecuteRegionLowering(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: scf.ExecuteRegionOp, rewriter: PatternRewriter, /):
        current, continuation = _split_for_results(op)
        entry = _inline_with_exits(op.region, continuation, rewriter)
        rewriter.insert(cf.BranchOp(entry), InsertPoint.at_end(current))
        rewriter.replace(op, [], list(continuation.args))


class IndexSwitchLowering(RewritePattern):
    """`scf.index_switch` as a chain of equality tests.

    Kept instead of xDSL's `SwitchLowering`, which (as upstream) switches on
    `arith.index_cast` of the index to i32: an index beyond i32 would wrap
    onto a case value (2**32 + 1 takes case 1), and the pass's documented
    and tested output is the chain. The case constants stay in their test
    blocks (not hoisted: the chain reads as one test per block).
    """

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: scf.IndexSwitchOp, rewriter: PatternRewriter, /):
        current, continuation = _split_for_results(op)
        case_entries = [
            _inline_with_exits(region, continuation, rewriter)
            for region in op.case_regions
        ]
        default_entry = _inline_with_exits(op.default_region, continuation, rewriter)
        test_block = current
        cases = op.cases.get_values()
        for position, (value, entry) in enumerate(
            zip(cases, case_entries, strict=True)
        ):
            if position + 1 < len(cases):
                otherwise = Block()
                Rewriter.insert_block(otherwise, BlockInsertPoint.after(test_block))
            else:
                otherwise = default_entry
            constant = arith.ConstantOp(IntegerAttr.from_index_int_value(value))
            is_case = arith.CmpiOp(op.arg, constant, "eq")
            branch = cf.ConditionalBranchOp(is_case, entry, (), otherwise, ())
            rewriter.insert((constant, is_case, branch), InsertPoint.at_end(test_block))
            test_block = otherwise
        if not cases:
            rewriter.insert(cf.BranchOp(default_entry), InsertPoint.at_end(current))
        rewriter.replace(op, [], list(continuation.args))


# --------------------------------------------------------------------------
# The pass
# --------------------------------------------------------------------------


def refusal(op: Operation) -> str | None:
    """Why `op` cannot be lowered, or None."""
    if isinstance(op, ForallOp):
        if op.outputs:
            return (
                "'scf.forall' has shared outputs (tensors): bufferize first "
                "(one-shot-bufferize)"
            )
        terminator = op.body.block.last_op
        if isinstance(terminator, InParallelOp) and terminator.region.block.ops:
            return "'scf.forall' has ops in its 'scf.forall.in_parallel'"
    return None


@dataclass(frozen=True)
class ConvertScfToCfPass(ModulePass):
    """Lower every `scf` op (and `scf.forall`) to `cf` branches between
    blocks (see the module docstring)."""

    name = "convert-scf-to-cf-ext"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        problems = [
            (target, p) for target in op.walk() if (p := refusal(target)) is not None
        ]
        if problems:
            raise OpPassFailed(
                f"{self.name}: " + "; ".join(text for _, text in problems),
                problems[0][0],
            )
        PatternRewriteWalker(
            GreedyRewritePatternApplier(
                [ParallelToFor(), ForallToFor()], dce_enabled=False
            )
        ).rewrite_module(op)
        PatternRewriteWalker(
            GreedyRewritePatternApplier(
                [
                    IfLowering(),
                    ForLowering(),
                    WhileLowering(),
                    ExecuteRegionLowering(),
                    IndexSwitchLowering(),
                ],
                dce_enabled=False,
            )
        ).rewrite_module(op)
