"""Reshapes between elementwise ops, removed by giving the ops more loops.

A `tensor.collapse_shape` between two generics stops them from fusing: the
consumer reads the producer's result with fewer dimensions than the
producer has loops.

    %p = linalg.generic ... -> tensor<2x3x4xf32>        // loops (a, b, c)
    %c = tensor.collapse_shape %p [[0, 1], [2]] : ... into tensor<6x4xf32>
    %q = linalg.generic {maps = [(i, j) -> (i, j), ...]} ins(%c, %x ...)

Element `(i, j)` of `%c` is element `(i / 3, i % 3, j)` of `%p`: if the
consumer ran loop `i` as two loops `(i0, i1)` of sizes 2 and 3, with
`i = 3 * i0 + i1`, it could read `%p` at `(i0, i1, j)` directly and the
reshape would be gone. That is the expansion (upstream's
FoldWithProducerReshapeOpByExpansion, `expand_consumer_of_collapse` here):

- each loop of the consumer that the collapsed operand's map sends to a
  group of the reshape becomes as many loops as the group has dimensions,
  with the sizes of the collapse's source; the others stay one loop each.
  Splitting a loop into consecutive loops, outer first, keeps the order in
  which points are visited, so even reductions compute the same values;
- every indexing map follows: a result `d_i` becomes the loops `d_i` was
  split into, a constant result stays (ByteIR's extension: `(d0, d1) ->
  (d0, 0)` becomes `(e0, e1, e2) -> (e0, e1, 0)`, its dimension untouched);
- the collapsed operand is replaced by the collapse's source; every other
  operand whose map reads a split loop is viewed with that loop's dimension
  split too, by a `tensor.expand_shape` (a `tensor.empty` init is simply
  made again in the new shape);
- `linalg.index i` in the body asks for the original loop `i`: it becomes
  the linearization of the loops `i` was split into;
- the results, in the split shape, are collapsed back, so the consumer's
  users see the same tensors.

Now the consumer reads `%p` through a permutation and `fusion.py` fuses the
two. `expand_producer_of_expand` is the mirror image (upstream's
FoldReshapeWithGenericOpByExpansion): a `tensor.expand_shape` of a
generic's result disappears when the generic is expanded so that it
produces the expanded tensor itself; its other users get the old shape
back through a `tensor.collapse_shape`.

Conditions: tensor semantics; the reshaped operand's map is a projected
permutation with at least one result; every other map is a projected
permutation that may also have constant results (upstream allows no
constants: ByteIR's extension). A dimension that splits must split into
sizes that agree with every operand reading it (static sizes multiply to
the operand's size; a dynamic operand size needs a dynamic part). Dynamic
sizes are otherwise fine: they are taken from the reshape (the sizes the
collapse's source was made with, else its `tensor.dim`; the expand's output
shape), and `linalg.index` of a loop split into dynamic parts is
linearized with `arith` ops on them (`affine.apply` when all are static).

Both functions only act when a fusion can follow (the reshape's other side
is an all-parallel generic with a permutation result map in the same
block): otherwise they raise `NotFused` with the reason, changing nothing.
`bypass_reshape_pair` reads through a `tensor.expand_shape` of a
`tensor.collapse_shape` that undoes it (or the other way round), as
upstream's canonicalization does: chains of expansions leave such pairs.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from math import prod

from xdsl.dialects import affine, arith, tensor
from xdsl.dialects.builtin import DYNAMIC_INDEX, AffineMapAttr, TensorType
from xdsl.dialects.linalg.ops import GenericOp, IndexOp
from xdsl.dialects.utils import get_dynamic_index_list, split_dynamic_index_list
from xdsl.ir import Attribute, Block, BlockArgument, Operation, OpResult, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineExpr, AffineMap
from xdsl.rewriter import InsertPoint, Rewriter

from linalg_ext.transforms.affine_maps import is_permutation
from linalg_ext.transforms.dps import has_pure_tensor_semantics, is_all_parallel
from linalg_ext.transforms.mixed_sizes import Mixed, as_index_value
from linalg_ext.transforms.ordering import ancestor_in
from linalg_ext.transforms.reassociation import (
    Groups,
    collapse_shape,
    consecutive_groups,
    expand_shape,
    groups_of,
    is_projected_permutation_with_constants,
)
from linalg_ext.transforms.shape_reification import reify_dim

from .fusion import NotFused, maps_of


@dataclass
class Expansion:
    """How each loop of a generic splits: `sizes[i]` are the sizes of the
    loops that loop `i` becomes, or None when it stays one loop;
    `new_loops[i]` are their positions among the new op's loops."""

    sizes: list[list[Mixed] | None]
    new_loops: Groups

    @staticmethod
    def of(
        num_loops: int, reshaped_map: AffineMap, groups: Groups, extents: list[Mixed]
    ) -> Expansion:
        """The expansion that makes the operand read through `reshaped_map`
        (a projected permutation) have the dimensions `extents`, grouped by
        `groups` (one group per result of the map)."""
        sizes: list[list[Mixed] | None] = [None] * num_loops
        for result, group in zip(reshaped_map.results, groups, strict=True):
            assert isinstance(result, AffineDimExpr)
            if len(group) > 1:
                sizes[result.position] = [extents[d] for d in group]
        counts = [1 if s is None else len(s) for s in sizes]
        return Expansion(sizes, consecutive_groups(counts))

    @property
    def num_loops(self) -> int:
        return sum(len(loops) for loops in self.new_loops)

    def splits(self, map_: AffineMap) -> bool:
        """Whether an operand read through `map_` changes shape."""
        return any(
            isinstance(r, AffineDimExpr) and self.sizes[r.position] is not None
            for r in map_.results
        )

    def expand_map(self, map_: AffineMap) -> AffineMap:
        results: list[AffineExpr] = []
        for r in map_.results:
            if isinstance(r, AffineDimExpr):
                results.extend(AffineDimExpr(p) for p in self.new_loops[r.position])
            else:
                results.append(r)
        return AffineMap(self.num_loops, 0, tuple(results))

    def operand_groups(self, map_: AffineMap) -> Groups:
        """The reassociation between an operand read through `map_` and its
        expanded form."""
        return consecutive_groups(
            [
                len(self.new_loops[r.position]) if isinstance(r, AffineDimExpr) else 1
                for r in map_.results
            ]
        )

    def operand_sizes(
        self,
        value: SSAValue,
        map_: AffineMap,
        new_ops: list[Operation],
        known: dict[tuple[SSAValue, int], Mixed],
    ) -> list[Mixed]:
        """The sizes of the expanded form of `value`, read through `map_`
        (`known`: the sizes already reified, reused)."""
        sizes: list[Mixed] = []
        for j, r in enumerate(map_.results):
            split = self.sizes[r.position] if isinstance(r, AffineDimExpr) else None
            if split is not None:
                sizes.extend(split)
                continue
            if (value, j) not in known:
                known[(value, j)] = reify_dim(value, j, new_ops)
            sizes.append(known[(value, j)])
        return sizes


def _operand_label(op: GenericOp, index: int) -> str:
    num_inputs = len(op.inputs)
    if index < num_inputs:
        return f"input #{index}"
    return f"init #{index - num_inputs}"


def _size_text(size: Mixed) -> str:
    return str(size) if isinstance(size, int) else "?"


def plan_expansion(
    op: GenericOp,
    operand_index: int,
    groups: Groups,
    extents: list[Mixed],
    role: str = "the reshaped tensor",
) -> Expansion:
    """The expansion of `op` that gives its operand `operand_index` (in
    `op.operands` numbering) the sizes `extents`, grouped by `groups`, or
    NotFused with the reason (`role` names that operand in it)."""
    if not has_pure_tensor_semantics(op):
        raise NotFused("expected tensor semantics (memref operands)")
    maps = maps_of(op)
    reshaped_map = maps[operand_index]
    label = f"{_operand_label(op, operand_index)}, {role},"
    if not reshaped_map.results:
        raise NotFused(f"{label} is a scalar: nothing to expand")
    if not reshaped_map.is_projected_permutation():
        raise NotFused(
            f"the map of {label} is not a projected permutation ({reshaped_map})"
        )
    if len(groups) != len(reshaped_map.results):
        raise NotFused("the reshape's groups do not match the operand's rank")
    for k, map_ in enumerate(maps):
        if k != operand_index and not is_projected_permutation_with_constants(map_):
            raise NotFused(
                f"the map of {_operand_label(op, k)} is not a projected permutation "
                f"with constants ({map_})"
            )
    expansion = Expansion.of(len(op.iterator_types), reshaped_map, groups, extents)

    for k, (value, map_) in enumerate(zip(op.operands, maps, strict=True)):
        if k == operand_index or not isinstance(value.type, TensorType):
            continue
        shape = value.type.get_shape()
        for j, r in enumerate(map_.results):
            if not isinstance(r, AffineDimExpr):
                continue
            split = expansion.sizes[r.position]
            if split is None:
                continue
            static = [s for s in split if isinstance(s, int)]
            own = shape[j]
            if own >= 0 and (len(static) != len(split) or prod(static) != own):
                raise NotFused(
                    f"dimension {j} of {_operand_label(op, k)} has size {own}, "
                    f"which cannot split into "
                    f"{'x'.join(_size_text(s) for s in split)}"
                )
            if own < 0 and len(static) == len(split):
                raise NotFused(
                    f"dimension {j} of {_operand_label(op, k)} is dynamic but "
                    f"would split into static sizes "
                    f"{'x'.join(_size_text(s) for s in split)}"
                )

    return expansion


def _reshaped(
    value: SSAValue,
    groups: Groups,
    sizes: list[Mixed],
    new_ops: list[Operation],
    sized_from: SSAValue | None,
) -> SSAValue:
    """`value` seen in the expanded shape `sizes`: the source of a
    `tensor.collapse_shape` that collapsed it from there, a new
    `tensor.empty` for an empty one, else a `tensor.expand_shape`.
    (`sized_from`: the tensor whose sizes `sizes` are, if any.)"""
    assert isinstance(value.type, TensorType)
    static, dynamic = split_dynamic_index_list(sizes, DYNAMIC_INDEX)
    target = TensorType(value.type.get_element_type(), static)
    if isinstance(value, OpResult):
        owner = value.op
        if (
            isinstance(owner, tensor.CollapseShapeOp)
            and owner.src.type == target
            and groups_of(owner.reassociation) == groups
            and (owner.src is sized_from or _determined_by_type(static, groups))
        ):
            return owner.src
        if isinstance(owner, tensor.EmptyOp):
            empty = tensor.EmptyOp(dynamic, target)
            new_ops.append(empty)
            return empty.tensor
    expand = expand_shape(value, groups, sizes)
    new_ops.append(expand)
    return expand.result


def _remap_indices(op: GenericOp, expansion: Expansion) -> None:
    """`linalg.index i` becomes the position of loop `i` among the new
    loops, or the linearization of the loops it split into."""
    block = op.body.block
    for index_op in [o for o in block.ops if isinstance(o, IndexOp)]:
        dim = index_op.dim.value.data
        loops = expansion.new_loops[dim]
        split = expansion.sizes[dim]
        if split is None:
            if loops[0] != dim:
                Rewriter.replace_op(index_op, IndexOp(loops[0]))
            continue
        parts = [IndexOp(p) for p in loops]
        Rewriter.replace_op(index_op, [*parts, *_linearize(parts, split)])


def _linearize(parts: list[IndexOp], sizes: list[Mixed]) -> list[Operation]:
    """The ops computing `((e0 * n1 + e1) * n2 + e2) ...` from the parts'
    indices `e` and sizes `n` (the last op's result is the index): one
    `affine.apply` when the sizes are static, `arith` ops on the sizes'
    values otherwise (`d0 * s0` is not affine)."""
    if all(isinstance(n, int) for n in sizes[1:]):
        terms: list[AffineExpr] = []
        stride = 1
        for position in reversed(range(len(parts))):
            part = AffineDimExpr(position)
            terms.append(part if stride == 1 else part * stride)
            size = sizes[position]
            if position:  # the outermost part's size is not needed
                assert isinstance(size, int)
                stride *= size
        expression = terms[-1]
        for term in reversed(terms[:-1]):
            expression = expression + term
        apply = affine.ApplyOp(
            [p.result for p in parts],
            AffineMapAttr(AffineMap(len(parts), 0, (expression,))),
        )
        return [apply]
    new_ops: list[Operation] = []
    index: SSAValue = parts[0].result
    for part, size in zip(parts[1:], sizes[1:], strict=True):
        scaled = arith.MuliOp(index, as_index_value(size, new_ops))
        total = arith.AddiOp(scaled, part.result)
        new_ops += [scaled, total]
        index = total.result
    return new_ops


def _prune(new_ops: list[Operation]) -> None:
    """Erase those of `new_ops` whose results nothing uses (sizes computed
    in case a dynamic shape needed them)."""
    for op in reversed(new_ops):
        if op.parent is not None and not any(r.uses for r in op.results):
            Rewriter.erase_op(op)


def expand_generic(
    op: GenericOp,
    expansion: Expansion,
    replaced: dict[int, SSAValue],
    sized_from: SSAValue | None = None,
) -> GenericOp:
    """Insert the expanded form of `op` before it and return it (`op` stays,
    its region moved). `replaced` gives, by operand index, operands already
    in the expanded shape; `sized_from` is the tensor the split sizes come
    from, if any (a collapse of it by the same groups is read through)."""
    maps = maps_of(op)
    new_ops: list[Operation] = []
    known: dict[tuple[SSAValue, int], Mixed] = {}
    reshaped: dict[tuple[SSAValue, AffineMap], SSAValue] = {}
    operands: list[SSAValue] = []
    for k, (value, map_) in enumerate(zip(op.operands, maps, strict=True)):
        if k in replaced:
            operands.append(replaced[k])
        elif isinstance(value.type, TensorType) and expansion.splits(map_):
            if (value, map_) not in reshaped:
                groups = expansion.operand_groups(map_)
                sizes = expansion.operand_sizes(value, map_, new_ops, known)
                reshaped[(value, map_)] = _reshaped(
                    value, groups, sizes, new_ops, sized_from
                )
            operands.append(reshaped[(value, map_)])
        else:
            operands.append(value)
    if new_ops:
        Rewriter.insert_op(new_ops, InsertPoint.before(op))

    _remap_indices(op, expansion)
    iterator_types: list[Attribute] = []
    for loops, iterator in zip(expansion.new_loops, op.iterator_types, strict=True):
        iterator_types.extend([iterator] * len(loops))
    num_inputs = len(op.inputs)
    region = Rewriter.move_region_contents_to_new_regions(op.body)
    expanded = GenericOp(
        operands[:num_inputs],
        operands[num_inputs:],
        region,
        [AffineMapAttr(expansion.expand_map(m)) for m in maps],
        iterator_types,
        [v.type for v in operands[num_inputs:]],
    )
    Rewriter.insert_op(expanded, InsertPoint.before(op))
    _prune(new_ops)
    return expanded


def _collapsed_result(
    op: GenericOp, expanded: GenericOp, expansion: Expansion, index: int
) -> tuple[SSAValue, Operation | None]:
    """Result `index` of `op`, from `expanded`: the expanded result, or a
    `tensor.collapse_shape` of it (returned too, for the caller to insert)."""
    old, new = op.results[index], expanded.results[index]
    if old.type == new.type:
        return new, None
    init_map = maps_of(op)[len(op.inputs) + index]
    collapse = collapse_shape(new, expansion.operand_groups(init_map), old.type)
    collapse.result.name_hint = old.name_hint
    return collapse.result, collapse


def _check_fusable_producer(
    producer: GenericOp, result: OpResult, consumer_block: Block
) -> None:
    """What `check_fusion` needs of the producer, so that expanding is only
    done when a fusion can follow."""
    if producer.parent_block() is not consumer_block:
        raise NotFused("the producer and the consumer are in different blocks")
    if not has_pure_tensor_semantics(producer):
        raise NotFused("expected tensor semantics (memref operands)")
    if not is_all_parallel(producer):
        raise NotFused("the producer has reduction iterators")
    result_map = maps_of(producer)[len(producer.inputs) + result.index]
    if not is_permutation(result_map):
        raise NotFused(f"the producer's result map is not a permutation ({result_map})")


def expand_consumer_of_collapse(consumer: GenericOp, input_index: int) -> GenericOp:
    """Expand `consumer`'s loops so that it reads the source of the
    `tensor.collapse_shape` that gives its input `input_index`; return the
    expanded op, which replaces `consumer` (its results are collapsed back
    for `consumer`'s users). Raise NotFused, changing nothing, when that is
    not possible or would not let the collapse's producer fuse."""
    value = consumer.inputs[input_index]
    if not (
        isinstance(value, OpResult) and isinstance(value.op, tensor.CollapseShapeOp)
    ):
        raise NotFused("the operand is not the result of a tensor.collapse_shape")
    collapse = value.op
    source = collapse.src
    if not (isinstance(source, OpResult) and isinstance(source.op, GenericOp)):
        raise NotFused(
            "the tensor.collapse_shape's source is not the result of a "
            "linalg.generic: expanding would fuse nothing"
        )
    producer = source.op
    block = consumer.parent_block()
    assert block is not None
    _check_fusable_producer(producer, source, block)
    _check_collapse_users(consumer, collapse)
    for use in source.uses:
        if use.operation is collapse:
            continue
        user = ancestor_in(block, use.operation)
        if user is None or not consumer.is_before_in_block(user):
            raise NotFused("the producer has another user before the consumer")
    return expand_through_collapse(consumer, input_index)


def _check_collapse_users(
    consumer: GenericOp, collapse: tensor.CollapseShapeOp
) -> None:
    num_inputs = len(consumer.inputs)
    if any(
        use.operation is not consumer or use.index >= num_inputs
        for use in collapse.result.uses
    ):
        raise NotFused(
            "the tensor.collapse_shape has users other than the consumer's inputs"
        )


def expand_through_collapse(consumer: GenericOp, input_index: int) -> GenericOp:
    """Expand `consumer`'s loops so that it reads, as input `input_index`,
    the source of the `tensor.collapse_shape` giving that input (whatever
    produces it); return the expanded op, which replaces `consumer` (its
    results are collapsed back for `consumer`'s users). Raise NotFused,
    changing nothing, when the collapse has other users or the expansion is
    not possible."""
    collapse = consumer.inputs[input_index].owner
    assert isinstance(collapse, tensor.CollapseShapeOp)
    _check_collapse_users(consumer, collapse)
    source = collapse.src
    assert isinstance(source.type, TensorType)
    size_ops: list[Operation] = []
    extents = [
        reify_dim(source, d, size_ops) for d in range(len(source.type.get_shape()))
    ]
    expansion = plan_expansion(
        consumer,
        input_index,
        groups_of(collapse.reassociation),
        extents,
        "the collapsed tensor",
    )

    if size_ops:
        Rewriter.insert_op(size_ops, InsertPoint.before(consumer))
    expanded = expand_generic(consumer, expansion, {input_index: source}, source)
    _prune(size_ops)
    collapses: list[Operation] = []
    for index, result in enumerate(consumer.results):
        replacement, collapse_op = _collapsed_result(
            consumer, expanded, expansion, index
        )
        if collapse_op is not None:
            collapses.append(collapse_op)
        result.replace_all_uses_with(replacement)
    if collapses:
        Rewriter.insert_op(collapses, InsertPoint.after(expanded))
    old_operands = list(consumer.operands)
    Rewriter.erase_op(consumer)
    _erase_unused_producers(old_operands)
    return expanded


def _dominates_op(value: SSAValue, op: Operation) -> bool:
    """Whether `value` is available before `op`, knowing that it is
    available somewhere in `op`'s block or in ops nested there."""
    block = op.parent_block()
    assert block is not None
    if isinstance(value, BlockArgument):
        if value.block is block:
            return True
        holder = value.block.parent_op()
        # An argument of a block nested in one of `block`'s ops is not.
        return holder is None or ancestor_in(block, holder) is None
    assert isinstance(value, OpResult)
    defining = ancestor_in(block, value.op)
    if defining is None:
        return True  # defined in an enclosing block
    return defining is not op and defining.is_before_in_block(op)


def _first_user(value: SSAValue) -> Operation | None:
    """The earliest op of `value`'s block that uses it (or holds a use)."""
    owner = value.owner
    block = owner.parent_block() if isinstance(owner, Operation) else owner
    assert block is not None
    users = [ancestor_in(block, use.operation) for use in value.uses]
    first: Operation | None = None
    for user in users:
        assert user is not None
        if first is None or user.is_before_in_block(first):
            first = user
    return first


def expand_producer_of_expand(expand: tensor.ExpandShapeOp) -> GenericOp:
    """Expand the `linalg.generic` whose result `expand` reshapes, so that
    it produces the expanded tensor itself; `expand` is replaced by that
    result and erased, the generic by the expanded op (its other users get
    a `tensor.collapse_shape` of the expanded results). Return the expanded
    op, or raise NotFused, changing nothing."""
    source = expand.src
    if not (isinstance(source, OpResult) and isinstance(source.op, GenericOp)):
        raise NotFused(
            "the tensor.expand_shape's source is not the result of a linalg.generic"
        )
    producer = source.op
    block = producer.parent_block()
    assert block is not None
    _check_fusable_producer(producer, source, block)
    for size in expand.dynamic_output_shape:
        if not _dominates_op(size, producer):
            raise NotFused(
                "a dynamic size of the tensor.expand_shape is computed after "
                "the producer"
            )
    extents = get_dynamic_index_list(
        expand.static_output_shape.get_values(),
        expand.dynamic_output_shape,
        DYNAMIC_INDEX,
    )
    operand_index = len(producer.inputs) + source.index
    expansion = plan_expansion(
        producer,
        operand_index,
        groups_of(expand.reassociation),
        extents,
        "the expanded result",
    )

    expanded = expand_generic(producer, expansion, {})
    new_result = expanded.results[source.index]
    assert new_result.type == expand.result.type, (new_result.type, expand.result.type)
    new_result.name_hint = expand.result.name_hint
    expand.result.replace_all_uses_with(new_result)
    Rewriter.erase_op(expand)
    for index, result in enumerate(producer.results):
        if not result.uses:
            continue
        first = _first_user(result)
        replacement, collapse_op = _collapsed_result(
            producer, expanded, expansion, index
        )
        if collapse_op is not None:
            assert first is not None
            Rewriter.insert_op(collapse_op, InsertPoint.before(first))
        result.replace_all_uses_with(replacement)
    old_operands = list(producer.operands)
    Rewriter.erase_op(producer)
    _erase_unused_producers(old_operands)
    return expanded


def _erase_unused_producers(values: list[SSAValue]) -> None:
    """Erase the reshapes and `tensor.empty`s that the rewritten op was the
    last to use."""
    for value in values:
        owner = value.owner
        if (
            isinstance(owner, tensor.CollapseShapeOp | tensor.EmptyOp)
            and owner.parent is not None
            and not owner.results[0].uses
        ):
            Rewriter.erase_op(owner)


def bypass_reshape_pair(op: Operation, operand_index: int) -> bool:
    """When operand `operand_index` of `op` is a `tensor.expand_shape` of a
    `tensor.collapse_shape` (or the other way round) by the same groups that
    gets back the original tensor, read that tensor instead and erase the
    reshapes nothing else uses (upstream's reshape canonicalization; an
    expansion leaves such pairs behind). Whether anything changed."""
    value = op.operands[operand_index]
    original = _undone_reshape(value)
    if original is None:
        return False
    op.operands[operand_index] = original
    outer = value.owner
    assert isinstance(outer, tensor.ExpandShapeOp | tensor.CollapseShapeOp)
    inner = outer.src.owner
    for reshape in (outer, inner):
        if isinstance(reshape, Operation) and not reshape.results[0].uses:
            Rewriter.erase_op(reshape)
    return True


def _undone_reshape(value: SSAValue) -> SSAValue | None:
    """The tensor `value` is a view of, when it is a `tensor.expand_shape`
    of a `tensor.collapse_shape` (or the other way round) by the same
    groups that gets back the original type; None otherwise."""
    if not isinstance(value, OpResult):
        return None
    outer = value.op
    if not isinstance(outer, tensor.ExpandShapeOp | tensor.CollapseShapeOp):
        return None
    inner_value = outer.src
    if not isinstance(inner_value, OpResult):
        return None
    inner = inner_value.op
    inverse = (
        tensor.CollapseShapeOp
        if isinstance(outer, tensor.ExpandShapeOp)
        else tensor.ExpandShapeOp
    )
    if not isinstance(inner, inverse):
        return None
    if inner.src.type != value.type:
        return None
    groups = groups_of(outer.reassociation)
    if groups_of(inner.reassociation) != groups:
        return None
    if isinstance(outer, tensor.ExpandShapeOp):
        assert isinstance(value.type, TensorType)
        if not _determined_by_type(value.type.get_shape(), groups):
            return None
    return inner.src


def _determined_by_type(shape: Sequence[int], groups: Groups) -> bool:
    """Whether splitting collapsed sizes by `groups` into a tensor of
    `shape` can only give one set of sizes: at most one dynamic size per
    group (2x6 and 3x4 both collapse to 12)."""
    return all(sum(1 for d in group if shape[d] < 0) <= 1 for group in groups)
