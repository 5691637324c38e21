"""The JIT: compiled functions agree with the interpreter, and the calling
convention holds (no input copies, owned results, views, constants, errors).

Every FileCheck input of the to-loops and to-LLVM passes is also compiled and
compared with the interpreter by test_pass_meaning; the coverage test here
makes sure those inputs hold every linalg_ext op and every upstream op
family the lowering claims.
"""

from __future__ import annotations

import gc
import re
import time

import numpy as np
import pytest
from test_pass_meaning import ALSO_JIT, JIT_ONLY, PASS_TESTS
from xdsl.dialects.builtin import MemRefType, StridedLayoutAttr, f32, i32

from helpers import parse_module
from linalg_ext.calling_convention import (
    array_view,
    descriptor_of,
    pack_slots,
    slot_converter,
)
from linalg_ext.checking import check_module
from linalg_ext.dialect import LinalgExt
from linalg_ext.jit import (
    HUGE_PAGE,
    HUGE_PAGE_THRESHOLD,
    TRACKER,
    JitError,
    compile_module,
    run_function,
)
from linalg_ext.running import run_function as interpret

JIT_CHECKED_DIRS = sorted(JIT_ONLY | ALSO_JIT)

UPSTREAM_FAMILIES = {
    # linalg
    "linalg.generic": r"linalg\.generic",
    "linalg.index": r"linalg\.index",
    "named elementwise": r"linalg\.(add|sub|mul|div|exp|max|min|abs|negf)\b",
    "linalg.fill": r"linalg\.fill",
    "linalg.copy": r"linalg\.copy",
    "linalg.transpose": r"linalg\.transpose",
    "linalg.broadcast": r"linalg\.broadcast",
    "linalg.reduce": r"linalg\.reduce",
    "linalg.map": r"linalg\.map",
    "linalg.matmul": r"linalg\.matmul",
    "linalg.batch_matmul": r"linalg\.batch_matmul",
    "linalg.conv": r"linalg\.conv_",
    # control flow
    "scf.for": r"scf\.for",
    "scf.if": r"scf\.if",
    "scf.while": r"scf\.while",
    "cf branches": r"cf\.cond_br",
    "affine.min/max": r"affine\.(min|max)",
    # scalars
    "arith int": r"arith\.(divsi|remsi|floordivsi)",
    "arith float": r"arith\.(addf|divf|maximumf)",
    "arith casts": r"arith\.(sitofp|fptosi|extf|truncf|index_cast)",
    "arith compare": r"arith\.(cmpi|cmpf)",
    "math": r"math\.(exp|tanh|sqrt|log)",
    # memory
    "memref.alloc": r"memref\.alloc\b",
    "memref.subview": r"memref\.subview",
    "memref reshape": r"memref\.(expand_shape|collapse_shape)",
    "memref.copy": r"memref\.copy",
    "memref.global": r"memref\.get_global",
    "dynamic shapes": r"memref<\?",
}
"""Upstream op families the lowering covers: each must occur in an input
that test_pass_meaning compiles natively."""


def _jit_checked_text() -> str:
    return "\n".join(
        path.read_text()
        for directory in JIT_CHECKED_DIRS
        for path in sorted((PASS_TESTS / directory).glob("*.mlir"))
        if "--verify-diagnostics" not in path.read_text()
    )


@pytest.mark.parametrize(
    "op_name",
    sorted(op.name for op in LinalgExt.operations if op.name != "linalg_ext.yield"),
)
def test_every_linalg_ext_op_is_compiled_by_some_test(op_name):
    assert op_name in _jit_checked_text()


@pytest.mark.parametrize("family", sorted(UPSTREAM_FAMILIES))
def test_every_upstream_family_is_compiled_by_some_test(family):
    assert re.search(UPSTREAM_FAMILIES[family], _jit_checked_text()), family


DYNAMIC = """
func.func @scale(%x: memref<?x?xf32>, %y: memref<?x?xf32>, %s: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?x?xf32>
  %m = memref.dim %x, %c1 : memref<?x?xf32>
  scf.for %i = %c0 to %n step %c1 {
    scf.for %j = %c0 to %m step %c1 {
      %v = memref.load %x[%i, %j] : memref<?x?xf32>
      %w = arith.mulf %v, %s : f32
      memref.store %w, %y[%i, %j] : memref<?x?xf32>
    }
  }
  return
}
"""


def _agree(text: str, name: str, inputs: list) -> None:
    module = parse_module(text)
    compiled = compile_module(module)
    expected = interpret(module, name, [np.copy(v) for v in inputs])
    actual = run_function(compiled, name, [np.copy(v) for v in inputs])
    for e, a in zip(expected.results, actual.results, strict=True):
        np.testing.assert_allclose(a, e, rtol=1e-6)
    for e, a in zip(expected.arguments, actual.arguments, strict=True):
        np.testing.assert_allclose(a, e, rtol=1e-6)


@pytest.mark.parametrize("shape", [(3, 5), (1, 1), (7, 2)])
def test_dynamic_shapes_agree_with_the_interpreter(shape):
    rng = np.random.default_rng(1)
    x = rng.uniform(-1, 1, shape).astype(np.float32)
    _agree(DYNAMIC, "scale", [x, np.zeros(shape, np.float32), np.float32(1.5)])


STRIDED = """
func.func @negate_window(%x: memref<8x10xf32>, %o: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %w = memref.subview %x[%o, 1] [3, 4] [2, 2]
      : memref<8x10xf32> to memref<3x4xf32, strided<[20, 2], offset: ?>>
  scf.for %i = %c0 to %c3 step %c1 {
    scf.for %j = %c0 to %c3 step %c1 {
      %v = memref.load %w[%i, %j] : memref<3x4xf32, strided<[20, 2], offset: ?>>
      %n = arith.negf %v : f32
      memref.store %n, %w[%i, %j] : memref<3x4xf32, strided<[20, 2], offset: ?>>
    }
  }
  return
}
"""


@pytest.mark.parametrize("offset", [0, 1, 2])
def test_strided_subview_agrees_with_the_interpreter(offset):
    x = np.arange(80, dtype=np.float32).reshape(8, 10)
    _agree(STRIDED, "negate_window", [x, offset])


STRIDED_ARGUMENT = """
func.func @double(%x: memref<?x?xf32, strided<[?, ?], offset: ?>>, %y: memref<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?x?xf32, strided<[?, ?], offset: ?>>
  %m = memref.dim %x, %c1 : memref<?x?xf32, strided<[?, ?], offset: ?>>
  scf.for %i = %c0 to %n step %c1 {
    scf.for %j = %c0 to %m step %c1 {
      %v = memref.load %x[%i, %j] : memref<?x?xf32, strided<[?, ?], offset: ?>>
      %w = arith.addf %v, %v : f32
      memref.store %w, %y[%i, %j] : memref<?x?xf32>
    }
  }
  return
}
"""


def test_strided_numpy_arguments_are_passed_as_views():
    compiled = compile_module(parse_module(STRIDED_ARGUMENT))
    base = np.arange(60, dtype=np.float32).reshape(6, 10)
    x = base[::2, 1::3]  # strides (2 rows, 3 columns), not contiguous
    y = np.zeros((3, 3), np.float32)
    compiled["double"](x, y)
    np.testing.assert_array_equal(y, 2 * x)
    # An identity layout needs a contiguous array: a view is refused, not
    # read as if it were one.
    with pytest.raises(JitError, match="row-major contiguous"):
        compiled["double"](x, np.zeros((6, 10), np.float32)[::2, ::4])


TENSORS = """
func.func @add_relu(%a: tensor<4x?xf32>, %b: tensor<4x?xf32>) -> tensor<4x?xf32> {
  %zero = arith.constant 0.0 : f32
  %c1 = arith.constant 1 : index
  %n = tensor.dim %a, %c1 : tensor<4x?xf32>
  %e = tensor.empty(%n) : tensor<4x?xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<4x?xf32>) -> tensor<4x?xf32>
  %r = linalg.add ins(%a, %b : tensor<4x?xf32>, tensor<4x?xf32>)
                  outs(%a : tensor<4x?xf32>) -> tensor<4x?xf32>
  %m = linalg.max ins(%r, %z : tensor<4x?xf32>, tensor<4x?xf32>)
                  outs(%e : tensor<4x?xf32>) -> tensor<4x?xf32>
  return %m : tensor<4x?xf32>
}
"""


def test_tensor_program_is_bufferized_and_leaves_its_inputs_alone():
    module = parse_module(TENSORS)
    compiled = compile_module(module)
    rng = np.random.default_rng(2)
    a = rng.uniform(-1, 1, (4, 3)).astype(np.float32)
    b = rng.uniform(-1, 1, (4, 3)).astype(np.float32)
    a_before = a.copy()
    result = compiled["add_relu"](a, b)
    np.testing.assert_allclose(result, np.maximum(a + b, 0), rtol=1e-6)
    # `outs(%a)` writes into a's tensor: bufferization copies it, since the
    # JIT marks tensor arguments read-only.
    np.testing.assert_array_equal(a, a_before)


RETURNS = """
"memref.global"() <{sym_name = "table", sym_visibility = "private", type = memref<3xi32>, initial_value = dense<[7, 8, 9]> : tensor<3xi32>, constant}> : () -> ()
func.func @fresh(%n: index) -> memref<?xf64> {
  %b = memref.alloc(%n) : memref<?xf64>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %v = arith.index_cast %i : index to i64
    %f = arith.sitofp %v : i64 to f64
    memref.store %f, %b[%i] : memref<?xf64>
  }
  return %b : memref<?xf64>
}
func.func @window(%x: memref<6xi32>) -> memref<2xi32, strided<[2], offset: 1>> {
  %w = memref.subview %x[1] [2] [2] : memref<6xi32> to memref<2xi32, strided<[2], offset: 1>>
  return %w : memref<2xi32, strided<[2], offset: 1>>
}
func.func @constant() -> memref<3xi32> {
  %g = memref.get_global @table : memref<3xi32>
  return %g : memref<3xi32>
}
func.func @two(%a: i32, %b: f32) -> (i32, f32) {
  %x = arith.addi %a, %a : i32
  %y = arith.mulf %b, %b : f32
  return %x, %y : i32, f32
}
"""


def test_returned_buffers_are_owned_views_or_copies():
    compiled = compile_module(parse_module(RETURNS), track_memory=True)
    before = TRACKER.current
    fresh = compiled["fresh"](5)
    np.testing.assert_array_equal(fresh, np.arange(5, dtype=np.float64))
    assert TRACKER.current == before + 5 * 8
    del fresh
    gc.collect()
    assert TRACKER.current == before, "the returned buffer was not freed"

    x = np.arange(6, dtype=np.int32)
    window = compiled["window"](x)
    np.testing.assert_array_equal(window, [1, 3])
    x[3] = 42
    assert window[1] == 42, "a returned view of an argument views the array"

    table = compiled["constant"]()
    table[0] = 0
    np.testing.assert_array_equal(compiled["constant"](), [7, 8, 9])

    assert compiled["two"](3, 1.5) == (6, 2.25)


def test_leaks_are_reported_when_tracked():
    leaky = """
func.func @leak(%x: memref<4xf32>) {
  %b = memref.alloc() : memref<4xf32>
  "memref.copy"(%x, %b) : (memref<4xf32>, memref<4xf32>) -> ()
  return
}
"""
    compiled = compile_module(parse_module(leaky), track_memory=True)
    run = run_function(compiled, "leak", [np.zeros(4, np.float32)])
    assert run.leaks == ["16 bytes allocated by the compiled @leak"]


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ([np.zeros((2, 2), np.float64), np.zeros((2, 2), np.float32), 1.0], "dtype"),
        ([np.zeros(3, np.float32), np.zeros(3, np.float32), 1.0], "shape"),
        ([np.zeros((2, 2), np.float32)], "takes 3 arguments"),
    ],
)
def test_bad_arguments_are_errors_naming_the_function(arguments, message):
    compiled = compile_module(parse_module(DYNAMIC))
    with pytest.raises(JitError, match=message) as error:
        compiled["scale"](*arguments)
    assert "@scale" in str(error.value)


def test_unknown_function_and_unlowerable_op_are_errors():
    compiled = compile_module(parse_module(DYNAMIC))
    with pytest.raises(JitError, match="no function @missing"):
        compiled["missing"]
    unregistered = """
func.func @f(%x: memref<4xf32>) {
  "test.op"(%x) : (memref<4xf32>) -> ()
  return
}
"""
    with pytest.raises(JitError, match="test.op"):
        compile_module(parse_module(unregistered))


def test_check_with_the_jit_backend():
    report = check_module(parse_module(TENSORS), [], backend="jit", trials=2)
    assert report.ok, [v.line() for v in report.verdicts]


def test_a_function_outlives_its_module_object():
    function = compile_module(parse_module(DYNAMIC))["scale"]
    gc.collect()  # the JitModule is gone; the machine code must not be
    y = np.zeros((2, 2), np.float32)
    function(np.ones((2, 2), np.float32), y, 3.0)
    np.testing.assert_array_equal(y, np.full((2, 2), 3.0, np.float32))


def test_a_function_may_be_named_like_a_libm_symbol():
    # llvm.pow.f32 becomes a call to libm's `powf`: it must not call this.
    text = """
func.func @powf(%x: f32, %y: f32) -> f32 {
  %r = math.powf %x, %y : f32
  return %r : f32
}
"""
    assert compile_module(parse_module(text))["powf"](2.0, 3.0) == 8.0


def test_the_call_is_timed_in_machine_code():
    function = compile_module(parse_module(DYNAMIC))["scale"]
    x = np.ones((64, 64), np.float32)
    start = time.perf_counter()
    function(x, np.zeros_like(x), 2.0)
    wall = time.perf_counter() - start
    assert 0 < function.last_call_seconds <= wall


def test_large_buffers_come_from_the_huge_page_allocator():
    # Above glibc's largest mmap threshold, `_lx_malloc` allocates 2 MiB
    # aligned (and advises huge pages); the buffer is still freed by `free`.
    compiled = compile_module(parse_module(RETURNS))
    n = (HUGE_PAGE_THRESHOLD // 8) + 1
    fresh = compiled["fresh"](n)
    assert fresh.__array_interface__["data"][0] % HUGE_PAGE == 0
    assert fresh[0] == 0 and fresh[-1] == n - 1
    del fresh
    gc.collect()


def test_the_calling_convention_packs_descriptors_and_scalars_into_slots():
    # What both runners of compiled code (the JIT and the upstream oracle)
    # build: a descriptor over the array's own memory, strides in elements;
    # a packed entry point reads it as 3 + 2·rank slots, a scalar as one.
    array = np.arange(12, dtype=np.float32).reshape(3, 4)[:, ::2]
    descriptor = descriptor_of(array)
    pointer = array.__array_interface__["data"][0]
    assert (descriptor.allocated, descriptor.aligned, descriptor.offset) == (
        pointer,
        pointer,
        0,
    )
    assert list(descriptor.sizes) == [3, 2] and list(descriptor.strides) == [4, 2]
    memref_slots, passed = slot_converter(
        "a", MemRefType(f32, [3, 2], StridedLayoutAttr([4, 2], 0))
    )(array)
    assert passed is array
    scalar_slots, _ = slot_converter("n", i32)(-1)
    slots = pack_slots([memref_slots, scalar_slots])
    assert list(slots) == [pointer, pointer, 0, 3, 2, 4, 2, 0xFFFFFFFF]
    view = array_view(descriptor, array.dtype)
    assert np.shares_memory(view, array) and np.array_equal(view, array)
