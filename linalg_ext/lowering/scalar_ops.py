"""What the scalar lowerings to the `llvm` dialect share.

`convert-arith-to-llvm`, `convert-math-to-llvm`, `convert-index-to-llvm`,
`convert-cf-to-llvm` and `convert-func-to-llvm` each convert the ops of one
dialect. They share:

- `run_conversion` (`check_ops`, then `apply_patterns`): check every op of
  the dialect first (so that a refused op leaves the module untouched and
  the message names it), then apply the patterns once over the module;
- `scalar_llvm_type`: the LLVM type of a scalar operand or result (the only
  kind the arithmetic lowerings take: vectors and tensors are refused);
- `llvm_fastmath`: the `#llvm.fastmath` flags of an op's `fastmath`;
- `LLVMBuilder` (an `xdsl.builder.Builder`) and the expansions of the rounding divisions
  (`signed_quotient`, `ceil_unsigned_quotient`) and of integer resizing
  (`resize_integer`), which `arith` and `index` share;
- `declare_function`: a module-level `llvm.func` declaration (libm
  functions, the run-time failure function `_lx_fail` that failed
  `rtcheck.assert`s and `cf.assert`s call, lowering/llvm_asserts.py),
  added once.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from xdsl.builder import Builder
from xdsl.dialects import llvm
from xdsl.dialects.builtin import (
    AnyFloat,
    IndexType,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    StringAttr,
    UnregisteredOp,
)
from xdsl.dialects.utils.fast_math import FastMathAttrBase
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriteWalker,
    RewritePattern,
)
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.utils.exceptions import PassFailedException

from linalg_ext.diagnostics import OpPassFailed
from linalg_ext.lowering.llvm_types import LoweringError, convert_type

Check = Callable[[Operation], str | None]
"""Returns why an op cannot be converted, or None when it can."""


def is_scalar(type_: Attribute) -> bool:
    """Signless integers, `index` and floats: what the scalar lowerings take."""
    return isinstance(type_, IntegerType | IndexType | AnyFloat)


def scalar_llvm_type(type_: Attribute) -> Attribute:
    """The LLVM type of a scalar type (`index` -> i64)."""
    if not is_scalar(type_):
        raise LoweringError(f"{type_} is not a scalar")
    return convert_type(type_)


def non_scalar_types(op: Operation) -> str | None:
    """Why `op` cannot be converted if an operand or result is not a scalar
    (vectors and tensors have no lowering here), else None."""
    for value in (*op.operands, *op.results):
        if not is_scalar(value.type):
            return (
                f"operand or result of type {value.type} is not supported "
                "(only scalar integers, index and floats)"
            )
    return None


def llvm_fastmath(op: Operation, name: str = "fastmath") -> llvm.FastMathAttr:
    """The `#llvm.fastmath` flags of the op's fast-math property `name`
    (arith's and llvm's share one set of flags)."""
    attr = op.properties.get(name) or op.attributes.get(name)
    if isinstance(attr, FastMathAttrBase):
        return llvm.FastMathAttr(attr.data)
    return llvm.FastMathAttr(None)


def declare_function(
    module: ModuleOp, name: str, type_: llvm.LLVMFunctionType
) -> llvm.FuncOp:
    """The module's `llvm.func @name` declaration, added after the other
    declarations at the top of the module if there is none. A function of
    that name with another type (or another op of that name) is an error
    naming both."""
    for op in module.ops:
        if isinstance(op, llvm.FuncOp) and op.sym_name.data == name:
            if op.function_type != type_:
                raise LoweringError(
                    f"@{name} is declared as {op.function_type}, needed as {type_}"
                )
            return op
        sym_name = op.properties.get("sym_name")
        if isinstance(sym_name, StringAttr) and sym_name.data == name:
            raise LoweringError(
                f"@{name} is needed as a {type_} function, but the module "
                f"defines a '{op.name}' of that name"
            )
    declaration = llvm.FuncOp(name, type_, linkage=llvm.LinkageAttr("external"))
    Rewriter.insert_op(declaration, after_declarations(module))
    return declaration


def after_declarations(module: ModuleOp) -> InsertPoint:
    """After the declarations and globals at the top of the module, so that
    they read in the order they were added."""
    for op in module.ops:
        is_declaration = isinstance(op, llvm.FuncOp) and not op.body.blocks
        if not (is_declaration or isinstance(op, llvm.GlobalOp)):
            return InsertPoint.before(op)
    return InsertPoint.at_end(module.body.block)


def check_ops(
    pass_name: str,
    module: ModuleOp,
    dialect_prefix: str | Sequence[str],
    check: Check,
) -> list[Operation]:
    """Every op whose name starts with `dialect_prefix`, in order; raise
    PassFailedException naming the first one `check` rejects."""
    prefixes = (
        (dialect_prefix,) if isinstance(dialect_prefix, str) else tuple(dialect_prefix)
    )
    found: list[Operation] = []
    for op in module.walk():
        name = op_name(op)
        if name.startswith(prefixes):
            reason = check(op)
            if reason is not None:
                raise OpPassFailed(f"{pass_name}: '{name}': {reason}", op)
            found.append(op)
    return found


def op_name(op: Operation) -> str:
    """The op's name as written, also for an unregistered op."""
    if isinstance(op, UnregisteredOp):
        return op.op_name.data
    return op.name


def apply_patterns(
    pass_name: str, module: ModuleOp, patterns: Iterable[RewritePattern]
) -> None:
    """Apply `patterns` once over the module."""
    try:
        PatternRewriteWalker(
            GreedyRewritePatternApplier(list(patterns)), apply_recursively=False
        ).rewrite_module(module)
    except LoweringError as error:
        raise PassFailedException(f"{pass_name}: {error}") from error


def run_conversion(
    pass_name: str,
    module: ModuleOp,
    dialect_prefix: str | Sequence[str],
    check: Check,
    patterns: Iterable[RewritePattern],
) -> None:
    """Convert the ops whose names start with `dialect_prefix`: refuse the
    module (PassFailedException, module unchanged) if `check` rejects one of
    them, else rewrite them all with `patterns`."""
    check_ops(pass_name, module, dialect_prefix, check)
    apply_patterns(pass_name, module, patterns)


@dataclass(eq=False)
class LLVMBuilder(Builder):
    """An `xdsl.builder.Builder` for the `llvm` ops of one replacement,
    built detached (`detached`) and handed over in order (`take_ops`)."""

    @classmethod
    def detached(cls) -> LLVMBuilder:
        return cls(InsertPoint.at_end(Block()))

    def take_ops(self) -> list[Operation]:
        """The ops built, detached, for a rewriter to insert."""
        ops = list(self.insertion_point.block.ops)
        for op in ops:
            op.detach()
        return ops

    def add(self, op: Operation) -> SSAValue:
        """Insert `op`; its (first) result."""
        return self.insert(op).results[0]

    def constant(self, value: int, type_: Attribute) -> SSAValue:
        assert isinstance(type_, IntegerType)
        return self.add(
            llvm.ConstantOp(IntegerAttr(value, type_, truncate_bits=True), type_)
        )

    def icmp(self, predicate: str, lhs: SSAValue, rhs: SSAValue) -> SSAValue:
        flag = llvm.ICmpPredicateFlag(predicate)
        return self.add(llvm.ICmpOp(lhs, rhs, IntegerAttr(flag.to_int(), 64)))


def signed_quotient(
    b: LLVMBuilder, lhs: SSAValue, rhs: SSAValue, round_up: bool
) -> SSAValue:
    """ceildivsi (round_up) or floordivsi: the quotient rounded toward zero,
    moved by one toward the right infinity when the division is inexact and
    the exact quotient is positive (ceil) or negative (floor)."""
    quotient = b.add(llvm.SDivOp(lhs, rhs))
    product = b.add(llvm.MulOp(quotient, rhs))
    inexact = b.icmp("ne", product, lhs)
    zero = b.constant(0, lhs.type)
    lhs_negative = b.icmp("slt", lhs, zero)
    rhs_negative = b.icmp("slt", rhs, zero)
    # The exact quotient is positive when the signs agree.
    signs = b.icmp("eq" if round_up else "ne", lhs_negative, rhs_negative)
    adjust = b.add(llvm.AndOp(inexact, signs))
    moved = b.add(llvm.AddOp(quotient, b.constant(1 if round_up else -1, lhs.type)))
    return b.add(llvm.SelectOp(adjust, moved, quotient))


def ceil_unsigned_quotient(b: LLVMBuilder, lhs: SSAValue, rhs: SSAValue) -> SSAValue:
    """`lhs == 0 ? 0 : (lhs - 1) / rhs + 1`, which cannot overflow."""
    zero = b.constant(0, lhs.type)
    one = b.constant(1, lhs.type)
    is_zero = b.icmp("eq", lhs, zero)
    below = b.add(llvm.SubOp(lhs, one))
    quotient = b.add(llvm.UDivOp(below, rhs))
    rounded = b.add(llvm.AddOp(quotient, one))
    return b.add(llvm.SelectOp(is_zero, zero, rounded))


def resize_integer(
    b: LLVMBuilder, value: SSAValue, target: Attribute, signed: bool
) -> SSAValue:
    """`value` extended (signed or not) or truncated to the integer `target`."""
    assert isinstance(value.type, IntegerType) and isinstance(target, IntegerType)
    source_width, target_width = value.type.width.data, target.width.data
    if source_width == target_width:
        return value
    if source_width > target_width:
        return b.add(llvm.TruncOp(value, target))
    return b.add((llvm.SExtOp if signed else llvm.ZExtOp)(value, target))
