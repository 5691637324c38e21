"""`linalg-fuse-ext`: ByteIR's tile-and-fuse (`transform.structured.fuse_ext`)
for users without a transform script.

    linalg-fuse-ext{tile-sizes=4,8 tile-interchange=1,0 keep-intermediates=false}

The roots are the ops marked with the unit attribute `__root__`; when no op
is marked, every root `linalg-tile-and-fuse` would take (a tileable op whose
results no other tileable op of its block uses), the last first. Ops marked
`__stop__` bound every cone. Each root is tiled and its cone fused by
`linalg_ext.tiling.fuse_ext.fuse_ext`: every producer once per tile (its
slices merged), producers of destinations only along parallel loops,
intermediates used outside yielded from the loops (all of them with
`keep-intermediates`). The clean-up of tiled IR runs after.

A root the options do not fit, or that its model refuses, is left as it is;
`report=true` prints one line per such root, and per cone op left outside
the loops, with the reason. Options no op can take (a negative size, an
interchange that is not a permutation) are refused with a diagnostic, the
IR unchanged.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.passes import ModulePass

from linalg_ext.diagnostics import OpPassFailed
from linalg_ext.tiling.cleanup import apply_tiling_cleanup
from linalg_ext.tiling.fuse_ext import fuse_ext
from linalg_ext.tiling.fusion_driver import find_roots
from linalg_ext.tiling.interface import TilingRefused

ROOT_MARK = "__root__"
STOP_MARK = "__stop__"


@dataclass(frozen=True)
class LinalgFuseExtPass(ModulePass):
    """Tile the ops marked `__root__` (or every root) and fuse their cones
    into the loops, as ByteIR's fuse_ext does."""

    name = "linalg-fuse-ext"

    tile_sizes: tuple[int, ...] = ()
    """One tile size per loop of a root's iteration domain (0 = not tiled;
    missing trailing sizes are 0)."""

    tile_interchange: tuple[int, ...] = ()
    """The order of the tiled loops, outermost first."""

    keep_intermediates: bool = False
    """Yield every fused intermediate value from the loops."""

    report: bool = False
    """Print one line per root left untiled and per cone op left outside the
    loops, with the reason, to stderr."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        roots = [o for o in op.walk() if ROOT_MARK in o.attributes]
        if not roots:
            roots = find_roots(op)
        self.check_options(roots)
        stops = {o for o in op.walk() if STOP_MARK in o.attributes}
        changed = False
        for root in reversed(roots):
            if root.parent is None:
                continue  # fused into a later root's loops
            try:
                result = fuse_ext(
                    root,
                    self.tile_sizes,
                    self.tile_interchange,
                    stops,
                    self.keep_intermediates,
                )
            except TilingRefused as refusal:
                self._say(f"{root.name} not tiled: {refusal}")
                continue
            changed = changed or bool(result.loops)
            for outside, reason in result.outside:
                self._say(f"{outside.name} left outside the loops: {reason}")
        if changed:
            apply_tiling_cleanup(op, ctx)

    def _say(self, line: str) -> None:
        if self.report:
            print(f"{self.name}: {line}", file=sys.stderr)

    def check_options(self, roots: list[Operation]) -> None:
        """Refuse options no op can take, before changing anything."""
        where = roots[0] if roots else None
        for size in self.tile_sizes:
            if size < 0:
                raise OpPassFailed(f"{self.name}: tile size {size} is negative", where)
        if sorted(self.tile_interchange) != list(range(len(self.tile_interchange))):
            raise OpPassFailed(
                f"{self.name}: tile-interchange {list(self.tile_interchange)} is "
                "not a permutation",
                where,
            )
