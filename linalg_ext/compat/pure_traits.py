"""`linalg.index`, `arith.extsi` and `affine.min` are `Pure`, as upstream
declares them.

Upstream's `linalg.index` reads an index of the enclosing Linalg op's
iteration and has no other effect (`Linalg_IndexOp : Linalg_Op<"index",
[Pure]>`); `arith.extsi` is a cast like `arith.extui` (every arith cast is
`Pure`). xDSL 0.74's classes have no memory-effect trait, so everything that
asks whether an op may have effects answered "maybe" for them and for every
op whose body holds one: producer fusion (`linalg_ext.tiling.fusion`)
refused to recompute per tile a `linalg.generic` that reads `linalg.index`
(where upstream's `fuse_into_containing_op` and greedy fusion fuse it; found
by fuzzing transform scripts over the tiling family), dead ones were kept,
and region DCE and CSE left unused or repeated ones in bodies. `affine.min`
(upstream `Pure`, like xDSL's own `affine.apply` and our `affine.max`) made
every loop nest of a partial tile look effectful: the tiling clean-up
special-cased it, and putting a block in dependence order
(`linalg_ext.transforms.ordering.sort_topologically`) kept such loop nests
in place.

(`arith.remui` lacks its trait too, but upstream's is `NoMemoryEffect`
without speculation, division by zero being undefined: left alone, since
loop-invariant code motion here does not ask about speculation.)
"""

from __future__ import annotations

from xdsl.dialects.affine import MinOp
from xdsl.dialects.arith import ExtSIOp
from xdsl.dialects.linalg import ops as linalg
from xdsl.traits import Pure


def install_pure_traits() -> None:
    """Add `Pure` to the traits of `linalg.index`, `arith.extsi` and
    `affine.min` (once)."""
    for op_type in (linalg.IndexOp, ExtSIOp, MinOp):
        traits = op_type.traits
        if not any(isinstance(trait, Pure) for trait in traits):
            traits.add_trait(Pure())
