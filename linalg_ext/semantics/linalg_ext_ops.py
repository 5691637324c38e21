"""Interpreter functions for the `linalg_ext` ops.

Each implements the definition on the op's page in docs/ops/, on tensors
(a new value per result; the operands are never changed) and on memrefs (the
output buffers are written in place). Reductions and elementwise arithmetic
run in numpy over the element type; the ops with a combiner or comparator
region run that region through the interpreter, one call per combination.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

import numpy as np
from xdsl.dialects.builtin import DYNAMIC_INDEX, ShapedType
from xdsl.interpreter import (
    Interpreter,
    InterpreterFunctions,
    PythonValues,
    ReturnedValues,
    impl,
    impl_terminator,
    register_impls,
)
from xdsl.ir import Operation, Region, SSAValue
from xdsl.utils.exceptions import InterpretationError

from linalg_ext import dialect as le
from linalg_ext.dialect.extents import (
    compared_pairs,
    extent_groups,
    mismatch_message,
    scatter_index_message,
    topk_k_exceeds_message,
)
from linalg_ext.semantics.arrays import (
    destination_results,
    destinations,
    numpy_view,
    signed_elements,
)
from linalg_ext.shaped import element_type_or_self


def _static_shape(value: SSAValue) -> tuple[int, ...]:
    assert isinstance(value.type, ShapedType)
    return value.type.get_shape()


def _scalar(value: Any) -> Any:
    """A numpy scalar as the Python value the interpreter's functions use."""
    return value.item() if isinstance(value, np.generic) else value


def _run_region(
    interpreter: Interpreter, region: Region, args: Sequence[Any], name: str
):
    return interpreter.run_ssacfg_region(region, tuple(_scalar(a) for a in args), name)


def check_extents(op: Operation, args: PythonValues) -> None:
    """The operand dimensions that must agree do (only dynamic ones can
    differ here), else an error naming the op and both extents; the same
    checks, in the same order and words, as compiled code's."""
    shapes = [tuple(numpy_view(a).shape) for a in args]
    for group in extent_groups(op):
        for other, ref in compared_pairs(group):
            size = shapes[other.position][other.dim]
            expected = shapes[ref.position][ref.dim]
            if size != expected:
                raise InterpretationError(
                    mismatch_message(op, other, ref).format(size, expected)
                )


def _run_softmax_like(op: le.SoftmaxLikeOp, args: PythonValues, normalise: bool):
    """softmax (normalise) and unnorm_softmax: the same max and sum, then
    output = exp(x − max) [/ acc] and scale = exp(m0 − max) [· a0 / acc]."""
    dimension = op.dimension.value.data
    x, max_init, acc_init = (numpy_view(a) for a in (args[0], args[2], args[3]))
    output, max_, acc, scale = destinations(op, args[1:])
    with np.errstate(all="ignore"):
        new_max = np.maximum(max_init, x.max(axis=dimension))
        exponentials = np.exp(x - np.expand_dims(new_max, dimension))
        decay = np.exp(max_init - new_max)
        new_acc = acc_init * decay + exponentials.sum(axis=dimension)
        if normalise:
            exponentials = exponentials / np.expand_dims(new_acc, dimension)
            decay = acc_init * decay / new_acc
    # Written only now: on memrefs max and acc are also the inits read above.
    numpy_view(output)[...] = exponentials
    numpy_view(scale)[...] = decay
    numpy_view(max_)[...] = new_max
    numpy_view(acc)[...] = new_acc
    return destination_results(op, (output, max_, acc, scale))


@register_impls
class LinalgExtFunctions(InterpreterFunctions):
    """Register with `Interpreter.register_implementations` next to xDSL's own."""

    @impl(le.SoftmaxOp)
    def run_softmax(
        self, interpreter: Interpreter, op: le.SoftmaxOp, args: PythonValues
    ) -> PythonValues:
        check_extents(op, args)
        return _run_softmax_like(op, args, normalise=True)

    @impl(le.UnnormSoftmaxOp)
    def run_unnorm_softmax(
        self, interpreter: Interpreter, op: le.UnnormSoftmaxOp, args: PythonValues
    ) -> PythonValues:
        check_extents(op, args)
        return _run_softmax_like(op, args, normalise=False)

    @impl(le.DiagOp)
    def run_diag(
        self, interpreter: Interpreter, op: le.DiagOp, args: PythonValues
    ) -> PythonValues:
        check_extents(op, args)
        (output,) = destinations(op, args[1:])
        vector, matrix = numpy_view(args[0]), numpy_view(output)
        matrix[...] = 0
        diagonal = np.arange(vector.shape[-1])
        matrix[..., diagonal, diagonal] = vector
        return destination_results(op, (output,))

    @impl(le.ScanOp)
    def run_scan(
        self, interpreter: Interpreter, op: le.ScanOp, args: PythonValues
    ) -> PythonValues:
        check_extents(op, args)
        output, accumulator = destinations(op, args[1:])
        dimension = op.dimension.value.data
        inclusive = bool(op.inclusive.value.data)
        # Carries start from the accumulator's initial value (read before any
        # write: on memrefs the accumulator may be the same buffer as an input).
        carries = numpy_view(args[2]).copy()
        x = np.moveaxis(numpy_view(args[0]).copy(), dimension, -1)
        out = np.moveaxis(numpy_view(output), dimension, -1)
        for position in np.ndindex(x.shape[:-1]):
            running = carries[position]
            for k in range(x.shape[-1]):
                (combined,) = _run_region(
                    interpreter, op.region, (running, x[position + (k,)]), "scan"
                )
                out[position + (k,)] = combined if inclusive else running
                running = combined
            carries[position] = running
        numpy_view(accumulator)[...] = carries
        return destination_results(op, (output, accumulator))

    @impl(le.ScatterOp)
    def run_scatter(
        self, interpreter: Interpreter, op: le.ScatterOp, args: PythonValues
    ) -> PythonValues:
        check_extents(op, args)
        indices, updates = numpy_view(args[0]), numpy_view(args[1]).copy()
        (src,) = destinations(op, args[2:])
        target = numpy_view(src)
        batch_shape = indices.shape[:-1]
        depth = indices.shape[-1]
        window_shape = updates.shape[len(batch_shape) :]
        bounds = target.shape[:depth]
        for batch in np.ndindex(batch_shape):
            where = tuple(int(i) for i in indices[batch])
            if any(not 0 <= i < bound for i, bound in zip(where, bounds, strict=True)):
                dynamic = [
                    size
                    for size, type_size in zip(
                        target.shape, _static_shape(op.outputs[0]), strict=True
                    )
                    if type_size == DYNAMIC_INDEX
                ]
                raise InterpretationError(
                    scatter_index_message(op).format(*where, *batch, *dynamic)
                )
            for window in np.ndindex(window_shape):
                (new,) = _run_region(
                    interpreter,
                    op.region,
                    (target[where + window], updates[batch + window]),
                    "scatter",
                )
                target[where + window] = new
        return destination_results(op, (src,))

    @impl(le.TopkOp)
    def run_topk(
        self, interpreter: Interpreter, op: le.TopkOp, args: PythonValues
    ) -> PythonValues:
        check_extents(op, args)
        dimension = op.dimension.value.data
        values = np.moveaxis(numpy_view(args[0]).copy(), dimension, -1)
        given_indices = (
            np.moveaxis(numpy_view(args[1]).copy(), dimension, -1)
            if len(op.inputs) == 2
            else None
        )
        out_values, out_indices = destinations(op, args[len(op.inputs) :])
        top_values = np.moveaxis(numpy_view(out_values), dimension, -1)
        top_indices = np.moveaxis(numpy_view(out_indices), dimension, -1)
        k = top_values.shape[-1]
        if k > values.shape[-1]:
            raise InterpretationError(
                topk_k_exceeds_message(op).format(k, values.shape[-1])
            )

        def first(a: Any, b: Any) -> bool:
            (result,) = _run_region(interpreter, op.region, (a, b), "topk")
            return bool(result)

        for position in np.ndindex(values.shape[:-1]):
            row = values[position]

            def order(lhs: int, rhs: int, row: np.ndarray = row) -> int:
                if first(row[lhs], row[rhs]):
                    return -1
                return 1 if first(row[rhs], row[lhs]) else 0

            # A stable sort: ties keep the smaller original index first.
            ranked = sorted(range(row.shape[0]), key=functools.cmp_to_key(order))[:k]
            top_values[position] = row[ranked]
            top_indices[position] = (
                given_indices[position][ranked] if given_indices is not None else ranked
            )
        return destination_results(op, (out_values, out_indices))

    @impl(le.LayerNormOp)
    def run_layer_norm(
        self, interpreter: Interpreter, op: le.LayerNormOp, args: PythonValues
    ) -> PythonValues:
        check_extents(op, args)
        x = numpy_view(args[0])
        axes = op.axis_values
        written = destinations(op, args[len(op.inputs) :])
        with np.errstate(all="ignore"):
            mean = x.mean(axis=axes, keepdims=True, dtype=x.dtype)
            centred = x - mean
            variance = (centred * centred).mean(axis=axes, keepdims=True, dtype=x.dtype)
            rstd = (1 / np.sqrt(variance + x.dtype.type(op.epsilon.value.data))).astype(
                x.dtype
            )
            normalised = centred * rstd
            if len(op.inputs) == 3:
                # weight and bias span the axis dimensions, in order.
                affine_shape = [x.shape[d] if d in axes else 1 for d in range(x.ndim)]
                weight = numpy_view(args[1]).reshape(affine_shape)
                bias = numpy_view(args[2]).reshape(affine_shape)
                normalised = normalised * weight + bias
        numpy_view(written[0])[...] = normalised
        if len(written) == 3:
            numpy_view(written[1])[...] = mean.squeeze(axis=axes)
            numpy_view(written[2])[...] = rstd.squeeze(axis=axes)
        return destination_results(op, written)

    @impl(le.BatchMatmulOp)
    def run_batch_matmul(
        self, interpreter: Interpreter, op: le.BatchMatmulOp, args: PythonValues
    ) -> PythonValues:
        check_extents(op, args)
        lhs, rhs = numpy_view(args[0]), numpy_view(args[1])
        (init,) = destinations(op, args[2:])
        out = numpy_view(init)
        layout = op.layout.data
        if layout[0] == "t":
            lhs = lhs.swapaxes(-1, -2)
        if layout[1] == "t":
            rhs = rhs.swapaxes(-1, -2)
        # Inputs are cast to the init's element type first (signed integers,
        # wrapping arithmetic), as the op's body does.
        lhs_type, rhs_type = (element_type_or_self(v.type) for v in (op.lhs, op.rhs))
        lhs = signed_elements(lhs, lhs_type).astype(out.dtype)
        rhs = signed_elements(rhs, rhs_type).astype(out.dtype)
        with np.errstate(all="ignore"):
            out[...] = out + np.matmul(lhs, rhs)
        return destination_results(op, (init,))

    @impl(le.AliasOp)
    def run_alias(
        self, interpreter: Interpreter, op: le.AliasOp, args: PythonValues
    ) -> PythonValues:
        return args

    @impl(le.CustomOp)
    def run_custom(
        self, interpreter: Interpreter, op: le.CustomOp, args: PythonValues
    ) -> PythonValues:
        yielded = interpreter.run_ssacfg_region(op.region, args, "custom")
        if op.results:
            return yielded
        # Memref form: a yielded buffer's contents become the output's.
        for output, value in zip(args[len(op.inputs) :], yielded, strict=False):
            if value is not output:
                numpy_view(output)[...] = numpy_view(value)
        return ()

    @impl_terminator(le.YieldOp)
    def run_yield(
        self, interpreter: Interpreter, op: le.YieldOp, args: PythonValues
    ) -> tuple[ReturnedValues, PythonValues]:
        return ReturnedValues(args), ()
