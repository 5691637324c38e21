"""ByteIR's `transform.structured.tile_ext`, `transform.structured.lower_to_loops`
and the pass `linalg-op-tile`, executed.

- Syntax: both ops parse and print ByteIR's form (no types), in a
  `transform.sequence` with `!pdl.operation` handles and in a
  `named_sequence` with `!transform.any_op`; the results take the target's
  handle type.
- Handles: `tile_ext` returns the tiled op and the loops outermost first in
  interchange order; `lower_to_loops` the loops its ids name. A refused
  target leaves every target untiled.
- Meaning: each kind of op ByteIR's tests tile (reshapes, scatter,
  layer_norm, scan) computes the same after `tile_ext` as before; the
  scalar loops of `lower_to_loops` (`linalg.index` included) too. (The
  FileCheck inputs in tests/filecheck/passes/transform-dialect-interpreter/
  and linalg-op-tile/ are run before and after by test_pass_meaning.py.)
- `linalg-op-tile`: only marked ops change; a refusal leaves the module as it
  was; a negative size is one located line, exit code 1.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from xdsl.dialects import scf
from xdsl.dialects.builtin import ModuleOp
from xdsl.interpreter import Interpreter
from xdsl.interpreters.transform import OperationHandle
from xdsl.ir import Operation

from helpers import meaning_difference, parse_module, print_module
from linalg_ext.checking import check_module
from linalg_ext.context import make_context
from linalg_ext.tools.check import parse_pipeline
from linalg_ext.transform_ops.tile_ext import LowerToLoopsOp, TileExtOp
from linalg_ext.transform_ops.tile_ext_functions import TileExtFunctions

PIPELINE = "transform-interpreter,test-transform-dialect-erase-schedule"


def run_pipeline(text: str, pipeline: str) -> ModuleOp:
    module = parse_module(text)
    parse_pipeline(pipeline).apply(make_context(), module)
    module.verify()
    return module


def first(module: ModuleOp, name: str) -> Operation:
    return next(op for op in module.walk() if op.name == name)


# --------------------------------------------------------------------------
# Syntax

SEQUENCE = """\
transform.sequence failures(propagate) {
^bb0(%arg0: !pdl.operation):
  %0 = transform.structured.match ops{["linalg.matmul"]} in %arg0 : (!pdl.operation) -> !pdl.operation
  %1, %loops:3 = transform.structured.tile_ext %0 [2, 4, 8] {interchange = [2, 1, 0]}
  %2, %loop = transform.structured.tile_ext %0 [0, %1]
  %l:2 = transform.structured.lower_to_loops %1 [0, -1]
}
"""

NAMED = """\
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %0 = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %1, %loops:2 = transform.structured.tile_ext %0 [4, 0, 8]
    %l = transform.structured.lower_to_loops %0 [-1]
    transform.yield
  }
}
"""


@pytest.mark.parametrize(
    ("text", "handle", "loops"),
    [(SEQUENCE, "!pdl.operation", [3, 1]), (NAMED, "!transform.any_op", [2])],
)
def test_byteir_syntax_round_trips_and_results_follow_the_target(text, handle, loops):
    module = parse_module(text)
    printed = print_module(module)
    assert print_module(parse_module(printed)) == printed
    tile_exts = [op for op in module.walk() if isinstance(op, TileExtOp)]
    lowers = [op for op in module.walk() if isinstance(op, LowerToLoopsOp)]
    assert lowers
    for op in (*tile_exts, *lowers):
        assert {str(r.type) for r in op.results} == {handle}
    # One loop handle per nonzero size (a handle size counts); no types.
    assert [len(op.loops) for op in tile_exts] == loops
    assert all(" : " not in line for line in printed.splitlines() if "tile_ext" in line)


def test_a_handle_not_defined_before_is_refused():
    text = """\
transform.sequence failures(propagate) {
^bb0(%arg0: !pdl.operation):
  %1, %l = transform.structured.tile_ext %9 [2]
  %9 = transform.structured.match ops{["linalg.matmul"]} in %arg0 : (!pdl.operation) -> !pdl.operation
}
"""
    with pytest.raises(Exception, match="expected a handle defined before this op"):
        parse_module(text)


# --------------------------------------------------------------------------
# Handles

MATMUL = """\
func.func @mm(%a: tensor<12x16xf32>, %b: tensor<16x8xf32>, %c: tensor<12x8xf32>) -> tensor<12x8xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<12x16xf32>, tensor<16x8xf32>) outs(%c : tensor<12x8xf32>) -> tensor<12x8xf32>
  return %r : tensor<12x8xf32>
}
"""

ROW_MAX = """\
func.func @row_max(%x: memref<6x8xf32>, %y: memref<6xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<6x8xf32>) outs(%y : memref<6xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maxnumf %in, %out : f32
    linalg.yield %m : f32
  }
  return
}
"""


def script_op(line: str) -> Operation:
    """The transform op of a one-line `transform.sequence` on `%t`."""
    script = parse_module(
        "transform.sequence failures(propagate) {\n^bb0(%t: !pdl.operation):\n"
        f"  {line}\n}}\n"
    )
    return next(o for o in script.walk() if isinstance(o, (TileExtOp, LowerToLoopsOp)))


def test_tile_ext_handles_are_the_tiled_op_and_the_loops_in_interchange_order():
    module = parse_module(MATMUL)
    matmul = first(module, "linalg.matmul")
    op = script_op(
        "%1, %l:3 = transform.structured.tile_ext %t [2, 4, 8] {interchange = [2, 1, 0]}"
    )
    assert isinstance(op, TileExtOp)
    tiled, *loops = (
        TileExtFunctions()
        .run_tile_ext(Interpreter(module), op, (OperationHandle(matmul),))
        .values
    )
    (tile,) = tiled.ops
    assert tile.name == "linalg.matmul" and tile.parent_op() is loops[2].ops[0]
    nest = [o for o in module.walk() if isinstance(o, scf.ForOp)]
    assert [h.ops[0] for h in loops] == nest
    # k (16 by 8), then j (8 by 4), then i (12 by 2)
    steps = [loop.step.owner.value.value.data for loop in nest]  # pyright: ignore
    assert steps == [8, 4, 2]


@pytest.mark.parametrize(
    ("ids", "depths"), [([0, -1], [0, 1]), ([-1], [1]), ([1, 0, 1], [1, 0, 1])]
)
def test_lower_to_loops_returns_the_loops_its_ids_name(ids, depths):
    module = parse_module(ROW_MAX)
    target = first(module, "linalg.generic")
    results = f"%l:{len(ids)}" if len(ids) > 1 else "%l"
    op = script_op(f"{results} = transform.structured.lower_to_loops %t {ids}")
    assert isinstance(op, LowerToLoopsOp)
    handles = (
        TileExtFunctions()
        .run_lower_to_loops(Interpreter(module), op, (OperationHandle(target),))
        .values
    )
    nest = [o for o in module.walk() if isinstance(o, scf.ForOp)]
    assert len(nest) == 2
    assert [h.ops[0] for h in handles] == [nest[d] for d in depths]
    assert not any(o.name == "linalg.generic" for o in module.walk())


# --------------------------------------------------------------------------
# Meaning: each kind of op ByteIR's tests tile

KINDS = {
    "expand_on_expanded_dim": (
        """
func.func @f(%x: tensor<8x4x64xf32>) -> tensor<8x4x16x4xf32> {
  %e = tensor.expand_shape %x [[0], [1], [2, 3]] output_shape [8, 4, 16, 4] {__root__} : tensor<8x4x64xf32> into tensor<8x4x16x4xf32>
  return %e : tensor<8x4x16x4xf32>
}
""",
        "[4, 0, 4]",
        2,
    ),
    "collapse": (
        """
func.func @f(%x: tensor<8x1x4x2xf32>) -> tensor<8x8xf32> {
  %c = tensor.collapse_shape %x [[0], [1, 2, 3]] {__root__} : tensor<8x1x4x2xf32> into tensor<8x8xf32>
  return %c : tensor<8x8xf32>
}
""",
        "[4, 0, 2]",
        2,
    ),
    "scatter": (
        """
func.func @f(%src: tensor<2x3x8x6xf32>, %indices: tensor<10x2xi64>, %updates: tensor<10x8x6xf32>) -> tensor<2x3x8x6xf32> {
  %r = linalg_ext.scatter {__root__} ins(%indices, %updates : tensor<10x2xi64>, tensor<10x8x6xf32>) outs(%src : tensor<2x3x8x6xf32>) {
  ^bb0(%u: f32, %s: f32):
    %a = arith.addf %u, %s : f32
    linalg_ext.yield %a : f32
  } -> tensor<2x3x8x6xf32>
  return %r : tensor<2x3x8x6xf32>
}
""",
        "[2, 4, 3] {interchange = [1, 2, 0]}",
        3,
    ),
    "layer_norm_two_axes": (
        """
func.func @f(%x: tensor<4x3x8xf32>, %w: tensor<3x8xf32>, %b: tensor<3x8xf32>) -> tensor<4x3x8xf32> {
  %e = tensor.empty() : tensor<4x3x8xf32>
  %r = linalg_ext.layer_norm {__root__} axis([1, 2]) epsilon(1.0e-05)
      ins(%x, %w, %b : tensor<4x3x8xf32>, tensor<3x8xf32>, tensor<3x8xf32>) outs(%e : tensor<4x3x8xf32>) : tensor<4x3x8xf32>
  return %r : tensor<4x3x8xf32>
}
""",
        "[3]",
        1,
    ),
    "scan_along_its_dimension": (
        """
func.func @f(%x: tensor<10x4xi32>) -> tensor<10x4xi32> {
  %zero = arith.constant 0 : i32
  %ce = tensor.empty() : tensor<4xi32>
  %c = linalg.fill ins(%zero : i32) outs(%ce : tensor<4xi32>) -> tensor<4xi32>
  %o = tensor.empty() : tensor<10x4xi32>
  %r:2 = linalg_ext.scan {__root__} dimension(0) inclusive(true) ins(%x : tensor<10x4xi32>) outs(%o, %c : tensor<10x4xi32>, tensor<4xi32>) {
  ^bb0(%p: i32, %q: i32):
    %s = arith.addi %p, %q : i32
    linalg_ext.yield %s : i32
  } -> tensor<10x4xi32>, tensor<4xi32>
  return %r#0 : tensor<10x4xi32>
}
""",
        "[3, 2]",
        2,
    ),
}


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_tile_ext_keeps_the_meaning_of_each_kind_of_op(kind):
    payload, sizes, num_loops = KINDS[kind]
    results = "%t" + (f", %l:{num_loops}" if num_loops > 1 else ", %l")
    text = f"""\
module attributes {{transform.with_named_sequence}} {{
{payload}
  transform.named_sequence @__transform_main(%root: !transform.any_op {{transform.readonly}}) {{
    %0 = transform.structured.match attributes {{__root__}} in %root : (!transform.any_op) -> !transform.any_op
    {results} = transform.structured.tile_ext %0 {sizes}
    transform.yield
  }}
}}
"""
    after = run_pipeline(text, PIPELINE)
    loops = [op for op in after.walk() if isinstance(op, scf.ForOp)]
    assert len(loops) == num_loops
    # Run before and after on the same inputs (valid scatter indices).
    report = check_module(parse_module(text), PIPELINE, trials=2, seed=3)
    assert report.ok, "\n".join(v.line() for v in report.verdicts)


def test_lower_to_loops_keeps_the_meaning_with_linalg_index():
    text = """\
module attributes {transform.with_named_sequence} {
  func.func @f(%x: memref<5x?xi32>, %y: memref<?x5xi32>) {
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1, d0)>],
                    iterator_types = ["parallel", "parallel"]}
        ins(%x : memref<5x?xi32>) outs(%y : memref<?x5xi32>) {
    ^bb0(%in: i32, %out: i32):
      %i = linalg.index 0 : index
      %j = linalg.index 1 : index
      %k = arith.muli %i, %j : index
      %c = arith.index_cast %k : index to i32
      %s = arith.addi %in, %c : i32
      linalg.yield %s : i32
    }
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %0 = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    %l = transform.structured.lower_to_loops %0 [0]
    transform.yield
  }
}
"""
    before = parse_module(text)
    after = run_pipeline(text, PIPELINE)
    assert not any(op.name == "linalg.generic" for op in after.walk())
    assert len([op for op in after.walk() if isinstance(op, scf.ForOp)]) == 2
    assert meaning_difference(before, after, "f") is None


# --------------------------------------------------------------------------
# linalg-op-tile

MARKED = """\
func.func @f(%a: tensor<6x8xf32>, %b: tensor<8x8xf32>, %c: tensor<6x8xf32>) -> tensor<6x8xf32> {
  %t = linalg.matmul {__internal_linalg_transform__ = "__byteir_tile__"}
      ins(%a, %b : tensor<6x8xf32>, tensor<8x8xf32>) outs(%c : tensor<6x8xf32>) -> tensor<6x8xf32>
  %r = linalg.matmul {__internal_linalg_transform__ = "other"}
      ins(%t, %b : tensor<6x8xf32>, tensor<8x8xf32>) outs(%c : tensor<6x8xf32>) -> tensor<6x8xf32>
  return %r : tensor<6x8xf32>
}
"""


def test_linalg_op_tile_tiles_marked_ops_only():
    before = parse_module(MARKED)
    after = run_pipeline(MARKED, "linalg-op-tile{tile-sizes=4,0,2}")
    loops = [op for op in after.walk() if isinstance(op, scf.ForOp)]
    # i (parallel) outside k (a reduction): only i is marked parallel.
    assert ["__byteir_parallel__" in loop.attributes for loop in loops] == [True, False]
    matmuls = [op for op in after.walk() if op.name == "linalg.matmul"]
    assert [
        str(op.attributes.get("__internal_linalg_transform__")) for op in matmuls
    ] == [
        "None",
        '"other"',
    ]
    assert matmuls[1].parent_op() is not None and not isinstance(
        matmuls[1].parent_op(), scf.ForOp
    )
    assert meaning_difference(before, after, "f") is None


def test_linalg_op_tile_refusal_leaves_the_module_as_it_was(capsys):
    text = MARKED.replace('"other"', '"__byteir_tile__"')
    module = parse_module(text)
    printed = print_module(module)
    # 4 sizes for 3 loops: refused for both, reported.
    parse_pipeline("linalg-op-tile{tile-sizes=2,2,2,2 report=true}").apply(
        make_context(), module
    )
    assert print_module(module) == printed
    lines = capsys.readouterr().err.splitlines()
    assert (
        lines
        == [
            "linalg-op-tile: linalg.matmul not tiled: linalg.matmul has 3 loops but "
            "4 tile sizes were given"
        ]
        * 2
    )


def test_linalg_op_tile_negative_size_is_one_located_line(tmp_path: Path):
    path = tmp_path / "marked.mlir"
    path.write_text(MARKED)
    done = subprocess.run(
        [
            str(Path(sys.executable).parent / "linalg-ext-opt"),
            "-p",
            "linalg-op-tile{tile-sizes=2,-1}",
            str(path),
        ],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 1
    assert done.stdout == ""
    lines = done.stderr.splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith(f"{path}:2:")
    assert "linalg-op-tile: tile size -1 is negative" in lines[0]


def test_tile_ext_checks_every_target_before_tiling_any():
    from linalg_ext.transform_ops.handles import TransformOpFailed

    module = parse_module(
        MATMUL
        + """
func.func @softmax(%x: tensor<4x8xf32>, %m: tensor<4xf32>, %s: tensor<4xf32>) -> tensor<4x8xf32> {
  %out = tensor.empty() : tensor<4x8xf32>
  %r:4 = linalg_ext.softmax dimension(1) ins(%x : tensor<4x8xf32>)
      outs(%out, %m, %s, %s : tensor<4x8xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>)
      : tensor<4x8xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
  return %r#0 : tensor<4x8xf32>
}
"""
    )
    printed = print_module(module)
    targets = OperationHandle(
        first(module, "linalg.matmul"), first(module, "linalg_ext.softmax")
    )
    op = script_op("%1, %l:2 = transform.structured.tile_ext %t [2, 4]")
    with pytest.raises(TransformOpFailed, match="unsupported tiling dim 1"):
        TileExtFunctions().run_tile_ext(Interpreter(module), op, (targets,))
    assert print_module(module) == printed
