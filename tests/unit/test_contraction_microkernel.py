"""linalg-contraction-microkernel: which ops it takes, and that what it
writes computes what the op does, interpreted and compiled."""

from __future__ import annotations

import numpy as np
import pytest

from helpers import parse_module
from linalg_ext.checking import check_module
from linalg_ext.jit import JitError, compile_module
from linalg_ext.lowering.contraction import Contraction, match_contraction
from linalg_ext.lowering.cpu_target import (
    GENERIC_TARGET,
    CpuTarget,
    target_from_features,
)
from linalg_ext.pipelines import apply_pipeline
from linalg_ext.running import run_function as interpret

MATMULS = """
func.func @matmul(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>) {
  linalg.matmul ins(%a, %b : memref<?x?xf32>, memref<?x?xf32>) outs(%c : memref<?x?xf32>)
  return
}
func.func @matmul_static(%a: memref<13x11xf32>, %b: memref<11x19xf32>, %c: memref<13x19xf32>) {
  linalg.matmul ins(%a, %b : memref<13x11xf32>, memref<11x19xf32>) outs(%c : memref<13x19xf32>)
  return
}
func.func @on_tensors(%a: tensor<40x30xf32>, %b: tensor<30x50xf32>) -> tensor<40x50xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<40x50xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<40x50xf32>) -> tensor<40x50xf32>
  %r = linalg.matmul ins(%a, %b : tensor<40x30xf32>, tensor<30x50xf32>) outs(%c : tensor<40x50xf32>) -> tensor<40x50xf32>
  return %r : tensor<40x50xf32>
}
func.func @batch_nt(%a: tensor<3x20x24xf64>, %b: tensor<3x28x24xf64>, %c: tensor<3x20x28xf64>) -> tensor<3x20x28xf64> {
  %r = linalg_ext.batch_matmul ins(%a, %b : tensor<3x20x24xf64>, tensor<3x28x24xf64>) outs(%c : tensor<3x20x28xf64>) layout = "nt"
  return %r : tensor<3x20x28xf64>
}
"""

MICROKERNEL = "linalg-contraction-microkernel{min-multiply-adds=0 cache-tile=16,32,8}"


def _ops(module, name):
    return [op for op in module.walk() if op.name == name]


def test_matmul_family_matches_and_reads_its_loops():
    module = parse_module(MATMULS)
    (dynamic, static) = _ops(module, "linalg.matmul")[:2]
    found = match_contraction(dynamic)
    assert isinstance(found, Contraction)
    assert (found.m, found.n, found.k, found.batch) == (0, 1, 2, ())
    assert found.multiply_adds() is None
    assert found.generic is not None
    found.generic.erase()
    static_found = match_contraction(static)
    assert isinstance(static_found, Contraction)
    assert static_found.multiply_adds() == 13 * 11 * 19
    assert static_found.generic is not None
    static_found.generic.erase()


def test_tensors_are_refused_with_a_reason():
    module = parse_module(MATMULS)
    on_tensors = _ops(module, "linalg.matmul")[2]
    assert match_contraction(on_tensors) == "does not work on memrefs"


def test_targets_from_features():
    assert target_from_features({"avx512f", "avx2", "fma"}) == CpuTarget(512, 32, True)
    assert target_from_features({"avx2", "fma"}) == CpuTarget(256, 16, True)
    assert target_from_features({"sse4.2"}) == GENERIC_TARGET
    assert CpuTarget(512, 32, True).register_tile(4) == (8, 2)
    assert CpuTarget(256, 16, True).register_tile(4) == (6, 2)
    assert CpuTarget(512, 32, True).lanes(8) == 8


def _interpreted_matmul(a, b, c, pipeline):
    module = parse_module(MATMULS.split("func.func @on_tensors")[0])
    if pipeline:
        apply_pipeline(pipeline, module)
    run = interpret(module, "matmul", [a, b, c])
    assert run.results == []
    return np.asarray(run.arguments[2])  # the interpreter works on a copy


def test_interpreted_microkernel_is_the_plain_loops_bit_for_bit():
    rng = np.random.default_rng(1)
    a = rng.standard_normal((9, 13)).astype(np.float32)
    b = rng.standard_normal((13, 21)).astype(np.float32)
    c = rng.standard_normal((9, 21)).astype(np.float32)
    # (The interpreter's own linalg.matmul sums with numpy, in another
    # order: the plain loops are the reference.)
    plain = _interpreted_matmul(a, b, c.copy(), "convert-linalg-to-loops-ext")
    tiled = _interpreted_matmul(
        a, b, c.copy(), MICROKERNEL.replace("{", "{vector-bits=256 ")
    )
    assert np.array_equal(plain, tiled)
    np.testing.assert_allclose(tiled, c + a @ b, rtol=1e-5, atol=1e-5)


# 256 and 512 bits run in the lit tests (test_pass_meaning); 128 here.
@pytest.mark.parametrize("vector_bits", [128])
def test_pass_output_runs_as_the_input_on_the_interpreter_and_compiled(vector_bits):
    pipeline = MICROKERNEL.replace("{", f"{{vector-bits={vector_bits} ")
    for backend in ("interpreter", "jit"):
        report = check_module(
            parse_module(MATMULS.split("func.func @on_tensors")[0]),
            pipeline,
            trials=2,
            seed=3,
            backend=backend,
        )
        assert report.ok, [v.line() for v in report.verdicts]


def _matmul_module(m: int, n: int, k: int, element: str = "f32") -> str:
    return f"""
func.func @mm(%a: tensor<{m}x{k}x{element}>, %b: tensor<{k}x{n}x{element}>) -> tensor<{m}x{n}x{element}> {{
  %zero = arith.constant 0.0 : {element}
  %e = tensor.empty() : tensor<{m}x{n}x{element}>
  %c = linalg.fill ins(%zero : {element}) outs(%e : tensor<{m}x{n}x{element}>) -> tensor<{m}x{n}x{element}>
  %r = linalg.matmul ins(%a, %b : tensor<{m}x{k}x{element}>, tensor<{k}x{n}x{element}>) outs(%c : tensor<{m}x{n}x{element}>) -> tensor<{m}x{n}x{element}>
  return %r : tensor<{m}x{n}x{element}>
}}
"""


def test_compiled_by_default_bit_for_bit_as_the_plain_loops():
    """compile_module runs the micro-kernel by default; without fast-math
    the sums are the plain loops' to the last bit."""
    module = parse_module(_matmul_module(70, 90, 110))
    fast = compile_module(module)
    plain = compile_module(module, microkernels=False)
    assert "vector.fma" not in fast.llvm_ir
    assert "<16 x float>" in fast.llvm_ir or "<8 x float>" in fast.llvm_ir
    rng = np.random.default_rng(7)
    a = rng.standard_normal((70, 110)).astype(np.float32)
    b = rng.standard_normal((110, 90)).astype(np.float32)
    assert np.array_equal(fast["mm"](a, b), plain["mm"](a, b))
    np.testing.assert_allclose(fast["mm"](a, b), a @ b, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("element", ["f32", "f64"])
def test_compiled_with_contract_uses_fused_multiply_adds(element):
    module = parse_module(_matmul_module(33, 65, 47, element))
    compiled = compile_module(module, fast_math="contract")
    assert "llvm.fma.v" in compiled.llvm_ir
    dtype = np.float32 if element == "f32" else np.float64
    rng = np.random.default_rng(8)
    a = rng.standard_normal((33, 47)).astype(dtype)
    b = rng.standard_normal((47, 65)).astype(dtype)
    np.testing.assert_allclose(compiled["mm"](a, b), a @ b, rtol=1e-4, atol=1e-4)


def test_mismatched_extents_fail_with_the_interpreters_message():
    module = parse_module(MATMULS)
    a = np.ones((4, 5), np.float32)
    b = np.ones((6, 7), np.float32)
    c = np.zeros((4, 7), np.float32)
    with pytest.raises(Exception) as interpreted:
        interpret(module, "matmul", [a, b, c])
    compiled = compile_module(module)
    with pytest.raises(JitError) as native:
        compiled["matmul"](a, b, c)
    assert str(interpreted.value).splitlines()[0] in str(native.value)


CONVOLUTION = """
func.func @conv(%x: memref<1x6x9x5xf32>, %w: memref<3x3x5x10xf32>, %y: memref<1x4x7x10xf32>) {
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%x, %w : memref<1x6x9x5xf32>, memref<3x3x5x10xf32>) outs(%y : memref<1x4x7x10xf32>)
  return
}
"""


def test_a_convolution_is_a_contraction_with_its_window_packed_as_one_k():
    module = parse_module(CONVOLUTION)
    (conv,) = _ops(module, "linalg.conv_2d_nhwc_hwcf")
    found = match_contraction(conv)
    assert isinstance(found, Contraction)
    # Loops (n, oh, ow, f, kh, kw, c): rows ow, columns f, k = (kh, kw, c)
    # flattened in that order.
    assert (found.m, found.n, found.k) == (2, 3, 6)
    assert found.batch == (0, 1) and found.outer_reductions == ()
    assert found.packed_k == (4, 5, 6) and found.static_k() == 3 * 3 * 5
    assert found.generic is not None
    found.generic.erase()


def test_compiled_convolution_is_the_plain_loops_bit_for_bit():
    rng = np.random.default_rng(4)
    x = rng.standard_normal((1, 10, 12, 16)).astype(np.float32)
    w = rng.standard_normal((3, 3, 16, 40)).astype(np.float32)
    source = """
func.func @conv(%x: memref<1x10x12x16xf32>, %w: memref<3x3x16x40xf32>, %y: memref<1x8x10x40xf32>) {
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%x, %w : memref<1x10x12x16xf32>, memref<3x3x16x40xf32>) outs(%y : memref<1x8x10x40xf32>)
  return
}
"""
    fast = compile_module(parse_module(source))
    plain = compile_module(parse_module(source), microkernels=False)
    assert "<16 x float>" in fast.llvm_ir or "<8 x float>" in fast.llvm_ir
    y_fast = np.zeros((1, 8, 10, 40), np.float32)
    y_plain = np.zeros((1, 8, 10, 40), np.float32)
    fast["conv"](x, w, y_fast)
    plain["conv"](x, w, y_plain)
    assert np.array_equal(y_fast, y_plain)
    assert np.abs(y_fast).max() > 0
