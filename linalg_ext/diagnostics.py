"""Pass failures that say which op they are about.

xDSL's `PassFailedException` carries a message only. A pass that refuses an
op raises `OpPassFailed(message, op)` instead (still a PassFailedException,
so the stock `xdsl-opt` reports it as before); `linalg-ext-opt` then reports
it at the op's source location, as `mlir-opt` does for `op->emitError()`.
Ops keep their location through `clone()`, so an op of a clone a pass works
on is located too.
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.dialects.builtin import FileLineColLoc
from xdsl.ir import Operation
from xdsl.utils.exceptions import PassFailedException


class OpPassFailed(PassFailedException):
    """A pass failed because of `op`."""

    def __init__(self, message: str, op: Operation | None):
        super().__init__(message)
        self.op = op


def failing_op(error: BaseException) -> Operation | None:
    """The op an exception is about, if it says."""
    op = getattr(error, "op", None)
    return op if isinstance(op, Operation) else None


def with_prefix(error: PassFailedException, prefix: str) -> PassFailedException:
    """The same failure with `prefix` before its message, keeping its op."""
    message = str(error)
    if not message.startswith(prefix):
        message = prefix + message
    return OpPassFailed(message, failing_op(error))


def source_location(op: Operation) -> tuple[str, int, int] | None:
    """(file, line, column) of `op` or of its closest ancestor that has one."""
    current: Operation | None = op
    while current is not None:
        location = current.location
        if isinstance(location, FileLineColLoc):
            return (
                location.filename.data,
                location.line.data,
                location.column.data,
            )
        current = current.parent_op()
    return None


EmitError = Callable[[Operation, str, Exception], object]
"""The signature of xDSL's `Operation.emit_error`."""


def emit_error_recording_op(original: EmitError) -> EmitError:
    """An `Operation.emit_error` that first records its op on the exception
    (as `error.op`, which `failing_op` reads), then does what `original`
    does: xDSL's pattern rewriter reports whatever a pattern raises through
    `op.emit_error`, so a driver can then say where the failing op is."""

    def emit_error(self: Operation, message: str, underlying_error: Exception):
        if failing_op(underlying_error) is None:
            try:
                underlying_error.op = self  # pyright: ignore[reportAttributeAccessIssue]
            except AttributeError:  # an exception type with __slots__
                pass
        return original(self, message, underlying_error)

    return emit_error
