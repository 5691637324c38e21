"""`linalg.index` in the body of any structured op with a body.

Upstream lets `linalg.index` read the loop indices of whichever Linalg op
encloses it; xDSL 0.74 requires its parent to be a `linalg.generic`. The
bufferization of `tensor.generate` produces `linalg.map` bodies that read
`linalg.index`, so that output did not verify:

    linalg.map outs(%alloc : memref<4x3xf32>)
      (%init: f32) {
        %i = linalg.index 0 : index
        ...
      }

This widens the parent constraint to `linalg.generic`, `linalg.map` and
`linalg.reduce` (the ops whose body the user writes; whichever classes the
dialect registers under those names). The interpreter's
`linalg.map` publishes its iteration point for `linalg.index`
(`semantics/compat_ops.py`).
"""

from __future__ import annotations

from xdsl.dialects.linalg import ops as linalg
from xdsl.traits import HasParent

PARENT_NAMES = ("linalg.generic", "linalg.map", "linalg.reduce", "linalg.fill_rng_2d")
"""The ops whose body may read `linalg.index` (`linalg.fill_rng_2d`'s hidden
body does: upstream's generic form of it shows that body)."""


def install_index_parents() -> None:
    """Widen `linalg.index`'s parent constraint to the classes the `linalg`
    dialect now registers under `PARENT_NAMES` (after the other fixes, which
    add `linalg.map` and replace `linalg.reduce`), and xDSL's own."""
    from xdsl.dialects.linalg import Linalg

    registered = {op.name: op for op in Linalg.operations}
    parents = (
        linalg.GenericOp,
        linalg.ReduceOp,
        *(registered[name] for name in PARENT_NAMES if name in registered),
    )
    widened = HasParent(*dict.fromkeys(parents))
    traits = linalg.IndexOp.traits
    traits._traits = frozenset(  # pyright: ignore[reportPrivateUsage]
        widened if isinstance(trait, HasParent) else trait for trait in traits
    )
