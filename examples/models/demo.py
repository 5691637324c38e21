"""An ONNX model end to end (the last part of `make demo`).

    python examples/models/demo.py [--family attention] [--repetitions R]

Builds the model zoo's `attention` family at medium size (one head over a
1x512x64 input: Q/K/V projections, softmax(QK^T/sqrt(d))V, an output
projection) as an ONNX model in code and saves it to build/demo/model.onnx;
imports it with `linalg-ext-import` (torch-mlir, run as a subprocess, as a
user would) to build/demo/model.mlir and shows the head of that text;
compiles it with `linalg_ext.models.compile_model`; runs it on a random
input, compares with onnxruntime (one thread) and times both (median wall
time per call, under the machine line).

Without the `[onnx]` extra (onnx, onnxruntime, torch-mlir) it says how to
get it in one line and exits 0.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import textwrap
import time
from collections import Counter
from pathlib import Path

import numpy as np

from linalg_ext.frontends.onnx import extra_missing

REPO = Path(__file__).resolve().parent.parent.parent
OUT = Path("build") / "demo"
HEAD_LINES = 14
WIDTH = 100


def tool(name: str) -> str:
    """The path of console script `name`: next to this Python (the venv's)
    first, then on PATH."""
    beside = Path(sys.executable).parent / name
    return str(beside) if beside.exists() else shutil.which(name) or name


def head(text: str) -> str:
    """The first lines of `text`, long ones (hex weights) cut."""
    lines = text.splitlines()
    shown = [
        line if len(line) <= WIDTH else line[: WIDTH - 5] + " ..."
        for line in lines[:HEAD_LINES]
    ]
    return "\n".join(shown) + f"\n  ... ({len(lines)} lines, {len(text) // 1024} KiB)"


def op_counts(text: str) -> str:
    """How many of each linalg/tensor op the text holds, most first (the
    ops inside generics' bodies left out)."""
    counts = Counter(
        word.split("(")[0]
        for line in text.splitlines()
        for word in line.split()
        if word.startswith(("linalg.", "tensor.")) and word[-1] != ":"
    )
    for inner in ("linalg.yield", "linalg.index"):  # parts of generics' bodies
        counts.pop(inner, None)
    return ", ".join(f"{op} x{n}" for op, n in counts.most_common())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--family", default="attention", help="a zoo family")
    parser.add_argument("--repetitions", type=int, default=50)
    parser.add_argument(
        "--size", choices=("small", "medium"), default="medium", help="the zoo's size"
    )
    args = parser.parse_args(argv)
    missing = extra_missing()
    if missing is not None:
        print(
            "== 4. an ONNX model end to end: skipped, it needs the [onnx] extra: "
            f"pip install 'xdsl-linalg-ext[onnx]' (missing: {missing})"
        )
        return 0

    sys.path.insert(0, str(REPO / "bench"))  # timing.py: the machine line, medians
    sys.path.insert(0, str(REPO / "examples" / "models"))
    import onnx
    import onnxruntime as ort
    from timing import machine_line, median_seconds  # pyright: ignore
    from zoo import FAMILIES

    from linalg_ext.models import compile_model

    family = FAMILIES[args.family]
    model = family.build(args.size, "static")
    out = REPO / OUT
    out.mkdir(parents=True, exist_ok=True)
    onnx_path, mlir_path = OUT / "model.onnx", OUT / "model.mlir"
    onnx.save(model, REPO / onnx_path)
    ops = Counter(node.op_type for node in model.graph.node)
    print(
        f"== 4. an ONNX model end to end: the model zoo's `{args.family}` "
        f"(examples/models/zoo.py),\n==    {family.description},\n"
        f"==    built in code with onnx.helper and saved to {onnx_path}; its "
        f"nodes:\n==    {', '.join(f'{op} x{n}' for op, n in ops.items())}."
    )
    print("== imported to linalg-on-tensors by torch-mlir:")
    command = ["linalg-ext-import", str(onnx_path), "-o", str(mlir_path)]
    print("$ " + " ".join(command))
    done = subprocess.run(
        [tool(command[0]), *command[1:]], cwd=REPO, capture_output=True, text=True
    )
    if done.returncode != 0:
        print(done.stderr.strip(), file=sys.stderr)
        return 1
    text = (REPO / mlir_path).read_text()
    print(head(text))
    print(
        textwrap.fill(
            op_counts(text),
            88,
            initial_indent="== its ops: ",
            subsequent_indent="==    ",
        )
    )

    print(
        f"== compile_model({str(mlir_path)!r}) (its defaults: "
        "fast_math='arcp', approximate_math=True; one thread):"
    )
    start = time.perf_counter()
    compiled = compile_model(REPO / mlir_path)
    print(f"==    compiled in {time.perf_counter() - start:.2f} s")
    feeds = family.inputs(args.size, np.random.default_rng(0))
    x = list(feeds.values())
    ours = np.asarray(compiled(*x))
    options = ort.SessionOptions()
    options.intra_op_num_threads = 1
    options.inter_op_num_threads = 1
    session = ort.InferenceSession(
        model.SerializeToString(), options, providers=["CPUExecutionProvider"]
    )
    expected = np.asarray(session.run(None, feeds)[0])
    if ours.shape != expected.shape:
        print(f"result shape {ours.shape}, onnxruntime's {expected.shape}")
        return 1
    error = float(np.abs(ours - expected).max())
    shape = "x".join(map(str, x[0].shape))
    print(
        f"==    run on a random {shape} input: max |ours - onnxruntime| = "
        f"{error:.2g} (outputs up to {float(np.abs(expected).max()):.2g})"
    )
    if not error <= 1e-3 * max(1.0, float(np.abs(expected).max())):
        print("the compiled result differs from onnxruntime's", file=sys.stderr)
        return 1
    compiled(*x)  # warm-up calls
    session.run(None, feeds)
    mine, _ = median_seconds(lambda: compiled(*x), args.repetitions)
    theirs, _ = median_seconds(lambda: session.run(None, feeds), args.repetitions)
    print(f"== median time per call ({args.repetitions} calls, one thread):")
    print(machine_line())
    print(f"{'ours (compile_model)':<24}{mine * 1e3:>8.3f} ms")
    print(f"{'onnxruntime':<24}{theirs * 1e3:>8.3f} ms")
    print(f"== ours / onnxruntime = {mine / theirs:.2f}; more: bench/model_bench.py")
    return 0


if __name__ == "__main__":
    sys.exit(main())
