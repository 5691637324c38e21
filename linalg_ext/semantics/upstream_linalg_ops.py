"""Interpreter functions for the MLIR 22 Linalg ops the compat layer adds
beyond the named ones: `linalg.softmax`, `linalg.elementwise` and the
several-operand `linalg.reduce`; and MLIR 19's `linalg.elemwise_unary` and
`elemwise_binary`, run like `linalg.elementwise`.

- `linalg.softmax` is computed with numpy in the element type: the maximum
  along the dimension is subtracted before `exp`, then each element is
  divided by the sum along the dimension.
- `linalg.elementwise` runs as the structured op it is, by its indexing maps
  and its hidden body (the body MLIR builds for its kind), through the same
  machinery as `linalg.generic`.
- `linalg.reduce` (the compat class, any number of inputs and inits) runs
  its combiner through that machinery too, the inputs read through identity
  maps and the inits through the maps that drop the reduced dimensions.
"""

from __future__ import annotations

import numpy as np
from xdsl.dialects.builtin import AnyFloat
from xdsl.interpreter import (
    Interpreter,
    InterpreterFunctions,
    PythonValues,
    impl,
    register_impls,
)
from xdsl.utils.exceptions import InterpretationError

from linalg_ext.compat.checks import element_type
from linalg_ext.compat.linalg_elementwise import ElementwiseOp
from linalg_ext.compat.linalg_elemwise_legacy import ElemwiseBinaryOp, ElemwiseUnaryOp
from linalg_ext.compat.linalg_reduce import ReduceOp
from linalg_ext.compat.linalg_softmax import SoftmaxOp
from linalg_ext.semantics.arrays import (
    destination_results,
    destinations,
    numpy_view,
)
from linalg_ext.semantics.structured import (
    StructuredComputation,
    run_structured,
    run_structured_op,
)


def softmax(values: np.ndarray, axis: int) -> np.ndarray:
    """`exp(x - max) / sum(exp(x - max))` along `axis`, in the dtype of
    `values`."""
    shifted = values - np.max(values, axis=axis, keepdims=True)
    exponentials = np.exp(shifted)
    return exponentials / np.sum(exponentials, axis=axis, keepdims=True)


@register_impls
class UpstreamLinalgFunctions(InterpreterFunctions):
    @impl(SoftmaxOp)
    def run_softmax(
        self, interpreter: Interpreter, op: SoftmaxOp, args: PythonValues
    ) -> PythonValues:
        source, output = args
        if not isinstance(element_type(op.input.type), AnyFloat):
            raise InterpretationError(
                f"linalg.softmax: cannot compute on {element_type(op.input.type)} "
                "elements"
            )
        values = numpy_view(source)
        if tuple(values.shape) != tuple(output.shape):
            raise InterpretationError(
                f"linalg.softmax: the input has shape {list(values.shape)}, the "
                f"output {list(output.shape)}"
            )
        with np.errstate(all="ignore"):
            result = softmax(values, op.dimension.value.data)
        (destination,) = destinations(op, (output,))
        numpy_view(destination)[...] = result
        return destination_results(op, (destination,))

    @impl(ElementwiseOp)
    def run_elementwise(
        self, interpreter: Interpreter, op: ElementwiseOp, args: PythonValues
    ) -> PythonValues:
        return run_structured_op(interpreter, op, args)

    @impl(ElemwiseUnaryOp)
    def run_elemwise_unary(
        self, interpreter: Interpreter, op: ElemwiseUnaryOp, args: PythonValues
    ) -> PythonValues:
        return run_structured_op(interpreter, op, args)

    @impl(ElemwiseBinaryOp)
    def run_elemwise_binary(
        self, interpreter: Interpreter, op: ElemwiseBinaryOp, args: PythonValues
    ) -> PythonValues:
        return run_structured_op(interpreter, op, args)

    @impl(ReduceOp)
    def run_reduce(
        self, interpreter: Interpreter, op: ReduceOp, args: PythonValues
    ) -> PythonValues:
        count = len(op.inputs)
        shapes = {tuple(a.shape) for a in args[:count]}
        if len(shapes) != 1:
            raise InterpretationError(
                f"linalg.reduce: the inputs have different shapes {sorted(shapes)}"
            )
        rank = len(next(iter(shapes)))
        dimensions = op.reduced_dimensions()
        if len(set(dimensions)) != len(dimensions) or any(
            not 0 <= d < rank for d in dimensions
        ):
            raise InterpretationError(
                f"linalg.reduce: dimensions {dimensions} do not fit rank {rank}"
            )
        computation = StructuredComputation(
            op=op,
            inputs=args[:count],
            input_types=[v.type for v in op.inputs],
            outputs=args[count:],
            output_types=[v.type for v in op.inits],
            maps=[m.data for m in op.get_indexing_maps()],
            block=op.region.block,
            returns_tensors=bool(op.results),
        )
        return run_structured(interpreter, computation)
