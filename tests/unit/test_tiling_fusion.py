"""Producer fusion (linalg_ext/tiling/fusion.py, fusion_driver.py) and its
passes: every fused program computes what the original did (interpreter),
refusals leave the IR as it was, a destination's producer is never fused
into a loop along a reduction, and, with mlir-opt-22, upstream's
`transform.structured.fuse` is shown wrong where ours is right (matmul
tiled along k) and equal where both are right."""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.dialects import func, scf, tensor
from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.linalg import ops as linalg
from xdsl.ir import Operation

from helpers import REPO, meaning_difference, parse_module, print_module
from linalg_ext.comparison import compare_values
from linalg_ext.context import make_context
from linalg_ext.diagnostics import OpPassFailed
from linalg_ext.running import find_function, random_inputs, run_function
from linalg_ext.tiling.fusion import fuse_producer_of_tensor
from linalg_ext.tiling.fusion_driver import (
    erase_dead_ops,
    find_roots,
    greedy_fusion,
    tile_and_fuse,
)
from linalg_ext.tiling.loops import tile_using_for
from linalg_ext.tools.check import parse_pipeline
from linalg_ext.upstream import run_upstream, upstream_available

needs_upstream = pytest.mark.skipif(
    not upstream_available(), reason="mlir-opt-22 is not installed"
)

MATMUL_FILL = """
func.func @main(%A: tensor<16x8xf32>, %B: tensor<8x12xf32>) -> tensor<16x12xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<16x12xf32>
  %filled = linalg.fill ins(%zero : f32) outs(%empty : tensor<16x12xf32>) -> tensor<16x12xf32>
  %product = linalg.matmul ins(%A, %B : tensor<16x8xf32>, tensor<8x12xf32>) outs(%filled : tensor<16x12xf32>) -> tensor<16x12xf32>
  return %product : tensor<16x12xf32>
}
"""

SEED_EXAMPLE = """
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @main(%A: tensor<16x8xf32>, %B: tensor<8x12xf32>, %C: tensor<16x12xf32>) -> tensor<16x12xf32> {
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  %zero = arith.constant 0.0 : f32
  %init1 = tensor.empty() : tensor<16x8xf32>
  %1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%A : tensor<16x8xf32>) outs(%init1 : tensor<16x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %a, %one : f32
    linalg.yield %s : f32
  } -> tensor<16x8xf32>
  %empty2 = tensor.empty() : tensor<16x12xf32>
  %init2 = linalg.fill ins(%zero : f32) outs(%empty2 : tensor<16x12xf32>) -> tensor<16x12xf32>
  %2 = linalg.matmul ins(%1, %B : tensor<16x8xf32>, tensor<8x12xf32>) outs(%init2 : tensor<16x12xf32>) -> tensor<16x12xf32>
  %3 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%2 : tensor<16x12xf32>) outs(%C : tensor<16x12xf32>) {
  ^bb0(%x: f32, %o: f32):
    %m = arith.mulf %x, %two : f32
    linalg.yield %m : f32
  } -> tensor<16x12xf32>
  return %3 : tensor<16x12xf32>
}
"""


def only(module: ModuleOp, op_type: type[Operation]) -> Operation:
    found = [op for op in module.walk() if isinstance(op, op_type)]
    assert len(found) == 1, f"expected one {op_type.__name__}, found {len(found)}"
    return found[0]


def count(module: ModuleOp, op_type: type[Operation]) -> int:
    return sum(isinstance(op, op_type) for op in module.walk())


def is_structured(op: Operation) -> bool:
    return op.name.startswith("linalg.") and op.name != "linalg.yield"


def in_loops(op: Operation) -> bool:
    parent = op.parent_op()
    while parent is not None:
        if isinstance(parent, scf.ForOp):
            return True
        parent = parent.parent_op()
    return False


# --- tile_and_fuse -------------------------------------------------------------


def test_seed_example_fuses_every_producer_into_the_loops():
    module = parse_module(SEED_EXAMPLE)
    (root,) = find_roots(module)
    assert isinstance(root, linalg.GenericOp)
    result = tile_and_fuse(root, [4, 8], [1, 0])
    module.verify()
    assert len(result.loops) == 2
    assert [p.name for p in result.producers] == [
        "linalg.matmul",
        "linalg.generic",
        "linalg.fill",
    ]
    # Every original is dead and erased; every linalg op left is a tile.
    assert all(p.parent is None for p in result.producers)
    structured = [op for op in module.walk() if is_structured(op)]
    assert len(structured) == 4 and all(in_loops(op) for op in structured)
    assert meaning_difference(parse_module(SEED_EXAMPLE), module, "main") is None


@pytest.mark.parametrize(
    ("sizes", "fill_fused"),
    [
        ([4, 8], True),
        ([4, 0], True),
        ([4, 8, 2], False),
        ([4, 0, 2], False),
        ([0, 0, 3], False),
    ],
)
def test_destination_producer_fused_only_when_every_loop_is_parallel(sizes, fill_fused):
    module = parse_module(MATMUL_FILL)
    result = tile_and_fuse(only(module, linalg.MatmulOp), sizes)
    module.verify()
    fill = only(module, linalg.FillOp)
    assert in_loops(fill) == fill_fused
    assert [p.name for p in result.producers] == (["linalg.fill"] if fill_fused else [])
    if fill_fused:
        # The loops now carry the fill's own init, the fill writes the slice.
        outer = result.loops[0]
        assert isinstance(outer.iter_args[0].owner, tensor.EmptyOp)
        assert isinstance(fill, linalg.FillOp)
        assert isinstance(fill.outputs[0].owner, tensor.ExtractSliceOp)
    assert meaning_difference(parse_module(MATMUL_FILL), module, "main") is None


def test_fusing_the_fill_into_a_reduction_loop_would_be_wrong():
    """What the guard prevents, done on purpose: declaring the k loop
    parallel fuses the fill, which re-zeroes the accumulator on every k step
    (upstream's result), and the program computes something else."""
    module = parse_module(MATMUL_FILL)
    tiling = tile_using_for(only(module, linalg.MatmulOp), [4, 0, 2])
    (destination,) = [
        s
        for s in tiling.tiled.slices
        if s.operands[0] in tiling.loops[-1].body.block.args
    ]
    assert isinstance(destination, tensor.ExtractSliceOp)
    before = print_module(module)
    assert fuse_producer_of_tensor(destination) is None
    assert fuse_producer_of_tensor(destination, [tiling.loops[0]]) is None
    assert print_module(module) == before
    fused = fuse_producer_of_tensor(destination, tiling.loops)
    assert fused is not None
    module.verify()
    assert meaning_difference(parse_module(MATMUL_FILL), module, "main") is not None


def test_producer_with_other_uses_stays():
    text = """
    #id = affine_map<(d0, d1) -> (d0, d1)>
    func.func @main(%x: tensor<6x8xf32>) -> (tensor<6x8xf32>, tensor<6x8xf32>) {
      %empty = tensor.empty() : tensor<6x8xf32>
      %neg = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
          ins(%x : tensor<6x8xf32>) outs(%empty : tensor<6x8xf32>) {
      ^bb0(%a: f32, %o: f32):
        %n = arith.negf %a : f32
        linalg.yield %n : f32
      } -> tensor<6x8xf32>
      %sq = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
          ins(%neg : tensor<6x8xf32>) outs(%empty : tensor<6x8xf32>) {
      ^bb0(%a: f32, %o: f32):
        %s = arith.mulf %a, %a : f32
        linalg.yield %s : f32
      } -> tensor<6x8xf32>
      return %sq, %neg : tensor<6x8xf32>, tensor<6x8xf32>
    }
    """
    module = parse_module(text)
    (root,) = find_roots(module)
    result = tile_and_fuse(root, [4, 3])
    (producer,) = result.producers
    assert producer.parent is not None and not in_loops(producer)
    assert meaning_difference(parse_module(text), module, "main") is None


ROW_LOOP = """
#id = affine_map<(d0) -> (d0)>
func.func @main(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %one = arith.constant 1.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %e = tensor.empty() : tensor<4x8xf32>
  %f = linalg.fill ins(%one : f32) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %f) -> (tensor<4x8xf32>) {
    %row = tensor.extract_slice %acc[%i, 0] [1, 8] [1, 1] : tensor<4x8xf32> to tensor<8xf32>
    %xs = tensor.extract_slice %x[%i, 0] [1, 8] [1, 1] : tensor<4x8xf32> to tensor<8xf32>
    %t = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
        ins(%xs : tensor<8xf32>) outs(%row : tensor<8xf32>) {
    ^bb0(%a: f32, %o: f32):
      %s = arith.addf %a, %o : f32
      linalg.yield %s : f32
    } -> tensor<8xf32>
    %u = tensor.insert_slice %t into %acc[%i, 0] [1, 8] [1, 1] : tensor<8xf32> into tensor<4x8xf32>
    scf.yield %u : tensor<4x8xf32>
  }
  return %r : tensor<4x8xf32>
}
"""


def test_destination_through_a_rank_reducing_slice_of_a_parallel_loop():
    """A row loop (declared parallel: each row read and written once) whose
    body adds into the row of the carried fill: the fill's 1×8 tile writes
    the slice of the carried tensor, reduced to the row's rank, and the loop
    then carries the fill's tensor.empty."""
    module = parse_module(ROW_LOOP)
    original = only(module, linalg.FillOp)
    loop = only(module, scf.ForOp)
    assert isinstance(loop, scf.ForOp)
    (row,) = [
        op
        for op in loop.body.block.ops
        if isinstance(op, tensor.ExtractSliceOp)
        and op.source is loop.body.block.args[1]
    ]
    assert isinstance(row, tensor.ExtractSliceOp)
    before = print_module(module)
    assert fuse_producer_of_tensor(row) is None  # the loop is not known parallel
    assert print_module(module) == before
    fused = fuse_producer_of_tensor(row, [loop])
    assert fused is not None
    module.verify()
    assert isinstance(loop.iter_args[0].owner, tensor.EmptyOp)
    erase_dead_ops([original])  # the caller's part: the original is unused
    assert original.parent is None
    fill = only(module, linalg.FillOp)
    assert fill.parent_op() is loop
    reduced = [
        op
        for op in loop.body.block.ops
        if isinstance(op, tensor.ExtractSliceOp) and op.source is fill.results[0]
    ]
    assert len(reduced) == 1 and str(reduced[0].result.type) == "tensor<8xf32>"
    assert meaning_difference(parse_module(ROW_LOOP), module, "main") is None


# --- fuse_producer_of_tensor refusals ---------------------------------------


REFUSALS = """
#id = affine_map<(d0) -> (d0)>
func.func @main(%x: tensor<8xf32>, %i: index) -> (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) {
  %empty = tensor.empty() : tensor<8xf32>
  %neg = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<8xf32>) outs(%empty : tensor<8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %n = arith.negf %a : f32
    linalg.yield %n : f32
  } -> tensor<8xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %r:4 = scf.for %k = %c0 to %c2 step %c1 iter_args(%a0 = %empty, %a1 = %empty, %a2 = %empty, %a3 = %empty) -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) {
    %of_argument = tensor.extract_slice %x[%k] [2] [1] {case = 0} : tensor<8xf32> to tensor<2xf32>
    %of_empty = tensor.extract_slice %empty[%k] [2] [1] {case = 1} : tensor<8xf32> to tensor<2xf32>
    %strided = tensor.extract_slice %neg[%k] [2] [3] {case = 2} : tensor<8xf32> to tensor<2xf32>
    %same_block = tensor.extract_slice %neg[1] [2] [1] : tensor<8xf32> to tensor<2xf32>
    %0 = tensor.insert_slice %of_argument into %a0[0] [2] [1] : tensor<2xf32> into tensor<8xf32>
    %1 = tensor.insert_slice %of_empty into %a1[0] [2] [1] : tensor<2xf32> into tensor<8xf32>
    %2 = tensor.insert_slice %strided into %a2[0] [2] [1] : tensor<2xf32> into tensor<8xf32>
    scf.yield %0, %1, %2, %a3 : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>
  }
  %same_block = tensor.extract_slice %neg[1] [2] [1] {case = 3} : tensor<8xf32> to tensor<2xf32>
  %s0 = tensor.extract_slice %r#0[0] [2] [1] : tensor<8xf32> to tensor<2xf32>
  %s1 = tensor.extract_slice %r#1[0] [2] [1] : tensor<8xf32> to tensor<2xf32>
  %s2 = tensor.extract_slice %r#2[0] [2] [1] : tensor<8xf32> to tensor<2xf32>
  return %s0, %s1, %s2, %same_block : tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>
}
"""


@pytest.mark.parametrize(
    "case", [0, 1, 2, 3], ids=["argument", "no-model", "strided", "same-block"]
)
def test_refusals_leave_the_ir_unchanged(case):
    module = parse_module(REFUSALS)
    (slice_op,) = [
        op
        for op in module.walk()
        if isinstance(op, tensor.ExtractSliceOp)
        and "case" in op.attributes
        and op.attributes["case"].value.data == case  # pyright: ignore
    ]
    before = print_module(module)
    assert fuse_producer_of_tensor(slice_op) is None
    assert print_module(module) == before


# --- greedy fusion -------------------------------------------------------------


def test_greedy_fusion_without_tiled_consumers_changes_nothing():
    module = parse_module(SEED_EXAMPLE)
    before = print_module(module)
    assert greedy_fusion(module) is False
    assert print_module(module) == before


# --- the passes ---------------------------------------------------------------


def run_pass(text: str, pipeline: str) -> ModuleOp:
    module = parse_module(text)
    parse_pipeline(pipeline).apply(make_context(), module)
    module.verify()
    return module


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ("tile-sizes=4,-1", "tile size -1 is negative"),
        ("tile-sizes=4,8 interchange=1,1", "interchange [1, 1] is not a permutation"),
        ("tile-sizes=4,8 interchange=2", "interchange [2] is not a permutation"),
    ],
)
def test_tile_and_fuse_refuses_bad_options(options, message):
    module = parse_module(SEED_EXAMPLE)
    before = print_module(module)
    with pytest.raises(OpPassFailed, match=message.replace("[", r"\[")):
        parse_pipeline(f"linalg-tile-and-fuse{{{options}}}").apply(
            make_context(), module
        )
    assert print_module(module) == before


def test_tile_and_fuse_reports_roots_left_alone(capsys):
    module = run_pass(
        MATMUL_FILL, "linalg-tile-and-fuse{tile-sizes=1,2,3,4 report=true}"
    )
    assert count(module, scf.ForOp) == 0
    err = capsys.readouterr().err
    assert "linalg-tile-and-fuse: linalg.matmul not tiled:" in err
    assert "4 tile sizes" in err


def test_tile_and_fuse_pass_keeps_meaning_on_the_seed_example():
    module = run_pass(SEED_EXAMPLE, "linalg-tile-and-fuse{tile-sizes=3,5}")
    assert count(module, scf.ForOp) == 2
    assert all(in_loops(op) for op in module.walk() if is_structured(op))
    assert meaning_difference(parse_module(SEED_EXAMPLE), module, "main") is None


# --- upstream's transform.structured.fuse -------------------------------------


def upstream_fuse(text: str, sizes: list[int]) -> str:
    import subprocess

    script = f"""
module attributes {{transform.with_named_sequence}} {{
  transform.named_sequence @__transform_main(%root: !transform.any_op {{transform.readonly}}) {{
    %op = transform.structured.match ops{{["linalg.matmul"]}} in %root : (!transform.any_op) -> !transform.any_op
    %tiled, %loops:{len([s for s in sizes if s])} = transform.structured.fuse %op tile_sizes {sizes}
      : (!transform.any_op) -> (!transform.any_op{", !transform.any_op" * len([s for s in sizes if s])})
    transform.yield
  }}
}}
"""
    return subprocess.run(
        [
            "mlir-opt-22",
            "--transform-interpreter",
            "--test-transform-dialect-erase-schedule",
            "--canonicalize",
        ],
        input=text + script,
        capture_output=True,
        text=True,
        check=True,
    ).stdout


def values_of(text: str, module: ModuleOp, inputs, *, upstream: bool):
    if upstream:
        return run_upstream(text, module, "main", inputs).results
    return run_function(module, "main", inputs).results


@needs_upstream
@pytest.mark.parametrize(
    ("sizes", "upstream_right"), [([4, 0, 2], False), ([4, 6], True)]
)
def test_upstream_fuse_against_ours(sizes, upstream_right):
    original = parse_module(MATMUL_FILL)
    theirs_text = upstream_fuse(MATMUL_FILL, sizes)
    theirs = parse_module(theirs_text)
    options = ",".join(map(str, sizes))
    ours = run_pass(MATMUL_FILL, f"linalg-tile-and-fuse{{tile-sizes={options}}}")
    ours_text = print_module(ours)
    # Upstream fuses the fill whatever the loops; ours only along i and j.
    assert count(theirs, linalg.FillOp) == 1 and in_loops(only(theirs, linalg.FillOp))
    assert in_loops(only(ours, linalg.FillOp)) == upstream_right
    rng = np.random.default_rng(11)
    inputs = random_inputs(find_function(original, "main"), rng)
    expected = run_function(original, "main", inputs).results
    for text, module, upstream in [
        (theirs_text, theirs, False),
        (theirs_text, theirs, True),
        (ours_text, ours, False),
        (ours_text, ours, True),
    ]:
        difference = compare_values(
            expected, values_of(text, module, inputs, upstream=upstream), "result"
        )
        is_theirs = module is theirs
        if is_theirs and not upstream_right:
            assert difference is not None, "upstream was expected to be wrong here"
        else:
            assert difference is None, difference
    # Where both are right, ours has no more ops inside the loops.
    if upstream_right:
        assert count_in_loops(ours) <= count_in_loops(theirs)


def count_in_loops(module: ModuleOp) -> int:
    outer = [
        op for op in module.walk() if isinstance(op, scf.ForOp) and not in_loops(op)
    ]
    return sum(1 for loop in outer for op in loop.walk() if op is not loop)


# --- upstream's test-linalg-greedy-fusion ----------------------------------------

GREEDY_INPUTS = sorted(
    (REPO / "tests" / "filecheck" / "passes" / "test-linalg-greedy-fusion").glob(
        "*.mlir"
    )
)

UPSTREAM_GREEDY_WRONG = {"slice_of_slice"}
"""Functions where upstream's pass changes the meaning: fusing through a
slice of a slice, it slices the producer's operands at the offsets of the
last slice only (row 0 for every row here); ours composes them."""


def function_names(module: ModuleOp) -> list[str]:
    return [op.sym_name.data for op in module.walk() if isinstance(op, func.FuncOp)]


@needs_upstream
@pytest.mark.parametrize("path", GREEDY_INPUTS, ids=lambda p: p.stem)
def test_greedy_fusion_against_upstreams(path):
    import subprocess

    text = path.read_text()
    original = parse_module(text)
    theirs_text = subprocess.run(
        ["mlir-opt-22", "--test-linalg-greedy-fusion"],
        input=text,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    theirs = parse_module(theirs_text)
    ours = run_pass(text, "test-linalg-greedy-fusion")
    rng = np.random.default_rng(5)
    for name in function_names(original):
        inputs = random_inputs(find_function(original, name), rng)
        expected = run_function(original, name, inputs).results
        ours_values = run_function(ours, name, inputs).results
        assert compare_values(expected, ours_values, "result") is None, name
        for values in (
            run_function(theirs, name, inputs).results,
            run_upstream(theirs_text, theirs, name, inputs).results,
        ):
            difference = compare_values(expected, values, "result")
            if name in UPSTREAM_GREEDY_WRONG:
                assert difference is not None, f"upstream @{name} was expected wrong"
            else:
                assert difference is None, f"upstream @{name}: {difference}"
