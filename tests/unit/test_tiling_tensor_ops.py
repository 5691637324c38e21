"""The tiling models of `tensor.pad`, `tensor.expand_shape` and
`tensor.collapse_shape` (linalg_ext/tiling/pad.py, tensor_ops.py): every
tile computes what the whole op computes there (tests/unit/tiling_harness.py,
static and dynamic offsets/sizes), a pad's tile never slices its source out
of bounds, refusals say why; tiled and fused with the drivers, programs
compute what they did; upstream's tiling of a pad computes the same."""

from __future__ import annotations

import itertools
import subprocess
from dataclasses import dataclass

import numpy as np
import pytest
from tiling_harness import check_result_tile, check_tile
from xdsl.context import Context
from xdsl.dialects import scf, tensor
from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.ir import Operation
from xdsl.passes import ModulePass

from helpers import meaning_difference, parse_module, print_module
from linalg_ext.checking import check_module
from linalg_ext.comparison import compare_values
from linalg_ext.compat.affine_ops import MaxOp
from linalg_ext.compat.tensor_ops import GenerateOp
from linalg_ext.running import find_function, random_inputs, run_function
from linalg_ext.tiling import TilingRefused, tiling_model
from linalg_ext.tiling.fusion_driver import tile_and_fuse
from linalg_ext.tiling.loops import tile_using_for
from linalg_ext.transforms.mixed_sizes import max_mixed
from linalg_ext.transforms.shape_reification import tensor_dim
from linalg_ext.upstream import MLIR_OPT, run_upstream, upstream_available

# A 5x6 source padded to 9x9 (low 2/1, high 2/2) with a constant.
PAD = """
func.func @main(%src: tensor<5x6xf32>) -> tensor<9x9xf32> {
  %cst = arith.constant 7.0 : f32
  %r = tensor.pad %src low[2, 1] high[2, 2] {
  ^bb0(%i: index, %j: index):
    tensor.yield %cst : f32
  } : tensor<5x6xf32> to tensor<9x9xf32>
  return %r : tensor<9x9xf32>
}
"""

# Pad amounts the model sees as values; dimension 1 padded on one side only.
PAD_DYNAMIC_AMOUNTS = """
func.func @main(%src: tensor<5x6xf32>, %v: f32) -> tensor<?x?xf32> {
  %l = arith.constant 2 : index
  %h = arith.constant 3 : index
  %r = tensor.pad %src low[%l, 0] high[%h, %l] {
  ^bb0(%i: index, %j: index):
    tensor.yield %v : f32
  } : tensor<5x6xf32> to tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}
"""

# A dynamic source, padded low only along dimension 0 (the runs give it 4x4).
PAD_DYNAMIC_SOURCE = """
func.func @main(%src: tensor<?x4xi32>) -> tensor<?x7xi32> {
  %c = arith.constant -1 : i32
  %r = tensor.pad %src low[3, 1] high[0, 2] {
  ^bb0(%i: index, %j: index):
    tensor.yield %c : i32
  } : tensor<?x4xi32> to tensor<?x7xi32>
  return %r : tensor<?x7xi32>
}
"""

PAD_BY_POSITION = """
func.func @main(%src: tensor<4xf32>) -> tensor<6xf32> {
  %r = tensor.pad %src low[1] high[1] {
  ^bb0(%i: index):
    %n = arith.index_cast %i : index to i32
    %f = arith.sitofp %n : i32 to f32
    tensor.yield %f : f32
  } : tensor<4xf32> to tensor<6xf32>
  return %r : tensor<6xf32>
}
"""

EXPAND = """
func.func @main(%src: tensor<24x5xf32>) -> tensor<1x4x6x5xf32> {
  %r = tensor.expand_shape %src [[0, 1, 2], [3]] output_shape [1, 4, 6, 5]
      : tensor<24x5xf32> into tensor<1x4x6x5xf32>
  return %r : tensor<1x4x6x5xf32>
}
"""

# The runs give %src 4x5 (DEFAULT_DIM_SIZE), so %n is 2.
EXPAND_DYNAMIC = """
func.func @main(%src: tensor<?x5xf32>) -> tensor<?x2x5xf32> {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %d = tensor.dim %src, %c0 : tensor<?x5xf32>
  %n = arith.divui %d, %c2 : index
  %r = tensor.expand_shape %src [[0, 1], [2]] output_shape [%n, 2, 5]
      : tensor<?x5xf32> into tensor<?x2x5xf32>
  return %r : tensor<?x2x5xf32>
}
"""

# The whole dimension of the group is the dynamic one (the runs give %src 4
# elements, so %m is 2); a consumer whose init has the same extent %m.
EXPAND_DYNAMIC_INNER = """
func.func @main(%src: tensor<?xf32>) -> tensor<2x?xf32> {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %d = tensor.dim %src, %c0 : tensor<?xf32>
  %m = arith.divui %d, %c2 : index
  %x = tensor.expand_shape %src [[0, 1]] output_shape [2, %m]
      : tensor<?xf32> into tensor<2x?xf32>
  %e = tensor.empty(%m) : tensor<2x?xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>,
                                        affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<2x?xf32>) outs(%e : tensor<2x?xf32>) {
  ^bb0(%v: f32, %o: f32):
    %y = arith.mulf %v, %v : f32
    linalg.yield %y : f32
  } -> tensor<2x?xf32>
  return %r : tensor<2x?xf32>
}
"""

COLLAPSE = """
func.func @main(%src: tensor<1x4x6x5xf32>) -> tensor<24x5xf32> {
  %r = tensor.collapse_shape %src [[0, 1, 2], [3]]
      : tensor<1x4x6x5xf32> into tensor<24x5xf32>
  return %r : tensor<24x5xf32>
}
"""

# Dynamic extents in a group: the whole dims' product is only known at run
# time (the runs give 4x4x3).
COLLAPSE_DYNAMIC = """
func.func @main(%src: tensor<?x?x3xf32>) -> tensor<?x3xf32> {
  %r = tensor.collapse_shape %src [[0, 1], [2]]
      : tensor<?x?x3xf32> into tensor<?x3xf32>
  return %r : tensor<?x3xf32>
}
"""


def _op(module: ModuleOp, name: str) -> Operation:
    (op,) = [op for op in module.walk() if op.name == name]
    return op


def _tile_ops(text: str, name: str, offsets, sizes) -> list[Operation]:
    module = parse_module(text)
    op = _op(module, name)
    model = tiling_model(op)
    assert model is not None
    new_ops: list[Operation] = []
    model.tile(op, offsets, sizes, new_ops)
    return new_ops


# ---------------------------------------------------------------------------
# tensor.pad
# ---------------------------------------------------------------------------

PAD_TILES = {
    "interior": ([3, 2], [2, 3]),
    "straddling the low border": ([1, 0], [3, 4]),
    "straddling the high border": ([5, 6], [3, 3]),
    "straddling both borders": ([0, 0], [9, 9]),
    "in the low border": ([0, 0], [2, 1]),
    "in the high border": ([7, 7], [2, 2]),
    "in a border along one dim only": ([3, 8], [3, 1]),
    "partial end tile": ([8, 4], [1, 5]),
}


@pytest.mark.parametrize("dynamic", [False, True], ids=["static", "dynamic"])
@pytest.mark.parametrize("tile", list(PAD_TILES), ids=list(PAD_TILES))
def test_pad_tile(tile: str, dynamic: bool):
    offsets, sizes = PAD_TILES[tile]
    check_tile(PAD, "tensor.pad", offsets, sizes, dynamic=dynamic, trials=1)
    check_result_tile(PAD, "tensor.pad", 0, offsets, sizes, dynamic=dynamic, trials=1)


def test_pad_static_tile_folds_to_ints():
    ops = _tile_ops(PAD, "tensor.pad", [1, 0], [3, 4])
    assert [op.name for op in ops] == ["tensor.extract_slice", "tensor.pad"]
    slice_op, pad = ops
    assert isinstance(slice_op, tensor.ExtractSliceOp)
    assert isinstance(pad, tensor.PadOp)
    assert slice_op.static_offsets.get_values() == (0, 0)
    assert slice_op.static_sizes.get_values() == (2, 3)
    assert pad.static_low.get_values() == (1, 1)
    assert pad.static_high.get_values() == (0, 0)
    assert pad.result.type == TensorType(pad.result.type.get_element_type(), [3, 4])


def test_pad_tile_in_the_border_reads_nothing():
    ops = _tile_ops(PAD, "tensor.pad", [7, 0], [2, 9])
    assert [op.name for op in ops] == ["tensor.generate"]
    assert isinstance(ops[0], GenerateOp)


def test_pad_unpadded_dims_keep_the_tile():
    ops = _tile_ops(PAD_DYNAMIC_SOURCE, "tensor.pad", [4, 0], [2, 7])
    slice_op = ops[-2]
    assert isinstance(slice_op, tensor.ExtractSliceOp)
    # Dimension 0 has no high padding: a tile from 4 reads from source row 1.
    assert slice_op.static_offsets.get_values() == (1, 0)


def test_pad_source_slices_stay_in_bounds():
    """Every tile of a 1-D pad (static, so the slices are ints): the source
    slice lies inside the source, the amounts are not negative, and they add
    up to the tile."""
    cases = [(2, 3), (0, 3), (2, 0), (0, 0)]
    for low, high in cases:
        source = 4
        text = f"""
func.func @main(%src: tensor<{source}xf32>) -> tensor<{low + source + high}xf32> {{
  %cst = arith.constant 0.0 : f32
  %r = tensor.pad %src low[{low}] high[{high}] {{
  ^bb0(%i: index):
    tensor.yield %cst : f32
  }} : tensor<{source}xf32> to tensor<{low + source + high}xf32>
  return %r : tensor<{low + source + high}xf32>
}}
"""
        extent = low + source + high
        for offset in range(extent):
            for size in range(1, extent - offset + 1):
                ops = _tile_ops(text, "tensor.pad", [offset], [size])
                tile = ops[-1]
                if isinstance(tile, GenerateOp):
                    inside = min(offset + size, low + source) - max(offset, low)
                    assert inside <= 0, (low, high, offset, size)
                    continue
                slice_op, pad = ops
                assert isinstance(slice_op, tensor.ExtractSliceOp)
                assert isinstance(pad, tensor.PadOp)
                (start,) = slice_op.static_offsets.get_values()
                (length,) = slice_op.static_sizes.get_values()
                (new_low,) = pad.static_low.get_values()
                (new_high,) = pad.static_high.get_values()
                assert 0 <= start and 0 <= length and start + length <= source
                assert new_low >= 0 and new_high >= 0
                assert new_low + length + new_high == size


@pytest.mark.parametrize("dynamic", [False, True], ids=["static", "dynamic"])
@pytest.mark.parametrize(
    ("offsets", "sizes"),
    [([0, 0], [3, 8]), ([3, 5], [7, 3]), ([8, 6], [2, 2]), ([1, 1], [9, 5])],
)
def test_pad_dynamic_amounts(offsets, sizes, dynamic: bool):
    # The result is 10x8 at run time.
    check_tile(
        PAD_DYNAMIC_AMOUNTS, "tensor.pad", offsets, sizes, dynamic=dynamic, trials=1
    )


def test_pad_dynamic_amounts_static_tile_is_cast_to_its_type():
    ops = _tile_ops(PAD_DYNAMIC_AMOUNTS, "tensor.pad", [3, 5], [7, 3])
    cast = ops[-1]
    assert isinstance(cast, tensor.CastOp)
    assert cast.dest.type == TensorType(cast.dest.type.get_element_type(), [7, 3])


@pytest.mark.parametrize("dynamic", [False, True], ids=["static", "dynamic"])
@pytest.mark.parametrize(
    ("offsets", "sizes"), [([0, 0], [2, 7]), ([2, 1], [3, 4]), ([5, 6], [2, 1])]
)
def test_pad_dynamic_source(offsets, sizes, dynamic: bool):
    check_tile(
        PAD_DYNAMIC_SOURCE, "tensor.pad", offsets, sizes, dynamic=dynamic, trials=1
    )


def test_pad_iteration_domain():
    for text, expected_static in ((PAD, [9, 9]), (PAD_DYNAMIC_AMOUNTS, None)):
        module = parse_module(text)
        op = _op(module, "tensor.pad")
        model = tiling_model(op)
        assert model is not None
        new_ops: list[Operation] = []
        domain = model.iteration_domain(op, new_ops)
        assert model.loop_types(op) == ["parallel", "parallel"]
        if expected_static is not None:
            assert domain == expected_static and not new_ops
        else:
            assert not any(isinstance(d, int) for d in domain)


def test_pad_with_position_dependent_value_is_refused():
    module = parse_module(PAD_BY_POSITION)
    op = _op(module, "tensor.pad")
    model = tiling_model(op)
    assert model is not None
    reason = model.refusal(op)
    assert reason is not None and "depends on the position" in reason
    with pytest.raises(TilingRefused, match="depends on the position"):
        model.tile(op, [1], [2], [])
    with pytest.raises(TilingRefused, match="depends on the position"):
        tile_using_for(op, [2])
    assert print_module(module) == print_module(parse_module(PAD_BY_POSITION))


@pytest.mark.parametrize(
    ("text", "sizes"),
    [
        (PAD, [4, 4]),
        (PAD, [2, 0]),
        (PAD_DYNAMIC_AMOUNTS, [3, 5]),
        (PAD_DYNAMIC_SOURCE, [2, 3]),
    ],
)
def test_pad_tiled_by_loops_computes_the_same(text: str, sizes: list[int]):
    module = parse_module(text)
    tile_using_for(_op(module, "tensor.pad"), sizes)
    module.verify()
    body = find_function(module, "main").body.block
    assert not [op for op in body.ops if isinstance(op, tensor.PadOp)]
    assert any(isinstance(op, scf.ForOp) for op in body.ops)
    assert meaning_difference(parse_module(text), module, "main") is None


def test_max_mixed_folds_static_values():
    assert max_mixed([3, 5, 1], []) == 5
    module = parse_module(PAD_DYNAMIC_AMOUNTS)
    value = _op(module, "tensor.pad").operands[1]
    new_ops: list[Operation] = []
    assert max_mixed([value], new_ops) is value and not new_ops
    result = max_mixed([2, value, 4], new_ops)
    (maximum,) = new_ops
    assert isinstance(maximum, MaxOp) and result is maximum.result
    # The largest constant where the first one was, then the value.
    assert [str(e) for e in maximum.map.data.results] == ["4", "d0"]


# ---------------------------------------------------------------------------
# tensor.expand_shape / tensor.collapse_shape
# ---------------------------------------------------------------------------


def test_reshape_whole_dims():
    for text, name in (
        (EXPAND, "tensor.expand_shape"),
        (COLLAPSE, "tensor.collapse_shape"),
    ):
        module = parse_module(text)
        op = _op(module, name)
        model = tiling_model(op)
        assert model is not None
        # Group [0, 1, 2] tiles its outermost non-unit dim, 1; group [3] dim 3.
        assert model.whole_dims(op) == {0, 2}
        assert model.loop_types(op) == ["parallel"] * 4
        assert model.iteration_domain(op, []) == [1, 4, 6, 5]


@pytest.mark.parametrize("dynamic", [False, True], ids=["static", "dynamic"])
@pytest.mark.parametrize(
    ("offsets", "sizes"),
    [
        ([0, 1, 0, 2], [1, 2, 6, 3]),
        ([0, 3, 0, 0], [1, 1, 6, 5]),
        ([0, 0, 0, 4], [1, 4, 6, 1]),
    ],
)
def test_expand_tile(offsets, sizes, dynamic: bool):
    check_tile(EXPAND, "tensor.expand_shape", offsets, sizes, dynamic=dynamic, trials=1)
    check_result_tile(
        EXPAND, "tensor.expand_shape", 0, offsets, sizes, dynamic=dynamic, trials=1
    )


@pytest.mark.parametrize("dynamic", [False, True], ids=["static", "dynamic"])
def test_expand_dynamic_output_shape(dynamic: bool):
    module = parse_module(EXPAND_DYNAMIC)
    op = _op(module, "tensor.expand_shape")
    model = tiling_model(op)
    assert model is not None
    assert model.whole_dims(op) == {1}
    domain = model.iteration_domain(op, [])
    assert domain[1:] == [2, 5] and not isinstance(domain[0], int)
    check_tile(
        EXPAND_DYNAMIC,
        "tensor.expand_shape",
        [1, 0, 1],
        [1, 2, 3],
        dynamic=dynamic,
        trials=1,
    )


@pytest.mark.parametrize("dynamic", [False, True], ids=["static", "dynamic"])
def test_expand_dynamic_whole_dim(dynamic: bool):
    module = parse_module(EXPAND_DYNAMIC_INNER)
    op = _op(module, "tensor.expand_shape")
    model = tiling_model(op)
    assert model is not None
    assert model.whole_dims(op) == {1}
    check_tile(
        EXPAND_DYNAMIC_INNER,
        "tensor.expand_shape",
        [1, 0],
        [1, 2],
        dynamic=dynamic,
        trials=1,
    )


def test_expand_tile_cutting_a_whole_dim_is_refused():
    module = parse_module(EXPAND)
    op = _op(module, "tensor.expand_shape")
    model = tiling_model(op)
    assert model is not None
    with pytest.raises(
        TilingRefused,
        match=r"tiles only dimension 1 of reassociation group \[0, 1, 2\].*dimension 2 must stay whole",
    ):
        model.tile(op, [0, 0, 0, 0], [1, 2, 3, 5], [])
    with pytest.raises(TilingRefused, match="keep dimension 2 whole"):
        model.result_tile(op, 0, [0, 0, 2, 0], [1, 2, 4, 5], [])
    with pytest.raises(TilingRefused, match="loop 2: it must stay whole"):
        tile_using_for(op, [0, 1, 2, 0])


@pytest.mark.parametrize("dynamic", [False, True], ids=["static", "dynamic"])
@pytest.mark.parametrize(
    ("offsets", "sizes"),
    [
        ([0, 1, 0, 2], [1, 3, 6, 3]),
        ([0, 3, 0, 0], [1, 1, 6, 5]),
        ([0, 0, 0, 0], [1, 4, 6, 5]),
    ],
)
def test_collapse_tile(offsets, sizes, dynamic: bool):
    check_tile(
        COLLAPSE, "tensor.collapse_shape", offsets, sizes, dynamic=dynamic, trials=1
    )


@pytest.mark.parametrize("dynamic", [False, True], ids=["static", "dynamic"])
@pytest.mark.parametrize(
    ("offsets", "sizes"), [([6, 1], [12, 3]), ([18, 0], [6, 5]), ([0, 0], [24, 5])]
)
def test_collapse_result_tile(offsets, sizes, dynamic: bool):
    check_result_tile(
        COLLAPSE, "tensor.collapse_shape", 0, offsets, sizes, dynamic=dynamic, trials=1
    )


def test_collapse_result_tile_not_a_multiple_is_refused():
    module = parse_module(COLLAPSE)
    op = _op(module, "tensor.collapse_shape")
    model = tiling_model(op)
    assert model is not None
    for offsets, sizes in (([6, 0], [8, 5]), ([3, 0], [6, 5])):
        with pytest.raises(
            TilingRefused,
            match=r"multiples of 6 \(the product of source dimensions \[2\]\)",
        ):
            model.result_tile(op, 0, offsets, sizes, [])


@pytest.mark.parametrize("dynamic", [False, True], ids=["static", "dynamic"])
def test_collapse_dynamic(dynamic: bool):
    module = parse_module(COLLAPSE_DYNAMIC)
    op = _op(module, "tensor.collapse_shape")
    model = tiling_model(op)
    assert model is not None
    assert model.whole_dims(op) == {1}
    check_tile(
        COLLAPSE_DYNAMIC,
        "tensor.collapse_shape",
        [1, 0, 1],
        [2, 4, 2],
        dynamic=dynamic,
        trials=1,
    )
    # A tile of the result needs the dynamic product of the whole dims...
    with pytest.raises(TilingRefused, match="which is dynamic"):
        model.result_tile(op, 0, [4, 0], [4, 3], [])
    # ...unless it covers the whole group.
    new_ops: list[Operation] = []
    whole = tensor_dim(op.results[0], 0, new_ops)
    offsets, sizes = model.iteration_tile_of_result(op, 0, [0, 1], [whole, 2], new_ops)
    assert offsets == [0, 0, 1] and sizes[2] == 2


@pytest.mark.parametrize(
    ("text", "name", "sizes"),
    [
        (EXPAND, "tensor.expand_shape", [0, 3, 0, 2]),
        (EXPAND_DYNAMIC, "tensor.expand_shape", [1, 0, 0]),
        (COLLAPSE, "tensor.collapse_shape", [0, 3, 0, 2]),
        (COLLAPSE_DYNAMIC, "tensor.collapse_shape", [3, 0, 2]),
    ],
)
def test_reshape_tiled_by_loops_computes_the_same(text: str, name: str, sizes):
    module = parse_module(text)
    tile_using_for(_op(module, name), sizes)
    module.verify()
    assert meaning_difference(parse_module(text), module, "main") is None


# A consumer of a collapse tiled along the collapsed dim by a multiple of 6:
# the collapse fuses (its tile's offset is the loop's induction variable,
# provably a multiple, its size 12 or what is left); by 4 it does not, and
# the program is still right.
COLLAPSE_CONSUMER = """
func.func @main(%src: tensor<1x{n}x6x5xf32>) -> tensor<{m}x5xf32> {{
  %c = tensor.collapse_shape %src [[0, 1, 2], [3]]
      : tensor<1x{n}x6x5xf32> into tensor<{m}x5xf32>
  %e = tensor.empty() : tensor<{m}x5xf32>
  %r = linalg.generic {{indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>,
                                        affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}}
      ins(%c : tensor<{m}x5xf32>) outs(%e : tensor<{m}x5xf32>) {{
  ^bb0(%x: f32, %o: f32):
    %y = arith.mulf %x, %x : f32
    linalg.yield %y : f32
  }} -> tensor<{m}x5xf32>
  return %r : tensor<{m}x5xf32>
}}
"""

PAD_CONSUMER = """
func.func @main(%src: tensor<5x6xf32>) -> tensor<9x9xf32> {
  %cst = arith.constant 7.0 : f32
  %p = tensor.pad %src low[2, 1] high[2, 2] {
  ^bb0(%i: index, %j: index):
    tensor.yield %cst : f32
  } : tensor<5x6xf32> to tensor<9x9xf32>
  %e = tensor.empty() : tensor<9x9xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>,
                                        affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%p : tensor<9x9xf32>) outs(%e : tensor<9x9xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.addf %x, %x : f32
    linalg.yield %y : f32
  } -> tensor<9x9xf32>
  return %r : tensor<9x9xf32>
}
"""


@pytest.mark.parametrize(
    ("text", "producer", "sizes", "fuses"),
    [
        (COLLAPSE_CONSUMER.format(n=4, m=24), "tensor.collapse_shape", [12, 0], True),
        # 30 rows by 12: the last tile is partial (affine.min), still whole
        # rows of 6.
        (COLLAPSE_CONSUMER.format(n=5, m=30), "tensor.collapse_shape", [12, 0], True),
        (COLLAPSE_CONSUMER.format(n=4, m=24), "tensor.collapse_shape", [4, 0], False),
        (PAD_CONSUMER, "tensor.pad", [4, 3], True),
        # The consumer's tile keeps the dynamic whole dim at %m, the expand's
        # own extent: provably whole, so the expand fuses.
        (EXPAND_DYNAMIC_INNER, "tensor.expand_shape", [1, 0], True),
    ],
)
def test_fused_into_a_consumer(text: str, producer: str, sizes, fuses: bool):
    module = parse_module(text)
    result = tile_and_fuse(_op(module, "linalg.generic"), sizes)
    module.verify()
    assert [op.name for op in result.producers] == ([producer] if fuses else [])
    assert meaning_difference(parse_module(text), module, "main") is None


@dataclass(frozen=True)
class _TileOp(ModulePass):
    """Tile the one op named `root` by `sizes` (for `check_module`)."""

    name = "test-tile-tensor-op"
    root: str = "tensor.pad"
    sizes: tuple[int, ...] = ()

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        tile_using_for(_op(op, self.root), self.sizes)


def test_tiled_compiled():
    """The tiled programs, compiled natively, compute what the untiled
    ones interpreted do."""
    for text, root, sizes in (
        (PAD, "tensor.pad", (4, 4)),
        (PAD_DYNAMIC_AMOUNTS, "tensor.pad", (3, 5)),
        (COLLAPSE_DYNAMIC, "tensor.collapse_shape", (3, 0, 2)),
        (EXPAND_DYNAMIC, "tensor.expand_shape", (1, 0, 0)),
    ):
        pass_ = _TileOp(root, sizes)
        report = check_module(parse_module(text), [pass_], backend="jit", trials=1)
        assert report.ok, (root, report)


# ---------------------------------------------------------------------------
# upstream
# ---------------------------------------------------------------------------

TRANSFORM_SCRIPT = """
  transform.named_sequence @__transform_main(%root: !transform.any_op {{transform.readonly}}) {{
    %pad = transform.structured.match ops{{["tensor.pad"]}} in %root
        : (!transform.any_op) -> !transform.any_op
    %tiled, %loops:2 = transform.structured.tile_using_for %pad tile_sizes [{sizes}]
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }}
"""


# Amounts and a source extent known only at run time (4 in the runs).
# (PAD_DYNAMIC_AMOUNTS' constant amounts make mlir-opt-22's tiling fold them
# into a loop result type its function's return no longer matches.)
PAD_RUN_TIME_AMOUNTS = """
func.func @main(%src: tensor<?x6xf32>, %v: f32) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %src, %c0 : tensor<?x6xf32>
  %r = tensor.pad %src low[%n, 1] high[2, %n] {
  ^bb0(%i: index, %j: index):
    tensor.yield %v : f32
  } : tensor<?x6xf32> to tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}
"""


@pytest.mark.skipif(
    not upstream_available(), reason="mlir-opt-22 / mlir-translate-22 not installed"
)
@pytest.mark.parametrize(
    ("text", "sizes"),
    [(PAD, [4, 4]), (PAD, [3, 2]), (PAD_RUN_TIME_AMOUNTS, [4, 3])],
    ids=["static-4x4", "static-3x2", "run-time-amounts"],
)
def test_pad_tiling_computes_what_upstream_tiling_computes(text: str, sizes):
    """`transform.structured.tile_using_for` on the pad, run by mlir-opt-22
    and compiled by upstream, and our tiling, interpreted, agree (and with
    the untiled pad); ours has no more ops in its loops than upstream's."""
    script = TRANSFORM_SCRIPT.format(sizes=", ".join(map(str, sizes)))
    source = (
        "module attributes {transform.with_named_sequence} {\n"
        f"{text.strip()}\n{script}}}"
    )
    upstream_tiled = subprocess.run(
        [
            MLIR_OPT,
            "--transform-interpreter",
            "--test-transform-dialect-erase-schedule",
        ],
        input=source,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    theirs_module = parse_module(upstream_tiled)

    ours = parse_module(text)
    tile_using_for(_op(ours, "tensor.pad"), sizes)
    ours.verify()
    original = parse_module(text)
    rng = np.random.default_rng(3)
    inputs = random_inputs(find_function(original, "main"), rng)
    theirs = run_upstream(upstream_tiled, original, "main", inputs)
    mine = run_function(ours, "main", inputs)
    whole = run_function(original, "main", inputs)
    assert compare_values(theirs.results, mine.results, "result") is None
    assert compare_values(whole.results, mine.results, "result") is None
    assert 0 < _ops_in_loops(ours) <= _ops_in_loops(theirs_module)


def _ops_in_loops(module: ModuleOp) -> int:
    """The ops nested in the outermost `scf.for` (constants excluded: MLIR
    prints its loop bounds' inside)."""
    (outer,) = [
        op
        for op in find_function(module, "main").body.block.ops
        if isinstance(op, scf.ForOp)
    ]
    return sum(
        1 for op in outer.walk() if op is not outer and op.name != "arith.constant"
    )


def test_every_tile_size_of_a_small_pad():
    """Loops over every tile size of a 2-D pad (partial tiles, tiles in the
    border of every kind) compute the pad."""
    for sizes in itertools.product([1, 2, 4, 9], [3, 5]):
        module = parse_module(PAD)
        tile_using_for(_op(module, "tensor.pad"), list(sizes))
        assert meaning_difference(parse_module(PAD), module, "main", trials=1) is None
