"""`linalg-ext-check`: does a pass pipeline keep the program's meaning?

    linalg-ext-check FILE.mlir -p PIPELINE [--entry NAME] [--trials N] [--seed S]
                     [--dim-size N] [--range ARG=LOW:HIGH ...] [--inputs A.npy ...]
                     [--allow-leaks] [--backend interpreter|jit]
                     [--fast-math none|contract|reassoc|fast] [--approximate-math]

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

Inputs: random (`--trials` sets of them, from `--seed`), as
`linalg-ext-run` makes them, except that `--range [@FUNC:]ARG=LOW:HIGH`
bounds one argument (ARG a `%name` of the signature or a position from 0;
both bounds included, whole numbers for integer and index arguments), and
that the indices of a `linalg_ext.scatter` that are arguments get valid
positions by default. Or `--inputs A.npy ...`, one file per argument of
the function checked (as `linalg-ext-run --inputs` reads them): one trial.

Undefined reads: a function whose results depend on what a fresh
`tensor.empty`, `memref.alloc` or `memref.alloca` holds before it is written
is not compared: its verdict is `UNDEFINED reads uninitialised memory of %e
(tensor.empty at FILE:LINE:COL)` (exit 1: the program is at fault, not the
pipeline). A function that refuses to run (a failed run-time check) before
and after the pipeline with the same message agrees.

Backends: before the pipeline, functions always run on the interpreter;
after it, on the interpreter (`--backend interpreter`, the default) or
compiled natively (`--backend jit`: `linalg_ext.jit`, which bufferizes a
tensor program and lowers it to LLVM; leaks are counted through its memory
tracking). With `--backend jit` the pipeline may be omitted: the check then
compares the interpreter with the compiled program itself. `--fast-math`
(jit only) compiles with that floating-point contract (`compile_module`'s
`fast_math`) and widens the float tolerance to match (docs/jit.md,
"Floating-point contract").

Errors: one line on stderr, `linalg-ext-check: error: ...`, exit code 1;
a pass that refuses the module (or an output that does not verify) is
located as `linalg-ext-opt` locates it, `file:line:col: error: message`.

This module is the command line only: the check itself, `check_module`,
is `linalg_ext.checking` (re-exported here, as is `parse_pipeline` from
`linalg_ext.pipelines`, for the scripts and tests that import them from
this module).
"""

from __future__ import annotations

import argparse
import sys

from xdsl.dialects.builtin import FileLineColLoc, ModuleOp

from linalg_ext.checking import (
    BACKENDS,
    CheckError,
    CheckReport,
    FunctionVerdict,
    PipelineFailed,
    check_module,
)
from linalg_ext.diagnostics import source_location
from linalg_ext.lowering.fast_math import FAST_MATH_MODES
from linalg_ext.pipelines import parse_pipeline
from linalg_ext.running import DEFAULT_DIM_SIZE
from linalg_ext.tools.common import (
    EXIT_ERROR,
    OneLineArgumentParser,
    ToolError,
    internal_error,
    load_module,
    run_tool,
)
from linalg_ext.tools.run import load_inputs, select_function

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
    parser = OneLineArgumentParser(
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
        "--range",
        dest="ranges",
        action="append",
        default=[],
        metavar="[@FUNC:]ARG=LOW:HIGH",
        help="random values of one argument in [LOW, HIGH] (ARG: %%name or its "
        "position from 0; repeatable), e.g. --range %%indices=0:7",
    )
    parser.add_argument(
        "--inputs",
        nargs="+",
        metavar="A.npy",
        help="one .npy file per argument of the function checked, in order "
        "(instead of random inputs; one trial)",
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
    parser.add_argument(
        "--fast-math",
        choices=FAST_MATH_MODES,
        default="none",
        help="with --backend jit: let compiled code fuse multiply-adds "
        "(contract), also reorder sums (reassoc), or set every fast-math flag "
        "(fast: NaN and infinities give undefined results); the float "
        "tolerance follows (default: none)",
    )
    parser.add_argument(
        "--approximate-math",
        action="store_true",
        help="with --backend jit: compile f32 exp, log, tanh, erf, ... as "
        "polynomials (a few ulps; the float tolerance widens as for contract)",
    )
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)

    def check() -> int:
        if args.trials < 1 or args.dim_size < 1:
            raise ToolError("--trials and --dim-size must be at least 1")
        if args.passes is None and args.backend != "jit":
            raise ToolError("give the pipeline to check with -p")
        if args.fast_math != "none" and args.backend != "jit":
            raise ToolError(
                "--fast-math is for compiled code: use it with --backend jit"
            )
        if args.approximate_math and args.backend != "jit":
            raise ToolError(
                "--approximate-math is for compiled code: use it with --backend jit"
            )
        if args.inputs and args.ranges:
            raise ToolError("--range is for random inputs: not with --inputs")
        module = load_module(args.file)
        inputs = None
        if args.inputs:
            function = select_function(module, args.entry, args.file)
            inputs = load_inputs(args.inputs, function)
            args.entry = function.sym_name.data
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
                inputs=inputs,
                ranges=args.ranges,
                fast_math=args.fast_math,
                approximate_math=args.approximate_math,
            )
        except PipelineFailed as error:
            if error.outcome == "internal" and error.__cause__ is not None:
                raise internal_error(
                    error.__cause__, f"the pipeline failed in pass '{error.pass_name}'"
                ) from error
            # Located like linalg-ext-opt's diagnostics, without the tool's name.
            print(located_line(error, module, args.file), file=sys.stderr)
            return EXIT_ERROR
        except CheckError as error:
            raise ToolError(str(error)) from error
        if not report.verdicts:
            raise ToolError(f"{args.file} defines no function to check")
        for verdict in report.verdicts:
            print(verdict.line())
        if any(v.error is not None or v.undefined for v in report.verdicts):
            return EXIT_ERROR
        return 0 if report.ok else EXIT_MISMATCH

    return run_tool(TOOL, check)


def located_line(error: PipelineFailed, module: ModuleOp, path: str) -> str:
    """`file:line:col: error: message`, at the failing op, else where the
    module (or its first op) is written, else at the file `path`."""
    where = error.location
    if where is None:
        where = next(
            (
                source_location(op)
                for op in (module, *module.body.ops)
                if isinstance(op.location, FileLineColLoc)
            ),
            None,
        )
    prefix = path if where is None else "{}:{}:{}".format(*where)
    return f"{prefix}: error: {error.message}"


def entry_point() -> None:
    sys.exit(main())
