"""`one-shot-bufferize`: tensors to memrefs with in-place analysis.

The pass wraps `linalg_ext.bufferization` (the analysis, the rewrite and the
op models; see docs/bufferization.md and docs/passes/one-shot-bufferize.md).
Options carry upstream MLIR's names and meanings. On failure the module is
left as it was and the error names the op and the reason.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass
from xdsl.utils.exceptions import PassFailedException

from linalg_ext.bufferization import (
    BufferizationError,
    BufferizationOptions,
    bufferize_module,
)
from linalg_ext.bufferization.options import AnalysisHeuristic, LayoutMapOption
from linalg_ext.diagnostics import OpPassFailed
from linalg_ext.transforms.module_contents import replace_module_contents


@dataclass(frozen=True)
class OneShotBufferizePass(ModulePass):
    """Bufferize every tensor op with a bufferization model, deciding for
    each destination whether the result may reuse its buffer."""

    name = "one-shot-bufferize"

    bufferize_function_boundaries: bool = False
    """Bufferize function signatures, calls and returns too."""

    function_boundary_type_conversion: LayoutMapOption = "infer-layout-map"
    """Layout of function argument/result buffers: `infer-layout-map`,
    `identity-layout-map` or `fully-dynamic-layout-map`."""

    unknown_type_conversion: LayoutMapOption = "fully-dynamic-layout-map"
    """Layout of buffers whose layout nothing determines (at the boundary
    with unknown ops)."""

    allow_unknown_ops: bool = False
    """Keep ops without a model on tensors, with `to_buffer`/`to_tensor`
    at the boundary, instead of failing."""

    allow_return_allocs_from_loops: bool = False
    """Let loops yield new buffers instead of their iteration argument's."""

    copy_before_write: bool = False
    """Skip the analysis: every written operand gets a copy."""

    test_analysis_only: bool = False
    """Only annotate the decisions (`__inplace_operands_attr__`)."""

    print_conflicts: bool = False
    """With test-analysis-only, annotate each read-after-write conflict."""

    analysis_heuristic: AnalysisHeuristic = "bottom-up"
    """The order ops are analysed in: `bottom-up` or `top-down`."""

    buffer_alignment: int = 64
    """Alignment of new allocations in bytes (0: none)."""

    def options(self) -> BufferizationOptions:
        return BufferizationOptions(
            bufferize_function_boundaries=self.bufferize_function_boundaries,
            function_boundary_type_conversion=self.function_boundary_type_conversion,
            unknown_type_conversion=self.unknown_type_conversion,
            allow_unknown_ops=self.allow_unknown_ops,
            allow_return_allocs_from_loops=self.allow_return_allocs_from_loops,
            copy_before_write=self.copy_before_write,
            test_analysis_only=self.test_analysis_only,
            print_conflicts=self.print_conflicts,
            analysis_heuristic=self.analysis_heuristic,
            buffer_alignment=self.buffer_alignment,
        )

    def option_problems(self) -> list[str]:
        """What is wrong with the option values together, in words (a value
        outside its option's choices is refused when the pass is parsed);
        `linalg-ext-opt` asks before it runs anything."""
        return self.options().problems()

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        options = self.options()
        problems = options.problems()
        if problems:
            raise PassFailedException(f"{self.name}: " + "; ".join(problems))
        # Work on a copy, so that a failure leaves the module unchanged.
        work = op.clone()
        try:
            bufferize_module(work, options)
        except BufferizationError as error:
            raise OpPassFailed(f"{self.name}: {error}", error.op) from None
        replace_module_contents(op, work)
