"""The differential fuzzer: random valid programs through every pass we ship.

    python tests/fuzz/fuzz.py -n 1000 --seed 0 --jobs 2

For each seed, one program per family (tests/fuzz/generator.py: `mixed`,
`tiling`, shaped for the tiling passes, and `contraction`, transposes and
broadcasts feeding contractions), and each pipeline of PIPELINES
(some are per program: the tile sizes and interchange of the tiling
pipelines come from the seed and the program's roots, `tile_options`):
apply the pipeline to a copy, verify it, and compare the interpreter before
with the interpreter after, on the same random inputs
(`linalg_ext.checking.check_module`). Every K-th program (--jit-every) is
also compiled as it is (`compile_module`: bufferization, deallocation,
lower-to-llvm, LLVM) and compared with the interpreter, leaks counted, and
the outputs of the pipelines of JIT_AFTER are compiled too. With
`mlir-opt-22` installed, programs upstream can read (no `linalg_ext` op)
also go through mlir-opt-22's canonicalize,cse and one-shot-bufferize, whose
output our interpreter runs, and our outputs are re-parsed by mlir-opt-22.

Outcomes per (program, pipeline):
- ok; refused (the pass declined with a clean, located message: not a bug);
- crash: a Python exception other than a clean diagnostic (a bug in our code);
- miscompile: values differ, or a leak, or the compiled call failed where the
  interpreter did not;
- invalid: the output does not verify, or mlir-opt-22 rejects our output.

Each failure is shrunk (steps dropped while the same failure stays) and saved
to `build/fuzz/<seed>-<pipeline>.mlir` (`<seed>-<family>-<pipeline>.mlir`
for the tiling and contraction families) with the command that reproduces it.
The exit code is 1 when anything failed.
"""

from __future__ import annotations

import argparse
import functools
import multiprocessing
import os
import platform
import random
import shutil
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from generator import FAMILIES, Program, generate  # noqa: E402

BUFFERIZE = (
    "eliminate-empty-tensors,one-shot-bufferize{bufferize-function-boundaries=true},"
    "buffer-deallocation-pipeline"
)

TILE_SIZE_CHOICES = (0, 0, 1, 2, 2, 3, 3, 4, 5, 7, 16)
"""Tile sizes a seed picks from: 0 (the loop is not tiled), sizes that
divide the extents (1 to 9, `?` = 4) or not, and 16, larger than any."""


def tile_options(seed: int, loop_counts: list[int]) -> tuple[list[int], list[int]]:
    """The tile sizes and interchange of the tiling pipelines for the
    program of `seed` whose roots have `loop_counts` loops (the pass gives
    every root the same sizes and leaves a root with fewer loops than sizes
    as it is): as many sizes as one root (picked at random) has loops,
    sometimes one fewer (trailing loops untiled), at least one nonzero, and
    usually a random permutation of them as interchange."""
    rng = random.Random(f"tile-options:{seed}")
    count = rng.choice(loop_counts) if loop_counts else 1
    if count > 1 and rng.random() < 0.2:
        count -= 1
    count = min(max(count, 1), 4)
    sizes = [rng.choice(TILE_SIZE_CHOICES) for _ in range(count)]
    if not any(sizes):
        sizes[rng.randrange(count)] = rng.choice([1, 2, 3])
    interchange = list(range(count))
    if rng.random() < 0.2:
        interchange = []
    else:
        rng.shuffle(interchange)
    return sizes, interchange


@functools.lru_cache(maxsize=64)
def root_loop_counts(text: str) -> list[int]:
    """The number of loops of each root `linalg-tile-and-fuse` finds in the
    program `text` (sorted)."""
    from linalg_ext.tiling.fusion_driver import find_roots
    from linalg_ext.tiling.interface import tiling_model

    counts: list[int] = []
    for root in find_roots(_parse(text)):
        model = tiling_model(root)
        if model is not None:
            counts.append(len(model.loop_types(root)))
    return sorted(counts)


def tile_and_fuse_pipeline(program: Program) -> str:
    """`linalg-tile-and-fuse` with the program's tile sizes and interchange."""
    sizes, interchange = tile_options(program.seed, root_loop_counts(program.text()))
    options = "tile-sizes=" + ",".join(map(str, sizes))
    if interchange:
        options += " interchange=" + ",".join(map(str, interchange))
    return f"linalg-tile-and-fuse{{{options}}}"


def fuse_ext_pipeline(program: Program) -> str:
    """`linalg-fuse-ext` (ByteIR's fuse_ext on every root) with the program's
    tile sizes and interchange; odd seeds keep every intermediate."""
    sizes, interchange = tile_options(program.seed, root_loop_counts(program.text()))
    options = "tile-sizes=" + ",".join(map(str, sizes))
    if interchange:
        options += " tile-interchange=" + ",".join(map(str, interchange))
    if program.seed % 2:
        options += " keep-intermediates=true"
    return f"linalg-fuse-ext{{{options}}}"


PIPELINES: dict[str, str | Callable[[Program], str]] = {
    "canonicalize": "canonicalize",
    "cse": "cse",
    "fuse-pad": "fuse-pad",
    "fuse-pad-border": "fuse-pad{fill=border allow-recompute=true}",
    "fuse-elementwise": "linalg-fuse-elementwise-ext",
    "fuse-elementwise-all": (
        "linalg-fuse-elementwise-ext{shared-input=true diff-shapes=true}"
    ),
    "bufferize": BUFFERIZE,
    "loops": (
        "one-shot-bufferize{bufferize-function-boundaries=true},"
        "buffer-deallocation-pipeline,convert-linalg-ext-to-loops,"
        "convert-linalg-to-loops-ext,lower-affine-ext,convert-scf-to-cf-ext"
    ),
    "tile-and-fuse": tile_and_fuse_pipeline,
    "tile-and-fuse-bufferize": lambda program: (
        f"{tile_and_fuse_pipeline(program)},{BUFFERIZE}"
    ),
    "fuse-ext": fuse_ext_pipeline,
    "fuse-ext-bufferize": lambda program: f"{fuse_ext_pipeline(program)},{BUFFERIZE}",
    "greedy-fusion": "test-linalg-greedy-fusion",
    "tiling-cleanup": "linalg-ext-tiling-cleanup",
    "ext-to-linalg": "linalg-ext-to-linalg",
    "generalization": "linalg-generalization-ext",
    "collapse-loops": "linalg-collapse-loops",
    "collapse-reductions": "linalg-collapse-loops{iterator-type=reduction}",
    "fold-unit-dims": "linalg-fold-unit-extent-dims",
    "fold-unit-dims-slices": "linalg-fold-unit-extent-dims{use-rank-reducing-slices=true}",
    "canonicalize-ext": "canonicalize-ext",
    "fold-constants": "linalg-fold-constants-ext",
    # A contraction reads a transpose's or broadcast's source through its map.
    "fuse-elementwise-perm": (
        "linalg-fuse-elementwise-ext{permutations-into-contractions=true}"
    ),
    "model-pipeline": "linalg-ext-model-pipeline{to=tensors}",
    # Bufferized without read-only arguments: the interpreter runs the memrefs.
    "model-pipeline-buffers": "linalg-ext-model-pipeline{to=buffers}",
    # Small cache tiles, so that edges and several blocks of k are common.
    "microkernel": (
        f"{BUFFERIZE},linalg-contraction-microkernel{{vector-bits=256 "
        "min-multiply-adds=0 cache-tile=6,16,3}"
    ),
}
"""Name -> pipeline run on the interpreter after (or a function of the
program giving it, from its seed and its roots: `pipeline_text`; shrinking
keeps the text of the program it starts from)."""

JIT_AFTER = {
    "tile-and-fuse-jit": "tile-and-fuse",
    "greedy-fusion-jit": "greedy-fusion",
    "fuse-ext-jit": "fuse-ext",
    "microkernel-jit": "microkernel",
    "model-pipeline-jit": "model-pipeline",
}
"""Name -> the pipeline of PIPELINES whose output, on the programs compiled
natively (--jit-every), is compiled too and compared with the interpreter
before (tiled loop nests through the LLVM path)."""


def pipeline_text(name: str, program: Program) -> str:
    """The pipeline PIPELINES calls `name`, for `program`."""
    pipeline = PIPELINES[name]
    return pipeline if isinstance(pipeline, str) else pipeline(program)


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
    family: str = "mixed"


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
        return [
            Outcome(
                program.seed, "upstream", "skipped", _first_line(error), program.family
            )
        ]
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
                Outcome(
                    program.seed, name, "skipped", "mlir-opt-22 refused", program.family
                )
            )
            continue
        try:
            actual = run_function(
                _parse(done.stdout), "main", [_copy(v) for v in inputs]
            )
        except Exception as error:  # noqa: BLE001
            outcomes.append(
                Outcome(program.seed, name, "crash", _first_line(error), program.family)
            )
            continue
        difference = compare_values(expected.results, actual.results, "result")
        kind = "ok" if difference is None else "miscompile"
        outcomes.append(
            Outcome(program.seed, name, kind, difference or "", program.family)
        )
    return outcomes


def _copy(value):
    return value.copy() if hasattr(value, "copy") else value


def run_program(
    program: Program,
    pipelines: list[str],
    with_jit: bool,
    fixed: dict[str, str] | None = None,
) -> list[Outcome]:
    """The outcome of each pipeline of `pipelines` (names of PIPELINES or of
    JIT_AFTER) on `program`; with `with_jit`, also the program compiled
    natively and the outputs of the JIT_AFTER pipelines among `pipelines`
    (or whose base pipeline is among them) compiled; then mlir-opt-22's.
    `fixed` gives the text of some pipelines (by name) instead of
    `pipeline_text` (the shrinker keeps the pipeline it started from)."""
    fixed = fixed or {}
    try:
        module = _parse(program.text())
    except Exception as error:  # noqa: BLE001 - the generator's bug
        return [
            Outcome(
                program.seed, "generator", "crash", _first_line(error), program.family
            )
        ]
    outcomes: list[Outcome] = []
    interpreted = [name for name in pipelines if name in PIPELINES]
    for position, name in enumerate(interpreted):
        pipeline = fixed.get(name) or pipeline_text(name, program)
        kind, detail = _check(module, pipeline, "interpreter", position == 0)
        if (
            kind == "ok"
            and MLIR_OPT is not None
            and name in ("canonicalize", "bufferize")
        ):
            transformed = _transformed(module, pipeline)
            if transformed is not None and (
                complaint := _upstream_reparse(transformed)
            ):
                kind, detail = "invalid", f"mlir-opt-22 rejects our output: {complaint}"
        outcomes.append(Outcome(program.seed, name, kind, detail, program.family))
    compiled = [
        name
        for name, base in JIT_AFTER.items()
        if name in pipelines or (with_jit and base in pipelines)
    ]
    for name in compiled:
        pipeline = fixed.get(name) or pipeline_text(JIT_AFTER[name], program)
        kind, detail = _check(module, pipeline, JIT)
        outcomes.append(Outcome(program.seed, name, kind, detail, program.family))
    if with_jit:
        kind, detail = _check(module, [], JIT)
        outcomes.append(Outcome(program.seed, JIT, kind, detail, program.family))
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
    """Drop steps while the same kind of failure of the same pipeline text
    stays (a per-program pipeline is fixed to the one of `program`)."""
    fixed = _fixed_text(program, pipeline)
    changed = True
    while changed:
        changed = False
        for index in range(len(program.steps) - 1, -1, -1):
            smaller = program.without(index)
            if not smaller.steps:
                continue
            try:
                outcome = _one(smaller, pipeline, fixed)
            except Exception:  # noqa: BLE001
                continue
            if outcome.kind == kind:
                program = smaller
                changed = True
                break
    return program


def _fixed_text(program: Program, pipeline: str) -> dict[str, str]:
    """{pipeline: its text for `program`} for the names of PIPELINES and
    JIT_AFTER (nothing for the others)."""
    if pipeline in JIT_AFTER:
        return {pipeline: pipeline_text(JIT_AFTER[pipeline], program)}
    if pipeline in PIPELINES:
        return {pipeline: pipeline_text(pipeline, program)}
    return {}


def _one(program: Program, pipeline: str, fixed: dict[str, str]) -> Outcome:
    if pipeline == JIT:
        return run_program(program, [], True)[-1]
    if pipeline in PIPELINES or pipeline in JIT_AFTER:
        return run_program(program, [pipeline], False, fixed)[0]
    module = _parse(program.text())
    for outcome in _upstream_outcomes(program, module):
        if outcome.pipeline == pipeline:
            return outcome
    return Outcome(program.seed, pipeline, "ok", family=program.family)


def _work(arguments: tuple[int, str, list[str], bool]) -> list[Outcome]:
    seed, family, pipelines, with_jit = arguments
    import warnings

    warnings.simplefilter("ignore")
    program = generate(seed, family=family)
    return run_program(program, pipelines, with_jit)


def reproduce_command(path: Path, pipeline: str, program: Program) -> str:
    """The command that reproduces a failure of `pipeline` saved at `path`."""
    if pipeline == JIT:
        return f"linalg-ext-check {path} --backend jit"
    if pipeline in JIT_AFTER:
        text = pipeline_text(JIT_AFTER[pipeline], program)
        return f"linalg-ext-check {path} -p '{text}' --backend jit"
    if pipeline in PIPELINES:
        return f"linalg-ext-check {path} -p '{pipeline_text(pipeline, program)}'"
    flags = " ".join(UPSTREAM.get(pipeline, []))  # mlir-opt-22's pipelines
    return f"mlir-opt-22 {flags} {path}, then linalg-ext-run the output"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("-n", type=int, default=200, help="number of programs")
    parser.add_argument("--seed", type=int, default=0, help="first seed")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument(
        "--pipelines",
        default=",".join(PIPELINES),
        help=(
            "names of PIPELINES to run (comma-separated; also "
            f"{', '.join(JIT_AFTER)}: those outputs compiled on every program)"
        ),
    )
    parser.add_argument(
        "--families",
        default=",".join(FAMILIES),
        help="program families to generate for each seed (comma-separated)",
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
    families = [f for f in options.families.split(",") if f]
    unknown = [p for p in pipelines if p not in PIPELINES and p not in JIT_AFTER]
    unknown += [f for f in families if f not in FAMILIES]
    if unknown:
        parser.error(f"unknown pipelines or families: {', '.join(unknown)}")
    work = [
        (
            seed,
            family,
            pipelines,
            options.jit_every > 0 and seed % options.jit_every == 0,
        )
        for seed in range(options.seed, options.seed + options.n)
        for family in families
    ]
    print(
        f"fuzzing {options.n} seeds x {len(families)} families "
        f"({', '.join(families)}) from seed {options.seed} on {options.jobs} "
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
                    family = "" if outcome.family == "mixed" else f" ({outcome.family})"
                    print(
                        f"  seed {outcome.seed}{family} {outcome.pipeline}: "
                        f"{outcome.kind.upper()} {outcome.detail[:200]}",
                        flush=True,
                    )
            if done % 100 == 0 or done == len(work):
                elapsed = time.perf_counter() - start
                print(
                    f"[{done}/{len(work)}] {elapsed:.0f} s, "
                    + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())),
                    flush=True,
                )
    elapsed = time.perf_counter() - start
    out = Path(options.out)
    if failures:
        out.mkdir(parents=True, exist_ok=True)
    for failure in failures:
        original = generate(failure.seed, family=failure.family)
        program = original
        if not options.no_shrink:
            program = shrink(original, failure.pipeline, failure.kind)
        family = "" if failure.family == "mixed" else f"{failure.family}-"
        path = out / f"{failure.seed}-{family}{failure.pipeline}.mlir"
        command = reproduce_command(path, failure.pipeline, original)
        path.write_text(
            f"// {failure.kind}: {failure.detail}\n"
            f"// reproduce: {command}\n" + program.text()
        )
    print(
        f"{len(work)} programs, {sum(counts.values())} program x pipeline runs in "
        f"{elapsed:.0f} s ({len(work) / max(elapsed, 1e-9):.1f} programs/s): "
        + ", ".join(
            f"{kind} {counts[kind]}" for kind in ("ok", "refused", "skipped", *BUGS)
        )
    )
    if failures:
        print(f"reproducers in {out}/")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
