"""Scalar MLIR types as numpy computes them.

`Scalar` says how values of one element type are held while a body or a
named op is evaluated with numpy: i1 is computed as bool (and stored as
int8), integers and floats as the numpy type of their width.
`NotVectorisable` is what the numpy translation raises for an op or a type
it does not cover; the callers then fall back to the interpreter.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from xdsl.dialects.builtin import (
    Float16Type,
    Float32Type,
    Float64Type,
    IndexType,
    IntegerType,
)
from xdsl.ir import Attribute

from linalg_ext.shaped import element_type_or_self


class NotVectorisable(Exception):
    """The body uses an op or a type the numpy translation does not cover."""


# --------------------------------------------------------------------------
# Scalar types as numpy computes them
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class Scalar:
    """How values of one scalar MLIR type are held during numpy evaluation."""

    kind: str
    """"float", "int", or "bool" for i1."""
    dtype: np.dtype[Any]
    """The dtype of the values while computing (i1 is bool, stored as int8)."""
    width: int

    @property
    def unsigned(self) -> np.dtype[Any]:
        return np.dtype(f"uint{self.width}")


_FLOAT_DTYPES = {
    Float16Type: np.float16,
    Float32Type: np.float32,
    Float64Type: np.float64,
}


def scalar_of_type(type_: Attribute, index_bitwidth: int) -> Scalar:
    if isinstance(type_, IndexType):
        return Scalar("int", np.dtype(f"int{index_bitwidth}"), index_bitwidth)
    if isinstance(type_, IntegerType):
        width = type_.width.data
        if width == 1:
            return Scalar("bool", np.dtype(np.bool_), 1)
        if width in (8, 16, 32, 64):
            return Scalar("int", np.dtype(f"int{width}"), width)
    float_dtype = _FLOAT_DTYPES.get(type(type_))
    if float_dtype is not None:
        dtype = np.dtype(float_dtype)
        return Scalar("float", dtype, dtype.itemsize * 8)
    raise NotVectorisable(f"values of type {type_}")


def element_type(type_: Attribute) -> Attribute:
    return element_type_or_self(type_)


def wrap_int(value: int, width: int) -> int:
    """`value` modulo 2**width, as a signed number (MLIR's wraparound)."""
    half = 1 << (width - 1)
    return ((value + half) % (1 << width)) - half


def to_compute(stored: np.ndarray, scalar: Scalar) -> np.ndarray:
    """Stored elements as computed with: i1 is stored as int8, computed as bool."""
    return stored != 0 if scalar.kind == "bool" else stored


def constant_array(value: Any, scalar: Scalar, ndim: int) -> np.ndarray:
    if scalar.kind == "bool":
        array = np.array(bool(value))
    elif scalar.kind == "int":
        array = np.array(wrap_int(int(value), scalar.width), dtype=scalar.dtype)
    else:
        array = np.array(value, dtype=scalar.dtype)
    return array.reshape((1,) * ndim)
