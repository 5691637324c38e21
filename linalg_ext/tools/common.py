"""What both command-line tools share: loading a module and reporting errors.

A tool never ends in a traceback: every failure it can foresee becomes a
`ToolError`, printed as one line `<tool>: error: <message>` with exit code 1.
A failure nobody foresaw (a Python exception of our code or of xDSL's) is
one line too, `<tool>: error: [what was being done: ]internal error:
<type>: <message> (LINALG_EXT_TRACEBACK=1 shows the traceback)`, exit code
1: that variable in the environment shows the traceback instead (for
developers; `linalg-ext-opt` also has `--show-traceback`). Running out of
memory is `...: out of memory`; a bad command line is one line and exit
code 1 too (`OneLineArgumentParser`).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

from xdsl.dialects.builtin import ModuleOp
from xdsl.utils.exceptions import (
    DiagnosticException,
    InterpretationError,
    ParseError,
    VerifyException,
)

from linalg_ext.pipelines import first_line
from linalg_ext.tools.located import LocatingParser, one_line, verify_located

if TYPE_CHECKING:
    import numpy as np

__all__ = [
    "EXIT_ERROR",
    "EXIT_INTERRUPTED",
    "TRACEBACK_VARIABLE",
    "OneLineArgumentParser",
    "ToolError",
    "describe_array",
    "first_line",
    "format_values",
    "internal_error",
    "load_module",
    "run_tool",
    "show_tracebacks",
]

EXIT_ERROR = 1
EXIT_INTERRUPTED = 130
"""Ctrl-C: the shell's status for a process ended by SIGINT."""

TRACEBACK_VARIABLE = "LINALG_EXT_TRACEBACK"
"""`LINALG_EXT_TRACEBACK=1` (any value but empty or 0): internal errors end
in their Python traceback instead of one line."""


class ToolError(Exception):
    """A failure to report in one line."""


def show_tracebacks() -> bool:
    """Whether the environment asks for tracebacks of internal errors."""
    return os.environ.get(TRACEBACK_VARIABLE, "") not in ("", "0")


def internal_error(error: BaseException, where: str = "") -> ToolError:
    """A one-line report of an exception nobody meant to raise, after
    `where` (what was being done: `cannot run @f`), to raise from `error`.
    With LINALG_EXT_TRACEBACK set, `error` itself is raised again instead."""
    if show_tracebacks():
        raise error
    prefix = f"{where}: " if where else ""
    if isinstance(error, MemoryError):
        return ToolError(f"{prefix}out of memory")
    return ToolError(
        f"{prefix}internal error: {type(error).__name__}: {first_line(error)} "
        f"({TRACEBACK_VARIABLE}=1 shows the traceback)"
    )


class OneLineArgumentParser(argparse.ArgumentParser):
    """argparse, but a bad command line is one line and exit code 1, as
    every other error (argparse prints the usage too and exits with 2)."""

    def error(self, message: str) -> NoReturn:
        print(
            f"{self.prog}: error: {message} (--help lists the options)",
            file=sys.stderr,
        )
        sys.exit(EXIT_ERROR)


def _parse_error_line(path: str, error: ParseError) -> str:
    """`file:line:col: message` from xDSL's multi-line parse error."""
    lines = [line for line in str(error).splitlines() if line.strip()]
    location = lines[0].strip() if lines else path
    message = lines[-1].strip() if lines else "parse error"
    return f"{location}: {message}"


def load_module(path: str) -> ModuleOp:
    """Parse and verify a file, or raise a ToolError saying why not: where
    (`file:line:col`, the op that fails) and what."""
    try:
        text = Path(path).read_text()
    except OSError as error:
        raise ToolError(f"cannot read {path}: {error.strerror}") from error
    except UnicodeDecodeError:
        raise ToolError(f"cannot read {path}: not a text file (UTF-8)") from None
    # Imported here: `linalg-ext-opt` shares this module but builds its own
    # context, and start-up time is paid on every run.
    from linalg_ext.context import make_context

    parser = LocatingParser(make_context(), text, path)
    try:
        module = parser.parse_module()
    except ParseError as error:
        raise ToolError(_parse_error_line(path, error)) from error
    except DiagnosticException as error:  # a constraint of a custom syntax
        if parser.failed_op is None:
            raise ToolError(f"{path}: {one_line(str(error))}") from error
        location, op_name = parser.failed_op
        where = f"{path}:{location.line.data}:{location.column.data}"
        raise ToolError(f"{where}: '{op_name}' op {one_line(str(error))}") from error
    try:
        failure = verify_located(module)
    except VerifyException as error:
        raise ToolError(f"{path}: invalid IR: {first_line(error)}") from error
    if failure is not None:
        where = path if failure.line is None else failure.where
        raise ToolError(f"{where}: invalid IR: {failure.message}")
    return module


def run_tool(name: str, main: Callable[[], int]) -> int:
    """Run `main`, turning foreseeable failures into one-line errors."""
    try:
        return main()
    except BrokenPipeError:
        # The reader went away (`| head`): not an error of ours. Send the rest
        # of the output nowhere so Python's exit flush does not fail too.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return EXIT_ERROR
    except ToolError as error:
        print(f"{name}: error: {error}", file=sys.stderr)
    except (InterpretationError, VerifyException, DiagnosticException) as error:
        print(f"{name}: error: {first_line(error)}", file=sys.stderr)
    except KeyboardInterrupt:
        print(f"{name}: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except Exception as error:
        print(f"{name}: error: {internal_error(error)}", file=sys.stderr)
    return EXIT_ERROR


def describe_array(value: np.ndarray) -> str:
    return f"shape {tuple(value.shape)}, dtype {value.dtype}"


def format_values(value: object) -> str:
    # numpy only when there are values to show (not at every tool's start).
    import numpy as np

    if isinstance(value, np.ndarray):
        return np.array2string(value, threshold=64, edgeitems=3, precision=6)
    return repr(value)
