"""Every linalg_ext op, run on the interpreter, against an independent numpy
computation of the definition in docs/ops/ (written here loop by loop or
formula by formula, not with the interpreter's code)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from xdsl.utils.exceptions import InterpretationError

from helpers import parse_module
from linalg_ext.running import run_function

RNG = np.random.default_rng(7)


def run(source: str, name: str, *inputs):
    return run_function(parse_module(source), name, list(inputs))


def random(*shape, dtype=np.float32):
    return RNG.uniform(-1, 1, size=shape).astype(dtype)


# --------------------------------------------------------------------------
# softmax and unnorm_softmax
# --------------------------------------------------------------------------

SOFTMAX = """
func.func @tensor(%x: tensor<3x5x4xf64>, %m0: tensor<3x4xf64>, %a0: tensor<3x4xf64>)
    -> (tensor<3x5x4xf64>, tensor<3x4xf64>, tensor<3x4xf64>, tensor<3x4xf64>) {
  %o = tensor.empty() : tensor<3x5x4xf64>
  %s = tensor.empty() : tensor<3x4xf64>
  %r:4 = linalg_ext.OP dimension(1) ins(%x : tensor<3x5x4xf64>)
      outs(%o, %m0, %a0, %s : tensor<3x5x4xf64>, tensor<3x4xf64>, tensor<3x4xf64>, tensor<3x4xf64>)
      : tensor<3x5x4xf64>, tensor<3x4xf64>, tensor<3x4xf64>, tensor<3x4xf64>
  return %r#0, %r#1, %r#2, %r#3 : tensor<3x5x4xf64>, tensor<3x4xf64>, tensor<3x4xf64>, tensor<3x4xf64>
}
func.func @memref(%x: memref<3x5x4xf64>, %o: memref<3x5x4xf64>, %m: memref<3x4xf64>, %a: memref<3x4xf64>, %s: memref<3x4xf64>) {
  linalg_ext.OP dimension(1) ins(%x : memref<3x5x4xf64>)
      outs(%o, %m, %a, %s : memref<3x5x4xf64>, memref<3x4xf64>, memref<3x4xf64>, memref<3x4xf64>)
  return
}
"""


def softmax_by_loops(x, m0, a0, normalise):
    out = np.empty_like(x)
    new_m, new_a, scale = np.empty_like(m0), np.empty_like(a0), np.empty_like(m0)
    for b in range(x.shape[0]):
        for j in range(x.shape[2]):
            row = x[b, :, j]
            m = max(m0[b, j], *row)
            carried = a0[b, j] * math.exp(m0[b, j] - m)
            total = carried + sum(math.exp(v - m) for v in row)
            new_m[b, j], new_a[b, j] = m, total
            for k, v in enumerate(row):
                out[b, k, j] = math.exp(v - m) / (total if normalise else 1)
            scale[b, j] = carried / total if normalise else math.exp(m0[b, j] - m)
    return out, new_m, new_a, scale


@pytest.mark.parametrize(
    ("op", "normalise"), [("softmax", True), ("unnorm_softmax", False)]
)
def test_softmax_family_with_running_statistics(op, normalise):
    source = SOFTMAX.replace("OP", op)
    x = random(3, 5, 4, dtype=np.float64) * 3
    # Non-trivial inits: a running max above some rows' values, a positive sum.
    m0 = random(3, 4, dtype=np.float64) + 1.5
    a0 = np.abs(random(3, 4, dtype=np.float64)) + 0.5
    expected = softmax_by_loops(x, m0, a0, normalise)

    tensor_run = run(source, "tensor", x, m0, a0)
    for got, want in zip(tensor_run.results, expected, strict=True):
        np.testing.assert_allclose(got, want, rtol=1e-12)
    # The tensor form leaves its operands alone.
    np.testing.assert_array_equal(tensor_run.arguments[1], m0)

    buffers = [x, np.zeros_like(x), m0.copy(), a0.copy(), np.zeros_like(m0)]
    memref_run = run(source, "memref", *buffers)
    for got, want in zip(memref_run.arguments[1:], expected, strict=True):
        np.testing.assert_allclose(got, want, rtol=1e-12)


def test_softmax_from_scratch_is_the_usual_softmax():
    source = SOFTMAX.replace("OP", "softmax")
    x = random(3, 5, 4, dtype=np.float64)
    m0 = np.full((3, 4), -np.inf)
    out, _, _, scale = run(source, "tensor", x, m0, np.zeros((3, 4))).results
    usual = np.exp(x) / np.exp(x).sum(axis=1, keepdims=True)
    np.testing.assert_allclose(out, usual, rtol=1e-12)
    np.testing.assert_array_equal(scale, np.zeros((3, 4)))


# --------------------------------------------------------------------------
# diag
# --------------------------------------------------------------------------


def test_diag_tensor_and_memref():
    source = """
    func.func @tensor(%v: tensor<2x3xi32>, %init: tensor<2x3x3xi32>) -> tensor<2x3x3xi32> {
      %d = linalg_ext.diag ins(%v : tensor<2x3xi32>) outs(%init : tensor<2x3x3xi32>) : tensor<2x3x3xi32>
      return %d : tensor<2x3x3xi32>
    }
    func.func @memref(%v: memref<4xf32>, %out: memref<4x4xf32>) {
      linalg_ext.diag ins(%v : memref<4xf32>) outs(%out : memref<4x4xf32>)
      return
    }
    """
    v = np.array([[1, 2, 3], [4, 5, 6]], dtype=np.int32)
    # The init's contents are not read: every element is written.
    (d,) = run(source, "tensor", v, np.full((2, 3, 3), 9, np.int32)).results
    expected = np.zeros((2, 3, 3), np.int32)
    for b in range(2):
        for i in range(3):
            expected[b, i, i] = v[b, i]
    np.testing.assert_array_equal(d, expected)

    w = random(4)
    out = run(source, "memref", w, np.ones((4, 4), np.float32)).arguments[1]
    np.testing.assert_array_equal(out, np.diag(w))


# --------------------------------------------------------------------------
# scan
# --------------------------------------------------------------------------

SCAN = """
func.func @tensor(%x: tensor<3x6xi64>, %carry: tensor<3xi64>) -> (tensor<3x6xi64>, tensor<3xi64>) {
  %init = tensor.empty() : tensor<3x6xi64>
  %r:2 = linalg_ext.scan dimension(1) inclusive(INCLUSIVE)
      ins(%x : tensor<3x6xi64>) outs(%init, %carry : tensor<3x6xi64>, tensor<3xi64>) {
    ^bb0(%running: i64, %elem: i64):
      %next = arith.addi %running, %elem : i64
      linalg_ext.yield %next : i64
  } -> tensor<3x6xi64>, tensor<3xi64>
  return %r#0, %r#1 : tensor<3x6xi64>, tensor<3xi64>
}
func.func @memref_product(%x: memref<4x2xf64>, %out: memref<4x2xf64>, %carry: memref<2xf64>) {
  linalg_ext.scan dimension(0) inclusive(INCLUSIVE)
      ins(%x : memref<4x2xf64>) outs(%out, %carry : memref<4x2xf64>, memref<2xf64>) {
    ^bb0(%running: f64, %elem: f64):
      %next = arith.mulf %running, %elem : f64
      linalg_ext.yield %next : f64
  }
  return
}
"""


@pytest.mark.parametrize("inclusive", [True, False])
def test_scan_with_carry(inclusive):
    source = SCAN.replace("INCLUSIVE", str(inclusive).lower())
    x = RNG.integers(-5, 6, size=(3, 6))
    carry = np.array([10, -3, 0])
    out, carry_out = run(source, "tensor", x, carry).results
    running_sums = carry[:, None] + np.cumsum(x, axis=1)
    if inclusive:
        np.testing.assert_array_equal(out, running_sums)
    else:
        shifted = np.concatenate([carry[:, None], running_sums[:, :-1]], axis=1)
        np.testing.assert_array_equal(out, shifted)
    # Either way the carry out combines the carry in with every element.
    np.testing.assert_array_equal(carry_out, carry + x.sum(axis=1))

    y = random(4, 2, dtype=np.float64) + 2
    start = np.array([0.5, 2.0])
    _, out, carry_out = run(
        source, "memref_product", y, np.zeros((4, 2)), start
    ).arguments
    products = start * np.cumprod(y, axis=0)
    expected = products if inclusive else np.vstack([start, products[:-1]])
    np.testing.assert_allclose(out, expected, rtol=1e-14)
    np.testing.assert_allclose(carry_out, products[-1], rtol=1e-14)


def test_scan_in_two_halves_equals_scan_of_the_whole():
    half = (
        SCAN.replace("INCLUSIVE", "true")
        .replace("3x6xi64", "3x3xi64")
        .replace("@tensor", "@half")
    )
    x = RNG.integers(-5, 6, size=(3, 6))
    first, carry = run(half, "half", x[:, :3].copy(), np.zeros(3, np.int64)).results
    # The carry out of the first half is the carry in of the second.
    second, _ = run(half, "half", x[:, 3:].copy(), carry).results
    whole, _ = run(
        SCAN.replace("INCLUSIVE", "true"), "tensor", x, np.zeros(3, np.int64)
    ).results
    np.testing.assert_array_equal(np.concatenate([first, second], axis=1), whole)


# --------------------------------------------------------------------------
# scatter
# --------------------------------------------------------------------------

SCATTER = """
func.func @add(%src: tensor<5x3xf32>, %idx: tensor<2x3x1xi32>, %upd: tensor<2x3x3xf32>) -> tensor<5x3xf32> {
  %r = linalg_ext.scatter ins(%idx, %upd : tensor<2x3x1xi32>, tensor<2x3x3xf32>) outs(%src : tensor<5x3xf32>) {
    ^bb0(%old: f32, %new: f32):
      %sum = arith.addf %old, %new : f32
      linalg_ext.yield %sum : f32
  } -> tensor<5x3xf32>
  return %r : tensor<5x3xf32>
}
func.func @overwrite(%src: memref<4x4xi64>, %idx: memref<5x2xindex>, %upd: memref<5xi64>) {
  linalg_ext.scatter ins(%idx, %upd : memref<5x2xindex>, memref<5xi64>) outs(%src : memref<4x4xi64>) {
    ^bb0(%old: i64, %new: i64):
      linalg_ext.yield %new : i64
  }
  return
}
"""


def test_scatter_accumulates_repeated_indices():
    src = random(5, 3)
    idx = np.array([[[4], [0], [4]], [[2], [4], [0]]], dtype=np.int32)
    upd = random(2, 3, 3)
    (got,) = run(SCATTER, "add", src, idx, upd).results
    expected = src.copy()
    for b0 in range(2):
        for b1 in range(3):
            expected[idx[b0, b1, 0]] += upd[b0, b1]
    np.testing.assert_allclose(got, expected, rtol=1e-6)


def test_scatter_overwrite_applies_duplicates_in_order():
    src = np.zeros((4, 4), np.int64)
    idx = np.array([[1, 2], [3, 3], [1, 2], [0, 0], [1, 2]])
    upd = np.array([10, 20, 30, 40, 50])
    out = run(SCATTER, "overwrite", src, idx, upd).arguments[0]
    expected = np.zeros((4, 4), np.int64)
    expected[1, 2], expected[3, 3], expected[0, 0] = 50, 20, 40  # the last write wins
    np.testing.assert_array_equal(out, expected)


@pytest.mark.parametrize("bad", [[4, 0], [-1, 2]])
def test_scatter_out_of_range_index_is_an_error(bad):
    idx = np.array([[0, 0], bad, [1, 1], [2, 2], [3, 3]])
    with pytest.raises(InterpretationError, match="out of bounds"):
        run(SCATTER, "overwrite", np.zeros((4, 4), np.int64), idx, np.arange(5))


# --------------------------------------------------------------------------
# topk
# --------------------------------------------------------------------------

TOPK = """
func.func @largest(%v: tensor<2x7xf32>) -> (tensor<2x3xf32>, tensor<2x3xi32>) {
  %ov = tensor.empty() : tensor<2x3xf32>
  %oi = tensor.empty() : tensor<2x3xi32>
  %r:2 = linalg_ext.topk dimension(1) ins(%v : tensor<2x7xf32>) outs(%ov, %oi : tensor<2x3xf32>, tensor<2x3xi32>) {
    ^bb0(%a: f32, %b: f32):
      %first = arith.cmpf ogt, %a, %b : f32
      linalg_ext.yield %first : i1
  } -> tensor<2x3xf32>, tensor<2x3xi32>
  return %r#0, %r#1 : tensor<2x3xf32>, tensor<2x3xi32>
}
func.func @smallest_with_indices(%v: memref<6x2xi64>, %i: memref<6x2xi64>, %ov: memref<4x2xi64>, %oi: memref<4x2xi64>) {
  linalg_ext.topk dimension(0) ins(%v, %i : memref<6x2xi64>, memref<6x2xi64>) outs(%ov, %oi : memref<4x2xi64>, memref<4x2xi64>) {
    ^bb0(%a: i64, %b: i64):
      %first = arith.cmpi slt, %a, %b : i64
      linalg_ext.yield %first : i1
  }
  return
}
"""


def test_topk_ties_keep_the_smaller_index_first():
    v = np.array([[3, 7, 1, 7, 5, 7, 0], [2, 2, 2, 2, 2, 2, 2]], dtype=np.float32)
    values, indices = run(TOPK, "largest", v).results
    # An independent stable ordering: sort by (-value, index).
    for row in range(2):
        order = sorted(range(7), key=lambda k, row=row: (-v[row, k], k))[:3]
        np.testing.assert_array_equal(indices[row], order)
        np.testing.assert_array_equal(values[row], v[row, order])
    np.testing.assert_array_equal(indices, [[1, 3, 5], [0, 1, 2]])


def test_topk_with_input_indices_on_memrefs():
    v = RNG.integers(0, 4, size=(6, 2))  # many ties
    labels = RNG.integers(100, 200, size=(6, 2))
    _, _, values, indices = run(
        TOPK,
        "smallest_with_indices",
        v,
        labels,
        np.zeros((4, 2), np.int64),
        np.zeros((4, 2), np.int64),
    ).arguments
    for column in range(2):
        order = np.argsort(v[:, column], kind="stable")[:4]
        np.testing.assert_array_equal(values[:, column], v[order, column])
        np.testing.assert_array_equal(indices[:, column], labels[order, column])


# --------------------------------------------------------------------------
# layer_norm
# --------------------------------------------------------------------------

LAYER_NORM = """
func.func @affine(%x: tensor<2x3x4xf64>, %w: tensor<3x4xf64>, %b: tensor<3x4xf64>) -> tensor<2x3x4xf64> {
  %o = tensor.empty() : tensor<2x3x4xf64>
  %r = linalg_ext.layer_norm axis([1, 2]) epsilon(1.0E-5) ins(%x, %w, %b : tensor<2x3x4xf64>, tensor<3x4xf64>, tensor<3x4xf64>) outs(%o : tensor<2x3x4xf64>) : tensor<2x3x4xf64>
  return %r : tensor<2x3x4xf64>
}
func.func @statistics(%x: memref<5x6xf32>, %o: memref<5x6xf32>, %mean: memref<5xf32>, %rstd: memref<5xf32>) {
  linalg_ext.layer_norm axis([1]) epsilon(0.0) ins(%x : memref<5x6xf32>) outs(%o, %mean, %rstd : memref<5x6xf32>, memref<5xf32>, memref<5xf32>)
  return
}
"""


def test_layer_norm_with_weight_and_bias():
    x, w, b = (
        random(2, 3, 4, dtype=np.float64),
        random(3, 4, dtype=np.float64),
        random(3, 4, dtype=np.float64),
    )
    (got,) = run(LAYER_NORM, "affine", x, w, b).results
    expected = np.empty_like(x)
    for n in range(2):
        values = x[n].ravel()
        mean = sum(values) / values.size
        variance = sum((v - mean) ** 2 for v in values) / values.size  # biased
        expected[n] = (x[n] - mean) / math.sqrt(variance + 1e-5) * w + b
    np.testing.assert_allclose(got, expected, rtol=1e-12)


def test_layer_norm_mean_and_rstd():
    x = random(5, 6) * 4
    _, out, mean, rstd = run(
        LAYER_NORM,
        "statistics",
        x,
        np.zeros((5, 6), np.float32),
        np.zeros(5, np.float32),
        np.zeros(5, np.float32),
    ).arguments
    x64 = x.astype(np.float64)
    expected_mean = x64.mean(axis=1)
    expected_rstd = 1 / x64.std(axis=1)
    np.testing.assert_allclose(mean, expected_mean, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(rstd, expected_rstd, rtol=1e-5)
    np.testing.assert_allclose(
        out,
        (x64 - expected_mean[:, None]) * expected_rstd[:, None],
        rtol=1e-4,
        atol=1e-5,
    )


# --------------------------------------------------------------------------
# batch_matmul
# --------------------------------------------------------------------------

LHS = {"n": "2x3x4", "t": "2x4x3"}  # M = 3, K = 4
RHS = {"n": "2x4x5", "t": "2x5x4"}  # K = 4, N = 5


@pytest.mark.parametrize("layout", ["nn", "nt", "tn", "tt"])
def test_batch_matmul_layouts(layout):
    lhs_shape, rhs_shape = LHS[layout[0]], RHS[layout[1]]
    source = f"""
    func.func @f(%a: tensor<{lhs_shape}xf64>, %b: tensor<{rhs_shape}xf64>, %c: tensor<2x3x5xf64>) -> tensor<2x3x5xf64> {{
      %r = linalg_ext.batch_matmul ins(%a, %b : tensor<{lhs_shape}xf64>, tensor<{rhs_shape}xf64>) outs(%c : tensor<2x3x5xf64>) layout = "{layout}"
      return %r : tensor<2x3x5xf64>
    }}
    """
    a = random(*map(int, lhs_shape.split("x")), dtype=np.float64)
    b = random(*map(int, rhs_shape.split("x")), dtype=np.float64)
    c = random(2, 3, 5, dtype=np.float64)
    (got,) = run(source, "f", a, b, c).results
    lhs_subscripts = "bmk" if layout[0] == "n" else "bkm"
    rhs_subscripts = "bkn" if layout[1] == "n" else "bnk"
    expected = c + np.einsum(f"{lhs_subscripts},{rhs_subscripts}->bmn", a, b)
    np.testing.assert_allclose(got, expected, rtol=1e-12)


def test_batch_matmul_i8_accumulates_in_i32_on_memrefs():
    source = """
    func.func @f(%a: memref<1x2x3xi8>, %b: memref<1x3x2xi8>, %c: memref<1x2x2xi32>) {
      linalg_ext.batch_matmul ins(%a, %b : memref<1x2x3xi8>, memref<1x3x2xi8>) outs(%c : memref<1x2x2xi32>) layout = "nn"
      return
    }
    """
    # 127 * 127 * 3 overflows i8 but not i32: the inputs are widened first.
    a = np.full((1, 2, 3), 127, np.int8)
    b = np.full((1, 3, 2), -127, np.int8)
    c = np.full((1, 2, 2), 5, np.int32)
    out = run(source, "f", a, b, c).arguments[2]
    np.testing.assert_array_equal(out, np.full((1, 2, 2), 5 - 3 * 127 * 127))


# --------------------------------------------------------------------------
# alias and custom
# --------------------------------------------------------------------------


def test_alias_is_the_identity():
    source = """
    func.func @f(%s: f32, %t: tensor<3xi32>) -> (f32, tensor<3xi32>) {
      %a = linalg_ext.alias(%s : f32) : f32
      %b = linalg_ext.alias(%t : tensor<3xi32>) : tensor<3xi32>
      return %a, %b : f32, tensor<3xi32>
    }
    """
    scalar, tensor = run(source, "f", 2.5, np.array([1, 2, 3], np.int32)).results
    assert scalar == 2.5
    np.testing.assert_array_equal(tensor, [1, 2, 3])


def test_custom_runs_its_region():
    source = """
    func.func @tensor(%a: tensor<4xf32>, %b: tensor<4xf32>, %o: tensor<4xf32>) -> tensor<4xf32> {
      %r = linalg_ext.custom ins(%a, %b : tensor<4xf32>, tensor<4xf32>) outs(%o : tensor<4xf32>) {
      ^bb0(%x: tensor<4xf32>, %y: tensor<4xf32>, %z: tensor<4xf32>):
        %init = tensor.empty() : tensor<4xf32>
        %s = linalg.add ins(%x, %y : tensor<4xf32>, tensor<4xf32>) outs(%init : tensor<4xf32>) -> tensor<4xf32>
        linalg_ext.yield %s : tensor<4xf32>
      } -> tensor<4xf32>
      return %r : tensor<4xf32>
    }
    func.func @memref_yielded(%a: memref<4xf32>, %o: memref<4xf32>) {
      linalg_ext.custom ins(%a : memref<4xf32>) outs(%o : memref<4xf32>) {
      ^bb0(%x: memref<4xf32>, %y: memref<4xf32>):
        linalg_ext.yield %x : memref<4xf32>
      }
      return
    }
    func.func @memref_in_place(%a: memref<4xf32>, %o: memref<4xf32>) {
      linalg_ext.custom ins(%a : memref<4xf32>) outs(%o : memref<4xf32>) {
      ^bb0(%x: memref<4xf32>, %y: memref<4xf32>):
        linalg.add ins(%x, %x : memref<4xf32>, memref<4xf32>) outs(%y : memref<4xf32>)
      }
      return
    }
    """
    a, b = random(4), random(4)
    (got,) = run(source, "tensor", a, b, np.zeros(4, np.float32)).results
    np.testing.assert_allclose(got, a + b, rtol=1e-6)
    out = run(source, "memref_yielded", a, np.zeros(4, np.float32)).arguments[1]
    np.testing.assert_array_equal(out, a)
    out = run(source, "memref_in_place", a, np.zeros(4, np.float32)).arguments[1]
    np.testing.assert_allclose(out, a + a, rtol=1e-6)


def test_doc_examples_give_the_documented_numbers():
    """The numbers quoted on the op pages are what the interpreter computes."""
    source = """
    func.func @softmax_example(%x: tensor<1x2xf64>, %m0: tensor<1xf64>, %a0: tensor<1xf64>) -> (tensor<1x2xf64>, tensor<1xf64>) {
      %out = tensor.empty() : tensor<1x2xf64>
      %scale = tensor.empty() : tensor<1xf64>
      %r:4 = linalg_ext.softmax dimension(1) ins(%x : tensor<1x2xf64>)
          outs(%out, %m0, %a0, %scale : tensor<1x2xf64>, tensor<1xf64>, tensor<1xf64>, tensor<1xf64>)
          : tensor<1x2xf64>, tensor<1xf64>, tensor<1xf64>, tensor<1xf64>
      return %r#0, %r#3 : tensor<1x2xf64>, tensor<1xf64>
    }
    """
    out, scale = run(
        source,
        "softmax_example",
        np.array([[1.0, 2.0]]),
        np.array([3.0]),
        np.array([1.0]),
    ).results
    np.testing.assert_allclose(out, [[0.0900, 0.2447]], atol=5e-5)
    np.testing.assert_allclose(scale, [0.6652], atol=5e-5)


def test_demo_program_runs_and_matches_numpy():
    from helpers import REPO

    q, k, v = (random(2, 8, 16) for _ in range(3))
    gamma, beta = random(16), random(16)
    source = (REPO / "examples" / "demo.mlir").read_text()
    normed, top_values, top_indices = run(
        source, "attention_block", q, k, v, gamma, beta
    ).results

    q64, k64, v64 = (a.astype(np.float64) for a in (q, k, v))
    scores = np.einsum("bid,bjd->bij", q64, k64)
    probs = np.exp(scores - scores.max(axis=2, keepdims=True))
    probs /= probs.sum(axis=2, keepdims=True)
    context = probs @ v64
    centred = context - context.mean(axis=2, keepdims=True)
    expected = (
        centred / np.sqrt((centred**2).mean(axis=2, keepdims=True) + 1e-5) * gamma
        + beta
    )
    np.testing.assert_allclose(normed, expected, rtol=1e-3, atol=1e-4)
    order = np.argsort(-scores, axis=2, kind="stable")[:, :, :2]
    np.testing.assert_array_equal(top_indices, order)
    np.testing.assert_allclose(
        top_values, np.take_along_axis(scores, order, axis=2), rtol=1e-5
    )
