"""Interpreter functions for `ccl.all_reduce` on one device (docs/ccl.md).

The replicas of an all-reduce are the iterations of the `scf.forall` whose
body block holds it directly (replica `k` is the `k`-th iteration in
lexicographic order of the induction variables); an all-reduce in no
`scf.forall` has one replica, the device, and gives its `src`.

An `scf.forall` with all-reduces in its body runs as that many replicas in
step: every replica runs the ops up to the first all-reduce, then each gets
the reduction of its group's `src` values, then every replica runs the ops
up to the next one, and so on. Each replica reads its own copy of the
loop's inits through the shared-output block arguments (as separate devices
would); the `tensor.parallel_insert_slice` ops of all replicas write into
the loop's results, in replica order. Registered over `CompatOpFunctions`'
`scf.forall` (override=True), which runs every other `scf.forall`.

Reductions combine the replicas of a group in ascending replica order:
`((v0 op v1) op v2) ...`, in the element type (floats round after each
step; `max`/`min` on floats propagate NaN, as `arith.maximumf` does; on
integers they are signed); `avg` is the sum divided by the group's size
(integers: rounded toward zero).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import product
from typing import Any

import numpy as np
from xdsl.dialects.builtin import DYNAMIC_INDEX, AnyFloat, TensorType
from xdsl.interpreter import (
    Interpreter,
    InterpreterFunctions,
    PythonValues,
    impl,
    register_impls,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.utils.exceptions import InterpretationError

from linalg_ext.compat.forall_ops import ForallOp
from linalg_ext.dialect.ccl import (
    AllReduceOp,
    CclUnsupported,
    located,
    replica_groups_for,
)
from linalg_ext.semantics.arrays import numpy_view, shaped_array
from linalg_ext.semantics.compat_ops import CompatOpFunctions


def combine(
    reduction: str, values: Sequence[np.ndarray], element_type: Attribute
) -> np.ndarray:
    """The `reduction` of `values` (one array per replica, ascending
    replica order), in their dtype."""
    acc = np.array(values[0], copy=True)
    for value in values[1:]:
        if reduction in ("sum", "avg"):
            acc = np.add(acc, value, dtype=acc.dtype)
        elif reduction == "prod":
            acc = np.multiply(acc, value, dtype=acc.dtype)
        elif reduction == "max":
            acc = np.maximum(acc, value)
        else:
            acc = np.minimum(acc, value)
    if reduction == "avg" and len(values) > 1:
        count = len(values)
        if isinstance(element_type, AnyFloat):
            acc = np.divide(acc, np.asarray(count, dtype=acc.dtype), dtype=acc.dtype)
        else:
            quotient = np.abs(acc.astype(np.int64)) // count
            acc = np.where(acc < 0, -quotient, quotient).astype(acc.dtype)
    return acc


def _element_type(value: SSAValue) -> Attribute:
    assert isinstance(value.type, TensorType)
    return value.type.element_type


def _bounds(op: ForallOp, args: PythonValues) -> tuple[list[tuple[int, ...]], list]:
    """The iteration points of `op`, in lexicographic order, and its inits."""
    values = iter(args)

    def mixed(static: Any) -> list[int]:
        return [next(values) if s == DYNAMIC_INDEX else s for s in static.get_values()]

    lower = mixed(op.static_lower_bound)
    upper = mixed(op.static_upper_bound)
    steps = mixed(op.static_step)
    if any(step <= 0 for step in steps):
        raise InterpretationError(f"'scf.forall' expects positive steps, got {steps}")
    ranges = [range(lo, up, st) for lo, up, st in zip(lower, upper, steps, strict=True)]
    return list(product(*ranges)), list(values)


@register_impls
class CclFunctions(InterpreterFunctions):
    """`ccl.all_reduce`, and the `scf.forall` whose iterations are its
    replicas (see the module docstring)."""

    @impl(AllReduceOp)
    def run_all_reduce(
        self, interpreter: Interpreter, op: AllReduceOp, args: PythonValues
    ) -> PythonValues:
        # Reached only outside a distributed scf.forall: one replica.
        ancestor = op.parent_op()
        while ancestor is not None:
            if isinstance(ancestor, ForallOp):
                raise InterpretationError(
                    located(
                        op,
                        "must be directly in the body of the scf.forall whose "
                        "iterations are its replicas",
                    )
                )
            ancestor = ancestor.parent_op()
        try:
            replica_groups_for(op, 1)
        except CclUnsupported as reason:
            raise InterpretationError(located(op, str(reason))) from reason
        return (args[0].copy(),)

    @impl(ForallOp)
    def run_forall(
        self, interpreter: Interpreter, op: ForallOp, args: PythonValues
    ) -> PythonValues:
        block = op.body.block
        if not any(isinstance(o, AllReduceOp) for o in block.ops):
            # `impl` wraps the function: its values are the loop's results.
            return CompatOpFunctions().run_forall(interpreter, op, args).values
        points, inits = _bounds(op, args)
        results = tuple(init.copy() for init in inits)
        num_ivs = len(op.static_lower_bound.get_values())
        shared_args = block.args[num_ivs:]
        # Each replica's values: its induction variables, its own copies of
        # the inits, then what its ops compute.
        envs: list[dict[SSAValue, Any]] = [
            dict(zip(block.args, (*point, *(i.copy() for i in inits)), strict=True))
            for point in points
        ]
        segment: list[Operation] = []
        terminator = block.last_op
        for body_op in block.ops:
            if body_op is terminator:
                break
            if not isinstance(body_op, AllReduceOp):
                segment.append(body_op)
                continue
            for env in envs:
                _run_segment(interpreter, segment, env)
            segment = []
            self._all_reduce(body_op, envs)
        for env in envs:
            _run_segment(interpreter, segment, env)
            if terminator is not None:
                # The replicas write into the loop's results.
                writes = {**env, **dict(zip(shared_args, results, strict=True))}
                _run_segment(interpreter, [terminator], writes)
        return results

    @staticmethod
    def _all_reduce(op: AllReduceOp, envs: list[dict[SSAValue, Any]]) -> None:
        try:
            groups = replica_groups_for(op, len(envs))
        except CclUnsupported as reason:
            raise InterpretationError(located(op, str(reason))) from reason
        element_type = _element_type(op.src)
        for group in groups:
            values = [numpy_view(envs[k][op.src]) for k in group]
            reduced = combine(op.reduction.data, values, element_type)
            for k in group:
                envs[k][op.result] = shaped_array(reduced, element_type)


def _run_segment(
    interpreter: Interpreter,
    ops: Sequence[Operation],
    env: dict[SSAValue, Any],
) -> None:
    """Run `ops` with the values of `env`, adding their results to it."""
    interpreter.push_scope("scf.forall")
    try:
        interpreter.set_values(env.items())
        for body_op in ops:
            outputs = interpreter.run_op(
                body_op, interpreter.get_values(body_op.operands)
            )
            pairs = list(zip(body_op.results, outputs, strict=True))
            interpreter.set_values(pairs)
            env.update(pairs)
    finally:
        interpreter.pop_scope()


__all__ = ["CclFunctions", "combine"]
