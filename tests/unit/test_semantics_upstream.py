"""Upstream ops whose interpretation we fix (linalg_ext.semantics.upstream_ops)."""

from __future__ import annotations

import numpy as np

from helpers import parse_module
from linalg_ext.running import run_function

FILL = """
func.func @tensor(%v: f32, %init: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>) {
  %f = linalg.fill ins(%v : f32) outs(%init : tensor<2x3xf32>) -> tensor<2x3xf32>
  return %f, %init : tensor<2x3xf32>, tensor<2x3xf32>
}
func.func @memref(%v: i32, %out: memref<4xi32>) {
  linalg.fill ins(%v : i32) outs(%out : memref<4xi32>)
  return
}
"""


def test_fill_tensor_with_any_scalar_leaves_the_init_alone():
    init = np.arange(6, dtype=np.float32).reshape(2, 3)
    filled, unchanged = run_function(parse_module(FILL), "tensor", [-1.5, init]).results
    np.testing.assert_array_equal(filled, np.full((2, 3), -1.5, np.float32))
    np.testing.assert_array_equal(unchanged, init)


def test_fill_memref_in_place():
    out = np.array([1, 2, 3, 4], np.int32)
    run = run_function(parse_module(FILL), "memref", [7, out])
    np.testing.assert_array_equal(run.arguments[1], [7, 7, 7, 7])
