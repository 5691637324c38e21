"""`linalg-ext-tiling-cleanup`: fold away what tiling and fusion leave in
tiled IR (slices of slices, writes-back of unchanged slices, constant or
loop-bounded `affine.min`, `tensor.dim` of values whose sizes are known,
untiled originals left unused), with xDSL's canonicalization and CSE.

The library is `linalg_ext.tiling.cleanup` (`apply_tiling_cleanup`), which
the tiling drivers call when asked to clean up; this pass runs it on a whole
module. See docs/passes/linalg-ext-tiling-cleanup.md.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from linalg_ext.tiling.cleanup import apply_tiling_cleanup


@dataclass(frozen=True)
class TilingCleanupPass(ModulePass):
    """Fold slices of slices, unchanged write-backs, constant and
    loop-bounded affine.min, tensor.dim of known sizes and dead untiled ops
    in tiled IR (with canonicalize and CSE)."""

    name = "linalg-ext-tiling-cleanup"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        apply_tiling_cleanup(op, ctx)
