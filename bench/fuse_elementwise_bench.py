"""How `linalg-fuse-elementwise-ext` scales: a chain of N elementwise generics.

    python bench/fuse_elementwise_bench.py [--quick] [--sizes N ...]
        [--repetitions R] [--skip-upstream-above N]

One program per N: a function whose body is a chain of N elementwise
`linalg.generic` ops on tensor<64x64xf32>, each reading the previous result
and the function argument %a (addf and mulf alternately), all writing into
one shared `tensor.empty`. Fused, the chain is a single `linalg.generic`.
The text is written to a temporary file and the same file is given to:

- upstream: `mlir-opt-22 --linalg-fuse-elementwise-ops FILE -o /dev/null`,
  a subprocess, wall time;
- ours, end to end: `xdsl-opt -p linalg-fuse-elementwise-ext FILE -o
  /dev/null`, a subprocess (the xdsl-opt next to this Python), wall time;
- ours, pass only: the file parsed in-process, then only the pass's `apply`
  timed, on a freshly parsed module each repetition.

Times are medians over repetitions (fewer for large N), measured side by
side in one run. The table gives the ratios upstream / ours end to end and
upstream / ours pass only, and our pass's microseconds per op; the growth
line divides our pass-only time at the largest N by that at the smallest,
and that by the ratio of the Ns: about 1 means linear. The exponent k of
time ~ N^k between the two largest sizes is printed for each column too
(1 linear, 2 quadratic).

Before timing, the smallest N is checked: our output has exactly one
`linalg.generic` (so has upstream's, when mlir-opt-22 is installed), and
`linalg-ext-check` finds the function's values unchanged by our pass. Every
pass-only run, at every N, must leave one `linalg.generic` too.
Without mlir-opt-22 this prints a note and times ours only. Exit 0 on
success, 1 (one line on stderr) if the pass is not registered or any check
fails.
"""

from __future__ import annotations

import argparse
import gc
import math
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

from timing import machine_line, median_seconds
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.linalg.ops import GenericOp
from xdsl.parser import Parser
from xdsl.passes import PassPipeline
from xdsl.universe import Universe

from linalg_ext.checking import CheckError, check_module
from linalg_ext.context import make_context
from linalg_ext.pipelines import first_line, parse_pipeline
from linalg_ext.upstream import MLIR_OPT

PASS = "linalg-fuse-elementwise-ext"
UPSTREAM_FLAG = "--linalg-fuse-elementwise-ops"
XDSL_OPT = str(Path(sys.executable).with_name("xdsl-opt"))
SHAPE = (64, 64)
SIZES = (100, 1000, 10000)
QUICK_SIZES = (10, 100, 300)
NAME = "fuse-elementwise bench"


class BenchError(Exception):
    """A failure reported as one line."""


def source(n: int) -> str:
    """A function with a chain of `n` elementwise generics, one use each."""
    t = f"tensor<{SHAPE[0]}x{SHAPE[1]}xf32>"
    lines = [
        "#id = affine_map<(d0, d1) -> (d0, d1)>",
        f"func.func @chain(%x: {t}, %a: {t}) -> {t} {{",
        f"  %init = tensor.empty() : {t}",
    ]
    previous = "%x"
    for i in range(n):
        op = "arith.addf" if i % 2 == 0 else "arith.mulf"
        lines += [
            f"  %v{i} = linalg.generic {{indexing_maps = [#id, #id, #id], "
            'iterator_types = ["parallel", "parallel"]}',
            f"      ins({previous}, %a : {t}, {t}) outs(%init : {t}) {{",
            "  ^bb0(%in: f32, %b: f32, %out: f32):",
            f"    %r = {op} %in, %b : f32",
            "    linalg.yield %r : f32",
            f"  }} -> {t}",
        ]
        previous = f"%v{i}"
    lines += [f"  return {previous} : {t}", "}", ""]
    return "\n".join(lines)


def parse(ctx: Context, text: str) -> ModuleOp:
    module = Parser(ctx, text).parse_module()
    module.verify()
    return module


def count_generics(module: ModuleOp) -> int:
    return sum(isinstance(op, GenericOp) for op in module.walk())


def our_pipeline() -> PassPipeline:
    """The pass, or a BenchError saying it is not there (yet)."""
    if PASS not in Universe.get_multiverse().all_passes:
        raise BenchError(
            f"the pass {PASS} is not registered (passes/__init__.py ALL_PASSES)"
        )
    try:
        return parse_pipeline(PASS)
    except Exception as error:  # e.g. the pass's module fails to import
        raise BenchError(f"cannot load {PASS}: {first_line(error)}") from error


def run_tool(command: Sequence[str]) -> str:
    """Run a tool; its stdout, or a BenchError with its last stderr line."""
    result = subprocess.run(list(command), capture_output=True, text=True)
    if result.returncode != 0:
        lines = [line for line in result.stderr.splitlines() if line.strip()]
        why = lines[-1].strip() if lines else f"exit status {result.returncode}"
        raise BenchError(f"{Path(command[0]).name} failed: {why}")
    return result.stdout


def upstream_command(path: Path, discard: bool = True) -> list[str]:
    return [MLIR_OPT, UPSTREAM_FLAG, str(path), *(["-o", "/dev/null"] * discard)]


def ours_command(path: Path, discard: bool = True) -> list[str]:
    return [XDSL_OPT, "-p", PASS, str(path), *(["-o", "/dev/null"] * discard)]


def check_smallest(
    n: int, path: Path, text: str, pipeline: PassPipeline, upstream: bool
) -> None:
    """One generic after fusion, ours and upstream's; values unchanged."""
    ctx = make_context()
    module = parse(ctx, text)
    if count_generics(module) != n:
        raise BenchError(f"N={n}: the input has {count_generics(module)} generics")
    try:
        report = check_module(module, PASS, trials=2)
    except CheckError as error:  # the pass failed or broke the IR
        raise BenchError(f"N={n}: linalg-ext-check: {error}") from error
    if not report.ok:
        raise BenchError(
            f"N={n}: linalg-ext-check: " + "; ".join(v.line() for v in report.verdicts)
        )
    pipeline.apply(ctx, module)
    module.verify()
    fused = count_generics(module)
    if fused != 1:
        raise BenchError(f"N={n}: our pass left {fused} linalg.generic ops, not 1")
    printed = run_tool(ours_command(path, discard=False))
    fused = count_generics(parse(make_context(), printed))
    if fused != 1:
        raise BenchError(f"N={n}: xdsl-opt -p {PASS} left {fused} generics, not 1")
    line = f"checked at N={n}: ours fuses to 1 linalg.generic"
    if upstream:
        upstream_output = run_tool(upstream_command(path, discard=False))
        theirs = count_generics(parse(make_context(), upstream_output))
        if theirs != 1:
            raise BenchError(f"N={n}: upstream left {theirs} generics, not 1")
        line += ", so does upstream"
    verdicts = ", ".join(v.line() for v in report.verdicts)
    print(f"{line}; linalg-ext-check: {verdicts}")


def time_pass_only(text: str, pipeline: PassPipeline, repetitions: int) -> float:
    """Median time of the pass alone, each run on a freshly parsed module."""
    ctx = make_context()
    modules = iter([parse(ctx, text) for _ in range(repetitions)])
    gc.collect()
    seconds, module = median_seconds(
        lambda: _apply(pipeline, ctx, next(modules)), repetitions
    )
    fused = count_generics(module)
    if fused != 1:
        raise BenchError(f"our pass left {fused} linalg.generic ops, not 1")
    return seconds


def time_one_size(
    n: int,
    path: Path,
    text: str,
    pipeline: PassPipeline,
    repetitions: int,
    upstream: bool,
) -> tuple[int, int, float | None, float, float]:
    """N, repetitions, and the medians: upstream (None if not run), ours end
    to end, ours pass only."""
    upstream_seconds = None
    if upstream:
        upstream_seconds, _ = median_seconds(
            lambda: run_tool(upstream_command(path)), repetitions
        )
    ours_seconds, _ = median_seconds(lambda: run_tool(ours_command(path)), repetitions)
    pass_seconds = time_pass_only(text, pipeline, repetitions)
    return n, repetitions, upstream_seconds, ours_seconds, pass_seconds


def _apply(pipeline: PassPipeline, ctx: Context, module: ModuleOp) -> ModuleOp:
    pipeline.apply(ctx, module)
    return module


def default_repetitions(n: int, quick: bool) -> int:
    if quick:
        return 1
    return 5 if n <= 300 else 3 if n <= 3000 else 1


def exponent(sizes: Sequence[int], times: Sequence[float | None]) -> str:
    """k in time ~ N^k, between the two largest sizes that have a time."""
    points = [(n, t) for n, t in zip(sizes, times, strict=True) if t]
    if len(points) < 2:
        return "-"
    (n1, t1), (n2, t2) = points[-2], points[-1]
    return f"{math.log(t2 / t1) / math.log(n2 / n1):.2f}"


def bench(options: argparse.Namespace) -> int:
    pipeline = our_pipeline()
    if not Path(XDSL_OPT).exists():
        raise BenchError(f"no xdsl-opt next to {sys.executable}")
    sizes = sorted(set(options.sizes or (QUICK_SIZES if options.quick else SIZES)))
    if sizes[0] < 1:
        raise BenchError("sizes must be at least 1")
    upstream = shutil.which(MLIR_OPT) is not None
    if not upstream:
        print(f"note: {MLIR_OPT} is not installed; timing ours only")

    rows: list[tuple[int, int, float | None, float, float]] = []
    with tempfile.TemporaryDirectory() as directory:
        for n in sizes:
            text = source(n)
            path = Path(directory) / f"chain_{n}.mlir"
            path.write_text(text)
            if n == sizes[0]:
                check_smallest(n, path, text, pipeline, upstream)
                print()
            repetitions = options.repetitions or default_repetitions(n, options.quick)
            with_upstream = upstream and n <= options.skip_upstream_above
            try:
                rows.append(
                    time_one_size(n, path, text, pipeline, repetitions, with_upstream)
                )
            except BenchError as error:
                raise BenchError(f"N={n}: {error}") from error

    print(
        f"chain of N elementwise linalg.generic on tensor<{SHAPE[0]}x{SHAPE[1]}xf32>,"
        " same file for both tools;"
    )
    print("medians over reps, seconds; one run\n")
    header = (
        f"{'N':>7} {'reps':>4} {'upstream':>10} {'ours e2e':>10} {'ours pass':>10}"
        f" {'up/e2e':>8} {'up/pass':>8} {'pass us/op':>11}"
    )
    print(header)
    for n, repetitions, up, e2e, only in rows:
        up_text = f"{up:10.3f}" if up is not None else f"{'-':>10}"
        ratio_e2e = f"{up / e2e:8.2f}" if up is not None else f"{'-':>8}"
        ratio_pass = f"{up / only:8.2f}" if up is not None else f"{'-':>8}"
        print(
            f"{n:7d} {repetitions:4d} {up_text} {e2e:10.3f} {only:10.3f}"
            f" {ratio_e2e} {ratio_pass} {only / n * 1e6:11.1f}"
        )
    if upstream and any(n > options.skip_upstream_above for n in sizes):
        print(f"(upstream not run above N={options.skip_upstream_above})")

    ns = [row[0] for row in rows]
    print()
    if len(rows) >= 2:
        (n_min, *_, t_min), (n_max, *_, t_max) = rows[0], rows[-1]
        growth = (t_max / t_min) / (n_max / n_min)
        print(
            f"growth, ours pass only: time(N={n_max}) / time(N={n_min}) = "
            f"{t_max / t_min:.1f}, / (N ratio {n_max / n_min:g}) = {growth:.2f}"
            "  (about 1: linear)"
        )
        print(
            "exponent k of time ~ N^k between the two largest N:"
            f" upstream {exponent(ns, [r[2] for r in rows])},"
            f" ours e2e {exponent(ns, [r[3] for r in rows])},"
            f" ours pass {exponent(ns, [r[4] for r in rows])}"
        )
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--quick",
        action="store_true",
        help=f"N in {QUICK_SIZES}, 1 repetition (a smoke test)",
    )
    parser.add_argument(
        "--sizes", type=int, nargs="+", metavar="N", help=f"chain lengths {SIZES}"
    )
    parser.add_argument(
        "--repetitions",
        type=int,
        metavar="R",
        help="repetitions at every N (default 5, 3, 1 as N grows; 1 with --quick)",
    )
    parser.add_argument(
        "--skip-upstream-above",
        type=int,
        default=max(SIZES),
        metavar="N",
        help=f"do not run upstream for larger N ({max(SIZES)}: run it at every"
        " default size; upstream takes about 30 s at N=10000)",
    )
    options = parser.parse_args(argv)
    if options.repetitions is not None and options.repetitions < 1:
        parser.error("--repetitions must be at least 1")
    print(machine_line())
    try:
        return bench(options)
    except BenchError as error:
        print(f"{NAME}: error: {error}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
