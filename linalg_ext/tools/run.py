"""`linalg-ext-run`: run one function of an MLIR file, interpreted or compiled.

    linalg-ext-run FILE.mlir [--entry NAME] [--inputs A.npy ...] [--seed S]
                   [--dim-size N] [--save-dir DIR] [--backend interpreter|jit]
                   [--fast-math none|contract|reassoc|fast]

`--backend jit` compiles the module natively instead of interpreting it
(`linalg_ext.jit`: a tensor program is bufferized, then everything is lowered
to LLVM in Python and JIT-compiled with llvmlite; no `mlir-opt` involved) and
also prints the compile time. Only the function run and what it calls are
compiled; `--fast-math` sets what compiled code may do to float arithmetic
(`compile_module`'s `fast_math`; docs/jit.md, "Floating-point contract").

Every input is converted to its argument's type by
`linalg_ext.argument_values` (one rule for both backends), and every error
is one line (`linalg_ext.tools.common`). A call that fails is reported as
`FILE: cannot run @f: reason` (`cannot run @f natively` with the JIT), at
`FILE:LINE:COL` instead when the reason starts with an op name
(`'linalg_ext.scatter' index ...`, `memref.alloc: ...`) and the functions
run hold exactly one op of that name.

Without `--inputs` the arguments are random, from the seed: floats in
[-1, 1], integers in [-4, 4], i1 0 or 1, index in [0, 3], every dynamic
extent `--dim-size`. Prints each result's type, shape, dtype and values
(summarised when large), then each memref argument as the call left it;
`--save-dir` writes result0.npy, result1.npy, ... (and argument<i>.npy for
memref arguments).
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path
from typing import Any

import numpy as np
from xdsl.dialects import func
from xdsl.dialects.builtin import MemRefType, ModuleOp, SymbolRefAttr
from xdsl.utils.exceptions import InterpretationError

from linalg_ext.argument_values import (
    ArgumentValueError,
    argument_value,
    check_argument_type,
)
from linalg_ext.diagnostics import source_location
from linalg_ext.lowering.fast_math import FAST_MATH_MODES, FastMathMode
from linalg_ext.running import (
    DEFAULT_DIM_SIZE,
    FunctionRun,
    find_function,
    random_inputs,
    run_function,
)
from linalg_ext.tools.common import (
    OneLineArgumentParser,
    ToolError,
    describe_array,
    first_line,
    format_values,
    internal_error,
    load_module,
    run_tool,
)

TOOL = "linalg-ext-run"


def build_parser() -> argparse.ArgumentParser:
    parser = OneLineArgumentParser(
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
    parser.add_argument(
        "--fast-math",
        choices=FAST_MATH_MODES,
        default="none",
        help="with --backend jit: let compiled code fuse multiply-adds "
        "(contract), also reorder sums (reassoc), or set every fast-math flag "
        "(fast: NaN and infinities give undefined results); default: none",
    )
    return parser


def reachable_part(module: ModuleOp, name: str) -> ModuleOp:
    """A copy of `module` without the functions `@name` does not reach
    through symbol references (calls): what the interpreter would run, and
    all the JIT needs to compile (a function it cannot compile elsewhere in
    the file is then no error for `@name`, as on the interpreter)."""
    functions = {
        op.sym_name.data: op for op in module.body.ops if isinstance(op, func.FuncOp)
    }
    reached = {name}
    pending = [name]
    while pending:
        function = functions.get(pending.pop())
        if function is None:
            continue
        for op in function.walk():
            for attribute in (*op.attributes.values(), *op.properties.values()):
                if isinstance(attribute, SymbolRefAttr):
                    callee = attribute.root_reference.data
                    if callee not in reached:
                        reached.add(callee)
                        pending.append(callee)
    part = module.clone()
    for op in list(part.body.ops):
        if isinstance(op, func.FuncOp) and op.sym_name.data not in reached:
            op.detach()
            op.erase()
    return part


_NAMED_OP = re.compile(r"^'?([a-z_][\w]*\.[\w.]+)'?[ :]")
"""The op a run-time refusal starts with: `'linalg_ext.scatter' index ...`,
`memref.alloc: cannot allocate ...`."""


def refusal_where(module: ModuleOp, name: str, message: str, path: str) -> str:
    """Where a refusal of `@name` is reported: `file:line:col` of the op its
    message names when the functions `@name` reaches hold exactly one op of
    that name, with a location; else the file."""
    named = _NAMED_OP.match(message)
    if named is None:
        return path
    ops = [
        op
        for function in reachable_part(module, name).body.ops
        if isinstance(function, func.FuncOp)
        for op in function.walk()
        if op.name == named[1]
    ]
    where = source_location(ops[0]) if len(ops) == 1 else None
    return path if where is None else "{}:{}:{}".format(*where)


def _refused(module: ModuleOp, name: str, what: str, reason: str, path: str):
    """`file[:line:col]: cannot run @name[ natively]: reason`, one line."""
    return ToolError(f"{refusal_where(module, name, reason, path)}: {what}: {reason}")


def _run_compiled(
    module: ModuleOp,
    name: str,
    inputs: list[Any],
    path: str,
    fast_math: FastMathMode = "none",
) -> FunctionRun:
    from linalg_ext import jit

    what = f"cannot run @{name} natively"
    try:
        compiled = jit.compile_module(reachable_part(module, name), fast_math=fast_math)
        outcome = jit.run_function(compiled, name, inputs)
    except jit.JitError as error:
        raise _refused(module, name, what, first_line(error), path) from error
    except Exception as error:
        raise internal_error(error, f"{path}: {what}") from error
    print(f"compiled natively in {compiled.compile_seconds.total:.3f} s")
    return outcome


def _run_interpreted(
    module: ModuleOp, name: str, inputs: list[Any], path: str
) -> FunctionRun:
    what = f"cannot run @{name}"
    try:
        return run_function(module, name, inputs)
    except InterpretationError as error:
        raise _refused(module, name, what, first_line(error), path) from error
    except RecursionError as error:
        raise ToolError(f"{path}: {what}: recursion too deep") from error
    except Exception as error:
        raise internal_error(error, f"{path}: {what}") from error


def select_function(module: ModuleOp, entry: str | None, path: str) -> func.FuncOp:
    if entry is not None:
        try:
            function = find_function(module, entry)
        except InterpretationError as error:
            raise ToolError(str(error)) from error
        if function.is_declaration:
            raise ToolError(f"@{entry} is only declared in {path}, not defined")
    else:
        functions = [op for op in module.walk() if isinstance(op, func.FuncOp)]
        defined = [f for f in functions if not f.is_declaration]
        if not defined:
            raise ToolError(f"{path} defines no function to run")
        if len(defined) != 1:
            names = ", ".join(f"@{f.sym_name.data}" for f in defined)
            raise ToolError(f"give --entry: the module defines {names}")
        function = defined[0]
    name = function.sym_name.data
    for index, type_ in enumerate(function.function_type.inputs.data):
        try:
            check_argument_type(type_, f"argument #{index} of @{name}")
        except ArgumentValueError as error:
            raise ToolError(str(error)) from None
    return function


def _random_inputs(function: func.FuncOp, seed: int, dim_size: int) -> list[Any]:
    try:
        return random_inputs(function, np.random.default_rng(seed), dim_size)
    except (MemoryError, ValueError) as error:  # numpy: too big an array
        raise ToolError(
            f"cannot make random inputs of @{function.sym_name.data} with "
            f"--dim-size {dim_size}: {first_line(error) or 'out of memory'}"
        ) from error


NPY_MAGIC = b"\x93NUMPY"


def load_input(path: str) -> np.ndarray:
    """The array in a .npy file, or a ToolError saying why there is none."""
    try:
        with open(path, "rb") as file:
            magic = file.read(len(NPY_MAGIC))
    except OSError as error:
        raise ToolError(f"cannot read {path}: {error.strerror}") from error
    if magic != NPY_MAGIC:
        raise ToolError(f"{path} is not a .npy file (numpy.save writes one)")
    try:
        return np.load(path, allow_pickle=False)
    except ValueError as error:
        if "allow_pickle" in str(error):
            raise ToolError(
                f"{path} holds Python objects (dtype object), not numbers"
            ) from None
        raise ToolError(f"cannot load {path}: {first_line(error)}") from error
    except (OSError, EOFError) as error:
        raise ToolError(f"cannot load {path}: {first_line(error)}") from error


def load_inputs(paths: list[str], function: func.FuncOp) -> list[Any]:
    """The arguments in the files, each converted to its argument's type as
    `linalg_ext.argument_values` says (the same rule for both backends)."""
    name = function.sym_name.data
    types = function.function_type.inputs.data
    if len(paths) != len(types):
        raise ToolError(
            f"@{name} takes {len(types)} arguments, --inputs gives {len(paths)}"
        )
    inputs = []
    for index, (path, type_) in enumerate(zip(paths, types, strict=True)):
        value = load_input(path)
        try:
            inputs.append(argument_value(value, type_, f"argument #{index} of @{name}"))
        except ArgumentValueError as error:
            raise ToolError(f"{error} (file {path})") from None
    return inputs


def save_directory(path: str) -> Path:
    """`--save-dir`, made if it does not exist (before running, so that a
    bad one does not cost a run), or a ToolError."""
    directory = Path(path)
    if directory.exists() and not directory.is_dir():
        raise ToolError(f"--save-dir {path}: exists and is not a directory")
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        reason = error.strerror or type(error).__name__
        raise ToolError(f"--save-dir {path}: cannot create it: {reason}") from error
    return directory


def save(directory: Path, name: str, value: Any) -> None:
    target = directory / name
    try:
        np.save(target, np.asarray(value))
    except OSError as error:
        reason = error.strerror or type(error).__name__
        raise ToolError(f"cannot write {target}: {reason}") from error


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)

    def run() -> int:
        if args.dim_size < 1:
            raise ToolError("--dim-size must be at least 1")
        if args.seed < 0:
            raise ToolError("--seed must be at least 0")
        if args.fast_math != "none" and args.backend != "jit":
            raise ToolError(
                "--fast-math is for compiled code: use it with --backend jit"
            )
        directory = save_directory(args.save_dir) if args.save_dir else None
        module = load_module(args.file)
        function = select_function(module, args.entry, args.file)
        name = function.sym_name.data
        if args.inputs:
            inputs = load_inputs(args.inputs, function)
        else:
            inputs = _random_inputs(function, args.seed, args.dim_size)
        if args.backend == "jit":
            outcome = _run_compiled(module, name, inputs, args.file, args.fast_math)
        else:
            outcome = _run_interpreted(module, name, inputs, args.file)
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
        if directory is not None:
            for index, value in enumerate(outcome.results):
                save(directory, f"result{index}.npy", value)
            for index, value, _ in memref_arguments:
                save(directory, f"argument{index}.npy", value)
        return 0

    return run_tool(TOOL, run)


def entry_point() -> None:
    sys.exit(main())
