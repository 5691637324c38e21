"""Memref types of buffers: layouts (strides and offset) of views.

A buffer's layout says where element (i, j, ...) lives: offset + i*s0 +
j*s1 + ... A fresh allocation is row-major (the identity layout). A view
(`subview`, `expand_shape`, `collapse_shape`) has a layout computed from its
source's; a value whose strides cannot be known statically gets `?`.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    MemRefType,
    NoneAttr,
    ShapedType,
    StridedLayoutAttr,
    TensorType,
)
from xdsl.ir import Attribute

Strides = list[int | None]


def identity_memref(
    tensor_type: TensorType, memory_space: Attribute | None = None
) -> MemRefType:
    return MemRefType(
        tensor_type.get_element_type(),
        tensor_type.get_shape(),
        NoneAttr(),
        memory_space or NoneAttr(),
    )


def fully_dynamic_memref(
    tensor_type: TensorType, memory_space: Attribute | None = None
) -> MemRefType:
    rank = len(tensor_type.get_shape())
    return MemRefType(
        tensor_type.get_element_type(),
        tensor_type.get_shape(),
        StridedLayoutAttr([None] * rank, None),
        memory_space or NoneAttr(),
    )


def row_major_strides(shape: Sequence[int]) -> Strides:
    """The strides of a fresh (row-major) buffer of `shape`: `None` from a
    dynamic extent outwards (xDSL's `ShapedType.strides_for_shape`, as a
    list)."""
    return list(ShapedType.strides_for_shape(shape))


def strides_and_offset(memref_type: MemRefType) -> tuple[Strides, int | None]:
    """The strides and offset of a memref's layout (`None` where dynamic);
    all unknown for a layout that is not strided (an affine map)."""
    strides = memref_type.get_strides()
    if strides is None:
        return [None] * len(memref_type.get_shape()), None
    return list(strides), memref_type.get_offset()


def is_identity(memref_type: MemRefType) -> bool:
    return isinstance(memref_type.layout, NoneAttr)


def strided_memref(
    like: MemRefType,
    shape: Sequence[int],
    strides: Strides,
    offset: int | None,
    element_type: Attribute | None = None,
) -> MemRefType:
    return MemRefType(
        element_type or like.get_element_type(),
        shape,
        StridedLayoutAttr(strides, offset),
        like.memory_space,
    )


def _mul(a: int | None, b: int | None) -> int | None:
    return None if a is None or b is None else a * b


def subview_type(
    source: MemRefType,
    offsets: Sequence[int],
    sizes: Sequence[int],
    steps: Sequence[int],
    kept_dims: Sequence[int],
) -> MemRefType:
    """The type of a subview of `source` (dynamic values given as
    DYNAMIC_INDEX), keeping the dimensions `kept_dims`."""
    strides, offset = strides_and_offset(source)
    for stride, start in zip(strides, offsets, strict=True):
        if start == 0:
            continue  # adds nothing, whatever the stride
        if offset is None or stride is None or start == DYNAMIC_INDEX:
            offset = None
            break
        offset += stride * start
    new_strides = [
        _mul(stride, None if step == DYNAMIC_INDEX else step)
        for stride, step in zip(strides, steps, strict=True)
    ]
    return strided_memref(
        source,
        [sizes[d] for d in kept_dims],
        [new_strides[d] for d in kept_dims],
        offset,
    )


def expanded_type(
    source: MemRefType, shape: Sequence[int], groups: Sequence[Sequence[int]]
) -> MemRefType:
    """The type of an `expand_shape` of `source` to `shape`."""
    if is_identity(source):
        return MemRefType(
            source.get_element_type(), shape, NoneAttr(), source.memory_space
        )
    strides, offset = strides_and_offset(source)
    new_strides: Strides = [None] * len(shape)
    for group, stride in zip(groups, strides, strict=True):
        running = stride
        for dim in reversed(group):
            new_strides[dim] = running
            extent = shape[dim]
            running = _mul(running, None if extent == DYNAMIC_INDEX else extent)
    return strided_memref(source, shape, new_strides, offset)


def collapsed_type(
    source: MemRefType, shape: Sequence[int], groups: Sequence[Sequence[int]]
) -> MemRefType:
    """The type of a `collapse_shape` of `source` to `shape`."""
    if is_identity(source):
        return MemRefType(
            source.get_element_type(), shape, NoneAttr(), source.memory_space
        )
    strides, offset = strides_and_offset(source)
    source_shape = source.get_shape()
    new_strides: Strides = []
    for group in groups:
        # MLIR's rule: the stride of the group's last non-unit dimension, or
        # of its first dimension when all are unit.
        non_unit = [d for d in group if source_shape[d] != 1]
        if not group:
            new_strides.append(1)
        else:
            new_strides.append(strides[non_unit[-1] if non_unit else group[0]])
    return strided_memref(source, shape, new_strides, offset)


def guaranteed_collapsible(source: MemRefType, groups: Sequence[Sequence[int]]) -> bool:
    """Whether every group of dimensions is provably contiguous in memory,
    so it can be merged into one without a copy."""
    if is_identity(source):
        return True
    strides, _ = strides_and_offset(source)
    shape = source.get_shape()
    for group in groups:
        dims = [d for d in group if shape[d] != 1]
        for outer, inner in zip(dims, dims[1:], strict=False):
            inner_stride, outer_stride = strides[inner], strides[outer]
            if inner_stride is None or outer_stride is None:
                return False
            if shape[inner] == DYNAMIC_INDEX:
                return False
            if outer_stride != inner_stride * shape[inner]:
                return False
    return True


def cast_compatible(source: MemRefType, target: MemRefType) -> bool:
    """Whether `memref.cast` may turn `source` into `target`: same element
    type and memory space, each static fact of one agreeing with the other."""
    if source.get_element_type() != target.get_element_type():
        return False
    if source.memory_space != target.memory_space:
        return False
    source_shape, target_shape = source.get_shape(), target.get_shape()
    if len(source_shape) != len(target_shape):
        return False
    for a, b in zip(source_shape, target_shape, strict=True):
        if a != b and DYNAMIC_INDEX not in (a, b):
            return False
    for a, b in zip(_layout_facts(source), _layout_facts(target), strict=True):
        if a is not None and b is not None and a != b:
            return False
    return True


def _layout_facts(memref_type: MemRefType) -> list[int | None]:
    """The strides and then the offset of `memref_type`, `None` where
    dynamic."""
    strides, offset = strides_and_offset(memref_type)
    return [*strides, offset]


def guaranteed_cast_compatible(source: MemRefType, target: MemRefType) -> bool:
    """Whether a `memref.cast` from `source` to `target` holds whatever
    buffer of type `source` it is given: `cast_compatible`, and no dynamic
    stride or offset of `source` becomes a static one (upstream's
    `castOrReallocMemRefValue` asks the same). Between identity layouts the
    strides follow from the shape, which the cast itself states."""
    if not cast_compatible(source, target):
        return False
    if is_identity(source) and is_identity(target):
        return True
    return not any(
        a is None and b is not None
        for a, b in zip(_layout_facts(source), _layout_facts(target), strict=True)
    )
