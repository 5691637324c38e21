"""Interpreter functions for the ops `linalg_ext.compat` adds to xDSL's dialects.

Registered over xDSL's own (override=True). As everywhere in this package,
tensor results are new values (the operands are never changed) and memref
outputs are written in place.

- `linalg.map` runs its mapper once per index, in lexicographic order.
- `linalg.batch_matmul` and the named elementwise ops compute with numpy over
  the whole arrays, in the element type.
- `scf.forall` runs its iterations one after the other in lexicographic
  order. Its shared outputs start as copies of the inits; each iteration's
  `tensor.parallel_insert_slice` ops write into them.
- `tensor.generate` runs its body once per index of the new tensor.
- `vector.print` writes to the interpreter's output what upstream's runtime
  prints (`print_format`); `shape.shape_of` gives the extents of its
  operand, `shape.to_extent_tensor` passes them on (checking that they fit
  the result type), `shape.const_shape` its constant extents.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from itertools import product
from typing import Any

import numpy as np
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    DenseArrayBase,
    IndexType,
    IntegerType,
    TensorType,
)
from xdsl.dialects.tensor import YieldOp as TensorYieldOp
from xdsl.interpreter import (
    Interpreter,
    InterpreterFunctions,
    PythonValues,
    ReturnedValues,
    impl,
    impl_terminator,
    register_impls,
)
from xdsl.ir import Attribute, Operation
from xdsl.ir.affine import AffineDimExpr, AffineMap
from xdsl.utils.exceptions import InterpretationError

from linalg_ext.compat.affine_ops import MaxOp
from linalg_ext.compat.forall_ops import ForallOp, InParallelOp, ParallelInsertSliceOp
from linalg_ext.compat.linalg_ops import (
    AbsOp,
    BatchMatmulOp,
    CeilOp,
    DivOp,
    FloorOp,
    MapOp,
    NegFOp,
    PowFOp,
    ReciprocalOp,
    RsqrtOp,
    SquareOp,
    TanhOp,
    UpstreamElementwiseOperation,
)
from linalg_ext.compat.shape_dialect import (
    ConstShapeOp,
    ShapeOfOp,
    ToExtentTensorOp,
)
from linalg_ext.compat.tensor_ops import GenerateOp
from linalg_ext.compat.vector_print import PUNCTUATION_TEXT, PrintOp
from linalg_ext.semantics.arrays import (
    check_fits_type,
    check_slice_bounds,
    destination_results,
    destinations,
    numpy_dtype,
    numpy_view,
    shaped_array,
    signed_elements,
)
from linalg_ext.semantics.control_ops import evaluate_affine_map
from linalg_ext.semantics.print_format import format_printed
from linalg_ext.semantics.static_rules import kept_slice_dims
from linalg_ext.semantics.structured import (
    output_aliases_operand,
    run_structured_op,
    running_points,
)
from linalg_ext.shaped import element_type_or_self


def _loops_picked(indexing_map: AffineMap) -> list[int]:
    """The loops a map of only loop dimensions picks, in order."""
    dims = [e for e in indexing_map.results if isinstance(e, AffineDimExpr)]
    if len(dims) != len(indexing_map.results):
        raise InterpretationError(f"expected a map of loop dimensions: {indexing_map}")
    return [e.position for e in dims]


def _mixed(static: DenseArrayBase[IntegerType], dynamic: Iterator[Any]) -> list[int]:
    """A static list with each dynamic entry taken, in order, from `dynamic`."""
    return [next(dynamic) if s == DYNAMIC_INDEX else s for s in static.get_values()]


def _signed_division(lhs: np.ndarray, rhs: np.ndarray) -> np.ndarray:
    """`arith.divsi`: the quotient rounded toward zero, wrapping on overflow."""
    if not np.all(rhs):
        raise InterpretationError("'linalg.div' divides an integer by zero")
    wide_lhs, wide_rhs = lhs.astype(np.int64), rhs.astype(np.int64)
    quotient = np.abs(wide_lhs) // np.abs(wide_rhs)
    signed = np.where((wide_lhs < 0) != (wide_rhs < 0), -quotient, quotient)
    return signed.astype(lhs.dtype)


def _divide(lhs: np.ndarray, rhs: np.ndarray) -> np.ndarray:
    if np.issubdtype(lhs.dtype, np.integer):
        return _signed_division(lhs, rhs)
    return lhs / rhs


ELEMENTWISE_FUNCTIONS: dict[
    type[UpstreamElementwiseOperation], Callable[..., np.ndarray]
] = {
    DivOp: _divide,
    NegFOp: np.negative,
    AbsOp: np.abs,
    FloorOp: np.floor,
    CeilOp: np.ceil,
    TanhOp: np.tanh,
    RsqrtOp: lambda x: np.reciprocal(np.sqrt(x)),
    ReciprocalOp: np.reciprocal,
    SquareOp: lambda x: x * x,
    PowFOp: np.power,
}
"""The numpy computation of each named elementwise op, in the element type."""


def _run_elementwise(
    op: UpstreamElementwiseOperation, args: PythonValues
) -> PythonValues:
    inputs = [numpy_view(a) for a in args[: op.ARITY]]
    (destination,) = destinations(op, args[op.ARITY :])
    with np.errstate(all="ignore"):
        values = ELEMENTWISE_FUNCTIONS[type(op)](*inputs)
    # Written only now: on memrefs an input may be the output buffer.
    numpy_view(destination)[...] = values
    return destination_results(op, (destination,))


def _extent_tensor(op: Operation, extents: Any, type_: Attribute) -> Any:
    """`extents` as a new tensor of index of `type_` (checked to fit it)."""
    values = np.asarray(extents, dtype=np.int64)
    check_fits_type(values.shape, type_, op.name, "the extent tensor")
    return shaped_array(values, IndexType())


@register_impls
class CompatOpFunctions(InterpreterFunctions):
    @impl(MapOp)
    def run_map(
        self, interpreter: Interpreter, op: MapOp, args: PythonValues
    ) -> PythonValues:
        inputs = args[:-1]
        (destination,) = destinations(op, args[-1:])
        # Where `linalg.index` in the mapper finds the loop indices.
        iterations = running_points(interpreter)
        for index in np.ndindex(*destination.shape):
            iterations[op] = index
            elements = [a.load(index) for a in inputs] + [destination.load(index)]
            (value,) = interpreter.run_ssacfg_region(
                op.mapper, tuple(elements), "linalg.map"
            )
            destination.store(index, value)
        iterations.pop(op, None)
        return destination_results(op, (destination,))

    @impl(BatchMatmulOp)
    def run_batch_matmul(
        self, interpreter: Interpreter, op: BatchMatmulOp, args: PythonValues
    ) -> PythonValues:
        if output_aliases_operand(op, args):
            # In-place on memrefs: only loop order gives upstream's result.
            return run_structured_op(interpreter, op, args)
        lhs, rhs = numpy_view(args[0]), numpy_view(args[1])
        (init,) = destinations(op, args[2:])
        out = numpy_view(init)
        # Each map names the loops (batch, m, n, k) = (d0, d1, d2, d3) an
        # operand's dimensions follow: that is an einsum subscript.
        loop_letters = "bmnk"
        lhs_spec, rhs_spec, out_spec = (
            "".join(loop_letters[d] for d in _loops_picked(m.data))
            for m in op.indexing_maps.data
        )
        # The inputs are converted to the init's element type first, as the
        # body does (signed integers, wrapping arithmetic).
        lhs_type, rhs_type = (element_type_or_self(a.type) for a in op.operands[:2])
        with np.errstate(all="ignore"):
            products = np.einsum(
                f"{lhs_spec},{rhs_spec}->{out_spec}",
                signed_elements(lhs, lhs_type).astype(out.dtype),
                signed_elements(rhs, rhs_type).astype(out.dtype),
            )
            out[...] = out + products
        return destination_results(op, (init,))

    @impl(DivOp)
    def run_div(
        self, interpreter: Interpreter, op: DivOp, args: PythonValues
    ) -> PythonValues:
        return _run_elementwise(op, args)

    @impl(NegFOp)
    def run_negf(
        self, interpreter: Interpreter, op: NegFOp, args: PythonValues
    ) -> PythonValues:
        return _run_elementwise(op, args)

    @impl(AbsOp)
    def run_abs(
        self, interpreter: Interpreter, op: AbsOp, args: PythonValues
    ) -> PythonValues:
        return _run_elementwise(op, args)

    @impl(FloorOp)
    def run_floor(
        self, interpreter: Interpreter, op: FloorOp, args: PythonValues
    ) -> PythonValues:
        return _run_elementwise(op, args)

    @impl(CeilOp)
    def run_ceil(
        self, interpreter: Interpreter, op: CeilOp, args: PythonValues
    ) -> PythonValues:
        return _run_elementwise(op, args)

    @impl(TanhOp)
    def run_tanh(
        self, interpreter: Interpreter, op: TanhOp, args: PythonValues
    ) -> PythonValues:
        return _run_elementwise(op, args)

    @impl(RsqrtOp)
    def run_rsqrt(
        self, interpreter: Interpreter, op: RsqrtOp, args: PythonValues
    ) -> PythonValues:
        return _run_elementwise(op, args)

    @impl(ReciprocalOp)
    def run_reciprocal(
        self, interpreter: Interpreter, op: ReciprocalOp, args: PythonValues
    ) -> PythonValues:
        return _run_elementwise(op, args)

    @impl(SquareOp)
    def run_square(
        self, interpreter: Interpreter, op: SquareOp, args: PythonValues
    ) -> PythonValues:
        return _run_elementwise(op, args)

    @impl(PowFOp)
    def run_powf(
        self, interpreter: Interpreter, op: PowFOp, args: PythonValues
    ) -> PythonValues:
        return _run_elementwise(op, args)

    @impl(MaxOp)
    def run_affine_max(
        self, interpreter: Interpreter, op: MaxOp, args: PythonValues
    ) -> PythonValues:
        map_ = op.map.data
        return (max(evaluate_affine_map(op, map_, args)),)

    @impl(ForallOp)
    def run_forall(
        self, interpreter: Interpreter, op: ForallOp, args: PythonValues
    ) -> PythonValues:
        values = iter(args)
        lower = _mixed(op.static_lower_bound, values)
        upper = _mixed(op.static_upper_bound, values)
        steps = _mixed(op.static_step, values)
        if any(step <= 0 for step in steps):
            raise InterpretationError(
                f"'scf.forall' expects positive steps, got {steps}"
            )
        # What is left are the inits; the loop works on copies of them.
        shared = tuple(init.copy() for init in values)
        ranges = (
            range(lo, up, st) for lo, up, st in zip(lower, upper, steps, strict=True)
        )
        for point in product(*ranges):
            interpreter.run_ssacfg_region(op.body, (*point, *shared), "scf.forall")
        return shared

    @impl_terminator(InParallelOp)
    def run_in_parallel(
        self, interpreter: Interpreter, op: InParallelOp, args: PythonValues
    ) -> tuple[ReturnedValues, PythonValues]:
        # Its parallel_insert_slice ops write into the shared outputs.
        interpreter.run_ssacfg_region(op.region, (), "scf.forall.in_parallel")
        return ReturnedValues(()), ()

    @impl(ParallelInsertSliceOp)
    def run_parallel_insert_slice(
        self, interpreter: Interpreter, op: ParallelInsertSliceOp, args: PythonValues
    ) -> PythonValues:
        source, dest = numpy_view(args[0]), numpy_view(args[1])
        values = iter(args[2:])
        offsets = _mixed(op.static_offsets, values)
        sizes = _mixed(op.static_sizes, values)
        strides = _mixed(op.static_strides, values)
        # The messages of tensor.insert_slice (and of the compiled checks).
        check_slice_bounds(list(dest.shape), offsets, sizes, strides, op.name)
        source_type = op.source.type
        assert isinstance(source_type, TensorType)
        kept = kept_slice_dims(
            op.static_sizes.get_values(), source_type.get_shape(), op.name
        )
        if list(source.shape) != [sizes[d] for d in kept]:
            raise InterpretationError(
                f"{op.name}: source of shape {list(source.shape)} does not fill a "
                f"slice of sizes {sizes}"
            )
        positions = [
            offset + stride * np.arange(size)
            for offset, size, stride in zip(offsets, sizes, strides, strict=True)
        ]
        dest[np.ix_(*positions)] = source.reshape(sizes)
        return ()

    @impl(GenerateOp)
    def run_generate(
        self, interpreter: Interpreter, op: GenerateOp, args: PythonValues
    ) -> PythonValues:
        result_type = op.result.type
        assert isinstance(result_type, TensorType)
        extents = iter(args)
        shape = [
            next(extents) if d == DYNAMIC_INDEX else d for d in result_type.get_shape()
        ]
        if any(extent < 0 for extent in shape):
            raise InterpretationError(
                f"'tensor.generate' got a negative extent in {shape}"
            )
        element_type = result_type.get_element_type()
        values = np.empty(shape, dtype=numpy_dtype(element_type))
        for index in np.ndindex(*shape):
            (value,) = interpreter.run_ssacfg_region(op.body, index, "tensor.generate")
            values[index] = value
        return (shaped_array(values, element_type),)

    @impl(PrintOp)
    def run_vector_print(
        self, interpreter: Interpreter, op: PrintOp, args: PythonValues
    ) -> PythonValues:
        if op.string_literal is not None:
            interpreter.print(op.string_literal.data, end="")
            return ()
        text = format_printed(args[0], op.source.type) if op.source else ""
        interpreter.print(text, end=PUNCTUATION_TEXT[op.punctuation.data])
        return ()

    @impl(ShapeOfOp)
    def run_shape_of(
        self, interpreter: Interpreter, op: ShapeOfOp, args: PythonValues
    ) -> PythonValues:
        return (_extent_tensor(op, args[0].shape, op.result.type),)

    @impl(ToExtentTensorOp)
    def run_to_extent_tensor(
        self, interpreter: Interpreter, op: ToExtentTensorOp, args: PythonValues
    ) -> PythonValues:
        return (_extent_tensor(op, numpy_view(args[0]), op.result.type),)

    @impl(ConstShapeOp)
    def run_const_shape(
        self, interpreter: Interpreter, op: ConstShapeOp, args: PythonValues
    ) -> PythonValues:
        return (_extent_tensor(op, op.extents, op.result.type),)

    @impl_terminator(TensorYieldOp)
    def run_tensor_yield(
        self, interpreter: Interpreter, op: TensorYieldOp, args: PythonValues
    ) -> tuple[ReturnedValues, PythonValues]:
        return ReturnedValues(args), ()
