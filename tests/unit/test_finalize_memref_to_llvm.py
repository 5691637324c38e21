"""finalize-memref-to-llvm, executed.

Programs compiled natively (`linalg_ext.jit`, whose `lower-to-llvm` runs
this pass) agree with the interpreter, also with extents of 1 and 5 (unit
dimensions take other paths of the run-time contiguity checks); the ops the
interpreter has no semantics for agree with numpy; the options; refusals
leave the module unchanged; our global initializers; and, when
mlir-opt-22 is installed, upstream accepts our output and finishes the
lowering.
"""

from __future__ import annotations

import shutil
import subprocess

import numpy as np
import pytest
from llvmlite import ir
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, TensorType, f32, i1
from xdsl.utils.exceptions import PassFailedException

from helpers import REPO, parse_module, print_module
from linalg_ext.compat.llvm_memory_ops import global_initializer
from linalg_ext.context import make_context
from linalg_ext.jit import TRACKER, compile_module
from linalg_ext.passes.finalize_memref_to_llvm import FinalizeMemRefToLLVMPass
from linalg_ext.tools.check import check_module

TESTS = REPO / "tests" / "filecheck" / "passes" / "finalize-memref-to-llvm"

DYNAMIC_SHAPES = """
func.func @add(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %out: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = memref.dim %a, %c0 : memref<?x?xf32>
  %n = memref.dim %a, %c1 : memref<?x?xf32>
  scf.for %i = %c0 to %m step %c1 {
    scf.for %j = %c0 to %n step %c1 {
      %x = memref.load %a[%i, %j] : memref<?x?xf32>
      %y = memref.load %b[%i, %j] : memref<?x?xf32>
      %s = arith.addf %x, %y : f32
      memref.store %s, %out[%i, %j] : memref<?x?xf32>
    }
  }
  return
}
"""

STRIDED_SUBVIEWS = """
func.func @every_other_column(%a: memref<?x?xf64>) -> memref<?x?xf64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %m = memref.dim %a, %c0 : memref<?x?xf64>
  %n = memref.dim %a, %c1 : memref<?x?xf64>
  %n1 = arith.addi %n, %c1 : index
  %cols = arith.divui %n1, %c2 : index
  %s = memref.subview %a[0, 0] [%m, %cols] [1, 2] : memref<?x?xf64> to memref<?x?xf64, strided<[?, 2]>>
  %t = memref.alloc(%m, %cols) {alignment = 64 : i64} : memref<?x?xf64>
  "memref.copy"(%s, %t) : (memref<?x?xf64, strided<[?, 2]>>, memref<?x?xf64>) -> ()
  return %t : memref<?x?xf64>
}
func.func @row(%a: memref<?x?x?xi32>, %out: memref<?xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %k = memref.dim %a, %c1 : memref<?x?x?xi32>
  %last = memref.dim %a, %c0 : memref<?x?x?xi32>
  %i = arith.subi %last, %c1 : index
  %s = memref.subview %a[%i, 0, 0] [1, %k, 1] [1, 1, 1] : memref<?x?x?xi32> to memref<?xi32, strided<[?], offset: ?>>
  %d = memref.dim %out, %c0 : memref<?xi32>
  %e = arith.minui %d, %k : index
  %o = memref.subview %out[0] [%e] [1] : memref<?xi32> to memref<?xi32, strided<[1]>>
  %v = memref.subview %s[0] [%e] [1] : memref<?xi32, strided<[?], offset: ?>> to memref<?xi32, strided<[?], offset: ?>>
  "memref.copy"(%v, %o) : (memref<?xi32, strided<[?], offset: ?>>, memref<?xi32, strided<[1]>>) -> ()
  return
}
"""

RESHAPES = """
func.func @flatten_then_split(%a: memref<?x?xf32>) -> memref<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = memref.dim %a, %c0 : memref<?x?xf32>
  %n = memref.dim %a, %c1 : memref<?x?xf32>
  %flat = memref.collapse_shape %a [[0, 1]] : memref<?x?xf32> into memref<?xf32>
  %split = memref.expand_shape %flat [[0, 1]] output_shape [%n, %m] : memref<?xf32> into memref<?x?xf32>
  %t = memref.alloc(%n, %m) : memref<?x?xf32>
  "memref.copy"(%split, %t) : (memref<?x?xf32>, memref<?x?xf32>) -> ()
  return %t : memref<?x?xf32>
}
func.func @collapse_view(%a: memref<?x?x?xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %m = memref.dim %a, %c0 : memref<?x?x?xf32>
  %s = memref.subview %a[0, 0, 0] [%m, 1, %m] [1, 1, 1] : memref<?x?x?xf32> to memref<?x1x?xf32, strided<[?, ?, 1]>>
  %c = memref.collapse_shape %s [[0, 1], [2]] : memref<?x1x?xf32, strided<[?, ?, 1]>> into memref<?x?xf32, strided<[?, 1]>>
  %sum = scf.for %i = %c0 to %m step %c1 iter_args(%acc = %zero) -> (f32) {
    %v = memref.load %c[%i, %i] : memref<?x?xf32, strided<[?, 1]>>
    %w = arith.addf %acc, %v : f32
    scf.yield %w : f32
  }
  return %sum : f32
}
"""

COPIES = """
func.func @into_strided(%a: memref<?x?xi16>, %b: memref<?x?xi16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %m = memref.dim %b, %c0 : memref<?x?xi16>
  %n = memref.dim %b, %c1 : memref<?x?xi16>
  %m2 = arith.divui %m, %c2 : index
  %n2 = arith.divui %n, %c2 : index
  %src = memref.subview %a[0, 0] [%m2, %n2] [1, 1] : memref<?x?xi16> to memref<?x?xi16, strided<[?, 1]>>
  %dst = memref.subview %b[1, 1] [%m2, %n2] [1, 1] : memref<?x?xi16> to memref<?x?xi16, strided<[?, 1], offset: ?>>
  "memref.copy"(%src, %dst) : (memref<?x?xi16, strided<[?, 1]>>, memref<?x?xi16, strided<[?, 1], offset: ?>>) -> ()
  return
}
func.func @whole(%a: memref<?x?xi1>, %b: memref<?x?xi1>) {
  "memref.copy"(%a, %b) : (memref<?x?xi1>, memref<?x?xi1>) -> ()
  return
}
func.func @into_padded(%a: memref<2x3x5xf32>) -> memref<2x5x7xf32> {
  %zero = arith.constant 0.0 : f32
  %b = memref.alloc() : memref<2x5x7xf32>
  linalg.fill ins(%zero : f32) outs(%b : memref<2x5x7xf32>)
  %s = memref.subview %b[0, 1, 1] [2, 3, 5] [1, 1, 1] : memref<2x5x7xf32> to memref<2x3x5xf32, strided<[35, 7, 1], offset: 8>>
  "memref.copy"(%a, %s) : (memref<2x3x5xf32>, memref<2x3x5xf32, strided<[35, 7, 1], offset: 8>>) -> ()
  return %b : memref<2x5x7xf32>
}
func.func @rows_out_of(%a: memref<6x8xi8>) -> memref<3x4xi8> {
  %b = memref.alloc() : memref<3x4xi8>
  %s = memref.subview %a[2, 3] [3, 4] [1, 1] : memref<6x8xi8> to memref<3x4xi8, strided<[8, 1], offset: 19>>
  "memref.copy"(%s, %b) : (memref<3x4xi8, strided<[8, 1], offset: 19>>, memref<3x4xi8>) -> ()
  return %b : memref<3x4xi8>
}
"""

GLOBALS = """
"memref.global"() <{sym_name = "weights", sym_visibility = "private", type = memref<2x3xf32>, initial_value = dense<[[0.5, 1.0, 1.5], [2.0, 2.5, 3.0]]> : tensor<2x3xf32>, constant, alignment = 64 : i64}> : () -> ()
func.func @weighted(%x: memref<3xf32>) -> memref<2xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %zero = arith.constant 0.0 : f32
  %w = memref.get_global @weights : memref<2x3xf32>
  %out = memref.alloc() : memref<2xf32>
  scf.for %i = %c0 to %c2 step %c1 {
    %sum = scf.for %j = %c0 to %c3 step %c1 iter_args(%acc = %zero) -> (f32) {
      %a = memref.load %w[%i, %j] : memref<2x3xf32>
      %b = memref.load %x[%j] : memref<3xf32>
      %p = arith.mulf %a, %b : f32
      %s = arith.addf %acc, %p : f32
      scf.yield %s : f32
    }
    memref.store %sum, %out[%i] : memref<2xf32>
  }
  return %out : memref<2xf32>
}
func.func @the_weights() -> memref<2x3xf32> {
  %w = memref.get_global @weights : memref<2x3xf32>
  return %w : memref<2x3xf32>
}
"""

PROGRAMS = {
    "dynamic_shapes": DYNAMIC_SHAPES,
    "strided_subviews": STRIDED_SUBVIEWS,
    "reshapes": RESHAPES,
    "copies": COPIES,
    "globals": GLOBALS,
}


@pytest.mark.parametrize("dim_size", [1, 4, 5])
@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_compiled_programs_agree_with_the_interpreter(name, dim_size):
    report = check_module(
        parse_module(PROGRAMS[name]),
        [],
        backend="jit",
        trials=2,
        seed=3,
        dim_size=dim_size,
    )
    assert report.ok, "\n".join(v.line() for v in report.verdicts)


# --------------------------------------------------------------------------
# Ops without interpreter semantics, against numpy


@pytest.fixture(scope="module")
def metadata():
    source = (TESTS / "jit-only" / "metadata.mlir").read_text()
    return compile_module(parse_module(source))


def test_reinterpret_cast(metadata):
    a = np.arange(12, dtype=np.float32)
    # offset 2, strides [3, 1]: element [1, 1] is a[2 + 3 + 1]
    assert metadata["reinterpret"](a, 3) == a[6]


def test_rank_strided_metadata_and_aligned_pointer(metadata):
    a = np.arange(24, dtype=np.float32).reshape(6, 4)[1::2]  # rows 1, 3, 5
    rank, offset, rows, cols, stride0, stride1, first = metadata["metadata"](a)
    # The JIT passes the view's own memory as the aligned pointer, offset 0.
    assert (rank, offset, rows, cols, stride0, stride1) == (2, 0, 3, 4, 8, 1)
    assert first == a[0, 0]


def test_view(metadata):
    data = np.arange(64, dtype=np.int8)
    # 8 bytes in, a ?x2 i32 matrix: element [1, 1] is i32 number 3.
    expected = data[8:].view(np.int32)[3]
    assert metadata["view"](data, 4) == expected


def test_assume_alignment_and_uninitialized_global(metadata):
    a = np.array([1.0, 2.0, 3.0, 4.0], dtype=np.float32)
    assert metadata["assume_and_uninitialized"](a, 2) == (3.0, 0)


# --------------------------------------------------------------------------
# Options


ALIGNED = """
func.func @aligned(%n: index) -> memref<?xf64> {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1.0 : f64
  %t = memref.alloc(%n) {alignment = 128 : i64} : memref<?xf64>
  memref.store %one, %t[%c0] : memref<?xf64>
  return %t : memref<?xf64>
}
"""


def _lowered(source: str, **options) -> str:
    module = parse_module(source)
    FinalizeMemRefToLLVMPass(**options).apply(make_context(), module)
    return print_module(module)


@pytest.mark.parametrize(
    "options", [{}, {"use_aligned_alloc": True}], ids=["malloc", "aligned_alloc"]
)
def test_alignment_is_honoured(options):
    # The pass runs first with the options; lower-to-llvm's own run of it
    # then finds no memref op left.
    compiled = compile_module(parse_module(_lowered(ALIGNED, **options)))
    for n in (1, 3, 100):
        result = compiled["aligned"](n)
        assert result.shape == (n,) and result[0] == 1.0
        assert result.ctypes.data % 128 == 0


def test_aligned_alloc_is_called_with_a_multiple_of_the_alignment():
    text = _lowered(ALIGNED, use_aligned_alloc=True)
    assert "llvm.call @aligned_alloc" in text
    assert "llvm.call @malloc" not in text


TEMPORARY = """
func.func @temporary(%a: memref<?xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %n = memref.dim %a, %c0 : memref<?xf64>
  %t = memref.alloc(%n) : memref<?xf64>
  "memref.copy"(%a, %t) : (memref<?xf64>, memref<?xf64>) -> ()
  %v = memref.load %t[%c0] : memref<?xf64>
  memref.dealloc %t : memref<?xf64>
  return %v : f64
}
"""


def test_generic_functions_let_the_jit_measure_memory():
    text = _lowered(TEMPORARY, use_generic_functions=True)
    assert "llvm.call @_mlir_memref_to_llvm_alloc" in text
    assert "llvm.call @_mlir_memref_to_llvm_free" in text
    assert "@malloc" not in text and "@free" not in text
    compiled = compile_module(parse_module(TEMPORARY), track_memory=True)
    TRACKER.reset()
    before = TRACKER.current
    a = np.arange(1000, dtype=np.float64)
    assert compiled["temporary"](a) == 0.0
    assert TRACKER.peak - before >= 8000
    assert TRACKER.current == before


# --------------------------------------------------------------------------
# Refusals, translation


def test_a_refusal_leaves_the_module_unchanged():
    source = """
func.func @f(%m: memref<4xf32>, %v: f32, %i: index) -> f32 {
  %t = memref.alloc() : memref<4xf32>
  memref.store %v, %t[%i] : memref<4xf32>
  %r = "memref.atomic_rmw"(%v, %m, %i) <{kind = 0 : i64}> : (f32, memref<4xf32>, index) -> f32
  memref.dealloc %t : memref<4xf32>
  return %r : f32
}
"""
    module = parse_module(source)
    before = print_module(module)
    with pytest.raises(PassFailedException, match="'memref.atomic_rmw'"):
        FinalizeMemRefToLLVMPass().apply(make_context(), module)
    assert print_module(module) == before


def test_global_initializers_of_any_shape():
    float_type = ir.FloatType()
    nested = ir.ArrayType(ir.ArrayType(float_type, 3), 2)
    value = DenseIntOrFPElementsAttr.from_list(
        TensorType(f32, [2, 3]), [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]
    )
    constant = global_initializer(nested, value)
    assert str(constant).startswith("[2 x [3 x float]] [[3 x float] [float")
    splat = DenseIntOrFPElementsAttr.from_list(TensorType(f32, [4]), [2.0])
    assert (
        str(global_initializer(ir.ArrayType(float_type, 4), splat)).count(
            "0x4000000000000000"
        )
        == 4
    )
    flags = DenseIntOrFPElementsAttr.from_list(TensorType(i1, [2]), [True, False])
    assert "i1 1, i1 0" in str(
        global_initializer(ir.ArrayType(ir.IntType(1), 2), flags)
    )


# --------------------------------------------------------------------------
# Upstream's verdict on our output

UPSTREAM_REST = (
    "--convert-scf-to-cf",
    "--convert-arith-to-llvm",
    "--convert-index-to-llvm",
    "--convert-cf-to-llvm",
    "--convert-func-to-llvm",
    "--reconcile-unrealized-casts",
)

INPUTS = sorted(p for p in TESTS.rglob("*.mlir") if p.name != "errors.mlir")


@pytest.mark.skipif(shutil.which("mlir-opt-22") is None, reason="needs mlir-opt-22")
@pytest.mark.parametrize("path", INPUTS, ids=lambda p: p.stem)
def test_upstream_finishes_the_lowering_of_our_output(path):
    text = _lowered(path.read_text())
    lowered = subprocess.run(
        ["mlir-opt-22", *UPSTREAM_REST],
        input=text,
        capture_output=True,
        text=True,
    )
    assert lowered.returncode == 0, lowered.stderr
    translated = subprocess.run(
        ["mlir-translate-22", "--mlir-to-llvmir"],
        input=lowered.stdout,
        capture_output=True,
        text=True,
    )
    assert translated.returncode == 0, translated.stderr
