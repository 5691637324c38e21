"""`cf.switch` and `cf.assert` for the interpreter (xDSL 0.74 runs only
`cf.br` and `cf.cond_br`).

- `cf.switch`: to the block of the first case value equal to the flag (read
  as a signed value of its width), else to the default block, with that
  destination's operands;
- `cf.assert`: an error carrying the message when the condition is false
  ("cf.assert failed: msg"); compiled code ends the call there and
  `linalg_ext.jit` raises a `JitError` with the same text (docs/jit.md,
  "When a call fails").
"""

from __future__ import annotations

from typing import Any

from xdsl.dialects import cf
from xdsl.dialects.builtin import IndexType, IntegerType
from xdsl.interpreter import (
    Interpreter,
    InterpreterFunctions,
    PythonValues,
    Successor,
    impl,
    impl_terminator,
    register_impls,
)
from xdsl.utils.comparisons import to_signed
from xdsl.utils.exceptions import InterpretationError


@register_impls
class CfOpFunctions(InterpreterFunctions):
    @impl_terminator(cf.SwitchOp)
    def run_switch(
        self, interpreter: Interpreter, op: cf.SwitchOp, args: tuple[Any, ...]
    ):
        flag_type = op.flag.type
        width = (
            interpreter.index_bitwidth
            if isinstance(flag_type, IndexType)
            else flag_type.width.data
            if isinstance(flag_type, IntegerType)
            else 64
        )
        flag = to_signed(args[0], width)
        values = op.case_values.get_values() if op.case_values else ()
        for value, block, operands in zip(
            values, op.case_blocks, op.case_operand, strict=True
        ):
            if to_signed(int(value), width) == flag:
                return Successor(block, interpreter.get_values(operands)), ()
        default = interpreter.get_values(op.default_operands)
        return Successor(op.default_block, default), ()

    @impl(cf.AssertOp)
    def run_assert(
        self, interpreter: Interpreter, op: cf.AssertOp, args: PythonValues
    ) -> PythonValues:
        if not args[0]:
            raise InterpretationError(f"cf.assert failed: {op.msg.data}")
        return ()
