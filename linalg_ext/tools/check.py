"""`linalg-ext-check`: does a pass pipeline keep the program's meaning?

    linalg-ext-check FILE.mlir -p PIPELINE [--entry NAME] [--trials N] [--seed S]

Applies the pipeline (the syntax of `xdsl-opt -p`), then runs every defined
function (or the named one) before and after on the same random inputs,
`--trials` times, and compares every result and every argument as the call
left it (memref outputs), by `linalg_ext.comparison`'s rule: integers and
booleans equal, floats within a tolerance for their width. One verdict line
per function; exit 0 only if all agree.

`check_module` is the same check as a library function, for tests.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass, PassPipeline
from xdsl.universe import Universe
from xdsl.utils.exceptions import DiagnosticException, InterpretationError

from linalg_ext.comparison import compare_values
from linalg_ext.context import make_context
from linalg_ext.running import (
    DEFAULT_DIM_SIZE,
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

    @property
    def ok(self) -> bool:
        return self.mismatch is None and self.error is None

    def line(self) -> str:
        if self.error is not None:
            return f"@{self.name}: ERROR {self.error}"
        if self.mismatch is not None:
            return f"@{self.name}: MISMATCH {self.mismatch}"
        return f"@{self.name}: OK ({self.trials} trials)"


@dataclass
class CheckReport:
    verdicts: list[FunctionVerdict] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return bool(self.verdicts) and all(v.ok for v in self.verdicts)


def _check_function(
    before: ModuleOp,
    after: ModuleOp,
    name: str,
    trials: int,
    seed: int,
    dim_size: int,
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
            candidate = run_function(after, name, [_copy(v) for v in inputs])
        except (InterpretationError, DiagnosticException) as error:
            verdict.error = f"cannot run after the pipeline: {first_line(error)}"
            return verdict
        difference = compare_values(reference.results, candidate.results, "result")
        if difference is None:
            difference = compare_values(
                reference.arguments, candidate.arguments, "argument"
            )
        if difference is not None:
            verdict.mismatch = f"{difference} (trial {trial})"
            return verdict
    return verdict


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
) -> CheckReport:
    """Apply `pipeline` to a copy of `module` and compare every function (or
    `entry`) before and after on the same random inputs."""
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
            if isinstance(op, func.FuncOp) and not op.is_declaration
        ]
    )
    if entry is not None:
        try:
            find_function(module, entry)
        except InterpretationError as error:
            raise ToolError(str(error)) from error
    report = CheckReport()
    for name in names:
        report.verdicts.append(
            _check_function(module, transformed, name, trials, seed, dim_size)
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
        "-p", "--passes", required=True, help="the pipeline, as for xdsl-opt -p"
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
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)

    def check() -> int:
        if args.trials < 1 or args.dim_size < 1:
            raise ToolError("--trials and --dim-size must be at least 1")
        module = load_module(args.file)
        report = check_module(
            module,
            args.passes,
            entry=args.entry,
            trials=args.trials,
            seed=args.seed,
            dim_size=args.dim_size,
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
