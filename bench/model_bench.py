"""Whole models: the zoo's ONNX families at medium size, onnxruntime against
ours (`compile_model` in three floating-point contracts) and IREE.

    python bench/model_bench.py [--families mlp,cnn] [--repetitions R]
        [--json FILE]

Each family of examples/models/zoo.py is built at its medium size with a
static batch and dense weights, run on the same standard-normal input
(seed 0) by:

- ORT: onnxruntime on the ONNX model, `intra_op_num_threads=1` and
  `inter_op_num_threads=1`, the CPU execution provider;
- ours: the model imported by `linalg_ext.frontends.onnx.import_onnx`
  (torch-mlir, `weights="dense"`) and compiled by
  `linalg_ext.models.compile_model` with one thread, three times: "ours",
  its defaults (`fast_math="arcp"`, `approximate_math=True`:
  onnxruntime's contract, fused multiply-adds, reductions in any order,
  division by a reciprocal, polynomial exp/tanh/erf); "exact" (`fast_math="none"`,
  `approximate_math=False`: the interpreter's bits, libm calls); "fast"
  (`fast_math="fast"`);
- IREE: the same linalg-on-tensors text through `iree-base-compiler`
  (`--iree-input-type=none`, llvm-cpu, `--iree-llvmcpu-target-cpu=host`)
  and `iree-base-runtime` on `local-sync` with the caching allocator
  (bench/standing_bench.py's `Iree`); "not installed" without the `[iree]`
  extra.

Time: the median CPU time of one call from Python (`time.process_time`, so
a thread a system starts behind our back would be charged; every system
runs on one thread), over `--repetitions` samples after a warm-up call;
calls shorter than 20 ms are timed in batches. Also printed: each time /
ORT's, the seconds `compile_model` took (import excluded; defaults), and
the largest absolute difference of "ours" and "exact" from onnxruntime's.
A result further from onnxruntime's than 1e-3 (1e-2 for "fast") times
max(1, max |ORT|) is marked WRONG and the run exits 1.

Without the `[onnx]` extra (onnx, onnxruntime, torch-mlir) it prints one
line saying so and exits 0. Progress goes to stderr, the table to stdout;
`--json FILE` writes the numbers (`machine`, `repetitions`, `families`:
each `family`, `description`, `input_shape` and `results` per system:
`seconds`, `compile_seconds`, `max_abs_error`, `skipped`, `error`).
"""

from __future__ import annotations

import os

for _name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_name] = "1"  # before numpy loads its BLAS

import argparse  # noqa: E402
import json  # noqa: E402
import statistics  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from collections.abc import Callable, Sequence  # noqa: E402
from dataclasses import asdict, dataclass  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

import numpy as np  # noqa: E402
from timing import machine_line  # noqa: E402

from linalg_ext.frontends.onnx import extra_missing  # noqa: E402
from linalg_ext.lowering.fast_math import FastMathMode  # noqa: E402

NAME = "models"
REPO = Path(__file__).resolve().parent.parent
SYSTEMS = ("ORT", "ours", "ours exact", "ours fast", "IREE")
MODES: tuple[tuple[str, FastMathMode, bool], ...] = (
    ("ours", "arcp", True),
    ("ours exact", "none", False),
    ("ours fast", "fast", True),
)
"""Our three columns: their `fast_math` and `approximate_math` (the first is
compile_model's default)."""
TOLERANCE = {"ours": 1e-3, "ours exact": 1e-3, "ours fast": 1e-2, "IREE": 1e-3}
"""The largest difference from onnxruntime accepted, times max(1, max |ORT|)."""
INSTALL_HINT = "pip install -e '.[onnx]'"
STARTED = time.perf_counter()


def progress(line: str) -> None:
    """Where a long run is (stderr, so that stdout holds the table)."""
    elapsed = time.perf_counter() - STARTED
    print(f"  [{NAME} {elapsed:5.1f} s] {line}", file=sys.stderr, flush=True)


@dataclass
class Cell:
    """One system on one model: its time, or why there is none."""

    seconds: float | None = None
    compile_seconds: float | None = None
    max_abs_error: float | None = None
    skipped: str | None = None
    error: str | None = None
    """A failure or a wrong result (the run exits 1)."""


class Skip(Exception):
    """A cell that cannot be measured, and why (one line)."""


def cpu_median(run: Callable[[], Any], repetitions: int) -> float:
    """The median CPU seconds of one call of `run` over `repetitions`
    samples, after a warm-up call; calls under 20 ms are timed in batches."""
    start = time.process_time()
    run()
    first = time.process_time() - start
    inner = max(1, int(0.02 / max(first, 1e-7)))
    times = []
    for _ in range(repetitions):
        start = time.process_time()
        for _ in range(inner):
            run()
        times.append((time.process_time() - start) / inner)
    return statistics.median(times)


def first_line(error: BaseException) -> str:
    lines = [line.strip() for line in str(error).splitlines() if line.strip()]
    return lines[0] if lines else type(error).__name__


def compared(cell: Cell, result: Any, expected: np.ndarray, system: str) -> Cell:
    """`cell` with the difference of `result` from onnxruntime's, and an
    error when it is too large or of the wrong shape."""
    actual = np.asarray(result)
    if actual.shape != expected.shape:
        cell.error = f"result shape {actual.shape}, onnxruntime's {expected.shape}"
        return cell
    cell.max_abs_error = float(np.abs(actual - expected).max())
    bound = TOLERANCE[system] * max(1.0, float(np.abs(expected).max()))
    if not cell.max_abs_error <= bound:
        cell.error = f"max |error| {cell.max_abs_error:.3g} > {bound:.3g}"
    return cell


# ------------------------------------------------------------------ systems


def ort_session(model: Any) -> Any:
    """onnxruntime on one thread (intra- and inter-op)."""
    import onnxruntime as ort

    options = ort.SessionOptions()
    options.intra_op_num_threads = 1
    options.inter_op_num_threads = 1
    return ort.InferenceSession(
        model.SerializeToString(), options, providers=["CPUExecutionProvider"]
    )


def ours(
    text: str,
    feeds: list[np.ndarray],
    fast_math: FastMathMode,
    approximate_math: bool,
    repetitions: int,
) -> tuple[Cell, Any]:
    """compile_model's cell (without its comparison) and its result."""
    from linalg_ext.jit import JitError
    from linalg_ext.models import compile_model

    try:
        start = time.perf_counter()
        model = compile_model(
            text, fast_math=fast_math, approximate_math=approximate_math
        )
        compile_seconds = time.perf_counter() - start
        result = model(*feeds)
    except JitError as failure:
        return Cell(error=f"failed: {first_line(failure)}"), None
    seconds = cpu_median(lambda: model(*feeds), repetitions)
    return Cell(seconds, compile_seconds), result


def iree_cell(
    iree: Any, text: str, function: str, feeds: list[np.ndarray], repetitions: int
) -> tuple[Cell, Any]:
    """IREE's cell (without its comparison) and its result."""
    if iree.missing:
        raise Skip(iree.missing)
    start = time.perf_counter()
    try:
        vmfb = iree.compiler.compile_str(
            text,
            target_backends=["llvm-cpu"],
            input_type="none",
            extra_args=["--iree-llvmcpu-target-cpu=host"],
        )
    except Exception as failure:  # the compiler's own error type
        raise Skip(f"iree compile failed: {first_line(failure)}") from None
    compile_seconds = time.perf_counter() - start
    runtime = iree.runtime
    context = runtime.SystemContext(config=iree.config)
    context.add_vm_module(runtime.VmModule.copy_buffer(context.instance, vmfb))
    call = context.modules.module[function]
    result = call(*feeds).to_host()
    seconds = cpu_median(lambda: call(*feeds), repetitions)
    return Cell(seconds, compile_seconds), result


def make_iree() -> Any:
    """standing_bench's IREE driver (its caching allocator), when importable."""
    from standing_bench import Iree

    return Iree()


# -------------------------------------------------------------------- table


def milliseconds(cell: Cell) -> str:
    if cell.seconds is None:
        return "FAILED" if cell.error else "-"
    return f"{cell.seconds * 1e3:.3g}" + (" WRONG" if cell.error else "")


def ratio(mine: Cell, theirs: Cell) -> str:
    if mine.seconds is None or not theirs.seconds:
        return "-"
    return f"{mine.seconds / theirs.seconds:.2f}"


def number(value: float | None, digits: str = ".2f") -> str:
    return "-" if value is None else format(value, digits)


COLUMNS = (
    ("family", 19, "<"),
    ("ORT ms", 9, ">"),
    ("ours ms", 9, ">"),
    ("exact ms", 10, ">"),
    ("fast ms", 9, ">"),
    ("IREE ms", 9, ">"),
    ("ours/ORT", 10, ">"),
    ("exact/ORT", 11, ">"),
    ("fast/ORT", 10, ">"),
    ("IREE/ORT", 10, ">"),
    ("compile s", 11, ">"),
    ("|err| ours", 12, ">"),
    ("|err| exact", 13, ">"),
)


def row_text(values: Sequence[str]) -> str:
    return "".join(
        f"{value:{align}{width}}"
        for value, (_, width, align) in zip(values, COLUMNS, strict=True)
    )


def measure_family(
    name: str,
    iree: Any,
    repetitions: int,
    notes: dict[str, dict[str, None]],
    size: str = "medium",
) -> dict[str, Any]:
    """Every system on one family: the JSON entry (its cells)."""
    from zoo import FAMILIES  # pyright: ignore[reportMissingImports]

    from linalg_ext.frontends.onnx import ModelImportError, import_onnx

    family = FAMILIES[name]
    model = family.build(size, "static")
    inputs = family.inputs(size, np.random.default_rng(0))
    feeds = list(inputs.values())
    progress(f"{name}: onnxruntime")
    session = ort_session(model)
    (expected,) = session.run(None, inputs)
    cells: dict[str, Cell] = {
        "ORT": Cell(cpu_median(lambda: session.run(None, inputs), repetitions))
    }
    progress(f"{name}: import (torch-mlir)")
    try:
        text = import_onnx(model)
    except ModelImportError as failure:
        text = None
        for system in SYSTEMS[1:]:
            cells[system] = Cell(error=f"import failed: {failure}")
    if text is not None:
        for system, mode, approximate in MODES:
            progress(
                f"{name}: {system} (compile_model, fast_math={mode!r}, "
                f"approximate_math={approximate})"
            )
            cell, result = ours(text, feeds, mode, approximate, repetitions)
            cells[system] = (
                compared(cell, result, expected, system) if cell.error is None else cell
            )
        progress(f"{name}: IREE")
        function = text.split("func.func @", 1)[1].split("(", 1)[0]
        try:
            cell, result = iree_cell(iree, text, function, feeds, repetitions)
            cells["IREE"] = compared(cell, result, expected, "IREE")
        except Skip as reason:
            cells["IREE"] = Cell(skipped=str(reason))
    for system, cell in cells.items():
        if cell.skipped:
            notes.setdefault(cell.skipped, {})[system] = None
        if cell.error:
            notes.setdefault(f"{name}: {cell.error}", {})[system] = None
    return {
        "family": name,
        "description": family.description,
        "input_shape": list(feeds[0].shape),
        "results": {system: asdict(cell) for system, cell in cells.items()},
    }


def run(families: list[str], repetitions: int, size: str = "medium") -> dict[str, Any]:
    """Measure every family; print the table; the JSON document."""
    iree = make_iree()
    machine = machine_line()
    print(machine)
    print(
        f"The model zoo at {size} size (static batch, dense weights): median CPU time"
    )
    print(
        "of one call in ms, one thread; ours = compile_model's defaults "
        "(fast_math='arcp',\napproximate_math=True), exact = "
        "fast_math='none', approximate_math=False (the\ninterpreter's "
        "bits), fast = fast_math='fast'; compile s: compile_model's,\n"
        "defaults; |err|: max abs difference from onnxruntime."
    )
    header = row_text([title for title, _, _ in COLUMNS])
    print(header)
    print("-" * len(header))
    document: dict[str, Any] = {
        "machine": machine,
        "repetitions": repetitions,
        "size": size,
        "systems": list(SYSTEMS),
        "families": [],
    }
    notes: dict[str, dict[str, None]] = {}
    for index, name in enumerate(families, 1):
        progress(f"{index}/{len(families)} {name}")
        entry = measure_family(name, iree, repetitions, notes, size)
        document["families"].append(entry)
        cells = {s: Cell(**c) for s, c in entry["results"].items()}
        ort, mine, iree_result = cells["ORT"], cells["ours"], cells["IREE"]
        exact, fast = cells["ours exact"], cells["ours fast"]
        values = [
            name,
            milliseconds(ort),
            milliseconds(mine),
            milliseconds(exact),
            milliseconds(fast),
            milliseconds(iree_result),
            ratio(mine, ort),
            ratio(exact, ort),
            ratio(fast, ort),
            ratio(iree_result, ort),
            number(mine.compile_seconds),
            number(mine.max_abs_error, ".2g"),
            number(exact.max_abs_error, ".2g"),
        ]
        print(row_text(values), flush=True)
    for reason, which in notes.items():
        print(f"- {', '.join(which)}: {reason}")
    return document


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument(
        "--families", default="", help="comma-separated zoo families (default: all)"
    )
    parser.add_argument(
        "--repetitions", type=int, default=15, help="timed samples per cell"
    )
    parser.add_argument("--json", type=Path, default=None, help="write numbers here")
    parser.add_argument(
        "--size",
        choices=("small", "medium"),
        default="medium",
        help="the zoo's size (small: a quick check that every system runs)",
    )
    options = parser.parse_args(argv)
    if options.repetitions < 1:
        parser.error("--repetitions must be at least 1")
    missing = extra_missing()
    if missing is not None:
        print(
            f"model bench: skipped, it needs the [onnx] extra: {INSTALL_HINT}"
            f" (missing: {missing})"
        )
        return 0
    sys.path.insert(0, str(REPO / "examples" / "models"))
    from zoo import FAMILIES  # pyright: ignore[reportMissingImports]

    families = [f.strip() for f in options.families.split(",") if f.strip()]
    unknown = [f for f in families if f not in FAMILIES]
    if unknown:
        parser.error(
            f"unknown famil{'ies' if len(unknown) > 1 else 'y'} "
            f"{', '.join(unknown)}; the zoo has {', '.join(FAMILIES)}"
        )
    document = run(families or list(FAMILIES), options.repetitions, options.size)
    if options.json is not None:
        options.json.parent.mkdir(parents=True, exist_ok=True)
        options.json.write_text(json.dumps(document, indent=1) + "\n")
        print(f"numbers: {options.json}")
    wrong = [
        f"{entry['family']}, {system}: {cell['error']}"
        for entry in document["families"]
        for system, cell in entry["results"].items()
        if cell["error"]
    ]
    for line in wrong:
        print(f"{NAME} bench: {line}", file=sys.stderr)
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
