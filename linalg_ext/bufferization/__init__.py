"""One-Shot Bufferize for xDSL: tensors to memrefs with in-place analysis.

The public pieces: `BufferizableOpModel` and `register_model` (make an op
bufferizable), `BufferizationOptions`, `analyze_module` (the analysis
alone) and `bufferize_module` (analysis and rewrite). The pass
`one-shot-bufferize` (`linalg_ext.passes.one_shot_bufferize`) wraps them.
See docs/bufferization.md.
"""

from linalg_ext.bufferization import models as _models  # noqa: F401  (registers)
from linalg_ext.bufferization.analysis import (
    AnalysisState,
    BufferizationError,
    analyze_module,
)
from linalg_ext.bufferization.bufferizer import Bufferizer, bufferize_module
from linalg_ext.bufferization.interface import (
    AliasingOperand,
    AliasingValue,
    BufferizableOpModel,
    BufferRelation,
    OpOperand,
    model_for,
    register_model,
)
from linalg_ext.bufferization.options import BufferizationOptions

__all__ = [
    "AliasingOperand",
    "AliasingValue",
    "AnalysisState",
    "BufferRelation",
    "BufferizableOpModel",
    "BufferizationError",
    "BufferizationOptions",
    "Bufferizer",
    "OpOperand",
    "analyze_module",
    "bufferize_module",
    "model_for",
    "register_model",
]
