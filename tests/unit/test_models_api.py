"""`linalg_ext.models.compile_model` on small torch-mlir-style modules: what
it computes agrees with the interpreter and numpy; it runs the same passes as
`linalg-ext-model-pipeline{to=tensors}`; bad sources are one-line errors.

The modules are written here in the shape torch-mlir gives ONNX models
(Gemm with transB: a constant `linalg.transpose` of the weight; bias and
activation as elementwise generics; softmax as max, subtract, exp, sum,
divide), small enough for the interpreter. Compiling costs a second or two:
the tests share two compiled modules.
"""

from __future__ import annotations

import struct

import numpy as np
import pytest

from helpers import parse_module, print_module
from linalg_ext.context import make_context
from linalg_ext.jit import JitError
from linalg_ext.lowering.fast_math import FastMathMode
from linalg_ext.models import (
    MODEL_PIPELINE,
    CompiledModel,
    ModelError,
    compile_model,
    model_pipeline,
)
from linalg_ext.passes.linalg_ext_model_pipeline import LinalgExtModelPipelinePass
from linalg_ext.pipelines import apply_pipeline
from linalg_ext.running import run_function

RNG = np.random.default_rng(21)
W1 = RNG.standard_normal((6, 4)).astype(np.float32)  # Gemm transB: (out, in)
B1 = RNG.standard_normal(6).astype(np.float32)
W2 = RNG.standard_normal((6, 3)).astype(np.float32)  # MatMul: (in, out)


def _dense(array: np.ndarray) -> str:
    rows = ", ".join(
        "[" + ", ".join(f"{v!r}" for v in row) + "]" for row in array.tolist()
    )
    return f"dense<[{rows}]>"


def _blob(array: np.ndarray) -> str:
    # A resource blob: its alignment (4 bytes, little-endian), then the data.
    return "0x" + (struct.pack("<I", 4) + array.astype("<f4").tobytes()).hex().upper()


STATIC = f"""
#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d1)>
#map2 = affine_map<(d0, d1) -> (d0, 0)>
module {{
  func.func @mlp(%arg0: tensor<2x4xf32>) -> tensor<2x3xf32> {{
    %cst = arith.constant 0.000000e+00 : f32
    %w1 = arith.constant {_dense(W1)} : tensor<6x4xf32>
    %b1 = arith.constant dense<{B1.tolist()!r}> : tensor<6xf32>
    %w2 = arith.constant dense_resource<torch_tensor_6_3_torch.float32> : tensor<6x3xf32>
    %0 = tensor.empty() : tensor<4x6xf32>
    %t = linalg.transpose ins(%w1 : tensor<6x4xf32>) outs(%0 : tensor<4x6xf32>) permutation = [1, 0]
    %1 = tensor.empty() : tensor<2x6xf32>
    %2 = linalg.fill ins(%cst : f32) outs(%1 : tensor<2x6xf32>) -> tensor<2x6xf32>
    %3 = linalg.matmul ins(%arg0, %t : tensor<2x4xf32>, tensor<4x6xf32>) outs(%2 : tensor<2x6xf32>) -> tensor<2x6xf32>
    %4 = linalg.generic {{indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]}} ins(%3, %b1 : tensor<2x6xf32>, tensor<6xf32>) outs(%1 : tensor<2x6xf32>) {{
    ^bb0(%in: f32, %in_0: f32, %out: f32):
      %9 = arith.addf %in, %in_0 : f32
      linalg.yield %9 : f32
    }} -> tensor<2x6xf32>
    %5 = linalg.generic {{indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]}} ins(%4 : tensor<2x6xf32>) outs(%1 : tensor<2x6xf32>) {{
    ^bb0(%in: f32, %out: f32):
      %9 = arith.cmpf ugt, %in, %cst : f32
      %10 = arith.select %9, %in, %cst : f32
      linalg.yield %10 : f32
    }} -> tensor<2x6xf32>
    %6 = tensor.empty() : tensor<2x3xf32>
    %7 = linalg.fill ins(%cst : f32) outs(%6 : tensor<2x3xf32>) -> tensor<2x3xf32>
    %8 = linalg.matmul ins(%5, %w2 : tensor<2x6xf32>, tensor<6x3xf32>) outs(%7 : tensor<2x3xf32>) -> tensor<2x3xf32>
    return %8 : tensor<2x3xf32>
  }}
  func.func @softmax(%arg0: tensor<3x5xf32>) -> tensor<3x5xf32> {{
    %ninf = arith.constant 0xFF800000 : f32
    %zero = arith.constant 0.000000e+00 : f32
    %0 = tensor.empty() : tensor<3xf32>
    %1 = linalg.fill ins(%ninf : f32) outs(%0 : tensor<3xf32>) -> tensor<3xf32>
    %2 = linalg.generic {{indexing_maps = [#map, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}} ins(%arg0 : tensor<3x5xf32>) outs(%1 : tensor<3xf32>) {{
    ^bb0(%in: f32, %out: f32):
      %m = arith.maximumf %in, %out : f32
      linalg.yield %m : f32
    }} -> tensor<3xf32>
    %expanded = tensor.expand_shape %2 [[0, 1]] output_shape [3, 1] : tensor<3xf32> into tensor<3x1xf32>
    %3 = tensor.empty() : tensor<3x5xf32>
    %4 = linalg.generic {{indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel"]}} ins(%arg0, %expanded : tensor<3x5xf32>, tensor<3x1xf32>) outs(%3 : tensor<3x5xf32>) {{
    ^bb0(%in: f32, %in_1: f32, %out: f32):
      %s = arith.subf %in, %in_1 : f32
      linalg.yield %s : f32
    }} -> tensor<3x5xf32>
    %5 = linalg.generic {{indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]}} ins(%4 : tensor<3x5xf32>) outs(%3 : tensor<3x5xf32>) {{
    ^bb0(%in: f32, %out: f32):
      %e = math.exp %in : f32
      linalg.yield %e : f32
    }} -> tensor<3x5xf32>
    %6 = tensor.empty() : tensor<3x1xf32>
    %7 = linalg.fill ins(%zero : f32) outs(%6 : tensor<3x1xf32>) -> tensor<3x1xf32>
    %8 = linalg.generic {{indexing_maps = [#map, #map2], iterator_types = ["parallel", "reduction"]}} ins(%5 : tensor<3x5xf32>) outs(%7 : tensor<3x1xf32>) {{
    ^bb0(%in: f32, %out: f32):
      %a = arith.addf %in, %out : f32
      linalg.yield %a : f32
    }} -> tensor<3x1xf32>
    %9 = linalg.generic {{indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel"]}} ins(%5, %8 : tensor<3x5xf32>, tensor<3x1xf32>) outs(%3 : tensor<3x5xf32>) {{
    ^bb0(%in: f32, %in_1: f32, %out: f32):
      %d = arith.divf %in, %in_1 : f32
      linalg.yield %d : f32
    }} -> tensor<3x5xf32>
    return %9 : tensor<3x5xf32>
  }}
}}

{{-#
  dialect_resources: {{
    builtin: {{
      torch_tensor_6_3_torch.float32: "{_blob(W2)}"
    }}
  }}
#-}}
"""

DYNAMIC = f"""
#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d1)>
module {{
  func.func @gemm_relu(%arg0: tensor<?x4xf32>) -> tensor<?x6xf32> {{
    %c0 = arith.constant 0 : index
    %cst = arith.constant 0.000000e+00 : f32
    %w1 = arith.constant {_dense(W1)} : tensor<6x4xf32>
    %b1 = arith.constant dense<{B1.tolist()!r}> : tensor<6xf32>
    %0 = tensor.empty() : tensor<4x6xf32>
    %t = linalg.transpose ins(%w1 : tensor<6x4xf32>) outs(%0 : tensor<4x6xf32>) permutation = [1, 0]
    %dim = tensor.dim %arg0, %c0 : tensor<?x4xf32>
    %1 = tensor.empty(%dim) : tensor<?x6xf32>
    %2 = linalg.fill ins(%cst : f32) outs(%1 : tensor<?x6xf32>) -> tensor<?x6xf32>
    %3 = linalg.matmul ins(%arg0, %t : tensor<?x4xf32>, tensor<4x6xf32>) outs(%2 : tensor<?x6xf32>) -> tensor<?x6xf32>
    %4 = linalg.generic {{indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]}} ins(%3, %b1 : tensor<?x6xf32>, tensor<6xf32>) outs(%1 : tensor<?x6xf32>) {{
    ^bb0(%in: f32, %in_0: f32, %out: f32):
      %9 = arith.addf %in, %in_0 : f32
      %10 = arith.cmpf ugt, %9, %cst : f32
      %11 = arith.select %10, %9, %cst : f32
      linalg.yield %11 : f32
    }} -> tensor<?x6xf32>
    return %4 : tensor<?x6xf32>
  }}
}}
"""


def _mlp(x: np.ndarray) -> np.ndarray:
    return np.maximum(x @ W1.T + B1, 0) @ W2


def _softmax(x: np.ndarray) -> np.ndarray:
    e = np.exp(x - x.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


@pytest.fixture(scope="module")
def static_model() -> CompiledModel:
    return compile_model(STATIC)


def test_static_model_matches_interpreter_and_numpy(static_model):
    module = parse_module(STATIC)
    x = RNG.standard_normal((2, 4)).astype(np.float32)
    s = RNG.standard_normal((3, 5)).astype(np.float32)
    assert static_model.function_names == ["mlp", "softmax"]
    for name, value, reference in (("mlp", x, _mlp), ("softmax", s, _softmax)):
        compiled = static_model[name](value)
        interpreted = run_function(module, name, [value]).results[0]
        np.testing.assert_allclose(compiled, interpreted, rtol=1e-6, atol=1e-6)
        np.testing.assert_allclose(compiled, reference(value), rtol=1e-5, atol=1e-6)


def test_a_model_of_several_functions_is_called_by_name(static_model):
    with pytest.raises(JitError, match=r"2 public functions \(@mlp, @softmax\)"):
        static_model(np.zeros((2, 4), np.float32))
    with pytest.raises(JitError, match="no function @main"):
        static_model["main"]


def test_dynamic_batch_from_a_file(tmp_path):
    path = tmp_path / "model.mlir"
    path.write_text(DYNAMIC)
    model = compile_model(path, fast_math="contract", threads=2)
    module = parse_module(DYNAMIC)
    for batch in (1, 5):
        x = RNG.standard_normal((batch, 4)).astype(np.float32)
        y = model(x)
        assert y.shape == (batch, 6)
        reference = np.maximum(x @ W1.T + B1, 0)
        np.testing.assert_allclose(y, reference, rtol=1e-5, atol=1e-5)
        interpreted = run_function(module, "gemm_relu", [x]).results[0]
        np.testing.assert_allclose(y, interpreted, rtol=1e-5, atol=1e-5)


def test_compile_model_runs_the_pass_at_tensors():
    # compile_model = linalg-ext-model-pipeline{to=tensors}, then compile_module.
    # One parse: each parse names its resource blobs anew.
    module = parse_module(STATIC)
    contracts: list[tuple[int, FastMathMode]] = [(65536, "reassoc"), (4, "none")]
    for fold_limit, fast_math in contracts:
        by_text = module.clone()
        apply_pipeline(model_pipeline(fold_limit, fast_math), by_text)
        by_pass = module.clone()
        LinalgExtModelPipelinePass(
            fold_limit=fold_limit, fast_math=fast_math, to="tensors"
        ).apply(make_context(), by_pass)
        assert print_module(by_pass) == print_module(by_text)
        # Folded (default limit), or read through the contraction's map.
        assert "linalg.transpose" not in print_module(by_pass)
    assert model_pipeline() == MODEL_PIPELINE
    # exp joins a reduction loop only where that loop vectorises.
    assert "math-into-reduction=true" in MODEL_PIPELINE
    assert "math-into-reduction=true" in model_pipeline(fast_math="reassoc")
    assert "math-into-reduction" not in model_pipeline(fast_math="contract")
    assert "math-into-reduction" not in model_pipeline(approximate_math=False)
    assert "math-into-reduction=true" in model_pipeline(
        fast_math="fast", approximate_math=False
    )


def test_tile_and_fuse_is_an_option_of_the_pipeline():
    assert "linalg-tile-and-fuse" not in MODEL_PIPELINE
    tiled = model_pipeline(tile_sizes=(1, 2))
    assert tiled == (
        MODEL_PIPELINE + ",linalg-tile-and-fuse{tile-sizes=1,2},canonicalize-ext"
    )
    module = parse_module(STATIC)
    by_pass = module.clone()
    apply_pipeline("linalg-ext-model-pipeline{tile-sizes=1,2 to=tensors}", by_pass)
    by_text = module.clone()
    apply_pipeline(tiled, by_text)
    assert print_module(by_pass) == print_module(by_text)
    assert "scf.for" in print_module(by_pass)  # the roots are tiled
    # Same values as untiled, the interpreter's and numpy's.
    model = compile_model(STATIC, tile_sizes=(1, 2))
    x = RNG.standard_normal((2, 4)).astype(np.float32)
    s = RNG.standard_normal((3, 5)).astype(np.float32)
    for name, value, reference in (("mlp", x, _mlp), ("softmax", s, _softmax)):
        interpreted = run_function(by_pass, name, [value]).results[0]
        np.testing.assert_allclose(
            model[name](value), interpreted, rtol=1e-6, atol=1e-6
        )
        np.testing.assert_allclose(interpreted, reference(value), rtol=1e-5, atol=1e-6)


def test_the_pass_lowers_to_llvm():
    module = parse_module(DYNAMIC)
    apply_pipeline("linalg-ext-model-pipeline{fast-math=fast}", module)
    assert {op.name.split(".")[0] for op in module.walk()} == {"builtin", "llvm"}


def test_models_approximate_math_by_default():
    # compile_model's contract (arcp, approximate math): the softmax's exp
    # is a polynomial, no llvm.intr.exp; the interpreter's contract keeps it.
    def lowered(options: str) -> str:
        module = parse_module(STATIC)
        apply_pipeline(f"linalg-ext-model-pipeline{{{options}}}", module)
        return print_module(module)

    assert "llvm.intr.exp" not in lowered("")
    # The softmax's division by its row sum may use the reciprocal.
    assert "fastmath<arcp>" in lowered("")
    assert "arcp" not in lowered("fast-math=reassoc")
    assert "llvm.intr.exp" in lowered("fast-math=none approximate-math=false")
    exact = compile_model(STATIC, fast_math="none", approximate_math=False)
    s = RNG.standard_normal((3, 5)).astype(np.float32)
    np.testing.assert_allclose(exact["softmax"](s), _softmax(s), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize(
    ("source", "message"),
    [
        ("func.func @f( {", r"cannot parse <model>:1:\d+: .+"),
        (
            "func.func @f() {\n  %x = arith.addf\n}",
            "cannot parse <model>:3:1: operand expected",
        ),
        (
            "func.func @f(%a: f32) -> f64 {\n  func.return %a : f32\n}",
            "invalid IR: .+",
        ),
        (42, "compile_model takes MLIR text .*, not int"),
    ],
)
def test_a_bad_source_is_one_line(source, message):
    with pytest.raises(ModelError, match=message) as caught:
        compile_model(source)
    assert "\n" not in str(caught.value)


def test_a_missing_file_and_bad_options_are_one_line(tmp_path):
    with pytest.raises(ModelError, match="cannot read .*missing.mlir: No such file"):
        compile_model(tmp_path / "missing.mlir")
    with pytest.raises(ModelError, match="fold_limit must be >= 0"):
        compile_model(DYNAMIC, fold_limit=-1)
    for sizes in ((-1,), "1,2", (1.5,)):
        with pytest.raises(ModelError, match="tile_sizes must be a sequence of ints"):
            compile_model(DYNAMIC, tile_sizes=sizes)  # pyright: ignore[reportArgumentType]
    with pytest.raises(ModelError, match="fast_math") as caught:
        compile_model(DYNAMIC, fast_math="loose")  # pyright: ignore[reportArgumentType]
    assert "\n" not in str(caught.value)
