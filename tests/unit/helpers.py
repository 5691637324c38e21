"""Parsing and printing helpers shared by the unit tests."""

from __future__ import annotations

import io
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from xdsl.dialects import func
from xdsl.dialects.builtin import Builtin, ModuleOp
from xdsl.parser import Parser
from xdsl.passes import ModulePass
from xdsl.printer import Printer

from linalg_ext.context import make_context

REPO = Path(__file__).resolve().parents[2]
FILECHECK_DIALECT_DIR = REPO / "tests" / "filecheck" / "dialect" / "linalg_ext"
MLIR_OPT = shutil.which("mlir-opt-22")


def parse_module(text: str, *, allow_unregistered: bool = True) -> ModuleOp:
    module = Parser(
        make_context(allow_unregistered=allow_unregistered), text
    ).parse_module()
    module.verify()
    return module


def print_module(module: ModuleOp, *, generic: bool = False) -> str:
    out = io.StringIO()
    printer = Printer(stream=out, print_generic_format=generic)
    printer.print_op(module)
    # The blobs of the dense_resource attributes printed, if any.
    printer.print_metadata([Builtin])
    return out.getvalue()


def function_names(module: ModuleOp) -> list[str]:
    """The names of the module's `func.func`s, in order."""
    return [op.sym_name.data for op in module.walk() if isinstance(op, func.FuncOp)]


def op_count(module: ModuleOp) -> int:
    """The ops in the module, the module itself not counted."""
    return sum(1 for _ in module.walk()) - 1


def after_pass(module_pass: ModulePass, text: str) -> ModuleOp:
    """`text` after our `module_pass`, verified, printed and parsed again
    (so that what it prints is what is compared)."""
    module = parse_module(text)
    module_pass.apply(make_context(), module)
    module.verify()
    return parse_module(print_module(module))


def compiled_writes(module: ModuleOp, inputs: list[Any], name: str = "f") -> list[Any]:
    """Copies of `inputs` after a call of `@name` of `module` compiled by
    `linalg_ext.jit.compile_module` (a function that writes its arguments)."""
    from linalg_ext.jit import compile_module

    arguments = [a.copy() for a in inputs]
    compile_module(module)[name](*arguments)
    return arguments


def mlir_opt_text(text: str, *flags: str) -> str:
    """What `mlir-opt-22 <flags>` (which must be installed and accept it)
    prints for `text`, as it is."""
    assert MLIR_OPT is not None
    result = subprocess.run(
        [MLIR_OPT, *flags], input=text, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr
    return result.stdout


def after_mlir_opt(text: str, *flags: str) -> ModuleOp:
    """`text` after `mlir-opt-22 <flags>` (which must be installed and
    accept it), parsed."""
    assert MLIR_OPT is not None
    result = subprocess.run(
        [MLIR_OPT, *flags],
        input=print_module(parse_module(text)),
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr
    return parse_module(result.stdout)


def roundtrip_inputs() -> list[Path]:
    """The valid programs of the FileCheck suite (the invalid ones are not)."""
    return sorted(
        p
        for p in FILECHECK_DIALECT_DIR.glob("*.mlir")
        if not p.name.startswith("invalid")
    )


def meaning_difference(
    reference: ModuleOp, candidate: ModuleOp, name: str, trials: int = 2, seed: int = 7
) -> str | None:
    """Where `candidate`'s @name first computes something other than
    `reference`'s on the same random inputs (results, and arguments for
    functions that write through memrefs), or None if they agree."""
    import numpy as np

    from linalg_ext.comparison import compare_values
    from linalg_ext.running import find_function, random_inputs, run_function

    def copied(values: list) -> list:
        return [v.copy() if isinstance(v, np.ndarray) else v for v in values]

    rng = np.random.default_rng(seed)
    function = find_function(reference, name)
    for trial in range(trials):
        inputs = random_inputs(function, rng)
        expected = run_function(reference, name, copied(inputs))
        actual = run_function(candidate, name, copied(inputs))
        difference = compare_values(
            expected.results, actual.results, "result"
        ) or compare_values(expected.arguments, actual.arguments, "argument")
        if difference is not None:
            return f"{difference} (trial {trial})"
    return None


def has_linalg_ext(module: ModuleOp) -> bool:
    return any(op.name.startswith("linalg_ext.") for op in module.walk())


def print_for_mlir_opt(module: ModuleOp) -> str:
    """The module as mlir-opt-22 can read it: custom form, unless it has
    linalg_ext ops, which only the generic form (with
    --allow-unregistered-dialect) lets it skip over."""
    return print_module(module, generic=has_linalg_ext(module))


def interpreter_error(module: ModuleOp, name: str, inputs: list[Any]) -> str:
    """The message of the `InterpretationError` running `name` raises."""
    from xdsl.utils.exceptions import InterpretationError

    from linalg_ext.running import run_function

    with pytest.raises(InterpretationError) as error:
        run_function(module, name, inputs)
    return str(error.value)


def jit_error(compiled: Any, name: str, inputs: list[Any]) -> str:
    """The message of the `JitError` calling compiled `name` raises."""
    from linalg_ext.jit.compiled import JitError

    with pytest.raises(JitError) as error:
        compiled[name](*inputs)
    return str(error.value)
