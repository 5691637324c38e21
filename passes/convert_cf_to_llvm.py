"""`convert-cf-to-llvm`: the `cf` dialect's branches to the `llvm` dialect.

As upstream's pass of the same name:

- `cf.br`, `cf.cond_br`, `cf.switch` become `llvm.br`, `llvm.cond_br`,
  `llvm.switch` (an `index` flag and its case values become i64), their
  operands cast to their LLVM types;
- the arguments of every block such a branch leads to get their LLVM types
  (`index` -> i64, memref -> descriptor),
  their uses in the block seeing the original type through a cast;
- `cf.assert %c, "msg"` splits its block: `llvm.cond_br %c` to the rest of
  the block, or to a block that writes `msg` and a newline to stderr
  (`write(2, ...)`), calls `abort` and is `llvm.unreachable`. (Upstream
  prints with `puts`, on stdout, whose buffer `abort` does not flush.)

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
from xdsl.dialects.builtin import (
    IndexType,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    StringAttr,
    i8,
    i32,
    i64,
)
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.traits import SymbolTable

from linalg_ext.compat import llvm_ops
from linalg_ext.lowering.llvm_types import (
    POINTER,
    LoweringError,
    convert_block_arguments,
    convert_type,
    to_llvm,
)
from linalg_ext.lowering.scalar_ops import (
    after_declarations,
    apply_patterns,
    check_ops,
    declare_function,
)

ABORT_TYPE = llvm.LLVMFunctionType([], llvm.LLVMVoidType())
WRITE_TYPE = llvm.LLVMFunctionType([i32, POINTER, i64], i64)
STDERR = 2
ASSERT_MESSAGE_PREFIX = "__linalg_ext_assert_msg"


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


def _message_global(module: ModuleOp, message: str) -> tuple[str, int]:
    """A private constant global holding `message` and a newline (made once
    per message): its name and its size in bytes."""
    text = message + "\n"
    size = len(text.encode("utf-8"))
    array = llvm.LLVMArrayType(size, i8)
    for op in module.ops:
        if (
            isinstance(op, llvm.GlobalOp)
            and op.sym_name.data.startswith(ASSERT_MESSAGE_PREFIX)
            and op.value == StringAttr(text)
        ):
            return op.sym_name.data, size
    index = 0
    while SymbolTable.lookup_symbol(module, name := f"{ASSERT_MESSAGE_PREFIX}_{index}"):
        index += 1
    global_op = llvm.GlobalOp(
        array, name, "private", constant=True, value=StringAttr(text)
    )
    Rewriter.insert_op(global_op, after_declarations(module))
    return name, size


def lower_assert(op: cf.AssertOp, module: ModuleOp) -> None:
    """Split the block at `op`: branch to the rest of the block, or to a
    block that reports `op.msg` and aborts."""
    block = op.parent_block()
    assert block is not None and block.parent is not None
    following = op.next_op
    assert following is not None, "cf.assert cannot end a block"
    rest = block.split_before(following)

    declare_function(module, "write", WRITE_TYPE)
    declare_function(module, "abort", ABORT_TYPE)
    name, size = _message_global(module, op.msg.data)
    failure = Block()
    address = llvm.AddressOfOp(name, POINTER)
    stderr = llvm.ConstantOp(IntegerAttr(STDERR, i32), i32)
    length = llvm.ConstantOp(IntegerAttr(size, i64), i64)
    failure.add_ops(
        [
            address,
            stderr,
            length,
            llvm.CallOp("write", stderr, address, length, return_type=i64),
            llvm.CallOp("abort"),
            llvm.UnreachableOp(),
        ]
    )
    block.parent.add_block(failure)
    Rewriter.replace_op(op, llvm.CondBrOp(op.arg, rest, [], failure, []))


def _unsupported_type(values: Sequence[SSAValue]) -> Attribute | None:
    for value in values:
        try:
            convert_type(value.type)
        except LoweringError:
            return value.type
    return None


def why_not_converted(op: Operation) -> str | None:
    """Why `op` (a cf op) cannot be converted, or None."""
    if isinstance(op, cf.AssertOp):
        return None
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
    """Convert `cf` branches and assertions to the `llvm` dialect (see the
    module docstring)."""

    name = "convert-cf-to-llvm"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        found = check_ops(self.name, op, "cf.", why_not_converted)
        # Asserts split blocks: lower them before the walk over the branches.
        for assert_op in found:
            if isinstance(assert_op, cf.AssertOp):
                lower_assert(assert_op, op)
        apply_patterns(
            self.name, op, (BranchToLLVM(), CondBranchToLLVM(), SwitchToLLVM())
        )
