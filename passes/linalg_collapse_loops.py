"""`linalg-collapse-loops`: runs of loops of one iterator type that every
operand indexes together become a single loop.

ByteIR's pass of this name, with its option `iterator-type` (`parallel`, the
default, or `reduction`). In every `linalg.generic` on tensors, two loops `a`
and `b` of that type can be merged when, in every indexing map, either
neither appears or `b` comes right after `a`; longest such runs are merged
into one loop. Each operand is reshaped with `tensor.collapse_shape`, the new
generic runs over the smaller iteration space, and its results are given
their old shapes back with `tensor.expand_shape`. For example

    %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>,
                                          affine_map<(d0, d1, d2) -> (d0, d1, d2)>],
                         iterator_types = ["parallel", "parallel", "parallel"]}
        ins(%x : tensor<2x3x4xf32>) outs(%e : tensor<2x3x4xf32>) {...}

becomes

    %cx = tensor.collapse_shape %x [[0, 1, 2]] : tensor<2x3x4xf32> into tensor<24xf32>
    %ce = tensor.collapse_shape %e [[0, 1, 2]] : tensor<2x3x4xf32> into tensor<24xf32>
    %c = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>,
                                          affine_map<(d0) -> (d0)>],
                         iterator_types = ["parallel"]}
        ins(%cx : tensor<24xf32>) outs(%ce : tensor<24xf32>) {...}
    %r = tensor.expand_shape %c [[0, 1, 2]] output_shape [2, 3, 4]
        : tensor<24xf32> into tensor<2x3x4xf32>

Left as they are (no diagnostic, the pass changes nothing for them):
generics on memrefs (ByteIR also takes memrefs; this pass does not), generics
with a dynamically shaped operand, an indexing map that is not a projected
permutation (a constant or a compound expression), and bodies that read
`linalg.index` of a loop that would be merged (ByteIR rewrites these with
div/rem; we keep the generic). `linalg.index` of a loop that is not merged is
renumbered.

Differences from ByteIR, which are its defects fixed: ByteIR looks for runs
only along the first operand's map, so loops that operand does not index
(a broadcast input first) are never merged; here every loop is considered.
ByteIR may merge two reduction loops in the order the maps name them rather
than the order they run, which changes the order of accumulation (and so
floating-point results); here a run of reduction loops must also be in loop
order.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.linalg.ops import GenericOp, IndexOp
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)

from linalg_ext.transforms.collapse_loops import (
    all_loops,
    collapse_generic_loops,
    loop_runs,
    operand_loop_dims,
    operand_refusal,
)

IteratorKind = Literal["parallel", "reduction"]


def collapse_generic(op: GenericOp, kind: str, rewriter: PatternRewriter) -> None:
    """Merge the runs of `kind` loops of `op`, if any and if it can."""
    if operand_refusal(op) is not None:
        return
    maps = operand_loop_dims(op)
    if maps is None:
        return
    kinds = [str(t.data) for t in op.iterator_types.data]
    runs = loop_runs(maps, kinds, kind)
    if not runs:
        return
    merged = {loop for run in runs for loop in run}
    index_ops = [o for o in op.body.walk() if isinstance(o, IndexOp)]
    if any(o.dim.value.data in merged for o in index_ops):
        return
    collapse_generic_loops(op, all_loops(len(kinds), runs), rewriter)


@dataclass
class CollapseLoops(RewritePattern):
    """Merge the runs of loops of one iterator type in a `linalg.generic`."""

    kind: str

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: GenericOp, rewriter: PatternRewriter) -> None:
        collapse_generic(op, self.kind, rewriter)


@dataclass(frozen=True)
class LinalgCollapseLoopsPass(ModulePass):
    """Merge consecutive loops of one iterator type that every operand
    indexes together (see the module docstring)."""

    name = "linalg-collapse-loops"

    iterator_type: IteratorKind = "parallel"
    """Which loops to merge: `parallel` (ByteIR's default) or `reduction`."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(
            CollapseLoops(self.iterator_type), apply_recursively=False
        ).rewrite_module(op)
