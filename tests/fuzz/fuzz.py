"""The differential fuzzer: random valid programs through every pass we ship.

    python tests/fuzz/fuzz.py -n 1000 --seed 0 --jobs 2

For each program (tests/fuzz/generator.py) and each pipeline of PIPELINES:
apply the pipeline to a copy, verify it, and compare the interpreter before
with the interpreter after (or the JIT after), on the same random inputs
(`linalg_ext.checking.check_module`). Every program is also compiled as it
is (`compile_module`: bufferization, deallocation, lower-to-llvm, LLVM) and
compared with the interpreter, leaks counted. With `mlir-opt-22` installed,
programs upstream can read (no `linalg_ext` op) also go through mlir-opt-22's
canonicalize,cse and one-shot-bufferize, whose output our interpreter runs,
and our outputs are re-parsed by mlir-opt-22.

Outcomes per (program, pipeline):
- ok; refused (the pass declined with a clean, located message: not a bug);
- crash: a Python exception other than a clean diagnostic (a bug in our code);
- miscompile: values differ, or a leak, or the compiled call failed where the
  interpreter did not;
- invalid: the output does not verify, or mlir-opt-22 rejects our output.

Each failure is shrunk (steps dropped while the same failure stays) and saved
to `build/fuzz/<seed>-<pipeline>.mlir` with the command that reproduces it.
The exit code is 1 when anything failed.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import platform
import shutil
import subprocess
import sys
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from generator import Program, generate  # noqa: E402

PIPELINES: dict[str, str] = {
    "canonicalize": "canonicalize",
    "cse": "cse",
    "fuse-pad": "fuse-pad",
    "fuse-pad-border": "fuse-pad{fill=border allow-recompute=true}",
    "fuse-elementwise": "linalg-fuse-elementwise-ext",
    "fuse-elementwise-all": (
        "linalg-fuse-elementwise-ext{shared-input=true diff-shapes=true}"
    ),
    "bufferize": (
        "eliminate-empty-tensors,one-shot-bufferize{bufferize-function-boundaries=true},"
        "buffer-deallocation-pipeline"
    ),
    "loops": (
        "one-shot-bufferize{bufferize-function-boundaries=true},"
        "buffer-deallocation-pipeline,convert-linalg-ext-to-loops,"
        "convert-linalg-to-loops-ext,lower-affine-ext,convert-scf-to-cf-ext"
    ),
}
"""Name -> pipeline run on the interpreter after."""

JIT = "jit"
"""The compiled path: the program itself through `compile_module`."""

UPSTREAM = {
    "upstream-canonicalize": ["--canonicalize", "--cse"],
    "upstream-bufferize": [
        "--one-shot-bufferize=bufferize-function-boundaries",
    ],
}
"""mlir-opt-22 pipelines whose output our interpreter runs."""

MLIR_OPT = shutil.which("mlir-opt-22")
TIMEOUT_SECONDS = 60


@dataclass
class Outcome:
    seed: int
    pipeline: str
    kind: str  # ok, refused, crash, miscompile, invalid, skipped
    detail: str = ""


_context = None


def _ctx():
    global _context
    if _context is None:
        from linalg_ext.context import make_context

        _context = make_context()
    return _context


def _parse(text: str):
    from xdsl.parser import Parser

    module = Parser(_ctx(), text).parse_module()
    module.verify()
    return module


def _first_line(error: BaseException) -> str:
    text = str(error).strip().splitlines()
    return f"{type(error).__name__}: {text[0] if text else ''}"[:300]


def _check(
    module, pipeline: str | list, backend: str, undefined_reads: bool = False
) -> tuple[str, str]:
    """(kind, detail) of one pipeline on one module. `undefined_reads` also
    checks that the program reads no uninitialised memory (once per program
    is enough: it is a property of the program)."""
    from linalg_ext.checking import CheckError, PipelineFailed, check_module

    try:
        report = check_module(
            module,
            pipeline,
            trials=1,
            backend=backend,
            undefined_reads=undefined_reads,
        )
    except CheckError as error:
        text = str(error)
        if isinstance(error, PipelineFailed) and "Traceback" not in text:
            # A verifier failing after a pass is a broken output, not a refusal;
            # an exception nobody meant to raise is a crash.
            kinds = {"refused": "refused", "invalid": "invalid", "internal": "crash"}
            return kinds[error.outcome], text
        if text.startswith("cannot compile natively"):
            return "crash" if "Error" in text.split(":")[1] else "refused", text
        return "crash", text
    except Exception as error:  # noqa: BLE001 - anything else is our bug
        return "crash", _first_line(error)
    for verdict in report.verdicts:
        if verdict.undefined:
            # The generated program itself reads uninitialised memory: the
            # generator's bug, not the pipeline's.
            return "crash", "generator: " + verdict.line()
        if verdict.mismatch or verdict.leak:
            return "miscompile", verdict.line()
        if verdict.error:
            if "cannot run before" in verdict.error:
                return "skipped", verdict.line()
            return "miscompile", verdict.line()
    return "ok", ""


def _upstream_reparse(module) -> str | None:
    """mlir-opt-22's complaint about our printed module, if any (modules with
    `linalg_ext` ops are not asked: upstream cannot read their regions)."""
    if MLIR_OPT is None or any(
        op.name.startswith("linalg_ext.") for op in module.walk()
    ):
        return None
    from io import StringIO

    from xdsl.printer import Printer

    stream = StringIO()
    Printer(stream).print_op(module)
    done = subprocess.run(
        [MLIR_OPT, "-"],
        input=stream.getvalue(),
        capture_output=True,
        text=True,
        timeout=TIMEOUT_SECONDS,
    )
    if done.returncode != 0:
        return done.stderr.strip().splitlines()[0] if done.stderr else "failed"
    return None


def _upstream_outcomes(program: Program, module) -> list[Outcome]:
    """mlir-opt-22's passes on programs it can read, run by our interpreter
    and compared with our interpreter on the original: a mismatch is a bug of
    upstream's pass or of our reading/running of its output."""
    if MLIR_OPT is None or any(
        op.name.startswith("linalg_ext.") for op in module.walk()
    ):
        return []
    import numpy as np

    from linalg_ext.comparison import compare_values
    from linalg_ext.running import find_function, random_inputs, run_function

    inputs = random_inputs(find_function(module, "main"), np.random.default_rng(0))
    try:
        expected = run_function(module, "main", [_copy(v) for v in inputs])
    except Exception as error:  # noqa: BLE001
        return [Outcome(program.seed, "upstream", "skipped", _first_line(error))]
    outcomes: list[Outcome] = []
    for name, flags in UPSTREAM.items():
        done = subprocess.run(
            [MLIR_OPT, *flags, "-"],
            input=program.text(),
            capture_output=True,
            text=True,
            timeout=TIMEOUT_SECONDS,
        )
        if done.returncode != 0:
            outcomes.append(
                Outcome(program.seed, name, "skipped", "mlir-opt-22 refused")
            )
            continue
        try:
            actual = run_function(
                _parse(done.stdout), "main", [_copy(v) for v in inputs]
            )
        except Exception as error:  # noqa: BLE001
            outcomes.append(Outcome(program.seed, name, "crash", _first_line(error)))
            continue
        difference = compare_values(expected.results, actual.results, "result")
        kind = "ok" if difference is None else "miscompile"
        outcomes.append(Outcome(program.seed, name, kind, difference or ""))
    return outcomes


def _copy(value):
    return value.copy() if hasattr(value, "copy") else value


def run_program(
    program: Program, pipelines: list[str], with_jit: bool
) -> list[Outcome]:
    try:
        module = _parse(program.text())
    except Exception as error:  # noqa: BLE001 - the generator's bug
        return [Outcome(program.seed, "generator", "crash", _first_line(error))]
    outcomes: list[Outcome] = []
    for position, name in enumerate(pipelines):
        kind, detail = _check(module, PIPELINES[name], "interpreter", position == 0)
        if (
            kind == "ok"
            and MLIR_OPT is not None
            and name in ("canonicalize", "bufferize")
        ):
            transformed = _transformed(module, PIPELINES[name])
            if transformed is not None and (
                complaint := _upstream_reparse(transformed)
            ):
                kind, detail = "invalid", f"mlir-opt-22 rejects our output: {complaint}"
        outcomes.append(Outcome(program.seed, name, kind, detail))
    if with_jit:
        kind, detail = _check(module, [], JIT)
        outcomes.append(Outcome(program.seed, JIT, kind, detail))
    outcomes += _upstream_outcomes(program, module)
    return outcomes


def _transformed(module, pipeline: str):
    from linalg_ext.pipelines import apply_pipeline

    work = module.clone()
    try:
        apply_pipeline(pipeline, work)
    except Exception:  # noqa: BLE001 - reported by _check already
        return None
    return work


BUGS = ("crash", "miscompile", "invalid")


def shrink(program: Program, pipeline: str, kind: str) -> Program:
    """Drop steps while the same kind of failure stays."""
    changed = True
    while changed:
        changed = False
        for index in range(len(program.steps) - 1, -1, -1):
            smaller = program.without(index)
            if not smaller.steps:
                continue
            try:
                outcome = _one(smaller, pipeline)
            except Exception:  # noqa: BLE001
                continue
            if outcome.kind == kind:
                program = smaller
                changed = True
                break
    return program


def _one(program: Program, pipeline: str) -> Outcome:
    if pipeline == JIT:
        return run_program(program, [], True)[-1]
    if pipeline in PIPELINES:
        return run_program(program, [pipeline], False)[0]
    module = _parse(program.text())
    for outcome in _upstream_outcomes(program, module):
        if outcome.pipeline == pipeline:
            return outcome
    return Outcome(program.seed, pipeline, "ok")


def _work(arguments: tuple[int, list[str], bool]) -> list[Outcome]:
    seed, pipelines, with_jit = arguments
    import warnings

    warnings.simplefilter("ignore")
    program = generate(seed)
    return run_program(program, pipelines, with_jit)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("-n", type=int, default=200, help="number of programs")
    parser.add_argument("--seed", type=int, default=0, help="first seed")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument(
        "--pipelines",
        default=",".join(PIPELINES),
        help="names of PIPELINES to run (comma-separated)",
    )
    parser.add_argument(
        "--jit-every",
        type=int,
        default=1,
        help="compile every K-th program natively (0: never)",
    )
    parser.add_argument("--out", default="build/fuzz", help="where reproducers go")
    parser.add_argument("--no-shrink", action="store_true")
    parser.add_argument(
        "--verbose", action="store_true", help="also print refusals and skips"
    )
    options = parser.parse_args(argv)
    pipelines = [p for p in options.pipelines.split(",") if p]
    work = [
        (seed, pipelines, options.jit_every > 0 and seed % options.jit_every == 0)
        for seed in range(options.seed, options.seed + options.n)
    ]
    print(
        f"fuzzing {options.n} programs from seed {options.seed} on {options.jobs} "
        f"jobs ({platform.machine()}, {platform.processor() or platform.platform()}); "
        f"mlir-opt-22: {'yes' if MLIR_OPT else 'no'}",
        flush=True,
    )
    start = time.perf_counter()
    counts: Counter[str] = Counter()
    failures: list[Outcome] = []
    done = 0
    context = multiprocessing.get_context("fork")
    with context.Pool(options.jobs, maxtasksperchild=200) as pool:
        for outcomes in pool.imap_unordered(_work, work, chunksize=4):
            done += 1
            for outcome in outcomes:
                counts[outcome.kind] += 1
                if outcome.kind in BUGS:
                    failures.append(outcome)
                if outcome.kind in BUGS or (
                    options.verbose and outcome.kind in ("refused", "skipped")
                ):
                    print(
                        f"  seed {outcome.seed} {outcome.pipeline}: {outcome.kind.upper()} "
                        f"{outcome.detail[:200]}",
                        flush=True,
                    )
            if done % 100 == 0 or done == options.n:
                elapsed = time.perf_counter() - start
                print(
                    f"[{done}/{options.n}] {elapsed:.0f} s, "
                    + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())),
                    flush=True,
                )
    elapsed = time.perf_counter() - start
    out = Path(options.out)
    if failures:
        out.mkdir(parents=True, exist_ok=True)
    for failure in failures:
        program = generate(failure.seed)
        if not options.no_shrink:
            program = shrink(program, failure.pipeline, failure.kind)
        path = out / f"{failure.seed}-{failure.pipeline}.mlir"
        if failure.pipeline == JIT:
            command = f"linalg-ext-check {path} --backend jit"
        elif failure.pipeline in PIPELINES:
            command = f"linalg-ext-check {path} -p '{PIPELINES[failure.pipeline]}'"
        else:  # mlir-opt-22's pipelines
            flags = " ".join(UPSTREAM.get(failure.pipeline, []))
            command = f"mlir-opt-22 {flags} {path}, then linalg-ext-run the output"
        path.write_text(
            f"// {failure.kind}: {failure.detail}\n"
            f"// reproduce: {command}\n" + program.text()
        )
    print(
        f"{options.n} programs, {sum(counts.values())} program x pipeline runs in "
        f"{elapsed:.0f} s ({options.n / max(elapsed, 1e-9):.1f} programs/s): "
        + ", ".join(
            f"{kind} {counts[kind]}" for kind in ("ok", "refused", "skipped", *BUGS)
        )
    )
    if failures:
        print(f"reproducers in {out}/")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
