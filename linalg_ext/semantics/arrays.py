"""numpy views of the interpreter's shaped values, and back.

xDSL's interpreter keeps a tensor or memref as a `ShapedArray` over a
bytearray. `numpy_view` looks at that memory in place (writes through it
change the value), so an op can be computed with numpy and still hand
xDSL's own interpreter functions the values they expect.

A memref view that is not contiguous (a `memref.subview` with non-unit
strides, say) is a `StridedArray`: the same bytearray as its source, a
pointer to its first element and a stride per dimension, in elements.
`numpy_view` of one is a strided numpy array over that same memory.

The helpers below the array classes are shared by the tensor, memref and
bufferization functions: mixed static/dynamic operand lists, slice bounds,
rank-reducing slices and reassociation groups.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from dataclasses import dataclass
from math import prod
from typing import Any, Literal

import numpy as np
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    DenseResourceAttr,
    IntegerType,
    PackableType,
    ShapedType,
    StructPackableType,
)
from xdsl.interpreters.builtin import xtype_for_el_type
from xdsl.interpreters.shaped_array import ShapedArray
from xdsl.interpreters.utils.ptr import RawPtr, TypedPtr
from xdsl.ir import Attribute, Operation
from xdsl.utils.exceptions import InterpretationError

from linalg_ext import shaped
from linalg_ext.semantics.static_rules import (
    INT64_MAX,
    STACK_LIMIT,
    allocation_overflow_message,
    memory_bytes,
    stack_limit_message,
)


def row_major_strides(shape: Sequence[int]) -> list[int]:
    """Element strides of a contiguous array of `shape`, last dimension fastest.

    xDSL's `ShapedType.strides_for_shape`, for run-time shapes: their extents
    are never `DYNAMIC_INDEX`, so every stride is known.
    """
    strides = ShapedType.strides_for_shape(shape)
    known = [stride for stride in strides if stride is not None]
    assert len(known) == len(strides), f"a dynamic extent in {list(shape)}"
    return known


@dataclass
class StridedArray(ShapedArray[Any]):
    """A view of `shape` whose element at `index` is
    `data_ptr[sum(i * s for i, s in zip(index, strides))]`.

    `data_ptr` points at the view's first element inside its source's
    bytearray, so loads and stores (xDSL's own, through `offset`, and
    numpy's, through `numpy_view`) reach the source's elements. Values
    derived from a view (`copy`, `with_shape`, `transposed`) are new,
    contiguous `ShapedArray`s.
    """

    strides: list[int] | None = None
    """Element strides, one per dimension; None is the row-major layout."""

    def __post_init__(self) -> None:
        if self.strides is None:
            self.strides = row_major_strides(self.shape)
        if len(self.strides) != len(self.shape):
            raise ValueError(
                f"{len(self.strides)} strides for a shape of rank {len(self.shape)}"
            )

    @property
    def element_strides(self) -> list[int]:
        assert self.strides is not None  # set by __post_init__
        return self.strides

    def offset(self, index: Sequence[int]) -> int:
        if len(index) != len(self.shape):
            raise ValueError(f"Invalid indices {index} for shape {self.shape}")
        for position, size in zip(index, self.shape, strict=True):
            if not 0 <= position < size:
                raise IndexError(f"index {list(index)} out of bounds of {self.shape}")
        return sum(
            position * stride
            for position, stride in zip(index, self.element_strides, strict=True)
        )

    @property
    def data(self) -> list[Any]:
        """The elements in row-major order (a copy, as for `ShapedArray`)."""
        return numpy_view(self).ravel().tolist()

    def copy(self) -> ShapedArray[Any]:
        return contiguous_copy(self)

    def with_shape(self, new_shape: Sequence[int]) -> ShapedArray[Any]:
        if prod(new_shape) != self.size:
            raise ValueError(f"cannot view {self.shape} as {list(new_shape)}")
        return ShapedArray(contiguous_copy(self).data_ptr, list(new_shape))

    def transposed(self, dim0: int, dim1: int) -> ShapedArray[Any]:
        return contiguous_copy(self).transposed(dim0, dim1)

    def __format__(self, format_spec: str) -> str:
        return format(contiguous_copy(self), format_spec)


def strides_of(array: ShapedArray[Any]) -> list[int]:
    """The element strides of any shaped value."""
    if isinstance(array, StridedArray):
        return list(array.element_strides)
    return row_major_strides(array.shape)


def is_contiguous(shape: Sequence[int], strides: Sequence[int]) -> bool:
    """Whether the layout is row-major (the strides of unit dimensions, and of
    every dimension of an empty array, do not matter)."""
    if 0 in shape:
        return True
    expected = row_major_strides(shape)
    return all(
        size == 1 or stride == want
        for size, stride, want in zip(shape, strides, expected, strict=True)
    )


def make_view(
    pointer: TypedPtr[Any], shape: Sequence[int], strides: Sequence[int]
) -> ShapedArray[Any]:
    """A value over `pointer`'s memory (aliasing it): a plain `ShapedArray`
    when the layout is row-major, a `StridedArray` otherwise."""
    if is_contiguous(shape, strides):
        return ShapedArray(pointer, list(shape))
    return StridedArray(pointer, list(shape), list(strides))


def struct_format(xtype: PackableType[Any]) -> str:
    """The `struct` format of an element xtype. xDSL types its xtypes as
    PackableType; those of elements are StructPackableTypes, which have one."""
    if not isinstance(xtype, StructPackableType):
        raise TypeError(f"{xtype} has no struct format")
    return xtype.format


def numpy_dtype(element_type: Attribute, index_bitwidth: Literal[32, 64] = 64):
    """The numpy dtype with the interpreter's memory layout for an element type."""
    try:
        xtype = xtype_for_el_type(element_type, index_bitwidth)
        return np.dtype(struct_format(xtype))
    except (NotImplementedError, AttributeError, TypeError) as error:
        raise InterpretationError(
            f"element type {element_type} cannot be interpreted"
        ) from error


def element_xtype(
    element_type: Attribute, index_bitwidth: Literal[32, 64] = 64
) -> PackableType[Any]:
    """The interpreter's packing of `element_type` (clean error if it has none)."""
    numpy_dtype(element_type, index_bitwidth)  # raises for unsupported types
    return xtype_for_el_type(element_type, index_bitwidth)


def is_i1(element_type: Attribute) -> bool:
    return isinstance(element_type, IntegerType) and element_type.width.data == 1


def signed_elements(array: np.ndarray, element_type: Attribute) -> np.ndarray:
    """The elements as signed values, ready for a sign-extending cast.

    An i1 true sits in memory as 1 (as upstream and numpy store it) or as -1
    (xDSL's own i1 constant is -1); read as signed it is -1 either way.
    """
    if is_i1(element_type):
        return np.where(array != 0, -1, 0).astype(np.int8)
    return array


def canonical_i1(array: np.ndarray) -> np.ndarray:
    """i1 elements as upstream stores them: 0 or 1."""
    return (array != 0).astype(array.dtype)


def destinations(
    op: Operation, outputs: Sequence[ShapedArray[Any]]
) -> tuple[ShapedArray[Any], ...]:
    """Where a destination-style op writes: copies of the inits when it
    returns tensors (the operands stay untouched), the output buffers
    themselves on memrefs."""
    return tuple(o.copy() for o in outputs) if op.results else tuple(outputs)


def destination_results(
    op: Operation, written: Sequence[ShapedArray[Any]]
) -> tuple[ShapedArray[Any], ...]:
    """The op's results: the written values on tensors, nothing on memrefs."""
    return tuple(written) if op.results else ()


def numpy_view(array: ShapedArray[Any]) -> np.ndarray:
    """The array's elements as a numpy array sharing its memory."""
    pointer = array.data_ptr
    dtype = np.dtype(struct_format(pointer.xtype))
    if array.size == 0:
        # Nothing to share; numpy would still check the offset of an empty
        # view, which may lie past the end of its source.
        return np.empty(array.shape, dtype=dtype)
    if isinstance(array, StridedArray):
        return np.ndarray(
            tuple(array.shape),
            dtype=dtype,
            buffer=pointer.raw.memory,
            offset=pointer.raw.offset,
            strides=tuple(s * dtype.itemsize for s in array.element_strides),
        )
    flat = np.frombuffer(
        pointer.raw.memory, dtype=dtype, count=array.size, offset=pointer.raw.offset
    )
    return flat.reshape(array.shape)


def array_from_numpy(
    values: np.ndarray, xtype: PackableType[Any], shape: Sequence[int] | None = None
) -> ShapedArray[Any]:
    """A new contiguous ShapedArray of `xtype` holding `values` (converted)."""
    dtype = np.dtype(struct_format(xtype))
    data = np.ascontiguousarray(values, dtype=dtype)
    pointer = TypedPtr[Any](RawPtr(bytearray(data.tobytes())), xtype=xtype)
    return ShapedArray(pointer, list(values.shape if shape is None else shape))


def shaped_array(
    values: np.ndarray,
    element_type: Attribute,
    index_bitwidth: Literal[32, 64] = 64,
) -> ShapedArray[Any]:
    """A new ShapedArray holding `values` converted to `element_type`."""
    xtype = xtype_for_el_type(element_type, index_bitwidth)
    return array_from_numpy(np.asarray(values), xtype)


def zeros(shape: Sequence[int], xtype: PackableType[Any]) -> ShapedArray[Any]:
    """A new contiguous array of zeros."""
    return ShapedArray(TypedPtr[Any].zeros(prod(shape), xtype=xtype), list(shape))


def contiguous_copy(array: ShapedArray[Any]) -> ShapedArray[Any]:
    """A new contiguous ShapedArray with the elements of `array` (any layout)."""
    return array_from_numpy(numpy_view(array), array.data_ptr.xtype, array.shape)


def element_type_of(type_: Attribute) -> Attribute:
    assert isinstance(type_, ShapedType)
    return shaped.element_type_of(type_)


# --------------------------------------------------------------------------
# Shapes, slices and reassociations, shared by tensor and memref ops
# --------------------------------------------------------------------------


def fill_dynamic(
    static: Sequence[int], dynamic: Sequence[int], op_name: str, what: str
) -> list[int]:
    """`static` with each DYNAMIC_INDEX replaced, in order, by a `dynamic` value."""
    values = iter(dynamic)
    filled = [next(values, None) if s == DYNAMIC_INDEX else s for s in static]
    if None in filled or next(values, None) is not None:
        raise InterpretationError(
            f"{op_name}: {len(dynamic)} dynamic {what} for "
            f"{list(static).count(DYNAMIC_INDEX)} dynamic positions"
        )
    return [int(v) for v in filled if v is not None]


def slice_operands(
    op: Any, values: Sequence[int]
) -> tuple[list[int], list[int], list[int]]:
    """The offsets, sizes and strides of a slice-like op (tensor.extract_slice,
    tensor.insert_slice, memref.subview), static and dynamic ones mixed;
    `values` are the op's dynamic offsets, sizes and strides in that order."""
    n_offsets, n_sizes = len(op.offsets), len(op.sizes)
    dynamic_offsets = values[:n_offsets]
    dynamic_sizes = values[n_offsets : n_offsets + n_sizes]
    dynamic_strides = values[n_offsets + n_sizes :]
    return (
        fill_dynamic(
            op.static_offsets.get_values(), dynamic_offsets, op.name, "offsets"
        ),
        fill_dynamic(op.static_sizes.get_values(), dynamic_sizes, op.name, "sizes"),
        fill_dynamic(
            op.static_strides.get_values(), dynamic_strides, op.name, "strides"
        ),
    )


def check_sizes(sizes: Sequence[int], op_name: str) -> None:
    if any(size < 0 for size in sizes):
        raise InterpretationError(f"{op_name}: negative size in {list(sizes)}")


def check_allocation(
    shape: Sequence[int], xtype: PackableType[Any], op_name: str
) -> None:
    """Refuse, before trying, a fresh buffer of `shape` larger than the
    machine's memory: `<op>: cannot allocate N bytes`, what compiled code
    says when its `malloc` fails; a size beyond int64 (which compiled code
    could not compute) is said by `allocation_overflow_message`."""
    element_bytes = struct.calcsize(struct_format(xtype))
    size = prod(shape) * element_bytes
    if size > INT64_MAX:
        raise InterpretationError(
            allocation_overflow_message(op_name, [str(s) for s in shape], element_bytes)
        )
    if size > memory_bytes():
        raise InterpretationError(f"{op_name}: cannot allocate {size} bytes")


def check_stack_allocation(
    shape: Sequence[int], xtype: PackableType[Any], op_name: str
) -> None:
    """Refuse a `memref.alloca` of `shape` larger than `STACK_LIMIT` (one
    whose size is beyond int64 is left to `check_allocation`'s message, as
    compiled code checks that first)."""
    size = prod(shape) * struct.calcsize(struct_format(xtype))
    if STACK_LIMIT < size <= INT64_MAX:
        raise InterpretationError(stack_limit_message(op_name, size))


def checked_dim(
    op: Operation, source: ShapedArray[Any], dim: int, kind: str, name: str = ""
) -> int:
    """The extent of dimension `dim` of `source` (a `kind`), for tensor.dim and
    memref.dim; a dimension out of range is an error naming the op (or
    `name`, the op it was bufferized from)."""
    if not 0 <= dim < len(source.shape):
        raise InterpretationError(
            f"{name or op.name}: dimension {dim} of a {kind} of rank "
            f"{len(source.shape)}"
        )
    return source.shape[dim]


def check_fits_type(
    shape: Sequence[int], type_: Attribute, op_name: str, what: str
) -> None:
    """A run-time shape against the static sizes of a shaped type."""
    if not isinstance(type_, ShapedType):
        return  # unranked: anything fits
    expected = type_.get_shape()
    if len(expected) != len(shape) or any(
        e != DYNAMIC_INDEX and e != s for e, s in zip(expected, shape, strict=True)
    ):
        raise InterpretationError(
            f"{op_name}: {what} has shape {list(shape)}, which does not fit {type_}"
        )


def check_index(
    op: Operation,
    array: ShapedArray[Any],
    indices: Sequence[int],
    op_name: str | None = None,
) -> tuple[int, ...]:
    """`indices` as a tuple, if they address an element of `array`; the
    message names `op_name` (by default `op`'s)."""
    if len(indices) != len(array.shape) or not all(
        0 <= i < size for i, size in zip(indices, array.shape, strict=True)
    ):
        raise InterpretationError(
            f"{op_name or op.name}: index {list(indices)} is out of bounds of "
            f"shape {array.shape}"
        )
    return tuple(indices)


def check_slice_bounds(
    source_shape: Sequence[int],
    offsets: Sequence[int],
    sizes: Sequence[int],
    strides: Sequence[int],
    op_name: str,
) -> None:
    """Every element of the slice lies inside the source."""
    if not len(source_shape) == len(offsets) == len(sizes) == len(strides):
        raise InterpretationError(
            f"{op_name}: {len(offsets)} offsets, {len(sizes)} sizes and "
            f"{len(strides)} strides for a source of rank {len(source_shape)}"
        )
    for dim, (extent, offset, size, stride) in enumerate(
        zip(source_shape, offsets, sizes, strides, strict=True)
    ):
        if size < 0:
            raise InterpretationError(f"{op_name}: size {size} of dimension {dim}")
        if size == 0:
            in_bounds = 0 <= offset <= extent
        else:
            last = offset + (size - 1) * stride
            in_bounds = 0 <= offset < extent and 0 <= last < extent
        if not in_bounds:
            raise InterpretationError(
                f"{op_name}: slice of dimension {dim} (offset {offset}, size "
                f"{size}, stride {stride}) is out of bounds of its size {extent}"
            )


def check_groups(
    groups: Sequence[Sequence[int]],
    expanded_shape: Sequence[int],
    collapsed_shape: Sequence[int],
    op_name: str,
) -> None:
    """Each collapsed size is the product of its group's expanded sizes."""
    if not groups:
        # Between a scalar-shaped value and one of unit dimensions only.
        if collapsed_shape or prod(expanded_shape) != 1:
            raise InterpretationError(
                f"{op_name}: shape {list(expanded_shape)} and "
                f"{list(collapsed_shape)} have no reassociation"
            )
        return
    if len(groups) != len(collapsed_shape) or sorted(
        d for group in groups for d in group
    ) != list(range(len(expanded_shape))):
        raise InterpretationError(
            f"{op_name}: reassociation {list(map(list, groups))} does not map "
            f"{list(expanded_shape)} to {list(collapsed_shape)}"
        )
    for group, size in zip(groups, collapsed_shape, strict=True):
        group_sizes = [expanded_shape[d] for d in group]
        if prod(group_sizes) != size:
            raise InterpretationError(
                f"{op_name}: dimensions {group_sizes} of {list(expanded_shape)} "
                f"do not make up size {size} of {list(collapsed_shape)}"
            )


def interpreted_resource(op: Operation, value: Attribute) -> np.ndarray:
    """The elements of a `dense_resource` attribute of `op`, read from its
    blob (compat/resources.py); a blob that is missing, not hex or of the
    wrong size is an InterpretationError naming the op."""
    from linalg_ext.compat.resources import ResourceError, resource_array

    assert isinstance(value, DenseResourceAttr)
    try:
        return resource_array(value)
    except ResourceError as error:
        raise InterpretationError(f"{op.name}: {error}") from None
