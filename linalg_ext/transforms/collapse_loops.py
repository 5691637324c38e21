"""Merging loops of a `linalg.generic`: each group of loops becomes one
loop over the product of their extents, the operands reshaped with
`tensor.collapse_shape` (or `memref.collapse_shape`) and the results given
their old shapes back with `tensor.expand_shape`; `linalg.index` of an old
loop is recomputed from the merged loop's (divided by the extents of the
loops inside it in the group, modulo its own).

A grouping of loops is valid for an indexing map when the map's results are
plain loop dimensions (a projected permutation) and each group of at least
two loops appears in it whole, consecutively and in the group's order, or
not at all: then each operand dimension group is one dimension of the
collapsed operand. Two users: the pass `linalg-collapse-loops`, which finds
the longest runs of loops of one iterator type itself (`loop_runs`) and
leaves memrefs, dynamic shapes and merged `linalg.index` alone, and the
transform op `transform.structured.collapse_dims`, whose script names the
groups (`collapse_refusal` says why a grouping cannot be used).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from math import prod

from xdsl.dialects import arith, memref
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AffineMapAttr,
    IndexType,
    IntegerAttr,
    MemRefType,
    NoneAttr,
    TensorType,
    i64,
)
from xdsl.dialects.linalg.ops import GenericOp, IndexOp
from xdsl.ir import Attribute, Operation, Region, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineMap
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.rewriter import InsertPoint, Rewriter

from linalg_ext.transforms.dps import generic_like
from linalg_ext.transforms.mixed_sizes import Mixed, as_index_value
from linalg_ext.transforms.reassociation import (
    Groups,
    collapse_shape,
    expand_shape,
    reassociation_attr,
)
from linalg_ext.transforms.shape_reification import reify_dim


def loop_dims(map_: AffineMap) -> list[int] | None:
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


def operand_loop_dims(op: GenericOp) -> list[list[int]] | None:
    """The loops each operand's indexing map names, or None if a map is not
    a projected permutation."""
    maps: list[list[int]] = []
    for attr in op.indexing_maps.data:
        dims = loop_dims(attr.data)
        if dims is None:
            return None
        maps.append(dims)
    return maps


def all_loops(num_loops: int, groups: Groups) -> Groups:
    """`groups` and a group of one for every loop they leave out, ordered by
    their first loop: the new loops, outermost first."""
    grouped = {loop for group in groups for loop in group}
    loops = [list(g) for g in groups] + [
        [d] for d in range(num_loops) if d not in grouped
    ]
    loops.sort(key=min)
    return loops


def operand_refusal(op: GenericOp) -> str | None:
    """Why the operands of `op` cannot be collapsed (memrefs, dynamic
    shapes), or None."""
    for value in op.operands:
        value_type = value.type
        if isinstance(value_type, MemRefType):
            return "works on memrefs"
        if isinstance(value_type, TensorType) and any(
            extent < 0 for extent in value_type.get_shape()
        ):
            return "has a dynamically shaped operand"
    return None


def collapse_refusal(op: GenericOp, groups: Groups) -> str | None:
    """Why the loops of `op` cannot be merged by `groups` (groups of one and
    loops no group names stay as they are), or None. Refused: a memref
    operand with a layout, maps that are not projected permutations, a loop
    out of range or named twice, a group mixing iterator types, a group of
    reductions that is not a run of consecutive loops in order (merging
    them otherwise reorders the accumulation), a group some map does not
    name whole and in order, or that no map names."""
    for value in op.operands:
        value_type = value.type
        if isinstance(value_type, MemRefType) and not isinstance(
            value_type.layout, NoneAttr
        ):
            return f"has a memref operand with a layout ({value_type})"
    kinds = [str(t.data) for t in op.iterator_types.data]
    seen: set[int] = set()
    for group in groups:
        if not group:
            return "has an empty reassociation group"
        for loop in group:
            if not 0 <= loop < len(kinds):
                return f"has no loop {loop} (it has {len(kinds)})"
            if loop in seen:
                return f"reassociation names loop {loop} twice"
            seen.add(loop)
    maps = operand_loop_dims(op)
    if maps is None:
        return "has an indexing map that is not a projected permutation"
    for group in groups:
        if len(group) < 2:
            continue
        if len({kinds[d] for d in group}) != 1:
            return f"reassociation group {group} mixes parallel and reduction loops"
        if kinds[group[0]] == "reduction" and group != list(
            range(group[0], group[0] + len(group))
        ):
            return (
                f"reassociation group {group} merges reduction loops out of "
                "their order (it would reorder the accumulation)"
            )
        named_by_some = False
        for number, dims in enumerate(maps):
            named = [d for d in group if d in dims]
            if not named:
                continue
            named_by_some = True
            start = dims.index(group[0]) if group[0] in dims else -1
            if len(named) != len(group) or dims[start : start + len(group)] != group:
                map_ = op.indexing_maps.data[number].data
                return (
                    f"reassociation group {group} is not valid for the "
                    f"indexing map {map_} of operand #{number}: its loops "
                    "must appear together, in this order, or not at all"
                )
        if not named_by_some:
            return f"no operand is indexed by the loops of group {group}"
    return None


def _collapsed_extent(shape: Sequence[int], group: Sequence[int]) -> int:
    if any(shape[d] == DYNAMIC_INDEX for d in group):
        return DYNAMIC_INDEX
    return prod(shape[d] for d in group)


def _collapse_operand(value: SSAValue, groups: Groups) -> Operation:
    """The `collapse_shape` (tensor or memref) of `value` by `groups`."""
    value_type = value.type
    assert isinstance(value_type, TensorType | MemRefType)
    shape = value_type.get_shape()
    collapsed = [_collapsed_extent(shape, group) for group in groups]
    if isinstance(value_type, TensorType):
        return collapse_shape(
            value, groups, TensorType(value_type.get_element_type(), collapsed)
        )
    return memref.CollapseShapeOp.build(
        operands=[value],
        result_types=[
            MemRefType(
                value_type.get_element_type(),
                collapsed,
                memory_space=value_type.memory_space,
            )
        ],
        properties={"reassociation": reassociation_attr(groups)},
    )


def _extent(value: SSAValue, dim: int, new_ops: list[Operation]) -> Mixed:
    """The extent of dimension `dim` of a tensor or memref `value`."""
    value_type = value.type
    if isinstance(value_type, TensorType):
        return reify_dim(value, dim, new_ops)
    assert isinstance(value_type, MemRefType)
    extent = value_type.get_shape()[dim]
    if extent != DYNAMIC_INDEX:
        return extent
    index = arith.ConstantOp.from_int_and_width(dim, IndexType())
    dim_op = memref.DimOp.from_source_and_index(value, index)
    new_ops.extend((index, dim_op))
    return dim_op.result


def _loop_extents(
    op: GenericOp,
    maps: Sequence[list[int]],
    needed: set[int],
    new_ops: list[Operation],
) -> dict[int, Mixed]:
    """The extent of each `needed` loop, from the first shaped operand
    indexed by it."""
    extents: dict[int, Mixed] = {}
    for value, dims in zip(op.operands, maps, strict=True):
        if not isinstance(value.type, TensorType | MemRefType):
            continue
        for position, loop in enumerate(dims):
            if loop in needed and loop not in extents:
                extents[loop] = _extent(value, position, new_ops)
    return extents


def _product(values: Sequence[Mixed], ops: list[Operation]) -> Mixed:
    """The product of `values`, folded where static (ops into `ops`)."""
    static = prod(v for v in values if isinstance(v, int))
    dynamic = [v for v in values if isinstance(v, SSAValue)]
    result: Mixed = static
    for value in dynamic:
        if result == 1:
            result = value
            continue
        multiply = arith.MuliOp(as_index_value(result, ops), value)
        ops.append(multiply)
        result = multiply.result
    return result


def _delinearize_index(
    index_op: IndexOp, group: Sequence[int], place: int, extents: dict[int, Mixed]
) -> None:
    """`index_op` reads the merged loop of `group` (renumbered already);
    make its uses see the old loop `group[place]` instead:
    `(merged / (product of the inner extents)) mod extent`."""
    ops: list[Operation] = []
    value: SSAValue = index_op.result
    inner = _product([extents[d] for d in group[place + 1 :]], ops)
    if inner != 1:
        divide = arith.DivUIOp(value, as_index_value(inner, ops))
        ops.append(divide)
        value = divide.result
    if place > 0:
        remainder = arith.RemUIOp(value, as_index_value(extents[group[place]], ops))
        ops.append(remainder)
        value = remainder.result
    if not ops:
        return
    index_op.result.replace_uses_with_if(
        value, lambda use: all(use.operation is not o for o in ops)
    )
    Rewriter.insert_op(ops, InsertPoint.after(index_op))


def collapse_generic_loops(
    op: GenericOp, loops: Groups, rewriter: PatternRewriter
) -> GenericOp:
    """Replace `op` by a generic whose loop `i` is made of the old loops
    `loops[i]` (every loop once, groups ordered by their first loop, checked
    with `collapse_refusal`): collapsed operands, the new generic, expanded
    results (on tensors). `linalg.index` of a merged loop is computed from
    the merged loop's. Returns the new generic."""
    maps = operand_loop_dims(op)
    assert maps is not None, "checked by the caller"
    collapsing = Collapsing(loops)
    new_loop = collapsing.new_loop()
    index_ops = [o for o in op.body.walk() if isinstance(o, IndexOp)]
    before: list[Operation] = []
    # The extents `linalg.index` of a merged loop is computed from.
    needed: set[int] = set()
    for index_op in index_ops:
        new, place = new_loop[index_op.dim.value.data]
        group = loops[new]
        needed.update(group[place + 1 :])
        if place > 0:
            needed.add(group[place])
    extents = _loop_extents(op, maps, needed, before)

    new_maps: list[AffineMapAttr] = []
    operands: list[SSAValue] = []
    operand_groups: list[Groups] = []
    for value, dims in zip(op.operands, maps, strict=True):
        map_, groups = collapsing.map_and_groups(dims, len(loops))
        new_maps.append(AffineMapAttr(map_))
        operand_groups.append(groups)
        if not isinstance(value.type, TensorType | MemRefType) or len(groups) == len(
            dims
        ):
            operands.append(value)
            continue
        reshape = _collapse_operand(value, groups)
        before.append(reshape)
        operands.append(reshape.results[0])
    rewriter.insert(before, InsertPoint.before(op))

    for index_op in index_ops:
        new, place = new_loop[index_op.dim.value.data]
        index_op.dim = IntegerAttr(new, i64)
        if len(loops[new]) > 1:
            _delinearize_index(index_op, loops[new], place, extents)

    num_inputs = len(op.inputs)
    outputs = operands[num_inputs:]
    body = Region()
    op.body.clone_into(body)
    kinds_attrs: list[Attribute] = [op.iterator_types.data[run[0]] for run in loops]
    new_op = generic_like(
        op,
        operands[:num_inputs],
        outputs,
        body,
        new_maps,
        kinds_attrs,
        [v.type for v in outputs if isinstance(v.type, TensorType)],
    )
    rewriter.insert(new_op, InsertPoint.before(op))

    results: list[SSAValue] = []
    tensor_outputs = [
        (init, groups)
        for init, groups in zip(op.outputs, operand_groups[num_inputs:], strict=True)
        if isinstance(init.type, TensorType)
    ]
    for old, result, (init, groups) in zip(
        op.res, new_op.res, tensor_outputs, strict=True
    ):
        old_type = old.type
        assert isinstance(old_type, TensorType)
        if len(groups) == old_type.get_num_dims():
            results.append(result)
            continue
        sizes_ops: list[Operation] = []
        sizes = [reify_dim(init, d, sizes_ops) for d in range(old_type.get_num_dims())]
        rewriter.insert(sizes_ops, InsertPoint.before(op))
        expand = expand_shape(result, groups, sizes)
        rewriter.insert(expand, InsertPoint.before(op))
        results.append(expand.result)
    rewriter.replace(op, [], results)
    return new_op
