"""The model zoo (examples/models/zoo.py) through the model pipeline and the
JIT: every family at size "small", in four variants of batch and weights
(tests/unit/model_data/regenerate.py's VARIANTS):

- static batch, weights as dense constants;
- dynamic batch (`?`, run at another batch size), dense constants;
- static batch, weights as `dense_resource` constants;
- dynamic batch, weights as function arguments.

Live path (onnx, torch-mlir and onnxruntime installed, the [onnx] extra):
the model is built, imported with `import_onnx`, compiled with
`compile_model` and its outputs compared with onnxruntime's and with the
stored ones. Stored path (any of them missing): the stored .mlir of the
variant is compiled and compared with the stored outputs. One compile per
family and variant either way."""

from __future__ import annotations

import importlib
import re
import sys
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pytest

from linalg_ext.frontends.onnx import extra_missing
from linalg_ext.models import compile_model

if TYPE_CHECKING:
    from linalg_ext.frontends.onnx import WeightsMode

DATA = Path(__file__).resolve().parent / "model_data"
# model_data/ is a directory of data and its script, not a package: the
# script is imported by name once it is on the path.
sys.path.insert(0, str(DATA))
regenerate = importlib.import_module("regenerate")
VARIANTS = regenerate.VARIANTS
load_zoo = regenerate.load_zoo
onnxruntime_output = regenerate.onnxruntime_output
variant_name = regenerate.variant_name

FAMILIES = sorted(path.stem for path in DATA.glob("*.npz"))

#: Where the extra is installed the models are built and imported here.
LIVE = extra_missing() is None

RTOL, ATOL = 1e-4, 1e-5

# `func.func @name(%arg0: T0, %arg1: T1) -> ...`: the argument list.
SIGNATURE = re.compile(r"func\.func @[\w$.]+\((?P<arguments>[^)]*)\)")


@cache
def stored(family: str) -> dict[str, np.ndarray]:
    with np.load(DATA / f"{family}.npz") as data:
        return {key: data[key] for key in data.files}


def stored_weights(family: str) -> list[np.ndarray]:
    data = stored(family)
    return [data[f"weight_{i}"] for i in range(len(data)) if f"weight_{i}" in data]


def argument_types(text: str) -> list[str]:
    match = SIGNATURE.search(text)
    assert match is not None, "no func.func in the model's text"
    return re.findall(r"%[\w$.]+\s*:\s*(tensor<[^>]*>)", match["arguments"])


def live_model(family: str, batch: str, weights: WeightsMode) -> tuple[str, Any]:
    """The variant's text, imported now, and its ONNX model."""
    from linalg_ext.frontends.onnx import import_onnx, weight_arrays

    model = load_zoo().FAMILIES[family].build("small", batch)
    if weights == "inputs":
        # The stored weights must still be the zoo's (the stored path uses them).
        live = list(weight_arrays(model).values())
        expected = stored_weights(family)
        assert len(live) == len(expected)
        for ours, theirs in zip(live, expected, strict=True):
            np.testing.assert_array_equal(ours, theirs)
    return import_onnx(model, weights=weights), model


@pytest.mark.parametrize(
    "batch, weights", VARIANTS, ids=[variant_name(*v) for v in VARIANTS]
)
@pytest.mark.parametrize("family", FAMILIES)
def test_model(family: str, batch: str, weights: WeightsMode) -> None:
    data = stored(family)
    x, expected = data[f"x_{batch}"], data[f"y_{batch}"]
    if LIVE:
        text, model = live_model(family, batch, weights)
    else:
        text = (DATA / f"{family}.{variant_name(batch, weights)}.mlir").read_text()
        model = None
    types = argument_types(text)
    if batch == "dynamic":
        assert types[0].startswith("tensor<?x"), types[0]
    extra = stored_weights(family) if weights == "inputs" else []
    assert len(types) == 1 + len(extra), types
    if weights == "resources" and stored_weights(family):
        assert "dense_resource<" in text
    # Text, not a parsed module: each compile parses its own text, so the
    # dense_resource keys are never renamed (docs/compat.md).
    # The default contract (arcp, approximate math) on dense weights, the
    # interpreter's (none, libm) on the other two.
    if weights == "dense":
        compiled = compile_model(text)
    else:
        compiled = compile_model(text, fast_math="none", approximate_math=False)
    ours = compiled(x, *extra)
    assert isinstance(ours, np.ndarray)
    assert ours.shape == expected.shape
    np.testing.assert_allclose(ours, expected, rtol=RTOL, atol=ATOL)
    if model is not None:
        reference = onnxruntime_output(model, x)
        np.testing.assert_allclose(ours, reference, rtol=RTOL, atol=ATOL)


@pytest.mark.skipif(not LIVE, reason="needs the [onnx] extra and onnxruntime")
def test_every_zoo_family_is_stored() -> None:
    """A family added to the zoo needs its stored data (regenerate.py)."""
    assert FAMILIES == sorted(load_zoo().FAMILIES)
