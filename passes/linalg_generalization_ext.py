"""`linalg-generalization-ext`: every named Linalg op as the `linalg.generic`
it stands for.

ByteIR's pass of this name (no options): every Linalg structured op but
`linalg.generic` itself, on tensors or memrefs, becomes a `linalg.generic`
with the same operands, indexing maps, iterator types and results, and a
body that computes what the op computes. That covers the named elementwise
ops (`linalg.add`, `linalg.exp`, ...), `linalg.elementwise`,
`linalg.elemwise_unary`/`binary`, `linalg.select`, `fill`, `copy`,
`transpose`, `broadcast`, `linalg.map`, `linalg.reduce`, the matmuls, the
convolutions and `linalg.pooling_nchw_max`. For example

    %r = linalg.fill ins(%v : f32) outs(%e : tensor<2x3xf32>) -> tensor<2x3xf32>

becomes

    %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> ()>,
                                          affine_map<(d0, d1) -> (d0, d1)>],
                         iterator_types = ["parallel", "parallel"]}
        ins(%v : f32) outs(%e : tensor<2x3xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<2x3xf32>

The bodies are upstream MLIR 22's (`linalg_ext.transforms.generalize`), not
the hidden bodies xDSL 0.74 gives its named ops: xDSL's own
`linalg-generalize-named-ops` copies those, and for `linalg.pooling_nchw_max`
that body is `max(input, window)`, which ignores the output it accumulates
into; here it is `max(output, input)`, as upstream.

Differences from ByteIR's pass: it runs on every op of the module (not only
in `func.func` bodies) and leaves the other ops alone (ByteIR's greedy driver
also folds constants and erases dead ops); the discardable attributes of the
named op (tags other passes left) are kept on the generic. `linalg.softmax`
and the `linalg_ext` ops are not Linalg structured ops and are left as they
are, as ByteIR does.

Refused, with one diagnostic naming every such op and the module left
unchanged: a named op whose body upstream cannot build for its element types
(`linalg.sub` on `i1`, for instance; `mlir-opt` rejects such an op).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
)

from linalg_ext.diagnostics import OpPassFailed
from linalg_ext.transforms.generalize import GENERALIZED_OPS, generalize


def discardable_attributes(op: Operation) -> dict[str, object]:
    """The attributes of `op` its definition does not declare (tags left by
    other passes), which the generic keeps."""
    declared = type(op).get_irdl_definition().attributes  # pyright: ignore[reportAttributeAccessIssue]
    return {
        name: value for name, value in op.attributes.items() if name not in declared
    }


def refusal(op: Operation) -> str | None:
    """Why the named op `op` cannot be generalized, or None if it can."""
    generic = generalize(op)
    if generic is not None:
        generic.erase()
        return None
    types = ", ".join(str(v.type) for v in op.operands)
    return (
        f"'{op.name}' on {types}: upstream builds no scalar body for these "
        "element types"
    )


class GeneralizeNamedOp(RewritePattern):
    """A named Linalg op replaced by the `linalg.generic` it stands for."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if op.name not in GENERALIZED_OPS:
            return
        generic = generalize(op)
        assert generic is not None, "the pass checks every op beforehand"
        for name, value in discardable_attributes(op).items():
            if name not in generic.attributes and name not in generic.properties:
                generic.attributes[name] = value  # pyright: ignore[reportArgumentType]
        rewriter.replace(op, generic)


@dataclass(frozen=True)
class LinalgGeneralizationExtPass(ModulePass):
    """Rewrite every named Linalg op as a `linalg.generic` with upstream's
    body (see the module docstring). ByteIR's pass has no options, nor has
    this one."""

    name = "linalg-generalization-ext"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        problems = [
            (target, problem)
            for target in op.walk()
            if target.name in GENERALIZED_OPS
            and (problem := refusal(target)) is not None
        ]
        if problems:
            raise OpPassFailed(
                f"{self.name}: " + "; ".join(text for _, text in problems),
                problems[0][0],
            )
        PatternRewriteWalker(
            GeneralizeNamedOp(), apply_recursively=False
        ).rewrite_module(op)
