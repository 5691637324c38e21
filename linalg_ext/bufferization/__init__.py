"""One-Shot Bufferize for xDSL: tensors to memrefs with in-place analysis.

The public pieces: `BufferizableOpModel` and `register_model` (make an op
bufferizable; a model is typed against `AnalysisQueries` and
`BufferizerServices`), `BufferizationOptions`, `analyze_module` (the analysis
alone) and `bufferize_module` (analysis and rewrite). The pass
`one-shot-bufferize` (`linalg_ext.passes.one_shot_bufferize`) wraps them.
See docs/bufferization.md.
"""

from linalg_ext.bufferization import models as _models  # noqa: F401  (registers)
from linalg_ext.bufferization.analysis import analyze_module
from linalg_ext.bufferization.analysis_state import AnalysisState
from linalg_ext.bufferization.bufferizer import Bufferizer, bufferize_module
from linalg_ext.bufferization.interface import (
    AliasingOperand,
    AliasingValue,
    AnalysisQueries,
    BufferizableOpModel,
    BufferizationError,
    BufferizerServices,
    BufferRelation,
    OpOperand,
    model_for,
    register_model,
)
from linalg_ext.bufferization.options import BufferizationOptions

__all__ = [
    "AliasingOperand",
    "AliasingValue",
    "AnalysisQueries",
    "AnalysisState",
    "BufferRelation",
    "BufferizableOpModel",
    "BufferizationError",
    "BufferizationOptions",
    "Bufferizer",
    "BufferizerServices",
    "OpOperand",
    "analyze_module",
    "bufferize_module",
    "model_for",
    "register_model",
]
