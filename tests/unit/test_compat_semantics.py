"""The ops `linalg_ext.compat` adds, run on the interpreter, against an
independent computation of their upstream definition (written here element by
element with Python's own arithmetic, not with the interpreter's numpy)."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from xdsl.utils.exceptions import InterpretationError

from helpers import parse_module
from linalg_ext.running import run_function

RNG = np.random.default_rng(11)


def run(source: str, name: str, *inputs):
    return run_function(parse_module(source), name, list(inputs))


def random(*shape, dtype=np.float32, low=-1.0, high=1.0):
    return RNG.uniform(low, high, size=shape).astype(dtype)


# --------------------------------------------------------------------------
# linalg.map
# --------------------------------------------------------------------------

MAP = """
func.func @short(%a: tensor<3x4xf32>, %b: tensor<3x4xf32>, %init: tensor<3x4xf32>) -> tensor<3x4xf32> {
  %r = linalg.map { arith.subf } ins(%a, %b : tensor<3x4xf32>, tensor<3x4xf32>) outs(%init : tensor<3x4xf32>)
  return %r : tensor<3x4xf32>
}
func.func @with_init(%a: tensor<3x4xf32>, %init: tensor<3x4xf32>) -> tensor<3x4xf32> {
  %r = linalg.map ins(%a : tensor<3x4xf32>) outs(%init : tensor<3x4xf32>)
    (%x: f32, %acc: f32) {
      %p = arith.mulf %x, %x : f32
      %s = arith.addf %p, %acc : f32
      linalg.yield %s : f32
    }
  return %r : tensor<3x4xf32>
}
func.func @no_inputs(%init: tensor<5xi32>) -> tensor<5xi32> {
  %r = linalg.map outs(%init : tensor<5xi32>)
    (%old: i32) {
      %two = arith.constant 2 : i32
      %s = arith.muli %old, %two : i32
      linalg.yield %s : i32
    }
  return %r : tensor<5xi32>
}
func.func @buffers(%a: memref<?x2xi32>, %b: memref<?x2xi32>, %out: memref<?x2xi32>) {
  linalg.map { arith.maxsi } ins(%a, %b : memref<?x2xi32>, memref<?x2xi32>) outs(%out : memref<?x2xi32>)
  return
}
func.func @in_place(%a: memref<4xf32>) {
  linalg.map { arith.addf } ins(%a, %a : memref<4xf32>, memref<4xf32>) outs(%a : memref<4xf32>)
  return
}
"""


def elementwise(function, *arrays):
    """`function` applied to Python scalars at each index."""
    out = np.empty_like(arrays[-1])
    for index in np.ndindex(out.shape):
        out[index] = function(*(a[index].item() for a in arrays))
    return out


def test_map_short_form_applies_the_payload_to_the_inputs():
    a, b, init = random(3, 4), random(3, 4), random(3, 4)
    result = run(MAP, "short", a, b, init)
    np.testing.assert_array_equal(
        result.results[0], elementwise(lambda x, y, _: x - y, a, b, init)
    )
    # The tensor form leaves its init alone.
    np.testing.assert_array_equal(result.arguments[2], init)


def test_map_region_form_sees_the_init_element():
    a, init = random(3, 4), random(3, 4)
    (got,) = run(MAP, "with_init", a, init).results
    # In f32 arithmetic, each operation rounded, as the mapper computes it.
    f32 = np.float32
    np.testing.assert_array_equal(
        got, elementwise(lambda x, acc: f32(x) * f32(x) + f32(acc), a, init)
    )


def test_map_without_inputs_maps_the_init():
    init = np.arange(5, dtype=np.int32) - 2
    (got,) = run(MAP, "no_inputs", init).results
    np.testing.assert_array_equal(got, [2 * v for v in init.tolist()])


def test_map_on_memrefs_writes_the_init_in_place():
    a = RNG.integers(-9, 9, size=(3, 2)).astype(np.int32)
    b = RNG.integers(-9, 9, size=(3, 2)).astype(np.int32)
    out = np.zeros((3, 2), dtype=np.int32)
    result = run(MAP, "buffers", a, b, out)
    assert result.results == []
    np.testing.assert_array_equal(result.arguments[2], elementwise(max, a, b))


def test_map_with_its_init_as_input_reads_each_element_before_writing_it():
    a = random(4)
    result = run(MAP, "in_place", a)
    np.testing.assert_array_equal(result.arguments[0], [2 * v for v in a.tolist()])


# --------------------------------------------------------------------------
# linalg.batch_matmul
# --------------------------------------------------------------------------

BATCH_MATMUL = """
func.func @default(%a: tensor<2x3x4xf64>, %b: tensor<2x4x5xf64>, %c: tensor<2x3x5xf64>) -> tensor<2x3x5xf64> {
  %r = linalg.batch_matmul ins(%a, %b : tensor<2x3x4xf64>, tensor<2x4x5xf64>) outs(%c : tensor<2x3x5xf64>) -> tensor<2x3x5xf64>
  return %r : tensor<2x3x5xf64>
}
func.func @transposed_lhs(%at: tensor<2x4x3xf64>, %b: tensor<2x4x5xf64>, %c: tensor<2x3x5xf64>) -> tensor<2x3x5xf64> {
  %r = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d3, d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%at, %b : tensor<2x4x3xf64>, tensor<2x4x5xf64>) outs(%c : tensor<2x3x5xf64>) -> tensor<2x3x5xf64>
  return %r : tensor<2x3x5xf64>
}
func.func @shared_lhs(%a: tensor<3x4xf64>, %b: tensor<2x4x5xf64>, %c: tensor<2x3x5xf64>) -> tensor<2x3x5xf64> {
  %r = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>] ins(%a, %b : tensor<3x4xf64>, tensor<2x4x5xf64>) outs(%c : tensor<2x3x5xf64>) -> tensor<2x3x5xf64>
  return %r : tensor<2x3x5xf64>
}
func.func @widening(%a: memref<2x3x4xi8>, %b: memref<2x4x5xi8>, %c: memref<2x3x5xi32>) {
  linalg.batch_matmul ins(%a, %b : memref<2x3x4xi8>, memref<2x4x5xi8>) outs(%c : memref<2x3x5xi32>)
  return
}
"""


def batch_matmul_by_loops(lhs_at, rhs_at, init, k_extent, cast=lambda v: v):
    """C[b, m, n] + sum over k of lhs(b, m, k) * rhs(b, k, n), by loops."""
    out = init.copy()
    batch, rows, cols = init.shape
    for b, m, n in itertools.product(range(batch), range(rows), range(cols)):
        acc = out[b, m, n].item()
        for k in range(k_extent):
            acc += cast(lhs_at(b, m, k)) * cast(rhs_at(b, k, n))
        out[b, m, n] = acc
    return out


def test_batch_matmul_accumulates_into_the_init():
    a, b, c = (random(*s, dtype=np.float64) for s in ((2, 3, 4), (2, 4, 5), (2, 3, 5)))
    result = run(BATCH_MATMUL, "default", a, b, c)
    expected = batch_matmul_by_loops(
        lambda i, m, k: a[i, m, k].item(), lambda i, k, n: b[i, k, n].item(), c, 4
    )
    np.testing.assert_allclose(result.results[0], expected, rtol=1e-12)
    np.testing.assert_array_equal(result.arguments[2], c)


def test_batch_matmul_follows_its_indexing_maps():
    at, b, c = (random(*s, dtype=np.float64) for s in ((2, 4, 3), (2, 4, 5), (2, 3, 5)))
    (got,) = run(BATCH_MATMUL, "transposed_lhs", at, b, c).results
    expected = batch_matmul_by_loops(
        lambda i, m, k: at[i, k, m].item(), lambda i, k, n: b[i, k, n].item(), c, 4
    )
    np.testing.assert_allclose(got, expected, rtol=1e-12)

    a = random(3, 4, dtype=np.float64)
    (got,) = run(BATCH_MATMUL, "shared_lhs", a, b, c).results
    expected = batch_matmul_by_loops(
        lambda i, m, k: a[m, k].item(), lambda i, k, n: b[i, k, n].item(), c, 4
    )
    np.testing.assert_allclose(got, expected, rtol=1e-12)


def test_batch_matmul_widens_signed_inputs_and_wraps():
    a = RNG.integers(-128, 128, size=(2, 3, 4)).astype(np.int8)
    b = RNG.integers(-128, 128, size=(2, 4, 5)).astype(np.int8)
    c = np.full((2, 3, 5), 2**31 - 40000, dtype=np.int32)
    result = run(BATCH_MATMUL, "widening", a, b, c)
    expected = batch_matmul_by_loops(
        lambda i, m, k: int(a[i, m, k]),
        lambda i, k, n: int(b[i, k, n]),
        c.astype(np.int64),
        4,
    )
    wrapped = np.array(
        [(v + 2**31) % 2**32 - 2**31 for v in expected.flatten()], dtype=np.int64
    ).reshape(expected.shape)
    np.testing.assert_array_equal(result.arguments[2], wrapped)


# --------------------------------------------------------------------------
# Named elementwise ops
# --------------------------------------------------------------------------

UNARY = """
func.func @tensor(%x: tensor<2x3xf32>, %init: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %r = linalg.OP ins(%x : tensor<2x3xf32>) outs(%init : tensor<2x3xf32>) -> tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}
func.func @memref(%x: memref<2x3xf64>) {
  linalg.OP ins(%x : memref<2x3xf64>) outs(%x : memref<2x3xf64>)
  return
}
"""

UNARY_DEFINITIONS = {
    "negf": lambda x: -x,
    "abs": abs,
    "floor": math.floor,
    "ceil": math.ceil,
    "tanh": math.tanh,
    "rsqrt": lambda x: 1 / math.sqrt(x),
    "reciprocal": lambda x: 1 / x,
    "square": lambda x: x * x,
}


@pytest.mark.parametrize("op", sorted(UNARY_DEFINITIONS))
def test_unary_elementwise_ops(op):
    definition = UNARY_DEFINITIONS[op]
    # Positive inputs where the definition needs them (rsqrt), else any sign.
    low = 0.1 if op == "rsqrt" else -3.0
    source = UNARY.replace("OP", op)

    x, init = random(2, 3, low=low, high=3.0), random(2, 3)
    result = run(source, "tensor", x, init)
    np.testing.assert_allclose(
        result.results[0], elementwise(lambda v, _: definition(v), x, init), rtol=1e-6
    )
    np.testing.assert_array_equal(result.arguments[1], init)

    buffer = random(2, 3, dtype=np.float64, low=low, high=3.0)
    expected = elementwise(definition, buffer)
    result = run(source, "memref", buffer)
    np.testing.assert_allclose(result.arguments[0], expected, rtol=1e-12)


BINARY = """
func.func @floats(%x: tensor<6xf32>, %y: tensor<6xf32>, %init: tensor<6xf32>) -> tensor<6xf32> {
  %r = linalg.OP ins(%x, %y : tensor<6xf32>, tensor<6xf32>) outs(%init : tensor<6xf32>) -> tensor<6xf32>
  return %r : tensor<6xf32>
}
"""


def test_div_and_powf_on_floats():
    x, y, init = random(6, low=0.5, high=2.0), random(6, low=0.5, high=2.0), random(6)
    for op, definition in (
        ("div", lambda a, b, _: a / b),
        ("powf", lambda a, b, _: a**b),
    ):
        (got,) = run(BINARY.replace("OP", op), "floats", x, y, init).results
        np.testing.assert_allclose(got, elementwise(definition, x, y, init), rtol=1e-6)


INTEGER_DIV = """
func.func @div(%x: tensor<8xi32>, %y: tensor<8xi32>, %init: tensor<8xi32>) -> tensor<8xi32> {
  %r = linalg.div ins(%x, %y : tensor<8xi32>, tensor<8xi32>) outs(%init : tensor<8xi32>) -> tensor<8xi32>
  return %r : tensor<8xi32>
}
"""


def test_integer_div_rounds_toward_zero():
    x = np.array([7, -7, 7, -7, 0, 1, -100, 2**31 - 1], dtype=np.int32)
    y = np.array([2, 2, -2, -2, 5, 3, 7, 2], dtype=np.int32)
    (got,) = run(INTEGER_DIV, "div", x, y, np.zeros(8, np.int32)).results
    # math.trunc of the exact quotient: Python's // rounds down instead.
    expected = [math.trunc(a / b) for a, b in zip(x.tolist(), y.tolist(), strict=True)]
    np.testing.assert_array_equal(got, expected)


def test_integer_div_by_zero_is_an_interpretation_error():
    x = np.ones(8, dtype=np.int32)
    with pytest.raises(InterpretationError, match="divides an integer by zero"):
        run(INTEGER_DIV, "div", x, np.zeros(8, np.int32), x)


# --------------------------------------------------------------------------
# affine.max
# --------------------------------------------------------------------------

AFFINE_MAX = """
func.func @f(%i: index, %j: index, %n: index) -> index {
  %r = affine.max affine_map<(d0, d1)[s0] -> (d0 - d1, s0 floordiv 2, d1 * 3 - s0)>(%i, %j)[%n]
  return %r : index
}
"""


@pytest.mark.parametrize(
    ("i", "j", "n"), [(5, 1, 3), (0, 4, 9), (-3, -2, -7), (2, 2, 20)]
)
def test_affine_max_is_the_largest_result(i, j, n):
    (got,) = run(AFFINE_MAX, "f", i, j, n).results
    assert got == max(i - j, n // 2, j * 3 - n)


# --------------------------------------------------------------------------
# scf.forall and tensor.parallel_insert_slice
# --------------------------------------------------------------------------

FORALL = """
func.func @tiles(%t: tensor<8xi32>, %init: tensor<8xi32>) -> tensor<8xi32> {
  %r = scf.forall (%i) in (4) shared_outs(%o = %init) -> (tensor<8xi32>) {
    %offset = affine.apply affine_map<(d0) -> (d0 * 2)>(%i)
    %tile = tensor.generate {
    ^bb0(%k: index):
      %at = arith.addi %offset, %k : index
      %v = tensor.extract %t[%at] : tensor<8xi32>
      %sq = arith.muli %v, %v : i32
      tensor.yield %sq : i32
    } : tensor<2xi32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %tile into %o[%offset] [2] [1] : tensor<2xi32> into tensor<8xi32>
    }
  }
  return %r : tensor<8xi32>
}
func.func @strided(%lb: index, %ub: index, %step: index, %a: tensor<4x6xi32>, %b: tensor<6xi32>) -> (tensor<4x6xi32>, tensor<6xi32>) {
  %r:2 = scf.forall (%i, %j) = (%lb, 0) to (%ub, 3) step (%step, 1) shared_outs(%o = %a, %p = %b) -> (tensor<4x6xi32>, tensor<6xi32>) {
    %row = arith.index_cast %i : index to i32
    %col = arith.index_cast %j : index to i32
    %ten = arith.constant 10 : i32
    %scaled = arith.muli %row, %ten : i32
    %value = arith.addi %scaled, %col : i32
    %cell = tensor.generate {
    ^bb0(%u: index, %v: index):
      tensor.yield %value : i32
    } : tensor<1x1xi32>
    %flat = tensor.generate {
    ^bb0(%u: index):
      tensor.yield %col : i32
    } : tensor<1xi32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %cell into %o[%i, %j] [1, 1] [1, 2] : tensor<1x1xi32> into tensor<4x6xi32>
      tensor.parallel_insert_slice %flat into %p[%j] [1] [1] : tensor<1xi32> into tensor<6xi32>
    }
  }
  return %r#0, %r#1 : tensor<4x6xi32>, tensor<6xi32>
}
func.func @out_of_bounds(%init: tensor<4xi32>, %x: tensor<2xi32>) -> tensor<4xi32> {
  %r = scf.forall (%i) in (4) shared_outs(%o = %init) -> (tensor<4xi32>) {
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %x into %o[%i] [2] [1] : tensor<2xi32> into tensor<4xi32>
    }
  }
  return %r : tensor<4xi32>
}
func.func @no_outputs(%n: index, %step: index) {
  scf.forall (%i) = (0) to (%n) step (%step) {
  }
  return
}
"""


def test_forall_inserts_each_iterations_tile():
    t = np.arange(8, dtype=np.int32) - 3
    init = np.full(8, 99, dtype=np.int32)
    result = run(FORALL, "tiles", t, init)
    np.testing.assert_array_equal(result.results[0], [v * v for v in t.tolist()])
    # The shared output started as a copy: the init is unchanged.
    np.testing.assert_array_equal(result.arguments[1], init)


def test_forall_dynamic_bounds_strides_and_two_outputs():
    a = np.full((4, 6), -1, dtype=np.int32)
    b = np.full(6, -1, dtype=np.int32)
    r0, r1 = run(FORALL, "strided", 1, 4, 2, a, b).results
    expected_a, expected_b = a.copy(), b.copy()
    for i in range(1, 4, 2):
        for j in range(0, 3):
            # Offsets [i, j], sizes [1, 1], strides [1, 2]: one element at (i, j).
            expected_a[i, j] = 10 * i + j
            expected_b[j] = j
    np.testing.assert_array_equal(r0, expected_a)
    np.testing.assert_array_equal(r1, expected_b)


def test_forall_slice_out_of_bounds_is_an_interpretation_error():
    # The last iteration writes [3, 4], past the end of a tensor<4xi32>.
    with pytest.raises(
        InterpretationError,
        match="slice of dimension 0 .* is out of bounds of its size 4",
    ):
        run(FORALL, "out_of_bounds", np.zeros(4, np.int32), np.ones(2, np.int32))


def test_forall_with_a_non_positive_step_is_an_interpretation_error():
    with pytest.raises(InterpretationError, match="expects positive steps"):
        run(FORALL, "no_outputs", 4, 0)


# --------------------------------------------------------------------------
# tensor.generate
# --------------------------------------------------------------------------

GENERATE = """
func.func @table(%rows: index) -> tensor<?x3xi32> {
  %t = tensor.generate %rows {
  ^bb0(%i: index, %j: index):
    %seven = arith.constant 7 : index
    %scaled = arith.muli %i, %seven : index
    %sum = arith.addi %scaled, %j : index
    %v = arith.index_cast %sum : index to i32
    tensor.yield %v : i32
  } : tensor<?x3xi32>
  return %t : tensor<?x3xi32>
}
func.func @scalar(%x: f32) -> tensor<f32> {
  %t = tensor.generate {
    tensor.yield %x : f32
  } : tensor<f32>
  return %t : tensor<f32>
}
"""


@pytest.mark.parametrize("rows", [0, 1, 4])
def test_generate_yields_each_element_from_its_indices(rows):
    (got,) = run(GENERATE, "table", rows).results
    expected = np.array(
        [[7 * i + j for j in range(3)] for i in range(rows)], dtype=np.int32
    ).reshape(rows, 3)
    np.testing.assert_array_equal(got, expected)


def test_generate_of_rank_zero_runs_the_body_once():
    (got,) = run(GENERATE, "scalar", 2.5).results
    assert got.shape == () and got.item() == 2.5
