"""The check's float tolerance follows the program's conditioning: a result
that a few ulps of input already move by a lot may differ that much between
the interpreter and compiled code (`exp` rounds differently), while a wrong
pass on the same program is still caught."""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.parser import Parser

import linalg_ext.checking as checking
import linalg_ext.conditioning as conditioning
from linalg_ext.comparison import first_difference
from linalg_ext.context import make_context

# x -> x·exp(x), three times: the relative condition number of each step is
# |1 + x|, so one ulp of difference in exp grows to about 1e-5 by the end.
ITERATED = """
func.func @main(%x: tensor<64xf32>) -> tensor<64xf32> {
  %lo = arith.constant 0 : index
  %hi = arith.constant 3 : index
  %st = arith.constant 1 : index
  %shift = arith.constant 0.0 : f32
  %r = scf.for %i = %lo to %hi step %st iter_args(%a = %x) -> (tensor<64xf32>) {
    %g = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>,
                                          affine_map<(d0) -> (d0)>],
                         iterator_types = ["parallel"]}
        ins(%a : tensor<64xf32>) outs(%a : tensor<64xf32>) {
    ^bb0(%v: f32, %o: f32):
      %t = math.exp %v : f32
      %m = arith.mulf %t, %v : f32
      %s = arith.addf %m, %shift : f32
      linalg.yield %s : f32
    } -> tensor<64xf32>
    scf.yield %g : tensor<64xf32>
  }
  return %r : tensor<64xf32>
}
"""

INPUT = np.linspace(1.0, 1.9, 64).astype(np.float32)


def _module():
    return Parser(make_context(), ITERATED).parse_module()


def test_slack_widens_float_tolerance_only():
    assert first_difference(np.float32([100.0]), np.float32([100.5])) is not None
    assert first_difference(np.float32([100.0]), np.float32([100.5]), [1.0]) is None
    assert first_difference(np.int32([1]), np.int32([2]), [5.0]) is not None


def test_ill_conditioned_program_agrees_compiled():
    pytest.importorskip("llvmlite")
    report = checking.check_module(_module(), [], backend="jit", inputs=[INPUT])
    assert report.ok, report.verdicts[0].line()


def test_without_conditioning_the_same_program_mismatches(monkeypatch):
    """The difference is real: with no slack the plain tolerance rejects it
    (so the test above passes because of the conditioning rule)."""
    pytest.importorskip("llvmlite")
    monkeypatch.setattr(conditioning, "CONDITIONING_FACTOR", 0.0)
    report = checking.check_module(_module(), [], backend="jit", inputs=[INPUT])
    assert report.verdicts[0].mismatch is not None


def test_wrong_pass_on_ill_conditioned_program_is_caught():
    report = checking.check_module(
        _module(), "test-perturb-constants", inputs=[INPUT], undefined_reads=False
    )
    verdict = report.verdicts[0]
    assert verdict.mismatch is not None, verdict.line()


# Rows of equal values made by a matrix of equal constants: layer_norm's
# variance cancels to rounding, which 1/sqrt(epsilon) then magnifies; the
# order of the mean's sum (numpy's vs the loops') decides the last bits.
# Moving the inputs alone cannot show it (the rows stay equal); moving the
# constant's entries apart does.
EQUAL_ROWS = """
func.func @main(%a: tensor<2x3xf32>) -> tensor<2x8xf32> {
  %w = arith.constant dense<2.0> : tensor<3x8xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x8xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<2x8xf32>) -> tensor<2x8xf32>
  %m = linalg.matmul ins(%a, %w : tensor<2x3xf32>, tensor<3x8xf32>)
      outs(%acc : tensor<2x8xf32>) -> tensor<2x8xf32>
  %e2 = tensor.empty() : tensor<2x8xf32>
  %n = linalg_ext.layer_norm axis([1]) epsilon(1.0e-05) ins(%m : tensor<2x8xf32>)
      outs(%e2 : tensor<2x8xf32>) : tensor<2x8xf32>
  return %n : tensor<2x8xf32>
}
"""

ROWS = np.float32(
    [
        [0.0236432496458292, 0.9009273648262024, -0.7116807699203491],
        [0.8972988724708557, -0.37633708119392395, -0.15334710478782654],
    ]
)

LOOPS = (
    "one-shot-bufferize{bufferize-function-boundaries=true},"
    "buffer-deallocation-pipeline,convert-linalg-ext-to-loops,"
    "convert-linalg-to-loops-ext"
)


def test_constants_are_perturbed_too():
    module = Parser(make_context(), EQUAL_ROWS).parse_module()
    moved = conditioning.perturbed_constants(module, np.random.default_rng(0))
    (constant,) = [
        op for op in moved.walk() if op.name == "arith.constant" and "dense" in str(op)
    ]
    values = set(constant.value.get_values())  # type: ignore[attr-defined]
    assert len(values) > 1 and all(abs(v - 2.0) < 1e-5 for v in values)


def test_equal_rows_layer_norm_agrees_after_loops():
    report = checking.check_module(
        Parser(make_context(), EQUAL_ROWS).parse_module(), LOOPS, inputs=[ROWS]
    )
    assert report.ok, report.verdicts[0].line()


def test_equal_rows_mismatch_without_moving_constants(monkeypatch):
    """The difference is real, and only moving the constants explains it."""
    monkeypatch.setattr(conditioning, "perturbed_constants", lambda m, rng: m)
    report = checking.check_module(
        Parser(make_context(), EQUAL_ROWS).parse_module(), LOOPS, inputs=[ROWS]
    )
    assert report.verdicts[0].mismatch is not None
