"""`linalg-ext-run`: run one function of an MLIR file, interpreted or compiled.

    linalg-ext-run FILE.mlir [--entry NAME] [--inputs A.npy ...] [--seed S]
                   [--dim-size N] [--save-dir DIR] [--backend interpreter|jit]

`--backend jit` compiles the module natively instead of interpreting it
(`linalg_ext.jit`: a tensor program is bufferized, then everything is lowered
to LLVM in Python and JIT-compiled with llvmlite; no `mlir-opt` involved) and
also prints the compile time.

Without `--inputs` the arguments are random, from the seed: floats in
[-1, 1], integers in [-4, 4], i1 0 or 1, index in [0, 3], every dynamic
extent `--dim-size`. Prints each result's type, shape, dtype and values
(summarised when large), then each memref argument as the call left it;
`--save-dir` writes result0.npy, result1.npy, ... (and argument<i>.npy for
memref arguments).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

import numpy as np
from xdsl.dialects import func
from xdsl.dialects.builtin import MemRefType, ModuleOp
from xdsl.utils.exceptions import InterpretationError

from linalg_ext.running import (
    DEFAULT_DIM_SIZE,
    FunctionRun,
    find_function,
    random_inputs,
    run_function,
)
from linalg_ext.tools.common import (
    ToolError,
    describe_array,
    first_line,
    format_values,
    load_module,
    run_tool,
)

TOOL = "linalg-ext-run"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=TOOL,
        description="Run one function of an MLIR file on the CPU interpreter.",
    )
    parser.add_argument("file", help="the .mlir file")
    parser.add_argument(
        "--entry",
        help="the function to run (default: the only function of the module)",
    )
    parser.add_argument(
        "--inputs",
        nargs="+",
        metavar="A.npy",
        help="one .npy file per argument, in order (default: random inputs)",
    )
    parser.add_argument(
        "--seed", type=int, default=0, help="seed of the random inputs (default 0)"
    )
    parser.add_argument(
        "--dim-size",
        type=int,
        default=DEFAULT_DIM_SIZE,
        help=f"extent of dynamic dimensions of random inputs (default "
        f"{DEFAULT_DIM_SIZE})",
    )
    parser.add_argument("--save-dir", help="write result<i>.npy files here")
    parser.add_argument(
        "--backend",
        choices=("interpreter", "jit"),
        default="interpreter",
        help="run on the interpreter (default) or compiled natively through LLVM",
    )
    return parser


def _run_compiled(module: ModuleOp, name: str, inputs: list[Any]) -> FunctionRun:
    from linalg_ext import jit

    try:
        compiled = jit.compile_module(module)
        outcome = jit.run_function(compiled, name, inputs)
    except jit.JitError as error:
        raise ToolError(f"cannot run @{name} natively: {first_line(error)}") from error
    print(f"compiled natively in {compiled.compile_seconds.total:.3f} s")
    return outcome


def select_function(module: ModuleOp, entry: str | None) -> func.FuncOp:
    if entry is not None:
        try:
            return find_function(module, entry)
        except InterpretationError as error:
            raise ToolError(str(error)) from error
    functions = [op for op in module.walk() if isinstance(op, func.FuncOp)]
    defined = [f for f in functions if not f.is_declaration]
    if len(defined) != 1:
        names = ", ".join(f"@{f.sym_name.data}" for f in defined) or "none"
        raise ToolError(f"give --entry: the module defines {names}")
    return defined[0]


def load_inputs(paths: list[str], function: func.FuncOp) -> list[Any]:
    expected = len(function.function_type.inputs.data)
    if len(paths) != expected:
        raise ToolError(
            f"@{function.sym_name.data} takes {expected} arguments, "
            f"--inputs gives {len(paths)}"
        )
    inputs = []
    for path in paths:
        try:
            value = np.load(path, allow_pickle=False)
        except (OSError, ValueError) as error:
            raise ToolError(f"cannot load {path}: {first_line(error)}") from error
        inputs.append(value.item() if value.ndim == 0 else value)
    return inputs


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)

    def run() -> int:
        if args.dim_size < 1:
            raise ToolError("--dim-size must be at least 1")
        module = load_module(args.file)
        function = select_function(module, args.entry)
        name = function.sym_name.data
        if args.inputs:
            inputs = load_inputs(args.inputs, function)
        else:
            inputs = random_inputs(
                function, np.random.default_rng(args.seed), args.dim_size
            )
        if args.backend == "jit":
            outcome = _run_compiled(module, name, inputs)
        else:
            try:
                outcome = run_function(module, name, inputs)
            except InterpretationError as error:
                raise ToolError(f"cannot run @{name}: {first_line(error)}") from error
        result_types = function.function_type.outputs.data
        print(f"@{name}: {len(outcome.results)} result(s)")
        for index, (value, type_) in enumerate(
            zip(outcome.results, result_types, strict=True)
        ):
            header = f"result #{index}: {type_}"
            if isinstance(value, np.ndarray):
                header += f", {describe_array(value)}"
            print(header)
            print(format_values(value))
        arg_types = function.function_type.inputs.data
        memref_arguments = [
            (index, value, type_)
            for index, (value, type_) in enumerate(
                zip(outcome.arguments, arg_types, strict=True)
            )
            if isinstance(type_, MemRefType)
        ]
        for index, value, type_ in memref_arguments:
            print(f"argument #{index} after the call: {type_}, {describe_array(value)}")
            print(format_values(value))
        if args.save_dir:
            directory = Path(args.save_dir)
            directory.mkdir(parents=True, exist_ok=True)
            for index, value in enumerate(outcome.results):
                np.save(directory / f"result{index}.npy", np.asarray(value))
            for index, value, _ in memref_arguments:
                np.save(directory / f"argument{index}.npy", value)
        return 0

    return run_tool(TOOL, run)


def entry_point() -> None:
    sys.exit(main())
