"""The OpDSL ops `linalg_ext.compat.linalg_opdsl` adds (matvec, dot, depthwise
and 1-D/3-D convolutions, poolings, quantized forms, ...), and the OpDSL
elementwise `linalg.round`, `erf`, `div_unsigned` (`compat.linalg_ops`).

- Against mlir-opt-22 (skipped without it): on every op of the table, our
  `linalg-generalization-ext` gives upstream's indexing maps, iterator types
  and body, op for op; and the named op on our interpreter computes what
  upstream's generalized form computes on it.
- Against numpy, independently of the table: a strided, dilated depthwise
  convolution, poolings, a quantized convolution, the contractions.
- Lowered to loops (every op; some run against the named op) and compiled
  (`--backend jit`) against the interpreter; bad input is one diagnostic
  naming the op. Their tiling is checked with the other structured ops'
  (test_tiling_structured.py, `opdsl_programs.TILE_CASES`).
"""

from __future__ import annotations

import shutil
import subprocess

import numpy as np
import pytest
from opdsl_programs import (
    ALL_OPS,
    MEMREF_OPS,
    elementwise_function,
    op_function,
    variants,
)
from xdsl.dialects import func
from xdsl.dialects.linalg.ops import GenericOp
from xdsl.utils.exceptions import ParseError, VerifyException

from helpers import (
    after_pass,
    function_names,
    meaning_difference,
    parse_module,
    print_module,
)
from linalg_ext.compat.linalg_opdsl import DESCRIPTIONS
from linalg_ext.context import make_context
from linalg_ext.jit import compile_module
from linalg_ext.jit.compiled import run_function as run_compiled
from linalg_ext.passes.convert_linalg_to_loops import ConvertLinalgToLoopsPass
from linalg_ext.passes.linalg_generalization_ext import LinalgGeneralizationExtPass
from linalg_ext.running import find_function, random_inputs, run_function

MLIR_OPT = shutil.which("mlir-opt-22")

# --------------------------------------------------------------------------
# Against upstream
# --------------------------------------------------------------------------


def _generics(module) -> dict[str, GenericOp]:
    return {
        f.sym_name.data: next(op for op in f.walk() if isinstance(op, GenericOp))
        for f in module.walk()
        if isinstance(f, func.FuncOp)
    }


@pytest.fixture(scope="module")
def upstream_generalized():
    if MLIR_OPT is None:
        pytest.skip("mlir-opt-22 is not installed")
    before = parse_module(ALL_OPS)
    upstream = subprocess.run(
        [MLIR_OPT, "--linalg-generalize-named-ops"],
        input=print_module(before),
        capture_output=True,
        text=True,
    )
    assert upstream.returncode == 0, upstream.stderr
    return parse_module(upstream.stdout)


def test_generalization_is_upstreams_op_for_op(upstream_generalized):
    ours = _generics(after_pass(LinalgGeneralizationExtPass(), ALL_OPS))
    theirs = _generics(upstream_generalized)
    assert sorted(ours) == sorted(theirs)
    for name, generic in ours.items():
        upstream = theirs[name]
        assert generic.indexing_maps == upstream.indexing_maps, name
        assert generic.iterator_types == upstream.iterator_types, name
        if name.startswith("fill_rng_2d"):
            # Upstream's pass folds the constants of this body out of it;
            # test_fill_rng.py compares it with upstream's unfolded body.
            continue
        # Upstream's trunci carries overflow flags xDSL's does not: compare
        # the ops and their operands, not their properties.
        mine = [
            (op.name, [str(v.type) for v in op.operands]) for op in generic.body.walk()
        ]
        upstreams = [
            (op.name, [str(v.type) for v in op.operands]) for op in upstream.body.walk()
        ]
        assert mine == upstreams, name


def test_interpreter_computes_what_upstreams_generic_computes(upstream_generalized):
    named = parse_module(ALL_OPS)
    for name in function_names(named):
        assert meaning_difference(upstream_generalized, named, name, trials=1) is None


# --------------------------------------------------------------------------
# Against numpy
# --------------------------------------------------------------------------


def _run(text: str, name: str, inputs: list) -> np.ndarray:
    return run_function(parse_module(text), name, inputs).results[0]


def test_strided_dilated_depthwise_convolution_against_numpy():
    text = """
func.func @dw(%i: tensor<2x9x10x3xf32>, %k: tensor<3x2x3xf32>, %o: tensor<2x3x4x3xf32>) -> tensor<2x3x4x3xf32> {
  %r = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<[1, 3]> : tensor<2xi64>, strides = dense<[3, 2]> : tensor<2xi64>} ins(%i, %k : tensor<2x9x10x3xf32>, tensor<3x2x3xf32>) outs(%o : tensor<2x3x4x3xf32>) -> tensor<2x3x4x3xf32>
  return %r : tensor<2x3x4x3xf32>
}
"""
    rng = np.random.default_rng(0)
    image = rng.standard_normal((2, 9, 10, 3)).astype(np.float32)
    kernel = rng.standard_normal((3, 2, 3)).astype(np.float32)
    init = rng.standard_normal((2, 3, 4, 3)).astype(np.float32)
    expected = init.astype(np.float64)
    for kh in range(3):
        for kw in range(2):
            window = image[:, kh : kh + 7 : 3, kw * 3 : kw * 3 + 7 : 2, :]
            expected = expected + window * kernel[kh, kw]
    result = _run(text, "dw", [image, kernel, init])
    np.testing.assert_allclose(result, expected, rtol=1e-5, atol=1e-5)


def test_poolings_against_numpy():
    text = """
func.func @sum(%x: tensor<1x2x5x5xf32>, %w: tensor<2x2xf32>, %o: tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32> {
  %r = linalg.pooling_nchw_sum {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%x, %w : tensor<1x2x5x5xf32>, tensor<2x2xf32>) outs(%o : tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  return %r : tensor<1x2x2x2xf32>
}
func.func @umax(%x: tensor<1x4x2xi8>, %w: tensor<2xi8>, %o: tensor<1x3x2xi32>) -> tensor<1x3x2xi32> {
  %r = linalg.pooling_nwc_max_unsigned ins(%x, %w : tensor<1x4x2xi8>, tensor<2xi8>) outs(%o : tensor<1x3x2xi32>) -> tensor<1x3x2xi32>
  return %r : tensor<1x3x2xi32>
}
"""
    rng = np.random.default_rng(1)
    x = rng.standard_normal((1, 2, 5, 5)).astype(np.float32)
    init = rng.standard_normal((1, 2, 2, 2)).astype(np.float32)
    windows = [x[:, :, i : i + 3 : 2, j : j + 3 : 2] for i in (0, 1) for j in (0, 1)]
    expected = init + sum(windows)
    window = np.zeros((2, 2), np.float32)
    np.testing.assert_allclose(
        _run(text, "sum", [x, window, init]), expected, rtol=1e-6
    )
    # Read as unsigned: -1 (i8) is 255, and beats every signed value.
    y = np.array([[[-1, 3], [5, -128], [7, 2], [0, 1]]], np.int8)
    zeros = np.zeros((1, 3, 2), np.int32)
    unsigned = y.astype(np.uint8).astype(np.int32)
    expected_max = np.maximum(unsigned[:, :3], unsigned[:, 1:])
    result = _run(text, "umax", [y, np.zeros(2, np.int8), zeros])
    np.testing.assert_array_equal(result, expected_max)


def test_quantized_convolution_and_contractions_against_numpy():
    text = """
func.func @q(%i: tensor<1x4x4x2xi8>, %k: tensor<2x2x2xi8>, %iz: i32, %kz: i32, %o: tensor<1x3x3x2xi32>) -> tensor<1x3x3x2xi32> {
  %r = linalg.depthwise_conv_2d_nhwc_hwc_q ins(%i, %k, %iz, %kz : tensor<1x4x4x2xi8>, tensor<2x2x2xi8>, i32, i32) outs(%o : tensor<1x3x3x2xi32>) -> tensor<1x3x3x2xi32>
  return %r : tensor<1x3x3x2xi32>
}
func.func @c(%a: tensor<2x3x4xf32>, %b: tensor<2x4x5xf32>, %m: tensor<3x4xf32>, %v: tensor<4xf32>, %acc: tensor<3x5xf32>, %x: tensor<3xf32>, %s: tensor<f32>) -> (tensor<3x5xf32>, tensor<3xf32>, tensor<f32>) {
  %0 = linalg.batch_reduce_matmul ins(%a, %b : tensor<2x3x4xf32>, tensor<2x4x5xf32>) outs(%acc : tensor<3x5xf32>) -> tensor<3x5xf32>
  %1 = linalg.matvec ins(%m, %v : tensor<3x4xf32>, tensor<4xf32>) outs(%x : tensor<3xf32>) -> tensor<3xf32>
  %2 = linalg.dot ins(%v, %v : tensor<4xf32>, tensor<4xf32>) outs(%s : tensor<f32>) -> tensor<f32>
  return %0, %1, %2 : tensor<3x5xf32>, tensor<3xf32>, tensor<f32>
}
"""
    rng = np.random.default_rng(2)
    image = rng.integers(-128, 128, (1, 4, 4, 2), dtype=np.int8)
    kernel = rng.integers(-128, 128, (2, 2, 2), dtype=np.int8)
    init = rng.integers(-1000, 1000, (1, 3, 3, 2), dtype=np.int32)
    shifted_image = image.astype(np.int64) - 3
    shifted_kernel = kernel.astype(np.int64) + 5
    expected = init.astype(np.int64)
    for kh in range(2):
        for kw in range(2):
            window = shifted_image[:, kh : kh + 3, kw : kw + 3, :]
            expected = expected + window * shifted_kernel[kh, kw]
    result = _run(text, "q", [image, kernel, 3, -5, init])
    np.testing.assert_array_equal(result, expected)

    a = rng.standard_normal((2, 3, 4)).astype(np.float32)
    b = rng.standard_normal((2, 4, 5)).astype(np.float32)
    m = rng.standard_normal((3, 4)).astype(np.float32)
    v = rng.standard_normal(4).astype(np.float32)
    acc = rng.standard_normal((3, 5)).astype(np.float32)
    x = rng.standard_normal(3).astype(np.float32)
    s = np.array(0.5, np.float32)
    results = run_function(parse_module(text), "c", [a, b, m, v, acc, x, s]).results
    np.testing.assert_allclose(
        results[0], acc + np.einsum("bmk,bkn->mn", a, b), rtol=1e-5
    )
    np.testing.assert_allclose(results[1], x + m @ v, rtol=1e-5)
    np.testing.assert_allclose(results[2], 0.5 + v @ v, rtol=1e-5)


# --------------------------------------------------------------------------
# Lowered, compiled, tiled, refused
# --------------------------------------------------------------------------


RUN_AS_LOOPS = (
    "depthwise_conv_2d_nhwc_hwc_m",
    "conv_2d_nhwc_hwcf_q_m",
    "pooling_nwc_min_unsigned_m",
    "pooling_ncw_sum_m",
    "conv_1d_m",
    "dot_m",
    "batch_reduce_matmul_m",
    "erf_m",
)
"""The lowered functions run against the named ops (the loops run point by
point on the interpreter: all of them would take half a minute)."""


def test_every_op_lowers_to_loops_computing_what_it_computes():
    named = parse_module(MEMREF_OPS)
    loops = parse_module(MEMREF_OPS)
    ConvertLinalgToLoopsPass().apply(make_context(), loops)
    loops.verify()
    assert not [op.name for op in loops.walk() if op.name.startswith("linalg.")]
    for name in RUN_AS_LOOPS:
        assert meaning_difference(named, loops, name, trials=1) is None, name


# --------------------------------------------------------------------------
# Compiled, tiled, refused
# --------------------------------------------------------------------------

COMPILED = (
    "linalg.depthwise_conv_2d_nhwc_hwc",
    "linalg.depthwise_conv_2d_nchw_chw",
    "linalg.conv_2d_nhwc_hwcf_q",
    "linalg.pooling_nhwc_max_unsigned",
    "linalg.pooling_ndhwc_sum",
    "linalg.batch_vecmat",
    "linalg.dot",
)


def test_compiled_computes_what_the_interpreter_does():
    descriptions = [d for d in DESCRIPTIONS if d.name in COMPILED]
    text = "\n".join(
        op_function(d, element, result, kind, name)
        for d in descriptions
        for element, result, kind, name in variants(d)
    )
    text += elementwise_function("linalg.round", "tensor", "round")
    text += elementwise_function("linalg.erf", "memref", "erf")
    module = parse_module(text)
    compiled = compile_module(module.clone())
    rng = np.random.default_rng(3)
    for name in function_names(module):
        inputs = random_inputs(find_function(module, name), rng)
        copies = [v.copy() if isinstance(v, np.ndarray) else v for v in inputs]
        expected = run_function(module, name, inputs)
        actual = run_compiled(compiled, name, copies)
        for want, got in zip(
            [*expected.results, *expected.arguments],
            [*actual.results, *actual.arguments],
            strict=True,
        ):
            np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5, err_msg=name)


BAD = {
    "operand count": (
        "%r = linalg.dot ins(%v : tensor<4xf32>) outs(%s : tensor<f32>) -> tensor<f32>",
        "'linalg.dot' expects 2 input(s) and 1 output, got 1 and 1",
    ),
    "strides rank": (
        "%r = linalg.pooling_nwc_sum {strides = dense<1> : tensor<2xi64>} ins(%x, %w : "
        "tensor<1x4x2xf32>, tensor<2xf32>) outs(%o : tensor<1x3x2xf32>) -> "
        "tensor<1x3x2xf32>",
        "'linalg.pooling_nwc_sum' op expects strides to be dense<...> : tensor<1xi64>",
    ),
    "unsigned floats": (
        "%r = linalg.pooling_nwc_max_unsigned ins(%x, %w : tensor<1x4x2xf32>, "
        "tensor<2xf32>) outs(%o : tensor<1x3x2xf32>) -> tensor<1x3x2xf32>",
        "'linalg.pooling_nwc_max_unsigned' has no max unsigned of f32",
    ),
    "window too small": (
        "%r = linalg.pooling_nwc_sum ins(%x, %w : tensor<1x4x2xf32>, tensor<2xf32>) "
        "outs(%o : tensor<1x4x2xf32>) -> tensor<1x4x2xf32>",
        "'linalg.pooling_nwc_sum' op inferred input/output operand #0 has shape's "
        "dimension #1 to be greater than or equal to 5, but found 4",
    ),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_bad_input_is_one_diagnostic_naming_the_op(case: str):
    body, message = BAD[case]
    text = (
        "func.func @f(%v: tensor<4xf32>, %s: tensor<f32>, %x: tensor<1x4x2xf32>, "
        "%w: tensor<2xf32>, %o: tensor<1x3x2xf32>, %p: tensor<1x4x2xf32>) {\n"
        f"  {body.replace('outs(%o : tensor<1x4x2xf32>)', 'outs(%p : tensor<1x4x2xf32>)')}\n"
        "  return\n}\n"
    )
    with pytest.raises((ParseError, VerifyException)) as error:
        parse_module(text).verify()
    assert message in str(error.value)
