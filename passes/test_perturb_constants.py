"""`test-perturb-constants`: a deliberately wrong pass, for testing checkers.

It adds `delta` to every scalar integer (not index or i1) and float
`arith.constant`, which changes what almost any program computes.
`linalg-ext-check` must catch it; the test suite uses it to show that it
does. Never put it in a real pipeline.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import FloatAttr, IntegerAttr, IntegerType, ModuleOp
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)


@dataclass
class PerturbScalarConstant(RewritePattern):
    delta: int

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: arith.ConstantOp, rewriter: PatternRewriter):
        value = op.value
        if isinstance(value, FloatAttr):
            new_value = FloatAttr(value.value.data + self.delta, value.type)
        elif (
            isinstance(value, IntegerAttr)
            and isinstance(value.type, IntegerType)
            and value.type.width.data > 1
        ):
            # Not index constants: they are sizes and offsets, and changing
            # them makes programs fail rather than compute something else.
            new_value = IntegerAttr(value.value.data + self.delta, value.type)
        else:
            return
        rewriter.replace(op, arith.ConstantOp(new_value, op.result.type))


@dataclass(frozen=True)
class PerturbConstantsPass(ModulePass):
    """Add `delta` to every scalar integer and float constant (a wrong pass).

    Before: `%c = arith.constant 2.0 : f32`; after: `%c = arith.constant 3.0 : f32`.
    """

    name = "test-perturb-constants"

    delta: int = 1

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(
            PerturbScalarConstant(self.delta), apply_recursively=False
        ).rewrite_module(op)
