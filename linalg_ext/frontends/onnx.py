"""ONNX models as linalg-on-tensors MLIR, through torch-mlir.

    import_onnx(model, weights="dense" | "resources" | "inputs",
                function_name=None) -> str

The model's graph goes through torch-mlir's ONNX importer and its
`torch-onnx-to-torch-backend-pipeline` and
`torch-backend-to-linalg-on-tensors-backend-pipeline`, exactly as
torch-mlir's own tools run them (after ONNX's shape inference with data
propagation); the result is torch-mlir's text, which our context parses.
What `weights` changes:

- "dense": the weights are `arith.constant dense<...>` as torch-mlir makes
  them (large ones as hex strings);
- "resources": every constant of two or more elements that are not all the
  same becomes `arith.constant dense_resource<key>`, its elements in the
  `{-# dialect_resources #-}` section at the end (MLIR's blobs: the text of
  a large model stays readable). The key is the initializer's name, made a
  valid identifier, when the constant holds exactly that initializer's
  elements; `constant`, `constant_1`, ... otherwise (a weight torch-mlir
  transposed, a folded constant);
- "inputs": the weights (`weight_names(model)`) become arguments of the
  function after the graph's own inputs, in that order; call it with
  `*weight_arrays(model).values()` after the inputs.

The weights are the initializers with a floating-point element type and
more than one element: integer initializers (shapes, axes, indices) and
scalars stay constants, as torch-mlir needs to see most of them to convert
the ops using them.

Apart from that (and `function_name`, which renames the function torch-mlir
names after the graph) the text is torch-mlir's, printed by MLIR, so that it
compares with what torch-mlir's tools give. Every failure is a
`ModelImportError` of one line, naming the ONNX node and its op when the
failure is in one: a file that is not an ONNX model, shape inference that
fails, an op torch-mlir cannot convert (an unknown domain, an unsupported
attribute), or onnx and torch-mlir not being installed (the `[onnx]` extra).

onnx and torch-mlir are imported only inside these functions: importing
this module costs nothing.
"""

# onnx and torch-mlir are the optional [onnx] extra: where it is not
# installed their imports are unresolved, and the types Unknown.
# pyright: reportMissingImports=false

from __future__ import annotations

import os
import re
from importlib.util import find_spec
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    import numpy as np
    import onnx

__all__ = [
    "INSTALL_HINT",
    "WEIGHTS_MODES",
    "ModelImportError",
    "WeightsMode",
    "extra_missing",
    "frontend_missing",
    "import_onnx",
    "weight_names",
    "weight_arrays",
]

WeightsMode = Literal["dense", "resources", "inputs"]
WEIGHTS_MODES: tuple[WeightsMode, ...] = ("dense", "resources", "inputs")

PIPELINE = (
    "builtin.module(torch-onnx-to-torch-backend-pipeline,"
    "torch-backend-to-linalg-on-tensors-backend-pipeline)"
)
"""What torch-mlir's `torch-mlir-import-onnx | torch-mlir-opt` route runs."""

INSTALL_HINT = "pip install 'xdsl-linalg-ext[onnx]'"

_FRONTEND_MODULES = ("onnx", "torch_mlir")

_UNNAMED_NODE = "__linalg_ext_node_{}"
"""The name an unnamed node gets in our copy of the model: torch-mlir
locates each op by its node's name, which is how an error finds its node."""


class ModelImportError(Exception):
    """A model that cannot be imported, with a one-line reason."""


def _first_missing(modules: tuple[str, ...]) -> str | None:
    for module in modules:
        try:
            spec = find_spec(module)
        except (ImportError, ValueError):
            spec = None
        if spec is None:
            return module
    return None


def frontend_missing() -> str | None:
    """The first of `onnx` and `torch_mlir` that is not installed, or None."""
    return _first_missing(_FRONTEND_MODULES)


def extra_missing() -> str | None:
    """The first package of the whole `[onnx]` extra (the front end and
    onnxruntime, which the demo, bench and tests compare with) that is not
    installed, or None."""
    return _first_missing(("onnx", "onnxruntime", "torch_mlir"))


def _require_frontend() -> None:
    missing = frontend_missing()
    if missing is not None:
        raise ModelImportError(
            f"linalg-ext-import needs the [onnx] extra: {INSTALL_HINT} "
            f"(missing: {missing})"
        )


def _mlir(name: str) -> Any:
    """`torch_mlir.<name>` of torch-mlir's MLIR Python API (`ir`,
    `passmanager`): a compiled extension without type stubs, typed Any."""
    from importlib import import_module

    return import_module(f"torch_mlir.{name}")


def _first_line(error: BaseException) -> str:
    lines = [line.strip() for line in str(error).splitlines() if line.strip()]
    return lines[0] if lines else type(error).__name__


def _load(model: onnx.ModelProto | str | os.PathLike[str]) -> onnx.ModelProto:
    """The model itself, or the one in the file (not a copy)."""
    _require_frontend()
    import onnx

    if isinstance(model, onnx.ModelProto):
        return model
    if not isinstance(model, str | os.PathLike):
        raise TypeError(
            f"expected an onnx.ModelProto or a path, not {type(model).__name__}"
        )
    path = os.fspath(model)
    if Path(path).is_dir():
        raise ModelImportError(f"{path}: is a directory, not an ONNX model")
    try:
        loaded = onnx.load(path)
    except OSError as error:
        reason = error.strerror or _first_line(error)
        raise ModelImportError(f"{path}: cannot read it: {reason}") from error
    except Exception as error:  # protobuf's DecodeError, a bad text format
        raise ModelImportError(
            f"{path}: not an ONNX model ({_first_line(error)})"
        ) from error
    # Protobuf reads some non-model bytes (an empty file) as an empty model.
    if not loaded.HasField("graph") or not loaded.graph.output:
        raise ModelImportError(f"{path}: not an ONNX model (it has no graph outputs)")
    return loaded


_FLOAT_TYPES = ("FLOAT", "FLOAT16", "BFLOAT16", "DOUBLE")


def _is_weight(initializer: onnx.TensorProto) -> bool:
    from onnx import TensorProto

    elements = 1
    for extent in initializer.dims:
        elements *= extent
    floats = {getattr(TensorProto, name) for name in _FLOAT_TYPES}
    return initializer.data_type in floats and elements > 1


def weight_names(model: onnx.ModelProto | str | os.PathLike[str]) -> list[str]:
    """The names of the model's weights, in the graph's order of its
    initializers: those with a floating-point element type and more than one
    element (the arguments `weights="inputs"` adds)."""
    graph = _load(model).graph
    return [init.name for init in graph.initializer if _is_weight(init)]


def weight_arrays(
    model: onnx.ModelProto | str | os.PathLike[str],
) -> dict[str, np.ndarray]:
    """The model's weights (`weight_names`) as numpy arrays, in that order."""
    from onnx import numpy_helper

    graph = _load(model).graph
    return {
        init.name: numpy_helper.to_array(init)
        for init in graph.initializer
        if _is_weight(init)
    }


def _prepared_copy(
    model: onnx.ModelProto, weights: WeightsMode
) -> tuple[onnx.ModelProto, dict[str, str]]:
    """A copy of `model` to import: every node of the graph named (with, for
    each name, how an error names the node), the weights made inputs for
    "inputs"."""
    import onnx

    copy = onnx.ModelProto()
    copy.CopyFrom(model)
    graph = copy.graph
    described: dict[str, str] = {}
    for index, node in enumerate(graph.node):
        op = (
            node.op_type
            if node.domain in ("", "ai.onnx")
            else (f"{node.domain}.{node.op_type}")
        )
        if not node.name or node.name in described:
            node.name = _UNNAMED_NODE.format(index)
            described[node.name] = f"node #{index} ({op})"
        else:
            described[node.name] = f"node '{node.name}' ({op})"
    if weights == "inputs":
        lifted = [init for init in graph.initializer if _is_weight(init)]
        names = {init.name for init in lifted}
        kept = [init for init in graph.initializer if init.name not in names]
        # Models older than IR version 4 also list initializers as inputs.
        inputs = [value for value in graph.input if value.name not in names]
        del graph.initializer[:]
        graph.initializer.extend(kept)
        del graph.input[:]
        graph.input.extend(inputs)
        graph.input.extend(
            onnx.helper.make_tensor_value_info(init.name, init.data_type, init.dims)
            for init in lifted
        )
    return copy, described


_LOCATION_NAME = re.compile(r'loc\("((?:[^"\\]|\\.)*)"')


def _pipeline_error(error: Any, described: dict[str, str]) -> ModelImportError:
    """One line for torch-mlir's MLIRError: the first error diagnostic, after
    the node it is located at."""
    diagnostics = list(getattr(error, "error_diagnostics", []) or [])
    if not diagnostics:
        return ModelImportError(f"torch-mlir failed: {_first_line(error)}")
    first = diagnostics[0]
    message = _first_line(Exception(first.message))
    where = _LOCATION_NAME.search(str(first.location))
    node = described.get(where[1]) if where else None
    if "failed to legalize operation 'torch.operator'" in message:
        message = "torch-mlir cannot convert this op (failed to legalize it)"
    if node is None:
        return ModelImportError(f"torch-mlir failed: {message}")
    return ModelImportError(f"cannot import {node}: {message}")


def _lowered_module(model: onnx.ModelProto, described: dict[str, str]) -> Any:
    """torch-mlir's linalg-on-tensors module (an MLIR Operation) of `model`."""
    import onnx
    from torch_mlir.dialects import torch as torch_dialect
    from torch_mlir.extras import onnx_importer

    ir, passmanager = _mlir("ir"), _mlir("passmanager")

    try:
        inferred = onnx.shape_inference.infer_shapes(model, data_prop=True)
    except Exception as error:
        raise ModelImportError(
            f"ONNX shape inference failed: {_first_line(error)}"
        ) from error
    context = ir.Context()
    torch_dialect.register_dialect(context)
    try:
        info = onnx_importer.ModelInfo(inferred)
        module = info.create_module(context=context).operation
        importer = onnx_importer.NodeImporter.define_function(info.main_graph, module)
        importer.import_all()
    except onnx_importer.OnnxImportError as error:
        raise ModelImportError(
            f"torch-mlir cannot import the model: {_first_line(error)}"
        ) from error
    except ir.MLIRError as error:
        raise _pipeline_error(error, described) from error
    except Exception as error:  # the importer's own bugs, as one line
        raise ModelImportError(
            f"torch-mlir cannot import the model: {type(error).__name__}: "
            f"{_first_line(error)}"
        ) from error
    try:
        passmanager.PassManager.parse(PIPELINE, context=context).run(module)
    except ir.MLIRError as error:
        raise _pipeline_error(error, described) from error
    return module


def _resource_key(name: str) -> str:
    """`name` as a resource key MLIR and xDSL read bare (an identifier)."""
    key = re.sub(r"[^A-Za-z0-9_.]", "_", name)
    return key if re.match(r"[A-Za-z_]", key) else f"_{key}"


def _operations(operation: Any):
    """Every operation nested in `operation` (MLIR's Python API)."""
    for region in operation.regions:
        for block in region.blocks:
            for nested in block.operations:
                yield nested.operation
                yield from _operations(nested.operation)


def _as_resources(text: str, model: onnx.ModelProto) -> str:
    """`text` (torch-mlir's) with every non-splat tensor constant of two or
    more elements a `dense_resource`, printed by MLIR with its blobs."""
    import numpy as np
    from onnx import numpy_helper

    ir = _mlir("ir")

    # Which initializer holds which elements, to name the blobs.
    named: dict[tuple[str, tuple[int, ...], bytes], str] = {}
    for init in model.graph.initializer:
        try:
            array = np.ascontiguousarray(numpy_helper.to_array(init))
        except Exception:  # an element type numpy cannot hold
            continue
        named.setdefault((array.dtype.str, array.shape, array.tobytes()), init.name)
    # A fresh context: the importer's context already holds blobs named after
    # the initializers, and MLIR would rename ours.
    context = ir.Context()
    module = ir.Module.parse(text, context)
    made: dict[tuple[str, str, bytes], Any] = {}
    used: set[str] = set()
    for op in _operations(module.operation):
        if op.name != "arith.constant" or "value" not in op.attributes:
            continue
        elements = op.attributes["value"]
        # Attributes come downcast to their class (DenseFPElementsAttr, ...).
        if not isinstance(elements, ir.DenseElementsAttr):
            continue
        if elements.is_splat or len(elements) < 2:
            continue
        try:
            array = np.ascontiguousarray(np.array(elements))
        except Exception:  # bf16 and other types MLIR's Python API cannot read
            continue
        data = array.tobytes()
        type_text = str(elements.type)
        if (type_text, array.dtype.str, data) not in made:
            name = named.get((array.dtype.str, array.shape, data), "constant")
            key = base = _resource_key(name)
            suffix = 0
            while key in used:
                suffix += 1
                key = f"{base}_{suffix}"
            used.add(key)
            made[(type_text, array.dtype.str, data)] = (
                ir.DenseResourceElementsAttr.get_from_buffer(
                    array, key, elements.type, alignment=8, context=context
                )
            )
        op.attributes["value"] = made[(type_text, array.dtype.str, data)]
    return str(module)


def _renamed(module: Any, graph_name: str, function_name: str) -> None:
    """Rename the function torch-mlir named after the graph."""
    StringAttr = _mlir("ir").StringAttr

    for op in _operations(module):
        if op.name == "func.func":
            name = StringAttr(op.attributes["sym_name"]).value
            if name == graph_name:
                op.attributes["sym_name"] = StringAttr.get(
                    function_name, context=op.context
                )
                return
    raise ModelImportError(f"torch-mlir made no function @{graph_name}")


def import_onnx(
    model: onnx.ModelProto | str | os.PathLike[str],
    *,
    weights: WeightsMode = "dense",
    function_name: str | None = None,
) -> str:
    """The linalg-on-tensors MLIR text of `model`'s graph (a model or the
    path of a .onnx file), by torch-mlir; `weights` says how the weights
    appear (see the module's docstring), `function_name` renames the
    function (named after the graph by default). Raises ModelImportError,
    with a one-line reason.

    torch-mlir runs in a child process: its native libraries (an LLVM and
    an MLIR of their own) have aborted a Python process that had already
    loaded other native code (seen in pytest workers that had run JIT
    tests), and a crash there must not take the caller with it. It costs
    the child's start, about half a second."""
    if weights not in WEIGHTS_MODES:
        raise ValueError(f"weights must be one of {WEIGHTS_MODES}, not {weights!r}")
    if function_name is not None and not function_name:
        raise ValueError("function_name must not be empty")
    original = _load(model)
    import subprocess
    import sys
    import tempfile

    with tempfile.TemporaryDirectory(prefix="linalg-ext-import-") as directory:
        path = Path(directory) / "model.onnx"
        path.write_bytes(original.SerializeToString())
        command = [sys.executable, "-m", __name__, str(path), weights]
        child = subprocess.run(
            [*command, function_name] if function_name is not None else command,
            capture_output=True,
            text=True,
        )
    if child.returncode == 0:
        return child.stdout
    lines = [line.strip() for line in child.stderr.splitlines() if line.strip()]
    if child.returncode == _CHILD_REFUSED and lines:
        raise ModelImportError(lines[-1])
    raise ModelImportError(
        f"torch-mlir's importer failed (exit code {child.returncode})"
        + (f": {lines[-1]}" if lines else "")
    )


_CHILD_REFUSED = 3
"""The exit code of a child that said why it could not import the model."""


def _import_here(
    model: onnx.ModelProto, weights: WeightsMode, function_name: str | None
) -> str:
    """`import_onnx`'s work, in this process (the child's)."""
    prepared, described = _prepared_copy(model, weights)
    module = _lowered_module(prepared, described)
    if function_name is not None:
        _renamed(module, prepared.graph.name, function_name)
    text = str(module)
    if weights == "resources":
        text = _as_resources(text, model)
    return text


def _child_main(arguments: list[str]) -> int:
    """`python -m linalg_ext.frontends.onnx MODEL.onnx WEIGHTS [NAME]`: the
    text on stdout, or a one-line reason on stderr and `_CHILD_REFUSED`."""
    import sys

    path, weights, *name = arguments
    try:
        text = _import_here(
            _load(path),
            weights,  # pyright: ignore[reportArgumentType]
            name[0] if name else None,
        )
    except ModelImportError as error:
        print(error, file=sys.stderr)
        return _CHILD_REFUSED
    sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    import sys

    sys.exit(_child_main(sys.argv[1:]))
