"""Contractions (`linalg.matmul`, `linalg.quantized_matmul`) as one einsum."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
from xdsl.dialects.linalg.abstract_ops import LinalgStructuredOperation
from xdsl.interpreter import Interpreter, PythonValues
from xdsl.interpreters.shaped_array import ShapedArray
from xdsl.ir.affine import AffineDimExpr, AffineMap

from linalg_ext.semantics.arrays import numpy_view
from linalg_ext.semantics.structured.execution import (
    output_aliases_operand,
    run_structured_op,
)
from linalg_ext.semantics.structured.folding import EINSUM_LETTERS
from linalg_ext.semantics.structured.iteration_space import loop_ranges
from linalg_ext.semantics.structured.named_operands import (
    computed_input,
    scalar_of_value,
    write_results,
)
from linalg_ext.semantics.structured.scalars import (
    NotVectorisable,
    Scalar,
    constant_array,
    to_compute,
)


def _einsum_spec(maps: Sequence[AffineMap]) -> str | None:
    """An einsum for a contraction whose maps only pick loops, else None."""
    subscripts = []
    for indexing_map in maps:
        dims = [r for r in indexing_map.results if isinstance(r, AffineDimExpr)]
        if len(dims) != len(indexing_map.results):
            return None
        subscripts.append("".join(EINSUM_LETTERS[r.position] for r in dims))
    *factors, result = subscripts
    if not set(result) <= set("".join(factors)) or len(set(result)) != len(result):
        return None
    return f"{','.join(factors)}->{result}"


def run_contraction(
    interpreter: Interpreter,
    op: LinalgStructuredOperation,
    args: PythonValues,
    prepare: Callable[[list[np.ndarray], Scalar], list[np.ndarray]] | None = None,
) -> PythonValues:
    """out += sum of the product of the (converted) inputs, as einsum says."""
    if output_aliases_operand(op, args):
        return run_structured_op(interpreter, op, args)
    maps = [m.data for m in op.get_indexing_maps()]
    shaped = [i for i, a in enumerate(args) if isinstance(a, ShapedArray)]
    num_inputs = len(op.inputs)
    spec = _einsum_spec([maps[i] for i in shaped])
    try:
        target = scalar_of_value(op.outputs[0], interpreter)
        if spec is None or target.kind == "bool":
            raise NotVectorisable(op.name)
    except NotVectorisable:
        return run_structured_op(interpreter, op, args)
    loop_ranges(
        op.name,
        maps,
        [a.shape if isinstance(a, ShapedArray) else () for a in args],
    )
    factors = [
        computed_input(a, ssa, target, interpreter)
        if isinstance(a, ShapedArray)
        else constant_array(a, target, 0)
        for a, ssa in zip(args[:num_inputs], op.inputs, strict=True)
    ]
    if prepare is not None:
        factors = prepare(factors, target)
    factors = [factors[i] for i in shaped if i < num_inputs]
    (out,) = args[num_inputs:]
    with np.errstate(all="ignore"):
        summed = np.einsum(spec, *factors, optimize=True)
        values = (to_compute(numpy_view(out), target) + summed).astype(target.dtype)
    return write_results(op, (out,), [values])


def subtract_zero_points(factors: list[np.ndarray], target: Scalar) -> list[np.ndarray]:
    lhs, rhs, lhs_zero, rhs_zero = factors
    return [lhs - lhs_zero.reshape(()), rhs - rhs_zero.reshape(()), lhs_zero, rhs_zero]
