"""Interpreter functions of `transform.structured.outline` and
`transform.structured.inline` (ops and payload rewrites in `outlining`).

Every target is checked before the payload changes; a refusal is one line
located at the transform op, naming the payload op and where it is.
"""

from __future__ import annotations

from xdsl.interpreter import (
    Interpreter,
    InterpreterFunctions,
    PythonValues,
    impl,
    register_impls,
)
from xdsl.interpreters.transform import OperationHandle

from linalg_ext.transform_ops.definitions import PayloadRefused
from linalg_ext.transform_ops.handles import op_handle, refusal
from linalg_ext.transform_ops.outlining import (
    InlineOp,
    OutlineOp,
    inline_calls,
    outline_ops,
)


@register_impls
class OutliningFunctions(InterpreterFunctions):
    """The impls of `outline` and `inline`, registered on xDSL's
    `TransformFunctions` by `install`."""

    @impl(OutlineOp)
    def run_outline(
        self, interpreter: Interpreter, op: OutlineOp, args: PythonValues
    ) -> PythonValues:
        targets = op_handle(op, args[0], "the target")
        try:
            outlined = outline_ops(
                targets.ops, op.func_name.data, op.libcall is not None
            )
        except PayloadRefused as refused:
            raise refusal(op, refused) from refused
        return (OperationHandle(*outlined.functions), OperationHandle(*outlined.calls))

    @impl(InlineOp)
    def run_inline(
        self, interpreter: Interpreter, op: InlineOp, args: PythonValues
    ) -> PythonValues:
        targets = op_handle(op, args[0], "the target")
        try:
            inline_calls(targets.ops)
        except PayloadRefused as refused:
            raise refusal(op, refused) from refused
        return ()


__all__ = ["OutliningFunctions"]
