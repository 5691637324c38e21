"""The memref and bufferization ops on the interpreter
(linalg_ext/semantics/memref_ops.py, bufferization_ops.py, arrays.py),
against numpy computations written here from MLIR's definitions: views
alias their source, bufferization copies between values and buffers."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from xdsl.dialects import bufferization
from xdsl.dialects.builtin import f32
from xdsl.interpreters.memref import MemRefFunctions
from xdsl.interpreters.shaped_array import ShapedArray
from xdsl.utils.exceptions import InterpretationError

from helpers import parse_module
from linalg_ext.running import make_interpreter, run_function
from linalg_ext.semantics.arrays import (
    StridedArray,
    contiguous_copy,
    numpy_view,
    shaped_array,
)
from linalg_ext.semantics.bufferization_ops import BufferizationOpFunctions

RNG = np.random.default_rng(13)


def run(source: str, name: str, *inputs):
    return run_function(parse_module(source), name, list(inputs))


def random(*shape, dtype=np.float32):
    return RNG.uniform(-1, 1, size=shape).astype(dtype)


# --------------------------------------------------------------------------
# StridedArray and numpy_view
# --------------------------------------------------------------------------


def strided_view_of(base: ShapedArray[Any], offset, shape, strides) -> StridedArray:
    pointer = base.data_ptr
    moved = type(pointer)(pointer.raw + offset * pointer.size, xtype=pointer.xtype)
    return StridedArray(moved, list(shape), list(strides))


def test_strided_array_aliases_its_source_through_every_access():
    values = np.arange(24, dtype=np.float32).reshape(4, 6)
    base = shaped_array(values, f32)
    # Rows 1 and 3, columns 1, 3, 5.
    view = strided_view_of(base, 7, [2, 3], [12, 2])
    expected = values[1::2, 1::2]

    np.testing.assert_array_equal(numpy_view(view), expected)
    assert view.data == expected.ravel().tolist()
    assert view.load((1, 2)) == values[3, 5]
    view.store((0, 1), -1.0)
    numpy_view(view)[1, 0] = -2.0
    after = values.copy()
    after[1, 3], after[3, 1] = -1.0, -2.0
    np.testing.assert_array_equal(numpy_view(base), after)

    copied = view.copy()
    assert not isinstance(copied, StridedArray)
    np.testing.assert_array_equal(numpy_view(copied), after[1::2, 1::2])
    numpy_view(copied)[...] = 0
    np.testing.assert_array_equal(numpy_view(base), after)
    np.testing.assert_array_equal(
        numpy_view(view.transposed(0, 1)), after[1::2, 1::2].T
    )
    with pytest.raises(IndexError):
        view.load((2, 0))


def test_xdsl_load_and_store_work_on_a_subview():
    module = parse_module(
        """
        func.func @f(%m: memref<3x4xf32>, %v: f32) -> f32 {
          %sv = memref.subview %m[0, 1] [3, 2] [1, 2] : memref<3x4xf32> to memref<3x2xf32, strided<[4, 2], offset: 1>>
          %c1 = arith.constant 1 : index
          %c2 = arith.constant 2 : index
          memref.store %v, %sv[%c2, %c1] : memref<3x2xf32, strided<[4, 2], offset: 1>>
          %r = memref.load %sv[%c1, %c1] : memref<3x2xf32, strided<[4, 2], offset: 1>>
          return %r : f32
        }
        """
    )
    interpreter = make_interpreter(module)
    # xDSL's own memref.load and memref.store in place of ours.
    interpreter.register_implementations(MemRefFunctions(), override=True)
    values = random(3, 4)
    memory = shaped_array(values, f32)
    (loaded,) = interpreter.call_op("f", (memory, 5.0))
    assert loaded == values[1, 3]
    expected = values.copy()
    expected[2, 3] = 5.0
    np.testing.assert_array_equal(numpy_view(memory), expected)


# --------------------------------------------------------------------------
# Allocation, load, store, dim
# --------------------------------------------------------------------------

ALLOC = """
func.func @f(%n: index, %v: f32) -> (f32, index, index) {
  %a = memref.alloc(%n) : memref<2x?xf32>
  %b = memref.alloca(%n) : memref<?xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %last = arith.subi %n, %c1 : index
  memref.store %v, %a[%c1, %last] : memref<2x?xf32>
  %x = memref.load %a[%c1, %last] : memref<2x?xf32>
  memref.store %x, %b[%last] : memref<?xf32>
  %y = memref.load %b[%last] : memref<?xf32>
  %d1 = memref.dim %a, %c1 : memref<2x?xf32>
  %d0 = memref.dim %b, %c0 : memref<?xf32>
  memref.dealloc %a : memref<2x?xf32>
  return %y, %d1, %d0 : f32, index, index
}
"""


def test_alloc_and_alloca_with_dynamic_sizes_load_store_dim():
    assert run(ALLOC, "f", 5, 2.5).results == [2.5, 5, 5]


@pytest.mark.parametrize("op", ["load", "store"])
def test_load_and_store_out_of_bounds(op):
    access = (
        "%r = memref.load %m[%i, %j] : memref<3x4xf32>"
        if op == "load"
        else "memref.store %v, %m[%i, %j] : memref<3x4xf32>"
    )
    source = f"""
    func.func @f(%m: memref<3x4xf32>, %v: f32, %i: index, %j: index) {{
      {access}
      return
    }}
    """
    # [1, 4] is element 8 of the buffer but not an element of the memref.
    with pytest.raises(InterpretationError, match=f"memref.{op}.*out of bounds"):
        run(source, "f", random(3, 4), 1.0, 1, 4)


# --------------------------------------------------------------------------
# subview
# --------------------------------------------------------------------------

SUBVIEW = """
func.func @write(%m: memref<6x8xf32>, %o: index, %s: index, %v: f32) {
  %sv = memref.subview %m[%o, 1] [2, 3] [%s, 2] : memref<6x8xf32> to memref<2x3xf32, strided<[?, 2], offset: ?>>
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  memref.store %v, %sv[%c1, %c2] : memref<2x3xf32, strided<[?, 2], offset: ?>>
  return
}
func.func @read(%m: memref<6x8xf32>) -> f32 {
  %sv = memref.subview %m[1, 2] [4, 4] [1, 1] : memref<6x8xf32> to memref<4x4xf32, strided<[8, 1], offset: 10>>
  %ssv = memref.subview %sv[1, 1] [2, 2] [2, 2] : memref<4x4xf32, strided<[8, 1], offset: 10>> to memref<2x2xf32, strided<[16, 2], offset: 19>>
  %c1 = arith.constant 1 : index
  %r = memref.load %ssv[%c1, %c1] : memref<2x2xf32, strided<[16, 2], offset: 19>>
  return %r : f32
}
func.func @reduced_fill(%m: memref<4x5x6xf32>, %o: index, %v: f32) {
  %sv = memref.subview %m[%o, 0, 3] [1, 5, 1] [1, 1, 1] : memref<4x5x6xf32> to memref<5xf32, strided<[6], offset: ?>>
  linalg.fill ins(%v : f32) outs(%sv : memref<5xf32, strided<[6], offset: ?>>)
  return
}
func.func @copy(%m: memref<6x8xf32>) {
  %a = memref.subview %m[0, 0] [3, 4] [2, 1] : memref<6x8xf32> to memref<3x4xf32, strided<[16, 1]>>
  %b = memref.subview %m[1, 4] [3, 4] [2, 1] : memref<6x8xf32> to memref<3x4xf32, strided<[16, 1], offset: 12>>
  "memref.copy"(%a, %b) : (memref<3x4xf32, strided<[16, 1]>>, memref<3x4xf32, strided<[16, 1], offset: 12>>) -> ()
  return
}
"""


def test_store_through_a_subview_changes_the_source():
    m = random(6, 8)
    after = run(SUBVIEW, "write", m, 2, 3, 9.0).arguments[0]
    expected = m.copy()
    expected[2 + 1 * 3, 1 + 2 * 2] = 9.0
    np.testing.assert_array_equal(after, expected)


def test_subview_of_a_subview():
    m = random(6, 8)
    # %ssv[1, 1] = %sv[1 + 2, 1 + 2] = %m[1 + 3, 2 + 3]
    assert run(SUBVIEW, "read", m).results[0] == m[4, 5]


def test_rank_reducing_subview_written_through_numpy_by_linalg_fill():
    m = random(4, 5, 6)
    after = run(SUBVIEW, "reduced_fill", m, 2, -3.0).arguments[0]
    expected = m.copy()
    expected[2, :, 3] = -3.0
    np.testing.assert_array_equal(after, expected)


def test_xdsl_linalg_generic_updates_a_strided_view_in_place():
    source = """
    func.func @f(%m: memref<4x6xf32>) {
      %sv = memref.subview %m[1, 0] [2, 3] [2, 2] : memref<4x6xf32> to memref<2x3xf32, strided<[12, 2], offset: 6>>
      linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%sv : memref<2x3xf32, strided<[12, 2], offset: 6>>) {
      ^bb0(%o: f32):
        %c = arith.constant 100.0 : f32
        %s = arith.addf %o, %c : f32
        linalg.yield %s : f32
      }
      return
    }
    """
    m = random(4, 6)
    expected = m.copy()
    expected[1::2, 0::2] += np.float32(100.0)
    np.testing.assert_array_equal(run(source, "f", m).arguments[0], expected)


def test_copy_between_views():
    m = random(6, 8)
    expected = m.copy()
    expected[1::2, 4:8] = m[0::2, 0:4]
    np.testing.assert_array_equal(run(SUBVIEW, "copy", m).arguments[0], expected)


def test_subview_out_of_bounds():
    # Rows 5 and 8 of a 6-row memref.
    with pytest.raises(InterpretationError, match="memref.subview.*out of bounds"):
        run(SUBVIEW, "write", random(6, 8), 5, 3, 1.0)


def test_copy_with_mismatched_shapes():
    source = """
    func.func @f(%a: memref<?xf32>, %b: memref<?xf32>) {
      "memref.copy"(%a, %b) : (memref<?xf32>, memref<?xf32>) -> ()
      return
    }
    """
    with pytest.raises(InterpretationError, match="memref.copy"):
        run(source, "f", random(3), random(4))


# --------------------------------------------------------------------------
# cast, expand_shape, collapse_shape
# --------------------------------------------------------------------------

RESHAPE = """
func.func @cast(%m: memref<?x4xf32>, %v: f32) {
  %c = "memref.cast"(%m) : (memref<?x4xf32>) -> memref<3x?xf32>
  %c2 = arith.constant 2 : index
  memref.store %v, %c[%c2, %c2] : memref<3x?xf32>
  return
}
func.func @expand(%m: memref<6x?xf32>, %n: index, %v: f32) {
  %e = memref.expand_shape %m [[0, 1], [2]] output_shape [2, 3, %n] : memref<6x?xf32> into memref<2x3x?xf32>
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  memref.store %v, %e[%c1, %c2, %c1] : memref<2x3x?xf32>
  return
}
func.func @expand_view(%m: memref<4x6xf32>, %v: f32) {
  %sv = memref.subview %m[0, 1] [4, 4] [1, 1] : memref<4x6xf32> to memref<4x4xf32, strided<[6, 1], offset: 1>>
  %e = memref.expand_shape %sv [[0], [1, 2]] output_shape [4, 2, 2] : memref<4x4xf32, strided<[6, 1], offset: 1>> into memref<4x2x2xf32, strided<[6, 2, 1], offset: 1>>
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  memref.store %v, %e[%c3, %c1, %c1] : memref<4x2x2xf32, strided<[6, 2, 1], offset: 1>>
  return
}
func.func @collapse(%m: memref<2x3x4xf32>, %v: f32) {
  %c = memref.collapse_shape %m [[0, 1], [2]] : memref<2x3x4xf32> into memref<6x4xf32>
  %c4 = arith.constant 4 : index
  %c3 = arith.constant 3 : index
  memref.store %v, %c[%c4, %c3] : memref<6x4xf32>
  return
}
func.func @collapse_rows_of_view(%m: memref<2x3x8xf32>, %v: f32) {
  %sv = memref.subview %m[0, 0, 2] [2, 3, 4] [1, 1, 1] : memref<2x3x8xf32> to memref<2x3x4xf32, strided<[24, 8, 1], offset: 2>>
  %c = memref.collapse_shape %sv [[0, 1], [2]] : memref<2x3x4xf32, strided<[24, 8, 1], offset: 2>> into memref<6x4xf32, strided<[8, 1], offset: 2>>
  %c4 = arith.constant 4 : index
  %c3 = arith.constant 3 : index
  memref.store %v, %c[%c4, %c3] : memref<6x4xf32, strided<[8, 1], offset: 2>>
  return
}
func.func @collapse_view(%m: memref<3x8xf32>, %n: index, %v: f32) {
  %sv = memref.subview %m[0, 0] [3, %n] [1, 1] : memref<3x8xf32> to memref<3x?xf32, strided<[8, 1]>>
  %c = memref.collapse_shape %sv [[0, 1]] : memref<3x?xf32, strided<[8, 1]>> into memref<?xf32, strided<[?]>>
  %c9 = arith.constant 9 : index
  memref.store %v, %c[%c9] : memref<?xf32, strided<[?]>>
  return
}
"""


def test_cast_aliases_and_checks_sizes():
    m = random(3, 4)
    expected = m.copy()
    expected[2, 2] = 7.0
    np.testing.assert_array_equal(run(RESHAPE, "cast", m, 7.0).arguments[0], expected)
    with pytest.raises(InterpretationError, match="memref.cast"):
        run(RESHAPE, "cast", random(2, 4), 7.0)


def test_expand_shape_aliases():
    m = random(6, 5)
    expected = m.copy()
    expected.reshape(2, 3, 5)[1, 2, 1] = 3.0
    np.testing.assert_array_equal(
        run(RESHAPE, "expand", m, 5, 3.0).arguments[0], expected
    )
    with pytest.raises(InterpretationError, match="memref.expand_shape"):
        run(RESHAPE, "expand", m, 4, 3.0)


def test_expand_shape_of_a_strided_view():
    m = random(4, 6)
    expected = m.copy()
    expected[3, 1 + 1 * 2 + 1] = 3.0
    np.testing.assert_array_equal(
        run(RESHAPE, "expand_view", m, 3.0).arguments[0], expected
    )


def test_collapse_shape_aliases():
    m = random(2, 3, 4)
    expected = m.copy()
    expected.reshape(6, 4)[4, 3] = 3.0
    np.testing.assert_array_equal(
        run(RESHAPE, "collapse", m, 3.0).arguments[0], expected
    )
    # Merging the rows of a column slice is fine: they step evenly.
    m = random(2, 3, 8)
    expected = m.copy()
    expected[1, 1, 2 + 3] = 3.0
    np.testing.assert_array_equal(
        run(RESHAPE, "collapse_rows_of_view", m, 3.0).arguments[0], expected
    )


def test_collapse_shape_of_a_view_contiguous_only_at_run_time():
    # Whole rows: the view is the buffer, and element 9 is m[1, 1].
    m = random(3, 8)
    expected = m.copy()
    expected[1, 1] = 3.0
    np.testing.assert_array_equal(
        run(RESHAPE, "collapse_view", m, 8, 3.0).arguments[0], expected
    )
    # Half rows cannot be one dimension of a single stride.
    with pytest.raises(InterpretationError, match="memref.collapse_shape.*contiguous"):
        run(RESHAPE, "collapse_view", m, 4, 3.0)


# --------------------------------------------------------------------------
# bufferization
# --------------------------------------------------------------------------

BUFFERIZATION = """
func.func @to_tensor(%m: memref<2x3xf32>, %v: f32) -> (tensor<2x3xf32>, tensor<2x2xf32>) {
  %t = bufferization.to_tensor %m : memref<2x3xf32> to tensor<2x3xf32>
  %sv = memref.subview %m[0, 1] [2, 2] [1, 1] : memref<2x3xf32> to memref<2x2xf32, strided<[3, 1], offset: 1>>
  %view = memref.alloc() : memref<2x2xf32>
  "memref.copy"(%sv, %view) : (memref<2x2xf32, strided<[3, 1], offset: 1>>, memref<2x2xf32>) -> ()
  %ts = bufferization.to_tensor %view : memref<2x2xf32> to tensor<2x2xf32>
  %c0 = arith.constant 0 : index
  memref.store %v, %m[%c0, %c0] : memref<2x3xf32>
  %c1 = arith.constant 1 : index
  memref.store %v, %m[%c1, %c1] : memref<2x3xf32>
  memref.store %v, %view[%c1, %c1] : memref<2x2xf32>
  return %t, %ts : tensor<2x3xf32>, tensor<2x2xf32>
}
func.func @to_buffer(%t: tensor<2x3xf32>, %v: f32) -> (tensor<2x3xf32>, f32) {
  %m = bufferization.to_buffer %t : tensor<2x3xf32> to memref<2x3xf32>
  %c0 = arith.constant 0 : index
  memref.store %v, %m[%c0, %c0] : memref<2x3xf32>
  %r = memref.load %m[%c0, %c0] : memref<2x3xf32>
  return %t, %r : tensor<2x3xf32>, f32
}
func.func @alloc_tensor(%t: tensor<?x3xf32>, %n: index) -> (tensor<?x3xf32>, tensor<?x3xf32>) {
  %copy = bufferization.alloc_tensor() copy(%t) : tensor<?x3xf32>
  %new = bufferization.alloc_tensor(%n) : tensor<?x3xf32>
  return %copy, %new : tensor<?x3xf32>, tensor<?x3xf32>
}
func.func @materialize(%s: tensor<?xf32>, %d: tensor<?xf32>, %m: memref<?xf32>) -> tensor<?xf32> {
  %r = bufferization.materialize_in_destination %s in %d : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
  bufferization.materialize_in_destination %s in restrict writable %m : (tensor<?xf32>, memref<?xf32>) -> ()
  return %r : tensor<?xf32>
}
"""


def test_to_tensor_copies_out_of_the_buffer():
    m = random(2, 3)
    whole, part = run(BUFFERIZATION, "to_tensor", m, 9.0).results
    np.testing.assert_array_equal(whole, m)
    np.testing.assert_array_equal(part, m[:, 1:3])


def test_to_tensor_of_a_strided_view():
    # xDSL 0.74's verifier wants to_tensor's memref without a layout, so
    # the function is called directly on a strided view.
    module = parse_module(
        """
        func.func @f(%m: memref<4xf32>) -> tensor<4xf32> {
          %t = bufferization.to_tensor %m : memref<4xf32> to tensor<4xf32>
          return %t : tensor<4xf32>
        }
        """
    )
    to_tensor = next(
        op for op in module.walk() if isinstance(op, bufferization.ToTensorOp)
    )
    values = np.arange(12, dtype=np.float32).reshape(3, 4)
    base = shaped_array(values, f32)
    column = strided_view_of(base, 2, [3], [4])
    result = BufferizationOpFunctions().run_to_tensor(
        make_interpreter(module), to_tensor, (column,)
    )
    (tensor,) = result.values
    numpy_view(column)[...] = -1
    np.testing.assert_array_equal(numpy_view(tensor), values[:, 2])


def test_to_buffer_is_a_new_buffer():
    t = random(2, 3)
    value, loaded = run(BUFFERIZATION, "to_buffer", t, 9.0).results
    np.testing.assert_array_equal(value, t)
    assert loaded == 9.0


def test_alloc_tensor_with_copy_and_with_dynamic_sizes():
    t = random(4, 3)
    copy, new = run(BUFFERIZATION, "alloc_tensor", t, 2).results
    np.testing.assert_array_equal(copy, t)
    assert new.shape == (2, 3)


def test_materialize_in_destination():
    s, d, m = random(5), random(5), random(5)
    run_ = run(BUFFERIZATION, "materialize", s, d, m)
    np.testing.assert_array_equal(run_.results[0], s)
    np.testing.assert_array_equal(run_.arguments[1], d)  # a tensor is a value
    np.testing.assert_array_equal(run_.arguments[2], s)  # a memref is written
    with pytest.raises(
        InterpretationError, match="bufferization.materialize_in_destination"
    ):
        run(BUFFERIZATION, "materialize", s, random(4), m)


def test_contiguous_copy_of_a_plain_array_is_new_memory():
    base = shaped_array(np.ones((2, 2), dtype=np.float32), f32)
    copied = contiguous_copy(base)
    numpy_view(copied)[...] = 0
    np.testing.assert_array_equal(numpy_view(base), np.ones((2, 2)))
