"""A zoo of small ONNX models built in code, for tests, benchmarks and demos.

Every family is a float32 ONNX graph made with `onnx.helper`: its weights are
initializers drawn from a fixed seed (so a model is the same on every run),
scaled He/Xavier-like so that values stay of order one through the graph.
Two sizes exist: `"small"` (every dimension 2-16, a few hundred weights at
most, so a test imports, interprets and compiles it in seconds) and
`"medium"` (about a millisecond of onnxruntime on one thread).

    from examples.models.zoo import FAMILIES
    family = FAMILIES["mlp"]
    model = family.build("small", "dynamic")  # first input dim is "N"
    feeds = family.inputs("small", np.random.default_rng(0), batch_size=3)

Only onnx and numpy are imported here, so anything may use the zoo without
the importer (torch-mlir) or this package.
"""

from __future__ import annotations

import math
import zlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

__all__ = ["BATCH_SYMBOL", "FAMILIES", "OPSET", "Batch", "Family", "Size"]

Size = Literal["small", "medium"]
Batch = Literal["static", "dynamic"]

#: The ONNX opset of every model: 17 is the first with LayerNormalization and
#: is well covered by torch-mlir's ONNX importer.
OPSET = 17

#: The symbol of the batch dimension of dynamic-batch models.
BATCH_SYMBOL = "N"

Dim = int | str
Shape = tuple[Dim, ...]


class _Graph:
    """Collects the nodes and initializers of one model as a builder
    function adds them; names are made unique by a counter."""

    def __init__(self, rng: np.random.Generator) -> None:
        self.rng = rng
        self.nodes: list[onnx.NodeProto] = []
        self.initializers: list[onnx.TensorProto] = []
        self._count = 0

    def _name(self, stem: str) -> str:
        self._count += 1
        return f"{stem}_{self._count}"

    def weight(
        self, stem: str, shape: Sequence[int], fan_in: int, gain: float = 1.0
    ) -> str:
        """A normal initializer with standard deviation gain/sqrt(fan_in)
        (gain 2**0.5 before a Relu is He's; 1 is Xavier-like)."""
        std = gain / math.sqrt(fan_in)
        array = self.rng.standard_normal(tuple(shape)) * std
        return self.constant(stem, array)

    def uniform(self, stem: str, shape: Sequence[int], low: float, high: float) -> str:
        """A uniform initializer (biases, batch-norm statistics)."""
        return self.constant(stem, self.rng.uniform(low, high, tuple(shape)))

    def constant(self, stem: str, value: Any, dtype: Any = np.float32) -> str:
        """An initializer holding `value` (a scalar or an array)."""
        name = self._name(stem)
        array = np.asarray(value, dtype=dtype)
        self.initializers.append(numpy_helper.from_array(array, name))
        return name

    def op(self, op_type: str, *inputs: str, **attributes: Any) -> str:
        """Append a one-output node and return the name of its output."""
        output = self._name(op_type.lower())
        self.nodes.append(
            helper.make_node(op_type, list(inputs), [output], **attributes)
        )
        return output


# A builder gets the graph, the family's dimensions at one size and the
# input names; it returns the output's name and its shape, whose first
# dimension is the batch (replaced by the static value or "N").
Builder = Callable[[_Graph, Mapping[str, int], Sequence[str]], tuple[str, Shape]]


@dataclass(frozen=True)
class Family:
    """One kind of model, at two sizes.

    `dims[size]` names the dimensions (always `batch`, the default first
    dimension of the first input); `input_shapes(dims)` gives each input's
    shape without its leading batch dimension (every input has one)."""

    name: str
    description: str
    dims: Mapping[str, Mapping[str, int]]
    input_shapes: Callable[[Mapping[str, int]], dict[str, tuple[int, ...]]]
    builder: Builder = field(repr=False)

    def seed(self) -> int:
        """The weights' seed: a function of the name only, so that adding a
        family does not change the weights of the others."""
        return zlib.crc32(self.name.encode())

    def build(self, size: Size = "small", batch: Batch = "static") -> onnx.ModelProto:
        """The model at `size`; with `batch="dynamic"` the first dimension of
        every input and of the output is the symbol "N"."""
        dims = self._dims(size)
        if batch not in ("static", "dynamic"):
            raise ValueError(f"batch must be 'static' or 'dynamic', not {batch!r}")
        lead: Dim = BATCH_SYMBOL if batch == "dynamic" else dims["batch"]
        graph = _Graph(np.random.default_rng(self.seed()))
        shapes = self.input_shapes(dims)
        output, out_shape = self.builder(graph, dims, list(shapes))
        inputs = [
            helper.make_tensor_value_info(name, TensorProto.FLOAT, [lead, *shape])
            for name, shape in shapes.items()
        ]
        result = helper.make_tensor_value_info(
            output, TensorProto.FLOAT, [lead, *out_shape[1:]]
        )
        onnx_graph = helper.make_graph(
            graph.nodes, self.name, inputs, [result], graph.initializers
        )
        # The IR version that goes with the opset (not onnx's newest), so
        # that older onnxruntime releases load the model too.
        return helper.make_model_gen_version(
            onnx_graph,
            opset_imports=[helper.make_opsetid("", OPSET)],
            producer_name="xdsl-linalg-ext model zoo",
        )

    def inputs(
        self,
        size: Size = "small",
        rng: np.random.Generator | None = None,
        batch_size: int | None = None,
    ) -> dict[str, np.ndarray]:
        """Standard-normal float32 feeds for `build(size, ...)`, keyed by
        input name; `batch_size` replaces the default batch (for models
        built with `batch="dynamic"`)."""
        dims = self._dims(size)
        rng = np.random.default_rng(0) if rng is None else rng
        lead = dims["batch"] if batch_size is None else batch_size
        return {
            name: rng.standard_normal((lead, *shape)).astype(np.float32)
            for name, shape in self.input_shapes(dims).items()
        }

    def _dims(self, size: str) -> Mapping[str, int]:
        if size not in self.dims:
            raise ValueError(f"size must be one of {sorted(self.dims)}, not {size!r}")
        return self.dims[size]


# ---------------------------------------------------------------------------
# Builders.


def _mlp(g: _Graph, d: Mapping[str, int], inputs: Sequence[str]) -> tuple[str, Shape]:
    w1 = g.weight("w1", (d["inp"], d["hidden"]), d["inp"], gain=math.sqrt(2))
    b1 = g.uniform("b1", (d["hidden"],), -0.1, 0.1)
    w2 = g.weight("w2", (d["hidden"], d["out"]), d["hidden"])
    b2 = g.uniform("b2", (d["out"],), -0.1, 0.1)
    h = g.op("Relu", g.op("Add", g.op("MatMul", inputs[0], w1), b1))
    y = g.op("Add", g.op("MatMul", h, w2), b2)
    return y, (d["batch"], d["out"])


def _softmax(
    g: _Graph, d: Mapping[str, int], inputs: Sequence[str]
) -> tuple[str, Shape]:
    return g.op("Softmax", inputs[0], axis=-1), (d["batch"], d["cols"])


def _layer_norm(
    g: _Graph, d: Mapping[str, int], inputs: Sequence[str]
) -> tuple[str, Shape]:
    scale = g.uniform("gamma", (d["cols"],), 0.5, 1.5)
    bias = g.uniform("beta", (d["cols"],), -0.5, 0.5)
    y = g.op("LayerNormalization", inputs[0], scale, bias, axis=-1, epsilon=1e-5)
    return y, (d["batch"], d["cols"])


def _attention(
    g: _Graph, d: Mapping[str, int], inputs: Sequence[str]
) -> tuple[str, Shape]:
    model, head = d["model"], d["head"]
    x = inputs[0]
    q = g.op("MatMul", x, g.weight("wq", (model, head), model))
    k = g.op("MatMul", x, g.weight("wk", (model, head), model))
    v = g.op("MatMul", x, g.weight("wv", (model, head), model))
    kt = g.op("Transpose", k, perm=[0, 2, 1])
    scores = g.op("Div", g.op("MatMul", q, kt), g.constant("sqrt_d", math.sqrt(head)))
    context = g.op("MatMul", g.op("Softmax", scores, axis=-1), v)
    y = g.op("MatMul", context, g.weight("wo", (head, model), head))
    return y, (d["batch"], d["seq"], model)


def _batched_attention(
    g: _Graph, d: Mapping[str, int], inputs: Sequence[str]
) -> tuple[str, Shape]:
    seq, heads, dh = d["seq"], d["heads"], d["head"]
    model = heads * dh
    x = inputs[0]
    # -1 stands for the batch, which may be symbolic.
    split = g.constant("split_shape", [-1, seq, heads, dh], np.int64)
    merge = g.constant("merge_shape", [-1, seq, model], np.int64)

    def project(stem: str, perm: list[int]) -> str:
        p = g.op("MatMul", x, g.weight(stem, (model, model), model))
        return g.op("Transpose", g.op("Reshape", p, split), perm=perm)

    q = project("wq", [0, 2, 1, 3])  # [B, H, S, dh]
    kt = project("wk", [0, 2, 3, 1])  # [B, H, dh, S]
    v = project("wv", [0, 2, 1, 3])  # [B, H, S, dh]
    scale = g.constant("inv_sqrt_d", 1 / math.sqrt(dh))
    scores = g.op("Mul", g.op("MatMul", q, kt), scale)
    context = g.op("MatMul", g.op("Softmax", scores, axis=-1), v)
    merged = g.op("Reshape", g.op("Transpose", context, perm=[0, 2, 1, 3]), merge)
    y = g.op("MatMul", merged, g.weight("wo", (model, model), model))
    return y, (d["batch"], seq, model)


def _cnn(g: _Graph, d: Mapping[str, int], inputs: Sequence[str]) -> tuple[str, Shape]:
    cin, c1, c2 = d["channels"], d["c1"], d["c2"]
    relu_gain = math.sqrt(2)
    w1 = g.weight("conv1_w", (c1, cin, 3, 3), cin * 9, relu_gain)
    b1 = g.uniform("conv1_b", (c1,), -0.1, 0.1)
    w2 = g.weight("conv2_w", (c2, c1, 3, 3), c1 * 9, relu_gain)
    b2 = g.uniform("conv2_b", (c2,), -0.1, 0.1)
    h = g.op("Relu", g.op("Conv", inputs[0], w1, b1, pads=[1, 1, 1, 1]))
    h = g.op("MaxPool", h, kernel_shape=[2, 2], strides=[2, 2])
    h = g.op("Relu", g.op("Conv", h, w2, b2, pads=[1, 1, 1, 1]))
    h = g.op("Flatten", g.op("GlobalAveragePool", h), axis=1)
    wf = g.weight("fc_w", (c2, d["classes"]), c2)
    bf = g.uniform("fc_b", (d["classes"],), -0.1, 0.1)
    return g.op("Gemm", h, wf, bf), (d["batch"], d["classes"])


def _gemm_gelu(
    g: _Graph, d: Mapping[str, int], inputs: Sequence[str]
) -> tuple[str, Shape]:
    w = g.weight("w", (d["out"], d["inp"]), d["inp"])
    b = g.uniform("b", (d["out"],), -0.1, 0.1)
    y = g.op("Gemm", inputs[0], w, b, transB=1)
    # gelu(y) = 0.5 y (1 + tanh(sqrt(2/pi) (y + 0.044715 y^3))), op by op.
    cube = g.op("Pow", y, g.constant("three", 3.0))
    inner = g.op("Add", y, g.op("Mul", cube, g.constant("c", 0.044715)))
    t = g.op("Tanh", g.op("Mul", inner, g.constant("k", math.sqrt(2 / math.pi))))
    one_plus = g.op("Add", t, g.constant("one", 1.0))
    out = g.op("Mul", g.op("Mul", y, g.constant("half", 0.5)), one_plus)
    return out, (d["batch"], d["out"])


def _reduce_chain(
    g: _Graph, d: Mapping[str, int], inputs: Sequence[str]
) -> tuple[str, Shape]:
    x = inputs[0]
    last = g.constant("axes", [-1], np.int64)
    # Opset 17: ReduceMean/ReduceMax take attribute axes, ReduceSum an input.
    centred = g.op("Sub", x, g.op("ReduceMean", x, axes=[-1], keepdims=1))
    squares = g.op("ReduceSum", g.op("Mul", centred, centred), last, keepdims=1)
    variance = g.op("Div", squares, g.constant("cols", float(d["cols"])))
    std = g.op("Sqrt", g.op("Add", variance, g.constant("eps", 1e-5)))
    normed = g.op("Div", centred, std)
    peak = g.op("ReduceMax", g.op("Abs", normed), axes=[-1], keepdims=1)
    return g.op("Sub", normed, peak), (d["batch"], d["cols"])


def _depthwise_cnn(
    g: _Graph, d: Mapping[str, int], inputs: Sequence[str]
) -> tuple[str, Shape]:
    c, cout = d["channels"], d["out"]
    wd = g.weight("dw_w", (c, 1, 3, 3), 9)
    bd = g.uniform("dw_b", (c,), -0.1, 0.1)
    h = g.op("Conv", inputs[0], wd, bd, group=c, pads=[1, 1, 1, 1])
    h = g.op(
        "BatchNormalization",
        h,
        g.uniform("bn_scale", (c,), 0.5, 1.5),
        g.uniform("bn_bias", (c,), -0.5, 0.5),
        g.uniform("bn_mean", (c,), -0.2, 0.2),
        g.uniform("bn_var", (c,), 0.5, 1.5),
        epsilon=1e-5,
    )
    h = g.op("Mul", h, g.op("Sigmoid", h))  # SiLU
    wp = g.weight("pw_w", (cout, c, 1, 1), c)
    bp = g.uniform("pw_b", (cout,), -0.1, 0.1)
    y = g.op("Conv", h, wp, bp)
    return y, (d["batch"], cout, d["height"], d["width"])


# ---------------------------------------------------------------------------
# The families.


def _rows(d: Mapping[str, int], key: str) -> dict[str, tuple[int, ...]]:
    return {"x": (d[key],)}


def _image(d: Mapping[str, int]) -> dict[str, tuple[int, ...]]:
    return {"x": (d["channels"], d["height"], d["width"])}


def _sequence(d: Mapping[str, int]) -> dict[str, tuple[int, ...]]:
    width = d["model"] if "model" in d else d["heads"] * d["head"]
    return {"x": (d["seq"], width)}


_FAMILY_LIST = [
    Family(
        "mlp",
        "two-layer perceptron: MatMul+Add+Relu, MatMul+Add",
        {
            "small": {"batch": 4, "inp": 8, "hidden": 16, "out": 8},
            "medium": {"batch": 64, "inp": 256, "hidden": 1024, "out": 256},
        },
        lambda d: _rows(d, "inp"),
        _mlp,
    ),
    Family(
        "softmax",
        "Softmax over the last axis",
        {
            "small": {"batch": 4, "cols": 16},
            "medium": {"batch": 256, "cols": 1024},
        },
        lambda d: _rows(d, "cols"),
        _softmax,
    ),
    Family(
        "layer_norm",
        "LayerNormalization over the last axis, with scale and bias",
        {
            "small": {"batch": 4, "cols": 16},
            "medium": {"batch": 256, "cols": 1024},
        },
        lambda d: _rows(d, "cols"),
        _layer_norm,
    ),
    Family(
        "attention",
        "single-head self-attention: Q/K/V projections, softmax(QK^T/sqrt(d))V,"
        " output projection",
        {
            "small": {"batch": 2, "seq": 8, "model": 4, "head": 4},
            "medium": {"batch": 1, "seq": 512, "model": 64, "head": 64},
        },
        _sequence,
        _attention,
    ),
    Family(
        "batched_attention",
        "multi-head self-attention: Reshape/Transpose to [B,H,S,dh], batched"
        " MatMul, Softmax, MatMul, back",
        {
            "small": {"batch": 2, "seq": 4, "heads": 2, "head": 4},
            "medium": {"batch": 4, "seq": 128, "heads": 4, "head": 32},
        },
        _sequence,
        _batched_attention,
    ),
    Family(
        "cnn",
        "Conv3x3+Relu, MaxPool2x2, Conv3x3+Relu, GlobalAveragePool, Flatten, Gemm",
        {
            "small": {
                "batch": 2,
                "channels": 3,
                "height": 8,
                "width": 8,
                "c1": 4,
                "c2": 6,
                "classes": 4,
            },
            "medium": {
                "batch": 1,
                "channels": 3,
                "height": 64,
                "width": 64,
                "c1": 32,
                "c2": 64,
                "classes": 10,
            },
        },
        _image,
        _cnn,
    ),
    Family(
        "gemm_gelu",
        "Gemm (transB=1) + tanh-GELU written with Pow/Mul/Add/Tanh",
        {
            "small": {"batch": 4, "inp": 8, "out": 16},
            "medium": {"batch": 64, "inp": 512, "out": 2048},
        },
        lambda d: _rows(d, "inp"),
        _gemm_gelu,
    ),
    Family(
        "reduce_chain",
        "ReduceMean, Sub, ReduceSum of squares, Sqrt, Div, ReduceMax(Abs), Sub",
        {
            "small": {"batch": 4, "cols": 16},
            "medium": {"batch": 256, "cols": 1024},
        },
        lambda d: _rows(d, "cols"),
        _reduce_chain,
    ),
    Family(
        "depthwise_cnn",
        "depthwise Conv3x3 (group=C) + BatchNormalization + SiLU + pointwise Conv1x1",
        {
            "small": {"batch": 2, "channels": 4, "height": 8, "width": 8, "out": 8},
            "medium": {
                "batch": 1,
                "channels": 32,
                "height": 56,
                "width": 56,
                "out": 64,
            },
        },
        _image,
        _depthwise_cnn,
    ),
]

#: Every family by name.
FAMILIES: dict[str, Family] = {family.name: family for family in _FAMILY_LIST}
