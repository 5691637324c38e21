"""Running a structured computation: choosing the strategy, and the fallback.

`run_structured` runs a `StructuredComputation` by the first strategy of
`STRATEGIES` its plan and operands allow: the whole space at once or step
by step (`vectorised`), or point by point on the interpreter, in the loops'
lexicographic order, which is the definition (and the only strategy that
is right when a memref output aliases another operand). What was planned
and which strategy ran are kept on the interpreter, per op.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from itertools import product
from typing import Any

import numpy as np
from xdsl.dialects.builtin import IntegerType
from xdsl.dialects.linalg.abstract_ops import LinalgStructuredOperation
from xdsl.interpreter import Interpreter, InterpreterFunctions, PythonValues
from xdsl.interpreters.shaped_array import ShapedArray
from xdsl.ir import Operation
from xdsl.ir.affine import AffineConstantExpr, AffineDimExpr, AffineMap
from xdsl.utils.exceptions import InterpretationError

from linalg_ext.semantics.arrays import numpy_view, shaped_array
from linalg_ext.semantics.structured.body import BodyContext
from linalg_ext.semantics.structured.computation import StructuredComputation
from linalg_ext.semantics.structured.iteration_space import loop_ranges
from linalg_ext.semantics.structured.planning import Plan, make_plan
from linalg_ext.semantics.structured.scalars import element_type, wrap_int
from linalg_ext.semantics.structured.vectorised import VectorisedRun


class _StructuredData(InterpreterFunctions):
    """The key under which the interpreter keeps what structured ops remember
    across runs (plans, strategies) and while running (the current point).
    Never registered: it has no implementations."""


def running_points(interpreter: Interpreter) -> dict[Operation, tuple[int, ...]]:
    """The point of the iteration space each structured op whose body runs
    point by point is at, by op: where `linalg.index` reads its loop indices."""
    return interpreter.get_data(_StructuredData, "iteration", dict)


def _point_mapper(indexing_map: AffineMap) -> Callable[[tuple[int, ...]], tuple]:
    results = indexing_map.results
    simple = [r for r in results if isinstance(r, AffineDimExpr | AffineConstantExpr)]
    if len(simple) == len(results):
        picks = [
            (True, r.position) if isinstance(r, AffineDimExpr) else (False, r.value)
            for r in simple
        ]
        return lambda point: tuple(point[v] if is_dim else v for is_dim, v in picks)
    return lambda point: indexing_map.eval(point, ())


def _load_scalar(stored: np.ndarray, index: tuple, is_i1: bool) -> Any:
    value = stored[index].item()
    # xDSL's scalars are signed Python ints, where an i1 true is -1 (as
    # `arith.constant true` gives); memory may hold it as 1 or -1.
    return (-1 if value else 0) if is_i1 else value


def _store_scalar(stored: np.ndarray, index: tuple, value: Any, is_i1: bool) -> None:
    # i1 is stored as 0 or 1, as numpy writes a bool.
    if is_i1:
        stored[index] = 1 if value else 0
    elif stored.dtype.kind == "i":
        stored[index] = wrap_int(int(value), stored.dtype.itemsize * 8)
    else:
        stored[index] = value


def _run_on_interpreter(
    interpreter: Interpreter,
    computation: StructuredComputation,
    arrays: list[Any],
    ranges: tuple[int, ...],
) -> None:
    """The definition: the body once per point, in lexicographic order."""
    mappers = [_point_mapper(m) for m in computation.maps]
    num_inputs = len(computation.inputs)
    operand_types = [*computation.input_types, *computation.output_types]
    is_i1 = [element_type(t) == IntegerType(1) for t in operand_types]
    region = computation.block.parent
    assert region is not None
    iterations = running_points(interpreter)
    previous = iterations.get(computation.op)
    try:
        for point in product(*(range(r) for r in ranges)):
            iterations[computation.op] = point
            args = [
                _load_scalar(array, mapper(point), i1)
                if isinstance(array, np.ndarray)
                else array
                for array, mapper, i1 in zip(arrays, mappers, is_i1, strict=True)
            ]
            results = interpreter.run_ssacfg_region(
                region, tuple(args), computation.name
            )
            for index, value in enumerate(results):
                position = num_inputs + index
                _store_scalar(
                    arrays[position],
                    mappers[position](point),
                    value,
                    is_i1[position],
                )
    finally:
        if previous is None:
            iterations.pop(computation.op, None)
        else:
            iterations[computation.op] = previous


def _plan_for(
    interpreter: Interpreter, computation: StructuredComputation, ndim: int
) -> Plan:
    plans = interpreter.get_data(_StructuredData, "plans", dict)
    plan = plans.get(computation.op)
    if plan is None:
        context = BodyContext(ndim, interpreter.index_bitwidth)
        plan = make_plan(
            computation.block, computation.maps, len(computation.inputs), context
        )
        plans[computation.op] = plan
    return plan


def _output_arrays(
    computation: StructuredComputation,
) -> tuple[list[Any], list[np.ndarray]]:
    """New tensors for tensor results (never the operands), or the memrefs."""
    for index, output in enumerate(computation.outputs):
        if not isinstance(output, ShapedArray):
            raise InterpretationError(
                f"{computation.name}: output #{index} is not a tensor or memref"
            )
    if computation.returns_tensors:
        results: list[Any] = [
            shaped_array(numpy_view(out), element_type(t))
            for out, t in zip(
                computation.outputs, computation.output_types, strict=True
            )
        ]
        return results, [numpy_view(r) for r in results]
    return [], [numpy_view(out) for out in computation.outputs]


def _aliased(inputs: Sequence[Any], outputs: Sequence[np.ndarray]) -> bool:
    """Whether an output shares memory with another operand (memrefs may): the
    loop nest then reads values it has already written, which whole-array
    evaluation would not."""
    for index, out in enumerate(outputs):
        others = [*inputs, *outputs[:index], *outputs[index + 1 :]]
        if any(
            isinstance(other, np.ndarray) and np.may_share_memory(out, other)
            for other in others
        ):
            return True
    return False


def run_structured(
    interpreter: Interpreter, computation: StructuredComputation
) -> PythonValues:
    """Run `computation`: new tensors for its results, or its memrefs written."""
    results, output_arrays = _output_arrays(computation)
    input_arrays = [
        numpy_view(value) if isinstance(value, ShapedArray) else value
        for value in computation.inputs
    ]
    arrays = [*input_arrays, *output_arrays]
    shapes = [np.shape(a) if isinstance(a, np.ndarray) else () for a in arrays]
    ranges = loop_ranges(computation.name, computation.maps, shapes)
    if math.prod(ranges):
        plan = _plan_for(interpreter, computation, len(ranges))
        with np.errstate(all="ignore"):
            _execute(interpreter, computation, plan, arrays, ranges, output_arrays)
    return tuple(results)


STRATEGIES = ("whole space", "stepwise", "interpreter")
"""How `_execute` ran a structured computation (docs/interpreter.md)."""


def _execute(
    interpreter: Interpreter,
    computation: StructuredComputation,
    plan: Plan,
    arrays: list[Any],
    ranges: tuple[int, ...],
    output_arrays: list[np.ndarray],
) -> None:
    inputs = arrays[: len(computation.inputs)]
    if plan.body is None or _aliased(inputs, output_arrays):
        strategy = "interpreter"
    elif plan.outputs is not None:
        strategy = "whole space"
    elif plan.shared_dims:
        strategy = "stepwise"
    else:
        strategy = "interpreter"
    interpreter.get_data(_StructuredData, "strategies", dict)[computation.op] = strategy
    if strategy == "interpreter":
        _run_on_interpreter(interpreter, computation, arrays, ranges)
        return
    run = VectorisedRun(interpreter, computation, plan, arrays, ranges)
    if strategy == "whole space":
        run.whole_space()
    else:
        run.stepwise()


def strategy_used(interpreter: Interpreter, op: Operation) -> str | None:
    """How `op` (a linalg.generic or linalg.reduce) last ran on `interpreter`:
    one of STRATEGIES, or None if it has not run through them."""
    return interpreter.get_data(_StructuredData, "strategies", dict).get(op)


def _structured_op_computation(
    op: LinalgStructuredOperation, args: PythonValues
) -> StructuredComputation:
    num_inputs = len(op.inputs)
    return StructuredComputation(
        op=op,
        inputs=args[:num_inputs],
        input_types=[v.type for v in op.inputs],
        outputs=args[num_inputs:],
        output_types=[v.type for v in op.outputs],
        maps=[m.data for m in op.get_indexing_maps()],
        block=op.body.block,
        returns_tensors=bool(op.results),
    )


def output_aliases_operand(op: LinalgStructuredOperation, args: PythonValues) -> bool:
    """Whether a memref output shares memory with another operand. A named op
    that moves data (transpose) or reduces (matmul, conv) then depends on the
    loop order, which only the interpreter strategy of `run_structured`
    follows; whole-array numpy would read inputs before any write."""
    if op.results:
        return False  # tensors are values: results never alias operands
    num_inputs = len(args) - len(op.outputs)
    views = [numpy_view(a) if isinstance(a, ShapedArray) else a for a in args]
    return _aliased(views[:num_inputs], views[num_inputs:])


def run_structured_op(
    interpreter: Interpreter, op: LinalgStructuredOperation, args: PythonValues
) -> PythonValues:
    """Run any structured op by its indexing maps and body (hidden or not).

    Other modules can register their structured ops to this function."""
    return run_structured(interpreter, _structured_op_computation(op, args))
