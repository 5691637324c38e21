"""linalg-data-place and linalg-prefetch: ByteIR's defects, shown by running
ByteIR's form of the output next to ours (the FileCheck tests in
tests/filecheck/passes/linalg-{data-place,prefetch}/ pin the structure, and
test_pass_meaning runs them)."""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.utils.exceptions import InterpretationError

from helpers import parse_module
from linalg_ext.checking import check_module
from linalg_ext.running import run_function

MATMUL = """
func.func @matmul(%a: memref<2x3xf32>, %b: memref<3x2xf32>, %c: memref<2x2xf32>) {
  linalg.matmul {__byteir_data_place__} ins(%a, %b : memref<2x3xf32>, memref<3x2xf32>) outs(%c : memref<2x2xf32>)
  return
}
"""

MATMUL_BYTEIR = """
func.func @matmul(%a: memref<2x3xf32>, %b: memref<3x2xf32>, %c: memref<2x2xf32>) {
  %0 = memref.alloc() : memref<2x3xf32, 1>
  linalg.copy ins(%a : memref<2x3xf32>) outs(%0 : memref<2x3xf32, 1>)
  %1 = memref.alloc() : memref<3x2xf32, 2>
  linalg.copy ins(%b : memref<3x2xf32>) outs(%1 : memref<3x2xf32, 2>)
  %2 = memref.alloc() : memref<2x2xf32, 3>
  linalg.matmul ins(%0, %1 : memref<2x3xf32, 1>, memref<3x2xf32, 2>) outs(%2 : memref<2x2xf32, 3>)
  linalg.copy ins(%2 : memref<2x2xf32, 3>) outs(%c : memref<2x2xf32>)
  memref.dealloc %0 : memref<2x3xf32, 1>
  memref.dealloc %1 : memref<3x2xf32, 2>
  memref.dealloc %2 : memref<2x2xf32, 3>
  return
}
"""
"""ByteIR's output for MATMUL with mem-spaces=1,2,3 (deallocations added):
the output buffer is never copied in."""


def _matmul_inputs() -> list[np.ndarray]:
    rng = np.random.default_rng(0)
    a = rng.standard_normal((2, 3)).astype(np.float32)
    b = rng.standard_normal((3, 2)).astype(np.float32)
    return [a, b, np.ones((2, 2), np.float32)]


def test_data_place_copies_read_output_in():
    # linalg.matmul accumulates into its output: ours keeps C + A @ B.
    report = check_module(
        parse_module(MATMUL), "linalg-data-place{mem-spaces=1,2,3}", trials=2
    )
    assert report.ok, "\n".join(v.line() for v in report.verdicts)
    inputs = _matmul_inputs()
    expected = inputs[2] + inputs[0] @ inputs[1]
    byteir = run_function(parse_module(MATMUL_BYTEIR), "matmul", inputs)
    # ByteIR's accumulates onto a fresh buffer instead.
    assert not np.allclose(byteir.arguments[2], expected)


SHORT_LOOP = """
func.func @f(%a: memref<?xi32>, %out: memref<?xi32>) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %n = memref.dim %a, %c0 : memref<?xi32>
  %buf = memref.alloc() : memref<2xi32>
  scf.for %i = %c0 to %n step %c2 {
    %t = memref.subview %a[%i] [2] [1] : memref<?xi32> to memref<2xi32, strided<[1], offset: ?>>
    %o = memref.subview %out[%i] [2] [1] : memref<?xi32> to memref<2xi32, strided<[1], offset: ?>>
    linalg.copy {__byteir_prefetch__} ins(%t : memref<2xi32, strided<[1], offset: ?>>) outs(%buf : memref<2xi32>)
    linalg.copy ins(%buf : memref<2xi32>) outs(%o : memref<2xi32, strided<[1], offset: ?>>)
  }
  memref.dealloc %buf : memref<2xi32>
  return
}
"""

SHORT_LOOP_BYTEIR_PROLOGUE = """
func.func @f(%a: memref<?xi32>, %out: memref<?xi32>) {
  %c0 = arith.constant 0 : index
  %buf = memref.alloc() : memref<2xi32>
  %t = memref.subview %a[%c0] [2] [1] : memref<?xi32> to memref<2xi32, strided<[1], offset: ?>>
  linalg.copy ins(%t : memref<2xi32, strided<[1], offset: ?>>) outs(%buf : memref<2xi32>)
  memref.dealloc %buf : memref<2xi32>
  return
}
"""
"""What ByteIR's prologue does before SHORT_LOOP's loop, unguarded."""


def test_prefetch_guards_copies_before_a_dynamic_loop():
    empty = [np.zeros((0,), np.int32), np.zeros((0,), np.int32)]
    # The loop does not run: ByteIR's first copy reads past the end of %a.
    with pytest.raises(InterpretationError, match="out of bounds"):
        run_function(parse_module(SHORT_LOOP_BYTEIR_PROLOGUE), "f", empty)
    for pipeline in ("linalg-prefetch", "linalg-prefetch{count=2 unroll=true}"):
        for size in (0, 2, 6):
            report = check_module(
                parse_module(SHORT_LOOP), pipeline, trials=1, dim_size=size
            )
            assert report.ok, "\n".join(v.line() for v in report.verdicts)
