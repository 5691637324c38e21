"""`linalg-fold-constants-ext`: replace a Linalg op on tensors whose operands
are all constants by the constant it computes.

For example (torch-mlir's GEMM with a transposed weight)

    %w = arith.constant dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]> : tensor<3x2xf32>
    %e = tensor.empty() : tensor<2x3xf32>
    %t = linalg.transpose ins(%w : tensor<3x2xf32>) outs(%e : tensor<2x3xf32>)
        permutation = [1, 0]

becomes

    %t = arith.constant dense<[[1.0, 3.0, 5.0], [2.0, 4.0, 6.0]]> : tensor<2x3xf32>

and the transpose no longer runs on every call. The op's operands must be
dense `arith.constant`s (splat or not; scalars too), static `tensor.empty`s or
`linalg.fill`s of those; the value is computed by running the op on the
interpreter (`linalg_ext.constant_folding`), so it is bit-exact. Ops
of any kind are folded (`linalg.transpose`, `linalg.broadcast`,
`linalg.generic`, the named elementwise ops, even contractions), except
`linalg.fill`, ops reading undefined elements of a `tensor.empty`, and ops
whose results or operands have more than `max-elements` elements. Constants
left unused are removed; `dense_resource` constants are left alone.

Upstream MLIR has no pass of this name: its patterns
(`populateConstantFoldLinalgOperations`, run by `linalg-fuse-elementwise-ops`)
fold only transposes (generics whose maps are permutations and whose body
yields its one input), of any init, when each constant has one use.
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
)

from linalg_ext.constant_folding import (
    DEFAULT_MAX_ELEMENTS,
    ConstantFolder,
    captured_and_operands,
    erase_unused_producers,
)


@dataclass
class FoldConstantLinalgOp(RewritePattern):
    """Replace a Linalg op of constant operands by its value."""

    folder: ConstantFolder

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not op.name.startswith("linalg."):
            return
        constants = self.folder.fold(op)
        if constants is None:
            return
        used = captured_and_operands(op)
        rewriter.replace(op, constants, [c.result for c in constants])
        erase_unused_producers(used, rewriter)


@dataclass(frozen=True)
class LinalgFoldConstantsExtPass(ModulePass):
    """Fold Linalg ops on constant tensors into constants (see the module
    docstring)."""

    name = "linalg-fold-constants-ext"

    max_elements: int = DEFAULT_MAX_ELEMENTS
    """The largest result or constant operand, in elements, that is folded."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        folder = ConstantFolder(op, self.max_elements)
        PatternRewriteWalker(
            GreedyRewritePatternApplier([FoldConstantLinalgOp(folder)]),
        ).rewrite_module(op)
