"""The summaries and analyses of a module's functions, computed on demand.

`Summaries` analyses a callee the first time a caller asks about it (a
recursive call, an external or multi-block function gets a conservative
summary), and says which ops may free a buffer (`frees`).
"""

from __future__ import annotations

from xdsl.dialects import func, memref
from xdsl.dialects.builtin import MemRefType, ModuleOp, UnrankedMemRefType
from xdsl.ir import Operation
from xdsl.traits import MemoryEffectKind, get_effects

from linalg_ext.deallocation.function_analysis import FunctionAnalysis
from linalg_ext.deallocation.summary import Summary, unknown_summary


class Summaries:
    """The summaries and analyses of one module's functions, on demand."""

    def __init__(self, module: ModuleOp):
        self.functions: dict[str, func.FuncOp] = {
            op.sym_name.data: op for op in module.walk() if isinstance(op, func.FuncOp)
        }
        self.done: dict[str, Summary] = {}
        self.analyses: dict[str, FunctionAnalysis] = {}
        self.in_progress: set[str] = set()

    def analysis(self, function: func.FuncOp) -> FunctionAnalysis | None:
        """The function's analysis, None if it has no body."""
        if function.is_declaration:
            return None
        name = function.sym_name.data
        if name not in self.analyses:
            self.in_progress.add(name)
            try:
                self.analyses[name] = FunctionAnalysis(function, self)
            finally:
                self.in_progress.discard(name)
        return self.analyses[name]

    def of(self, name: str) -> Summary:
        if name in self.done:
            return self.done[name]
        function = self.functions.get(name)
        if function is None:
            return unknown_summary(None, f"@{name} is not in the module")
        if name in self.in_progress:
            # A recursive call: nothing is known yet.
            return unknown_summary(function, f"@{name} is recursive")
        if function.is_declaration:
            # Upstream's convention: a function returns buffers its caller
            # owns, and does not free its arguments.
            summary = Summary(
                owned_results={
                    i
                    for i, t in enumerate(function.function_type.outputs.data)
                    if isinstance(t, MemRefType | UnrankedMemRefType)
                }
            )
        elif len(function.body.blocks) != 1:
            summary = unknown_summary(
                function, f"@{name} has several blocks, which the pass does not follow"
            )
        else:
            analysis = self.analysis(function)
            assert analysis is not None
            summary = analysis.summary()
        self.done[name] = summary
        return summary

    def of_call(self, op: func.CallOp) -> Summary:
        return self.of(op.callee.root_reference.data)

    def frees(self, op: Operation, index: int) -> str | None:
        """Whether `op` may free its operand #index: None if not, "" if it
        does (a dealloc, a callee that frees that argument), else why it
        may (a callee the pass knows nothing about)."""
        if isinstance(op, memref.DeallocOp):
            return ""
        if isinstance(op, func.CallOp):
            summary = self.of_call(op)
            if summary.unknown:
                callee = op.callee.root_reference.data
                return (
                    f"it is passed to @{callee}, which may free it ({summary.unknown})"
                )
            return "" if index in summary.may_free else None
        if op.name == "func.call_indirect" and index > 0:
            return "it is passed to an indirect call, which may free it"
        effects = get_effects(op)
        if effects and any(e.kind is MemoryEffectKind.FREE for e in effects):
            return ""  # e.g. bufferization.dealloc: it takes care of the buffer
        return None
