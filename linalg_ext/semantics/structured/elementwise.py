"""The named elementwise ops (`linalg.add`, `linalg.exp`, `linalg.copy`, ...).

Each is computed with numpy in its output's element type (inputs converted
with `cast_signed`); `NAMED_ELEMENTWISE` is the only list of them.
"""

from __future__ import annotations

import numpy as np
from xdsl.dialects.linalg import ops as linalg
from xdsl.dialects.linalg.abstract_ops import LinalgStructuredOperation
from xdsl.interpreter import Interpreter, PythonValues
from xdsl.interpreters.shaped_array import ShapedArray
from xdsl.ir import Operation

from linalg_ext.semantics.arrays import numpy_view
from linalg_ext.semantics.structured.arith_arrays import (
    FLOAT_BINARY,
    FLOAT_UNARY,
    INT_BINARY,
)
from linalg_ext.semantics.structured.execution import run_structured_op
from linalg_ext.semantics.structured.iteration_space import loop_ranges
from linalg_ext.semantics.structured.named_operands import (
    computed_input,
    scalar_of_value,
    write_results,
)
from linalg_ext.semantics.structured.scalars import NotVectorisable, Scalar, to_compute

# named op -> (computation for float outputs, for integer outputs)
NAMED_ELEMENTWISE: dict[type[Operation], tuple[str, str]] = {
    linalg.AddOp: ("arith.addf", "arith.addi"),
    linalg.SubOp: ("arith.subf", "arith.subi"),
    linalg.MulOp: ("arith.mulf", "arith.muli"),
    linalg.MaxOp: ("arith.maximumf", "arith.maxsi"),
    linalg.MinOp: ("arith.minimumf", "arith.minsi"),
    linalg.ExpOp: ("math.exp", ""),
    linalg.LogOp: ("math.log", ""),
    linalg.SqrtOp: ("math.sqrt", ""),
    linalg.CopyOp: ("copy", "copy"),
    linalg.SelectOp: ("select", "select"),
}


def _elementwise(
    interpreter: Interpreter, op: LinalgStructuredOperation, args: PythonValues
) -> np.ndarray:
    (out,) = op.outputs
    target = scalar_of_value(out, interpreter)
    float_name, int_name = NAMED_ELEMENTWISE[type(op)]
    name = float_name if target.kind == "float" else int_name
    inputs = args[: len(op.inputs)]
    if name == "select":
        condition = to_compute(numpy_view(inputs[0]), Scalar("bool", np.dtype(bool), 1))
        values = [
            computed_input(v, ssa, target, interpreter)
            for v, ssa in zip(inputs[1:], op.inputs[1:], strict=True)
        ]
        return np.where(condition, values[0], values[1])
    values = [
        computed_input(v, ssa, target, interpreter)
        for v, ssa in zip(inputs, op.inputs, strict=True)
    ]
    if name == "copy":
        return values[0]
    if name in FLOAT_BINARY:
        return FLOAT_BINARY[name](values[0], values[1])
    if name in FLOAT_UNARY:
        return FLOAT_UNARY[name](values[0])
    if name in INT_BINARY and target.kind == "int":
        return INT_BINARY[name][0](values[0], values[1], target)
    if name in _BOOL_BINARY and target.kind == "bool":
        return _BOOL_BINARY[name](values[0], values[1])
    raise NotVectorisable(f"{op.name} with {target.dtype} results")


_BOOL_BINARY = {"arith.addi": np.logical_or, "arith.muli": np.logical_and}
"""Upstream builds `add` and `mul` on i1 as `arith.ori` and `arith.andi`
(xDSL's hidden bodies use addi and muli, which wrap: 1 + 1 = 0)."""


def _check_extents(op: LinalgStructuredOperation, args: PythonValues) -> None:
    """The operands agree on the loop extents, refused in the words of the
    generic path (and of compiled code's check): "linalg.add: operand #2
    has size 2 in dimension 0, but loop d0 runs 4 times"."""
    shapes = [tuple(a.shape) if isinstance(a, ShapedArray) else () for a in args]
    loop_ranges(op.name, [m.data for m in op.get_indexing_maps()], shapes)


def run_elementwise(
    interpreter: Interpreter, op: LinalgStructuredOperation, args: PythonValues
) -> PythonValues:
    _check_extents(op, args)
    try:
        with np.errstate(all="ignore"):
            values = _elementwise(interpreter, op, args)
    except NotVectorisable:
        return run_structured_op(interpreter, op, args)
    target = scalar_of_value(op.outputs[0], interpreter)
    values = np.asarray(values).astype(target.dtype, copy=False)
    return write_results(op, args[len(op.inputs) :], [values])
