"""`linalg-tile-and-fuse`: tile every root and fuse its producers into the loops.

    linalg-tile-and-fuse{tile-sizes=4,8 interchange=1,0}

A root is a tileable op (one with a tiling model that does not refuse it)
whose results no other tileable op of its block uses: the end of a chain
such as `fill → matmul → generic`. Each root is tiled with `scf.for` loops
(`tile-sizes`, one per loop of its iteration domain, 0 = not tiled, missing
ones 0; `interchange` orders the loops), then the producers of the slices
the tile reads are computed tile by tile inside the loops, to a fixpoint
(`linalg_ext.tiling.fusion_driver.tile_and_fuse`). The producer of a
destination (a matmul's `linalg.fill` init) is fused only when every loop
is parallel: along a reduction loop the partial sums must carry over.
The clean-up of tiled IR (`apply_tiling_cleanup`) runs after.

A root the options do not fit (more sizes than loops, a size on a loop that
must stay whole, an interchange of other loops) or that its model refuses
is left as it is; `report=true` prints one line per such root with the
reason. Options that fit no op (a negative size, an interchange that is not
a permutation) are refused with a diagnostic, the IR unchanged.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from linalg_ext.diagnostics import OpPassFailed
from linalg_ext.tiling.cleanup import apply_tiling_cleanup
from linalg_ext.tiling.fusion_driver import find_roots, tile_and_fuse_roots


@dataclass(frozen=True)
class LinalgTileAndFusePass(ModulePass):
    """Tile each root op with scf.for loops and fuse its producers into them."""

    name = "linalg-tile-and-fuse"

    tile_sizes: tuple[int, ...] = ()
    """One tile size per loop of a root's iteration domain (0 = not tiled;
    missing trailing sizes are 0)."""

    interchange: tuple[int, ...] = ()
    """The order of the tiled loops, outermost first (a permutation of the
    first loops; the others follow in order)."""

    report: bool = False
    """Print one line per root left untiled, with the reason, to stderr."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        self.check_options(op)
        outcomes = tile_and_fuse_roots(op, self.tile_sizes, self.interchange)
        if any(outcome.result is not None for outcome in outcomes):
            apply_tiling_cleanup(op, ctx)
        if self.report:
            for outcome in outcomes:
                if outcome.reason is not None:
                    print(
                        f"{self.name}: {outcome.root.name} not tiled: {outcome.reason}",
                        file=sys.stderr,
                    )

    def check_options(self, module: ModuleOp) -> None:
        """Refuse options no op can take, before changing anything."""
        roots = find_roots(module)
        where = roots[0] if roots else None
        for size in self.tile_sizes:
            if size < 0:
                raise OpPassFailed(f"{self.name}: tile size {size} is negative", where)
        if sorted(self.interchange) != list(range(len(self.interchange))):
            raise OpPassFailed(
                f"{self.name}: interchange {list(self.interchange)} is not a "
                "permutation",
                where,
            )
