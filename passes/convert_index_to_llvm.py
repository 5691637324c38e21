"""`convert-index-to-llvm`: the `index` dialect to the `llvm` dialect on i64.

As upstream's pass of the same name (with 64-bit index), this converts the
`index` dialect's ops only (`linalg_ext.compat.index_ops`; xDSL 0.74 has
no such dialect); casts bridge to operands and users in other dialects.

- one op each: `add`, `sub`, `mul`, `divs`/`divu` (`sdiv`/`udiv`),
  `rems`/`remu`, `maxs`/`maxu`/`mins`/`minu` (`llvm.intr.smax`/...),
  `shl`, `shrs`/`shru` (`ashr`/`lshr`), `and`, `or`, `xor`, `cmp`
  (`llvm.icmp` with the same predicate), `constant`, `bool.constant`;
- `ceildivs`, `floordivs`, `ceildivu`: expanded as `convert-arith-to-llvm`
  expands `arith.ceildivsi`, `floordivsi`, `ceildivui`;
- `casts`/`castu`: `sext`/`zext` or `trunc` between i64 and the integer
  type (nothing for i64);
- `sizeof`: the constant 64.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import llvm
from xdsl.dialects.builtin import IntegerAttr, ModuleOp, i1, i64
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern

from linalg_ext.compat import index_ops as index
from linalg_ext.compat import llvm_ops
from linalg_ext.lowering.llvm_types import (
    INDEX_TYPE,
    convert_type,
    operands_to_llvm,
    replace_with_llvm,
)
from linalg_ext.lowering.scalar_ops import (
    LLVMBuilder,
    ceil_unsigned_quotient,
    resize_integer,
    run_conversion,
    signed_quotient,
)

BINARY: dict[type[Operation], type[Operation]] = {
    index.AddOp: llvm.AddOp,
    index.SubOp: llvm.SubOp,
    index.MulOp: llvm.MulOp,
    index.DivSOp: llvm.SDivOp,
    index.DivUOp: llvm.UDivOp,
    index.RemSOp: llvm.SRemOp,
    index.RemUOp: llvm.URemOp,
    index.MaxSOp: llvm_ops.SMaxOp,
    index.MaxUOp: llvm_ops.UMaxOp,
    index.MinSOp: llvm_ops.SMinOp,
    index.MinUOp: llvm_ops.UMinOp,
    index.ShlOp: llvm.ShlOp,
    index.ShrSOp: llvm.AShrOp,
    index.ShrUOp: llvm.LShrOp,
    index.AndOp: llvm.AndOp,
    index.OrOp: llvm.OrOp,
    index.XOrOp: llvm.XOrOp,
}
"""Binary ops that are one LLVM op on i64."""


def _convert(op: Operation, b: LLVMBuilder, operands: list[SSAValue]) -> SSAValue:
    """The converted result of `op`, its LLVM ops added to `b`."""
    kind = type(op)
    if kind in BINARY:
        return b.add(BINARY[kind](*operands))
    if isinstance(op, index.CeilDivSOp):
        return signed_quotient(b, *operands, round_up=True)
    if isinstance(op, index.FloorDivSOp):
        return signed_quotient(b, *operands, round_up=False)
    if isinstance(op, index.CeilDivUOp):
        return ceil_unsigned_quotient(b, *operands)
    if isinstance(op, index.CmpOp):
        return b.icmp(op.pred.data.value, *operands)
    if isinstance(op, index.ConstantOp):
        return b.constant(op.value.value.data, INDEX_TYPE)
    if isinstance(op, index.BoolConstantOp):
        return b.add(llvm.ConstantOp(IntegerAttr(op.value.value.data, i1), i1))
    if isinstance(op, index.SizeOfOp):
        return b.constant(INDEX_TYPE.width.data, i64)
    assert isinstance(op, index.CastSOp | index.CastUOp)
    target = convert_type(op.output.type)
    return resize_integer(b, operands[0], target, isinstance(op, index.CastSOp))


class IndexToLLVM(RewritePattern):
    """Every op of the `index` dialect."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not op.name.startswith("index."):
            return
        operands = operands_to_llvm(op, rewriter)
        b = LLVMBuilder.detached()
        result = _convert(op, b, operands)
        replace_with_llvm(op, b.take_ops(), [result], rewriter)


CONVERTED: frozenset[type[Operation]] = frozenset(index.Index.operations)


def why_not_converted(op: Operation) -> str | None:
    """Why `op` (an index op) cannot be converted, or None."""
    if type(op) not in CONVERTED:
        return "has no lowering to the llvm dialect"
    return None


@dataclass(frozen=True)
class ConvertIndexToLLVMPass(ModulePass):
    """Convert the `index` dialect's ops to the `llvm` dialect on i64 (see the
    module docstring)."""

    name = "convert-index-to-llvm"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        run_conversion(self.name, op, "index.", why_not_converted, (IndexToLLVM(),))
