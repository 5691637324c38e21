"""How `vector.print` writes a value: as upstream's runtime library does once
`convert-vector-to-llvm` has lowered it (what `mlir-runner` shows).

- floats (any width) as C's `%g` of the value as a double: `1.5`, `1e+20`,
  `-2.25e-07`, `nan`, `inf`;
- signless and signed integers as signed decimals of their width (an `i8`
  holding 200 is `-56`), `i1` as `1` or `0`;
- unsigned integers and `index` as unsigned decimals (`index` of 64 bits:
  `-1` is `18446744073709551615`);
- vectors as `( e0, e1, ... )`, nested per dimension (`( ( 1, 2 ), ( 3, 4 )
  )`); a 0-d vector as `( e )`.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from xdsl.dialects.builtin import (
    AnyFloat,
    IndexType,
    IntegerType,
    Signedness,
    VectorType,
)
from xdsl.interpreters.shaped_array import ShapedArray
from xdsl.ir import Attribute

from linalg_ext.semantics.arrays import numpy_view

INDEX_BITS = 64


def _wrapped(value: int, bits: int, signed: bool) -> int:
    value &= (1 << bits) - 1
    if signed and value >= 1 << (bits - 1):
        value -= 1 << bits
    return value


def format_scalar(value: Any, type_: Attribute) -> str:
    """One element of `type_`, as upstream's runtime prints it."""
    if isinstance(type_, AnyFloat):
        return f"{float(value):g}"
    if isinstance(type_, IndexType):
        return str(_wrapped(int(value), INDEX_BITS, signed=False))
    if isinstance(type_, IntegerType):
        width = type_.width.data
        if width == 1:
            return "1" if value else "0"
        unsigned = type_.signedness.data == Signedness.UNSIGNED
        return str(_wrapped(int(value), width, signed=not unsigned))
    raise ValueError(f"vector.print cannot print a value of type {type_}")


def _format_nested(values: np.ndarray, element_type: Attribute) -> str:
    if values.ndim == 0:
        return format_scalar(values.item(), element_type)
    parts = (_format_nested(row, element_type) for row in values)
    return "( " + ", ".join(parts) + " )"


def format_printed(value: Any, type_: Attribute) -> str:
    """A value of a type `vector.print` accepts, as upstream prints it."""
    if isinstance(type_, VectorType):
        array = numpy_view(value) if isinstance(value, ShapedArray) else value
        values = np.asarray(array)
        if values.ndim == 0:  # vector<f32>: one element, in brackets
            values = values.reshape(1)
        return _format_nested(values, type_.get_element_type())
    return format_scalar(value, type_)
