"""The tiling models of the `linalg_ext` ops, checked by execution.

Each op's tiles (interior, partial, at the end of the domain; static and
dynamic offsets and sizes; static and dynamic shapes) compute what the
whole op computes there (`tiling_harness`); tiles that would cut a loop
that must stay whole are refused with a reason; and each op tiled by the
`scf.for` driver (`tile_using_for`, tiles in order along reduction loops)
computes what it computed before. Scan along its dimension is also checked
tile by tile: the second tile, started from the accumulator the first left,
finishes the whole scan.
"""

from __future__ import annotations

import numpy as np
import pytest
from tiling_harness import check_result_tile, check_tile
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from helpers import meaning_difference, parse_module
from linalg_ext.checking import check_module
from linalg_ext.dialect import AliasOp, LinalgExt, YieldOp
from linalg_ext.dialect.scatter import ScatterOp
from linalg_ext.dialect.scatter_tiling import ScatterTiling
from linalg_ext.running import run_function
from linalg_ext.tiling import (
    TilingRefused,
    register_tiling,
    registered_op_types,
    tiling_model,
)
from linalg_ext.tiling.fusion_driver import tile_and_fuse
from linalg_ext.tiling.loops import tile_using_for
from linalg_ext.transforms.mixed_sizes import Mixed
from linalg_ext.transforms.slices import insert_slice


def _find(module: ModuleOp, op_name: str) -> Operation:
    (op,) = [op for op in module.walk() if op.name == op_name]
    return op


def _check_loops(
    text: str,
    op_name: str,
    sizes: list[int],
    interchange: tuple[int, ...] = (),
    loop_count: int | None = None,
) -> ModuleOp:
    """`tile_using_for` builds loops around the model's tiles, and the
    tiled function computes what the original does."""
    reference = parse_module(text)
    tiled = parse_module(text)
    loops = tile_using_for(_find(tiled, op_name), sizes, interchange)
    expected = sum(1 for size in sizes if size)
    assert len(loops.loops) == (expected if loop_count is None else loop_count)
    tiled.verify()
    inside = [op.name for op in loops.tiled.ops]
    assert op_name in inside or "linalg.generic" in inside
    difference = meaning_difference(reference, tiled, "main")
    assert difference is None, difference
    return tiled


def _refusal(text: str, op_name: str, offsets: list[int], sizes: list[int]) -> str:
    """The reason the model gives for refusing this tile."""
    module = parse_module(text)
    op = _find(module, op_name)
    model = tiling_model(op)
    assert model is not None
    with pytest.raises(TilingRefused) as refused:
        model.tile(op, offsets, sizes, [])
    assert refused.value.op is op
    return str(refused.value)


def _result_refusal(
    text: str, op_name: str, index: int, offsets: list[int], sizes: list[int]
) -> str:
    module = parse_module(text)
    op = _find(module, op_name)
    model = tiling_model(op)
    assert model is not None
    with pytest.raises(TilingRefused) as refused:
        model.result_tile(op, index, offsets, sizes, [])
    return str(refused.value)


# --------------------------------------------------------------------------
# softmax, unnorm_softmax
# --------------------------------------------------------------------------

SOFTMAX = """
func.func @main(%x: tensor<6x8xf32>, %m: tensor<6xf32>, %a: tensor<6xf32>)
    -> (tensor<6x8xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>) {
  %o = tensor.empty() : tensor<6x8xf32>
  %s = tensor.empty() : tensor<6xf32>
  %r:4 = linalg_ext.softmax dimension(1) ins(%x : tensor<6x8xf32>)
      outs(%o, %m, %a, %s : tensor<6x8xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>)
      : tensor<6x8xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>
  return %r#0, %r#1, %r#2, %r#3 : tensor<6x8xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>
}
"""

# dimension 1 of 3: max, accumulator and scale are 4x5, the input 4x6x5.
UNNORM_SOFTMAX = """
func.func @main(%x: tensor<4x6x5xf32>, %m: tensor<4x5xf32>, %a: tensor<4x5xf32>)
    -> (tensor<4x6x5xf32>, tensor<4x5xf32>, tensor<4x5xf32>, tensor<4x5xf32>) {
  %o = tensor.empty() : tensor<4x6x5xf32>
  %s = tensor.empty() : tensor<4x5xf32>
  %r:4 = linalg_ext.unnorm_softmax dimension(1) ins(%x : tensor<4x6x5xf32>)
      outs(%o, %m, %a, %s : tensor<4x6x5xf32>, tensor<4x5xf32>, tensor<4x5xf32>, tensor<4x5xf32>)
      : tensor<4x6x5xf32>, tensor<4x5xf32>, tensor<4x5xf32>, tensor<4x5xf32>
  return %r#0, %r#1, %r#2, %r#3 : tensor<4x6x5xf32>, tensor<4x5xf32>, tensor<4x5xf32>, tensor<4x5xf32>
}
"""

SOFTMAX_DYNAMIC = """
func.func @main(%x: tensor<?x8xf32>, %m: tensor<?xf32>, %a: tensor<?xf32>, %s: tensor<?xf32>)
    -> (tensor<?x8xf32>, tensor<?xf32>) {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x8xf32>
  %o = tensor.empty(%n) : tensor<?x8xf32>
  %r:4 = linalg_ext.softmax dimension(1) ins(%x : tensor<?x8xf32>)
      outs(%o, %m, %a, %s : tensor<?x8xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>)
      : tensor<?x8xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>
  return %r#0, %r#3 : tensor<?x8xf32>, tensor<?xf32>
}
"""

# Dynamic along the softmax dimension itself.
SOFTMAX_DYNAMIC_ROWS = (
    SOFTMAX_DYNAMIC.replace("?x8", "5x?")
    .replace("tensor<?xf32>", "tensor<5xf32>")
    .replace("%c0 = arith.constant 0", "%c0 = arith.constant 1")
)


@pytest.mark.parametrize("dynamic", [False, True])
@pytest.mark.parametrize(
    ("offsets", "sizes"), [([2, 0], [3, 8]), ([4, 0], [2, 8]), ([0, 0], [6, 8])]
)
def test_softmax_tiles_along_rows(offsets, sizes, dynamic):
    check_tile(SOFTMAX, "linalg_ext.softmax", offsets, sizes, dynamic=dynamic)


@pytest.mark.parametrize("dynamic", [False, True])
def test_unnorm_softmax_statistics_at_their_own_rank(dynamic):
    check_tile(
        UNNORM_SOFTMAX,
        "linalg_ext.unnorm_softmax",
        [1, 0, 2],
        [2, 6, 3],
        dynamic=dynamic,
    )


def test_softmax_dynamic_shape_tile():
    check_tile(SOFTMAX_DYNAMIC, "linalg_ext.softmax", [1, 0], [2, 8], dynamic=True)


@pytest.mark.parametrize("index", [0, 1, 2, 3])
def test_softmax_result_tiles(index):
    offsets, sizes = ([1, 0], [3, 8]) if index == 0 else ([1], [3])
    check_result_tile(SOFTMAX, "linalg_ext.softmax", index, offsets, sizes)
    check_result_tile(
        SOFTMAX, "linalg_ext.softmax", index, offsets, sizes, dynamic=True
    )


def test_unnorm_softmax_result_tile_of_statistics():
    check_result_tile(
        UNNORM_SOFTMAX, "linalg_ext.unnorm_softmax", 3, [2, 1], [2, 4], dynamic=True
    )


def test_softmax_refuses_tiles_of_its_dimension():
    message = _refusal(SOFTMAX, "linalg_ext.softmax", [0, 2], [6, 4])
    assert message.startswith("linalg_ext.softmax cannot be tiled along loop 1:")
    assert "softmax dimension" in message
    # A partial size at offset 0 is cut too.
    assert "loop 1" in _refusal(SOFTMAX, "linalg_ext.softmax", [0, 0], [6, 7])
    assert "loop 1" in _result_refusal(SOFTMAX, "linalg_ext.softmax", 0, [0, 0], [6, 4])
    model = tiling_model(_find(parse_module(SOFTMAX), "linalg_ext.softmax"))
    assert model is not None
    assert model.whole_dims(_find(parse_module(SOFTMAX), "linalg_ext.softmax")) == {1}
    with pytest.raises(TilingRefused, match="must stay whole"):
        tile_using_for(_find(parse_module(SOFTMAX), "linalg_ext.softmax"), [2, 4])


def test_softmax_on_memrefs_is_refused():
    text = """
    func.func @main(%x: memref<2x3xf32>, %o: memref<2x3xf32>, %m: memref<2xf32>,
                    %a: memref<2xf32>, %s: memref<2xf32>) {
      linalg_ext.softmax dimension(1) ins(%x : memref<2x3xf32>)
          outs(%o, %m, %a, %s : memref<2x3xf32>, memref<2xf32>, memref<2xf32>, memref<2xf32>)
      return
    }
    """
    op = _find(parse_module(text), "linalg_ext.softmax")
    model = tiling_model(op)
    assert model is not None
    assert model.refusal(op) == "linalg_ext.softmax: tiling works on tensors"


@pytest.mark.parametrize(
    ("text", "op_name", "sizes"),
    [
        (SOFTMAX, "linalg_ext.softmax", [4]),
        (UNNORM_SOFTMAX, "linalg_ext.unnorm_softmax", [3, 0, 2]),
        (SOFTMAX_DYNAMIC, "linalg_ext.softmax", [3]),
        (SOFTMAX_DYNAMIC_ROWS, "linalg_ext.softmax", [2]),
    ],
)
def test_softmax_tiled_by_loops(text, op_name, sizes):
    _check_loops(text, op_name, sizes)


# --------------------------------------------------------------------------
# layer_norm
# --------------------------------------------------------------------------

LAYER_NORM = """
func.func @main(%x: tensor<4x6x5xf32>, %w: tensor<6xf32>, %b: tensor<6xf32>)
    -> (tensor<4x6x5xf32>, tensor<4x5xf32>, tensor<4x5xf32>) {
  %o = tensor.empty() : tensor<4x6x5xf32>
  %mean = tensor.empty() : tensor<4x5xf32>
  %rstd = tensor.empty() : tensor<4x5xf32>
  %r:3 = linalg_ext.layer_norm axis([1]) epsilon(1.0E-5)
      ins(%x, %w, %b : tensor<4x6x5xf32>, tensor<6xf32>, tensor<6xf32>)
      outs(%o, %mean, %rstd : tensor<4x6x5xf32>, tensor<4x5xf32>, tensor<4x5xf32>)
      : tensor<4x6x5xf32>, tensor<4x5xf32>, tensor<4x5xf32>
  return %r#0, %r#1, %r#2 : tensor<4x6x5xf32>, tensor<4x5xf32>, tensor<4x5xf32>
}
"""

LAYER_NORM_DYNAMIC = """
func.func @main(%x: tensor<?x?x6xf32>) -> tensor<?x?x6xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n0 = tensor.dim %x, %c0 : tensor<?x?x6xf32>
  %n1 = tensor.dim %x, %c1 : tensor<?x?x6xf32>
  %o = tensor.empty(%n0, %n1) : tensor<?x?x6xf32>
  %r = linalg_ext.layer_norm axis([1, 2]) epsilon(1.0E-5)
      ins(%x : tensor<?x?x6xf32>) outs(%o : tensor<?x?x6xf32>) : tensor<?x?x6xf32>
  return %r : tensor<?x?x6xf32>
}
"""


@pytest.mark.parametrize("dynamic", [False, True])
@pytest.mark.parametrize(
    ("offsets", "sizes"), [([1, 0, 2], [2, 6, 3]), ([3, 0, 4], [1, 6, 1])]
)
def test_layer_norm_tiles(offsets, sizes, dynamic):
    check_tile(LAYER_NORM, "linalg_ext.layer_norm", offsets, sizes, dynamic=dynamic)


@pytest.mark.parametrize("index", [0, 1, 2])
def test_layer_norm_result_tiles(index):
    offsets, sizes = ([1, 0, 1], [2, 6, 3]) if index == 0 else ([1, 1], [2, 3])
    check_result_tile(
        LAYER_NORM, "linalg_ext.layer_norm", index, offsets, sizes, dynamic=True
    )


def test_layer_norm_refuses_tiles_of_its_axes():
    message = _refusal(LAYER_NORM, "linalg_ext.layer_norm", [0, 2, 0], [4, 2, 5])
    assert "loop 1" in message and "normalised axis" in message
    op = _find(parse_module(LAYER_NORM_DYNAMIC), "linalg_ext.layer_norm")
    model = tiling_model(op)
    assert model is not None and model.whole_dims(op) == {1, 2}


@pytest.mark.parametrize(
    ("text", "sizes"), [(LAYER_NORM, [3, 0, 2]), (LAYER_NORM_DYNAMIC, [3])]
)
def test_layer_norm_tiled_by_loops(text, sizes):
    _check_loops(text, "linalg_ext.layer_norm", sizes)


# --------------------------------------------------------------------------
# scan
# --------------------------------------------------------------------------

SCAN = """
func.func @main(%x: tensor<5x8xi32>, %acc: tensor<5xi32>) -> (tensor<5x8xi32>, tensor<5xi32>) {
  %o = tensor.empty() : tensor<5x8xi32>
  %r:2 = linalg_ext.scan dimension(1) inclusive(INCLUSIVE)
      ins(%x : tensor<5x8xi32>) outs(%o, %acc : tensor<5x8xi32>, tensor<5xi32>) {
    ^bb0(%running: i32, %elem: i32):
      %next = arith.addi %running, %elem : i32
      linalg_ext.yield %next : i32
  } -> tensor<5x8xi32>, tensor<5xi32>
  return %r#0, %r#1 : tensor<5x8xi32>, tensor<5xi32>
}
"""

SCAN_1D_DYNAMIC = """
func.func @main(%x: tensor<?xf32>, %acc: tensor<f32>) -> (tensor<?xf32>, tensor<f32>) {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?xf32>
  %o = tensor.empty(%n) : tensor<?xf32>
  %r:2 = linalg_ext.scan dimension(0) inclusive(false)
      ins(%x : tensor<?xf32>) outs(%o, %acc : tensor<?xf32>, tensor<f32>) {
    ^bb0(%running: f32, %elem: f32):
      %next = arith.maximumf %running, %elem : f32
      linalg_ext.yield %next : f32
  } -> tensor<?xf32>, tensor<f32>
  return %r#0, %r#1 : tensor<?xf32>, tensor<f32>
}
"""


def _scan(inclusive: bool) -> str:
    return SCAN.replace("INCLUSIVE", "true" if inclusive else "false")


@pytest.mark.parametrize("inclusive", [False, True])
@pytest.mark.parametrize("dynamic", [False, True])
def test_scan_tiles_across_its_dimension(inclusive, dynamic):
    check_tile(_scan(inclusive), "linalg_ext.scan", [3, 0], [2, 8], dynamic=dynamic)


@pytest.mark.parametrize("inclusive", [False, True])
def test_scan_prefix_result_tile(inclusive):
    """A tile of the output at the start of the dimension is exact alone."""
    check_result_tile(_scan(inclusive), "linalg_ext.scan", 0, [1, 0], [3, 5])
    check_result_tile(_scan(inclusive), "linalg_ext.scan", 1, [2], [3], dynamic=True)


def test_scan_refuses_a_result_tile_inside_its_dimension():
    message = _result_refusal(_scan(True), "linalg_ext.scan", 0, [0, 3], [5, 5])
    assert "reduction loop 1" in message


def _tile_into(
    model, op: Operation, offsets: list[Mixed], sizes: list[Mixed], new_ops
) -> list[SSAValue]:
    """The tile's results written into the op's destinations (what a loop
    iteration yields)."""
    tiled = model.tile(op, offsets, sizes, new_ops)
    updated: list[SSAValue] = []
    for index, (tile, destination) in enumerate(
        zip(tiled.results, op.operands[1:], strict=True)
    ):
        position = model.result_tile_position(op, index, offsets, sizes, new_ops)
        insertion = insert_slice(tile, destination, *position)
        new_ops.append(insertion)
        updated.append(insertion.result)
    return updated


@pytest.mark.parametrize("inclusive", [False, True])
@pytest.mark.parametrize("split", [1, 3, 7])
def test_scan_two_tiles_in_order_are_the_whole_scan(inclusive, split):
    """Tile 1 scans [0, split) from the accumulator init; tile 2 scans
    [split, 8) from the destinations tile 1 left (its carry out in the
    accumulator): together, the whole scan, output and carry out."""
    text = _scan(inclusive)
    reference = parse_module(text)
    module = parse_module(text)
    op = _find(module, "linalg_ext.scan")
    model = tiling_model(op)
    assert model is not None
    new_ops: list[Operation] = []
    after_first = _tile_into(model, op, [0, 0], [5, split], new_ops)
    second = op.clone()  # the op as the next iteration sees it
    for position, value in enumerate(after_first, start=1):
        second.operands[position] = value
    after_second = _tile_into(model, second, [0, split], [5, 8 - split], new_ops)
    second.drop_all_references()
    Rewriter.insert_op(new_ops, InsertPoint.after(op))
    for result, value in zip(op.results, after_second, strict=True):
        result.replace_uses_with_if(
            value, lambda use: use.operation.name == "func.return"
        )
    module.verify()
    assert meaning_difference(reference, module, "main", trials=3) is None


@pytest.mark.parametrize("inclusive", [False, True])
@pytest.mark.parametrize("sizes", [[0, 3], [2, 3], [0, 8], [4, 5]])
def test_scan_tiled_by_loops(inclusive, sizes):
    _check_loops(_scan(inclusive), "linalg_ext.scan", sizes)


def test_scan_tiled_by_loops_interchanged():
    _check_loops(_scan(True), "linalg_ext.scan", [2, 3], interchange=(1, 0))


def test_scan_rank_one_dynamic_tiled_by_loops():
    _check_loops(SCAN_1D_DYNAMIC, "linalg_ext.scan", [3])


# --------------------------------------------------------------------------
# topk
# --------------------------------------------------------------------------

TOPK = """
func.func @main(%v: tensor<4x10xf32>) -> (tensor<4x3xf32>, tensor<4x3xi32>) {
  %ov = tensor.empty() : tensor<4x3xf32>
  %oi = tensor.empty() : tensor<4x3xi32>
  %r:2 = linalg_ext.topk dimension(1) ins(%v : tensor<4x10xf32>)
      outs(%ov, %oi : tensor<4x3xf32>, tensor<4x3xi32>) {
    ^bb0(%a: f32, %b: f32):
      %first = arith.cmpf ogt, %a, %b : f32
      linalg_ext.yield %first : i1
  } -> tensor<4x3xf32>, tensor<4x3xi32>
  return %r#0, %r#1 : tensor<4x3xf32>, tensor<4x3xi32>
}
"""

# dimension 0, with input indices, the K dimension first.
TOPK_INDICES = """
func.func @main(%v: tensor<7x?xi32>, %i: tensor<7x?xi64>) -> (tensor<2x?xi32>, tensor<2x?xi64>) {
  %c1 = arith.constant 1 : index
  %n = tensor.dim %v, %c1 : tensor<7x?xi32>
  %ov = tensor.empty(%n) : tensor<2x?xi32>
  %oi = tensor.empty(%n) : tensor<2x?xi64>
  %r:2 = linalg_ext.topk dimension(0) ins(%v, %i : tensor<7x?xi32>, tensor<7x?xi64>)
      outs(%ov, %oi : tensor<2x?xi32>, tensor<2x?xi64>) {
    ^bb0(%a: i32, %b: i32):
      %first = arith.cmpi slt, %a, %b : i32
      linalg_ext.yield %first : i1
  } -> tensor<2x?xi32>, tensor<2x?xi64>
  return %r#0, %r#1 : tensor<2x?xi32>, tensor<2x?xi64>
}
"""


@pytest.mark.parametrize("dynamic", [False, True])
@pytest.mark.parametrize(("offsets", "sizes"), [([1, 0], [2, 10]), ([3, 0], [1, 10])])
def test_topk_outputs_at_their_own_offsets(offsets, sizes, dynamic):
    """The outputs are sliced at the tile's rows and whole along K (0 to 3),
    not at the input's extent or offset there."""
    module = check_tile(TOPK, "linalg_ext.topk", offsets, sizes, dynamic=dynamic)
    slices = [
        op
        for op in module.walk()
        if op.name == "tensor.extract_slice"
        and op.operands[0].type.get_shape() == (4, 3)  # pyright: ignore[reportAttributeAccessIssue]
    ]
    assert slices and all(
        s.result_types[0].get_shape()[1] == 3  # pyright: ignore[reportAttributeAccessIssue]
        for s in slices
    )


def test_topk_with_indices_dynamic_shape():
    check_tile(TOPK_INDICES, "linalg_ext.topk", [0, 1], [7, 2], dynamic=True)


@pytest.mark.parametrize("index", [0, 1])
def test_topk_result_tiles(index):
    check_result_tile(TOPK, "linalg_ext.topk", index, [1, 0], [2, 3], dynamic=True)


def test_topk_refusals():
    assert "loop 1" in _refusal(TOPK, "linalg_ext.topk", [0, 5], [4, 5])
    message = _result_refusal(TOPK, "linalg_ext.topk", 0, [0, 1], [4, 2])
    assert "dimension 1 of its result #0" in message


@pytest.mark.parametrize(
    ("text", "sizes"), [(TOPK, [3]), (TOPK_INDICES, [0, 3]), (TOPK_INDICES, [0, 4])]
)
def test_topk_tiled_by_loops(text, sizes):
    _check_loops(text, "linalg_ext.topk", sizes)


# --------------------------------------------------------------------------
# scatter
# --------------------------------------------------------------------------

# Overwriting, so that the order of duplicate indices matters.
SCATTER = """
func.func @main(%src: tensor<4x6xf32>, %idx: tensor<7x1xindex>, %upd: tensor<7x6xf32>) -> tensor<4x6xf32> {
  %r = linalg_ext.scatter ins(%idx, %upd : tensor<7x1xindex>, tensor<7x6xf32>)
      outs(%src : tensor<4x6xf32>) {
    ^bb0(%old: f32, %new: f32):
      linalg_ext.yield %new : f32
  } -> tensor<4x6xf32>
  return %r : tensor<4x6xf32>
}
"""

# Two batch dimensions, two indexed dimensions, one window dimension.
SCATTER_2D = """
func.func @main(%src: tensor<4x4x5xi32>, %idx: tensor<3x2x2xindex>, %upd: tensor<3x2x5xi32>) -> tensor<4x4x5xi32> {
  %r = linalg_ext.scatter ins(%idx, %upd : tensor<3x2x2xindex>, tensor<3x2x5xi32>)
      outs(%src : tensor<4x4x5xi32>) {
    ^bb0(%old: i32, %new: i32):
      %sum = arith.muli %old, %new : i32
      %next = arith.addi %sum, %new : i32
      linalg_ext.yield %next : i32
  } -> tensor<4x4x5xi32>
  return %r : tensor<4x4x5xi32>
}
"""

SCATTER_DYNAMIC = """
func.func @main(%src: tensor<?x?xf32>, %idx: tensor<?x1xindex>, %upd: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %r = linalg_ext.scatter ins(%idx, %upd : tensor<?x1xindex>, tensor<?x?xf32>)
      outs(%src : tensor<?x?xf32>) {
    ^bb0(%old: f32, %new: f32):
      %sum = arith.addf %old, %new : f32
      linalg_ext.yield %sum : f32
  } -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}
"""


@pytest.mark.parametrize("dynamic", [False, True])
@pytest.mark.parametrize(("offsets", "sizes"), [([0, 2], [7, 3]), ([0, 4], [7, 2])])
def test_scatter_window_tiles(offsets, sizes, dynamic):
    check_tile(SCATTER, "linalg_ext.scatter", offsets, sizes, dynamic=dynamic)


def test_scatter_two_batch_dims_window_tile():
    check_tile(SCATTER_2D, "linalg_ext.scatter", [0, 0, 1], [3, 2, 3], dynamic=True)


def test_scatter_result_tiles():
    check_result_tile(SCATTER, "linalg_ext.scatter", 0, [0, 1], [4, 4])
    check_result_tile(
        SCATTER_2D, "linalg_ext.scatter", 0, [0, 0, 2], [4, 4, 3], dynamic=True
    )


def test_scatter_refusals():
    message = _refusal(SCATTER_2D, "linalg_ext.scatter", [0, 1, 0], [3, 1, 5])
    assert "loop 1" in message and "row-major batch order" in message
    message = _result_refusal(SCATTER, "linalg_ext.scatter", 0, [1, 0], [2, 6])
    assert "dimension 0 of its result" in message
    op = _find(parse_module(SCATTER_2D), "linalg_ext.scatter")
    model = tiling_model(op)
    assert model is not None
    assert model.whole_dims(op) == {1}
    assert model.loop_types(op) == ["reduction", "reduction", "parallel"]


@pytest.mark.parametrize(
    ("text", "sizes", "interchange"),
    [
        (SCATTER, [2], ()),
        (SCATTER, [3, 4], ()),
        (SCATTER, [3, 4], (1, 0)),
        (SCATTER_2D, [2, 0, 2], ()),
        (SCATTER_DYNAMIC, [3, 3], ()),
    ],
)
def test_scatter_tiled_by_loops(text, sizes, interchange):
    """Batch tiles run in order: duplicate indices still land in row-major
    order (the overwriting SCATTER, 7 updates into 4 rows)."""
    _check_loops(text, "linalg_ext.scatter", sizes, interchange)


SCATTER_OVERWRITE_2D = """
func.func @main(%src: tensor<6x2xf32>, %idx: tensor<3x2x1xindex>, %upd: tensor<3x2x2xf32>) -> tensor<6x2xf32> {
  %r = linalg_ext.scatter ins(%idx, %upd : tensor<3x2x1xindex>, tensor<3x2x2xf32>)
      outs(%src : tensor<6x2xf32>) {
    ^bb0(%old: f32, %new: f32):
      linalg_ext.yield %new : f32
  } -> tensor<6x2xf32>
  return %r : tensor<6x2xf32>
}
"""


def test_scatter_inner_batch_loop_stays_whole():
    """Why we refuse what ByteIR allows: batch positions (0, 1) and (1, 0)
    hit the same row; in row-major order (1, 0) is applied last, but tiles
    of the inner batch loop would apply (0, 1) after it."""
    source = np.zeros((6, 2), np.float32)
    indices = np.array([[[0], [1]], [[1], [2]], [[3], [4]]], np.int64)
    updates = np.arange(12, dtype=np.float32).reshape(3, 2, 2)
    inputs = [source, indices, updates]
    whole = run_function(parse_module(SCATTER_OVERWRITE_2D), "main", inputs)
    assert whole.results[0][1].tolist() == [4.0, 5.0]  # from (1, 0)

    op = _find(parse_module(SCATTER_OVERWRITE_2D), "linalg_ext.scatter")
    with pytest.raises(TilingRefused, match="cannot be tiled along loop 1"):
        tile_using_for(op, [0, 1])

    class ByteIRScatterTiling(ScatterTiling):
        def whole_dims(self, op: Operation) -> set[int]:
            return set()

    module = parse_module(SCATTER_OVERWRITE_2D)
    ours = tiling_model(_find(module, "linalg_ext.scatter"))
    assert ours is not None
    register_tiling(ScatterOp, ByteIRScatterTiling())
    try:
        tile_using_for(_find(module, "linalg_ext.scatter"), [0, 1])
    finally:
        register_tiling(ScatterOp, ours)
    reordered = run_function(module, "main", inputs)
    assert reordered.results[0][1].tolist() == [2.0, 3.0]  # from (0, 1): wrong


# --------------------------------------------------------------------------
# diag
# --------------------------------------------------------------------------

DIAG = """
func.func @main(%v: tensor<2x5xf32>) -> tensor<2x5x5xf32> {
  %init = tensor.empty() : tensor<2x5x5xf32>
  %d = linalg_ext.diag ins(%v : tensor<2x5xf32>) outs(%init : tensor<2x5x5xf32>) : tensor<2x5x5xf32>
  return %d : tensor<2x5x5xf32>
}
"""

DIAG_DYNAMIC = """
func.func @main(%v: tensor<?xi64>) -> tensor<?x?xi64> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %v, %c0 : tensor<?xi64>
  %init = tensor.empty(%n, %n) : tensor<?x?xi64>
  %d = linalg_ext.diag ins(%v : tensor<?xi64>) outs(%init : tensor<?x?xi64>) : tensor<?x?xi64>
  return %d : tensor<?x?xi64>
}
"""


@pytest.mark.parametrize("dynamic", [False, True])
@pytest.mark.parametrize(
    ("offsets", "sizes", "as_diag"),
    [
        ([1, 0, 0], [1, 5, 5], True),  # a batch tile
        ([0, 1, 1], [2, 3, 3], True),  # square on the diagonal
        ([1, 1, 2], [1, 3, 2], False),  # crosses the diagonal off-centre
        ([0, 3, 0], [2, 2, 2], False),  # misses it: zeros
        ([0, 2, 0], [2, 3, 5], False),  # rows, as tiling i makes them
    ],
)
def test_diag_tiles(offsets, sizes, as_diag, dynamic):
    module = check_tile(DIAG, "linalg_ext.diag", offsets, sizes, dynamic=dynamic)
    diags = [op for op in module.walk() if op.name == "linalg_ext.diag"]
    generics = [op for op in module.walk() if op.name == "linalg.generic"]
    assert (len(diags), len(generics)) == ((2, 0) if as_diag else (1, 1))


def test_diag_result_tile():
    check_result_tile(DIAG, "linalg_ext.diag", 0, [1, 1, 0], [1, 4, 3], dynamic=True)


@pytest.mark.parametrize(
    ("text", "sizes", "interchange"),
    [
        (DIAG, [1], ()),
        (DIAG, [0, 2, 3], ()),
        (DIAG, [1, 3, 2], (2, 0, 1)),
        (DIAG_DYNAMIC, [3, 2], ()),
    ],
)
def test_diag_tiled_by_loops(text, sizes, interchange):
    _check_loops(text, "linalg_ext.diag", sizes, interchange)


# --------------------------------------------------------------------------
# batch_matmul
# --------------------------------------------------------------------------

BATCH_MATMUL = """
func.func @main(%lhs: tensor<LHSxf32>, %rhs: tensor<RHSxf32>, %init: tensor<2x3x4xf32>) -> tensor<2x3x4xf32> {
  %r = linalg_ext.batch_matmul ins(%lhs, %rhs : tensor<LHSxf32>, tensor<RHSxf32>)
      outs(%init : tensor<2x3x4xf32>) layout = "LAYOUT"
  return %r : tensor<2x3x4xf32>
}
"""


def _batch_matmul(layout: str) -> str:
    lhs = "2x3x5" if layout[0] == "n" else "2x5x3"
    rhs = "2x5x4" if layout[1] == "n" else "2x4x5"
    return (
        BATCH_MATMUL.replace("LHS", lhs).replace("RHS", rhs).replace("LAYOUT", layout)
    )


BATCH_MATMUL_DYNAMIC = """
func.func @main(%lhs: tensor<?x?x?xi32>, %rhs: tensor<?x?x?xi32>, %init: tensor<?x?x?xi32>) -> tensor<?x?x?xi32> {
  %r = linalg_ext.batch_matmul ins(%lhs, %rhs : tensor<?x?x?xi32>, tensor<?x?x?xi32>)
      outs(%init : tensor<?x?x?xi32>) layout = "tn"
  return %r : tensor<?x?x?xi32>
}
"""


@pytest.mark.parametrize("layout", ["nn", "nt", "tn", "tt"])
@pytest.mark.parametrize("dynamic", [False, True])
def test_batch_matmul_tiles(layout, dynamic):
    check_tile(
        _batch_matmul(layout),
        "linalg_ext.batch_matmul",
        [1, 1, 2, 0],
        [1, 2, 2, 5],
        dynamic=dynamic,
    )


@pytest.mark.parametrize("layout", ["nt", "tn"])
def test_batch_matmul_result_tile(layout):
    check_result_tile(
        _batch_matmul(layout),
        "linalg_ext.batch_matmul",
        0,
        [0, 2, 1],
        [2, 1, 3],
        dynamic=True,
    )


def test_batch_matmul_loops():
    op = _find(parse_module(_batch_matmul("nn")), "linalg_ext.batch_matmul")
    model = tiling_model(op)
    assert model is not None
    assert model.loop_types(op) == ["parallel"] * 3 + ["reduction"]
    assert model.iteration_domain(op, []) == [2, 3, 4, 5]


@pytest.mark.parametrize(
    ("text", "sizes", "interchange"),
    [
        (_batch_matmul("nn"), [1, 2, 3, 2], ()),
        (_batch_matmul("tt"), [0, 2, 0, 3], (3, 1, 0, 2)),
        (_batch_matmul("nt"), [0, 0, 0, 2], ()),
        (BATCH_MATMUL_DYNAMIC, [3, 3, 0, 3], ()),
    ],
)
def test_batch_matmul_tiled_by_loops(text, sizes, interchange):
    """Tiling k accumulates into the carried init."""
    _check_loops(text, "linalg_ext.batch_matmul", sizes, interchange)


# --------------------------------------------------------------------------
# custom
# --------------------------------------------------------------------------

CUSTOM = """
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %o = tensor.empty() : tensor<4xf32>
  %r = linalg_ext.custom ins(%x : tensor<4xf32>) outs(%o : tensor<4xf32>) {
    ^bb0(%a: tensor<4xf32>, %b: tensor<4xf32>):
      linalg_ext.yield %a : tensor<4xf32>
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}
"""


def test_custom_is_refused():
    op = _find(parse_module(CUSTOM), "linalg_ext.custom")
    model = tiling_model(op)
    assert model is not None
    reason = "linalg_ext.custom has no known iteration space"
    assert model.refusal(op) == reason
    for ask in (
        lambda: model.loop_types(op),
        lambda: model.iteration_domain(op, []),
        lambda: model.tile(op, [0], [2], []),
        lambda: model.result_tile(op, 0, [0], [2], []),
    ):
        with pytest.raises(TilingRefused, match=reason):
            ask()
    with pytest.raises(TilingRefused, match=reason):
        tile_using_for(op, [2])


def test_every_linalg_ext_op_with_loops_has_a_model():
    """alias and yield have no loops; every other op has a model."""
    registered = registered_op_types()
    for op_type in LinalgExt.operations:
        if op_type in (AliasOp, YieldOp):
            continue
        assert any(issubclass(op_type, r) for r in registered), op_type.name


@pytest.mark.parametrize(
    ("text", "op_name", "sizes", "interchange"),
    [
        (SCAN_1D_DYNAMIC, "linalg_ext.scan", [3], ()),
        (DIAG_DYNAMIC, "linalg_ext.diag", [3, 2], ()),
        (SCATTER, "linalg_ext.scatter", [3, 4], (1, 0)),
        (BATCH_MATMUL_DYNAMIC, "linalg_ext.batch_matmul", [3, 3, 0, 3], ()),
    ],
)
def test_tiled_loops_compile_natively(text, op_name, sizes, interchange):
    """The tiled nests (rank-0 accumulator slices, the off-diagonal generic
    reading the tile's offsets, k tiles) compute the same compiled."""
    tiled = _check_loops(text, op_name, sizes, interchange)
    report = check_module(tiled, [], backend="jit", trials=2)
    assert report.ok, [str(v) for v in report.verdicts]


SQUARE_OF_SOFTMAX = """
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @main(%x: tensor<?x?xf32>, %m: tensor<?xf32>, %a: tensor<?xf32>, %s: tensor<?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n0 = tensor.dim %x, %c0 : tensor<?x?xf32>
  %n1 = tensor.dim %x, %c1 : tensor<?x?xf32>
  %o = tensor.empty(%n0, %n1) : tensor<?x?xf32>
  %r:4 = linalg_ext.softmax dimension(1) ins(%x : tensor<?x?xf32>)
      outs(%o, %m, %a, %s : tensor<?x?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>)
      : tensor<?x?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>
  %e = tensor.empty(%n0, %n1) : tensor<?x?xf32>
  %g = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%r#0 : tensor<?x?xf32>) outs(%e : tensor<?x?xf32>) {
    ^bb0(%in: f32, %out: f32):
      %y = arith.mulf %in, %in : f32
      linalg.yield %y : f32
  } -> tensor<?x?xf32>
  return %g : tensor<?x?xf32>
}
"""


@pytest.mark.parametrize(("sizes", "fused"), [([2], True), ([2, 3], False)])
def test_softmax_fused_into_its_consumer_rows_only(sizes, fused):
    """The consumer's row tiles take the softmax's rows into the loop (its
    dynamic row length recognised as whole); column tiles would cut its
    dimension, so it stays outside. Both compute what the original does."""
    reference = parse_module(SQUARE_OF_SOFTMAX)
    module = parse_module(SQUARE_OF_SOFTMAX)
    result = tile_and_fuse(_find(module, "linalg.generic"), sizes)
    module.verify()
    (softmax,) = [op for op in module.walk() if op.name == "linalg_ext.softmax"]
    assert (softmax.parent_op() in result.loops) == fused
    assert meaning_difference(reference, module, "main") is None
