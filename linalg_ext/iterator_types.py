"""The iterator types of a structured op's loops, built from which loops
reduce.

A foundation module (it imports nothing of ours): the ops that say what
their loops are live in `compat` (the queries xDSL's `linalg.broadcast` and
`linalg.reduce` lack) and in `dialect`, both above it.
"""

from __future__ import annotations

from collections.abc import Iterable

from xdsl.dialects.builtin import ArrayAttr
from xdsl.dialects.linalg.attrs import IteratorTypeAttr


def iterator_types(
    rank: int, reductions: Iterable[int] = ()
) -> ArrayAttr[IteratorTypeAttr]:
    """`rank` loops: those in `reductions` reductions, the others parallel."""
    reduced = set(reductions)
    parallel, reduction = IteratorTypeAttr.parallel(), IteratorTypeAttr.reduction()
    return ArrayAttr(reduction if d in reduced else parallel for d in range(rank))
