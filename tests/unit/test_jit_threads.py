"""Parallel loops on several threads (`compile_module(threads=N)`,
linalg_ext/jit/parallel.py): modules written as `outline-parallel-loops-ext`
leaves them (a private body over [lo, hi), a declared launch, a public
function calling it), compiled with 1, 2 and 4 threads, against numpy; a
failing iteration, allocations in the body, calls from several Python
threads, and the option's refusals."""

from __future__ import annotations

import ctypes
import threading

import numpy as np
import pytest

from helpers import parse_module
from linalg_ext.jit import JitError, compile_module
from linalg_ext.jit.parallel import (
    LAUNCH_PREFIX,
    PARALLEL_FOR,
    TRAMPOLINE_PREFIX,
    check_threads,
)

STRIDED = "memref<?xf32, strided<[2], offset: 1>>"


def _fill(step: int) -> str:
    """out[i] = i * s and wide[1 + 2 i] = i * s + s (through a strided
    subview) for i in lower, lower + step, ... < upper."""
    return f"""
func.func private @__lx_parallel_body_0(%out: memref<?xf32>, %view: {STRIDED},
    %s: f32, %lo: index, %hi: index) {{
  %step = arith.constant {step} : index
  scf.for %i = %lo to %hi step %step {{
    %ii = arith.index_cast %i : index to i64
    %f = arith.sitofp %ii : i64 to f32
    %v = arith.mulf %f, %s : f32
    memref.store %v, %out[%i] : memref<?xf32>
    %w = arith.addf %v, %s : f32
    memref.store %w, %view[%i] : {STRIDED}
  }}
  return
}}
func.func private @__lx_parallel_launch_0(memref<?xf32>, {STRIDED}, f32, index, index,
    index)
func.func @fill(%out: memref<?xf32>, %wide: memref<?xf32>, %s: f32, %lower: index,
    %upper: index) {{
  %c0 = arith.constant 0 : index
  %step = arith.constant {step} : index
  %n = memref.dim %out, %c0 : memref<?xf32>
  %view = memref.subview %wide[1] [%n] [2] : memref<?xf32> to {STRIDED}
  func.call @__lx_parallel_launch_0(%out, %view, %s, %lower, %upper, %step)
      : (memref<?xf32>, {STRIDED}, f32, index, index, index) -> ()
  return
}}
"""


GATHER = """
func.func private @__lx_parallel_body_0(%x: memref<?xf32>, %idx: memref<?xindex>,
    %out: memref<?xf32>, %size: index, %lo: index, %hi: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %lo to %hi step %c1 {
    %tmp = memref.alloc(%size) : memref<?xf32>
    %j = memref.load %idx[%i] : memref<?xindex>
    %v = memref.load %x[%j] : memref<?xf32>
    memref.store %v, %tmp[%c0] : memref<?xf32>
    %w = memref.load %tmp[%c0] : memref<?xf32>
    memref.store %w, %out[%i] : memref<?xf32>
    memref.dealloc %tmp : memref<?xf32>
  }
  return
}
func.func private @__lx_parallel_launch_0(memref<?xf32>, memref<?xindex>,
    memref<?xf32>, index, index, index, index)
func.func @gather(%x: memref<?xf32>, %idx: memref<?xindex>, %out: memref<?xf32>,
    %size: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %out, %c0 : memref<?xf32>
  func.call @__lx_parallel_launch_0(%x, %idx, %out, %size, %c0, %n, %c1)
      : (memref<?xf32>, memref<?xindex>, memref<?xf32>, index, index, index,
         index) -> ()
  return
}
"""

_compiled: dict[tuple[str, int], object] = {}


def _compile(text: str, threads: int, **options):
    """Compiled once per test session and (text, threads) without options."""
    if options:
        return compile_module(parse_module(text), threads=threads, **options)
    key = (text, threads)
    if key not in _compiled:
        _compiled[key] = compile_module(parse_module(text), threads=threads)
    return _compiled[key]


def _expected_fill(size: int, s: float, lower: int, upper: int, step: int):
    out = np.zeros(size, np.float32)
    wide = np.zeros(2 * size + 1, np.float32)
    i = np.arange(lower, upper, step)
    values = i.astype(np.float32) * np.float32(s)
    out[i] = values
    wide[1 + 2 * i] = values + np.float32(s)
    return out, wide


@pytest.mark.parametrize("threads", [1, 2, 4])
@pytest.mark.parametrize(
    ("step", "lower", "upper"),
    [
        (1, 0, 1000),
        (3, 0, 1000),  # upper not a multiple of the step
        (3, 5, 998),
        (7, 2, 9),  # 1 iteration: fewer than threads
        (1, 0, 3),  # 3 iterations, 4 threads
        (1, 10, 10),  # none
        (2, 20, 4),  # upper below lower: none
    ],
)
def test_a_parallel_loop_computes_what_numpy_does(threads, step, lower, upper):
    compiled = _compile(_fill(step), threads)
    size = 1000
    out = np.zeros(size, np.float32)
    wide = np.zeros(2 * size + 1, np.float32)
    compiled["fill"](out, wide, 0.75, lower, upper)
    expected_out, expected_wide = _expected_fill(size, 0.75, lower, upper, step)
    np.testing.assert_array_equal(out, expected_out)
    np.testing.assert_array_equal(wide, expected_wide)


def test_the_launch_is_defined_around_the_runtime():
    llvm_ir = _compile(_fill(3), 4).llvm_ir
    assert f'define internal void @"{LAUNCH_PREFIX}0"' in llvm_ir
    assert f'define internal void @"{TRAMPOLINE_PREFIX}0"' in llvm_ir
    assert f'define internal void @"{PARALLEL_FOR}"' in llvm_ir
    assert "pthread_create" in llvm_ir
    # With one thread no thread is ever created.
    assert "pthread_create" not in _compile(_fill(3), 1).llvm_ir


def _gather_inputs(n: int, bad: list[int]):
    x = np.arange(n, dtype=np.float32) * 2
    idx = np.arange(n, dtype=np.int64)[::-1].copy()
    for i in bad:
        idx[i] = n + i  # out of bounds, and says which iteration failed
    return x, idx, np.zeros(n, np.float32)


def _out_of_bounds(index: int, n: int) -> str:
    """The interpreter's message for `x[index]` of a memref<?xf32> of n."""
    return f"memref.load: index [{index}] is out of bounds of shape [{n}]"


def _error(compiled, *arguments) -> str:
    with pytest.raises(JitError) as error:
        compiled["gather"](*arguments)
    return str(error.value)


@pytest.mark.parametrize(
    "bad",
    [
        [777],  # in a worker's chunk
        [5],  # in the calling thread's chunk
        [300, 777, 999],  # several: the first, as a sequential run
        [999],  # the last iteration
    ],
)
def test_a_failing_iteration_gives_the_sequential_message(bad):
    n = 1000
    sequential = _error(_compile(GATHER, 1), *_gather_inputs(n, bad), 4)
    assert sequential == _out_of_bounds(n + bad[0], n)
    for threads in (2, 4):
        compiled = _compile(GATHER, threads)
        assert _error(compiled, *_gather_inputs(n, bad), 4) == sequential
        # The process goes on, and so does the module.
        x, idx, out = _gather_inputs(n, [])
        compiled["gather"](x, idx, out, 4)
        np.testing.assert_array_equal(out, x[idx])


def _bytes_in_use() -> int:
    """What glibc's malloc has handed out, over all arenas (mallinfo2)."""

    class MallInfo2(ctypes.Structure):
        _fields_ = [
            (name, ctypes.c_size_t)
            for name in (
                "arena",
                "ordblks",
                "smblks",
                "hblks",
                "hblkhd",
                "usmblks",
                "fsmblks",
                "uordblks",
                "fordblks",
                "keepcost",
            )
        ]

    libc = ctypes.CDLL(None)
    libc.mallinfo2.restype = MallInfo2
    info = libc.mallinfo2()
    return info.uordblks + info.hblkhd


def test_allocations_in_the_body_and_a_failure_that_holds_one():
    n, size = 512, 1 << 20  # a 4 MiB buffer per iteration
    compiled = _compile(GATHER, 2)
    x, idx, out = _gather_inputs(n, [])
    compiled["gather"](x, idx, out, size)
    np.testing.assert_array_equal(out, x[idx])
    before = _bytes_in_use()
    for _ in range(20):
        # Both chunks fail, each while holding its iteration's buffer.
        message = _error(compiled, *_gather_inputs(n, [100, 400]), size)
        assert message == _out_of_bounds(n + 100, n)
    # 20 calls that leaked 2 buffers each would hold 160 MiB more.
    assert _bytes_in_use() - before < 16 << 20


def test_tracking_runs_the_loop_sequentially():
    compiled = _compile(GATHER, 4, track_memory=True)
    assert "pthread_create" not in compiled.llvm_ir
    n = 1000
    assert _error(compiled, *_gather_inputs(n, [777]), 4) == _out_of_bounds(n + 777, n)
    x, idx, out = _gather_inputs(n, [])
    compiled["gather"](x, idx, out, 4)
    np.testing.assert_array_equal(out, x[idx])


def test_calls_from_two_python_threads_at_once():
    compiled = _compile(_fill(3), 4)
    failures: list[BaseException] = []

    def work(s: float) -> None:
        try:
            for _ in range(50):
                out = np.zeros(1000, np.float32)
                wide = np.zeros(2001, np.float32)
                compiled["fill"](out, wide, s, 1, 1000)
                expected_out, expected_wide = _expected_fill(1000, s, 1, 1000, 3)
                np.testing.assert_array_equal(out, expected_out)
                np.testing.assert_array_equal(wide, expected_wide)
        except BaseException as error:  # reported by the main thread
            failures.append(error)

    threads = [threading.Thread(target=work, args=(s,)) for s in (0.5, -3.0)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not failures


def test_failing_calls_from_two_python_threads_at_once():
    compiled = _compile(GATHER, 2)
    messages: list[str] = []
    lock = threading.Lock()

    def work(bad: int) -> None:
        for _ in range(30):
            try:
                compiled["gather"](*_gather_inputs(1000, [bad]), 4)
            except JitError as error:
                with lock:
                    messages.append(str(error))

    threads = [threading.Thread(target=work, args=(bad,)) for bad in (3, 777)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(set(messages)) == [
        _out_of_bounds(1003, 1000),
        _out_of_bounds(1777, 1000),
    ]
    assert len(messages) == 60


@pytest.mark.parametrize("threads", [0, -2, 1.5, True, "4", None])
def test_threads_must_be_a_positive_int(threads):
    with pytest.raises(JitError) as error:
        compile_module(parse_module(_fill(1)), threads=threads)
    assert str(error.value) == (
        f"compile_module: threads must be an int >= 1, not {threads!r}"
    )
    assert check_threads(3) == 3


def test_a_launch_without_its_body_is_refused():
    text = """
func.func private @__lx_parallel_launch_0(memref<?xf32>, index, index, index)
func.func @f(%out: memref<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  func.call @__lx_parallel_launch_0(%out, %c0, %n, %c1)
      : (memref<?xf32>, index, index, index) -> ()
  return
}
"""
    with pytest.raises(JitError) as error:
        compile_module(parse_module(text), threads=2)
    assert str(error.value) == (
        "@__lx_parallel_launch_0: no body @__lx_parallel_body_0 defined with "
        "arguments (ptr, ptr, i64, i64, i64, i64, i64)"
    )


ROWS = """
func.func @rows(%x: memref<?x?xf32>, %idx: memref<?xindex>, %out: memref<?xf32>,
    %s: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %out, %c0 : memref<?xf32>
  %m = memref.dim %x, %c1 : memref<?x?xf32>
  %zero = arith.constant 0.0 : f32
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %row = memref.load %idx[%i] : memref<?xindex>
    %r = scf.for %j = %c0 to %m step %c1 iter_args(%acc = %zero) -> f32 {
      %v = memref.load %x[%row, %j] : memref<?x?xf32>
      %p = arith.mulf %v, %s : f32
      %a = arith.addf %acc, %p : f32
      scf.yield %a : f32
    }
    memref.store %r, %out[%i] : memref<?xf32>
    scf.reduce
  }
  return
}
"""


def test_an_scf_parallel_runs_on_threads_once_outlined():
    rng = np.random.default_rng(0)
    x = rng.standard_normal((300, 64), dtype=np.float32)
    idx = rng.integers(0, 300, 1000).astype(np.int64)
    results = {}
    for threads in (1, 2, 4):
        compiled = _compile(ROWS, threads)
        assert ("pthread_create" in compiled.llvm_ir) == (threads > 1)
        out = np.zeros(1000, np.float32)
        compiled["rows"](x, idx, out, 0.5)
        results[threads] = out
        bad = idx.copy()
        bad[[640, 901]] = 300 + np.array([640, 901])
        with pytest.raises(JitError) as error:
            compiled["rows"](x, bad, out, 0.5)
        assert str(error.value) == (
            "memref.load: index [940, 0] is out of bounds of shape [300, 64]"
        )
    # The same loops in the same order: the same bits.
    np.testing.assert_array_equal(results[2], results[1])
    np.testing.assert_array_equal(results[4], results[1])
    np.testing.assert_allclose(
        results[1], (x[idx] * 0.5).sum(axis=1), rtol=1e-5, atol=1e-5
    )


STEP = """
func.func @f(%out: memref<?xf32>, %lower: index, %step: index) {
  %c0 = arith.constant 0 : index
  %n = memref.dim %out, %c0 : memref<?xf32>
  %one = arith.constant 1.0 : f32
  scf.parallel (%i) = (%lower) to (%n) step (%step) {
    memref.store %one, %out[%i] : memref<?xf32>
    scf.reduce
  }
  return
}
"""


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("lower", [0, 9])  # with iterations, and none
@pytest.mark.parametrize("step", [0, -2])
def test_a_step_that_is_not_positive_fails_as_sequentially(threads, lower, step):
    compiled = _compile(STEP, threads)
    with pytest.raises(JitError) as error:
        compiled["f"](np.zeros(5, np.float32), lower, step)
    assert str(error.value) == f"scf.parallel: steps ({step},) are not all positive"


NESTED = """
func.func @inner(%out: memref<?xf32>, %row: index, %bad: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %out, %c0 : memref<?xf32>
  scf.parallel (%j) = (%c0) to (%n) step (%c1) {
    %is = arith.cmpi eq, %j, %bad : index
    %k = arith.select %is, %n, %j : index
    %r = arith.index_cast %row : index to i64
    %f = arith.sitofp %r : i64 to f32
    memref.store %f, %out[%k] : memref<?xf32>
    scf.reduce
  }
  return
}
func.func @outer(%out: memref<?x?xf32>, %bad_row: index, %bad: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %none = arith.constant -1 : index
  %n = memref.dim %out, %c0 : memref<?x?xf32>
  %m = memref.dim %out, %c1 : memref<?x?xf32>
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %row = memref.subview %out[%i, 0] [1, %m] [1, 1]
        : memref<?x?xf32> to memref<?xf32, strided<[1], offset: ?>>
    %copy = memref.alloc(%m) : memref<?xf32>
    %is = arith.cmpi eq, %i, %bad_row : index
    %b = arith.select %is, %bad, %none : index
    func.call @inner(%copy, %i, %b) : (memref<?xf32>, index, index) -> ()
    memref.copy %copy, %row : memref<?xf32> to memref<?xf32, strided<[1], offset: ?>>
    memref.dealloc %copy : memref<?xf32>
    scf.reduce
  }
  return
}
"""


@pytest.mark.parametrize("threads", [1, 2, 4])
def test_a_parallel_loop_in_a_function_called_from_one(threads):
    """Launches nest: the inner loop's workers start from a worker; a
    failure in one ends its chunk of the outer loop, then the call."""
    compiled = _compile(NESTED, threads)
    out = np.zeros((6, 100), np.float32)
    compiled["outer"](out, 0, -1)
    np.testing.assert_array_equal(
        out, np.repeat(np.arange(6, dtype=np.float32), 100).reshape(6, 100)
    )
    with pytest.raises(JitError) as error:
        compiled["outer"](out, 4, 70)
    assert (
        str(error.value) == "memref.store: index [100] is out of bounds of shape [100]"
    )


MATMUL = """
func.func @mm(%a: memref<200x96xf32>, %b: memref<96x130xf32>, %c: memref<200x130xf32>) {
  linalg.matmul ins(%a, %b : memref<200x96xf32>, memref<96x130xf32>)
      outs(%c : memref<200x130xf32>)
  return
}
"""


def test_a_matmul_runs_its_row_blocks_on_threads():
    rng = np.random.default_rng(1)
    a = rng.standard_normal((200, 96), dtype=np.float32)
    b = rng.standard_normal((96, 130), dtype=np.float32)
    results = []
    for threads in (1, 2, 4):
        compiled = _compile(MATMUL, threads)
        assert (LAUNCH_PREFIX in compiled.llvm_ir) == (threads > 1)
        c = np.ones((200, 130), np.float32)
        compiled["mm"](a, b, c)
        results.append(c)
    # Each row block computes what it did on one thread, bit for bit.
    np.testing.assert_array_equal(results[1], results[0])
    np.testing.assert_array_equal(results[2], results[0])
    np.testing.assert_allclose(results[0], 1 + a @ b, rtol=1e-4, atol=1e-4)
