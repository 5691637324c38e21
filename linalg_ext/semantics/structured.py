"""Execution of Linalg structured ops: `linalg.generic` and the named ops.

Replaces xDSL's functions for them (registered with override=True in
`linalg_ext.running`). xDSL runs a structured op by interpreting its body once
per point of the iteration space (half a minute for one elementwise op on a
1024x1024 tensor), and writes every result of a multi-result generic into the
first output.

Here a body is translated once into numpy operations over whole arrays
(`_compile_body`); docs/interpreter.md describes which bodies qualify and how
the op is then run:

- over the whole iteration space at once (cut into chunks to bound memory),
  when every output is either computed pointwise, or folded over its reduction
  loops with one associative combiner (`acc = addf(acc, f(...))`, ...), or
  simply overwritten;
- one reduction step at a time, vectorised over the loops all outputs share,
  when the body is translatable but combines its accumulators in other ways
  (an argmax, an online softmax);
- point by point on the interpreter otherwise, in the loops' lexicographic
  order, which is the definition.

Named ops with a fixed meaning (matmul, convolutions, transpose, ...) are
computed with numpy directly; `linalg.reduce` goes through the same machinery
as `linalg.generic`.

Values keep xDSL's representation (a `ShapedArray` over a bytearray, read and
written through `numpy_view`). Tensor results are new values; memref outputs
are written in place.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import product
from typing import Any

import numpy as np
from xdsl.dialects.builtin import (
    Float16Type,
    Float32Type,
    Float64Type,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    ShapedType,
    TensorType,
)
from xdsl.dialects.linalg import ops as linalg
from xdsl.interpreter import (
    Interpreter,
    InterpreterFunctions,
    PythonValues,
    ReturnedValues,
    impl,
    impl_terminator,
    register_impls,
)
from xdsl.interpreters.shaped_array import ShapedArray
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineDimExpr,
    AffineExpr,
    AffineMap,
)
from xdsl.utils.exceptions import InterpretationError

from linalg_ext.semantics.arrays import numpy_view, shaped_array

# Whole-space evaluation materialises arrays as large as the iteration space
# (a broadcast product, say). Past this many points the space is cut into
# chunks along a loop every output keeps, so temporaries stay in the tens of MB.
CHUNK_POINTS = 1 << 22


class _NotVectorisable(Exception):
    """The body uses an op or a type the numpy translation does not cover."""


# --------------------------------------------------------------------------
# Scalar types as numpy computes them
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class _Scalar:
    """How values of one scalar MLIR type are held during numpy evaluation."""

    kind: str
    """"float", "int", or "bool" for i1."""
    dtype: np.dtype[Any]
    """The dtype of the values while computing (i1 is bool, stored as int8)."""
    width: int

    @property
    def unsigned(self) -> np.dtype[Any]:
        return np.dtype(f"uint{self.width}")


_FLOAT_DTYPES = {
    Float16Type: np.float16,
    Float32Type: np.float32,
    Float64Type: np.float64,
}


def _scalar(type_: Attribute, index_bitwidth: int) -> _Scalar:
    if isinstance(type_, IndexType):
        return _Scalar("int", np.dtype(f"int{index_bitwidth}"), index_bitwidth)
    if isinstance(type_, IntegerType):
        width = type_.width.data
        if width == 1:
            return _Scalar("bool", np.dtype(np.bool_), 1)
        if width in (8, 16, 32, 64):
            return _Scalar("int", np.dtype(f"int{width}"), width)
    float_dtype = _FLOAT_DTYPES.get(type(type_))
    if float_dtype is not None:
        dtype = np.dtype(float_dtype)
        return _Scalar("float", dtype, dtype.itemsize * 8)
    raise _NotVectorisable(f"values of type {type_}")


def _element_type(type_: Attribute) -> Attribute:
    return type_.get_element_type() if isinstance(type_, ShapedType) else type_


def _wrap_int(value: int, width: int) -> int:
    """`value` modulo 2**width, as a signed number (MLIR's wraparound)."""
    half = 1 << (width - 1)
    return ((value + half) % (1 << width)) - half


def _to_compute(stored: np.ndarray, scalar: _Scalar) -> np.ndarray:
    """Stored elements as computed with: i1 is stored as int8, computed as bool."""
    return stored != 0 if scalar.kind == "bool" else stored


def _constant_array(value: Any, scalar: _Scalar, ndim: int) -> np.ndarray:
    if scalar.kind == "bool":
        array = np.array(bool(value))
    elif scalar.kind == "int":
        array = np.array(_wrap_int(int(value), scalar.width), dtype=scalar.dtype)
    else:
        array = np.array(value, dtype=scalar.dtype)
    return array.reshape((1,) * ndim)


# --------------------------------------------------------------------------
# The meaning of arith and math ops on numpy arrays
# --------------------------------------------------------------------------
# Every function takes and returns arrays of the compute dtype of its MLIR
# types, so numpy's own arithmetic gives MLIR's: integers wrap around, floats
# round to their own precision after each op.


def _as_signed(values: np.ndarray, scalar: _Scalar) -> np.ndarray:
    """Integer values as signed numbers: an i1 true is -1."""
    if scalar.kind == "bool":
        return -(values.astype(np.int8))
    return values


def _as_unsigned(values: np.ndarray, scalar: _Scalar) -> np.ndarray:
    if scalar.kind == "bool":
        return values.astype(np.uint8)
    return values.astype(scalar.unsigned)


def _wrap_to(values: np.ndarray, target: _Scalar) -> np.ndarray:
    """Integers of any width converted to `target` by truncation."""
    if target.kind == "bool":
        return (values & 1).astype(np.bool_)
    return values.astype(target.dtype)


def _float_to_int(values: np.ndarray, target: _Scalar, signed: bool) -> np.ndarray:
    # Out-of-range values are poison in MLIR; numpy's result is as good as any.
    if target.kind == "bool":
        return (values.astype(np.int64) & 1).astype(np.bool_)
    if signed:
        return values.astype(target.dtype)
    return values.astype(target.unsigned).astype(target.dtype)


def _cast_signed(values: np.ndarray, source: _Scalar, target: _Scalar) -> np.ndarray:
    """Linalg's `cast_signed` type function, used by the named ops."""
    if source == target:
        return values
    if source.kind == "float":
        if target.kind == "float":
            return values.astype(target.dtype)
        return _float_to_int(values, target, signed=True)
    if target.kind == "float":
        return _as_signed(values, source).astype(target.dtype)
    return _wrap_to(_as_signed(values, source), target)


def _maximumf(lhs: np.ndarray, rhs: np.ndarray) -> np.ndarray:
    result = np.maximum(lhs, rhs)
    # arith.maximumf orders -0.0 below +0.0; np.maximum returns either zero.
    zero = result == 0
    if zero.any():
        result = np.where(zero & (lhs == 0) & (rhs == 0), lhs + rhs, result)
    return result


def _minimumf(lhs: np.ndarray, rhs: np.ndarray) -> np.ndarray:
    result = np.minimum(lhs, rhs)
    zero = result == 0
    if zero.any():
        result = np.where(zero & (lhs == 0) & (rhs == 0), -((-lhs) + (-rhs)), result)
    return result


def _round_half_away(values: np.ndarray) -> np.ndarray:
    """math.round: halfway cases away from zero (np.round goes to even)."""
    truncated = np.trunc(values)
    return np.where(
        np.abs(values - truncated) >= 0.5, truncated + np.sign(values), truncated
    )


def _exact_fma(lhs: float, rhs: float, addend: float) -> float:
    return float(Fraction(lhs) * Fraction(rhs) + Fraction(addend))


def _fma(lhs: np.ndarray, rhs: np.ndarray, addend: np.ndarray) -> np.ndarray:
    # f16 and f32 products are exact in f64, so this rounds once but for the
    # rare double rounding of the sum. f64 has no wider numpy type: compute
    # exactly with rationals (slow, but fma in an f64 body is rare).
    if lhs.dtype == np.float64:
        exact = np.frompyfunc(_exact_fma, 3, 1)(lhs, rhs, addend)
        return np.asarray(exact, dtype=np.float64)
    return (lhs.astype(np.float64) * rhs + addend).astype(lhs.dtype)


def _erf(values: np.ndarray) -> np.ndarray:
    return np.frompyfunc(math.erf, 1, 1)(values).astype(values.dtype)


_FLOAT_BINARY: dict[str, Callable[[np.ndarray, np.ndarray], np.ndarray]] = {
    "arith.addf": np.add,
    "arith.subf": np.subtract,
    "arith.mulf": np.multiply,
    "arith.divf": np.divide,
    "arith.remf": np.fmod,
    "arith.maximumf": _maximumf,
    "arith.minimumf": _minimumf,
    "arith.maxnumf": np.fmax,
    "arith.minnumf": np.fmin,
    "math.powf": np.power,
    "math.atan2": np.arctan2,
    "math.copysign": np.copysign,
}

_FLOAT_UNARY: dict[str, Callable[[np.ndarray], np.ndarray]] = {
    "arith.negf": np.negative,
    "math.absf": np.abs,
    "math.ceil": np.ceil,
    "math.floor": np.floor,
    "math.trunc": np.trunc,
    "math.round": _round_half_away,
    "math.roundeven": np.rint,
    "math.exp": np.exp,
    "math.exp2": np.exp2,
    "math.expm1": np.expm1,
    "math.log": np.log,
    "math.log2": np.log2,
    "math.log10": np.log10,
    "math.log1p": np.log1p,
    "math.sqrt": np.sqrt,
    "math.rsqrt": lambda values: 1 / np.sqrt(values),
    "math.cbrt": np.cbrt,
    "math.sin": np.sin,
    "math.cos": np.cos,
    "math.tan": np.tan,
    "math.asin": np.arcsin,
    "math.acos": np.arccos,
    "math.atan": np.arctan,
    "math.sinh": np.sinh,
    "math.cosh": np.cosh,
    "math.tanh": np.tanh,
    "math.asinh": np.arcsinh,
    "math.acosh": np.arccosh,
    "math.atanh": np.arctanh,
    "math.erf": _erf,
}

_FLOAT_TESTS: dict[str, Callable[[np.ndarray], np.ndarray]] = {
    "math.isnan": np.isnan,
    "math.isinf": np.isinf,
    "math.isfinite": np.isfinite,
}


def _divsi(lhs: np.ndarray, rhs: np.ndarray, scalar: _Scalar) -> np.ndarray:
    quotient = np.floor_divide(lhs, rhs)
    # MLIR rounds toward zero: inexact quotients of opposite signs go up by one.
    return quotient + ((quotient * rhs != lhs) & ((lhs < 0) != (rhs < 0)))


def _ceildivsi(lhs: np.ndarray, rhs: np.ndarray, scalar: _Scalar) -> np.ndarray:
    quotient = np.floor_divide(lhs, rhs)
    return quotient + (quotient * rhs != lhs)


def _unsigned_op(
    operation: Callable[[np.ndarray, np.ndarray], np.ndarray],
) -> Callable[[np.ndarray, np.ndarray, _Scalar], np.ndarray]:
    def run(lhs: np.ndarray, rhs: np.ndarray, scalar: _Scalar) -> np.ndarray:
        result = operation(_as_unsigned(lhs, scalar), _as_unsigned(rhs, scalar))
        return result.astype(scalar.dtype)

    return run


def _ceildivui(lhs: np.ndarray, rhs: np.ndarray) -> np.ndarray:
    quotient = lhs // rhs
    return quotient + (quotient * rhs != lhs)


def _signed_op(
    operation: Callable[[np.ndarray, np.ndarray], np.ndarray],
) -> Callable[[np.ndarray, np.ndarray, _Scalar], np.ndarray]:
    return lambda lhs, rhs, scalar: operation(lhs, rhs)


def _modular_op(
    operation: Callable[[np.ndarray, np.ndarray], np.ndarray],
    on_bool: Callable[[np.ndarray, np.ndarray], np.ndarray],
) -> Callable[[np.ndarray, np.ndarray, _Scalar], np.ndarray]:
    """Addition-like ops; on i1 (modulo 2) they are logical ops."""

    def run(lhs: np.ndarray, rhs: np.ndarray, scalar: _Scalar) -> np.ndarray:
        if scalar.kind == "bool":
            return on_bool(lhs, rhs)
        return operation(lhs, rhs)

    return run


# name -> (function, accepts i1, divides)
_INT_BINARY: dict[
    str, tuple[Callable[[np.ndarray, np.ndarray, _Scalar], np.ndarray], bool, bool]
] = {
    "arith.addi": (_modular_op(np.add, np.logical_xor), True, False),
    "arith.subi": (_modular_op(np.subtract, np.logical_xor), True, False),
    "arith.muli": (_modular_op(np.multiply, np.logical_and), True, False),
    "arith.andi": (_signed_op(np.bitwise_and), True, False),
    "arith.ori": (_signed_op(np.bitwise_or), True, False),
    "arith.xori": (_signed_op(np.bitwise_xor), True, False),
    "arith.divsi": (_divsi, False, True),
    "arith.remsi": (_signed_op(np.fmod), False, True),
    "arith.floordivsi": (_signed_op(np.floor_divide), False, True),
    "arith.ceildivsi": (_ceildivsi, False, True),
    "arith.divui": (_unsigned_op(np.floor_divide), False, True),
    "arith.remui": (_unsigned_op(np.remainder), False, True),
    "arith.ceildivui": (_unsigned_op(_ceildivui), False, True),
    "arith.maxsi": (_signed_op(np.maximum), False, False),
    "arith.minsi": (_signed_op(np.minimum), False, False),
    "arith.maxui": (_unsigned_op(np.maximum), False, False),
    "arith.minui": (_unsigned_op(np.minimum), False, False),
    "arith.shli": (_signed_op(np.left_shift), False, False),
    "arith.shrsi": (_signed_op(np.right_shift), False, False),
    "arith.shrui": (_unsigned_op(np.right_shift), False, False),
}

_CMPI: dict[int, tuple[Callable[[np.ndarray, np.ndarray], np.ndarray], bool]] = {
    # predicate -> (comparison, compares as unsigned)
    0: (np.equal, False),
    1: (np.not_equal, False),
    2: (np.less, False),
    3: (np.less_equal, False),
    4: (np.greater, False),
    5: (np.greater_equal, False),
    6: (np.less, True),
    7: (np.less_equal, True),
    8: (np.greater, True),
    9: (np.greater_equal, True),
}


def _cmpi(predicate: int, lhs: np.ndarray, rhs: np.ndarray, scalar: _Scalar):
    compare, unsigned = _CMPI[predicate]
    if unsigned:
        return compare(_as_unsigned(lhs, scalar), _as_unsigned(rhs, scalar))
    return compare(_as_signed(lhs, scalar), _as_signed(rhs, scalar))


def _cmpf(predicate: int, lhs: np.ndarray, rhs: np.ndarray) -> np.ndarray:
    # numpy's comparisons are the ordered ones (false on NaN) except !=, which
    # is the unordered one; each unordered predicate negates an ordered one.
    match predicate:
        case 0 | 15:
            return np.full(np.broadcast_shapes(lhs.shape, rhs.shape), predicate == 15)
        case 1:
            return lhs == rhs
        case 2:
            return lhs > rhs
        case 3:
            return lhs >= rhs
        case 4:
            return lhs < rhs
        case 5:
            return lhs <= rhs
        case 6:
            return (lhs < rhs) | (lhs > rhs)
        case 7:
            return ~(np.isnan(lhs) | np.isnan(rhs))
        case 8:
            return ~((lhs < rhs) | (lhs > rhs))
        case 9:
            return ~(lhs <= rhs)
        case 10:
            return ~(lhs < rhs)
        case 11:
            return ~(lhs >= rhs)
        case 12:
            return ~(lhs > rhs)
        case 13:
            return lhs != rhs
        case 14:
            return np.isnan(lhs) | np.isnan(rhs)
    raise _NotVectorisable(f"arith.cmpf predicate {predicate}")


def _convert(name: str, values: np.ndarray, source: _Scalar, target: _Scalar):
    """The arith cast ops."""
    match name:
        case "arith.extf" | "arith.truncf":
            return values.astype(target.dtype)
        case "arith.sitofp":
            return _as_signed(values, source).astype(target.dtype)
        case "arith.uitofp":
            return _as_unsigned(values, source).astype(target.dtype)
        case "arith.fptosi":
            return _float_to_int(values, target, signed=True)
        case "arith.fptoui":
            return _float_to_int(values, target, signed=False)
        case "arith.extsi" | "arith.index_cast" | "arith.trunci":
            return _wrap_to(_as_signed(values, source), target)
        case "arith.extui" | "arith.index_castui":
            return _wrap_to(_as_unsigned(values, source), target)
        case "arith.bitcast":
            return values.view(target.dtype)
    raise _NotVectorisable(name)


_CASTS = {
    "arith.extf": ("float", "float"),
    "arith.truncf": ("float", "float"),
    "arith.sitofp": ("integer", "float"),
    "arith.uitofp": ("integer", "float"),
    "arith.fptosi": ("float", "integer"),
    "arith.fptoui": ("float", "integer"),
    "arith.extsi": ("integer", "integer"),
    "arith.extui": ("integer", "integer"),
    "arith.trunci": ("integer", "integer"),
    "arith.index_cast": ("integer", "integer"),
    "arith.index_castui": ("integer", "integer"),
    "arith.bitcast": ("number", "number"),
}


def _is(scalar: _Scalar, category: str) -> bool:
    match category:
        case "float":
            return scalar.kind == "float"
        case "integer":
            return scalar.kind in ("int", "bool")
    # bitcast: same width, no i1 (numpy cannot view bools as bits)
    return scalar.kind != "bool"


# --------------------------------------------------------------------------
# Translating a body into numpy
# --------------------------------------------------------------------------

_Box = tuple[tuple[int, int], ...]
"""A part of the iteration space: (start, stop) for each loop."""

_Evaluate = Callable[[Sequence[np.ndarray], _Box], np.ndarray]


def _loop_indices(box: _Box, dim: int) -> np.ndarray:
    """The values of loop `dim` over `box`, along axis `dim`."""
    start, stop = box[dim]
    shape = [1] * len(box)
    shape[dim] = stop - start
    return np.arange(start, stop, dtype=np.int64).reshape(shape)


@dataclass(frozen=True)
class _BodyContext:
    ndim: int
    index_bitwidth: int

    def scalar(self, value: SSAValue) -> _Scalar:
        return self.scalar_of(value.type)

    def scalar_of(self, type_: Attribute) -> _Scalar:
        return _scalar(type_, self.index_bitwidth)


def _same_types(op: Operation, context: _BodyContext) -> _Scalar:
    """The one scalar type of an op's operands and result."""
    scalars = {context.scalar(v) for v in (*op.operands, *op.results)}
    if len(scalars) != 1:
        raise _NotVectorisable(f"{op.name} on mixed types")
    return scalars.pop()


def _build_float_binary(op: Operation, context: _BodyContext) -> _Evaluate:
    if _same_types(op, context).kind != "float":
        raise _NotVectorisable(f"{op.name} on non-floats")
    function = _FLOAT_BINARY[op.name]
    return lambda args, box: function(args[0], args[1])


def _build_float_unary(op: Operation, context: _BodyContext) -> _Evaluate:
    if _same_types(op, context).kind != "float":
        raise _NotVectorisable(f"{op.name} on non-floats")
    function = _FLOAT_UNARY[op.name]
    return lambda args, box: function(args[0])


def _build_float_test(op: Operation, context: _BodyContext) -> _Evaluate:
    if context.scalar(op.operands[0]).kind != "float":
        raise _NotVectorisable(f"{op.name} on non-floats")
    function = _FLOAT_TESTS[op.name]
    return lambda args, box: function(args[0])


def _build_fma(op: Operation, context: _BodyContext) -> _Evaluate:
    if _same_types(op, context).kind != "float":
        raise _NotVectorisable(f"{op.name} on non-floats")
    return lambda args, box: _fma(args[0], args[1], args[2])


def _build_int_binary(op: Operation, context: _BodyContext) -> _Evaluate:
    scalar = _same_types(op, context)
    function, accepts_bool, divides = _INT_BINARY[op.name]
    if scalar.kind == "float" or (scalar.kind == "bool" and not accepts_bool):
        raise _NotVectorisable(f"{op.name} on {scalar.dtype}")
    if not divides:
        return lambda args, box: function(args[0], args[1], scalar)
    name = op.name

    def divide(args: Sequence[np.ndarray], box: _Box) -> np.ndarray:
        if np.any(args[1] == 0):
            raise InterpretationError(f"{name}: division by zero")
        return function(args[0], args[1], scalar)

    return divide


def _build_absi(op: Operation, context: _BodyContext) -> _Evaluate:
    if _same_types(op, context).kind != "int":
        raise _NotVectorisable("math.absi on this type")
    return lambda args, box: np.abs(args[0])


def _build_cmpi(op: Operation, context: _BodyContext) -> _Evaluate:
    scalar = context.scalar(op.operands[0])
    predicate = op.predicate.value.data  # pyright: ignore[reportAttributeAccessIssue]
    if scalar.kind == "float" or predicate not in _CMPI:
        raise _NotVectorisable(f"arith.cmpi predicate {predicate}")
    return lambda args, box: _cmpi(predicate, args[0], args[1], scalar)


def _build_cmpf(op: Operation, context: _BodyContext) -> _Evaluate:
    if context.scalar(op.operands[0]).kind != "float":
        raise _NotVectorisable("arith.cmpf on non-floats")
    predicate = op.predicate.value.data  # pyright: ignore[reportAttributeAccessIssue]
    return lambda args, box: _cmpf(predicate, args[0], args[1])


def _build_select(op: Operation, context: _BodyContext) -> _Evaluate:
    if context.scalar(op.operands[0]).kind != "bool":
        raise _NotVectorisable("arith.select on a non-i1 condition")
    context.scalar(op.results[0])
    return lambda args, box: np.where(args[0], args[1], args[2])


def _build_cast(op: Operation, context: _BodyContext) -> _Evaluate:
    source = context.scalar(op.operands[0])
    target = context.scalar(op.results[0])
    source_category, target_category = _CASTS[op.name]
    if not (_is(source, source_category) and _is(target, target_category)):
        raise _NotVectorisable(f"{op.name} from {source.dtype} to {target.dtype}")
    if op.name == "arith.bitcast" and source.width != target.width:
        raise _NotVectorisable("arith.bitcast between widths")
    name = op.name
    return lambda args, box: _convert(name, args[0], source, target)


def _build_constant(op: Operation, context: _BodyContext) -> _Evaluate:
    attribute = op.value  # pyright: ignore[reportAttributeAccessIssue]
    if not isinstance(attribute, IntegerAttr | FloatAttr):
        raise _NotVectorisable(f"arith.constant {attribute}")
    constant = _constant_array(
        attribute.value.data, context.scalar(op.results[0]), context.ndim
    )
    return lambda args, box: constant


def _build_index(op: Operation, context: _BodyContext) -> _Evaluate:
    dim = op.dim.value.data  # pyright: ignore[reportAttributeAccessIssue]
    if not 0 <= dim < context.ndim:
        raise _NotVectorisable(f"linalg.index {dim} of {context.ndim} loops")
    return lambda args, box: _loop_indices(box, dim)


def _build_extract(op: Operation, context: _BodyContext) -> _Evaluate:
    # Reads a tensor defined outside the body at computed indices (a gather).
    source_type = op.operands[0].type
    if not isinstance(source_type, TensorType):
        raise _NotVectorisable("tensor.extract from a non-tensor")
    context.scalar_of(source_type.get_element_type())
    for index in op.operands[1:]:
        context.scalar(index)

    def extract(args: Sequence[np.ndarray], box: _Box) -> np.ndarray:
        source, indices = args[0], args[1:]
        for axis, (index, size) in enumerate(zip(indices, source.shape, strict=True)):
            if np.any(index < 0) or np.any(index >= size):
                raise InterpretationError(
                    f"tensor.extract: index {int(np.max(index))} or "
                    f"{int(np.min(index))} out of bounds for dimension {axis} "
                    f"of size {size}"
                )
        if not indices:
            return source.reshape((1,) * context.ndim)
        return source[tuple(indices)]

    return extract


_BUILDERS: dict[str, Callable[[Operation, _BodyContext], _Evaluate]] = {
    **dict.fromkeys(_FLOAT_BINARY, _build_float_binary),
    **dict.fromkeys(_FLOAT_UNARY, _build_float_unary),
    **dict.fromkeys(_FLOAT_TESTS, _build_float_test),
    **dict.fromkeys(_INT_BINARY, _build_int_binary),
    **dict.fromkeys(_CASTS, _build_cast),
    "math.fma": _build_fma,
    "math.absi": _build_absi,
    "arith.cmpi": _build_cmpi,
    "arith.cmpf": _build_cmpf,
    "arith.select": _build_select,
    "arith.constant": _build_constant,
    "linalg.index": _build_index,
    "tensor.extract": _build_extract,
}


@dataclass
class _Step:
    result: SSAValue
    operands: tuple[SSAValue, ...]
    evaluate: _Evaluate
    dtype: np.dtype[Any]


@dataclass
class _CompiledBody:
    """A body as numpy functions over arrays spanning a box of the loops.

    Every value is an array with one axis per loop, of the box's extent along
    the loops it depends on and of extent 1 along the others.
    """

    arguments: tuple[SSAValue, ...]
    steps: list[_Step]
    yielded: tuple[SSAValue, ...]
    captured: dict[SSAValue, Attribute]
    """Values the body uses from outside, with their types."""
    producers: dict[SSAValue, int] = field(default_factory=dict)
    _needed: dict[tuple[SSAValue, ...], tuple[list[_Step], set[SSAValue]]] = field(
        default_factory=dict
    )

    def needed(
        self, targets: tuple[SSAValue, ...]
    ) -> tuple[list[_Step], set[SSAValue]]:
        """The steps computing `targets`, in order, and the leaves they read."""
        if targets not in self._needed:
            wanted: set[int] = set()
            leaves: set[SSAValue] = set()
            pending = list(targets)
            while pending:
                value = pending.pop()
                position = self.producers.get(value)
                if position is None:
                    leaves.add(value)
                elif position not in wanted:
                    wanted.add(position)
                    pending.extend(self.steps[position].operands)
            steps = [self.steps[i] for i in sorted(wanted)]
            self._needed[targets] = (steps, leaves)
        return self._needed[targets]

    def evaluate(
        self,
        targets: tuple[SSAValue, ...],
        leaf: Callable[[SSAValue], np.ndarray],
        box: _Box,
    ) -> list[np.ndarray]:
        steps, leaves = self.needed(targets)
        values = {value: leaf(value) for value in leaves}
        for step in steps:
            result = step.evaluate([values[v] for v in step.operands], box)
            if result.dtype != step.dtype:
                result = result.astype(step.dtype)
            values[step.result] = result
        return [values[t] for t in targets]


def _compile_body(block: Block, context: _BodyContext) -> _CompiledBody:
    defined: set[SSAValue] = set(block.args)
    captured: dict[SSAValue, Attribute] = {}
    steps: list[_Step] = []
    terminator = block.last_op
    if not isinstance(terminator, linalg.YieldOp):
        raise _NotVectorisable("a body not ended by linalg.yield")
    for arg in block.args:
        context.scalar(arg)
    for op in block.ops:
        if op is terminator:
            break
        builder = _BUILDERS.get(op.name)
        if builder is None or len(op.results) != 1 or op.regions:
            raise _NotVectorisable(op.name)
        for operand in op.operands:
            if operand not in defined and operand not in captured:
                captured[operand] = operand.type
        steps.append(
            _Step(
                op.results[0],
                tuple(op.operands),
                builder(op, context),
                context.scalar(op.results[0]).dtype,
            )
        )
        defined.add(op.results[0])
    for value in terminator.operands:
        if value not in defined and value not in captured:
            captured[value] = value.type
    for type_ in captured.values():
        if not isinstance(type_, TensorType):
            context.scalar_of(type_)
    return _CompiledBody(
        arguments=tuple(block.args),
        steps=steps,
        yielded=tuple(terminator.operands),
        captured=captured,
        producers={step.result: i for i, step in enumerate(steps)},
    )


# --------------------------------------------------------------------------
# Folding over reduction loops
# --------------------------------------------------------------------------


def _reduce_extremum(
    function: np.ufunc, keep_positive_zero: bool
) -> Callable[[np.ndarray, tuple[int, ...]], np.ndarray]:
    """maximumf/minimumf over axes, with -0.0 ordered below +0.0."""

    def reduce(values: np.ndarray, axes: tuple[int, ...]) -> np.ndarray:
        result = function.reduce(values, axis=axes, keepdims=True)
        zero = result == 0
        if zero.any():
            signs = np.signbit(values)
            wanted = ~signs if keep_positive_zero else signs
            found = np.any((values == 0) & wanted, axis=axes, keepdims=True)
            other = -0.0 if keep_positive_zero else 0.0
            first = 0.0 if keep_positive_zero else -0.0
            replacement = np.where(found, first, other).astype(result.dtype)
            result = np.where(zero, replacement, result)
        return result

    return reduce


def _reduce_ufunc(
    function: np.ufunc,
) -> Callable[[np.ndarray, tuple[int, ...]], np.ndarray]:
    # dtype= keeps small integers from being summed as int64: they wrap.
    return lambda values, axes: function.reduce(
        values, axis=axes, keepdims=True, dtype=values.dtype
    )


@dataclass(frozen=True)
class _Combiner:
    """An associative, commutative op an accumulator can be folded with."""

    combine: Callable[[np.ndarray, np.ndarray], np.ndarray]
    reduce: Callable[[np.ndarray, tuple[int, ...]], np.ndarray]
    idempotent: bool
    """Combining a value with itself gives it back: broadcasts need no expanding."""
    kinds: tuple[str, ...]
    unsigned: bool = False


_COMBINERS: dict[str, _Combiner] = {
    "arith.addf": _Combiner(np.add, _reduce_ufunc(np.add), False, ("float",)),
    "arith.mulf": _Combiner(np.multiply, _reduce_ufunc(np.multiply), False, ("float",)),
    "arith.maximumf": _Combiner(
        _maximumf, _reduce_extremum(np.maximum, True), True, ("float",)
    ),
    "arith.minimumf": _Combiner(
        _minimumf, _reduce_extremum(np.minimum, False), True, ("float",)
    ),
    "arith.maxnumf": _Combiner(np.fmax, _reduce_ufunc(np.fmax), True, ("float",)),
    "arith.minnumf": _Combiner(np.fmin, _reduce_ufunc(np.fmin), True, ("float",)),
    "arith.addi": _Combiner(np.add, _reduce_ufunc(np.add), False, ("int",)),
    "arith.muli": _Combiner(np.multiply, _reduce_ufunc(np.multiply), False, ("int",)),
    "arith.andi": _Combiner(
        np.bitwise_and, _reduce_ufunc(np.bitwise_and), True, ("int", "bool")
    ),
    "arith.ori": _Combiner(
        np.bitwise_or, _reduce_ufunc(np.bitwise_or), True, ("int", "bool")
    ),
    "arith.xori": _Combiner(
        np.bitwise_xor, _reduce_ufunc(np.bitwise_xor), False, ("int", "bool")
    ),
    "arith.maxsi": _Combiner(np.maximum, _reduce_ufunc(np.maximum), True, ("int",)),
    "arith.minsi": _Combiner(np.minimum, _reduce_ufunc(np.minimum), True, ("int",)),
    "arith.maxui": _Combiner(
        np.maximum, _reduce_ufunc(np.maximum), True, ("int",), unsigned=True
    ),
    "arith.minui": _Combiner(
        np.minimum, _reduce_ufunc(np.minimum), True, ("int",), unsigned=True
    ),
}


def _fold(
    combiner: _Combiner,
    scalar: _Scalar,
    initial: np.ndarray,
    values: np.ndarray,
    axes: tuple[int, ...],
    box: _Box,
) -> np.ndarray:
    """`initial` combined with every element of `values` along `axes`."""
    if combiner.unsigned:
        initial, values = (
            initial.astype(scalar.unsigned),
            values.astype(scalar.unsigned),
        )
    if combiner.idempotent:
        # A value repeated along a loop it does not depend on folds to itself.
        axes = tuple(axis for axis in axes if values.shape[axis] != 1)
    else:
        shape = list(values.shape)
        for axis in axes:
            shape[axis] = box[axis][1] - box[axis][0]
        values = np.broadcast_to(values, shape)
    if axes:
        values = combiner.reduce(values, axes)
    return combiner.combine(initial, values).astype(scalar.dtype)


_EINSUM_LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"


def _contract(
    lhs: np.ndarray, rhs: np.ndarray, axes: tuple[int, ...], box: _Box
) -> np.ndarray | None:
    """The sum over `axes` of `lhs * rhs` without forming the product, or None
    when a summed loop is in neither factor (the sum would be a multiple)."""
    ndim = len(box)
    lhs_axes = [a for a in range(ndim) if lhs.shape[a] != 1]
    rhs_axes = [a for a in range(ndim) if rhs.shape[a] != 1]
    present = set(lhs_axes) | set(rhs_axes)
    if any(box[a][1] - box[a][0] != 1 and a not in present for a in axes):
        return None
    kept = [a for a in range(ndim) if a in present and a not in axes]

    def letters(axes_: list[int]) -> str:
        return "".join(_EINSUM_LETTERS[a] for a in axes_)

    result = np.einsum(
        f"{letters(lhs_axes)},{letters(rhs_axes)}->{letters(kept)}",
        lhs.reshape([lhs.shape[a] for a in lhs_axes]),
        rhs.reshape([rhs.shape[a] for a in rhs_axes]),
        optimize=True,
    )
    shape = [max(lhs.shape[a], rhs.shape[a]) if a in kept else 1 for a in range(ndim)]
    return np.asarray(result).reshape(shape)


# --------------------------------------------------------------------------
# Planning: how each output of a body is computed
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class _OutputPlan:
    kind: str
    """
    - "pointwise": each element is written once (the map uses every loop);
    - "unchanged": the body yields the accumulator itself;
    - "last": each element is overwritten by a value not depending on it, so
      the value of the last iteration over the reduction loops wins;
    - "fold": `combiner(accumulator, term)`, term not depending on it;
    - "contract": a fold by addition of `lhs * rhs`, summed by einsum.
    """
    dims: tuple[int, ...]
    """The loops the output's indexing map reads, in its order."""
    reduced: tuple[int, ...]
    """The loops it does not use, which it is folded over."""
    value: SSAValue | None = None
    combiner: _Combiner | None = None
    factors: tuple[SSAValue, SSAValue] | None = None


@dataclass
class _Plan:
    body: _CompiledBody | None
    """None: the body runs on the interpreter, point by point."""
    reason: str = ""
    outputs: list[_OutputPlan] | None = None
    """Set when every output can be computed over the whole space at once."""
    shared_dims: tuple[int, ...] = ()
    """Loops every output's map uses."""


def _output_dims(indexing_map: AffineMap) -> tuple[int, ...] | None:
    """The loops of an output map that is a projected permutation, else None."""
    dims = []
    for result in indexing_map.results:
        if not isinstance(result, AffineDimExpr) or result.position in dims:
            return None
        dims.append(result.position)
    return tuple(dims)


def _dependencies(
    body: _CompiledBody, num_inputs: int
) -> dict[SSAValue, frozenset[int]]:
    """For each value, the outputs whose accumulator it is computed from."""
    depends: dict[SSAValue, frozenset[int]] = {}
    for position, arg in enumerate(body.arguments):
        output = position - num_inputs
        depends[arg] = frozenset((output,) if output >= 0 else ())
    for value in body.captured:
        depends[value] = frozenset()
    for step in body.steps:
        depends[step.result] = frozenset().union(*(depends[v] for v in step.operands))
    return depends


def _make_plan(
    block: Block,
    maps: Sequence[AffineMap],
    num_inputs: int,
    context: _BodyContext,
) -> _Plan:
    output_dims = [_output_dims(m) for m in maps[num_inputs:]]
    if any(dims is None for dims in output_dims):
        return _Plan(None, "an output indexing map is not a projected permutation")
    try:
        body = _compile_body(block, context)
    except _NotVectorisable as error:
        return _Plan(None, f"the body uses {error}")

    all_dims = range(context.ndim)
    shared = tuple(d for d in all_dims if all(d in dims for dims in output_dims))
    depends = _dependencies(body, num_inputs)
    reduced = [
        tuple(d for d in all_dims if d not in dims)  # pyright: ignore[reportOperatorIssue]
        for dims in output_dims
    ]
    folded = frozenset(o for o, axes in enumerate(reduced) if axes)

    def independent(value: SSAValue) -> bool:
        return not depends[value] & folded

    outputs: list[_OutputPlan] = []
    for index, (dims, axes, value) in enumerate(
        zip(output_dims, reduced, body.yielded, strict=True)
    ):
        assert dims is not None
        accumulator = body.arguments[num_inputs + index]
        if not axes:
            if not independent(value):
                break
            outputs.append(_OutputPlan("pointwise", dims, axes, value))
        elif value is accumulator:
            outputs.append(_OutputPlan("unchanged", dims, axes))
        elif independent(value):
            outputs.append(_OutputPlan("last", dims, axes, value))
        elif (
            fold := _fold_plan(body, depends, folded, accumulator, value)
        ) is not None:
            combiner, term, factors = fold
            if context.scalar(accumulator).kind not in combiner.kinds:
                break
            kind = "contract" if factors else "fold"
            outputs.append(_OutputPlan(kind, dims, axes, term, combiner, factors))
        else:
            break
    else:
        return _Plan(body, outputs=outputs, shared_dims=shared)
    return _Plan(
        body,
        "an accumulator is combined in a way that is not one associative op",
        shared_dims=shared,
    )


def _fold_plan(
    body: _CompiledBody,
    depends: dict[SSAValue, frozenset[int]],
    folded: frozenset[int],
    accumulator: SSAValue,
    value: SSAValue,
) -> tuple[_Combiner, SSAValue, tuple[SSAValue, SSAValue] | None] | None:
    """For `value = combiner(accumulator, term)`: the combiner, the term, and
    the term's two factors when it is a product summed by addition."""
    position = body.producers.get(value)
    if position is None:
        return None
    step = body.steps[position]
    op = value.owner
    assert isinstance(op, Operation)
    combiner = _COMBINERS.get(op.name)
    if combiner is None or len(step.operands) != 2:
        return None
    lhs, rhs = step.operands
    if lhs is accumulator and not depends[rhs] & folded:
        term = rhs
    elif rhs is accumulator and not depends[lhs] & folded:
        term = lhs
    else:
        return None
    factors = None
    term_position = body.producers.get(term)
    if op.name in ("arith.addf", "arith.addi") and term_position is not None:
        term_op = term.owner
        assert isinstance(term_op, Operation)
        if (
            term_op.name
            == {"arith.addf": "arith.mulf", "arith.addi": "arith.muli"}[op.name]
        ):
            left, right = body.steps[term_position].operands
            factors = (left, right)
    return combiner, term, factors


# --------------------------------------------------------------------------
# Running a structured computation
# --------------------------------------------------------------------------


@dataclass
class StructuredComputation:
    """A structured op reduced to what running it needs: its operand values
    and types, one indexing map per operand, and a body taking one element of
    each operand and yielding one per output.

    Ops that are not `LinalgStructuredOperation`s (`linalg.reduce`, say, or a
    `linalg.map`) describe themselves this way and call `run_structured`."""

    op: Operation
    inputs: Sequence[Any]
    input_types: Sequence[Attribute]
    outputs: Sequence[Any]
    output_types: Sequence[Attribute]
    maps: Sequence[AffineMap]
    block: Block
    returns_tensors: bool

    @property
    def name(self) -> str:
        return self.op.name


def _affine_values(expr: AffineExpr, box: _Box, name: str) -> np.ndarray | int:
    """An indexing map result evaluated over `box` (broadcast over the loops)."""
    if isinstance(expr, AffineConstantExpr):
        return expr.value
    if isinstance(expr, AffineDimExpr):
        return _loop_indices(box, expr.position)
    if isinstance(expr, AffineBinaryOpExpr):
        lhs = _affine_values(expr.lhs, box, name)
        rhs = _affine_values(expr.rhs, box, name)
        match expr.kind:
            case AffineBinaryOpKind.Add:
                return lhs + rhs
            case AffineBinaryOpKind.Mul:
                return lhs * rhs
        if np.any(np.asarray(rhs) <= 0):
            raise InterpretationError(
                f"{name}: indexing map divides by a non-positive value in {expr}"
            )
        match expr.kind:
            case AffineBinaryOpKind.Mod:
                return lhs % rhs
            case AffineBinaryOpKind.FloorDiv:
                return lhs // rhs
            case AffineBinaryOpKind.CeilDiv:
                return -((-lhs) // rhs)
    raise InterpretationError(f"{name}: indexing maps with symbols are not supported")


def _loop_ranges(
    name: str, maps: Sequence[AffineMap], shapes: Sequence[Sequence[int]]
) -> tuple[int, ...]:
    """The extent of each loop, read off the runtime shapes of the operands
    (so dynamic shapes work), after checking the operands agree on it."""
    ndim = maps[0].num_dims if maps else 0
    ranges: list[int | None] = [None] * ndim
    for index, (indexing_map, shape) in enumerate(zip(maps, shapes, strict=True)):
        if len(indexing_map.results) != len(shape):
            raise InterpretationError(
                f"{name}: operand #{index} has rank {len(shape)} but its "
                f"indexing map has {len(indexing_map.results)} results"
            )
        for result, size in zip(indexing_map.results, shape, strict=True):
            if isinstance(result, AffineDimExpr) and ranges[result.position] is None:
                ranges[result.position] = size
    if None in ranges:
        raise InterpretationError(
            f"{name}: loop d{ranges.index(None)} is not the size of any operand "
            "dimension, so its range is unknown"
        )
    loop_ranges = tuple(r for r in ranges if r is not None)
    for index, (indexing_map, shape) in enumerate(zip(maps, shapes, strict=True)):
        for dim, (result, size) in enumerate(
            zip(indexing_map.results, shape, strict=True)
        ):
            if isinstance(result, AffineDimExpr):
                if size != loop_ranges[result.position]:
                    raise InterpretationError(
                        f"{name}: operand #{index} has size {size} in dimension "
                        f"{dim}, but loop d{result.position} runs "
                        f"{loop_ranges[result.position]} times"
                    )
            elif math.prod(loop_ranges):
                values = _affine_values(result, _full_box(loop_ranges), name)
                low, high = int(np.min(values)), int(np.max(values))
                if low < 0 or high >= size:
                    raise InterpretationError(
                        f"{name}: operand #{index} is accessed at indices "
                        f"{low}..{high} in dimension {dim}, of size {size}"
                    )
    return loop_ranges


def _full_box(ranges: Sequence[int]) -> _Box:
    return tuple((0, r) for r in ranges)


def _load(stored: Any, indexing_map: AffineMap, box: _Box, name: str) -> np.ndarray:
    """An operand's elements at every point of `box`, one axis per loop."""
    ndim = len(box)
    if not isinstance(stored, np.ndarray):
        raise InterpretationError(f"{name}: scalar operand where an array is expected")
    results = indexing_map.results
    if all(isinstance(r, AffineDimExpr | AffineConstantExpr) for r in results):
        dims = [r.position for r in results if isinstance(r, AffineDimExpr)]
        if len(set(dims)) == len(dims):
            # A view: slices for loops, fixed indices for constants, then the
            # axes put in loop order with unit axes for the loops not used.
            # The trailing Ellipsis keeps a rank-0 selection an array.
            index = (
                *(
                    slice(*box[r.position]) if isinstance(r, AffineDimExpr) else r.value
                    for r in results
                ),
                Ellipsis,
            )
            view = stored[index]
            order = sorted(range(len(dims)), key=dims.__getitem__)
            view = view.transpose(order)
            missing = tuple(d for d in range(ndim) if d not in dims)
            return np.expand_dims(view, missing) if missing else view
    indices = [_affine_values(r, box, name) for r in results]
    if not indices:
        return stored.reshape((1,) * ndim)
    gathered = stored[tuple(indices)]
    return np.asarray(gathered).reshape(
        np.broadcast_shapes(*(np.shape(i) for i in indices), (1,) * ndim)
    )


def _store(
    stored: np.ndarray, dims: tuple[int, ...], values: np.ndarray, box: _Box
) -> None:
    """Write `values` (one axis per loop, unit along the loops not in `dims`)
    into the output whose indexing map is the projection onto `dims`."""
    kept = sorted(dims)
    values = values.reshape([values.shape[d] for d in kept])
    values = values.transpose([kept.index(d) for d in dims])
    stored[tuple(slice(*box[d]) for d in dims)] = values


class _Run:
    """One execution of a computation: operand arrays, loop ranges, the plan."""

    def __init__(
        self,
        interpreter: Interpreter,
        computation: StructuredComputation,
        plan: _Plan,
        arrays: list[Any],
        ranges: tuple[int, ...],
    ):
        self.computation = computation
        self.plan = plan
        self.arrays = arrays
        self.ranges = ranges
        self.num_inputs = len(computation.inputs)
        body = plan.body
        assert body is not None
        self.body = body
        context = _BodyContext(len(ranges), interpreter.index_bitwidth)
        self.scalars = [context.scalar(arg) for arg in body.arguments]
        self.positions = {arg: i for i, arg in enumerate(body.arguments)}
        self.captured: dict[SSAValue, np.ndarray] = {}
        for value, type_ in body.captured.items():
            (python_value,) = interpreter.get_values((value,))
            if isinstance(type_, TensorType):
                scalar = context.scalar_of(type_.get_element_type())
                self.captured[value] = _to_compute(numpy_view(python_value), scalar)
            else:
                self.captured[value] = _constant_array(
                    python_value, context.scalar_of(type_), len(ranges)
                )

    def leaves(self, box: _Box) -> Callable[[SSAValue], np.ndarray]:
        """The body's arguments and captured values over `box`."""

        def leaf(value: SSAValue) -> np.ndarray:
            position = self.positions.get(value)
            if position is None:
                return self.captured[value]
            array = self.arrays[position]
            scalar = self.scalars[position]
            if not isinstance(array, np.ndarray):
                return _constant_array(array, scalar, len(box))
            loaded = _load(
                array, self.computation.maps[position], box, self.computation.name
            )
            return _to_compute(loaded, scalar)

        return leaf

    def write(self, finals: list[tuple[int, np.ndarray]], box: _Box) -> None:
        """Store every output's values only once all are computed: a value may
        be a view of another output, as in a body yielding its arguments."""
        outputs = self.arrays[self.num_inputs :]
        safe = []
        for index, values in finals:
            if any(np.may_share_memory(values, out) for out in outputs):
                values = values.copy()
            safe.append((index, values))
        for index, values in safe:
            dims = _output_dims(self.computation.maps[self.num_inputs + index])
            assert dims is not None
            _store(outputs[index], dims, values, box)

    def whole_space(self) -> None:
        outputs = self.plan.outputs
        assert outputs is not None
        for box in self._chunks():
            self.write(self._finals(outputs, box), box)

    def _finals(
        self, outputs: list[_OutputPlan], box: _Box
    ) -> list[tuple[int, np.ndarray]]:
        leaf = self.leaves(box)
        cache: dict[SSAValue, np.ndarray] = {}

        def values(*wanted: SSAValue) -> list[np.ndarray]:
            missing = tuple(v for v in wanted if v not in cache)
            if missing:
                computed = self.body.evaluate(
                    missing, lambda v: cache[v] if v in cache else leaf(v), box
                )
                cache.update(zip(missing, computed, strict=True))
            return [cache[v] for v in wanted]

        finals: list[tuple[int, np.ndarray]] = []
        for index, output in enumerate(outputs):
            position = self.num_inputs + index
            scalar = self.scalars[position]
            axes = output.reduced
            if output.kind == "unchanged":
                continue
            assert output.value is not None
            if output.kind == "pointwise":
                (result,) = values(output.value)
            elif output.kind == "last":
                (result,) = values(output.value)
                last = tuple(
                    slice(-1, None)
                    if d in axes and result.shape[d] != 1
                    else slice(None)
                    for d in range(len(box))
                )
                result = result[last]
            else:
                combiner = output.combiner
                assert combiner is not None
                (initial,) = values(self.body.arguments[position])
                result = None
                if output.factors is not None:
                    lhs, rhs = values(*output.factors)
                    summed = _contract(lhs, rhs, axes, box)
                    if summed is not None:
                        result = combiner.combine(initial, summed).astype(scalar.dtype)
                if result is None:
                    (term,) = values(output.value)
                    result = _fold(combiner, scalar, initial, term, axes, box)
            finals.append((index, result))
        return finals

    def _chunks(self) -> Iterator[_Box]:
        full = _full_box(self.ranges)
        total = math.prod(self.ranges)
        shared = self.plan.shared_dims
        if total <= CHUNK_POINTS or not shared:
            yield full
            return
        dim = max(shared, key=lambda d: self.ranges[d])
        per_index = total // self.ranges[dim]
        length = max(1, CHUNK_POINTS // per_index)
        for start in range(0, self.ranges[dim], length):
            box = list(full)
            box[dim] = (start, min(start + length, self.ranges[dim]))
            yield tuple(box)

    def stepwise(self) -> None:
        """One step per point of the loops some output folds over, in
        lexicographic order, each vectorised over the loops all outputs use.

        An element of an output sees the same sequence of updates as in the
        loop nest: the points updating it differ only in the stepped loops."""
        shared = self.plan.shared_dims
        stepped = [d for d in range(len(self.ranges)) if d not in shared]
        yielded = self.body.yielded
        for point in product(*(range(self.ranges[d]) for d in stepped)):
            box = list(_full_box(self.ranges))
            for dim, value in zip(stepped, point, strict=True):
                box[dim] = (value, value + 1)
            step_box = tuple(box)
            results = self.body.evaluate(yielded, self.leaves(step_box), step_box)
            self.write(list(enumerate(results)), step_box)


def _point_mapper(indexing_map: AffineMap) -> Callable[[tuple[int, ...]], tuple]:
    results = indexing_map.results
    if all(isinstance(r, AffineDimExpr | AffineConstantExpr) for r in results):
        picks = [
            (True, r.position) if isinstance(r, AffineDimExpr) else (False, r.value)
            for r in results
        ]
        return lambda point: tuple(point[v] if is_dim else v for is_dim, v in picks)
    return lambda point: indexing_map.eval(point, ())


def _load_scalar(stored: np.ndarray, index: tuple, is_i1: bool) -> Any:
    value = stored[index].item()
    # xDSL's scalars are signed Python ints, where an i1 true is -1 (as
    # `arith.constant true` gives); memory may hold it as 1 or -1.
    return (-1 if value else 0) if is_i1 else value


def _store_scalar(stored: np.ndarray, index: tuple, value: Any, is_i1: bool) -> None:
    # i1 is stored as 0 or 1, as numpy writes a bool.
    if is_i1:
        stored[index] = 1 if value else 0
    elif stored.dtype.kind == "i":
        stored[index] = _wrap_int(int(value), stored.dtype.itemsize * 8)
    else:
        stored[index] = value


def _run_on_interpreter(
    interpreter: Interpreter,
    computation: StructuredComputation,
    arrays: list[Any],
    ranges: tuple[int, ...],
) -> None:
    """The definition: the body once per point, in lexicographic order."""
    mappers = [_point_mapper(m) for m in computation.maps]
    num_inputs = len(computation.inputs)
    operand_types = [*computation.input_types, *computation.output_types]
    is_i1 = [_element_type(t) == IntegerType(1) for t in operand_types]
    region = computation.block.parent
    assert region is not None
    iterations = interpreter.get_data(StructuredOpFunctions, "iteration", dict)
    previous = iterations.get(computation.op)
    try:
        for point in product(*(range(r) for r in ranges)):
            iterations[computation.op] = point
            args = [
                _load_scalar(array, mapper(point), i1)
                if isinstance(array, np.ndarray)
                else array
                for array, mapper, i1 in zip(arrays, mappers, is_i1, strict=True)
            ]
            results = interpreter.run_ssacfg_region(
                region, tuple(args), computation.name
            )
            for index, value in enumerate(results):
                position = num_inputs + index
                _store_scalar(
                    arrays[position],
                    mappers[position](point),
                    value,
                    is_i1[position],
                )
    finally:
        if previous is None:
            iterations.pop(computation.op, None)
        else:
            iterations[computation.op] = previous


def _plan_for(
    interpreter: Interpreter, computation: StructuredComputation, ndim: int
) -> _Plan:
    plans = interpreter.get_data(StructuredOpFunctions, "plans", dict)
    plan = plans.get(computation.op)
    if plan is None:
        context = _BodyContext(ndim, interpreter.index_bitwidth)
        plan = _make_plan(
            computation.block, computation.maps, len(computation.inputs), context
        )
        plans[computation.op] = plan
    return plan


def _output_arrays(
    computation: StructuredComputation,
) -> tuple[list[Any], list[np.ndarray]]:
    """New tensors for tensor results (never the operands), or the memrefs."""
    for index, output in enumerate(computation.outputs):
        if not isinstance(output, ShapedArray):
            raise InterpretationError(
                f"{computation.name}: output #{index} is not a tensor or memref"
            )
    if computation.returns_tensors:
        results: list[Any] = [
            shaped_array(numpy_view(out), _element_type(t))
            for out, t in zip(
                computation.outputs, computation.output_types, strict=True
            )
        ]
        return results, [numpy_view(r) for r in results]
    return [], [numpy_view(out) for out in computation.outputs]


def _aliased(inputs: Sequence[Any], outputs: Sequence[np.ndarray]) -> bool:
    """Whether an output shares memory with another operand (memrefs may): the
    loop nest then reads values it has already written, which whole-array
    evaluation would not."""
    for index, out in enumerate(outputs):
        others = [*inputs, *outputs[:index], *outputs[index + 1 :]]
        if any(
            isinstance(other, np.ndarray) and np.may_share_memory(out, other)
            for other in others
        ):
            return True
    return False


def run_structured(
    interpreter: Interpreter, computation: StructuredComputation
) -> PythonValues:
    """Run `computation`: new tensors for its results, or its memrefs written."""
    results, output_arrays = _output_arrays(computation)
    input_arrays = [
        numpy_view(value) if isinstance(value, ShapedArray) else value
        for value in computation.inputs
    ]
    arrays = [*input_arrays, *output_arrays]
    shapes = [np.shape(a) if isinstance(a, np.ndarray) else () for a in arrays]
    ranges = _loop_ranges(computation.name, computation.maps, shapes)
    if math.prod(ranges):
        plan = _plan_for(interpreter, computation, len(ranges))
        with np.errstate(all="ignore"):
            _execute(interpreter, computation, plan, arrays, ranges, output_arrays)
    return tuple(results)


STRATEGIES = ("whole space", "stepwise", "interpreter")
"""How `_execute` ran a structured computation (docs/interpreter.md)."""


def _execute(
    interpreter: Interpreter,
    computation: StructuredComputation,
    plan: _Plan,
    arrays: list[Any],
    ranges: tuple[int, ...],
    output_arrays: list[np.ndarray],
) -> None:
    inputs = arrays[: len(computation.inputs)]
    if plan.body is None or _aliased(inputs, output_arrays):
        strategy = "interpreter"
    elif plan.outputs is not None:
        strategy = "whole space"
    elif plan.shared_dims:
        strategy = "stepwise"
    else:
        strategy = "interpreter"
    interpreter.get_data(StructuredOpFunctions, "strategies", dict)[computation.op] = (
        strategy
    )
    if strategy == "interpreter":
        _run_on_interpreter(interpreter, computation, arrays, ranges)
        return
    run = _Run(interpreter, computation, plan, arrays, ranges)
    if strategy == "whole space":
        run.whole_space()
    else:
        run.stepwise()


def strategy_used(interpreter: Interpreter, op: Operation) -> str | None:
    """How `op` (a linalg.generic or linalg.reduce) last ran on `interpreter`:
    one of STRATEGIES, or None if it has not run through them."""
    return interpreter.get_data(StructuredOpFunctions, "strategies", dict).get(op)


def _structured_op_computation(
    op: linalg.LinalgStructuredOperation, args: PythonValues
) -> StructuredComputation:
    num_inputs = len(op.inputs)
    return StructuredComputation(
        op=op,
        inputs=args[:num_inputs],
        input_types=[v.type for v in op.inputs],
        outputs=args[num_inputs:],
        output_types=[v.type for v in op.outputs],
        maps=[m.data for m in op.get_indexing_maps()],
        block=op.body.block,
        returns_tensors=bool(op.results),
    )


def output_aliases_operand(op: Operation, args: PythonValues) -> bool:
    """Whether a memref output shares memory with another operand. A named op
    that moves data (transpose) or reduces (matmul, conv) then depends on the
    loop order, which only the interpreter strategy of `run_structured`
    follows; whole-array numpy would read inputs before any write."""
    if op.results:
        return False  # tensors are values: results never alias operands
    num_inputs = len(args) - len(op.outputs)  # pyright: ignore[reportAttributeAccessIssue]
    views = [numpy_view(a) if isinstance(a, ShapedArray) else a for a in args]
    return _aliased(views[:num_inputs], views[num_inputs:])


def run_structured_op(
    interpreter: Interpreter, op: linalg.LinalgStructuredOperation, args: PythonValues
) -> PythonValues:
    """Run any structured op by its indexing maps and body (hidden or not).

    Other modules can register their structured ops to this function."""
    return run_structured(interpreter, _structured_op_computation(op, args))


# --------------------------------------------------------------------------
# Named ops computed directly
# --------------------------------------------------------------------------


def _scalar_of_value(value: SSAValue, interpreter: Interpreter) -> _Scalar:
    return _scalar(_element_type(value.type), interpreter.index_bitwidth)


def _computed_input(
    value: Any, ssa: SSAValue, target: _Scalar, interpreter: Interpreter
) -> np.ndarray:
    """An input's elements converted to the output's type (cast_signed)."""
    source = _scalar_of_value(ssa, interpreter)
    return _cast_signed(_to_compute(numpy_view(value), source), source, target)


def _write_results(
    op: Operation, outputs: Sequence[Any], values: Sequence[np.ndarray]
) -> PythonValues:
    """Results as new tensors, or written into the memrefs."""
    if op.results:
        return tuple(
            shaped_array(v, _element_type(result.type))
            for v, result in zip(values, op.results, strict=True)
        )
    for out, v in zip(outputs, values, strict=True):
        numpy_view(out)[...] = v
    return ()


def _check_same_shape(op: Operation, args: PythonValues) -> None:
    shapes = {tuple(a.shape) for a in args if isinstance(a, ShapedArray)}
    if len(shapes) > 1:
        raise InterpretationError(
            f"{op.name}: operands have different shapes {sorted(shapes)}"
        )


# named op -> (computation for float outputs, for integer outputs)
_NAMED_ELEMENTWISE: dict[type[Operation], tuple[str, str]] = {
    linalg.AddOp: ("arith.addf", "arith.addi"),
    linalg.SubOp: ("arith.subf", "arith.subi"),
    linalg.MulOp: ("arith.mulf", "arith.muli"),
    linalg.MaxOp: ("arith.maximumf", "arith.maxsi"),
    linalg.MinOp: ("arith.minimumf", "arith.minsi"),
    linalg.ExpOp: ("math.exp", ""),
    linalg.LogOp: ("math.log", ""),
    linalg.SqrtOp: ("math.sqrt", ""),
    linalg.CopyOp: ("copy", "copy"),
    linalg.SelectOp: ("select", "select"),
}


def _elementwise(
    interpreter: Interpreter, op: linalg.LinalgStructuredOperation, args: PythonValues
) -> np.ndarray:
    (out,) = op.outputs
    target = _scalar_of_value(out, interpreter)
    float_name, int_name = _NAMED_ELEMENTWISE[type(op)]
    name = float_name if target.kind == "float" else int_name
    inputs = args[: len(op.inputs)]
    if name == "select":
        condition = _to_compute(
            numpy_view(inputs[0]), _Scalar("bool", np.dtype(bool), 1)
        )
        values = [
            _computed_input(v, ssa, target, interpreter)
            for v, ssa in zip(inputs[1:], op.inputs[1:], strict=True)
        ]
        return np.where(condition, values[0], values[1])
    values = [
        _computed_input(v, ssa, target, interpreter)
        for v, ssa in zip(inputs, op.inputs, strict=True)
    ]
    if name == "copy":
        return values[0]
    if name in _FLOAT_BINARY:
        return _FLOAT_BINARY[name](values[0], values[1])
    if name in _FLOAT_UNARY:
        return _FLOAT_UNARY[name](values[0])
    if name in _INT_BINARY and target.kind == "int":
        return _INT_BINARY[name][0](values[0], values[1], target)
    if name in _BOOL_BINARY and target.kind == "bool":
        return _BOOL_BINARY[name](values[0], values[1])
    raise _NotVectorisable(f"{op.name} with {target.dtype} results")


_BOOL_BINARY = {"arith.addi": np.logical_or, "arith.muli": np.logical_and}
"""Upstream builds `add` and `mul` on i1 as `arith.ori` and `arith.andi`
(xDSL's hidden bodies use addi and muli, which wrap: 1 + 1 = 0)."""


def _run_elementwise(
    interpreter: Interpreter, op: linalg.LinalgStructuredOperation, args: PythonValues
) -> PythonValues:
    _check_same_shape(op, args)
    try:
        with np.errstate(all="ignore"):
            values = _elementwise(interpreter, op, args)
    except _NotVectorisable:
        return run_structured_op(interpreter, op, args)
    target = _scalar_of_value(op.outputs[0], interpreter)
    values = np.asarray(values).astype(target.dtype, copy=False)
    return _write_results(op, args[len(op.inputs) :], [values])


def _einsum_spec(maps: Sequence[AffineMap]) -> str | None:
    """An einsum for a contraction whose maps only pick loops, else None."""
    subscripts = []
    for indexing_map in maps:
        if not all(isinstance(r, AffineDimExpr) for r in indexing_map.results):
            return None
        subscripts.append(
            "".join(
                _EINSUM_LETTERS[r.position]  # pyright: ignore[reportAttributeAccessIssue]
                for r in indexing_map.results
            )
        )
    *factors, result = subscripts
    if not set(result) <= set("".join(factors)) or len(set(result)) != len(result):
        return None
    return f"{','.join(factors)}->{result}"


def _run_contraction(
    interpreter: Interpreter,
    op: linalg.LinalgStructuredOperation,
    args: PythonValues,
    prepare: Callable[[list[np.ndarray], _Scalar], list[np.ndarray]] | None = None,
) -> PythonValues:
    """out += sum of the product of the (converted) inputs, as einsum says."""
    if output_aliases_operand(op, args):
        return run_structured_op(interpreter, op, args)
    maps = [m.data for m in op.get_indexing_maps()]
    shaped = [i for i, a in enumerate(args) if isinstance(a, ShapedArray)]
    num_inputs = len(op.inputs)
    spec = _einsum_spec([maps[i] for i in shaped])
    try:
        target = _scalar_of_value(op.outputs[0], interpreter)
        if spec is None or target.kind == "bool":
            raise _NotVectorisable(op.name)
    except _NotVectorisable:
        return run_structured_op(interpreter, op, args)
    _loop_ranges(
        op.name,
        maps,
        [a.shape if isinstance(a, ShapedArray) else () for a in args],
    )
    factors = [
        _computed_input(a, ssa, target, interpreter)
        if isinstance(a, ShapedArray)
        else _constant_array(a, target, 0)
        for a, ssa in zip(args[:num_inputs], op.inputs, strict=True)
    ]
    if prepare is not None:
        factors = prepare(factors, target)
    factors = [factors[i] for i in shaped if i < num_inputs]
    (out,) = args[num_inputs:]
    with np.errstate(all="ignore"):
        summed = np.einsum(spec, *factors, optimize=True)
        values = (_to_compute(numpy_view(out), target) + summed).astype(target.dtype)
    return _write_results(op, (out,), [values])


def _subtract_zero_points(
    factors: list[np.ndarray], target: _Scalar
) -> list[np.ndarray]:
    lhs, rhs, lhs_zero, rhs_zero = factors
    return [lhs - lhs_zero.reshape(()), rhs - rhs_zero.reshape(()), lhs_zero, rhs_zero]


@dataclass(frozen=True)
class _ConvLayout:
    """Operand layouts of a convolution or pooling, one letter per dimension.

    In the input, H and W are the spatial dimensions, read at
    `output_position * stride + kernel_position * dilation`; in the filter,
    h and w are the kernel positions; other letters are einsum's."""

    input: str
    filter: str
    output: str


_CONV_LAYOUTS: dict[type[Operation], _ConvLayout] = {
    linalg.Conv2DNhwc_HwcfOp: _ConvLayout("nHWc", "hwcf", "nHWf"),
    linalg.Conv2DNhwc_FhwcOp: _ConvLayout("nHWc", "fhwc", "nHWf"),
    linalg.Conv2DNchwFchwOp: _ConvLayout("ncHW", "fchw", "nfHW"),
    linalg.Conv2DNgchwFgchwOp: _ConvLayout("ngcHW", "fgchw", "ngfHW"),
    linalg.Conv2DNgchwGfchwOp: _ConvLayout("ngcHW", "gfchw", "ngfHW"),
    linalg.Conv2DNhwgcGfhwcOp: _ConvLayout("nHWgc", "gfhwc", "nHWgf"),
}

_POOLING_LAYOUTS: dict[type[Operation], _ConvLayout] = {
    linalg.PoolingNchwMaxOp: _ConvLayout("ncHW", "hw", "ncHW"),
}


def _windows(
    op: Operation,
    layout: _ConvLayout,
    image: np.ndarray,
    kernel_shape: Sequence[int],
    output_shape: Sequence[int],
) -> Iterator[tuple[tuple[int, int], np.ndarray]]:
    """For each kernel position, the input elements it meets at every output
    position: a strided slice with H and W indexed like the output's."""
    strides = op.strides.get_values()  # pyright: ignore[reportAttributeAccessIssue]
    dilations = op.dilations.get_values()  # pyright: ignore[reportAttributeAccessIssue]
    sizes: dict[str, int] = {}
    for subscripts, shape, role in (
        (layout.input, image.shape, "input"),
        (layout.filter, kernel_shape, "filter"),
        (layout.output, output_shape, "output"),
    ):
        if len(subscripts) != len(shape):
            raise InterpretationError(f"{op.name}: the {role} has rank {len(shape)}")
        for letter, size in zip(subscripts, shape, strict=True):
            if letter in "HW" and role == "input":
                continue
            if sizes.setdefault(letter, size) != size:
                raise InterpretationError(
                    f"{op.name}: dimension '{letter}' of the {role} is {size}, "
                    f"elsewhere {sizes[letter]}"
                )
    spatial = []
    for axis_name, kernel_name, stride, dilation in zip(
        "HW", "hw", strides, dilations, strict=True
    ):
        out_size, kernel_size = sizes[axis_name], sizes[kernel_name]
        in_size = image.shape[layout.input.index(axis_name)]
        reach = (out_size - 1) * stride + (kernel_size - 1) * dilation + 1
        if out_size and kernel_size and reach > in_size:
            raise InterpretationError(
                f"{op.name}: the input is {in_size} wide in {axis_name}, the "
                f"window reaches {reach} (strides {list(strides)}, dilations "
                f"{list(dilations)})"
            )
        spatial.append((out_size, kernel_size, int(stride), int(dilation)))
    (out_h, kernel_h, stride_h, dilation_h) = spatial[0]
    (out_w, kernel_w, stride_w, dilation_w) = spatial[1]
    for i in range(kernel_h):
        for j in range(kernel_w):
            index: list[slice] = [slice(None)] * image.ndim
            start_h, start_w = i * dilation_h, j * dilation_w
            index[layout.input.index("H")] = slice(
                start_h, start_h + (out_h - 1) * stride_h + 1, stride_h
            )
            index[layout.input.index("W")] = slice(
                start_w, start_w + (out_w - 1) * stride_w + 1, stride_w
            )
            yield (i, j), image[tuple(index)]


def _run_conv(
    interpreter: Interpreter, op: linalg.ConvOperation, args: PythonValues
) -> PythonValues:
    if output_aliases_operand(op, args):
        return run_structured_op(interpreter, op, args)
    layout = _CONV_LAYOUTS[type(op)]
    image, kernel, out = args
    try:
        target = _scalar_of_value(op.outputs[0], interpreter)
        if target.kind == "bool":
            raise _NotVectorisable(op.name)
        image_values = _computed_input(image, op.inputs[0], target, interpreter)
        kernel_values = _computed_input(kernel, op.inputs[1], target, interpreter)
    except _NotVectorisable:
        return run_structured_op(interpreter, op, args)
    kernel_free = layout.filter.replace("h", "").replace("w", "")
    spec = f"{layout.input},{kernel_free}->{layout.output}"
    total = _to_compute(numpy_view(out), target).copy()
    with np.errstate(all="ignore"):
        for (i, j), window in _windows(
            op, layout, image_values, kernel_values.shape, total.shape
        ):
            index = [slice(None)] * kernel_values.ndim
            index[layout.filter.index("h")] = i  # pyright: ignore[reportCallIssue,reportArgumentType]
            index[layout.filter.index("w")] = j  # pyright: ignore[reportCallIssue,reportArgumentType]
            total += np.einsum(spec, window, kernel_values[tuple(index)], optimize=True)
    return _write_results(op, (out,), [total.astype(target.dtype)])


def _run_pooling_max(
    interpreter: Interpreter, op: linalg.PoolingOperation, args: PythonValues
) -> PythonValues:
    # The body xDSL gives this op maximises the input with the kernel-shape
    # operand; MLIR's maximises it with the output, as done here.
    layout = _POOLING_LAYOUTS[type(op)]
    image, kernel, out = args
    try:
        target = _scalar_of_value(op.outputs[0], interpreter)
        if target.kind == "bool":
            raise _NotVectorisable(op.name)
        image_values = _computed_input(image, op.inputs[0], target, interpreter)
    except _NotVectorisable as error:
        raise InterpretationError(f"{op.name}: cannot run on {error}") from error
    maximum = _maximumf if target.kind == "float" else np.maximum
    total = _to_compute(numpy_view(out), target).copy()
    with np.errstate(all="ignore"):
        for _, window in _windows(op, layout, image_values, kernel.shape, total.shape):
            total = maximum(total, window)
    return _write_results(op, (out,), [total.astype(target.dtype)])


def _run_transpose(op: linalg.TransposeOp, args: PythonValues) -> PythonValues:
    source, out = args
    permutation = list(op.permutation.get_values())
    if sorted(permutation) != list(range(len(source.shape))):
        raise InterpretationError(
            f"{op.name}: permutation {permutation} does not fit "
            f"rank {len(source.shape)}"
        )
    values = numpy_view(source).transpose(permutation)
    if list(values.shape) != list(out.shape):
        raise InterpretationError(
            f"{op.name}: the transposed input has shape {list(values.shape)}, "
            f"the output {list(out.shape)}"
        )
    return _write_results(op, (out,), [values])


def _run_broadcast(op: linalg.BroadcastOp, args: PythonValues) -> PythonValues:
    source, out = args
    dimensions = list(op.dimensions.get_values())
    rank = len(out.shape)
    if sorted(set(dimensions)) != sorted(dimensions) or any(
        not 0 <= d < rank for d in dimensions
    ):
        raise InterpretationError(
            f"{op.name}: dimensions {dimensions} do not fit rank {rank}"
        )
    kept = [s for d, s in enumerate(out.shape) if d not in dimensions]
    if kept != list(source.shape):
        raise InterpretationError(
            f"{op.name}: the input has shape {list(source.shape)}, the output "
            f"{list(out.shape)} without dimensions {dimensions}"
        )
    values = np.expand_dims(numpy_view(source), tuple(sorted(dimensions)))
    return _write_results(op, (out,), [np.broadcast_to(values, out.shape)])


def _run_reduce(
    interpreter: Interpreter, op: linalg.ReduceOp, args: PythonValues
) -> PythonValues:
    source, init = args
    rank = len(source.shape)
    dimensions = list(op.dimensions.get_values())
    if len(set(dimensions)) != len(dimensions) or any(
        not 0 <= d < rank for d in dimensions
    ):
        raise InterpretationError(
            f"{op.name}: dimensions {dimensions} do not fit rank {rank}"
        )
    kept = [AffineDimExpr(d) for d in range(rank) if d not in dimensions]
    computation = StructuredComputation(
        op=op,
        inputs=(source,),
        input_types=(op.input.type,),
        outputs=(init,),
        output_types=(op.init.type,),
        maps=(AffineMap.identity(rank), AffineMap(rank, 0, tuple(kept))),
        block=op.region.block,
        returns_tensors=bool(op.results),
    )
    return run_structured(interpreter, computation)


def _elementwise_impl(op_type: type[Operation]):
    @impl(op_type)
    def run(self: InterpreterFunctions, interpreter: Interpreter, op, args):
        return _run_elementwise(interpreter, op, args)

    return run


_NamedElementwiseFunctions = type(
    "_NamedElementwiseFunctions",
    (InterpreterFunctions,),
    {f"run_{t.name}": _elementwise_impl(t) for t in _NAMED_ELEMENTWISE},
)
"""One implementation per op of `_NAMED_ELEMENTWISE` (registered through the
subclass below), so the table is the only list of them."""


@register_impls
class StructuredOpFunctions(_NamedElementwiseFunctions):
    @impl(linalg.GenericOp)
    def run_generic(
        self, interpreter: Interpreter, op: linalg.GenericOp, args: PythonValues
    ) -> PythonValues:
        return run_structured_op(interpreter, op, args)

    @impl(linalg.IndexOp)
    def run_index(
        self, interpreter: Interpreter, op: linalg.IndexOp, args: PythonValues
    ) -> PythonValues:
        iterations = interpreter.get_data(StructuredOpFunctions, "iteration", dict)
        point = iterations.get(op.parent_op())
        if point is None:
            raise InterpretationError(
                "linalg.index: not inside a running linalg.generic body"
            )
        dim = op.dim.value.data
        if not 0 <= dim < len(point):
            raise InterpretationError(
                f"linalg.index: dimension {dim} of a {len(point)}-loop generic"
            )
        return (point[dim],)

    @impl_terminator(linalg.YieldOp)
    def run_yield(
        self, interpreter: Interpreter, op: linalg.YieldOp, args: PythonValues
    ):
        return ReturnedValues(args), ()

    @impl(linalg.TransposeOp)
    def run_transpose(
        self, interpreter: Interpreter, op: linalg.TransposeOp, args: PythonValues
    ):
        if output_aliases_operand(op, args):
            return run_structured_op(interpreter, op, args)
        return _run_transpose(op, args)

    @impl(linalg.BroadcastOp)
    def run_broadcast(
        self, interpreter: Interpreter, op: linalg.BroadcastOp, args: PythonValues
    ):
        return _run_broadcast(op, args)

    @impl(linalg.ReduceOp)
    def run_reduce(
        self, interpreter: Interpreter, op: linalg.ReduceOp, args: PythonValues
    ):
        return _run_reduce(interpreter, op, args)

    @impl(linalg.MatmulOp)
    def run_matmul(
        self, interpreter: Interpreter, op: linalg.MatmulOp, args: PythonValues
    ):
        return _run_contraction(interpreter, op, args)

    @impl(linalg.QuantizedMatmulOp)
    def run_quantized_matmul(
        self,
        interpreter: Interpreter,
        op: linalg.QuantizedMatmulOp,
        args: PythonValues,
    ):
        return _run_contraction(interpreter, op, args, _subtract_zero_points)

    @impl(linalg.Conv2DNhwc_HwcfOp)
    def run_conv_2d_nhwc_hwcf(
        self, interpreter: Interpreter, op: linalg.Conv2DNhwc_HwcfOp, args: PythonValues
    ):
        return _run_conv(interpreter, op, args)

    @impl(linalg.Conv2DNhwc_FhwcOp)
    def run_conv_2d_nhwc_fhwc(
        self, interpreter: Interpreter, op: linalg.Conv2DNhwc_FhwcOp, args: PythonValues
    ):
        return _run_conv(interpreter, op, args)

    @impl(linalg.Conv2DNchwFchwOp)
    def run_conv_2d_nchw_fchw(
        self, interpreter: Interpreter, op: linalg.Conv2DNchwFchwOp, args: PythonValues
    ):
        return _run_conv(interpreter, op, args)

    @impl(linalg.Conv2DNgchwFgchwOp)
    def run_conv_2d_ngchw_fgchw(
        self,
        interpreter: Interpreter,
        op: linalg.Conv2DNgchwFgchwOp,
        args: PythonValues,
    ):
        return _run_conv(interpreter, op, args)

    @impl(linalg.Conv2DNgchwGfchwOp)
    def run_conv_2d_ngchw_gfchw(
        self,
        interpreter: Interpreter,
        op: linalg.Conv2DNgchwGfchwOp,
        args: PythonValues,
    ):
        return _run_conv(interpreter, op, args)

    @impl(linalg.Conv2DNhwgcGfhwcOp)
    def run_conv_2d_nhwgc_gfhwc(
        self,
        interpreter: Interpreter,
        op: linalg.Conv2DNhwgcGfhwcOp,
        args: PythonValues,
    ):
        return _run_conv(interpreter, op, args)

    @impl(linalg.PoolingNchwMaxOp)
    def run_pooling_nchw_max(
        self,
        interpreter: Interpreter,
        op: linalg.PoolingNchwMaxOp,
        args: PythonValues,
    ):
        return _run_pooling_max(interpreter, op, args)
