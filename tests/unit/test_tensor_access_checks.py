"""Tensor accesses out of bounds: compiled code fails with the message the
interpreter gives for the tensor op (issue 16).

One-shot-bufferize turns `tensor.extract` / `tensor.insert` into a
`memref.load` / `memref.store`, and a checked `extract_slice` /
`insert_slice` / `parallel_insert_slice` into a `memref.subview` (and the
`memref.copy` into it), a checked `expand_shape` into a
`memref.expand_shape` and a checked `cast` into a `memref.cast`, each
marked with the discardable attribute `rtcheck.origin` naming the tensor
op; `insert-runtime-checks` (and the interpreter running the bufferized
program) report a failure under that name. So the JIT's `JitError`
says "tensor.extract: index [5] ..." as the interpreter does, not
"memref.load: index [5] ...".
"""

from __future__ import annotations

import shutil
import subprocess
from typing import Any

import numpy as np
import pytest
from xdsl.dialects import memref
from xdsl.dialects.builtin import ModuleOp, StringAttr

from helpers import interpreter_error, parse_module, print_module
from linalg_ext.context import make_context
from linalg_ext.dialect.runtime_check import ORIGIN
from linalg_ext.jit import compile_module
from linalg_ext.jit.compiled import JitError
from linalg_ext.passes.one_shot_bufferize import OneShotBufferizePass
from linalg_ext.running import run_function

f32 = np.float32

PROGRAMS = """
func.func @extract(%t: tensor<3xf32>, %i: index) -> f32 {
  %v = tensor.extract %t[%i] : tensor<3xf32>
  return %v : f32
}
func.func @extract_dynamic(%t: tensor<2x?xf32>, %i: index, %j: index) -> f32 {
  %v = tensor.extract %t[%i, %j] : tensor<2x?xf32>
  return %v : f32
}
func.func @insert(%t: tensor<2x3xf32>, %i: index, %j: index) -> tensor<2x3xf32> {
  %c = arith.constant 7.0 : f32
  %r = tensor.insert %c into %t[%i, %j] : tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}
func.func @extract_slice(%t: tensor<3xf32>, %i: index) -> tensor<2xf32> {
  %s = tensor.extract_slice %t[%i] [2] [1] : tensor<3xf32> to tensor<2xf32>
  return %s : tensor<2xf32>
}
func.func @expand_shape(%t: tensor<?xf32>, %n: index) -> tensor<2x?xf32> {
  %r = tensor.expand_shape %t [[0, 1]] output_shape [2, %n] : tensor<?xf32> into tensor<2x?xf32>
  return %r : tensor<2x?xf32>
}
func.func @insert_slice(%s: tensor<2xf32>, %t: tensor<4xf32>, %i: index) -> tensor<4xf32> {
  %r = tensor.insert_slice %s into %t[%i] [2] [1] : tensor<2xf32> into tensor<4xf32>
  return %r : tensor<4xf32>
}
func.func @cast(%t: tensor<?xf32>) -> tensor<3xf32> {
  %r = tensor.cast %t : tensor<?xf32> to tensor<3xf32>
  return %r : tensor<3xf32>
}
func.func @insert_slice_fill(%s: tensor<?xf32>, %t: tensor<4xf32>, %n: index) -> tensor<4xf32> {
  %r = tensor.insert_slice %s into %t[0] [%n] [1] : tensor<?xf32> into tensor<4xf32>
  return %r : tensor<4xf32>
}
func.func @parallel_insert(%s: tensor<2xf32>, %t: tensor<4xf32>, %i: index) -> tensor<4xf32> {
  %r = scf.forall (%k) in (1) shared_outs(%o = %t) -> (tensor<4xf32>) {
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %s into %o[%i] [2] [1] : tensor<2xf32> into tensor<4xf32>
    }
  }
  return %r : tensor<4xf32>
}
"""

CASES: dict[str, tuple[str, list[Any], list[Any], str]] = {
    # case: (function, failing inputs, valid inputs, interpreter's message)
    "extract": (
        "extract",
        [np.arange(3, dtype=f32), 5],
        [np.arange(3, dtype=f32), 2],
        "tensor.extract: index [5] is out of bounds of shape [3]",
    ),
    "extract negative": (
        "extract",
        [np.arange(3, dtype=f32), -1],
        [np.arange(3, dtype=f32), 0],
        "tensor.extract: index [-1] is out of bounds of shape [3]",
    ),
    "extract dynamic": (
        "extract_dynamic",
        [np.ones((2, 4), f32), 1, 4],
        [np.ones((2, 4), f32), 1, 3],
        "tensor.extract: index [1, 4] is out of bounds of shape [2, 4]",
    ),
    "insert": (
        "insert",
        [np.zeros((2, 3), f32), 1, 7],
        [np.zeros((2, 3), f32), 1, 2],
        "tensor.insert: index [1, 7] is out of bounds of shape [2, 3]",
    ),
}

SLICE_CASES: dict[str, tuple[str, list[Any], list[Any], str]] = {
    "extract_slice": (
        "extract_slice",
        [np.arange(3, dtype=f32), 2],
        [np.arange(3, dtype=f32), 1],
        "tensor.extract_slice: slice of dimension 0 (offset 2, size 2, stride 1) "
        "is out of bounds of its size 3",
    ),
    "expand_shape": (
        "expand_shape",
        [np.ones(5, f32), 3],
        [np.ones(6, f32), 3],
        "tensor.expand_shape: dimensions [2, 3] of [2, 3] do not make up size 5 of [5]",
    ),
    "insert_slice": (
        "insert_slice",
        [np.ones(2, f32), np.zeros(4, f32), 3],
        [np.ones(2, f32), np.zeros(4, f32), 2],
        "tensor.insert_slice: slice of dimension 0 (offset 3, size 2, stride 1) "
        "is out of bounds of its size 4",
    ),
    "cast": (
        "cast",
        [np.ones(5, f32)],
        [np.arange(3, dtype=f32)],
        "tensor.cast: the source has shape [5], which does not fit tensor<3xf32>",
    ),
    "insert_slice source too small": (
        "insert_slice_fill",
        [np.ones(2, f32), np.zeros(4, f32), 3],
        [np.ones(3, f32), np.zeros(4, f32), 3],
        "tensor.insert_slice: source of shape [2] does not fill a slice of sizes [3]",
    ),
    "parallel_insert_slice": (
        "parallel_insert",
        [np.ones(2, f32), np.zeros(4, f32), 3],
        [np.ones(2, f32), np.zeros(4, f32), 2],
        "tensor.parallel_insert_slice: slice of dimension 0 (offset 3, size 2, "
        "stride 1) is out of bounds of its size 4",
    ),
}


@pytest.fixture(scope="module")
def plain() -> ModuleOp:
    return parse_module(PROGRAMS)


@pytest.fixture(scope="module")
def bufferized(plain: ModuleOp) -> ModuleOp:
    module = plain.clone()
    OneShotBufferizePass(bufferize_function_boundaries=True).apply(
        make_context(), module
    )
    return module


@pytest.fixture(scope="module")
def compiled(plain: ModuleOp) -> Any:
    return compile_module(plain, runtime_checks=True)


def _check_compiled(
    case: tuple[str, list[Any], list[Any], str], plain: ModuleOp, compiled: Any
) -> None:
    name, failing, valid, message = case
    assert interpreter_error(plain, name, failing) == message
    with pytest.raises(JitError) as error:
        compiled[name](*failing)
    assert str(error.value).endswith(message)
    # Valid inputs still compute what the interpreter computes.
    expected = run_function(plain, name, valid)
    result, _ = compiled[name].call(*valid)
    np.testing.assert_array_equal(np.asarray(result), np.asarray(expected.results[0]))


def test_bufferized_accesses_name_their_tensor_op(bufferized: ModuleOp):
    origins = {
        (op.name, attr.data)
        for op in bufferized.walk()
        if isinstance(attr := op.attributes.get(ORIGIN), StringAttr)
    }
    assert origins == {
        ("memref.load", "tensor.extract"),
        ("memref.store", "tensor.insert"),
        ("memref.subview", "tensor.extract_slice"),
        ("memref.subview", "tensor.insert_slice"),
        ("memref.expand_shape", "tensor.expand_shape"),
        ("memref.cast", "tensor.cast"),
        ("memref.subview", "tensor.parallel_insert_slice"),
        ("memref.copy", "tensor.insert_slice"),
    }


def test_static_subviews_are_not_marked():
    """A subview all of whose offsets, sizes, strides and source extents are
    static is not checked at run time: it gets no attribute."""
    module = parse_module(
        """
func.func @f(%t: tensor<4xf32>) -> tensor<2xf32> {
  %s = tensor.extract_slice %t[1] [2] [1] : tensor<4xf32> to tensor<2xf32>
  return %s : tensor<2xf32>
}
"""
    )
    OneShotBufferizePass(bufferize_function_boundaries=True).apply(
        make_context(), module
    )
    views = [op for op in module.walk() if isinstance(op, memref.SubviewOp)]
    assert len(views) == 1 and ORIGIN not in views[0].attributes


@pytest.mark.parametrize("case", CASES)
def test_compiled_access_fails_with_the_interpreters_message(
    case: str, plain: ModuleOp, compiled: Any
):
    _check_compiled(CASES[case], plain, compiled)


@pytest.mark.parametrize("case", SLICE_CASES)
def test_compiled_slice_fails_with_the_interpreters_message(
    case: str, plain: ModuleOp, compiled: Any
):
    _check_compiled(SLICE_CASES[case], plain, compiled)


@pytest.mark.parametrize("case", [*CASES, *SLICE_CASES])
def test_interpreted_bufferized_program_fails_with_the_same_message(
    case: str, plain: ModuleOp, bufferized: ModuleOp
):
    """The interpreter reads `rtcheck.origin` too: the bufferized program
    refuses what the tensor program refuses, with the same message (so
    linalg-ext-check over one-shot-bufferize sees agreement)."""
    name, failing, _, message = {**CASES, **SLICE_CASES}[case]
    assert interpreter_error(plain, name, failing) == message
    assert interpreter_error(bufferized, name, failing) == message


@pytest.mark.skipif(
    shutil.which("mlir-opt-22") is None, reason="mlir-opt-22 is not installed"
)
def test_mlir_opt_reads_the_marked_output(bufferized: ModuleOp):
    """Upstream accepts (and keeps) the discardable attribute."""
    text = print_module(bufferized)
    done = subprocess.run(
        ["mlir-opt-22"], input=text, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    marks = text.count('rtcheck.origin = "tensor.')
    # Two extracts, an insert, four subviews, an expansion, a cast, a copy.
    assert marks == 10
    assert done.stdout.count('rtcheck.origin = "tensor.') == marks
