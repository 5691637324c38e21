"""How a compiled call's results come back to Python (used by
`linalg_ext.jit.call_plan`): where each sits in the result struct, the
numpy array over a buffer the call allocated (which frees it when
collected), and copies into `out=` arrays."""

from __future__ import annotations

import ctypes
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from math import prod
from typing import Any

import numpy as np
from xdsl.dialects.builtin import MemRefType, NoneAttr
from xdsl.ir import Attribute

from linalg_ext.calling_convention import LIBC, RawMemory, data_pointer, value_dtype
from linalg_ext.jit.memory import OwnedBuffer

GLOBAL_MARKER = 0xDEADBEEF
"""The allocated pointer finalize-memref-to-llvm gives `memref.get_global`
descriptors (as upstream): such a buffer is a constant, never freed."""


def row_major(shape: Sequence[int]) -> list[int]:
    """The strides, in elements, of a row-major array of static `shape`."""
    strides: list[int] = []
    step = 1
    for extent in reversed(shape):
        strides.append(step)
        step *= extent
    return strides[::-1]


class ResultMemory(RawMemory):
    """`RawMemory` with its array interface built by the caller (a dict
    literal: faster than `RawMemory.__init__`)."""

    def __init__(self, interface: dict[str, Any], owner: Any):
        self.__array_interface__ = interface
        self.owner = owner


@cache
def owned_bytes(nbytes: int) -> Any:
    """A ctypes type over `nbytes` bytes of a result, placed at its data
    (`from_address`) and viewed by numpy (`np.frombuffer`, which keeps it
    as the array's base): when collected, it frees `allocated`, the buffer
    the call allocated (untracked: with `free`). Faster than an array
    interface and an `OwnedBuffer`."""

    class OwnedBytes(ctypes.c_char * nbytes):
        allocated: int = 0

        def __del__(self) -> None:
            LIBC.free(self.allocated)

    return OwnedBytes


def owned_pointer(array: np.ndarray) -> int | None:
    """The buffer a result array owns (it or the arrays it views), if any:
    what `run_function` tells apart from leaks."""
    base: Any = array
    while isinstance(base, np.ndarray) and base.base is not None:
        base = base.base
    owner = getattr(base, "owner", None)
    if isinstance(owner, OwnedBuffer):
        return owner.pointer
    allocated = getattr(base, "allocated", None)
    return allocated if isinstance(allocated, int) and allocated else None


@dataclass(frozen=True)
class ResultLayout:
    """Where a result sits in the result struct and what it becomes."""

    type_: Attribute
    field: str | None
    """Its field in a struct of several results; None for the one result."""
    word: int
    """A memref's first field, in 8-byte words from the struct's start."""
    dtype: np.dtype
    shape: tuple[int, ...] | None
    """A memref's extents when its type fixes them (and its strides, which
    are then row-major); None otherwise or for a scalar."""
    byte_strides: tuple[int, ...] | None
    is_f16: bool
    """A scalar travelling as its bits (`python_scalar` makes it a float)."""
    is_memref: bool
    rank: int
    itemsize: int
    typestr: str
    static_shape: tuple[int, ...]
    """A memref's extents as its type has them (-1: dynamic); () else."""
    nbytes: int
    """A memref's bytes when its type fixes its shape (else 0)."""
    owned_bytes: Any
    """Then, the `_OwnedBytes` type of that many bytes (else None)."""


def result_layouts(types: Sequence[Attribute], result_ctype: Any) -> list[ResultLayout]:
    layouts: list[ResultLayout] = []
    for index, type_ in enumerate(types):
        field = f"f{index}" if len(types) > 1 else None
        offset = getattr(result_ctype, field).offset if field is not None else 0
        dtype = value_dtype(type_)
        shape = strides = None
        nbytes = 0
        if isinstance(type_, MemRefType):
            static = tuple(type_.get_shape())
            if isinstance(type_.layout, NoneAttr) and all(e >= 0 for e in static):
                shape = static
                strides = tuple(s * dtype.itemsize for s in row_major(static))
                nbytes = dtype.itemsize * prod(static)
        layouts.append(
            ResultLayout(
                type_,
                field,
                offset // 8,
                dtype,
                shape,
                strides,
                not isinstance(type_, MemRefType) and dtype == np.float16,
                isinstance(type_, MemRefType),
                len(type_.get_shape()) if isinstance(type_, MemRefType) else 0,
                dtype.itemsize,
                dtype.str,
                tuple(type_.get_shape()) if isinstance(type_, MemRefType) else (),
                nbytes,
                owned_bytes(nbytes) if shape is not None else None,
            )
        )
    return layouts


@dataclass
class Returned:
    """A memref result as the call left it."""

    allocated: int
    data: int
    """The address of its first element (aligned + offset)."""
    shape: tuple[int, ...]
    byte_strides: tuple[int, ...]


def returned_memref(layout: ResultLayout, words: Any) -> Returned:
    first = layout.word
    itemsize = layout.dtype.itemsize
    data = words[first + 1] + words[first + 2] * itemsize
    if layout.shape is not None and layout.byte_strides is not None:
        return Returned(words[first], data, layout.shape, layout.byte_strides)
    rank = layout.rank
    sizes = first + 3
    return Returned(
        words[first],
        data,
        tuple(words[sizes : sizes + rank]),
        tuple(s * itemsize for s in words[sizes + rank : sizes + 2 * rank]),
    )


def view(returned: Returned, dtype: np.dtype, owner: Any) -> np.ndarray:
    """A numpy array over the returned memory, keeping `owner` alive; an
    empty one is fresh (there may be no memory to view)."""
    if 0 in returned.shape:
        return np.zeros(returned.shape, dtype)
    interface = {
        "data": (returned.data, False),
        "shape": returned.shape,
        "strides": returned.byte_strides,
        "typestr": dtype.str,
        "version": 3,
    }
    return np.asarray(ResultMemory(interface, owner))


def isrow_major(returned: Returned, itemsize: int) -> bool:
    expected = itemsize
    for extent, stride in zip(
        reversed(returned.shape), reversed(returned.byte_strides), strict=True
    ):
        if extent > 1 and stride != expected:
            return False
        expected *= extent
    return True


def copy_into(target: np.ndarray, value: Returned, dtype: np.dtype) -> None:
    """Copy a returned memref into `target` (same dtype and shape)."""
    if 0 in value.shape:
        return
    if target.flags.c_contiguous and isrow_major(value, dtype.itemsize):
        ctypes.memmove(data_pointer(target), value.data, target.nbytes)
    else:
        np.copyto(target, view(value, dtype, None))
