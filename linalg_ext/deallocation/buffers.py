"""What the deallocation analysis tracks: buffer sources and merge points.

A `Source` is a buffer as the analysis knows it (an allocation, a function
argument, a global, an alloca, a call result, an accepted merge, or an
opaque value); a `Merge` is an `scf.for` iter_arg or an `scf.if` result that
may take over ownership of what flows into it. `VIEW_OPS` and `CHOICE_OPS`
say which results are (views of) their operands.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from xdsl.dialects import scf
from xdsl.dialects.builtin import (
    MemRefType,
    TensorType,
    UnrankedMemRefType,
    UnrankedTensorType,
)
from xdsl.ir import Block, BlockArgument, Operation, OpResult, SSAValue

from linalg_ext.transforms.dps import VIEW_OPS as VIEW_OPS

CHOICE_OPS = frozenset({"arith.select"})
"""Ops whose result is one of their operands."""

WHOLE_VIEW_OPS = frozenset(
    {"memref.cast", "memref.expand_shape", "memref.collapse_shape"}
)
"""Views that cover the whole buffer from its first element: freeing one
frees the buffer, and a function may hand one over as its result."""


def tracked(value: SSAValue) -> bool:
    """Whether a value can refer to a buffer (memrefs, and tensors, which
    `bufferization.to_tensor` can make from a buffer)."""
    return isinstance(
        value.type, MemRefType | UnrankedMemRefType | TensorType | UnrankedTensorType
    )


def is_memref(value: SSAValue) -> bool:
    return isinstance(value.type, MemRefType | UnrankedMemRefType)


class Kind(Enum):
    ALLOC = "memref.alloc"
    CALL = "call result"
    LOOP_ARG = "scf.for iter_arg"
    LOOP_RESULT = "scf.for result"
    IF_RESULT = "scf.if result"
    ARGUMENT = "function argument"
    GLOBAL = "memref.get_global"
    ALLOCA = "memref.alloca"
    OPAQUE = "opaque"


OWNED_KINDS = frozenset(
    {Kind.ALLOC, Kind.CALL, Kind.LOOP_ARG, Kind.LOOP_RESULT, Kind.IF_RESULT}
)


@dataclass(eq=False)
class Source:
    """A buffer as the analysis knows it: `value` is the buffer itself."""

    kind: Kind
    value: SSAValue
    flag: Merge | None = None
    """For the iter_arg or result of a merge whose ownership is known only at
    run time: that merge, whose i1 flag says whether the buffer is owned."""

    @property
    def owned(self) -> bool:
        """Whether the function owns it (must free it or hand it over)."""
        return self.kind in OWNED_KINDS

    @property
    def block(self) -> Block:
        """Where it is defined: the block that frees it."""
        value = self.value
        if isinstance(value, BlockArgument):
            return value.block
        assert isinstance(value, OpResult)
        block = value.op.parent_block()
        assert block is not None
        return block

    def describe(self) -> str:
        value = self.value
        hint = f"%{value.name_hint}" if value.name_hint else None
        if self.kind is Kind.ARGUMENT:
            assert isinstance(value, BlockArgument)
            return f"function argument #{value.index}" + (f" {hint}" if hint else "")
        if self.kind is Kind.OPAQUE:
            owner = value.owner
            what = owner.name if isinstance(owner, Operation) else "a block argument"
            return f"{hint or 'a value'} (from {what})"
        return f"{hint or 'a buffer'} ({self.kind.value})"


@dataclass(frozen=True)
class Merge:
    """An scf.for iter_arg (with its result) or an scf.if result."""

    op: scf.ForOp | scf.IfOp
    index: int

    def describe(self) -> str:
        what = "iter_arg" if isinstance(self.op, scf.ForOp) else "result"
        return f"{what} #{self.index} of {self.op.name}"


@dataclass
class Incoming:
    """What flows into a flagged merge from one place: the initial value of
    an scf.for (`anchor` is the loop), or what a branch or the loop body
    yields (`anchor` is the scf.yield). `taken` are the buffers `block` owns
    whose ownership the merge takes over when `value` is one of them (decided
    at run time by comparing addresses); `refused`, those it cannot take
    (they are not freed)."""

    value: SSAValue
    block: Block
    anchor: Operation
    taken: list[Source]
    refused: dict[Source, str]
    whole: list[Source]
    """The taken buffers `value` is certainly all of (no run-time check)."""
    after: list[Source] = field(default_factory=list[Source])
    """The buffers `block` owns that `value` may be a view of (which an
    address comparison cannot tell from the buffer): `value` is passed on as
    a copy when it is one of them (a returned result, always unless it is a
    taken buffer), and they are freed after the copy is made."""
    retained: list[Source] = field(default_factory=list[Source])
    """For a returned result no copy can stand for (a layout of static
    strides or offset): the buffers it may be a view of, returned as they
    are; each is freed when no such result has its address."""


Plan = tuple[dict[Source, Operation | Block], dict[Source, str]]
"""Where to free each buffer, and why the ones not freed are not."""


class NotOwned(Exception):
    """Why a buffer cannot be freed, or why a merge point does not own what
    flows into it."""


class MayBeView(NotOwned):
    """What is yielded or returned may be a view of the buffer (an address
    comparison cannot tell it from the buffer)."""


class Decision(Enum):
    RETURNED = "returned"
    FREED = "already freed"
    AFTER_COPY = "freed after the copies of the returned results"
