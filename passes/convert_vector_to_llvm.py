"""`convert-vector-to-llvm-ext`: 1-D `vector` ops to the `llvm` dialect.

Converts the `vector` ops that compute on values; `vector.load` and
`vector.store` address memory through a memref descriptor and are lowered
by `finalize-memref-to-llvm` next to `memref.load`/`store`. Arith ops on
vectors are converted by `convert-arith-to-llvm`. Only one-dimensional
vectors of fixed length whose elements are signless integers or floats
are taken: an LLVM vector type is the same type (`vector<16xf32>`).

- `vector.broadcast` of a scalar: the scalar inserted at lane 0 of a poison
  vector, then a `llvm.shufflevector` with a mask of zeros copies it to
  every lane;
- `vector.fma`: `llvm.intr.fma` (one rounding per lane; upstream uses
  `llvm.intr.fmuladd`, which lets LLVM round twice);
- `vector.reduction`: `<add>`/`<mul>` of floats are
  `llvm.intr.vector.reduce.fadd`/`fmul` from the accumulator (or -0.0 /
  1.0), in lane order unless the op's `fastmath` (or the pass's
  `fast-math` option) has `reassoc`; `<maxnumf>`/`<minnumf>` are
  `llvm.intr.vector.reduce.fmax`/`fmin`, `<maximumf>`/`<minimumf>`
  `fmaximum`/`fminimum`; the integer kinds (`add`, `mul`, `and`, `or`,
  `xor`, `maxsi`, `minsi`, `maxui`, `minui`) the integer reductions. An
  accumulator is then combined with the result by the scalar op of the kind.

Before:

    %v = vector.broadcast %s : f32 to vector<4xf32>
    %r = vector.reduction <maxnumf>, %v, %acc : vector<4xf32> into f32

After:

    %0 = llvm.mlir.poison : vector<4xf32>
    %1 = llvm.mlir.constant(0 : i32) : i32
    %2 = llvm.insertelement %s, %0[%1 : i32] : vector<4xf32>
    %v = llvm.shufflevector %2, %0 [0, 0, 0, 0] : vector<4xf32>
    %3 = llvm.intr.vector.reduce.fmax(%v) : (vector<4xf32>) -> f32
    %r = llvm.intr.maxnum(%3, %acc) : (f32, f32) -> f32

Refused (module unchanged, one line naming the op): scalable, n-D or
`index` vectors, a broadcast of a vector, a reduction kind that does not
fit the element type.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import llvm, vector
from xdsl.dialects.builtin import (
    AnyFloat,
    DenseArrayBase,
    FloatAttr,
    IntegerType,
    ModuleOp,
    VectorType,
    i32,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)

from linalg_ext.compat import llvm_ops
from linalg_ext.compat.llvm_value_ops import PoisonOp
from linalg_ext.compat.llvm_vector_ops import FLOAT_REDUCTIONS, INTEGER_REDUCTIONS
from linalg_ext.lowering.fast_math import FastMathMode, added_flags
from linalg_ext.lowering.llvm_types import (
    operands_to_llvm,
    replace_with_llvm,
    vector_type_problem,
)
from linalg_ext.lowering.scalar_ops import (
    LLVMBuilder,
    llvm_fastmath,
    run_conversion,
)

Kind = vector.CombiningKindFlag

FLOAT_KINDS: dict[Kind, str] = {
    Kind.MAXNUMF: "fmax",
    Kind.MINNUMF: "fmin",
    Kind.MAXIMUMF: "fmaximum",
    Kind.MINIMUMF: "fminimum",
}
"""Float reductions without a start value: kind -> LLVM's reduction."""

FloatCombine = Callable[[SSAValue, SSAValue, llvm.FastMathAttr], Operation]

FLOAT_COMBINE: dict[Kind, FloatCombine] = {
    Kind.MAXNUMF: llvm.VectorFMaxOp,
    Kind.MINNUMF: llvm.VectorFMinOp,
    Kind.MAXIMUMF: llvm_ops.MaximumOp,
    Kind.MINIMUMF: llvm_ops.MinimumOp,
}
"""How an accumulator joins a float reduction's result."""

ORDERED_KINDS: dict[Kind, tuple[type[llvm.VectorReduceOperation], float, str]] = {
    Kind.ADD: (llvm.VectorReduceFAddOp, -0.0, "arith.addf"),
    Kind.MUL: (llvm.VectorReduceFMulOp, 1.0, "arith.mulf"),
}
"""Float sums and products: the reduction, its start without accumulator
(-0.0 leaves every sum as it is, -0.0 included), and the arith op whose
fast-math flags the pass's option adds."""

INTEGER_KINDS: dict[Kind, tuple[str, Callable[[SSAValue, SSAValue], Operation]]] = {
    Kind.ADD: ("add", llvm.AddOp),
    Kind.MUL: ("mul", llvm.MulOp),
    Kind.AND: ("and", llvm.AndOp),
    Kind.OR: ("or", llvm.OrOp),
    Kind.XOR: ("xor", llvm.XOrOp),
    Kind.MAXSI: ("smax", llvm_ops.SMaxOp),
    Kind.MINSI: ("smin", llvm_ops.SMinOp),
    Kind.MAXUI: ("umax", llvm_ops.UMaxOp),
    Kind.MINUI: ("umin", llvm_ops.UMinOp),
}
"""Integer reductions: kind -> LLVM's reduction, and the op that joins an
accumulator."""

CONVERTED_OPS = ("vector.broadcast", "vector.fma", "vector.reduction")
"""The ops this pass converts (other `vector` ops are left alone)."""


def _vector_problem(type_: Attribute) -> str | None:
    if isinstance(type_, VectorType):
        return vector_type_problem(type_)
    return None


def why_not_converted(op: Operation) -> str | None:
    """Why `op` (one of CONVERTED_OPS) cannot be converted, or None."""
    for value in (*op.operands, *op.results):
        if (problem := _vector_problem(value.type)) is not None:
            return problem
    if isinstance(op, vector.BroadcastOp) and isinstance(op.source.type, VectorType):
        return (
            f"broadcasting a vector ({op.source.type}) is not supported "
            "(only a scalar source)"
        )
    if isinstance(op, vector.ReductionOp):
        kind = op.kind.data
        element = op.dest.type
        if isinstance(element, AnyFloat):
            if kind not in FLOAT_KINDS and kind not in ORDERED_KINDS:
                return f"kind <{kind}> does not reduce floats"
        elif isinstance(element, IntegerType):
            if kind not in INTEGER_KINDS:
                return f"kind <{kind}> does not reduce integers"
        else:
            return f"reducing into {element} is not supported"
    return None


class BroadcastToLLVM(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: vector.BroadcastOp, rewriter: PatternRewriter):
        (scalar,) = operands_to_llvm(op, rewriter)
        type_ = op.vector.type
        b = LLVMBuilder.detached()
        poison = b.add(PoisonOp(type_))
        zero = b.constant(0, i32)
        lane0 = b.add(llvm.InsertElementOp(poison, scalar, zero))
        mask = DenseArrayBase.from_list(i32, [0] * type_.get_shape()[0])
        splat = b.add(llvm.ShuffleVectorOp(lane0, poison, mask, type_))
        replace_with_llvm(op, b.take_ops(), [splat], rewriter)


class FMAToLLVM(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: vector.FMAOp, rewriter: PatternRewriter):
        lhs, rhs, acc = operands_to_llvm(op, rewriter)
        b = LLVMBuilder.detached()
        result = b.add(llvm.FMAOp(lhs, rhs, acc))
        replace_with_llvm(op, b.take_ops(), [result], rewriter)


@dataclass
class ReductionToLLVM(RewritePattern):
    """`vector.reduction`, float sums and products with the op's fast-math
    flags plus those `fast_math` adds."""

    fast_math: FastMathMode = "none"

    def _flags(self, op: Operation, as_op: str) -> llvm.FastMathAttr:
        flags = llvm_fastmath(op)
        added = added_flags(self.fast_math, as_op)
        return llvm.FastMathAttr(flags.data | added) if added else flags

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: vector.ReductionOp, rewriter: PatternRewriter):
        operands = operands_to_llvm(op, rewriter)
        source, acc = operands[0], (operands[1] if len(operands) > 1 else None)
        element = op.dest.type
        kind = op.kind.data
        b = LLVMBuilder.detached()
        if isinstance(element, AnyFloat) and kind in ORDERED_KINDS:
            reduce, identity, as_op = ORDERED_KINDS[kind]
            start = acc or b.add(llvm.ConstantOp(FloatAttr(identity, element), element))
            result = b.add(reduce(start, source, self._flags(op, as_op)))
        elif isinstance(element, AnyFloat):
            flags = self._flags(op, op.name)
            result = b.add(FLOAT_REDUCTIONS[FLOAT_KINDS[kind]](source, flags))
            if acc is not None:
                result = b.add(FLOAT_COMBINE[kind](result, acc, flags))
        else:
            name, combine = INTEGER_KINDS[kind]
            result = b.add(INTEGER_REDUCTIONS[name](source))
            if acc is not None:
                result = b.add(combine(result, acc))
        replace_with_llvm(op, b.take_ops(), [result], rewriter)


@dataclass(frozen=True)
class ConvertVectorToLLVMPass(ModulePass):
    """Convert 1-D `vector.broadcast`, `fma` and `reduction` to the `llvm`
    dialect (see the module docstring)."""

    name = "convert-vector-to-llvm-ext"

    fast_math: FastMathMode = "none"
    """Fast-math flags added to the float reductions, as
    convert-arith-to-llvm adds them (`reassoc` lets sums and products be
    reordered)."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        patterns = (BroadcastToLLVM(), FMAToLLVM(), ReductionToLLVM(self.fast_math))
        run_conversion(self.name, op, CONVERTED_OPS, why_not_converted, patterns)
