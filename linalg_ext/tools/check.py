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

This module is the command line only: the check itself, `check_module`,
is `linalg_ext.checking` (re-exported here, as is `parse_pipeline` from
`linalg_ext.pipelines`, for the scripts and tests that import them from
this module).
"""

from __future__ import annotations

import argparse
import sys

from linalg_ext.checking import (
    BACKENDS,
    CheckError,
    CheckReport,
    FunctionVerdict,
    check_module,
)
from linalg_ext.pipelines import parse_pipeline
from linalg_ext.running import DEFAULT_DIM_SIZE
from linalg_ext.tools.common import EXIT_ERROR, ToolError, load_module, run_tool

__all__ = [
    "BACKENDS",
    "EXIT_MISMATCH",
    "CheckReport",
    "FunctionVerdict",
    "build_parser",
    "check_module",
    "entry_point",
    "main",
    "parse_pipeline",
]

TOOL = "linalg-ext-check"
EXIT_MISMATCH = 2


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
        try:
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
        except CheckError as error:
            raise ToolError(str(error)) from error
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
