"""`convert-linalg-ext-to-loops`: every `linalg_ext` op on memrefs as loops.

    linalg_ext.scan dimension(0) inclusive(true)
        ins(%x : memref<?xf32>) outs(%o, %c : memref<?xf32>, memref<f32>) {...}

becomes

    %n = memref.dim %x, %c0 : memref<?xf32>
    %c_in = memref.load %c[] : memref<f32>
    %carry = scf.for %k = %c0 to %n step %c1 iter_args(%r = %c_in) -> (f32) {
      ... the combiner, inlined on %r and memref.load %x[%k] ...
      memref.store %next, %o[%k] : memref<?xf32>
      scf.yield %next : f32
    }
    memref.store %carry, %c[] : memref<f32>

The first step of `lower-to-llvm`. Every op of the dialect on memrefs is
lowered, each as its page in docs/ops/ defines it (the loops are built by
`linalg_ext.lowering.linalg_ext_loops`): softmax, unnorm_softmax, diag,
scan, scatter, topk, layer_norm, batch_matmul and custom; `linalg_ext.alias`
(of a memref or a scalar) is replaced by its operand. An op on tensors is
refused (bufferize first), as are the few element types the loops cannot
handle; then the pass fails with every reason and leaves the module as it
was. See docs/passes/convert-linalg-ext-to-loops.md.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)

from linalg_ext import dialect as le
from linalg_ext.diagnostics import OpPassFailed
from linalg_ext.lowering.linalg_ext_loops import (
    LOWERINGS,
    lower_to_loops,
    lowering_problem,
)


@dataclass(frozen=True)
class LowerToLoops(RewritePattern):
    """An op with outputs (softmax, scan, ..., custom) becomes its loops."""

    runtime_checks: bool = False

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if type(op) not in LOWERINGS:
            return
        rewriter.replace(op, lower_to_loops(op, self.runtime_checks), [])


class ForwardAlias(RewritePattern):
    """`linalg_ext.alias` is the identity: its users take its operand."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: le.AliasOp, rewriter: PatternRewriter) -> None:
        rewriter.replace(op, [], [op.operand])


def _problems(module: ModuleOp) -> list[tuple[Operation, str]]:
    """Each op the pass cannot lower, with one line naming it and why."""
    problems: list[tuple[Operation, str]] = []
    for op in module.walk():
        if not isinstance(op, (*LOWERINGS, le.AliasOp)):
            continue
        if (reason := lowering_problem(op)) is not None:
            problems.append((op, f"'{op.name}': {reason}"))
    return problems


@dataclass(frozen=True)
class ConvertLinalgExtToLoopsPass(ModulePass):
    """Lower every `linalg_ext` op on memrefs to `scf` loops over
    `memref.load`/`memref.store` with `arith` and `math`; fail, leaving the
    module unchanged, if any `linalg_ext` op cannot be lowered."""

    name = "convert-linalg-ext-to-loops"

    runtime_checks: bool = False
    """Check at run time, with the interpreter's message, the dynamic extents
    that must agree across operands and the scatter indices, and mark the
    loads and stores the loops make as in bounds (`insert-runtime-checks`
    skips them)."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        # Everything is checked before anything changes, so that a refusal
        # leaves the module as it was.
        problems = _problems(op)
        if problems:
            raise OpPassFailed(
                f"{self.name}: " + "; ".join(text for _, text in problems),
                problems[0][0],
            )
        # No dead-code elimination: the program's own dead ops are not ours
        # to remove.
        PatternRewriteWalker(
            GreedyRewritePatternApplier(
                [LowerToLoops(self.runtime_checks), ForwardAlias()], dce_enabled=False
            ),
        ).rewrite_module(op)
