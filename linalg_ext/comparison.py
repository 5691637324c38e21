"""When two runs of a program agree: the rule every check of meaning uses.

Integers and booleans must be equal; floats must agree within
`FLOAT_TOLERANCES` for their width (|expected − actual| <= atol +
rtol·|expected|), NaN matching NaN and infinities matching themselves.

`slack`: an extra absolute tolerance per element, for results whose
rounding the computation itself amplifies (`linalg_ext.checking` measures
it by perturbing the inputs by a few ulps: an ill-conditioned program, such
as `x·exp(x)` iterated, turns one ulp of difference in `exp` between the
interpreter and compiled code into far more than `rtol`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

FLOAT_TOLERANCES = {
    np.dtype(np.float16): (1e-2, 1e-3),
    np.dtype(np.float32): (1e-5, 1e-6),
    np.dtype(np.float64): (1e-9, 1e-12),
}
"""(rtol, atol) per float dtype."""


def first_difference(
    expected: Any, actual: Any, slack: Any | None = None
) -> str | None:
    """None if the two values agree (floats within the tolerance of their
    width plus `slack`, an array of absolute differences the computation's
    own conditioning allows), else where and how they differ."""
    expected, actual = np.asarray(expected), np.asarray(actual)
    if expected.shape != actual.shape:
        return f"shape {expected.shape} before, {actual.shape} after"
    if expected.dtype.kind == "f":
        rtol, atol = FLOAT_TOLERANCES.get(expected.dtype, (1e-5, 1e-6))
        with np.errstate(all="ignore"):
            close = np.isclose(actual, expected, rtol=rtol, atol=atol, equal_nan=True)
            if slack is not None:
                close |= np.abs(actual - expected) <= slack
    else:
        close = expected == actual
    if np.all(close):
        return None
    index = tuple(int(i) for i in np.argwhere(~np.asarray(close))[0])
    return (
        f"at index {index}: {expected[index].item()!r} before, "
        f"{actual[index].item()!r} after"
    )


def compare_values(
    expected: Sequence[Any],
    actual: Sequence[Any],
    what: str,
    slacks: Sequence[Any | None] | None = None,
) -> str | None:
    """The first disagreement between two lists of values, named `what #i`
    (`slacks`: one `first_difference` slack, or None, per value)."""
    if len(expected) != len(actual):
        return f"{len(expected)} {what}s before, {len(actual)} after"
    slacks = [None] * len(expected) if slacks is None else slacks
    for index, (e, a, slack) in enumerate(zip(expected, actual, slacks, strict=True)):
        if (difference := first_difference(e, a, slack)) is not None:
            return f"in {what} #{index} {difference}"
    return None
