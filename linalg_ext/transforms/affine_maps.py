"""Affine-map algebra the passes need beyond xDSL's `AffineMap`."""

from __future__ import annotations

from collections.abc import Iterable

from xdsl.ir.affine import AffineDimExpr, AffineExpr, AffineMap


def is_permutation(map_: AffineMap) -> bool:
    """Every loop dimension appears exactly once, and nothing else does."""
    if map_.num_symbols or len(map_.results) != map_.num_dims:
        return False
    positions = [r.position for r in map_.results if isinstance(r, AffineDimExpr)]
    return sorted(positions) == list(range(map_.num_dims))


def is_identity(map_: AffineMap) -> bool:
    """(d0, ..., dn) -> (d0, ..., dn), with no symbols."""
    return map_ == AffineMap.identity(map_.num_dims)


def dims_used(maps: Iterable[AffineMap]) -> set[int]:
    """The loop dimensions that appear on their own as a result of some map
    (those whose extent an operand's shape gives)."""
    return {r.position for m in maps for r in m.results if isinstance(r, AffineDimExpr)}


def projection(rank: int, dropped: Iterable[int] = ()) -> AffineMap:
    """(d0, ..., d{rank-1}) -> the dims not in `dropped`, in order (the
    identity when nothing is dropped)."""
    dropped = set(dropped)
    kept = tuple(AffineExpr.dimension(d) for d in range(rank) if d not in dropped)
    return AffineMap(rank, 0, kept)
