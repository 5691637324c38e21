"""Folding reshapes into elementwise generics by expansion
(passes/fuse_elementwise_ext/reshape.py).

The functions are called directly on parsed modules; each rewrite must keep
the values the function computes (run before and after on the same random
inputs). Refusals must say why and change nothing.

The pass-level tests run `linalg-fuse-elementwise-ext`: there the fused
programs are compared
with `mlir-opt-22 --linalg-fuse-elementwise-ops` (same number of
`linalg.generic` ops), and the seed's case, which upstream leaves, must end
in one op as in ByteIR.
"""

from __future__ import annotations

import re
import shutil
import subprocess

import numpy as np
import pytest
from xdsl.dialects import affine, arith, func, tensor
from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.linalg.ops import GenericOp, IndexOp
from xdsl.ir import Operation, OpResult

from helpers import REPO, parse_module, print_module
from linalg_ext.comparison import compare_values
from linalg_ext.passes.fuse_elementwise_ext.cleanup import drop_redundant_inputs
from linalg_ext.passes.fuse_elementwise_ext.fusion import NotFused, check_fusion, fuse
from linalg_ext.passes.fuse_elementwise_ext.reshape import (
    bypass_reshape_pair,
    expand_consumer_of_collapse,
    expand_producer_of_expand,
)
from linalg_ext.running import find_function, random_inputs, run_function
from linalg_ext.tools.check import check_module

FILECHECK_INPUT = (
    REPO
    / "tests"
    / "filecheck"
    / "passes"
    / "linalg-fuse-elementwise-ext"
    / "reshapes.mlir"
)
PASS = "linalg-fuse-elementwise-ext"
HAS_MLIR_OPT = shutil.which("mlir-opt-22") is not None

SEED = """
#map = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map1 = affine_map<(d0, d1) -> (d0, 0)>
#map2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @constant_in_affine_map_with_collapse_shape(%arg0: tensor<1x256x1024xf32>, %arg1: tensor<256x1024xf16>, %arg2: tensor<256x1xf32>, %arg3: tensor<256x1xf32>) -> tensor<256x1024xf32> {
  %expanded = tensor.expand_shape %arg1 [[0, 1], [2]] output_shape [1, 256, 1024] : tensor<256x1024xf16> into tensor<1x256x1024xf16>
  %0 = tensor.empty() : tensor<1x256x1024xf32>
  %1 = tensor.empty() : tensor<256x1024xf32>
  %2 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded, %arg0 : tensor<1x256x1024xf16>, tensor<1x256x1024xf32>) outs(%0 : tensor<1x256x1024xf32>) {
  ^bb0(%in: f16, %in_0: f32, %out: f32):
    %4 = arith.extf %in : f16 to f32
    %5 = arith.addf %in_0, %4 : f32
    linalg.yield %5 : f32
  } -> tensor<1x256x1024xf32>
  %collapsed = tensor.collapse_shape %2 [[0, 1], [2]] : tensor<1x256x1024xf32> into tensor<256x1024xf32>
  %3 = linalg.generic {indexing_maps = [#map1, #map1, #map2, #map2], iterator_types = ["parallel", "parallel"]} ins(%arg3, %arg2, %collapsed : tensor<256x1xf32>, tensor<256x1xf32>, tensor<256x1024xf32>) outs(%1 : tensor<256x1024xf32>) {
  ^bb0(%in: f32, %in_0: f32, %in_1: f32, %out: f32):
    %4 = arith.subf %in_1, %in_0 : f32
    %5 = arith.mulf %4, %in : f32
    linalg.yield %5 : f32
  } -> tensor<256x1024xf32>
  return %3 : tensor<256x1024xf32>
}
"""

ID2 = "affine_map<(d0, d1) -> (d0, d1)>"
ID3 = "affine_map<(d0, d1, d2) -> (d0, d1, d2)>"


def _exp_producer(shape: str, init: str = "%e", name: str = "%t") -> str:
    rank = shape.count("x")
    loops = ", ".join(['"parallel"'] * rank)
    identity = (ID2, ID3)[rank - 2]
    return f"""
  {name} = linalg.generic {{indexing_maps = [{identity}, {identity}], iterator_types = [{loops}]}}
      ins(%a : tensor<{shape}>) outs({init} : tensor<{shape}>) {{
  ^bb0(%x: f32, %o: f32):
    %r = math.exp %x : f32
    linalg.yield %r : f32
  }} -> tensor<{shape}>"""


# A 2x3x4 producer collapsed to 6x4 and read by a consumer with %b (6x4).
COLLAPSE_ADD = f"""
func.func @f(%a: tensor<2x3x4xf32>, %b: tensor<6x4xf32>) -> tensor<6x4xf32> {{
  %e = tensor.empty() : tensor<2x3x4xf32>{_exp_producer("2x3x4xf32")}
  %c = tensor.collapse_shape %t [[0, 1], [2]] : tensor<2x3x4xf32> into tensor<6x4xf32>
  %e2 = tensor.empty() : tensor<6x4xf32>
  %u = linalg.generic {{indexing_maps = [{ID2}, {ID2}, {ID2}], iterator_types = ["parallel", "parallel"]}}
      ins(%c, %b : tensor<6x4xf32>, tensor<6x4xf32>) outs(%e2 : tensor<6x4xf32>) {{
  ^bb0(%x: f32, %y: f32, %o: f32):
    %r = arith.addf %x, %y : f32
    linalg.yield %r : f32
  }} -> tensor<6x4xf32>
  return %u : tensor<6x4xf32>
}}
"""

SPLIT_REDUCTION_WITH_INDEX = f"""
func.func @f(%a: tensor<2x3x4xf32>, %acc: tensor<2xf32>) -> tensor<2xf32> {{
  %e = tensor.empty() : tensor<2x3x4xf32>{_exp_producer("2x3x4xf32")}
  %c = tensor.collapse_shape %t [[0], [1, 2]] : tensor<2x3x4xf32> into tensor<2x12xf32>
  %u = linalg.generic {{indexing_maps = [{ID2}, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}}
      ins(%c : tensor<2x12xf32>) outs(%acc : tensor<2xf32>) {{
  ^bb0(%p: f32, %o: f32):
    %i = linalg.index 1 : index
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    %m = arith.mulf %p, %f : f32
    %r = arith.addf %m, %o : f32
    linalg.yield %r : f32
  }} -> tensor<2xf32>
  return %u : tensor<2xf32>
}}
"""

# Loop d0 of the consumer splits into ?x1: sizes come from the producer's init.
DYNAMIC = f"""
func.func @f(%a: tensor<?x1x?xf32>, %b: tensor<?x?xf32>) -> tensor<?x?xf32> {{
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %n = tensor.dim %a, %c0 : tensor<?x1x?xf32>
  %m = tensor.dim %a, %c2 : tensor<?x1x?xf32>
  %e = tensor.empty(%n, %m) : tensor<?x1x?xf32>{_exp_producer("?x1x?xf32")}
  %c = tensor.collapse_shape %t [[0, 1], [2]] : tensor<?x1x?xf32> into tensor<?x?xf32>
  %u = linalg.generic {{indexing_maps = [{ID2}, {ID2}, {ID2}], iterator_types = ["parallel", "parallel"]}}
      ins(%c, %b : tensor<?x?xf32>, tensor<?x?xf32>) outs(%b : tensor<?x?xf32>) {{
  ^bb0(%p: f32, %q: f32, %o: f32):
    %r = arith.addf %p, %q : f32
    %s = arith.addf %r, %o : f32
    linalg.yield %s : f32
  }} -> tensor<?x?xf32>
  return %u : tensor<?x?xf32>
}}
"""


def _expand_of_generic(returned: bool) -> str:
    results = "tensor<2x3x4xf32>, tensor<6x4xf32>" if returned else "tensor<2x3x4xf32>"
    values = "%u, %t" if returned else "%u"
    return f"""
func.func @f(%a: tensor<6x4xf32>, %b: tensor<2x3x4xf32>) -> ({results}) {{
  %e = tensor.empty() : tensor<6x4xf32>
  %t = linalg.generic {{indexing_maps = [{ID2}, {ID2}], iterator_types = ["parallel", "parallel"]}}
      ins(%a : tensor<6x4xf32>) outs(%e : tensor<6x4xf32>) {{
  ^bb0(%x: f32, %o: f32):
    %i = linalg.index 0 : index
    %c = arith.index_cast %i : index to i32
    %f = arith.sitofp %c : i32 to f32
    %r = arith.addf %x, %f : f32
    linalg.yield %r : f32
  }} -> tensor<6x4xf32>
  %x = tensor.expand_shape %t [[0, 1], [2]] output_shape [2, 3, 4] : tensor<6x4xf32> into tensor<2x3x4xf32>
  %e3 = tensor.empty() : tensor<2x3x4xf32>
  %u = linalg.generic {{indexing_maps = [{ID3}, {ID3}, {ID3}], iterator_types = ["parallel", "parallel", "parallel"]}}
      ins(%x, %b : tensor<2x3x4xf32>, tensor<2x3x4xf32>) outs(%e3 : tensor<2x3x4xf32>) {{
  ^bb0(%p: f32, %q: f32, %o: f32):
    %r = arith.mulf %p, %q : f32
    linalg.yield %r : f32
  }} -> tensor<2x3x4xf32>
  return {values} : {results}
}}
"""


# --- helpers -----------------------------------------------------------------


def generics(module: ModuleOp) -> list[GenericOp]:
    return [op for op in module.walk() if isinstance(op, GenericOp)]


def ops_named(module: ModuleOp, name: str) -> list[Operation]:
    return [op for op in module.walk() if op.name == name]


def generic_named(module: ModuleOp, hint: str) -> GenericOp:
    (op,) = [g for g in generics(module) if g.results[0].name_hint == hint]
    return op


def consumer_of_collapse(module: ModuleOp) -> tuple[GenericOp, int]:
    for op in generics(module):
        for index, value in enumerate(op.inputs):
            if isinstance(value.owner, tensor.CollapseShapeOp):
                return op, index
    raise AssertionError("no generic reads a tensor.collapse_shape")


def only_expand(module: ModuleOp) -> tensor.ExpandShapeOp:
    (op,) = [
        o
        for o in module.walk()
        if isinstance(o, tensor.ExpandShapeOp)
        and isinstance(o.src, OpResult)
        and isinstance(o.src.op, GenericOp)
    ]
    return op


def function_names(module: ModuleOp) -> list[str]:
    return [op.sym_name.data for op in module.walk() if isinstance(op, func.FuncOp)]


def assert_same_values(before: ModuleOp, after: ModuleOp, seed: int = 0) -> None:
    rng = np.random.default_rng(seed)
    for name in function_names(before):
        inputs = random_inputs(find_function(before, name), rng)
        expected = run_function(before, name, inputs).results
        actual = run_function(after, name, inputs).results
        difference = compare_values(expected, actual, "result")
        assert difference is None, f"@{name}: {difference}"


def fuse_after(expanded: GenericOp, input_index: int) -> GenericOp:
    """Fuse the producer of `expanded`'s input into it (what the pass does
    next)."""
    return drop_redundant_inputs(fuse(check_fusion(expanded, input_index, False)))


# --- expand_consumer_of_collapse ---------------------------------------------


def test_seed_consumer_is_expanded_with_its_constant_maps():
    module = parse_module(SEED)
    before = module.clone()
    producer, consumer = generics(module)

    expanded = expand_consumer_of_collapse(consumer, 2)
    module.verify()

    assert expanded.parent is not None and consumer.parent is None
    assert [str(m.data) for m in expanded.indexing_maps] == [
        "(d0, d1, d2) -> (d0, d1, 0)",
        "(d0, d1, d2) -> (d0, d1, 0)",
        "(d0, d1, d2) -> (d0, d1, d2)",
        "(d0, d1, d2) -> (d0, d1, d2)",
    ]
    assert len(expanded.iterator_types) == 3
    # It reads the producer directly; the broadcast operands are viewed 1x256x1.
    assert expanded.inputs[2] is producer.results[0]
    for operand in expanded.inputs[:2]:
        assert str(operand.type) == "tensor<1x256x1xf32>"
        assert isinstance(operand.owner, tensor.ExpandShapeOp)
    # The result is collapsed back for the return; the old collapse is gone.
    (collapse,) = ops_named(module, "tensor.collapse_shape")
    assert isinstance(collapse, tensor.CollapseShapeOp)
    assert collapse.src is expanded.results[0]
    assert str(collapse.result.type) == "tensor<256x1024xf32>"
    assert_same_values(before, module)


def test_seed_fuses_into_one_generic_after_expansion():
    module = parse_module(SEED)
    before = module.clone()
    consumer = generics(module)[1]
    fused = fuse_after(expand_consumer_of_collapse(consumer, 2), 2)
    module.verify()
    assert generics(module) == [fused]
    assert len(fused.iterator_types) == 3
    assert_same_values(before, module)


def test_expansion_keeps_values_and_reads_the_source():
    module = parse_module(COLLAPSE_ADD)
    before = module.clone()
    consumer, index = consumer_of_collapse(module)
    expanded = expand_consumer_of_collapse(consumer, index)
    module.verify()
    text = print_module(module)
    assert "output_shape [2, 3, 4] : tensor<6x4xf32> into tensor<2x3x4xf32>" in text
    # The 6x4 init was a tensor.empty: made again as 2x3x4, not reshaped.
    assert isinstance(expanded.outputs[0].owner, tensor.EmptyOp)
    assert str(expanded.outputs[0].type) == "tensor<2x3x4xf32>"
    assert_same_values(before, module)
    fuse_after(expanded, index)
    assert len(generics(module)) == 1
    assert_same_values(before, module)


def test_split_reduction_loop_linearizes_linalg_index():
    module = parse_module(SPLIT_REDUCTION_WITH_INDEX)
    before = module.clone()
    consumer, index = consumer_of_collapse(module)
    expanded = expand_consumer_of_collapse(consumer, index)
    module.verify()
    assert [t.data.value for t in expanded.iterator_types] == [
        "parallel",
        "reduction",
        "reduction",
    ]
    block_ops = list(expanded.body.block.ops)
    assert sorted(o.dim.value.data for o in block_ops if isinstance(o, IndexOp)) == [
        1,
        2,
    ]
    (apply,) = [o for o in block_ops if isinstance(o, affine.ApplyOp)]
    assert str(apply.map.data) == "(d0, d1) -> (((d0 * 4) + d1))"
    assert_same_values(before, module)


def test_unsplit_loops_are_renumbered_in_linalg_index():
    # Loop d1 of the consumer becomes loop d2 when d0 splits in two.
    text = f"""
func.func @f(%a: tensor<2x3x4xf32>) -> tensor<6x4xf32> {{
  %e = tensor.empty() : tensor<2x3x4xf32>{_exp_producer("2x3x4xf32")}
  %c = tensor.collapse_shape %t [[0, 1], [2]] : tensor<2x3x4xf32> into tensor<6x4xf32>
  %e2 = tensor.empty() : tensor<6x4xf32>
  %u = linalg.generic {{indexing_maps = [{ID2}, {ID2}], iterator_types = ["parallel", "parallel"]}}
      ins(%c : tensor<6x4xf32>) outs(%e2 : tensor<6x4xf32>) {{
  ^bb0(%x: f32, %o: f32):
    %j = linalg.index 1 : index
    %jj = arith.index_cast %j : index to i32
    %f = arith.sitofp %jj : i32 to f32
    %r = arith.addf %x, %f : f32
    linalg.yield %r : f32
  }} -> tensor<6x4xf32>
  return %u : tensor<6x4xf32>
}}
"""
    module = parse_module(text)
    before = module.clone()
    consumer, index = consumer_of_collapse(module)
    expanded = expand_consumer_of_collapse(consumer, index)
    module.verify()
    dims = [o.dim.value.data for o in expanded.body.block.ops if isinstance(o, IndexOp)]
    assert dims == [2]
    assert_same_values(before, module)


def test_dynamic_sizes_come_from_the_producers_init():
    module = parse_module(DYNAMIC)
    before = module.clone()
    consumer, index = consumer_of_collapse(module)
    expanded = expand_consumer_of_collapse(consumer, index)
    module.verify()
    expand = expanded.inputs[1].owner
    assert isinstance(expand, tensor.ExpandShapeOp)
    assert expand.dynamic_output_shape[0].name_hint == "n"
    assert expanded.outputs[0] is expanded.inputs[1]  # %b, reshaped once
    assert_same_values(before, module)


INDEX_OF_DYNAMIC_SPLIT = f"""
func.func @f(%a: tensor<?x?xf32>) -> tensor<?xf32> {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tensor.dim %a, %c0 : tensor<?x?xf32>
  %m = tensor.dim %a, %c1 : tensor<?x?xf32>
  %e = tensor.empty(%n, %m) : tensor<?x?xf32>{_exp_producer("?x?xf32")}
  %c = tensor.collapse_shape %t [[0, 1]] : tensor<?x?xf32> into tensor<?xf32>
  %nm = arith.muli %n, %m : index
  %e1 = tensor.empty(%nm) : tensor<?xf32>
  %u = linalg.generic {{indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}}
      ins(%c : tensor<?xf32>) outs(%e1 : tensor<?xf32>) {{
  ^bb0(%x: f32, %o: f32):
    %i = linalg.index 0 : index
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    %r = arith.mulf %x, %f : f32
    linalg.yield %r : f32
  }} -> tensor<?xf32>
  return %u : tensor<?xf32>
}}
"""


def test_linalg_index_of_a_dynamic_split_uses_arith():
    # `i = i0 * m + i1` with `m` dynamic is not affine: arith ops compute it,
    # with `%m`, the size the producer's init was made with.
    module = parse_module(INDEX_OF_DYNAMIC_SPLIT)
    before = module.clone()
    consumer, index = consumer_of_collapse(module)
    expanded = expand_consumer_of_collapse(consumer, index)
    module.verify()
    body = list(expanded.body.block.ops)
    (scale,) = [o for o in body if isinstance(o, arith.MuliOp)]
    assert scale.rhs.name_hint == "m"
    assert [o for o in body if isinstance(o, arith.AddiOp)]
    assert_same_values(before, module)
    fuse_after(expanded, index)
    assert len(generics(module)) == 1
    assert_same_values(before, module)


# --- expand_producer_of_expand -----------------------------------------------


def test_producer_of_expand_is_expanded_and_the_expand_erased():
    module = parse_module(_expand_of_generic(returned=False))
    before = module.clone()
    expand = only_expand(module)
    consumer = generic_named(module, "u")
    expanded = expand_producer_of_expand(expand)
    module.verify()
    assert expand.parent is None
    assert consumer.inputs[0] is expanded.results[0]
    assert len(expanded.iterator_types) == 3
    assert not ops_named(module, "tensor.collapse_shape")  # no other users
    assert ops_named(module, "affine.apply")  # linalg.index 0 linearized
    assert_same_values(before, module)
    fuse_after(consumer, 0)
    assert len(generics(module)) == 1
    assert_same_values(before, module)


def test_producer_with_other_users_gives_them_the_old_shape():
    module = parse_module(_expand_of_generic(returned=True))
    before = module.clone()
    expanded = expand_producer_of_expand(only_expand(module))
    module.verify()
    (collapse,) = ops_named(module, "tensor.collapse_shape")
    assert isinstance(collapse, tensor.CollapseShapeOp)
    assert collapse.src is expanded.results[0]
    # Placed right before its user, after the consumer: fusion stays possible.
    assert isinstance(collapse.next_op, func.ReturnOp)
    assert_same_values(before, module)
    fuse_after(generic_named(module, "u"), 0)
    assert len(generics(module)) == 1
    assert_same_values(before, module)


# --- bypass_reshape_pair -----------------------------------------------------


def test_expand_of_collapse_is_bypassed():
    text = f"""
func.func @f(%a: tensor<2x3x4xf32>) -> tensor<2x3x4xf32> {{
  %c = tensor.collapse_shape %a [[0, 1], [2]] : tensor<2x3x4xf32> into tensor<6x4xf32>
  %x = tensor.expand_shape %c [[0, 1], [2]] output_shape [2, 3, 4] : tensor<6x4xf32> into tensor<2x3x4xf32>
  %e = tensor.empty() : tensor<2x3x4xf32>
  %u = linalg.generic {{indexing_maps = [{ID3}, {ID3}], iterator_types = ["parallel", "parallel", "parallel"]}}
      ins(%x : tensor<2x3x4xf32>) outs(%e : tensor<2x3x4xf32>) {{
  ^bb0(%p: f32, %o: f32):
    %r = arith.negf %p : f32
    linalg.yield %r : f32
  }} -> tensor<2x3x4xf32>
  return %u : tensor<2x3x4xf32>
}}
"""
    module = parse_module(text)
    (consumer,) = generics(module)
    assert bypass_reshape_pair(consumer, 0)
    module.verify()
    assert consumer.inputs[0] is find_function(module, "f").body.block.args[0]
    assert not ops_named(module, "tensor.collapse_shape")
    assert not ops_named(module, "tensor.expand_shape")
    assert not bypass_reshape_pair(consumer, 0)


def test_expand_of_collapse_with_two_dynamic_sizes_in_a_group_is_kept():
    # 2x6 collapsed to 12 may come back as 3x4: not the same tensor.
    text = f"""
func.func @f(%a: tensor<?x?xf32>, %n: index, %m: index) -> tensor<?x?xf32> {{
  %c = tensor.collapse_shape %a [[0, 1]] : tensor<?x?xf32> into tensor<?xf32>
  %x = tensor.expand_shape %c [[0, 1]] output_shape [%n, %m] : tensor<?xf32> into tensor<?x?xf32>
  %u = linalg.generic {{indexing_maps = [{ID2}, {ID2}], iterator_types = ["parallel", "parallel"]}}
      ins(%x : tensor<?x?xf32>) outs(%x : tensor<?x?xf32>) {{
  ^bb0(%p: f32, %o: f32):
    %r = arith.negf %p : f32
    linalg.yield %r : f32
  }} -> tensor<?x?xf32>
  return %u : tensor<?x?xf32>
}}
"""
    module = parse_module(text)
    (consumer,) = generics(module)
    assert not bypass_reshape_pair(consumer, 0)


# --- refusals ----------------------------------------------------------------

# Each: (program, reason expected). The consumer of the collapse is expanded.
COLLAPSE_REFUSALS = {
    "source is an argument": (
        f"""
func.func @f(%a: tensor<2x3x4xf32>) -> tensor<6x4xf32> {{
  %c = tensor.collapse_shape %a [[0, 1], [2]] : tensor<2x3x4xf32> into tensor<6x4xf32>
  %e = tensor.empty() : tensor<6x4xf32>
  %u = linalg.generic {{indexing_maps = [{ID2}, {ID2}], iterator_types = ["parallel", "parallel"]}}
      ins(%c : tensor<6x4xf32>) outs(%e : tensor<6x4xf32>) {{
  ^bb0(%x: f32, %o: f32):
    %r = math.exp %x : f32
    linalg.yield %r : f32
  }} -> tensor<6x4xf32>
  return %u : tensor<6x4xf32>
}}
""",
        "the tensor.collapse_shape's source is not the result of a linalg.generic: "
        "expanding would fuse nothing",
    ),
    "constant in the collapsed operand's map": (
        f"""
func.func @f(%a: tensor<6x2x4xf32>, %b: tensor<6x5xf32>) -> tensor<6x5xf32> {{
  %e = tensor.empty() : tensor<6x2x4xf32>{_exp_producer("6x2x4xf32")}
  %c = tensor.collapse_shape %t [[0], [1, 2]] : tensor<6x2x4xf32> into tensor<6x8xf32>
  %e2 = tensor.empty() : tensor<6x5xf32>
  %u = linalg.generic {{indexing_maps = [affine_map<(d0, d1) -> (d0, 0)>, {ID2}, {ID2}], iterator_types = ["parallel", "parallel"]}}
      ins(%c, %b : tensor<6x8xf32>, tensor<6x5xf32>) outs(%e2 : tensor<6x5xf32>) {{
  ^bb0(%x: f32, %y: f32, %o: f32):
    %r = arith.addf %x, %y : f32
    linalg.yield %r : f32
  }} -> tensor<6x5xf32>
  return %u : tensor<6x5xf32>
}}
""",
        "the map of input #0, the collapsed tensor, is not a projected permutation "
        "((d0, d1) -> (d0, 0))",
    ),
    "another map is no projected permutation": (
        COLLAPSE_ADD.replace(
            f"indexing_maps = [{ID2}, {ID2}, {ID2}]",
            f"indexing_maps = [{ID2}, affine_map<(d0, d1) -> (d0, d0)>, {ID2}]",
        )
        .replace("%b: tensor<6x4xf32>", "%b: tensor<6x6xf32>")
        # the consumer's %b operand type
        .replace(
            "ins(%c, %b : tensor<6x4xf32>, tensor<6x4xf32>)",
            "ins(%c, %b : tensor<6x4xf32>, tensor<6x6xf32>)",
        ),
        "the map of input #1 is not a projected permutation with constants "
        "((d0, d1) -> (d0, d0))",
    ),
    "producer reduces": (
        f"""
func.func @f(%a: tensor<2x3x4x5xf32>, %acc: tensor<2x3x4xf32>) -> tensor<6x4xf32> {{
  %t = linalg.generic {{indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}}
      ins(%a : tensor<2x3x4x5xf32>) outs(%acc : tensor<2x3x4xf32>) {{
  ^bb0(%x: f32, %o: f32):
    %r = arith.addf %x, %o : f32
    linalg.yield %r : f32
  }} -> tensor<2x3x4xf32>
  %c = tensor.collapse_shape %t [[0, 1], [2]] : tensor<2x3x4xf32> into tensor<6x4xf32>
  %e = tensor.empty() : tensor<6x4xf32>
  %u = linalg.generic {{indexing_maps = [{ID2}, {ID2}], iterator_types = ["parallel", "parallel"]}}
      ins(%c : tensor<6x4xf32>) outs(%e : tensor<6x4xf32>) {{
  ^bb0(%x: f32, %o: f32):
    %r = arith.negf %x : f32
    linalg.yield %r : f32
  }} -> tensor<6x4xf32>
  return %u : tensor<6x4xf32>
}}
""",
        "the producer has reduction iterators",
    ),
    "collapse also returned": (
        COLLAPSE_ADD.replace(
            "-> tensor<6x4xf32> {\n", "-> (tensor<6x4xf32>, tensor<6x4xf32>) {\n", 1
        ).replace(
            "return %u : tensor<6x4xf32>",
            "return %u, %c : tensor<6x4xf32>, tensor<6x4xf32>",
        ),
        "the tensor.collapse_shape has users other than the consumer's inputs",
    ),
    "producer used before the consumer": (
        COLLAPSE_ADD.replace(
            "  %e2 = tensor.empty()",
            "  %early = tensor.extract_slice %t[0, 0, 0] [1, 3, 4] [1, 1, 1] : "
            "tensor<2x3x4xf32> to tensor<3x4xf32>\n  %e2 = tensor.empty()",
        ),
        "the producer has another user before the consumer",
    ),
    "dynamic operand split into static sizes": (
        COLLAPSE_ADD.replace("%b: tensor<6x4xf32>", "%b: tensor<?x4xf32>").replace(
            "ins(%c, %b : tensor<6x4xf32>, tensor<6x4xf32>)",
            "ins(%c, %b : tensor<6x4xf32>, tensor<?x4xf32>)",
        ),
        "dimension 0 of input #1 is dynamic but would split into static sizes 2x3",
    ),
    "static operand split into dynamic sizes": (
        f"""
func.func @f(%a: tensor<?x3x4xf32>, %b: tensor<6x4xf32>) -> tensor<6x4xf32> {{
  %c0 = arith.constant 0 : index
  %n = tensor.dim %a, %c0 : tensor<?x3x4xf32>
  %e = tensor.empty(%n) : tensor<?x3x4xf32>{_exp_producer("?x3x4xf32")}
  %c = tensor.collapse_shape %t [[0, 1], [2]] : tensor<?x3x4xf32> into tensor<?x4xf32>
  %e2 = tensor.empty() : tensor<6x4xf32>
  %u = linalg.generic {{indexing_maps = [{ID2}, {ID2}, {ID2}], iterator_types = ["parallel", "parallel"]}}
      ins(%c, %b : tensor<?x4xf32>, tensor<6x4xf32>) outs(%e2 : tensor<6x4xf32>) {{
  ^bb0(%x: f32, %y: f32, %o: f32):
    %r = arith.addf %x, %y : f32
    linalg.yield %r : f32
  }} -> tensor<6x4xf32>
  return %u : tensor<6x4xf32>
}}
""",
        "dimension 0 of input #1 has size 6, which cannot split into ?x3",
    ),
}


@pytest.mark.parametrize("case", sorted(COLLAPSE_REFUSALS))
def test_collapse_refusals_say_why_and_change_nothing(case: str):
    text, reason = COLLAPSE_REFUSALS[case]
    module = parse_module(text)
    before = print_module(module)
    consumer, index = consumer_of_collapse(module)
    with pytest.raises(NotFused) as refusal:
        expand_consumer_of_collapse(consumer, index)
    assert str(refusal.value) == reason
    assert print_module(module) == before


def test_input_that_is_no_collapse_is_refused():
    module = parse_module(COLLAPSE_ADD)
    consumer, _ = consumer_of_collapse(module)
    with pytest.raises(NotFused, match="not the result of a tensor.collapse_shape"):
        expand_consumer_of_collapse(consumer, 1)


EXPAND_REFUSALS = {
    "source is an argument": (
        """
func.func @f(%a: tensor<6x4xf32>) -> tensor<2x3x4xf32> {
  %x = tensor.expand_shape %a [[0, 1], [2]] output_shape [2, 3, 4] : tensor<6x4xf32> into tensor<2x3x4xf32>
  return %x : tensor<2x3x4xf32>
}
""",
        "the tensor.expand_shape's source is not the result of a linalg.generic",
    ),
    "size computed after the producer": (
        f"""
func.func @f(%a: tensor<?x4xf32>) -> tensor<?x3x4xf32> {{
  %c0 = arith.constant 0 : index
  %n = tensor.dim %a, %c0 : tensor<?x4xf32>
  %e = tensor.empty(%n) : tensor<?x4xf32>
  %t = linalg.generic {{indexing_maps = [{ID2}, {ID2}], iterator_types = ["parallel", "parallel"]}}
      ins(%a : tensor<?x4xf32>) outs(%e : tensor<?x4xf32>) {{
  ^bb0(%x: f32, %o: f32):
    %r = math.exp %x : f32
    linalg.yield %r : f32
  }} -> tensor<?x4xf32>
  %c3 = arith.constant 3 : index
  %k = arith.divui %n, %c3 : index
  %x = tensor.expand_shape %t [[0, 1], [2]] output_shape [%k, 3, 4] : tensor<?x4xf32> into tensor<?x3x4xf32>
  return %x : tensor<?x3x4xf32>
}}
""",
        "a dynamic size of the tensor.expand_shape is computed after the producer",
    ),
    "producer reduces": (
        f"""
func.func @f(%a: tensor<6x5xf32>, %acc: tensor<6xf32>) -> tensor<2x3xf32> {{
  %t = linalg.generic {{indexing_maps = [{ID2}, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}}
      ins(%a : tensor<6x5xf32>) outs(%acc : tensor<6xf32>) {{
  ^bb0(%x: f32, %o: f32):
    %r = arith.addf %x, %o : f32
    linalg.yield %r : f32
  }} -> tensor<6xf32>
  %x = tensor.expand_shape %t [[0, 1]] output_shape [2, 3] : tensor<6xf32> into tensor<2x3xf32>
  return %x : tensor<2x3xf32>
}}
""",
        "the producer has reduction iterators",
    ),
}


@pytest.mark.parametrize("case", sorted(EXPAND_REFUSALS))
def test_expand_refusals_say_why_and_change_nothing(case: str):
    text, reason = EXPAND_REFUSALS[case]
    module = parse_module(text)
    before = print_module(module)
    (expand,) = ops_named(module, "tensor.expand_shape")
    assert isinstance(expand, tensor.ExpandShapeOp)
    with pytest.raises(NotFused) as refusal:
        expand_producer_of_expand(expand)
    assert str(refusal.value) == reason
    assert print_module(module) == before


# --- the pass -------------------------------------------------------------------


def run_pass(text: str, pipeline: str = PASS) -> ModuleOp:
    from linalg_ext.context import make_context
    from linalg_ext.tools.check import parse_pipeline

    module = parse_module(text)
    parse_pipeline(pipeline).apply(make_context(), module)
    module.verify()
    return module


def upstream_generic_count(text: str) -> int:
    output = subprocess.run(
        ["mlir-opt-22", "--linalg-fuse-elementwise-ops"],
        input=print_module(parse_module(text)),
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return len(re.findall(r"\blinalg\.generic\b", output))


def mlir_opt_accepts(module: ModuleOp) -> None:
    subprocess.run(
        ["mlir-opt-22"],
        input=print_module(module),
        capture_output=True,
        text=True,
        check=True,
    )


def _upstream_seed() -> str:
    """The seed with (d0, d1) instead of (d0, 0): upstream expands it too."""
    return SEED.replace("(d0, 0)", "(d0, d1)").replace("256x1xf32", "256x1024xf32")


UPSTREAM_CASES = {
    "seed without constants": _upstream_seed(),
    "collapse then add": COLLAPSE_ADD,
    "split reduction with index": SPLIT_REDUCTION_WITH_INDEX,
    "expand of generic": _expand_of_generic(returned=False),
}


@pytest.mark.skipif(not HAS_MLIR_OPT, reason="mlir-opt-22 is not installed")
@pytest.mark.parametrize("case", sorted(UPSTREAM_CASES))
def test_pass_fuses_like_upstream(case: str):
    text = UPSTREAM_CASES[case]
    # Upstream has no cost rule: it fuses math.exp into a reduction too.
    module = run_pass(text, f"{PASS}{{math-into-reduction=true}}")
    assert len(generics(module)) == upstream_generic_count(text)
    assert_same_values(parse_module(text), module)
    mlir_opt_accepts(module)


@pytest.mark.skipif(not HAS_MLIR_OPT, reason="mlir-opt-22 is not installed")
def test_pass_fuses_the_seed_that_upstream_leaves():
    assert upstream_generic_count(SEED) == 2
    module = run_pass(SEED)
    (fused,) = generics(module)
    assert len(fused.iterator_types) == 3
    (collapse,) = ops_named(module, "tensor.collapse_shape")
    assert isinstance(collapse, tensor.CollapseShapeOp)
    assert collapse.src is fused.results[0]
    assert_same_values(parse_module(SEED), module)
    mlir_opt_accepts(module)


@pytest.mark.skipif(not HAS_MLIR_OPT, reason="mlir-opt-22 is not installed")
def test_pass_fuses_a_returned_producer_that_upstream_leaves():
    # Upstream expands nothing here (the producer has two uses); ours keeps
    # the producer's result as a second result of the fused op.
    text = _expand_of_generic(returned=True)
    assert upstream_generic_count(text) == 2
    module = run_pass(text)
    (fused,) = generics(module)
    assert len(fused.results) == 2
    assert_same_values(parse_module(text), module)
    mlir_opt_accepts(module)


def test_pass_on_dynamic_sizes():
    module = run_pass(DYNAMIC)
    assert len(generics(module)) == 1
    assert_same_values(parse_module(DYNAMIC), module)


def test_pass_on_a_collapse_read_twice():
    # Both reads of %c become reads of %t: its two dynamic sizes are the
    # ones the split uses, so the second collapse is read through as well.
    text = (
        INDEX_OF_DYNAMIC_SPLIT.replace(
            "ins(%c : tensor<?xf32>) outs(%e1 : tensor<?xf32>) {\n  ^bb0(%x: f32, %o: f32):",
            "ins(%c, %c : tensor<?xf32>, tensor<?xf32>) outs(%e1 : tensor<?xf32>) "
            "{\n  ^bb0(%x: f32, %y: f32, %o: f32):",
        )
        .replace(
            "indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>]",
            "indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, "
            "affine_map<(d0) -> (d0)>]",
        )
        .replace(
            "%r = arith.mulf %x, %f",
            "%s = arith.mulf %x, %y : f32\n    %r = arith.mulf %s, %f",
        )
    )
    assert "ins(%c, %c" in text
    module = run_pass(text)
    assert len(generics(module)) == 1
    assert_same_values(parse_module(text), module)


def test_filecheck_inputs_keep_their_meaning():
    module = parse_module(FILECHECK_INPUT.read_text())
    report = check_module(module, PASS)
    assert report.ok, "\n".join(v.line() for v in report.verdicts)
    assert len(report.verdicts) == len(function_names(module))
