"""`StructuredOpFunctions`: the interpreter functions of the Linalg structured ops.

`linalg.generic` (and `linalg.index`, `linalg.yield` in its body) and
`linalg.reduce` go through `run_structured`; the named ops with a fixed
meaning are computed with numpy directly (`elementwise`, `contractions`,
`convolutions`, and transpose and broadcast here), falling back to
`run_structured_op` where numpy cannot.
"""

from __future__ import annotations

import numpy as np
from xdsl.dialects.linalg import ops as linalg
from xdsl.interpreter import (
    Interpreter,
    InterpreterFunctions,
    PythonValues,
    ReturnedValues,
    impl,
    impl_terminator,
    register_impls,
)
from xdsl.ir import Operation
from xdsl.ir.affine import AffineDimExpr, AffineMap
from xdsl.utils.exceptions import InterpretationError

from linalg_ext.semantics.arrays import numpy_view
from linalg_ext.semantics.structured.computation import StructuredComputation
from linalg_ext.semantics.structured.contractions import (
    run_contraction,
    subtract_zero_points,
)
from linalg_ext.semantics.structured.convolutions import run_conv, run_pooling_max
from linalg_ext.semantics.structured.elementwise import (
    NAMED_ELEMENTWISE,
    run_elementwise,
)
from linalg_ext.semantics.structured.execution import (
    output_aliases_operand,
    run_structured,
    run_structured_op,
    running_points,
)
from linalg_ext.semantics.structured.named_operands import write_results


def _run_transpose(op: linalg.TransposeOp, args: PythonValues) -> PythonValues:
    source, out = args
    permutation = list(op.permutation.get_values())
    if sorted(permutation) != list(range(len(source.shape))):
        raise InterpretationError(
            f"{op.name}: permutation {permutation} does not fit "
            f"rank {len(source.shape)}"
        )
    values = numpy_view(source).transpose(permutation)
    if list(values.shape) != list(out.shape):
        raise InterpretationError(
            f"{op.name}: the transposed input has shape {list(values.shape)}, "
            f"the output {list(out.shape)}"
        )
    return write_results(op, (out,), [values])


def _run_broadcast(op: linalg.BroadcastOp, args: PythonValues) -> PythonValues:
    source, out = args
    dimensions = list(op.dimensions.get_values())
    rank = len(out.shape)
    if sorted(set(dimensions)) != sorted(dimensions) or any(
        not 0 <= d < rank for d in dimensions
    ):
        raise InterpretationError(
            f"{op.name}: dimensions {dimensions} do not fit rank {rank}"
        )
    kept = [s for d, s in enumerate(out.shape) if d not in dimensions]
    if kept != list(source.shape):
        raise InterpretationError(
            f"{op.name}: the input has shape {list(source.shape)}, the output "
            f"{list(out.shape)} without dimensions {dimensions}"
        )
    values = np.expand_dims(numpy_view(source), tuple(sorted(dimensions)))
    return write_results(op, (out,), [np.broadcast_to(values, out.shape)])


def _run_reduce(
    interpreter: Interpreter, op: linalg.ReduceOp, args: PythonValues
) -> PythonValues:
    source, init = args
    rank = len(source.shape)
    dimensions = list(op.dimensions.get_values())
    if len(set(dimensions)) != len(dimensions) or any(
        not 0 <= d < rank for d in dimensions
    ):
        raise InterpretationError(
            f"{op.name}: dimensions {dimensions} do not fit rank {rank}"
        )
    kept = [AffineDimExpr(d) for d in range(rank) if d not in dimensions]
    computation = StructuredComputation(
        op=op,
        inputs=(source,),
        input_types=(op.input.type,),
        outputs=(init,),
        output_types=(op.init.type,),
        maps=(AffineMap.identity(rank), AffineMap(rank, 0, tuple(kept))),
        block=op.region.block,
        returns_tensors=bool(op.results),
    )
    return run_structured(interpreter, computation)


def _elementwise_impl(op_type: type[Operation]):
    @impl(op_type)
    def run(self: InterpreterFunctions, interpreter: Interpreter, op, args):
        return run_elementwise(interpreter, op, args)

    return run


_NamedElementwiseFunctions = type(
    "_NamedElementwiseFunctions",
    (InterpreterFunctions,),
    {f"run_{t.name}": _elementwise_impl(t) for t in NAMED_ELEMENTWISE},
)
"""One implementation per op of `NAMED_ELEMENTWISE` (registered through the
subclass below), so the table is the only list of them."""


@register_impls
class StructuredOpFunctions(_NamedElementwiseFunctions):
    @impl(linalg.GenericOp)
    def run_generic(
        self, interpreter: Interpreter, op: linalg.GenericOp, args: PythonValues
    ) -> PythonValues:
        return run_structured_op(interpreter, op, args)

    @impl(linalg.IndexOp)
    def run_index(
        self, interpreter: Interpreter, op: linalg.IndexOp, args: PythonValues
    ) -> PythonValues:
        iterations = running_points(interpreter)
        parent = op.parent_op()
        point = iterations.get(parent) if parent is not None else None
        if point is None:
            raise InterpretationError(
                "linalg.index: not inside a running linalg.generic body"
            )
        dim = op.dim.value.data
        if not 0 <= dim < len(point):
            raise InterpretationError(
                f"linalg.index: dimension {dim} of a {len(point)}-loop generic"
            )
        return (point[dim],)

    @impl_terminator(linalg.YieldOp)
    def run_yield(
        self, interpreter: Interpreter, op: linalg.YieldOp, args: PythonValues
    ):
        return ReturnedValues(args), ()

    @impl(linalg.TransposeOp)
    def run_transpose(
        self, interpreter: Interpreter, op: linalg.TransposeOp, args: PythonValues
    ):
        if output_aliases_operand(op, args):
            return run_structured_op(interpreter, op, args)
        return _run_transpose(op, args)

    @impl(linalg.BroadcastOp)
    def run_broadcast(
        self, interpreter: Interpreter, op: linalg.BroadcastOp, args: PythonValues
    ):
        return _run_broadcast(op, args)

    @impl(linalg.ReduceOp)
    def run_reduce(
        self, interpreter: Interpreter, op: linalg.ReduceOp, args: PythonValues
    ):
        return _run_reduce(interpreter, op, args)

    @impl(linalg.MatmulOp)
    def run_matmul(
        self, interpreter: Interpreter, op: linalg.MatmulOp, args: PythonValues
    ):
        return run_contraction(interpreter, op, args)

    @impl(linalg.QuantizedMatmulOp)
    def run_quantized_matmul(
        self,
        interpreter: Interpreter,
        op: linalg.QuantizedMatmulOp,
        args: PythonValues,
    ):
        return run_contraction(interpreter, op, args, subtract_zero_points)

    @impl(linalg.Conv2DNhwc_HwcfOp)
    def run_conv_2d_nhwc_hwcf(
        self, interpreter: Interpreter, op: linalg.Conv2DNhwc_HwcfOp, args: PythonValues
    ):
        return run_conv(interpreter, op, args)

    @impl(linalg.Conv2DNhwc_FhwcOp)
    def run_conv_2d_nhwc_fhwc(
        self, interpreter: Interpreter, op: linalg.Conv2DNhwc_FhwcOp, args: PythonValues
    ):
        return run_conv(interpreter, op, args)

    @impl(linalg.Conv2DNchwFchwOp)
    def run_conv_2d_nchw_fchw(
        self, interpreter: Interpreter, op: linalg.Conv2DNchwFchwOp, args: PythonValues
    ):
        return run_conv(interpreter, op, args)

    @impl(linalg.Conv2DNgchwFgchwOp)
    def run_conv_2d_ngchw_fgchw(
        self,
        interpreter: Interpreter,
        op: linalg.Conv2DNgchwFgchwOp,
        args: PythonValues,
    ):
        return run_conv(interpreter, op, args)

    @impl(linalg.Conv2DNgchwGfchwOp)
    def run_conv_2d_ngchw_gfchw(
        self,
        interpreter: Interpreter,
        op: linalg.Conv2DNgchwGfchwOp,
        args: PythonValues,
    ):
        return run_conv(interpreter, op, args)

    @impl(linalg.Conv2DNhwgcGfhwcOp)
    def run_conv_2d_nhwgc_gfhwc(
        self,
        interpreter: Interpreter,
        op: linalg.Conv2DNhwgcGfhwcOp,
        args: PythonValues,
    ):
        return run_conv(interpreter, op, args)

    @impl(linalg.PoolingNchwMaxOp)
    def run_pooling_nchw_max(
        self,
        interpreter: Interpreter,
        op: linalg.PoolingNchwMaxOp,
        args: PythonValues,
    ):
        return run_pooling_max(interpreter, op, args)
