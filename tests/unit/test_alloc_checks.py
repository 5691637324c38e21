"""Run-time checks of allocation sizes (issue 16): a `memref.alloc` /
`memref.alloca` whose dynamic size is negative, or whose byte size does not
fit in int64 (compiled code's size computation would wrap and a too small
buffer be allocated), fails compiled with the interpreter's message, and so
does one too large for the machine's memory (`malloc` refuses it); the
process goes on. The interpreter says a byte size beyond int64 by its
shape, which compiled code can print too.

Also: `bufferization.alloc_tensor` is a fresh buffer, filled as
`tensor.empty` is, so `linalg-ext-check` names reads of it.
"""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.dialects.builtin import ModuleOp

from helpers import interpreter_error, jit_error, parse_module, print_module
from linalg_ext.checking import describe_uninitialised_reads, uninitialised_reads
from linalg_ext.jit import compile_module
from linalg_ext.jit.compiled import JitError, JitModule
from linalg_ext.pipelines import apply_pipeline
from linalg_ext.running import run_function
from linalg_ext.semantics.fresh_buffers import FreshFill, filling

PROGRAMS = """
func.func @alloc(%n: index, %m: index) -> f32 {
  %b = memref.alloc(%n, %m) : memref<?x3x?xf32>
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %one = arith.constant 1.5 : f32
  memref.store %one, %b[%c0, %c2, %c0] : memref<?x3x?xf32>
  %v = memref.load %b[%c0, %c2, %c0] : memref<?x3x?xf32>
  memref.dealloc %b : memref<?x3x?xf32>
  return %v : f32
}
func.func @alloca(%n: index) -> i64 {
  %b = memref.alloca(%n) : memref<?xi64>
  %c0 = arith.constant 0 : index
  %seven = arith.constant 7 : i64
  memref.store %seven, %b[%c0] : memref<?xi64>
  %v = memref.load %b[%c0] : memref<?xi64>
  return %v : i64
}
func.func @index_alloc(%n: index) -> index {
  %b = memref.alloc(%n) : memref<2x?xindex>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  memref.store %n, %b[%c1, %c0] : memref<2x?xindex>
  %v = memref.load %b[%c1, %c0] : memref<2x?xindex>
  memref.dealloc %b : memref<2x?xindex>
  return %v : index
}
"""

OVERFLOW = "cannot allocate shape [{}] of {}-byte elements (more than 2**63 - 1 bytes)"

# name -> (function, failing inputs, expected message, valid inputs)
CASES: dict[str, tuple[str, list[int], str, list[int]]] = {
    "alloc negative first size": (
        "alloc",
        [-1, 2],
        "memref.alloc: negative size in [-1, 3, 2]",
        [1, 2],
    ),
    "alloc negative second size": (
        "alloc",
        [2, -5],
        "memref.alloc: negative size in [2, 3, -5]",
        [2, 5],
    ),
    "alloc negative and huge": (
        "alloc",
        [1 << 62, -1],
        "memref.alloc: negative size in [4611686018427387904, 3, -1]",
        [1, 1],
    ),
    "alloc 2**62 f32 wraps to 0 bytes": (
        "alloc",
        [1 << 62, 1],
        "memref.alloc: " + OVERFLOW.format("4611686018427387904, 3, 1", 4),
        [1, 1],
    ),
    "alloc overflow in the last size": (
        "alloc",
        [1 << 40, 1 << 40],
        "memref.alloc: " + OVERFLOW.format("1099511627776, 3, 1099511627776", 4),
        [3, 4],
    ),
    "alloc just past int64": (
        # 3 * 4 * n > 2**63 - 1 with n = (2**63 - 1) // 12 + 1
        "alloc",
        [((1 << 63) - 1) // 12 + 1, 1],
        "memref.alloc: " + OVERFLOW.format(f"{((1 << 63) - 1) // 12 + 1}, 3, 1", 4),
        [1, 3],
    ),
    "alloca overflow": (
        "alloca",
        [1 << 61],
        "memref.alloca: " + OVERFLOW.format("2305843009213693952", 8),
        [4],
    ),
    "alloca negative": (
        "alloca",
        [-3],
        "memref.alloca: negative size in [-3]",
        [1],
    ),
    "index elements overflow": (
        "index_alloc",
        [1 << 59],
        "memref.alloc: " + OVERFLOW.format("2, 576460752303423488", 8),
        [3],
    ),
}


@pytest.fixture(scope="module")
def plain() -> ModuleOp:
    return parse_module(PROGRAMS)


@pytest.fixture(scope="module")
def compiled(plain: ModuleOp) -> JitModule:
    return compile_module(plain.clone())


@pytest.mark.parametrize("case", CASES)
def test_interpreter_checked_and_compiled_agree(
    case: str, plain: ModuleOp, compiled: JitModule
):
    name, failing, message, valid = CASES[case]
    checked = plain.clone()
    apply_pipeline("insert-runtime-checks", checked)
    assert interpreter_error(plain, name, failing) == message
    assert interpreter_error(checked, name, failing) == message
    assert jit_error(compiled, name, failing) == message
    # The process goes on, and valid sizes give the program's result.
    expected = run_function(plain, name, valid).results[0]
    assert run_function(checked, name, valid).results[0] == expected
    assert compiled[name](*valid) == expected


def test_a_zero_size_makes_any_other_size_fine(plain: ModuleOp, compiled: JitModule):
    """0 bytes whatever the other size: no overflow, as the interpreter
    says (then the store is out of bounds of the empty buffer)."""
    for sizes in ([0, 1 << 62], [1 << 62, 0]):
        message = interpreter_error(plain, "alloc", sizes)
        assert message.startswith("memref.store: index [0, 2, 0] is out of bounds")
        assert jit_error(compiled, "alloc", sizes) == message


def test_too_large_for_memory_is_malloc_failing(plain: ModuleOp, compiled: JitModule):
    """A byte size that fits in int64 but not in memory: the interpreter
    refuses it before trying, compiled code when `malloc` fails; both say
    the bytes."""
    sizes = [1 << 58, 2]  # 3 * 4 * 2**59 bytes = 6 EiB
    message = f"memref.alloc: cannot allocate {12 * (1 << 59)} bytes"
    assert interpreter_error(plain, "alloc", sizes) == message
    assert jit_error(compiled, "alloc", sizes) == message
    assert compiled["alloc"](2, 2) == np.float32(1.5)


STATIC = """
func.func @static() -> f32 {
  %b = memref.alloc() : memref<4611686018427387904x2xf32>
  %c0 = arith.constant 0 : index
  %v = memref.load %b[%c0, %c0] : memref<4611686018427387904x2xf32>
  return %v : f32
}
"""


def test_a_static_shape_beyond_int64_always_fails():
    module = parse_module(STATIC)
    message = "memref.alloc: " + OVERFLOW.format("4611686018427387904, 2", 4)
    assert interpreter_error(module, "static", []) == message
    checked = module.clone()
    apply_pipeline("insert-runtime-checks", checked)
    assert f'"{message}"' in print_module(checked)
    assert interpreter_error(checked, "static", []) == message
    # Compiled, the lowering cannot even write the size as an i64 constant:
    # refused at compile time, as a JitError too.
    with pytest.raises(JitError):
        compile_module(module)["static"]()


def test_static_shapes_that_fit_get_no_check():
    module = parse_module(
        """
func.func @f() -> f32 {
  %b = memref.alloc() : memref<4x8xf32>
  %c0 = arith.constant 0 : index
  %one = arith.constant 1.0 : f32
  memref.store %one, %b[%c0, %c0] : memref<4x8xf32>
  %v = memref.load %b[%c0, %c0] : memref<4x8xf32>
  memref.dealloc %b : memref<4x8xf32>
  return %v : f32
}
"""
    )
    apply_pipeline("insert-runtime-checks", module)
    assert "rtcheck.assert" not in print_module(module)


# --------------------------------------------------------------------------
# bufferization.alloc_tensor: a fresh buffer like tensor.empty

ALLOC_TENSOR = """
func.func @sum(%x: tensor<4x8xf32>, %n: index) -> tensor<?xf32> {
  %init = bufferization.alloc_tensor(%n) : tensor<?xf32>
  %r = linalg.reduce ins(%x : tensor<4x8xf32>) outs(%init : tensor<?xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  return %r : tensor<?xf32>
}
func.func @copied(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c = bufferization.alloc_tensor() copy(%x) : tensor<4xf32>
  return %c : tensor<4xf32>
}
"""


def test_alloc_tensor_is_filled_as_a_fresh_buffer():
    module = parse_module(ALLOC_TENSOR)
    x = np.ones((4, 8), np.float32)
    assert list(run_function(module, "sum", [x, 4]).results[0]) == [8.0] * 4
    with filling(FreshFill("low")):
        assert np.isnan(run_function(module, "sum", [x, 4]).results[0]).all()
        # A copy is defined: not filled.
        copied = run_function(module, "copied", [np.arange(4, dtype=np.float32)])
        assert list(copied.results[0]) == [0.0, 1.0, 2.0, 3.0]


def test_reads_of_an_alloc_tensor_are_named():
    module = parse_module(ALLOC_TENSOR)
    x = np.ones((4, 8), np.float32)
    sites = uninitialised_reads(module, "sum", [x, 4])
    assert sites is not None
    assert [op.name for op in sites] == ["bufferization.alloc_tensor"]
    assert describe_uninitialised_reads(sites) == (
        "reads uninitialised memory of %init (bufferization.alloc_tensor in @sum)"
    )
    assert uninitialised_reads(module, "copied", [np.ones(4, np.float32)]) is None
