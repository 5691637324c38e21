"""What a fresh buffer holds before anything is written to it.

The elements of a `tensor.empty`, `bufferization.alloc_tensor` (without a
`copy`), `memref.alloc` or `memref.alloca` are undefined: compiled code
sees whatever the allocator hands back. The interpreter fills them by the
current `FreshFill`: zeros by default, or a pattern, for every such op (a
*site*) or for some sites only. A program whose results change with the
fill reads uninitialised memory; `linalg_ext.checking` finds such reads
(and the sites they read) this way.

`filling(fill)` sets the fill for the runs made inside it (a context
variable, so a setting is local to its thread):

    with filling(FreshFill("high")):
        run = run_function(module, "f", inputs)

The patterns (`PATTERNS`), chosen so that at least one of them changes
whatever a computation makes of the zeros it would otherwise read:

- `zero`: every element 0 (the default);
- `high`: every byte 0x5A: large positive integers and floats (0x5A5A5A5A
  is 1.5e16 as an f32, 1515870810 as an i32; 203.25 as an f16);
- `low`: floats NaN, integers every byte 0xA5 (large negative values).

An i1 is 1 in both patterns, an index the integer pattern of its width.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from math import prod
from typing import Any, Literal

import numpy as np
from xdsl.dialects.builtin import PackableType
from xdsl.interpreters.shaped_array import ShapedArray
from xdsl.ir import Attribute, Operation

from linalg_ext.semantics.arrays import array_from_numpy, is_i1, struct_format, zeros

Pattern = Literal["zero", "high", "low"]
PATTERNS: tuple[Pattern, ...] = ("zero", "high", "low")

_BYTES = {"high": 0x5A, "low": 0xA5}


@dataclass(frozen=True)
class FreshFill:
    """Fill fresh buffers with `pattern`: those of every site, or, when
    `sites` is given, only those of these ops (the others get zeros)."""

    pattern: Pattern = "zero"
    sites: frozenset[Operation] | None = None

    def pattern_of(self, op: Operation) -> Pattern:
        if self.sites is not None and op not in self.sites:
            return "zero"
        return self.pattern


ZERO = FreshFill()

_FILL: ContextVar[FreshFill] = ContextVar("fresh_fill", default=ZERO)


@contextmanager
def filling(fill: FreshFill) -> Iterator[None]:
    """Runs inside fill their fresh buffers by `fill`."""
    token = _FILL.set(fill)
    try:
        yield
    finally:
        _FILL.reset(token)


def current_fill() -> FreshFill:
    return _FILL.get()


def fresh_buffer(
    op: Operation,
    shape: Sequence[int],
    xtype: PackableType[Any],
    element_type: Attribute,
) -> ShapedArray[Any]:
    """The new buffer `op` makes, of `shape` and elements of `element_type`
    (held as `xtype`), filled as the current `FreshFill` says."""
    pattern = _FILL.get().pattern_of(op)
    if pattern == "zero":
        return zeros(shape, xtype)
    return array_from_numpy(
        pattern_elements(pattern, shape, xtype, element_type), xtype
    )


def pattern_elements(
    pattern: Literal["high", "low"],
    shape: Sequence[int],
    xtype: PackableType[Any],
    element_type: Attribute,
) -> np.ndarray:
    """A numpy array of `shape` holding `pattern` in `xtype`'s layout."""
    dtype = np.dtype(struct_format(xtype))
    count = prod(shape)
    if is_i1(element_type):
        values = np.ones(count, dtype)
    elif dtype.kind in "fc" and pattern == "low":
        values = np.full(count, np.nan, dtype)
    else:
        values = np.frombuffer(
            bytes([_BYTES[pattern]]) * (count * dtype.itemsize), dtype
        )
    return values.reshape(tuple(shape))
