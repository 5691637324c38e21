"""Assertions in the `llvm` dialect: `rtcheck.assert` and `cf.assert` as a
branch to a call of the run-time failure function.

A check splits its block: `llvm.cond_br %ok` to the rest of the block, or
to a cold block that calls

    void _lx_fail(ptr template, i64 count, ptr values)   // does not return

with the message template (a private constant global, null-terminated,
with one `{}` per value) and its values, each sign-extended to i64, in a
stack array; the block then ends in `llvm.unreachable`. The message is the
interpreter's: `rtcheck.assert` carries its template and values,
`cf.assert %c, "msg"` says "cf.assert failed: msg" (its braces doubled, so
that formatting leaves them as they are).

`_lx_fail` is the run-time's failure function, declared here as an external
symbol. `linalg_ext.jit` defines it (linalg_ext/jit/llvm_additions.py): it
ends the compiled call, and the Python caller gets a `JitError` with
`template.format(*values)`, the interpreter's text. LLVM IR produced
elsewhere (`xdsl-opt -p lower-to-llvm -t llvm`) is valid with the
declaration alone; whoever links it provides `_lx_fail`.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import cf, llvm
from xdsl.dialects.builtin import (
    IndexType,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    StringAttr,
    i8,
    i64,
)
from xdsl.ir import Block, Operation, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.traits import SymbolTable

from linalg_ext.dialect.runtime_check import RuntimeAssertOp
from linalg_ext.lowering.llvm_types import POINTER, to_llvm
from linalg_ext.lowering.scalar_ops import after_declarations, declare_function

FAIL_FUNCTION = "_lx_fail"
"""The run-time function a failing check calls (see the module docstring)."""

FAIL_TYPE = llvm.LLVMFunctionType([POINTER, i64, POINTER], llvm.LLVMVoidType())
"""`void _lx_fail(ptr template, i64 count, ptr values)`."""

MAX_FAIL_VALUES = 32
"""The most values one message carries (the JIT keeps room for this many)."""

MESSAGE_PREFIX = "__linalg_ext_assert_msg"
"""Names of the message globals: `__linalg_ext_assert_msg_<n>`."""


def cf_assert_template(message: str) -> str:
    """The template of `cf.assert`'s failure: the interpreter's text, with
    the braces of `message` doubled (it has no values)."""
    escaped = message.replace("{", "{{").replace("}", "}}")
    return f"cf.assert failed: {escaped}"


def why_not_lowered(op: RuntimeAssertOp) -> str | None:
    """Why `op` cannot be lowered, or None."""
    if len(op.values) > MAX_FAIL_VALUES:
        return (
            f"carries {len(op.values)} values, at most {MAX_FAIL_VALUES} are supported"
        )
    for value in op.values:
        if isinstance(value.type, IntegerType) and value.type.width.data > 64:
            return f"a value of type {value.type} is wider than 64 bits"
    return None


def message_global(module: ModuleOp, template: str) -> str:
    """A private constant global holding `template`, null-terminated (one
    per distinct template): its name."""
    text = template + "\0"
    for op in module.ops:
        if (
            isinstance(op, llvm.GlobalOp)
            and op.sym_name.data.startswith(MESSAGE_PREFIX)
            and op.value == StringAttr(text)
        ):
            return op.sym_name.data
    index = 0
    while SymbolTable.lookup_symbol(module, name := f"{MESSAGE_PREFIX}_{index}"):
        index += 1
    array = llvm.LLVMArrayType(len(text.encode("utf-8")), i8)
    global_op = llvm.GlobalOp(
        array, name, "private", constant=True, value=StringAttr(text)
    )
    Rewriter.insert_op(global_op, after_declarations(module))
    return name


def _as_i64(value: SSAValue, before: Operation, ops: list[Operation]) -> SSAValue:
    """`value` (index or an integer of at most 64 bits) as a signed i64."""
    converted = to_llvm(value, InsertPoint.before(before))
    type_ = converted.type
    if isinstance(value.type, IndexType) or type_ == i64:
        return converted
    assert isinstance(type_, IntegerType)
    extended = llvm.SExtOp(converted, i64)
    ops.append(extended)
    return extended.res


def lower_check(
    op: Operation,
    condition: SSAValue,
    template: str,
    values: Sequence[SSAValue],
    module: ModuleOp,
) -> None:
    """Replace `op` (a check that holds when `condition` is true) by a
    branch to the rest of its block, or to a block that calls `_lx_fail`
    with `template` and `values` (see the module docstring)."""
    block = op.parent_block()
    assert block is not None and block.parent is not None
    following = op.next_op
    assert following is not None, f"{op.name} cannot end a block"
    declare_function(module, FAIL_FUNCTION, FAIL_TYPE)
    name = message_global(module, template)

    # Values become i64 where they are (they dominate the op); the failure
    # block stores them.
    ops: list[Operation] = []
    converted = [_as_i64(v, op, ops) for v in values]
    address = llvm.AddressOfOp(name, POINTER)
    count = llvm.ConstantOp(IntegerAttr(len(values), i64), i64)
    ops += [address, count]
    if values:
        array = llvm.AllocaOp(count.result, i64, alignment=8)
        ops.append(array)
        for index, value in enumerate(converted):
            slot = llvm.GEPOp(array.res, [index], i64)
            ops += [slot, llvm.StoreOp(value, slot.result)]
        pointer = array.res
    else:
        null = llvm.ZeroOp(result_types=[POINTER])
        ops.append(null)
        pointer = null.res
    ops += [
        llvm.CallOp(FAIL_FUNCTION, address, count, pointer),
        llvm.UnreachableOp(),
    ]
    failure = Block()
    failure.add_ops(ops)
    rest = block.split_before(following)
    block.parent.add_block(failure)
    Rewriter.replace_op(op, llvm.CondBrOp(condition, rest, [], failure, []))


def lower_runtime_assert(op: RuntimeAssertOp, module: ModuleOp) -> None:
    """`rtcheck.assert`: fails with its template and values."""
    lower_check(op, op.condition, op.message.data, list(op.values), module)


def lower_cf_assert(op: cf.AssertOp, module: ModuleOp) -> None:
    """`cf.assert`: fails with "cf.assert failed: <msg>"."""
    lower_check(op, op.arg, cf_assert_template(op.msg.data), [], module)
