"""The `linalg_ext` dialect: ByteIR's Linalg extensions, declared with IRDL.

Every op parses and prints ByteIR's own textual form, in the tensor form (the
op returns one result per tensor output) and the memref form (no results).
The verifiers check every operand: counts, element types, ranks, static
extents (a dynamic `?` is compatible with anything), attributes in range,
region signatures and terminators. Messages start with `'<op name>' op`, as
MLIR's do.

The numerical meaning of each op is written down in `docs/ops/`.

    from xdsl.context import Context
    from linalg_ext.dialect import LinalgExt

    ctx = Context()
    ctx.load_dialect(LinalgExt)

One module per op family (`softmax`, `diag`, `scan`, `scatter`, `topk`,
`layer_norm`, `custom`, `batch_matmul`, `alias`, `yield_op`), over
`destination_style` (the base of the `ins(...) outs(...)` ops and their memory
effects) and `verifiers` (the checks they share). Every op class is importable
from here.
"""

from xdsl.ir import Dialect

from linalg_ext.dialect.alias import AliasOp
from linalg_ext.dialect.batch_matmul import (
    BATCH_MATMUL_LAYOUTS,
    BatchMatmulOp,
    batch_matmul_body,
)
from linalg_ext.dialect.custom import CustomOp
from linalg_ext.dialect.destination_style import (
    DestinationStyleMemoryEffect,
    LinalgExtDpsOp,
)
from linalg_ext.dialect.diag import DiagOp
from linalg_ext.dialect.layer_norm import LayerNormOp
from linalg_ext.dialect.scan import ScanOp
from linalg_ext.dialect.scatter import ScatterOp
from linalg_ext.dialect.softmax import SoftmaxLikeOp, SoftmaxOp, UnnormSoftmaxOp
from linalg_ext.dialect.topk import TopkOp
from linalg_ext.dialect.yield_op import YieldOp

# Set here, not in yield_op.py: the parents import YieldOp for their verifiers.
YieldOp.PARENTS = (ScanOp, ScatterOp, TopkOp, CustomOp)


LinalgExt = Dialect(
    "linalg_ext",
    [
        YieldOp,
        AliasOp,
        DiagOp,
        ScanOp,
        ScatterOp,
        SoftmaxOp,
        UnnormSoftmaxOp,
        TopkOp,
        LayerNormOp,
        BatchMatmulOp,
        CustomOp,
    ],
)
"""The `linalg_ext` dialect, ready for `Context.load_dialect`."""

__all__ = [
    "BATCH_MATMUL_LAYOUTS",
    "AliasOp",
    "BatchMatmulOp",
    "CustomOp",
    "DestinationStyleMemoryEffect",
    "DiagOp",
    "LayerNormOp",
    "LinalgExt",
    "LinalgExtDpsOp",
    "ScanOp",
    "ScatterOp",
    "SoftmaxLikeOp",
    "SoftmaxOp",
    "TopkOp",
    "UnnormSoftmaxOp",
    "YieldOp",
    "batch_matmul_body",
]

# The tiling models of the ops (linalg_ext.tiling's interface), registered on
# import: after the ops, which they import. flash_fusion registers the
# flash-attention fusion into linalg_ext.tiling.fuse_ext's SPECIAL_FUSIONS.
from linalg_ext.dialect import (  # noqa: E402
    batch_matmul_tiling,  # noqa: F401
    custom_tiling,  # noqa: F401
    diag_tiling,  # noqa: F401
    flash_fusion,  # noqa: F401
    layer_norm_tiling,  # noqa: F401
    scan_tiling,  # noqa: F401
    scatter_tiling,  # noqa: F401
    softmax_tiling,  # noqa: F401
    topk_tiling,  # noqa: F401
)
