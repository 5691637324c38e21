"""The project's passes, one module or package per pass.

This directory is installed as `linalg_ext.passes` (see setup.py).
`ALL_PASSES` maps each pass name (as given to `xdsl-opt -p`) to a function
returning its `ModulePass` class; `linalg_ext.universe` hands it to xDSL. A
pass registers itself by adding one entry here.

Three passes are upstream MLIR's full versions of passes xDSL 0.74 has in a
narrower form (`convert-linalg-to-loops`, `lower-affine`, `convert-scf-to-cf`).
Ours carry ByteIR's `-ext` suffix (`convert-linalg-to-loops-ext`, ...): xDSL's
keep their names and their behaviour, so installing this package changes no
xDSL pipeline.
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.passes import ModulePass


def _buffer_deallocation() -> type[ModulePass]:
    from linalg_ext.passes.buffer_deallocation import BufferDeallocationPass

    return BufferDeallocationPass


def _canonicalize_ext() -> type[ModulePass]:
    from linalg_ext.passes.canonicalize_ext import CanonicalizeExtPass

    return CanonicalizeExtPass


def _convert_arith_to_llvm() -> type[ModulePass]:
    from linalg_ext.passes.convert_arith_to_llvm import ConvertArithToLLVMPass

    return ConvertArithToLLVMPass


def _convert_ccl_to_single_device() -> type[ModulePass]:
    from linalg_ext.passes.convert_ccl_to_single_device import (
        ConvertCclToSingleDevicePass,
    )

    return ConvertCclToSingleDevicePass


def _convert_cf_to_llvm() -> type[ModulePass]:
    from linalg_ext.passes.convert_cf_to_llvm import ConvertCfToLLVMPass

    return ConvertCfToLLVMPass


def _convert_func_to_llvm() -> type[ModulePass]:
    from linalg_ext.passes.convert_func_to_llvm import ConvertFuncToLLVMPass

    return ConvertFuncToLLVMPass


def _convert_index_to_llvm() -> type[ModulePass]:
    from linalg_ext.passes.convert_index_to_llvm import ConvertIndexToLLVMPass

    return ConvertIndexToLLVMPass


def _convert_linalg_ext_to_loops() -> type[ModulePass]:
    from linalg_ext.passes.convert_linalg_ext_to_loops import (
        ConvertLinalgExtToLoopsPass,
    )

    return ConvertLinalgExtToLoopsPass


def _convert_linalg_to_loops() -> type[ModulePass]:
    from linalg_ext.passes.convert_linalg_to_loops import ConvertLinalgToLoopsPass

    return ConvertLinalgToLoopsPass


def _convert_scf_to_cf() -> type[ModulePass]:
    from linalg_ext.passes.convert_scf_to_cf import ConvertScfToCfPass

    return ConvertScfToCfPass


def _convert_math_to_llvm() -> type[ModulePass]:
    from linalg_ext.passes.convert_math_to_llvm import ConvertMathToLLVMPass

    return ConvertMathToLLVMPass


def _convert_vector_to_llvm() -> type[ModulePass]:
    from linalg_ext.passes.convert_vector_to_llvm import ConvertVectorToLLVMPass

    return ConvertVectorToLLVMPass


def _finalize_memref_to_llvm() -> type[ModulePass]:
    from linalg_ext.passes.finalize_memref_to_llvm import FinalizeMemRefToLLVMPass

    return FinalizeMemRefToLLVMPass


def _insert_runtime_checks() -> type[ModulePass]:
    from linalg_ext.passes.insert_runtime_checks import InsertRuntimeChecksPass

    return InsertRuntimeChecksPass


def _lower_affine() -> type[ModulePass]:
    from linalg_ext.passes.lower_affine import LowerAffinePass

    return LowerAffinePass


def _lower_to_llvm() -> type[ModulePass]:
    from linalg_ext.passes.lower_to_llvm import LowerToLLVMPass

    return LowerToLLVMPass


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


def _tiling_cleanup() -> type[ModulePass]:
    from linalg_ext.passes.tiling_cleanup import TilingCleanupPass

    return TilingCleanupPass


def _test_perturb_constants() -> type[ModulePass]:
    from linalg_ext.passes.test_perturb_constants import PerturbConstantsPass

    return PerturbConstantsPass


def _linalg_ext_to_linalg() -> type[ModulePass]:
    from linalg_ext.passes.linalg_ext_to_linalg import LinalgExtToLinalgPass

    return LinalgExtToLinalgPass


def _linalg_fuse_ext() -> type[ModulePass]:
    from linalg_ext.passes.linalg_fuse_ext import LinalgFuseExtPass

    return LinalgFuseExtPass


def _linalg_collapse_loops() -> type[ModulePass]:
    from linalg_ext.passes.linalg_collapse_loops import LinalgCollapseLoopsPass

    return LinalgCollapseLoopsPass


def _linalg_fold_unit_extent_dims() -> type[ModulePass]:
    from linalg_ext.passes.linalg_fold_unit_extent_dims import (
        LinalgFoldUnitExtentDimsPass,
    )

    return LinalgFoldUnitExtentDimsPass


def _linalg_ext_model_pipeline() -> type[ModulePass]:
    from linalg_ext.passes.linalg_ext_model_pipeline import (
        LinalgExtModelPipelinePass,
    )

    return LinalgExtModelPipelinePass


def _linalg_fold_constants_ext() -> type[ModulePass]:
    from linalg_ext.passes.linalg_fold_constants import LinalgFoldConstantsExtPass

    return LinalgFoldConstantsExtPass


def _linalg_generalization_ext() -> type[ModulePass]:
    from linalg_ext.passes.linalg_generalization_ext import (
        LinalgGeneralizationExtPass,
    )

    return LinalgGeneralizationExtPass


def _linalg_tile_and_fuse() -> type[ModulePass]:
    from linalg_ext.passes.linalg_tile_and_fuse import LinalgTileAndFusePass

    return LinalgTileAndFusePass


def _test_linalg_greedy_fusion() -> type[ModulePass]:
    from linalg_ext.passes.test_linalg_greedy_fusion import (
        LinalgGreedyFusionTestPass,
    )

    return LinalgGreedyFusionTestPass


def _linalg_op_tile() -> type[ModulePass]:
    from linalg_ext.passes.linalg_op_tile import LinalgOpTilingPass

    return LinalgOpTilingPass


def _transform_dialect_interpreter() -> type[ModulePass]:
    from linalg_ext.passes.transform_dialect_interpreter import (
        TransformDialectInterpreterPass,
    )

    return TransformDialectInterpreterPass


def _linalg_contraction_microkernel() -> type[ModulePass]:
    from linalg_ext.passes.linalg_contraction_microkernel import (
        LinalgContractionMicrokernelPass,
    )

    return LinalgContractionMicrokernelPass


def _outline_parallel_loops() -> type[ModulePass]:
    from linalg_ext.passes.outline_parallel_loops import OutlineParallelLoopsPass

    return OutlineParallelLoopsPass


def _math_polynomial_approximation() -> type[ModulePass]:
    from linalg_ext.passes.math_polynomial_approximation import (
        MathPolynomialApproximationPass,
    )

    return MathPolynomialApproximationPass


def _linalg_data_place() -> type[ModulePass]:
    from linalg_ext.passes.linalg_data_place import LinalgDataPlacePass

    return LinalgDataPlacePass


def _linalg_prefetch() -> type[ModulePass]:
    from linalg_ext.passes.linalg_prefetch import LinalgPrefetchPass

    return LinalgPrefetchPass


ALL_PASSES: dict[str, Callable[[], type[ModulePass]]] = {
    "canonicalize-ext": _canonicalize_ext,
    "convert-arith-to-llvm": _convert_arith_to_llvm,
    "convert-ccl-to-single-device": _convert_ccl_to_single_device,
    "convert-cf-to-llvm": _convert_cf_to_llvm,
    "convert-func-to-llvm": _convert_func_to_llvm,
    "convert-index-to-llvm": _convert_index_to_llvm,
    "convert-linalg-ext-to-loops": _convert_linalg_ext_to_loops,
    "convert-linalg-to-loops-ext": _convert_linalg_to_loops,
    "convert-math-to-llvm": _convert_math_to_llvm,
    "convert-scf-to-cf-ext": _convert_scf_to_cf,
    "convert-vector-to-llvm-ext": _convert_vector_to_llvm,
    "finalize-memref-to-llvm": _finalize_memref_to_llvm,
    "insert-runtime-checks": _insert_runtime_checks,
    "lower-affine-ext": _lower_affine,
    "lower-to-llvm": _lower_to_llvm,
    "buffer-deallocation-pipeline": _buffer_deallocation,
    "eliminate-empty-tensors": _eliminate_empty_tensors,
    "fuse-pad": _fuse_pad,
    "linalg-fuse-elementwise-ext": _linalg_fuse_elementwise_ext,
    "one-shot-bufferize": _one_shot_bufferize,
    "linalg-ext-tiling-cleanup": _tiling_cleanup,
    # Test passes, as in MLIR, carry a `test-` prefix; they are not for use.
    "test-perturb-constants": _test_perturb_constants,
    "linalg-ext-to-linalg": _linalg_ext_to_linalg,
    "linalg-fuse-ext": _linalg_fuse_ext,
    "linalg-collapse-loops": _linalg_collapse_loops,
    "linalg-data-place": _linalg_data_place,
    "linalg-prefetch": _linalg_prefetch,
    "linalg-fold-unit-extent-dims": _linalg_fold_unit_extent_dims,
    "linalg-fold-constants-ext": _linalg_fold_constants_ext,
    "linalg-ext-model-pipeline": _linalg_ext_model_pipeline,
    "linalg-generalization-ext": _linalg_generalization_ext,
    "linalg-tile-and-fuse": _linalg_tile_and_fuse,
    "test-linalg-greedy-fusion": _test_linalg_greedy_fusion,
    "linalg-op-tile": _linalg_op_tile,
    "transform-dialect-interpreter": _transform_dialect_interpreter,
    "math-polynomial-approximation-ext": _math_polynomial_approximation,
    "linalg-contraction-microkernel": _linalg_contraction_microkernel,
    "outline-parallel-loops-ext": _outline_parallel_loops,
}
