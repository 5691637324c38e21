"""arith and math ops on scalars (linalg_ext.semantics.scalar_ops), against
numpy or Python computing the same thing in the same precision."""

from __future__ import annotations

import math

import numpy as np
import pytest
from xdsl.utils.exceptions import InterpretationError

from helpers import parse_module
from linalg_ext.running import run_function


def run_scalar(body: str, arg_types: list[str], result_type: str, *args):
    params = ", ".join(f"%a{i}: {t}" for i, t in enumerate(arg_types))
    source = f"""
    func.func @f({params}) -> {result_type} {{
      %r = {body}
      return %r : {result_type}
    }}
    """
    (result,) = run_function(parse_module(source), "f", list(args)).results
    return result


F32 = np.float32

FLOAT_UNARY = [
    ("arith.negf", lambda x: -x),
    ("math.absf", np.abs),
    ("math.ceil", np.ceil),
    ("math.floor", np.floor),
    ("math.trunc", np.trunc),
    ("math.roundeven", np.rint),
    ("math.sqrt", np.sqrt),
    ("math.rsqrt", lambda x: F32(1) / np.sqrt(x)),
    ("math.exp", np.exp),
    ("math.exp2", np.exp2),
    ("math.expm1", np.expm1),
    ("math.log", np.log),
    ("math.log2", np.log2),
    ("math.log10", np.log10),
    ("math.log1p", np.log1p),
    ("math.sin", np.sin),
    ("math.cos", np.cos),
    ("math.tan", np.tan),
    ("math.tanh", np.tanh),
    ("math.atan", np.arctan),
    ("math.erf", lambda x: F32(math.erf(float(x)))),
    ("math.cbrt", np.cbrt),
]


@pytest.mark.parametrize(
    ("op", "reference"), FLOAT_UNARY, ids=[o for o, _ in FLOAT_UNARY]
)
def test_float_unary_in_f32(op, reference):
    for value in (F32(0.7), F32(2.5), F32(1.3e-3)):
        got = run_scalar(f"{op} %a0 : f32", ["f32"], "f32", float(value))
        # Rounded to f32 after the op, as compiled code computes it.
        assert got == float(F32(reference(value)))


FLOAT_BINARY = [
    ("arith.addf", np.add),
    ("arith.subf", np.subtract),
    ("arith.mulf", np.multiply),
    ("arith.divf", np.divide),
    ("arith.maxnumf", np.fmax),
    ("arith.minnumf", np.fmin),
    ("math.powf", np.power),
    ("math.atan2", np.arctan2),
    ("math.copysign", np.copysign),
]


@pytest.mark.parametrize(
    ("op", "reference"), FLOAT_BINARY, ids=[o for o, _ in FLOAT_BINARY]
)
def test_float_binary_in_f32(op, reference):
    a, b = F32(1.1), F32(-0.3)
    got = run_scalar(f"{op} %a0, %a1 : f32", ["f32", "f32"], "f32", float(a), float(b))
    assert got == float(reference(a, b))


def test_f32_addition_rounds_to_f32():
    # In f64, 1 + 2^-30 is exact; in f32 it rounds back to 1.
    assert (
        run_scalar("arith.addf %a0, %a1 : f32", ["f32", "f32"], "f32", 1.0, 2.0**-30)
        == 1.0
    )


def test_maxnumf_ignores_nan():
    got = run_scalar(
        "arith.maxnumf %a0, %a1 : f64", ["f64", "f64"], "f64", float("nan"), 2.0
    )
    assert got == 2.0


INTEGER_BINARY = [
    ("arith.divsi", -7, 2, -3),  # toward zero
    ("arith.remsi", -7, 2, -1),
    ("arith.ceildivsi", -7, 2, -3),
    ("arith.ceildivsi", 7, 2, 4),
    ("arith.divui", -8, 2, 124),  # 248 / 2 in i8
    ("arith.ceildivui", 7, 2, 4),
    ("arith.remui", -1, 10, 5),  # 255 % 10
    ("arith.minsi", -3, 2, -3),
    ("arith.maxsi", -3, 2, 2),
    ("arith.minui", -3, 2, 2),  # 253 > 2 unsigned
    ("arith.maxui", -3, 2, -3),
    ("arith.shrui", -128, 1, 64),
]


@pytest.mark.parametrize(("op", "a", "b", "expected"), INTEGER_BINARY)
def test_integer_binary_in_i8(op, a, b, expected):
    assert run_scalar(f"{op} %a0, %a1 : i8", ["i8", "i8"], "i8", a, b) == expected


def test_integer_division_by_zero_is_an_error():
    with pytest.raises(InterpretationError, match="'arith.divsi' divides by zero"):
        run_scalar("arith.divsi %a0, %a1 : i32", ["i32", "i32"], "i32", 1, 0)


@pytest.mark.parametrize(
    ("body", "arg", "result", "value", "expected"),
    [
        ("arith.extf %a0 : f16 to f32", "f16", "f32", 0.1, float(np.float16(0.1))),
        ("arith.truncf %a0 : f64 to f32", "f64", "f32", 0.1, float(np.float32(0.1))),
        ("arith.sitofp %a0 : i8 to f32", "i8", "f32", -3, -3.0),
        ("arith.uitofp %a0 : i8 to f32", "i8", "f32", -3, 253.0),
        ("arith.fptosi %a0 : f32 to i32", "f32", "i32", -2.75, -2),
        ("arith.fptoui %a0 : f32 to i32", "f32", "i32", 2.75, 2),
        ("arith.extsi %a0 : i8 to i32", "i8", "i32", -3, -3),
        ("arith.extui %a0 : i8 to i32", "i8", "i32", -3, 253),
        ("arith.trunci %a0 : i32 to i8", "i32", "i8", 300, 44),
        ("arith.bitcast %a0 : f32 to i32", "f32", "i32", 1.0, 0x3F800000),
        ("arith.bitcast %a0 : i32 to f32", "i32", "f32", 0x40000000, 2.0),
    ],
)
def test_casts(body, arg, result, value, expected):
    assert run_scalar(body, [arg], result, value) == expected


def test_extsi_and_sitofp_of_i1_true_are_minus_one():
    # However the interpreter holds an i1 true (1 from numpy booleans, -1 from
    # xDSL's own ops), sign extension gives -1.
    for true in (1, -1):
        assert run_scalar("arith.extsi %a0 : i1 to i32", ["i1"], "i32", true) == -1
        assert run_scalar("arith.sitofp %a0 : i1 to f32", ["i1"], "f32", true) == -1.0
        assert run_scalar("arith.extui %a0 : i1 to i32", ["i1"], "i32", true) == 1


@pytest.mark.parametrize(
    ("body", "args", "expected"),
    [
        ("math.absi %a0 : i8", [-5], 5),
        ("math.absi %a0 : i8", [-128], -128),  # wraps
        ("math.ctpop %a0 : i8", [-1], 8),
        ("math.ctlz %a0 : i8", [1], 7),
        ("math.ctlz %a0 : i8", [0], 8),
        ("math.cttz %a0 : i8", [8], 3),
        ("math.cttz %a0 : i8", [0], 8),
        ("math.ipowi %a0, %a1 : i8", [3, 5], -13),  # 243 wraps in i8
        ("math.ipowi %a0, %a1 : i8", [-1, -3], -1),
        ("math.ipowi %a0, %a1 : i8", [2, -1], 0),
    ],
)
def test_integer_math(body, args, expected):
    types = ["i8"] * len(args)
    assert run_scalar(body, types, "i8", *args) == expected


def test_fpowi():
    got = run_scalar("math.fpowi %a0, %a1 : f32, i32", ["f32", "i32"], "f32", 1.5, -2)
    assert got == float(np.float32(1.5) ** np.float32(-2))


def _powi(base: np.float32, exponent: int) -> np.float32:
    """LLVM's powi order: square and multiply from the lowest bit."""
    result, square, magnitude = None, base, abs(exponent)
    while magnitude:
        if magnitude & 1:
            result = square if result is None else result * square
        magnitude >>= 1
        square = square * square
    result = np.float32(1) if result is None else result
    return np.float32(1) / result if exponent < 0 else result


def test_fpowi_multiplies_in_powi_order_on_scalars_and_in_bodies():
    # x**3 is x * (x * x), not libm's powf: the two differ in the last bit
    # for some x, which these include.
    rng = np.random.default_rng(3)
    x = rng.uniform(-3, 3, 64).astype(np.float32)
    exponents = np.array([3, 5, -3, 0, 1, 13, -7, 2] * 8, dtype=np.int32)
    expected = np.array([_powi(a, int(n)) for a, n in zip(x, exponents, strict=True)])
    assert any(
        e != np.float32(a) ** np.float32(n)
        for a, n, e in zip(x, exponents, expected, strict=True)
    )
    for a, n, e in zip(x[:8], exponents[:8], expected[:8], strict=True):
        got = run_scalar(
            "math.fpowi %a0, %a1 : f32, i32", ["f32", "i32"], "f32", float(a), int(n)
        )
        assert np.float32(got) == e
    source = """
    func.func @f(%a: tensor<64xf32>, %n: tensor<64xi32>) -> tensor<64xf32> {
      %o = tensor.empty() : tensor<64xf32>
      %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
                           iterator_types = ["parallel"]}
          ins(%a, %n : tensor<64xf32>, tensor<64xi32>) outs(%o : tensor<64xf32>) {
      ^bb0(%x: f32, %e: i32, %w: f32):
        %p = math.fpowi %x, %e : f32, i32
        linalg.yield %p : f32
      } -> tensor<64xf32>
      return %r : tensor<64xf32>
    }
    """
    (got,) = run_function(parse_module(source), "f", [x, exponents]).results
    np.testing.assert_array_equal(got, expected)


def test_round_halves_away_from_zero_without_double_rounding():
    just_below_half = float(np.nextafter(np.float32(0.5), np.float32(0)))
    assert run_scalar("math.round %a0 : f32", ["f32"], "f32", just_below_half) == 0.0
    assert run_scalar("math.round %a0 : f32", ["f32"], "f32", -2.5) == -3.0
    assert (
        run_scalar("math.round %a0 : f32", ["f32"], "f32", 2.0**23 + 1) == 2.0**23 + 1
    )


def test_fma_rounds_once():
    # a·a = 2^40 + 2^14 + 2^-14 exactly and c = -(2^40 + 2^14): the sum is
    # 2^-14, which rounding the product first would lose.
    a = (1 + 2.0**-27) * 2.0**20
    c = -(2.0**40) * (1 + 2.0**-26)
    got = run_scalar("math.fma %a0, %a0, %a1 : f64", ["f64", "f64"], "f64", a, c)
    assert got == 2.0**-14


def test_fma_in_a_vectorised_f64_body_rounds_once():
    source = """
    func.func @f(%a: tensor<2xf64>, %c: tensor<2xf64>) -> tensor<2xf64> {
      %o = tensor.empty() : tensor<2xf64>
      %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
                           iterator_types = ["parallel"]}
          ins(%a, %c : tensor<2xf64>, tensor<2xf64>) outs(%o : tensor<2xf64>) {
      ^bb0(%x: f64, %z: f64, %w: f64):
        %f = math.fma %x, %x, %z : f64
        linalg.yield %f : f64
      } -> tensor<2xf64>
      return %r : tensor<2xf64>
    }
    """
    a = np.full(2, (1 + 2.0**-27) * 2.0**20)
    c = np.full(2, -(2.0**40) * (1 + 2.0**-26))
    (got,) = run_function(parse_module(source), "f", [a, c]).results
    np.testing.assert_array_equal(got, [2.0**-14, 2.0**-14])
