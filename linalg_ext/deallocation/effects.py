"""Which ops the deallocation analysis knows the memory effects of.

Upstream's buffer deallocation refuses a function containing an op whose
memory effects are unknown (it neither declares them nor is a call): such an
op might free, keep or allocate any buffer it gets. xDSL 0.74 declares no
effects on many upstream ops whose behaviour on buffers we know (linalg's
structured ops read their inputs and write their inits, `func.return` and
`cf` branches pass values on, ...): those of the dialects in
`KNOWN_DIALECTS` count as known. What is left is an op of another dialect
without declared effects, and any op the context does not register.
"""

from __future__ import annotations

from xdsl.dialects.builtin import UnregisteredOp
from xdsl.ir import Operation
from xdsl.traits import MemoryEffect

KNOWN_DIALECTS = frozenset(
    {
        "affine",
        "arith",
        "bufferization",
        "cf",
        "func",
        "index",
        "linalg",
        "linalg_ext",
        "math",
        "memref",
        "rtcheck",
        "scf",
        "shape",
        "tensor",
        "ub",
        "vector",
    }
)
"""Dialects whose ops the analysis models (views, choices, calls, and the
rest as ops whose results may alias their operands): none of their ops
frees or keeps a buffer (upstream declares their effects; xDSL 0.74 does
not, for some)."""

UNKNOWN_EFFECTS = "ops with unknown memory side effects are not supported"
"""Upstream's message."""


def op_name(op: Operation) -> str:
    """The op's name as written (an unregistered op's own name)."""
    if isinstance(op, UnregisteredOp):
        return op.op_name.data
    return op.name


def has_unknown_effects(op: Operation) -> bool:
    """Whether `op` might do anything to a buffer (see the module docstring);
    ops nested in its regions are asked separately."""
    if isinstance(op, UnregisteredOp):
        return True
    if op.get_traits_of_type(MemoryEffect):
        return False
    return op.name.split(".", 1)[0] not in KNOWN_DIALECTS
