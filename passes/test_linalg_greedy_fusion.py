"""`test-linalg-greedy-fusion`: upstream's test pass (seed 001 §3).

Fuses, greedily, the producers of already tiled consumers into their loops:
in reverse order of the destination-style ops with a tiling model, each
input read through a `tensor.extract_slice` of an op result defined outside
the slice's block is replaced by that producer's tile, computed right
before the slice (`fuse_producer_of_tensor`); rounds repeat, with
loop-invariant code motion and the clean-up of tiled IR
(`apply_tiling_cleanup`) between them (upstream's pass runs LICM,
canonicalization and CSE), until nothing more fuses. Inits are not
followed (upstream's rule): a destination's producer is fused by
`linalg-tile-and-fuse`, which knows which loops are parallel. Untiled
producers left without users are erased. Nothing to fuse leaves the IR
unchanged.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.passes import ModulePass

from linalg_ext.tiling.cleanup import apply_tiling_cleanup
from linalg_ext.tiling.fusion_driver import greedy_fusion


@dataclass(frozen=True)
class LinalgGreedyFusionTestPass(ModulePass):
    """Fuse the producers of tiled consumers' slices into their loops, greedily."""

    name = "test-linalg-greedy-fusion"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        def cleanup(root: Operation) -> None:
            apply_tiling_cleanup(root, ctx)

        greedy_fusion(op, cleanup)
