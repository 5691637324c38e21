"""Reading a module the way the tools report it: every op located, a failure
said as `file:line:col` and the op that fails.

`LocatingParser` is xDSL's parser giving each op the location where it is
written (as MLIR does); `verify_located` verifies like `module.verify()` but
names the failing op and its location. `linalg-ext-opt` and the tools of
`linalg_ext.tools.common` read modules through them.
"""

from __future__ import annotations

import re

from xdsl.dialects.builtin import FileLineColLoc, IntAttr, ModuleOp, StringAttr
from xdsl.ir import Operation
from xdsl.parser import Parser
from xdsl.utils.exceptions import DiagnosticException
from xdsl.utils.lexer import Span

from linalg_ext.diagnostics import failing_op, source_location
from linalg_ext.tools.expectations import Diagnostic


class LocatingParser(Parser):
    """xDSL's parser, giving every op it parses without an explicit `loc(...)`
    the location of its name in the file (as MLIR does), `line_offset` lines
    down for a chunk of a split file."""

    def __init__(self, ctx, text: str, name: str, line_offset: int = 0):
        super().__init__(ctx, text, name)
        self.name = name
        self.line_offset = line_offset
        self._op_starts: list[int] = []
        """Where the op being parsed starts, innermost last: the result list
        first, then (once it is parsed) the op name."""
        self.failed_op: tuple[FileLineColLoc, str] | None = None
        """Location and name of the innermost op whose parsing raised a
        DiagnosticException (a constraint of its custom format failed)."""

    def parse_operation(self) -> Operation:
        self._op_starts.append(self._current_token.span.start)
        try:
            op = super().parse_operation()
        except DiagnosticException:
            if self.failed_op is None:
                start = self._op_starts[-1]
                self.failed_op = (self.location_at(start), self._name_at(start))
            raise
        finally:
            start = self._op_starts.pop()
        if not isinstance(op.location, FileLineColLoc):
            op.location = self.location_at(start)
        return op

    def _parse_op_result_list(self):
        results = super()._parse_op_result_list()
        if self._op_starts:
            self._op_starts[-1] = self._current_token.span.start
        return results

    def _get_op_by_name(self, name: str) -> type[Operation]:
        # xDSL reports an unknown op after its name: report it at the name.
        if (
            self.ctx.get_optional_op(
                name, dialect_stack=self._parser_state.dialect_stack
            )
            is None
            and self._op_starts
        ):
            start = self._op_starts[-1]
            self.raise_error(
                f"Operation {name} is not registered "
                "(--allow-unregistered-dialect accepts it in generic form)",
                Span(start, start + len(name), self.lexer.input),
            )
        return super()._get_op_by_name(name)

    def location_at(self, position: int) -> FileLineColLoc:
        where = Span(position, position, self.lexer.input, self.line_offset)
        location = where.get_location()
        return FileLineColLoc(
            StringAttr(self.name), IntAttr(location.line), IntAttr(location.col)
        )

    def _name_at(self, position: int) -> str:
        """The op name written at `position` (custom or generic form)."""
        text = self.lexer.input.content[position : position + 200]
        found = re.match(r'"([^"]+)"|[A-Za-z_][\w$.]*', text)
        if found is None:
            return "?"
        return found[1] or found[0]

    def current_location(self) -> FileLineColLoc:
        return self.location_at(self._current_token.span.start)


def one_line(text: str) -> str:
    """A message on one line: xDSL spreads some over several."""
    return " ".join(line.strip() for line in text.splitlines() if line.strip())


def at(kind: str, message: str, location: FileLineColLoc | None) -> Diagnostic:
    if location is None:
        return Diagnostic(kind, message)
    return Diagnostic(
        kind,
        message,
        location.filename.data,
        location.line.data,
        location.column.data,
    )


def at_op(kind: str, message: str, op: Operation | None) -> Diagnostic:
    where = source_location(op) if op is not None else None
    if where is None:
        return Diagnostic(kind, message)
    return Diagnostic(kind, message, *where)


def op_message(op: Operation, message: str) -> str:
    """Upstream's `'dialect.op' op message`, unless it already says so."""
    message = one_line(message)
    prefix = f"'{op.name}' op "
    return message if message.startswith(prefix) else prefix + message


def verify_located(module: ModuleOp) -> Diagnostic | None:
    """Verify like `module.verify()`, but say which op fails and where: each
    op on its own, outer ops first (as MLIR), then the whole module for
    xDSL's region-level checks."""
    for op in module.walk():
        try:
            op.verify(verify_nested_ops=False)
        except DiagnosticException as error:
            return at_op("error", op_message(op, str(error)), op)
    try:
        module.verify()
    except DiagnosticException as error:
        return at_op("error", one_line(str(error)), failing_op(error) or module)
    return None
