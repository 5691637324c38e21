"""Where our compiled code stands: issue 19's workloads, one thread, ours
against upstream MLIR, IREE and numpy, with the machine's measured peak.

    python bench/standing_bench.py [--quick] [--only TEXT] [--skip SYSTEM]
        [--json PATH] [--chart PATH]

Workloads (f32; bench/standing_workloads.py): matmul 256³, 512³, 1024³;
matmul 1024² + bias + relu; attention 1×1024×64 and 1×4096×64, unfused
and in the flash form (`linalg-fuse-ext{tile-sizes=64,0,256}` on the P·V
matmul, as bench/fuse_ext_bench.py); row softmax 4096²; (a+b)·c 4096² as one
generic; the per-call overhead of a 16-element add.

Systems, each given the same computation:

- ours: `linalg_ext.jit.compile_module` with its defaults; "ours fast-math"
  too when `compile_module` takes `fast_math`, with `fast_math="reassoc"`
  and `approximate_math=True` (polynomial exp/log/tanh/erf)
  (fused multiply-adds, reordered sums; checked with rtol 1e-2);
- upstream: the program in upstream's ops (our `linalg_ext.softmax` written
  as four generics) through `mlir-opt-22` (native_bench.py's pipeline) and
  `mlir-runner-22 -O3`, each call timed inside the program by the
  process's CPU time (C's `clock()`, 1 µs ticks: a call under a few µs
  reads 0 or 1 tick); the naive code is slow, so 2-3 calls;
- IREE: the same program through `iree-base-compiler`
  (`--iree-llvmcpu-target-cpu=host`, llvm-cpu) run by `iree-base-runtime`
  on `local-sync` with the caching allocator, called from Python with numpy
  arrays; "IREE data-tiled" adds `--iree-opt-data-tiling`. Without the
  packages (`pip install -e '.[iree]'`) both columns say "not installed";
- numpy: the same computation with numpy (BLAS for matmuls), one thread
  (this script sets OPENBLAS_NUM_THREADS=1 and friends before numpy loads).

Time: the median CPU time of one call from Python (`time.process_time`,
this process; ours, IREE and numpy alike pay their call overhead, which the
last row shows) over repetitions after a warm-up call; calls shorter than
20 ms are timed in batches. Rates: GFLOP/s (2·M·N·K per matmul) or GB/s (bytes read and
written once). The machine's peak is measured in the same run: numpy's
single-thread sgemm (GFLOP/s) and a numpy copy (GB/s, read + write).
Every result of ours, IREE and numpy is checked against numpy (upstream's
runs on constant inputs and is not checked).

After the table, issue 19's "Must show" ratios of this run (ours, the
faster of its two columns, over numpy, IREE, ...): "met" or "not yet",
printed and never asserted.

Writes the numbers as JSON (--json, default build/bench/results.json):
`machine` (timing.machine_line()), `quick`, `peak` (`sgemm_gflops`,
`copy_gbs`), `systems`, `workloads` (each `key`, `label`, `unit`, `work`,
and `results` per system: `seconds`, `rate`, `unit`, `skipped` (why not
run, or null), `compile_seconds`, `error` (a wrong result, or null)) and
`targets`. When matplotlib is installed (`pip install -e '.[bench]'`), also
a chart of time per workload for each system on a log scale, the machine in
its title (--chart, default build/bench/standing.png; bench/standing_chart.py).
Progress goes to stderr, the table to stdout. Exit 1 when a result is wrong
(after writing the JSON).
"""

from __future__ import annotations

import os

SINGLE_THREAD = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")
for _name in SINGLE_THREAD:
    os.environ[_name] = "1"  # before numpy loads its BLAS

import argparse  # noqa: E402
import inspect  # noqa: E402
import json  # noqa: E402
import shutil  # noqa: E402
import statistics  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from collections.abc import Callable, Sequence  # noqa: E402
from dataclasses import asdict, dataclass  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

import numpy as np  # noqa: E402
from standing_workloads import Workload, workloads  # noqa: E402
from timing import machine_line  # noqa: E402

from linalg_ext.jit import JitError  # noqa: E402

NAME = "standing"
REPO = Path(__file__).resolve().parent.parent
SYSTEMS = ("ours", "ours fast-math", "upstream", "IREE", "IREE data-tiled", "numpy")
FAST_MATH = "reassoc"
"""The mode of "ours fast-math": fused multiply-adds and reordered sums, IEEE
NaN and infinities kept (`fast` would let LLVM assume no -inf, which a
softmax's max starts from), with the math functions as polynomials."""


STARTED = time.perf_counter()


def progress(line: str) -> None:
    """Where a long run is, and since when (stderr, so that stdout holds the
    table)."""
    elapsed = time.perf_counter() - STARTED
    print(f"  [{NAME} {elapsed:5.1f} s] {line}", file=sys.stderr, flush=True)


@dataclass
class Cell:
    """One system on one workload: its time, or why there is none."""

    seconds: float | None = None
    rate: float | None = None
    unit: str = ""
    skipped: str | None = None
    compile_seconds: float | None = None
    error: str | None = None
    """A wrong result (the time is kept, the run fails)."""
    heap_peak_bytes: int | None = None
    """Ours on attention: the most the compiled code held during a call (the
    JIT's allocation tracker)."""


class Skip(Exception):
    """A cell that cannot be measured, and why (one line)."""


@dataclass
class Timing:
    """How long the timed calls of one cell may take."""

    batch_seconds: float = 0.02
    """Calls shorter than this are timed in batches (the clock's resolution)."""
    budget_seconds: float = 3.0
    """About how long one cell's timed calls take at most (beyond 2 calls)."""
    max_samples: int = 15


TIMING = Timing()
QUICK_TIMING = Timing(0.002, 0.05, 3)


def cpu_per_call(run: Callable[[], Any], timing: Timing) -> float:
    """The median CPU seconds of one call of `run`, after a warm-up call."""
    start = time.process_time()
    result = run()
    first = time.process_time() - start
    del result
    inner = max(1, int(timing.batch_seconds / max(first, 1e-7)))
    samples = int(timing.budget_seconds / max(first * inner, 1e-9))
    fewest = 1 if first > 2 * timing.budget_seconds else 2
    samples = max(fewest, min(timing.max_samples, samples))
    times = []
    for _ in range(samples):
        start = time.process_time()
        for _ in range(inner):
            run()  # what it returns is freed at once
        times.append((time.process_time() - start) / inner)
    return statistics.median(times)


def checked(
    workload: Workload, inputs: list[np.ndarray], result: Any, rtol: float
) -> str | None:
    """None when `result` matches numpy's, else what is wrong."""
    expected = workload.reference(*inputs)
    actual = np.asarray(result)
    if actual.shape != expected.shape:
        return f"result shape {actual.shape}, numpy's {expected.shape}"
    if np.allclose(actual, expected, rtol=rtol, atol=1e-4):
        return None
    return f"max |error| {float(np.abs(actual - expected).max()):.3g} against numpy"


# ------------------------------------------------------------------ systems


def fast_math_supported() -> bool:
    from linalg_ext.jit import compile_module

    return "fast_math" in inspect.signature(compile_module).parameters


def ours(
    workload: Workload, inputs: list[np.ndarray], fast_math: bool, timing: Timing
) -> Cell:
    """Our JIT's cell (the flash form made first where the row asks)."""
    from xdsl.parser import Parser

    from linalg_ext.context import make_context
    from linalg_ext.jit import compile_module
    from linalg_ext.pipelines import parse_pipeline

    module = Parser(make_context(), workload.ours).parse_module()
    module.verify()
    if workload.flash_tiles is not None:
        from fuse_ext_bench import flash_spec, whole_score_ops

        parse_pipeline(flash_spec(workload.flash_tiles)).apply(make_context(), module)
        module.verify()
        whole = whole_score_ops(module, workload.shapes[0][0])
        if whole:
            raise Skip(
                f"flash form not available: {flash_spec(workload.flash_tiles)} "
                f"left {', '.join(sorted(set(whole)))} outside the loops"
            )
    options: dict[str, Any] = (
        {"fast_math": FAST_MATH, "approximate_math": True} if fast_math else {}
    )
    compiled = compile_module(module, **options)
    function = compiled[workload.function]
    error = checked(workload, inputs, function(*inputs), 1e-2 if fast_math else 1e-3)
    seconds = cpu_per_call(lambda: function(*inputs), timing)
    cell = Cell(seconds, compile_seconds=compiled.compile_seconds.total)
    cell.error = error
    if workload.function == "attention" and not fast_math:
        cell.heap_peak_bytes = heap_peak(module, workload, inputs)
    return cell


def heap_peak(module: Any, workload: Workload, inputs: list[np.ndarray]) -> int:
    """Bytes the compiled code held at most during one call (compiled again
    with `track_memory=True`: every `memref.alloc` counted)."""
    from linalg_ext.jit import TRACKER, compile_module

    tracked = compile_module(module, track_memory=True)[workload.function]
    baseline = TRACKER.current
    TRACKER.reset()
    result = tracked(*inputs)
    del result
    return TRACKER.peak - baseline


CPU_CLOCK = """
func.func private @clock() -> i64
func.func @cpu_seconds() -> f64 {
  %ticks = func.call @clock() : () -> i64
  %wide = arith.sitofp %ticks : i64 to f64
  %tick = arith.constant 1.0e-6 : f64
  %seconds = arith.mulf %wide, %tick : f64
  return %seconds : f64
}
"""
"""The CPU time of the process in seconds, from C's `clock()` (POSIX:
CLOCKS_PER_SEC is 10^6), for the upstream program's timer."""


def upstream(workload: Workload) -> Cell:
    """mlir-opt-22 | mlir-runner-22 -O3 on the portable program, each call
    timed inside it: native_bench's harness, with `rtclock` (wall time)
    replaced by the process's CPU time, as the other columns are timed."""
    from native_bench import RUNNER_LIB, UPSTREAM_PIPELINE, Kernel, upstream_program

    if workload.portable is None:
        raise Skip(workload.portable_missing)
    if workload.upstream_missing:
        raise Skip(workload.upstream_missing)
    for tool in ("mlir-opt-22", "mlir-runner-22"):
        if shutil.which(tool) is None:
            raise Skip(f"{tool} not installed")
    kernel = Kernel(
        workload.label,
        workload.portable,
        workload.shapes,
        workload.reference,
        workload.upstream_repetitions,
    )
    program = upstream_program(kernel).replace("@rtclock()", "@cpu_seconds()")
    program = program.replace("func.func private @cpu_seconds() -> f64", CPU_CLOCK)
    runner = ["mlir-runner-22", "-O3", "-e", "main", "-entry-point-result=void"]
    lowered = run_tool(["mlir-opt-22", f"--pass-pipeline={UPSTREAM_PIPELINE}"], program)
    printed = run_tool([*runner, f"-shared-libs={RUNNER_LIB}"], lowered)
    micros = [float(value) for value in printed.split()[:-1]]
    return Cell(statistics.median(micros) / 1e6)


def run_tool(command: list[str], text: str) -> str:
    """What `command` prints given `text`; Skip with its first error line."""
    result = subprocess.run(command, input=text, capture_output=True, text=True)
    if result.returncode != 0:
        lines = [line for line in result.stderr.splitlines() if line.strip()]
        raise Skip(f"{command[0]} failed: {lines[0] if lines else result.returncode}")
    return result.stdout


class Iree:
    """IREE's compiler and runtime, when installed."""

    def __init__(self) -> None:
        try:
            import iree.compiler as compiler
            import iree.runtime as runtime
        except ImportError:
            self.missing = "not installed (pip install -e '.[iree]')"
            return
        self.missing = ""
        self.compiler, self.runtime = compiler, runtime
        driver = runtime.get_driver("local-sync")
        # IREE's caching allocator keeps freed buffers for the next call.
        allocators: list[Any] = ["caching"]
        self.config = runtime.Config(
            device=driver.create_default_device(allocators=allocators)
        )

    def cell(
        self,
        workload: Workload,
        inputs: list[np.ndarray],
        data_tiling: bool,
        timing: Timing,
    ) -> Cell:
        if self.missing:
            raise Skip(self.missing)
        if workload.portable is None:
            raise Skip(workload.portable_missing)
        flags = ["--iree-llvmcpu-target-cpu=host"]
        if data_tiling:
            flags.append("--iree-opt-data-tiling")
        start = time.perf_counter()
        try:
            vmfb = self.compiler.compile_str(
                workload.portable, target_backends=["llvm-cpu"], extra_args=flags
            )
        except Exception as failure:  # the compiler's own error type
            lines = [line for line in str(failure).splitlines() if line.strip()]
            raise Skip(f"iree compile failed: {lines[0] if lines else ''}") from None
        compile_seconds = time.perf_counter() - start
        context = self.runtime.SystemContext(config=self.config)
        context.add_vm_module(self.runtime.VmModule.copy_buffer(context.instance, vmfb))
        function = context.modules.module["kernel"]
        error = checked(workload, inputs, function(*inputs).to_host(), 1e-3)
        cell = Cell(cpu_per_call(lambda: function(*inputs), timing))
        cell.compile_seconds, cell.error = compile_seconds, error
        return cell


def numpy_cell(workload: Workload, inputs: list[np.ndarray], timing: Timing) -> Cell:
    """numpy's cell: the workload's reference, on one BLAS thread."""
    return Cell(cpu_per_call(lambda: workload.reference(*inputs), timing))


# --------------------------------------------------------------------- peak


def measure_peak(quick: bool, timing: Timing) -> dict[str, float]:
    """numpy's single-thread sgemm GFLOP/s and a copy's GB/s (read + write)."""
    rng = np.random.default_rng(1)
    n = 256 if quick else 1024
    a = rng.uniform(-1, 1, (n, n)).astype(np.float32)
    b = rng.uniform(-1, 1, (n, n)).astype(np.float32)
    sgemm = 2.0 * n**3 / cpu_per_call(lambda: a @ b, timing)
    size = (8 if quick else 128) * 2**20 // 4
    source = np.ones(size, np.float32)
    target = np.empty_like(source)
    copy = 2.0 * source.nbytes / cpu_per_call(lambda: np.copyto(target, source), timing)
    return {"sgemm_gflops": sgemm / 1e9, "copy_gbs": copy / 1e9}


# -------------------------------------------------------------------- table


def duration(seconds: float) -> str:
    """3 significant digits in s, ms or µs (999.96 µs is 1 ms)."""
    for scale, unit in ((1.0, "s"), (1e-3, "ms")):
        if seconds >= 0.9995 * scale:
            return f"{seconds / scale:.3g} {unit}"
    return f"{seconds * 1e6:.3g} µs"


def cell_text(cell: Cell) -> str:
    if cell.seconds is None:
        return "FAILED" if cell.error else "-"
    text = duration(cell.seconds)
    if cell.rate is not None:
        text += f" {cell.rate:.3g}"
    return text + (" WRONG" if cell.error else "")


def rate_of(workload: Workload, seconds: float | None) -> float | None:
    if not workload.work or not seconds:
        return None
    scale = 1e9  # GFLOP/s and GB/s alike
    return workload.work / seconds / scale


def measure(
    workload: Workload,
    system: str,
    inputs: list[np.ndarray],
    iree: Iree,
    skipped: Sequence[str],
    timing: Timing,
) -> Cell:
    """One cell; `Skip` when it cannot be measured."""
    if system in skipped:
        raise Skip("skipped (--skip)")
    if system == "ours":
        return ours(workload, inputs, False, timing)
    if system == "ours fast-math":
        return ours(workload, inputs, True, timing)
    if system == "upstream":
        return upstream(workload)
    if system == "IREE":
        return iree.cell(workload, inputs, False, timing)
    if system == "IREE data-tiled":
        return iree.cell(workload, inputs, True, timing)
    return numpy_cell(workload, inputs, timing)


def run(options: argparse.Namespace) -> dict[str, Any]:
    """Measure every cell; print the table; the JSON document."""
    systems = [s for s in SYSTEMS if s != "ours fast-math" or fast_math_supported()]
    rows = [w for w in workloads(options.quick) if options.only in w.label]
    timing = QUICK_TIMING if options.quick else TIMING
    progress("measuring the machine's peak (numpy sgemm, copy)")
    peak = measure_peak(options.quick, timing)
    iree = Iree()
    machine = machine_line()
    print(machine)
    print(
        f"peak, measured now: numpy sgemm one thread {peak['sgemm_gflops']:.1f}"
        f" GFLOP/s, copy {peak['copy_gbs']:.1f} GB/s (read + write)"
    )
    print(
        "Median CPU time of one call, one thread, and GFLOP/s or GB/s (upstream:"
        " timed inside\nthe program, mlir-runner-22 -O3). '-': not run (reasons"
        " below)."
    )
    width = 20
    header = f"{'workload':<34}" + "".join(f"{s:>{width}}" for s in systems)
    print(header)
    print("-" * len(header))
    document: dict[str, Any] = {
        "machine": machine,
        "quick": options.quick,
        "peak": peak,
        "systems": systems,
        "workloads": [],
    }
    notes: dict[str, dict[str, None]] = {}
    """Why a cell was not run -> the systems it says it of."""
    rng = np.random.default_rng(0)
    for index, workload in enumerate(rows, 1):
        inputs = [rng.uniform(-1, 1, s).astype(np.float32) for s in workload.shapes]
        results: dict[str, dict[str, Any]] = {}
        for system in systems:
            progress(f"{index}/{len(rows)} {workload.label}: {system}")
            try:
                cell = measure(workload, system, inputs, iree, options.skip, timing)
            except Skip as reason:
                cell = Cell(skipped=str(reason))
            except JitError as failure:  # reported with the wrong results
                cell = Cell(error=f"compiling or calling failed: {failure}")
            cell.unit = workload.unit
            cell.rate = rate_of(workload, cell.seconds)
            if cell.skipped:
                notes.setdefault(cell.skipped, {})[system] = None
            results[system] = asdict(cell)
        document["workloads"].append(
            {
                "key": workload.key,
                "label": workload.label,
                "unit": workload.unit,
                "work": workload.work,
                "results": results,
            }
        )
        cells = [Cell(**results[s]) for s in systems]
        print(
            f"{workload.label:<34}"
            + "".join(f"{cell_text(c):>{width}}" for c in cells),
            flush=True,
        )
    for reason, which in notes.items():
        print(f"- {', '.join(which)}: {reason}")
    document["targets"] = targets(document["workloads"])
    print("Issue 19's targets (ours: the faster of ours and ours fast-math; guides,")
    print("never asserted):")
    for target in document["targets"]:
        print(f"  {target['status']:<9} {target['text']}")
    return document


def seconds_of(row: dict[str, Any], system: str) -> float | None:
    cell = row["results"].get(system)
    return cell["seconds"] if cell and not cell["error"] else None


def memory_target(flash: dict[str, Any], unfused: dict[str, Any]) -> dict[str, Any]:
    """The flash form's heap peak well below (at most half) the unfused one's."""
    mine = flash["results"]["ours"]["heap_peak_bytes"]
    theirs = unfused["results"]["ours"]["heap_peak_bytes"]
    what = "heap peak well below the unfused form's"
    if not mine or not theirs:
        status, text = "n/a", f"{flash['label']}: {what} (not measured)"
    else:
        ratio = mine / theirs
        status = "met" if ratio <= 0.5 else "not yet"
        text = (
            f"{flash['label']}: heap peak {mine / 2**20:.3g} MiB / unfused"
            f" {theirs / 2**20:.3g} MiB = {ratio:.2f}, {what} (<= 0.50)"
        )
    return {
        "key": flash["key"],
        "against": "ours unfused, heap peak",
        "bound": 0.5,
        "status": status,
        "text": text,
    }


def targets(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Issue 19's "Must show" ratios, from this run: each with its ratio and
    bound, "met", "not yet" or "n/a" (a side was not measured)."""
    found = []

    def add(row: dict[str, Any], other: str, bound: float, what: str) -> None:
        mine = [
            (t, s)
            for s in ("ours", "ours fast-math")
            if (t := seconds_of(row, s)) is not None
        ]
        theirs = seconds_of(row, other)
        if not mine or not theirs:
            status, text = "n/a", f"{row['label']}: {what} (not measured)"
        else:
            best, which = min(mine)
            ratio = best / theirs
            status = "met" if ratio <= bound else "not yet"
            text = (
                f"{row['label']}: {which} / {other} = {ratio:.2f}, {what}"
                f" (<= {bound:.2f})"
            )
        found.append(
            {
                "key": row["key"],
                "against": other,
                "bound": bound,
                "status": status,
                "text": text,
            }
        )

    for row in rows:
        key = row["key"]
        if key.startswith("matmul_bias_relu"):
            add(row, "numpy", 1.0, "faster than numpy's matmul, then bias + relu")
        elif key.startswith("matmul_"):
            add(row, "numpy", 1 / 0.75, ">= 75 % of numpy's single-thread BLAS")
            add(row, "IREE data-tiled", 1.0, "at least IREE data-tiled's speed")
        elif key.startswith("attention_") and key.endswith("_flash"):
            add(row, "numpy", 1.0, "flash form at most numpy's three steps")
            unfused = {r["key"]: r for r in rows}.get(key[: -len("flash")] + "unfused")
            if unfused is not None:
                found.append(memory_target(row, unfused))
        elif key.startswith("softmax_"):
            add(row, "IREE", 1.2, "at most 1.2x IREE (caching allocator)")
    return found


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="small sizes")
    parser.add_argument("--only", default="", help="workloads whose label has this")
    parser.add_argument(
        "--skip", action="append", default=[], choices=SYSTEMS, help="a system"
    )
    parser.add_argument(
        "--json", type=Path, default=REPO / "build" / "bench" / "results.json"
    )
    parser.add_argument(
        "--chart", type=Path, default=REPO / "build" / "bench" / "standing.png"
    )
    options = parser.parse_args(argv)
    document = run(options)
    options.json.parent.mkdir(parents=True, exist_ok=True)
    options.json.write_text(json.dumps(document, indent=1) + "\n")
    print(f"numbers: {options.json}")
    from standing_chart import draw

    missing = draw(document, options.chart)
    print(f"chart: {missing or options.chart}")
    wrong = [
        f"{row['label']}, {system}: {cell['error']}"
        for row in document["workloads"]
        for system, cell in row["results"].items()
        if cell["error"]
    ]
    for line in wrong:
        print(f"{NAME}: wrong result: {line}", file=sys.stderr)
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
