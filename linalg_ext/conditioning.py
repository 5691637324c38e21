"""How much rounding a program amplifies: the float tolerance of a check
that follows the program's conditioning.

`conditioning(run, module, inputs, reference)` re-runs a function with every
float input, every float constant and the result of every scalar math
function (`math.exp`, `math.tanh`, ...) moved by `PERTURBATION_ULPS` ulps
(random signs) and returns, per result and argument, `CONDITIONING_FACTOR`
times how far that moved them: the slack `linalg_ext.comparison` adds to its
tolerance. Two runs that round differently (the interpreter and compiled
code may differ by an ulp in `exp`, or in the order of a sum) may differ that
much without either being wrong; a wrong pass moves results by far more
than their inputs' last bits do. Math results move too because numpy's
functions (the interpreter's) and libm's (compiled code's) may differ in the
last bit, and a program may amplify that difference where it would not
amplify its inputs' (a saturated `tanh` whose result is then fed to `exp`
three times: inputs that moved leave `tanh` at 1.0, libm's last bit does
not).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, cast

import numpy as np
from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    AnyFloat,
    DenseIntOrFPElementsAttr,
    Float16Type,
    Float32Type,
    Float64Type,
    FloatAttr,
    ModuleOp,
    TensorType,
)
from xdsl.rewriter import InsertPoint, Rewriter

from linalg_ext.running import FunctionRun

PERTURBATION_ULPS = 8
"""How far `_conditioning` moves each float input, in units of its dtype's
epsilon (relative)."""

CONDITIONING_FACTOR = 4.0
"""How many times the perturbed runs' spread a difference may reach."""


def perturbed_value(value: Any, rng: np.random.Generator) -> Any:
    if isinstance(value, np.ndarray) and value.dtype.kind == "f":
        eps = np.finfo(value.dtype).eps * PERTURBATION_ULPS
        signs = rng.choice(np.array([-1.0, 1.0]), size=value.shape)
        return (value * (1 + signs * eps)).astype(value.dtype)
    if isinstance(value, np.floating):
        return type(value)(value * (1 + np.finfo(type(value)).eps * PERTURBATION_ULPS))
    return value.copy() if isinstance(value, np.ndarray) else value


def _spread(reference: Any, perturbed: Any) -> Any | None:
    reference, perturbed = np.asarray(reference), np.asarray(perturbed)
    if reference.dtype.kind != "f" or reference.shape != perturbed.shape:
        return None
    with np.errstate(all="ignore"):
        spread = np.abs(perturbed.astype(np.float64) - reference.astype(np.float64))
    return np.nan_to_num(spread, nan=0.0, posinf=0.0) * CONDITIONING_FACTOR


_EPSILONS = {
    Float16Type: float(np.finfo(np.float16).eps),
    Float32Type: float(np.finfo(np.float32).eps),
    Float64Type: float(np.finfo(np.float64).eps),
}


def perturbed_constants(module: ModuleOp, rng: np.random.Generator) -> ModuleOp:
    """A copy of `module` whose float constants (scalars, and every element
    of dense ones) moved by a few ulps: constants are inputs of the
    computation too (a matrix of equal entries makes rows whose variance
    cancels to rounding, which only moving its entries apart shows)."""
    moved = module.clone()
    for op in moved.walk():
        if not isinstance(op, arith.ConstantOp):
            continue
        value = op.value
        if isinstance(value, FloatAttr):
            eps = _EPSILONS.get(type(value.type))
            if eps is not None:
                factor = 1 + rng.choice([-1.0, 1.0]) * eps * PERTURBATION_ULPS
                op.value = FloatAttr(value.value.data * factor, value.type)
        elif isinstance(value, DenseIntOrFPElementsAttr):
            eps = _EPSILONS.get(type(value.get_element_type()))
            if eps is None:
                continue
            values = np.array(value.get_values(), dtype=np.float64)
            values = np.broadcast_to(values, (math.prod(value.get_shape()),)).copy()
            signs = rng.choice(np.array([-1.0, 1.0]), size=values.shape)
            values *= 1 + signs * eps * PERTURBATION_ULPS
            floats: list[float] = values.tolist()
            op.value = DenseIntOrFPElementsAttr.from_list(
                cast(TensorType[AnyFloat], value.type), floats
            )
    return moved


EXACT_MATH_OPS = frozenset(
    {
        "math.absf",
        "math.ceil",
        "math.copysign",
        "math.floor",
        "math.fma",
        "math.round",
        "math.roundeven",
        "math.sqrt",
        "math.trunc",
    }
)
"""`math` ops whose result IEEE fixes (correctly rounded or exact): numpy
and libm agree on them, so `nudged_math_results` leaves them alone."""


def nudged_math_results(module: ModuleOp, rng: np.random.Generator) -> ModuleOp:
    """`module` (changed in place and returned) with the scalar float result
    of every `math` op but `EXACT_MATH_OPS` multiplied by 1 +- a few ulps
    (one random sign per op): how far the last bit of a math function may
    carry (the module docstring)."""
    for op in list(module.walk()):
        if not op.name.startswith("math.") or op.name in EXACT_MATH_OPS:
            continue
        if len(op.results) != 1:
            continue
        result = op.results[0]
        eps = _EPSILONS.get(type(result.type))
        if eps is None:
            continue  # a tensor, a vector, an integer
        factor = 1 + float(rng.choice([-1.0, 1.0])) * eps * PERTURBATION_ULPS
        constant = arith.ConstantOp(FloatAttr(factor, cast(AnyFloat, result.type)))
        nudged = arith.MulfOp(result, constant.result)
        Rewriter.insert_op([constant, nudged], InsertPoint.after(op))
        result.replace_uses_with_if(
            nudged.result, lambda use, nudged=nudged: use.operation is not nudged
        )
    return module


def conditioning(
    run: Callable[[ModuleOp, list[Any]], FunctionRun | None],
    module: ModuleOp,
    inputs: list[Any],
    reference: FunctionRun,
) -> FunctionRun | None:
    """How much the outputs of a function of `module` move when its float
    inputs and constants move by a few ulps: `run(moved module, moved
    inputs)` runs it (the caller's function, on the interpreter; None if it
    refuses); `reference` is its run on the unmoved ones. Returns the slack
    of each result and argument (None where not a float array), or None if
    a moved run refuses."""
    rng = np.random.default_rng(0)
    spreads: list[FunctionRun] = []
    for _ in range(2):
        moved = run(
            nudged_math_results(perturbed_constants(module, rng), rng),
            [perturbed_value(v, rng) for v in inputs],
        )
        if moved is None:
            return None
        spreads.append(moved)
    return FunctionRun(
        results=[
            _widest(reference.results[i], [s.results[i] for s in spreads])
            for i in range(len(reference.results))
        ],
        arguments=[
            _widest(reference.arguments[i], [s.arguments[i] for s in spreads])
            for i in range(len(reference.arguments))
        ],
    )


def _widest(reference: Any, moved: list[Any]) -> Any | None:
    spreads = [_spread(reference, m) for m in moved]
    known = [s for s in spreads if s is not None]
    if len(known) != len(spreads):
        return None
    return np.maximum.reduce(known)
