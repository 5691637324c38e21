"""`arith` ops xDSL 0.74 does not run: those with two results, and
`arith.index_castui` (which `linalg_ext.compat` adds).

- `arith.addui_extended`: the sum (wrapped) and whether the unsigned sum
  overflowed;
- `arith.mulsi_extended`, `arith.mului_extended`: the low and the high half
  of the product in twice the width, of the operands read as signed or
  unsigned.

- `arith.index_castui`: the operand read as unsigned, zero-extended or
  truncated to the result's width.

Values follow xDSL's convention: signed Python ints of the type's width.
"""

from __future__ import annotations

from xdsl.dialects import arith
from xdsl.dialects.builtin import IndexType, IntegerType
from xdsl.interpreter import (
    Interpreter,
    InterpreterFunctions,
    PythonValues,
    impl,
    register_impls,
)
from xdsl.ir import Attribute
from xdsl.utils.comparisons import to_signed, to_unsigned

from linalg_ext.compat.arith_ops import IndexCastUIOp


def _width(interpreter: Interpreter, type_: Attribute) -> int:
    if isinstance(type_, IndexType):
        return interpreter.index_bitwidth
    assert isinstance(type_, IntegerType)
    return type_.width.data


@register_impls
class ExtendedArithFunctions(InterpreterFunctions):
    @impl(arith.AddUIExtendedOp)
    def run_addui_extended(
        self, interpreter: Interpreter, op: arith.AddUIExtendedOp, args: PythonValues
    ) -> PythonValues:
        width = _width(interpreter, op.sum.type)
        total = sum(to_unsigned(a, width) for a in args)
        return (to_signed(total, width), 1 if total >> width else 0)

    def _multiply(
        self,
        interpreter: Interpreter,
        op: arith.MulSIExtendedOp | arith.MulUIExtendedOp,
        args: PythonValues,
        signed: bool,
    ) -> PythonValues:
        width = _width(interpreter, op.low.type)
        convert = to_signed if signed else to_unsigned
        product = convert(args[0], width) * convert(args[1], width)
        return (to_signed(product, width), to_signed(product >> width, width))

    @impl(arith.MulSIExtendedOp)
    def run_mulsi_extended(
        self, interpreter: Interpreter, op: arith.MulSIExtendedOp, args: PythonValues
    ) -> PythonValues:
        return self._multiply(interpreter, op, args, signed=True)

    @impl(arith.MulUIExtendedOp)
    def run_mului_extended(
        self, interpreter: Interpreter, op: arith.MulUIExtendedOp, args: PythonValues
    ) -> PythonValues:
        return self._multiply(interpreter, op, args, signed=False)

    @impl(IndexCastUIOp)
    def run_index_castui(
        self, interpreter: Interpreter, op: IndexCastUIOp, args: PythonValues
    ) -> PythonValues:
        unsigned = to_unsigned(args[0], _width(interpreter, op.input.type))
        return (to_signed(unsigned, _width(interpreter, op.result.type)),)
