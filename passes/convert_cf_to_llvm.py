"""`convert-cf-to-llvm`: the `cf` dialect's branches to the `llvm` dialect.

As upstream's pass of the same name:

- `cf.br`, `cf.cond_br`, `cf.switch` become `llvm.br`, `llvm.cond_br`,
  `llvm.switch` (an `index` flag and its case values become i64), their
  operands cast to their LLVM types;
- the arguments of every block such a branch leads to get their LLVM types
  (`index` -> i64, memref -> descriptor),
  their uses in the block seeing the original type through a cast;
- `cf.assert %c, "msg"` and `rtcheck.assert %c, "template" (values)` split
  their block: `llvm.cond_br %c` to the rest of the block, or to a block
  that calls the run-time failure function `_lx_fail` with the
  interpreter's message ("cf.assert failed: msg"; the template and its
  values) and is `llvm.unreachable` (linalg_ext/lowering/llvm_asserts.py).
  `linalg_ext.jit` defines `_lx_fail`: the compiled call ends and Python
  gets a `JitError` with that message. (Upstream prints `msg` with `puts`
  and aborts the process.)

A branch may not reach one block twice with different operands in LLVM IR
(the block's phis would get two values from one predecessor): such an
edge goes through a new block that branches on with its operands.

Refused (the module is left unchanged): a block argument or branch operand
of a type the LLVM dialect has no counterpart for (unranked memrefs,
tensors, vectors of index, ...).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import cf, llvm
from xdsl.dialects.builtin import IndexType, IntegerType, ModuleOp
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint

from linalg_ext.compat import llvm_ops
from linalg_ext.dialect.runtime_check import RuntimeAssertOp
from linalg_ext.lowering.llvm_asserts import (
    lower_cf_assert,
    lower_runtime_assert,
)
from linalg_ext.lowering.llvm_asserts import (
    why_not_lowered as why_assert_not_lowered,
)
from linalg_ext.lowering.llvm_types import (
    LoweringError,
    convert_block_arguments,
    convert_type,
    to_llvm,
)
from linalg_ext.lowering.scalar_ops import apply_patterns, check_ops


def _converted_operands(
    operands: Sequence[SSAValue], before: Operation, rewriter: PatternRewriter
) -> list[SSAValue]:
    return [to_llvm(v, InsertPoint.before(before), rewriter) for v in operands]


class Edges:
    """The successors of one new branch. A destination already reached with
    other operands is reached through a new block instead (see the module
    docstring); each destination's arguments get their LLVM types."""

    def __init__(self, branch: Operation, rewriter: PatternRewriter):
        self.branch = branch
        self.rewriter = rewriter
        self.seen: dict[Block, tuple[SSAValue, ...]] = {}

    def add(
        self, destination: Block, operands: Sequence[SSAValue]
    ) -> tuple[Block, list[SSAValue]]:
        convert_block_arguments(destination, self.rewriter)
        converted = _converted_operands(operands, self.branch, self.rewriter)
        previous = self.seen.setdefault(destination, tuple(converted))
        if previous == tuple(converted):
            return destination, converted
        block = self.branch.parent_block()
        assert block is not None
        trampoline = Block()
        trampoline.add_op(llvm.BrOp(destination, *converted))
        assert block.parent is not None
        block.parent.insert_block_after(trampoline, block)
        return trampoline, []


class BranchToLLVM(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: cf.BranchOp, rewriter: PatternRewriter):
        edges = Edges(op, rewriter)
        destination, operands = edges.add(op.successor, op.arguments)
        rewriter.replace(op, llvm.BrOp(destination, *operands))


class CondBranchToLLVM(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: cf.ConditionalBranchOp, rewriter: PatternRewriter):
        edges = Edges(op, rewriter)
        then_block, then_operands = edges.add(op.then_block, op.then_arguments)
        else_block, else_operands = edges.add(op.else_block, op.else_arguments)
        rewriter.replace(
            op,
            llvm.CondBrOp(
                op.cond, then_block, then_operands, else_block, else_operands
            ),
        )


class SwitchToLLVM(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: cf.SwitchOp, rewriter: PatternRewriter):
        flag = to_llvm(op.flag, InsertPoint.before(op), rewriter)
        edges = Edges(op, rewriter)
        default, default_operands = edges.add(op.default_block, op.default_operands)
        values = [int(v) for v in op.case_values.get_values()] if op.case_values else []
        cases = [
            edges.add(block, operands)
            for block, operands in zip(op.case_blocks, op.case_operand, strict=True)
        ]
        rewriter.replace(
            op,
            llvm_ops.SwitchOp(
                flag,
                default,
                default_operands,
                values,
                [block for block, _ in cases],
                [operands for _, operands in cases],
            ),
        )


def _unsupported_type(values: Sequence[SSAValue]) -> Attribute | None:
    for value in values:
        try:
            convert_type(value.type)
        except LoweringError:
            return value.type
    return None


def why_not_converted(op: Operation) -> str | None:
    """Why `op` (a cf or rtcheck op) cannot be converted, or None."""
    if isinstance(op, cf.AssertOp):
        return None
    if isinstance(op, RuntimeAssertOp):
        return why_assert_not_lowered(op)
    if not isinstance(op, cf.BranchOp | cf.ConditionalBranchOp | cf.SwitchOp):
        return "has no lowering to the llvm dialect"
    if isinstance(op, cf.SwitchOp) and not isinstance(
        op.flag.type, IntegerType | IndexType
    ):
        return f"a flag of type {op.flag.type} is not supported"
    for successor in op.successors:
        bad = _unsupported_type(successor.args)
        if bad is not None:
            return (
                f"a destination block has an argument of type {bad}, "
                "which has no LLVM type"
            )
    bad = _unsupported_type(op.operands)
    if bad is not None:
        return f"an operand of type {bad} has no LLVM type"
    return None


@dataclass(frozen=True)
class ConvertCfToLLVMPass(ModulePass):
    """Convert `cf` branches and assertions (and `rtcheck.assert`) to the
    `llvm` dialect (see the module docstring)."""

    name = "convert-cf-to-llvm"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        found = check_ops(self.name, op, ("cf.", "rtcheck."), why_not_converted)
        # Asserts split blocks: lower them before the walk over the branches.
        for assert_op in found:
            if isinstance(assert_op, cf.AssertOp):
                lower_cf_assert(assert_op, op)
            elif isinstance(assert_op, RuntimeAssertOp):
                lower_runtime_assert(assert_op, op)
        apply_patterns(
            self.name, op, (BranchToLLVM(), CondBranchToLLVM(), SwitchToLLVM())
        )
