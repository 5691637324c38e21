"""Interpreter functions for the `memref` ops our passes produce and consume.

Registered over xDSL's own (override=True). A memref is a buffer: views
(`subview`, `cast`, `expand_shape`, `collapse_shape`) alias their source, so
a store through a view changes the source and the other way round. A view
that is not row-major is a `StridedArray` (see arrays.py). Loads, stores
and slices are bounds-checked; bad input is an `InterpretationError` naming
the op.
"""

from __future__ import annotations

from math import prod
from typing import Any

from xdsl.dialects import memref
from xdsl.dialects.builtin import MemRefType
from xdsl.interpreter import (
    Interpreter,
    InterpreterFunctions,
    PythonValues,
    impl,
    register_impls,
)
from xdsl.interpreters.utils.ptr import TypedPtr
from xdsl.utils.exceptions import InterpretationError

from linalg_ext.semantics.arrays import (
    check_fits_type,
    check_groups,
    check_index,
    check_sizes,
    check_slice_bounds,
    checked_dim,
    element_xtype,
    fill_dynamic,
    kept_slice_dims,
    make_view,
    numpy_view,
    reassociation_groups,
    slice_operands,
    strides_of,
    zeros,
)


def _moved(pointer: TypedPtr[Any], elements: int) -> TypedPtr[Any]:
    """A pointer `elements` further into the same memory."""
    return TypedPtr[Any](pointer.raw + elements * pointer.size, xtype=pointer.xtype)


def _allocate(
    interpreter: Interpreter, op: memref.AllocOp | memref.AllocaOp, args: PythonValues
) -> PythonValues:
    memref_type = op.memref.type
    # The symbol operands that follow bind a layout map's symbols; a new
    # buffer is laid out row-major whatever its type's layout says.
    dynamic_sizes = args[: len(op.dynamic_sizes)]
    shape = fill_dynamic(memref_type.get_shape(), dynamic_sizes, op.name, "sizes")
    check_sizes(shape, op.name)
    xtype = element_xtype(memref_type.get_element_type(), interpreter.index_bitwidth)
    return (zeros(shape, xtype),)


@register_impls
class MemRefOpFunctions(InterpreterFunctions):
    @impl(memref.AllocOp)
    def run_alloc(
        self, interpreter: Interpreter, op: memref.AllocOp, args: PythonValues
    ) -> PythonValues:
        return _allocate(interpreter, op, args)

    @impl(memref.AllocaOp)
    def run_alloca(
        self, interpreter: Interpreter, op: memref.AllocaOp, args: PythonValues
    ) -> PythonValues:
        return _allocate(interpreter, op, args)

    @impl(memref.DeallocOp)
    def run_dealloc(
        self, interpreter: Interpreter, op: memref.DeallocOp, args: PythonValues
    ) -> PythonValues:
        # Python frees the memory once no value refers to it.
        return ()

    @impl(memref.LoadOp)
    def run_load(
        self, interpreter: Interpreter, op: memref.LoadOp, args: PythonValues
    ) -> PythonValues:
        source, *indices = args
        return (source.load(check_index(op, source, indices)),)

    @impl(memref.StoreOp)
    def run_store(
        self, interpreter: Interpreter, op: memref.StoreOp, args: PythonValues
    ) -> PythonValues:
        value, destination, *indices = args
        destination.store(check_index(op, destination, indices), value)
        return ()

    @impl(memref.DimOp)
    def run_dim(
        self, interpreter: Interpreter, op: memref.DimOp, args: PythonValues
    ) -> PythonValues:
        source, dim = args
        return (checked_dim(op, source, dim, "memref"),)

    @impl(memref.CastOp)
    def run_cast(
        self, interpreter: Interpreter, op: memref.CastOp, args: PythonValues
    ) -> PythonValues:
        (source,) = args
        if isinstance(op.dest.type, MemRefType):
            check_fits_type(source.shape, op.dest.type, op.name, "the source")
        return (source,)

    @impl(memref.CopyOp)
    def run_copy(
        self, interpreter: Interpreter, op: memref.CopyOp, args: PythonValues
    ) -> PythonValues:
        source, destination = args
        if list(source.shape) != list(destination.shape):
            raise InterpretationError(
                f"{op.name}: source of shape {source.shape} and destination of "
                f"shape {destination.shape} differ"
            )
        # numpy copies through a temporary when the two views overlap.
        numpy_view(destination)[...] = numpy_view(source)
        return ()

    @impl(memref.SubviewOp)
    def run_subview(
        self, interpreter: Interpreter, op: memref.SubviewOp, args: PythonValues
    ) -> PythonValues:
        source, *values = args
        offsets, sizes, strides = slice_operands(op, values)
        check_slice_bounds(source.shape, offsets, sizes, strides, op.name)
        source_strides = strides_of(source)
        first = sum(o * s for o, s in zip(offsets, source_strides, strict=True))
        kept = kept_slice_dims(
            op.static_sizes.get_values(), op.result.type.get_shape(), op.name
        )
        return (
            make_view(
                _moved(source.data_ptr, first),
                [sizes[d] for d in kept],
                [source_strides[d] * strides[d] for d in kept],
            ),
        )

    @impl(memref.ExpandShapeOp)
    def run_expand_shape(
        self, interpreter: Interpreter, op: memref.ExpandShapeOp, args: PythonValues
    ) -> PythonValues:
        source, *dynamic_sizes = args
        shape = fill_dynamic(
            op.static_output_shape.get_values(), dynamic_sizes, op.name, "sizes"
        )
        check_sizes(shape, op.name)
        groups = reassociation_groups(op.reassociation)
        check_groups(groups, shape, source.shape, op.name)
        # Splitting a dimension of stride s into sizes (.., b, c) gives
        # strides (.., c*s, s): always possible, whatever the source layout.
        strides = [0] * len(shape)
        for group, source_stride in zip(groups, strides_of(source), strict=True):
            stride = source_stride
            for dim in reversed(group):
                strides[dim] = stride
                stride *= shape[dim]
        return (make_view(source.data_ptr, shape, strides),)

    @impl(memref.CollapseShapeOp)
    def run_collapse_shape(
        self, interpreter: Interpreter, op: memref.CollapseShapeOp, args: PythonValues
    ) -> PythonValues:
        (source,) = args
        groups = reassociation_groups(op.reassociation)
        source_strides = strides_of(source)
        shape: list[int] = []
        strides: list[int] = []
        for group in groups:
            sizes = [source.shape[d] for d in group]
            shape.append(prod(sizes))
            # Merging dimensions into one needs each (non-unit) one to step
            # over exactly the next one's extent, as in a row-major array.
            spanning = [d for d in group if source.shape[d] != 1]
            if 0 not in sizes:
                for outer, inner in zip(spanning, spanning[1:], strict=False):
                    if (
                        source_strides[outer]
                        != source_strides[inner] * source.shape[inner]
                    ):
                        raise InterpretationError(
                            f"{op.name}: dimensions {group} of a view of shape "
                            f"{source.shape} and strides {source_strides} are not "
                            "contiguous, so they cannot be collapsed without a copy"
                        )
            strides.append(source_strides[(spanning or group)[-1]] if group else 1)
        check_groups(groups, source.shape, shape, op.name)
        check_fits_type(shape, op.result.type, op.name, "the collapsed memref")
        return (make_view(source.data_ptr, shape, strides),)
