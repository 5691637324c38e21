"""Which buffers a compiled function may write: memref arguments (a read-only
numpy array is refused for them) and mutable globals (reset at every call).

The rule is conservative: a memref value is known not to be written when
every use of it, and of every view of it, only reads it:

- `memref.load`, `affine.load`, `memref.dim`, `memref.extract_*` metadata
  queries; the source of `memref.copy`; an input (`ins`) of a linalg or
  linalg_ext op; `func.return` (the caller gets it back);
- views (`memref.subview`, `cast`, `reinterpret_cast`, `expand_shape`,
  `collapse_shape`, `transpose`), whose own uses are looked at in turn.

Anything else (a store, an output, a call, a loop's iter_args, ...) may
write it.
"""

from __future__ import annotations

from xdsl.dialects import func, memref
from xdsl.dialects.builtin import MemRefType, ModuleOp
from xdsl.ir import Operation, SSAValue

from linalg_ext.transforms.dps import has_loops

READS = frozenset(
    {
        "memref.load",
        "affine.load",
        "memref.dim",
        "memref.extract_aligned_pointer_as_index",
        "memref.extract_strided_metadata",
        "func.return",
    }
)
"""Ops that only read a memref operand."""

VIEWS = frozenset(
    {
        "memref.subview",
        "memref.cast",
        "memref.reinterpret_cast",
        "memref.expand_shape",
        "memref.collapse_shape",
        "memref.transpose",
    }
)
"""Ops whose result views their first (memref) operand."""


def may_write(value: SSAValue) -> bool:
    """Whether the function may write the memory `value` refers to (see the
    module docstring)."""
    pending = [value]
    seen: set[SSAValue] = set()
    while pending:
        current = pending.pop()
        if current in seen:
            continue
        seen.add(current)
        for use in current.uses:
            user = use.operation
            if user.name in READS:
                continue
            if isinstance(user, memref.CopyOp) and use.index == 0:
                continue
            if has_loops(user) and _is_input(user, use.index):
                continue
            if user.name in VIEWS and use.index == 0:
                pending.extend(user.results)
                continue
            return True
    return False


def _is_input(op: Operation, index: int) -> bool:
    """Whether operand `index` of a destination-style op is one of its
    `ins` (which come first)."""
    inputs = tuple(op.inputs)  # pyright: ignore[reportAttributeAccessIssue]
    return index < len(inputs) and op.operands[index] is inputs[index]


def written_arguments(function: func.FuncOp) -> list[bool]:
    """Per argument: whether it is a memref the function may write."""
    if function.is_declaration:
        return [isinstance(t, MemRefType) for t in function.function_type.inputs]
    return [
        isinstance(argument.type, MemRefType) and may_write(argument)
        for argument in function.body.blocks[0].args
    ]


def unwritten_globals(module: ModuleOp) -> set[str]:
    """The mutable `memref.global`s no `memref.get_global` of may write."""
    mutable = {
        op.sym_name.data
        for op in module.walk()
        if isinstance(op, memref.GlobalOp) and op.constant is None
    }
    for op in module.walk():
        if isinstance(op, memref.GetGlobalOp):
            name = op.name_.string_value()
            if name in mutable and may_write(op.memref):
                mutable.discard(name)
    return mutable
