"""Deallocation analysis: which buffers a function owns, and where to free them.

The library half of `buffer-deallocation-pipeline` (passes/buffer_deallocation.py):
it proves ownership at compile time where it can (an unconditional free), and
gives the merges where it is known only at run time an i1 ownership flag (a
free under the flag); what neither decides is not freed (a leak, never a
double free). docs/passes/buffer-deallocation-pipeline.md has the rules.

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
   then the ones that do not are dropped, until none is. A dropped merge
   into which a buffer the branch or body owns may flow gets a flag: it takes
   over those buffers when the value is one of them (compared by address
   where not certain), and is a source of its own, owned when its flag says.
   A returned result that may or may not be owned is returned, or a copy.
   A value that may be a view of (part of) a buffer the branch, body or
   function owns is passed on as a copy when it is one, and the buffer is
   freed after the copy. A buffer returned more than once is handed over
   by one result; the others are copies.
3. Each owned source (a `memref.alloc`, an owned call result, an accepted
   merge) is freed in its block after the last op that uses it or a value
   aliasing it, unless ownership moved (returned, handed to a merge); if an
   alias leaves the block any other way (in a function of several blocks,
   also a `cf` branch or a use in another block), it is not freed.

Function summaries say, per callee, which results the caller owns (a fresh
allocation returned once and whole), which may be arguments (and which are
all of one), and which arguments the callee may free. Everything is decided
on the program as it is before any `memref.dealloc` is inserted.

The modules: `buffers` (sources and merge points), `values` (which values
one may be all of), `summary` (what callers know of a function),
`function_analysis` (steps 1 to 3 for one function), `returns` (what a
function does with the buffers it returns, once or several times, and its
summary), `summaries` (every
function of a module, on demand), `effects` (ops of unknown memory effects,
which the pass refuses) and `rewrite` (inserting the frees and the flags).
"""

from linalg_ext.deallocation.buffers import (
    Decision,
    Incoming,
    Kind,
    Merge,
    NotOwned,
    Plan,
    Source,
)
from linalg_ext.deallocation.effects import (
    UNKNOWN_EFFECTS,
    has_unknown_effects,
    op_name,
)
from linalg_ext.deallocation.function_analysis import FunctionAnalysis
from linalg_ext.deallocation.rewrite import DeallocationRewriter
from linalg_ext.deallocation.summaries import Summaries
from linalg_ext.deallocation.summary import Summary

__all__ = [
    "UNKNOWN_EFFECTS",
    "DeallocationRewriter",
    "Decision",
    "FunctionAnalysis",
    "Incoming",
    "Kind",
    "Merge",
    "NotOwned",
    "Plan",
    "Source",
    "Summaries",
    "Summary",
    "has_unknown_effects",
    "op_name",
]
