"""What both command-line tools share: loading a module and reporting errors.

A tool never ends in a traceback: every failure it can foresee becomes a
`ToolError`, printed as one line `<tool>: error: <message>` with exit code 1.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from pathlib import Path

import numpy as np
from xdsl.dialects.builtin import ModuleOp
from xdsl.parser import Parser
from xdsl.utils.exceptions import (
    DiagnosticException,
    InterpretationError,
    ParseError,
    VerifyException,
)

from linalg_ext.context import make_context
from linalg_ext.pipelines import first_line

__all__ = [
    "EXIT_ERROR",
    "ToolError",
    "describe_array",
    "first_line",
    "format_values",
    "load_module",
    "run_tool",
]

EXIT_ERROR = 1


class ToolError(Exception):
    """A failure to report in one line."""


def _parse_error_line(path: str, error: ParseError) -> str:
    """`file:line:col: message` from xDSL's multi-line parse error."""
    lines = [line for line in str(error).splitlines() if line.strip()]
    location = lines[0].strip() if lines else path
    message = lines[-1].strip() if lines else "parse error"
    return f"{location}: {message}"


def load_module(path: str) -> ModuleOp:
    """Parse and verify a file, or raise a ToolError saying why not."""
    try:
        text = Path(path).read_text()
    except OSError as error:
        raise ToolError(f"cannot read {path}: {error.strerror}") from error
    try:
        module = Parser(make_context(), text, path).parse_module()
    except ParseError as error:
        raise ToolError(_parse_error_line(path, error)) from error
    try:
        module.verify()
    except (VerifyException, DiagnosticException) as error:
        raise ToolError(f"{path}: invalid IR: {first_line(error)}") from error
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
    return EXIT_ERROR


def describe_array(value: np.ndarray) -> str:
    return f"shape {tuple(value.shape)}, dtype {value.dtype}"


def format_values(value: object) -> str:
    if isinstance(value, np.ndarray):
        return np.array2string(value, threshold=64, edgeitems=3, precision=6)
    return repr(value)
