"""Pipelines several layers share, as `xdsl-opt -p` text.

They live at the bottom of the package (no imports) so that both a pass
(`linalg-ext-model-pipeline`, in the `passes` layer) and the libraries above
it (`linalg_ext.jit`, `linalg_ext.models`) use the same text: the pass and
`compile_model` then run exactly the same passes.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

DEFAULT_MODEL_FAST_MATH: Final = "arcp"
"""The floating-point contract of a compiled model (`compile_model` and
`linalg-ext-model-pipeline`), with approximate math: onnxruntime's, where
multiply-adds fuse, reductions run in any order and a division by a value
the inner loop does not change is a multiplication by its reciprocal."""

DEFAULT_FOLD_LIMIT = 65536
"""`linalg-fold-constants-ext`'s `max-elements` in the model pipeline: the
largest constant, in elements, computed at compile time (a 256x256 weight;
bigger transposed weights stay a `linalg.transpose` run on every call)."""


def model_pipeline(
    fold_limit: int = DEFAULT_FOLD_LIMIT,
    fast_math: str = DEFAULT_MODEL_FAST_MATH,
    approximate_math: bool = True,
    tile_sizes: Sequence[int] = (),
) -> str:
    """The tensor-level passes for the linalg-on-tensors IR of a model
    (torch-mlir's output), with `fold_limit` as the folding limit, for code
    compiled with `fast_math` and `approximate_math`:

    - `canonicalize-ext`: CSE and folds of torch-mlir's IR first, so that
      identical constants and ops are one before folding and fusing;
    - `linalg-fold-constants-ext`: ops on constants only (the
      `linalg.transpose` of a GEMM's weight with transB, a broadcast bias)
      become constants, computed once at compile time;
    - `linalg-fuse-elementwise-ext{permutations-into-contractions=true}`:
      chains of elementwise generics (bias, activation, the steps of a
      GELU) become one loop nest, and a contraction reads the source of a
      transpose or broadcast feeding it (a GEMM's transB weight too large
      to fold, attention's K^T) through its indexing map, which the
      micro-kernel packs anyway. With `math-into-reduction=true` where the
      contract lets a reduction loop with `exp` in it vectorise (a sum in
      any order and `exp` a polynomial: `fast`, or `reassoc` or `arcp`
      with `approximate_math`): softmax's `exp` is then computed in the sum's
      loop and again in the division's, instead of stored and read twice
      (~10 % faster at 256x1024); under a stricter contract such a loop
      stays scalar, so it is not fused;
    - `canonicalize-ext` again: fusion leaves dead `tensor.empty`s, unused
      fills and duplicated operands behind;
    - with `tile_sizes` (none by default), `linalg-tile-and-fuse` with them
      and `canonicalize-ext`: each root (a chain's last op) tiled with
      `scf.for` loops and its producers fused tile by tile. Off by default:
      on one thread the micro-kernels block for the caches themselves and a
      tiled attention re-packs K and V per tile (docs/models.md, measured).
    """
    # `fast` approximates math functions by itself (lower-to-llvm's rule).
    math_into_reduction = fast_math == "fast" or (
        approximate_math and fast_math in ("reassoc", "arcp")
    )
    fusion_options = "permutations-into-contractions=true" + (
        " math-into-reduction=true" if math_into_reduction else ""
    )
    pipeline = (
        "canonicalize-ext,"
        f"linalg-fold-constants-ext{{max-elements={fold_limit}}},"
        f"linalg-fuse-elementwise-ext{{{fusion_options}}},"
        "canonicalize-ext"
    )
    if tile_sizes:
        sizes = ",".join(str(size) for size in tile_sizes)
        pipeline += f",linalg-tile-and-fuse{{tile-sizes={sizes}}},canonicalize-ext"
    return pipeline


MODEL_PIPELINE = model_pipeline()
"""The model pipeline with the default folding limit and floating-point
contract (`model_pipeline()`)."""

BUFFERIZATION = (
    "one-shot-bufferize{bufferize-function-boundaries=true "
    "function-boundary-type-conversion=identity-layout-map "
    "allow-return-allocs-from-loops=true},"
    "buffer-deallocation-pipeline"
)
"""How `linalg_ext.jit` bufferizes a tensor program before lowering. A loop
that yields a new tensor each iteration (the rescaled accumulator of a
flash-attention loop) is allowed: the deallocation pipeline frees each
iteration's buffer."""
