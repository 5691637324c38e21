"""An elementwise op over whole contiguous buffers as one loop.

    linalg.fill ins(%c : f32) outs(%o : memref<1x32x56x56xf32>)

is, to `convert-linalg-to-loops-ext`, the same op over the buffers seen as
one dimension,

    %f = memref.collapse_shape %o [[0, 1, 2, 3]]
             : memref<1x32x56x56xf32> into memref<100352xf32>
    linalg.generic {maps = [() -> (), (d0) -> (d0)]} ins(%c) outs(%f) {...}

whose one loop LLVM vectorises. Four nested loops with constant trip counts
LLVM unrolls fully instead: that fill took 0.046 ms (6,272 straight-line
vector stores, more code than the instruction cache holds) where one loop
takes 0.008 ms, and a fill of 32x3000 took 21 s to compile. The points are
visited in the same (row-major) order, so nothing computed changes.

Taken: all-parallel ops (a generic, or the generic of a named op)
of rank 2 or more whose body has no `linalg.index`, every operand either a
scalar (read through a map with no results) or a memref with the identity
layout, the loops' static shape, read or written through the identity map.
"""

from __future__ import annotations

from math import prod

from xdsl.dialects import memref
from xdsl.dialects.builtin import AffineMapAttr, MemRefType, NoneAttr
from xdsl.dialects.linalg import ops as linalg
from xdsl.dialects.linalg.attrs import IteratorType, IteratorTypeAttr
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import AffineMap

from linalg_ext.transforms.reassociation import reassociation_attr


def _flattenable(generic: linalg.GenericOp) -> bool:
    kinds = [t.data for t in generic.iterator_types]
    rank = len(kinds)
    if rank < 2 or any(kind != IteratorType.PARALLEL for kind in kinds):
        return False
    if any(isinstance(op, linalg.IndexOp) for op in generic.body.walk()):
        return False
    identity = AffineMap.identity(rank)
    shape: tuple[int, ...] | None = None
    for value, map_attr in zip(generic.operands, generic.indexing_maps, strict=True):
        map_ = map_attr.data
        value_type = value.type
        if not isinstance(value_type, MemRefType):
            if map_.results:
                return False  # a shaped operand other than a memref
            continue
        if map_ != identity or not isinstance(value_type.layout, NoneAttr):
            return False
        value_shape = value_type.get_shape()
        if any(size < 0 for size in value_shape):
            return False
        if shape is not None and value_shape != shape:
            return False
        shape = value_shape
    return shape is not None


def flat_elementwise(
    generic: linalg.GenericOp,
) -> tuple[list[Operation], linalg.GenericOp] | None:
    """For a generic the module docstring describes (a named op's, built by
    `generalize`, too): the `memref.collapse_shape` ops of its buffers and
    the one-loop generic on them (neither inserted); else None."""
    if not _flattenable(generic):
        return None
    collapses: list[Operation] = []
    operands: list[SSAValue] = []
    maps: list[AffineMapAttr] = []
    for value in generic.operands:
        value_type = value.type
        if not isinstance(value_type, MemRefType):
            operands.append(value)
            maps.append(AffineMapAttr(AffineMap(1, 0, ())))
            continue
        flat_type = MemRefType(
            value_type.element_type,
            [prod(value_type.get_shape())],
            memory_space=value_type.memory_space,
        )
        collapse = memref.CollapseShapeOp.create(
            operands=[value],
            result_types=[flat_type],
            properties={
                "reassociation": reassociation_attr(
                    [list(range(value_type.get_num_dims()))]
                )
            },
        )
        collapses.append(collapse)
        operands.append(collapse.results[0])
        maps.append(AffineMapAttr(AffineMap.identity(1)))
    count = len(generic.inputs)
    flat = linalg.GenericOp(
        operands[:count],
        operands[count:],
        generic.body.clone(),
        maps,
        [IteratorTypeAttr.parallel()],
    )
    return collapses, flat
