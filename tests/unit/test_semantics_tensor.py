"""The tensor ops on the interpreter (linalg_ext/semantics/tensor_ops.py),
against numpy computations written here from the ops' definitions in MLIR's
tensor dialect documentation."""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.utils.exceptions import InterpretationError

from helpers import parse_module
from linalg_ext.running import run_function

RNG = np.random.default_rng(11)


def run(source: str, name: str, *inputs):
    return run_function(parse_module(source), name, list(inputs))


def random(*shape, dtype=np.float32):
    return RNG.uniform(-1, 1, size=shape).astype(dtype)


def test_empty_with_dynamic_sizes_and_dim():
    source = """
    func.func @f(%n: index, %m: index) -> (tensor<?x3x?xf32>, index, index) {
      %e = tensor.empty(%n, %m) : tensor<?x3x?xf32>
      %c0 = arith.constant 0 : index
      %c2 = arith.constant 2 : index
      %d0 = tensor.dim %e, %c0 : tensor<?x3x?xf32>
      %d2 = tensor.dim %e, %c2 : tensor<?x3x?xf32>
      return %e, %d0, %d2 : tensor<?x3x?xf32>, index, index
    }
    """
    empty, d0, d2 = run(source, "f", 4, 2).results
    assert empty.shape == (4, 3, 2) and empty.dtype == np.float32
    assert (d0, d2) == (4, 2)


def test_dim_out_of_range_is_an_interpretation_error():
    source = """
    func.func @f(%x: tensor<2x3xf32>, %d: index) -> index {
      %r = tensor.dim %x, %d : tensor<2x3xf32>
      return %r : index
    }
    """
    with pytest.raises(InterpretationError, match="tensor.dim"):
        run(source, "f", random(2, 3), 2)


def test_cast_checks_the_static_sizes():
    source = """
    func.func @f(%x: tensor<?x3xf32>) -> tensor<4x?xf32> {
      %r = tensor.cast %x : tensor<?x3xf32> to tensor<4x?xf32>
      return %r : tensor<4x?xf32>
    }
    """
    x = random(4, 3)
    np.testing.assert_array_equal(run(source, "f", x).results[0], x)
    with pytest.raises(InterpretationError, match="tensor.cast"):
        run(source, "f", random(5, 3))


def test_extract_and_insert_leave_the_operand_alone():
    source = """
    func.func @f(%x: tensor<3x4xi32>, %v: i32, %i: index, %j: index) -> (i32, tensor<3x4xi32>) {
      %e = tensor.extract %x[%i, %j] : tensor<3x4xi32>
      %r = tensor.insert %v into %x[%j, %i] : tensor<3x4xi32>
      return %e, %r : i32, tensor<3x4xi32>
    }
    """
    x = np.arange(12, dtype=np.int32).reshape(3, 4)
    run_ = run(source, "f", x, -7, 1, 2)
    element, inserted = run_.results
    assert element == x[1, 2]
    expected = x.copy()
    expected[2, 1] = -7
    np.testing.assert_array_equal(inserted, expected)
    np.testing.assert_array_equal(run_.arguments[0], x)


@pytest.mark.parametrize("op", ["extract %x[%i, %j]", "insert %v into %x[%i, %j]"])
def test_extract_and_insert_out_of_bounds(op):
    result = "i32" if op.startswith("extract") else "tensor<3x4xi32>"
    source = f"""
    func.func @f(%x: tensor<3x4xi32>, %v: i32, %i: index, %j: index) -> {result} {{
      %r = tensor.{op} : tensor<3x4xi32>
      return %r : {result}
    }}
    """
    x = np.zeros((3, 4), dtype=np.int32)
    # [0, 4] is inside the buffer (row 1) but outside the tensor.
    with pytest.raises(InterpretationError, match="out of bounds"):
        run(source, "f", x, 1, 0, 4)


def test_from_elements_and_splat():
    source = """
    func.func @f(%a: f64, %b: f64, %n: index) -> (tensor<2x3xf64>, tensor<2x?xf64>) {
      %t = tensor.from_elements %a, %b, %a, %b, %b, %a : tensor<2x3xf64>
      %s = tensor.splat %b[%n] : tensor<2x?xf64>
      return %t, %s : tensor<2x3xf64>, tensor<2x?xf64>
    }
    """
    elements, splat = run(source, "f", 1.5, -2.0, 4).results
    np.testing.assert_array_equal(
        elements, np.array([[1.5, -2.0, 1.5], [-2.0, -2.0, 1.5]])
    )
    np.testing.assert_array_equal(splat, np.full((2, 4), -2.0))


def slice_by_loops(x, offsets, sizes, strides):
    out = np.empty(sizes, dtype=x.dtype)
    for index in np.ndindex(*sizes):
        out[index] = x[
            tuple(o + i * s for o, i, s in zip(offsets, index, strides, strict=True))
        ]
    return out


EXTRACT_SLICE = """
func.func @static(%x: tensor<6x8xf32>) -> tensor<2x3xf32> {
  %r = tensor.extract_slice %x[1, 2] [2, 3] [2, 1] : tensor<6x8xf32> to tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}
func.func @dynamic(%x: tensor<?x?xf32>, %o0: index, %o1: index, %s0: index, %s1: index, %t0: index, %t1: index) -> tensor<?x?xf32> {
  %r = tensor.extract_slice %x[%o0, %o1] [%s0, %s1] [%t0, %t1] : tensor<?x?xf32> to tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}
func.func @mixed(%x: tensor<6x8xf32>, %o: index, %s: index) -> tensor<3x?xf32> {
  %r = tensor.extract_slice %x[%o, 1] [3, %s] [1, 3] : tensor<6x8xf32> to tensor<3x?xf32>
  return %r : tensor<3x?xf32>
}
func.func @reduced(%x: tensor<4x5x6xf32>, %o: index) -> tensor<5xf32> {
  %r = tensor.extract_slice %x[2, 0, %o] [1, 5, 1] [1, 1, 1] : tensor<4x5x6xf32> to tensor<5xf32>
  return %r : tensor<5xf32>
}
"""


def test_extract_slice_static_dynamic_mixed_and_rank_reducing():
    x = random(6, 8)
    np.testing.assert_array_equal(
        run(EXTRACT_SLICE, "static", x).results[0],
        slice_by_loops(x, [1, 2], [2, 3], [2, 1]),
    )
    np.testing.assert_array_equal(
        run(EXTRACT_SLICE, "dynamic", x, 0, 1, 3, 3, 2, 3).results[0],
        slice_by_loops(x, [0, 1], [3, 3], [2, 3]),
    )
    np.testing.assert_array_equal(
        run(EXTRACT_SLICE, "mixed", x, 3, 2).results[0],
        slice_by_loops(x, [3, 1], [3, 2], [1, 3]),
    )
    y = random(4, 5, 6)
    np.testing.assert_array_equal(
        run(EXTRACT_SLICE, "reduced", y, 4).results[0],
        slice_by_loops(y, [2, 0, 4], [1, 5, 1], [1, 1, 1]).reshape(5),
    )


def test_extract_slice_out_of_bounds():
    # Rows 4, 6, 8 of a 6-row tensor: the last one is past the end.
    with pytest.raises(
        InterpretationError, match="tensor.extract_slice.*out of bounds"
    ):
        run(EXTRACT_SLICE, "dynamic", random(6, 8), 4, 0, 3, 1, 2, 1)


INSERT_SLICE = """
func.func @strided(%s: tensor<2x3xf32>, %d: tensor<6x8xf32>) -> tensor<6x8xf32> {
  %r = tensor.insert_slice %s into %d[1, 2] [2, 3] [3, 2] : tensor<2x3xf32> into tensor<6x8xf32>
  return %r : tensor<6x8xf32>
}
func.func @dynamic(%s: tensor<?x?xf32>, %d: tensor<?x?xf32>, %o0: index, %o1: index, %n0: index, %n1: index, %t: index) -> tensor<?x?xf32> {
  %r = tensor.insert_slice %s into %d[%o0, %o1] [%n0, %n1] [1, %t] : tensor<?x?xf32> into tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}
func.func @reduced(%s: tensor<4xf32>, %d: tensor<3x4x2xf32>, %o: index) -> tensor<3x4x2xf32> {
  %r = tensor.insert_slice %s into %d[%o, 0, 1] [1, 4, 1] [1, 1, 1] : tensor<4xf32> into tensor<3x4x2xf32>
  return %r : tensor<3x4x2xf32>
}
"""


def insert_by_loops(source, dest, offsets, strides):
    out = dest.copy()
    for index in np.ndindex(*source.shape):
        out[
            tuple(o + i * s for o, i, s in zip(offsets, index, strides, strict=True))
        ] = source[index]
    return out


def test_insert_slice_strided_dynamic_and_rank_reducing():
    s, d = random(2, 3), random(6, 8)
    run_ = run(INSERT_SLICE, "strided", s, d)
    np.testing.assert_array_equal(
        run_.results[0], insert_by_loops(s, d, [1, 2], [3, 2])
    )
    np.testing.assert_array_equal(run_.arguments[1], d)  # the dest is a value

    s = random(3, 2)
    np.testing.assert_array_equal(
        run(INSERT_SLICE, "dynamic", s, d, 2, 1, 3, 2, 4).results[0],
        insert_by_loops(s, d, [2, 1], [1, 4]),
    )

    s, d = random(4), random(3, 4, 2)
    np.testing.assert_array_equal(
        run(INSERT_SLICE, "reduced", s, d, 2).results[0],
        insert_by_loops(s.reshape(1, 4, 1), d, [2, 0, 1], [1, 1, 1]),
    )


def test_insert_slice_errors():
    with pytest.raises(InterpretationError, match="tensor.insert_slice.*out of bounds"):
        run(INSERT_SLICE, "dynamic", random(3, 2), random(6, 8), 2, 5, 3, 2, 4)
    with pytest.raises(InterpretationError, match="tensor.insert_slice.*source"):
        run(INSERT_SLICE, "dynamic", random(3, 2), random(6, 8), 0, 0, 2, 2, 1)


PAD = """
func.func @constant(%x: tensor<2x3xf32>, %v: f32) -> tensor<5x4xf32> {
  %r = tensor.pad %x low[1, 0] high[2, 1] {
  ^bb0(%i: index, %j: index):
    tensor.yield %v : f32
  } : tensor<2x3xf32> to tensor<5x4xf32>
  return %r : tensor<5x4xf32>
}
func.func @by_index(%x: tensor<?x?xi64>, %l0: index, %h1: index) -> tensor<?x?xi64> {
  %r = tensor.pad %x low[%l0, 1] high[0, %h1] {
  ^bb0(%i: index, %j: index):
    %c10 = arith.constant 10 : index
    %t = arith.muli %i, %c10 : index
    %s = arith.addi %t, %j : index
    %v = arith.index_cast %s : index to i64
    %n = arith.subi %v, %v : i64
    %m = arith.subi %n, %v : i64
    tensor.yield %m : i64
  } : tensor<?x?xi64> to tensor<?x?xi64>
  return %r : tensor<?x?xi64>
}
"""


def pad_by_loops(x, low, high, value_at):
    shape = [lo + n + hi for lo, n, hi in zip(low, x.shape, high, strict=True)]
    out = np.empty(shape, dtype=x.dtype)
    for index in np.ndindex(*shape):
        inner = tuple(i - lo for i, lo in zip(index, low, strict=True))
        inside = all(0 <= i < n for i, n in zip(inner, x.shape, strict=True))
        out[index] = x[inner] if inside else value_at(index)
    return out


def test_pad_with_a_constant():
    x = random(2, 3)
    np.testing.assert_array_equal(
        run(PAD, "constant", x, 0.25).results[0],
        pad_by_loops(x, [1, 0], [2, 1], lambda _: 0.25),
    )


def test_pad_with_an_index_dependent_value_and_dynamic_amounts():
    x = np.arange(6, dtype=np.int64).reshape(2, 3) + 100
    np.testing.assert_array_equal(
        run(PAD, "by_index", x, 2, 3).results[0],
        pad_by_loops(x, [2, 1], [0, 3], lambda ij: -(10 * ij[0] + ij[1])),
    )


def test_pad_with_negative_amount():
    with pytest.raises(InterpretationError, match="tensor.pad.*negative"):
        run(PAD, "by_index", np.zeros((2, 3), dtype=np.int64), -1, 0)


RESHAPE = """
func.func @expand(%x: tensor<6x?xf32>, %n: index) -> tensor<2x3x?x2xf32> {
  %r = tensor.expand_shape %x [[0, 1], [2, 3]] output_shape [2, 3, %n, 2] : tensor<6x?xf32> into tensor<2x3x?x2xf32>
  return %r : tensor<2x3x?x2xf32>
}
func.func @collapse(%x: tensor<2x3x?xf32>) -> tensor<6x?xf32> {
  %r = tensor.collapse_shape %x [[0, 1], [2]] : tensor<2x3x?xf32> into tensor<6x?xf32>
  return %r : tensor<6x?xf32>
}
func.func @to_scalar(%x: tensor<1x1xf32>) -> tensor<f32> {
  %r = tensor.collapse_shape %x [] : tensor<1x1xf32> into tensor<f32>
  return %r : tensor<f32>
}
"""


def test_expand_and_collapse_shape():
    x = random(6, 8)
    np.testing.assert_array_equal(
        run(RESHAPE, "expand", x, 4).results[0], x.reshape(2, 3, 4, 2)
    )
    y = random(2, 3, 5)
    np.testing.assert_array_equal(
        run(RESHAPE, "collapse", y).results[0], y.reshape(6, 5)
    )
    z = random(1, 1)
    np.testing.assert_array_equal(run(RESHAPE, "to_scalar", z).results[0], z[0, 0])


def test_expand_shape_with_a_wrong_dynamic_size():
    with pytest.raises(InterpretationError, match="tensor.expand_shape"):
        run(RESHAPE, "expand", random(6, 8), 3)


def test_dense_tensor_constants():
    source = """
    func.func @f() -> (tensor<2x2xf32>, tensor<3xi16>, tensor<3xi1>, tensor<2xindex>, index) {
      %a = arith.constant dense<[[1.5, -2.0], [0.25, 8.0]]> : tensor<2x2xf32>
      %b = arith.constant dense<-3> : tensor<3xi16>
      %c = arith.constant dense<[true, false, true]> : tensor<3xi1>
      %d = arith.constant dense<[5, 1]> : tensor<2xindex>
      %e = arith.constant 6 : index
      return %a, %b, %c, %d, %e : tensor<2x2xf32>, tensor<3xi16>, tensor<3xi1>, tensor<2xindex>, index
    }
    """
    a, b, c, d, e = run(source, "f").results
    np.testing.assert_array_equal(a, np.array([[1.5, -2.0], [0.25, 8.0]], np.float32))
    assert a.dtype == np.float32
    np.testing.assert_array_equal(b, np.full(3, -3, np.int16))
    np.testing.assert_array_equal(c, [1, 0, 1])
    np.testing.assert_array_equal(d, [5, 1])
    assert e == 6
