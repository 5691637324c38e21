"""ByteIR's tile-and-fuse (linalg_ext/tiling/fuse_ext.py, the pass
`linalg-fuse-ext`): every producer of the cone tiled once per tile, merged
slices on diamonds (linear in residual blocks where upstream is
exponential), intermediates yielded rather than recomputed, destinations
of reduction loops kept before the loops, stops, reshapes and pads, and the
multi-root `fuse_operands`. Every transformed program is executed against
the original."""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.dialects import scf, tensor
from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.linalg import ops as linalg
from xdsl.ir import Operation

from helpers import meaning_difference, parse_module, print_module
from linalg_ext.comparison import compare_values
from linalg_ext.context import make_context
from linalg_ext.diagnostics import OpPassFailed
from linalg_ext.running import find_function, random_inputs, run_function
from linalg_ext.tiling.fuse_ext import fuse_ext, fuse_operands
from linalg_ext.tiling.interface import TilingRefused
from linalg_ext.tiling.loops import carry_through_loops, tile_using_for
from linalg_ext.tools.check import parse_pipeline
from linalg_ext.transforms.ordering import sort_topologically
from linalg_ext.upstream import run_upstream, upstream_available

needs_upstream = pytest.mark.skipif(
    not upstream_available(), reason="mlir-opt-22 is not installed"
)

T = "tensor<32x16xf32>"


def residual_chain(blocks: int) -> str:
    """`blocks` residual blocks x' = tanh(x) + x: each x is read twice."""
    lines = [f"func.func @main(%x0: {T}) -> {T} {{", f"  %e = tensor.empty() : {T}"]
    for i in range(blocks):
        lines.append(f"  %r{i} = linalg.tanh ins(%x{i} : {T}) outs(%e : {T}) -> {T}")
        mark = " {__root__}" if i == blocks - 1 else ""
        lines.append(
            f"  %x{i + 1} = linalg.add{mark} ins(%r{i}, %x{i} : {T}, {T}) "
            f"outs(%e : {T}) -> {T}"
        )
    lines += [f"  return %x{blocks} : {T}", "}"]
    return "\n".join(lines)


DIAMOND_USED_OUTSIDE = f"""
func.func @main(%a: {T}, %b: {T}) -> ({T}, {T}) {{
  %e = tensor.empty() : {T}
  %0 = linalg.exp ins(%a : {T}) outs(%e : {T}) -> {T}
  %1 = linalg.add ins(%0, %0 : {T}, {T}) outs(%e : {T}) -> {T}
  %2 = linalg.mul ins(%1, %0 : {T}, {T}) outs(%e : {T}) -> {T}
  %3 = linalg.add {{__root__}} ins(%2, %1 : {T}, {T}) outs(%e : {T}) -> {T}
  return %3, %1 : {T}, {T}
}}
"""

MATMUL_ALONG_K = """
func.func @main(%a: tensor<16x24xf32>, %b: tensor<24x8xf32>) -> (tensor<16x8xf32>, tensor<16x24xf32>) {
  %zero = arith.constant 0.0 : f32
  %ea = tensor.empty() : tensor<16x24xf32>
  %ra = linalg.exp ins(%a : tensor<16x24xf32>) outs(%ea : tensor<16x24xf32>) -> tensor<16x24xf32>
  %e = tensor.empty() : tensor<16x8xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%e : tensor<16x8xf32>) -> tensor<16x8xf32>
  %mm = linalg.matmul {__root__} ins(%ra, %b : tensor<16x24xf32>, tensor<24x8xf32>) outs(%fill : tensor<16x8xf32>) -> tensor<16x8xf32>
  return %mm, %ra : tensor<16x8xf32>, tensor<16x24xf32>
}
"""

STOPS = """
func.func @main(%a0: tensor<64x32xf32>, %a1: tensor<64x32xf32>, %a2: tensor<64x32xf32>) -> tensor<64x32xf32> {
  %0 = tensor.empty() : tensor<64x32xf32>
  %1 = linalg.exp ins(%a0 : tensor<64x32xf32>) outs(%0 : tensor<64x32xf32>) -> tensor<64x32xf32>
  %2 = linalg.exp {__stop__} ins(%a1 : tensor<64x32xf32>) outs(%0 : tensor<64x32xf32>) -> tensor<64x32xf32>
  %3 = linalg.exp {__stop__} ins(%a2 : tensor<64x32xf32>) outs(%0 : tensor<64x32xf32>) -> tensor<64x32xf32>
  %4 = linalg.add ins(%1, %2 : tensor<64x32xf32>, tensor<64x32xf32>) outs(%0 : tensor<64x32xf32>) -> tensor<64x32xf32>
  %5 = linalg.add {__root__} ins(%4, %3 : tensor<64x32xf32>, tensor<64x32xf32>) outs(%0 : tensor<64x32xf32>) -> tensor<64x32xf32>
  return %5 : tensor<64x32xf32>
}
"""

PAD_CONV = """
func.func @main(%x: tensor<1x10x10x3xf32>, %w: tensor<3x3x3x4xf32>) -> (tensor<1x5x5x4xf32>, tensor<1x12x12x3xf32>) {
  %zero = arith.constant 0.0 : f32
  %ex = tensor.empty() : tensor<1x10x10x3xf32>
  %r = linalg.exp ins(%x : tensor<1x10x10x3xf32>) outs(%ex : tensor<1x10x10x3xf32>) -> tensor<1x10x10x3xf32>
  %p = tensor.pad %r low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x10x10x3xf32> to tensor<1x12x12x3xf32>
  %e = tensor.empty() : tensor<1x5x5x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x5x5x4xf32>) -> tensor<1x5x5x4xf32>
  %c = linalg.conv_2d_nhwc_hwcf {__root__, dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%p, %w : tensor<1x12x12x3xf32>, tensor<3x3x3x4xf32>) outs(%f : tensor<1x5x5x4xf32>) -> tensor<1x5x5x4xf32>
  return %c, %p : tensor<1x5x5x4xf32>, tensor<1x12x12x3xf32>
}
"""

RESHAPE = """
func.func @main(%x: tensor<8x16xf32>) -> tensor<8x4x4xf32> {
  %e = tensor.empty() : tensor<8x16xf32>
  %r = linalg.exp ins(%x : tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) -> tensor<8x16xf32>
  %x3 = tensor.expand_shape %r [[0], [1, 2]] output_shape [8, 4, 4] : tensor<8x16xf32> into tensor<8x4x4xf32>
  %e3 = tensor.empty() : tensor<8x4x4xf32>
  %n = linalg.negf {__root__} ins(%x3 : tensor<8x4x4xf32>) outs(%e3 : tensor<8x4x4xf32>) -> tensor<8x4x4xf32>
  return %n : tensor<8x4x4xf32>
}
"""

DYNAMIC = """
func.func @main(%a: tensor<?x?xf32>, %b: tensor<?x?xf32>) -> (tensor<?x?xf32>, tensor<?x?xf32>) {
  %0 = linalg.exp ins(%a : tensor<?x?xf32>) outs(%b : tensor<?x?xf32>) -> tensor<?x?xf32>
  %1 = linalg.add {__root__} ins(%0, %a : tensor<?x?xf32>, tensor<?x?xf32>) outs(%b : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %1, %0 : tensor<?x?xf32>, tensor<?x?xf32>
}
"""

OPERANDS = f"""
func.func @main(%a: {T}, %b: {T}) -> ({T}, {T}) {{
  %e = tensor.empty() : {T}
  %0 = linalg.exp ins(%a : {T}) outs(%e : {T}) -> {T}
  %1 = linalg.add ins(%0, %b : {T}, {T}) outs(%e : {T}) -> {T}
  %2 = linalg.mul ins(%0, %1 : {T}, {T}) outs(%e : {T}) -> {T}
  %3 = linalg.sub ins(%1, %0 : {T}, {T}) outs(%e : {T}) -> {T}
  return {{__root__}} %2, %3 : {T}, {T}
}}
"""


def marked(module: ModuleOp, mark: str) -> list[Operation]:
    return [op for op in module.walk() if mark in op.attributes]


def in_loops(op: Operation) -> bool:
    parent = op.parent_op()
    while parent is not None:
        if isinstance(parent, scf.ForOp):
            return True
        parent = parent.parent_op()
    return False


def computing(module: ModuleOp) -> list[Operation]:
    """The linalg ops and reshapes/pads, what fusion moves."""
    return [
        op
        for op in module.walk()
        if (op.name.startswith("linalg.") and op.name != "linalg.yield")
        or isinstance(op, tensor.PadOp | tensor.ExpandShapeOp)
    ]


def fused(text: str, sizes, **options) -> tuple[ModuleOp, object]:
    module = parse_module(text)
    root = marked(module, "__root__")[0]
    result = fuse_ext(root, sizes, stops=marked(module, "__stop__"), **options)
    module.verify()
    difference = meaning_difference(parse_module(text), module, "main")
    assert difference is None, difference
    return module, result


def test_diamond_is_tiled_once_and_its_outside_use_reads_the_loops():
    module, result = fused(DIAMOND_USED_OUTSIDE, [8, 4])
    # exp, add, mul and the root: one tile each, none left outside.
    assert [op.name for op in computing(module)].count("linalg.exp") == 1
    assert all(in_loops(op) for op in computing(module))
    assert result.outside == []
    # The value %1 returned is the loops' second result.
    outer = result.loops[0]
    assert len(outer.results) == 2
    ret = find_function(module, "main").body.block.last_op
    assert ret is not None and list(ret.operands) == list(outer.results)


TRANSPOSED_TWICE = """
func.func @main(%a: tensor<8x12xf32>) -> tensor<8x12xf32> {
  %e = tensor.empty() : tensor<12x12xf32>
  %s = tensor.extract_slice %a[0, 0] [8, 12] [1, 1] : tensor<8x12xf32> to tensor<8x12xf32>
  %b = tensor.empty() : tensor<12x12xf32>
  %full = tensor.insert_slice %s into %b[2, 0] [8, 12] [1, 1] : tensor<8x12xf32> into tensor<12x12xf32>
  %p = linalg.exp ins(%full : tensor<12x12xf32>) outs(%e : tensor<12x12xf32>) -> tensor<12x12xf32>
  %t = linalg.transpose ins(%p : tensor<12x12xf32>) outs(%e : tensor<12x12xf32>) permutation = [1, 0]
  %r = linalg.add {__root__} ins(%p, %t : tensor<12x12xf32>, tensor<12x12xf32>) outs(%e : tensor<12x12xf32>) -> tensor<12x12xf32>
  %o = tensor.extract_slice %r[0, 0] [8, 12] [1, 1] : tensor<12x12xf32> to tensor<8x12xf32>
  return %o : tensor<8x12xf32>
}
"""


@pytest.mark.parametrize("sizes", [[4, 6], [5, 3]])
def test_a_producer_read_at_two_places_is_tiled_once_over_both(sizes):
    # The add reads %p at [i, j] and, through the transpose, at [j, i]: one
    # tile of the exp covers the bounding box, each reader takes its part.
    module, _ = fused(TRANSPOSED_TWICE, sizes)
    exps = [op for op in computing(module) if op.name == "linalg.exp"]
    assert len(exps) == 1 and in_loops(exps[0])
    assert any(op.name == "affine.min" for op in module.walk())


@pytest.mark.parametrize("blocks", [1, 4, 12])
def test_residual_blocks_make_one_tile_per_op(blocks):
    module, _ = fused(residual_chain(blocks), [8, 8])
    ops = computing(module)
    assert len(ops) == 2 * blocks  # upstream makes 2^blocks copies of the first
    assert all(in_loops(op) for op in ops)


def test_matmul_along_k_keeps_its_fill_before_the_loops_and_yields_the_exp():
    module, result = fused(MATMUL_ALONG_K, [4, 4, 8])
    fill = next(op for op in module.walk() if isinstance(op, linalg.FillOp))
    assert not in_loops(fill)
    exp = next(op for op in computing(module) if op.name == "linalg.exp")
    assert in_loops(exp)
    reasons = [reason for op, reason in result.outside if op.name == "linalg.fill"]
    assert reasons and "reduction loop" in reasons[0]


def test_parallel_tiling_fuses_the_fill():
    module, _ = fused(MATMUL_ALONG_K, [4, 4])
    assert all(in_loops(op) for op in computing(module))


def test_stops_bound_the_cone():
    module, _ = fused(STOPS, [16])
    outside = [op for op in computing(module) if not in_loops(op)]
    assert len(outside) == 2 and all("__stop__" in op.attributes for op in outside)


USED_BY_A_LOOP_BEFORE_THE_ROOT = f"""
func.func @main(%a: {T}) -> ({T}, {T}) {{
  %e = tensor.empty() : {T}
  %p = linalg.exp ins(%a : {T}) outs(%e : {T}) -> {T}
  %lo = arith.constant 0 : index
  %hi = arith.constant 2 : index
  %st = arith.constant 1 : index
  %l = scf.for %i = %lo to %hi step %st iter_args(%it = %p) -> ({T}) {{
    %g = linalg.negf ins(%it : {T}) outs(%it : {T}) -> {T}
    scf.yield %g : {T}
  }}
  %r = linalg.add {{__root__}} ins(%p, %p : {T}, {T}) outs(%e : {T}) -> {T}
  return %r, %l : {T}, {T}
}}
"""


def test_an_outside_user_before_the_root_moves_after_the_loops():
    # The loop reading %p comes before the root: once %p is computed in the
    # root's loops (fuzz seed 156), it must follow them, although it is an
    # scf.for (an op with recursive effects, here none).
    module, result = fused(USED_BY_A_LOOP_BEFORE_THE_ROOT, [8, 8])
    assert result.outside == []
    assert all(in_loops(op) for op in computing(module) if op.name == "linalg.exp")


def test_keep_intermediates_yields_every_fused_value():
    _, result = fused(STOPS, [16, 8], keep_intermediates=True)
    # The root, exp and the inner add.
    assert len(result.loops[0].results) == 3


def test_pad_fuses_into_a_strided_conv_and_stays_whole_for_its_outside_user():
    module, result = fused(PAD_CONV, [1, 3, 3, 2])
    pads = [op for op in module.walk() if isinstance(op, tensor.PadOp)]
    assert any(in_loops(p) for p in pads) and any(not in_loops(p) for p in pads)
    assert any("do not cover" in reason for _, reason in result.outside)


def test_fusion_through_expand_shape():
    module, _ = fused(RESHAPE, [2, 2])
    assert all(in_loops(op) for op in computing(module))


def test_dynamic_shapes():
    module, _ = fused(DYNAMIC, [3, 5])
    assert all(in_loops(op) for op in computing(module))


SCAN = """
func.func @main(%x: tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x16xf32>
  %r = linalg.exp ins(%x : tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) -> tensor<8x16xf32>
  %ea = tensor.empty() : tensor<8xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%ea : tensor<8xf32>) -> tensor<8xf32>
  %s:2 = linalg_ext.scan {__root__} dimension(1) inclusive(true) ins(%r : tensor<8x16xf32>) outs(%e, %acc : tensor<8x16xf32>, tensor<8xf32>) {
  ^bb0(%a: f32, %b: f32):
    %sum = arith.addf %a, %b : f32
    linalg_ext.yield %sum : f32
  } -> tensor<8x16xf32>, tensor<8xf32>
  return %s#0, %s#1 : tensor<8x16xf32>, tensor<8xf32>
}
"""


@pytest.mark.parametrize(("sizes", "fill_inside"), [([2], True), ([2, 4], False)])
def test_scan_carries_its_accumulator_from_a_fill_before_the_loops(sizes, fill_inside):
    module, _ = fused(SCAN, sizes)
    fill = next(op for op in module.walk() if isinstance(op, linalg.FillOp))
    assert in_loops(fill) == fill_inside
    assert all(in_loops(op) for op in computing(module) if op.name == "linalg.exp")


TOPK = """
func.func @main(%v: tensor<8x16xf32>) -> (tensor<8x3xf32>, tensor<8x3xi32>) {
  %e = tensor.empty() : tensor<8x16xf32>
  %x = linalg.exp ins(%v : tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) -> tensor<8x16xf32>
  %ov = tensor.empty() : tensor<8x3xf32>
  %oi = tensor.empty() : tensor<8x3xi32>
  %r:2 = linalg_ext.topk {__root__} dimension(1) ins(%x : tensor<8x16xf32>)
      outs(%ov, %oi : tensor<8x3xf32>, tensor<8x3xi32>) {
    ^bb0(%a: f32, %b: f32):
      %first = arith.cmpf ogt, %a, %b : f32
      linalg_ext.yield %first : i1
  } -> tensor<8x3xf32>, tensor<8x3xi32>
  return %r#0, %r#1 : tensor<8x3xf32>, tensor<8x3xi32>
}
"""


def test_topk_fuses_its_input_along_rows():
    module, _ = fused(TOPK, [3])
    assert all(in_loops(op) for op in computing(module))


SCATTER = """
func.func @main(%src: tensor<4x2xf32>, %idx: tensor<3x1xi64>, %u: tensor<3x2xf32>) -> tensor<4x2xf32> {
  %e = tensor.empty() : tensor<3x2xf32>
  %upd = linalg.exp ins(%u : tensor<3x2xf32>) outs(%e : tensor<3x2xf32>) -> tensor<3x2xf32>
  %r = linalg_ext.scatter {__root__} ins(%idx, %upd : tensor<3x1xi64>, tensor<3x2xf32>)
      outs(%src : tensor<4x2xf32>) {
    ^bb0(%old: f32, %new: f32):
      %sum = arith.addf %old, %new : f32
      linalg_ext.yield %sum : f32
  } -> tensor<4x2xf32>
  return %r : tensor<4x2xf32>
}
"""


def test_scatter_fuses_nothing():
    module = parse_module(SCATTER)
    root = marked(module, "__root__")[0]
    result = fuse_ext(root, [2])
    module.verify()
    assert result.loops and result.fused == []
    assert not any(in_loops(op) for op in computing(module) if op.name == "linalg.exp")


def test_refusal_leaves_the_ir_unchanged():
    module = parse_module(MATMUL_ALONG_K)
    before = print_module(module)
    root = marked(module, "__root__")[0]
    with pytest.raises(TilingRefused, match="tile sizes"):
        fuse_ext(root, [1, 2, 3, 4])
    assert print_module(module) == before


def test_a_stopped_root_is_left_alone():
    module = parse_module(STOPS)
    before = print_module(module)
    root = marked(module, "__root__")[0]
    assert fuse_ext(root, [4], stops=[root]).loops == []
    assert print_module(module) == before


# --- fuse_operands --------------------------------------------------------------


def test_fuse_operands_tiles_every_returned_value_in_one_nest():
    module = parse_module(OPERANDS)
    target = marked(module, "__root__")[0]
    result = fuse_operands(target, [4, 2], expect_whole_graph_fusion=True)
    module.verify()
    assert len(result.loops) == 2
    assert all(in_loops(op) for op in computing(module))
    assert [op.name for op in computing(module)].count("linalg.exp") == 1
    assert meaning_difference(parse_module(OPERANDS), module, "main") is None


def test_fuse_operands_on_dynamic_shapes():
    text = DYNAMIC.replace(" {__root__}", "").replace(
        "return %1", "return {__root__} %1"
    )
    module = parse_module(text)
    target = marked(module, "__root__")[0]
    result = fuse_operands(target, [3, 2])
    module.verify()
    assert len(result.loops) == 2
    assert all(in_loops(op) for op in computing(module))
    assert meaning_difference(parse_module(text), module, "main") is None


def test_fuse_operands_refuses_tile_nums_that_do_not_fit():
    module = parse_module(OPERANDS)
    before = print_module(module)
    target = marked(module, "__root__")[0]
    with pytest.raises(TilingRefused, match="tile_nums"):
        fuse_operands(target, [4, 2, 2])
    assert print_module(module) == before


def test_fuse_operands_refuses_operands_of_different_shapes():
    text = """
func.func @main(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>) -> (tensor<4x8xf32>, tensor<8x4xf32>) {
  return {__root__} %a, %b : tensor<4x8xf32>, tensor<8x4xf32>
}
"""
    module = parse_module(text)
    with pytest.raises(TilingRefused, match="one shape"):
        fuse_operands(marked(module, "__root__")[0], [2, 2])


def test_fuse_operands_through_a_transpose():
    text = """
func.func @main(%x: tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>) {
  %e = tensor.empty() : tensor<8x8xf32>
  %t = linalg.transpose ins(%x : tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) permutation = [1, 0]
  %n = linalg.negf ins(%t : tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
  %m = linalg.exp ins(%t : tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
  return {__root__} %n, %m : tensor<8x8xf32>, tensor<8x8xf32>
}
"""
    module = parse_module(text)
    target = marked(module, "__root__")[0]
    result = fuse_operands(target, [2, 4], expect_whole_graph_fusion=True)
    assert meaning_difference(parse_module(text), module, "main") is None
    assert all(in_loops(op) for op in computing(module))
    assert len(result.loops) == 2


SOFTMAX_RETURNED = """
func.func @main(%x: tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>) {
  %e = tensor.empty() : tensor<8x8xf32>
  %v = tensor.empty() : tensor<8xf32>
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %m = linalg.fill ins(%ninf : f32) outs(%v : tensor<8xf32>) -> tensor<8xf32>
  %a = linalg.fill ins(%zero : f32) outs(%v : tensor<8xf32>) -> tensor<8xf32>
  %s:4 = linalg_ext.softmax dimension(1) ins(%x : tensor<8x8xf32>) outs(%e, %m, %a, %v : tensor<8x8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) : tensor<8x8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>
  %n = linalg.exp ins(%x : tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
  return {__root__} %s#0, %n : tensor<8x8xf32>, tensor<8x8xf32>
}
"""


def test_expect_whole_graph_fusion_names_what_stayed_outside_and_restores_the_ir():
    module = parse_module(SOFTMAX_RETURNED)
    before = print_module(module)
    target = marked(module, "__root__")[0]
    # Tiles along the softmax's dimension: it must stay whole.
    with pytest.raises(TilingRefused, match=r"stayed outside the loops \(linalg"):
        fuse_operands(target, [2, 2], expect_whole_graph_fusion=True)
    assert print_module(module) == before
    # Along rows only, everything fuses (the function was restored from a
    # copy: find the target again).
    target = marked(module, "__root__")[0]
    result = fuse_operands(target, [2], expect_whole_graph_fusion=True)
    assert len(result.loops) == 1
    assert meaning_difference(parse_module(SOFTMAX_RETURNED), module, "main") is None


# --- the pass --------------------------------------------------------------------


def run_pass(text: str, pipeline: str) -> ModuleOp:
    module = parse_module(text)
    parse_pipeline(pipeline).apply(make_context(), module)
    module.verify()
    return module


def test_pass_without_marks_takes_every_root():
    text = DIAMOND_USED_OUTSIDE.replace(" {__root__}", "")
    module = run_pass(text, "linalg-fuse-ext{tile-sizes=8,4}")
    assert all(in_loops(op) for op in computing(module))
    assert meaning_difference(parse_module(text), module, "main") is None


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ("tile-sizes=4,-1", "tile size -1 is negative"),
        ("tile-sizes=4,8 tile-interchange=1,1", "is not a permutation"),
    ],
)
def test_pass_refuses_bad_options(options, message):
    module = parse_module(STOPS)
    before = print_module(module)
    with pytest.raises(OpPassFailed, match=message):
        parse_pipeline(f"linalg-fuse-ext{{{options}}}").apply(make_context(), module)
    assert print_module(module) == before


def test_pass_reports_what_stays_outside(capsys):
    run_pass(MATMUL_ALONG_K, "linalg-fuse-ext{tile-sizes=4,4,8 report=true}")
    err = capsys.readouterr().err
    assert "linalg-fuse-ext: linalg.fill left outside the loops:" in err


# --- upstream's transform.structured.fuse on the same matmul along k ------------


def upstream_fuse(text: str, sizes: list[int]) -> str:
    import subprocess

    loops = len([s for s in sizes if s])
    script = f"""
module attributes {{transform.with_named_sequence}} {{
  transform.named_sequence @__transform_main(%root: !transform.any_op {{transform.readonly}}) {{
    %op = transform.structured.match ops{{["linalg.matmul"]}} in %root : (!transform.any_op) -> !transform.any_op
    %tiled, %loops:{loops} = transform.structured.fuse %op tile_sizes {sizes}
      : (!transform.any_op) -> (!transform.any_op{", !transform.any_op" * loops})
    transform.yield
  }}
}}
"""
    return subprocess.run(
        [
            "mlir-opt-22",
            "--transform-interpreter",
            "--test-transform-dialect-erase-schedule",
        ],
        input=text + script,
        capture_output=True,
        text=True,
        check=True,
    ).stdout


@needs_upstream
def test_upstream_fuse_rezeroes_the_accumulator_where_fuse_ext_does_not():
    theirs_text = upstream_fuse(MATMUL_ALONG_K, [4, 4, 8])
    theirs = parse_module(theirs_text)
    ours, _ = fused(MATMUL_ALONG_K, [4, 4, 8])
    fills = [op for op in theirs.walk() if isinstance(op, linalg.FillOp)]
    assert fills and all(in_loops(f) for f in fills)  # upstream: inside the k loop
    assert not any(in_loops(op) for op in ours.walk() if isinstance(op, linalg.FillOp))
    original = parse_module(MATMUL_ALONG_K)
    inputs = random_inputs(find_function(original, "main"), np.random.default_rng(3))
    expected = run_function(original, "main", inputs).results
    upstream_values = run_upstream(theirs_text, theirs, "main", inputs).results
    assert compare_values(expected[:1], upstream_values[:1], "result") is not None
    ours_values = run_function(ours, "main", inputs).results
    assert compare_values(expected, ours_values, "result") is None


# --- the loop and block helpers ------------------------------------------------


def test_carry_through_loops_adds_a_passed_value():
    module = parse_module(MATMUL_ALONG_K)
    root = marked(module, "__root__")[0]
    tiling = tile_using_for(root, [4, 4])
    function = find_function(module, "main")
    init = function.body.block.args[1]
    loops = carry_through_loops(tiling.loops, init)
    module.verify()
    assert [len(loop.results) for loop in loops] == [2, 2]
    assert meaning_difference(parse_module(MATMUL_ALONG_K), module, "main") is None


def test_sort_topologically_moves_users_after_definitions():
    module = parse_module(MATMUL_ALONG_K)
    block = find_function(module, "main").body.block
    ops = list(block.ops)
    exp = next(op for op in ops if op.name == "linalg.exp")
    exp.detach()
    block.insert_op_before(exp, ops[0])  # before its own init
    assert sort_topologically(block)
    module.verify()
    assert meaning_difference(parse_module(MATMUL_ALONG_K), module, "main") is None
