"""`tile_using_for` (linalg_ext/tiling/loops.py): every tiled program
computes what it did before (interpreter; a few compiled natively), the loop
structure is the one asked for, refusals change nothing."""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
import pytest
from xdsl.context import Context
from xdsl.dialects import affine, scf, tensor
from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.linalg import ops as linalg
from xdsl.dialects.linalg.transforms.tiling import tile_structured_op
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)

from helpers import meaning_difference, parse_module, print_module
from linalg_ext.checking import check_module
from linalg_ext.comparison import compare_values
from linalg_ext.running import run_function
from linalg_ext.tiling import TilingRefused, tiling_model
from linalg_ext.tiling.loops import (
    TilingLoops,
    build_tile_loop_nest,
    check_tile_request,
    tile_using_for,
)
from linalg_ext.transforms.mixed_sizes import Mixed

ELEMENTWISE = """
func.func @main(%a: tensor<{shape}xf32>, %b: tensor<{shape}xf32>,
                %init: tensor<{shape}xf32>) -> tensor<{shape}xf32> {{
  %r = linalg.generic {{indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>,
                                         affine_map<(d0, d1) -> (d0, d1)>,
                                         affine_map<(d0, d1) -> (d0, d1)>],
                        iterator_types = ["parallel", "parallel"]}}
      ins(%a, %b : tensor<{shape}xf32>, tensor<{shape}xf32>)
      outs(%init : tensor<{shape}xf32>) {{
  ^bb0(%x: f32, %y: f32, %o: f32):
    %m = arith.mulf %x, %y : f32
    %s = arith.addf %m, %o : f32
    linalg.yield %s : f32
  }} -> tensor<{shape}xf32>
  return %r : tensor<{shape}xf32>
}}
"""

# A matmul as a generic (the k loop a reduction) whose init is a fill.
MATMUL = """
func.func @main(%a: tensor<{m}x{k}xf32>, %b: tensor<{k}x{n}xf32>) -> tensor<{m}x{n}xf32> {{
  %zero = arith.constant 0.5 : f32
  %e = tensor.empty() : tensor<{m}x{n}xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<{m}x{n}xf32>) -> tensor<{m}x{n}xf32>
  %r = linalg.generic {{indexing_maps = [affine_map<(i, j, k) -> (i, k)>,
                                         affine_map<(i, j, k) -> (k, j)>,
                                         affine_map<(i, j, k) -> (i, j)>],
                        iterator_types = ["parallel", "parallel", "reduction"]}}
      ins(%a, %b : tensor<{m}x{k}xf32>, tensor<{k}x{n}xf32>)
      outs(%init : tensor<{m}x{n}xf32>) {{
  ^bb0(%x: f32, %y: f32, %o: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }} -> tensor<{m}x{n}xf32>
  return %r : tensor<{m}x{n}xf32>
}}
"""

# Two results, one of them a row sum (a reduction into a 1-D init).
TWO_RESULTS = """
func.func @main(%a: tensor<6x5xf32>, %i0: tensor<6x5xf32>, %i1: tensor<6xf32>)
    -> (tensor<6x5xf32>, tensor<6xf32>) {
  %r:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>,
                                          affine_map<(d0, d1) -> (d0, d1)>,
                                          affine_map<(d0, d1) -> (d0)>],
                         iterator_types = ["parallel", "reduction"]}
      ins(%a : tensor<6x5xf32>) outs(%i0, %i1 : tensor<6x5xf32>, tensor<6xf32>) {
  ^bb0(%x: f32, %o0: f32, %o1: f32):
    %d = arith.mulf %x, %x : f32
    %s = arith.addf %o1, %x : f32
    linalg.yield %d, %s : f32, f32
  } -> (tensor<6x5xf32>, tensor<6xf32>)
  return %r#0, %r#1 : tensor<6x5xf32>, tensor<6xf32>
}
"""


@dataclass(frozen=True)
class TileOps(ModulePass):
    """Tile every op named `root` (test-only pass, for `check_module`)."""

    name = "test-tile-ops"
    sizes: tuple[int, ...] = ()
    interchange: tuple[int, ...] = ()
    root: str = "linalg.generic"
    results: list[TilingLoops] = field(default_factory=list[TilingLoops])

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for root in [o for o in op.walk() if o.name == self.root]:
            self.results.append(tile_using_for(root, self.sizes, self.interchange))


def _generic(module: ModuleOp) -> linalg.GenericOp:
    (found,) = [o for o in module.walk() if isinstance(o, linalg.GenericOp)]
    return found


def _named(module: ModuleOp, name: str) -> Operation:
    (found,) = [o for o in module.walk() if o.name == name]
    return found


def _tiled(
    text: str,
    sizes: Sequence[Mixed],
    interchange: Sequence[int] = (),
    root: str = "linalg.generic",
) -> tuple[ModuleOp, ModuleOp, TilingLoops]:
    before = parse_module(text)
    after = before.clone()
    tiling = tile_using_for(_named(after, root), sizes, interchange)
    after.verify()
    return before, after, tiling


def _count(module: Operation, kind: type[Operation]) -> int:
    return sum(1 for o in module.walk() if isinstance(o, kind))


def _agree_on(before: ModuleOp, after: ModuleOp, inputs: list[object]) -> None:
    expected = run_function(before, "main", inputs).results
    actual = run_function(after, "main", inputs).results
    assert compare_values(expected, actual, "result") is None


def _random(shape: tuple[int, ...], seed: int = 0) -> np.ndarray:
    return np.random.default_rng(seed).standard_normal(shape).astype(np.float32)


# --- elementwise --------------------------------------------------------------


def test_static_divisible_tiles_have_no_min():
    before, after, tiling = _tiled(ELEMENTWISE.format(shape="8x12"), [4, 3])
    assert meaning_difference(before, after, "main") is None
    assert len(tiling.loops) == 2
    assert _count(after, affine.MinOp) == 0
    assert _count(after, linalg.GenericOp) == 1
    # The tile's generic is inside the innermost loop, on 4x3 slices.
    (tiled,) = [o for o in tiling.tiled.ops if isinstance(o, linalg.GenericOp)]
    assert tiled.parent_op() is tiling.loops[-1]
    assert str(tiled.results[0].type) == "tensor<4x3xf32>"
    outer, inner = tiling.loops
    assert inner.parent_op() is outer
    assert tiling.replacements == list(outer.results)


def test_static_partial_tiles_clamp_with_min():
    before, after, tiling = _tiled(ELEMENTWISE.format(shape="10x7"), [4, 3])
    assert meaning_difference(before, after, "main") is None
    mins = [o for o in after.walk() if isinstance(o, affine.MinOp)]
    assert len(mins) == 2
    assert all(m.parent_op() is tiling.loops[-1] for m in mins)


def test_tile_larger_than_the_extent_is_one_whole_tile():
    before, after, _ = _tiled(ELEMENTWISE.format(shape="5x7"), [8, 2])
    assert meaning_difference(before, after, "main") is None
    assert _count(after, affine.MinOp) == 1  # only the 7-by-2 loop


@pytest.mark.parametrize("shape", [(7, 5), (8, 3), (1, 1), (3, 9)])
def test_dynamic_shapes(shape: tuple[int, int]):
    before, after, tiling = _tiled(ELEMENTWISE.format(shape="?x?"), [4, 3])
    assert len(tiling.loops) == 2
    assert _count(after, tensor.DimOp) == 2
    _agree_on(before, after, [_random(shape, s) for s in range(3)])


def test_dynamic_shapes_empty_tensor():
    before, after, _ = _tiled(ELEMENTWISE.format(shape="?x?"), [4, 3])
    _agree_on(before, after, [_random((0, 5), s) for s in range(3)])


def test_zero_sizes_change_nothing():
    before = parse_module(ELEMENTWISE.format(shape="8x12"))
    after = before.clone()
    generic = _generic(after)
    tiling = tile_using_for(generic, [0, 0])
    assert tiling.loops == []
    assert tiling.tiled.ops == [generic]
    assert tiling.replacements == list(generic.results)
    assert print_module(after) == print_module(before)
    assert tile_using_for(generic, []).loops == []


def test_zero_size_leaves_its_loop_whole():
    before, after, tiling = _tiled(ELEMENTWISE.format(shape="6x?"), [0, 4])
    (loop,) = tiling.loops
    assert isinstance(loop.ub.owner, tensor.DimOp)  # the dynamic dim 1
    _agree_on(before, after, [_random((6, 10), s) for s in range(3)])


def test_missing_sizes_are_zero():
    before, after, tiling = _tiled(ELEMENTWISE.format(shape="6x10"), [4])
    (loop,) = tiling.loops
    assert meaning_difference(before, after, "main") is None
    (tiled,) = [o for o in tiling.tiled.ops if isinstance(o, linalg.GenericOp)]
    assert str(tiled.results[0].type) == "tensor<?x10xf32>"


def _upper_bound(loop: scf.ForOp) -> int:
    value = loop.ub.owner
    assert isinstance(value, Operation)
    return value.properties["value"].value.data  # pyright: ignore


def test_interchange_orders_the_loops():
    before, after, tiling = _tiled(ELEMENTWISE.format(shape="10x7"), [4, 3], [1, 0])
    assert meaning_difference(before, after, "main") is None
    assert [_upper_bound(loop) for loop in tiling.loops] == [7, 10]


def test_interchange_skips_untiled_loops():
    text = MATMUL.format(m=6, n=10, k=4)
    before, after, tiling = _tiled(text, [2, 0, 3], [2, 1, 0])
    assert [_upper_bound(loop) for loop in tiling.loops] == [4, 6]
    assert meaning_difference(before, after, "main") is None


# --- reductions -----------------------------------------------------------------


@pytest.mark.parametrize(
    "sizes", [[2, 3, 2], [0, 0, 3], [4, 0, 5], [3, 5, 7], [1, 1, 1]]
)
def test_matmul_tiled_along_the_reduction(sizes: list[int]):
    before, after, tiling = _tiled(MATMUL.format(m=6, n=10, k=9), sizes)
    assert meaning_difference(before, after, "main") is None
    # The fill of the init stays before the nest: it runs once, not per k tile.
    (fill,) = [o for o in after.walk() if isinstance(o, linalg.FillOp)]
    assert fill.parent_op() is not None
    assert not isinstance(fill.parent_op(), scf.ForOp)
    assert len(tiling.loops) == sum(1 for s in sizes if s)


def test_matmul_dynamic_reduction():
    text = MATMUL.format(m="?", n="?", k="?").replace(
        "tensor.empty()", "tensor.empty(%m, %n)"
    )
    text = text.replace(
        "%zero = arith.constant 0.5 : f32",
        "%zero = arith.constant 0.5 : f32\n  %c0 = arith.constant 0 : index\n"
        "  %c1 = arith.constant 1 : index\n"
        "  %m = tensor.dim %a, %c0 : tensor<?x?xf32>\n"
        "  %n = tensor.dim %b, %c1 : tensor<?x?xf32>",
    )
    before, after, _ = _tiled(text, [4, 3, 2])
    _agree_on(before, after, [_random((5, 7), 1), _random((7, 4), 2)])


def test_two_results_one_reduced():
    before, after, tiling = _tiled(TWO_RESULTS, [4, 2])
    assert meaning_difference(before, after, "main") is None
    assert len(tiling.replacements) == 2
    assert _count(after, tensor.InsertSliceOp) == 2


# --- SSA tile sizes ---------------------------------------------------------------


@pytest.mark.parametrize("tile", [(1, 1), (2, 3), (4, 7), (20, 20)])
def test_ssa_tile_sizes(tile: tuple[int, int]):
    text = ELEMENTWISE.format(shape="?x?").replace(
        "%init: tensor<?x?xf32>)", "%init: tensor<?x?xf32>, %t0: index, %t1: index)"
    )
    before = parse_module(text)
    after = before.clone()
    generic = _generic(after)
    function = generic.parent_op()
    assert function is not None
    t0, t1 = function.regions[0].block.args[3:]
    tiling = tile_using_for(generic, [t0, t1])
    after.verify()
    assert [loop.step for loop in tiling.loops] == [t0, t1]
    assert _count(after, affine.MinOp) == 2
    inputs: list[object] = [_random((7, 5), s) for s in range(3)]
    _agree_on(before, after, [*inputs, *tile])


# --- refusals ---------------------------------------------------------------------


def _refusal(text: str, sizes: Sequence[Mixed], interchange: Sequence[int] = ()) -> str:
    module = parse_module(text)
    generic = _generic(module)
    uses = [len(list(v.uses)) for v in generic.operands]
    printed = print_module(module)
    with pytest.raises(TilingRefused) as error:
        tile_using_for(generic, sizes, interchange)
    assert error.value.op is generic
    assert print_module(module) == printed
    assert [len(list(v.uses)) for v in generic.operands] == uses
    message = str(error.value)
    assert "\n" not in message and "linalg.generic" in message
    return message


def test_refuses_negative_size():
    assert "negative" in _refusal(ELEMENTWISE.format(shape="8x8"), [2, -1])


def test_refuses_too_many_sizes():
    assert "3 tile sizes" in _refusal(ELEMENTWISE.format(shape="8x8"), [2, 2, 2])


@pytest.mark.parametrize("interchange", [[0, 0], [2, 0], [1, 0, 2], [1]])
def test_refuses_bad_interchange(interchange: list[int]):
    text = ELEMENTWISE.format(shape="8x8")
    assert "permutation" in _refusal(text, [2, 2], interchange)


def test_refuses_whole_dims(monkeypatch: pytest.MonkeyPatch):
    module = parse_module(ELEMENTWISE.format(shape="8x8"))
    model = tiling_model(_generic(module))
    assert model is not None
    monkeypatch.setattr(model, "whole_dims", lambda op: {1})
    text = ELEMENTWISE.format(shape="8x8")
    assert "whole" in _refusal(text, [2, 2])
    # A zero size on that loop is fine.
    _, after, tiling = _tiled(text, [2, 0])
    assert len(tiling.loops) == 1


def test_refuses_what_the_model_refuses(monkeypatch: pytest.MonkeyPatch):
    module = parse_module(ELEMENTWISE.format(shape="8x8"))
    model = tiling_model(_generic(module))
    assert model is not None
    monkeypatch.setattr(model, "refusal", lambda op: f"{op.name} says no")
    assert _refusal(ELEMENTWISE.format(shape="8x8"), [2, 2]) == "linalg.generic says no"


def test_a_tile_refused_late_leaves_no_trace(monkeypatch: pytest.MonkeyPatch):
    module = parse_module(ELEMENTWISE.format(shape="8x8"))
    model = tiling_model(_generic(module))
    assert model is not None

    def refuse(op: Operation, offsets: object, sizes: object, new_ops: list[Operation]):
        raise TilingRefused(f"{op.name}: not this tile", op)

    monkeypatch.setattr(model, "tile", refuse)
    assert "not this tile" in _refusal(ELEMENTWISE.format(shape="8x8"), [2, 2])


def test_refuses_memrefs():
    text = """
    func.func @main(%a: memref<8xf32>, %o: memref<8xf32>) {
      linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
                      iterator_types = ["parallel"]}
          ins(%a : memref<8xf32>) outs(%o : memref<8xf32>) {
      ^bb0(%x: f32, %y: f32):
        linalg.yield %x : f32
      }
      return
    }
    """
    assert "tensors" in _refusal(text, [2])


def test_check_tile_request_normalises():
    module = parse_module(MATMUL.format(m=6, n=10, k=4))
    generic = _generic(module)
    model = tiling_model(generic)
    assert model is not None
    assert check_tile_request(generic, model, [2], [], 3) == ([2, 0, 0], [0])
    # A short interchange is completed by the trailing loops (upstream's rule).
    assert check_tile_request(generic, model, [2, 3, 4], [1, 0], 3) == (
        [2, 3, 4],
        [1, 0, 2],
    )
    assert check_tile_request(generic, model, [2, 0, 3], [2, 1, 0], 3)[1] == [2, 0]


def test_build_tile_loop_nest_alone():
    """The nest builder for other drivers: loops, tile offsets and sizes, and
    the carried destinations, closed by `close`."""
    module = parse_module(ELEMENTWISE.format(shape="10x6"))
    generic = _generic(module)
    new_ops: list[Operation] = []
    nest = build_tile_loop_nest([10, 6], [4, 0], [0], [generic.outputs[0]], new_ops)
    assert nest.loops[0] in new_ops
    assert nest.offsets[0] is nest.loops[0].body.block.args[0]
    assert nest.offsets[1] == 0 and nest.sizes[1] == 6
    assert isinstance(nest.sizes[0], SSAValue)  # 10 by 4: clamped
    results = nest.close(nest.carried)
    assert results == list(nest.loops[0].results)
    assert isinstance(nest.body.last_op, scf.YieldOp)


# --- compiled natively ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "sizes", "interchange"),
    [
        (ELEMENTWISE.format(shape="10x7"), (4, 3), (1, 0)),
        (ELEMENTWISE.format(shape="?x?"), (4, 3), ()),
        (MATMUL.format(m=6, n=10, k=9), (4, 3, 2), ()),
    ],
    ids=["partial-interchanged", "dynamic", "matmul-k"],
)
def test_compiled(text: str, sizes: tuple[int, ...], interchange: tuple[int, ...]):
    tile = TileOps(sizes, interchange)
    report = check_module(parse_module(text), [tile], backend="jit", dim_size=7)
    assert report.ok, report
    assert tile.results and tile.results[0].loops


# --- other ops: named, linalg.index, not destination-style ----------------------------

NAMED_MATMUL = """
func.func @main(%a: tensor<{m}x{k}xf32>, %b: tensor<{k}x{n}xf32>) -> tensor<{m}x{n}xf32> {{
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<{m}x{n}xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<{m}x{n}xf32>) -> tensor<{m}x{n}xf32>
  %r = linalg.matmul ins(%a, %b : tensor<{m}x{k}xf32>, tensor<{k}x{n}xf32>)
                     outs(%init : tensor<{m}x{n}xf32>) -> tensor<{m}x{n}xf32>
  return %r : tensor<{m}x{n}xf32>
}}
"""

INDEXED = """
func.func @main(%a: tensor<7x5xf32>) -> tensor<7x5xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
      outs(%a : tensor<7x5xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %k = arith.muli %i, %j : index
    %n = arith.index_cast %k : index to i32
    %f = arith.sitofp %n : i32 to f32
    %s = arith.addf %o, %f : f32
    linalg.yield %s : f32
  } -> tensor<7x5xf32>
  return %r : tensor<7x5xf32>
}
"""

PAD = """
func.func @main(%s: tensor<{shape}xf32>) -> tensor<{result}xf32> {{
  %cst = arith.constant 1.5 : f32
  %p = tensor.pad %s low[1, 2] high[3, 0] {{
  ^bb0(%i: index, %j: index):
    tensor.yield %cst : f32
  }} : tensor<{shape}xf32> to tensor<{result}xf32>
  return %p : tensor<{result}xf32>
}}
"""


@pytest.mark.parametrize("sizes", [[4, 3, 2], [0, 0, 4], [5, 0, 0], [2, 7, 3]])
def test_named_matmul_tiled_along_the_reduction(sizes: list[int]):
    text = NAMED_MATMUL.format(m=6, n=10, k=9)
    before, after, tiling = _tiled(text, sizes, root="linalg.matmul")
    assert meaning_difference(before, after, "main") is None
    tiled = tiling.tiled.ops[-1]
    assert tiled.name == "linalg.matmul"
    assert tiled.parent_op() is tiling.loops[-1]
    assert not isinstance(_named(after, "linalg.fill").parent_op(), scf.ForOp)


def test_linalg_index_sees_the_untiled_position():
    before, after, _ = _tiled(INDEXED, [3, 2])
    assert meaning_difference(before, after, "main") is None


@pytest.mark.parametrize(
    ("shape", "result", "inputs"),
    [("5x3", "9x5", [(5, 3)]), ("?x?", "?x?", [(5, 3), (1, 7), (0, 2)])],
)
def test_op_without_destinations_writes_into_an_empty_tensor(
    shape: str, result: str, inputs: list[tuple[int, int]]
):
    before, after, tiling = _tiled(
        PAD.format(shape=shape, result=result), [4, 3], root="tensor.pad"
    )
    (outer, _) = tiling.loops
    destination = outer.iter_args[0].owner
    assert isinstance(destination, tensor.EmptyOp)
    for seed, input_shape in enumerate(inputs):
        _agree_on(before, after, [_random(input_shape, seed)])


# --- against xDSL's own tiler (xdsl/dialects/linalg/transforms/tiling.py) ---------------


def _loop_shapes(module: ModuleOp) -> list[tuple[object, ...]]:
    """Per loop: its bounds and step as constants (or the op making them),
    and the names of the ops directly in its body."""

    def shown(value: SSAValue) -> object:
        owner = value.owner
        if isinstance(owner, Operation) and "value" in owner.properties:
            return str(owner.properties["value"])
        return getattr(owner, "name", "argument")

    return [
        (
            shown(loop.lb),
            shown(loop.ub),
            shown(loop.step),
            [o.name for o in loop.body.block.ops],
        )
        for loop in module.walk()
        if isinstance(loop, scf.ForOp)
    ]


@pytest.mark.parametrize(
    ("text", "sizes"),
    [
        (ELEMENTWISE.format(shape="8x12"), [4, 3]),
        (ELEMENTWISE.format(shape="10x7"), [4, 3]),
        (ELEMENTWISE.format(shape="10x?"), [4, 3]),
        (MATMUL.format(m=6, n=10, k=9), [4, 0, 2]),
        (TWO_RESULTS, [4, 2]),
        (INDEXED, [3, 2]),
    ],
    ids=["divisible", "partial", "dynamic", "matmul-k", "two-results", "index"],
)
def test_same_loops_and_values_as_xdsl_tiler(text: str, sizes: list[int]):
    """Where xDSL's tiler works, ours builds the same loops, the same ops in
    each body (its `affine.min` spells the bound differently) and computes
    the same. (xDSL's fails on a dynamic dimension left untiled, and clamps
    with `affine.min` a tile larger than its static loop, where ours uses
    the extent.)"""
    ours = parse_module(text)
    tile_using_for(_generic(ours), sizes)
    theirs = parse_module(text)
    generic = _generic(theirs)
    tile_structured_op(PatternRewriter(generic), generic, sizes)
    assert _loop_shapes(ours) == _loop_shapes(theirs)
    if "?" not in text:
        assert meaning_difference(theirs, ours, "main") is None
    else:
        _agree_on(theirs, ours, [_random((10, 7), s) for s in range(3)])


# --- against mlir-opt-22's transform.structured.tile_using_for ----------------------------

TILE_SCRIPT = """
module attributes {{transform.with_named_sequence}} {{
  transform.named_sequence @__transform_main(%root: !transform.any_op {{transform.readonly}}) {{
    %op = transform.structured.match ops{{["{name}"]}} in %root
        : (!transform.any_op) -> !transform.any_op
    %tiled, %loops:{count} = transform.structured.tile_using_for %op tile_sizes {sizes}
        : (!transform.any_op) -> (!transform.any_op, {loop_types})
    transform.yield
  }}
}}
"""


def _upstream_tiled(text: str, name: str, sizes: list[int]) -> ModuleOp:
    count = sum(1 for s in sizes if s)
    script = TILE_SCRIPT.format(
        name=name,
        count=count,
        sizes=sizes,
        loop_types=", ".join(["!transform.any_op"] * count),
    )
    output = subprocess.run(
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
    return parse_module(output)


def _ops_in_loops(module: ModuleOp) -> int:
    outermost = [
        o
        for o in module.walk()
        if isinstance(o, scf.ForOp) and not isinstance(o.parent_op(), scf.ForOp)
    ]
    return sum(1 for loop in outermost for _ in loop.walk()) - len(outermost)


@pytest.mark.skipif(
    shutil.which("mlir-opt-22") is None, reason="mlir-opt-22 is not installed"
)
@pytest.mark.parametrize(
    ("text", "name", "sizes"),
    [
        (NAMED_MATMUL.format(m=6, n=10, k=9), "linalg.matmul", [4, 3, 2]),
        (ELEMENTWISE.format(shape="10x7"), "linalg.generic", [0, 3]),
        (PAD.format(shape="5x3", result="9x5"), "tensor.pad", [4, 3]),
    ],
    ids=["matmul-ijk", "generic-partial", "pad"],
)
def test_same_values_as_upstream_and_no_more_ops_in_loops(
    text: str, name: str, sizes: list[int]
):
    before, ours, tiling = _tiled(text, sizes, root=name)
    assert len(tiling.loops) == sum(1 for s in sizes if s)
    theirs = _upstream_tiled(text, name, sizes)
    assert meaning_difference(before, theirs, "main") is None
    assert meaning_difference(theirs, ours, "main") is None
    assert _ops_in_loops(ours) <= _ops_in_loops(theirs)


class _TileOutsideLoops(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: linalg.GenericOp, rewriter: PatternRewriter):
        if not isinstance(op.parent_op(), scf.ForOp):
            tile_using_for(op, [4, 3], rewriter=rewriter)


def test_inside_a_rewrite_pattern():
    before = parse_module(ELEMENTWISE.format(shape="10x7"))
    after = before.clone()
    PatternRewriteWalker(_TileOutsideLoops()).rewrite_module(after)
    after.verify()
    assert _count(after, scf.ForOp) == 2
    assert meaning_difference(before, after, "main") is None


def test_constant_ssa_sizes_are_static():
    """Sizes made by `arith.constant` are read as ints (as upstream does):
    0 leaves the loop untiled, 4 divides 8 without an `affine.min`."""
    text = ELEMENTWISE.format(shape="8x12").replace(
        "  %r = linalg.generic",
        "  %c0 = arith.constant 0 : index\n  %c4 = arith.constant 4 : index\n"
        "  %r = linalg.generic",
    )
    before = parse_module(text)
    after = before.clone()
    generic = _generic(after)
    c0, c4 = [o.results[0] for o in after.walk() if o.name == "arith.constant"]
    tiling = tile_using_for(generic, [c4, c0])
    assert len(tiling.loops) == 1
    assert _count(after, affine.MinOp) == 0
    assert meaning_difference(before, after, "main") is None


@pytest.mark.parametrize(
    ("text", "root", "sizes"),
    [
        (NAMED_MATMUL.format(m=12, n=10, k=9), "linalg.matmul", (4, 3, 2)),
        (PAD.format(shape="?x?", result="?x?"), "tensor.pad", (4, 3)),
    ],
    ids=["named-matmul", "pad-dynamic"],
)
def test_compiled_other_ops(text: str, root: str, sizes: tuple[int, ...]):
    tile = TileOps(sizes, root=root)
    report = check_module(parse_module(text), [tile], backend="jit", dim_size=7)
    assert report.ok, report
    assert tile.results and tile.results[0].loops
