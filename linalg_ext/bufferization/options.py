"""The settings of One-Shot Bufferize (the pass options, as a dataclass)."""

from __future__ import annotations

from dataclasses import dataclass

LAYOUT_CONVERSIONS = (
    "infer-layout-map",
    "identity-layout-map",
    "fully-dynamic-layout-map",
)
HEURISTICS = ("bottom-up", "top-down")


@dataclass(frozen=True)
class BufferizationOptions:
    bufferize_function_boundaries: bool = False
    function_boundary_type_conversion: str = "infer-layout-map"
    unknown_type_conversion: str = "fully-dynamic-layout-map"
    allow_unknown_ops: bool = False
    allow_return_allocs_from_loops: bool = False
    copy_before_write: bool = False
    test_analysis_only: bool = False
    print_conflicts: bool = False
    analysis_heuristic: str = "bottom-up"
    buffer_alignment: int = 64

    def problems(self) -> list[str]:
        """What is wrong with these settings, in words."""
        found: list[str] = []
        for name, value in (
            (
                "function-boundary-type-conversion",
                self.function_boundary_type_conversion,
            ),
            ("unknown-type-conversion", self.unknown_type_conversion),
        ):
            if value not in LAYOUT_CONVERSIONS:
                found.append(
                    f"{name}={value!r} is not one of {', '.join(LAYOUT_CONVERSIONS)}"
                )
        if self.analysis_heuristic not in HEURISTICS:
            found.append(
                f"analysis-heuristic={self.analysis_heuristic!r} is not one of "
                f"{', '.join(HEURISTICS)}"
            )
        if self.print_conflicts and not self.test_analysis_only:
            found.append("print-conflicts requires test-analysis-only")
        if self.buffer_alignment < 0:
            found.append("buffer-alignment must not be negative")
        return found
