"""Affine-map queries the passes need that xDSL's `AffineMap` lacks.

Everything else is `AffineMap`'s own (`xdsl/ir/affine/affine_map.py`):
`identity`, `minor_identity`, `compose`, `inverse_permutation`,
`drop_dims`, `drop_results`, `used_dims`, `is_projected_permutation`, ...
An identity test is `map_ == AffineMap.identity(map_.num_dims)`; the map
keeping all loop dimensions but some is
`AffineMap.identity(rank).drop_results([d in dropped for d in range(rank)])`.
"""

from __future__ import annotations

from collections.abc import Iterable

from xdsl.ir.affine import AffineDimExpr, AffineMap


def is_permutation(map_: AffineMap) -> bool:
    """Every loop dimension appears exactly once, and nothing else does
    (MLIR's `AffineMap::isPermutation`): a projected permutation that keeps
    all dimensions."""
    return map_.is_projected_permutation() and len(map_.results) == map_.num_dims


def dims_used(maps: Iterable[AffineMap]) -> set[int]:
    """The loop dimensions that appear on their own as a result of some map
    (those whose extent an operand's shape gives). Unlike
    `AffineMap.used_dims`, a dimension used only inside a compound result
    (`d0 + d1`) does not count: no operand dimension has its extent."""
    return {r.position for m in maps for r in m.results if isinstance(r, AffineDimExpr)}
