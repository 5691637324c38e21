"""Pass names this package takes over from xDSL.

Where xDSL 0.74 has a pass under upstream MLIR's name but covers less than
upstream (its `convert-linalg-to-loops` lowers only some structured ops and
no `linalg.index`; its `lower-affine` no `affine.min`/`max`; its
`convert-scf-to-cf` no `scf.while`, `scf.parallel` or `scf.forall`), our pass of that
name replaces it. xDSL's universe merge refuses a name defined twice, so
`withdraw_xdsl_passes` removes xDSL's own registration of each name we
define, before `xdsl-opt` merges the universes (our entry point is loaded
first: every plugin is loaded before any is merged).
"""

from __future__ import annotations

from collections.abc import Iterable


def withdraw_xdsl_passes(names: Iterable[str]) -> list[str]:
    """Remove `names` from xDSL's universe; returns those that were there."""
    from xdsl.universe import XDSL_UNIVERSE

    withdrawn: list[str] = []
    for name in names:
        if XDSL_UNIVERSE.all_passes.pop(name, None) is not None:
            withdrawn.append(name)
    return withdrawn
