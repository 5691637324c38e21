"""`math-polynomial-approximation-ext`: f32 `math` functions as `arith` code.

Rewrites `math.exp`, `math.log`, `math.log2`, `math.log1p`, `math.expm1`,
`math.tanh` and `math.erf` on scalar f32 into range reduction and
polynomials built from `arith` ops, `math.fma`, `math.floor`, `math.absf`
and `math.copysign` (all of them LLVM intrinsics or plain instructions),
as upstream MLIR's `math-polynomial-approximation` does. A loop that calls
libm once per element cannot be vectorised by LLVM; a loop of these ops can.

Accuracy, in ulps of f32 against the correctly rounded result (float64
references rounded to f32; measured by
tests/unit/test_math_polynomial_approximation.py over every 4096th f32 bit
pattern and dense sweeps of each function's interesting range, denormals
included; the test asserts these bounds):

| op | max ulp error | |
|---|---|---|
| `exp` | 1 | subnormal results rounded once, not flushed to 0 |
| `log`, `log2` | 1 | subnormal inputs scaled first |
| `log1p` | 2 | Kahan's `x * log(u) / (u - 1)`, `u = 1 + x` |
| `expm1` | 2 | Kahan's `(u - 1) * x / log(u)`, `u = exp(x)` |
| `tanh` | 1 | odd polynomial below 0.625, `1 - 2 / (exp(2|x|) + 1)` above |
| `erf` | 4 | upstream's three rational pieces, 1 from 3.75 on |

Special values are IEEE's: NaN propagates; `exp` gives +inf from about
88.72 and 0 below about -103.97, `exp(-inf) = 0`; `log(0) = -inf`, `log`
of a negative number is NaN, `log(+inf) = +inf`; `tanh` and `erf` are ±1
from where the rounded result is, signed zeros are kept. Under
`lower-to-llvm{fast-math=reassoc}` LLVM may reassociate the expansions
(measured: `log`, `log1p` 2 ulps, `expm1` 3); under `fast-math=fast`
infinities are undefined, an overflowing `exp` included.

Only scalar f32 ops are rewritten (our pipeline has no vectors: LLVM
vectorises the loops); other types are left as they are. Constants are
upstream's (Cephes' for `exp` and `log`, Boost's minimax fit for `erf`);
the `tanh` polynomial is our own minimax fit on [0, 0.625]. The
`fastmath` flags of the rewritten op are not carried over.
"""

from __future__ import annotations

import struct
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from xdsl.context import Context
from xdsl.dialects import arith, math
from xdsl.dialects.builtin import (
    Float32Type,
    FloatAttr,
    IntegerAttr,
    ModuleOp,
    f32,
    i32,
)
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)

INF = float("inf")
NAN = float("nan")
LN2_HIGH = 0.693359375
"""ln 2 rounded to 9 bits: `k * LN2_HIGH` is exact for every exponent `k`."""
LN2_LOW = -2.12194440e-4
"""ln 2 - LN2_HIGH."""
LOG2E = 1.44269504088896341
SQRT_HALF = 0.707106781186547524
MIN_NORMAL = 2.0**-126

EXP_LOWEST = -104.0
"""Below about -103.97, exp rounds to 0: clamping here keeps the exponent
in range without changing the result."""
EXP_HIGHEST = 89.0
"""Above about 88.72, exp overflows to +inf: clamping here keeps the
exponent in range without changing the result."""
EXP_POLYNOMIAL = (
    5.0000001201e-1,
    1.6666665459e-1,
    4.1665795894e-2,
    8.3334519073e-3,
    1.3981999507e-3,
    1.9875691500e-4,
)
"""Cephes' `(exp(r) - 1 - r) / r**2` on [-ln2/2, ln2/2], lowest degree first."""

LOG_POLYNOMIAL = (
    3.3333331174e-1,
    -2.4999993993e-1,
    2.0000714765e-1,
    -1.6668057665e-1,
    1.4249322787e-1,
    -1.2420140846e-1,
    1.1676998740e-1,
    -1.1514610310e-1,
    7.0376836292e-2,
)
"""Cephes' `(log(1 + f) - f + f**2 / 2) / f**3` on [sqrt(1/2) - 1,
sqrt(2) - 1], lowest degree first."""

TANH_POLYNOMIAL_BOUND = 0.625
"""Below it tanh is an odd polynomial; from it on, `1 - 2 / (exp(2x) + 1)`
(whose cancellation costs less than an ulp there)."""
TANH_POLYNOMIAL = (
    -0.3333333134651184,
    0.1333320587873459,
    -0.053946759551763535,
    0.02170068584382534,
    -0.008177351206541061,
    0.00214291550219059,
)
"""Our minimax fit of `(tanh(x) - x) / x**3` as a polynomial in `x**2` on
[0, 0.625] (relative error of tanh under 0.05 ulp), lowest degree first."""

ERF_BOUNDS = (0.8, 2.0)
"""Where erf's rational pieces meet."""
ERF_SATURATION = 3.75
"""From here on, erf is 1 (the rounded erf is within 2 ulps of it)."""
ERF_OFFSETS = (0.0, 0.0, 1.0)
ERF_NUMERATORS = (
    (
        0.0,
        1.12837916222975858e00,
        -5.23018562988006470e-01,
        2.09741709609267072e-01,
        2.58146801602987875e-02,
    ),
    (
        0.0,
        1.12750687816789140e00,
        -3.64721408487825775e-01,
        1.18407396425136952e-01,
        3.70645533056476558e-02,
    ),
    (
        -3.30093071049483172e-03,
        3.51961938357697011e-03,
        -1.41373622814988039e-03,
        2.53447094961941348e-04,
        -1.71048029455037401e-05,
    ),
)
"""Numerators of erf's three pieces `offset + P(x) / Q(x)` (upstream's
Remez fit), lowest degree first."""
ERF_DENOMINATORS = (
    (
        1.0,
        -4.635138185962547255e-01,
        5.192301327279782447e-01,
        -1.318089722204810087e-01,
        7.397964654672315005e-02,
    ),
    (
        1.0,
        -3.27607011824493086e-01,
        4.48369090658821977e-01,
        -8.83462621207857930e-02,
        5.72442770283176093e-02,
    ),
    (
        1.0,
        -2.06069165953913769e00,
        1.62705939945477759e00,
        -5.83389859211130017e-01,
        8.21908939856640930e-02,
    ),
)
"""Denominators of erf's three pieces, lowest degree first."""


@dataclass
class Expansion:
    """The ops of one rewrite, in order, with their f32/i32 constants made
    once each."""

    ops: list[Operation] = field(default_factory=list[Operation])
    _constants: dict[tuple[str, float], SSAValue] = field(
        default_factory=dict[tuple[str, float], SSAValue]
    )

    def add(self, op: Operation) -> SSAValue:
        """Append `op`; its (first) result."""
        self.ops.append(op)
        return op.results[0]

    def constant(self, value: float) -> SSAValue:
        """An f32 constant (one op per value)."""
        key = ("f", value)
        # NaN is never equal to itself: one key for every NaN.
        key = ("nan", 0.0) if value != value else key
        if key not in self._constants:
            self._constants[key] = self.add(arith.ConstantOp(FloatAttr(value, f32)))
        return self._constants[key]

    def integer(self, value: int) -> SSAValue:
        """An i32 constant (one op per value)."""
        key = ("i", float(value))
        if key not in self._constants:
            self._constants[key] = self.add(
                arith.ConstantOp(IntegerAttr(value, i32, truncate_bits=True))
            )
        return self._constants[key]

    def _value(self, value: SSAValue | float) -> SSAValue:
        if isinstance(value, SSAValue):
            return value
        return self.constant(value)

    def fma(
        self, a: SSAValue | float, b: SSAValue | float, c: SSAValue | float
    ) -> SSAValue:
        return self.add(math.FmaOp(self._value(a), self._value(b), self._value(c)))

    def mul(self, a: SSAValue | float, b: SSAValue | float) -> SSAValue:
        return self.add(arith.MulfOp(self._value(a), self._value(b)))

    def plus(self, a: SSAValue | float, b: SSAValue | float) -> SSAValue:
        return self.add(arith.AddfOp(self._value(a), self._value(b)))

    def minus(self, a: SSAValue | float, b: SSAValue | float) -> SSAValue:
        return self.add(arith.SubfOp(self._value(a), self._value(b)))

    def divide(self, a: SSAValue | float, b: SSAValue | float) -> SSAValue:
        return self.add(arith.DivfOp(self._value(a), self._value(b)))

    def compare(
        self, predicate: str, a: SSAValue | float, b: SSAValue | float
    ) -> SSAValue:
        return self.add(arith.CmpfOp(self._value(a), self._value(b), predicate))

    def select(
        self, condition: SSAValue, a: SSAValue | float, b: SSAValue | float
    ) -> SSAValue:
        return self.add(arith.SelectOp(condition, self._value(a), self._value(b)))

    def polynomial(self, x: SSAValue, coefficients: Sequence[float]) -> SSAValue:
        """`sum(c[i] * x**i)` by Horner's rule with fused multiply-adds."""
        result = self.constant(coefficients[-1])
        for coefficient in reversed(coefficients[:-1]):
            result = self.fma(result, x, coefficient)
        return result

    def is_nan(self, x: SSAValue) -> SSAValue:
        return self.compare("uno", x, x)


def _clamp(e: Expansion, x: SSAValue, low: float, high: float) -> SSAValue:
    """`x` clamped to [low, high]; NaN becomes `low` (the caller restores
    it), so that no NaN reaches `fptosi`, whose result LLVM leaves undefined."""
    above_low = e.select(e.compare("ogt", x, low), x, low)
    return e.select(e.compare("olt", above_low, high), above_low, high)


def _clamp_keeping_nan(e: Expansion, x: SSAValue, low: float, high: float) -> SSAValue:
    """`x` clamped to [low, high], NaN kept (each comparison false for it)."""
    above_low = e.select(e.compare("olt", x, low), low, x)
    return e.select(e.compare("ogt", above_low, high), high, above_low)


def _f32_bits(value: float) -> int:
    """The bits of `value` as an f32, as a signed 32-bit integer."""
    return struct.unpack("<i", struct.pack("<f", value))[0]


def _power_of_two(e: Expansion, exponent: SSAValue) -> SSAValue:
    """2**exponent (an i32 in [-126, 127]) built from its bits."""
    biased = e.add(arith.AddiOp(exponent, e.integer(127)))
    bits = e.add(arith.ShLIOp(biased, e.integer(23)))
    return e.add(arith.BitcastOp(bits, f32))


ROUNDING_SHIFTER = 12582912.0
"""1.5 * 2**23: `y + ROUNDING_SHIFTER` (|y| < 2**22) is an f32 whose unit
in the last place is 1, so the addition rounds `y` to the nearest integer
`k`, and the sum's low mantissa bits are `k` in two's complement."""


def expand_exp(e: Expansion, x: SSAValue) -> SSAValue:
    """exp(x) = 2**k * exp(r), k = round(x / ln 2), |r| <= ln2 / 2; the
    scaling by 2**k in two halves so that a subnormal result is rounded once
    and an overflow gives +inf.

    k is rounded by adding `ROUNDING_SHIFTER` in the fused multiply-add
    that scales x (no `floor`), and read back as an integer from that sum's
    bits (no `fptosi`). A NaN flows through every step (the clamp keeps it,
    and NaN times any power of two is NaN), so it needs no select of its
    own: 15 vector floating-point operations per element instead of 19
    (an elementwise exp of 256x1024 f32 on AVX-512: 0.081 -> 0.074 ms)."""
    clamped = _clamp_keeping_nan(e, x, EXP_LOWEST, EXP_HIGHEST)
    shifted = e.fma(clamped, LOG2E, ROUNDING_SHIFTER)
    k = e.minus(shifted, ROUNDING_SHIFTER)
    r = e.fma(k, -LN2_HIGH, clamped)
    r = e.fma(k, -LN2_LOW, r)
    tail = e.fma(e.polynomial(r, EXP_POLYNOMIAL), e.mul(r, r), r)
    exp_r = e.plus(tail, 1.0)
    # k is in [-150, 129]: each half is a normal power of two.
    k_int = e.add(
        arith.SubiOp(
            e.add(arith.BitcastOp(shifted, i32)),
            e.integer(_f32_bits(ROUNDING_SHIFTER)),
        )
    )
    first = e.add(arith.ShRSIOp(k_int, e.integer(1)))
    second = e.add(arith.SubiOp(k_int, first))
    return e.mul(e.mul(exp_r, _power_of_two(e, first)), _power_of_two(e, second))


def _log_reduced(e: Expansion, x: SSAValue) -> tuple[SSAValue, SSAValue, SSAValue]:
    """(k, f, w) with x = 2**k * (1 + f), f in [sqrt(1/2) - 1, sqrt(2) - 1)
    and log(1 + f) = f + w (k a float); meaningful for finite x > 0."""
    subnormal = e.compare("olt", x, MIN_NORMAL)
    normalized = e.select(subnormal, e.mul(x, 2.0**23), x)
    bits = e.add(arith.BitcastOp(normalized, i32))
    biased = e.add(arith.ShRUIOp(bits, e.integer(23)))
    exponent = e.add(arith.SIToFPOp(biased, f32))
    # The significand with the exponent of 0.5: in [0.5, 1).
    significand_bits = e.add(arith.AndIOp(bits, e.integer(0x807FFFFF)))
    half_bits = e.add(arith.OrIOp(significand_bits, e.integer(0x3F000000)))
    m = e.add(arith.BitcastOp(half_bits, f32))
    below = e.compare("olt", m, SQRT_HALF)
    # m < sqrt(1/2): use 2m (exactly m + m) and one less in the exponent.
    k = e.minus(exponent, e.select(subnormal, 126.0 + 23.0, 126.0))
    k = e.minus(k, e.select(below, 1.0, 0.0))
    f = e.plus(e.minus(m, 1.0), e.select(below, m, 0.0))
    f2 = e.mul(f, f)
    cubic = e.mul(e.mul(f2, f), e.polynomial(f, LOG_POLYNOMIAL))
    w = e.fma(f2, -0.5, cubic)
    return k, f, w


def _log_special_values(e: Expansion, x: SSAValue, value: SSAValue) -> SSAValue:
    """log(+inf) = +inf, log(x < 0) = NaN = log(NaN), log(±0) = -inf."""
    value = e.select(e.compare("oeq", x, INF), INF, value)
    value = e.select(e.compare("ult", x, 0.0), NAN, value)
    return e.select(e.compare("oeq", x, 0.0), -INF, value)


def expand_log(e: Expansion, x: SSAValue) -> SSAValue:
    """log(x) = k ln 2 + log(1 + f), ln 2 in two parts (the first exact
    times k)."""
    k, f, w = _log_reduced(e, x)
    value = e.plus(f, e.fma(k, LN2_LOW, w))
    value = e.fma(k, LN2_HIGH, value)
    return _log_special_values(e, x, value)


def expand_log2(e: Expansion, x: SSAValue) -> SSAValue:
    """log2(x) = k + (f + w) log2(e), with log2(e) = 1 + (log2(e) - 1)
    so that the products round less."""
    k, f, w = _log_reduced(e, x)
    fraction = LOG2E - 1.0
    value = e.fma(w, fraction, e.fma(f, fraction, w))
    value = e.plus(e.plus(value, f), k)
    return _log_special_values(e, x, value)


def expand_log1p(e: Expansion, x: SSAValue) -> SSAValue:
    """Kahan's log1p: u = 1 + x; x when u is 1 or +inf, else
    x * log(u) / (u - 1), where the quotient cancels u's rounding."""
    u = e.plus(x, 1.0)
    quotient = e.divide(expand_log(e, u), e.minus(u, 1.0))
    value = e.mul(x, quotient)
    value = e.select(e.compare("oeq", u, INF), x, value)
    return e.select(e.compare("oeq", u, 1.0), x, value)


def expand_expm1(e: Expansion, x: SSAValue) -> SSAValue:
    """Kahan's expm1: u = exp(x); x when u is 1 (or x NaN), -1 when
    u - 1 is, u when +inf, else (u - 1) * x / log(u)."""
    u = expand_exp(e, x)
    u_minus_one = e.minus(u, 1.0)
    value = e.mul(u_minus_one, e.divide(x, expand_log(e, u)))
    value = e.select(e.compare("oeq", u, INF), u, value)
    value = e.select(e.compare("oeq", u_minus_one, -1.0), -1.0, value)
    return e.select(e.compare("ueq", u, 1.0), x, value)


def expand_tanh(e: Expansion, x: SSAValue) -> SSAValue:
    """tanh(|x|) by an odd polynomial below TANH_POLYNOMIAL_BOUND, else as
    1 - 2 / (exp(2|x|) + 1) (exactly 1 once exp overflows), with x's sign."""
    magnitude = e.add(math.AbsFOp(x))
    below = e.compare("olt", magnitude, TANH_POLYNOMIAL_BOUND)
    # The polynomial's input is kept finite (its result is unused elsewhere):
    # no infinity or NaN reaches a fused multiply-add.
    near_zero = e.select(below, magnitude, TANH_POLYNOMIAL_BOUND)
    square = e.mul(near_zero, near_zero)
    small = e.fma(
        e.mul(near_zero, square), e.polynomial(square, TANH_POLYNOMIAL), near_zero
    )
    exp_twice = expand_exp(e, e.plus(magnitude, magnitude))
    large = e.minus(1.0, e.divide(2.0, e.plus(exp_twice, 1.0)))
    value = e.select(below, small, large)
    return e.add(math.CopySignOp(value, x))


def expand_erf(e: Expansion, x: SSAValue) -> SSAValue:
    """erf(|x|) = offset + P(|x|) / Q(|x|) with the piece's coefficients
    chosen by selects (one evaluation, no branch), 1 from ERF_SATURATION on,
    with x's sign."""
    absolute = e.add(math.AbsFOp(x))
    saturated = e.compare("oge", absolute, ERF_SATURATION)
    # Kept finite: no infinity or NaN reaches a fused multiply-add.
    below = e.compare("olt", absolute, ERF_SATURATION)
    magnitude = e.select(below, absolute, ERF_SATURATION)
    in_first = e.compare("olt", magnitude, ERF_BOUNDS[0])
    in_second = e.compare("olt", magnitude, ERF_BOUNDS[1])

    def piecewise(values: Sequence[float]) -> SSAValue:
        later = e.select(in_second, values[1], values[2])
        return e.select(in_first, values[0], later)

    numerator_coefficients = [piecewise(c) for c in zip(*ERF_NUMERATORS, strict=True)]
    denominator_coefficients = [
        piecewise(c) for c in zip(*ERF_DENOMINATORS, strict=True)
    ]

    def horner(coefficients: list[SSAValue]) -> SSAValue:
        result = coefficients[-1]
        for coefficient in reversed(coefficients[:-1]):
            result = e.fma(result, magnitude, coefficient)
        return result

    ratio = e.divide(horner(numerator_coefficients), horner(denominator_coefficients))
    value = e.plus(piecewise(ERF_OFFSETS), ratio)
    value = e.select(saturated, 1.0, value)
    value = e.select(e.is_nan(x), x, value)
    return e.add(math.CopySignOp(value, x))


EXPANSIONS: dict[type[Operation], Callable[[Expansion, SSAValue], SSAValue]] = {
    math.ExpOp: expand_exp,
    math.LogOp: expand_log,
    math.Log2Op: expand_log2,
    math.Log1pOp: expand_log1p,
    math.ExpM1Op: expand_expm1,
    math.TanhOp: expand_tanh,
    math.ErfOp: expand_erf,
}
"""The ops rewritten, and how."""


class ApproximateMath(RewritePattern):
    """A scalar f32 op of EXPANSIONS becomes its expansion."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self,
        op: math.ExpOp
        | math.LogOp
        | math.Log2Op
        | math.Log1pOp
        | math.ExpM1Op
        | math.TanhOp
        | math.ErfOp,
        rewriter: PatternRewriter,
    ) -> None:
        if not isinstance(op.result.type, Float32Type):
            return
        expand = EXPANSIONS[type(op)]
        expansion = Expansion()
        result = expand(expansion, op.operands[0])
        rewriter.replace(op, expansion.ops, [result])


@dataclass(frozen=True)
class MathPolynomialApproximationPass(ModulePass):
    """Rewrite f32 `exp`, `log`, `log2`, `log1p`, `expm1`, `tanh`, `erf`
    into vectorisable `arith` polynomials (accuracy in the module
    docstring)."""

    name = "math-polynomial-approximation-ext"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(ApproximateMath(), apply_recursively=False).rewrite_module(
            op
        )
