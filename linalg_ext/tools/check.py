"""`linalg-ext-check`: does a pass pipeline keep the program's meaning?

    linalg-ext-check FILE.mlir -p PIPELINE [--entry NAME] [--trials N] [--seed S]
                     [--allow-leaks] [--backend interpreter|jit]

Applies the pipeline (the syntax of `xdsl-opt -p`), then runs every defined
function (or the named one) before and after on the same random inputs,
`--trials` times, and compares every result and every argument that was a
memref before the pipeline as the call left it (memref outputs), by
`linalg_ext.comparison`'s rule: integers and booleans equal, floats within a
tolerance for their width. An argument that was a tensor is not compared:
bufferization may reuse its buffer. One verdict line per function; exit 0
only if all agree.

Leaks: after the pipeline, a call may not leave more `memref.alloc` buffers
unfreed (and not returned) than it did before (`--allow-leaks` turns this
off, for pipelines not meant to free). A double free or a use of a freed
buffer is an error of the run after the pipeline.

Backends: before the pipeline, functions always run on the interpreter;
after it, on the interpreter (`--backend interpreter`, the default) or
compiled natively (`--backend jit`: `linalg_ext.jit`, which bufferizes a
tensor program and lowers it to LLVM; leaks are counted through its memory
tracking). With `--backend jit` the pipeline may be omitted: the check then
compares the interpreter with the compiled program itself.

`check_module` is the same check as a library function, for tests.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from xdsl.dialects import func
from xdsl.dialects.builtin import (
    MemRefType,
    ModuleOp,
    StringAttr,
    UnrankedMemRefType,
)
from xdsl.passes import ModulePass, PassPipeline
from xdsl.universe import Universe
from xdsl.utils.exceptions import DiagnosticException, InterpretationError

from linalg_ext.comparison import compare_values, first_difference
from linalg_ext.context import make_context
from linalg_ext.running import (
    DEFAULT_DIM_SIZE,
    FunctionRun,
    find_function,
    random_inputs,
    run_function,
)
from linalg_ext.tools.common import (
    EXIT_ERROR,
    ToolError,
    first_line,
    load_module,
    run_tool,
)

TOOL = "linalg-ext-check"
EXIT_MISMATCH = 2


@dataclass
class FunctionVerdict:
    name: str
    trials: int
    mismatch: str | None = None
    """Where before and after first differ, if they do."""
    error: str | None = None
    """Why the function could not be compared, if it could not."""
    leak: str | None = None
    """The buffers the call leaks after the pipeline and did not before."""

    @property
    def ok(self) -> bool:
        return self.mismatch is None and self.error is None and self.leak is None

    def line(self) -> str:
        if self.error is not None:
            return f"@{self.name}: ERROR {self.error}"
        if self.mismatch is not None:
            return f"@{self.name}: MISMATCH {self.mismatch}"
        if self.leak is not None:
            return f"@{self.name}: LEAK {self.leak}"
        return f"@{self.name}: OK ({self.trials} trials)"


@dataclass
class CheckReport:
    verdicts: list[FunctionVerdict] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return bool(self.verdicts) and all(v.ok for v in self.verdicts)


BACKENDS = ("interpreter", "jit")

Runner = Callable[[str, list[Any]], FunctionRun]
"""Runs a function of the module after the pipeline: name, inputs -> run."""


def _runner(module: ModuleOp, backend: str) -> Runner:
    """How functions of `module` run on `backend`. The JIT compiles once,
    with memory tracking so that leaks are counted."""
    if backend == "interpreter":
        return lambda name, inputs: run_function(module, name, inputs)
    if backend != "jit":
        raise ToolError(f"unknown backend {backend!r}: choose one of {BACKENDS}")
    from linalg_ext import jit

    try:
        compiled = jit.compile_module(module, track_memory=True)
    except jit.JitError as error:
        raise ToolError(f"cannot compile natively: {first_line(error)}") from error

    def run(name: str, inputs: list[Any]) -> FunctionRun:
        try:
            return jit.run_function(compiled, name, inputs)
        except jit.JitError as error:
            raise InterpretationError(str(error)) from error

    return run


def _check_function(
    before: ModuleOp,
    after: ModuleOp,
    run_after: Runner,
    name: str,
    trials: int,
    seed: int,
    dim_size: int,
    allow_leaks: bool,
) -> FunctionVerdict:
    verdict = FunctionVerdict(name, trials)
    try:
        after_function = find_function(after, name)
    except InterpretationError:
        verdict.error = "the pipeline removed the function"
        return verdict
    before_function = find_function(before, name)
    if len(before_function.function_type.inputs) != len(
        after_function.function_type.inputs
    ):
        verdict.error = "the pipeline changed the number of arguments"
        return verdict
    rng = np.random.default_rng(seed)
    for trial in range(trials):
        inputs = random_inputs(before_function, rng, dim_size)
        try:
            reference = run_function(before, name, [_copy(v) for v in inputs])
        except (InterpretationError, DiagnosticException) as error:
            verdict.error = f"cannot run before the pipeline: {first_line(error)}"
            return verdict
        try:
            candidate = run_after(name, [_copy(v) for v in inputs])
        except (InterpretationError, DiagnosticException) as error:
            verdict.error = f"cannot run after the pipeline: {first_line(error)}"
            return verdict
        difference = compare_values(reference.results, candidate.results, "result")
        if difference is None:
            difference = _compare_buffer_arguments(
                before_function, reference.arguments, candidate.arguments
            )
        if difference is not None:
            verdict.mismatch = f"{difference} (trial {trial})"
            return verdict
        if not allow_leaks and len(candidate.leaks) > len(reference.leaks):
            leaks = _describe_leaks(candidate.leaks, len(reference.leaks))
            verdict.leak = f"{leaks} (trial {trial})"
            return verdict
    return verdict


def _compare_buffer_arguments(
    function: func.FuncOp, before: list[Any], after: list[Any]
) -> str | None:
    """The first difference in an argument that was a memref before the
    pipeline (a tensor argument is a value: it cannot change, but after
    bufferization its buffer may be written in place, as upstream does)."""
    for index, (type_, expected, actual) in enumerate(
        zip(function.function_type.inputs.data, before, after, strict=True)
    ):
        if not isinstance(type_, MemRefType | UnrankedMemRefType):
            continue
        if (difference := first_difference(expected, actual)) is not None:
            return f"in argument #{index} {difference}"
    return None


def _describe_leaks(leaks: list[str], before: int) -> str:
    """`1 buffer of shape (4, 4) allocated by memref.alloc %t in @f is never
    freed`, saying how many leaked before when some did."""
    if len(leaks) == 1:
        text = f"1 buffer of {leaks[0]} is never freed"
    else:
        text = f"{len(leaks)} buffers are never freed: " + "; ".join(
            f"one of {leak}" for leak in leaks
        )
    if before:
        text += f" ({before} before the pipeline)"
    return text


def _copy(value: Any) -> Any:
    return value.copy() if isinstance(value, np.ndarray) else value


def parse_pipeline(spec: str) -> PassPipeline:
    passes = Universe.get_multiverse().all_passes
    try:
        return PassPipeline.parse_spec(passes, spec)
    except Exception as error:  # xDSL reports bad specs with several types
        raise ToolError(f"bad pipeline {spec!r}: {first_line(error)}") from error


def check_module(
    module: ModuleOp,
    pipeline: str | Sequence[ModulePass],
    *,
    entry: str | None = None,
    trials: int = 3,
    seed: int = 0,
    dim_size: int = DEFAULT_DIM_SIZE,
    allow_leaks: bool = False,
    backend: str = "interpreter",
) -> CheckReport:
    """Apply `pipeline` to a copy of `module` and compare every function (or
    `entry`) before (interpreter) and after (on `backend`) on the same random
    inputs. Unless `allow_leaks`, a call that leaks more buffers after the
    pipeline than before fails."""
    passes = parse_pipeline(pipeline).passes if isinstance(pipeline, str) else pipeline
    transformed = module.clone()
    ctx = make_context()
    try:
        PassPipeline(tuple(passes)).apply(ctx, transformed)
        transformed.verify()
    except Exception as error:  # a failing pass, whatever it raises, is reported
        raise ToolError(
            f"the pipeline failed: {type(error).__name__}: {first_line(error)}"
        ) from error
    names = (
        [entry]
        if entry is not None
        else [
            op.sym_name.data
            for op in module.walk()
            if isinstance(op, func.FuncOp)
            and not op.is_declaration
            # Compiled code exposes public functions only.
            and (backend != "jit" or op.sym_visibility != StringAttr("private"))
        ]
    )
    if entry is not None:
        try:
            find_function(module, entry)
        except InterpretationError as error:
            raise ToolError(str(error)) from error
    run_after = _runner(transformed, backend)
    report = CheckReport()
    for name in names:
        report.verdicts.append(
            _check_function(
                module,
                transformed,
                run_after,
                name,
                trials,
                seed,
                dim_size,
                allow_leaks,
            )
        )
    return report


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=TOOL,
        description="Check that a pass pipeline keeps the meaning of every function "
        "of an MLIR file, by running it before and after on random inputs.",
    )
    parser.add_argument("file", help="the .mlir file")
    parser.add_argument(
        "-p",
        "--passes",
        help="the pipeline, as for xdsl-opt -p (required with the interpreter "
        "backend; with --backend jit, default: none)",
    )
    parser.add_argument("--entry", help="check only this function")
    parser.add_argument(
        "--trials", type=int, default=3, help="random inputs per function (3)"
    )
    parser.add_argument("--seed", type=int, default=0, help="random seed (0)")
    parser.add_argument(
        "--dim-size",
        type=int,
        default=DEFAULT_DIM_SIZE,
        help=f"extent of dynamic dimensions ({DEFAULT_DIM_SIZE})",
    )
    parser.add_argument(
        "--allow-leaks",
        action="store_true",
        help="do not fail when the program leaks more memref.alloc buffers "
        "after the pipeline than before",
    )
    parser.add_argument(
        "--backend",
        choices=BACKENDS,
        default="interpreter",
        help="run the program after the pipeline on the interpreter (default) or "
        "compiled natively through LLVM (jit)",
    )
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)

    def check() -> int:
        if args.trials < 1 or args.dim_size < 1:
            raise ToolError("--trials and --dim-size must be at least 1")
        if args.passes is None and args.backend != "jit":
            raise ToolError("give the pipeline to check with -p")
        module = load_module(args.file)
        report = check_module(
            module,
            args.passes or [],
            entry=args.entry,
            trials=args.trials,
            seed=args.seed,
            dim_size=args.dim_size,
            allow_leaks=args.allow_leaks,
            backend=args.backend,
        )
        if not report.verdicts:
            raise ToolError(f"{args.file} defines no function to check")
        for verdict in report.verdicts:
            print(verdict.line())
        if any(v.error is not None for v in report.verdicts):
            return EXIT_ERROR
        return 0 if report.ok else EXIT_MISMATCH

    return run_tool(TOOL, check)


def entry_point() -> None:
    sys.exit(main())
