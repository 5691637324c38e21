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
- `affine.for`: xDSL's asserts constant bounds and no iter_args. Ours runs
  from the greatest lower-bound result to the least upper-bound result,
  both maps applied to their operands (dims then symbols), with iter_args.
- `affine.load` / `affine.store`: xDSL's bind no symbols.
- `affine.if`: missing.
- `scf.parallel` (+ `scf.reduce`, `scf.reduce.return`): missing; runs the
  iterations in lexicographic order, combining each reduction operand into
  the accumulator (which starts as the init) with the reduction region.
- `scf.execute_region`: missing; runs its region once.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import product

from xdsl.dialects import affine, scf
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
from xdsl.ir.affine import AffineMap
from xdsl.ir.affine.affine_set import AffineConstraintKind
from xdsl.utils.exceptions import InterpretationError

from linalg_ext.semantics.arrays import check_index


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

    @impl(affine.ForOp)
    def run_affine_for(
        self, interpreter: Interpreter, op: affine.ForOp, args: PythonValues
    ) -> PythonValues:
        lower_map, upper_map = op.lowerBoundMap.data, op.upperBoundMap.data
        num_lower = lower_map.num_dims + lower_map.num_symbols
        num_upper = upper_map.num_dims + upper_map.num_symbols
        lower = max(evaluate_affine_map(op, lower_map, args[:num_lower]))
        upper = min(
            evaluate_affine_map(op, upper_map, args[num_lower : num_lower + num_upper])
        )
        step = op.step.value.data
        if step <= 0:
            raise InterpretationError(f"{op.name}: step {step} is not positive")
        values = tuple(args[num_lower + num_upper :])
        for induction in range(lower, upper, step):
            values = interpreter.run_ssacfg_region(
                op.body, (induction, *values), "affine.for"
            )
        return values

    @impl(affine.LoadOp)
    def run_affine_load(
        self, interpreter: Interpreter, op: affine.LoadOp, args: PythonValues
    ) -> PythonValues:
        memref, *operands = args
        indices = evaluate_affine_map(op, op.map.data, operands)
        return (memref.load(check_index(op, memref, indices)),)

    @impl(affine.StoreOp)
    def run_affine_store(
        self, interpreter: Interpreter, op: affine.StoreOp, args: PythonValues
    ) -> PythonValues:
        value, memref, *operands = args
        indices = evaluate_affine_map(op, op.map.data, operands)
        memref.store(check_index(op, memref, indices), value)
        return ()

    @impl(affine.IfOp)
    def run_affine_if(
        self, interpreter: Interpreter, op: affine.IfOp, args: PythonValues
    ) -> PythonValues:
        set_ = op.condition.data
        dims, symbols = args[: set_.num_dims], args[set_.num_dims :]
        holds = True
        for constraint in set_.constraints:
            difference = constraint.lhs.eval(dims, symbols) - constraint.rhs.eval(
                dims, symbols
            )
            if constraint.kind == AffineConstraintKind.ge:
                holds = holds and difference >= 0
            elif constraint.kind == AffineConstraintKind.le:
                holds = holds and difference <= 0
            else:
                holds = holds and difference == 0
        region = op.then_region if holds else op.else_region
        if not region.blocks:
            return ()
        return interpreter.run_ssacfg_region(region, (), "affine.if")

    @impl(scf.ParallelOp)
    def run_parallel(
        self, interpreter: Interpreter, op: scf.ParallelOp, args: PythonValues
    ) -> PythonValues:
        rank = len(op.lowerBound)
        lower = args[:rank]
        upper = args[rank : 2 * rank]
        steps = args[2 * rank : 3 * rank]
        if any(step <= 0 for step in steps):
            raise InterpretationError(f"{op.name}: steps {steps} are not all positive")
        accumulators = list(args[3 * rank :])
        reduce_op = op.body.block.last_op
        assert isinstance(reduce_op, scf.ReduceOp)
        ranges = (
            range(lo, up, st) for lo, up, st in zip(lower, upper, steps, strict=True)
        )
        for point in product(*ranges):
            values = interpreter.run_ssacfg_region(op.body, point, "scf.parallel")
            for index, (region, value) in enumerate(
                zip(reduce_op.reductions, values, strict=True)
            ):
                (accumulators[index],) = interpreter.run_ssacfg_region(
                    region, (accumulators[index], value), "scf.reduce"
                )
        return tuple(accumulators)

    @impl_terminator(scf.ReduceOp)
    def run_reduce(
        self, interpreter: Interpreter, op: scf.ReduceOp, args: PythonValues
    ):
        # The operands; scf.parallel combines them with the regions.
        return ReturnedValues(args), ()

    @impl_terminator(scf.ReduceReturnOp)
    def run_reduce_return(
        self, interpreter: Interpreter, op: scf.ReduceReturnOp, args: PythonValues
    ):
        return ReturnedValues(args), ()

    @impl(scf.ExecuteRegionOp)
    def run_execute_region(
        self, interpreter: Interpreter, op: scf.ExecuteRegionOp, args: PythonValues
    ) -> PythonValues:
        return interpreter.run_ssacfg_region(op.region, (), "scf.execute_region")
