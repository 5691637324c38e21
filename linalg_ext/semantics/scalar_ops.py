"""`arith` and `math` ops with MLIR's semantics, for the interpreter.

xDSL 0.74 runs only part of `arith` (no `divf`, `negf`, `maxsi`, casts such
as `extf`/`sitofp`, …) and three `math` ops, and computes f16/f32 arithmetic
in double precision. These functions, registered over xDSL's own, cover the
rest: float results are rounded to the result type after every op (as
compiled code does), integers wrap at their width and keep xDSL's convention
of signed Python ints, and the unsigned ops reinterpret their operands.
Float ops also accept tensor and memref operands (elementwise, a new value).

Every op here, and those of xDSL's `arith` functions we keep (`addi`,
`cmpf`, `select`, ...), also takes vectors (`vector_ops.lanewise`): lane by
lane with the scalar semantics, or, for the float ops numpy computes
exactly as a scalar op does (`WHOLE_VECTOR_OPS`), on whole vectors.
"""

from __future__ import annotations

import math
import struct
from collections.abc import Callable
from typing import Any

import numpy as np
from xdsl.dialects import arith
from xdsl.dialects import math as math_dialect
from xdsl.dialects.builtin import (
    AnyFloat,
    Float16Type,
    Float32Type,
    Float64Type,
    IndexType,
    IntegerType,
    ShapedType,
)
from xdsl.interpreter import (
    Interpreter,
    InterpreterFunctions,
    PythonValues,
    impl,
    register_impls,
)
from xdsl.interpreters.arith import ArithFunctions
from xdsl.interpreters.shaped_array import ShapedArray
from xdsl.ir import Attribute, Operation
from xdsl.utils.comparisons import to_signed, to_unsigned
from xdsl.utils.exceptions import InterpretationError

from linalg_ext.compat.arith_ops import RemFOp
from linalg_ext.semantics.arrays import numpy_view, shaped_array
from linalg_ext.semantics.structured.arith_arrays import fpowi
from linalg_ext.semantics.vector_ops import fused_multiply_add, lanewise
from linalg_ext.shaped import element_type_or_self

_FLOAT_DTYPES: dict[type[Attribute], np.dtype] = {
    Float16Type: np.dtype(np.float16),
    Float32Type: np.dtype(np.float32),
    Float64Type: np.dtype(np.float64),
}


def _element_type(type_: Attribute) -> Attribute:
    return element_type_or_self(type_)


def _float_dtype(op: Operation, type_: Attribute) -> np.dtype:
    element = _element_type(type_)
    dtype = _FLOAT_DTYPES.get(type(element))
    if dtype is None:
        raise InterpretationError(f"'{op.name}' on {element} is not supported")
    return dtype


def _width(interpreter: Interpreter, type_: Attribute) -> int:
    element = _element_type(type_)
    if isinstance(element, IndexType):
        return interpreter.index_bitwidth
    if isinstance(element, IntegerType):
        return element.width.data
    raise InterpretationError(f"expected an integer type, got {element}")


def _float_operands(op: Operation, args: PythonValues, dtype: np.dtype) -> list[Any]:
    return [
        numpy_view(a).astype(dtype) if isinstance(a, ShapedArray) else dtype.type(a)
        for a in args
    ]


def _float_result(op: Operation, value: Any) -> Any:
    """Rounded to the result type: a Python float, or a new shaped value."""
    result_type = op.results[0].type
    dtype = _float_dtype(op, result_type)
    if isinstance(result_type, ShapedType):
        return shaped_array(np.asarray(value, dtype=dtype), _element_type(result_type))
    with np.errstate(over="ignore"):  # a finite value too large is inf
        return float(dtype.type(value))


def _float_function(numpy_function: Callable[..., Any]):
    def run(self, interpreter: Interpreter, op: Operation, args: PythonValues):
        dtype = _float_dtype(op, op.operands[0].type)
        with np.errstate(all="ignore"):
            value = numpy_function(*_float_operands(op, args, dtype))
        return (_float_result(op, value),)

    return run


def _round_half_away(x: Any) -> Any:
    """math.round: halves away from zero. `floor(|x| + 0.5)` would round
    0.49999997 up (the sum rounds to 1.0), so compare the fraction instead,
    which is exact."""
    magnitude = np.abs(x)
    whole = np.floor(magnitude)
    rounded = whole + (magnitude - whole >= 0.5)
    return np.copysign(rounded, x)


def _erf(x: Any) -> Any:
    return np.vectorize(math.erf, otypes=[np.float64])(x)


FLOAT_FUNCTIONS: dict[type[Operation], Callable[..., Any]] = {
    arith.AddfOp: np.add,
    arith.SubfOp: np.subtract,
    arith.MulfOp: np.multiply,
    arith.DivfOp: np.divide,
    arith.NegfOp: np.negative,
    arith.MaxnumfOp: np.fmax,
    arith.MinnumfOp: np.fmin,
    RemFOp: np.fmod,  # C's fmod, as LLVM's frem: exact, the dividend's sign
    math_dialect.AbsFOp: np.abs,
    math_dialect.CeilOp: np.ceil,
    math_dialect.FloorOp: np.floor,
    math_dialect.RoundOp: _round_half_away,
    math_dialect.RoundEvenOp: np.rint,
    math_dialect.TruncOp: np.trunc,
    math_dialect.SqrtOp: np.sqrt,
    math_dialect.RsqrtOp: lambda x: 1 / np.sqrt(x),
    math_dialect.CbrtOp: np.cbrt,
    math_dialect.ExpOp: np.exp,
    math_dialect.Exp2Op: np.exp2,
    math_dialect.ExpM1Op: np.expm1,
    math_dialect.LogOp: np.log,
    math_dialect.Log2Op: np.log2,
    math_dialect.Log10Op: np.log10,
    math_dialect.Log1pOp: np.log1p,
    math_dialect.SinOp: np.sin,
    math_dialect.CosOp: np.cos,
    math_dialect.TanOp: np.tan,
    math_dialect.SinhOp: np.sinh,
    math_dialect.CoshOp: np.cosh,
    math_dialect.TanhOp: np.tanh,
    math_dialect.AsinOp: np.arcsin,
    math_dialect.AcosOp: np.arccos,
    math_dialect.AtanOp: np.arctan,
    math_dialect.AsinhOp: np.arcsinh,
    math_dialect.AcoshOp: np.arccosh,
    math_dialect.AtanhOp: np.arctanh,
    math_dialect.ErfOp: _erf,
    math_dialect.PowFOp: np.power,
    math_dialect.Atan2Op: np.arctan2,
    math_dialect.CopySignOp: np.copysign,
    math_dialect.FmaOp: fused_multiply_add,  # one rounding, as llvm.intr.fma
}
"""Float ops computed by a numpy function of the operands, in their type."""


def _integer_function(signed: bool, function: Callable[[int, int], int]):
    """A binary integer op on the operands read as signed or unsigned."""

    def run(self, interpreter: Interpreter, op: Operation, args: PythonValues):
        width = _width(interpreter, op.results[0].type)
        convert = to_signed if signed else to_unsigned
        lhs, rhs = (convert(a, width) for a in args)
        if signed and rhs == -1 and lhs == -(1 << (width - 1)) and op.name in DIVISIONS:
            raise InterpretationError(division_overflow_message(op.name, lhs))
        return (to_signed(function(lhs, rhs), width),)

    return run


def division_by_zero_message(op_name: str) -> str:
    """What the interpreter says of an integer division or remainder by 0."""
    return f"'{op_name}' divides by zero"


def division_overflow_message(op_name: str, lhs: int | str) -> str:
    """What the interpreter says of a signed division or remainder of the
    minimum value by -1 (undefined in MLIR; LLVM's `sdiv`/`srem` trap)."""
    return f"'{op_name}' of {lhs} by -1 overflows"


def _checked_division(op_name: str, function: Callable[[int, int], int]):
    def divide(lhs: int, rhs: int) -> int:
        if rhs == 0:
            raise InterpretationError(division_by_zero_message(op_name))
        return function(lhs, rhs)

    return divide


def _ceil_div(lhs: int, rhs: int) -> int:
    return -((-lhs) // rhs)


def _trunc_div(lhs: int, rhs: int) -> int:
    quotient = abs(lhs) // abs(rhs)
    return quotient if (lhs >= 0) == (rhs >= 0) else -quotient


INTEGER_FUNCTIONS: dict[type[Operation], tuple[bool, Callable[[int, int], int]]] = {
    arith.DivUIOp: (False, _checked_division("arith.divui", lambda a, b: a // b)),
    arith.DivSIOp: (True, _checked_division("arith.divsi", _trunc_div)),
    arith.CeilDivSIOp: (True, _checked_division("arith.ceildivsi", _ceil_div)),
    arith.CeilDivUIOp: (False, _checked_division("arith.ceildivui", _ceil_div)),
    arith.RemUIOp: (False, _checked_division("arith.remui", lambda a, b: a % b)),
    arith.RemSIOp: (
        True,
        _checked_division("arith.remsi", lambda a, b: a - _trunc_div(a, b) * b),
    ),
    arith.FloorDivSIOp: (
        True,
        _checked_division("arith.floordivsi", lambda a, b: a // b),
    ),
    arith.MinSIOp: (True, min),
    arith.MaxSIOp: (True, max),
    arith.MinUIOp: (False, min),
    arith.MaxUIOp: (False, max),
    arith.ShRUIOp: (False, lambda a, b: a >> b),
}
"""Binary integer ops: (operands read as signed?, function)."""

DIVISIONS = frozenset(
    op.name
    for op in (
        arith.DivUIOp,
        arith.DivSIOp,
        arith.CeilDivSIOp,
        arith.CeilDivUIOp,
        arith.FloorDivSIOp,
        arith.RemUIOp,
        arith.RemSIOp,
    )
)
"""The integer divisions and remainders: undefined on a zero divisor and,
signed, on the minimum value divided by -1; both are errors here."""


def _to_float(self, interpreter: Interpreter, op: Operation, args: PythonValues):
    """extf, truncf, sitofp, uitofp: convert, then round to the result type."""
    (value,) = args
    if isinstance(op, arith.UIToFPOp):
        value = to_unsigned(value, _width(interpreter, op.operands[0].type))
    elif isinstance(op, arith.SIToFPOp):
        # An i1 true may be held as 1 (numpy booleans) or -1: as signed it is -1.
        value = to_signed(value, _width(interpreter, op.operands[0].type))
    return (_float_result(op, value),)


def _to_integer(self, interpreter: Interpreter, op: Operation, args: PythonValues):
    """fptosi, fptoui: truncate toward zero; out-of-range values wrap."""
    (value,) = args
    if not math.isfinite(value):
        raise InterpretationError(f"'{op.name}' of {value} has no integer value")
    return (to_signed(int(value), _width(interpreter, op.results[0].type)),)


def _resize_integer(self, interpreter: Interpreter, op: Operation, args: PythonValues):
    """extsi, extui, trunci: sign- or zero-extend, or drop high bits."""
    (value,) = args
    source_width = _width(interpreter, op.operands[0].type)
    if isinstance(op, arith.ExtUIOp):
        value = to_unsigned(value, source_width)
    elif isinstance(op, arith.ExtSIOp):
        value = to_signed(value, source_width)
    return (to_signed(value, _width(interpreter, op.results[0].type)),)


def _bitcast(self, interpreter: Interpreter, op: Operation, args: PythonValues):
    """Reinterpret the bits between an integer and a float of one width."""
    (value,) = args
    source, target = op.operands[0].type, op.results[0].type
    if isinstance(source, AnyFloat) == isinstance(target, AnyFloat):
        return (value,)
    float_type = source if isinstance(source, AnyFloat) else target
    assert isinstance(float_type, AnyFloat)  # one of the two is, as checked
    code = {16: "e", 32: "f", 64: "d"}.get(float_type.bitwidth)
    if code is None:
        raise InterpretationError(f"'arith.bitcast' of {float_type} is not supported")
    width = float_type.bitwidth
    integer_code = {16: "H", 32: "I", 64: "Q"}[width]
    if isinstance(source, AnyFloat):
        bits = struct.unpack(integer_code, struct.pack(code, value))[0]
        return (to_signed(bits, width),)
    pattern = struct.pack(integer_code, to_unsigned(value, width))
    return (struct.unpack(code, pattern)[0],)


def _integer_power(base: int, exponent: int) -> int:
    """math.ipowi: a negative exponent gives 0 but for bases 1 and -1."""
    if exponent >= 0:
        return base**exponent
    if base == 0:
        raise InterpretationError("'math.ipowi' raises 0 to a negative power")
    if base == 1:
        return 1
    if base == -1:
        return -1 if exponent % 2 else 1
    return 0


def _unary_integer_function(function: Callable[[int, int], int]):
    """An integer op of one operand, given as `function(unsigned value, width)`."""

    def run(self, interpreter: Interpreter, op: Operation, args: PythonValues):
        width = _width(interpreter, op.results[0].type)
        return (to_signed(function(to_unsigned(args[0], width), width), width),)

    return run


def _count_trailing_zeros(value: int, width: int) -> int:
    return width if value == 0 else (value & -value).bit_length() - 1


INTEGER_UNARY_FUNCTIONS: dict[type[Operation], Callable[[int, int], int]] = {
    math_dialect.AbsIOp: lambda u, w: abs(to_signed(u, w)),
    math_dialect.CtPopOp: lambda u, w: bin(u).count("1"),
    math_dialect.CountLeadingZerosOp: lambda u, w: w - u.bit_length(),
    math_dialect.CountTrailingZerosOp: _count_trailing_zeros,
}
"""Integer ops of one operand: function(operand read as unsigned, width)."""


def _ipowi(self, interpreter: Interpreter, op: Operation, args: PythonValues):
    width = _width(interpreter, op.results[0].type)
    base, exponent = (to_signed(a, width) for a in args)
    return (to_signed(_integer_power(base, exponent), width),)


def _fpowi(self, interpreter: Interpreter, op: Operation, args: PythonValues):
    base, exponent = args
    dtype = _float_dtype(op, op.operands[0].type)
    exponent = to_signed(exponent, _width(interpreter, op.operands[1].type))
    value = fpowi(np.asarray(base, dtype=dtype), np.asarray(exponent))
    return (_float_result(op, value),)


WHOLE_VECTOR_OPS: frozenset[type[Operation]] = frozenset(
    (
        arith.AddfOp,
        arith.SubfOp,
        arith.MulfOp,
        arith.DivfOp,
        arith.NegfOp,
        arith.MaxnumfOp,
        arith.MinnumfOp,
        RemFOp,
        math_dialect.AbsFOp,
        math_dialect.CeilOp,
        math_dialect.FloorOp,
        math_dialect.RoundOp,
        math_dialect.RoundEvenOp,
        math_dialect.TruncOp,
        math_dialect.SqrtOp,
        math_dialect.CopySignOp,
        math_dialect.FmaOp,
    )
)
"""The float ops whose numpy function gives every element exactly the
scalar result (correctly rounded, or exact): on vectors they run on the whole
vector at once. The others (`math.exp`, ...) run lane by lane, so that a
vector lane is never computed by a different (vectorised) numpy loop than a
scalar."""

_XDSL_ARITH = ArithFunctions()

XDSL_ARITH_OPS: dict[type[Operation], Callable[..., Any]] = {
    arith.AddiOp: _XDSL_ARITH.run_addi,
    arith.SubiOp: _XDSL_ARITH.run_subi,
    arith.MuliOp: _XDSL_ARITH.run_muli,
    arith.AndIOp: _XDSL_ARITH.run_andi,
    arith.OrIOp: _XDSL_ARITH.run_ori,
    arith.XOrIOp: _XDSL_ARITH.run_xori,
    arith.ShLIOp: _XDSL_ARITH.run_shlsi,
    arith.ShRSIOp: _XDSL_ARITH.run_shrsi,
    arith.MaximumfOp: _XDSL_ARITH.run_maximumf,
    arith.MinimumfOp: _XDSL_ARITH.run_minimumf,
    arith.CmpiOp: _XDSL_ARITH.run_cmpi,
    arith.CmpfOp: _XDSL_ARITH.run_cmpf,
    arith.SelectOp: _XDSL_ARITH.run_select,
    arith.IndexCastOp: _XDSL_ARITH.run_indexcast,
}
"""The `arith` ops xDSL's own functions run right on scalars: registered
here again, extended to vectors lane by lane."""


def _xdsl_function(run: Callable[..., Any]):
    def run_scalar(self, interpreter: Interpreter, op: Operation, args: PythonValues):
        return run(interpreter, op, args).values

    return run_scalar


def _method(op_type: type[Operation], function: Callable[..., Any]):
    return impl(op_type)(lanewise(function))


def _build() -> type[InterpreterFunctions]:
    namespace: dict[str, Any] = {"__doc__": __doc__, "__module__": __name__}
    for op_type, numpy_function in FLOAT_FUNCTIONS.items():
        namespace[f"run_{op_type.name}"] = impl(op_type)(
            lanewise(
                _float_function(numpy_function),
                whole_vectors=op_type in WHOLE_VECTOR_OPS,
            )
        )
    for op_type, run in XDSL_ARITH_OPS.items():
        namespace[f"run_{op_type.name}"] = _method(op_type, _xdsl_function(run))
    for op_type, (signed, function) in INTEGER_FUNCTIONS.items():
        namespace[f"run_{op_type.name}"] = _method(
            op_type, _integer_function(signed, function)
        )
    for op_type in (arith.ExtFOp, arith.TruncFOp, arith.SIToFPOp, arith.UIToFPOp):
        namespace[f"run_{op_type.name}"] = _method(op_type, _to_float)
    for op_type in (arith.FPToSIOp, arith.FPToUIOp):
        namespace[f"run_{op_type.name}"] = _method(op_type, _to_integer)
    for op_type in (arith.ExtSIOp, arith.ExtUIOp, arith.TruncIOp):
        namespace[f"run_{op_type.name}"] = _method(op_type, _resize_integer)
    namespace["run_bitcast"] = _method(arith.BitcastOp, _bitcast)
    for op_type, function in INTEGER_UNARY_FUNCTIONS.items():
        namespace[f"run_{op_type.name}"] = _method(
            op_type, _unary_integer_function(function)
        )
    namespace["run_ipowi"] = _method(math_dialect.IPowIOp, _ipowi)
    namespace["run_fpowi"] = _method(math_dialect.FPowIOp, _fpowi)
    return register_impls(type("ScalarOpFunctions", (InterpreterFunctions,), namespace))


ScalarOpFunctions = _build()
