"""The meaning of arith and math ops on numpy arrays.

Every function takes and returns arrays of the compute dtype of its MLIR
types (`scalars.Scalar`), so numpy's own arithmetic gives MLIR's: integers
wrap around, floats round to their own precision after each op. The tables
(`FLOAT_BINARY`, `INT_BINARY`, `CASTS`, ...) name the ops the translation of
bodies (`body`) and the named elementwise ops (`elementwise`) cover.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction

import numpy as np

from linalg_ext.semantics.structured.scalars import NotVectorisable, Scalar


def _as_signed(values: np.ndarray, scalar: Scalar) -> np.ndarray:
    """Integer values as signed numbers: an i1 true is -1."""
    if scalar.kind == "bool":
        return -(values.astype(np.int8))
    return values


def _as_unsigned(values: np.ndarray, scalar: Scalar) -> np.ndarray:
    if scalar.kind == "bool":
        return values.astype(np.uint8)
    return values.astype(scalar.unsigned)


def _wrap_to(values: np.ndarray, target: Scalar) -> np.ndarray:
    """Integers of any width converted to `target` by truncation."""
    if target.kind == "bool":
        return (values & 1).astype(np.bool_)
    return values.astype(target.dtype)


def _float_to_int(values: np.ndarray, target: Scalar, signed: bool) -> np.ndarray:
    # Out-of-range values are poison in MLIR; numpy's result is as good as any.
    if target.kind == "bool":
        return (values.astype(np.int64) & 1).astype(np.bool_)
    if signed:
        return values.astype(target.dtype)
    return values.astype(target.unsigned).astype(target.dtype)


def cast_signed(values: np.ndarray, source: Scalar, target: Scalar) -> np.ndarray:
    """Linalg's `cast_signed` type function, used by the named ops."""
    if source == target:
        return values
    if source.kind == "float":
        if target.kind == "float":
            return values.astype(target.dtype)
        return _float_to_int(values, target, signed=True)
    if target.kind == "float":
        return _as_signed(values, source).astype(target.dtype)
    return _wrap_to(_as_signed(values, source), target)


def maximumf(lhs: np.ndarray, rhs: np.ndarray) -> np.ndarray:
    result = np.maximum(lhs, rhs)
    # arith.maximumf orders -0.0 below +0.0; np.maximum returns either zero.
    zero = result == 0
    if zero.any():
        result = np.where(zero & (lhs == 0) & (rhs == 0), lhs + rhs, result)
    return result


def minimumf(lhs: np.ndarray, rhs: np.ndarray) -> np.ndarray:
    result = np.minimum(lhs, rhs)
    zero = result == 0
    if zero.any():
        result = np.where(zero & (lhs == 0) & (rhs == 0), -((-lhs) + (-rhs)), result)
    return result


def _round_half_away(values: np.ndarray) -> np.ndarray:
    """math.round: halfway cases away from zero (np.round goes to even)."""
    truncated = np.trunc(values)
    return np.where(
        np.abs(values - truncated) >= 0.5, truncated + np.sign(values), truncated
    )


def _exact_fma(lhs: float, rhs: float, addend: float) -> float:
    return float(Fraction(lhs) * Fraction(rhs) + Fraction(addend))


def fma(lhs: np.ndarray, rhs: np.ndarray, addend: np.ndarray) -> np.ndarray:
    # f16 and f32 products are exact in f64, so this rounds once but for the
    # rare double rounding of the sum. f64 has no wider numpy type: compute
    # exactly with rationals (slow, but fma in an f64 body is rare).
    if lhs.dtype == np.float64:
        exact = np.frompyfunc(_exact_fma, 3, 1)(lhs, rhs, addend)
        return np.asarray(exact, dtype=np.float64)
    return (lhs.astype(np.float64) * rhs + addend).astype(lhs.dtype)


def _erf(values: np.ndarray) -> np.ndarray:
    # A ufunc of frompyfunc gives a Python object, not an array, for a
    # rank-0 input: asarray makes it one.
    return np.asarray(np.frompyfunc(math.erf, 1, 1)(values)).astype(values.dtype)


def fpowi(base: np.ndarray, exponent: np.ndarray) -> np.ndarray:
    """`math.fpowi`: `base` to the integer power `exponent`, by squaring
    and multiplying over the bits of |exponent| from the lowest, each
    product rounded; the reciprocal for a negative exponent. This is the
    order of LLVM's `llvm.powi` (compiler-rt's `__powisf2`, and how LLVM
    expands a constant exponent), which upstream lowers `fpowi` to, and of
    `convert-math-to-llvm`'s lowering; `x ** 3` is `x * (x * x)`, not
    libm's `pow`."""
    exponent = np.asarray(exponent).astype(np.int64)
    negative = exponent < 0
    # |exponent| without overflow for the smallest int64.
    magnitude = np.where(negative, ~exponent, exponent).astype(np.uint64)
    magnitude += negative.astype(np.uint64)
    result = np.ones_like(base)
    square = base
    with np.errstate(all="ignore"):
        while np.any(magnitude):
            odd = (magnitude & np.uint64(1)).astype(np.bool_)
            result = np.where(odd, result * square, result)
            magnitude = magnitude >> np.uint64(1)
            square = square * square
        reciprocal = np.asarray(1, dtype=base.dtype) / result
    return np.where(negative, reciprocal, result).astype(base.dtype)


FLOAT_BINARY: dict[str, Callable[[np.ndarray, np.ndarray], np.ndarray]] = {
    "arith.addf": np.add,
    "arith.subf": np.subtract,
    "arith.mulf": np.multiply,
    "arith.divf": np.divide,
    "arith.remf": np.fmod,
    "arith.maximumf": maximumf,
    "arith.minimumf": minimumf,
    "arith.maxnumf": np.fmax,
    "arith.minnumf": np.fmin,
    "math.powf": np.power,
    "math.atan2": np.arctan2,
    "math.copysign": np.copysign,
}

FLOAT_UNARY: dict[str, Callable[[np.ndarray], np.ndarray]] = {
    "arith.negf": np.negative,
    "math.absf": np.abs,
    "math.ceil": np.ceil,
    "math.floor": np.floor,
    "math.trunc": np.trunc,
    "math.round": _round_half_away,
    "math.roundeven": np.rint,
    "math.exp": np.exp,
    "math.exp2": np.exp2,
    "math.expm1": np.expm1,
    "math.log": np.log,
    "math.log2": np.log2,
    "math.log10": np.log10,
    "math.log1p": np.log1p,
    "math.sqrt": np.sqrt,
    "math.rsqrt": lambda values: 1 / np.sqrt(values),
    "math.cbrt": np.cbrt,
    "math.sin": np.sin,
    "math.cos": np.cos,
    "math.tan": np.tan,
    "math.asin": np.arcsin,
    "math.acos": np.arccos,
    "math.atan": np.arctan,
    "math.sinh": np.sinh,
    "math.cosh": np.cosh,
    "math.tanh": np.tanh,
    "math.asinh": np.arcsinh,
    "math.acosh": np.arccosh,
    "math.atanh": np.arctanh,
    "math.erf": _erf,
}

FLOAT_TESTS: dict[str, Callable[[np.ndarray], np.ndarray]] = {
    "math.isnan": np.isnan,
    "math.isinf": np.isinf,
    "math.isfinite": np.isfinite,
}


def _divsi(lhs: np.ndarray, rhs: np.ndarray, scalar: Scalar) -> np.ndarray:
    quotient = np.floor_divide(lhs, rhs)
    # MLIR rounds toward zero: inexact quotients of opposite signs go up by one.
    return quotient + ((quotient * rhs != lhs) & ((lhs < 0) != (rhs < 0)))


def _ceildivsi(lhs: np.ndarray, rhs: np.ndarray, scalar: Scalar) -> np.ndarray:
    quotient = np.floor_divide(lhs, rhs)
    return quotient + (quotient * rhs != lhs)


def _unsigned_op(
    operation: Callable[[np.ndarray, np.ndarray], np.ndarray],
) -> Callable[[np.ndarray, np.ndarray, Scalar], np.ndarray]:
    def run(lhs: np.ndarray, rhs: np.ndarray, scalar: Scalar) -> np.ndarray:
        result = operation(_as_unsigned(lhs, scalar), _as_unsigned(rhs, scalar))
        return result.astype(scalar.dtype)

    return run


def _ceildivui(lhs: np.ndarray, rhs: np.ndarray) -> np.ndarray:
    quotient = lhs // rhs
    return quotient + (quotient * rhs != lhs)


def _signed_op(
    operation: Callable[[np.ndarray, np.ndarray], np.ndarray],
) -> Callable[[np.ndarray, np.ndarray, Scalar], np.ndarray]:
    return lambda lhs, rhs, scalar: operation(lhs, rhs)


def _modular_op(
    operation: Callable[[np.ndarray, np.ndarray], np.ndarray],
    on_bool: Callable[[np.ndarray, np.ndarray], np.ndarray],
) -> Callable[[np.ndarray, np.ndarray, Scalar], np.ndarray]:
    """Addition-like ops; on i1 (modulo 2) they are logical ops."""

    def run(lhs: np.ndarray, rhs: np.ndarray, scalar: Scalar) -> np.ndarray:
        if scalar.kind == "bool":
            return on_bool(lhs, rhs)
        return operation(lhs, rhs)

    return run


# name -> (function, accepts i1, divides)
INT_BINARY: dict[
    str, tuple[Callable[[np.ndarray, np.ndarray, Scalar], np.ndarray], bool, bool]
] = {
    "arith.addi": (_modular_op(np.add, np.logical_xor), True, False),
    "arith.subi": (_modular_op(np.subtract, np.logical_xor), True, False),
    "arith.muli": (_modular_op(np.multiply, np.logical_and), True, False),
    "arith.andi": (_signed_op(np.bitwise_and), True, False),
    "arith.ori": (_signed_op(np.bitwise_or), True, False),
    "arith.xori": (_signed_op(np.bitwise_xor), True, False),
    "arith.divsi": (_divsi, False, True),
    "arith.remsi": (_signed_op(np.fmod), False, True),
    "arith.floordivsi": (_signed_op(np.floor_divide), False, True),
    "arith.ceildivsi": (_ceildivsi, False, True),
    "arith.divui": (_unsigned_op(np.floor_divide), False, True),
    "arith.remui": (_unsigned_op(np.remainder), False, True),
    "arith.ceildivui": (_unsigned_op(_ceildivui), False, True),
    "arith.maxsi": (_signed_op(np.maximum), False, False),
    "arith.minsi": (_signed_op(np.minimum), False, False),
    "arith.maxui": (_unsigned_op(np.maximum), False, False),
    "arith.minui": (_unsigned_op(np.minimum), False, False),
    "arith.shli": (_signed_op(np.left_shift), False, False),
    "arith.shrsi": (_signed_op(np.right_shift), False, False),
    "arith.shrui": (_unsigned_op(np.right_shift), False, False),
}

CMPI: dict[int, tuple[Callable[[np.ndarray, np.ndarray], np.ndarray], bool]] = {
    # predicate -> (comparison, compares as unsigned)
    0: (np.equal, False),
    1: (np.not_equal, False),
    2: (np.less, False),
    3: (np.less_equal, False),
    4: (np.greater, False),
    5: (np.greater_equal, False),
    6: (np.less, True),
    7: (np.less_equal, True),
    8: (np.greater, True),
    9: (np.greater_equal, True),
}


def cmpi(predicate: int, lhs: np.ndarray, rhs: np.ndarray, scalar: Scalar):
    compare, unsigned = CMPI[predicate]
    if unsigned:
        return compare(_as_unsigned(lhs, scalar), _as_unsigned(rhs, scalar))
    return compare(_as_signed(lhs, scalar), _as_signed(rhs, scalar))


def cmpf(predicate: int, lhs: np.ndarray, rhs: np.ndarray) -> np.ndarray:
    # numpy's comparisons are the ordered ones (false on NaN) except !=, which
    # is the unordered one; each unordered predicate negates an ordered one.
    match predicate:
        case 0 | 15:
            return np.full(np.broadcast_shapes(lhs.shape, rhs.shape), predicate == 15)
        case 1:
            return lhs == rhs
        case 2:
            return lhs > rhs
        case 3:
            return lhs >= rhs
        case 4:
            return lhs < rhs
        case 5:
            return lhs <= rhs
        case 6:
            return (lhs < rhs) | (lhs > rhs)
        case 7:
            return ~(np.isnan(lhs) | np.isnan(rhs))
        case 8:
            return ~((lhs < rhs) | (lhs > rhs))
        case 9:
            return ~(lhs <= rhs)
        case 10:
            return ~(lhs < rhs)
        case 11:
            return ~(lhs >= rhs)
        case 12:
            return ~(lhs > rhs)
        case 13:
            return lhs != rhs
        case 14:
            return np.isnan(lhs) | np.isnan(rhs)
    raise NotVectorisable(f"arith.cmpf predicate {predicate}")


def convert(name: str, values: np.ndarray, source: Scalar, target: Scalar):
    """The arith cast ops."""
    match name:
        case "arith.extf" | "arith.truncf":
            return values.astype(target.dtype)
        case "arith.sitofp":
            return _as_signed(values, source).astype(target.dtype)
        case "arith.uitofp":
            return _as_unsigned(values, source).astype(target.dtype)
        case "arith.fptosi":
            return _float_to_int(values, target, signed=True)
        case "arith.fptoui":
            return _float_to_int(values, target, signed=False)
        case "arith.extsi" | "arith.index_cast" | "arith.trunci":
            return _wrap_to(_as_signed(values, source), target)
        case "arith.extui" | "arith.index_castui":
            return _wrap_to(_as_unsigned(values, source), target)
        case "arith.bitcast":
            return values.view(target.dtype)
    raise NotVectorisable(name)


CASTS = {
    "arith.extf": ("float", "float"),
    "arith.truncf": ("float", "float"),
    "arith.sitofp": ("integer", "float"),
    "arith.uitofp": ("integer", "float"),
    "arith.fptosi": ("float", "integer"),
    "arith.fptoui": ("float", "integer"),
    "arith.extsi": ("integer", "integer"),
    "arith.extui": ("integer", "integer"),
    "arith.trunci": ("integer", "integer"),
    "arith.index_cast": ("integer", "integer"),
    "arith.index_castui": ("integer", "integer"),
    "arith.bitcast": ("number", "number"),
}


def in_category(scalar: Scalar, category: str) -> bool:
    match category:
        case "float":
            return scalar.kind == "float"
        case "integer":
            return scalar.kind in ("int", "bool")
    # bitcast: same width, no i1 (numpy cannot view bools as bits)
    return scalar.kind != "bool"
