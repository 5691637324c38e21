"""What a function argument of a given type accepts: one rule for every backend.

The interpreter (`linalg_ext.running.run_function`) and `linalg-ext-run`'s
`--inputs` (for both `--backend interpreter` and `--backend jit`) convert each
value here, so that the same input is accepted, or refused with the same
message, whichever backend runs it. A value is accepted when converting it to
the declared type keeps its meaning; then it is converted:

- a float type (`f16`, `f32`, `f64`) takes floats and integers, rounded to the
  type's precision; a finite value the type cannot hold (`1e40` in `f32`) is
  refused, infinities and NaNs pass as they are;
- an integer type (`iN`, `index` as 64 bits) takes integers whose values fit
  in N bits, read as signed or as unsigned (MLIR's integers are signless:
  255 and -1 are the same `i8`); a value is kept as the signed N-bit value
  the interpreter holds;
- `i1` takes booleans, and integers 0, 1 (and -1, true as a signed `i1`);
- everything else is refused: floats into an integer type (even 2.0), booleans
  into anything but `i1`, complex numbers, strings, objects, structured
  dtypes;
- a tensor or memref takes an array (or anything `numpy.asarray` makes one
  of) of its rank whose static extents match; a scalar type takes a Python or
  numpy scalar or a 0-d array, not an array of one element.

An array whose dtype already is the element type's (bool for `i1`, viewed as
int8) is passed as it is, not copied, so that a memref argument shows what
the call wrote into it.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from xdsl.dialects.builtin import (
    AnyFloat,
    IndexType,
    IntegerType,
    MemRefType,
    TensorType,
)
from xdsl.ir import Attribute
from xdsl.utils.exceptions import InterpretationError

from linalg_ext.semantics.arrays import is_i1, numpy_dtype

__all__ = [
    "ArgumentValueError",
    "argument_value",
    "check_argument_type",
]


class ArgumentValueError(ValueError):
    """A value that an argument of its declared type does not accept."""


def check_argument_type(type_: Attribute, what: str) -> np.dtype:
    """The numpy dtype values of `type_` (or of its elements) have, or an
    ArgumentValueError `<what>: unsupported type <type>` for a type no
    backend passes (unranked or vector types, `bf16`, ...)."""
    if isinstance(type_, TensorType | MemRefType):
        element = type_.get_element_type()
    elif isinstance(type_, AnyFloat | IntegerType | IndexType):
        element = type_
    else:
        raise ArgumentValueError(f"{what}: unsupported type {type_}")
    try:
        return numpy_dtype(element)
    except InterpretationError:
        raise ArgumentValueError(f"{what}: unsupported type {type_}") from None


def argument_value(value: Any, type_: Attribute, what: str) -> Any:
    """`value` as an argument of `type_`: a numpy array of the element type's
    dtype for a tensor or memref, a Python int or float for a scalar; or an
    ArgumentValueError saying, after `what` (`argument #1 of @f`), why it is
    refused. See the module docstring for the rule."""
    dtype = check_argument_type(type_, what)
    if isinstance(type_, TensorType | MemRefType):
        return _array_argument(value, type_, dtype, what)
    return _scalar_argument(value, type_, dtype, what)


def _array_argument(
    value: Any, type_: TensorType | MemRefType, dtype: np.dtype, what: str
) -> np.ndarray:
    try:
        array = value if isinstance(value, np.ndarray) else np.asarray(value)
    except (ValueError, TypeError, OverflowError) as error:
        raise ArgumentValueError(f"{what}: not an array: {error}") from None
    expected = type_.get_shape()
    if len(expected) != array.ndim or any(
        e >= 0 and e != s for e, s in zip(expected, array.shape, strict=True)
    ):
        raise ArgumentValueError(
            f"{what} has shape {list(array.shape)}, which does not fit {type_}"
        )
    return _converted(array, type_.get_element_type(), dtype, type_, what)


def _scalar_argument(
    value: Any, type_: Attribute, dtype: np.dtype, what: str
) -> int | float:
    if isinstance(value, bool | np.bool_):
        array = np.asarray(value)
    elif isinstance(value, int):
        # Python's integers are unbounded: check before numpy would overflow.
        return _python_int(value, type_, dtype, what)
    else:
        try:
            array = np.asarray(value)
        except (ValueError, TypeError, OverflowError) as error:
            raise ArgumentValueError(f"{what}: not a scalar: {error}") from None
    if array.ndim != 0:
        raise ArgumentValueError(
            f"{what} is a scalar of type {type_}, the input has shape "
            f"{list(array.shape)}"
        )
    converted = _converted(array, type_, dtype, type_, what)
    if is_i1(type_):
        return 1 if converted.item() else 0
    return converted.item()


def _python_int(value: int, type_: Attribute, dtype: np.dtype, what: str) -> Any:
    if dtype.kind == "f":
        try:
            as_float = float(value)
        except OverflowError:
            raise ArgumentValueError(_out_of_range(value, type_, what)) from None
        return _converted(np.asarray(as_float), type_, dtype, type_, what).item()
    low, high = _integer_range(type_)
    if not low <= value <= high:
        raise ArgumentValueError(_out_of_range(value, type_, what))
    if is_i1(type_):
        return 1 if value else 0
    bits = dtype.itemsize * 8
    wrapped = value & ((1 << bits) - 1)
    return wrapped - (1 << bits) if wrapped >= 1 << (bits - 1) else wrapped


def _integer_range(element: Attribute) -> tuple[int, int]:
    """The values an integer type (or index) holds, read as signed or
    unsigned."""
    width = element.width.data if isinstance(element, IntegerType) else 64
    return -(1 << (width - 1)), (1 << width) - 1


def _out_of_range(value: Any, element: Attribute, what: str) -> str:
    return f"{what}: {_shown(value)} is out of range of {element}"


def _shown(value: Any) -> str:
    """A value in a message: numpy's short form, a huge integer abridged."""
    text = str(value)
    if isinstance(value, int) and len(text) > 24:
        return f"{text[:6]}... ({len(text.lstrip('-'))} digits)"
    return text


def _refused(array: np.ndarray, type_: Attribute, dtype: np.dtype, what: str) -> str:
    return f"{what} has dtype {array.dtype}, {type_} needs {dtype}"


def _converted(
    array: np.ndarray, element: Attribute, dtype: np.dtype, type_: Attribute, what: str
) -> np.ndarray:
    """`array`'s values as `dtype`, the representation of `element`, if the
    rule accepts them (`type_` is the argument's type, for messages)."""
    kind = array.dtype.kind
    if array.dtype.fields is not None or kind not in "biuf":
        raise ArgumentValueError(_refused(array, type_, dtype, what))
    if is_i1(element):
        if kind == "b":
            return array.view(np.int8)
        if kind == "f":
            raise ArgumentValueError(_refused(array, type_, dtype, what))
        return _checked_integers(array, element, dtype, what)
    if kind == "b":
        raise ArgumentValueError(_refused(array, type_, dtype, what))
    if array.dtype == dtype:
        return array
    if dtype.kind == "f":
        with np.errstate(all="ignore"):
            converted = array.astype(dtype)
        overflowed = np.isinf(converted) & ~np.isinf(array)
        if overflowed.any():
            raise ArgumentValueError(
                _first_out_of_range(array, overflowed, element, what)
            )
        return converted
    if kind == "f":
        raise ArgumentValueError(_refused(array, type_, dtype, what))
    return _checked_integers(array, element, dtype, what)


def _checked_integers(
    array: np.ndarray, element: Attribute, dtype: np.dtype, what: str
) -> np.ndarray:
    """Integers that fit `element` (signed or unsigned), as its signed dtype."""
    if array.dtype == dtype and not is_i1(element):
        return array
    low, high = _integer_range(element)
    if array.size and (int(array.min()) < low or int(array.max()) > high):
        values = array.astype(object)  # exact comparisons, on the failing path only
        outside = np.asarray((values < low) | (values > high), bool)
        raise ArgumentValueError(_first_out_of_range(array, outside, element, what))
    if array.dtype == dtype:
        return array
    return array.astype(dtype)  # wraps unsigned values into signed ones


def _first_out_of_range(
    array: np.ndarray, outside: np.ndarray, element: Attribute, what: str
) -> str:
    position = tuple(int(i) for i in np.argwhere(outside)[0])
    value = array[position]
    if array.ndim == 0:
        return _out_of_range(value, element, what)
    shown = _shown(value)
    return f"{what}: element {list(position)} = {shown} is out of range of {element}"
