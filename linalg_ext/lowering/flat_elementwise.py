"""An elementwise op over contiguous buffers with fewer, longer loops.

    linalg.fill ins(%c : f32) outs(%o : memref<1x32x56x56xf32>)

is, to `convert-linalg-to-loops-ext`, the same op over the buffers seen as
one dimension,

    %f = memref.collapse_shape %o [[0, 1, 2, 3]]
             : memref<1x32x56x56xf32> into memref<100352xf32>
    linalg.generic {maps = [() -> (), (d0) -> (d0)]} ins(%c) outs(%f) {...}

whose one loop LLVM vectorises. Four nested loops with constant trip counts
LLVM unrolls fully instead: that fill took 0.046 ms (6,272 straight-line
vector stores, more code than the instruction cache holds) where one loop
takes 0.008 ms, and a fill of 32x3000 took 21 s to compile.

Where an operand broadcasts along some loops (a convolution's bias, read
through `(d0, d1, d2, d3) -> (d1)`), only the runs of neighbouring loops
that every operand reads in the same way merge: two loops merge when each
operand either reads neither or reads both, as neighbouring dimensions in
that order. The bias broadcast to 1x64x56x56 keeps its channel loop and
merges the two spatial loops into one of 3,136 (0.063 -> 0.02 ms); a
batch-norm's per-channel constants `(d0, d1, 0, 0)` let the batch and
channel loops merge as well. The points are visited in the same
(row-major) order, so nothing computed changes.

Taken: all-parallel ops (a generic, or the generic of a named op) of rank
2 or more whose body has no `linalg.index`, every operand either a scalar
(read through a map with no results) or a memref of static shape with the
identity layout, read through a map whose results are loop dimensions,
each at most once, or the constant 0 (a unit dimension), the loops'
extents agreeing; and at least two loops merge.
"""

from __future__ import annotations

from collections.abc import Sequence
from math import prod

from xdsl.dialects import memref
from xdsl.dialects.builtin import AffineMapAttr, MemRefType, NoneAttr
from xdsl.dialects.linalg import ops as linalg
from xdsl.dialects.linalg.attrs import IteratorType, IteratorTypeAttr
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import AffineConstantExpr, AffineDimExpr, AffineExpr, AffineMap

from linalg_ext.transforms.reassociation import reassociation_attr

_Read = list[int | None]
"""A map's results: the loop dimension each reads, or None for constant 0."""


def _reads(map_: AffineMap) -> _Read | None:
    """`map_`'s results as loop dimensions (None for the constant 0), or
    None when a result is anything else or a dimension repeats."""
    read: _Read = []
    for expr in map_.results:
        if isinstance(expr, AffineDimExpr):
            if expr.position in read:
                return None
            read.append(expr.position)
        elif isinstance(expr, AffineConstantExpr) and expr.value == 0:
            read.append(None)
        else:
            return None
    return read


def _operands_taken(generic: linalg.GenericOp, reads: Sequence[_Read | None]) -> bool:
    """Whether every operand is a scalar or a static, identity-layout memref
    read as `reads` says, every loop is read by one and the static extents
    the memrefs give each loop agree."""
    rank = len(generic.iterator_types)
    extents: list[int | None] = [None] * rank
    for value, read in zip(generic.operands, reads, strict=True):
        value_type = value.type
        if read is None:
            return False
        if not isinstance(value_type, MemRefType):
            if read:
                return False  # a shaped operand other than a memref
            continue
        if not isinstance(value_type.layout, NoneAttr):
            return False
        shape = value_type.get_shape()
        if any(size < 0 for size in shape) or len(shape) != len(read):
            return False
        for dim, size in zip(read, shape, strict=True):
            if dim is None:
                continue
            if extents[dim] is not None and extents[dim] != size:
                return False
            extents[dim] = size
    return all(extent is not None for extent in extents)


def _merge_with_next(dim: int, reads: Sequence[_Read | None]) -> bool:
    """Whether loop `dim` and loop `dim + 1` can be one loop: every operand
    reads neither, or both as neighbouring dimensions in that order."""
    for read in reads:
        assert read is not None
        first = read.index(dim) if dim in read else None
        second = read.index(dim + 1) if dim + 1 in read else None
        if first is None and second is None:
            continue
        if first is None or second != first + 1:
            return False
    return True


def loop_groups(generic: linalg.GenericOp) -> list[list[int]] | None:
    """The runs of loops of `generic` that become one loop each (the module
    docstring), or None when the op is not taken or no two loops merge."""
    kinds = [t.data for t in generic.iterator_types]
    rank = len(kinds)
    if rank < 2 or any(kind != IteratorType.PARALLEL for kind in kinds):
        return None
    if any(isinstance(op, linalg.IndexOp) for op in generic.body.walk()):
        return None
    reads = [_reads(map_attr.data) for map_attr in generic.indexing_maps]
    if not _operands_taken(generic, reads):
        return None
    groups: list[list[int]] = [[0]]
    for dim in range(rank - 1):
        if _merge_with_next(dim, reads):
            groups[-1].append(dim + 1)
        else:
            groups.append([dim + 1])
    if len(groups) == rank:
        return None
    return groups


def _collapsed_operand(
    value: SSAValue, read: _Read, group_of: Sequence[int]
) -> tuple[list[Operation], SSAValue, list[AffineExpr]]:
    """`value` (a memref read as `read`) seen with each run of dimensions
    that one merged loop reads as one dimension: the collapse (if any), the
    value to read and the new map's results."""
    dimension_groups: list[list[int]] = []
    results: list[AffineExpr] = []
    previous_group: int | None = None
    for position, dim in enumerate(read):
        group = None if dim is None else group_of[dim]
        if group is not None and group == previous_group:
            dimension_groups[-1].append(position)
        else:
            dimension_groups.append([position])
            results.append(
                AffineConstantExpr(0) if group is None else AffineDimExpr(group)
            )
        previous_group = group
    if len(dimension_groups) == len(read):
        return [], value, results
    value_type = value.type
    assert isinstance(value_type, MemRefType)
    shape = value_type.get_shape()
    collapsed_type = MemRefType(
        value_type.element_type,
        [prod(shape[p] for p in group) for group in dimension_groups],
        memory_space=value_type.memory_space,
    )
    collapse = memref.CollapseShapeOp.create(
        operands=[value],
        result_types=[collapsed_type],
        properties={"reassociation": reassociation_attr(dimension_groups)},
    )
    return [collapse], collapse.results[0], results


def flat_elementwise(
    generic: linalg.GenericOp,
) -> tuple[list[Operation], linalg.GenericOp] | None:
    """For a generic the module docstring describes (a named op's, built by
    `generalize`, too): the `memref.collapse_shape` ops of its buffers and
    the generic with merged loops on them (neither inserted); else None."""
    groups = loop_groups(generic)
    if groups is None:
        return None
    group_of = [index for index, group in enumerate(groups) for _ in group]
    collapses: list[Operation] = []
    operands: list[SSAValue] = []
    maps: list[AffineMapAttr] = []
    for value, map_attr in zip(generic.operands, generic.indexing_maps, strict=True):
        read = _reads(map_attr.data)
        assert read is not None  # loop_groups checked every map
        ops, new_value, results = _collapsed_operand(value, read, group_of)
        collapses.extend(ops)
        operands.append(new_value)
        maps.append(AffineMapAttr(AffineMap(len(groups), 0, tuple(results))))
    count = len(generic.inputs)
    flat = linalg.GenericOp(
        operands[:count],
        operands[count:],
        generic.body.clone(),
        maps,
        [IteratorTypeAttr.parallel()] * len(groups),
    )
    return collapses, flat
