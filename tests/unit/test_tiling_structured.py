"""The tiling model of linalg's structured ops (linalg_ext/tiling/structured.py),
on the programs of structured_programs.py.

Every tile is executed against the slice of the whole op's result
(tests/unit/tiling_harness.py), static and with offsets and sizes only known
when running, including partial tiles at the end of the domain. A tile that
cuts a reduction loop computes only part of the sum: it is checked as a
driver uses it, two tiles along the reduction, the second accumulating into
the first's result, against the whole op's tile.
"""

from __future__ import annotations

import pytest
from opdsl_programs import TILE_CASES as OPDSL_TILE_CASES
from structured_programs import (
    BATCH_MATMUL,
    BROADCAST,
    CONV_LAYOUTS,
    CONV_NCHW,
    CONV_NHWC,
    COPY,
    DIAGONAL_SUMS,
    ELEMENTWISE_BROADCASTING,
    ELEMENTWISE_NAMED,
    FILL,
    GENERIC_DEPTHWISE,
    GENERIC_DOT,
    GENERIC_DYNAMIC,
    GENERIC_INDEX,
    GENERIC_MATVEC,
    GENERIC_ROW_SUM,
    GENERIC_SHIFTED,
    GENERIC_TRANSPOSE_BROADCAST,
    MAP,
    MAP_INDEX,
    MATMUL,
    MATMUL_DYNAMIC,
    MATMUL_TRANSPOSE_A,
    MEMREF_MATMUL,
    POOL_MAX,
    QUANTIZED_MATMUL,
    REDUCE,
    REDUCE_TWO,
    REVERSED,
    SELECT,
    SOFTMAX,
    SOFTMAX_DYNAMIC,
    TRANSPOSE,
    elementwise_program,
)
from tiling_harness import (
    check_result_tile,
    check_tile,
    compare_extra_results,
    find_op,
    mixed_values,
    return_also,
)
from xdsl.dialects import affine, arith, tensor, test
from xdsl.dialects.builtin import IndexType, ModuleOp
from xdsl.ir import Operation, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from helpers import parse_module
from linalg_ext.tiling import TiledOp, TilingRefused, tiling_model
from linalg_ext.transforms.shape_reification import tensor_dim
from linalg_ext.transforms.slices import extract_slice

# ---------------------------------------------------------------- tiles


def _index_values(count: int) -> list[SSAValue]:
    """`index` values known only when running (results of a test op)."""
    return list(test.TestOp(result_types=[IndexType()] * count).results)


# (text, op name, [(offsets, sizes), ...]): inner tiles, tiles ending at the
# end of the domain with sizes that do not divide it, whole reductions.
CASES: dict[str, tuple[str, str, list[tuple[list[int], list[int]]]]] = {
    "generic-transpose-broadcast": (
        GENERIC_TRANSPOSE_BROADCAST,
        "linalg.generic",
        [([1, 2], [3, 4]), ([3, 4], [2, 3])],
    ),
    "generic-reduction": (
        GENERIC_ROW_SUM,
        "linalg.generic",
        [([2, 0], [3, 9]), ([4, 0], [2, 9])],
    ),
    "generic-index": (GENERIC_INDEX, "linalg.generic", [([2, 3], [3, 4])]),
    "generic-shifted-map": (
        GENERIC_SHIFTED,
        "linalg.generic",
        [([3], [4]), ([7], [3])],
    ),
    "generic-dot": (GENERIC_DOT, "linalg.generic", [([0], [9])]),
    "generic-matvec": (GENERIC_MATVEC, "linalg.generic", [([3, 0], [2, 6])]),
    "generic-depthwise": (
        GENERIC_DEPTHWISE,
        "linalg.generic",
        [([0, 1, 2, 1, 0, 0], [1, 3, 2, 1, 2, 2])],
    ),
    "fill": (FILL, "linalg.fill", [([1, 3], [4, 4])]),
    "copy": (COPY, "linalg.copy", [([2, 5], [3, 2])]),
    "transpose": (TRANSPOSE, "linalg.transpose", [([1, 4], [4, 3])]),
    "broadcast": (BROADCAST, "linalg.broadcast", [([3, 1], [2, 5])]),
    "reduce": (REDUCE, "linalg.reduce", [([0, 4], [5, 3])]),
    "reduce-two": (REDUCE_TWO, "linalg.reduce", [([3, 0], [2, 7])]),
    "map": (MAP, "linalg.map", [([2, 3], [3, 4])]),
    "map-index": (MAP_INDEX, "linalg.map", [([2, 3], [3, 4])]),
    "select": (SELECT, "linalg.select", [([1, 5], [4, 2])]),
    "elementwise-broadcasting": (
        ELEMENTWISE_BROADCASTING,
        "linalg.elementwise",
        [([2, 3], [3, 4])],
    ),
    "matmul": (
        MATMUL,
        "linalg.matmul",
        [([4, 3, 0], [4, 4, 12]), ([8, 6, 0], [2, 1, 12])],
    ),
    "matmul-transpose-a": (
        MATMUL_TRANSPOSE_A,
        "linalg.matmul",
        [([1, 2, 0], [3, 3, 6])],
    ),
    "batch-matmul": (
        BATCH_MATMUL,
        "linalg.batch_matmul",
        [([1, 2, 1, 0], [2, 2, 4, 6])],
    ),
    "quantized-matmul": (
        QUANTIZED_MATMUL,
        "linalg.quantized_matmul",
        [([1, 2, 0], [3, 3, 6])],
    ),
    "conv-nhwc-stride-dilation": (
        CONV_NHWC,
        "linalg.conv_2d_nhwc_hwcf",
        [([0, 1, 2, 1, 0, 0, 0], [1, 2, 2, 2, 2, 2, 2])],
    ),
    "conv-nchw": (
        CONV_NCHW,
        "linalg.conv_2d_nchw_fchw",
        [([0, 1, 2, 1, 0, 0, 0], [1, 2, 2, 3, 2, 3, 3])],
    ),
    "pooling-max-strided": (
        POOL_MAX,
        "linalg.pooling_nchw_max",
        [([0, 1, 1, 2, 0, 0], [1, 1, 3, 2, 3, 3])],
    ),
    "softmax": (SOFTMAX, "linalg.softmax", [([1, 0], [3, 6])]),
    "generic-dynamic-shapes": (
        GENERIC_DYNAMIC,
        "linalg.generic",
        [([1, 2], [3, 2])],
    ),
    "matmul-dynamic-shapes": (
        MATMUL_DYNAMIC,
        "linalg.matmul",
        [([1, 2, 0], [3, 2, 4])],
    ),
}
# Loops: nhwc_fhwc (n, oh, ow, f, kh, kw, c); ngchw_* (n, g, f, oh, ow, c,
# kh, kw); nhwgc_gfhwc (n, oh, ow, g, f, kh, kw, c).
_CONV_TILES = {
    "linalg.conv_2d_nhwc_fhwc": ([0, 1, 0, 1, 0, 0, 0], [1, 2, 3, 2, 2, 2, 2]),
    "linalg.conv_2d_ngchw_fgchw": (
        [0, 1, 0, 2, 1, 0, 0, 0],
        [1, 1, 2, 2, 3, 2, 3, 3],
    ),
    "linalg.conv_2d_ngchw_gfchw": (
        [0, 1, 1, 1, 2, 0, 0, 0],
        [1, 1, 1, 3, 2, 2, 3, 3],
    ),
    "linalg.conv_2d_nhwgc_gfhwc": (
        [0, 2, 1, 1, 0, 0, 0, 0],
        [1, 2, 3, 1, 2, 3, 3, 2],
    ),
}
for _name, _tile in _CONV_TILES.items():
    CASES[_name.removeprefix("linalg.")] = (CONV_LAYOUTS[_name], _name, [_tile])
# The OpDSL ops of linalg_ext.compat.linalg_opdsl (depthwise convolutions,
# poolings, matvec, ...): every parallel loop tiled.
CASES.update(OPDSL_TILE_CASES)
for _name, (_arity, _) in ELEMENTWISE_NAMED.items():
    CASES[_name.removeprefix("linalg.")] = (
        elementwise_program(_name, _arity),
        _name,
        [([3, 4], [2, 3])],
    )


@pytest.mark.parametrize("dynamic", [False, True], ids=["static", "dynamic"])
@pytest.mark.parametrize("case", sorted(CASES))
def test_tile_computes_the_slice_of_the_whole_result(case: str, dynamic: bool):
    text, op_name, tiles = CASES[case]
    for offsets, sizes in tiles:
        check_tile(text, op_name, offsets, sizes, dynamic=dynamic, trials=1)


# (text, op name, result index, result offsets, result sizes)
RESULT_TILES: dict[str, tuple[str, str, int, list[int], list[int]]] = {
    "generic-transpose-broadcast": (
        GENERIC_TRANSPOSE_BROADCAST,
        "linalg.generic",
        0,
        [3, 4],
        [2, 3],
    ),
    "generic-reduction": (GENERIC_ROW_SUM, "linalg.generic", 0, [1], [4]),
    "generic-index": (GENERIC_INDEX, "linalg.generic", 0, [2, 3], [3, 4]),
    "transpose": (TRANSPOSE, "linalg.transpose", 0, [1, 4], [4, 3]),
    "broadcast": (BROADCAST, "linalg.broadcast", 0, [3, 1], [2, 5]),
    "reduce": (REDUCE, "linalg.reduce", 0, [4], [3]),
    "reduce-two-second": (REDUCE_TWO, "linalg.reduce", 1, [2], [3]),
    "matmul": (MATMUL, "linalg.matmul", 0, [8, 3], [2, 4]),
    "batch-matmul": (BATCH_MATMUL, "linalg.batch_matmul", 0, [1, 2, 1], [2, 2, 4]),
    "conv-nhwc": (
        CONV_NHWC,
        "linalg.conv_2d_nhwc_hwcf",
        0,
        [0, 1, 2, 1],
        [1, 3, 2, 2],
    ),
    "pooling": (POOL_MAX, "linalg.pooling_nchw_max", 0, [0, 1, 1, 2], [1, 1, 3, 2]),
    "depthwise": (GENERIC_DEPTHWISE, "linalg.generic", 0, [0, 2, 1, 0], [1, 2, 3, 2]),
    "matmul-dynamic-shapes": (MATMUL_DYNAMIC, "linalg.matmul", 0, [1, 2], [3, 2]),
}


@pytest.mark.parametrize("dynamic", [False, True], ids=["static", "dynamic"])
@pytest.mark.parametrize("case", sorted(RESULT_TILES))
def test_result_tile_computes_the_slice_of_the_whole_result(case: str, dynamic: bool):
    text, op_name, index, offsets, sizes = RESULT_TILES[case]
    check_result_tile(text, op_name, index, offsets, sizes, dynamic=dynamic, trials=1)


def test_softmax_result_tile_is_whole_along_its_dimension():
    check_result_tile(SOFTMAX, "linalg.softmax", 0, [1, 0], [2, 6])
    op, model = _op_and_model(SOFTMAX, "linalg.softmax")
    assert model.whole_dims(op) == {1}
    with pytest.raises(TilingRefused, match="not whole along loop 1"):
        model.iteration_tile_of_result(op, 0, [1, 2], [2, 3], [])
    with pytest.raises(TilingRefused, match="must take it whole"):
        model.tile(op, [0, 0], [2, 3], [])
    # Sizes known only when running cannot be shown whole.
    with pytest.raises(TilingRefused, match="not whole along loop 1"):
        model.iteration_tile_of_result(op, 0, [1, 0], _index_values(2), [])


def test_dynamic_softmax_result_tile_whole_by_tensor_dim():
    """A tile whose size along `dimension` is `tensor.dim` of the input or
    of the result along it is whole."""
    op, model = _op_and_model(SOFTMAX_DYNAMIC, "linalg.softmax")
    rows = _index_values(1)[0]
    for source in (op.operands[0], op.results[0]):
        new_ops: list[Operation] = []
        columns = tensor_dim(source, 1, new_ops)
        offsets, sizes = model.iteration_tile_of_result(
            op, 0, [1, 0], [rows, columns], new_ops
        )
        assert (offsets, sizes) == ([1, 0], [rows, columns])
    wrong = tensor_dim(op.operands[0], 0, [])
    with pytest.raises(TilingRefused, match="not whole"):
        model.iteration_tile_of_result(op, 0, [1, 0], [rows, wrong], [])


# ---------------------------------------------------------------- reductions


def _split_reduction(
    text: str,
    op_name: str,
    offsets: list[int],
    sizes: list[int],
    loop: int,
    split: int,
    *,
    dynamic: bool = False,
) -> ModuleOp:
    """The tile (offsets, sizes), whole along reduction loop `loop`, computed
    as two tiles split at `split` along it, the second accumulating into the
    first's results (as a loop over the reduction carries them), must equal
    the whole op's tile. A tile of part of a reduction alone is only part of
    the sum: this is how it is used."""
    module = parse_module(text)
    op = find_op(module, op_name)
    model = tiling_model(op)
    assert model is not None
    assert model.loop_types(op)[loop] == "reduction"
    new_ops: list[Operation] = []
    first_sizes = list(sizes)
    first_sizes[loop] = split - offsets[loop]
    second_offsets = list(offsets)
    second_offsets[loop] = split
    second_sizes = list(sizes)
    second_sizes[loop] = offsets[loop] + sizes[loop] - split
    first = model.tile(
        op,
        mixed_values(offsets, dynamic, new_ops),
        mixed_values(first_sizes, dynamic, new_ops),
        new_ops,
    )
    second = model.tile(
        op,
        mixed_values(second_offsets, dynamic, new_ops),
        mixed_values(second_sizes, dynamic, new_ops),
        new_ops,
    )
    second_op = second.ops[-1]
    outputs = len(op.results)
    for index, partial in enumerate(first.results):
        position = len(second_op.operands) - outputs + index
        assert second_op.operands[position].type == partial.type
        second_op.operands[position] = partial
    whole_offsets = mixed_values(offsets, dynamic, new_ops)
    whole_sizes = mixed_values(sizes, dynamic, new_ops)
    pairs: list[tuple[SSAValue, SSAValue]] = []
    for index, result in enumerate(op.results):
        position = model.result_tile_position(
            op, index, whole_offsets, whole_sizes, new_ops
        )
        whole_tile = extract_slice(result, *position)
        new_ops.append(whole_tile)
        pairs.append((second.results[index], whole_tile.result))
    Rewriter.insert_op(new_ops, InsertPoint.after(op))
    return_also(module, op, pairs)
    module.verify()
    compare_extra_results(module, len(pairs), 1, 0)
    return module


@pytest.mark.parametrize("dynamic", [False, True], ids=["static", "dynamic"])
@pytest.mark.parametrize(
    "text, op_name, offsets, sizes, loop, split",
    [
        (MATMUL, "linalg.matmul", [4, 3, 0], [4, 4, 12], 2, 5),
        (GENERIC_ROW_SUM, "linalg.generic", [2, 0], [3, 9], 1, 4),
        (GENERIC_DOT, "linalg.generic", [0], [9], 0, 4),
        (REDUCE_TWO, "linalg.reduce", [1, 0], [3, 7], 1, 3),
        (
            CONV_NHWC,
            "linalg.conv_2d_nhwc_hwcf",
            [0, 1, 0, 0, 0, 0, 0],
            [1, 2, 4, 3, 2, 2, 2],
            4,
            1,
        ),
        (
            POOL_MAX,
            "linalg.pooling_nchw_max",
            [0, 0, 1, 1, 0, 0],
            [1, 2, 2, 3, 3, 3],
            5,
            2,
        ),
    ],
    ids=[
        "matmul-k",
        "generic-row-sum",
        "generic-dot",
        "reduce-two",
        "conv-kh",
        "pooling-kw",
    ],
)
def test_reduction_tiles_accumulate(
    text: str,
    op_name: str,
    offsets: list[int],
    sizes: list[int],
    loop: int,
    split: int,
    dynamic: bool,
):
    _split_reduction(text, op_name, offsets, sizes, loop, split, dynamic=dynamic)


def test_result_tile_of_a_matmul_takes_the_whole_k_loop():
    op, model = _op_and_model(MATMUL, "linalg.matmul")
    offsets, sizes = model.iteration_tile_of_result(op, 0, [8, 3], [2, 4], [])
    assert (offsets, sizes) == ([8, 3, 0], [2, 4, 12])
    op, model = _op_and_model(MATMUL_DYNAMIC, "linalg.matmul")
    new_ops: list[Operation] = []
    offsets, sizes = model.iteration_tile_of_result(op, 0, [1, 2], [3, 2], new_ops)
    assert offsets == [1, 2, 0]
    k = sizes[2]
    assert isinstance(k, SSAValue) and isinstance(k.owner, tensor.DimOp)
    assert k.owner.source is op.operands[0]  # A's columns


# ---------------------------------------------------------------- structure


def _op_and_model(text: str, op_name: str):
    module = parse_module(text)
    op = find_op(module, op_name)
    model = tiling_model(op)
    assert model is not None
    return op, model


# op text, name, loop types, static extents
DOMAINS = {
    "generic-depthwise": (
        GENERIC_DEPTHWISE,
        "linalg.generic",
        "ppppRR",
        [1, 4, 4, 2, 2, 2],
    ),
    "generic-reduction": (GENERIC_ROW_SUM, "linalg.generic", "pR", [6, 9]),
    "generic-dot": (GENERIC_DOT, "linalg.generic", "R", [9]),
    "fill": (FILL, "linalg.fill", "pp", [5, 7]),
    "copy": (COPY, "linalg.copy", "pp", [5, 7]),
    "transpose": (TRANSPOSE, "linalg.transpose", "pp", [5, 7]),
    "broadcast": (BROADCAST, "linalg.broadcast", "pp", [5, 7]),
    "reduce": (REDUCE, "linalg.reduce", "Rp", [5, 7]),
    "map": (MAP, "linalg.map", "pp", [5, 7]),
    "add": (CASES["add"][0], "linalg.add", "pp", [5, 7]),
    "exp": (CASES["exp"][0], "linalg.exp", "pp", [5, 7]),
    "elementwise": (ELEMENTWISE_BROADCASTING, "linalg.elementwise", "pp", [5, 7]),
    "matmul": (MATMUL, "linalg.matmul", "ppR", [10, 7, 12]),
    "batch-matmul": (BATCH_MATMUL, "linalg.batch_matmul", "pppR", [3, 4, 5, 6]),
    "quantized-matmul": (QUANTIZED_MATMUL, "linalg.quantized_matmul", "ppR", [4, 5, 6]),
    "conv": (CONV_NHWC, "linalg.conv_2d_nhwc_hwcf", "ppppRRR", [1, 4, 4, 3, 2, 2, 2]),
    "pooling": (POOL_MAX, "linalg.pooling_nchw_max", "ppppRR", [1, 2, 4, 4, 3, 3]),
    "softmax": (SOFTMAX, "linalg.softmax", "pp", [4, 6]),
}


@pytest.mark.parametrize("case", sorted(DOMAINS))
def test_loop_types_and_iteration_domain(case: str):
    text, op_name, letters, extents = DOMAINS[case]
    op, model = _op_and_model(text, op_name)
    expected = ["reduction" if c == "R" else "parallel" for c in letters]
    assert model.loop_types(op) == expected
    new_ops: list[Operation] = []
    assert model.iteration_domain(op, new_ops) == extents
    assert new_ops == []
    assert model.refusal(op) is None


def test_dynamic_iteration_domain_reads_the_operands():
    op, model = _op_and_model(GENERIC_DYNAMIC, "linalg.generic")
    new_ops: list[Operation] = []
    extents = model.iteration_domain(op, new_ops)
    sources: list[tuple[SSAValue, int]] = []
    for extent in extents:
        assert isinstance(extent, SSAValue) and isinstance(extent.owner, tensor.DimOp)
        index = extent.owner.index.owner
        assert isinstance(index, arith.ConstantOp)
        sources.append((extent.owner.source, index.value.value.data))  # pyright: ignore
    assert sources == [(op.operands[0], 0), (op.operands[0], 1)]


def test_conv_tile_reads_the_strided_dilated_window():
    """Output rows [1, 3) with both filter rows, stride 2 and dilation 2,
    read input rows [2, 2 + (2 - 1) * 2 + (2 - 1) * 2 + 1) = [2, 7)."""
    module = check_tile(
        CONV_NHWC,
        "linalg.conv_2d_nhwc_hwcf",
        [0, 1, 2, 1, 0, 0, 0],
        [1, 2, 2, 2, 2, 2, 2],
    )
    tiled = [op for op in module.walk() if op.name == "linalg.conv_2d_nhwc_hwcf"][1]
    image = tiled.operands[0].owner
    assert isinstance(image, tensor.ExtractSliceOp)
    assert list(image.static_offsets.get_values()) == [0, 2, 4, 0]
    assert list(image.static_sizes.get_values()) == [1, 5, 5, 2]
    original = [op for op in module.walk() if op.name == tiled.name][0]
    assert tiled.properties == original.properties
    assert tiled.attributes == original.attributes


def test_dynamic_conv_window_is_one_affine_apply_per_bound():
    module = check_tile(
        CONV_NHWC,
        "linalg.conv_2d_nhwc_hwcf",
        [0, 1, 2, 1, 0, 0, 0],
        [1, 2, 2, 2, 2, 2, 2],
        dynamic=True,
    )
    applies = [op for op in module.walk() if isinstance(op, affine.ApplyOp)]
    # Offset and size of each of the two windowed dimensions.
    assert len(applies) == 4
    maps = {str(op.map.data) for op in applies}
    assert len(maps) == 2, maps


def test_linalg_index_is_shifted_by_the_tile_offsets():
    module = check_tile(GENERIC_INDEX, "linalg.generic", [2, 3], [3, 4], dynamic=True)
    tiled = [op for op in module.walk() if op.name == "linalg.generic"][1]
    shifts = [op for op in tiled.walk() if isinstance(op, affine.ApplyOp)]
    assert len(shifts) == 2


def test_operands_no_loop_indexes_are_not_sliced():
    op, model = _op_and_model(FILL, "linalg.fill")
    tiled = model.tile(op, [1, 2], [2, 2], [])
    assert tiled.ops[-1].operands[0] is op.operands[0]
    assert len(tiled.slices) == 1


# ---------------------------------------------------------------- refusals


def test_memref_ops_are_refused_with_a_reason():
    op, model = _op_and_model(MEMREF_MATMUL, "linalg.matmul")
    assert model.refusal(op) == "tiling works on tensors, not on memrefs"
    with pytest.raises(TilingRefused, match="tensors") as refused:
        model.tile(op, [0, 0, 0], [2, 2, 6], [])
    assert refused.value.op is op


def test_decreasing_maps_are_refused():
    op, model = _op_and_model(REVERSED, "linalg.generic")
    reason = model.refusal(op)
    assert reason is not None and "decreases along loop d0" in reason
    with pytest.raises(TilingRefused):
        model.iteration_domain(op, [])


def test_result_tile_needs_a_projected_permutation():
    op, model = _op_and_model(DIAGONAL_SUMS, "linalg.generic")
    assert model.refusal(op) is None
    check_tile(DIAGONAL_SUMS, "linalg.generic", [0, 0], [3, 4])
    with pytest.raises(TilingRefused, match="not a projected permutation"):
        model.iteration_tile_of_result(op, 0, [1], [2], [])


def test_wrong_number_of_offsets_is_refused():
    op, model = _op_and_model(MATMUL, "linalg.matmul")
    with pytest.raises(TilingRefused, match="needs 3 offsets and sizes"):
        model.tile(op, [0, 0], [1, 1], [])


def test_tiled_op_lists_what_it_built():
    op, model = _op_and_model(MATMUL, "linalg.matmul")
    new_ops: list[Operation] = [test.TestOp()]
    tiled: TiledOp = model.tile(op, [0, 0, 0], [2, 2, 12], new_ops)
    assert tiled.ops == new_ops[1:]
    assert tiled.slices == new_ops[1:4]
    assert tiled.ops[-1].name == "linalg.matmul"


def test_every_structured_linalg_op_has_a_model():
    """Each op of the `linalg` dialect our context parses, but the body ops,
    is tileable; a new compat op without a model fails here."""
    from linalg_ext.context import make_context
    from linalg_ext.tiling import registered_op_types

    dialect = make_context().get_optional_dialect("linalg")
    assert dialect is not None
    registered = tuple(registered_op_types())
    missing = [
        op_type.name
        for op_type in dialect.operations
        if op_type.name not in ("linalg.yield", "linalg.index")
        and not issubclass(op_type, registered)
    ]
    assert missing == []
    # And the families above cover them (elementwise ones by name).
    tested = {name for _, name, _ in CASES.values()}
    untested = [
        op_type.name
        for op_type in dialect.operations
        if op_type.name not in ("linalg.yield", "linalg.index")
        and op_type.name not in tested
    ]
    assert untested == []
