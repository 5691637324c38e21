"""1-D `vector` ops and `arith` on vectors in the interpreter
(linalg_ext.semantics.vector_ops), against numpy computing the same lanes in
the same precision."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from xdsl.dialects import func, vector
from xdsl.dialects.builtin import ModuleOp, VectorType, f32
from xdsl.utils.exceptions import InterpretationError

from helpers import interpreter_error, parse_module
from linalg_ext.checking import check_module
from linalg_ext.running import make_interpreter, run_function
from linalg_ext.semantics.arrays import shaped_array
from linalg_ext.semantics.vector_ops import fused_multiply_add

F32 = np.float32
V16 = "vector<16xf32>"


def run(source: str, *inputs):
    return run_function(parse_module(source), "f", list(inputs))


def lanes_of(*values) -> list[np.ndarray]:
    return [np.asarray(v, dtype=F32) for v in values]


# --------------------------------------------------------------------------
# Loads and stores
# --------------------------------------------------------------------------

COPY_ROW = f"""
func.func @f(%m: memref<4x16xf32>, %o: memref<4x16xf32>) {{
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c0 = arith.constant 0 : index
  %v = vector.load %m[%c1, %c0] : memref<4x16xf32>, {V16}
  vector.store %v, %o[%c2, %c0] : memref<4x16xf32>, {V16}
  return
}}
"""


def test_load_and_store_a_row():
    m = np.arange(64, dtype=F32).reshape(4, 16)
    o = np.zeros((4, 16), F32)
    (_, written) = run(COPY_ROW, m, o).arguments
    expected = np.zeros((4, 16), F32)
    expected[2] = m[1]
    np.testing.assert_array_equal(written, expected)


def test_load_and_store_through_strided_subviews():
    # Rows 0 and 2 (a row stride of 32), lanes 3..10 of each.
    source = """
    func.func @f(%m: memref<4x16xf32>) {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %s = memref.subview %m[0, 3] [2, 8] [2, 1]
          : memref<4x16xf32> to memref<2x8xf32, strided<[32, 1], offset: 3>>
      %v = vector.load %s[%c1, %c0] : memref<2x8xf32, strided<[32, 1], offset: 3>>, vector<8xf32>
      %w = arith.negf %v : vector<8xf32>
      vector.store %w, %s[%c0, %c0] : memref<2x8xf32, strided<[32, 1], offset: 3>>, vector<8xf32>
      return
    }
    """
    m = np.arange(64, dtype=F32).reshape(4, 16)
    (written,) = run(source, m.copy()).arguments
    expected = m.copy()
    expected[0, 3:11] = -m[2, 3:11]
    np.testing.assert_array_equal(written, expected)


def test_load_at_the_last_lanes_is_in_bounds():
    source = """
    func.func @f(%m: memref<3x10xf32>) -> vector<4xf32> {
      %c2 = arith.constant 2 : index
      %c6 = arith.constant 6 : index
      %v = vector.load %m[%c2, %c6] : memref<3x10xf32>, vector<4xf32>
      return %v : vector<4xf32>
    }
    """
    m = np.arange(30, dtype=F32).reshape(3, 10)
    (got,) = run(source, m).results
    np.testing.assert_array_equal(got, m[2, 6:10])


ACCESS = """
func.func @f(%m: memref<4x16xf32>, %i: index, %j: index) {{
  {body}
  return
}}
"""


@pytest.mark.parametrize(
    ("i", "j"), [(3, 14), (4, 0), (-1, 0), (0, -1), (0, 1)], ids=str
)
def test_out_of_bounds_load_is_refused(i, j):
    body = f"%v = vector.load %m[%i, %j] : memref<4x16xf32>, {V16}"
    module = parse_module(ACCESS.format(body=body))
    message = interpreter_error(module, "f", [np.zeros((4, 16), F32), i, j])
    assert message == (
        f"vector.load: vector<16xf32> at index [{i}, {j}] is out of bounds of "
        "shape [4, 16]"
    )


def test_out_of_bounds_store_is_refused():
    body = (
        f"%z = arith.constant dense<1.0> : {V16}\n"
        f"  vector.store %z, %m[%i, %j] : memref<4x16xf32>, {V16}"
    )
    module = parse_module(ACCESS.format(body=body))
    message = interpreter_error(module, "f", [np.zeros((4, 16), F32), 3, 14])
    assert message == (
        "vector.store: vector<16xf32> at index [3, 14] is out of bounds of "
        "shape [4, 16]"
    )


def test_a_2d_vector_load_is_refused():
    body = "%v = vector.load %m[%i, %j] : memref<4x16xf32>, vector<2x16xf32>"
    module = parse_module(ACCESS.format(body=body))
    message = interpreter_error(module, "f", [np.zeros((4, 16), F32), 0, 0])
    assert message == (
        "vector.load: only 1-D vectors are supported, got vector<2x16xf32>"
    )


# --------------------------------------------------------------------------
# Broadcast, constants, extract and insert
# --------------------------------------------------------------------------


def test_broadcast_of_scalars():
    source = """
    func.func @f(%x: f32, %i: index) -> (vector<4xf32>, vector<3xindex>) {
      %v = vector.broadcast %x : f32 to vector<4xf32>
      %w = vector.broadcast %i : index to vector<3xindex>
      return %v, %w : vector<4xf32>, vector<3xindex>
    }
    """
    v, w = run(source, 0.1, 7).results
    np.testing.assert_array_equal(v, np.full(4, F32(0.1)))
    assert v.dtype == np.float32
    np.testing.assert_array_equal(w, [7, 7, 7])


def test_broadcast_of_a_2d_vector_is_refused():
    source = """
    func.func @f(%v: memref<1x16xf32>) -> vector<4x16xf32> {
      %c0 = arith.constant 0 : index
      %s = arith.constant dense<1.0> : vector<1x16xf32>
      %b = vector.broadcast %s : vector<1x16xf32> to vector<4x16xf32>
      return %b : vector<4x16xf32>
    }
    """
    message = interpreter_error(parse_module(source), "f", [np.zeros((1, 16), F32)])
    assert message == (
        "vector.broadcast: only a scalar source is supported, got vector<1x16xf32>"
    )


def test_dense_constants():
    source = """
    func.func @f() -> (vector<4xf32>, vector<3xi32>, vector<2xi1>) {
      %a = arith.constant dense<0.1> : vector<4xf32>
      %b = arith.constant dense<[1, -2, 3]> : vector<3xi32>
      %c = arith.constant dense<[true, false]> : vector<2xi1>
      return %a, %b, %c : vector<4xf32>, vector<3xi32>, vector<2xi1>
    }
    """
    a, b, c = run(source).results
    np.testing.assert_array_equal(a, np.full(4, F32(0.1)))
    np.testing.assert_array_equal(b, [1, -2, 3])
    np.testing.assert_array_equal(c, [1, 0])


def test_extract_and_insert_lanes():
    source = """
    func.func @f(%m: memref<8xf32>, %k: index) -> (f32, f32, vector<8xf32>) {
      %c0 = arith.constant 0 : index
      %v = vector.load %m[%c0] : memref<8xf32>, vector<8xf32>
      %a = vector.extract %v[5] : f32 from vector<8xf32>
      %b = vector.extract %v[%k] : f32 from vector<8xf32>
      %w = vector.insert %a, %v [0] : f32 into vector<8xf32>
      return %a, %b, %w : f32, f32, vector<8xf32>
    }
    """
    m = np.arange(8, dtype=F32) / 8
    a, b, w = run(source, m, 2).results
    assert (a, b) == (m[5], m[2])
    np.testing.assert_array_equal(w, np.concatenate([[m[5]], m[1:]]))


def test_extract_out_of_bounds_is_refused():
    source = """
    func.func @f(%k: index) -> f32 {
      %v = arith.constant dense<1.0> : vector<8xf32>
      %b = vector.extract %v[%k] : f32 from vector<8xf32>
      return %b : f32
    }
    """
    message = interpreter_error(parse_module(source), "f", [8])
    assert message == "vector.extract: position [8] is out of bounds of vector<8xf32>"


def test_print_of_a_vector(capsys):
    source = """
    func.func @f() {
      %a = arith.constant dense<[1.5, 2.0, -3.0]> : vector<3xf32>
      vector.print %a : vector<3xf32>
      return
    }
    """
    run(source)
    assert capsys.readouterr().out == "( 1.5, 2, -3 )\n"


# --------------------------------------------------------------------------
# vector.fma: one rounding
# --------------------------------------------------------------------------


def _round_to(exact: Fraction, dtype) -> float:
    """The value of `dtype` nearest `exact` (ties to even), the reference."""
    guess = dtype(float(exact))
    candidates = [
        np.nextafter(guess, dtype(-np.inf)),
        guess,
        np.nextafter(guess, dtype(np.inf)),
    ]
    bits = {np.float16: np.uint16, np.float32: np.uint32, np.float64: np.uint64}[dtype]
    return float(
        min(
            candidates,
            key=lambda c: (abs(Fraction(float(c)) - exact), int(c.view(bits)) & 1),
        )
    )


FMA = """
func.func @f(%a: memref<{n}x{t}>, %b: memref<{n}x{t}>, %c: memref<{n}x{t}>) -> vector<{n}x{t}> {{
  %c0 = arith.constant 0 : index
  %x = vector.load %a[%c0] : memref<{n}x{t}>, vector<{n}x{t}>
  %y = vector.load %b[%c0] : memref<{n}x{t}>, vector<{n}x{t}>
  %z = vector.load %c[%c0] : memref<{n}x{t}>, vector<{n}x{t}>
  %r = vector.fma %x, %y, %z : vector<{n}x{t}>
  return %r : vector<{n}x{t}>
}}
"""


def test_fma_rounds_once_in_f32():
    # a·a = 1 + 2^-11 + 2^-24 exactly: rounding it first loses the 2^-24
    # (a tie, to even), which with c = -(1 + 2^-11) is all of the result.
    a = F32(1 + 2.0**-12)
    c = F32(-(1 + 2.0**-11))
    assert F32(F32(a * a) + c) == 0  # what two roundings give
    (got,) = run(
        FMA.format(n=2, t="f32"), np.full(2, a), np.full(2, a), np.full(2, c)
    ).results
    np.testing.assert_array_equal(got, [2.0**-24, 2.0**-24])


def test_fma_in_f32_is_not_rounded_twice_through_f64():
    # a·a is halfway between two f32 values; a tiny c decides the way. The
    # f64 sum a·a + c rounds to that halfway point, then (ties to even) down:
    # the exact sum lies above it.
    a = F32(1 + 2.0**-12)
    tiny = F32(2.0**-80)
    inputs = lanes_of([a, a], [a, a], [tiny, -tiny])
    (got,) = run(FMA.format(n=2, t="f32"), *inputs).results
    expected = [
        _round_to(Fraction(float(a)) ** 2 + Fraction(float(c)), np.float32)
        for c in (tiny, -tiny)
    ]
    assert expected == [1 + 2.0**-11 + 2.0**-23, 1 + 2.0**-11]
    np.testing.assert_array_equal(got, expected)


def test_math_fma_rounds_once_on_scalars_and_vectors():
    a = 1 + 2.0**-12
    tiny = 2.0**-80
    scalar = """
    func.func @f(%a: f32, %c: f32) -> f32 {
      %r = math.fma %a, %a, %c : f32
      return %r : f32
    }
    """
    assert run(scalar, a, tiny).results == [1 + 2.0**-11 + 2.0**-23]
    vector = """
    func.func @f(%a: f16, %b: f16, %c: f16) -> vector<2xf16> {
      %x = vector.broadcast %a : f16 to vector<2xf16>
      %y = vector.broadcast %b : f16 to vector<2xf16>
      %z = vector.broadcast %c : f16 to vector<2xf16>
      %r = math.fma %x, %y, %z : vector<2xf16>
      return %r : vector<2xf16>
    }
    """
    # In f16, (1 + 2^-7)·(1 + 2^-4) = 1 + 2^-4 + 2^-7 + 2^-11 is halfway
    # between two values (ulp 2^-10); the tiny c puts the exact sum above.
    a, b, c = (np.float16(v) for v in (1 + 2.0**-7, 1 + 2.0**-4, 2.0**-14))
    (got,) = run(vector, float(a), float(b), float(c)).results
    exact = Fraction(float(a)) * Fraction(float(b)) + Fraction(float(c))
    assert got.dtype == np.float16
    np.testing.assert_array_equal(got, [1 + 2.0**-4 + 2.0**-7 + 2.0**-10] * 2)
    assert float(got[0]) == _round_to(exact, np.float16)


def test_fma_matches_exact_rounding_on_random_f32():
    rng = np.random.default_rng(3)
    a, b = (rng.uniform(-2, 2, 4096).astype(F32) for _ in range(2))
    # c near -a·b, so that the product's low bits matter.
    c = (-(a.astype(np.float64) * b) * (1 + rng.uniform(-1e-6, 1e-6, 4096))).astype(F32)
    got = fused_multiply_add(a, b, c)
    expected = [
        _round_to(
            Fraction(float(x)) * Fraction(float(y)) + Fraction(float(z)), np.float32
        )
        for x, y, z in zip(a, b, c, strict=True)
    ]
    np.testing.assert_array_equal(got, np.asarray(expected, F32))


def test_fma_rounds_once_in_f64():
    a = (1 + 2.0**-27) * 2.0**20
    c = -(2.0**40) * (1 + 2.0**-26)
    inputs = [np.full(2, a), np.full(2, a), np.full(2, c)]
    (got,) = run(FMA.format(n=2, t="f64"), *inputs).results
    np.testing.assert_array_equal(got, [2.0**-14, 2.0**-14])


def test_fma_special_values():
    inf, nan = np.inf, np.nan
    a = np.array([inf, 0, 1, 2, -0.0, 1e30], F32)
    b = np.array([0, 5, 1, 3, 1, 1e30], F32)
    c = np.array([1, -0.0, -inf, nan, -0.0, 0], F32)
    got = fused_multiply_add(a, b, c)
    np.testing.assert_array_equal(got, [nan, 0.0, -inf, nan, -0.0, inf])
    assert np.signbit(got[4]) and not np.signbit(got[1])
    wide = fused_multiply_add(a.astype(np.float64), b, c)
    np.testing.assert_array_equal(wide, [nan, 0.0, -inf, nan, -0.0, float(a[5]) ** 2])


# --------------------------------------------------------------------------
# Reductions
# --------------------------------------------------------------------------

REDUCTION = """
func.func @f(%m: memref<6xf32>, %acc: f32) -> (f32, f32) {{
  %c0 = arith.constant 0 : index
  %v = vector.load %m[%c0] : memref<6xf32>, vector<6xf32>
  %r = vector.reduction <{kind}>, %v : vector<6xf32> into f32
  %s = vector.reduction <{kind}>, %v, %acc : vector<6xf32> into f32
  return %r, %s : f32, f32
}}
"""


def _maximum(a, b):
    return F32(np.nan) if np.isnan(a) or np.isnan(b) else max(a, b)


def _minimum(a, b):
    return F32(np.nan) if np.isnan(a) or np.isnan(b) else min(a, b)


COMBINERS = {
    "add": lambda a, b: a + b,
    "mul": lambda a, b: a * b,
    "maxnumf": np.fmax,
    "minnumf": np.fmin,
    "maximumf": _maximum,
    "minimumf": _minimum,
}


def _ordered(kind: str, values) -> float:
    result = F32(values[0])
    for value in values[1:]:
        result = F32(COMBINERS[kind](result, F32(value)))
    return float(result)


@pytest.mark.parametrize("kind", list(COMBINERS))
@pytest.mark.parametrize(
    "lanes",
    [
        # In this order, 1e8 + 1 rounds back to 1e8: the order matters.
        [1e8, 1.0, -1e8, 1.0, 0.1, 3.0],
        [0.5, np.nan, -2.0, 0.25, 7.0, -0.0],
    ],
    ids=["ordered", "nan"],
)
def test_reductions_fold_in_order(kind, lanes):
    m = np.asarray(lanes, F32)
    acc = 0.3
    r, s = run(REDUCTION.format(kind=kind), m, acc).results
    np.testing.assert_array_equal(
        [r, s], [_ordered(kind, m), _ordered(kind, [acc, *m])]
    )


def test_a_reduction_typed_as_a_vector_is_refused():
    # What xDSL 0.74's ReductionOp constructor builds (its result typed as
    # the vector): refused in one line, not run.
    vector_type = VectorType(f32, [4])
    body = func.FuncOp("f", ((vector_type,), (vector_type,)))
    (source,) = body.body.block.args
    kind = vector.CombiningKindAttr(vector.CombiningKindFlag.ADD)
    reduction = vector.ReductionOp(source, kind)
    body.body.block.add_ops([reduction, func.ReturnOp(reduction.dest)])
    interpreter = make_interpreter(ModuleOp([body]))
    lanes = shaped_array(np.arange(4, dtype=F32), f32)
    with pytest.raises(InterpretationError) as error:
        interpreter.call_op("f", (lanes,))
    assert str(error.value) == (
        "vector.reduction: the result is typed vector<4xf32>, not the element type f32"
    )


def test_integer_reduction_wraps():
    source = """
    func.func @f() -> (i8, i8) {
      %v = arith.constant dense<[100, 100, -3]> : vector<3xi8>
      %a = vector.reduction <add>, %v : vector<3xi8> into i8
      %b = vector.reduction <maxui>, %v : vector<3xi8> into i8
      return %a, %b : i8, i8
    }
    """
    assert run(source).results == [-59, -3]


# --------------------------------------------------------------------------
# arith on vectors
# --------------------------------------------------------------------------

BINARY = """
func.func @f(%a: memref<8xf32>, %b: memref<8xf32>) -> vector<8x{t}> {{
  %c0 = arith.constant 0 : index
  %x = vector.load %a[%c0] : memref<8xf32>, vector<8xf32>
  %y = vector.load %b[%c0] : memref<8xf32>, vector<8xf32>
  %r = {op} %x, %y : vector<8xf32>
  return %r : vector<8x{t}>
}}
"""

FLOAT_BINARY = {
    "arith.addf": np.add,
    "arith.subf": np.subtract,
    "arith.mulf": np.multiply,
    "arith.divf": np.divide,
    "arith.maxnumf": np.fmax,
    "arith.minnumf": np.fmin,
    "arith.maximumf": np.maximum,
    "arith.minimumf": np.minimum,
}

A8 = np.array([0.1, -2.5, 3.0, np.nan, 1e30, -0.0, 7.0, 1 / 3], F32)
B8 = np.array([0.2, 4.0, -3.0, 1.0, 1e30, 0.0, np.nan, 3.0], F32)


@pytest.mark.parametrize("op", list(FLOAT_BINARY))
def test_float_binary_ops_per_lane(op):
    (got,) = run(BINARY.format(op=op, t="f32"), A8, B8).results
    with np.errstate(all="ignore"):
        expected = FLOAT_BINARY[op](A8, B8)
    assert got.dtype == np.float32
    np.testing.assert_array_equal(got, expected)


def test_select_of_vectors_by_a_scalar():
    # xDSL 0.74's arith.select takes only an i1 condition (not a vector of
    # them): it picks a whole vector.
    source = """
    func.func @f(%a: memref<8xf32>, %b: memref<8xf32>, %q: i1) -> vector<8xf32> {
      %c0 = arith.constant 0 : index
      %x = vector.load %a[%c0] : memref<8xf32>, vector<8xf32>
      %y = vector.load %b[%c0] : memref<8xf32>, vector<8xf32>
      %r = arith.select %q, %x, %y : vector<8xf32>
      return %r : vector<8xf32>
    }
    """
    for q in (0, 1):
        (r,) = run(source, A8, B8, q).results
        np.testing.assert_array_equal(r, A8 if q else B8)


def test_a_vector_compare_typed_i1_is_refused():
    # xDSL 0.74 gives `arith.cmpf` of vectors an i1 result (upstream: a
    # vector of i1); one lane cannot stand for all of them.
    source = """
    func.func @f() -> i1 {
      %a = arith.constant dense<[1.0, 2.0]> : vector<2xf32>
      %p = arith.cmpf olt, %a, %a : vector<2xf32>
      return %p : i1
    }
    """
    assert interpreter_error(parse_module(source), "f", []) == (
        "arith.cmpf: vector operands need a vector result, got i1"
    )


def test_integer_ops_wrap_per_lane():
    source = """
    func.func @f() -> (vector<3xi8>, vector<3xi8>, vector<3xi8>, vector<3xi8>, vector<3xi8>) {
      %a = arith.constant dense<[100, -128, 7]> : vector<3xi8>
      %b = arith.constant dense<[100, 1, -2]> : vector<3xi8>
      %s = arith.addi %a, %b : vector<3xi8>
      %d = arith.subi %a, %b : vector<3xi8>
      %m = arith.muli %a, %b : vector<3xi8>
      %u = arith.maxui %a, %b : vector<3xi8>
      %q = arith.divsi %a, %b : vector<3xi8>
      return %s, %d, %m, %u, %q : vector<3xi8>, vector<3xi8>, vector<3xi8>, vector<3xi8>, vector<3xi8>
    }
    """
    s, d, m, u, q = run(source).results
    np.testing.assert_array_equal(s, [-56, -127, 5])
    np.testing.assert_array_equal(d, [0, 127, 9])
    np.testing.assert_array_equal(m, [16, -128, -14])
    np.testing.assert_array_equal(u, [100, -128, -2])  # 128 and 254 unsigned
    np.testing.assert_array_equal(q, [1, -128, -3])


def test_integer_division_by_zero_in_a_lane_is_refused():
    source = """
    func.func @f() -> vector<2xi32> {
      %a = arith.constant dense<[4, 5]> : vector<2xi32>
      %b = arith.constant dense<[2, 0]> : vector<2xi32>
      %q = arith.divsi %a, %b : vector<2xi32>
      return %q : vector<2xi32>
    }
    """
    assert interpreter_error(parse_module(source), "f", []) == (
        "'arith.divsi' divides by zero"
    )


def test_casts_and_math_per_lane_match_scalars():
    source = """
    func.func @f(%a: memref<8xf32>) -> (vector<8xf64>, vector<8xf16>, vector<8xf32>) {
      %c0 = arith.constant 0 : index
      %x = vector.load %a[%c0] : memref<8xf32>, vector<8xf32>
      %w = arith.extf %x : vector<8xf32> to vector<8xf64>
      %h = arith.truncf %x : vector<8xf32> to vector<8xf16>
      %e = math.exp %x : vector<8xf32>
      return %w, %h, %e : vector<8xf64>, vector<8xf16>, vector<8xf32>
    }
    """
    w, h, e = run(source, A8).results
    np.testing.assert_array_equal(w, A8.astype(np.float64))
    with np.errstate(all="ignore"):
        np.testing.assert_array_equal(h, A8.astype(np.float16))
    scalar = """
    func.func @f(%x: f32) -> f32 {
      %e = math.exp %x : f32
      return %e : f32
    }
    """
    expected = [run(scalar, float(x)).results[0] for x in A8]
    np.testing.assert_array_equal(e, np.asarray(expected, F32))


# --------------------------------------------------------------------------
# Loops and whole functions
# --------------------------------------------------------------------------

DOT = """
func.func @f(%a: memref<5x8xf32>, %b: memref<5x8xf32>) -> (f32, vector<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %zero = arith.constant dense<0.0> : vector<8xf32>
  %sum = scf.for %k = %c0 to %c5 step %c1 iter_args(%acc = %zero) -> (vector<8xf32>) {
    %x = vector.load %a[%k, %c0] : memref<5x8xf32>, vector<8xf32>
    %y = vector.load %b[%k, %c0] : memref<5x8xf32>, vector<8xf32>
    %p = arith.mulf %x, %y : vector<8xf32>
    %s = arith.addf %acc, %p : vector<8xf32>
    scf.yield %s : vector<8xf32>
  }
  %r = vector.reduction <add>, %sum : vector<8xf32> into f32
  return %r, %sum : f32, vector<8xf32>
}
"""


def test_vector_iter_args_accumulate():
    rng = np.random.default_rng(0)
    a, b = (rng.uniform(-1, 1, (5, 8)).astype(F32) for _ in range(2))
    r, lanes = run(DOT, a, b).results
    expected = np.zeros(8, F32)
    for k in range(5):
        expected = expected + a[k] * b[k]  # f32 after each op, as compiled
    np.testing.assert_array_equal(lanes, expected)
    assert r == _ordered("add", expected)


def test_checker_compares_a_function_returning_a_vector():
    report = check_module(parse_module(DOT), [], trials=2)
    assert all(v.ok for v in report.verdicts), report


def test_a_vector_argument_is_refused_in_one_line():
    source = """
    func.func @f(%v: vector<4xf32>) -> vector<4xf32> {
      return %v : vector<4xf32>
    }
    """
    message = interpreter_error(parse_module(source), "f", [np.zeros(4, F32)])
    assert message == "argument #0 of @f: unsupported type vector<4xf32>"
