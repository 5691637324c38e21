"""The tiling model of `linalg.fill_rng_2d` (`linalg_ext.compat.linalg_fill_rng`).

The op's body reads its loop indices (`linalg.index`), which a tile must
shift by the tile's offsets to compute the numbers the whole op computes
there. The structured model shifts them in the tiled op's body, but a named
op's body is hidden: its custom form does not print it, and parsing it again
builds the unshifted body. So the tile here is the `linalg.generic` of the
tiled op, whose body (with the shift) is printed; everything else (the
operand windows, the result positions, fusion) is the structured model's.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from xdsl.dialects.linalg.ops import GenericOp
from xdsl.ir import Operation

from linalg_ext.compat.linalg_fill_rng import FillRng2DOp
from linalg_ext.tiling.interface import TiledOp, register_tiling
from linalg_ext.tiling.structured import StructuredTilingModel
from linalg_ext.transforms.mixed_sizes import Mixed


class FillRng2DTilingModel(StructuredTilingModel):
    """`linalg.fill_rng_2d`: tiled as the structured ops are, the tile a
    `linalg.generic` (module doc)."""

    def tile(
        self,
        op: Operation,
        offsets: Sequence[Mixed],
        sizes: Sequence[Mixed],
        new_ops: list[Operation],
    ) -> TiledOp:
        tiled = super().tile(op, offsets, sizes, new_ops)
        named = cast(FillRng2DOp, tiled.ops[-1])
        generic = GenericOp(
            tuple(named.inputs),
            tuple(named.outputs),
            named.body.clone(),
            named.get_indexing_maps(),
            named.get_iterator_types(),
            [result.type for result in named.results],
        )
        named.erase()
        # `tiled.ops` is the tail of `new_ops`: the named op is last in both.
        new_ops[-1] = generic
        ops = [*tiled.ops[:-1], generic]
        return TiledOp(ops, list(generic.results), tiled.slices)


register_tiling(FillRng2DOp, FillRng2DTilingModel())
