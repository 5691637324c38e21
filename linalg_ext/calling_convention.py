"""How Python calls compiled MLIR functions: one convention for both runners.

`linalg_ext.jit` (our lowering) and `linalg_ext.upstream` (mlir-opt-22's)
pass and return data as `finalize-memref-to-llvm` and `convert-func-to-llvm`
lay it out, built here from numpy arrays and read back into them:

- a ranked memref (a tensor, once bufferized) is MLIR's descriptor
  `{T *allocated; T *aligned; int64 offset; int64 sizes[rank];
  int64 strides[rank]}`, strides in elements: `descriptor_type(rank)`,
  `descriptor_of(array)` over an array's own memory, `array_view` back
  (`data_pointer(array)`: where its memory starts, read fast);
- a scalar is its C type, `np.ctypeslib.as_ctypes_type` of the
  interpreter's dtype (`index` int64, `i1` int8), except `f16`, which ctypes
  lacks and which travels as its 16 bits: `scalar_ctype`, `scalar_argument`,
  `python_scalar`. The value must be one the type holds, by the rule every
  backend follows (`linalg_ext.argument_values`);
- several results are a struct of them, fields `f0`, `f1`, ... (what a
  lowered function returns, and what upstream's C interface writes through
  its first argument): `results_ctype`, `result_fields`;
- a buffer the compiled code allocates comes from libc's `malloc` and is
  freed with `LIBC.free`.

The two runners keep different entry points, each essential to it. The JIT
adds `_lx_packed_<name>(slots, result, nanoseconds, context)` to the LLVM
IR it generates (the slots laid out as `pack_slots` says; the context is
where a failing call leaves its message, linalg_ext/jit/failures.py): one
ctypes signature calls every function, and the call is timed in machine
code, which the benchmarks compare with upstream's `rtclock`. The oracle
runs the LLVM IR upstream produced, unmodified, so it calls the
`_mlir_ciface_<name>` wrappers upstream generates
(`--llvm-request-c-wrappers`: a memref by pointer to its descriptor,
results through a pointer passed first). Both build the same
descriptors and scalars here.
"""

from __future__ import annotations

import ctypes
import struct
import sys
from collections.abc import Callable, Sequence
from functools import cache
from typing import Any

import numpy as np
from xdsl.dialects.builtin import (
    AnyFloat,
    IndexType,
    IntegerType,
    MemRefType,
    NoneAttr,
    StridedLayoutAttr,
)
from xdsl.ir import Attribute
from xdsl.utils.exceptions import InterpretationError

from linalg_ext.argument_values import ArgumentValueError, argument_value
from linalg_ext.bufferization.layouts import row_major_strides
from linalg_ext.semantics.arrays import is_i1, numpy_dtype
from linalg_ext.shaped import is_ranked_shaped

SLOT_BYTES = 8
"""The size of one slot of a packed entry point's argument array."""

LIBC = ctypes.CDLL(None)
"""The C library: compiled code allocates its buffers with its `malloc`."""
LIBC.malloc.restype = ctypes.c_void_p
LIBC.malloc.argtypes = [ctypes.c_size_t]
LIBC.free.restype = None
LIBC.free.argtypes = [ctypes.c_void_p]


class ArgumentError(ValueError):
    """A value that cannot be passed as an argument of its declared type."""


# --------------------------------------------------------------------------
# Types


def value_dtype(type_: Attribute) -> np.dtype:
    """The numpy dtype of a scalar type, or of a shaped type's elements."""
    element = type_.get_element_type() if is_ranked_shaped(type_) else type_
    return numpy_dtype(element)


def scalar_ctype(type_: Attribute) -> Any:
    """The ctypes type of a scalar type (f16 as its bits: ctypes has none)."""
    dtype = numpy_dtype(type_)
    if dtype == np.float16:
        return ctypes.c_uint16
    return np.ctypeslib.as_ctypes_type(dtype)


@cache
def descriptor_type(rank: int) -> type[ctypes.Structure]:
    """MLIR's memref descriptor of `rank`: allocated and aligned pointers,
    offset, sizes and strides (in elements). Every field is 8 bytes."""

    class MemRefDescriptor(ctypes.Structure):
        _fields_ = [
            ("allocated", ctypes.c_void_p),
            ("aligned", ctypes.c_void_p),
            ("offset", ctypes.c_int64),
            ("sizes", ctypes.c_int64 * rank),
            ("strides", ctypes.c_int64 * rank),
        ]

    return MemRefDescriptor


def value_ctype(type_: Attribute) -> Any:
    """How a value of `type_` is laid out: a descriptor or a C scalar."""
    if is_ranked_shaped(type_):
        return descriptor_type(len(type_.get_shape()))
    return scalar_ctype(type_)


def results_ctype(types: Sequence[Attribute]) -> Any:
    """What a function returning `types` returns: nothing (None), the one
    value, or a struct of them with fields `f0`, `f1`, ..."""
    if not types:
        return None
    if len(types) == 1:
        return value_ctype(types[0])
    fields = [(f"f{index}", value_ctype(t)) for index, t in enumerate(types)]
    return type("Results", (ctypes.Structure,), {"_fields_": fields})


# --------------------------------------------------------------------------
# Arguments


def scalar_converter(
    type_: Attribute, what: str = "the argument"
) -> Callable[[Any], Any]:
    """value -> the C scalar of `type_`, after `argument_values`' rule (a
    refused value raises ArgumentError after `what`): an integer is kept as
    its bits (two's complement), i1 is 0 or 1, a float is rounded to the
    type (f16 then travels as its bits)."""
    ctype = scalar_ctype(type_)
    if is_i1(type_):
        return lambda value: ctype(_accepted(value, type_, what))
    if isinstance(type_, IntegerType | IndexType):
        # ctypes keeps the low bits
        return lambda value: ctype(_accepted(value, type_, what))
    dtype = numpy_dtype(type_)
    return lambda value: ctype.from_buffer_copy(
        np.array(_accepted(value, type_, what), dtype)
    )


def scalar_argument(value: Any, type_: Attribute, what: str = "the argument") -> Any:
    """`value` as the C scalar of `type_` (see `scalar_converter`)."""
    return scalar_converter(type_, what)(value)


def _accepted(value: Any, type_: Attribute, what: str) -> Any:
    """`value` as `argument_values` converts it for `type_` (a Python int
    or float), or ArgumentError saying why it is refused."""
    try:
        return argument_value(value, type_, what)
    except ArgumentValueError as error:
        raise ArgumentError(str(error)) from None


_HEAD_BYTES = object.__basicsize__
"""CPython's object header: numpy's array struct (`PyArrayObject_fields`,
public in its headers) starts with it, then `char *data`."""
_word_at = ctypes.c_size_t.from_address


def _header_data_pointer(array: np.ndarray) -> int:
    return _word_at(id(array) + _HEAD_BYTES).value


def _interface_data_pointer(array: np.ndarray) -> int:
    return array.__array_interface__["data"][0]


def _choose_data_pointer() -> Callable[[np.ndarray], int]:
    """How to read an array's data pointer: from numpy's struct (about 10x
    faster than `__array_interface__`, which builds a dict) where that gives
    the same pointers on probe arrays, else the interface."""
    if sys.implementation.name != "cpython":
        return _interface_data_pointer
    probes = [
        np.zeros(3),
        np.arange(8, dtype=np.int8)[3:],
        np.ones((2, 3), np.float32).T,
    ]
    for probe in probes:
        if _header_data_pointer(probe) != _interface_data_pointer(probe):
            return _interface_data_pointer
    return _header_data_pointer


data_pointer = _choose_data_pointer()
"""array -> the address of its first element (an `np.ndarray`, subclasses
included)."""


def descriptor_fields(array: np.ndarray, offset: int = 0) -> list[int]:
    """The fields of a descriptor of `array`'s own memory, in order:
    allocated, aligned, offset, sizes, strides (elements). `offset`
    (elements) is a layout's static offset: the aligned pointer then points
    that far before the array's data. The caller keeps `array` alive while
    the fields are in use, and has checked its strides are whole elements."""
    itemsize = array.itemsize
    pointer = data_pointer(array)
    return [
        pointer,
        pointer - offset * itemsize,
        offset,
        *array.shape,
        *[stride // itemsize for stride in array.strides],
    ]


def descriptor_of(array: np.ndarray, offset: int = 0) -> ctypes.Structure:
    """A descriptor (ctypes struct) of `array`'s own memory, no copy: what
    the function writes, the array shows (see `descriptor_fields`)."""
    fields = descriptor_fields(array, offset)
    rank = array.ndim
    descriptor = descriptor_type(rank)()
    descriptor.allocated, descriptor.aligned, descriptor.offset = fields[:3]
    descriptor.sizes[:] = fields[3 : 3 + rank]
    descriptor.strides[:] = fields[3 + rank :]
    return descriptor


def _layout_offset(what: str, type_: MemRefType) -> Callable[[np.ndarray], int]:
    """For a memref type: array -> the descriptor offset, after checking the
    array fits the layout: an identity layout needs a row-major contiguous
    array, a strided layout its static strides (a static offset is honoured
    by pointing the aligned pointer before the array)."""
    layout = type_.layout
    if isinstance(layout, NoneAttr):
        static: Sequence[int | None] | None = None
        offset = 0
        needs = "a row-major contiguous array (identity layout)"
    elif isinstance(layout, StridedLayoutAttr):
        static = layout.get_strides()
        offset = layout.get_offset() or 0
        needs = f"strides {layout}"
    else:
        raise ArgumentError(f"{what}: layout {layout} is not supported")

    def check(array: np.ndarray) -> int:
        if static is None and array.flags.c_contiguous:
            return offset  # row-major already: the common case, checked fast
        shape = array.shape
        strides = [stride // array.itemsize for stride in array.strides]
        expected = row_major_strides(shape) if static is None else static
        for extent, want, have in zip(shape, expected, strides, strict=True):
            if extent > 1 and want is not None and want != have:
                raise ArgumentError(
                    f"{what}: {type_} needs {needs}, the array has strides "
                    f"{list(strides)} (elements); pass np.ascontiguousarray(...) "
                    "or declare a strided layout"
                )
        return offset

    return check


def array_checker(
    what: str, type_: MemRefType, written: bool = False
) -> Callable[[Any], tuple[np.ndarray, int]]:
    """value -> (the array it is passed as, its descriptor offset), passing a
    numpy array as it is (no copy) after checking it fits `type_`: its dtype
    (i1 also takes bool), static extents and layout, and, when the function
    may write it (`written`), that it is writeable. Anything else (a list,
    a scalar) is converted by `argument_values`' rule into a new array.
    `what` names the argument in errors. The checks of `type_` are prepared
    once."""
    element = type_.get_element_type()
    dtype = numpy_dtype(element)
    accepted = {dtype, np.dtype(np.bool_)} if is_i1(element) else {dtype}
    static_shape = type_.get_shape()
    layout_offset = _layout_offset(what, type_)

    def check(value: Any) -> tuple[np.ndarray, int]:
        if not isinstance(value, np.ndarray):
            value = _accepted(value, type_, what)
            assert isinstance(value, np.ndarray)
        if value.dtype not in accepted:
            raise ArgumentError(
                f"{what} has dtype {value.dtype}, {type_} needs {dtype}"
            )
        shape = value.shape
        if len(static_shape) != len(shape) or any(
            e >= 0 and e != s for e, s in zip(static_shape, shape, strict=True)
        ):
            raise ArgumentError(
                f"{what} has shape {list(shape)}, which does not fit {type_}"
            )
        if any(stride % value.itemsize for stride in value.strides):
            raise ArgumentError(
                f"{what}: strides {value.strides} are not whole elements"
            )
        if written and not value.flags.writeable:
            raise ArgumentError(
                f"{what} is a read-only array, and the function may write "
                f"into its {type_}; pass a writeable copy (numpy.array(...))"
            )
        return value, layout_offset(value)

    return check


def scalar_slot(what: str, type_: Attribute) -> Callable[[Any], int]:
    """value -> the 8-byte slot a scalar of `type_` travels in, as an int64:
    its bits from the slot's first byte, the rest zero. The value must be
    accepted by `argument_values`' rule (an integer that fits the type, read
    as signed or unsigned; i1 a bool, 0 or 1; a float or integer that the
    float type holds); a Python int in range, or a Python float for f64,
    takes a fast path."""
    if isinstance(type_, IntegerType | IndexType):
        width = 64 if isinstance(type_, IndexType) else type_.width.data
        mask = (1 << width) - 1
        low = -1 if is_i1(type_) else -(1 << (width - 1))
        high = 1 if is_i1(type_) else mask

        def integer(value: Any) -> int:
            if type(value) is not int or not low <= value <= high:
                value = _accepted(value, type_, what)
            return _as_int64(value & mask)

        return integer
    dtype = numpy_dtype(type_)
    unsigned = np.dtype(f"u{dtype.itemsize}")
    # f32 and f64 from a Python float or a numpy scalar of the type: packed
    # by `struct`, which rounds as numpy does and refuses (OverflowError) a
    # finite value that becomes infinite, the rule's refusal; that value
    # then takes the slow path for its message.
    formats = {np.dtype(np.float32): ("<f", "<I"), np.dtype(np.float64): ("<d", "<q")}
    pack = unpack = None
    if dtype in formats:
        pack = struct.Struct(formats[dtype][0]).pack
        unpack = struct.Struct(formats[dtype][1]).unpack
    fast_types = (float, dtype.type)

    def floating(value: Any) -> int:
        if pack is not None and unpack is not None and type(value) in fast_types:
            try:
                return unpack(pack(value))[0]
            except OverflowError:
                pass
        value = _accepted(value, type_, what)
        return _as_int64(np.array(value, dtype).view(unsigned).item())

    return floating


def _as_int64(bits: int) -> int:
    return bits - (1 << 64) if bits >= 1 << 63 else bits


def slot_converter(
    what: str, type_: Attribute, written: bool = False
) -> Callable[[Any], tuple[list[int], np.ndarray | None]]:
    """value -> (the 8-byte slots a packed entry point reads it from, the
    array it is passed as or None): a descriptor's fields (3 + 2·rank
    slots), or a scalar in one. `written`: the function may write a memref
    argument, so a read-only array is refused. No ctypes object is built:
    this is most of what a JIT call costs from Python."""
    if isinstance(type_, MemRefType):
        check = array_checker(what, type_, written)

        def memref(value: Any) -> tuple[list[int], np.ndarray | None]:
            array, offset = check(value)
            return descriptor_fields(array, offset), array

        return memref
    if isinstance(type_, IndexType | IntegerType | AnyFloat):
        try:
            slot = scalar_slot(what, type_)
        except (InterpretationError, NotImplementedError) as error:
            raise ArgumentError(f"{what}: unsupported type {type_}") from error
        return lambda value: ([slot(value)], None)
    raise ArgumentError(f"{what}: unsupported type {type_}")


def pack_slots(arguments: Sequence[Sequence[int]]) -> np.ndarray:
    """The arguments' slots (from `slot_converter`), consecutive in one int64
    array: what a packed entry point reads."""
    return np.array([slot for slots in arguments for slot in slots], np.int64)


# --------------------------------------------------------------------------
# Results


class RawMemory:
    """Exposes raw memory to numpy; keeps `owner` alive as long as the array
    (numpy keeps this object as the array's base)."""

    def __init__(
        self, pointer: int, shape: Sequence[int], strides: Sequence[int], dtype, owner
    ):
        self.__array_interface__ = {
            "data": (pointer, False),
            "shape": tuple(shape),
            "strides": tuple(strides),
            "typestr": dtype.str,
            "version": 3,
        }
        self.owner = owner


def result_fields(result: Any, count: int) -> list[Any]:
    """The values in `result`, an instance of `results_ctype` of `count`
    types: the instance itself for one, its fields for several."""
    if count == 1:
        return [result]
    return [getattr(result, f"f{index}") for index in range(count)]


def python_scalar(value: Any, type_: Attribute) -> Any:
    """A returned C scalar as a Python int or float (f16 from its bits)."""
    if isinstance(value, ctypes._SimpleCData):  # pyright: ignore[reportPrivateUsage]
        value = value.value
    if numpy_dtype(type_) == np.float16:
        return float(np.uint16(value).view(np.float16))
    return value


def array_view(descriptor: Any, dtype: np.dtype, owner: Any = None) -> np.ndarray:
    """A numpy array over the memory `descriptor` describes, no copy; it
    keeps `owner` alive. An empty array is a fresh one: there may be no
    memory to view."""
    shape = list(descriptor.sizes)
    if 0 in shape:
        return np.zeros(shape, dtype)
    strides = [stride * dtype.itemsize for stride in descriptor.strides]
    pointer = (descriptor.aligned or 0) + descriptor.offset * dtype.itemsize
    return np.asarray(RawMemory(pointer, shape, strides, dtype, owner))
