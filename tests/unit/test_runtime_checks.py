"""Run-time checks: compiled code refuses what the interpreter refuses, with
the interpreter's message (issue 16).

Each case is a program and inputs the interpreter refuses. The program with
its checks (the loop lowerings with `runtime-checks`, then
`insert-runtime-checks` and `lower-affine-ext`) must fail in the interpreter
with exactly the
plain program's message, and so must the compiled program
(`compile_module(runtime_checks=True)`) as a `JitError`. Valid inputs run
through the checks unchanged, and the bench kernels get none.
"""

from __future__ import annotations

import inspect
from typing import Any

import numpy as np
import pytest
from xdsl.dialects.builtin import ModuleOp

from helpers import interpreter_error, parse_module, print_module
from linalg_ext.jit import compile_module
from linalg_ext.jit.compiled import JitError
from linalg_ext.pipelines import apply_pipeline
from linalg_ext.running import run_function

CHECKED = (
    "convert-linalg-ext-to-loops{runtime-checks=true},"
    "convert-linalg-to-loops-ext{runtime-checks=true},"
    "insert-runtime-checks,lower-affine-ext"
)
"""What `lower-to-llvm{runtime-checks=true}` runs before scf-to-cf."""

f32, i32 = np.float32, np.int32

PROGRAMS = """
func.func @generic(%a: memref<?xf32>, %b: memref<?xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a : memref<?xf32>) outs(%b : memref<?xf32>) {
  ^bb0(%x: f32, %y: f32):
    linalg.yield %x : f32
  }
  func.return
}
func.func @conv(%x: memref<?xf32>, %w: memref<?xf32>, %o: memref<?xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0 + d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x, %w : memref<?xf32>, memref<?xf32>) outs(%o : memref<?xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %c, %m : f32
    linalg.yield %s : f32
  }
  func.return
}
func.func @topk(%v: memref<?xf32>, %ov: memref<?xf32>, %oi: memref<?xi32>) {
  linalg_ext.topk dimension(0) ins(%v : memref<?xf32>) outs(%ov, %oi : memref<?xf32>, memref<?xi32>) {
  ^bb0(%a: f32, %b: f32):
    %first = arith.cmpf ogt, %a, %b : f32
    linalg_ext.yield %first : i1
  }
  func.return
}
func.func @scan(%x: memref<?xf32>, %o: memref<?xf32>, %c: memref<f32>) {
  linalg_ext.scan dimension(0) inclusive(true) ins(%x : memref<?xf32>) outs(%o, %c : memref<?xf32>, memref<f32>) {
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    linalg_ext.yield %s : f32
  }
  func.return
}
func.func @layer_norm(%x: memref<2x4xf32>, %w: memref<?xf32>, %b: memref<?xf32>, %o: memref<2x4xf32>) {
  linalg_ext.layer_norm axis([1]) epsilon(1.000000e-05) ins(%x, %w, %b : memref<2x4xf32>, memref<?xf32>, memref<?xf32>) outs(%o : memref<2x4xf32>)
  func.return
}
func.func @batch_matmul(%a: memref<1x2x?xf32>, %b: memref<1x?x2xf32>, %c: memref<1x2x2xf32>) {
  linalg_ext.batch_matmul ins(%a, %b : memref<1x2x?xf32>, memref<1x?x2xf32>) outs(%c : memref<1x2x2xf32>) layout = "nn"
  func.return
}
func.func @scatter(%idx: memref<2x1xi32>, %upd: memref<2x3xf32>, %src: memref<?x3xf32>) {
  linalg_ext.scatter ins(%idx, %upd : memref<2x1xi32>, memref<2x3xf32>) outs(%src : memref<?x3xf32>) {
  ^bb0(%old: f32, %new: f32):
    %s = arith.addf %old, %new : f32
    linalg_ext.yield %s : f32
  }
  func.return
}
func.func @divsi(%x: i32, %y: i32) -> i32 {
  %q = arith.divsi %x, %y : i32
  func.return %q : i32
}
func.func @remsi(%x: i64, %y: i64) -> i64 {
  %q = arith.remsi %x, %y : i64
  func.return %q : i64
}
func.func @divui(%x: i32, %y: i32) -> i32 {
  %q = arith.divui %x, %y : i32
  func.return %q : i32
}
func.func @load(%a: memref<3xf32>, %i: index) -> f32 {
  %v = memref.load %a[%i] : memref<3xf32>
  func.return %v : f32
}
func.func @store(%a: memref<?x2xf32>, %i: index, %j: index, %v: f32) {
  memref.store %v, %a[%i, %j] : memref<?x2xf32>
  func.return
}
func.func @affine_load(%a: memref<4xf32>, %i: index) -> f32 {
  %v = affine.load %a[%i + 2] : memref<4xf32>
  func.return %v : f32
}
func.func @copy(%a: memref<?xf32>, %b: memref<?xf32>) {
  memref.copy %a, %b : memref<?xf32> to memref<?xf32>
  func.return
}
func.func @subview(%a: memref<8x?xf32>, %o: index, %s: index) -> f32 {
  %v = memref.subview %a[%o, 1] [%s, 2] [1, 1] : memref<8x?xf32> to memref<?x2xf32, strided<[?, 1], offset: ?>>
  %c0 = arith.constant 0 : index
  %x = memref.load %v[%c0, %c0] : memref<?x2xf32, strided<[?, 1], offset: ?>>
  func.return %x : f32
}
func.func @for_step(%a: memref<4xf32>, %step: index) -> f32 {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant 0.0 : f32
  %r = scf.for %i = %c0 to %c4 step %step iter_args(%acc = %zero) -> (f32) {
    %v = memref.load %a[%i] : memref<4xf32>
    %s = arith.addf %acc, %v : f32
    scf.yield %s : f32
  }
  func.return %r : f32
}
func.func @parallel_step(%a: memref<4x4xf32>, %step: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %one = arith.constant 1.0 : f32
  scf.parallel (%i, %j) = (%c0, %c0) to (%c4, %c4) step (%c1, %step) {
    memref.store %one, %a[%i, %j] : memref<4x4xf32>
    scf.reduce
  }
  func.return
}
"""

INT_MIN32 = np.iinfo(np.int32).min
INT_MIN64 = np.iinfo(np.int64).min

# name -> (function, failing inputs, valid inputs, expected message); each
# run takes fresh copies of the inputs (`_fresh`), as the programs write them.
CASES: dict[str, tuple[str, list[Any], list[Any], str]] = {
    "generic 4 vs 2": (
        "generic",
        [np.ones(4, f32), np.zeros(2, f32)],
        [np.ones(4, f32), np.zeros(4, f32)],
        "linalg.generic: operand #1 has size 2 in dimension 0, but loop d0 runs 4 times",
    ),
    "conv window too long": (
        "conv",
        [np.ones(4, f32), np.ones(3, f32), np.zeros(3, f32)],
        [np.ones(5, f32), np.ones(3, f32), np.zeros(3, f32)],
        "linalg.generic: operand #0 is accessed at indices 0..4 in dimension 0, "
        "of size 4",
    ),
    "topk K > N": (
        "topk",
        [np.ones(3, f32), np.zeros(5, f32), np.zeros(5, i32)],
        [np.arange(5, dtype=f32), np.zeros(3, f32), np.zeros(3, i32)],
        "'linalg_ext.topk': K (5, the outputs' extent along dimension 0) exceeds "
        "the input extent along that dimension (3)",
    ),
    "scan 5 vs 3": (
        "scan",
        [np.ones(5, f32), np.zeros(3, f32), np.zeros((), f32)],
        [np.ones(5, f32), np.zeros(5, f32), np.zeros((), f32)],
        "'linalg_ext.scan': output has size 3 in dimension 0, but input has size 5 "
        "in dimension 0",
    ),
    "layer_norm weight 3 vs axis 4": (
        "layer_norm",
        (
            [np.ones((2, 4), f32), np.ones(3, f32), np.ones(3, f32)]
            + [np.zeros((2, 4), f32)]
        ),
        (
            [np.ones((2, 4), f32), np.ones(4, f32), np.ones(4, f32)]
            + [np.zeros((2, 4), f32)]
        ),
        "'linalg_ext.layer_norm': weight has size 3 in dimension 0, but input has "
        "size 4 in dimension 1",
    ),
    "batch_matmul K 3 vs 5": (
        "batch_matmul",
        (
            [np.ones((1, 2, 3), f32), np.ones((1, 5, 2), f32)]
            + [np.zeros((1, 2, 2), f32)]
        ),
        (
            [np.ones((1, 2, 3), f32), np.ones((1, 3, 2), f32)]
            + [np.zeros((1, 2, 2), f32)]
        ),
        "'linalg_ext.batch_matmul': rhs has size 5 in dimension 1, but lhs has size "
        "3 in dimension 2",
    ),
    "scatter index out of bounds": (
        "scatter",
        ([np.array([[1], [7]], i32), np.ones((2, 3), f32)] + [np.zeros((4, 3), f32)]),
        ([np.array([[1], [3]], i32), np.ones((2, 3), f32)] + [np.zeros((4, 3), f32)]),
        "'linalg_ext.scatter' index [7] at batch position [1] is out of bounds for "
        "src of shape [4, 3]",
    ),
    "scatter negative index": (
        "scatter",
        ([np.array([[-1], [0]], i32), np.ones((2, 3), f32)] + [np.zeros((4, 3), f32)]),
        ([np.array([[0], [0]], i32), np.ones((2, 3), f32)] + [np.zeros((4, 3), f32)]),
        "'linalg_ext.scatter' index [-1] at batch position [0] is out of bounds for "
        "src of shape [4, 3]",
    ),
    "divsi by zero": (
        "divsi",
        [7, 0],
        [7, -2],
        "'arith.divsi' divides by zero",
    ),
    "divsi INT_MIN / -1": (
        "divsi",
        [INT_MIN32, -1],
        [INT_MIN32, 2],
        f"'arith.divsi' of {INT_MIN32} by -1 overflows",
    ),
    "remsi INT_MIN / -1": (
        "remsi",
        [INT_MIN64, -1],
        [INT_MIN64, 3],
        f"'arith.remsi' of {INT_MIN64} by -1 overflows",
    ),
    "divui by zero": (
        "divui",
        [7, 0],
        [7, 2],
        "'arith.divui' divides by zero",
    ),
    "load out of bounds": (
        "load",
        [np.ones(3, f32), 5],
        [np.ones(3, f32), 2],
        "memref.load: index [5] is out of bounds of shape [3]",
    ),
    "store negative index": (
        "store",
        [np.zeros((3, 2), f32), 1, -1, 1.0],
        [np.zeros((3, 2), f32), 2, 1, 1.0],
        "memref.store: index [1, -1] is out of bounds of shape [3, 2]",
    ),
    "copy 4 vs 2": (
        "copy",
        [np.ones(4, f32), np.zeros(2, f32)],
        [np.ones(4, f32), np.zeros(4, f32)],
        "memref.copy: source of shape [4] and destination of shape [2] differ",
    ),
    "subview past the end": (
        "subview",
        [np.ones((8, 3), f32), 6, 3],
        [np.ones((8, 3), f32), 5, 3],
        "memref.subview: slice of dimension 0 (offset 6, size 3, stride 1) is out "
        "of bounds of its size 8",
    ),
    "subview of a narrow source": (
        "subview",
        [np.ones((8, 2), f32), 0, 1],
        [np.ones((8, 3), f32), 0, 1],
        "memref.subview: slice of dimension 1 (offset 1, size 2, stride 1) is out "
        "of bounds of its size 2",
    ),
    "scf.for step 0": (
        "for_step",
        [np.ones(4, f32), 0],
        [np.ones(4, f32), 2],
        "scf.for: step 0 is not positive",
    ),
    "scf.parallel step 0": (
        "parallel_step",
        [np.zeros((4, 4), f32), 0],
        [np.zeros((4, 4), f32), 3],
        "scf.parallel: steps (1, 0) are not all positive",
    ),
}


def _fresh(inputs: list[Any]) -> list[Any]:
    return [np.copy(x) if isinstance(x, np.ndarray) else x for x in inputs]


@pytest.fixture(scope="module")
def plain() -> ModuleOp:
    return parse_module(PROGRAMS)


@pytest.fixture(scope="module")
def checked(plain: ModuleOp) -> ModuleOp:
    module = plain.clone()
    apply_pipeline(CHECKED, module)
    return module


@pytest.mark.parametrize("case", CASES)
def test_checked_program_fails_with_the_interpreters_message(
    case: str, plain: ModuleOp, checked: ModuleOp
):
    name, failing, _, message = CASES[case]
    assert interpreter_error(plain, name, _fresh(failing)) == message
    assert interpreter_error(checked, name, _fresh(failing)) == message


@pytest.mark.parametrize("case", CASES)
def test_checked_program_computes_the_same_on_valid_inputs(
    case: str, plain: ModuleOp, checked: ModuleOp
):
    name, _, valid, _ = CASES[case]
    expected = run_function(plain, name, _fresh(valid))
    got = run_function(checked, name, _fresh(valid))
    for want, have in zip(
        [*expected.results, *expected.arguments],
        [*got.results, *got.arguments],
        strict=True,
    ):
        np.testing.assert_array_equal(np.asarray(have), np.asarray(want))


def test_the_checks_are_rtcheck_asserts(checked: ModuleOp):
    """Every message is an `rtcheck.assert` template of the checked program
    (the loops themselves cannot say them: a load would name itself)."""
    text = print_module(checked)
    assert "rtcheck.in_bounds" not in text  # the marks are consumed
    for fragment in (
        "operand #1 has size {} in dimension 0, but loop d0 runs {} times",
        "'linalg_ext.scan': output has size {} in dimension 0",
        "'linalg_ext.topk': K ({}, the outputs' extent",
        "'linalg_ext.layer_norm': weight has size {} in dimension 0",
        "'linalg_ext.batch_matmul': rhs has size {} in dimension 1",
        "'linalg_ext.scatter' index [{}] at batch position [{}]",
        "'arith.divsi' divides by zero",
        "'arith.remsi' of {} by -1 overflows",
        "memref.load: index [{}] is out of bounds of shape [3]",
        "affine.load: index [{}] is out of bounds of shape [4]",
        "scf.for: step {} is not positive",
        "scf.parallel: steps ({}, {}) are not all positive",
    ):
        assert "rtcheck.assert %" in text and fragment in text, fragment


def test_affine_load_out_of_bounds_is_aninterpreter_error(
    plain: ModuleOp, checked: ModuleOp
):
    message = "affine.load: index [4] is out of bounds of shape [4]"
    assert interpreter_error(plain, "affine_load", [np.ones(4, f32), 2]) == message
    # After lower-affine-ext the access is a memref.load, checked first.
    assert interpreter_error(checked, "affine_load", [np.ones(4, f32), 2]) == (message)


STATIC_KERNELS = """
func.func @matmul(%a: memref<8x16xf32>, %b: memref<16x4xf32>, %c: memref<8x4xf32>) {
  linalg.matmul ins(%a, %b : memref<8x16xf32>, memref<16x4xf32>) outs(%c : memref<8x4xf32>)
  func.return
}
func.func @softmax(%x: memref<4x8xf32>, %o: memref<4x8xf32>, %m: memref<4xf32>, %s: memref<4xf32>, %sc: memref<4xf32>) {
  linalg_ext.softmax dimension(1) ins(%x : memref<4x8xf32>) outs(%o, %m, %s, %sc : memref<4x8xf32>, memref<4xf32>, memref<4xf32>, memref<4xf32>)
  func.return
}
func.func @dynamic_add(%a: memref<?xf32>, %b: memref<?xf32>, %c: memref<?xf32>) {
  linalg.add ins(%a, %b : memref<?xf32>, memref<?xf32>) outs(%c : memref<?xf32>)
  func.return
}
"""


def test_proven_accesses_get_no_checks():
    """Static kernels need no check at all; a dynamic elementwise op one
    per operand that must agree with the loop's extent, none per element."""
    module = parse_module(STATIC_KERNELS)
    apply_pipeline(CHECKED, module)
    text = print_module(module)
    assert text.count("rtcheck.assert") == 2
    assert text.count("operand #1 has size {}") == 1
    assert text.count("operand #2 has size {}") == 1


def _jit_supports_runtime_checks() -> bool:
    return "runtime_checks" in inspect.signature(compile_module).parameters


needs_checked_jit = pytest.mark.skipif(
    not _jit_supports_runtime_checks(),
    reason="linalg_ext.jit.compile_module has no runtime_checks option yet "
    "(issue 16, the JIT part)",
)


@pytest.fixture(scope="module")
def compiled(plain: ModuleOp) -> Any:
    return compile_module(plain, runtime_checks=True)


@needs_checked_jit
@pytest.mark.parametrize("case", CASES)
def test_compiled_program_fails_with_the_interpreters_message(
    case: str, plain: ModuleOp, compiled: Any
):
    name, failing, valid, message = CASES[case]
    with pytest.raises(JitError) as error:
        compiled[name](*_fresh(failing))
    assert str(error.value).endswith(message)
    expected = run_function(plain, name, _fresh(valid))
    result, arguments = compiled[name].call(*_fresh(valid))
    if expected.results:
        np.testing.assert_array_equal(np.asarray(result), expected.results[0])
    for want, have in zip(expected.arguments, arguments, strict=True):
        np.testing.assert_array_equal(np.asarray(have), np.asarray(want))


@needs_checked_jit
def test_compiled_out_of_bounds_scatter_raises_every_time(compiled: Any):
    _, failing, _, message = CASES["scatter index out of bounds"]
    for _ in range(20):
        with pytest.raises(JitError) as error:
            compiled["scatter"](*_fresh(failing))
        assert message in str(error.value)


TENSOR_PROGRAMS = """
func.func @scan(%x: tensor<?xf32>, %o: tensor<?xf32>, %c: tensor<f32>) -> tensor<?xf32> {
  %r:2 = linalg_ext.scan dimension(0) inclusive(true) ins(%x : tensor<?xf32>) outs(%o, %c : tensor<?xf32>, tensor<f32>) {
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    linalg_ext.yield %s : f32
  } -> tensor<?xf32>, tensor<f32>
  return %r#0 : tensor<?xf32>
}
func.func @batch_matmul(%a: tensor<1x2x?xf32>, %b: tensor<1x?x2xf32>, %c: tensor<1x2x2xf32>) -> tensor<1x2x2xf32> {
  %r = linalg_ext.batch_matmul ins(%a, %b : tensor<1x2x?xf32>, tensor<1x?x2xf32>) outs(%c : tensor<1x2x2xf32>) layout = "nn"
  return %r : tensor<1x2x2xf32>
}
"""

TENSOR_CASES = {
    "scan": (
        [np.ones(5, f32), np.zeros(3, f32), np.zeros((), f32)],
        "'linalg_ext.scan': output has size 3 in dimension 0, but input has size 5 "
        "in dimension 0",
    ),
    "batch_matmul": (
        [np.ones((1, 2, 3), f32), np.ones((1, 5, 2), f32), np.zeros((1, 2, 2), f32)],
        "'linalg_ext.batch_matmul': rhs has size 5 in dimension 1, but lhs has size "
        "3 in dimension 2",
    ),
}


@pytest.mark.parametrize("name", TENSOR_CASES)
def test_tensor_forms_refuse_disagreeing_extents_in_one_line(name: str):
    """On tensors too: the interpreter's error (no Python traceback), and the
    same from compiled code, which bufferizes first."""
    module = parse_module(TENSOR_PROGRAMS)
    inputs, message = TENSOR_CASES[name]
    assert interpreter_error(module, name, inputs) == message
    if _jit_supports_runtime_checks():
        with pytest.raises(JitError) as error:
            compile_module(module)[name](*inputs)
        assert str(error.value).endswith(message)
