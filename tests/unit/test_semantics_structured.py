"""Linalg structured ops on the interpreter (linalg_ext.semantics.structured),
against numpy computations written here from the ops' definitions.

Which strategy ran (whole space, stepwise, interpreter; docs/interpreter.md)
is checked where a test is about one of them. Programs with several tensor
results spell `linalg.generic` in the generic op format, which xDSL and MLIR
both read whatever the custom syntax of the result types.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from xdsl.dialects.builtin import MemRefType, TensorType
from xdsl.dialects.linalg import ops as linalg
from xdsl.utils.exceptions import InterpretationError

from helpers import parse_module
from linalg_ext.running import find_function, make_interpreter, run_function
from linalg_ext.semantics.arrays import numpy_view, shaped_array
from linalg_ext.semantics.structured import strategy_used, vectorised

RNG = np.random.default_rng(11)


def run(source: str, name: str, *inputs):
    return run_function(parse_module(source), name, list(inputs))


def run_traced(source: str, name: str, *inputs):
    """The results of `@name`, and the strategy each structured op ran with."""
    module = parse_module(source)
    interpreter = make_interpreter(module)
    function = find_function(module, name)
    args = []
    for value, type_ in zip(inputs, function.function_type.inputs.data, strict=True):
        if isinstance(type_, TensorType | MemRefType):
            args.append(shaped_array(np.asarray(value), type_.get_element_type()))
        else:
            args.append(value)
    results = interpreter.call_op(name, tuple(args))
    strategies = [
        strategy_used(interpreter, op)
        for op in function.walk()
        if isinstance(op, linalg.GenericOp | linalg.ReduceOp)
    ]
    arrays = [numpy_view(r).copy() for r in results]
    return arrays, strategies


def random(*shape, dtype=np.float32):
    return RNG.uniform(-1, 1, size=shape).astype(dtype)


def wrap(values, bits):
    """Python integers modulo 2**bits, as signed numbers."""
    half = 1 << (bits - 1)
    return np.array([((int(v) + half) % (1 << bits)) - half for v in np.ravel(values)])


# --------------------------------------------------------------------------
# Pointwise generics
# --------------------------------------------------------------------------

ELEMENTWISE = """
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @tensor(%a: tensor<8x16xf32>, %b: tensor<8x16xf32>, %c: tensor<8x16xf32>,
                  %init: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %r = linalg.generic {indexing_maps = [#id, #id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a, %b, %c : tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>) outs(%init : tensor<8x16xf32>) {
  ^bb0(%x: f32, %y: f32, %z: f32, %o: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %p, %z : f32
    %e = math.exp %s : f32
    linalg.yield %e : f32
  } -> tensor<8x16xf32>
  return %r : tensor<8x16xf32>
}
func.func @memref(%a: memref<8x16xf32>, %b: memref<8x16xf32>, %c: memref<8x16xf32>, %out: memref<8x16xf32>) {
  linalg.generic {indexing_maps = [#id, #id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a, %b, %c : memref<8x16xf32>, memref<8x16xf32>, memref<8x16xf32>) outs(%out : memref<8x16xf32>) {
  ^bb0(%x: f32, %y: f32, %z: f32, %o: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %p, %z : f32
    %e = math.exp %s : f32
    linalg.yield %e : f32
  }
  return
}
"""


def test_elementwise_generic_runs_over_the_whole_space():
    a, b, c, init = (random(8, 16) for _ in range(4))
    (result,), strategies = run_traced(ELEMENTWISE, "tensor", a, b, c, init)
    np.testing.assert_allclose(result, np.exp(a * b + c), rtol=1e-6)
    assert result.dtype == np.float32
    assert strategies == ["whole space"]


def test_elementwise_generic_leaves_its_init_tensor_alone():
    a, b, c, init = (random(8, 16) for _ in range(4))
    tensor_run = run(ELEMENTWISE, "tensor", a, b, c, init)
    np.testing.assert_array_equal(tensor_run.arguments[3], init)


def test_elementwise_generic_on_memrefs_writes_in_place():
    a, b, c = (random(8, 16) for _ in range(3))
    memref_run = run(ELEMENTWISE, "memref", a, b, c, np.zeros((8, 16), np.float32))
    np.testing.assert_allclose(memref_run.arguments[3], np.exp(a * b + c), rtol=1e-6)


TWO_RESULTS = """
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @tensor(%a: tensor<3x4xf32>, %b: tensor<3x4xf32>, %s0: tensor<3x4xf32>, %p0: tensor<3x4xf32>)
    -> (tensor<3x4xf32>, tensor<3x4xf32>) {
  %r:2 = "linalg.generic"(%a, %b, %s0, %p0) <{indexing_maps = [#id, #id, #id, #id],
      iterator_types = [#linalg.iterator_type<parallel>, #linalg.iterator_type<parallel>],
      operandSegmentSizes = array<i32: 2, 2>}> ({
  ^bb0(%x: f32, %y: f32, %s: f32, %p: f32):
    %sum = arith.addf %x, %y : f32
    %prod = arith.mulf %x, %y : f32
    linalg.yield %sum, %prod : f32, f32
  }) : (tensor<3x4xf32>, tensor<3x4xf32>, tensor<3x4xf32>, tensor<3x4xf32>) -> (tensor<3x4xf32>, tensor<3x4xf32>)
  return %r#0, %r#1 : tensor<3x4xf32>, tensor<3x4xf32>
}
func.func @swap(%a: tensor<3x4xf32>, %b: tensor<3x4xf32>) -> (tensor<3x4xf32>, tensor<3x4xf32>) {
  %r:2 = "linalg.generic"(%a, %b) <{indexing_maps = [#id, #id],
      iterator_types = [#linalg.iterator_type<parallel>, #linalg.iterator_type<parallel>],
      operandSegmentSizes = array<i32: 0, 2>}> ({
  ^bb0(%x: f32, %y: f32):
    linalg.yield %y, %x : f32, f32
  }) : (tensor<3x4xf32>, tensor<3x4xf32>) -> (tensor<3x4xf32>, tensor<3x4xf32>)
  return %r#0, %r#1 : tensor<3x4xf32>, tensor<3x4xf32>
}
func.func @swap_memref(%a: memref<3x4xf32>, %b: memref<3x4xf32>) {
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      outs(%a, %b : memref<3x4xf32>, memref<3x4xf32>) {
  ^bb0(%x: f32, %y: f32):
    linalg.yield %y, %x : f32, f32
  }
  return
}
"""


def test_each_result_of_a_generic_gets_its_own_values():
    a, b = random(3, 4), random(3, 4)
    zeros = np.zeros((3, 4), np.float32)
    total, product = run(TWO_RESULTS, "tensor", a, b, zeros, zeros).results
    np.testing.assert_allclose(total, a + b)
    np.testing.assert_allclose(product, a * b)


@pytest.mark.parametrize("form", ["swap", "swap_memref"])
def test_outputs_yielding_each_other_swap(form):
    a, b = random(3, 4), random(3, 4)
    result = run(TWO_RESULTS, form, a, b)
    swapped = result.results if form == "swap" else result.arguments
    np.testing.assert_array_equal(swapped[0], b)
    np.testing.assert_array_equal(swapped[1], a)


BROADCASTS = """
func.func @f(%row: tensor<5xf32>, %col: tensor<4xf32>, %t: tensor<5x4xf32>, %first: tensor<3x5xf32>,
             %k: f32, %init: tensor<4x5xf32>) -> tensor<4x5xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i)>,
                                        affine_map<(i, j) -> (j, i)>, affine_map<(i, j) -> (0, j)>,
                                        affine_map<(i, j) -> ()>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%row, %col, %t, %first, %k : tensor<5xf32>, tensor<4xf32>, tensor<5x4xf32>, tensor<3x5xf32>, f32)
      outs(%init : tensor<4x5xf32>) {
  ^bb0(%r: f32, %c: f32, %tt: f32, %f: f32, %kk: f32, %o: f32):
    %m = arith.mulf %c, %tt : f32
    %s = arith.addf %r, %m : f32
    %d = arith.subf %s, %f : f32
    %scaled = arith.mulf %d, %kk : f32
    linalg.yield %scaled : f32
  } -> tensor<4x5xf32>
  return %r : tensor<4x5xf32>
}
"""


def test_broadcast_transposed_constant_and_scalar_operands():
    row, col, t, first = random(5), random(4), random(5, 4), random(3, 5)
    k = np.float32(1.5)
    (result,) = run(
        BROADCASTS, "f", row, col, t, first, k, np.zeros((4, 5), np.float32)
    ).results
    expected = np.empty((4, 5), np.float32)
    for i, j in itertools.product(range(4), range(5)):
        expected[i, j] = (row[j] + col[i] * t[j, i] - first[0, j]) * k
    np.testing.assert_allclose(result, expected, rtol=1e-6)


INDEX = """
func.func @f(%init: tensor<3x4x2xf32>) -> tensor<3x4x2xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (i, j, k)>],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      outs(%init : tensor<3x4x2xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %k = linalg.index 2 : index
    %c100 = arith.constant 100 : index
    %c10 = arith.constant 10 : index
    %i100 = arith.muli %i, %c100 : index
    %j10 = arith.muli %j, %c10 : index
    %s = arith.addi %i100, %j10 : index
    %t = arith.addi %s, %k : index
    %n = arith.index_cast %t : index to i64
    %f = arith.sitofp %n : i64 to f32
    linalg.yield %f : f32
  } -> tensor<3x4x2xf32>
  return %r : tensor<3x4x2xf32>
}
"""


def test_linalg_index_gives_the_loop_positions():
    (result,) = run(INDEX, "f", np.zeros((3, 4, 2), np.float32)).results
    i, j, k = np.indices((3, 4, 2))
    np.testing.assert_array_equal(result, 100 * i + 10 * j + k)


AFFINE = """
func.func @correlate(%x: tensor<10xf32>, %w: tensor<3xf32>, %init: tensor<8xf32>) -> tensor<8xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(i, k) -> (i + k)>, affine_map<(i, k) -> (k)>,
                                        affine_map<(i, k) -> (i)>],
                       iterator_types = ["parallel", "reduction"]}
      ins(%x, %w : tensor<10xf32>, tensor<3xf32>) outs(%init : tensor<8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  return %r : tensor<8xf32>
}
func.func @upsample(%x: tensor<4x3xf32>, %init: tensor<8x3xf32>) -> tensor<8x3xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i floordiv 2, (j * 2 + 1) mod 3)>,
                                        affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x3xf32>) outs(%init : tensor<8x3xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<8x3xf32>
  return %r : tensor<8x3xf32>
}
"""


def test_sum_over_an_index_expression_of_two_loops():
    x, w, init = random(10), random(3), random(8)
    (result,), strategies = run_traced(AFFINE, "correlate", x, w, init)
    expected = [init[i] + sum(x[i + k] * w[k] for k in range(3)) for i in range(8)]
    np.testing.assert_allclose(result, expected, rtol=1e-5)
    assert strategies == ["whole space"]


def test_floordiv_and_mod_in_an_indexing_map():
    x = random(4, 3)
    (result,) = run(AFFINE, "upsample", x, np.zeros((8, 3), np.float32)).results
    expected = [[x[i // 2, (j * 2 + 1) % 3] for j in range(3)] for i in range(8)]
    np.testing.assert_array_equal(result, expected)


# --------------------------------------------------------------------------
# Reductions
# --------------------------------------------------------------------------

REDUCTIONS = """
func.func @row_sum(%a: tensor<6x7xf64>, %init: tensor<6xf64>) -> tensor<6xf64> {
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>],
                       iterator_types = ["parallel", "reduction"]}
      ins(%a : tensor<6x7xf64>) outs(%init : tensor<6xf64>) {
  ^bb0(%x: f64, %acc: f64):
    %s = arith.addf %acc, %x : f64
    linalg.yield %s : f64
  } -> tensor<6xf64>
  return %r : tensor<6xf64>
}
func.func @column_max(%a: tensor<6x7xf32>, %init: tensor<7xf32>) -> tensor<7xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(j, i) -> (i, j)>, affine_map<(j, i) -> (j)>],
                       iterator_types = ["parallel", "reduction"]}
      ins(%a : tensor<6x7xf32>) outs(%init : tensor<7xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %m = arith.maximumf %x, %acc : f32
    linalg.yield %m : f32
  } -> tensor<7xf32>
  return %r : tensor<7xf32>
}
func.func @sum_of_squares(%a: tensor<6x7xf64>, %init: tensor<f64>) -> tensor<f64> {
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> ()>],
                       iterator_types = ["reduction", "reduction"]}
      ins(%a : tensor<6x7xf64>) outs(%init : tensor<f64>) {
  ^bb0(%x: f64, %acc: f64):
    %sq = arith.mulf %x, %x : f64
    %s = arith.addf %sq, %acc : f64
    linalg.yield %s : f64
  } -> tensor<f64>
  return %r : tensor<f64>
}
func.func @int8_sum(%a: tensor<4x50xi8>, %init: tensor<4xi8>) -> tensor<4xi8> {
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>],
                       iterator_types = ["parallel", "reduction"]}
      ins(%a : tensor<4x50xi8>) outs(%init : tensor<4xi8>) {
  ^bb0(%x: i8, %acc: i8):
    %s = arith.addi %acc, %x : i8
    linalg.yield %s : i8
  } -> tensor<4xi8>
  return %r : tensor<4xi8>
}
func.func @last(%a: tensor<6x7xf32>, %init: tensor<6xf32>) -> tensor<6xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>],
                       iterator_types = ["parallel", "reduction"]}
      ins(%a : tensor<6x7xf32>) outs(%init : tensor<6xf32>) {
  ^bb0(%x: f32, %acc: f32):
    linalg.yield %x : f32
  } -> tensor<6xf32>
  return %r : tensor<6xf32>
}
"""


def test_row_sum():
    a, init = random(6, 7, dtype=np.float64), random(6, dtype=np.float64)
    (result,), strategies = run_traced(REDUCTIONS, "row_sum", a, init)
    expected = [init[i] + sum(a[i, j] for j in range(7)) for i in range(6)]
    np.testing.assert_allclose(result, expected, rtol=1e-12)
    assert strategies == ["whole space"]


def test_column_max_through_a_transposed_map():
    a = random(6, 7)
    init = np.full(7, -np.inf, np.float32)
    (result,) = run(REDUCTIONS, "column_max", a, init).results
    np.testing.assert_array_equal(result, [max(a[:, j]) for j in range(7)])


def test_maximumf_reduction_propagates_nan_and_orders_signed_zeros():
    a = np.zeros((6, 7), np.float32)
    a[:, 0] = -0.0
    a[2, 0] = 0.0  # column 0 holds both zeros: the maximum is +0.0
    a[:, 1] = -0.0  # column 1 only -0.0
    a[3, 2] = np.nan
    init = np.full(7, -np.inf, np.float32)
    (result,) = run(REDUCTIONS, "column_max", a, init).results
    assert result[0] == 0 and not np.signbit(result[0])
    assert result[1] == 0 and np.signbit(result[1])
    assert np.isnan(result[2])


def test_full_reduction_into_a_rank_0_tensor():
    a = random(6, 7, dtype=np.float64)
    (result,) = run(REDUCTIONS, "sum_of_squares", a, np.array(2.0)).results
    assert result.shape == ()
    np.testing.assert_allclose(result, 2.0 + sum(v * v for v in a.ravel()))


def test_integer_sum_wraps_around():
    a = RNG.integers(-128, 128, size=(4, 50)).astype(np.int8)
    init = np.array([100, -100, 0, 127], np.int8)
    (result,) = run(REDUCTIONS, "int8_sum", a, init).results
    expected = wrap([int(init[i]) + sum(int(v) for v in a[i]) for i in range(4)], 8)
    np.testing.assert_array_equal(result, expected)


def test_a_value_not_reading_the_accumulator_is_the_last_one_written():
    a = random(6, 7)
    (result,) = run(REDUCTIONS, "last", a, np.zeros(6, np.float32)).results
    np.testing.assert_array_equal(result, a[:, 6])


ARGMAX = """
#in = affine_map<(i, j) -> (i, j)>
#out = affine_map<(i, j) -> (i)>
func.func @rows(%a: tensor<5x9xf32>, %m0: tensor<5xf32>, %i0: tensor<5xi64>) -> (tensor<5xf32>, tensor<5xi64>) {
  %r:2 = "linalg.generic"(%a, %m0, %i0) <{indexing_maps = [#in, #out, #out],
      iterator_types = [#linalg.iterator_type<parallel>, #linalg.iterator_type<reduction>],
      operandSegmentSizes = array<i32: 1, 2>}> ({
  ^bb0(%x: f32, %best: f32, %at: i64):
    %j = linalg.index 1 : index
    %jj = arith.index_cast %j : index to i64
    %gt = arith.cmpf ogt, %x, %best : f32
    %nb = arith.select %gt, %x, %best : f32
    %na = arith.select %gt, %jj, %at : i64
    linalg.yield %nb, %na : f32, i64
  }) : (tensor<5x9xf32>, tensor<5xf32>, tensor<5xi64>) -> (tensor<5xf32>, tensor<5xi64>)
  return %r#0, %r#1 : tensor<5xf32>, tensor<5xi64>
}
func.func @vector(%a: tensor<9xf32>, %m0: tensor<f32>, %i0: tensor<i64>) -> (tensor<f32>, tensor<i64>) {
  %r:2 = "linalg.generic"(%a, %m0, %i0) <{indexing_maps = [affine_map<(j) -> (j)>, affine_map<(j) -> ()>, affine_map<(j) -> ()>],
      iterator_types = [#linalg.iterator_type<reduction>],
      operandSegmentSizes = array<i32: 1, 2>}> ({
  ^bb0(%x: f32, %best: f32, %at: i64):
    %j = linalg.index 0 : index
    %jj = arith.index_cast %j : index to i64
    %gt = arith.cmpf ogt, %x, %best : f32
    %nb = arith.select %gt, %x, %best : f32
    %na = arith.select %gt, %jj, %at : i64
    linalg.yield %nb, %na : f32, i64
  }) : (tensor<9xf32>, tensor<f32>, tensor<i64>) -> (tensor<f32>, tensor<i64>)
  return %r#0, %r#1 : tensor<f32>, tensor<i64>
}
"""


def test_argmax_is_run_one_reduction_step_at_a_time():
    a = random(5, 9)
    a[1, 3] = a[1, 7] = 5.0  # a tie: the first one wins (ogt)
    m0 = np.full(5, -np.inf, np.float32)
    (best, at), strategies = run_traced(ARGMAX, "rows", a, m0, np.zeros(5, np.int64))
    np.testing.assert_array_equal(best, a.max(axis=1))
    np.testing.assert_array_equal(at, [list(row).index(max(row)) for row in a])
    assert strategies == ["stepwise"]


def test_argmax_of_a_vector_runs_on_the_interpreter():
    a = random(9)
    m0, i0 = np.array(-np.inf, np.float32), np.array(0, np.int64)
    (best, at), strategies = run_traced(ARGMAX, "vector", a, m0, i0)
    assert best == a.max() and at == list(a).index(max(a))
    assert strategies == ["interpreter"]


# --------------------------------------------------------------------------
# The interpreter fallback
# --------------------------------------------------------------------------

FALLBACK = """
func.func @abs_sum(%a: tensor<4x6xf32>, %init: tensor<4xf32>) -> tensor<4xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>],
                       iterator_types = ["parallel", "reduction"]}
      ins(%a : tensor<4x6xf32>) outs(%init : tensor<4xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %zero = arith.constant 0.0 : f32
    %positive = arith.cmpf ogt, %x, %zero : f32
    %magnitude = scf.if %positive -> (f32) {
      scf.yield %x : f32
    } else {
      %negated = arith.subf %zero, %x : f32
      scf.yield %negated : f32
    }
    %j = linalg.index 1 : index
    %jj = arith.index_cast %j : index to i64
    %w = arith.sitofp %jj : i64 to f32
    %weighted = arith.mulf %magnitude, %w : f32
    %s = arith.addf %acc, %weighted : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}
func.func @in_place(%a: memref<5xf32>) {
  linalg.generic {indexing_maps = [affine_map<(i) -> (0)>, affine_map<(i) -> (i)>],
                  iterator_types = ["parallel"]}
      ins(%a : memref<5xf32>) outs(%a : memref<5xf32>) {
  ^bb0(%first: f32, %o: f32):
    %s = arith.addf %first, %o : f32
    linalg.yield %s : f32
  }
  return
}
"""


def test_a_body_with_a_region_runs_on_the_interpreter():
    a, init = random(4, 6), random(4)
    (result,), strategies = run_traced(FALLBACK, "abs_sum", a, init)
    expected = [init[i] + sum(abs(a[i, j]) * j for j in range(6)) for i in range(4)]
    np.testing.assert_allclose(result, expected, rtol=1e-5)
    assert strategies == ["interpreter"]


def test_a_memref_read_and_written_by_the_same_op_is_updated_in_loop_order():
    a = np.array([1, 2, 3, 4, 5], np.float32)
    _, strategies = run_traced(FALLBACK, "in_place", a)
    result = run(FALLBACK, "in_place", a).arguments[0]
    # Iteration 0 doubles a[0]; the later ones read the doubled value.
    np.testing.assert_array_equal(result, [2, 4, 5, 6, 7])
    assert strategies == ["interpreter"]


# --------------------------------------------------------------------------
# Dynamic shapes, chunks, captured values, errors
# --------------------------------------------------------------------------

DYNAMIC = """
func.func @f(%a: tensor<?x?xf32>, %b: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<?x?xf32>) outs(%b : tensor<?x?xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.addf %x, %o : f32
    linalg.yield %s : f32
  } -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}
func.func @out_of_bounds(%x: tensor<?xf32>, %init: tensor<4x3xf32>) -> tensor<4x3xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i + j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<?xf32>) outs(%init : tensor<4x3xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<4x3xf32>
  return %r : tensor<4x3xf32>
}
"""


def test_loop_ranges_come_from_the_runtime_shapes():
    a, b = random(3, 7), random(3, 7)
    (result,) = run(DYNAMIC, "f", a, b).results
    np.testing.assert_allclose(result, a + b)
    (empty,) = run(DYNAMIC, "f", np.zeros((0, 7), np.float32), random(0, 7)).results
    assert empty.shape == (0, 7)


def test_operands_disagreeing_on_a_loop_range_are_an_error():
    with pytest.raises(InterpretationError, match="linalg.generic: operand #1"):
        run(DYNAMIC, "f", random(3, 7), random(3, 8))


def test_reading_past_the_end_of_an_operand_is_an_error():
    (result,) = run(DYNAMIC, "out_of_bounds", random(6), random(4, 3)).results
    assert result.shape == (4, 3)
    with pytest.raises(InterpretationError, match="indices 0..5 in dimension 0"):
        run(DYNAMIC, "out_of_bounds", random(5), random(4, 3))


def test_chunked_evaluation_gives_the_same_values(monkeypatch):
    monkeypatch.setattr(vectorised, "CHUNK_POINTS", 7)
    a, b, c, init = (random(8, 16) for _ in range(4))
    (result,) = run(ELEMENTWISE, "tensor", a, b, c, init).results
    np.testing.assert_allclose(result, np.exp(a * b + c), rtol=1e-6)
    a64, init64 = random(6, 7, dtype=np.float64), random(6, dtype=np.float64)
    (sums,) = run(REDUCTIONS, "row_sum", a64, init64).results
    np.testing.assert_allclose(sums, init64 + a64.sum(axis=1), rtol=1e-12)
    x, w = random(10), random(3)
    (correlated,) = run(AFFINE, "correlate", x, w, np.zeros(8, np.float32)).results
    np.testing.assert_allclose(correlated, np.correlate(x, w, "valid"), rtol=1e-5)


GATHER = """
func.func @f(%table: tensor<10xf32>, %idx: tensor<6xi32>, %scale: f32) -> tensor<6xf32> {
  %init = tensor.empty() : tensor<6xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
                       iterator_types = ["parallel"]}
      ins(%idx : tensor<6xi32>) outs(%init : tensor<6xf32>) {
  ^bb0(%i: i32, %o: f32):
    %ii = arith.index_cast %i : i32 to index
    %v = tensor.extract %table[%ii] : tensor<10xf32>
    %s = arith.mulf %v, %scale : f32
    linalg.yield %s : f32
  } -> tensor<6xf32>
  return %r : tensor<6xf32>
}
"""


def test_body_reading_values_defined_outside_it():
    table = random(10)
    idx = np.array([9, 0, 3, 3, 7, 1], np.int32)
    (result,), strategies = run_traced(GATHER, "f", table, idx, 2.0)
    np.testing.assert_allclose(result, [table[i] * 2 for i in idx])
    assert strategies == ["whole space"]
    with pytest.raises(InterpretationError, match="tensor.extract: index"):
        run(GATHER, "f", table, np.array([0, 1, 2, 3, 4, 10], np.int32), 2.0)


# --------------------------------------------------------------------------
# Scalar semantics of the translated body
# --------------------------------------------------------------------------

INTEGERS = """
#id = affine_map<(i) -> (i)>
func.func @f(%x: memref<64xi32>, %y: memref<64xi32>, %div: memref<64xi32>, %rem: memref<64xi32>,
             %divu: memref<64xi32>, %ult: memref<64xi1>, %prod: memref<64xi32>, %narrow: memref<64xi8>,
             %widened: memref<64xi64>, %shifted: memref<64xi32>) {
  linalg.generic {indexing_maps = [#id, #id, #id, #id, #id, #id, #id, #id, #id, #id],
                  iterator_types = ["parallel"]}
      ins(%x, %y : memref<64xi32>, memref<64xi32>)
      outs(%div, %rem, %divu, %ult, %prod, %narrow, %widened, %shifted
           : memref<64xi32>, memref<64xi32>, memref<64xi32>, memref<64xi1>, memref<64xi32>,
             memref<64xi8>, memref<64xi64>, memref<64xi32>) {
  ^bb0(%a: i32, %b: i32, %o0: i32, %o1: i32, %o2: i32, %o3: i1, %o4: i32, %o5: i8, %o6: i64, %o7: i32):
    %d = arith.divsi %a, %b : i32
    %r = arith.remsi %a, %b : i32
    %du = arith.divui %a, %b : i32
    %lt = arith.cmpi ult, %a, %b : i32
    %p = arith.muli %a, %b : i32
    %t = arith.trunci %a : i32 to i8
    %w = arith.extui %t : i8 to i64
    %c3 = arith.constant 3 : i32
    %sh = arith.shrsi %a, %c3 : i32
    linalg.yield %d, %r, %du, %lt, %p, %t, %w, %sh : i32, i32, i32, i1, i32, i8, i64, i32
  }
  return
}
"""


def test_integer_ops_wrap_and_round_as_mlir_defines():
    x = RNG.integers(-(2**31), 2**31, size=64).astype(np.int32)
    y = RNG.integers(-1000, 1000, size=64).astype(np.int32)
    y[y == 0] = 7
    outputs = [
        np.zeros(64, t) for t in ("i4", "i4", "i4", "i1", "i4", "i1", "i8", "i4")
    ]
    outputs[3] = np.zeros(64, np.bool_)
    outputs[5] = np.zeros(64, np.int8)
    args = run(INTEGERS, "f", x, y, *outputs).arguments
    div, rem, divu, ult, prod, narrow, widened, shifted = args[2:]
    xs, ys = [int(v) for v in x], [int(v) for v in y]
    quotients = [
        abs(a) // abs(b) * (1 if (a < 0) == (b < 0) else -1)
        for a, b in zip(xs, ys, strict=True)
    ]
    np.testing.assert_array_equal(div, quotients)
    np.testing.assert_array_equal(
        rem, [a - b * q for a, b, q in zip(xs, ys, quotients, strict=True)]
    )
    unsigned = [(a % 2**32, b % 2**32) for a, b in zip(xs, ys, strict=True)]
    np.testing.assert_array_equal(divu, wrap([a // b for a, b in unsigned], 32))
    np.testing.assert_array_equal(ult != 0, [a < b for a, b in unsigned])
    np.testing.assert_array_equal(
        prod, wrap([a * b for a, b in zip(xs, ys, strict=True)], 32)
    )
    np.testing.assert_array_equal(narrow, wrap(xs, 8))
    np.testing.assert_array_equal(widened, [a % 256 for a in xs])
    np.testing.assert_array_equal(shifted, [a >> 3 for a in xs])


DIVIDE = """
func.func @f(%x: tensor<4xi32>, %y: tensor<4xi32>) -> tensor<4xi32> {
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
                       iterator_types = ["parallel"]}
      ins(%x : tensor<4xi32>) outs(%y : tensor<4xi32>) {
  ^bb0(%a: i32, %b: i32):
    %d = arith.divsi %a, %b : i32
    linalg.yield %d : i32
  } -> tensor<4xi32>
  return %r : tensor<4xi32>
}
"""


def test_integer_division_by_zero_is_an_error():
    x = np.array([1, 2, 3, 4], np.int32)
    with pytest.raises(InterpretationError, match="'arith.divsi' divides by zero"):
        run(DIVIDE, "f", x, np.array([1, 0, 1, 1], np.int32))


HALF = """
#id = affine_map<(i) -> (i)>
func.func @f(%a: tensor<256xf16>, %b: tensor<256xf16>, %c: tensor<256xf16>) -> tensor<256xf16> {
  %r = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
      ins(%a, %b : tensor<256xf16>, tensor<256xf16>) outs(%c : tensor<256xf16>) {
  ^bb0(%x: f16, %y: f16, %z: f16):
    %p = arith.mulf %x, %y : f16
    %s = arith.addf %p, %z : f16
    %wide = arith.extf %s : f16 to f32
    %e = math.exp %wide : f32
    %back = arith.truncf %e : f32 to f16
    linalg.yield %back : f16
  } -> tensor<256xf16>
  return %r : tensor<256xf16>
}
"""


def test_half_precision_rounds_after_every_op():
    a, b, c = (random(256, dtype=np.float16) * 2 for _ in range(3))
    (result,) = run(HALF, "f", a, b, c).results
    assert result.dtype == np.float16
    rounded = [
        np.float16(np.exp(np.float32(np.float16(np.float16(x * y) + z))))
        for x, y, z in zip(a, b, c, strict=True)
    ]
    np.testing.assert_array_equal(result, rounded)


# --------------------------------------------------------------------------
# Named ops
# --------------------------------------------------------------------------

NAMED_ELEMENTWISE = """
func.func @f(%a: tensor<3x4xf32>, %b: tensor<3x4xf32>, %c: tensor<3x4xi1>, %o: tensor<3x4xf32>)
    -> (tensor<3x4xf32>, tensor<3x4xf32>, tensor<3x4xf32>, tensor<3x4xf32>, tensor<3x4xf32>,
        tensor<3x4xf32>, tensor<3x4xf32>, tensor<3x4xf32>, tensor<3x4xf32>, tensor<3x4xf32>) {
  %add = linalg.add ins(%a, %b : tensor<3x4xf32>, tensor<3x4xf32>) outs(%o : tensor<3x4xf32>) -> tensor<3x4xf32>
  %sub = linalg.sub ins(%a, %b : tensor<3x4xf32>, tensor<3x4xf32>) outs(%o : tensor<3x4xf32>) -> tensor<3x4xf32>
  %mul = linalg.mul ins(%a, %b : tensor<3x4xf32>, tensor<3x4xf32>) outs(%o : tensor<3x4xf32>) -> tensor<3x4xf32>
  %max = linalg.max ins(%a, %b : tensor<3x4xf32>, tensor<3x4xf32>) outs(%o : tensor<3x4xf32>) -> tensor<3x4xf32>
  %min = linalg.min ins(%a, %b : tensor<3x4xf32>, tensor<3x4xf32>) outs(%o : tensor<3x4xf32>) -> tensor<3x4xf32>
  %exp = linalg.exp ins(%a : tensor<3x4xf32>) outs(%o : tensor<3x4xf32>) -> tensor<3x4xf32>
  %log = linalg.log ins(%b : tensor<3x4xf32>) outs(%o : tensor<3x4xf32>) -> tensor<3x4xf32>
  %sqrt = linalg.sqrt ins(%b : tensor<3x4xf32>) outs(%o : tensor<3x4xf32>) -> tensor<3x4xf32>
  %copy = linalg.copy ins(%a : tensor<3x4xf32>) outs(%o : tensor<3x4xf32>) -> tensor<3x4xf32>
  %sel = linalg.select ins(%c, %a, %b : tensor<3x4xi1>, tensor<3x4xf32>, tensor<3x4xf32>) outs(%o : tensor<3x4xf32>) -> tensor<3x4xf32>
  return %add, %sub, %mul, %max, %min, %exp, %log, %sqrt, %copy, %sel
      : tensor<3x4xf32>, tensor<3x4xf32>, tensor<3x4xf32>, tensor<3x4xf32>, tensor<3x4xf32>,
        tensor<3x4xf32>, tensor<3x4xf32>, tensor<3x4xf32>, tensor<3x4xf32>, tensor<3x4xf32>
}
func.func @ints(%a: memref<5xi32>, %b: memref<5xi32>, %o: memref<5xi32>) {
  linalg.add ins(%a, %b : memref<5xi32>, memref<5xi32>) outs(%o : memref<5xi32>)
  return
}
"""


def test_named_elementwise_ops():
    a = random(3, 4)
    b = np.abs(random(3, 4)) + 0.5
    c = RNG.integers(0, 2, size=(3, 4)).astype(np.bool_)
    o = random(3, 4)
    results = run(NAMED_ELEMENTWISE, "f", a, b, c, o).results
    expected = [
        a + b,
        a - b,
        a * b,
        np.maximum(a, b),
        np.minimum(a, b),
        np.exp(a),
        np.log(b),
        np.sqrt(b),
        a,
        np.where(c, a, b),
    ]
    for got, want in zip(results, expected, strict=True):
        np.testing.assert_allclose(got, want, rtol=1e-6)


def test_named_add_on_integer_memrefs_wraps():
    a = np.array([2**31 - 1, -5, 0, 7, -(2**31)], np.int32)
    b = np.array([1, 5, 0, -8, -1], np.int32)
    out = run(NAMED_ELEMENTWISE, "ints", a, b, np.zeros(5, np.int32)).arguments[2]
    np.testing.assert_array_equal(
        out, wrap([int(x) + int(y) for x, y in zip(a, b, strict=True)], 32)
    )


SHAPE_OPS = """
func.func @transpose(%x: tensor<2x3x4xf32>, %init: tensor<4x2x3xf32>) -> tensor<4x2x3xf32> {
  %t = linalg.transpose ins(%x : tensor<2x3x4xf32>) outs(%init : tensor<4x2x3xf32>) permutation = [2, 0, 1]
  return %t : tensor<4x2x3xf32>
}
func.func @broadcast(%x: tensor<3xf32>, %init: tensor<2x3x4xf32>) -> tensor<2x3x4xf32> {
  %b = linalg.broadcast ins(%x : tensor<3xf32>) outs(%init : tensor<2x3x4xf32>) dimensions = [0, 2]
  return %b : tensor<2x3x4xf32>
}
func.func @transpose_memref(%x: memref<2x3xi16>, %out: memref<3x2xi16>) {
  linalg.transpose ins(%x : memref<2x3xi16>) outs(%out : memref<3x2xi16>) permutation = [1, 0]
  return
}
"""


def test_transpose_and_broadcast():
    x = random(2, 3, 4)
    (t,) = run(SHAPE_OPS, "transpose", x, np.zeros((4, 2, 3), np.float32)).results
    for i, j, k in itertools.product(range(2), range(3), range(4)):
        assert t[k, i, j] == x[i, j, k]
    v = random(3)
    (b,) = run(SHAPE_OPS, "broadcast", v, np.zeros((2, 3, 4), np.float32)).results
    for i, j, k in itertools.product(range(2), range(3), range(4)):
        assert b[i, j, k] == v[j]
    m = np.arange(6, dtype=np.int16).reshape(2, 3)
    out = run(SHAPE_OPS, "transpose_memref", m, np.zeros((3, 2), np.int16)).arguments[1]
    np.testing.assert_array_equal(out, [[0, 3], [1, 4], [2, 5]])


REDUCE = """
func.func @sum(%x: tensor<3x4x5xf64>, %init: tensor<4xf64>) -> tensor<4xf64> {
  %r = linalg.reduce ins(%x : tensor<3x4x5xf64>) outs(%init : tensor<4xf64>) dimensions = [0, 2]
    (%in: f64, %acc: f64) {
      %s = arith.addf %in, %acc : f64
      linalg.yield %s : f64
    }
  return %r : tensor<4xf64>
}
func.func @decay(%x: tensor<3x6xf64>, %init: tensor<3xf64>) -> tensor<3xf64> {
  %r = linalg.reduce ins(%x : tensor<3x6xf64>) outs(%init : tensor<3xf64>) dimensions = [1]
    (%in: f64, %acc: f64) {
      %half = arith.constant 0.5 : f64
      %h = arith.mulf %acc, %half : f64
      %s = arith.addf %h, %in : f64
      linalg.yield %s : f64
    }
  return %r : tensor<3xf64>
}
func.func @max_memref(%x: memref<4x3xi32>, %out: memref<3xi32>) {
  linalg.reduce ins(%x : memref<4x3xi32>) outs(%out : memref<3xi32>) dimensions = [0]
    (%in: i32, %acc: i32) {
      %m = arith.maxsi %in, %acc : i32
      linalg.yield %m : i32
    }
  return
}
"""


def test_reduce_with_an_associative_combiner():
    x, init = random(3, 4, 5, dtype=np.float64), random(4, dtype=np.float64)
    (result,), strategies = run_traced(REDUCE, "sum", x, init)
    expected = [
        init[j] + sum(x[i, j, k] for i in range(3) for k in range(5)) for j in range(4)
    ]
    np.testing.assert_allclose(result, expected, rtol=1e-12)
    assert strategies == ["whole space"]


def test_reduce_with_another_body_runs_stepwise_in_order():
    x, init = random(3, 6, dtype=np.float64), random(3, dtype=np.float64)
    (result,), strategies = run_traced(REDUCE, "decay", x, init)
    expected = []
    for i in range(3):
        acc = init[i]
        for j in range(6):
            acc = acc * 0.5 + x[i, j]
        expected.append(acc)
    np.testing.assert_allclose(result, expected, rtol=1e-12)
    assert strategies == ["stepwise"]


def test_reduce_on_memrefs():
    x = RNG.integers(-50, 50, size=(4, 3)).astype(np.int32)
    out = np.full(3, -1000, np.int32)
    result = run(REDUCE, "max_memref", x, out).arguments[1]
    np.testing.assert_array_equal(result, [max(x[:, j]) for j in range(3)])


MATMUL = """
func.func @f32(%a: tensor<5x3xf32>, %b: tensor<3x4xf32>, %c: tensor<5x4xf32>) -> tensor<5x4xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<5x3xf32>, tensor<3x4xf32>) outs(%c : tensor<5x4xf32>) -> tensor<5x4xf32>
  return %r : tensor<5x4xf32>
}
func.func @i32(%a: memref<2x2xi32>, %b: memref<2x2xi32>, %c: memref<2x2xi32>) {
  linalg.matmul ins(%a, %b : memref<2x2xi32>, memref<2x2xi32>) outs(%c : memref<2x2xi32>)
  return
}
func.func @dynamic(%a: tensor<?x?xf64>, %b: tensor<?x?xf64>, %c: tensor<?x?xf64>) -> tensor<?x?xf64> {
  %r = linalg.matmul ins(%a, %b : tensor<?x?xf64>, tensor<?x?xf64>) outs(%c : tensor<?x?xf64>) -> tensor<?x?xf64>
  return %r : tensor<?x?xf64>
}
func.func @generic(%a: tensor<5x3xf32>, %b: tensor<3x4xf32>, %c: tensor<5x4xf32>) -> tensor<5x4xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>,
                                        affine_map<(i, j, k) -> (i, j)>],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<5x3xf32>, tensor<3x4xf32>) outs(%c : tensor<5x4xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<5x4xf32>
  return %r : tensor<5x4xf32>
}
"""


def matmul_by_loops(a, b, c):
    return [
        [
            c[i, j] + sum(a[i, k] * b[k, j] for k in range(a.shape[1]))
            for j in range(b.shape[1])
        ]
        for i in range(a.shape[0])
    ]


@pytest.mark.parametrize("name", ["f32", "generic"])
def test_matmul(name):
    a, b, c = random(5, 3), random(3, 4), random(5, 4)
    (result,) = run(MATMUL, name, a, b, c).results
    np.testing.assert_allclose(result, matmul_by_loops(a, b, c), rtol=1e-5)


def test_integer_matmul_on_memrefs_wraps():
    a = np.array([[2**30, 3], [-7, 1]], np.int32)
    b = np.array([[4, 1], [5, -2]], np.int32)
    c = np.array([[1, 2], [3, 4]], np.int32)
    out = run(MATMUL, "i32", a, b, c).arguments[2]
    expected = matmul_by_loops(a.astype(object), b.astype(object), c.astype(object))
    np.testing.assert_array_equal(out, np.reshape(wrap(expected, 32), (2, 2)))


def test_matmul_with_dynamic_shapes():
    a, b, c = (random(*s, dtype=np.float64) for s in ((2, 6), (6, 3), (2, 3)))
    (result,) = run(MATMUL, "dynamic", a, b, c).results
    np.testing.assert_allclose(result, matmul_by_loops(a, b, c), rtol=1e-12)
    with pytest.raises(InterpretationError, match="linalg.matmul"):
        run(MATMUL, "dynamic", a, random(5, 3, dtype=np.float64), c)


def conv_by_loops(x, w, init, layouts, strides, dilations):
    """Each output element summed over its window, element by element.

    Layout letters: H, W the input's spatial dimensions; h, w the filter's
    window position; the output's H, W are output positions."""
    in_layout, filter_layout, out_layout = layouts
    sizes = {
        **dict(zip(filter_layout, w.shape, strict=True)),
        **dict(zip(out_layout, init.shape, strict=True)),
    }
    summed = [letter for letter in filter_layout if letter not in out_layout]
    out = init.astype(np.float64)
    for out_index in np.ndindex(*init.shape):
        position = dict(zip(out_layout, out_index, strict=True))
        for window in itertools.product(*(range(sizes[s]) for s in summed)):
            p = {**position, **dict(zip(summed, window, strict=True))}
            row = p["H"] * strides[0] + p["h"] * dilations[0]
            col = p["W"] * strides[1] + p["w"] * dilations[1]
            x_index = tuple(
                row if s == "H" else col if s == "W" else p[s] for s in in_layout
            )
            out[out_index] += x[x_index] * w[tuple(p[s] for s in filter_layout)]
    return out


CONV = """
func.func @f(%x: tensor<XT>, %w: tensor<WT>, %o: tensor<OT>) -> tensor<OT> {
  %r = linalg.OP {dilations = dense<[DH, DW]> : tensor<2xi64>, strides = dense<[SH, SW]> : tensor<2xi64>}
      ins(%x, %w : tensor<XT>, tensor<WT>) outs(%o : tensor<OT>) -> tensor<OT>
  return %r : tensor<OT>
}
"""

# op, (input, filter, output layouts), sizes of the letters
CONVS = [
    ("conv_2d_nhwc_hwcf", ("nHWc", "hwcf", "nHWf")),
    ("conv_2d_nhwc_fhwc", ("nHWc", "fhwc", "nHWf")),
    ("conv_2d_nchw_fchw", ("ncHW", "fchw", "nfHW")),
    ("conv_2d_ngchw_fgchw", ("ngcHW", "fgchw", "ngfHW")),
    ("conv_2d_ngchw_gfchw", ("ngcHW", "gfchw", "ngfHW")),
    ("conv_2d_nhwgc_gfhwc", ("nHWgc", "gfhwc", "nHWgf")),
]


@pytest.mark.parametrize(("op", "layouts"), CONVS)
def test_convolutions_with_strides_and_dilations(op, layouts):
    strides, dilations = (2, 1), (1, 2)
    letters = {"n": 2, "c": 3, "f": 4, "g": 2, "h": 2, "w": 3, "H": 3, "W": 2}
    in_sizes = dict(letters)
    in_sizes["H"] = (
        (letters["H"] - 1) * strides[0] + (letters["h"] - 1) * dilations[0] + 1
    )
    in_sizes["W"] = (
        (letters["W"] - 1) * strides[1] + (letters["w"] - 1) * dilations[1] + 1
    )
    in_sizes["H"] += 1  # an input larger than the windows reach is fine
    in_layout, filter_layout, out_layout = layouts
    x_shape = [in_sizes[s] for s in in_layout]
    w_shape = [letters[s] for s in filter_layout]
    o_shape = [letters[s] for s in out_layout]

    def spelled(shape):
        return "x".join(map(str, shape)) + "xf64"

    source = (
        CONV.replace("OP", op)
        .replace("XT", spelled(x_shape))
        .replace("WT", spelled(w_shape))
        .replace("OT", spelled(o_shape))
        .replace("SH", str(strides[0]))
        .replace("SW", str(strides[1]))
        .replace("DH", str(dilations[0]))
        .replace("DW", str(dilations[1]))
    )
    x = random(*x_shape, dtype=np.float64)
    w = random(*w_shape, dtype=np.float64)
    init = random(*o_shape, dtype=np.float64)
    (result,) = run(source, "f", x, w, init).results
    expected = conv_by_loops(x, w, init, layouts, strides, dilations)
    np.testing.assert_allclose(result, expected, rtol=1e-12)


CONV_MEMREF = """
func.func @f(%x: memref<1x4x4x1xi32>, %w: memref<2x2x1x1xi32>, %o: memref<1x3x3x1xi32>) {
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : memref<1x4x4x1xi32>, memref<2x2x1x1xi32>) outs(%o : memref<1x3x3x1xi32>)
  return
}
func.func @dynamic(%x: tensor<1x?x?x1xf32>, %w: tensor<2x2x1x1xf32>, %o: tensor<1x3x3x1xf32>) -> tensor<1x3x3x1xf32> {
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x?x?x1xf32>, tensor<2x2x1x1xf32>) outs(%o : tensor<1x3x3x1xf32>) -> tensor<1x3x3x1xf32>
  return %r : tensor<1x3x3x1xf32>
}
"""


def test_integer_convolution_on_memrefs():
    x = np.arange(16, dtype=np.int32).reshape(1, 4, 4, 1)
    w = np.array([1, -1, 2, 0], np.int32).reshape(2, 2, 1, 1)
    out = run(CONV_MEMREF, "f", x, w, np.ones((1, 3, 3, 1), np.int32)).arguments[2]
    expected = conv_by_loops(
        x, w, np.ones((1, 3, 3, 1)), ("nHWc", "hwcf", "nHWf"), (1, 1), (1, 1)
    )
    np.testing.assert_array_equal(out, expected)


def test_convolution_input_smaller_than_its_windows_is_an_error():
    with pytest.raises(InterpretationError, match="linalg.conv_2d_nhwc_hwcf"):
        run(
            CONV_MEMREF,
            "dynamic",
            random(1, 3, 4, 1),
            random(2, 2, 1, 1),
            random(1, 3, 3, 1),
        )


POOL = """
func.func @f(%x: tensor<1x2x7x7xf32>, %k: tensor<3x3xf32>, %o: tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32> {
  %r = linalg.pooling_nchw_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%x, %k : tensor<1x2x7x7xf32>, tensor<3x3xf32>) outs(%o : tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
  return %r : tensor<1x2x3x3xf32>
}
"""


def test_max_pooling():
    x = random(1, 2, 7, 7)
    init = np.full((1, 2, 3, 3), -np.inf, np.float32)
    (result,) = run(POOL, "f", x, np.zeros((3, 3), np.float32), init).results
    expected = np.empty((1, 2, 3, 3), np.float32)
    for c, i, j in itertools.product(range(2), range(3), range(3)):
        expected[0, c, i, j] = max(
            x[0, c, 2 * i + a, 2 * j + b] for a in range(3) for b in range(3)
        )
    np.testing.assert_array_equal(result, expected)


QUANTIZED = """
func.func @f(%a: tensor<4x3xi8>, %b: tensor<3x5xi8>, %az: i32, %bz: i32, %c: tensor<4x5xi32>) -> tensor<4x5xi32> {
  %r = linalg.quantized_matmul ins(%a, %b, %az, %bz : tensor<4x3xi8>, tensor<3x5xi8>, i32, i32)
      outs(%c : tensor<4x5xi32>) -> tensor<4x5xi32>
  return %r : tensor<4x5xi32>
}
"""


def test_quantized_matmul_subtracts_the_zero_points():
    a = RNG.integers(-128, 128, size=(4, 3)).astype(np.int8)
    b = RNG.integers(-128, 128, size=(3, 5)).astype(np.int8)
    c = RNG.integers(-100, 100, size=(4, 5)).astype(np.int32)
    (result,) = run(QUANTIZED, "f", a, b, 3, -2, c).results
    shifted_a = [[int(v) - 3 for v in row] for row in a]
    shifted_b = [[int(v) + 2 for v in row] for row in b]
    expected = matmul_by_loops(np.array(shifted_a), np.array(shifted_b), c)
    np.testing.assert_array_equal(result, expected)
