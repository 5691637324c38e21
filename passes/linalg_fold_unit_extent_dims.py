"""`linalg-fold-unit-extent-dims`: remove the loops of extent 1 of every
`linalg.generic`, and the operand dimensions of extent 1 they read.

Upstream MLIR's pass of this name, with its option
`use-rank-reducing-slices` (default false). The rewriting is
`linalg_ext.transforms.unit_dims` (shared with
`transform.structured.fold_unit_extent_dims`): a loop whose extent is
statically 1 is dropped (the maps read it as 0, `linalg.index` of it is 0),
and so is each operand dimension of extent 1 that its map reads as such a
loop or as the constant 0. The operands lose those dimensions by
`tensor.collapse_shape` / `memref.collapse_shape` (by default) or by a
rank-reducing `tensor.extract_slice` / `memref.subview` (with
`use-rank-reducing-slices=true`); results get their type back by
`tensor.expand_shape` or `tensor.insert_slice` into the old init. For
example

    %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>,
                                          affine_map<(d0, d1) -> (d0)>],
                         iterator_types = ["parallel", "reduction"]}
        ins(%x : tensor<4x1xf32>) outs(%o : tensor<4xf32>) {...} -> tensor<4xf32>

becomes (the reduction over one element is gone)

    %cx = tensor.collapse_shape %x [[0, 1]] : tensor<4x1xf32> into tensor<4xf32>
    %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>,
                                          affine_map<(d0) -> (d0)>],
                         iterator_types = ["parallel"]}
        ins(%cx : tensor<4xf32>) outs(%o : tensor<4xf32>) {...} -> tensor<4xf32>

Between two rewritten generics, the `expand_shape` of one's result and the
`collapse_shape` of the other's operand (or the `insert_slice` and
`extract_slice`) cancel out; an operand that is a `tensor.empty` (or, with
reshapes, the `linalg.fill` of one) is made anew, smaller, instead of being
reshaped; dead ops are removed.

As upstream: named ops (`linalg.add`, `linalg.matmul`, ...) are left alone
(generalize them first, `linalg-generalization-ext`), and so are generics
with a memref operand whose layout is not the identity. Not done (upstream's
pass also does these): the unit dimensions of `tensor.pad`, of
`tensor.extract_slice` / `insert_slice` outside generics, and moving the
init of an all-parallel generic that reads it to its inputs (upstream's
`MoveInitOperandsToInput`, which only adds a `tensor.empty`); the values
computed are the same.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.linalg.ops import GenericOp
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)

from linalg_ext.transforms.unit_dims import FOLD_PATTERNS, Strategy, fold_unit_dims


@dataclass
class FoldUnitExtentDims(RewritePattern):
    """Drop the unit loops and dimensions of a `linalg.generic`."""

    strategy: Strategy

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: GenericOp, rewriter: PatternRewriter) -> None:
        fold_unit_dims(op, rewriter, self.strategy)


@dataclass(frozen=True)
class LinalgFoldUnitExtentDimsPass(ModulePass):
    """Remove the unit-extent loops and dimensions of `linalg.generic` ops
    (see the module docstring)."""

    name = "linalg-fold-unit-extent-dims"

    use_rank_reducing_slices: bool = False
    """Reshape operands with rank-reducing slices instead of
    `collapse_shape` / `expand_shape`."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        strategy: Strategy = "slices" if self.use_rank_reducing_slices else "reshape"
        PatternRewriteWalker(
            GreedyRewritePatternApplier([FoldUnitExtentDims(strategy), *FOLD_PATTERNS]),
        ).rewrite_module(op)
