"""`canonicalize-ext`: xDSL's canonicalization plus ByteIR's extra linalg
patterns (`FoldGenericOp`; `tensor.cast`s folded into `linalg_ext` ops'
operands) plus the folds upstream MLIR's `--canonicalize` makes on linalg /
tensor / scf IR that xDSL 0.74 lacks, so that the result has no more ops
than upstream's, computing the same values.

Before (a zero fill plus an elementwise add of it: ByteIR's FoldGenericOp):

    %z = linalg.fill ins(%zero : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
    %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
        ins(%x : tensor<4xf32>) outs(%z : tensor<4xf32>) {
    ^bb0(%a: f32, %b: f32):
      %s = arith.addf %a, %b : f32
      linalg.yield %s : f32
    } -> tensor<4xf32>
    return %r : tensor<4xf32>

After:

    return %x : tensor<4xf32>

The patterns are in `linalg_ext.canonicalization.patterns`; none is
registered on xDSL's ops, so xDSL's `canonicalize` is unchanged. See
docs/passes/canonicalize-ext.md.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from linalg_ext.canonicalization.patterns import apply_canonicalize_ext


@dataclass(frozen=True)
class CanonicalizeExtPass(ModulePass):
    """xDSL's canonicalization, ByteIR's canonicalize-ext linalg patterns and
    upstream's linalg / tensor / scf folds, with DCE and CSE, to a
    fixpoint."""

    name = "canonicalize-ext"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        apply_canonicalize_ext(op, ctx)
