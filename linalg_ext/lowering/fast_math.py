"""The floating-point contract of compiled code: which fast-math flags the
lowering adds to `arith`'s float ops.

By default (`none`) compiled code rounds every operation as the interpreter
does: each `arith` op keeps exactly the flags it carries in the IR (none,
unless the program wrote `fastmath<...>`). A mode lets LLVM compute
differently than written, op by op:

- `contract`: `addf`/`subf`/`mulf` get `contract`, so that `a * b + c` may
  become one fused multiply-add (one rounding instead of two);
- `reassoc`: they also get `reassoc`, so that a sum or product may be
  evaluated in another order (a reduction split over vector lanes); NaN,
  infinities and signed zeros keep IEEE semantics;
- `arcp`: besides, `divf` gets `arcp`, so that `x / y` may become
  `x * (1 / y)` (one reciprocal per row instead of a division per element
  when `y` does not change along the inner loop, softmax's sum): about one
  ulp more per division; NaN and infinities as IEEE except where `1 / y`
  itself overflows or underflows (|y| below 2^-126 or above 2^126 in f32);
- `fast`: every float op of `arith` (`addf`, `subf`, `mulf`, `divf`, `remf`,
  `negf`, the min/max ops) gets MLIR's `fast`, all seven flags: besides the
  above, `x / y` may become `x * (1 / y)` (`arcp`), the sign of a zero may
  differ (`nsz`), and a NaN or infinite operand or result makes the result
  undefined (`nnan`, `ninf`: LLVM may assume there are none).

Flags already on an op are kept (a mode only adds). What a mode may change
in results, `fast_math_slack`, is the tolerance `linalg_ext.checking` adds
when it compares compiled code with the interpreter (`docs/jit.md`,
"Floating-point contract").
"""

from __future__ import annotations

import typing
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Literal

from xdsl.dialects import func
from xdsl.dialects.builtin import Float16Type, Float32Type, Float64Type
from xdsl.dialects.utils.fast_math import FastMathFlag
from xdsl.ir import Attribute

from linalg_ext.shaped import element_type_or_self

if TYPE_CHECKING:
    # The interpreter and numpy, only for `fast_math_slack` (a check), not
    # for the passes that read the modes (start-up of every tool).
    from linalg_ext.running import FunctionRun

FastMathMode = Literal["none", "contract", "reassoc", "arcp", "fast"]
"""What compiled code may do to float arithmetic (the module docstring)."""

FAST_MATH_MODES: tuple[FastMathMode, ...] = typing.get_args(FastMathMode)
"""Every mode, from the strictest to the loosest."""

ADD_SUB_MUL = frozenset({"arith.addf", "arith.subf", "arith.mulf"})
"""The ops `contract` and `reassoc` apply to: those a fused multiply-add or
a reassociated sum or product is made of."""

_DIVISION = "arith.divf"
"""The op `arcp` applies to."""

_ADDED_FLAGS: dict[FastMathMode, frozenset[FastMathFlag]] = {
    "none": frozenset(),
    "contract": frozenset({FastMathFlag.ALLOW_CONTRACT}),
    "reassoc": frozenset({FastMathFlag.ALLOW_CONTRACT, FastMathFlag.REASSOC}),
    "arcp": frozenset({FastMathFlag.ALLOW_CONTRACT, FastMathFlag.REASSOC}),
    "fast": frozenset(FastMathFlag),
}


def added_flags(mode: FastMathMode, op_name: str) -> frozenset[FastMathFlag]:
    """The flags `mode` adds to an `arith` float op named `op_name` (the
    ones `convert-arith-to-llvm` gives to the llvm op besides its own)."""
    if mode == "fast" or op_name in ADD_SUB_MUL:
        return _ADDED_FLAGS[mode]
    if mode == "arcp" and op_name == _DIVISION:
        return frozenset({FastMathFlag.ALLOW_RECIP})
    return frozenset()


def reassociates(mode: FastMathMode) -> bool:
    """Whether code compiled in `mode` may sum or multiply in any order (a
    reduction split over vector lanes): `reassoc` and every looser mode."""
    return FAST_MATH_MODES.index(mode) >= FAST_MATH_MODES.index("reassoc")


def check_fast_math_mode(value: object, where: str) -> FastMathMode:
    """`value` as a mode, or a one-line `ValueError` saying what `where`
    (e.g. `compile_module: fast_math`) accepts."""
    for mode in FAST_MATH_MODES:
        if value == mode and isinstance(value, str):
            return mode
    raise ValueError(
        f"{where} must be one of {', '.join(FAST_MATH_MODES)}, not {value!r}"
    )


FAST_MATH_FACTOR = 1.0
"""How many times `n · eps · scale` a value may move under fast math
(`fast_math_slack`)."""


def _largest_magnitude(value: Any) -> float:
    """The largest finite |element| of a float value (0 for others)."""
    import numpy as np

    array = np.asarray(value)
    if array.dtype.kind != "f" or array.size == 0:
        return 0.0
    finite = np.abs(array[np.isfinite(array)])
    return float(finite.max()) if finite.size else 0.0


_EPSILONS: dict[type[Attribute], float] = {
    # numpy's `finfo(...).eps`: 2 ** -(bits of the significand's fraction).
    Float16Type: 2.0**-10,
    Float32Type: 2.0**-23,
    Float64Type: 2.0**-52,
}


def _epsilon(type_: Attribute) -> float | None:
    """The machine epsilon of a float (or shaped float) type, else None."""
    return _EPSILONS.get(type(element_type_or_self(type_)))


def fast_math_slack(
    mode: FastMathMode,
    function: func.FuncOp,
    inputs: Sequence[Any],
    reference: FunctionRun,
    slack: FunctionRun | None = None,
) -> FunctionRun | None:
    """`slack` (per result and argument, as `linalg_ext.conditioning`
    gives it, or None) widened for compiled code built in fast-math `mode`
    ("none": `slack` unchanged).

    A sum of n terms that is contracted (fused multiply-adds: one rounding
    instead of two) or reassociated (added in another order) may move by up
    to about n · eps · sum |term|. The terms are not known here, so each
    float result or argument of `reference` (the interpreter's run of
    `function`) may move by `FAST_MATH_FACTOR` · n · eps · scale, where eps
    is the machine epsilon of its type in `function`'s signature, n the
    element count of the largest float input (no reduction over the inputs
    is longer) and scale the largest finite magnitude in that value or in
    any float input (a sum that cancels to almost nothing still moves with
    its terms)."""
    if mode == "none":
        return slack
    import numpy as np

    from linalg_ext.running import FunctionRun

    floats = [v for v in inputs if np.asarray(v).dtype.kind == "f"]
    n = max((np.asarray(v).size for v in floats), default=1)
    input_scale = max((_largest_magnitude(v) for v in floats), default=0.0)

    def widened(
        types: Sequence[Attribute], values: list[Any], given: list[Any] | None
    ) -> list[Any]:
        given = [None] * len(values) if given is None else given
        out: list[Any] = []
        for type_, value, old in zip(types, values, given, strict=True):
            eps = _epsilon(type_)
            if eps is None:
                out.append(old)
                continue
            scale = max(_largest_magnitude(value), input_scale)
            extra = FAST_MATH_FACTOR * n * eps * scale
            out.append(extra if old is None else old + extra)
        return out

    signature = function.function_type
    return FunctionRun(
        results=widened(
            signature.outputs.data, reference.results, slack and slack.results
        ),
        arguments=widened(
            signature.inputs.data, reference.arguments, slack and slack.arguments
        ),
    )
