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

from collections.abc import Sequence
from dataclasses import dataclass
from math import prod
from typing import Literal

from xdsl.context import Context
from xdsl.dialects.builtin import (
    AffineMapAttr,
    IntegerAttr,
    MemRefType,
    ModuleOp,
    TensorType,
    i64,
)
from xdsl.dialects.linalg.ops import GenericOp, IndexOp
from xdsl.ir import Attribute, Region, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineMap
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint

from linalg_ext.transforms.reassociation import (
    Groups,
    collapse_shape,
    expand_shape,
)

IteratorKind = Literal["parallel", "reduction"]


def _dims(map_: AffineMap) -> list[int] | None:
    """The loop of each result of `map_`, or None if a result is not a
    plain loop dimension or a loop appears twice."""
    dims: list[int] = []
    for result in map_.results:
        if not isinstance(result, AffineDimExpr):
            return None
        dims.append(result.position)
    if len(set(dims)) != len(dims) or map_.num_symbols:
        return None
    return dims


def loop_runs(maps: Sequence[list[int]], kinds: Sequence[str], kind: str) -> Groups:
    """The runs of at least two loops of iterator type `kind` that every map
    names together, consecutively and in run order (or not at all)."""

    def follows(a: int, b: int) -> bool:
        # `b` may come right after `a` in the merged loop.
        if kinds[a] != kind or kinds[b] != kind or a == b:
            return False
        # Merging reductions out of loop order would reorder accumulation.
        if kind == "reduction" and b < a:
            return False
        seen = False
        for dims in maps:
            if a in dims and b in dims:
                if dims.index(b) != dims.index(a) + 1:
                    return False
                seen = True
            elif a in dims or b in dims:
                return False
        return seen

    successor: dict[int, int] = {}
    for dims in maps:
        for a, b in zip(dims, dims[1:], strict=False):
            if a not in successor and follows(a, b):
                successor[a] = b
    heads = set(successor) - set(successor.values())
    runs: Groups = []
    for head in sorted(heads):
        run = [head]
        while run[-1] in successor:
            run.append(successor[run[-1]])
        runs.append(run)
    return runs


@dataclass
class Collapsing:
    """How the loops of a generic merge: `loops[i]` lists the old loops that
    make up new loop `i`, in the order they nest."""

    loops: Groups

    def new_loop(self) -> dict[int, tuple[int, int]]:
        """For each old loop: its new loop and its place in that loop's run."""
        return {
            old: (new, place)
            for new, run in enumerate(self.loops)
            for place, old in enumerate(run)
        }

    def map_and_groups(
        self, dims: list[int], num_loops: int
    ) -> tuple[AffineMap, Groups]:
        """The new indexing map for an operand indexed by `dims`, and how its
        dimensions group into those of the collapsed operand."""
        new_loop = self.new_loop()
        results: list[int] = []
        groups: Groups = []
        position = 0
        while position < len(dims):
            new, place = new_loop[dims[position]]
            assert place == 0, "runs appear whole in every map"
            size = len(self.loops[new])
            results.append(new)
            groups.append(list(range(position, position + size)))
            position += size
        map_ = AffineMap(num_loops, 0, tuple(AffineDimExpr(r) for r in results))
        return map_, groups


def collapse_generic(op: GenericOp, kind: str, rewriter: PatternRewriter) -> None:
    """Merge the runs of `kind` loops of `op`, if any and if it can."""
    for value in op.operands:
        value_type = value.type
        if isinstance(value_type, MemRefType) or (
            isinstance(value_type, TensorType)
            and any(extent < 0 for extent in value_type.get_shape())
        ):
            return
    maps: list[list[int]] = []
    for attr in op.indexing_maps.data:
        dims = _dims(attr.data)
        if dims is None:
            return
        maps.append(dims)
    kinds = [str(t.data) for t in op.iterator_types.data]
    runs = loop_runs(maps, kinds, kind)
    if not runs:
        return
    merged = {loop for run in runs for loop in run}
    index_ops = [o for o in op.body.walk() if isinstance(o, IndexOp)]
    if any(o.dim.value.data in merged for o in index_ops):
        return

    loops: Groups = runs + [[d] for d in range(len(kinds)) if d not in merged]
    loops.sort(key=min)
    collapsing = Collapsing(loops)
    new_loop = collapsing.new_loop()

    new_maps: list[AffineMapAttr] = []
    operands: list[SSAValue] = []
    operand_groups: list[Groups] = []
    for value, dims in zip(op.operands, maps, strict=True):
        map_, groups = collapsing.map_and_groups(dims, len(loops))
        new_maps.append(AffineMapAttr(map_))
        operand_groups.append(groups)
        value_type = value.type
        if not isinstance(value_type, TensorType) or len(groups) == len(dims):
            operands.append(value)
            continue
        shape = value_type.get_shape()
        collapsed_type = TensorType(
            value_type.get_element_type(),
            [prod(shape[d] for d in group) for group in groups],
        )
        reshape = collapse_shape(value, groups, collapsed_type)
        rewriter.insert(reshape, InsertPoint.before(op))
        operands.append(reshape.result)

    for index_op in index_ops:
        index_op.dim = IntegerAttr(new_loop[index_op.dim.value.data][0], i64)

    num_inputs = len(op.inputs)
    outputs = operands[num_inputs:]
    body = Region()
    op.body.clone_into(body)
    kinds_attrs: list[Attribute] = [op.iterator_types.data[run[0]] for run in loops]
    new_op = GenericOp(
        operands[:num_inputs],
        outputs,
        body,
        new_maps,
        kinds_attrs,
        [v.type for v in outputs],
        op.doc,
        op.library_call,
    )
    for name, value in op.attributes.items():
        new_op.attributes[name] = value
    rewriter.insert(new_op, InsertPoint.before(op))

    results: list[SSAValue] = []
    for old, result, groups in zip(
        op.res, new_op.res, operand_groups[num_inputs:], strict=True
    ):
        old_type = old.type
        assert isinstance(old_type, TensorType)
        if len(groups) == old_type.get_num_dims():
            results.append(result)
            continue
        expand = expand_shape(result, groups, list(old_type.get_shape()))
        rewriter.insert(expand, InsertPoint.before(op))
        results.append(expand.result)
    rewriter.replace(op, [], results)


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
