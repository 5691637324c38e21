"""`linalg-ext-opt`: this project's driver, as `mlir-opt` is MLIR's.

    linalg-ext-opt [FILE] [-p PIPELINE] [--split-input-file]
                   [--verify-diagnostics] [--list-passes] [--show-traceback]
                   [every other flag of xdsl-opt]

xDSL's `xdsl-opt` with every dialect and pass of xDSL and of this package
registered (each loaded on first use, as xdsl-opt does; `linalg_ext.compat`
applied before anything is parsed, its fixes to `llvm`, `vector` and
`transform` and our transform ops when those dialects are used), and with
upstream's discipline about errors:

- every bad input (syntax, verifier, unknown pass or option, a pass refusing
  the program, a missing file) is one line on stderr, `file:line:col: error:
  message` where there is a location, and exit code 1; never a traceback.
  Ops are located where they are written: the parser records each op's
  position as its `FileLineColLoc` (kept through `clone()`, printed by
  `--print-debuginfo`), and a verifier or pass error names its op;
- a Python exception a pass does not mean to raise is an internal error,
  `linalg-ext-opt: internal error in pass 'x': KeyError: ...`, exit code 1
  (so is one raised while parsing, verifying, printing, or by the driver
  itself); the traceback only with `--show-traceback` or
  `LINALG_EXT_TRACEBACK=1` in the environment;
- `--verify-diagnostics` checks the test's `// expected-error {{...}}`
  comments against the diagnostics produced, as upstream does
  (`linalg_ext.tools.expectations`);
- `--print-between-passes` and `--time-passes` show each stage of a pass that
  is a pipeline (`lower-to-llvm`), and go to stderr so that stdout stays the
  program.

docs/tools/linalg-ext-opt.md is the user's page.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from io import StringIO
from pathlib import Path
from typing import NoReturn

from xdsl.dialects.builtin import FileLineColLoc, ModuleOp
from xdsl.ir import Operation
from xdsl.passes import ModulePass, PassPipeline
from xdsl.utils.exceptions import DiagnosticException, ParseError, ShrinkException
from xdsl.xdsl_opt_main import xDSLOptMain

from linalg_ext import compat
from linalg_ext.diagnostics import (
    emit_error_recording_op,
    failing_op,
    source_location,
)
from linalg_ext.tools.common import (
    EXIT_INTERRUPTED,
    TRACEBACK_VARIABLE,
    show_tracebacks,
)
from linalg_ext.tools.expectations import (
    Diagnostic,
    ExpectationSyntaxError,
    parse_expectations,
    verify,
)
from linalg_ext.tools.located import (
    LocatingParser,
    at,
    at_op,
    one_line,
    verify_located,
)
from linalg_ext.tools.opt_pipeline import (
    PassSetupError,
    PipelineError,
    Step,
    build_steps,
    first_docstring_line,
    parse_passes,
)
from linalg_ext.transform_ops.install import install_on_load

TOOL = "linalg-ext-opt"
EXIT_ERROR = 1
TRACEBACK_HINT = f"--show-traceback or {TRACEBACK_VARIABLE}=1 prints the traceback"
SPLIT_MARKER = "// -----"


class ToolError(Exception):
    """A failure of the whole invocation, printed as `linalg-ext-opt: error:`."""


class InternalError(Exception):
    """A Python exception nobody meant to raise, in one line."""


@contextmanager
def ops_named_in_errors() -> Iterator[None]:
    """While active, an exception xDSL reports through `op.emit_error` (its
    pattern rewriter does so for whatever a pattern raises) remembers the op
    as `error.op`, so that the driver can locate it. xDSL's method is
    restored on exit: nothing outside the driver's pass runs sees this."""
    original = Operation.emit_error
    Operation.emit_error = emit_error_recording_op(original)  # pyright: ignore[reportAttributeAccessIssue]
    try:
        yield
    finally:
        Operation.emit_error = original


@dataclass
class Chunk:
    text: str
    line_offset: int


@dataclass
class ChunkResult:
    diagnostics: list[Diagnostic] = field(default_factory=list)
    output: str | None = None

    @property
    def failed(self) -> bool:
        return any(d.kind == "error" for d in self.diagnostics)


class LinalgExtOptMain(xDSLOptMain):
    """xdsl-opt's flags and behaviour where they are sound, upstream's rules
    for errors and diagnostics; see the module docstring."""

    version_format = f"{TOOL} (xdsl-linalg-ext) on xDSL {{xdsl_version}}"

    passes: list[ModulePass]

    def __init__(self, args: list[str] | None = None):
        super().__init__(description=f"{TOOL}: the xdsl-linalg-ext driver", args=args)

    # Registration: everything, ours last (ours replace a same-named pass).

    def register_all_dialects(self) -> None:
        from linalg_ext.universe import ALL_DIALECTS

        super().register_all_dialects()
        registered = set(self.ctx.registered_dialect_names)
        for name, loader in ALL_DIALECTS.items():
            if name not in registered:
                self.ctx.register_dialect(name, loader)
        # The fixes to xDSL before anything is parsed; those to `llvm`,
        # `vector` and `transform`, and our transform ops, when (if) the
        # program uses the dialect (`compat.install_on_use`): each costs
        # start-up time.
        compat.install_on_use(self.ctx)
        install_on_load(self.ctx)

    def register_all_passes(self) -> None:
        from linalg_ext.passes import ALL_PASSES

        super().register_all_passes()
        for name, loader in ALL_PASSES.items():
            self.register_pass(name, loader)

    def register_all_arguments(self, arg_parser: argparse.ArgumentParser) -> None:
        super().register_all_arguments(arg_parser)
        flags = arg_parser._option_string_actions
        flags["--verify-diagnostics"].help = (
            "check the diagnostics produced against the file's "
            "`// expected-error {{...}}` (warning, note, remark) comments, as "
            "mlir-opt does; exit 1 on any difference"
        )
        flags["--print-between-passes"].help = (
            "print the IR after each pass but the last (each stage of a "
            "pipeline pass) on stderr"
        )
        flags[
            "--time-passes"
        ].help = "print the time of each pass (each stage of a pipeline pass) on stderr"
        arg_parser.add_argument(
            "--list-passes",
            action="store_true",
            help="list every pass with its one-line description and exit",
        )
        arg_parser.add_argument(
            "--show-traceback",
            "--debug",
            dest="show_traceback",
            action="store_true",
            help="on an internal error, print the Python traceback",
        )

    def setup_pipeline(self) -> None:
        """Read `-p` (PipelineError on a bad one); nothing to read for
        --list-passes."""
        if self.args.list_passes:
            self.passes = []
        else:
            self.passes = parse_passes(self.available_passes, self.args.passes)
        self.pipeline = PassPipeline(tuple(self.passes))

    # Running.

    # xDSL's `run` returns nothing; ours returns the exit status.
    def run(self) -> int:  # pyright: ignore[reportIncompatibleMethodOverride]
        if self.args.list_passes:
            print(self.list_passes(), end="")
            return 0
        if self.args.frontend not in (None, "mlir"):
            raise ToolError(f"{TOOL} reads MLIR only, not '{self.args.frontend}'")
        name, text = self.read_input()
        chunks = self.split(text)
        steps = build_steps(
            self.passes,
            expand_stages=self.args.print_between_passes or self.args.time_passes,
        )
        expectations = None
        if self.args.verify_diagnostics:
            try:
                file_lines = text.count("\n") + 1
                expectations = [
                    parse_expectations(c.text, name, c.line_offset, file_lines)
                    for c in chunks
                ]
            except ExpectationSyntaxError as error:
                print(error, file=sys.stderr)
                return EXIT_ERROR
        status = 0
        try:
            output = self.prepare_output()
        except OSError as error:
            reason = error.strerror or type(error).__name__
            raise ToolError(
                f"cannot open output file '{self.args.output_file}': {reason}"
            ) from None
        try:
            for index, chunk in enumerate(chunks):
                if index > 0:
                    output.write(SPLIT_MARKER + "\n")
                result = self.process_chunk(chunk, name, steps)
                if expectations is not None:
                    complaints = verify(expectations[index], result.diagnostics)
                    for complaint in complaints:
                        print(complaint, file=sys.stderr)
                    status |= bool(complaints)
                else:
                    for diagnostic in result.diagnostics:
                        print(diagnostic.render(), file=sys.stderr)
                    status |= result.failed
                if result.output is not None:
                    output.write(result.output)
                output.flush()
        finally:
            if output is not sys.stdout:
                output.close()
        return EXIT_ERROR if status else 0

    def read_input(self) -> tuple[str, str]:
        path = self.args.input_file
        if path is None or path == "-":
            return "<stdin>", sys.stdin.read()
        try:
            return path, Path(path).read_text()
        except OSError as error:
            reason = error.strerror or type(error).__name__
            raise ToolError(f"cannot open input file '{path}': {reason}") from None
        except UnicodeDecodeError as error:
            raise ToolError(f"cannot read input file '{path}': {error}") from None

    def split(self, text: str) -> list[Chunk]:
        """The file, or its `// -----` chunks (as xdsl-opt splits them), each
        with the number of lines before it."""
        if not self.args.split_input_file:
            return [Chunk(text, 0)]
        chunks: list[Chunk] = []
        offset = 0
        for piece in text.split(SPLIT_MARKER):
            chunks.append(Chunk(piece, offset))
            offset += piece.count("\n")
        return chunks

    def process_chunk(self, chunk: Chunk, name: str, steps: list[Step]) -> ChunkResult:
        """Parse, verify, run the steps, print: what it produced."""
        result = ChunkResult()
        parser = LocatingParser(self.ctx, chunk.text, name, chunk.line_offset)
        try:
            module = parser.parse_module(not self.args.no_implicit_module)
        except ParseError as error:
            where = error.span.get_location()
            line = where.line + chunk.line_offset
            diagnostic = Diagnostic("error", one_line(error.msg), name, line, where.col)
            if self.args.parsing_diagnostics:
                print(diagnostic.render())
            else:
                result.diagnostics.append(diagnostic)
            return result
        except DiagnosticException as error:  # a constraint of a custom format
            if parser.failed_op is not None:
                location, op_name = parser.failed_op
                message = f"'{op_name}' op {one_line(str(error))}"
            else:
                location, message = parser.current_location(), one_line(str(error))
            result.diagnostics.append(at("error", message, location))
            return result
        except Exception as error:
            self.internal_error("while parsing", error)
        fallback = self.module_location(module)

        def located(error: BaseException) -> Diagnostic:
            op = failing_op(error)
            if op is not None and source_location(op) is not None:
                return at_op("error", one_line(str(error)), op)
            return at("error", one_line(str(error)), fallback)

        if failure := self.verify_module(module, "after parsing"):
            result.diagnostics.append(failure)
            return result
        for index, step in enumerate(steps):
            started = time.perf_counter()
            with warnings.catch_warnings(record=True) as caught, ops_named_in_errors():
                warnings.simplefilter("always")
                try:
                    step.run(self.ctx, module)
                except DiagnosticException as error:
                    result.diagnostics.append(located(error))
                    return result
                except ShrinkException:
                    print("Success, can shrink")
                    sys.exit(0)
                except Exception as error:
                    self.internal_error(f"in pass '{step.pass_name}'", error)
            result.diagnostics.extend(self.warnings_of(caught, fallback))
            if self.args.time_passes:
                elapsed = time.perf_counter() - started
                print(f"Pass {step.label} took {elapsed:.6f} seconds", file=sys.stderr)
            if failure := self.verify_module(module, f"after pass '{step.pass_name}'"):
                result.diagnostics.append(failure)
                return result
            if self.args.print_between_passes and index + 1 < len(steps):
                print(f"IR after {step.label}:", file=sys.stderr)
                print(f"{module}\n\n\n", file=sys.stderr)
        try:
            result.output = self.output_resulting_program(module)
        except DiagnosticException as error:
            result.diagnostics.append(located(error))
        except NotImplementedError as error:
            # xDSL's translations say "no translation for this op" this way.
            message = f"cannot emit '{self.args.target}': {one_line(str(error))}"
            result.diagnostics.append(at("error", message, fallback))
        except Exception as error:
            self.internal_error(f"in target '{self.args.target}'", error)
        return result

    def verify_module(self, module: ModuleOp, when: str) -> Diagnostic | None:
        """The verifier's diagnostic, if any (none with --disable-verify); a
        verifier that crashes is an internal error."""
        if self.args.disable_verify:
            return None
        try:
            return verify_located(module)
        except Exception as error:
            self.internal_error(f"while verifying {when}", error)

    @staticmethod
    def module_location(module: ModuleOp) -> FileLineColLoc | None:
        """Where an error about the whole module is reported: the
        `builtin.module` written in the file, else the first op of an
        implicit one."""
        if isinstance(module.location, FileLineColLoc):
            return module.location
        for op in module.body.ops:
            if isinstance(op.location, FileLineColLoc):
                return op.location
        return None

    @staticmethod
    def warnings_of(
        caught: list[warnings.WarningMessage], fallback: FileLineColLoc | None
    ) -> list[Diagnostic]:
        """Python warnings a pass issued (not deprecations) as warnings about
        the module."""
        return [
            at("warning", one_line(str(w.message)), fallback)
            for w in caught
            if not issubclass(
                w.category, DeprecationWarning | PendingDeprecationWarning
            )
        ]

    def internal_error(self, where: str, error: Exception) -> NoReturn:
        """Stop on an exception nobody meant to raise: one line, located at
        the op it was raised for when xDSL's rewriter says (`--show-traceback`
        re-raises it instead)."""
        if self.args.show_traceback or show_tracebacks():
            raise error
        text = (
            f"internal error {where}: {type(error).__name__}: {one_line(str(error))}"
            f" ({TRACEBACK_HINT})"
        )
        op = failing_op(error)
        location = source_location(op) if op is not None else None
        if location is None:
            raise InternalError(f"{TOOL}: {text}") from error
        raise InternalError(Diagnostic("error", text, *location).render()) from error

    def list_passes(self) -> str:
        """`name  description` for every pass, sorted by name."""
        rows: list[tuple[str, str]] = []
        for name in sorted(self.available_passes):
            try:
                description = first_docstring_line(self.available_passes[name]())
            except Exception as error:  # a pass whose module fails to import
                description = f"(cannot be loaded: {type(error).__name__})"
            rows.append((name, description))
        width = max(len(name) for name, _ in rows)
        text = StringIO()
        for name, description in rows:
            text.write(f"{name.ljust(width)}  {description}".rstrip() + "\n")
        return text.getvalue()


def main(argv: list[str] | None = None) -> int:
    """Run the driver on `argv` (default: the command line): its exit code."""
    try:
        try:
            driver = LinalgExtOptMain(args=argv)
        except PipelineError as error:
            raise ToolError(str(error)) from None
        return driver.run()
    except ToolError as error:
        print(f"{TOOL}: error: {error}", file=sys.stderr)
    except InternalError as error:
        print(error, file=sys.stderr)
    except PassSetupError as error:
        if _traceback_requested(argv):
            raise error.error from None
        print(
            f"{TOOL}: internal error in pass '{error.pass_name}' while setting it "
            f"up: {type(error.error).__name__}: "
            f"{one_line(str(error.error)) or '(no message)'} ({TRACEBACK_HINT})",
            file=sys.stderr,
        )
    except BrokenPipeError:
        # The reader went away (`| head`): send the rest nowhere.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except KeyboardInterrupt:
        print(f"{TOOL}: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except Exception as error:
        # Outside a pass, the parser or the verifier (each says which): the
        # driver's own code, reading options, writing output.
        if _traceback_requested(argv):
            raise
        print(
            f"{TOOL}: internal error: {type(error).__name__}: "
            f"{one_line(str(error)) or '(no message)'} ({TRACEBACK_HINT})",
            file=sys.stderr,
        )
    return EXIT_ERROR


def _traceback_requested(argv: list[str] | None) -> bool:
    """--show-traceback (--debug) on the command line, or LINALG_EXT_TRACEBACK
    set: for errors out of the driver, before or without its parsed options."""
    given = sys.argv[1:] if argv is None else argv
    return show_tracebacks() or bool({"--show-traceback", "--debug"} & set(given))


def entry_point() -> None:
    sys.exit(main())
