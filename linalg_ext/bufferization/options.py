"""The settings of One-Shot Bufferize (the pass options, as a dataclass).

The options with a fixed set of values are typed `Literal[...]`: xDSL's
option parser refuses any other value (and `linalg_ext.pipelines` says so in
one line, listing the choices), so only the checks that are not about one
value's set remain in `problems()`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

LayoutMapOption = Literal[
    "infer-layout-map", "identity-layout-map", "fully-dynamic-layout-map"
]
"""How buffer layouts are chosen where nothing else determines them
(upstream's `LayoutMapOption`)."""

AnalysisHeuristic = Literal["bottom-up", "top-down"]
"""The order the in-place analysis visits ops in."""


@dataclass(frozen=True)
class BufferizationOptions:
    bufferize_function_boundaries: bool = False
    function_boundary_type_conversion: LayoutMapOption = "infer-layout-map"
    unknown_type_conversion: LayoutMapOption = "fully-dynamic-layout-map"
    allow_unknown_ops: bool = False
    allow_return_allocs_from_loops: bool = False
    copy_before_write: bool = False
    test_analysis_only: bool = False
    print_conflicts: bool = False
    analysis_heuristic: AnalysisHeuristic = "bottom-up"
    buffer_alignment: int = 64

    def problems(self) -> list[str]:
        """What is wrong with these settings together, in words."""
        found: list[str] = []
        if self.print_conflicts and not self.test_analysis_only:
            found.append("print-conflicts requires test-analysis-only")
        if self.buffer_alignment < 0:
            found.append("buffer-alignment must not be negative")
        return found
