"""When a compiled call fails: a failing check (`rtcheck.assert`,
`cf.assert`) or allocation ends the call and raises `JitError` with the
interpreter's message, and the process goes on; calls from several threads,
per-call memory tracking, mutable globals, and the JIT API's refusals."""

from __future__ import annotations

import ctypes
import threading

import numpy as np
import pytest
from xdsl.parser import Parser
from xdsl.utils.exceptions import InterpretationError

from helpers import parse_module
from linalg_ext.context import make_context
from linalg_ext.jit import TRACKER, JitError, compile_module, run_function
from linalg_ext.running import run_function as interpret

CHECKS = """
func.func @load(%x: memref<?xi32>, %i: index, %k: i32, %flag: i1) -> i32 {
  %c0 = arith.constant 0 : index
  %n = memref.dim %x, %c0 : memref<?xi32>
  %in = arith.cmpi ult, %i, %n : index
  rtcheck.assert %in, "memref.load: index [{}] is out of bounds of shape ({},), k = {}, flag = {}" (%i, %n, %k, %flag : index, index, i32, i1)
  %v = memref.load %x[%i] : memref<?xi32>
  %small = arith.cmpi slt, %v, %k : i32
  cf.assert %small, "value {x} is not below k"
  return %v : i32
}
"""


def _interpreter_error(module, name: str, inputs: list) -> str:
    with pytest.raises(InterpretationError) as error:
        interpret(module, name, inputs)
    return str(error.value)


def _jit_error(compiled, name: str, inputs: list) -> str:
    with pytest.raises(JitError) as error:
        compiled[name](*inputs)
    return str(error.value)


@pytest.mark.parametrize(
    "inputs",
    [
        [np.arange(4, dtype=np.int32), 7, -3, True],  # rtcheck.assert
        [np.arange(4, dtype=np.int32), -1, 2**31 - 1, False],  # index -1 is huge
        [np.arange(4, dtype=np.int32), 3, 2, True],  # cf.assert (braces kept)
    ],
)
def test_a_failing_check_raises_the_interpreters_message(inputs):
    module = parse_module(CHECKS)
    compiled = compile_module(module)
    expected = _interpreter_error(module, "load", [np.copy(inputs[0]), *inputs[1:]])
    assert _jit_error(compiled, "load", inputs) == expected
    assert compiled["load"](np.arange(4, dtype=np.int32), 1, 5, False) == 1


def test_the_message_of_each_check_kind():
    compiled = compile_module(parse_module(CHECKS))
    x = np.arange(4, dtype=np.int32)
    assert _jit_error(compiled, "load", [x, 9, -3, True]) == (
        "memref.load: index [9] is out of bounds of shape (4,), k = -3, flag = -1"
    )
    assert _jit_error(compiled, "load", [x, 3, 1, True]) == (
        "cf.assert failed: value {x} is not below k"
    )


LEAKY_FAILURE = """
func.func @fill_then_check(%n: index, %limit: index) -> memref<?xf32> {
  %b = memref.alloc(%n) : memref<?xf32>
  %tmp = memref.alloc(%n) : memref<?xf32>
  %one = arith.constant 1.0 : f32
  linalg.fill ins(%one : f32) outs(%b : memref<?xf32>)
  %ok = arith.cmpi ule, %n, %limit : index
  rtcheck.assert %ok, "{} elements exceed the limit {}" (%n, %limit : index, index)
  memref.dealloc %tmp : memref<?xf32>
  return %b : memref<?xf32>
}
"""


@pytest.mark.parametrize("tracked", [False, True])
def test_twenty_failing_calls_then_a_good_one(tracked):
    compiled = compile_module(parse_module(LEAKY_FAILURE), track_memory=tracked)
    before = TRACKER.current
    for trial in range(20):
        message = _jit_error(compiled, "fill_then_check", [100 + trial, 10])
        assert message == f"{100 + trial} elements exceed the limit 10"
    if tracked:
        # What a failed call had allocated is freed.
        assert TRACKER.current == before
    run = run_function(compiled, "fill_then_check", [5, 10])
    np.testing.assert_array_equal(run.results[0], np.ones(5, np.float32))
    assert run.leaks == []


class _MallInfo2(ctypes.Structure):
    _fields_ = [
        (name, ctypes.c_size_t)
        for name in (
            "arena ordblks smblks hblks hblkhd usmblks fsmblks uordblks fordblks "
            "keepcost"
        ).split()
    ]


def _malloc_in_use() -> int:
    """Bytes glibc's malloc has handed out and not got back."""
    libc = ctypes.CDLL(None)
    libc.mallinfo2.restype = _MallInfo2
    info = libc.mallinfo2()
    return info.uordblks + info.hblkhd


def test_a_failed_call_frees_what_it_held_without_tracking():
    compiled = compile_module(parse_module(LEAKY_FAILURE))
    n = 1 << 20  # two buffers of 4 MiB each call
    _jit_error(compiled, "fill_then_check", [n, 10])
    before = _malloc_in_use()
    for trial in range(20):
        _jit_error(compiled, "fill_then_check", [n + trial, 10])
    assert _malloc_in_use() - before < 4 << 20  # 160 MiB if they leaked


HUGE = """
func.func @big(%n: index) -> f32 {
  %b = memref.alloc(%n) : memref<?xf32>
  %c0 = arith.constant 0 : index
  %one = arith.constant 1.0 : f32
  memref.store %one, %b[%c0] : memref<?xf32>
  %v = memref.load %b[%c0] : memref<?xf32>
  memref.dealloc %b : memref<?xf32>
  return %v : f32
}
"""


@pytest.mark.parametrize("tracked", [False, True])
def test_an_allocation_that_fails_is_an_error(tracked):
    module = parse_module(HUGE)
    compiled = compile_module(module, track_memory=tracked)
    n = 1 << 60  # 4 EiB of f32
    message = _jit_error(compiled, "big", [n])
    assert message == f"memref.alloc: cannot allocate {4 * n} bytes"
    assert message == _interpreter_error(module, "big", [n])
    assert compiled["big"](16) == 1.0


WORK = """
func.func @work(%x: memref<?xf32>) -> (memref<?xf32>, f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?xf32>
  %tmp = memref.alloc(%n) : memref<?xf32>
  %out = memref.alloc(%n) : memref<?xf32>
  %leak = memref.alloc(%n) : memref<?xf32>
  %z = arith.constant 0.0 : f32
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> f32 {
    %v = memref.load %x[%i] : memref<?xf32>
    %w = arith.mulf %v, %v : f32
    memref.store %w, %tmp[%i] : memref<?xf32>
    %u = memref.load %tmp[%i] : memref<?xf32>
    memref.store %u, %out[%i] : memref<?xf32>
    %a = arith.addf %acc, %u : f32
    scf.yield %a : f32
  }
  %limit = arith.constant 2000 : index
  %ok = arith.cmpi ult, %n, %limit : index
  rtcheck.assert %ok, "too long: {}" (%n : index)
  memref.dealloc %tmp : memref<?xf32>
  return %out, %s : memref<?xf32>, f32
}
"""


def _in_threads(count: int, work) -> None:
    errors: list[BaseException] = []

    def run(k: int) -> None:
        try:
            work(k)
        except BaseException as error:  # reported by the test
            errors.append(error)

    threads = [threading.Thread(target=run, args=(k,)) for k in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors, errors


def test_eight_threads_get_the_serial_results_and_their_own_leaks():
    compiled = compile_module(parse_module(WORK), track_memory=True)
    rng = np.random.default_rng(0)
    # Some calls fail (3000 elements), on every thread.
    lengths = [500 + 37 * i if i % 5 else 3000 for i in range(48)]
    inputs = [rng.standard_normal(n, dtype=np.float32) for n in lengths]

    def once(x: np.ndarray):
        try:
            return run_function(compiled, "work", [x])
        except JitError as error:
            return str(error)

    serial = [once(x) for x in inputs]
    parallel: list = [None] * len(inputs)

    def work(k: int) -> None:
        for _ in range(5):
            for i in range(k, len(inputs), 8):
                parallel[i] = once(inputs[i])

    _in_threads(8, work)
    for n, s, p in zip(lengths, serial, parallel, strict=True):
        if n >= 2000:
            assert s == p == f"too long: {n}"
            continue
        np.testing.assert_array_equal(p.results[0], s.results[0])
        assert p.results[1] == s.results[1]
        # The call's own leak only: not those of the calls beside it.
        assert p.leaks == [f"{4 * n} bytes allocated by the compiled @work"]


GLOBALS = """
memref.global "private" @counter : memref<1xi64> = dense<5>
memref.global "private" @scale : memref<1xi64> = dense<3>
memref.global "private" constant @table : memref<3xi64> = dense<[7, 8, 9]>
func.func @bump() -> i64 {
  %c0 = arith.constant 0 : index
  %g = memref.get_global @counter : memref<1xi64>
  %s = memref.get_global @scale : memref<1xi64>
  %t = memref.get_global @table : memref<3xi64>
  %v = memref.load %g[%c0] : memref<1xi64>
  %k = memref.load %s[%c0] : memref<1xi64>
  %e = memref.load %t[%c0] : memref<3xi64>
  %p = arith.muli %k, %e : i64
  %w = arith.addi %v, %p : i64
  memref.store %w, %g[%c0] : memref<1xi64>
  return %w : i64
}
"""


def test_mutable_globals_start_from_their_initial_values_on_every_call():
    module = parse_module(GLOBALS)
    compiled = compile_module(module)
    expected = interpret(module, "bump", []).results[0]
    assert expected == 5 + 3 * 7
    assert [compiled["bump"]() for _ in range(3)] == [expected] * 3
    # Only @counter is written: only it is reset.
    assert "counter.lx_initial" in compiled.llvm_ir
    assert "scale.lx_initial" not in compiled.llvm_ir
    results: list[int] = []

    def work(k: int) -> None:
        for _ in range(50):
            results.append(compiled["bump"]())

    _in_threads(8, work)
    assert results == [expected] * 400


def _parse_unverified(text: str):
    return Parser(make_context(), text).parse_module()


@pytest.mark.parametrize("module", ["func.func @f() { return }", None, 3])
def test_compile_module_takes_a_module_only(module):
    with pytest.raises(JitError, match="takes a builtin.module"):
        compile_module(module)


def test_a_module_that_does_not_verify_is_not_compiled():
    module = _parse_unverified(
        """
func.func @f(%x: i32) -> i32 {
  %c = arith.constant 1 : i64
  return %c : i64
}
"""
    )
    with pytest.raises(JitError) as error:
        compile_module(module)
    message = str(error.value)
    assert "\n" not in message
    assert message.startswith("the module does not verify: 'func.return' op ")
    assert "expected [i32], got [i64]" in message


ARGUMENTS = """
func.func @g(%a: i32, %b: f32, %x: memref<4xf32>, %y: memref<4xf32>, %t: tensor<4xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %v = memref.load %x[%c0] : memref<4xf32>
  %sub = memref.subview %y[1] [2] [1] : memref<4xf32> to memref<2xf32, strided<[1], offset: 1>>
  memref.store %v, %sub[%c0] : memref<2xf32, strided<[1], offset: 1>>
  %e = tensor.extract %t[%c0] : tensor<4xf32>
  %s = arith.addf %e, %b : f32
  return %s : f32
}
"""


def _read_only(values) -> np.ndarray:
    array = np.array(values, np.float32)
    array.flags.writeable = False
    return array


@pytest.mark.parametrize(
    ("a", "b", "message"),
    [
        (1.5, 1.0, "argument #0 of @g has dtype float64, i32 needs int32"),
        ("3", 1.0, "argument #0 of @g has dtype <U1, i32 needs int32"),
        (None, 1.0, "argument #0 of @g has dtype object, i32 needs int32"),
        (1 << 40, 1.0, "argument #0 of @g: 1099511627776 is out of range of i32"),
        (True, 1.0, "argument #0 of @g has dtype bool, i32 needs int32"),
        (1, 1e40, "argument #1 of @g: 1e+40 is out of range of f32"),
        (1, "x", "argument #1 of @g has dtype <U1, f32 needs float32"),
    ],
)
def test_a_scalar_the_type_does_not_hold_is_refused_as_by_the_interpreter(
    a, b, message
):
    module = parse_module(ARGUMENTS)
    compiled = compile_module(module)
    arrays = [np.zeros(4, np.float32) for _ in range(3)]
    assert _jit_error(compiled, "g", [a, b, *arrays]) == message
    assert _interpreter_error(module, "g", [a, b, *arrays]) == message


def test_a_read_only_array_is_refused_where_the_function_may_write_it():
    compiled = compile_module(parse_module(ARGUMENTS))
    x, t = _read_only([2, 0, 0, 0]), _read_only([1, 0, 0, 0])
    y = np.zeros(4, np.float32)
    # x is only read, t is a tensor (never written): read-only arrays do.
    assert compiled["g"](-1, 0.5, x, y, t) == 1.5
    np.testing.assert_array_equal(y, [0, 2, 0, 0])
    # y is written through a view.
    message = _jit_error(compiled, "g", [1, 0.5, x, _read_only(y), t])
    assert message.startswith(
        "argument #3 of @g is a read-only array, and the function may write"
    )


def test_arguments_that_are_not_arrays_are_refused():
    compiled = compile_module(parse_module(ARGUMENTS))
    y, t = np.zeros(4, np.float32), np.zeros(4, np.float32)
    for bad in ("abc", None, 3.0):
        message = _jit_error(compiled, "g", [1, 0.5, bad, y, t])
        assert message.startswith("argument #2 of @g")
    # A list is an array of it (a new one: the function only reads x).
    assert compiled["g"](1, 0.5, [1, 2, 3, 4], y, t) == 0.5


DIVISION = """
func.func @divide(%x: memref<?xi32>, %i: index, %b: i32) -> i32 {
  %a = memref.load %x[%i] : memref<?xi32>
  %q = arith.divsi %a, %b : i32
  return %q : i32
}
"""


@pytest.mark.parametrize(
    "inputs",
    [
        [np.array([7, 8], np.int32), 5, 1],  # out of bounds
        [np.array([7, 8], np.int32), 0, 0],  # division by zero
        [np.array([-(2**31), 8], np.int32), 0, -1],  # overflow
    ],
)
def test_runtime_checks_fail_as_the_interpreter(inputs):
    module = parse_module(DIVISION)
    compiled = compile_module(module)  # runtime_checks=True
    expected = _interpreter_error(module, "divide", inputs)
    assert _jit_error(compiled, "divide", inputs) == expected


def test_runtime_checks_can_be_left_out():
    module = parse_module(DIVISION)
    checked = compile_module(module)
    unchecked = compile_module(module, runtime_checks=False)
    assert "_lx_fail" in checked.llvm_ir and "_lx_fail" not in unchecked.llvm_ir
    x = np.array([7, -9], np.int32)
    assert checked["divide"](x, 1, 2) == unchecked["divide"](x, 1, 2) == -4
