"""1-D `vector` ops and arith on vectors, compiled by `lower-to-llvm`
(`convert-vector-to-llvm-ext`, vector loads and stores in
`finalize-memref-to-llvm`, arith on vectors in `convert-arith-to-llvm`) and
compared with numpy; out-of-bounds accesses fail with the interpreter's
message, and what is not lowered is refused in one line naming the op."""

from __future__ import annotations

import numpy as np
import pytest

from helpers import parse_module
from linalg_ext.jit import JitError, compile_module

f32, f64 = np.float32, np.float64


def _compile(text: str, **options: object):
    return compile_module(parse_module(text), **options)  # pyright: ignore[reportArgumentType]


LOAD_STORE = """
func.func @scale(%a: memref<4x16xf32>, %b: memref<4x16xf32>, %s: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %bs = vector.broadcast %s : f32 to vector<8xf32>
  scf.for %i = %c0 to %c4 step %c1 {
    scf.for %j = %c0 to %c8 step %c8 {
      %v = vector.load %a[%i, %j] : memref<4x16xf32>, vector<8xf32>
      %w = arith.mulf %v, %bs : vector<8xf32>
      vector.store %w, %b[%i, %j] : memref<4x16xf32>, vector<8xf32>
    }
  }
  return
}
"""


def test_load_store_broadcast():
    compiled = _compile(LOAD_STORE)
    a = np.arange(64, dtype=f32).reshape(4, 16)
    b = np.full((4, 16), -1, f32)
    compiled["scale"](a, b, 3.0)
    expected = np.full((4, 16), -1, f32)
    expected[:, :8] = 3 * a[:, :8]
    np.testing.assert_array_equal(b, expected)


SUBVIEW = """
func.func @copy_rows(%a: memref<6x20xf64>, %b: memref<3x4xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %s = memref.subview %a[1, 5] [3, 4] [2, 1] : memref<6x20xf64> to memref<3x4xf64, strided<[40, 1], offset: 25>>
  scf.for %i = %c0 to %c3 step %c1 {
    %v = vector.load %s[%i, %c0] : memref<3x4xf64, strided<[40, 1], offset: 25>>, vector<4xf64>
    %n = arith.negf %v : vector<4xf64>
    vector.store %n, %b[%i, %c0] : memref<3x4xf64>, vector<4xf64>
  }
  return
}
"""


def test_load_from_strided_subview():
    compiled = _compile(SUBVIEW)
    a = np.arange(120, dtype=f64).reshape(6, 20)
    b = np.zeros((3, 4), f64)
    compiled["copy_rows"](a, b)
    np.testing.assert_array_equal(b, -a[1:6:2, 5:9])


DOT = """
func.func @dot(%a: memref<64xf32>, %b: memref<64xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant dense<0.0> : vector<16xf32>
  %acc = scf.for %i = %c0 to %c64 step %c16 iter_args(%s = %zero) -> (vector<16xf32>) {
    %x = vector.load %a[%i] : memref<64xf32>, vector<16xf32>
    %y = vector.load %b[%i] : memref<64xf32>, vector<16xf32>
    %n = vector.fma %x, %y, %s : vector<16xf32>
    scf.yield %n : vector<16xf32>
  }
  %r = vector.reduction <add>, %acc : vector<16xf32> into f32
  return %r : f32
}
"""


def test_dot_product_with_vector_accumulator():
    compiled = _compile(DOT)
    rng = np.random.default_rng(0)
    a = rng.uniform(-1, 1, 64).astype(f32)
    b = rng.uniform(-1, 1, 64).astype(f32)
    # Lane by lane: one fused multiply-add per step, then lanes in order.
    lanes = np.zeros(16, f64)
    for start in range(0, 64, 16):
        exact = lanes + a[start : start + 16].astype(f64) * b[start : start + 16]
        lanes = exact.astype(f32).astype(f64)
    expected = f32(0)
    for lane in lanes.astype(f32):
        expected = f32(expected + lane)
    assert compiled["dot"](a, b) == pytest.approx(float(expected), rel=1e-6)


def test_fma_rounds_once():
    text = """
    func.func @fma(%a: memref<4xf32>, %b: memref<4xf32>, %c: memref<4xf32>, %o: memref<4xf32>) {
      %c0 = arith.constant 0 : index
      %x = vector.load %a[%c0] : memref<4xf32>, vector<4xf32>
      %y = vector.load %b[%c0] : memref<4xf32>, vector<4xf32>
      %z = vector.load %c[%c0] : memref<4xf32>, vector<4xf32>
      %r = vector.fma %x, %y, %z : vector<4xf32>
      vector.store %r, %o[%c0] : memref<4xf32>, vector<4xf32>
      return
    }
    """
    compiled = _compile(text)
    a = np.full(4, 1 + 2.0**-12, f32)
    c = np.full(4, -(1 + 2.0**-11), f32)
    out = np.zeros(4, f32)
    compiled["fma"](a, a.copy(), c, out)
    # a*a = 1 + 2^-11 + 2^-24 exactly; rounded first, the sum would be 0.
    np.testing.assert_array_equal(out, np.full(4, 2.0**-24, f32))


REDUCTIONS = """
func.func @reduce(%a: memref<8xf32>, %acc: f32, %o: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %v = vector.load %a[%c0] : memref<8xf32>, vector<8xf32>
  %r0 = vector.reduction <add>, %v, %acc : vector<8xf32> into f32
  %r1 = vector.reduction <mul>, %v : vector<8xf32> into f32
  %r2 = vector.reduction <maxnumf>, %v : vector<8xf32> into f32
  %r3 = vector.reduction <minnumf>, %v, %acc : vector<8xf32> into f32
  %r4 = vector.reduction <maximumf>, %v : vector<8xf32> into f32
  %r5 = vector.reduction <minimumf>, %v : vector<8xf32> into f32
  %r6 = vector.reduction <add>, %v fastmath<reassoc> : vector<8xf32> into f32
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c6 = arith.constant 6 : index
  memref.store %r0, %o[%c0] : memref<8xf32>
  memref.store %r1, %o[%c1] : memref<8xf32>
  memref.store %r2, %o[%c2] : memref<8xf32>
  memref.store %r3, %o[%c3] : memref<8xf32>
  memref.store %r4, %o[%c4] : memref<8xf32>
  memref.store %r5, %o[%c5] : memref<8xf32>
  memref.store %r6, %o[%c6] : memref<8xf32>
  return
}
"""


def test_float_reductions():
    compiled = _compile(REDUCTIONS)
    a = np.array([0.5, -2, 3, 1.25, -0.75, 4, 2, -1], f32)
    out = np.zeros(8, f32)
    compiled["reduce"](a, 10.0, out)
    ordered = f32(10)
    for x in a:
        ordered = f32(ordered + x)
    expected = [ordered, np.prod(a), a.max(), min(a.min(), 10), a.max(), a.min()]
    np.testing.assert_allclose(out[:6], np.array(expected, f32), rtol=1e-6)
    assert out[6] == pytest.approx(float(a.sum()), rel=1e-6)


def test_nan_propagation_of_maximumf():
    compiled = _compile(REDUCTIONS)
    a = np.array([0.5, np.nan, 3, 1, 0, 4, 2, -1], f32)
    out = np.zeros(8, f32)
    compiled["reduce"](a, 0.0, out)
    assert out[2] == 4 and out[3] == -1  # maxnumf / minnumf ignore the NaN
    assert np.isnan(out[4]) and np.isnan(out[5])


ARITH = """
func.func @arith(%a: memref<8xf32>, %b: memref<8xf32>, %o: memref<8xf32>,
                 %k: memref<8xi32>, %ko: memref<8xi32>, %d: memref<8xf64>) {
  %c0 = arith.constant 0 : index
  %x = vector.load %a[%c0] : memref<8xf32>, vector<8xf32>
  %y = vector.load %b[%c0] : memref<8xf32>, vector<8xf32>
  %two = arith.constant dense<2.0> : vector<8xf32>
  %steps = arith.constant dense<[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0]> : vector<8xf32>
  %s = arith.addf %x, %y : vector<8xf32>
  %p = arith.mulf %s, %two : vector<8xf32>
  %q = arith.subf %p, %steps : vector<8xf32>
  %m = arith.maximumf %q, %y : vector<8xf32>
  %dv = arith.divf %m, %two : vector<8xf32>
  vector.store %dv, %o[%c0] : memref<8xf32>, vector<8xf32>
  %ki = vector.load %k[%c0] : memref<8xi32>, vector<8xi32>
  %three = arith.constant dense<3> : vector<8xi32>
  %km = arith.muli %ki, %three : vector<8xi32>
  %ka = arith.addi %km, %ki : vector<8xi32>
  %ks = arith.subi %ka, %three : vector<8xi32>
  vector.store %ks, %ko[%c0] : memref<8xi32>, vector<8xi32>
  %e = vector.load %d[%c0] : memref<8xf64>, vector<8xf64>
  %half = arith.constant dense<0.5> : vector<8xf64>
  %sum = arith.minnumf %e, %half : vector<8xf64>
  vector.store %sum, %d[%c0] : memref<8xf64>, vector<8xf64>
  return
}
"""


def test_arith_on_vectors():
    compiled = _compile(ARITH)
    rng = np.random.default_rng(1)
    a = rng.uniform(-2, 2, 8).astype(f32)
    b = rng.uniform(-2, 2, 8).astype(f32)
    k = np.arange(-3, 5, dtype=np.int32)
    o, ko = np.zeros(8, f32), np.zeros(8, np.int32)
    d_in = np.linspace(-1, 1, 8)
    d = d_in.copy()
    compiled["arith"](a, b, o, k, ko, d)
    q = (a + b) * f32(2) - np.arange(8, dtype=f32)
    np.testing.assert_allclose(o, np.maximum(q, b) / f32(2), rtol=1e-6)
    np.testing.assert_array_equal(ko, 4 * k - 3)
    np.testing.assert_array_equal(d, np.minimum(d_in, 0.5))


def test_integer_reduction_and_scalar_select():
    text = """
    func.func @sum(%a: memref<8xi32>, %flag: i1) -> i32 {
      %c0 = arith.constant 0 : index
      %v = vector.load %a[%c0] : memref<8xi32>, vector<8xi32>
      %w = arith.constant dense<1> : vector<8xi32>
      %s = arith.select %flag, %v, %w : vector<8xi32>
      %acc = arith.constant 100 : i32
      %r = vector.reduction <add>, %s, %acc : vector<8xi32> into i32
      return %r : i32
    }
    """
    compiled = _compile(text)
    a = np.arange(8, dtype=np.int32)
    assert compiled["sum"](a, True) == 128
    assert compiled["sum"](a, False) == 108


@pytest.mark.parametrize(
    ("i", "j", "op"),
    [(4, 0, "vector.load"), (0, 9, "vector.store"), (0, 16, "vector.store")],
)
def test_out_of_bounds_message(i: int, j: int, op: str):
    text = """
    func.func @access(%a: memref<4x16xf32>, %i: index, %j: index) {
      %v = vector.load %a[%i, %c0] : memref<4x16xf32>, vector<8xf32>
      vector.store %v, %a[%c0, %j] : memref<4x16xf32>, vector<8xf32>
      return
    }
    """
    text = text.replace("%c0]", "%z]").replace("[%c0,", "[%z,")
    text = text.replace("{\n", "{\n      %z = arith.constant 0 : index\n", 1)
    compiled = _compile(text)
    a = np.zeros((4, 16), f32)
    index = f"[{i}, 0]" if op == "vector.load" else f"[0, {j}]"
    args = (a, i, j)
    with pytest.raises(JitError) as error:
        compiled["access"](*args)
    expected = f"{op}: vector<8xf32> at index {index} is out of bounds of shape [4, 16]"
    assert expected in str(error.value)
    compiled["access"](a, 3, 8)  # the last vector that fits


def test_dynamic_out_of_bounds_message():
    text = """
    func.func @access(%a: memref<?xf32>, %i: index) -> f32 {
      %v = vector.load %a[%i] : memref<?xf32>, vector<4xf32>
      %r = vector.reduction <add>, %v : vector<4xf32> into f32
      return %r : f32
    }
    """
    compiled = _compile(text)
    a = np.arange(6, dtype=f32)
    assert compiled["access"](a, 2) == 14
    for index in (3, -1):
        with pytest.raises(JitError) as error:
            compiled["access"](a, index)
        expected = (
            f"vector.load: vector<4xf32> at index [{index}] is out of bounds "
            "of shape [6]"
        )
        assert expected in str(error.value)
    with pytest.raises(
        JitError, match=r"at index \[0\] is out of bounds of shape \[2\]"
    ):
        compiled["access"](np.zeros(2, f32), 0)


def test_in_bounds_mark_skips_the_check():
    text = """
    func.func @access(%a: memref<16xf32>, %i: index) -> f32 {
      %v = vector.load %a[%i] {rtcheck.in_bounds} : memref<16xf32>, vector<4xf32>
      %r = vector.reduction <add>, %v : vector<4xf32> into f32
      return %r : f32
    }
    """
    module = parse_module(text)
    from linalg_ext.context import make_context
    from linalg_ext.passes.insert_runtime_checks import InsertRuntimeChecksPass

    InsertRuntimeChecksPass().apply(make_context(), module)
    assert "rtcheck.assert" not in str(module)
    assert "rtcheck.in_bounds" not in str(module)


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (
            "%v = vector.broadcast %s : f32 to vector<2x4xf32>\n"
            "%r = vector.reduction <add>, %v : vector<2x4xf32> into f32\n"
            "memref.store %r, %m[%c0, %c0] : memref<4x8xf32>",
            "'vector.broadcast': only one-dimensional vectors are supported: "
            "vector<2x4xf32>",
        ),
        (
            "%v = vector.load %t[%c0, %c0] : memref<4x8xf32, strided<[1, 4]>>, "
            "vector<4xf32>",
            "'vector.load': the innermost stride of memref<4x8xf32, strided<[1, 4]>> "
            "must be a static 1",
        ),
        (
            "%v = vector.load %m[%c0, %c0] : memref<4x8xf32>, vector<[4]xf32>",
            "'vector.load': scalable vectors are not supported: vector<[4]xf32>",
        ),
    ],
)
def test_refused_in_one_line(body: str, message: str):
    text = f"""
    func.func @bad(%m: memref<4x8xf32>, %t: memref<4x8xf32, strided<[1, 4]>>, %s: f32) {{
      %c0 = arith.constant 0 : index
      {body}
      return
    }}
    """
    with pytest.raises(JitError) as error:
        _compile(text)
    text = str(error.value)
    assert message in text
    assert "\n" not in text.strip()
