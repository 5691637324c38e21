"""Translation of the `llvm` float arithmetic ops with their fast-math flags
in a fixed order.

xDSL 0.74 translates `llvm.fadd`/`fsub`/`fmul`/`fdiv`/`frem`/`fneg` with
their fast-math flags, but lists them in the iteration order of a
`frozenset` of string enums, which changes from one process to the next
(string hashing is randomised): the same module gives different LLVM IR text
(`fadd nsz reassoc` here, `fadd reassoc nsz` there). These translations
list the flags in LLVM's own order (`reassoc nnan ninf nsz arcp contract
afn`), and all seven as `fast`, as LLVM and `mlir-translate` print them, so
that the text is reproducible and can be checked.
`compat.install()` registers them (`install_float_op_translations`).
"""

from __future__ import annotations

from collections.abc import Callable

from llvmlite import ir
from xdsl.dialects import llvm
from xdsl.dialects.utils.fast_math import FastMathFlag
from xdsl.ir import Operation, SSAValue

from linalg_ext.compat.llvm_translation import translates

LLVM_FLAG_ORDER = (
    FastMathFlag.REASSOC,
    FastMathFlag.NO_NANS,
    FastMathFlag.NO_INFS,
    FastMathFlag.NO_SIGNED_ZEROS,
    FastMathFlag.ALLOW_RECIP,
    FastMathFlag.ALLOW_CONTRACT,
    FastMathFlag.APPROX_FUNC,
)
"""The order in which LLVM prints an instruction's fast-math flags."""


def llvm_ir_flags(op: Operation) -> list[str]:
    """The op's `fastmathFlags` as LLVM IR spells them, in LLVM's order
    (`["fast"]` for all seven)."""
    attr = op.properties.get("fastmathFlags")
    if not isinstance(attr, llvm.FastMathAttr) or not attr.data:
        return []
    if attr.data == frozenset(FastMathFlag):
        return ["fast"]
    return [flag.value for flag in LLVM_FLAG_ORDER if flag in attr.data]


_BINARY: dict[type[Operation], str] = {
    llvm.FAddOp: "fadd",
    llvm.FSubOp: "fsub",
    llvm.FMulOp: "fmul",
    llvm.FDivOp: "fdiv",
    llvm.FRemOp: "frem",
}
"""Each op and the `IRBuilder` method that emits its instruction."""


def _instruction(builder: ir.IRBuilder, name: str) -> Callable[..., ir.Value]:
    # llvmlite's stubs type its decorated instruction methods as returning
    # None; they return the instruction.
    return getattr(builder, name)


def _translate_float_binary(
    op: Operation, builder: ir.IRBuilder, values: dict[SSAValue, ir.Value]
) -> None:
    lhs, rhs = (values[operand] for operand in op.operands)
    instruction = _instruction(builder, _BINARY[type(op)])
    values[op.results[0]] = instruction(lhs, rhs, flags=llvm_ir_flags(op))


def _translate_fneg(
    op: Operation, builder: ir.IRBuilder, values: dict[SSAValue, ir.Value]
) -> None:
    negate = _instruction(builder, "fneg")
    values[op.results[0]] = negate(values[op.operands[0]], flags=llvm_ir_flags(op))


def install_float_op_translations() -> None:
    """Register these translations (in front of xDSL's; idempotent)."""
    translates(*_BINARY)(_translate_float_binary)
    translates(llvm.FNegOp)(_translate_fneg)
