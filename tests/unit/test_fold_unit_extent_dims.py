"""`linalg-fold-unit-extent-dims` against upstream's pass.

With `mlir-opt-22`: on upstream-kind inputs, our output and
`mlir-opt-22 --linalg-fold-unit-extent-dims` (with both values of
`use-rank-reducing-slices`) compute the same values (both run on our
interpreter, on the same random inputs, and both as the input does), and
ours has no more ops. Without it those tests are skipped. Also: the
transform op shares the pass's rewriting, and the pass is idempotent.
"""

from __future__ import annotations

import pytest
from xdsl.dialects.builtin import ModuleOp

from helpers import (
    MLIR_OPT,
    after_mlir_opt,
    after_pass,
    function_names,
    meaning_difference,
    op_count,
    parse_module,
    print_module,
)
from linalg_ext.passes.linalg_fold_unit_extent_dims import (
    LinalgFoldUnitExtentDimsPass,
)
from linalg_ext.pipelines import apply_pipeline

PROGRAMS: dict[str, str] = {
    "elementwise_chain": """
#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
func.func @f(%x: tensor<1x3x1xf32>, %y: tensor<1x3x1xf32>) -> tensor<1x3x1xf32> {
  %e = tensor.empty() : tensor<1x3x1xf32>
  %a = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x, %y : tensor<1x3x1xf32>, tensor<1x3x1xf32>) outs(%e : tensor<1x3x1xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %s = arith.addf %p, %q : f32
    linalg.yield %s : f32
  } -> tensor<1x3x1xf32>
  %b = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%a : tensor<1x3x1xf32>) outs(%y : tensor<1x3x1xf32>) {
  ^bb0(%p: f32, %o: f32):
    %s = arith.mulf %p, %o : f32
    linalg.yield %s : f32
  } -> tensor<1x3x1xf32>
  return %b : tensor<1x3x1xf32>
}
""",
    "reductions": """
func.func @f(%x: tensor<2x1xf32>, %o: tensor<2xf32>, %z: tensor<1x4x1xf32>, %w: tensor<1xf32>, %u: tensor<1x1xi32>, %v: tensor<i32>) -> (tensor<2xf32>, tensor<1xf32>, tensor<i32>) {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<2x1xf32>) outs(%o : tensor<2xf32>) {
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<2xf32>
  %m = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0)>], iterator_types = ["parallel", "reduction", "reduction"]}
      ins(%z : tensor<1x4x1xf32>) outs(%w : tensor<1xf32>) {
  ^bb0(%a: f32, %b: f32):
    %s = arith.maximumf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<1xf32>
  %t = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>], iterator_types = ["reduction", "reduction"]}
      ins(%u : tensor<1x1xi32>) outs(%v : tensor<i32>) {
  ^bb0(%a: i32, %b: i32):
    %s = arith.addi %a, %b : i32
    linalg.yield %s : i32
  } -> tensor<i32>
  return %r, %m, %t : tensor<2xf32>, tensor<1xf32>, tensor<i32>
}
""",
    "filled_reduction": """
func.func @f(%x: tensor<1x?x1x4xf32>) -> tensor<1x?xf32> {
  %zero = arith.constant 0.0 : f32
  %c1 = arith.constant 1 : index
  %n = tensor.dim %x, %c1 : tensor<1x?x1x4xf32>
  %e = tensor.empty(%n) : tensor<1x?xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%e : tensor<1x?xf32>) -> tensor<1x?xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
      ins(%x : tensor<1x?x1x4xf32>) outs(%fill : tensor<1x?xf32>) {
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<1x?xf32>
  return %r : tensor<1x?xf32>
}
""",
    "dynamic_and_broadcast": """
func.func @f(%x: tensor<?x1x2xf32>, %b: tensor<1x2xf32>) -> tensor<?x1x2xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x1x2xf32>
  %e = tensor.empty(%n) : tensor<?x1x2xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x, %b : tensor<?x1x2xf32>, tensor<1x2xf32>) outs(%e : tensor<?x1x2xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %s = arith.subf %p, %q : f32
    linalg.yield %s : f32
  } -> tensor<?x1x2xf32>
  return %r : tensor<?x1x2xf32>
}
""",
    "several_results_scalar_and_index_casts": """
func.func @f(%x: tensor<1x3xf32>, %s: f32, %y: tensor<3x1xf32>) -> (tensor<1x3xf32>, tensor<3x1x1xf32>) {
  %e = tensor.empty() : tensor<1x3xf32>
  %e2 = tensor.empty() : tensor<3x1x1xf32>
  %r:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> ()>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d1, d0, d2)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x, %s, %y : tensor<1x3xf32>, f32, tensor<3x1xf32>) outs(%e, %e2 : tensor<1x3xf32>, tensor<3x1x1xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32, %o: f32, %p: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %k = linalg.index 2 : index
    %m = arith.muli %j, %i : index
    %n = arith.addi %m, %k : index
    %q = arith.index_cast %n : index to i32
    %w = arith.sitofp %q : i32 to f32
    %s1 = arith.addf %a, %b : f32
    %s2 = arith.mulf %c, %w : f32
    linalg.yield %s1, %s2 : f32, f32
  } -> (tensor<1x3xf32>, tensor<3x1x1xf32>)
  return %r#0, %r#1 : tensor<1x3xf32>, tensor<3x1x1xf32>
}
""",
    "compound_map": """
func.func @f(%x: tensor<4x3xf32>) -> tensor<1x3xf32> {
  %e = tensor.empty() : tensor<1x3xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0 + 2, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x3xf32>) outs(%e : tensor<1x3xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<1x3xf32>
  return %r : tensor<1x3xf32>
}
""",
    "in_a_loop": """
func.func @f(%x: tensor<1x4xf32>) -> tensor<1x4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%acc = %x) -> (tensor<1x4xf32>) {
    %g = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
        ins(%acc : tensor<1x4xf32>) outs(%acc : tensor<1x4xf32>) {
    ^bb0(%a: f32, %o: f32):
      %s = arith.addf %a, %o : f32
      linalg.yield %s : f32
    } -> tensor<1x4xf32>
    scf.yield %g : tensor<1x4xf32>
  }
  return %r : tensor<1x4xf32>
}
""",
    "transposed_dynamic": """
func.func @f(%x: tensor<?x1xf32>, %o: tensor<1x?xf32>) -> tensor<1x?xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<?x1xf32>) outs(%o : tensor<1x?xf32>) {
  ^bb0(%a: f32, %b: f32):
    %s = arith.subf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<1x?xf32>
  return %r : tensor<1x?xf32>
}
""",
    "index_and_memrefs": """
func.func @f(%x: tensor<1x3xindex>, %m: memref<2x1xf32>, %n: memref<1x2xf32>) -> tensor<1x3xindex> {
  %e = tensor.empty() : tensor<1x3xindex>
  %a = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<1x3xindex>) outs(%e : tensor<1x3xindex>) {
  ^bb0(%p: index, %q: index):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %s = arith.addi %p, %i : index
    %t = arith.muli %s, %j : index
    linalg.yield %t : index
  } -> tensor<1x3xindex>
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1, d0)>], iterator_types = ["parallel", "parallel"]}
      ins(%m : memref<2x1xf32>) outs(%n : memref<1x2xf32>) {
  ^bb0(%p: f32, %q: f32):
    %s = arith.addf %p, %q : f32
    linalg.yield %s : f32
  }
  return %a : tensor<1x3xindex>
}
""",
}

OPTIONS = [False, True]


def ours(text: str, slices: bool) -> ModuleOp:
    return after_pass(LinalgFoldUnitExtentDimsPass(slices), text)


def upstream(text: str, slices: bool) -> ModuleOp:
    option = "true" if slices else "false"
    return after_mlir_opt(
        text, f"--linalg-fold-unit-extent-dims=use-rank-reducing-slices={option}"
    )


@pytest.mark.skipif(MLIR_OPT is None, reason="mlir-opt-22 is not installed")
@pytest.mark.parametrize("slices", OPTIONS, ids=["reshapes", "slices"])
@pytest.mark.parametrize("name", PROGRAMS)
def test_same_values_as_upstream_and_no_more_ops(name: str, slices: bool):
    text = PROGRAMS[name]
    before = parse_module(text)
    theirs = upstream(text, slices)
    mine = ours(text, slices)
    for function in function_names(before):
        assert meaning_difference(before, theirs, function) is None
        assert meaning_difference(theirs, mine, function) is None
    assert op_count(mine) <= op_count(theirs), print_module(mine)


@pytest.mark.skipif(MLIR_OPT is None, reason="mlir-opt-22 is not installed")
@pytest.mark.parametrize("slices", OPTIONS, ids=["reshapes", "slices"])
def test_same_loops_as_upstream(slices: bool):
    """Each generic keeps the loops upstream's keeps (same iterator types,
    in the same order of generics)."""
    for text in PROGRAMS.values():
        kinds = [
            [
                [str(t.data) for t in op.iterator_types.data]  # pyright: ignore[reportAttributeAccessIssue]
                for op in module.walk()
                if op.name == "linalg.generic"
            ]
            for module in (upstream(text, slices), ours(text, slices))
        ]
        assert kinds[0] == kinds[1]


@pytest.mark.parametrize("slices", OPTIONS, ids=["reshapes", "slices"])
def test_idempotent(slices: bool):
    for text in PROGRAMS.values():
        once = ours(text, slices)
        twice = ours(print_module(once), slices)
        assert twice.is_structurally_equivalent(once)


def test_transform_op_shares_the_rewriting():
    """The transform op on every generic gives what the pass gives, but
    for the folds between generics the pass also applies."""
    text = PROGRAMS["reductions"]
    script = """
transform.sequence failures(propagate) {
^bb0(%root: !pdl.operation):
  %0 = transform.structured.match ops{["linalg.generic"]} in %root : (!pdl.operation) -> !pdl.operation
  %1 = transform.structured.fold_unit_extent_dims %0
}
"""
    module = parse_module(text + script)
    apply_pipeline("transform-dialect-interpreter{erase-after=true}", module)
    assert module.is_structurally_equivalent(ours(text, False))


def test_transform_op_rewrites_a_target_named_twice_once():
    """A handle naming a generic twice (`merge_handles`) folds it once
    (a second rewrite would meet the erased op)."""
    text = PROGRAMS["reductions"]
    script = """
transform.sequence failures(propagate) {
^bb0(%root: !pdl.operation):
  %0 = transform.structured.match ops{["linalg.generic"]} in %root : (!pdl.operation) -> !pdl.operation
  %1 = transform.merge_handles %0, %0 : !pdl.operation
  %2 = transform.structured.fold_unit_extent_dims %1
}
"""
    module = parse_module(text + script)
    apply_pipeline("transform-dialect-interpreter{erase-after=true}", module)
    once = parse_module(text + script.replace("%0, %0", "%0"))
    apply_pipeline("transform-dialect-interpreter{erase-after=true}", once)
    assert module.is_structurally_equivalent(once)
