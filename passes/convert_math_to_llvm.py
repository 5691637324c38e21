"""`convert-math-to-llvm`: every `math` op on scalars to the `llvm` dialect.

As upstream's pass of the same name, this converts the `math` ops only
(casts bridge to operands and users in other dialects, see
`linalg_ext.lowering.llvm_types`); fast-math flags are kept.

- LLVM intrinsics: `absf` (`llvm.intr.fabs`), `ceil`, `floor`, `trunc`,
  `round` (halfway cases away from zero), `roundeven`, `sqrt`, `exp`, `exp2`,
  `log`, `log2`, `log10`, `sin`, `cos`, `powf` (`llvm.intr.pow`),
  `copysign`, `fma`, `ctlz`, `cttz` (the width for 0), `ctpop`, `absi`
  (the minimum value is its own absolute value);
- `rsqrt`: `1 / sqrt(x)`;
- `fpowi`: square and multiply over the exponent's bits, in the order of
  LLVM's `llvm.intr.powi` (which upstream lowers it to; compiler-rt's
  `__powisf2`, absent from an in-process JIT, and LLVM's own expansion of
  a constant exponent) and of the interpreter: `x ** 3` is `x * (x * x)`,
  a negative exponent the reciprocal. A constant exponent (torch-mlir's
  `x ** 3` in GELU) is unrolled into `llvm.fmul`s, so loops with it
  vectorise; another calls `__linalg_ext_fpowi_<float>_<int>`, a function
  this pass adds to the module;
- `ipowi`: a call to `__linalg_ext_ipowi_<type>`, a function this pass adds
  to the module (square and multiply; a negative exponent gives 0 but for
  the bases 1 and -1);
- libm calls, declared as external `llvm.func`s: `tan`, `tanh`, `sinh`,
  `cosh`, `asin`, `acos`, `atan`, `asinh`, `acosh`, `atanh`, `atan2`, `erf`,
  `expm1`, `log1p`, `cbrt` (`tanhf` on f32, `tanh` on f64; f16 and bf16 are
  extended to f32 for the call and truncated back). `expm1` and `log1p`
  are libm's, accurate near 0, where upstream's `exp(x) - 1` and
  `log(1 + x)` lose every digit.

Refused (the module is left unchanged, the message names the op): ops on
vectors or tensors, libm functions on floats wider than f64.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, llvm, math
from xdsl.dialects.builtin import (
    AnyFloat,
    BFloat16Type,
    Float16Type,
    Float32Type,
    Float64Type,
    FloatAttr,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    f32,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern
from xdsl.utils.comparisons import to_signed

from linalg_ext.compat import llvm_ops
from linalg_ext.lowering.llvm_types import (
    convert_type,
    operands_to_llvm,
    replace_with_llvm,
)
from linalg_ext.lowering.scalar_ops import (
    declare_function,
    llvm_fastmath,
    non_scalar_types,
    run_conversion,
)

FLOAT_UNARY: dict[
    type[Operation], Callable[[SSAValue, llvm.FastMathAttr], Operation]
] = {
    math.CeilOp: llvm.FCeilOp,
    math.FloorOp: llvm.FFloorOp,
    math.SqrtOp: llvm.FSqrtOp,
    math.ExpOp: llvm.FExpOp,
    math.Exp2Op: llvm.FExp2Op,
    math.LogOp: llvm.FLogOp,
    math.Log2Op: llvm.FLog2Op,
    math.SinOp: llvm.FSinOp,
    math.CosOp: llvm.FCosOp,
    math.Log10Op: llvm_ops.Log10Op,
    math.RoundOp: llvm_ops.RoundOp,
    math.RoundEvenOp: llvm_ops.RoundEvenOp,
    math.TruncOp: llvm_ops.FTruncOp,
}
"""Float ops of one operand that are one intrinsic (`math.absf` too)."""

FLOAT_BINARY: dict[
    type[Operation], Callable[[SSAValue, SSAValue, llvm.FastMathAttr], Operation]
] = {
    math.PowFOp: llvm.FPowOp,
    math.CopySignOp: llvm.FCopySignOp,
}
"""Float ops of two operands that are one intrinsic."""

INTEGER_UNARY: dict[type[Operation], Callable[[SSAValue, bool], Operation]] = {
    math.CountLeadingZerosOp: llvm_ops.CountLeadingZerosOp,
    math.CountTrailingZerosOp: llvm_ops.CountTrailingZerosOp,
    math.AbsIOp: llvm_ops.AbsOp,
}
"""Integer ops that are one intrinsic with its poison flag off."""

LIBM: dict[type[Operation], str] = {
    math.TanOp: "tan",
    math.TanhOp: "tanh",
    math.SinhOp: "sinh",
    math.CoshOp: "cosh",
    math.AsinOp: "asin",
    math.AcosOp: "acos",
    math.AtanOp: "atan",
    math.AsinhOp: "asinh",
    math.AcoshOp: "acosh",
    math.AtanhOp: "atanh",
    math.Atan2Op: "atan2",
    math.ErfOp: "erf",
    math.ExpM1Op: "expm1",
    math.Log1pOp: "log1p",
    math.CbrtOp: "cbrt",
}
"""Ops LLVM has no intrinsic for: the libm function of the f64 version
(the f32 one has an `f` suffix)."""

IPOWI_PREFIX = "__linalg_ext_ipowi_"
"""Name prefix of the integer power function added for `math.ipowi`."""


def _module_of(op: Operation) -> ModuleOp:
    top = op.get_toplevel_object()
    assert isinstance(top, ModuleOp)
    return top


def _libm_type(type_: Attribute) -> Attribute | None:
    """The float type the libm call computes in: f32 or f64 themselves,
    f32 for narrower floats, None for wider ones."""
    if isinstance(type_, Float32Type | Float64Type):
        return type_
    if isinstance(type_, Float16Type | BFloat16Type):
        return f32
    return None


def _libm_call(
    op: Operation, operands: list[SSAValue]
) -> tuple[list[Operation], SSAValue]:
    """Call the libm function of `op` (declared in the module), extending
    the operands to its type and truncating the result back."""
    type_ = op.results[0].type
    call_type = _libm_type(type_)
    assert call_type is not None
    new_ops: list[Operation] = []
    if call_type != type_:
        extended = [llvm.FPExtOp(o, call_type) for o in operands]
        new_ops += extended
        operands = [e.results[0] for e in extended]
    name = LIBM[type(op)] + ("f" if call_type == f32 else "")
    function_type = llvm.LLVMFunctionType([call_type] * len(operands), call_type)
    declare_function(_module_of(op), name, function_type)
    call = llvm.CallOp(
        name, *operands, return_type=call_type, fastmath=llvm_fastmath(op)
    )
    new_ops.append(call)
    result = call.results[0]
    if call_type != type_:
        truncated = llvm.FPTruncOp(result, type_)
        new_ops.append(truncated)
        result = truncated.results[0]
    return new_ops, result


def _defined(module: ModuleOp, name: str) -> bool:
    return any(
        isinstance(op, llvm.FuncOp) and op.sym_name.data == name for op in module.ops
    )


def _append(block: Block, op: Operation) -> SSAValue:
    """Add `op` to `block`; its result."""
    block.add_op(op)
    return op.results[0]


def _icmp(block: Block, predicate: str, lhs: SSAValue, rhs: SSAValue) -> SSAValue:
    flag = IntegerAttr(llvm.ICmpPredicateFlag(predicate).to_int(), 64)
    return _append(block, llvm.ICmpOp(lhs, rhs, flag))


def _square_and_multiply(
    loop: Block,
    body: Block,
    done: Block,
    one: SSAValue,
    zero: SSAValue,
    multiply: Callable[[SSAValue, SSAValue], Operation],
    halve: Callable[[SSAValue], Operation],
) -> None:
    """The loop of a power by squaring: `loop(accumulated, square,
    remaining)` ends in `done(accumulated)` once `remaining` is 0; `body`
    multiplies the square in where `remaining`'s low bit is set, squares,
    and halves `remaining`."""
    accumulated, square, remaining = loop.args
    finished = _icmp(loop, "eq", remaining, zero)
    loop.add_op(llvm.CondBrOp(finished, done, [accumulated], body, []))
    low_bit = _append(body, llvm.AndOp(remaining, one))
    bit_set = _icmp(body, "ne", low_bit, zero)
    product = _append(body, multiply(accumulated, square))
    next_accumulated = _append(body, llvm.SelectOp(bit_set, product, accumulated))
    next_square = _append(body, multiply(square, square))
    next_remaining = _append(body, halve(remaining))
    body.add_op(llvm.BrOp(loop, next_accumulated, next_square, next_remaining))


def _integer_power_function(module: ModuleOp, type_: IntegerType) -> str:
    """Define (once) `__linalg_ext_ipowi_<type>(base, exponent)`: square and
    multiply over the exponent's bits; a negative exponent gives 1 for the
    base 1, ±1 for the base -1 (by the exponent's parity), else 0."""
    name = f"{IPOWI_PREFIX}{type_}"
    if _defined(module, name):
        return name

    def constant(block: Block, value: int) -> SSAValue:
        attribute = IntegerAttr(value, type_, truncate_bits=True)
        return _append(block, llvm.ConstantOp(attribute, type_))

    entry = Block(arg_types=[type_, type_])
    negative = Block()
    loop = Block(arg_types=[type_, type_, type_])
    body = Block()
    done = Block(arg_types=[type_])
    base, exponent = entry.args

    zero, one = constant(entry, 0), constant(entry, 1)
    is_negative = _icmp(entry, "slt", exponent, zero)
    entry.add_op(llvm.CondBrOp(is_negative, negative, [], loop, [one, base, exponent]))

    minus_one = constant(negative, -1)
    odd = _icmp(negative, "ne", _append(negative, llvm.AndOp(exponent, one)), zero)
    parity = _append(negative, llvm.SelectOp(odd, minus_one, one))
    is_minus_one = _icmp(negative, "eq", base, minus_one)
    of_minus_one = _append(negative, llvm.SelectOp(is_minus_one, parity, zero))
    is_one = _icmp(negative, "eq", base, one)
    result = _append(negative, llvm.SelectOp(is_one, one, of_minus_one))
    negative.add_op(llvm.ReturnOp(result))

    _square_and_multiply(
        loop,
        body,
        done,
        one,
        zero,
        llvm.MulOp,
        lambda remaining: llvm.LShrOp(remaining, one),
    )
    done.add_op(llvm.ReturnOp(done.args[0]))

    function = llvm.FuncOp(
        name,
        llvm.LLVMFunctionType([type_, type_], type_),
        linkage=llvm.LinkageAttr("internal"),
        body=Region([entry, negative, loop, body, done]),
    )
    module.body.block.add_op(function)
    return name


FPOWI_PREFIX = "__linalg_ext_fpowi_"
"""Name prefix of the float power function added for `math.fpowi` with an
exponent that is not a constant."""


def _constant_exponent(exponent: SSAValue) -> int | None:
    """The value of an `fpowi` exponent defined by a constant op, or None."""
    owner = exponent.owner
    if not isinstance(owner, arith.ConstantOp | llvm.ConstantOp):
        return None
    value = owner.value
    if not isinstance(value, IntegerAttr) or not isinstance(value.type, IntegerType):
        return None
    return to_signed(value.value.data, value.type.width.data)


def _unrolled_power(
    base: SSAValue, exponent: int, fastmath: llvm.FastMathAttr
) -> tuple[list[Operation], SSAValue]:
    """`base ** exponent` as the multiplications of `__powisf2`'s loop for
    that exponent (a product by 1 left out: it is exact)."""
    new_ops: list[Operation] = []

    def multiply(lhs: SSAValue, rhs: SSAValue) -> SSAValue:
        product = llvm.FMulOp(lhs, rhs, fastmath)
        new_ops.append(product)
        return product.res

    result: SSAValue | None = None
    square = base
    magnitude = abs(exponent)
    while magnitude:
        if magnitude & 1:
            result = square if result is None else multiply(result, square)
        magnitude >>= 1
        if magnitude:
            square = multiply(square, square)
    if result is None or exponent < 0:
        type_ = base.type
        assert isinstance(type_, AnyFloat)
        one = llvm.ConstantOp(FloatAttr(1.0, type_), type_)
        new_ops.append(one)
        if result is None:
            return new_ops, one.result
        reciprocal = llvm.FDivOp(one, result, fastmath)
        new_ops.append(reciprocal)
        result = reciprocal.res
    return new_ops, result


def _float_power_function(
    module: ModuleOp, float_type: Attribute, exponent_type: IntegerType
) -> str:
    """Define (once) `__linalg_ext_fpowi_<float>_<int>(base, exponent)`: the
    loop of `__powisf2` (the exponent halved toward zero, so a negative one
    runs over the bits of its magnitude), the reciprocal if negative."""
    name = f"{FPOWI_PREFIX}{float_type}_{exponent_type}"
    if _defined(module, name):
        return name
    assert isinstance(float_type, AnyFloat)

    entry = Block(arg_types=[float_type, exponent_type])
    loop = Block(arg_types=[float_type, float_type, exponent_type])
    body = Block()
    done = Block(arg_types=[float_type])
    base, exponent = entry.args

    def integer(value: int) -> SSAValue:
        attribute = IntegerAttr(value, exponent_type)
        return _append(entry, llvm.ConstantOp(attribute, exponent_type))

    zero, one, two = integer(0), integer(1), integer(2)
    unit = FloatAttr(1.0, float_type)
    one_float = _append(entry, llvm.ConstantOp(unit, float_type))
    entry.add_op(llvm.BrOp(loop, one_float, base, exponent))

    _square_and_multiply(
        loop,
        body,
        done,
        one,
        zero,
        llvm.FMulOp,
        lambda remaining: llvm.SDivOp(remaining, two),
    )
    power = done.args[0]
    negative = _icmp(done, "slt", exponent, zero)
    reciprocal = _append(done, llvm.FDivOp(one_float, power))
    done.add_op(
        llvm.ReturnOp(_append(done, llvm.SelectOp(negative, reciprocal, power)))
    )

    function = llvm.FuncOp(
        name,
        llvm.LLVMFunctionType([float_type, exponent_type], float_type),
        linkage=llvm.LinkageAttr("internal"),
        body=Region([entry, loop, body, done]),
    )
    module.body.block.add_op(function)
    return name


def _convert(
    op: Operation, operands: list[SSAValue]
) -> tuple[list[Operation], SSAValue]:
    """The LLVM ops computing `op` from its converted operands, and the
    converted result."""
    kind = type(op)
    fastmath = llvm_fastmath(op)
    new: Operation
    if kind is math.AbsFOp:
        new = llvm.FAbsOp(operands[0], operands[0].type, fastmath)
    elif kind in FLOAT_UNARY:
        new = FLOAT_UNARY[kind](operands[0], fastmath)
    elif kind in FLOAT_BINARY:
        lhs, rhs = operands
        new = FLOAT_BINARY[kind](lhs, rhs, fastmath)
    elif kind is math.FmaOp:
        lhs, rhs, addend = operands
        new = llvm.FMAOp(lhs, rhs, addend, fastmath)
    elif kind in INTEGER_UNARY:
        new = INTEGER_UNARY[kind](operands[0], False)
    elif kind is math.CtPopOp:
        new = llvm_ops.CtPopOp(operands[0])
    elif kind is math.RsqrtOp:
        type_ = operands[0].type
        assert isinstance(type_, AnyFloat)  # scalar: vectors are not converted
        one = llvm.ConstantOp(FloatAttr(1.0, type_), type_)
        root = llvm.FSqrtOp(operands[0], fastmath)
        quotient = llvm.FDivOp(one, root, fastmath)
        return [one, root, quotient], quotient.res
    elif kind is math.FPowIOp:
        base, exponent = operands
        constant = _constant_exponent(op.operands[1])
        if constant is not None:
            return _unrolled_power(base, constant, fastmath)
        exponent_type = exponent.type
        assert isinstance(exponent_type, IntegerType)
        name = _float_power_function(_module_of(op), base.type, exponent_type)
        new = llvm.CallOp(name, base, exponent, return_type=base.type)
    elif kind is math.IPowIOp:
        type_ = operands[0].type
        assert isinstance(type_, IntegerType)
        name = _integer_power_function(_module_of(op), type_)
        new = llvm.CallOp(name, *operands, return_type=type_)
    else:
        return _libm_call(op, operands)
    return [new], new.results[0]


class MathToLLVM(RewritePattern):
    """Every op `why_not_converted` accepts."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if type(op) not in CONVERTED:
            return
        operands = operands_to_llvm(op, rewriter)
        new_ops, result = _convert(op, operands)
        replace_with_llvm(op, new_ops, [result], rewriter)


CONVERTED: frozenset[type[Operation]] = frozenset(
    {
        *FLOAT_UNARY,
        *FLOAT_BINARY,
        *INTEGER_UNARY,
        *LIBM,
        math.AbsFOp,
        math.FmaOp,
        math.CtPopOp,
        math.RsqrtOp,
        math.FPowIOp,
        math.IPowIOp,
    }
)
"""Every math op this pass converts."""


def why_not_converted(op: Operation) -> str | None:
    """Why `op` (a math op) cannot be converted, or None."""
    if type(op) not in CONVERTED:
        return "has no lowering to the llvm dialect"
    reason = non_scalar_types(op)
    if reason is not None:
        return reason
    type_ = op.results[0].type
    if type(op) in LIBM and _libm_type(type_) is None:
        return f"no libm function computes it on {type_} (only f16, bf16, f32, f64)"
    if isinstance(op, math.FPowIOp) and not isinstance(type_, AnyFloat):
        return f"a base of type {type_} is not supported"
    if isinstance(op, math.IPowIOp) and not isinstance(
        convert_type(type_), IntegerType
    ):
        return f"operands of type {type_} are not supported"
    return None


@dataclass(frozen=True)
class ConvertMathToLLVMPass(ModulePass):
    """Convert `math` ops on scalars to the `llvm` dialect: intrinsics, libm
    calls, and helper functions for `ipowi` and `fpowi` (see the module docstring)."""

    name = "convert-math-to-llvm"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        run_conversion(self.name, op, "math.", why_not_converted, (MathToLLVM(),))
