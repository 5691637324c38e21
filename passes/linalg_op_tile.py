"""`linalg-op-tile`: tile the ops marked for it (ByteIR's pass).

    linalg-op-tile{tile-sizes=2,4}

An op is marked by the string attribute `__internal_linalg_transform__ =
"__byteir_tile__"` (ByteIR's `LinalgTransformationFilter` marker). Each
marked op with a tiling model is tiled with `scf.for` loops
(`linalg_ext.tiling.loops.tile_using_for`, `tile-sizes` one per loop of its
iteration domain, 0 = not tiled, missing ones 0); the tiled op loses the
marker (so it is tiled once) and each loop that walks a parallel dimension
of the op gets ByteIR's `__byteir_parallel__` unit attribute. Unmarked ops
are untouched.

A marked op the sizes do not fit (more sizes than loops, a size on a loop
that must stay whole: ByteIR's "has invalid tiling"), that its model
refuses (an op on memrefs) or that has no model is left as it is, marker
included; `report=true` prints one line per such op with the reason. A
negative size fits no op: it is refused, the IR unchanged.

Where we differ from ByteIR: its pattern skips marked Linalg structured ops
(`linalg.generic`, `linalg.matmul`, ...), which we tile like any other
tileable op, and it tiles ops on memrefs, which our tiling library does not
(bufferize after tiling).
"""

from __future__ import annotations

import sys
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, StringAttr, UnitAttr
from xdsl.ir import Operation
from xdsl.passes import ModulePass

from linalg_ext.diagnostics import OpPassFailed
from linalg_ext.tiling import TilingRefused
from linalg_ext.tiling.fusion_driver import parallel_tile_loops
from linalg_ext.tiling.loops import tile_using_for

MARKER = "__internal_linalg_transform__"
"""The attribute whose value marks an op for a transformation."""

TILE_MARK = "__byteir_tile__"
"""The marker value of the ops this pass tiles."""

PARALLEL_LOOP = "__byteir_parallel__"
"""The unit attribute of a loop that walks a parallel dimension."""


def is_marked(op: Operation) -> bool:
    """Whether `op` carries the `__byteir_tile__` marker."""
    return op.attributes.get(MARKER) == StringAttr(TILE_MARK)


@dataclass(frozen=True)
class LinalgOpTilingPass(ModulePass):
    """Tile the ops marked `__byteir_tile__` with scf.for loops."""

    name = "linalg-op-tile"

    tile_sizes: tuple[int, ...] = ()
    """One tile size per loop of a marked op's iteration domain (0 = not
    tiled; missing trailing sizes are 0)."""

    report: bool = False
    """Print one line per marked op left untiled, with the reason, to
    stderr."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        marked = [target for target in op.walk() if is_marked(target)]
        for size in self.tile_sizes:
            if size < 0:
                raise OpPassFailed(
                    f"{self.name}: tile size {size} is negative",
                    marked[0] if marked else None,
                )
        for target in marked:
            try:
                self._tile(target)
            except TilingRefused as refused:
                if self.report:
                    print(
                        f"{self.name}: {target.name} not tiled: {refused}",
                        file=sys.stderr,
                    )

    def _tile(self, target: Operation) -> None:
        parallel = parallel_tile_loops(target, self.tile_sizes, ())
        tiling = tile_using_for(target, self.tile_sizes)
        for tiled in tiling.tiled.ops:
            if is_marked(tiled):
                del tiled.attributes[MARKER]
        for loop, is_parallel in zip(tiling.loops, parallel, strict=True):
            if is_parallel:
                loop.attributes[PARALLEL_LOOP] = UnitAttr()
