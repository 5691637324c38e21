"""Interpreter functions for `scf` and `affine` ops that xDSL lacks or runs
wrongly.

Registered over xDSL's own (override=True). What xDSL 0.74 already runs
correctly is left to it: `scf.if` (with and without results, with or
without an else region) and `scf.yield`. Replaced or added here:

- `scf.for`: xDSL's runs a negative step backwards and fails inside Python
  on a zero step; MLIR requires a positive step, so ours reports one that
  is not.
- `affine.apply`: xDSL's binds every operand to a dimension, so a map with
  symbols reads past its dimension list. Ours binds the first `num_dims`
  operands to dimensions and the rest to symbols.
- `affine.min`: missing; the least of the map's results.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import affine, scf
from xdsl.interpreter import (
    Interpreter,
    InterpreterFunctions,
    PythonValues,
    impl,
    register_impls,
)
from xdsl.ir import Operation
from xdsl.ir.affine import AffineMap
from xdsl.utils.exceptions import InterpretationError


def evaluate_affine_map(
    op: Operation, affine_map: AffineMap, operands: Sequence[int]
) -> tuple[int, ...]:
    """The results of `affine_map` on its dimension operands followed by its
    symbol operands (MLIR's operand order for affine ops)."""
    if len(operands) != affine_map.num_dims + affine_map.num_symbols:
        raise InterpretationError(
            f"{op.name}: {len(operands)} operands for a map of "
            f"{affine_map.num_dims} dimensions and {affine_map.num_symbols} symbols"
        )
    dims = operands[: affine_map.num_dims]
    symbols = operands[affine_map.num_dims :]
    try:
        return tuple(affine_map.eval(dims, symbols))
    except ZeroDivisionError as error:
        raise InterpretationError(
            f"{op.name}: division by zero evaluating {affine_map} on dimensions "
            f"{list(dims)} and symbols {list(symbols)}"
        ) from error


@register_impls
class ControlOpFunctions(InterpreterFunctions):
    @impl(scf.ForOp)
    def run_for(
        self, interpreter: Interpreter, op: scf.ForOp, args: PythonValues
    ) -> PythonValues:
        lower, upper, step, *carried = args
        if step <= 0:
            raise InterpretationError(f"{op.name}: step {step} is not positive")
        values = tuple(carried)
        for induction in range(lower, upper, step):
            values = interpreter.run_ssacfg_region(
                op.body, (induction, *values), "scf.for"
            )
        return values

    @impl(affine.ApplyOp)
    def run_apply(
        self, interpreter: Interpreter, op: affine.ApplyOp, args: PythonValues
    ) -> PythonValues:
        (result,) = evaluate_affine_map(op, op.map.data, args)
        return (result,)

    @impl(affine.MinOp)
    def run_min(
        self, interpreter: Interpreter, op: affine.MinOp, args: PythonValues
    ) -> PythonValues:
        results = evaluate_affine_map(op, op.map.data, args)
        if not results:
            raise InterpretationError(f"{op.name}: the map has no results")
        return (min(results),)
