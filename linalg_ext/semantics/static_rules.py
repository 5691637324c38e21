"""Rules of the semantics that need no arrays: allocation limits and the
shape arithmetic of slices and reshapes.

The interpreter (`linalg_ext.semantics.arrays` re-exports them), the
bufferization and the lowering's run-time checks share these; they live
apart from `arrays` so that a pass using them imports neither numpy nor
xDSL's interpreters (a quarter of a second of every tool's start).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from functools import cache

from xdsl.dialects.builtin import DYNAMIC_INDEX
from xdsl.dialects.utils.reshape_ops_utils import ArrayOfIntArrayAttr
from xdsl.utils.exceptions import InterpretationError


@cache
def memory_bytes() -> int:
    """The machine's physical memory: no allocation larger than it can be
    used (a larger one may be granted by overcommit, then killed)."""
    try:
        return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError):  # not known on this system
        return sys.maxsize


INT64_MAX = (1 << 63) - 1


def allocation_overflow_message(
    op_name: str, shape: Sequence[str], element_bytes: int
) -> str:
    """What an allocation whose byte size does not fit in int64 says, its
    `shape`'s sizes already formatted (compiled code's checks,
    linalg_ext/lowering/runtime_checks.py, say it with placeholders, since
    they cannot print a number of 2**63 or more): "memref.alloc: cannot
    allocate shape [4611686018427387904] of 4-byte elements (more than
    2**63 - 1 bytes)"."""
    return (
        f"{op_name}: cannot allocate shape [{', '.join(shape)}] of "
        f"{element_bytes}-byte elements (more than 2**63 - 1 bytes)"
    )


STACK_LIMIT = 1 << 20
"""The most bytes one `memref.alloca` may take (1 MiB): compiled code puts
an alloca on the native stack, where a larger one could overflow it and
kill the process; the interpreter refuses it too, with the same message
(`stack_limit_message`), as `insert-runtime-checks` makes compiled code."""


def stack_limit_message(op_name: str, size: int | str) -> str:
    """`memref.alloca: N bytes exceed the stack limit of 1048576 bytes`."""
    return f"{op_name}: {size} bytes exceed the stack limit of {STACK_LIMIT} bytes"


def kept_slice_dims(
    static_sizes: Sequence[int], reduced_shape: Sequence[int], op_name: str
) -> list[int]:
    """Which dimensions of a slice of `static_sizes` remain in the
    rank-reduced `reduced_shape`; the others are statically of size 1.

    Which unit dimension is dropped does not change any element's position,
    so any match of the shapes will do; this one prefers the leading ones.
    """

    def compatible(size: int, wanted: int) -> bool:
        return size == DYNAMIC_INDEX or wanted == DYNAMIC_INDEX or size == wanted

    def match(dim: int, wanted: int) -> list[int] | None:
        if wanted == len(reduced_shape):
            rest = static_sizes[dim:]
            return [] if all(s == 1 for s in rest) else None
        if dim == len(static_sizes):
            return None
        if compatible(static_sizes[dim], reduced_shape[wanted]):
            kept = match(dim + 1, wanted + 1)
            if kept is not None:
                return [dim, *kept]
        if static_sizes[dim] == 1:
            return match(dim + 1, wanted)
        return None

    kept = match(0, 0)
    if kept is None:
        raise InterpretationError(
            f"{op_name}: slice sizes {list(static_sizes)} do not reduce to "
            f"shape {list(reduced_shape)}"
        )
    return kept


def reassociation_groups(reassociation: ArrayOfIntArrayAttr) -> list[list[int]]:
    """The dimension groups of a `reassociation` property."""
    return [[entry.value.data for entry in group.data] for group in reassociation.data]
