"""The project's passes, one module or package per pass.

This directory is installed as `linalg_ext.passes` (see setup.py).
`ALL_PASSES` maps each pass name (as given to `xdsl-opt -p`) to a function
returning its `ModulePass` class; `linalg_ext.universe` hands it to xDSL. A
pass registers itself by adding one entry here.
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.passes import ModulePass


def _buffer_deallocation() -> type[ModulePass]:
    from linalg_ext.passes.buffer_deallocation import BufferDeallocationPass

    return BufferDeallocationPass


def _eliminate_empty_tensors() -> type[ModulePass]:
    from linalg_ext.passes.eliminate_empty_tensors import EliminateEmptyTensorsPass

    return EliminateEmptyTensorsPass


def _fuse_pad() -> type[ModulePass]:
    from linalg_ext.passes.fuse_pad import FusePadPass

    return FusePadPass


def _linalg_fuse_elementwise_ext() -> type[ModulePass]:
    from linalg_ext.passes.fuse_elementwise_ext import LinalgFuseElementwiseExtPass

    return LinalgFuseElementwiseExtPass


def _one_shot_bufferize() -> type[ModulePass]:
    from linalg_ext.passes.one_shot_bufferize import OneShotBufferizePass

    return OneShotBufferizePass


def _test_perturb_constants() -> type[ModulePass]:
    from linalg_ext.passes.test_perturb_constants import PerturbConstantsPass

    return PerturbConstantsPass


ALL_PASSES: dict[str, Callable[[], type[ModulePass]]] = {
    "buffer-deallocation-pipeline": _buffer_deallocation,
    "eliminate-empty-tensors": _eliminate_empty_tensors,
    "fuse-pad": _fuse_pad,
    "linalg-fuse-elementwise-ext": _linalg_fuse_elementwise_ext,
    "one-shot-bufferize": _one_shot_bufferize,
    # Test passes, as in MLIR, carry a `test-` prefix; they are not for use.
    "test-perturb-constants": _test_perturb_constants,
}
