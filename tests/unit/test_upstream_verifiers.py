"""Upstream ops that MLIR 22 rejects are rejected, for the same reason and in
the same words; their valid near misses still verify.

Each invalid case is parsed and verified (raising with the expected message)
and, when `mlir-opt-22` is installed, also given to it (which must reject it
with the same message). Each valid case must verify under both. The rules
live in `linalg_ext/compat/slice_checks.py`, `shape_checks.py` and
`linalg_checks.py` (docs/compat.md, "Verifying upstream ops").
"""

from __future__ import annotations

import shutil
import subprocess

import pytest
from xdsl.utils.exceptions import VerifyException

from helpers import parse_module

MLIR_OPT = shutil.which("mlir-opt-22")
needs_mlir_opt = pytest.mark.skipif(
    MLIR_OPT is None, reason="mlir-opt-22 is not installed"
)


def _func(signature: str, body: str, result: str = "") -> str:
    returned = f"  return %r : {result}\n" if result else "  return\n"
    arrow = f" -> {result}" if result else ""
    return f"func.func @f({signature}){arrow} {{\n{body}\n{returned}}}\n"


def _pad(
    source: str, low: str, high: str, result: str, yield_type: str = "f32", arg="index"
):
    return _func(
        f"%t: {source}, %v: {yield_type}, %n: index",
        f"  %r = tensor.pad %t low[{low}] high[{high}] {{\n"
        f"  ^bb0(%i: index, %j: {arg}):\n"
        f"    tensor.yield %v : {yield_type}\n"
        f"  }} : {source} to {result}",
        result,
    )


def _extract(source: str, slice_: str, result: str) -> str:
    return _func(
        f"%t: {source}, %n: index",
        f"  %r = tensor.extract_slice %t{slice_} : {source} to {result}",
        result,
    )


def _insert(source: str, dest: str, slice_: str) -> str:
    return _func(
        f"%s: {source}, %d: {dest}, %n: index",
        f"  %r = tensor.insert_slice %s into %d{slice_} : {source} into {dest}",
        dest,
    )


def _subview(source: str, slice_: str, result: str) -> str:
    return _func(
        f"%m: {source}, %n: index",
        f"  %r = memref.subview %m{slice_} : {source} to {result}",
    )


def _generic(yield_type: str, result: str, outs: str = "tensor<4xf32>") -> str:
    value = "%x" if yield_type == "f32" else "%c"
    return _func(
        f"%a: tensor<4xf32>, %b: {outs}",
        "  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, "
        'affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} '
        f"ins(%a : tensor<4xf32>) outs(%b : {outs}) {{\n"
        "  ^bb0(%x: f32, %y: f32):\n"
        "    %c = arith.constant 1 : i32\n"
        f"    linalg.yield {value} : {yield_type}\n"
        f"  }} -> {result}",
        result,
    )


INVALID = {
    # tensor.pad
    "pad_result_extent": (
        _pad("tensor<4x5xf32>", "1, 2", "3, 1", "tensor<9x9xf32>"),
        "specified type 'tensor<9x9xf32>' does not match the inferred type "
        "'tensor<8x8xf32>'",
    ),
    "pad_result_dynamic_where_static": (
        _pad("tensor<4x5xf32>", "1, 2", "3, 1", "tensor<?x8xf32>"),
        "specified type 'tensor<?x8xf32>' does not match the inferred type "
        "'tensor<8x8xf32>'",
    ),
    "pad_result_rank": (
        _pad("tensor<4x5xf32>", "1, 2", "3, 1", "tensor<8x8x1xf32>"),
        "does not match the inferred type 'tensor<8x8xf32>'",
    ),
    "pad_yield_type": (
        _pad("tensor<4x5xf32>", "1, 2", "3, 1", "tensor<8x8xf32>", "f16"),
        "'tensor.pad' op expected yield type to match shape element type",
    ),
    "pad_block_argument": (
        _pad("tensor<4x5xf32>", "1, 2", "3, 1", "tensor<8x8xf32>", arg="i32"),
        "'tensor.pad' op expected block argument 2 to be an index",
    ),
    "pad_count": (
        _pad("tensor<4x5xf32>", "1", "3, 1", "tensor<8x8xf32>"),
        "failed to infer expectedType from sourceType 'tensor<4x5xf32>', "
        "specified resultType is 'tensor<8x8xf32>'",
    ),
    # tensor.extract_slice
    "extract_out_of_bounds": (
        _extract("tensor<8x8xf32>", "[6, 0] [4, 4] [1, 1]", "tensor<4x4xf32>"),
        "slice along dimension 0 runs out-of-bounds: 9 >= 8",
    ),
    "extract_out_of_bounds_strided": (
        _extract("tensor<8xf32>", "[0] [4] [3]", "tensor<4xf32>"),
        "slice along dimension 0 runs out-of-bounds: 9 >= 8",
    ),
    "extract_offset_past_end": (
        _extract("tensor<8xf32>", "[8] [%n] [1]", "tensor<?xf32>"),
        "offset 0 is out-of-bounds: 8 >= 8",
    ),
    "extract_negative_offset": (
        _extract("tensor<?xf32>", "[-1] [4] [1]", "tensor<4xf32>"),
        "expected offsets to be non-negative, but got -1",
    ),
    "extract_negative_size": (
        _extract("tensor<?xf32>", "[0] [-2] [1]", "tensor<?xf32>"),
        "expected sizes to be non-negative, but got -2",
    ),
    "extract_offset_count": (
        _extract("tensor<8x8xf32>", "[0] [4] [1]", "tensor<4xf32>"),
        "expected 2 offset values, got 1",
    ),
    "extract_result_size": (
        _extract("tensor<8x8xf32>", "[0, 0] [4, 4] [1, 1]", "tensor<4x3xf32>"),
        "expected type to be 'tensor<4x4xf32>' or a rank-reduced version. "
        "(size mismatch)",
    ),
    "extract_result_static_where_dynamic": (
        _extract("tensor<8x8xf32>", "[0, 0] [%n, 4] [1, 1]", "tensor<4x4xf32>"),
        "expected type to be 'tensor<?x4xf32>' or a rank-reduced version.",
    ),
    "extract_drops_non_unit": (
        _extract("tensor<8x8xf32>", "[0, 0] [2, 4] [1, 1]", "tensor<4xf32>"),
        "expected type to be 'tensor<2x4xf32>' or a rank-reduced version.",
    ),
    "extract_result_rank": (
        _extract("tensor<8x8xf32>", "[0, 0] [4, 4] [1, 1]", "tensor<4x4x1xf32>"),
        "expected rank to be smaller or equal to the other rank.",
    ),
    "extract_element_type": (
        _extract("tensor<8x8xf32>", "[0, 0] [4, 4] [1, 1]", "tensor<4x4xf16>"),
        "expected element type to be 'f32'",
    ),
    # tensor.insert_slice
    "insert_out_of_bounds": (
        _insert("tensor<4x4xf32>", "tensor<8x8xf32>", "[0, 5] [4, 4] [1, 1]"),
        "slice along dimension 1 runs out-of-bounds: 8 >= 8",
    ),
    "insert_source_type": (
        _insert("tensor<4x3xf32>", "tensor<8x8xf32>", "[0, 0] [4, 4] [1, 1]"),
        "expected type to be 'tensor<4x4xf32>' or a rank-reduced version.",
    ),
    "insert_negative_offset": (
        _insert("tensor<4xf32>", "tensor<8xf32>", "[-2] [4] [1]"),
        "expected offsets to be non-negative, but got -2",
    ),
    "insert_static_source_dynamic_size": (
        _insert("tensor<4xf32>", "tensor<8xf32>", "[2] [%n] [1]"),
        "expected type to be 'tensor<?xf32>' or a rank-reduced version.",
    ),
    # memref.subview
    "subview_out_of_bounds": (
        _subview(
            "memref<8x8xf32>",
            "[6, 0] [4, 4] [1, 1]",
            "memref<4x4xf32, strided<[8, 1], offset: 48>>",
        ),
        "slice along dimension 0 runs out-of-bounds: 9 >= 8",
    ),
    "subview_negative_offset": (
        _subview(
            "memref<8x8xf32>",
            "[-1, 0] [4, 4] [1, 1]",
            "memref<4x4xf32, strided<[8, 1], offset: ?>>",
        ),
        "expected offsets to be non-negative, but got -1",
    ),
    "subview_identity_layout": (
        _subview("memref<8x8xf32>", "[0, 0] [4, 4] [1, 1]", "memref<4x4xf32>"),
        "expected result type to be 'memref<4x4xf32, strided<[8, 1]>>' or a "
        "rank-reduced version. (mismatch of result layout), but got "
        "'memref<4x4xf32>'",
    ),
    "subview_offset": (
        _subview(
            "memref<8x8xf32>",
            "[2, 0] [4, 4] [1, 1]",
            "memref<4x4xf32, strided<[8, 1]>>",
        ),
        "expected result type to be 'memref<4x4xf32, strided<[8, 1], offset: 16>>'",
    ),
    "subview_sizes": (
        _subview(
            "memref<8x8xf32>",
            "[0, 0] [4, 4] [1, 1]",
            "memref<4x3xf32, strided<[8, 1]>>",
        ),
        "(mismatch of result sizes), but got 'memref<4x3xf32, strided<[8, 1]>>'",
    ),
    "subview_element_type": (
        _subview(
            "memref<8x8xf32>",
            "[0, 0] [4, 4] [1, 1]",
            "memref<4x4xf16, strided<[8, 1]>>",
        ),
        "expected result element type to be 'f32', but got",
    ),
    "subview_dropped_stride": (
        _subview(
            "memref<8x8xf32>",
            "[0, 3] [4, 1] [1, 1]",
            "memref<4xf32, strided<[1], offset: 3>>",
        ),
        "(mismatch of result layout)",
    ),
    # tensor.empty
    "empty_too_many_sizes": (
        _func(
            "%n: index",
            "  %r = tensor.empty(%n, %n) : tensor<4x?xf32>",
            "tensor<4x?xf32>",
        ),
        "'tensor.empty' op incorrect number of dynamic sizes, has 2, expected 1",
    ),
    "empty_too_few_sizes": (
        _func("", "  %r = tensor.empty() : tensor<4x?xf32>", "tensor<4x?xf32>"),
        "'tensor.empty' op incorrect number of dynamic sizes, has 0, expected 1",
    ),
    # collapse_shape / expand_shape
    "collapse_not_covering": (
        _func(
            "%t: tensor<2x3x4xf32>",
            "  %r = tensor.collapse_shape %t [[0, 1]] : tensor<2x3x4xf32> into tensor<6xf32>",
            "tensor<6xf32>",
        ),
        "'tensor.collapse_shape' op expected reassociation map #0 to have size equal "
        "to the expanded rank (3), but it is  2.",
    ),
    "collapse_extent": (
        _func(
            "%t: tensor<2x3x4xf32>",
            "  %r = tensor.collapse_shape %t [[0, 1], [2]] : tensor<2x3x4xf32> into tensor<5x4xf32>",
            "tensor<5x4xf32>",
        ),
        "'tensor.collapse_shape' op expected dimension 0 of collapsed type to be "
        "static value of 6",
    ),
    "collapse_static_from_dynamic": (
        _func(
            "%t: tensor<2x?x4xf32>",
            "  %r = tensor.collapse_shape %t [[0, 1], [2]] : tensor<2x?x4xf32> into tensor<6x4xf32>",
            "tensor<6x4xf32>",
        ),
        "expected dimension 0 of collapsed type to be dynamic since one or more",
    ),
    "collapse_element_type": (
        _func(
            "%t: tensor<2x3x4xf32>",
            "  %r = tensor.collapse_shape %t [[0, 1], [2]] : tensor<2x3x4xf32> into tensor<6x4xf16>",
            "tensor<6x4xf16>",
        ),
        "'tensor.collapse_shape' op expected collapsed type to be "
        "'tensor<6x4xf32>', but got 'tensor<6x4xf16>'",
    ),
    "expand_extent": (
        _func(
            "%t: tensor<6x4xf32>",
            "  %r = tensor.expand_shape %t [[0, 1], [2]] output_shape [2, 4, 4] : tensor<6x4xf32> into tensor<2x4x4xf32>",
            "tensor<2x4x4xf32>",
        ),
        "'tensor.expand_shape' op expected dimension 0 of collapsed type to be "
        "static value of 8",
    ),
    "collapse_not_contiguous": (
        _func(
            "%t: tensor<2x3x4xf32>",
            "  %r = tensor.collapse_shape %t [[0, 2], [1]] : tensor<2x3x4xf32> into tensor<8x3xf32>",
            "tensor<8x3xf32>",
        ),
        "'tensor.collapse_shape' op expected reassociation map #0 to be valid and "
        "contiguous.",
    ),
    "expand_output_shape_count": (
        _func(
            "%t: tensor<6xf32>",
            "  %r = tensor.expand_shape %t [[0, 1]] output_shape [2, 3, 1] : tensor<6xf32> into tensor<2x3xf32>",
            "tensor<2x3xf32>",
        ),
        "'tensor.expand_shape' op expected number of static shape dims to be equal "
        "to the output rank (2) but found 3 inputs instead",
    ),
    "memref_collapse_not_contiguous": (
        _func(
            "%m: memref<2x3x4xf32>",
            "  %r = memref.collapse_shape %m [[0, 2], [1]] : memref<2x3x4xf32> into memref<8x3xf32>",
        ),
        "'memref.collapse_shape' op reassociation indices must be contiguous",
    ),
    "memref_collapse_extent": (
        _func(
            "%m: memref<2x3x4xf32>",
            "  %r = memref.collapse_shape %m [[0, 1], [2]] : memref<2x3x4xf32> into memref<5x4xf32>",
        ),
        "'memref.collapse_shape' op collapsed dim size (5) must equal reassociation "
        "group size (6)",
    ),
    "memref_collapse_not_covering": (
        _func(
            "%m: memref<2x3x4xf32>",
            "  %r = memref.collapse_shape %m [[0, 1]] : memref<2x3x4xf32> into memref<6xf32>",
        ),
        "'memref.collapse_shape' op expanded rank (3) inconsistent with number of "
        "reassociation indices (2)",
    ),
    "memref_collapse_layout": (
        _func(
            "%m: memref<2x3x4xf32>",
            "  %r = memref.collapse_shape %m [[0, 1], [2]] : memref<2x3x4xf32> into memref<6x4xf32, strided<[8, 1]>>",
        ),
        "'memref.collapse_shape' op expected collapsed type to be 'memref<6x4xf32>' "
        "but found 'memref<6x4xf32, strided<[8, 1]>>'",
    ),
    "memref_expand_extent": (
        _func(
            "%m: memref<6x4xf32>",
            "  %r = memref.expand_shape %m [[0, 1], [2]] output_shape [2, 4, 4] : memref<6x4xf32> into memref<2x4x4xf32>",
        ),
        "'memref.expand_shape' op collapsed dim size (6) must equal reassociation "
        "group size (8)",
    ),
    # linalg: yields, fill, result types
    "generic_yield_type": (
        _generic("i32", "tensor<4xf32>"),
        "'linalg.yield' op type of yield operand 1 ('i32') doesn't match the element "
        "type of the enclosing linalg.generic op ('f32')",
    ),
    "generic_result_type": (
        _generic("f32", "tensor<4xf16>"),
        "'linalg.generic' op expected type of operand #1 ('tensor<4xf32>') to match "
        "type of corresponding result ('tensor<4xf16>')",
    ),
    "generic_result_shape": (
        _generic("f32", "tensor<4xf32>", outs="tensor<?xf32>"),
        "'linalg.generic' op expected type of operand #1 ('tensor<?xf32>') to match "
        "type of corresponding result ('tensor<4xf32>')",
    ),
    "map_yield_type": (
        _func(
            "%a: tensor<4xf32>, %b: tensor<4xf32>",
            "  %r = linalg.map ins(%a : tensor<4xf32>) outs(%b : tensor<4xf32>) (%x: f32, %y: f32) {\n"
            "    %c = arith.constant 1 : i32\n    linalg.yield %c : i32\n  }",
            "tensor<4xf32>",
        ),
        "'linalg.yield' op type of yield operand 1 ('i32') doesn't match",
    ),
    "fill_value_type": (
        _func(
            "%v: f32, %t: tensor<4xf16>",
            "  %r = linalg.fill ins(%v : f32) outs(%t : tensor<4xf16>) -> tensor<4xf16>",
            "tensor<4xf16>",
        ),
        "'linalg.fill' op expected fill value type ('f32') to match output element "
        "type ('f16')",
    ),
    "fill_result_type": (
        _func(
            "%v: f32, %t: tensor<4xf32>",
            "  %r = linalg.fill ins(%v : f32) outs(%t : tensor<4xf32>) -> tensor<5xf32>",
            "tensor<5xf32>",
        ),
        "'linalg.fill' op expected type of operand #1 ('tensor<4xf32>') to match "
        "type of corresponding result ('tensor<5xf32>')",
    ),
    "matmul_result_type": (
        _func(
            "%a: tensor<4x4xf32>, %b: tensor<4x4xf32>",
            "  %r = linalg.matmul ins(%a, %a : tensor<4x4xf32>, tensor<4x4xf32>) "
            "outs(%b : tensor<4x4xf32>) -> tensor<4x4xf16>",
            "tensor<4x4xf16>",
        ),
        "'linalg.matmul' op expected type of operand #2 ('tensor<4x4xf32>') to "
        "match type of corresponding result ('tensor<4x4xf16>')",
    ),
}

VALID = {
    "pad": _pad("tensor<4x5xf32>", "1, 2", "3, 1", "tensor<8x8xf32>"),
    "pad_static_result_of_dynamic_pad": _pad(
        "tensor<4x5xf32>", "%n, 2", "3, 1", "tensor<8x8xf32>"
    ),
    "pad_dynamic_pad": _pad("tensor<4x5xf32>", "%n, 2", "3, 1", "tensor<?x8xf32>"),
    "pad_dynamic_source": _pad("tensor<?x5xf32>", "1, 2", "3, 1", "tensor<?x8xf32>"),
    "pad_negative_low": _pad("tensor<4x5xf32>", "-1, 2", "0, 1", "tensor<3x8xf32>"),
    "extract": _extract("tensor<8x8xf32>", "[4, 4] [4, 4] [1, 1]", "tensor<4x4xf32>"),
    "extract_strided": _extract("tensor<8xf32>", "[1] [3] [3]", "tensor<3xf32>"),
    "extract_negative_stride": _extract(
        "tensor<8xf32>", "[1] [4] [-1]", "tensor<4xf32>"
    ),
    "extract_rank_reduced": _extract(
        "tensor<8x8xf32>", "[0, 0] [1, 4] [1, 1]", "tensor<4xf32>"
    ),
    "extract_rank_reduced_to_scalar": _extract(
        "tensor<1x1xf32>", "[0, 0] [1, 1] [1, 1]", "tensor<f32>"
    ),
    "extract_keeps_one_unit": _extract(
        "tensor<8x8xf32>", "[0, 0] [1, 1] [1, 1]", "tensor<1xf32>"
    ),
    "extract_dynamic_size": _extract(
        "tensor<8x8xf32>", "[%n, 4] [%n, 4] [1, 1]", "tensor<?x4xf32>"
    ),
    "extract_dynamic_offset_big_size": _extract(
        "tensor<8x8xf32>", "[%n, 4] [9, 4] [1, 1]", "tensor<9x4xf32>"
    ),
    "extract_dynamic_stride": _extract(
        "tensor<8xf32>", "[6] [4] [%n]", "tensor<4xf32>"
    ),
    "extract_dynamic_source": _extract(
        "tensor<?xf32>", "[100] [4] [1]", "tensor<4xf32>"
    ),
    "extract_drops_encoding": _extract(
        'tensor<8x8xf32, "e">', "[0, 0] [4, 4] [1, 1]", "tensor<4x4xf32>"
    ),
    "insert": _insert("tensor<4x4xf32>", "tensor<8x8xf32>", "[4, 4] [4, 4] [1, 1]"),
    "insert_rank_reduced": _insert(
        "tensor<4xf32>", "tensor<8x8xf32>", "[2, 0] [1, 4] [1, 1]"
    ),
    "insert_dynamic": _insert("tensor<?xf32>", "tensor<8xf32>", "[2] [%n] [1]"),
    "subview": _subview(
        "memref<8x8xf32>",
        "[2, 0] [4, 4] [1, 1]",
        "memref<4x4xf32, strided<[8, 1], offset: 16>>",
    ),
    "subview_rank_reduced_row": _subview(
        "memref<8x8xf32>",
        "[2, 0] [1, 4] [1, 1]",
        "memref<4xf32, strided<[1], offset: 16>>",
    ),
    "subview_rank_reduced_column": _subview(
        "memref<8x8xf32>",
        "[0, 3] [4, 1] [1, 1]",
        "memref<4xf32, strided<[8], offset: 3>>",
    ),
    "subview_units": _subview(
        "memref<1x1x8xf32>",
        "[0, 0, 0] [1, 1, 8] [1, 1, 1]",
        "memref<1x8xf32, strided<[8, 1]>>",
    ),
    "subview_dynamic": _subview(
        "memref<?x?xf32>",
        "[%n, 0] [%n, 4] [1, 2]",
        "memref<?x4xf32, strided<[?, 2], offset: ?>>",
    ),
    "subview_dynamic_layout": _subview(
        "memref<8x8xf32, strided<[?, 1], offset: ?>>",
        "[1, 1] [4, 4] [1, 1]",
        "memref<4x4xf32, strided<[?, 1], offset: ?>>",
    ),
    "subview_identity_affine_map_source": _subview(
        "memref<8x8xf32, affine_map<(d0, d1) -> (d0, d1)>>",
        "[2, 0] [4, 4] [1, 1]",
        "memref<4x4xf32, strided<[8, 1], offset: 16>>",
    ),
    "subview_affine_map_result": _subview(
        "memref<8x8xf32>",
        "[2, 0] [4, 4] [1, 1]",
        "memref<4x4xf32, affine_map<(d0, d1) -> (d0 * 8 + d1 + 16)>>",
    ),
    "subview_dynamic_middle_extent": _subview(
        "memref<4x?x3xf32>",
        "[1, 0, 0] [2, 2, 3] [1, 1, 1]",
        "memref<2x2x3xf32, strided<[?, 3, 1], offset: ?>>",
    ),
    "subview_whole": _subview(
        "memref<8xf32>", "[0] [8] [1]", "memref<8xf32, strided<[1]>>"
    ),
    "empty": _func(
        "%n: index", "  %r = tensor.empty(%n) : tensor<4x?xf32>", "tensor<4x?xf32>"
    ),
    "collapse": _func(
        "%t: tensor<2x?x4xf32>",
        "  %r = tensor.collapse_shape %t [[0, 1], [2]] : tensor<2x?x4xf32> into tensor<?x4xf32>",
        "tensor<?x4xf32>",
    ),
    "collapse_to_scalar": _func(
        "%t: tensor<1x1xf32>",
        "  %r = tensor.collapse_shape %t [] : tensor<1x1xf32> into tensor<f32>",
        "tensor<f32>",
    ),
    "expand_dynamic": _func(
        "%t: tensor<?x4xf32>, %n: index",
        "  %r = tensor.expand_shape %t [[0, 1], [2]] output_shape [2, %n, 4] : tensor<?x4xf32> into tensor<2x?x4xf32>",
        "tensor<2x?x4xf32>",
    ),
    "expand_scalar": _func(
        "%t: tensor<f32>",
        "  %r = tensor.expand_shape %t [] output_shape [1, 1] : tensor<f32> into tensor<1x1xf32>",
        "tensor<1x1xf32>",
    ),
    "memref_collapse": _func(
        "%m: memref<2x3x4xf32>",
        "  %r = memref.collapse_shape %m [[0, 1], [2]] : memref<2x3x4xf32> into memref<6x4xf32>",
    ),
    "memref_collapse_strided": _func(
        "%m: memref<2x3x4xf32, strided<[12, 4, 1], offset: ?>>",
        "  %r = memref.collapse_shape %m [[0, 1], [2]] : memref<2x3x4xf32, strided<[12, 4, 1], offset: ?>> into memref<6x4xf32, strided<[4, 1], offset: ?>>",
    ),
    "memref_expand": _func(
        "%m: memref<6x4xf32>",
        "  %r = memref.expand_shape %m [[0, 1], [2]] output_shape [2, 3, 4] : memref<6x4xf32> into memref<2x3x4xf32>",
    ),
    "generic": _generic("f32", "tensor<4xf32>"),
    "fill": _func(
        "%v: f16, %t: tensor<4xf16>",
        "  %r = linalg.fill ins(%v : f16) outs(%t : tensor<4xf16>) -> tensor<4xf16>",
        "tensor<4xf16>",
    ),
    "copy_casts": _func(
        "%a: memref<5xi8>, %b: memref<5xi32>",
        "  linalg.copy ins(%a : memref<5xi8>) outs(%b : memref<5xi32>)",
    ),
    "broadcast": _func(
        "%a: tensor<4xf32>, %b: tensor<4x3xf32>",
        "  %r = linalg.broadcast ins(%a : tensor<4xf32>) outs(%b : tensor<4x3xf32>) dimensions = [1]",
        "tensor<4x3xf32>",
    ),
}


def _mlir_opt(text: str) -> subprocess.CompletedProcess[str]:
    assert MLIR_OPT is not None
    return subprocess.run(
        [MLIR_OPT], input=text, capture_output=True, text=True, timeout=60
    )


@pytest.mark.parametrize(("text", "message"), INVALID.values(), ids=INVALID.keys())
def test_we_reject(text: str, message: str):
    with pytest.raises(VerifyException) as failure:
        parse_module(text)
    assert message.strip() in str(failure.value)


@needs_mlir_opt
@pytest.mark.parametrize(("text", "message"), INVALID.values(), ids=INVALID.keys())
def test_upstream_rejects_with_the_same_message(text: str, message: str):
    result = _mlir_opt(text)
    assert result.returncode != 0
    # MLIR names the op in front of some of these reasons only.
    assert message.strip().split(" op ", 1)[-1] in result.stderr


@pytest.mark.parametrize("text", VALID.values(), ids=VALID.keys())
def test_near_miss_verifies(text: str):
    parse_module(text)


@needs_mlir_opt
@pytest.mark.parametrize("text", VALID.values(), ids=VALID.keys())
def test_upstream_accepts_near_miss(text: str):
    result = _mlir_opt(text)
    assert result.returncode == 0, result.stderr
