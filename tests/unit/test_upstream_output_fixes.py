"""The compat fixes for reading mlir-opt-22's output, one by one: what they
accept, what they still refuse, what the new ops mean and translate to.
(test_upstream_roundtrip.py runs them on real pipeline output.)"""

from __future__ import annotations

import llvmlite.binding as llvm_binding
import numpy as np
import pytest
from xdsl.backend.llvm.convert import convert_module
from xdsl.dialects import llvm
from xdsl.ir.affine import AffineExpr
from xdsl.utils.exceptions import ParseError, VerifyException

from helpers import parse_module, print_module
from linalg_ext.running import run_function


def test_semi_affine_maps_read_with_the_symbol_on_the_right():
    module = parse_module(
        "func.func @f(%i: index, %s: index) -> (index, index, index) {\n"
        "  %a = affine.apply affine_map<(d0)[s0] -> (d0 * s0)>(%i)[%s]\n"
        "  %b = affine.apply affine_map<(d0)[s0] -> (s0 * d0)>(%i)[%s]\n"
        "  %c = affine.apply affine_map<(d0)[s0] -> (d0 floordiv s0)>(%i)[%s]\n"
        "  return %a, %b, %c : index, index, index\n}"
    )
    first, second, third = (
        op.map.data.results[0]  # pyright: ignore
        for op in module.walk()
        if op.name == "affine.apply"
    )
    assert first == second == AffineExpr.dimension(0) * AffineExpr.symbol(0)
    assert str(third) == "(d0 floordiv s0)"
    assert run_function(module, "f", [3, 4]).results == [12, 12, 0]


def test_a_product_of_two_dimensions_is_still_refused():
    with pytest.raises((ParseError, NotImplementedError), match="non-affine"):
        parse_module(
            "func.func @f(%i: index, %j: index) -> index {\n"
            "  %r = affine.apply affine_map<(d0, d1) -> (d0 * d1)>(%i, %j)\n"
            "  return %r : index\n}"
        )


def test_gep_no_wrap_flags_and_inbounds_from_either_form():
    text = (
        "llvm.func @f(%p: !llvm.ptr, %i: i64) -> !llvm.ptr {\n"
        "  %a = llvm.getelementptr inbounds|nuw %p[%i] : (!llvm.ptr, i64) -> "
        "!llvm.ptr, f32\n"
        "  %b = llvm.getelementptr nusw %a[1] : (!llvm.ptr) -> !llvm.ptr, f32\n"
        "  llvm.return %b : !llvm.ptr\n}"
    )
    module = parse_module(text)
    first, second = (op for op in module.walk() if isinstance(op, llvm.GEPOp))
    assert first.noWrapFlags.value.data == 7 and first.inbounds is not None
    assert second.noWrapFlags.value.data == 1 and second.inbounds is None
    generic = print_module(module, generic=True).replace(", inbounds", "")
    assert "inbounds}" not in generic
    assert parse_module(generic).is_structurally_equivalent(module)


def test_memref_global_forms():
    module = parse_module(
        'memref.global "private" constant @c : memref<2xf32> = dense<[1.0, 2.0]> '
        "{alignment = 64 : i64}\n"
        "memref.global @u : memref<3xi32> = uninitialized\n"
    )
    c, u = module.ops
    assert c.properties["alignment"].value.data == 64  # pyright: ignore
    assert "constant" in c.properties
    assert u.properties["sym_visibility"].data == "public"  # pyright: ignore
    with pytest.raises(ParseError, match="external declaration"):
        parse_module("memref.global @x : memref<2xf32>\n")


def test_memref_copy_needs_compatible_shapes():
    parse_module(
        "func.func @f(%a: memref<4xf32>, %b: memref<?xf32>) {\n"
        "  memref.copy %a, %b : memref<4xf32> to memref<?xf32>\n  return\n}"
    )
    with pytest.raises(VerifyException, match="same shape"):
        parse_module(
            "func.func @f(%a: memref<4xf32>, %b: memref<5xf32>) {\n"
            "  memref.copy %a, %b : memref<4xf32> to memref<5xf32>\n  return\n}"
        )


BUFFERS = """
func.func @views(%n: index) -> (index, index, index, index) {
  %a = memref.alloc() : memref<4x6xf32>
  %v = memref.subview %a[1, 2] [2, 3] [1, 1] : memref<4x6xf32> to memref<2x3xf32, strided<[6, 1], offset: 8>>
  %base, %offset, %sizes:2, %strides:2 = memref.extract_strided_metadata %v : memref<2x3xf32, strided<[6, 1], offset: 8>> -> memref<f32>, index, index, index, index, index
  %p = memref.extract_aligned_pointer_as_index %a : memref<4x6xf32> -> index
  %q = memref.extract_aligned_pointer_as_index %base : memref<f32> -> index
  %same = arith.subi %p, %q : index
  %rank = memref.rank %v : memref<2x3xf32, strided<[6, 1], offset: 8>>
  memref.dealloc %base : memref<f32>
  return %offset, %strides#0, %same, %rank : index, index, index, index
}
"""


def test_strided_metadata_aligned_pointer_and_freeing_the_base_buffer():
    run = run_function(parse_module(BUFFERS), "views", [0])
    assert run.results == [8, 6, 0, 2]
    assert run.leaks == []


def test_clones_are_allocations_their_user_frees():
    module = parse_module(
        "func.func @f(%a: memref<4xf32>) {\n"
        "  %c = bufferization.clone %a : memref<4xf32> to memref<4xf32>\n"
        "  memref.dealloc %c : memref<4xf32>\n  return\n}\n"
        "func.func @g(%a: memref<4xf32>) -> memref<4xf32> {\n"
        "  %c = bufferization.clone %a : memref<4xf32> to memref<4xf32>\n"
        "  return %c : memref<4xf32>\n}"
    )
    assert run_function(module, "f", [np.zeros(4, np.float32)]).leaks == []
    assert run_function(module, "g", [np.ones(4, np.float32)]).results[0].sum() == 4


def test_linalg_index_reads_the_map_loop_indices():
    module = parse_module(
        "func.func @f(%out: memref<3x2xi64>) {\n"
        "  linalg.map outs(%out : memref<3x2xi64>)\n"
        "    (%init: i64) {\n"
        "      %i = linalg.index 0 : index\n"
        "      %j = linalg.index 1 : index\n"
        "      %k = arith.addi %i, %j : index\n"
        "      %r = arith.index_castui %k : index to i64\n"
        "      linalg.yield %r : i64\n"
        "    }\n  return\n}"
    )
    out = np.zeros((3, 2), np.int64)
    (written,) = run_function(module, "f", [out]).arguments
    assert written.tolist() == [[0, 1], [1, 2], [2, 3]]


def test_remf_is_fmod_and_index_castui_zero_extends():
    module = parse_module(
        "func.func @f(%x: f32, %y: f32, %n: i8) -> (f32, index) {\n"
        "  %r = arith.remf %x, %y : f32\n"
        "  %k = arith.index_castui %n : i8 to index\n"
        "  return %r, %k : f32, index\n}"
    )
    assert run_function(module, "f", [-7.5, 2.0, -1]).results == [-1.5, 255]


def test_new_llvm_ops_translate_to_valid_llvm_ir():
    module = parse_module(
        "llvm.func @f(%p: !llvm.ptr, %i: i64, %x: f32, %n: i32, %c: i1) -> f32 {\n"
        "  %d = llvm.mlir.poison : f32\n"
        "  %q = llvm.getelementptr inbounds|nuw %p[%i] : (!llvm.ptr, i64) -> "
        "!llvm.ptr, f32\n"
        '  llvm.intr.assume %c ["align"(%q, %i : !llvm.ptr, i64)] : i1\n'
        "  %t = llvm.intr.tanh(%x) : (f32) -> f32\n"
        "  %w = llvm.intr.powi(%t, %n) : (f32, i32) -> f32\n"
        "  %a = llvm.intr.atan2(%w, %d) : (f32, f32) -> f32\n"
        '  %f = "llvm.intr.is.fpclass"(%a) <{bit = 3 : i32}> : (f32) -> i1\n'
        '  %o = "llvm.intr.smul.with.overflow"(%n, %n) : (i32, i32) -> '
        "!llvm.struct<(i32, i1)>\n"
        "  llvm.return %a : f32\n}"
    )
    ir = str(convert_module(module, fallback_target_triple=""))
    for name in (
        "llvm.assume",
        "llvm.tanh.f32",
        "llvm.powi.f32.i32",
        "llvm.atan2.f32",
        "llvm.is.fpclass.f32",
        "llvm.smul.with.overflow.i32",
        "undef",
    ):
        assert name in ir, name
    llvm_binding.parse_assembly(ir).verify()
