"""`linalg-ext-model-pipeline`: the passes that take a model's
linalg-on-tensors IR (torch-mlir's output for an ONNX or PyTorch model) to
tensors ready to compile, then, if asked, to buffers or to the `llvm`
dialect.

    linalg-ext-model-pipeline{fold-limit=65536 fast-math=arcp
                              approximate-math=true to=llvm}

runs, in order,

1. the model pipeline (`linalg_ext.pass_pipelines.model_pipeline`, the
   text `linalg_ext.models.MODEL_PIPELINE` names): `canonicalize-ext`,
   `linalg-fold-constants-ext{max-elements=<fold-limit>}`,
   `linalg-fuse-elementwise-ext{permutations-into-contractions=true}`,
   `canonicalize-ext` -- the constant
   `linalg.transpose` of a GEMM weight with transB is computed once, the
   elementwise chains (bias, activation) become one loop nest; fusion also
   pulls `exp` into a reduction (`math-into-reduction=true`) when
   `fast-math` is `fast`, or `reassoc`/`arcp` with `approximate-math` on, the
   contracts under which such a loop vectorises; with `tile-sizes` (none by
   default), `linalg-tile-and-fuse{tile-sizes=...}` and `canonicalize-ext`
   after it: each root tiled, its producers fused into the tiles;
2. with `to=buffers` or `to=llvm`, the JIT's bufferization
   (`linalg_ext.pass_pipelines.BUFFERIZATION`: `one-shot-bufferize` with
   function boundaries and identity layouts, `buffer-deallocation-pipeline`);
3. with `to=llvm`, `lower-to-llvm{fast-math=<fast-math>
   approximate-math=<approximate-math>}`: by default `compile_model`'s
   floating-point contract (`arcp`, approximate math: onnxruntime's;
   `fast-math=none approximate-math=false` for the interpreter's
   bits).

`linalg_ext.models.compile_model(source)` is this pass with `to=tensors`
followed by `linalg_ext.jit.compile_module` (which bufferizes and lowers
itself, with its own options): the same code. Unlike `compile_module`, the
pass does not mark the tensor arguments of public functions read-only, so
with `to=buffers` a function may write into its argument buffers, as
upstream's `one-shot-bufferize` allows.

The pass is a `StagedPass`: `linalg-ext-opt --print-between-passes` shows
each step.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from xdsl.passes import ModulePass
from xdsl.utils.arg_spec import parse_pipeline

from linalg_ext.lowering.fast_math import FastMathMode
from linalg_ext.pass_pipelines import (
    BUFFERIZATION,
    DEFAULT_FOLD_LIMIT,
    DEFAULT_MODEL_FAST_MATH,
    model_pipeline,
)
from linalg_ext.transforms.staged import StagedPass


def _passes(spec: str) -> list[ModulePass]:
    """The passes of a pipeline's text, configured, each the one registered
    under its name (ours first: some replace xDSL's)."""
    from xdsl.transforms import get_all_passes

    from linalg_ext.passes import ALL_PASSES

    passes: list[ModulePass] = []
    for pass_spec in parse_pipeline(spec):
        loader = ALL_PASSES.get(pass_spec.name) or get_all_passes()[pass_spec.name]
        passes.append(loader().from_pass_spec(pass_spec))
    return passes


@dataclass(frozen=True)
class LinalgExtModelPipelinePass(StagedPass):
    """Take a model's linalg-on-tensors IR to compilable tensors, buffers or
    the llvm dialect (see the module docstring)."""

    name = "linalg-ext-model-pipeline"

    fold_limit: int = DEFAULT_FOLD_LIMIT
    """`linalg-fold-constants-ext`'s `max-elements`: the largest result or
    constant operand, in elements, computed at compile time."""

    fast_math: FastMathMode = DEFAULT_MODEL_FAST_MATH
    """The floating-point contract the code is compiled with (`lower-to-llvm`'s
    `fast-math` with `to=llvm`), by default `compile_model`'s: `arcp`.
    With `approximate-math`, it also decides whether fusion pulls `exp`
    into a reduction (`model_pipeline`)."""

    approximate_math: bool = True
    """`lower-to-llvm`'s `approximate-math` (with `to=llvm`; see
    `fast_math`), by default `compile_model`'s: on."""

    tile_sizes: tuple[int, ...] = ()
    """With sizes, `linalg-tile-and-fuse{tile-sizes=...}` (and
    `canonicalize-ext`) after fusion: each root tiled with these sizes, its
    producers fused into the tiles. None by default (see
    `linalg_ext.pass_pipelines.model_pipeline`)."""

    to: Literal["tensors", "buffers", "llvm"] = "llvm"
    """Where to stop: after the tensor-level passes, after bufferization, or
    in the llvm dialect."""

    def stages(self) -> tuple[ModulePass, ...]:
        """The model pipeline, then bufferization and lowering as `to` says."""
        stages = _passes(
            model_pipeline(
                self.fold_limit,
                self.fast_math,
                self.approximate_math,
                self.tile_sizes,
            )
        )
        if self.to in ("buffers", "llvm"):
            stages += _passes(BUFFERIZATION)
        if self.to == "llvm":
            # By name, as any pipeline's text: passes do not import each other.
            approximate = str(self.approximate_math).lower()
            stages += _passes(
                f"lower-to-llvm{{fast-math={self.fast_math} "
                f"approximate-math={approximate}}}"
            )
        return tuple(stages)
