"""Convolutions through linalg-contraction-microkernel: the window packed
as one flattened k (im2col-style), NCHW's inputs swapped so the vectors run
along the image's rows, inputs the batch loops do not move over packed
once; every result the plain loops' bits."""

from __future__ import annotations

import numpy as np
import pytest

from helpers import parse_module
from linalg_ext.jit import compile_module
from linalg_ext.lowering.contraction import Contraction, match_contraction
from linalg_ext.pipelines import apply_pipeline
from linalg_ext.running import run_function as interpret


def _nchw(n, c, h, w, f, kh, kw, stride=1, dilation=1, name="conv"):
    oh = (h - dilation * (kh - 1) - 1) // stride + 1
    ow = (w - dilation * (kw - 1) - 1) // stride + 1
    x, k, y = (
        f"memref<{n}x{c}x{h}x{w}xf32>",
        f"memref<{f}x{c}x{kh}x{kw}xf32>",
        f"memref<{n}x{f}x{oh}x{ow}xf32>",
    )
    source = f"""
func.func @{name}(%x: {x}, %w: {k}, %y: {y}) {{
  linalg.conv_2d_nchw_fchw {{dilations = dense<{dilation}> : tensor<2xi64>, strides = dense<{stride}> : tensor<2xi64>}}
    ins(%x, %w : {x}, {k}) outs(%y : {y})
  return
}}
"""
    return source, (n, f, oh, ow)


def _reference(x, w, stride, dilation):
    """The convolution in float64 (to compare against with a tolerance)."""
    n, _, h, wd = x.shape
    f, _, kh, kw = w.shape
    oh = (h - dilation * (kh - 1) - 1) // stride + 1
    ow = (wd - dilation * (kw - 1) - 1) // stride + 1
    out = np.zeros((n, f, oh, ow))
    for i in range(kh):
        for j in range(kw):
            rows = slice(i * dilation, i * dilation + stride * (oh - 1) + 1, stride)
            cols = slice(j * dilation, j * dilation + stride * (ow - 1) + 1, stride)
            patch = x[:, :, rows, cols].astype(np.float64)
            out += np.einsum("nchw,fc->nfhw", patch, w[:, :, i, j].astype(np.float64))
    return out


def test_nchw_swaps_its_inputs_and_packs_channels_and_window_as_k():
    source, _ = _nchw(1, 3, 8, 9, 5, 3, 3)
    module = parse_module(source)
    (conv,) = [op for op in module.walk() if op.name == "linalg.conv_2d_nchw_fchw"]
    found = match_contraction(conv)
    assert isinstance(found, Contraction)
    # Loops (n, f, oh, ow, c, kh, kw): C's contiguous loop ow comes from
    # the image, so the filter is the lhs (rows f) and the image the rhs
    # (columns ow); k is (c, kh, kw) flattened.
    assert found.lhs is conv.operands[1] and found.rhs is conv.operands[0]
    assert (found.m, found.n, found.batch) == (1, 3, (0, 2))
    assert found.packed_k == (4, 5, 6) and found.static_k() == 27
    assert found.outer_reductions == ()
    assert found.generic is not None
    found.generic.erase()


@pytest.mark.parametrize(
    ("shape", "stride", "dilation"),
    [((2, 3, 9, 11, 5, 3, 3), 1, 1), ((1, 4, 11, 13, 7, 3, 2), 2, 2)],
)
def test_interpreted_microkernel_is_the_plain_loops_bit_for_bit(
    shape, stride, dilation
):
    """Small tiles: several blocks of the flattened k (27 or 24 steps by 8),
    edge panels in rows and columns, strided and dilated windows."""
    source, out_shape = _nchw(*shape, stride=stride, dilation=dilation)
    n, c, h, w, f, kh, kw = shape
    rng = np.random.default_rng(5)
    x = rng.standard_normal((n, c, h, w)).astype(np.float32)
    k = rng.standard_normal((f, c, kh, kw)).astype(np.float32)
    y0 = rng.standard_normal(out_shape).astype(np.float32)
    results = []
    for pipeline in (
        "convert-linalg-to-loops-ext",
        "linalg-contraction-microkernel{vector-bits=256 min-multiply-adds=0 "
        "cache-tile=8,16,8}",
    ):
        module = parse_module(source)
        if pipeline:
            apply_pipeline(pipeline, module)
            assert "linalg.conv_2d_nchw_fchw" not in str(module)
        run = interpret(module, "conv", [x, k, y0])
        results.append(np.asarray(run.arguments[2]))
    assert np.array_equal(results[0], results[1])
    np.testing.assert_allclose(
        results[1], y0 + _reference(x, k, stride, dilation), rtol=1e-4, atol=1e-4
    )


CNN_LAYER = """
func.func @layer(%x: tensor<1x8x20x24xf32>, %w: tensor<16x8x3x3xf32>, %bias: tensor<16xf32>) -> tensor<1x16x20x24xf32> {
  %zero = arith.constant 0.0 : f32
  %padded = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %zero : f32
  } : tensor<1x8x20x24xf32> to tensor<1x8x22x26xf32>
  %e = tensor.empty() : tensor<1x16x20x24xf32>
  %init = linalg.broadcast ins(%bias : tensor<16xf32>) outs(%e : tensor<1x16x20x24xf32>) dimensions = [0, 2, 3]
  %conv = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
    ins(%padded, %w : tensor<1x8x22x26xf32>, tensor<16x8x3x3xf32>) outs(%init : tensor<1x16x20x24xf32>) -> tensor<1x16x20x24xf32>
  %relu = linalg.generic {indexing_maps = [affine_map<(a, b, c, d) -> (a, b, c, d)>, affine_map<(a, b, c, d) -> (a, b, c, d)>],
                          iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
    ins(%conv : tensor<1x16x20x24xf32>) outs(%e : tensor<1x16x20x24xf32>) {
  ^bb0(%in: f32, %out: f32):
    %positive = arith.cmpf ugt, %in, %zero : f32
    %r = arith.select %positive, %in, %zero : f32
    linalg.yield %r : f32
  } -> tensor<1x16x20x24xf32>
  return %relu : tensor<1x16x20x24xf32>
}
"""


@pytest.mark.parametrize("threads", [1, 2])
def test_compiled_padded_convolution_with_bias_and_relu_is_the_plain_loops(threads):
    rng = np.random.default_rng(6)
    x = rng.standard_normal((1, 8, 20, 24)).astype(np.float32)
    w = rng.standard_normal((16, 8, 3, 3)).astype(np.float32)
    bias = rng.standard_normal(16).astype(np.float32)
    fast = compile_module(parse_module(CNN_LAYER), threads=threads)
    plain = compile_module(parse_module(CNN_LAYER), microkernels=False)
    assert "<16 x float>" in fast.llvm_ir or "<8 x float>" in fast.llvm_ir
    got = fast["layer"](x, w, bias)
    assert np.array_equal(got, plain["layer"](x, w, bias))
    padded = np.pad(x, ((0, 0), (0, 0), (1, 1), (1, 1)))
    expected = np.maximum(_reference(padded, w, 1, 1) + bias[None, :, None, None], 0)
    np.testing.assert_allclose(got, expected, rtol=1e-4, atol=1e-4)


DYNAMIC = """
func.func @conv(%x: memref<?x?x?x?xf32>, %w: memref<?x?x?x?xf32>, %y: memref<?x?x?x?xf32>) {
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%x, %w : memref<?x?x?x?xf32>, memref<?x?x?x?xf32>) outs(%y : memref<?x?x?x?xf32>)
  return
}
"""


def test_dynamic_extents_split_k_by_the_loops_run_time_extents():
    """k's extent and its split into (c, kh, kw) come from the operands'
    dimensions at run time; interpreted and compiled, the plain loops' bits."""
    rng = np.random.default_rng(9)
    x = rng.standard_normal((2, 5, 10, 19)).astype(np.float32)
    k = rng.standard_normal((9, 5, 3, 2)).astype(np.float32)
    y0 = rng.standard_normal((2, 9, 8, 18)).astype(np.float32)
    results = []
    for pipeline in (
        "convert-linalg-to-loops-ext",
        "linalg-contraction-microkernel{vector-bits=256 min-multiply-adds=0 "
        "cache-tile=6,16,7}",
    ):
        module = parse_module(DYNAMIC)
        apply_pipeline(pipeline, module)
        results.append(np.asarray(interpret(module, "conv", [x, k, y0]).arguments[2]))
    assert np.array_equal(results[0], results[1])
    compiled = compile_module(parse_module(DYNAMIC))
    y = y0.copy()
    compiled["conv"](x, k, y)
    assert np.array_equal(y, results[0])
    np.testing.assert_allclose(y, y0 + _reference(x, k, 1, 1), rtol=1e-4, atol=1e-4)
