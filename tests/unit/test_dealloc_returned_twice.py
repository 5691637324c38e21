"""A buffer returned more than once, whole and/or as views (issue 16, found
by `make fuzz`, seeds 6266, 6609 and 9893): one result hands it over, the
others are copies (or, of a type no copy can have, the views they are), and
the buffers not returned are freed.

The programs of tests/filecheck/passes/buffer-deallocation-pipeline/
returned-twice.mlir run before and after the pass, on both values of their
condition, on the interpreter (which fails on a double free or a use after
free) and compiled with memory tracking: same values, no leak. Tensor
programs of the fuzzer's shapes go through bufferization and deallocation
with `check_module` on both backends.
"""

from __future__ import annotations

import functools
import io
import shutil
import subprocess
from contextlib import redirect_stderr

import numpy as np
import pytest
from xdsl.dialects import func
from xdsl.dialects.builtin import IntegerType, ModuleOp

from helpers import REPO, parse_module
from linalg_ext.checking import check_module
from linalg_ext.comparison import compare_values
from linalg_ext.context import make_context
from linalg_ext.jit import compile_module
from linalg_ext.jit.compiled import run_function as run_compiled
from linalg_ext.passes.buffer_deallocation import BufferDeallocationPass
from linalg_ext.running import FunctionRun, find_function, random_inputs, run_function

SOURCE = (
    REPO
    / "tests"
    / "filecheck"
    / "passes"
    / "buffer-deallocation-pipeline"
    / "returned-twice.mlir"
)
BEFORE = parse_module(SOURCE.read_text())


def _deallocated(module: ModuleOp) -> tuple[ModuleOp, str]:
    after = module.clone()
    err = io.StringIO()
    with redirect_stderr(err):
        BufferDeallocationPass(report=True).apply(make_context(), after)
    after.verify()
    return after, err.getvalue()


AFTER, REPORT = _deallocated(BEFORE)
NAMES = [op.sym_name.data for op in BEFORE.ops if isinstance(op, func.FuncOp)]


@functools.cache
def _compiled():
    return compile_module(AFTER, track_memory=True)


def _argument_sets(name: str) -> list[list]:
    """Random arrays, with each i1 argument true and false."""
    function = find_function(BEFORE, name)
    rng = np.random.default_rng(11)
    types = function.function_type.inputs.data
    sets = []
    for condition in (True, False):
        arguments = random_inputs(function, rng)
        sets.append(
            [
                condition
                if isinstance(t, IntegerType) and t.width.data == 1
                else argument
                for t, argument in zip(types, arguments, strict=True)
            ]
        )
    return sets


def _copied(values: list) -> list:
    return [v.copy() if isinstance(v, np.ndarray) else v for v in values]


def _agree(expected: FunctionRun, actual: FunctionRun, what: str) -> None:
    difference = compare_values(
        expected.results, actual.results, "result"
    ) or compare_values(expected.arguments, actual.arguments, "argument")
    assert difference is None, f"{what}: {difference}"


def test_nothing_is_left_unfreed():
    # Before the fix: "it is returned more than once", "result #0 may be it
    # or a buffer (memref.alloc), so the caller cannot own it".
    assert REPORT == ""


@pytest.mark.parametrize("name", NAMES)
def test_same_values_no_leak_interpreted_and_compiled(name):
    for arguments in _argument_sets(name):
        expected = run_function(BEFORE, name, _copied(arguments))
        # The interpreter raises on a double free or a use after free.
        actual = run_function(AFTER, name, _copied(arguments))
        _agree(expected, actual, f"@{name}")
        assert actual.leaks == [], (name, arguments)
        native = run_compiled(_compiled(), name, _copied(arguments))
        _agree(expected, native, f"compiled @{name}")
        assert native.leaks == [], (name, arguments)


def test_results_returned_twice_are_independent_buffers():
    """The caller may write one result without changing the other."""
    x = np.arange(4, dtype=np.float32)
    for run in (
        run_function(AFTER, "same_twice", [x.copy()]),
        run_compiled(_compiled(), "same_twice", [x.copy()]),
    ):
        first, second = run.results
        np.testing.assert_allclose(first, np.exp(x), rtol=1e-6)
        np.testing.assert_allclose(second, np.exp(x), rtol=1e-6)
    native = _compiled()["same_twice"](x.copy())
    native[0][0] = -1.0
    assert native[1][0] == pytest.approx(1.0)


@pytest.mark.skipif(shutil.which("mlir-opt-22") is None, reason="no mlir-opt-22")
def test_upstream_output_computes_the_same():
    """Upstream returns the aliasing results as they are (its callers'
    `bufferization.dealloc` frees an aliased buffer once); its output, run
    on our interpreter, computes what ours does and leaks nothing either."""
    upstream = subprocess.run(
        ["mlir-opt-22", "--buffer-deallocation-pipeline"],
        input=SOURCE.read_text(),
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    theirs = parse_module(upstream)
    for name in NAMES:
        for arguments in _argument_sets(name):
            ours = run_function(AFTER, name, _copied(arguments))
            upstream_run = run_function(theirs, name, _copied(arguments))
            _agree(ours, upstream_run, f"@{name} upstream")
            assert upstream_run.leaks == ours.leaks == []


# --------------------------------------------------------------------------
# Tensor programs of the fuzzer's shapes, bufferized then deallocated
# --------------------------------------------------------------------------

PIPELINE = (
    "eliminate-empty-tensors,one-shot-bufferize{bufferize-function-boundaries=true},"
    "buffer-deallocation-pipeline"
)

TENSORS = """
func.func @slice_and_whole(%x: tensor<2x2xf32>) -> (tensor<1x1xf32>, tensor<2x2xf32>) {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x2xf32>
  %a = linalg.exp ins(%x : tensor<2x2xf32>) outs(%e : tensor<2x2xf32>) -> tensor<2x2xf32>
  %f = tensor.empty() : tensor<2x2xf32>
  %b = linalg.abs ins(%x : tensor<2x2xf32>) outs(%f : tensor<2x2xf32>) -> tensor<2x2xf32>
  %first = tensor.extract %x[%c0, %c0] : tensor<2x2xf32>
  %c = arith.cmpf ogt, %first, %zero : f32
  %r = scf.if %c -> (tensor<2x2xf32>) {
    scf.yield %a : tensor<2x2xf32>
  } else {
    scf.yield %b : tensor<2x2xf32>
  }
  %s = tensor.extract_slice %r[1, 0] [1, 1] [1, 1] : tensor<2x2xf32> to tensor<1x1xf32>
  return %s, %r : tensor<1x1xf32>, tensor<2x2xf32>
}

func.func @slice_of_either(%x: tensor<5xf32>) -> tensor<3xf32> {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<5xf32>
  %a = linalg.exp ins(%x : tensor<5xf32>) outs(%e : tensor<5xf32>) -> tensor<5xf32>
  %f = tensor.empty() : tensor<5xf32>
  %b = linalg.abs ins(%x : tensor<5xf32>) outs(%f : tensor<5xf32>) -> tensor<5xf32>
  %first = tensor.extract %x[%c0] : tensor<5xf32>
  %c = arith.cmpf ogt, %first, %zero : f32
  %r = scf.if %c -> (tensor<5xf32>) {
    scf.yield %a : tensor<5xf32>
  } else {
    scf.yield %b : tensor<5xf32>
  }
  %s = tensor.extract_slice %r[2] [3] [1] : tensor<5xf32> to tensor<3xf32>
  return %s : tensor<3xf32>
}

func.func @same_twice(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %e = tensor.empty() : tensor<4xf32>
  %a = linalg.exp ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  return %a, %a : tensor<4xf32>, tensor<4xf32>
}

func.func @two_slices(%x: tensor<4xf32>) -> (tensor<2xf32>, tensor<3xf32>) {
  %e = tensor.empty() : tensor<4xf32>
  %a = linalg.exp ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %s = tensor.extract_slice %a[0] [2] [1] : tensor<4xf32> to tensor<2xf32>
  %t = tensor.extract_slice %a[1] [3] [1] : tensor<4xf32> to tensor<3xf32>
  return %s, %t : tensor<2xf32>, tensor<3xf32>
}
"""


@pytest.mark.parametrize("backend", ["interpreter", "jit"])
def test_bufferized_fuzzer_shapes_leak_nothing(backend):
    # Both branches: the first element of %x decides, over 6 random trials.
    report = check_module(
        parse_module(TENSORS), PIPELINE, trials=6, seed=3, backend=backend
    )
    assert report.ok, "\n".join(v.line() for v in report.verdicts)
