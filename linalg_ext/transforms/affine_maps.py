"""Affine-map algebra the passes need beyond xDSL's `AffineMap`."""

from __future__ import annotations

from xdsl.ir.affine import AffineDimExpr, AffineMap


def is_permutation(map_: AffineMap) -> bool:
    """Every loop dimension appears exactly once, and nothing else does."""
    if map_.num_symbols or len(map_.results) != map_.num_dims:
        return False
    positions = [r.position for r in map_.results if isinstance(r, AffineDimExpr)]
    return sorted(positions) == list(range(map_.num_dims))
