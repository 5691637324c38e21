"""scf and affine ops on the interpreter (linalg_ext/semantics/control_ops.py
and the xDSL functions it keeps), against Python computations written here
from MLIR's definitions."""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.utils.exceptions import InterpretationError

from helpers import parse_module
from linalg_ext.running import run_function

RNG = np.random.default_rng(17)


def run(source: str, name: str, *inputs):
    return run_function(parse_module(source), name, list(inputs))


FOR = """
func.func @index_bounds(%lb: index, %ub: index, %step: index, %x: tensor<8xf32>) -> (index, tensor<8xf32>) {
  %c0 = arith.constant 0 : index
  %r:2 = scf.for %i = %lb to %ub step %step iter_args(%count = %c0, %acc = %x) -> (index, tensor<8xf32>) {
    %c1 = arith.constant 1 : index
    %next = arith.addi %count, %c1 : index
    %old = tensor.extract %acc[%i] : tensor<8xf32>
    %twice = arith.addf %old, %old : f32
    %new = tensor.insert %twice into %acc[%i] : tensor<8xf32>
    scf.yield %next, %new : index, tensor<8xf32>
  }
  return %r#0, %r#1 : index, tensor<8xf32>
}
func.func @integer_bounds(%lb: i32, %ub: i32, %step: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %sum = scf.for %i = %lb to %ub step %step iter_args(%acc = %c0) -> (i32) : i32 {
    %next = arith.addi %acc, %i : i32
    scf.yield %next : i32
  }
  return %sum : i32
}
"""


def test_for_with_iter_args_and_index_bounds():
    x = RNG.uniform(-1, 1, size=8).astype(np.float32)
    count, doubled = run(FOR, "index_bounds", 1, 7, 2, x).results
    expected = x.copy()
    for i in range(1, 7, 2):
        expected[i] *= 2
    assert count == 3
    np.testing.assert_array_equal(doubled, expected)


@pytest.mark.parametrize(("lb", "ub", "step"), [(-5, 6, 3), (4, 4, 1), (7, 2, 1)])
def test_for_with_integer_bounds(lb, ub, step):
    expected = 0
    i = lb
    while i < ub:  # MLIR's scf.for compares signed
        expected += i
        i += step
    assert run(FOR, "integer_bounds", lb, ub, step).results == [expected]


@pytest.mark.parametrize("step", [0, -1])
def test_for_with_a_step_that_is_not_positive(step):
    with pytest.raises(InterpretationError, match="scf.for.*step"):
        run(FOR, "integer_bounds", 0, 4, step)


IF = """
func.func @with_results(%c: i1, %a: f64, %b: f64) -> (f64, index) {
  %r:2 = scf.if %c -> (f64, index) {
    %s = arith.addf %a, %b : f64
    %one = arith.constant 1 : index
    scf.yield %s, %one : f64, index
  } else {
    %p = arith.mulf %a, %b : f64
    %two = arith.constant 2 : index
    scf.yield %p, %two : f64, index
  }
  return %r#0, %r#1 : f64, index
}
func.func @without_else(%c: i1, %m: memref<1xf64>, %v: f64) {
  scf.if %c {
    %c0 = arith.constant 0 : index
    memref.store %v, %m[%c0] : memref<1xf64>
  }
  return
}
"""


@pytest.mark.parametrize("condition", [True, False])
def test_if_with_results(condition):
    a, b = 1.25, -3.0
    expected = [a + b, 1] if condition else [a * b, 2]
    assert run(IF, "with_results", int(condition), a, b).results == expected


@pytest.mark.parametrize("condition", [True, False])
def test_if_without_else(condition):
    m = np.array([0.5])
    after = run(IF, "without_else", int(condition), m, 4.0).arguments[1]
    np.testing.assert_array_equal(after, [4.0] if condition else [0.5])


AFFINE = """
func.func @apply(%d0: index, %d1: index, %s0: index) -> (index, index) {
  %a = affine.apply affine_map<(d0, d1)[s0] -> (d0 * 5 + d1 floordiv 4 - s0 mod 3 + s0)>(%d0, %d1)[%s0]
  %b = affine.apply affine_map<(d0)[s0, s1] -> ((d0 + s1) ceildiv 3 + s0)>(%d1)[%s0, %d0]
  return %a, %b : index, index
}
func.func @min(%d0: index, %s0: index) -> index {
  %m = affine.min affine_map<(d0)[s0] -> (16, s0 - d0, d0 * 2)>(%d0)[%s0]
  return %m : index
}
"""


@pytest.mark.parametrize(("d0", "d1", "s0"), [(3, 10, 5), (-2, -7, 4), (0, 3, 1)])
def test_apply_with_dims_and_symbols(d0, d1, s0):
    # MLIR's floordiv and ceildiv round towards -inf and +inf, and mod is
    # never negative for a positive divisor: Python's // and % do the same.
    first = d0 * 5 + d1 // 4 - s0 % 3 + s0
    second = -(-(d1 + d0) // 3) + s0
    assert run(AFFINE, "apply", d0, d1, s0).results == [first, second]


@pytest.mark.parametrize(("d0", "s0"), [(3, 40), (10, 12), (30, 100), (-4, 0)])
def test_min(d0, s0):
    assert run(AFFINE, "min", d0, s0).results == [min(16, s0 - d0, 2 * d0)]
