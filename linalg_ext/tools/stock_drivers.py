"""One-line errors from the stock `xdsl-opt` and `xdsl-run` once they use us.

xDSL's drivers let every failure escape as a Python traceback: a parse
error, a verifier error, a pass refusing the program, a bad `-p` option, an
op the interpreter cannot run. `linalg-ext-opt` reports each in one line
(`file:line:col: error: message`). `install()` gives the stock drivers the
same discipline, from the moment the process uses this package: when the
driver loads one of our dialects (`linalg_ext`, `ccl`, `index`, `rtcheck`,
`shape`: the first op of it parsed) or one of our passes (`-p` naming it:
loaded while the pipeline is read, before the input is). The loaders of the
`xdsl.universe` entry point (`linalg_ext.tools.xdsl_plugin`) call it first; the
library's universe (`linalg_ext.universe`) does not, so library code and
`linalg-ext-opt` never see it. A process that loads none of them keeps xDSL's
behaviour exactly.

A driver concern, so it lives with the tools and shares their one-line
formatting, locating parser and pipeline checks (`located`, `common`,
`opt_pipeline`). Those are imported inside the functions that need them:
`install()` runs in every process that loads one of our dialects or passes
through xDSL's multiverse (the JIT, `linalg-ext-check`, tests), and they are
needed only when a stock driver fails.

What it does, only when an `xDSLOptMain` or `xDSLRunMain` itself (not a
subclass: other tools keep their own reporting) is on the stack:

- `sys.excepthook` gets a hook that prints an exception escaping the driver
  as one line and lets Python exit with status 1 (as before): a parse error
  at its position; a verifier error, a pass failure, an interpreter error at
  the op it is about (`file:line:col: error: ...`) when it names one, else
  `xdsl-opt: error: ...`; a bad `-p` pipeline as `linalg-ext-opt` says it;
  any other exception as `xdsl-opt: internal error: Type: message`, unless
  `LINALG_EXT_TRACEBACK=1` (then the previous hook, the traceback). An
  exception that does not come out of the driver goes to the previous hook.
- the driver's MLIR parsing (from its next input on: with our passes, the
  whole input) records each op's position as its location, as
  `linalg-ext-opt` does; parse error messages stay xDSL's;
- `Operation.emit_error`, through which xDSL's verifier, rewriter and
  interpreter report an exception raised for an op, also records the op on
  the exception (`error.op`), when it names none.
"""

from __future__ import annotations

import os
import sys
from types import TracebackType
from typing import IO, Any

from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.utils.exceptions import DiagnosticException, ParseError, VerifyException

from linalg_ext.diagnostics import (
    emit_error_recording_op,
    failing_op,
    source_location,
)

REPORT_ATTRIBUTE = "linalg_ext_report"
"""An exception carrying this attribute (a string) is reported as it says."""

_STACK_FRAMES_SEARCHED = 200

_installed = False
_driver: Any = None
_tool = "xdsl-opt"


def install() -> None:
    """Report errors of the stock driver running this code in one line (see
    the module docstring); nothing when no stock driver is running, or
    after the first time."""
    global _installed, _driver, _tool
    if _installed:
        return
    found = _stock_driver()
    if found is None:
        return
    _installed = True
    _driver, _tool = found
    _record_ops_in_errors()
    _locate_parsed_ops(_driver)
    previous = sys.excepthook

    def hook(
        kind: type[BaseException],
        error: BaseException,
        traceback: TracebackType | None,
    ) -> None:
        if not _from_driver(traceback):
            previous(kind, error, traceback)
            return
        line = report(error, traceback)
        if line is None:
            previous(kind, error, traceback)
        elif line:
            print(line, file=sys.stderr)

    sys.excepthook = hook


def _stock_driver() -> tuple[Any, str] | None:
    """xDSL's own `xDSLOptMain` or `xDSLRunMain` among the callers, and the
    tool's name. Only modules already imported are looked at: a process that
    is not such a driver imports nothing."""
    drivers: dict[type, str] = {}
    opt = sys.modules.get("xdsl.xdsl_opt_main")
    if opt is not None:
        drivers[opt.xDSLOptMain] = "xdsl-opt"
    run = sys.modules.get("xdsl.tools.xdsl_run")
    if run is not None:
        drivers[run.xDSLRunMain] = "xdsl-run"
    if not drivers:
        return None
    frame = sys._getframe(1)  # pyright: ignore[reportPrivateUsage]
    for _ in range(_STACK_FRAMES_SEARCHED):
        if frame is None:
            return None
        owner = frame.f_locals.get("self")
        tool = drivers.get(type(owner))
        if tool is not None:
            return owner, tool
        frame = frame.f_back
    return None


def _from_driver(traceback: TracebackType | None) -> bool:
    """Whether the exception went through a method of the driver."""
    while traceback is not None:
        if traceback.tb_frame.f_locals.get("self") is _driver:
            return True
        traceback = traceback.tb_next
    return False


def _record_ops_in_errors() -> None:
    """`Operation.emit_error` also records its op on the exception."""
    Operation.emit_error = emit_error_recording_op(  # pyright: ignore[reportAttributeAccessIssue]
        Operation.emit_error
    )


def _locate_parsed_ops(driver: Any) -> None:
    """The driver's `parse_chunk` (of MLIR, by xDSL's own frontend) gives each
    op its position as location; anything else is parsed as before."""
    original = driver.parse_chunk
    frontend = driver.available_frontends.get("mlir")
    if frontend is None or "CommandLineTool" not in frontend.__qualname__:
        return

    def parse_chunk(
        chunk: IO[bytes], file_extension: str, start_offset: int = 0
    ) -> ModuleOp | None:
        if driver.available_frontends.get(file_extension) is not frontend:
            return original(chunk, file_extension, start_offset)
        return _parse_located(driver, chunk.read(), start_offset)

    driver.parse_chunk = parse_chunk


def _parse_located(driver: Any, content: bytes, line_offset: int) -> ModuleOp:
    from xdsl.parser import Parser

    from linalg_ext.tools.located import LocatingParser, one_line

    class StockMessagesParser(LocatingParser):
        # xDSL's message and position for an unknown op, as before.
        _get_op_by_name = Parser._get_op_by_name

    implicit_module = not driver.args.no_implicit_module
    name = driver.get_input_name()
    try:
        text = content.decode()
    except UnicodeDecodeError:
        return Parser(driver.ctx, content, name).parse_module(implicit_module)
    parser = StockMessagesParser(driver.ctx, text, name, line_offset)
    try:
        return parser.parse_module(implicit_module)
    except DiagnosticException as error:  # a constraint of a custom syntax
        if parser.failed_op is not None:
            location, op_name = parser.failed_op
            setattr(
                error,
                REPORT_ATTRIBUTE,
                f"{location.filename.data}:{location.line.data}:"
                f"{location.column.data}: error: '{op_name}' op "
                f"{one_line(str(error))}",
            )
        raise


def report(error: BaseException, traceback: TracebackType | None = None) -> str | None:
    """The line reporting `error` ("" for nothing), or None for the
    previous hook (a traceback asked for with LINALG_EXT_TRACEBACK)."""
    from linalg_ext.tools.common import internal_error, show_tracebacks
    from linalg_ext.tools.located import one_line, op_message

    if isinstance(error, KeyboardInterrupt):
        return f"{_tool}: interrupted"
    if isinstance(error, BrokenPipeError):
        # The reader went away (`| head`): send the rest nowhere.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return ""
    written = getattr(error, REPORT_ATTRIBUTE, None)
    if isinstance(written, str):
        return written
    if isinstance(error, ParseError):
        where = error.span.get_location()
        return f"{where.file}:{where.line}:{where.col}: error: {one_line(error.msg)}"
    if _raised_in(traceback, "setup_pipeline"):
        problem = _pipeline_problem()
        if problem is not None:
            return f"{_tool}: error: {problem}"
    op = failing_op(error) or _interpreted_op(traceback)
    where = source_location(op) if op is not None else None
    prefix = f"{where[0]}:{where[1]}:{where[2]}: error: " if where else f"{_tool}: "
    # Without a location (parsed before we were loaded), the op's name.
    unnamed = op is not None and where is None and op.name not in str(error)
    if isinstance(error, DiagnosticException):
        message = one_line(str(error))
        if op is not None and (isinstance(error, VerifyException) or unnamed):
            message = op_message(op, message)
        return prefix + ("" if where else "error: ") + message
    if not isinstance(error, Exception) or show_tracebacks():
        return None
    about = f"'{op.name}' op: " if unnamed and op is not None else ""
    return prefix + about + str(internal_error(error))


def _raised_in(traceback: TracebackType | None, function: str) -> bool:
    while traceback is not None:
        if traceback.tb_frame.f_code.co_name == function:
            return True
        traceback = traceback.tb_next
    return False


def _pipeline_problem() -> str | None:
    """What is wrong with the driver's `-p`, in `linalg-ext-opt`'s words."""
    from linalg_ext.tools.opt_pipeline import PipelineError, parse_passes

    passes = getattr(_driver.args, "passes", None)
    if not isinstance(passes, str):
        return None
    try:
        parse_passes(_driver.available_passes, passes)
    except PipelineError as error:
        return str(error)
    except Exception:
        return None
    return None


def _interpreted_op(traceback: TracebackType | None) -> Operation | None:
    """The op xDSL's interpreter was running when it failed (innermost)."""
    found: Operation | None = None
    while traceback is not None:
        frame = traceback.tb_frame
        if frame.f_code.co_filename.endswith(os.path.join("xdsl", "interpreter.py")):
            op = frame.f_locals.get("op")
            if isinstance(op, Operation) and not isinstance(op, ModuleOp):
                found = op
        traceback = traceback.tb_next
    return found
