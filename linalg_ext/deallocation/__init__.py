"""Deallocation analysis: which buffers a function owns, and where to free them.

The library half of `buffer-deallocation-pipeline` (passes/buffer_deallocation.py):
it proves ownership at compile time, so the pass frees unconditionally or not
at all (a leak, never a double free). docs/passes/buffer-deallocation-pipeline.md
has the rules.

How it works, per function:

1. Every memref (or tensor) value gets the set of *sources* it may be at run
   time: allocations, function arguments, globals, allocas, call results,
   and opaque values; views (`memref.subview`, `cast`, `expand_shape`, …)
   and `scf.yield`s propagate them, to a fixpoint over loops.
2. A merge point (an `scf.for` iter_arg, an `scf.if` result) that receives
   only fresh allocations, each handing over ownership (a fresh buffer made in
   the loop body or the branch, an owned initial value not used after the
   loop), becomes a source of its own: the loop body owns its iter_arg, the
   enclosing block owns the result. Merges are first all assumed to qualify,
   then the ones that do not are dropped, until none is.
3. Each owned source (a `memref.alloc`, an owned call result, an accepted
   merge) is freed in its block after the last op that uses it or a value
   aliasing it, unless ownership moved (returned, handed to a merge); if an
   alias leaves the block any other way, it is not freed.

Function summaries say, per callee, which results the caller owns (a fresh
allocation returned once and whole), which may be arguments (and which are
all of one), and which arguments the callee may free. Everything is decided
on the program as it is before any `memref.dealloc` is inserted.

The modules: `buffers` (sources and merge points), `summary` (what callers
know of a function), `function_analysis` (steps 1 to 3 for one function) and
`summaries` (every function of a module, on demand).
"""

from linalg_ext.deallocation.buffers import (
    Decision,
    Kind,
    Merge,
    NotOwned,
    Plan,
    Source,
)
from linalg_ext.deallocation.function_analysis import FunctionAnalysis
from linalg_ext.deallocation.summaries import Summaries
from linalg_ext.deallocation.summary import Summary

__all__ = [
    "Decision",
    "FunctionAnalysis",
    "Kind",
    "Merge",
    "NotOwned",
    "Plan",
    "Source",
    "Summaries",
    "Summary",
]
