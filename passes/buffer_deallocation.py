"""`buffer-deallocation-pipeline`: free the buffers a memref program allocates.

    %t = memref.alloc() : memref<4xf32>
    linalg.exp ins(%x : memref<4xf32>) outs(%t : memref<4xf32>)
    linalg.add ins(%t, %y : ...) outs(%out : memref<4xf32>)

gets `memref.dealloc %t` right after the `linalg.add`, the last use of `%t`
or of a view of it. Upstream MLIR's pipeline of that name inserts
`bufferization.dealloc` ops whose conditions are computed at run time and
lowers them to `memref.dealloc` under `scf.if`s; this pass proves ownership
at compile time instead and frees unconditionally, or does not free at all
(a leak, never a double free; `report` says why). docs/passes/
buffer-deallocation-pipeline.md has the rules.

The analysis (which value may be which buffer, who owns it, where its last use
is, what each function's callers may assume) is the library package
`linalg_ext.deallocation`; this module holds the pass: its option, the
insertion of the `memref.dealloc`s and the `report` diagnostics.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import func, memref
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Block, Operation
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from linalg_ext.deallocation import FunctionAnalysis, Plan, Source, Summaries

PASS = "buffer-deallocation-pipeline"


def _label(source: Source, number: dict[Source, int]) -> str:
    """`%t (memref.alloc)`, or for a value with no name, its kind, its place
    among the function's owned buffers and its type."""
    value = source.value
    if value.name_hint:
        return f"%{value.name_hint} ({source.kind.value})"
    return f"{source.kind.value} #{number[source]} ({value.type})"


@dataclass(frozen=True)
class BufferDeallocationPass(ModulePass):
    """Insert `memref.dealloc` for every buffer a function allocates and does
    not return (see the module docstring and
    docs/passes/buffer-deallocation-pipeline.md)."""

    name = "buffer-deallocation-pipeline"

    report: bool = False
    """Print one line per buffer left unfreed, with the reason, to stderr."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        summaries = Summaries(op)
        functions = [
            f for f in op.walk() if isinstance(f, func.FuncOp) and not f.is_declaration
        ]
        # Decide everything on the program as it is, then insert.
        plans: list[tuple[str, FunctionAnalysis | None, Plan]] = []
        for function in functions:
            name = function.sym_name.data
            analysis = summaries.analysis(function)
            plans.append((name, analysis, analysis.plan() if analysis else ({}, {})))
        for name, analysis, (where, refused) in plans:
            self._insert(where)
            if not self.report:
                continue
            if analysis is None:
                if any(
                    isinstance(o, memref.AllocOp)
                    for o in summaries.functions[name].walk()
                ):
                    self._print(
                        name,
                        "function not handled: it has several blocks "
                        "(unstructured control flow), so nothing in it is freed",
                    )
                continue
            number = {s: n for n, s in enumerate(analysis.owned_sources())}
            for source, reason in refused.items():
                self._print(name, f"{_label(source, number)} not freed: {reason}")

    @staticmethod
    def _print(function: str, message: str) -> None:
        print(f"{PASS}: @{function}: {message}", file=sys.stderr)

    @staticmethod
    def _insert(where: dict[Source, Operation | Block]) -> None:
        grouped: dict[Operation | Block, list[Source]] = {}
        for source, anchor in where.items():
            grouped.setdefault(anchor, []).append(source)
        for anchor, sources in grouped.items():
            deallocs = [memref.DeallocOp.get(s.value) for s in sources]
            point = (
                InsertPoint.at_start(anchor)
                if isinstance(anchor, Block)
                else InsertPoint.after(anchor)
            )
            Rewriter.insert_op(deallocs, point)
