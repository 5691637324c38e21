"""Pass failures that say which op they are about.

xDSL's `PassFailedException` carries a message only. A pass that refuses an
op raises `OpPassFailed(message, op)` instead (still a PassFailedException,
so the stock `xdsl-opt` reports it as before); `linalg-ext-opt` then reports
it at the op's source location, as `mlir-opt` does for `op->emitError()`.
Ops keep their location through `clone()`, so an op of a clone a pass works
on is located too.
"""

from __future__ import annotations

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
