"""`convert-arith-to-llvm`: every `arith` op on scalars and 1-D vectors to `llvm`.

As upstream's pass of the same name, this converts the `arith` ops only:
operands another pass has not converted yet are cast to their LLVM type
with `builtin.unrealized_conversion_cast`, and results are cast back for
users still in their original dialect (`linalg_ext.lowering.llvm_types`);
`reconcile-unrealized-casts` removes the pairs at the end. `index` is i64.

- one op each: `addi`/`subi`/`muli`/`shli` (keeping their overflow flags),
  `divsi`/`divui`/`remsi`/`remui`, `andi`/`ori`/`xori`, `shrsi`/`shrui`,
  `addf`/`subf`/`mulf`/`divf`/`negf` (keeping their fast-math flags),
  `maximumf`/`minimumf` (`llvm.intr.maximum`/`minimum`: NaN propagates,
  -0.0 < +0.0), `maxnumf`/`minnumf` (`llvm.intr.maxnum`/`minnum`),
  `maxsi`/`minsi`/`maxui`/`minui` (`llvm.intr.smax`/...), `cmpi`/`cmpf`
  (every predicate), `select` (of scalars or of memref descriptors), the
  casts `extsi`/`extui`/`trunci`/`extf`/`truncf`/`sitofp`/`uitofp`/
  `fptosi`/`fptoui`/`bitcast`, and `constant` (integers, index, i1, floats);
- `index_cast`: `sext` or `trunc` between i64 and the integer type (nothing
  for i64); `index_castui` (`linalg_ext.compat`): `zext` or `trunc`;
- `remf` (`linalg_ext.compat`): `llvm.frem`, keeping its fast-math flags;
- expanded: `ceildivsi`, `floordivsi` (quotient rounded toward zero, then
  corrected by one when the remainder is not zero and the signs say so),
  `ceildivui` (`a == 0 ? 0 : (a - 1) / b + 1`), `addui_extended` (the sum and
  `sum < a`), `mulsi_extended`/`mului_extended` (the product in twice the
  width, split in two halves).

Option `fast-math` (`none`, `contract`, `reassoc`, `arcp`, `fast`;
`linalg_ext.lowering.fast_math`): flags added to every float op's own
(`contract` lets `a * b + c` become a fused multiply-add, `reassoc` lets sums
be reordered, `arcp` lets a division become a multiplication by the
reciprocal, `fast` sets all seven flags on every float op); `none`, the
default, keeps exactly the flags written.

The elementwise ops also take one-dimensional vectors of fixed length whose
elements are signless integers or floats (`vector<16xf32>`, the LLVM vector
type itself): the same LLVM op on the vector, with the same flags; `cmpi`/
`cmpf` give `vector<N x i1>`, `select` takes an `i1` or a vector of `i1`
condition, and `constant` a dense vector value (splat or not) is one
`llvm.mlir.constant` of the vector type.

Refused (the module is left unchanged, the message names the op): ops on
tensors, n-D, scalable or `index` vectors, the expanded ops (`ceildivsi`,
...) and `index_cast` on vectors, other dense constants, `bitcast` of
memrefs, `select` of unranked memrefs.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, llvm
from xdsl.dialects.builtin import (
    AnyFloat,
    DenseIntOrFPElementsAttr,
    FloatAttr,
    IntegerAttr,
    IntegerType,
    MemRefType,
    ModuleOp,
    VectorType,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)

from linalg_ext.compat import llvm_ops
from linalg_ext.compat.arith_ops import IndexCastUIOp, RemFOp
from linalg_ext.compat.llvm_vector_ops import FCmpOp as VectorFCmpOp
from linalg_ext.compat.llvm_vector_ops import SelectOp as VectorSelectOp
from linalg_ext.lowering.fast_math import FastMathMode, added_flags
from linalg_ext.lowering.llvm_types import (
    convert_type,
    operands_to_llvm,
    replace_with_llvm,
    vector_type_problem,
)
from linalg_ext.lowering.scalar_ops import (
    LLVMBuilder,
    ceil_unsigned_quotient,
    is_scalar,
    llvm_fastmath,
    resize_integer,
    run_conversion,
    signed_quotient,
)

# --------------------------------------------------------------------------
# Op tables

INTEGER_BINARY: dict[type[Operation], Callable[[SSAValue, SSAValue], Operation]] = {
    arith.AddiOp: llvm.AddOp,
    arith.SubiOp: llvm.SubOp,
    arith.MuliOp: llvm.MulOp,
    arith.ShLIOp: llvm.ShlOp,
    arith.DivSIOp: llvm.SDivOp,
    arith.DivUIOp: llvm.UDivOp,
    arith.RemSIOp: llvm.SRemOp,
    arith.RemUIOp: llvm.URemOp,
    arith.AndIOp: llvm.AndOp,
    arith.OrIOp: llvm.OrOp,
    arith.XOrIOp: llvm.XOrOp,
    arith.ShRSIOp: llvm.AShrOp,
    arith.ShRUIOp: llvm.LShrOp,
    arith.MaxSIOp: llvm_ops.SMaxOp,
    arith.MinSIOp: llvm_ops.SMinOp,
    arith.MaxUIOp: llvm_ops.UMaxOp,
    arith.MinUIOp: llvm_ops.UMinOp,
}
"""Integer ops that are one LLVM op of the same operands."""

FLOAT_BINARY: dict[
    type[Operation], Callable[[SSAValue, SSAValue, llvm.FastMathAttr], Operation]
] = {
    arith.AddfOp: llvm.FAddOp,
    arith.SubfOp: llvm.FSubOp,
    arith.MulfOp: llvm.FMulOp,
    arith.DivfOp: llvm.FDivOp,
    arith.MaximumfOp: llvm_ops.MaximumOp,
    arith.MinimumfOp: llvm_ops.MinimumOp,
    arith.MaxnumfOp: llvm.VectorFMaxOp,
    arith.MinnumfOp: llvm.VectorFMinOp,
    RemFOp: llvm.FRemOp,
}
"""Float ops that are one LLVM op of the same operands and fast-math flags."""

CASTS: dict[type[Operation], Callable[[SSAValue, Attribute], Operation]] = {
    arith.ExtSIOp: llvm.SExtOp,
    arith.ExtUIOp: llvm.ZExtOp,
    arith.TruncIOp: llvm.TruncOp,
    arith.ExtFOp: llvm.FPExtOp,
    arith.TruncFOp: llvm.FPTruncOp,
    arith.SIToFPOp: llvm.SIToFPOp,
    arith.UIToFPOp: llvm_ops.UIToFPOp,
    arith.FPToSIOp: llvm_ops.FPToSIOp,
    arith.FPToUIOp: llvm_ops.FPToUIOp,
}
"""Casts that are one LLVM cast."""


# --------------------------------------------------------------------------
# Building blocks


def _overflow(op: Operation) -> llvm.OverflowAttr:
    attr = op.properties.get("overflowFlags")
    if isinstance(attr, arith.IntegerOverflowAttr):
        return llvm.OverflowAttr(tuple(llvm.OverflowFlag(f.value) for f in attr.data))
    return llvm.OverflowAttr(None)


def _integer_binary(op: Operation, lhs: SSAValue, rhs: SSAValue) -> Operation:
    target = INTEGER_BINARY[type(op)]
    if isinstance(target, type) and issubclass(target, llvm.ArithmeticBinOpOverflow):
        return target(lhs, rhs, overflow=_overflow(op))
    return target(lhs, rhs)


def _extended_product(
    b: LLVMBuilder, lhs: SSAValue, rhs: SSAValue, signed: bool
) -> tuple[SSAValue, SSAValue]:
    """The low and high halves of the product in twice the width."""
    assert isinstance(lhs.type, IntegerType)
    width = lhs.type.width.data
    wide = IntegerType(2 * width)
    extend = llvm.SExtOp if signed else llvm.ZExtOp
    product = b.add(llvm.MulOp(b.add(extend(lhs, wide)), b.add(extend(rhs, wide))))
    low = b.add(llvm.TruncOp(product, lhs.type))
    shifted = b.add(llvm.LShrOp(product, b.constant(width, wide)))
    high = b.add(llvm.TruncOp(shifted, lhs.type))
    return low, high


EXPANSIONS: dict[
    type[Operation], Callable[[Operation, LLVMBuilder, list[SSAValue]], list[SSAValue]]
] = {
    arith.CeilDivSIOp: lambda op, b, x: [signed_quotient(b, *x, round_up=True)],
    arith.FloorDivSIOp: lambda op, b, x: [signed_quotient(b, *x, round_up=False)],
    arith.CeilDivUIOp: lambda op, b, x: [ceil_unsigned_quotient(b, *x)],
    arith.MulSIExtendedOp: lambda op, b, x: list(
        _extended_product(b, x[0], x[1], True)
    ),
    arith.MulUIExtendedOp: lambda op, b, x: list(
        _extended_product(b, x[0], x[1], False)
    ),
    arith.AddUIExtendedOp: lambda op, b, x: _add_extended(b, *x),
}
"""Ops that become several LLVM ops: (op, builder, converted operands) ->
converted results."""


def _add_extended(b: LLVMBuilder, lhs: SSAValue, rhs: SSAValue) -> list[SSAValue]:
    total = b.add(llvm.AddOp(lhs, rhs))
    return [total, b.icmp("ult", total, lhs)]


# --------------------------------------------------------------------------
# Patterns


def _replace(
    op: Operation,
    b: LLVMBuilder,
    results: Sequence[SSAValue],
    rewriter: PatternRewriter,
) -> None:
    replace_with_llvm(op, b.take_ops(), list(results), rewriter)


class ConstantToLLVM(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: arith.ConstantOp, rewriter: PatternRewriter):
        type_ = convert_type(op.result.type)
        value = op.value
        if isinstance(value, DenseIntOrFPElementsAttr):
            # A vector constant: its type is already the LLVM vector type.
            b = LLVMBuilder.detached()
            _replace(op, b, [b.add(llvm.ConstantOp(value, type_))], rewriter)
            return
        if isinstance(value, IntegerAttr):
            assert isinstance(type_, IntegerType)
            value = IntegerAttr(value.value.data, type_, truncate_bits=True)
        assert isinstance(value, IntegerAttr | FloatAttr)
        b = LLVMBuilder.detached()
        _replace(op, b, [b.add(llvm.ConstantOp(value, type_))], rewriter)


@dataclass
class OneToOneToLLVM(RewritePattern):
    """The ops of the tables above, and the expansions; float ops keep
    their fast-math flags, plus those `fast_math` adds."""

    fast_math: FastMathMode = "none"

    def _fastmath(self, op: Operation) -> llvm.FastMathAttr:
        flags = llvm_fastmath(op)
        added = added_flags(self.fast_math, op.name)
        if added <= flags.data:
            return flags
        return llvm.FastMathAttr(flags.data | added)

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        kind = type(op)
        if not (
            kind in INTEGER_BINARY
            or kind in FLOAT_BINARY
            or kind in CASTS
            or kind in EXPANSIONS
            or kind is arith.NegfOp
        ):
            return
        operands = operands_to_llvm(op, rewriter)
        b = LLVMBuilder.detached()
        if kind in INTEGER_BINARY:
            results = [b.add(_integer_binary(op, *operands))]
        elif kind in FLOAT_BINARY:
            lhs, rhs = operands
            results = [b.add(FLOAT_BINARY[kind](lhs, rhs, self._fastmath(op)))]
        elif kind is arith.NegfOp:
            results = [b.add(llvm.FNegOp(operands[0], self._fastmath(op)))]
        elif kind in CASTS:
            target_type = convert_type(op.results[0].type)
            results = [b.add(CASTS[kind](operands[0], target_type))]
        else:
            results = EXPANSIONS[kind](op, b, operands)
        _replace(op, b, results, rewriter)


class CmpiToLLVM(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: arith.CmpiOp, rewriter: PatternRewriter):
        lhs, rhs = operands_to_llvm(op, rewriter)
        predicate = arith.CMPI_COMPARISON_OPERATIONS[op.predicate.value.data]
        b = LLVMBuilder.detached()
        _replace(op, b, [b.icmp(predicate, lhs, rhs)], rewriter)


class CmpfToLLVM(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: arith.CmpfOp, rewriter: PatternRewriter):
        lhs, rhs = operands_to_llvm(op, rewriter)
        predicate = arith.CMPF_COMPARISON_OPERATIONS[op.predicate.value.data]
        if predicate in ("false", "true"):
            predicate = "_" + predicate
        b = LLVMBuilder.detached()
        # xDSL's llvm.fcmp compares scalars only.
        fcmp = VectorFCmpOp if isinstance(lhs.type, VectorType) else llvm.FCmpOp
        _replace(op, b, [b.add(fcmp(lhs, rhs, predicate))], rewriter)


class SelectToLLVM(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: arith.SelectOp, rewriter: PatternRewriter):
        cond, lhs, rhs = operands_to_llvm(op, rewriter)
        b = LLVMBuilder.detached()
        # xDSL's llvm.select takes an i1 condition only.
        select = VectorSelectOp if isinstance(cond.type, VectorType) else llvm.SelectOp
        _replace(op, b, [b.add(select(cond, lhs, rhs))], rewriter)


class IndexCastToLLVM(RewritePattern):
    """`index_cast`: index is i64, so sign-extend, truncate or nothing."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: arith.IndexCastOp, rewriter: PatternRewriter):
        (value,) = operands_to_llvm(op, rewriter)
        b = LLVMBuilder.detached()
        target = convert_type(op.result.type)
        _replace(op, b, [resize_integer(b, value, target, signed=True)], rewriter)


class IndexCastUIToLLVM(RewritePattern):
    """`index_castui`: index is i64, so zero-extend, truncate or nothing."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: IndexCastUIOp, rewriter: PatternRewriter):
        (value,) = operands_to_llvm(op, rewriter)
        b = LLVMBuilder.detached()
        target = convert_type(op.result.type)
        _replace(op, b, [resize_integer(b, value, target, signed=False)], rewriter)


class BitcastToLLVM(RewritePattern):
    """Between an integer and a float of one width: `llvm.bitcast`; between
    `index` and i64 (or a type and itself): nothing."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: arith.BitcastOp, rewriter: PatternRewriter):
        (value,) = operands_to_llvm(op, rewriter)
        target = convert_type(op.result.type)
        b = LLVMBuilder.detached()
        result = value if value.type == target else b.add(llvm.BitcastOp(value, target))
        _replace(op, b, [result], rewriter)


PATTERNS: tuple[RewritePattern, ...] = (
    ConstantToLLVM(),
    OneToOneToLLVM(),
    CmpiToLLVM(),
    CmpfToLLVM(),
    SelectToLLVM(),
    IndexCastToLLVM(),
    IndexCastUIToLLVM(),
    BitcastToLLVM(),
)

CONVERTED: frozenset[type[Operation]] = frozenset(
    {
        *INTEGER_BINARY,
        *FLOAT_BINARY,
        *CASTS,
        *EXPANSIONS,
        arith.NegfOp,
        arith.ConstantOp,
        arith.CmpiOp,
        arith.CmpfOp,
        arith.SelectOp,
        arith.IndexCastOp,
        IndexCastUIOp,
        arith.BitcastOp,
    }
)
"""Every arith op this pass converts."""


SCALAR_ONLY: frozenset[type[Operation]] = frozenset(
    {*EXPANSIONS, arith.IndexCastOp, IndexCastUIOp, arith.BitcastOp}
)
"""Converted ops that take no vectors (their expansions build scalar
constants, or `index` vectors have no LLVM type here)."""


def _vector_problem(op: Operation) -> str | None:
    """Why a vector operand or result of `op` cannot be converted, or None."""
    for value in (*op.operands, *op.results):
        if isinstance(value.type, VectorType):
            if type(op) in SCALAR_ONLY:
                return f"operand or result of type {value.type} is not supported"
            problem = vector_type_problem(value.type)
            if problem is not None:
                return problem
    return None


def _is_scalar_or_vector(type_: Attribute) -> bool:
    return is_scalar(type_) or isinstance(type_, VectorType)


def why_not_converted(op: Operation) -> str | None:
    """Why `op` (an arith op) cannot be converted, or None."""
    if type(op) not in CONVERTED:
        return "has no lowering to the llvm dialect"
    if (problem := _vector_problem(op)) is not None:
        return problem
    if isinstance(op, arith.SelectOp):
        cond, type_ = op.cond.type, op.result.type
        if isinstance(cond, VectorType) and not (
            isinstance(type_, VectorType) and cond.get_shape() == type_.get_shape()
        ):
            return (
                f"a condition of type {cond} needs values of the same shape, "
                f"not {type_}"
            )
        if not _is_scalar_or_vector(cond):
            return (
                f"a condition of type {cond} is not supported "
                "(only i1 or a vector of i1)"
            )
        if not (_is_scalar_or_vector(type_) or isinstance(type_, MemRefType)):
            return (
                f"selecting values of type {type_} is not supported "
                "(only scalars, vectors and ranked memrefs)"
            )
        return None
    if isinstance(op, arith.ConstantOp):
        value = op.value
        if isinstance(value, DenseIntOrFPElementsAttr) and isinstance(
            op.result.type, VectorType
        ):
            return None
        if not isinstance(value, IntegerAttr | FloatAttr):
            return (
                f"a {value.name} value is not supported "
                "(only scalar and dense vector constants)"
            )
    for value in (*op.operands, *op.results):
        if not _is_scalar_or_vector(value.type):
            return (
                f"operand or result of type {value.type} is not supported "
                "(only scalar integers, index and floats)"
            )
    if isinstance(op, arith.BitcastOp):
        source, target = convert_type(op.input.type), convert_type(op.result.type)
        if source != target and (
            isinstance(source, AnyFloat) == isinstance(target, AnyFloat)
        ):
            return f"no bitcast between {op.input.type} and {op.result.type}"
    return None


@dataclass(frozen=True)
class ConvertArithToLLVMPass(ModulePass):
    """Convert `arith` ops on scalars to the `llvm` dialect (see the module
    docstring)."""

    name = "convert-arith-to-llvm"

    fast_math: FastMathMode = "none"
    """Fast-math flags added to every float op's own
    (`linalg_ext.lowering.fast_math`): `none` (the default: only the flags
    written), `contract`, `reassoc`, `arcp` or `fast`."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        patterns = PATTERNS
        if self.fast_math != "none":
            patterns = tuple(
                OneToOneToLLVM(self.fast_math)
                if isinstance(pattern, OneToOneToLLVM)
                else pattern
                for pattern in PATTERNS
            )
        run_conversion(self.name, op, "arith.", why_not_converted, patterns)
