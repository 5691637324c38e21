"""`convert-ccl-to-single-device`: every `ccl.all_reduce` replaced by what it
computes on one device (docs/ccl.md), on tensors, so the program bufferizes
and compiles (`linalg_ext.jit.compile_module` runs the same rewrite first,
`linalg_ext.lowering.ccl_single_device`).

The replicas of an all-reduce are the iterations of the `scf.forall` whose
body holds it; one group of all of them splits the loop in two:

    %r = scf.forall (%t) in (4) shared_outs(%o = %init) -> (tensor<8xf32>) {
      %p = ... the iteration's partial result ...
      %s = "ccl.all_reduce"(%p) {reduction = "sum"} : (tensor<8xf32>) -> tensor<8xf32>
      ... uses of %s ...
    }

becomes

    %stack = scf.forall (%t) in (4) shared_outs(%o = %empty) -> (tensor<4x8xf32>) {
      %p = ... the iteration's partial result ...
      scf.forall.in_parallel {
        tensor.parallel_insert_slice %p into %o[%t, 0] [1, 8] [1, 1]
            : tensor<8xf32> into tensor<4x8xf32>
      }
    }
    %first = tensor.extract_slice %stack[0, 0] [1, 8] [1, 1] : ... to tensor<8xf32>
    %rest = tensor.extract_slice %stack[1, 0] [3, 8] [1, 1] : ... to tensor<3x8xf32>
    %s = linalg.generic {... ["parallel", "reduction"]} ins(%rest) outs(%first) {
      addf, rows in order
    }
    %r = scf.forall (%t) in (4) shared_outs(%o = %init) -> (tensor<8xf32>) {
      ... uses of %s ...
    }

An all-reduce with one replica per group (or in no loop, groups absent or
`[[0]]`) becomes its `src`. Refused, at the op: replica groups naming
replicas that do not exist, leaving some out or naming one twice; several
groups of several replicas; `dynamic_replica_groups`; an all-reduce nested
deeper in a loop than its body; a loop with bounds that are not constants.
No options.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from linalg_ext.diagnostics import OpPassFailed
from linalg_ext.lowering.ccl_single_device import lower_all_reduces


@dataclass(frozen=True)
class ConvertCclToSingleDevicePass(ModulePass):
    """Replace every `ccl.all_reduce` by its single-device meaning (see the
    module docstring)."""

    name = "convert-ccl-to-single-device"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        try:
            lower_all_reduces(op, locate=False)
        except OpPassFailed as refusal:
            raise OpPassFailed(f"{self.name}: {refusal}", refusal.op) from refusal
