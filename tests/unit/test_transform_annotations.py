"""`simplify_tensor_dims` and ByteIR's annotation transform ops, executed.

- `linalg_ext.tiling.dims`: every `tensor.dim` of an intermediate is asked
  of the first tensor upstream with the same extent (ByteIR's rule for
  structured ops, through `tensor.empty`, reshapes, `pad`, `cast`, slices
  and `linalg_ext` ops); what each rewrites to is pinned, and the functions
  compute the same before and after (`check_module`).
- `transform.structured.tile_loop_hint`: which loops it marks (the lit test
  `tile_loop_hint.mlir` has ByteIR's kinds; here the rules' corners).
- `transform.annotate_ext`, `transform.cleanup`: syntax round trips (with
  `!pdl.operation` handles), the handle form of `cleanup`, its fold of
  additions of zeros and its symbol removal.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from xdsl.context import Context
from xdsl.dialects import func, scf, tensor
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass
from xdsl.transforms.canonicalization_patterns.utils import const_evaluate_operand

from helpers import parse_module, print_module
from linalg_ext.checking import check_module
from linalg_ext.context import make_context
from linalg_ext.pipelines import parse_pipeline
from linalg_ext.tiling.dims import first_equivalent_dim, simplify_tensor_dims
from linalg_ext.transform_ops.annotations import (
    PARALLEL_LOOP_ATTR,
    label_parallel_loops,
)
from linalg_ext.transform_ops.cleanup import remove_dead_symbols

TRANSFORM = "transform-interpreter,test-transform-dialect-erase-schedule"


@dataclass(frozen=True)
class SimplifyDimsPass(ModulePass):
    """`simplify_tensor_dims` on the module, for `check_module`."""

    name = "test-simplify-tensor-dims"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        simplify_tensor_dims(op)


def dims_by_result(module: ModuleOp) -> dict[str, str]:
    """For each `tensor.dim` (by its result's name): `source#index`."""
    found: dict[str, str] = {}
    for op in module.walk():
        if isinstance(op, tensor.DimOp):
            index = const_evaluate_operand(op.index)
            found[op.result.name_hint or "?"] = f"{op.source.name_hint}#{index}"
    return found


def returned_names(module: ModuleOp, function: str) -> list[str]:
    for op in module.walk():
        if isinstance(op, func.FuncOp) and op.sym_name.data == function:
            ret = op.body.block.last_op
            assert ret is not None
            return [v.name_hint or "?" for v in ret.operands]
    raise AssertionError(function)


def simplified(text: str) -> tuple[ModuleOp, int]:
    module = parse_module(text)
    count = simplify_tensor_dims(module)
    module.verify()
    report = check_module(parse_module(text), [SimplifyDimsPass()])
    assert report.ok, [v.line() for v in report.verdicts]
    return module, count


# --------------------------------------------------------------------------
# simplify_tensor_dims

CHAIN = """
func.func @chain(%a: tensor<?x?xf32>, %b: tensor<?x?xf32>, %w: tensor<?xf32>) -> (tensor<?x?xf32>, index, index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %d0 = tensor.dim %a, %c0 : tensor<?x?xf32>
  %d1 = tensor.dim %a, %c1 : tensor<?x?xf32>
  %e = tensor.empty(%d0, %d1) : tensor<?x?xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%a, %w : tensor<?x?xf32>, tensor<?xf32>) outs(%e : tensor<?x?xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<?x?xf32>
  %n0 = tensor.dim %sum, %c0 : tensor<?x?xf32>
  %n1 = tensor.dim %b, %c1 : tensor<?x?xf32>
  %e2 = tensor.empty(%n0, %n1) : tensor<?x?xf32>
  %z = arith.constant 0.0 : f32
  %f = linalg.fill ins(%z : f32) outs(%e2 : tensor<?x?xf32>) -> tensor<?x?xf32>
  %mm = linalg.matmul ins(%sum, %b : tensor<?x?xf32>, tensor<?x?xf32>) outs(%f : tensor<?x?xf32>) -> tensor<?x?xf32>
  %m0 = tensor.dim %mm, %c0 : tensor<?x?xf32>
  %m1 = tensor.dim %mm, %c1 : tensor<?x?xf32>
  %e3 = tensor.empty(%m0, %m1) : tensor<?x?xf32>
  %t = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%mm : tensor<?x?xf32>) outs(%e3 : tensor<?x?xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = math.exp %x : f32
    linalg.yield %r : f32
  } -> tensor<?x?xf32>
  %k0 = tensor.dim %t, %c0 : tensor<?x?xf32>
  %k1 = tensor.dim %t, %c1 : tensor<?x?xf32>
  return %t, %k0, %k1 : tensor<?x?xf32>, index, index
}
"""


def test_a_chain_of_structured_ops_asks_the_arguments():
    """Result dims of a generic, a matmul and a generic after it: each is
    asked of the first input indexing its loop, the function's arguments,
    never of an intermediate."""
    module, count = simplified(CHAIN)
    assert count == 5
    assert dims_by_result(module) == {
        "d0": "a#0",
        "d1": "a#1",
        "n0": "a#0",
        "n1": "b#1",
        "m0": "a#0",
        "m1": "b#1",
        "k0": "a#0",
        "k1": "b#1",
    }
    assert simplify_tensor_dims(module) == 0  # nothing left to do


RESHAPES = """
func.func @reshapes(%a: tensor<?x?xf32>, %n: index) -> (index, index, index, index, index, index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %d0 = tensor.dim %a, %c0 : tensor<?x?xf32>
  %d1 = tensor.dim %a, %c1 : tensor<?x?xf32>
  %cast = tensor.cast %a : tensor<?x?xf32> to tensor<?x?xf32>
  %x = tensor.expand_shape %cast [[0], [1, 2]] output_shape [%d0, %d1, 1] : tensor<?x?xf32> into tensor<?x?x1xf32>
  %ex = tensor.dim %x, %c1 : tensor<?x?x1xf32>
  %y = tensor.collapse_shape %x [[0], [1, 2]] : tensor<?x?x1xf32> into tensor<?x?xf32>
  %col = tensor.dim %y, %c1 : tensor<?x?xf32>
  %pad0 = arith.constant 0.0 : f32
  %p = tensor.pad %y low[0, 1] high[0, 2] {
  ^bb0(%i: index, %j: index):
    tensor.yield %pad0 : f32
  } : tensor<?x?xf32> to tensor<?x?xf32>
  %rows = tensor.dim %p, %c0 : tensor<?x?xf32>
  %cols = tensor.dim %p, %c1 : tensor<?x?xf32>
  %s = tensor.extract_slice %p[0, 0] [%n, 3] [1, 1] : tensor<?x?xf32> to tensor<?x3xf32>
  %srows = tensor.dim %s, %c0 : tensor<?x3xf32>
  %scols = tensor.dim %s, %c1 : tensor<?x3xf32>
  return %ex, %col, %rows, %cols, %srows, %scols : index, index, index, index, index, index
}
"""


def test_through_cast_reshapes_pad_and_slices():
    """expand_shape gives its output_shape operand, collapse_shape the one
    dimension of a group that is not a static 1, pad its source where both
    paddings are 0 (not where they are not), a slice its size operand or
    constant."""
    module = parse_module(RESHAPES)
    count = simplify_tensor_dims(module)
    module.verify()
    assert count == 5
    # %ex -> the output_shape operand %d1, itself `tensor.dim %a, 1`;
    # %col -> the same; %rows -> %a#0 through pad, collapse, expand
    # (output_shape), cast; %cols stays (padded); %srows -> %n; %scols -> 3.
    dims = dims_by_result(module)
    assert dims["cols"] == "p#1"
    assert dims["ex"] == dims["col"] == "a#1"
    assert dims["rows"] == "a#0"
    assert returned_names(module, "reshapes")[4] == "n"
    assert "scols" not in dims
    report = check_module(
        parse_module(RESHAPES), [SimplifyDimsPass()], ranges=["%n=0:3"]
    )
    assert report.ok, [v.line() for v in report.verdicts]


LINALG_EXT = """
func.func @ext(%x: tensor<?x?xf32>, %q: tensor<2x?x?xf32>, %k: tensor<2x?x?xf32>) -> (index, index, index, index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %r0 = tensor.dim %x, %c0 : tensor<?x?xf32>
  %r1 = tensor.dim %x, %c1 : tensor<?x?xf32>
  %out = tensor.empty(%r0, %r1) : tensor<?x?xf32>
  %m = tensor.empty(%r0) : tensor<?xf32>
  %sm:4 = linalg_ext.softmax dimension(1) ins(%x : tensor<?x?xf32>)
      outs(%out, %m, %m, %m : tensor<?x?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>)
      : tensor<?x?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>
  %scale_rows = tensor.dim %sm#3, %c0 : tensor<?xf32>
  %qm = tensor.dim %q, %c1 : tensor<2x?x?xf32>
  %kn = tensor.dim %k, %c2 : tensor<2x?x?xf32>
  %init = tensor.empty(%qm, %kn) : tensor<2x?x?xf32>
  %bm = linalg_ext.batch_matmul ins(%q, %k : tensor<2x?x?xf32>, tensor<2x?x?xf32>) outs(%init : tensor<2x?x?xf32>) layout = "nn"
  %bm1 = tensor.dim %bm, %c1 : tensor<2x?x?xf32>
  %bm2 = tensor.dim %bm, %c2 : tensor<2x?x?xf32>
  %cols = tensor.dim %sm#0, %c1 : tensor<?x?xf32>
  return %scale_rows, %bm1, %bm2, %cols : index, index, index, index
}
"""


def test_linalg_ext_ops_by_maps_and_by_tiling_models():
    """A softmax's scale follows the input's rows (its indexing maps); a
    batch_matmul (no indexing maps, its tiling model's projections) gives
    m from the lhs and n from the rhs."""
    module, count = simplified(LINALG_EXT)
    assert count == 4
    dims = dims_by_result(module)
    assert dims["scale_rows"] == "x#0"
    assert dims["bm1"] == "q#1"
    assert dims["bm2"] == "k#2"
    assert dims["cols"] == "x#1"


LOOP = """
func.func @loop(%a: tensor<?xf32>, %n: index) -> (index, index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %a) -> (tensor<?xf32>) {
    %inside = tensor.dim %acc, %c0 : tensor<?xf32>
    scf.yield %acc : tensor<?xf32>
  }
  %after = tensor.dim %r, %c0 : tensor<?xf32>
  %arg = tensor.dim %a, %c0 : tensor<?xf32>
  return %after, %arg : index, index
}
"""


def test_loops_and_block_arguments_stop_the_walk():
    module = parse_module(LOOP)
    before = print_module(module)
    assert simplify_tensor_dims(module) == 0
    assert print_module(module) == before
    dim = next(op for op in module.walk() if isinstance(op, tensor.DimOp))
    assert first_equivalent_dim(dim.source, 0) == (dim.source, 0)


# --------------------------------------------------------------------------
# tile_loop_hint's rules

HAND_WRITTEN = """
func.func @diagonal(%x: tensor<8x8xf32>, %init: tensor<8xf32>) -> tensor<8xf32> {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %r = scf.for %i = %c0 to %c8 step %c2 iter_args(%acc = %init) -> (tensor<8xf32>) {
    %xs = tensor.extract_slice %x[%i, %i] [2, 2] [1, 1] : tensor<8x8xf32> to tensor<2x2xf32>
    %is = tensor.extract_slice %acc[%i] [2] [1] : tensor<8xf32> to tensor<2xf32>
    %s = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]}
        ins(%xs : tensor<2x2xf32>) outs(%is : tensor<2xf32>) {
    ^bb0(%v: f32, %o: f32):
      %t = arith.addf %v, %o : f32
      linalg.yield %t : f32
    } -> tensor<2xf32>
    %rows = tensor.extract_slice %x[%i, 0] [2, 8] [1, 1] : tensor<8x8xf32> to tensor<2x8xf32>
    %neg = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
        outs(%rows : tensor<2x8xf32>) {
    ^bb0(%o: f32):
      %t = arith.negf %o : f32
      linalg.yield %t : f32
    } -> tensor<2x8xf32>
    %u = tensor.insert_slice %s into %acc[%i] [2] [1] : tensor<2xf32> into tensor<8xf32>
    scf.yield %u : tensor<8xf32>
  }
  return %r : tensor<8xf32>
}
"""


def _generic(module: ModuleOp):
    return next(op for op in module.walk() if op.name == "linalg.generic")


def test_a_loop_walking_a_parallel_and_a_reduction_dimension_is_not_parallel():
    """The reduction walks the diagonal: the loop is not parallel, although
    the negation beside it walks only rows (ByteIR skips an op with such a
    conflict, and would mark the loop)."""
    module = parse_module(HAND_WRITTEN)
    assert label_parallel_loops(_generic(module)) == []


def test_fresh_inits_make_the_loop_parallel_and_nesting_matters():
    """An op whose inits are all new tensor.empty ops computes nothing
    carried across iterations (ByteIR's rule): parallel even along its
    reduction. An op not directly in the innermost loop labels nothing."""
    fresh = HAND_WRITTEN.replace(
        "%is = tensor.extract_slice %acc[%i] [2] [1] : tensor<8xf32> to tensor<2xf32>",
        "%is = tensor.empty() : tensor<2xf32>",
    ).replace(
        "%xs = tensor.extract_slice %x[%i, %i]", "%xs = tensor.extract_slice %x[0, %i]"
    )
    module = parse_module(fresh)
    (loop,) = label_parallel_loops(_generic(module))
    assert PARALLEL_LOOP_ATTR in loop.attributes

    nested = parse_module(
        HAND_WRITTEN.replace(
            "    %u = tensor.insert_slice",
            "    scf.for %j = %c0 to %c8 step %c2 {\n    }\n    %u = tensor.insert_slice",
        )
    )
    loops = [op for op in nested.walk() if isinstance(op, scf.ForOp)]
    assert len(loops) == 2
    assert label_parallel_loops(_generic(nested)) == []


# --------------------------------------------------------------------------
# annotate_ext and cleanup: syntax, handle form, folds

BYTEIR_SYNTAX = """
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %0 = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %a = transform.annotate_ext %0 {__scope__ = "threadblock", unit_one}
    %b = transform.annotate_ext %a
    transform.structured.tile_loop_hint %b : !pdl.operation
    transform.structured.tile_loop_hint %0 : !transform.any_op
    transform.cleanup
    transform.cleanup(%0 : !transform.any_op)
    %c = transform.cleanup(%a : !pdl.operation) -> !pdl.operation
    %d = transform.cleanup -> !transform.any_op
    transform.yield
  }
}
"""


@pytest.mark.parametrize("generic", [False, True])
def test_syntax_round_trips(generic: bool):
    module = parse_module(BYTEIR_SYNTAX)
    printed = print_module(module, generic=generic)
    assert print_module(parse_module(printed), generic=generic) == printed
    if not generic:
        assert "%b = transform.annotate_ext %a\n" in printed
        assert "transform.cleanup\n" in printed
    annotate = next(op for op in module.walk() if op.name == "transform.annotate_ext")
    assert annotate.operands[0].type == annotate.operands[0].owner.results[0].type  # pyright: ignore[reportAttributeAccessIssue]
    assert str(annotate.results[0].type) == "!pdl.operation"


TWO_FUNCTIONS = """
module attributes {transform.with_named_sequence} {
  func.func @target(%x: index) -> (index, index) {
    %c1 = arith.constant 1 : index
    %a = arith.addi %x, %c1 : index
    %b = arith.addi %x, %c1 : index
    return %a, %b : index, index
  }
  func.func @other(%x: index) -> (index, index) {
    %c1 = arith.constant 1 : index
    %a = arith.addi %x, %c1 : index
    %b = arith.addi %x, %c1 : index
    return %a, %b : index, index
  }
  func.func private @unused() {
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} attributes {sym_name = "target"} in %root : (!transform.any_op) -> !transform.any_op
    %g = transform.cleanup(%f : !transform.any_op) -> !transform.any_op
    %h = transform.annotate_ext %g {cleaned}
    transform.yield
  }
}
"""


def test_cleanup_of_a_handle_cleans_inside_those_ops_only():
    """CSE in @target only; the private function stays (no symbol table is
    cleaned up); the result handle holds @target."""
    module = parse_module(TWO_FUNCTIONS)
    parse_pipeline(TRANSFORM).apply(make_context(), module)
    functions = {
        op.sym_name.data: op for op in module.walk() if isinstance(op, func.FuncOp)
    }
    assert set(functions) == {"target", "other", "unused"}
    assert "cleaned" in functions["target"].attributes
    assert len(list(functions["target"].body.block.ops)) == 3
    assert len(list(functions["other"].body.block.ops)) == 4


ADD_ZEROS = """
func.func @add(%x: tensor<4xf32>) -> tensor<4xf32> {
  %z = arith.constant {FILL} : f32
  %e = tensor.empty() : tensor<4xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
      ins(%x : tensor<4xf32>) outs({INIT} : tensor<4xf32>) {
  ^bb0(%v: f32, %o: f32):
    %t = arith.addf %o, %v : f32
    linalg.yield %t : f32
  } -> tensor<4xf32>
  return %y : tensor<4xf32>
}
"""


@pytest.mark.parametrize(
    ("fill", "init", "folds"),
    [("0.0", "%f", True), ("1.0", "%f", False), ("0.0", "%e", False)],
)
def test_cleanup_folds_an_addition_of_zeros_only(fill: str, init: str, folds: bool):
    """Into zeros: the input. Into ones, or into an uninitialised
    tensor.empty (which ByteIR folds): kept."""
    from linalg_ext.transform_ops.cleanup import cleanup_payload

    text = ADD_ZEROS.replace("{FILL}", fill).replace("{INIT}", init)
    module = parse_module(text)
    cleanup_payload(module)
    module.verify()
    assert returned_names(module, "add") == (["x"] if folds else ["y"])


def test_symbol_removal_follows_references():
    """Private functions reachable from a public one stay, through chains
    and through a reference held by an attribute; the rest go, even when
    they call each other."""
    module = parse_module(
        """
        func.func @main() {
          func.call @kept() : () -> ()
          return
        }
        func.func private @kept() {
          func.call @kept_leaf() : () -> ()
          return
        }
        func.func private @kept_leaf() attributes {ref = [@by_attribute]}
        func.func private @by_attribute()
        func.func private @ping() {
          func.call @pong() : () -> ()
          return
        }
        func.func private @pong() {
          func.call @ping() : () -> ()
          return
        }
        """
    )
    assert sorted(remove_dead_symbols(module)) == ["ping", "pong"]
    names = [op.sym_name.data for op in module.walk() if isinstance(op, func.FuncOp)]
    assert names == ["main", "kept", "kept_leaf", "by_attribute"]
