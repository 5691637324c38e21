"""`linalg-prefetch`: copy the tiles of later iterations of a loop ahead of
time (software prefetch by multi-buffering).

ByteIR's pass of this name, with its options `count` (how many iterations
ahead, default 1; 0 or less disables the pass) and `unroll` (default
false). It rewrites each `linalg.copy` tagged `__byteir_prefetch__` (the
unit tag takes `count`, an integer tag gives the copy's own count) that sits
in the body of an `scf.for`, copies a view computed from the induction
variable, and fills a buffer allocated before the loop. For example, with
`count=1`,

    scf.for %i = %c0 to %c8 step %c2 {
      %t = memref.subview %a[%i] [2] [1] : memref<8xf32> to memref<2xf32, ...>
      linalg.copy {__byteir_prefetch__} ins(%t : ...) outs(%buf : memref<2xf32, 1>)
      linalg.exp ins(%buf : memref<2xf32, 1>) outs(...)
    }

becomes (the tile of the first iteration is copied before the loop; each
iteration copies the next one's into a second buffer, then moves it down)

    %next = memref.alloc() : memref<2xf32, 1>
    %t0 = memref.subview %a[%c0] [2] [1] : ...
    linalg.copy ins(%t0 : ...) outs(%buf : memref<2xf32, 1>)
    scf.for %i = %c0 to %c8 step %c2 {
      %n = arith.addi %i, %c2 : index
      %in = arith.cmpi slt, %n, %c8 : index
      scf.if %in {
        %t = memref.subview %a[%n] [2] [1] : ...
        linalg.copy ins(%t : ...) outs(%next : memref<2xf32, 1>)
      }
      linalg.exp ins(%buf : memref<2xf32, 1>) outs(...)
      scf.if %in {
        linalg.copy ins(%next : ...) outs(%buf : ...)
      }
    }
    memref.dealloc %next : memref<2xf32, 1>

With `count=c` there are `c` extra buffers, the first `c` tiles are copied
before the loop and each iteration copies the tile `c` iterations ahead.
With `unroll`, the loop runs `c + 1` iterations per step, each on its own
buffer (each repetition after the first guarded by the loop's bound), so no
buffer is moved. The logic lives in `linalg_ext.transforms.prefetch`.

Left as they are, as ByteIR does: copies in no `scf.for`, counts of 0 or
less, loops statically shorter than the count. Refused with a diagnostic
naming the copy (ByteIR rewrites these into wrong code or crashes): a copy
that runs conditionally (not directly in the loop body), whose source does
not depend on the induction variable or is computed by other than pure ops
of the body, whose destination is not allocated before the loop or is used
outside the loop (except its `memref.dealloc`) or before the copy in the
body, a loop that writes the memory the copy reads (or holds an op of
unknown effects), and with `unroll`, a loop with loop-carried values or
with two tagged copies.

Differences from ByteIR, which are its defects fixed: ByteIR copies the
first tiles before a loop of dynamic bounds without checking that the loop
runs that often (reading past the end of the source); here those copies are
guarded. ByteIR clones only the op that defines the source, so a source
computed in two steps refers to values of the loop body from before the
loop; here the whole computation is cloned. ByteIR moves buffers down
unconditionally, copying stale data at the loop's end; here a move happens
only when its tile exists. ByteIR never frees its buffers; here they are
deallocated after the loop. The checks above are new.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.linalg.ops import CopyOp
from xdsl.ir import Operation
from xdsl.passes import ModulePass

from linalg_ext.diagnostics import OpPassFailed
from linalg_ext.transforms.prefetch import (
    PREFETCH_ATTR,
    PrefetchPlan,
    PrefetchRefused,
    plan_prefetch,
    prefetch,
    prefetch_count,
)


@dataclass(frozen=True)
class LinalgPrefetchPass(ModulePass):
    """Prefetch tagged copies in loops; see the module docstring."""

    name = "linalg-prefetch"

    count: int = 1
    """How many iterations ahead to copy (for copies with the unit tag);
    0 or less: no prefetching."""

    unroll: bool = False
    """Unroll the loop instead of moving buffers at each iteration's end."""

    def _plan(self, copy: CopyOp, loops: set[Operation]) -> PrefetchPlan | None:
        """The copy's plan (None: left alone); `loops` collects the loops
        planned so far, to refuse a second copy of a loop to unroll."""
        count = prefetch_count(copy, self.count)
        if count is None:
            return None
        try:
            plan = plan_prefetch(copy, count, self.unroll)
            if plan is not None and self.unroll and plan.loop in loops:
                raise PrefetchRefused(
                    "unrolling prefetches one copy per loop, and another "
                    "copy of this loop is prefetched already"
                )
        except PrefetchRefused as refusal:
            raise OpPassFailed(
                f"{self.name}: cannot prefetch '{copy.name}': {refusal}", copy
            ) from None
        if plan is not None:
            loops.add(plan.loop)
        return plan

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        copies = [
            c
            for c in op.walk()
            if isinstance(c, CopyOp) and PREFETCH_ATTR in c.attributes
        ]
        # Every copy is checked before any is rewritten, so that a refusal
        # leaves the module unchanged.
        checked: set[Operation] = set()
        for copy in copies:
            self._plan(copy, checked)
        rewritten: set[Operation] = set()
        for copy in copies:
            plan = self._plan(copy, rewritten)
            if plan is not None:
                prefetch(plan, self.unroll)
