"""Folding an output over its reduction loops.

A `Combiner` is an associative, commutative op an accumulator may be folded
with (`acc = addf(acc, f(...))`, ...): `fold_along` reduces a term over the
reduction axes with it, and `contract_product` sums a product with einsum
without forming it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from linalg_ext.semantics.structured.arith_arrays import maximumf, minimumf
from linalg_ext.semantics.structured.iteration_space import Box
from linalg_ext.semantics.structured.scalars import Scalar


def _reduce_extremum(
    function: np.ufunc, keep_positive_zero: bool
) -> Callable[[np.ndarray, tuple[int, ...]], np.ndarray]:
    """maximumf/minimumf over axes, with -0.0 ordered below +0.0."""

    def reduce(values: np.ndarray, axes: tuple[int, ...]) -> np.ndarray:
        result = function.reduce(values, axis=axes, keepdims=True)
        zero = result == 0
        if zero.any():
            signs = np.signbit(values)
            wanted = ~signs if keep_positive_zero else signs
            found = np.any((values == 0) & wanted, axis=axes, keepdims=True)
            other = -0.0 if keep_positive_zero else 0.0
            first = 0.0 if keep_positive_zero else -0.0
            replacement = np.where(found, first, other).astype(result.dtype)
            result = np.where(zero, replacement, result)
        return result

    return reduce


def _reduce_ufunc(
    function: np.ufunc,
) -> Callable[[np.ndarray, tuple[int, ...]], np.ndarray]:
    # dtype= keeps small integers from being summed as int64: they wrap.
    return lambda values, axes: function.reduce(
        values, axis=axes, keepdims=True, dtype=values.dtype
    )


@dataclass(frozen=True)
class Combiner:
    """An associative, commutative op an accumulator can be folded with."""

    combine: Callable[[np.ndarray, np.ndarray], np.ndarray]
    reduce: Callable[[np.ndarray, tuple[int, ...]], np.ndarray]
    idempotent: bool
    """Combining a value with itself gives it back: broadcasts need no expanding."""
    kinds: tuple[str, ...]
    unsigned: bool = False


COMBINERS: dict[str, Combiner] = {
    "arith.addf": Combiner(np.add, _reduce_ufunc(np.add), False, ("float",)),
    "arith.mulf": Combiner(np.multiply, _reduce_ufunc(np.multiply), False, ("float",)),
    "arith.maximumf": Combiner(
        maximumf, _reduce_extremum(np.maximum, True), True, ("float",)
    ),
    "arith.minimumf": Combiner(
        minimumf, _reduce_extremum(np.minimum, False), True, ("float",)
    ),
    "arith.maxnumf": Combiner(np.fmax, _reduce_ufunc(np.fmax), True, ("float",)),
    "arith.minnumf": Combiner(np.fmin, _reduce_ufunc(np.fmin), True, ("float",)),
    "arith.addi": Combiner(np.add, _reduce_ufunc(np.add), False, ("int",)),
    "arith.muli": Combiner(np.multiply, _reduce_ufunc(np.multiply), False, ("int",)),
    "arith.andi": Combiner(
        np.bitwise_and, _reduce_ufunc(np.bitwise_and), True, ("int", "bool")
    ),
    "arith.ori": Combiner(
        np.bitwise_or, _reduce_ufunc(np.bitwise_or), True, ("int", "bool")
    ),
    "arith.xori": Combiner(
        np.bitwise_xor, _reduce_ufunc(np.bitwise_xor), False, ("int", "bool")
    ),
    "arith.maxsi": Combiner(np.maximum, _reduce_ufunc(np.maximum), True, ("int",)),
    "arith.minsi": Combiner(np.minimum, _reduce_ufunc(np.minimum), True, ("int",)),
    "arith.maxui": Combiner(
        np.maximum, _reduce_ufunc(np.maximum), True, ("int",), unsigned=True
    ),
    "arith.minui": Combiner(
        np.minimum, _reduce_ufunc(np.minimum), True, ("int",), unsigned=True
    ),
}


def fold_along(
    combiner: Combiner,
    scalar: Scalar,
    initial: np.ndarray,
    values: np.ndarray,
    axes: tuple[int, ...],
    box: Box,
) -> np.ndarray:
    """`initial` combined with every element of `values` along `axes`."""
    if combiner.unsigned:
        initial, values = (
            initial.astype(scalar.unsigned),
            values.astype(scalar.unsigned),
        )
    if combiner.idempotent:
        # A value repeated along a loop it does not depend on folds to itself.
        axes = tuple(axis for axis in axes if values.shape[axis] != 1)
    else:
        shape = list(values.shape)
        for axis in axes:
            shape[axis] = box[axis][1] - box[axis][0]
        values = np.broadcast_to(values, shape)
    if axes:
        values = combiner.reduce(values, axes)
    return combiner.combine(initial, values).astype(scalar.dtype)


EINSUM_LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"


def contract_product(
    lhs: np.ndarray, rhs: np.ndarray, axes: tuple[int, ...], box: Box
) -> np.ndarray | None:
    """The sum over `axes` of `lhs * rhs` without forming the product, or None
    when a summed loop is in neither factor (the sum would be a multiple)."""
    ndim = len(box)
    lhs_axes = [a for a in range(ndim) if lhs.shape[a] != 1]
    rhs_axes = [a for a in range(ndim) if rhs.shape[a] != 1]
    present = set(lhs_axes) | set(rhs_axes)
    if any(box[a][1] - box[a][0] != 1 and a not in present for a in axes):
        return None
    kept = [a for a in range(ndim) if a in present and a not in axes]

    def letters(axes_: list[int]) -> str:
        return "".join(EINSUM_LETTERS[a] for a in axes_)

    result = np.einsum(
        f"{letters(lhs_axes)},{letters(rhs_axes)}->{letters(kept)}",
        lhs.reshape([lhs.shape[a] for a in lhs_axes]),
        rhs.reshape([rhs.shape[a] for a in rhs_axes]),
        optimize=True,
    )
    shape = [max(lhs.shape[a], rhs.shape[a]) if a in kept else 1 for a in range(ndim)]
    return np.asarray(result).reshape(shape)
