"""Calls of compiled functions (linalg_ext/jit/call_plan.py): the prepared
fast path gives what the interpreter gives on every kind of signature, the
general path still refuses what it refused with the same messages, and
`out=` writes results into the caller's arrays and frees what the call
allocated. No timing here: `bench/call_bench.py` measures the overhead."""

from __future__ import annotations

import gc
import subprocess
import sys
import threading

import numpy as np
import pytest

from helpers import REPO, parse_module
from linalg_ext.calling_convention import LIBC
from linalg_ext.jit import TRACKER, JitError, compile_module
from linalg_ext.running import run_function as interpret

KERNELS = """
"memref.global"() <{sym_name = "table", sym_visibility = "private", type = memref<4xf32>, initial_value = dense<[7.0, 8.0, 9.0, 10.0]> : tensor<4xf32>, constant}> : () -> ()
func.func @add(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.add ins(%a, %b : tensor<4xf32>, tensor<4xf32>)
      outs(%e : tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}
func.func @scale2d(%a: tensor<2x3xf64>, %s: f64) -> tensor<2x3xf64> {
  %e = tensor.empty() : tensor<2x3xf64>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>,
                                        affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<2x3xf64>) outs(%e : tensor<2x3xf64>) {
  ^bb0(%x: f64, %o: f64):
    %y = arith.mulf %x, %s : f64
    linalg.yield %y : f64
  } -> tensor<2x3xf64>
  return %r : tensor<2x3xf64>
}
func.func @dyn(%a: tensor<?xf32>, %b: tensor<?xf32>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %a, %c0 : tensor<?xf32>
  %e = tensor.empty(%n) : tensor<?xf32>
  %r = linalg.add ins(%a, %b : tensor<?xf32>, tensor<?xf32>)
      outs(%e : tensor<?xf32>) -> tensor<?xf32>
  return %r : tensor<?xf32>
}
func.func @scalars(%i: i32, %x: f32, %n: index, %h: f16, %f: i1) -> (i32, f32, index, f16, i1) {
  %i2 = arith.addi %i, %i : i32
  %x2 = arith.mulf %x, %x : f32
  %c1 = arith.constant 1 : index
  %n2 = arith.addi %n, %c1 : index
  %h2 = arith.addf %h, %h : f16
  %t = arith.constant true
  %f2 = arith.xori %f, %t : i1
  return %i2, %x2, %n2, %h2, %f2 : i32, f32, index, f16, i1
}
func.func @two(%a: tensor<4xf32>, %s: f32) -> (tensor<4xf32>, f32, tensor<4xf32>) {
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.add ins(%a, %a : tensor<4xf32>, tensor<4xf32>)
      outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %f = tensor.empty() : tensor<4xf32>
  %q = linalg.mul ins(%a, %a : tensor<4xf32>, tensor<4xf32>)
      outs(%f : tensor<4xf32>) -> tensor<4xf32>
  return %r, %s, %q : tensor<4xf32>, f32, tensor<4xf32>
}
func.func @fill(%x: memref<2x4xi32>, %v: i32) {
  linalg.fill ins(%v : i32) outs(%x : memref<2x4xi32>)
  return
}
func.func @same(%x: memref<4xf32>) -> memref<4xf32> {
  return %x : memref<4xf32>
}
func.func @constant() -> memref<4xf32> {
  %g = memref.get_global @table : memref<4xf32>
  return %g : memref<4xf32>
}
func.func @checked(%a: tensor<?xf32>, %i: index) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %v = tensor.extract %a[%i] : tensor<?xf32>
  %r = linalg.fill ins(%v : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}
"""


@pytest.fixture(scope="module")
def module():
    return parse_module(KERNELS)


@pytest.fixture(scope="module")
def compiled(module):
    return compile_module(module)


def _vector(*values: float) -> np.ndarray:
    return np.array(values, np.float32)


def _same_as_interpreter(module, compiled, name, inputs) -> list:
    results = compiled[name](*[np.copy(v) for v in inputs])
    results = list(results) if isinstance(results, tuple) else [results]
    expected = interpret(module, name, [np.copy(v) for v in inputs]).results
    assert len(results) == len(expected)
    for actual, wanted in zip(results, expected, strict=True):
        np.testing.assert_array_equal(actual, wanted)
    return results


def test_fixed_shapes_agree_with_the_interpreter(module, compiled):
    _same_as_interpreter(
        module, compiled, "add", [_vector(1, 2, 3, 4), _vector(0.5, 0.5, -1, 8)]
    )
    a = np.arange(6, dtype=np.float64).reshape(2, 3)
    (result,) = _same_as_interpreter(module, compiled, "scale2d", [a, 1.5])
    assert result.shape == (2, 3) and result.flags.writeable


def test_dynamic_shapes_agree_with_the_interpreter(module, compiled):
    for n in (1, 5, 0):
        a = np.arange(n, dtype=np.float32)
        _same_as_interpreter(module, compiled, "dyn", [a, a * 2])


def test_scalars_agree_with_the_interpreter(module, compiled):
    results = _same_as_interpreter(
        module, compiled, "scalars", [-7, 1.5, 41, np.float16(0.25), True]
    )
    assert results == [-14, 2.25, 42, 0.5, 0]
    assert all(type(r) in (int, float) for r in results)


def test_several_results_agree_with_the_interpreter(module, compiled):
    doubled, scalar, squared = _same_as_interpreter(
        module, compiled, "two", [_vector(1, 2, 3, 4), 0.5]
    )
    assert scalar == 0.5
    doubled[0] = 100  # independent buffers
    np.testing.assert_array_equal(squared, _vector(1, 4, 9, 16))


def test_memref_arguments_are_written_in_place(compiled):
    x = np.zeros((2, 4), np.int32)
    assert compiled["fill"](x, 7) is None
    np.testing.assert_array_equal(x, np.full((2, 4), 7))
    # A read-only array is refused for an argument the function writes.
    x.flags.writeable = False
    with pytest.raises(JitError, match=r"argument #0 of @fill is a read-only array"):
        compiled["fill"](x, 1)


class _Subclass(np.ndarray):
    """An ndarray subclass: never the fast path (exact type only)."""


def test_the_general_path_gives_what_the_fast_path_gives(compiled):
    """Lists, a numpy subclass, views and numpy bool scalars take the general
    path (refused there as before when they do not fit); fast calls around
    them give the same results."""
    add = compiled["add"]
    expected = _vector(2, 4, 6, 8)
    np.testing.assert_array_equal(add([1, 2, 3, 4], _vector(1, 2, 3, 4)), expected)
    np.testing.assert_array_equal(add(_vector(1, 2, 3, 4), [1, 2, 3, 4]), expected)
    sub = np.arange(6, dtype=np.float64).reshape(2, 3).view(_Subclass)
    np.testing.assert_array_equal(compiled["scale2d"](sub, 2.0), 2 * np.asarray(sub))
    fill = compiled["fill"]
    with pytest.raises(JitError, match="needs a row-major contiguous array"):
        fill(np.zeros((2, 8), np.int32)[:, ::2], 3)
    rows = np.ones((4, 4), np.int32)[::2]  # (2, 4): rows 2 apart, not row-major
    with pytest.raises(JitError, match=r"strides \[8, 1\]"):
        fill(rows, 5)
    x = np.zeros((2, 4), np.int32)
    fill(x, 9)
    np.testing.assert_array_equal(x, np.full((2, 4), 9))
    flags = np.array([True, False, True, True])
    (_, _, _, _, flipped) = compiled["scalars"](1, 1.0, 1, 1.0, flags[1])
    assert flipped == 1
    np.testing.assert_array_equal(
        add(_vector(1, 2, 3, 4), _vector(1, 2, 3, 4)), expected
    )


def test_an_extent_of_one_with_any_stride_takes_the_general_path():
    text = """
func.func @rowsum(%x: memref<1x4xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %z = arith.constant 0.0 : f32
  %s = scf.for %j = %c0 to %c4 step %c1 iter_args(%acc = %z) -> f32 {
    %v = memref.load %x[%c0, %j] : memref<1x4xf32>
    %n = arith.addf %acc, %v : f32
    scf.yield %n : f32
  }
  return %s : f32
}
"""
    rowsum = compile_module(parse_module(text))["rowsum"]
    base = np.arange(12, dtype=np.float32).reshape(3, 4)
    assert rowsum(base[2:3]) == 8 + 9 + 10 + 11  # row-major: fast
    odd = base[::2][1:]  # (1, 4) with a row stride of 8 elements
    assert odd.strides != (16, 4)
    assert rowsum(odd) == 8 + 9 + 10 + 11
    assert rowsum(base[:1]) == 0 + 1 + 2 + 3


def test_wrong_arguments_keep_their_messages(compiled):
    add = compiled["add"]
    with pytest.raises(
        JitError,
        match=r"^argument #1 of @add has dtype float64, memref<4xf32> needs float32$",
    ):
        add(_vector(1, 2, 3, 4), np.zeros(4))
    with pytest.raises(
        JitError,
        match=r"^argument #0 of @add has shape \[5\], which does not fit memref<4xf32>$",
    ):
        add(np.zeros(5, np.float32), _vector(1, 2, 3, 4))
    with pytest.raises(JitError, match=r"^@add takes 2 arguments, got 1$"):
        add(_vector(1, 2, 3, 4))
    with pytest.raises(JitError, match=r"argument #0 of @scalars: .* out of range"):
        compiled["scalars"](2**40, 1.0, 1, 1.0, True)


def test_views_of_arguments_and_constants_keep_their_ownership(compiled):
    x = _vector(1, 2, 3, 4)
    same = compiled["same"](x)
    assert np.shares_memory(same, x)
    x.flags.writeable = False
    assert not compiled["same"](x).flags.writeable
    table = compiled["constant"]()
    table[0] = 0
    np.testing.assert_array_equal(compiled["constant"](), _vector(7, 8, 9, 10))


def test_a_result_buffer_is_freed_once_with_its_array(compiled, monkeypatch):
    freed: list[int] = []
    free = LIBC.free

    def counting_free(pointer):
        freed.append(pointer)
        free(pointer)

    monkeypatch.setattr(LIBC, "free", counting_free)
    result = compiled["add"](_vector(1, 2, 3, 4), _vector(1, 1, 1, 1))
    view = result[1:]
    del result
    gc.collect()
    assert freed == [], "freed while a view of it lives"
    np.testing.assert_array_equal(view, _vector(3, 4, 5))
    del view
    gc.collect()
    assert len(freed) == 1

    out = np.empty(4, np.float32)
    assert compiled["add"](_vector(1, 2, 3, 4), _vector(1, 1, 1, 1), out=out) is out
    assert len(freed) == 2, "with out=, the call's buffer is freed at once"


def test_calls_from_several_threads_do_not_mix(compiled):
    errors: list[str] = []

    def work(k: int) -> None:
        for i in range(300):
            a = np.full(4, k, np.float32)
            b = np.full(4, i, np.float32)
            if compiled["add"](a, b)[3] != k + i:
                errors.append(f"thread {k} call {i}")
                return

    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []


def test_a_failed_check_raises_and_the_next_call_works(compiled):
    checked = compiled["checked"]
    with pytest.raises(JitError, match="out of bounds"):
        checked(_vector(1, 2), 5)
    np.testing.assert_array_equal(checked(_vector(1, 2), 1), np.full(4, 2.0))


# --------------------------------------------------------------------------
# out=


def test_out_receives_the_result_and_is_returned(compiled):
    out = np.full(4, -1, np.float32)
    result = compiled["add"](_vector(1, 2, 3, 4), _vector(1, 1, 1, 1), out=out)
    assert result is out
    np.testing.assert_array_equal(out, _vector(2, 3, 4, 5))
    out2 = np.empty((2, 3))
    compiled["scale2d"](np.ones((2, 3)), 3.0, out=out2)
    np.testing.assert_array_equal(out2, np.full((2, 3), 3.0))


def test_out_may_be_an_argument(compiled):
    a = _vector(1, 2, 3, 4)
    compiled["add"](a, _vector(10, 10, 10, 10), out=a)
    np.testing.assert_array_equal(a, _vector(11, 12, 13, 14))


def test_out_may_be_a_strided_view(compiled):
    big = np.zeros(8, np.float32)
    compiled["add"](_vector(1, 2, 3, 4), _vector(0, 0, 0, 0), out=big[::2])
    np.testing.assert_array_equal(big, _vector(1, 0, 2, 0, 3, 0, 4, 0))


def test_out_per_result_with_none_and_dynamic_shapes(compiled):
    first = np.empty(4, np.float32)
    doubled, scalar, squared = compiled["two"](
        _vector(1, 2, 3, 4), 2.0, out=(first, None, None)
    )
    assert doubled is first and scalar == 2.0
    np.testing.assert_array_equal(first, _vector(2, 4, 6, 8))
    np.testing.assert_array_equal(squared, _vector(1, 4, 9, 16))
    out = np.empty(3, np.float32)
    assert compiled["dyn"](_vector(1, 2, 3), _vector(1, 1, 1), out=out) is out
    np.testing.assert_array_equal(out, _vector(2, 3, 4))


def test_out_of_a_view_or_a_constant_is_a_copy(compiled):
    x = _vector(1, 2, 3, 4)
    out = np.empty(4, np.float32)
    compiled["same"](x, out=out)
    out[0] = 50
    assert x[0] == 1
    compiled["constant"](out=out)
    np.testing.assert_array_equal(out, _vector(7, 8, 9, 10))


@pytest.mark.parametrize(
    ("name", "arguments", "out", "message"),
    [
        (
            "add",
            2,
            np.empty(4, np.float64),
            r"^out #0 of @add has dtype float64, memref<4xf32> needs float32$",
        ),
        (
            "add",
            2,
            np.empty(5, np.float32),
            r"^out #0 of @add has shape \[5\], which does not fit memref<4xf32>$",
        ),
        ("add", 2, [1.0] * 4, r"^out= of @add: expected an array or a tuple of 1"),
        ("add", 2, (None, None), r"got tuple of length 2$"),
        ("add", 2, ([0.0] * 4,), r"^out #0 of @add is list, not a numpy array$"),
        (
            "two",
            1,
            (None, np.empty(1, np.float32), None),
            r"^out #1 of @two: result #1 is f32, not a memref$",
        ),
        (
            "dyn",
            2,
            np.empty(2, np.float32),
            r"^out #0 of @dyn has shape \[2\], the result has shape \[4\]$",
        ),
    ],
)
def test_bad_out_is_an_error(compiled, name, arguments, out, message):
    inputs: list = [_vector(1, 2, 3, 4)]
    if arguments == 2:
        inputs.append(_vector(1, 2, 3, 4))
    if name == "two":
        inputs.append(1.0)
    with pytest.raises(JitError, match=message):
        compiled[name](*inputs, out=out)


def test_read_only_out_is_refused(compiled):
    out = np.empty(4, np.float32)
    out.flags.writeable = False
    with pytest.raises(JitError, match=r"^out #0 of @add is a read-only array$"):
        compiled["add"](_vector(1, 2, 3, 4), _vector(1, 2, 3, 4), out=out)


def test_out_leaks_nothing_when_tracked(module):
    compiled = compile_module(module, track_memory=True)
    gc.collect()
    before = TRACKER.current
    out = np.empty(4, np.float32)
    compiled["add"](_vector(1, 2, 3, 4), _vector(1, 1, 1, 1), out=out)
    compiled["two"](_vector(1, 2, 3, 4), 1.0, out=(out, None, None))
    with pytest.raises(JitError, match="the result has shape"):
        compiled["dyn"](_vector(1, 2), _vector(1, 2), out=np.empty(3, np.float32))
    gc.collect()
    assert TRACKER.current == before
    np.testing.assert_array_equal(out, _vector(2, 4, 6, 8))


def test_a_failed_call_leaves_out_alone(compiled):
    out = np.full(4, 3.0, np.float32)
    with pytest.raises(JitError, match="out of bounds"):
        compiled["checked"](_vector(1, 2), 7, out=out)
    np.testing.assert_array_equal(out, np.full(4, 3.0))


def test_the_call_bench_runs_and_checks_its_results():
    # The script checks every result of ours against numpy (and exits 1).
    result = subprocess.run(
        [
            sys.executable,
            str(REPO / "bench" / "call_bench.py"),
            "--quick",
            "--skip-iree",
        ],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr
    for label in ("add 4 f32", "add ? f32 (dynamic, 4)", "scale 4x4 f32"):
        assert label in result.stdout
    assert "IREE: skipped" in result.stdout
