"""linalg_ext.frontends.onnx and linalg-ext-import: ONNX models, built here
with onnx.helper, imported through torch-mlir in each weights mode, parse
with our context and compute on the interpreter what onnxruntime and numpy
compute; bad models are one-line ModelImportErrors naming the node.

Skipped where the [onnx] extra (onnx, torch-mlir) is not installed; the
comparison with onnxruntime is skipped without onnxruntime."""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")
pytest.importorskip("torch_mlir")

from onnx import TensorProto, helper, numpy_helper  # noqa: E402
from xdsl.dialects import func  # noqa: E402
from xdsl.dialects.builtin import TensorType  # noqa: E402

from helpers import parse_module  # noqa: E402
from linalg_ext.frontends import onnx as frontend  # noqa: E402
from linalg_ext.frontends.onnx import (  # noqa: E402
    ModelImportError,
    frontend_missing,
    import_onnx,
    weight_arrays,
    weight_names,
)
from linalg_ext.running import run_function  # noqa: E402
from linalg_ext.tools import import_model  # noqa: E402

IN, OUT = 4, 6
RNG = np.random.default_rng(21)
WEIGHT = RNG.standard_normal((IN, OUT)).astype(np.float32)
BIAS = RNG.standard_normal(OUT).astype(np.float32)


def build(softmax: bool, batch: int | str = 2) -> Any:
    """x @ fc.weight + fc/bias:0, then a softmax over the last axis if asked
    (names that are no MLIR identifiers on purpose); batch "N" is dynamic."""
    nodes = [
        helper.make_node("MatMul", ["x", "fc.weight"], ["h"], name="matmul"),
        helper.make_node("Add", ["h", "fc/bias:0"], ["a" if softmax else "y"]),
    ]
    if softmax:
        nodes.append(helper.make_node("Softmax", ["a"], ["y"], axis=-1, name="sm"))
    graph = helper.make_graph(
        nodes,
        "affine_softmax" if softmax else "affine",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [batch, IN])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [batch, OUT])],
        [
            numpy_helper.from_array(WEIGHT, "fc.weight"),
            numpy_helper.from_array(BIAS, "fc/bias:0"),
        ],
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


def expected(x: np.ndarray, softmax: bool) -> np.ndarray:
    y = x @ WEIGHT + BIAS
    if softmax:
        y = np.exp(y - y.max(axis=-1, keepdims=True))
        y /= y.sum(axis=-1, keepdims=True)
    return y


def only_function(text: str) -> func.FuncOp:
    (function,) = [op for op in parse_module(text).ops if isinstance(op, func.FuncOp)]
    return function


def interpret(text: str, *arguments: np.ndarray) -> np.ndarray:
    module = parse_module(text)
    (function,) = [op for op in module.ops if isinstance(op, func.FuncOp)]
    (result,) = run_function(module, function.sym_name.data, list(arguments)).results
    return result


def onnxruntime_result(model: Any, x: np.ndarray) -> np.ndarray | None:
    try:
        import onnxruntime as ort
    except ImportError:
        return None
    options = ort.SessionOptions()
    options.intra_op_num_threads = 1
    session = ort.InferenceSession(model.SerializeToString(), options)
    return np.asarray(session.run(None, {"x": x})[0])


@pytest.mark.parametrize("weights", ["dense", "resources", "inputs"])
@pytest.mark.parametrize("softmax", [False, True], ids=["affine", "softmax"])
def test_each_weights_mode_computes_what_onnxruntime_and_numpy_do(weights, softmax):
    model = build(softmax)
    text = import_onnx(model, weights=weights)
    x = RNG.standard_normal((2, IN)).astype(np.float32)
    arguments = [x]
    if weights == "inputs":
        assert weight_names(model) == ["fc.weight", "fc/bias:0"]
        arguments += weight_arrays(model).values()
    result = interpret(text, *arguments)
    np.testing.assert_allclose(result, expected(x, softmax), rtol=1e-5, atol=1e-6)
    reference = onnxruntime_result(model, x)
    if reference is not None:
        np.testing.assert_allclose(result, reference, rtol=1e-5, atol=1e-6)


def test_dense_keeps_torch_mlirs_constants():
    text = import_onnx(build(False))
    assert "arith.constant dense<" in text
    assert "dense_resource" not in text and "dialect_resources" not in text
    assert "func.func @affine(%arg0: tensor<2x4xf32>) -> tensor<2x6xf32>" in text


def test_resources_are_named_after_the_initializers():
    text = import_onnx(build(True), weights="resources")
    assert "arith.constant dense_resource<fc.weight> : tensor<4x6xf32>" in text
    assert "arith.constant dense_resource<fc_bias_0> : tensor<6xf32>" in text
    assert "{-#" in text and "dialect_resources" in text
    assert 'fc.weight: "0x08000000' in text
    # Splats (the fills' zeros) stay dense.
    assert "arith.constant dense<" not in text


def test_inputs_come_after_the_graphs_inputs_in_weight_order():
    model = build(False)
    function = only_function(import_onnx(model, weights="inputs"))
    assert [str(t) for t in function.function_type.inputs.data] == [
        "tensor<2x4xf32>",
        "tensor<4x6xf32>",
        "tensor<6xf32>",
    ]
    arrays = weight_arrays(model)
    assert list(arrays) == weight_names(model)
    np.testing.assert_array_equal(arrays["fc.weight"], WEIGHT)
    # The caller's model is left as it was.
    assert [init.name for init in model.graph.initializer] == list(arrays)
    assert [value.name for value in model.graph.input] == ["x"]


def test_dynamic_batch_is_a_dynamic_dimension(tmp_path):
    model = build(True, batch="N")
    path = tmp_path / "model.onnx"
    onnx.save(model, str(path))
    text = import_onnx(path, function_name="main")
    function = only_function(text)
    assert function.sym_name.data == "main"
    (argument,) = function.function_type.inputs.data
    assert isinstance(argument, TensorType)
    assert str(argument) == "tensor<?x4xf32>"
    for batch in (1, 5):
        x = RNG.standard_normal((batch, IN)).astype(np.float32)
        np.testing.assert_allclose(
            interpret(text, x), expected(x, True), rtol=1e-5, atol=1e-6
        )


def unsupported_model() -> Any:
    model = build(False)
    model.graph.node.append(
        helper.make_node("Frob", ["y"], ["z"], domain="example.custom", name="frob")
    )
    model.graph.output[0].name = "z"
    model.opset_import.append(helper.make_opsetid("example.custom", 1))
    return model


def test_an_unsupported_op_is_one_line_naming_the_node():
    with pytest.raises(ModelImportError) as caught:
        import_onnx(unsupported_model())
    message = str(caught.value)
    assert "\n" not in message
    assert message.startswith("cannot import node 'frob' (example.custom.Frob): ")


def test_an_unnamed_node_is_named_by_its_position():
    model = unsupported_model()
    model.graph.node[-1].name = ""
    with pytest.raises(ModelImportError, match=r"^cannot import node #2 \(example"):
        import_onnx(model)
    assert model.graph.node[-1].name == ""


def test_a_file_that_is_not_onnx_is_one_line(tmp_path):
    path = tmp_path / "model.onnx"
    path.write_text("func.func @f() {\n  return\n}\n")
    with pytest.raises(ModelImportError) as caught:
        import_onnx(path)
    assert str(caught.value).startswith(f"{path}: not an ONNX model (")
    assert "\n" not in str(caught.value)
    with pytest.raises(ModelImportError, match="cannot read it: No such file"):
        weight_names(tmp_path / "missing.onnx")


def test_the_extra_is_named_when_a_frontend_package_is_missing(monkeypatch):
    assert frontend_missing() is None
    monkeypatch.setattr(
        frontend,
        "find_spec",
        lambda name: None if name == "torch_mlir" else object(),
    )
    assert frontend_missing() == "torch_mlir"
    with pytest.raises(ModelImportError) as caught:
        import_onnx(build(False))
    assert str(caught.value) == (
        "linalg-ext-import needs the [onnx] extra: pip install "
        "'xdsl-linalg-ext[onnx]' (missing: torch_mlir)"
    )


def test_the_tool_writes_the_module(tmp_path, capsys):
    path = tmp_path / "model.onnx"
    onnx.save(build(False), str(path))
    out = tmp_path / "model.mlir"
    code = import_model.main([str(path), "-o", str(out), "--weights", "resources"])
    assert code == 0, capsys.readouterr().err
    assert "dense_resource<fc.weight>" in out.read_text()
    only_function(out.read_text())


@pytest.mark.parametrize("bad", ["not-onnx", "unsupported"])
def test_the_tool_fails_in_one_line(tmp_path, capsys, bad):
    path = tmp_path / "model.onnx"
    if bad == "not-onnx":
        path.write_text("hello\n")
    else:
        onnx.save(unsupported_model(), str(path))
    code = import_model.main([str(path)])
    out, err = capsys.readouterr()
    assert code == 1 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith(f"linalg-ext-import: error: {path}: "), err
    expected_words = "not an ONNX model" if bad == "not-onnx" else "node 'frob'"
    assert expected_words in lines[0]


def test_importing_the_tool_loads_neither_onnx_nor_torch_mlir():
    code = (
        "import sys, linalg_ext.tools.import_model\n"
        "print(*[m for m in ('onnx', 'torch_mlir', 'numpy') if m in sys.modules])"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert done.stdout.strip() == ""


def test_the_tool_names_the_missing_extra_in_one_line(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(
        frontend, "find_spec", lambda name: None if name == "onnx" else object()
    )
    code = import_model.main([str(tmp_path / "model.onnx")])
    out, err = capsys.readouterr()
    assert code == 1 and out == ""
    assert err.strip() == (
        "linalg-ext-import: error: needs the [onnx] extra: pip install "
        "'xdsl-linalg-ext[onnx]' (missing: onnx)"
    )
