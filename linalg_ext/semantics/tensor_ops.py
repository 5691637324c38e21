"""Interpreter functions for the `tensor` ops our passes produce and consume.

Registered over xDSL's own (override=True): xDSL 0.74 lacks most of these
and runs the rest without checking bounds or shapes. A tensor is a value:
each op returns new arrays and never writes into an operand, so ops whose
result equals an operand (`tensor.cast`) may hand back the operand itself.
Bad input (an out-of-bounds slice or index, a run-time shape that does not
fit the op's types) is an `InterpretationError` naming the op.
"""

from __future__ import annotations

from collections.abc import Sequence
from math import prod
from typing import Any

import numpy as np
from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    DenseResourceAttr,
    ShapedType,
    TensorType,
)
from xdsl.interpreter import (
    Interpreter,
    InterpreterFunctions,
    PythonValues,
    ReturnedValues,
    TerminatorValue,
    impl,
    impl_terminator,
    register_impls,
)
from xdsl.interpreters.arith import ArithFunctions
from xdsl.ir import Attribute, Operation
from xdsl.utils.exceptions import InterpretationError

from linalg_ext.semantics.arrays import (
    array_from_numpy,
    canonical_i1,
    check_allocation,
    check_fits_type,
    check_groups,
    check_index,
    check_sizes,
    check_slice_bounds,
    checked_dim,
    element_xtype,
    fill_dynamic,
    interpreted_resource,
    is_i1,
    numpy_view,
    slice_operands,
    zeros,
)
from linalg_ext.semantics.fresh_buffers import fresh_buffer
from linalg_ext.semantics.static_rules import kept_slice_dims, reassociation_groups
from linalg_ext.shaped import element_type_of


def _result_xtype(interpreter: Interpreter, type_: Attribute):
    assert isinstance(type_, ShapedType)
    return element_xtype(element_type_of(type_), interpreter.index_bitwidth)


def _result_shape(
    op: Operation, type_: Attribute, dynamic_sizes: Sequence[int]
) -> list[int]:
    """The static sizes of `type_` with the dynamic ones from the operands."""
    assert isinstance(type_, ShapedType)
    shape = fill_dynamic(type_.get_shape(), dynamic_sizes, op.name, "sizes")
    check_sizes(shape, op.name)
    return shape


def slice_index_arrays(
    offsets: Sequence[int], sizes: Sequence[int], strides: Sequence[int]
) -> tuple[np.ndarray, ...]:
    """numpy open-mesh indices of the elements of a slice, per dimension."""
    return np.ix_(
        *(
            offset + stride * np.arange(size)
            for offset, size, stride in zip(offsets, sizes, strides, strict=True)
        )
    )


def _reduced_shape(
    op: tensor.ExtractSliceOp | tensor.InsertSliceOp,
    sizes: Sequence[int],
    reduced_type: Attribute,
) -> list[int]:
    """The run-time shape of the slice with the unit dimensions that its
    (rank-reduced) tensor type drops left out."""
    assert isinstance(reduced_type, ShapedType)
    kept = kept_slice_dims(
        op.static_sizes.get_values(), reduced_type.get_shape(), op.name
    )
    return [sizes[d] for d in kept]


@register_impls
class TensorOpFunctions(InterpreterFunctions):
    @impl(arith.ConstantOp)
    def run_constant(
        self, interpreter: Interpreter, op: arith.ConstantOp, args: PythonValues
    ) -> PythonValues:
        # xDSL runs scalar constants; a dense tensor constant is a new tensor.
        value = op.value
        if not isinstance(
            value, DenseIntOrFPElementsAttr | DenseResourceAttr
        ) or not isinstance(op.result.type, TensorType):
            return ArithFunctions().run_constant(interpreter, op, args).values
        result_type = op.result.type
        shape = list(result_type.get_shape())
        if isinstance(value, DenseResourceAttr):
            elements = interpreted_resource(op, value)
        else:
            elements = np.array(value.get_values())
            if value.is_splat():
                elements = np.full(shape, elements.reshape(-1)[0])
        if is_i1(result_type.get_element_type()):
            elements = canonical_i1(elements)
        xtype = _result_xtype(interpreter, result_type)
        return (array_from_numpy(elements.reshape(shape), xtype),)

    @impl(tensor.EmptyOp)
    def run_empty(
        self, interpreter: Interpreter, op: tensor.EmptyOp, args: PythonValues
    ) -> PythonValues:
        # Its elements are undefined: zeros unless a fill says otherwise.
        shape = _result_shape(op, op.tensor.type, args)
        xtype = _result_xtype(interpreter, op.tensor.type)
        check_allocation(shape, xtype, op.name)
        element_type = element_type_of(op.tensor.type)
        return (fresh_buffer(op, shape, xtype, element_type),)

    @impl(tensor.DimOp)
    def run_dim(
        self, interpreter: Interpreter, op: tensor.DimOp, args: PythonValues
    ) -> PythonValues:
        source, dim = args
        return (checked_dim(op, source, dim, "tensor"),)

    @impl(tensor.CastOp)
    def run_cast(
        self, interpreter: Interpreter, op: tensor.CastOp, args: PythonValues
    ) -> PythonValues:
        (source,) = args
        check_fits_type(source.shape, op.dest.type, op.name, "the source")
        return (source,)

    @impl(tensor.ExtractOp)
    def run_extract(
        self, interpreter: Interpreter, op: tensor.ExtractOp, args: PythonValues
    ) -> PythonValues:
        source, *indices = args
        return (source.load(check_index(op, source, indices)),)

    @impl(tensor.InsertOp)
    def run_insert(
        self, interpreter: Interpreter, op: tensor.InsertOp, args: PythonValues
    ) -> PythonValues:
        value, dest, *indices = args
        index = check_index(op, dest, indices)
        result = array_from_numpy(numpy_view(dest), dest.data_ptr.xtype)
        result.store(index, value)
        return (result,)

    @impl(tensor.FromElementsOp)
    def run_from_elements(
        self, interpreter: Interpreter, op: tensor.FromElementsOp, args: PythonValues
    ) -> PythonValues:
        result_type = op.result.type
        shape = _result_shape(op, result_type, ())
        result = zeros(shape, _result_xtype(interpreter, result_type))
        for index, value in zip(result.indices(), args, strict=True):
            result.store(index, value)
        return (result,)

    @impl(tensor.SplatOp)
    def run_splat(
        self, interpreter: Interpreter, op: tensor.SplatOp, args: PythonValues
    ) -> PythonValues:
        value, *dynamic_sizes = args
        shape = _result_shape(op, op.result.type, dynamic_sizes)
        result = zeros(shape, _result_xtype(interpreter, op.result.type))
        numpy_view(result)[...] = value
        return (result,)

    @impl(tensor.ExtractSliceOp)
    def run_extract_slice(
        self, interpreter: Interpreter, op: tensor.ExtractSliceOp, args: PythonValues
    ) -> PythonValues:
        source, *values = args
        offsets, sizes, strides = slice_operands(op, values)
        check_slice_bounds(source.shape, offsets, sizes, strides, op.name)
        shape = _reduced_shape(op, sizes, op.result.type)
        check_fits_type(shape, op.result.type, op.name, "the slice")
        picked = numpy_view(source)[slice_index_arrays(offsets, sizes, strides)]
        return (array_from_numpy(picked.reshape(shape), source.data_ptr.xtype),)

    @impl(tensor.InsertSliceOp)
    def run_insert_slice(
        self, interpreter: Interpreter, op: tensor.InsertSliceOp, args: PythonValues
    ) -> PythonValues:
        source, dest, *values = args
        offsets, sizes, strides = slice_operands(op, values)
        check_slice_bounds(dest.shape, offsets, sizes, strides, op.name)
        shape = _reduced_shape(op, sizes, op.source.type)
        if list(source.shape) != shape:
            raise InterpretationError(
                f"{op.name}: source of shape {source.shape} does not fill a slice "
                f"of sizes {sizes}"
            )
        result = array_from_numpy(numpy_view(dest), dest.data_ptr.xtype)
        numpy_view(result)[slice_index_arrays(offsets, sizes, strides)] = numpy_view(
            source
        ).reshape(sizes)
        return (result,)

    @impl(tensor.PadOp)
    def run_pad(
        self, interpreter: Interpreter, op: tensor.PadOp, args: PythonValues
    ) -> PythonValues:
        source, *values = args
        low = fill_dynamic(
            op.static_low.get_values(), values[: len(op.low)], op.name, "low pads"
        )
        high = fill_dynamic(
            op.static_high.get_values(), values[len(op.low) :], op.name, "high pads"
        )
        if any(p < 0 for p in (*low, *high)):
            raise InterpretationError(
                f"{op.name}: negative padding (low {low}, high {high})"
            )
        shape = [
            before + size + after
            for before, size, after in zip(low, source.shape, high, strict=True)
        ]
        check_fits_type(shape, op.result.type, op.name, "the padded tensor")
        result = zeros(shape, source.data_ptr.xtype)
        padded = numpy_view(result)
        interior = tuple(
            slice(before, before + size)
            for before, size in zip(low, source.shape, strict=True)
        )

        block = op.region.block
        if all(not argument.uses for argument in block.args):
            # The pad value does not depend on the position: one evaluation.
            if padded.size > numpy_view(source).size:
                padded[...] = self._pad_value(interpreter, op, (0,) * len(shape))
        else:
            is_padding = np.ones(shape, dtype=bool)
            is_padding[interior] = False
            for index in zip(*np.nonzero(is_padding), strict=True):
                position = tuple(int(i) for i in index)
                padded[position] = self._pad_value(interpreter, op, position)
        padded[interior] = numpy_view(source)
        return (result,)

    @staticmethod
    def _pad_value(
        interpreter: Interpreter, op: tensor.PadOp, position: tuple[int, ...]
    ) -> Any:
        (value,) = interpreter.run_ssacfg_region(op.region, position, "tensor.pad")
        return value

    @impl_terminator(tensor.YieldOp)
    def run_yield(
        self, interpreter: Interpreter, op: tensor.YieldOp, args: PythonValues
    ) -> tuple[TerminatorValue, PythonValues]:
        return ReturnedValues(args), ()

    @impl(tensor.ExpandShapeOp)
    def run_expand_shape(
        self, interpreter: Interpreter, op: tensor.ExpandShapeOp, args: PythonValues
    ) -> PythonValues:
        source, *dynamic_sizes = args
        shape = fill_dynamic(
            op.static_output_shape.get_values(), dynamic_sizes, op.name, "sizes"
        )
        check_sizes(shape, op.name)
        groups = reassociation_groups(op.reassociation)
        check_groups(groups, shape, source.shape, op.name)
        return (array_from_numpy(numpy_view(source), source.data_ptr.xtype, shape),)

    @impl(tensor.CollapseShapeOp)
    def run_collapse_shape(
        self, interpreter: Interpreter, op: tensor.CollapseShapeOp, args: PythonValues
    ) -> PythonValues:
        (source,) = args
        groups = reassociation_groups(op.reassociation)
        shape = [prod(source.shape[d] for d in group) for group in groups]
        check_groups(groups, source.shape, shape, op.name)
        result_type = op.result.type
        assert isinstance(result_type, TensorType)
        check_fits_type(shape, result_type, op.name, "the collapsed tensor")
        return (array_from_numpy(numpy_view(source), source.data_ptr.xtype, shape),)
