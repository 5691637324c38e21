"""convert-linalg-to-loops-ext's `interleave-reductions` and its hoisting of
row invariants: several rows' reductions computed together, each in its
own order, so compiled code keeps every bit (fast-math `none`).

Each program is compiled twice from the same loops' pass with
`interleave-reductions=8` and `=1` (then `compile_module`, whose own
lowering then finds no Linalg op left) and run on the same inputs, with
row counts and reduction lengths that are not multiples of 8 (the
remainder loops run too). Both must agree bit for bit with each other and
with `compile_module`'s own lowering, and with the interpreter within
rounding (it sums some reductions with numpy, pairwise).
"""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.dialects import scf
from xdsl.dialects.builtin import MemRefType, ModuleOp
from xdsl.dialects.linalg.ops import GenericOp

from helpers import compiled_writes, parse_module
from linalg_ext.lowering.loop_order import reduction_self_vectorised
from linalg_ext.pipelines import apply_pipeline
from linalg_ext.running import find_function, run_function

ROW = "affine_map<(i, j) -> (i, j)>"
TO_ROW = "affine_map<(i, j) -> (i)>"

ROW_SUM = f"""
func.func @f(%x: memref<21x45xf32>, %o: memref<21xf32>) {{
  linalg.generic {{indexing_maps = [{ROW}, {TO_ROW}], iterator_types = ["parallel", "reduction"]}}
      ins(%x : memref<21x45xf32>) outs(%o : memref<21xf32>) {{
  ^bb0(%v: f32, %acc: f32):
    %s = arith.addf %v, %acc : f32
    linalg.yield %s : f32
  }}
  return
}}
"""

# torch-mlir's max with its argmax (linalg.index, an i64 select).
ARGMAX = f"""
func.func @f(%x: memref<19x37xf32>, %m: memref<19xf32>, %k: memref<19xi64>) {{
  linalg.generic {{indexing_maps = [{ROW}, {TO_ROW}, {TO_ROW}], iterator_types = ["parallel", "reduction"]}}
      ins(%x : memref<19x37xf32>) outs(%m, %k : memref<19xf32>, memref<19xi64>) {{
  ^bb0(%v: f32, %acc: f32, %at: i64):
    %j = linalg.index 1 : index
    %ji = arith.index_cast %j : index to i64
    %max = arith.maximumf %v, %acc : f32
    %gt = arith.cmpf ogt, %v, %acc : f32
    %sel = arith.select %gt, %ji, %at : i64
    linalg.yield %max, %sel : f32, i64
  }}
  return
}}
"""

# A row's sqrt(var + eps) is the same at every step of its reduction (hoisted
# out of it); the centred values are written element by element (an output
# the reduction loop indexes, stored in it) while their squares are summed.
NORMALISED = """
func.func @f(%x: memref<?x?xf32>, %var: memref<?x1xf32>, %y: memref<?x?xf32>, %o: memref<?x1xf32>) {
  %eps = arith.constant 1.0e-05 : f32
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, 0)>,
                                   affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, 0)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%x, %var : memref<?x?xf32>, memref<?x1xf32>) outs(%y, %o : memref<?x?xf32>, memref<?x1xf32>) {
  ^bb0(%v: f32, %s: f32, %unused: f32, %acc: f32):
    %a = math.absf %s : f32
    %e = arith.addf %a, %eps : f32
    %r = math.sqrt %e : f32
    %n = arith.divf %v, %r : f32
    %q = arith.mulf %n, %n : f32
    %t = arith.addf %q, %acc : f32
    linalg.yield %n, %t : f32, f32
  }
  return
}
"""

# Two reduction loops (the innermost one unrolled by 8).
TWO_REDUCTIONS = """
func.func @f(%x: memref<11x3x29xf32>, %o: memref<11xf32>) {
  linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (i, j, k)>, affine_map<(i, j, k) -> (i)>],
                  iterator_types = ["parallel", "reduction", "reduction"]}
      ins(%x : memref<11x3x29xf32>) outs(%o : memref<11xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %p = arith.mulf %v, %v : f32
    %s = arith.subf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}
"""

PROGRAMS = {
    "row_sum": (ROW_SUM, None),
    "argmax": (ARGMAX, None),
    "normalised": (NORMALISED, [(13, 27), (13, 1), (13, 27), (13, 1)]),
    "two_reductions": (TWO_REDUCTIONS, None),
}
"""name -> (program, shapes of its dynamic arguments or None)."""


def _inputs(module: ModuleOp, shapes: list[tuple[int, ...]] | None) -> list:
    function = find_function(module, "f")
    types = [t for t in function.function_type.inputs.data if isinstance(t, MemRefType)]
    rng = np.random.default_rng(21)
    arrays = []
    for position, type_ in enumerate(types):
        shape = shapes[position] if shapes else tuple(type_.get_shape())
        if str(type_.element_type) == "i64":
            arrays.append(rng.integers(-5, 5, shape).astype(np.int64))
            continue
        # Mixed magnitudes: any reassociation shows.
        values = rng.standard_normal(shape) * rng.choice([1e-3, 1.0, 1e3], shape)
        arrays.append(values.astype(np.float32))
    return arrays


def _loops(text: str, interleave: int, fast_math: str = "none") -> ModuleOp:
    module = parse_module(text)
    apply_pipeline(
        "convert-linalg-to-loops-ext{runtime-checks=true "
        f"interleave-reductions={interleave} fast-math={fast_math}}}",
        module,
    )
    return module


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_interleaved_reductions_keep_every_bit(name: str):
    text, shapes = PROGRAMS[name]
    inputs = _inputs(parse_module(text), shapes)
    interpreted = run_function(parse_module(text), "f", [a.copy() for a in inputs])
    together = compiled_writes(_loops(text, 8), inputs)
    alone = compiled_writes(_loops(text, 1), inputs)
    default = compiled_writes(
        parse_module(text), inputs
    )  # compile_module's own lowering
    for position, want in enumerate(interpreted.arguments):
        assert np.array_equal(together[position], alone[position]), (
            f"{name}: #{position}"
        )
        assert np.array_equal(default[position], alone[position]), (
            f"{name}: #{position}"
        )
        assert np.allclose(alone[position], want, rtol=1e-4, atol=1e-2), (
            f"{name}: argument #{position} differs from the interpreter's"
        )


def _steps(module: ModuleOp) -> list[int]:
    """The constant steps of the module's scf.for loops."""
    steps = []
    for op in module.walk():
        if isinstance(op, scf.ForOp):
            owner = op.step.owner
            steps.append(owner.value.value.data)  # pyright: ignore
    return steps


def test_rows_are_interleaved_only_where_llvm_would_not_vectorise():
    # A float sum at fast-math none: 8 rows at a time, 8 steps at a time.
    assert 8 in _steps(_loops(ROW_SUM, 8))
    assert 8 not in _steps(_loops(ROW_SUM, 1))
    # With reassociation LLVM splits the sum over lanes itself.
    assert 8 not in _steps(_loops(ROW_SUM, 8, "reassoc"))
    # A max alone is exact in any order: LLVM vectorises it as it is.
    row_max = ROW_SUM.replace("arith.addf", "arith.maximumf")
    assert 8 not in _steps(_loops(row_max, 8))
    # Its argmax's select is not a reduction LLVM knows.
    assert 8 in _steps(_loops(ARGMAX, 8, "fast"))


def test_row_invariants_are_hoisted_out_of_the_reduction():
    module = _loops(NORMALISED, 1)
    sqrt = next(op for op in module.walk() if op.name == "math.sqrt")
    # Inside the row loop, outside the reduction loop.
    loops = []
    parent = sqrt.parent_op()
    while isinstance(parent, scf.ForOp):
        loops.append(parent)
        parent = parent.parent_op()
    assert len(loops) == 1


def test_self_vectorised_chains():
    module = parse_module(ARGMAX)
    generic = next(op for op in module.walk() if isinstance(op, GenericOp))
    block = generic.body.block
    assert not reduction_self_vectorised(block, block.args[1:], reassociate=True)
    # The max's accumulator also feeds the argmax's comparison.
    assert not reduction_self_vectorised(block, block.args[1:2], reassociate=True)
    max_block = next(
        op
        for op in parse_module(ROW_SUM.replace("addf", "maximumf")).walk()
        if isinstance(op, GenericOp)
    ).body.block
    assert reduction_self_vectorised(max_block, max_block.args[1:], False)
    sum_block = next(
        op for op in parse_module(ROW_SUM).walk() if isinstance(op, GenericOp)
    ).body.block
    assert not reduction_self_vectorised(sum_block, sum_block.args[1:], False)
    assert reduction_self_vectorised(sum_block, sum_block.args[1:], True)
