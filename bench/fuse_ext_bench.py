"""`fuse_ext` (ByteIR's tile-and-fuse): compile time on residual blocks vs
upstream's `transform.structured.fuse`, and attention compiled natively,
unfused vs the flash form.

    python bench/fuse_ext_bench.py [--quick] [--only residual|attention]
        [--upstream-limit SECONDS] [--flash-tiles R,C,K]

Section "compile time on N residual blocks": a function of N blocks
`r_i = linalg.tanh(x_i); x_{i+1} = linalg.add(r_i, x_i)` on
tensor<64x128xf32>, the last add marked `__root__`, tiled 16x32:

- ours, fuse_ext: the text parsed in-process, then only
  `linalg_ext.tiling.fuse_ext.fuse_ext(root, [16, 32])` timed (CPU time,
  median over repetitions, a freshly parsed module each); afterwards the
  module must hold exactly 2N linalg ops, every one inside the loops (one
  tile per op);
- ours, end to end: `linalg-ext-opt -p linalg-fuse-ext{tile-sizes=16,32}`
  on the file, a subprocess, wall time (start-up, parse, pass, clean-up,
  print); its output must hold 2N linalg ops too;
- upstream: `mlir-opt-22 --transform-interpreter` on the same payload with
  a named sequence that runs `transform.structured.fuse %root tile_sizes
  [16, 32]`, a subprocess, wall time, and the number of linalg ops it
  prints. Upstream tiles the first op of N blocks 2^N times, so it is run
  for N = 2, 4, 6, ... until one run exceeds the limit (60 s; a subprocess
  timeout), then stops.

The growth columns divide each time by the previous row's: ours about x2
per doubling of N (linear), upstream about x4 per two more blocks.

Section "attention": Q[S x D] @ K[D x S] -> `linalg_ext.softmax` (dimension
1) -> @ V[S x D], f32, S = 4096, D = 64 (512 with --quick), each variant in
a fresh subprocess with one BLAS thread:

- unfused: the program compiled by `linalg_ext.jit.compile_module` (our
  bufferization and lowering, llvmlite -O3);
- flash: the same after `linalg-fuse-ext{tile-sizes=R,C,K}` on the final
  matmul. If the pass leaves an op producing the whole S x S score matrix
  outside the loops, the row says "flash form not available" and why;
- numpy: `q @ k`, a row softmax, `@ v` (three steps, float32).

Time: the median CPU time of one call (`time.process_time`, one thread).
Peak memory, two ways: "heap peak" is what the compiled code held at most
during a call, counted exactly by the JIT's allocation tracker (the module
compiled again with `track_memory=True`: every `memref.alloc` goes through
a counting `malloc`/`free`); for numpy, `tracemalloc`'s peak (numpy reports
its array buffers to it). "RSS peak" is the rise of the process's resident
high-water mark (`VmHWM`, reset through `/proc/self/clear_refs` just before
the call) over the resident size before it: pages really touched, for all
three alike. Every result is checked against a float64 numpy reference, and
the flash form must hold less than one S x S f32 matrix at its peak (the
score matrix is never allocated whole); both are asserted.

Exit 0 on success, 1 (one line on stderr) when a check fails.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from timing import machine_line

NAME = "fuse_ext bench"
SHAPE = (64, 128)
TILES = (16, 32)
SIZES = (16, 32, 64, 128, 256, 512, 1000)
QUICK_SIZES = (16, 32, 64)
UPSTREAM_LIMIT = 60.0
QUICK_UPSTREAM_LIMIT = 2.0
SEQ, HEAD, QUICK_SEQ = 4096, 64, 512
FLASH_TILES = (64, 0, 256)
QUICK_FLASH_TILES = (64, 0, 128)
LINALG_EXT_OPT = str(Path(sys.executable).with_name("linalg-ext-opt"))
SINGLE_THREAD = {
    name: "1"
    for name in (
        "OPENBLAS_NUM_THREADS",
        "OMP_NUM_THREADS",
        "MKL_NUM_THREADS",
        "NUMEXPR_NUM_THREADS",
    )
}
LINALG_OP = re.compile(r"= linalg\.\w+")
"""A linalg op with results in printed IR (`linalg.yield` has none)."""


class BenchError(Exception):
    """A failure reported as one line."""


def progress(line: str) -> None:
    """Where a long run is (stderr, so that stdout holds the tables)."""
    print(f"  [{NAME}] {line}", file=sys.stderr, flush=True)


def cpu_median(run: Callable[[], Any], repetitions: int) -> float:
    """The median CPU time (user + system, this process) of `run`; what it
    returns is freed after the clock stops."""
    times = []
    for _ in range(repetitions):
        start = time.process_time()
        result = run()
        times.append(time.process_time() - start)
        del result
    return statistics.median(times)


def growth(seconds: float | None, previous: float | None) -> str:
    return f"x{seconds / previous:.2f}" if seconds and previous else "-"


# ---------------------------------------------------------------- residual


def residual_source(n: int) -> str:
    """N residual blocks on one `tensor.empty`, the last add the root."""
    t = f"tensor<{SHAPE[0]}x{SHAPE[1]}xf32>"
    lines = [f"func.func @res(%x0: {t}) -> {t} {{", f"  %e = tensor.empty() : {t}"]
    for i in range(n):
        root = " {__root__}" if i == n - 1 else ""
        lines += [
            f"  %r{i} = linalg.tanh ins(%x{i} : {t}) outs(%e : {t}) -> {t}",
            f"  %x{i + 1} = linalg.add{root} ins(%r{i}, %x{i} : {t}, {t})"
            f" outs(%e : {t}) -> {t}",
        ]
    lines += [f"  return %x{n} : {t}", "}", ""]
    return "\n".join(lines)


UPSTREAM_SCRIPT = f"""
  transform.named_sequence @__transform_main(
      %module: !transform.any_op {{transform.readonly}}) {{
    %root = transform.structured.match attributes {{__root__}} in %module
      : (!transform.any_op) -> !transform.any_op
    %tiled, %loops:2 = transform.structured.fuse %root
      tile_sizes [{TILES[0]}, {TILES[1]}]
      : (!transform.any_op)
      -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }}
"""
"""MLIR 22's form: a named sequence run by `--transform-interpreter`."""


def upstream_source(n: int) -> str:
    return (
        "module attributes {transform.with_named_sequence} {\n"
        f"{residual_source(n)}{UPSTREAM_SCRIPT}}}\n"
    )


def count_linalg_ops(path: Path) -> int:
    with path.open() as lines:
        return sum(len(LINALG_OP.findall(line)) for line in lines)


@dataclass
class ToolRun:
    wall: float
    cpu: float
    """User + system seconds of the tool (getrusage of children)."""
    ops: int
    """linalg ops in what it printed."""


def run_tool(
    command: Sequence[str], output: Path, timeout: float | None = None
) -> ToolRun:
    """Run a tool that writes `output`; BenchError with its last stderr line
    if it fails; TimeoutExpired passes through."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    result = subprocess.run(
        list(command), capture_output=True, text=True, timeout=timeout
    )
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if result.returncode != 0:
        lines = [line for line in result.stderr.splitlines() if line.strip()]
        why = lines[-1].strip() if lines else f"exit status {result.returncode}"
        raise BenchError(f"{Path(command[0]).name} failed: {why}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    ops = count_linalg_ops(output)
    output.unlink()
    return ToolRun(wall, cpu, ops)


@dataclass
class OursRow:
    n: int
    fuse_seconds: float
    """fuse_ext alone, CPU, median."""
    ops: int
    """linalg ops after fuse_ext."""
    e2e: ToolRun | None
    """linalg-ext-opt (None: not run at this N)."""


def time_fuse_ext(n: int, repetitions: int) -> tuple[float, int]:
    """Median CPU seconds of `fuse_ext` alone on N blocks, and the linalg ops
    after it; checks that they are 2N, all in the loops."""
    from xdsl.dialects import scf
    from xdsl.parser import Parser

    from linalg_ext.context import make_context
    from linalg_ext.tiling.fuse_ext import fuse_ext

    text = residual_source(n)
    times = []
    for _ in range(repetitions):
        module = Parser(make_context(), text).parse_module()
        root = next(op for op in module.walk() if "__root__" in op.attributes)
        gc.collect()
        start = time.process_time()
        result = fuse_ext(root, TILES)
        times.append(time.process_time() - start)
        module.verify()
        ops = [
            op
            for op in module.walk()
            if op.name.startswith("linalg.") and op.name != "linalg.yield"
        ]
        outside = [op.name for op in ops if _loop_of(op, scf.ForOp) is None]
        if len(ops) != 2 * n or outside or len(result.loops) != len(TILES):
            raise BenchError(
                f"N={n}: fuse_ext left {len(ops)} linalg ops ({len(outside)} "
                f"outside the loops) in {len(result.loops)} loops, not {2 * n} "
                f"in {len(TILES)}"
            )
    return statistics.median(times), 2 * n


def _loop_of(op: Any, loop_type: type) -> Any:
    parent = op.parent_op()
    while parent is not None and not isinstance(parent, loop_type):
        parent = parent.parent_op()
    return parent


def time_ours_e2e(n: int, directory: Path) -> ToolRun:
    """linalg-ext-opt -p linalg-fuse-ext on N blocks; checks 2N ops."""
    path, out = directory / f"res_{n}.mlir", directory / f"res_{n}.ours.mlir"
    path.write_text(residual_source(n))
    spec = f"linalg-fuse-ext{{tile-sizes={TILES[0]},{TILES[1]}}}"
    run = run_tool([LINALG_EXT_OPT, "-p", spec, str(path), "-o", str(out)], out)
    if run.ops != 2 * n:
        raise BenchError(
            f"N={n}: linalg-ext-opt -p {spec} printed {run.ops} linalg ops"
        )
    return run


def time_upstream(n: int, directory: Path, limit: float) -> ToolRun | None:
    """Upstream's fuse on N blocks, or None when the run exceeded `limit`
    seconds (killed)."""
    from linalg_ext.upstream import MLIR_OPT

    path, out = directory / f"up_{n}.mlir", directory / f"up_{n}.out.mlir"
    path.write_text(upstream_source(n))
    command = [MLIR_OPT, "--transform-interpreter", str(path), "-o", str(out)]
    try:
        return run_tool(command, out, timeout=limit)
    except subprocess.TimeoutExpired:
        out.unlink(missing_ok=True)
        return None


def repetitions_for(n: int, quick: bool) -> int:
    return 3 if quick or n >= 256 else 5


def residual_section(options: argparse.Namespace) -> None:
    from linalg_ext.upstream import MLIR_OPT

    quick = options.quick
    sizes = QUICK_SIZES if quick else SIZES
    limit = options.upstream_limit or (
        QUICK_UPSTREAM_LIMIT if quick else UPSTREAM_LIMIT
    )
    if not Path(LINALG_EXT_OPT).exists():
        raise BenchError(f"no linalg-ext-opt next to {sys.executable}")
    print(machine_line())
    print(
        f"== compile time on N residual blocks (tanh, add on tensor<{SHAPE[0]}x"
        f"{SHAPE[1]}xf32>, the last add the root, tiles {TILES[0]}x{TILES[1]})"
    )
    print(
        "fuse_ext: CPU time of the transform alone, median over reps, in-process;"
        " e2e: wall and CPU\ntime of linalg-ext-opt -p linalg-fuse-ext{tile-sizes="
        f"{TILES[0]},{TILES[1]}}} (start-up, parse, pass, clean-up,\nprint);"
        " ops: linalg ops after fuse_ext, and in linalg-ext-opt's output (2N"
        " expected:\none tile per op, all in the loops)."
    )
    header = (
        f"{'N':>6} {'reps':>4} {'fuse_ext ms':>12} {'us/op':>7} {'e2e wall s':>11}"
        f" {'e2e cpu s':>10} {'ops':>6} {'e2e ops':>8} {'growth':>8}"
    )
    print(header)
    ours: dict[int, OursRow] = {}
    previous: float | None = None
    with tempfile.TemporaryDirectory() as name:
        directory = Path(name)
        for n in sizes:
            progress(f"ours, N={n}")
            reps = repetitions_for(n, quick)
            row = OursRow(n, *time_fuse_ext(n, reps), time_ours_e2e(n, directory))
            ours[n] = row
            assert row.e2e is not None
            grown = growth(row.fuse_seconds, previous)
            print(
                f"{n:6d} {reps:4d} {row.fuse_seconds * 1e3:12.1f}"
                f" {row.fuse_seconds / (2 * n) * 1e6:7.1f} {row.e2e.wall:11.2f}"
                f" {row.e2e.cpu:10.2f} {row.ops:6d} {row.e2e.ops:8d} {grown:>8}",
                flush=True,
            )
            previous = row.fuse_seconds
        print("growth: fuse_ext time over the previous row's (N doubles: x2 is linear)")
        print()
        if shutil.which(MLIR_OPT) is None:
            print(f"upstream: {MLIR_OPT} is not installed; not run")
            return
        upstream_rows(directory, ours, limit, quick)


def upstream_rows(
    directory: Path, ours: dict[int, OursRow], limit: float, quick: bool
) -> None:
    print(
        f"== upstream: {Path(shutil.which('mlir-opt-22') or 'mlir-opt-22').name}"
        " --transform-interpreter, transform.structured.fuse tile_sizes"
        f" [{TILES[0]}, {TILES[1]}]"
    )
    print(
        "wall and CPU time of one run (with its printing), linalg ops it"
        " prints; ours at the\nsame N (fuse_ext alone, CPU, as above); growth:"
        " upstream's CPU time over the previous\nrow's (two more blocks);"
        f" up/ours: CPU over CPU; runs stop at the first one over {limit:g} s"
        "\n(wall)."
    )
    header = (
        f"{'N':>6} {'up wall s':>10} {'up cpu s':>9} {'up ops':>9} {'growth':>8}"
        f" {'ours ms':>9} {'ours ops':>9} {'up/ours':>9}"
    )
    print(header)
    previous: float | None = None
    n = 2
    while True:
        progress(f"upstream, N={n} (limit {limit:g} s)")
        measured = time_upstream(n, directory, limit)
        if measured is None:
            print(f"stopped: over {limit:g} s at N={n}")
            break
        if n not in ours:
            ours[n] = OursRow(n, *time_fuse_ext(n, repetitions_for(n, quick)), None)
        mine = ours[n]
        print(
            f"{n:6d} {measured.wall:10.3f} {measured.cpu:9.3f} {measured.ops:9d}"
            f" {growth(measured.cpu, previous):>8} {mine.fuse_seconds * 1e3:9.1f}"
            f" {mine.ops:9d} {measured.cpu / mine.fuse_seconds:9.0f}",
            flush=True,
        )
        previous = measured.cpu
        n += 2


# --------------------------------------------------------------- attention


def attention_source(s: int, d: int) -> str:
    """Q @ K -> softmax over rows -> @ V, the last matmul the root."""
    ss, sd, ds, v = (
        f"tensor<{s}x{s}xf32>",
        f"tensor<{s}x{d}xf32>",
        f"tensor<{d}x{s}xf32>",
        f"tensor<{s}xf32>",
    )
    return f"""
func.func @attention(%q: {sd}, %k: {ds}, %v: {sd}) -> {sd} {{
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e_scores = tensor.empty() : {ss}
  %scores_init = linalg.fill ins(%zero : f32) outs(%e_scores : {ss}) -> {ss}
  %scores = linalg.matmul ins(%q, %k : {sd}, {ds})
      outs(%scores_init : {ss}) -> {ss}
  %e_p = tensor.empty() : {ss}
  %e_max = tensor.empty() : {v}
  %e_sum = tensor.empty() : {v}
  %e_scale = tensor.empty() : {v}
  %max = linalg.fill ins(%ninf : f32) outs(%e_max : {v}) -> {v}
  %sum = linalg.fill ins(%zero : f32) outs(%e_sum : {v}) -> {v}
  %p:4 = linalg_ext.softmax dimension(1) ins(%scores : {ss})
      outs(%e_p, %max, %sum, %e_scale : {ss}, {v}, {v}, {v})
      : {ss}, {v}, {v}, {v}
  %e_out = tensor.empty() : {sd}
  %out_init = linalg.fill ins(%zero : f32) outs(%e_out : {sd}) -> {sd}
  %out = linalg.matmul {{__root__}} ins(%p#0, %v : {ss}, {sd})
      outs(%out_init : {sd}) -> {sd}
  return %out : {sd}
}}
"""


def flash_spec(tiles: Sequence[int]) -> str:
    return f"linalg-fuse-ext{{tile-sizes={','.join(map(str, tiles))}}}"


def whole_score_ops(module: Any, s: int) -> list[str]:
    """Ops of the function body, outside any loop, computing an S x S tensor
    (a `tensor.empty` computes nothing; the heap peak tells if it is
    allocated)."""
    from xdsl.dialects import func
    from xdsl.dialects.builtin import TensorType

    found = []
    for function in module.ops:
        if not isinstance(function, func.FuncOp):
            continue
        for op in function.body.block.ops:
            if op.name == "tensor.empty":
                continue
            for result in op.results:
                type_ = result.type
                if isinstance(type_, TensorType) and type_.get_shape() == (s, s):
                    found.append(op.name)
    return found


def whole_score_empties(module: Any, s: int) -> list[str]:
    """The S x S `tensor.empty`s still used (bufferized, each allocates a
    whole S x S buffer), each as "tensor.empty() : T used by <users>" (the
    users of a slice of it named too)."""
    from xdsl.dialects import tensor
    from xdsl.dialects.builtin import TensorType

    found = []
    for op in module.walk():
        type_ = op.results[0].type if isinstance(op, tensor.EmptyOp) else None
        if not (isinstance(type_, TensorType) and type_.get_shape() == (s, s)):
            continue
        users = set()
        for use in op.results[0].uses:
            user = use.operation
            if isinstance(user, tensor.ExtractSliceOp):
                readers = sorted({u.operation.name for u in user.result.uses})
                users.add(f"{user.name} read by {', '.join(readers) or 'nothing'}")
            else:
                users.add(user.name)
        if users:
            found.append(f"tensor.empty() : {type_} used by {'; '.join(sorted(users))}")
    return found


def resident_kib() -> tuple[int, int] | None:
    """(VmRSS, VmHWM) in KiB, or None where /proc does not say."""
    try:
        status = Path("/proc/self/status").read_text()
    except OSError:
        return None
    fields = dict(re.findall(r"^(VmRSS|VmHWM):\s+(\d+)", status, re.MULTILINE))
    if len(fields) != 2:
        return None
    return int(fields["VmRSS"]), int(fields["VmHWM"])


def rss_peak_bytes(run: Callable[[], Any]) -> int | None:
    """How far the resident high-water mark rose above the resident size
    during `run` (None where it cannot be reset: /proc/self/clear_refs)."""
    try:
        Path("/proc/self/clear_refs").write_text("5")
    except OSError:
        return None
    before = resident_kib()
    result = run()
    after = resident_kib()
    del result
    if before is None or after is None:
        return None
    return (after[1] - before[0]) * 1024


def attention_worker(variant: str, s: int, d: int, reps: int, tiles: list[int]):
    """One variant, in this (fresh) process; its measurements as a dict."""
    import numpy as np

    rng = np.random.default_rng(0)
    q = rng.uniform(-1, 1, (s, d)).astype(np.float32)
    k = rng.uniform(-1, 1, (d, s)).astype(np.float32)
    v = rng.uniform(-1, 1, (s, d)).astype(np.float32)
    scores = q.astype(np.float64) @ k.astype(np.float64)
    exp = np.exp(scores - scores.max(axis=1, keepdims=True))
    expected = (exp / exp.sum(axis=1, keepdims=True)) @ v
    del scores, exp
    report: dict[str, Any] = {"variant": variant}
    if variant == "numpy":
        import tracemalloc

        def run() -> Any:
            x = q @ k
            x = np.exp(x - x.max(axis=1, keepdims=True))
            x /= x.sum(axis=1, keepdims=True)
            return x @ v

        report["cpu"] = cpu_median(run, reps)
        report["rss_peak"] = rss_peak_bytes(run)
        tracemalloc.start()
        result = run()
        report["heap_peak"] = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        report["heap_method"] = "tracemalloc"
    else:
        from xdsl.parser import Parser

        from linalg_ext.context import make_context
        from linalg_ext.jit import TRACKER, compile_module
        from linalg_ext.pipelines import parse_pipeline

        module = Parser(make_context(), attention_source(s, d)).parse_module()
        module.verify()
        if variant == "flash":
            parse_pipeline(flash_spec(tiles)).apply(make_context(), module)
            module.verify()
            whole = whole_score_ops(module, s)
            if whole:
                report["unavailable"] = (
                    f"{flash_spec(tiles)} left {', '.join(sorted(set(whole)))} "
                    f"computing the whole tensor<{s}x{s}xf32> outside the loops"
                )
                return report
            report["whole_empties"] = whole_score_empties(module, s)
        compiled = compile_module(module)
        function = compiled["attention"]
        report["compile"] = compiled.compile_seconds.total
        report["cpu"] = cpu_median(lambda: function(q, k, v), reps)
        report["rss_peak"] = rss_peak_bytes(lambda: function(q, k, v))
        tracked = compile_module(module, track_memory=True)["attention"]
        baseline = TRACKER.current
        TRACKER.reset()
        result = tracked(q, k, v)
        report["heap_peak"] = TRACKER.peak - baseline
        report["heap_method"] = "JIT tracker"
    error = float(np.abs(result - expected).max())
    report["max_error"] = error
    if not np.allclose(result, expected, rtol=1e-3, atol=1e-4):
        report["wrong"] = f"max |error| {error:.3g} against float64 numpy"
    return report


def run_worker(
    variant: str, s: int, d: int, reps: int, tiles: Sequence[int]
) -> dict[str, Any]:
    command = [
        sys.executable,
        str(Path(__file__).resolve()),
        "--attention-worker",
        variant,
        "--seq",
        str(s),
        "--head",
        str(d),
        "--repetitions",
        str(reps),
        "--flash-tiles",
        ",".join(map(str, tiles)),
    ]
    env = {**os.environ, **SINGLE_THREAD}
    result = subprocess.run(command, capture_output=True, text=True, env=env)
    if result.returncode != 0:
        lines = [line for line in result.stderr.splitlines() if line.strip()]
        why = lines[-1].strip() if lines else f"exit status {result.returncode}"
        raise BenchError(f"attention, {variant}: {why}")
    return json.loads(result.stdout.strip().splitlines()[-1])


def mebibytes(value: int | None) -> str:
    return "n/a" if value is None else f"{value / 2**20:.3g}"


def attention_section(options: argparse.Namespace) -> None:
    s = options.seq or (QUICK_SEQ if options.quick else SEQ)
    d = options.head
    tiles = options.flash_tiles or (QUICK_FLASH_TILES if options.quick else FLASH_TILES)
    reps = options.repetitions or (3 if options.quick else 5)
    score_bytes = s * s * 4
    print(machine_line())
    print(f"== attention, seq {s}, head dim {d}: Q[{s}x{d}] @ K[{d}x{s}] -> softmax")
    print(
        f"   -> @ V[{s}x{d}], f32, each variant in a fresh process, one thread."
        f" flash: {flash_spec(tiles)}"
    )
    print(
        f"cpu ms: median CPU time of one call over {reps}; heap peak: bytes held"
        " at most during a call\n(ours: the JIT's allocation tracker, every"
        " memref.alloc counted; numpy: tracemalloc); RSS\npeak: rise of the"
        " resident high-water mark (VmHWM reset by /proc/self/clear_refs) over"
        f"\nthe resident size before the call. One {s}x{s} f32 matrix is"
        f" {mebibytes(score_bytes)} MiB."
    )
    header = (
        f"{'variant':<9} {'cpu ms':>10} {'heap peak MiB':>14} {'RSS peak MiB':>13}"
        f" {'compile s':>10} {'max |err|':>10}"
    )
    print(header)
    flash_note, failure = "", ""
    for variant in ("unfused", "flash", "numpy"):
        progress(f"attention, {variant}, seq {s}")
        report = run_worker(variant, s, d, reps, tiles)
        if "unavailable" in report:
            print(f"{variant:<9} flash form not available: {report['unavailable']}")
            continue
        if "wrong" in report:
            raise BenchError(f"attention, {variant}: {report['wrong']}")
        compile_text = f"{report['compile']:.2f}" if "compile" in report else "-"
        print(
            f"{variant:<9} {report['cpu'] * 1e3:10.1f}"
            f" {mebibytes(report['heap_peak']):>14} {mebibytes(report['rss_peak']):>13}"
            f" {compile_text:>10} {report['max_error']:10.2g}",
            flush=True,
        )
        if variant == "flash" and report["heap_peak"] >= score_bytes:
            why = "; ".join(report["whole_empties"]) or "see the bufferized IR"
            failure = (
                f"attention, flash: the compiled code held "
                f"{mebibytes(report['heap_peak'])} MiB at its peak, at least one"
                f" whole {s}x{s} score matrix ({why})"
            )
        elif variant == "flash":
            flash_note = (
                f"flash: the {s}x{s} score matrix is never allocated whole (heap"
                f" peak {mebibytes(report['heap_peak'])} MiB < "
                f"{mebibytes(score_bytes)} MiB, asserted)"
            )
    print("every result checked against float64 numpy (rtol 1e-3, atol 1e-4)")
    if flash_note:
        print(flash_note)
    if failure:
        raise BenchError(failure)


# -------------------------------------------------------------------- main


def tile_list(text: str) -> list[int]:
    try:
        return [int(part) for part in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a list of integers: {text}") from None


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument(
        "--quick",
        action="store_true",
        help=f"N in {QUICK_SIZES}, upstream limit {QUICK_UPSTREAM_LIMIT:g} s,"
        f" seq {QUICK_SEQ}",
    )
    parser.add_argument("--only", choices=("residual", "attention"))
    parser.add_argument(
        "--upstream-limit",
        type=float,
        metavar="SECONDS",
        help=f"stop upstream at the first run over this ({UPSTREAM_LIMIT:g})",
    )
    parser.add_argument("--seq", type=int, help=f"sequence length ({SEQ})")
    parser.add_argument("--head", type=int, default=HEAD, help="head dimension")
    parser.add_argument(
        "--flash-tiles",
        type=tile_list,
        metavar="R,C,K",
        help=f"linalg-fuse-ext tile sizes of the final matmul {FLASH_TILES}",
    )
    parser.add_argument("--repetitions", type=int, help="attention calls timed")
    parser.add_argument("--attention-worker", help=argparse.SUPPRESS)
    options = parser.parse_args(argv)
    try:
        if options.attention_worker:
            report = attention_worker(
                options.attention_worker,
                options.seq,
                options.head,
                options.repetitions,
                options.flash_tiles,
            )
            print(json.dumps(report))
            return 0
        if options.only in (None, "residual"):
            residual_section(options)
            print()
        if options.only in (None, "attention"):
            attention_section(options)
    except BenchError as error:
        print(f"{NAME}: error: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
