"""Tiling and tile-and-fuse on tensors: the interface (`interface`), the
models of upstream ops, the loop builder and the fusion drivers.

See docs/tiling.md. Importing this package registers the models of upstream
ops (`linalg`, `tensor`); `linalg_ext` ops register theirs when
`linalg_ext.dialect` is imported.
"""

from linalg_ext.tiling.interface import (
    LoopType,
    TiledOp,
    TilingModel,
    TilingRefused,
    register_tiling,
    registered_op_types,
    tiling_model,
)

__all__ = [
    "LoopType",
    "TiledOp",
    "TilingModel",
    "TilingRefused",
    "register_tiling",
    "registered_op_types",
    "tiling_model",
]

# Registers the models of linalg's structured ops (generic and named).
import linalg_ext.tiling.structured  # noqa: E402, F401

# Registers the models of tensor.expand_shape and collapse_shape, and (by
# importing linalg_ext.tiling.pad) of tensor.pad.
import linalg_ext.tiling.tensor_ops  # noqa: E402, F401
