"""numpy views of the interpreter's shaped values, and back.

xDSL's interpreter keeps a tensor or memref as a `ShapedArray` over a
bytearray. `numpy_view` looks at that memory in place (writes through it
change the value), so an op can be computed with numpy and still hand
xDSL's own interpreter functions the values they expect.
"""

from __future__ import annotations

from typing import Any, Literal

import numpy as np
from xdsl.dialects.builtin import ShapedType
from xdsl.interpreters.builtin import xtype_for_el_type
from xdsl.interpreters.shaped_array import ShapedArray
from xdsl.interpreters.utils.ptr import RawPtr, TypedPtr
from xdsl.ir import Attribute
from xdsl.utils.exceptions import InterpretationError


def numpy_dtype(element_type: Attribute, index_bitwidth: Literal[32, 64] = 64):
    """The numpy dtype with the interpreter's memory layout for an element type."""
    try:
        xtype = xtype_for_el_type(element_type, index_bitwidth)
        return np.dtype(xtype.format)  # pyright: ignore[reportAttributeAccessIssue]
    except (NotImplementedError, AttributeError, TypeError) as error:
        raise InterpretationError(
            f"element type {element_type} cannot be interpreted"
        ) from error


def numpy_view(array: ShapedArray[Any]) -> np.ndarray:
    """The array's elements as a numpy array sharing its memory."""
    pointer = array.data_ptr
    dtype = np.dtype(pointer.xtype.format)  # pyright: ignore[reportAttributeAccessIssue]
    flat = np.frombuffer(
        pointer.raw.memory, dtype=dtype, count=array.size, offset=pointer.raw.offset
    )
    return flat.reshape(array.shape)


def shaped_array(
    values: np.ndarray,
    element_type: Attribute,
    index_bitwidth: Literal[32, 64] = 64,
) -> ShapedArray[Any]:
    """A new ShapedArray holding `values` converted to `element_type`."""
    xtype = xtype_for_el_type(element_type, index_bitwidth)
    data = np.ascontiguousarray(values, dtype=numpy_dtype(element_type, index_bitwidth))
    pointer = TypedPtr[Any](RawPtr(bytearray(data.tobytes())), xtype=xtype)
    return ShapedArray(pointer, list(values.shape))


def element_type_of(type_: Attribute) -> Attribute:
    assert isinstance(type_, ShapedType)
    return type_.get_element_type()
