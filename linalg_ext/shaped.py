"""Shape facts about ranked tensor and memref types.

This is the one place that knows how a static shape is compared with a shape
that has dynamic (`?`) extents. Verifiers and passes ask it; they do not
re-implement the comparison.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TypeAlias

from typing_extensions import TypeIs
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    ContainerType,
    MemRefType,
    ShapedType,
    TensorType,
)
from xdsl.ir import Attribute, SSAValue

Shape = tuple[int, ...]
"""A shape as a tuple of extents, with `DYNAMIC_INDEX` for a `?` extent."""


RankedShaped: TypeAlias = TensorType[Attribute] | MemRefType[Attribute]
"""A ranked tensor or memref type."""


def is_ranked_shaped(type_: Attribute) -> TypeIs[RankedShaped]:
    """A ranked tensor or a memref (xDSL's `TensorType` is always ranked)."""
    return isinstance(type_, TensorType | MemRefType)


def element_type_of(type_: ShapedType) -> Attribute:
    """The element type of a shaped type. Every ShapedType of xDSL (tensor,
    memref, vector, stencil's and emitc's types) is also a ContainerType,
    which declares `get_element_type`, but ShapedType does not say so."""
    assert isinstance(type_, ContainerType)
    return type_.get_element_type()


def element_type_or_self(type_: Attribute) -> Attribute:
    """The element type of a shaped type, any other type itself. Unlike
    xDSL's `get_element_type_or_self`, a complex type is its own element."""
    return element_type_of(type_) if isinstance(type_, ShapedType) else type_


def shape_of(type_: ShapedType) -> Shape:
    return tuple(type_.get_shape())


def rank_of(type_: ShapedType) -> int:
    return len(type_.get_shape())


def rank_of_value(value: SSAValue) -> int:
    """The rank of a tensor or memref value; 0 for a scalar."""
    type_ = value.type
    return len(type_.get_shape()) if is_ranked_shaped(type_) else 0


def extents_compatible(lhs: int, rhs: int) -> bool:
    """Two extents agree unless both are static and differ."""
    return lhs == DYNAMIC_INDEX or rhs == DYNAMIC_INDEX or lhs == rhs


def shapes_compatible(lhs: Sequence[int], rhs: Sequence[int]) -> bool:
    """Same rank, and every pair of extents is compatible."""
    return len(lhs) == len(rhs) and all(
        extents_compatible(a, b) for a, b in zip(lhs, rhs, strict=True)
    )


def join_shapes(lhs: Sequence[int], rhs: Sequence[int]) -> Shape:
    """What two compatible shapes say together: each extent static if either is.

    Verifiers thread this through an op's operands, so that two operands that
    each agree with a dynamic input extent are still checked against each other.
    """
    assert shapes_compatible(lhs, rhs)
    return tuple(b if a == DYNAMIC_INDEX else a for a, b in zip(lhs, rhs, strict=True))


def drop_dims(shape: Sequence[int], dims: Iterable[int]) -> Shape:
    """The shape without the given dimensions (a reduction's result shape)."""
    dropped = set(dims)
    return tuple(extent for index, extent in enumerate(shape) if index not in dropped)


def format_shape(shape: Sequence[int]) -> str:
    """`[4, ?, 8]`: how verifier messages spell an expected shape."""
    return "[" + ", ".join("?" if e == DYNAMIC_INDEX else str(e) for e in shape) + "]"
