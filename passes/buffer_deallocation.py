"""`buffer-deallocation-pipeline`: free the buffers a memref program allocates.

    %t = memref.alloc() : memref<4xf32>
    linalg.exp ins(%x : memref<4xf32>) outs(%t : memref<4xf32>)
    linalg.add ins(%t, %y : ...) outs(%out : memref<4xf32>)

gets `memref.dealloc %t` right after the `linalg.add`, the last use of `%t`
or of a view of it. Where ownership is proven at compile time the free is
unconditional; where it is known only at run time (an `scf.if` yielding a
new buffer from one branch and an argument from the other, a loop whose
iter_arg is sometimes replaced, an `arith.select` of buffers yielded out of
a branch), the merge carries an i1 ownership flag, as upstream's
ownership-based deallocation does, and the buffer is freed under it. What
cannot be decided is not freed (a leak, never a double free; `report` says
why). An op of unknown memory effects is refused, as upstream does.
docs/passes/buffer-deallocation-pipeline.md has the rules.

The analysis (which value may be which buffer, who owns it, where its last use
is, what each function's callers may assume) is the library package
`linalg_ext.deallocation`; this module holds the pass: its option, the
insertion of the `memref.dealloc`s and the `report` diagnostics.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from linalg_ext.deallocation import (
    UNKNOWN_EFFECTS,
    DeallocationRewriter,
    FunctionAnalysis,
    Plan,
    Source,
    Summaries,
    has_unknown_effects,
    op_name,
)
from linalg_ext.diagnostics import OpPassFailed

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
        functions = [
            f for f in op.walk() if isinstance(f, func.FuncOp) and not f.is_declaration
        ]
        for function in functions:
            for inner in function.body.walk():
                if has_unknown_effects(inner):
                    raise OpPassFailed(
                        f"{PASS}: '{op_name(inner)}': {UNKNOWN_EFFECTS}", inner
                    )
        summaries = Summaries(op)
        # Decide everything on the program as it is, then insert.
        plans: list[tuple[str, FunctionAnalysis, Plan]] = []
        for function in functions:
            analysis = summaries.analysis(function)
            assert analysis is not None  # not a declaration
            plans.append((function.sym_name.data, analysis, analysis.plan()))
        for name, analysis, (where, refused) in plans:
            DeallocationRewriter(analysis).apply(where)
            if not self.report:
                continue
            number = {s: n for n, s in enumerate(analysis.owned_sources())}
            for source, reason in refused.items():
                self._print(name, f"{_label(source, number)} not freed: {reason}")

    @staticmethod
    def _print(function: str, message: str) -> None:
        print(f"{PASS}: @{function}: {message}", file=sys.stderr)
