"""convert-linalg-to-loops-ext's loop order (unit-stride-innermost): the
reordered loops compute every output bit as the domain's order does (and
agree with the interpreter); ops where no parallel loop qualifies keep their
order; LLVM vectorises the reordered matmul.

Each program is run three ways on the same inputs (outputs start from
random values, so the sums start away from zero): the JIT with the
default lowering, the JIT after lowering the loops first with
`unit-stride-innermost=false` (the old order), and the interpreter. The
two compiled ones must agree bit for bit (`np.array_equal`): the reorder
changes no reduction's order. The interpreter sums with numpy (pairwise,
BLAS), so it agrees within rounding only.
"""

from __future__ import annotations

import re
import subprocess
import sys

import numpy as np
import pytest
from xdsl.dialects.builtin import MemRefType, ModuleOp
from xdsl.ir.affine import AffineExpr, AffineMap

from helpers import REPO, compiled_writes, parse_module, print_module
from linalg_ext.jit import compile_module
from linalg_ext.jit.compiler import llvm_binding
from linalg_ext.lowering.loop_order import (
    MIN_VECTOR_LOOP,
    SHORT_LOOP,
    TINY_WINDOW,
    Stride,
    stride_along,
    vectorizable_order,
)
from linalg_ext.pipelines import apply_pipeline
from linalg_ext.running import run_function

OLD_ORDER = (
    "convert-linalg-to-loops-ext{runtime-checks=true unit-stride-innermost=false}"
)
NEW_ORDER = "convert-linalg-to-loops-ext{runtime-checks=true}"

MATMUL = """
func.func @f(%a: memref<13x17xf32>, %b: memref<17x67xf32>, %c: memref<13x67xf32>) {
  linalg.matmul ins(%a, %b : memref<13x17xf32>, memref<17x67xf32>) outs(%c : memref<13x67xf32>)
  return
}
"""

# j runs 19 times: LLVM would unroll it fully, so the order stays.
MATMUL_SHORT = MATMUL.replace("67", "19")

MATMUL_DYNAMIC = """
func.func @f(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>) {
  linalg.matmul ins(%a, %b : memref<?x?xf32>, memref<?x?xf32>) outs(%c : memref<?x?xf32>)
  return
}
"""

BATCH_MATMUL = """
func.func @f(%a: memref<3x5x17xf32>, %b: memref<3x17x64xf32>, %c: memref<3x5x64xf32>) {
  linalg.batch_matmul ins(%a, %b : memref<3x5x17xf32>, memref<3x17x64xf32>) outs(%c : memref<3x5x64xf32>)
  return
}
"""

CONV = """
func.func @f(%in: memref<1x6x6x3xf32>, %filter: memref<3x3x3x64xf32>, %out: memref<1x4x4x64xf32>) {
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%in, %filter : memref<1x6x6x3xf32>, memref<3x3x3x64xf32>) outs(%out : memref<1x4x4x64xf32>)
  return
}
"""

# sum over i of x[i, j] * (j - i), the domain (j, i) with the reduction i
# innermost: the parallel j (unit-stride in x and the output) moves
# innermost, the reduction outside; the body uses linalg.index of both.
COLUMN_SUM = """
func.func @f(%x: memref<17x70xf32>, %o: memref<70xf32>) {
  linalg.generic {indexing_maps = [affine_map<(j, i) -> (i, j)>, affine_map<(j, i) -> (j)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<17x70xf32>) outs(%o : memref<70xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %j = linalg.index 0 : index
    %i = linalg.index 1 : index
    %k = arith.subi %j, %i : index
    %ki = arith.index_cast %k : index to i32
    %kf = arith.sitofp %ki : i32 to f32
    %p = arith.mulf %v, %kf : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}
"""

# A row reduction: x[i, j] is strided along the only parallel loop i, so
# the domain's order stays (the reduction innermost, carried).
ROW_SUM = """
func.func @f(%x: memref<70x11xf32>, %o: memref<70xf32>) {
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<70x11xf32>) outs(%o : memref<70xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %s = arith.addf %acc, %v : f32
    linalg.yield %s : f32
  }
  return
}
"""

TRANSPOSE_OUTPUT = """
func.func @f(%x: memref<70x65xf32>, %y: memref<70x65xf32>, %o: memref<65x70xf32>) {
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>,
                                   affine_map<(i, j) -> (j, i)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%x, %y : memref<70x65xf32>, memref<70x65xf32>) outs(%o : memref<65x70xf32>) {
  ^bb0(%u: f32, %v: f32, %w: f32):
    %p = arith.mulf %u, %v : f32
    %s = arith.addf %p, %w : f32
    linalg.yield %s : f32
  }
  return
}
"""

# The domain (n, oh, ow, c, kh, kw) ends in a 3x3 window: ow (10
# iterations, under SHORT_LOOP) still moves, to just before the window, with
# the loops before it in the output's order (n, c, oh).
DEPTHWISE = """
func.func @f(%x: memref<1x3x12x12xf32>, %w: memref<3x3x3xf32>, %o: memref<1x3x10x10xf32>) {
  linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
    ins(%x, %w : memref<1x3x12x12xf32>, memref<3x3x3xf32>) outs(%o : memref<1x3x10x10xf32>)
  return
}
"""

# c is the last parallel loop before the window: innermost once LLVM
# unrolls the window, so the order stays.
POOL_NHWC = """
func.func @f(%x: memref<1x10x10x16xf32>, %w: memref<3x3xf32>, %o: memref<1x8x8x16xf32>) {
  linalg.pooling_nhwc_sum {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
    ins(%x, %w : memref<1x10x10x16xf32>, memref<3x3xf32>) outs(%o : memref<1x8x8x16xf32>)
  return
}
"""

# The output is strided along the innermost loop j and the inputs along i:
# no loop qualifies, the domain's order stays.
PROGRAMS = {
    "depthwise_conv_window": (DEPTHWISE, True),
    "pooling_nhwc_window": (POOL_NHWC, False),
    "matmul": (MATMUL, True),
    "matmul_dynamic": (MATMUL_DYNAMIC, True),
    "matmul_short": (MATMUL_SHORT, False),
    "batch_matmul": (BATCH_MATMUL, True),
    "conv_2d_nhwc_hwcf": (CONV, True),
    "column_sum_with_index": (COLUMN_SUM, True),
    "row_sum": (ROW_SUM, False),
    "transpose_output": (TRANSPOSE_OUTPUT, False),
}
"""name -> (program, whether the loops are reordered)."""

DYNAMIC_SHAPES = {"matmul_dynamic": [(6, 10), (10, 21), (6, 21)]}


def _inputs(module: ModuleOp, name: str) -> list[np.ndarray]:
    from linalg_ext.running import find_function

    function = find_function(module, "f")
    rng = np.random.default_rng(19)
    shapes = DYNAMIC_SHAPES.get(name) or [
        tuple(t.get_shape())
        for t in function.function_type.inputs.data
        if isinstance(t, MemRefType)
    ]
    # Values of mixed sign and magnitude: any reassociation shows.
    return [
        (rng.standard_normal(s) * rng.choice([1e-3, 1.0, 1e3], s)).astype(np.float32)
        for s in shapes
    ]


def _lowered(text: str, pipeline: str) -> ModuleOp:
    module = parse_module(text)
    apply_pipeline(pipeline, module)
    return module


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_reordered_loops_are_bit_identical(name: str):
    text, reordered = PROGRAMS[name]
    inputs = _inputs(parse_module(text), name)
    interpreted = run_function(parse_module(text), "f", [a.copy() for a in inputs])
    new = compiled_writes(parse_module(text), inputs)
    old = compiled_writes(_lowered(text, OLD_ORDER), inputs)
    for position, (want, got_new, got_old) in enumerate(
        zip(interpreted.arguments, new, old, strict=True)
    ):
        assert np.array_equal(got_new, got_old), f"{name}: argument {position}"
        # The interpreter sums with numpy (pairwise, BLAS): close, not equal.
        scale = max(float(np.max(np.abs(a))) for a in inputs)
        assert np.allclose(got_new, want, rtol=1e-4, atol=1e-5 * scale**2), (
            f"{name}: argument {position} differs from the interpreter's"
        )
    loops_changed = print_module(_lowered(text, NEW_ORDER)) != print_module(
        _lowered(text, OLD_ORDER)
    )
    assert loops_changed == reordered


def test_aliased_output_keeps_the_domain_order():
    # The output is also an input: the points' order can be seen, so the
    # loops are the domain's.
    text = """
func.func @f(%a: memref<64x64xf32>) {
  linalg.matmul ins(%a, %a : memref<64x64xf32>, memref<64x64xf32>) outs(%a : memref<64x64xf32>)
  return
}
"""
    assert print_module(_lowered(text, NEW_ORDER)) == print_module(
        _lowered(text, OLD_ORDER)
    )


def test_division_in_the_body_keeps_the_domain_order_with_checks():
    # The first failing division reports its operand: the interpreter's
    # first, in the domain's order.
    text = """
func.func @f(%a: memref<4x17xi32>, %b: memref<17x64xi32>, %c: memref<4x64xi32>) {
  linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>,
                                   affine_map<(i, j, k) -> (i, j)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<4x17xi32>, memref<17x64xi32>) outs(%c : memref<4x64xi32>) {
  ^bb0(%x: i32, %y: i32, %acc: i32):
    %q = arith.divsi %x, %y : i32
    %s = arith.addi %acc, %q : i32
    linalg.yield %s : i32
  }
  return
}
"""
    checked = _lowered(text, NEW_ORDER)
    assert print_module(checked) == print_module(_lowered(text, OLD_ORDER))
    unchecked = print_module(_lowered(text, "convert-linalg-to-loops-ext"))
    plain_old = "convert-linalg-to-loops-ext{unit-stride-innermost=false}"
    assert unchecked != print_module(_lowered(text, plain_old))


def test_stride_classes():
    maps = (
        AffineMap.from_callable(lambda i, j, k: (i, k)),
        AffineMap.from_callable(lambda i, j, k: (k, 2 * j)),
    )
    assert stride_along(maps[0], 1) == Stride.INVARIANT
    assert stride_along(maps[0], 2) == Stride.UNIT
    assert stride_along(maps[0], 0) == Stride.STRIDED
    assert stride_along(maps[1], 1) == Stride.STRIDED
    window = AffineMap.from_callable(lambda w, kw: (w + kw,))
    assert stride_along(window, 0) == Stride.UNIT
    folded = AffineMap.from_callable(lambda w, kw: (w % 4,))
    assert stride_along(folded, 0) == Stride.STRIDED
    matmul = [
        AffineMap.from_callable(lambda i, j, k: (i, k)),
        AffineMap.from_callable(lambda i, j, k: (k, j)),
        AffineMap.from_callable(lambda i, j, k: (i, j)),
    ]
    outputs = [False, False, True]
    dynamic = [None, None, None]
    assert vectorizable_order(matmul, outputs, [True, True, False], dynamic) == [
        0,
        2,
        1,
    ]
    # Nothing to gain without a qualifying parallel loop, or a short one.
    assert vectorizable_order(matmul, outputs, [True, False, False], dynamic) == [
        0,
        1,
        2,
    ]
    short = [None, SHORT_LOOP - 1, None]
    assert vectorizable_order(matmul, outputs, [True, True, False], short) == [0, 1, 2]


def test_short_loop_moves_before_a_tiny_window():
    # depthwise_conv_2d_nchw_chw: (n, oh, ow, c, kh, kw).
    n, h, w, c, kh, kw = (AffineExpr.dimension(d) for d in range(6))
    maps = [
        AffineMap(6, 0, (n, c, h + kh, w + kw)),
        AffineMap(6, 0, (c, kh, kw)),
        AffineMap(6, 0, (n, c, h, w)),
    ]
    outputs = [False, False, True]
    parallel = [True] * 4 + [False] * 2
    # ow moves to just before the window; the loops before it follow the
    # output's (n, c, oh).
    assert vectorizable_order(maps, outputs, parallel, [1, 56, 56, 32, 3, 3]) == [
        0,
        3,
        1,
        2,
        4,
        5,
    ]
    # An output that does not read every loop before the window in one map
    # (here a second output read differently): the domain's order around ow.
    two = [*maps, AffineMap(6, 0, (n, h, w, c))]
    assert vectorizable_order(
        two, [*outputs, True], parallel, [1, 56, 56, 32, 3, 3]
    ) == list(range(6))
    # A matmul with a reduction of 8: j (long, unit-stride) stays right
    # before k, which LLVM unrolls: 8 multiply-adds on a register per j.
    i, j, k = (AffineExpr.dimension(d) for d in range(3))
    matmul = [AffineMap(3, 0, (i, k)), AffineMap(3, 0, (k, j)), AffineMap(3, 0, (i, j))]
    assert vectorizable_order(matmul, outputs, [True, True, False], [256, 256, 8]) == [
        0,
        1,
        2,
    ]
    assert vectorizable_order(
        matmul, outputs, [True, True, False], [256, 256, TINY_WINDOW]
    ) == [0, 2, 1]
    # Too short a loop, too long a window, or a dynamic one: the domain's.
    short = [1, 56, MIN_VECTOR_LOOP - 1, 32, 3, 3]
    assert vectorizable_order(maps, outputs, parallel, short) == list(range(6))
    wide = [1, 56, 56, 32, 3, TINY_WINDOW]
    assert vectorizable_order(maps, outputs, parallel, wide) == list(range(6))
    dynamic = [1, 56, 56, 32, None, 3]
    assert vectorizable_order(maps, outputs, parallel, dynamic) == list(range(6))


def _optimized_llvm_ir(text: str) -> str:
    """The LLVM IR `compile_module` runs, after LLVM's -O3 (as it does)."""
    binding = llvm_binding()
    machine = binding.Target.from_default_triple().create_target_machine(
        cpu=binding.get_host_cpu_name(),
        features=binding.get_host_cpu_features().flatten(),
        opt=3,
    )
    parsed = binding.parse_assembly(compile_module(parse_module(text)).llvm_ir)
    parsed.triple = machine.triple
    parsed.data_layout = str(machine.target_data)
    tuning = binding.create_pipeline_tuning_options(speed_level=3)
    tuning.loop_vectorization = True
    tuning.slp_vectorization = True
    builder = binding.create_pass_builder(machine, tuning)
    builder.getModulePassManager().run(parsed, builder)
    return str(parsed)


def test_llvm_vectorises_the_matmul_loops():
    text = MATMUL.replace("13x17", "64x64").replace("17x67", "64x64")
    text = text.replace("13x67", "64x64")
    vector = re.compile(r"<\d+ x float>")
    assert vector.search(_optimized_llvm_ir(text))
    old = _lowered(text, OLD_ORDER)
    assert not vector.search(_optimized_llvm_ir(print_module(old)))


def test_loop_order_bench_runs_and_checks_both_orders():
    # Small sizes; the script checks both orders' outputs bit for bit.
    result = subprocess.run(
        [sys.executable, str(REPO / "bench" / "loop_order_bench.py"), "--quick"],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr
    assert "machine:" in result.stdout
    for kernel in ("matmul 48^3", "row sum", "column sum", "(a+b)*c", "conv 3x3"):
        assert kernel in result.stdout
