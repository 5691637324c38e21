"""The `index` dialect's ops (`linalg_ext.compat.index_ops`) for the interpreter.

Values are signed Python ints of the interpreter's index width (xDSL's
convention); the unsigned ops read their operands as unsigned. Division by
zero, and the cases upstream leaves undefined (a signed division of the
minimum value by -1, a shift by the width or more), are errors.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from xdsl.dialects.builtin import IndexType, IntegerType
from xdsl.interpreter import (
    Interpreter,
    InterpreterFunctions,
    PythonValues,
    impl,
    register_impls,
)
from xdsl.ir import Attribute, Operation
from xdsl.utils.comparisons import to_signed, to_unsigned
from xdsl.utils.exceptions import InterpretationError

from linalg_ext.compat import index_ops as index


def _trunc_div(lhs: int, rhs: int) -> int:
    quotient = abs(lhs) // abs(rhs)
    return quotient if (lhs >= 0) == (rhs >= 0) else -quotient


def _ceil_div(lhs: int, rhs: int) -> int:
    return -((-lhs) // rhs)


BINARY: dict[type[Operation], tuple[bool, Callable[[int, int], int]]] = {
    index.AddOp: (True, lambda a, b: a + b),
    index.SubOp: (True, lambda a, b: a - b),
    index.MulOp: (True, lambda a, b: a * b),
    index.DivSOp: (True, _trunc_div),
    index.DivUOp: (False, lambda a, b: a // b),
    index.CeilDivSOp: (True, _ceil_div),
    index.CeilDivUOp: (False, _ceil_div),
    index.FloorDivSOp: (True, lambda a, b: a // b),
    index.RemSOp: (True, lambda a, b: a - _trunc_div(a, b) * b),
    index.RemUOp: (False, lambda a, b: a % b),
    index.MaxSOp: (True, max),
    index.MaxUOp: (False, max),
    index.MinSOp: (True, min),
    index.MinUOp: (False, min),
    index.ShlOp: (False, lambda a, b: a << b),
    index.ShrSOp: (True, lambda a, b: a >> b),
    index.ShrUOp: (False, lambda a, b: a >> b),
    index.AndOp: (False, lambda a, b: a & b),
    index.OrOp: (False, lambda a, b: a | b),
    index.XOrOp: (False, lambda a, b: a ^ b),
}
"""(operands read as signed?, function) of every binary op."""

DIVISIONS = (
    index.DivSOp,
    index.DivUOp,
    index.CeilDivSOp,
    index.CeilDivUOp,
    index.FloorDivSOp,
    index.RemSOp,
    index.RemUOp,
)
SHIFTS = (index.ShlOp, index.ShrSOp, index.ShrUOp)

COMPARISONS: dict[str, tuple[bool, Callable[[int, int], bool]]] = {
    "eq": (True, lambda a, b: a == b),
    "ne": (True, lambda a, b: a != b),
    "slt": (True, lambda a, b: a < b),
    "sle": (True, lambda a, b: a <= b),
    "sgt": (True, lambda a, b: a > b),
    "sge": (True, lambda a, b: a >= b),
    "ult": (False, lambda a, b: a < b),
    "ule": (False, lambda a, b: a <= b),
    "ugt": (False, lambda a, b: a > b),
    "uge": (False, lambda a, b: a >= b),
}


def _width(interpreter: Interpreter, type_: Attribute) -> int:
    if isinstance(type_, IndexType):
        return interpreter.index_bitwidth
    assert isinstance(type_, IntegerType)
    return type_.width.data


def _run_binary(
    self: Any, interpreter: Interpreter, op: Operation, args: PythonValues
) -> PythonValues:
    width = interpreter.index_bitwidth
    signed, function = BINARY[type(op)]
    convert = to_signed if signed else to_unsigned
    lhs, rhs = (convert(a, width) for a in args)
    if isinstance(op, DIVISIONS) and rhs == 0:
        raise InterpretationError(f"'{op.name}' divides by zero")
    if (
        isinstance(op, DIVISIONS)
        and signed
        and rhs == -1
        and lhs == -(1 << (width - 1))
    ):
        raise InterpretationError(f"'{op.name}' of {lhs} by -1 overflows")
    if isinstance(op, SHIFTS) and not 0 <= to_unsigned(args[1], width) < width:
        raise InterpretationError(f"'{op.name}' shifts by {args[1]} bits")
    return (to_signed(function(lhs, rhs), width),)


def _build() -> type[InterpreterFunctions]:
    namespace: dict[str, Any] = {"__doc__": __doc__, "__module__": __name__}
    for op_type in BINARY:
        # A function per op: `impl` marks the function object itself.
        def run(self: Any, interpreter: Interpreter, op: Operation, args: PythonValues):
            return _run_binary(self, interpreter, op, args)

        namespace[f"run_{op_type.name}"] = impl(op_type)(run)
    return type("IndexBinaryFunctions", (InterpreterFunctions,), namespace)


@register_impls
class IndexFunctions(_build()):
    """Every op of the `index` dialect."""

    @impl(index.CmpOp)
    def run_cmp(self, interpreter: Interpreter, op: index.CmpOp, args: PythonValues):
        signed, function = COMPARISONS[op.pred.data.value]
        convert = to_signed if signed else to_unsigned
        lhs, rhs = (convert(a, interpreter.index_bitwidth) for a in args)
        return (1 if function(lhs, rhs) else 0,)

    @impl(index.ConstantOp)
    def run_constant(
        self, interpreter: Interpreter, op: index.ConstantOp, args: PythonValues
    ):
        return (to_signed(op.value.value.data, interpreter.index_bitwidth),)

    @impl(index.BoolConstantOp)
    def run_bool_constant(
        self, interpreter: Interpreter, op: index.BoolConstantOp, args: PythonValues
    ):
        return (1 if op.value.value.data else 0,)

    @impl(index.CastSOp)
    def run_casts(
        self, interpreter: Interpreter, op: index.CastSOp, args: PythonValues
    ):
        source = _width(interpreter, op.input.type)
        target = _width(interpreter, op.output.type)
        return (to_signed(to_signed(args[0], source), target),)

    @impl(index.CastUOp)
    def run_castu(
        self, interpreter: Interpreter, op: index.CastUOp, args: PythonValues
    ):
        source = _width(interpreter, op.input.type)
        target = _width(interpreter, op.output.type)
        return (to_signed(to_unsigned(args[0], source), target),)

    @impl(index.SizeOfOp)
    def run_sizeof(
        self, interpreter: Interpreter, op: index.SizeOfOp, args: PythonValues
    ):
        return (interpreter.index_bitwidth,)
