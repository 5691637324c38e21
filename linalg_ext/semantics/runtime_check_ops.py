"""`rtcheck.assert` for the interpreter: an error with the formatted message
when the condition is false (see linalg_ext/dialect/runtime_check.py)."""

from __future__ import annotations

from xdsl.dialects.builtin import IndexType, IntegerType
from xdsl.interpreter import (
    Interpreter,
    InterpreterFunctions,
    PythonValues,
    impl,
    register_impls,
)
from xdsl.utils.comparisons import to_signed
from xdsl.utils.exceptions import InterpretationError

from linalg_ext.dialect.runtime_check import RuntimeAssertOp


@register_impls
class RuntimeCheckFunctions(InterpreterFunctions):
    @impl(RuntimeAssertOp)
    def run_assert(
        self, interpreter: Interpreter, op: RuntimeAssertOp, args: PythonValues
    ) -> PythonValues:
        if args[0]:
            return ()
        values: list[int] = []
        for value, operand in zip(args[1:], op.values, strict=True):
            type_ = operand.type
            width = (
                type_.width.data
                if isinstance(type_, IntegerType)
                else interpreter.index_bitwidth
                if isinstance(type_, IndexType)
                else 64
            )
            values.append(to_signed(int(value), width))
        raise InterpretationError(op.formatted(values))
