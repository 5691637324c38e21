"""Write the stored data of tests/unit/test_models.py (needs the [onnx] extra).

For every family of examples/models/zoo.py at size "small", four variants of
its linalg-on-tensors IR, as `linalg_ext.frontends.onnx.import_onnx` gives
them: `<family>.static_dense.mlir`, `<family>.dynamic_dense.mlir`,
`<family>.static_resources.mlir`, `<family>.dynamic_inputs.mlir`; and
`<family>.npz` holding the inputs (`x_static` at the zoo's batch,
`x_dynamic` at batch DYNAMIC_BATCH), onnxruntime's outputs for them
(`y_static`, `y_dynamic`, one intra-op thread) and the weights in
`weight_names` order (`weight_0`, `weight_1`, ...: the extra arguments of
the "inputs" variant).

    .venv/bin/python tests/unit/model_data/regenerate.py [family ...]
"""

# onnx, onnxruntime and torch-mlir are the optional [onnx] extra.
# pyright: reportMissingImports=false

from __future__ import annotations

import argparse
import importlib
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

import numpy as np

if TYPE_CHECKING:
    from linalg_ext.frontends.onnx import WeightsMode

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]

#: (batch, weights) of each stored variant, named `<batch>_<weights>`.
VARIANTS: tuple[tuple[Literal["static", "dynamic"], WeightsMode], ...] = (
    ("static", "dense"),
    ("dynamic", "dense"),
    ("static", "resources"),
    ("dynamic", "inputs"),
)

#: The batch size the dynamic variants run with: not the zoo's default, so
#: that the test shows the `?` dimension takes another extent.
DYNAMIC_BATCH = 3

#: The seed of the stored inputs.
SEED = 0


def load_zoo() -> Any:
    """examples/models/zoo.py (a script directory, not a package)."""
    directory = str(ROOT / "examples" / "models")
    if directory not in sys.path:
        sys.path.insert(0, directory)
    return importlib.import_module("zoo")


def variant_name(batch: str, weights: str) -> str:
    return f"{batch}_{weights}"


def inputs(family: Any) -> dict[str, np.ndarray]:
    """The stored inputs of `family`: `x_static` and `x_dynamic`."""
    static = family.inputs("small", np.random.default_rng(SEED))
    dynamic = family.inputs(
        "small", np.random.default_rng(SEED + 1), batch_size=DYNAMIC_BATCH
    )
    return {"x_static": static["x"], "x_dynamic": dynamic["x"]}


def onnxruntime_output(model: Any, x: np.ndarray) -> np.ndarray:
    """onnxruntime's one output for the one input `x`, on one thread."""
    import onnxruntime as ort

    options = ort.SessionOptions()
    options.intra_op_num_threads = 1
    options.inter_op_num_threads = 1
    session = ort.InferenceSession(model.SerializeToString(), options)
    (output,) = session.run(None, {"x": x})
    return np.asarray(output)


def regenerate(name: str, zoo: Any) -> int:
    """Write the files of family `name`; the bytes written."""
    from linalg_ext.frontends.onnx import import_onnx, weight_arrays

    family = zoo.FAMILIES[name]
    data = inputs(family)
    models = {batch: family.build("small", batch) for batch in ("static", "dynamic")}
    for batch, model in models.items():
        data[f"y_{batch}"] = onnxruntime_output(model, data[f"x_{batch}"])
    for index, array in enumerate(weight_arrays(models["dynamic"]).values()):
        data[f"weight_{index}"] = array
    written = 0
    for batch, weights in VARIANTS:
        path = HERE / f"{name}.{variant_name(batch, weights)}.mlir"
        path.write_text(import_onnx(models[batch], weights=weights))
        written += path.stat().st_size
    npz = HERE / f"{name}.npz"
    np.savez_compressed(npz, allow_pickle=False, **data)
    return written + npz.stat().st_size


def main() -> None:
    zoo = load_zoo()
    parser = argparse.ArgumentParser(
        description="Write the stored data of tests/unit/test_models.py."
    )
    parser.add_argument("families", nargs="*", help="default: every family")
    names = parser.parse_args().families or list(zoo.FAMILIES)
    unknown = sorted(set(names) - set(zoo.FAMILIES))
    if unknown:
        parser.error(f"unknown families {unknown}; the zoo has {sorted(zoo.FAMILIES)}")
    total = 0
    for name in names:
        size = regenerate(name, zoo)
        total += size
        print(f"{name}: {size / 1024:.1f} KiB")
    print(f"total {total / 1024:.1f} KiB")


if __name__ == "__main__":
    main()
