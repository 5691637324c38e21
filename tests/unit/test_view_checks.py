"""Run-time checks of reshaping views (issue 16): `memref.expand_shape` with
dynamic output sizes or source dimensions, and `memref.collapse_shape` of a
strided source, fail compiled with the interpreter's message
(semantics/memref_ops.py) where the interpreter refuses them, instead of
making a view that reaches outside its buffer; valid ones compute the same.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from xdsl.dialects.builtin import ModuleOp

from helpers import interpreter_error, jit_error, parse_module, print_module
from linalg_ext.jit import compile_module
from linalg_ext.jit.compiled import JitModule
from linalg_ext.pipelines import apply_pipeline
from linalg_ext.running import run_function

PROGRAMS = """
func.func @expand(%a: memref<?xf32>, %p: index, %q: index) -> f32 {
  %v = memref.expand_shape %a [[0, 1]] output_shape [%p, %q] : memref<?xf32> into memref<?x?xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = memref.dim %v, %c0 : memref<?x?xf32>
  %n = memref.dim %v, %c1 : memref<?x?xf32>
  %i = arith.subi %m, %c1 : index
  %j = arith.subi %n, %c1 : index
  %x = memref.load %v[%i, %j] : memref<?x?xf32>
  return %x : f32
}
func.func @collapse(%a: memref<4x5x6xf32>, %p: index, %q: index, %r: index) -> f32 {
  %s = memref.subview %a[0, 0, 0] [%p, %q, %r] [1, 1, 1] : memref<4x5x6xf32> to memref<?x?x?xf32, strided<[30, 6, 1]>>
  %v = memref.collapse_shape %s [[0, 1, 2]] : memref<?x?x?xf32, strided<[30, 6, 1]>> into memref<?xf32, strided<[?]>>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %v, %c0 : memref<?xf32, strided<[?]>>
  %last = arith.subi %n, %c1 : index
  %x = memref.load %v[%last] : memref<?xf32, strided<[?]>>
  return %x : f32
}
func.func @collapse_dynamic_stride(%a: memref<4x?xf32>, %w: index) -> f32 {
  %s = memref.subview %a[0, 0] [2, %w] [1, 1] : memref<4x?xf32> to memref<2x?xf32, strided<[?, 1]>>
  %v = memref.collapse_shape %s [[0, 1]] : memref<2x?xf32, strided<[?, 1]>> into memref<?xf32, strided<[?]>>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %v, %c0 : memref<?xf32, strided<[?]>>
  %last = arith.subi %n, %c1 : index
  %x = memref.load %v[%last] : memref<?xf32, strided<[?]>>
  return %x : f32
}
func.func @cast_shape(%a: memref<?x4xf32>) -> f32 {
  %v = memref.cast %a : memref<?x4xf32> to memref<3x4xf32>
  %c2 = arith.constant 2 : index
  %x = memref.load %v[%c2, %c2] : memref<3x4xf32>
  return %x : f32
}
func.func @cast_layout(%a: memref<4x?xf32>, %w: index, %o: index) -> f32 {
  %s = memref.subview %a[0, %o] [2, %w] [1, 1] : memref<4x?xf32> to memref<2x?xf32, strided<[?, 1], offset: ?>>
  %v = memref.cast %s : memref<2x?xf32, strided<[?, 1], offset: ?>> to memref<2x?xf32, strided<[5, 1], offset: 1>>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %x = memref.load %v[%c1, %c0] : memref<2x?xf32, strided<[5, 1], offset: 1>>
  return %x : f32
}
func.func @cast_identity(%a: memref<4x6xf32>, %o: index, %w: index) -> f32 {
  %s = memref.subview %a[0, %o] [2, %w] [1, 1] : memref<4x6xf32> to memref<2x?xf32, strided<[6, 1], offset: ?>>
  %v = memref.cast %s : memref<2x?xf32, strided<[6, 1], offset: ?>> to memref<2x?xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %x = memref.load %v[%c1, %c0] : memref<2x?xf32>
  return %x : f32
}
"""

f32 = np.float32


def _cube() -> np.ndarray:
    return np.arange(120, dtype=f32).reshape(4, 5, 6)


def _rows() -> np.ndarray:
    return np.arange(20, dtype=f32).reshape(4, 5)


NOT_CONTIGUOUS = (
    "memref.collapse_shape: dimensions {} of a view of shape {} and strides {} "
    "are not contiguous, so they cannot be collapsed without a copy"
)

CAST_TARGET = "memref<2x?xf32, strided<[5, 1], offset: 1>>"

# name -> (function, failing inputs, expected message, valid inputs)
CASES: dict[str, tuple[str, Any, str, Any]] = {
    "expand 4x4 of 8": (
        "expand",
        lambda: [np.ones(8, f32), 4, 4],
        "memref.expand_shape: dimensions [4, 4] of [4, 4] do not make up size 8 of [8]",
        lambda: [np.arange(8, dtype=f32), 2, 4],
    ),
    "expand negative sizes": (
        "expand",
        lambda: [np.ones(8, f32), -2, -4],
        "memref.expand_shape: negative size in [-2, -4]",
        lambda: [np.arange(8, dtype=f32), 8, 1],
    ),
    "expand whose product wraps to the size": (
        # 2**62 * 4 wraps to 0 in 64 bits: still not 0 elements
        "expand",
        lambda: [np.ones(0, f32), 1 << 62, 4],
        "memref.expand_shape: dimensions [4611686018427387904, 4] of "
        "[4611686018427387904, 4] do not make up size 0 of [0]",
        lambda: [np.arange(8, dtype=f32), 4, 2],
    ),
    "collapse across a unit dimension": (
        "collapse",
        lambda: [_cube(), 2, 1, 6],
        NOT_CONTIGUOUS.format("[0, 1, 2]", "[2, 1, 6]", "[30, 6, 1]"),
        lambda: [_cube(), 2, 5, 6],
    ),
    "collapse of a narrower slice": (
        "collapse",
        lambda: [_cube(), 2, 2, 3],
        NOT_CONTIGUOUS.format("[0, 1, 2]", "[2, 2, 3]", "[30, 6, 1]"),
        lambda: [_cube(), 1, 1, 3],
    ),
    "collapse with a dynamic stride": (
        "collapse_dynamic_stride",
        lambda: [_rows(), 3],
        NOT_CONTIGUOUS.format("[0, 1]", "[2, 3]", "[5, 1]"),
        lambda: [_rows(), 5],
    ),
    "cast to a static size": (
        "cast_shape",
        lambda: [np.ones((5, 4), f32)],
        "memref.cast: the source has shape [5, 4], which does not fit memref<3x4xf32>",
        lambda: [np.arange(12, dtype=f32).reshape(3, 4)],
    ),
    "cast to a static offset": (
        "cast_layout",
        lambda: [_rows(), 3, 2],
        "memref.cast: the source has strides [5, 1] and offset 2, which do not "
        f"fit {CAST_TARGET}",
        lambda: [_rows(), 3, 1],
    ),
    "cast to a static stride": (
        "cast_layout",
        lambda: [np.arange(24, dtype=f32).reshape(4, 6), 3, 1],
        "memref.cast: the source has strides [6, 1] and offset 1, which do not "
        f"fit {CAST_TARGET}",
        lambda: [_rows(), 4, 1],
    ),
    "cast to an identity layout from an offset": (
        "cast_identity",
        lambda: [np.ones((4, 6), f32), 2, 4],
        "memref.cast: the source has strides [6, 1] and offset 2, which do not "
        "fit memref<2x?xf32>",
        lambda: [np.arange(24, dtype=f32).reshape(4, 6), 0, 6],
    ),
    "cast to an identity layout of a narrower view": (
        "cast_identity",
        lambda: [np.ones((4, 6), f32), 0, 3],
        "memref.cast: the source has strides [6, 1] and offset 0, which do not "
        "fit memref<2x?xf32>",
        lambda: [np.arange(24, dtype=f32).reshape(4, 6), 0, 6],
    ),
}


@pytest.fixture(scope="module")
def plain() -> ModuleOp:
    return parse_module(PROGRAMS)


@pytest.fixture(scope="module")
def checked(plain: ModuleOp) -> ModuleOp:
    module = plain.clone()
    apply_pipeline("insert-runtime-checks", module)
    return module


@pytest.fixture(scope="module")
def compiled(plain: ModuleOp) -> JitModule:
    return compile_module(plain.clone())


@pytest.mark.parametrize("case", CASES)
def test_interpreter_checked_and_compiled_agree(
    case: str, plain: ModuleOp, checked: ModuleOp, compiled: JitModule
):
    name, failing, message, valid = CASES[case]
    assert interpreter_error(plain, name, failing()) == message
    assert interpreter_error(checked, name, failing()) == message
    assert jit_error(compiled, name, failing()) == message
    expected = run_function(plain, name, valid()).results[0]
    assert run_function(checked, name, valid()).results[0] == expected
    assert compiled[name](*valid()) == expected


@pytest.mark.parametrize(
    "sizes", [[2, 5, 6], [1, 1, 3], [2, 1, 1], [1, 5, 6], [3, 1, 1]]
)
def test_contiguous_collapses_pass(
    sizes: list[int], plain: ModuleOp, compiled: JitModule
):
    """Unit dimensions do not count, wherever they are."""
    expected = run_function(plain, "collapse", [_cube(), *sizes]).results[0]
    assert compiled["collapse"](_cube(), *sizes) == expected


def test_an_empty_group_collapses_whatever_its_strides(
    plain: ModuleOp, compiled: JitModule
):
    # Then the load of element -1 is the error, on both.
    message = interpreter_error(plain, "collapse", [_cube(), 2, 0, 3])
    assert message == "memref.load: index [-1] is out of bounds of shape [0]"
    assert jit_error(compiled, "collapse", [_cube(), 2, 0, 3]) == message


def test_row_major_reshapes_need_no_check():
    module = parse_module(
        """
func.func @f(%a: memref<?x4xf32>) -> memref<?xf32> {
  %v = memref.collapse_shape %a [[0, 1]] : memref<?x4xf32> into memref<?xf32>
  return %v : memref<?xf32>
}
func.func @g(%a: memref<8xf32>) -> memref<2x4xf32> {
  %v = memref.expand_shape %a [[0, 1]] output_shape [2, 4] : memref<8xf32> into memref<2x4xf32>
  return %v : memref<2x4xf32>
}
"""
    )
    apply_pipeline("insert-runtime-checks", module)
    assert "rtcheck.assert" not in print_module(module)
