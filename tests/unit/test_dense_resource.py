"""`dense_resource<key>` constants (MLIR's resource blobs, how torch-mlir
writes a model's weights) run, bufferize and compile as `dense<...>` ones:
the interpreter and the JIT agree with numpy on a small layer (matmul with
a resource weight, bias add, relu), and a blob that is missing, not hex or
of the wrong size is one line naming the op."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from xdsl.dialects.builtin import DenseResourceAttr, TensorType, f32

from helpers import parse_module
from linalg_ext.compat.resources import ResourceError, resource_array, resource_store
from linalg_ext.jit import compile_module
from linalg_ext.jit import run_function as run_jit
from linalg_ext.running import run_function as interpret

BIN = Path(sys.executable).parent


def blob(values: np.ndarray, dtype: str, alignment: int = 8) -> str:
    """MLIR's hex encoding of a blob: the alignment (little-endian uint32),
    then the elements, little-endian."""
    data = np.ascontiguousarray(values, dtype=np.dtype(dtype).newbyteorder("<"))
    return "0x" + (alignment.to_bytes(4, "little") + data.tobytes()).hex().upper()


# (MLIR element type, numpy dtype, zero literal, add, max, tolerance)
ELEMENT_KINDS = {
    "f32": ("f32", "f4", "0.0", "arith.addf", "arith.maximumf", 1e-5),
    "i64": ("i64", "i8", "0", "arith.addi", "arith.maxsi", 0),
    "f16": ("f16", "f2", "0.0", "arith.addf", "arith.maximumf", 1e-2),
}


def layer(kind: str, weight: np.ndarray, bias: np.ndarray) -> str:
    """A torch-mlir-like linear layer with relu, weights as resources."""
    t, dtype, zero, add, maximum, _ = ELEMENT_KINDS[kind]
    return f"""
func.func @forward(%x: tensor<2x4x{t}>) -> tensor<2x3x{t}> {{
  %w = arith.constant dense_resource<torch_tensor_4_3> : tensor<4x3x{t}>
  %b = arith.constant dense_resource<torch_tensor_3> : tensor<3x{t}>
  %zero = arith.constant {zero} : {t}
  %e = tensor.empty() : tensor<2x3x{t}>
  %f = linalg.fill ins(%zero : {t}) outs(%e : tensor<2x3x{t}>) -> tensor<2x3x{t}>
  %mm = linalg.matmul ins(%x, %w : tensor<2x4x{t}>, tensor<4x3x{t}>)
      outs(%f : tensor<2x3x{t}>) -> tensor<2x3x{t}>
  %r = linalg.generic {{indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>,
      affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>],
      iterator_types = ["parallel", "parallel"]}}
      ins(%mm, %b : tensor<2x3x{t}>, tensor<3x{t}>) outs(%e : tensor<2x3x{t}>) {{
  ^bb0(%m: {t}, %c: {t}, %o: {t}):
    %s = {add} %m, %c : {t}
    %y = {maximum} %s, %zero : {t}
    linalg.yield %y : {t}
  }} -> tensor<2x3x{t}>
  return %r : tensor<2x3x{t}>
}}
{{-#
  dialect_resources: {{
    builtin: {{
      torch_tensor_4_3: "{blob(weight, dtype)}",
      torch_tensor_3: "{blob(bias, dtype, alignment=4)}"
    }}
  }}
#-}}
"""


def _layer_data(kind: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    dtype = np.dtype(ELEMENT_KINDS[kind][1])
    rng = np.random.default_rng(7)
    if dtype.kind == "i":
        draw = lambda *shape: rng.integers(-5, 6, shape)  # noqa: E731
    else:
        draw = lambda *shape: rng.uniform(-1, 1, shape)  # noqa: E731
    return (
        draw(2, 4).astype(dtype),
        draw(4, 3).astype(dtype),
        abs(draw(3)).astype(dtype),  # most outputs above relu's 0
    )


@pytest.mark.parametrize("kind", sorted(ELEMENT_KINDS))
def test_layer_interpreter_jit_numpy(kind: str):
    x, weight, bias = _layer_data(kind)
    tolerance = ELEMENT_KINDS[kind][5]
    expected = np.maximum(
        x.astype(np.float64) @ weight.astype(np.float64) + bias, 0
    ).astype(x.dtype)
    module = parse_module(layer(kind, weight, bias))
    (interpreted,) = interpret(module, "forward", [x]).results
    np.testing.assert_allclose(interpreted, expected, rtol=tolerance, atol=tolerance)
    compiled = compile_module(module)
    (native,) = run_jit(compiled, "forward", [x]).results
    np.testing.assert_allclose(native, expected, rtol=tolerance, atol=tolerance)
    np.testing.assert_allclose(native, interpreted, rtol=max(tolerance, 1e-6))


def test_resource_array_decodes_mlir_blobs():
    values = np.array([[1.5, -2.0], [3.25, 0.0]], dtype=np.float32)
    text = f"""
func.func @f() -> tensor<2x2xf32> {{
  %c = arith.constant dense_resource<b> : tensor<2x2xf32>
  return %c : tensor<2x2xf32>
}}
{{-# dialect_resources: {{builtin: {{b: "{blob(values, "f4")}"}}}} #-}}
"""
    module = parse_module(text)
    constant = next(op for op in module.walk() if op.name == "arith.constant")
    value = constant.properties["value"]
    assert isinstance(value, DenseResourceAttr)
    np.testing.assert_array_equal(resource_array(value), values)


@pytest.mark.parametrize(
    ("stored", "message"),
    [
        (None, "has no blob"),
        ("0x0400", "lacks its 4-byte alignment prefix"),
        ("0x04000000XYZ0", "is not a hex string"),
        ("0x040000000000803F", "holds 4 bytes of elements, but tensor<2xf32> needs 8"),
    ],
)
def test_unreadable_blobs(stored: str | None, message: str):
    store = resource_store()
    key = store.declare_resource("test_unreadable")
    if stored is not None:
        store._blob_storage[key] = stored  # pyright: ignore[reportPrivateUsage]
    attr = DenseResourceAttr.from_params(key, TensorType(f32, [2]))
    with pytest.raises(ResourceError, match=message):
        resource_array(attr)


MISSING = """
func.func @f() -> tensor<2xf32> {
  %c = arith.constant dense_resource<nowhere> : tensor<2xf32>
  return %c : tensor<2xf32>
}
"""

WRONG_SIZE = """
func.func @f() -> tensor<2xf32> {
  %c = arith.constant dense_resource<short> : tensor<2xf32>
  return %c : tensor<2xf32>
}
{-# dialect_resources: {builtin: {short: "0x040000000000803F"}} #-}
"""

BAD_HEX = WRONG_SIZE.replace("0x040000000000803F", "0x04000000000080QF")


def _tool(tmp_path: Path, text: str, *args: str) -> subprocess.CompletedProcess[str]:
    path = tmp_path / "input.mlir"
    path.write_text(text)
    return subprocess.run(
        [str(BIN / args[0]), *args[1:], str(path)],
        capture_output=True,
        text=True,
        check=False,
    )


@pytest.mark.parametrize(
    ("text", "tool", "expected"),
    [
        (
            MISSING,
            ("linalg-ext-run",),
            r"input.mlir:3:8: cannot run @f: arith.constant: "
            r"dense_resource<nowhere> has no blob",
        ),
        (
            WRONG_SIZE,
            ("linalg-ext-run",),
            r"input.mlir:3:8: .*arith.constant: the blob of dense_resource<short> "
            r"holds 4 bytes of elements, but tensor<2xf32> needs 8",
        ),
        (
            WRONG_SIZE,
            ("linalg-ext-opt", "-p", "one-shot-bufferize"),
            r"input.mlir:3:8: error: one-shot-bufferize: 'arith.constant': the blob",
        ),
        (
            MISSING,
            ("linalg-ext-run", "--backend", "jit"),
            r"'memref.global' @__constant_2xf32: dense_resource<nowhere> has no blob",
        ),
        (
            BAD_HEX,
            ("linalg-ext-opt",),
            r"input.mlir:6:\d+: error: .*expected hex string blob for key 'short'",
        ),
    ],
)
def test_unreadable_blob_is_one_line(
    tmp_path: Path, text: str, tool: tuple[str, ...], expected: str
):
    result = _tool(tmp_path, text, *tool)
    assert result.returncode != 0
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert "Traceback" not in result.stderr
    assert re.search(expected, lines[0]), lines[0]
