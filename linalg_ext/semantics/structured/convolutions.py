"""Convolutions and max pooling: one einsum (or maximum) per kernel position."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import numpy as np
from xdsl.dialects.linalg import ops as linalg
from xdsl.dialects.linalg.abstract_ops import ConvOperation, PoolingOperation
from xdsl.interpreter import Interpreter, PythonValues
from xdsl.ir import Operation
from xdsl.utils.exceptions import InterpretationError

from linalg_ext.semantics.arrays import numpy_view
from linalg_ext.semantics.structured.arith_arrays import maximumf
from linalg_ext.semantics.structured.execution import (
    output_aliases_operand,
    run_structured_op,
)
from linalg_ext.semantics.structured.named_operands import (
    computed_input,
    scalar_of_value,
    write_results,
)
from linalg_ext.semantics.structured.scalars import NotVectorisable, to_compute


@dataclass(frozen=True)
class _ConvLayout:
    """Operand layouts of a convolution or pooling, one letter per dimension.

    In the input, H and W are the spatial dimensions, read at
    `output_position * stride + kernel_position * dilation`; in the filter,
    h and w are the kernel positions; other letters are einsum's."""

    input: str
    filter: str
    output: str


_CONV_LAYOUTS: dict[type[Operation], _ConvLayout] = {
    linalg.Conv2DNhwc_HwcfOp: _ConvLayout("nHWc", "hwcf", "nHWf"),
    linalg.Conv2DNhwc_FhwcOp: _ConvLayout("nHWc", "fhwc", "nHWf"),
    linalg.Conv2DNchwFchwOp: _ConvLayout("ncHW", "fchw", "nfHW"),
    linalg.Conv2DNgchwFgchwOp: _ConvLayout("ngcHW", "fgchw", "ngfHW"),
    linalg.Conv2DNgchwGfchwOp: _ConvLayout("ngcHW", "gfchw", "ngfHW"),
    linalg.Conv2DNhwgcGfhwcOp: _ConvLayout("nHWgc", "gfhwc", "nHWgf"),
}

_POOLING_LAYOUTS: dict[type[Operation], _ConvLayout] = {
    linalg.PoolingNchwMaxOp: _ConvLayout("ncHW", "hw", "ncHW"),
}


def _windows(
    op: ConvOperation | PoolingOperation,
    layout: _ConvLayout,
    image: np.ndarray,
    kernel_shape: Sequence[int],
    output_shape: Sequence[int],
) -> Iterator[tuple[tuple[int, int], np.ndarray]]:
    """For each kernel position, the input elements it meets at every output
    position: a strided slice with H and W indexed like the output's."""
    strides = op.strides.get_values()
    dilations = op.dilations.get_values()
    sizes: dict[str, int] = {}
    for subscripts, shape, role in (
        (layout.input, image.shape, "input"),
        (layout.filter, kernel_shape, "filter"),
        (layout.output, output_shape, "output"),
    ):
        if len(subscripts) != len(shape):
            raise InterpretationError(f"{op.name}: the {role} has rank {len(shape)}")
        for letter, size in zip(subscripts, shape, strict=True):
            if letter in "HW" and role == "input":
                continue
            if sizes.setdefault(letter, size) != size:
                raise InterpretationError(
                    f"{op.name}: dimension '{letter}' of the {role} is {size}, "
                    f"elsewhere {sizes[letter]}"
                )
    spatial = []
    for axis_name, kernel_name, stride, dilation in zip(
        "HW", "hw", strides, dilations, strict=True
    ):
        out_size, kernel_size = sizes[axis_name], sizes[kernel_name]
        in_size = image.shape[layout.input.index(axis_name)]
        reach = (out_size - 1) * stride + (kernel_size - 1) * dilation + 1
        if out_size and kernel_size and reach > in_size:
            raise InterpretationError(
                f"{op.name}: the input is {in_size} wide in {axis_name}, the "
                f"window reaches {reach} (strides {list(strides)}, dilations "
                f"{list(dilations)})"
            )
        spatial.append((out_size, kernel_size, int(stride), int(dilation)))
    (out_h, kernel_h, stride_h, dilation_h) = spatial[0]
    (out_w, kernel_w, stride_w, dilation_w) = spatial[1]
    for i in range(kernel_h):
        for j in range(kernel_w):
            index: list[slice] = [slice(None)] * image.ndim
            start_h, start_w = i * dilation_h, j * dilation_w
            index[layout.input.index("H")] = slice(
                start_h, start_h + (out_h - 1) * stride_h + 1, stride_h
            )
            index[layout.input.index("W")] = slice(
                start_w, start_w + (out_w - 1) * stride_w + 1, stride_w
            )
            yield (i, j), image[tuple(index)]


def run_conv(
    interpreter: Interpreter, op: ConvOperation, args: PythonValues
) -> PythonValues:
    if output_aliases_operand(op, args):
        return run_structured_op(interpreter, op, args)
    layout = _CONV_LAYOUTS[type(op)]
    image, kernel, out = args
    try:
        target = scalar_of_value(op.outputs[0], interpreter)
        if target.kind == "bool":
            raise NotVectorisable(op.name)
        image_values = computed_input(image, op.inputs[0], target, interpreter)
        kernel_values = computed_input(kernel, op.inputs[1], target, interpreter)
    except NotVectorisable:
        return run_structured_op(interpreter, op, args)
    kernel_free = layout.filter.replace("h", "").replace("w", "")
    spec = f"{layout.input},{kernel_free}->{layout.output}"
    total = to_compute(numpy_view(out), target).copy()
    with np.errstate(all="ignore"):
        for (i, j), window in _windows(
            op, layout, image_values, kernel_values.shape, total.shape
        ):
            index: list[slice | int] = [slice(None)] * kernel_values.ndim
            index[layout.filter.index("h")] = i
            index[layout.filter.index("w")] = j
            total += np.einsum(spec, window, kernel_values[tuple(index)], optimize=True)
    return write_results(op, (out,), [total.astype(target.dtype)])


def run_pooling_max(
    interpreter: Interpreter, op: PoolingOperation, args: PythonValues
) -> PythonValues:
    # The body xDSL gives this op maximises the input with the kernel-shape
    # operand; MLIR's maximises it with the output, as done here.
    layout = _POOLING_LAYOUTS[type(op)]
    image, kernel, out = args
    try:
        target = scalar_of_value(op.outputs[0], interpreter)
        if target.kind == "bool":
            raise NotVectorisable(op.name)
        image_values = computed_input(image, op.inputs[0], target, interpreter)
    except NotVectorisable as error:
        raise InterpretationError(f"{op.name}: cannot run on {error}") from error
    maximum = maximumf if target.kind == "float" else np.maximum
    total = to_compute(numpy_view(out), target).copy()
    with np.errstate(all="ignore"):
        for _, window in _windows(op, layout, image_values, kernel.shape, total.shape):
            total = maximum(total, window)
    return write_results(op, (out,), [total.astype(target.dtype)])
