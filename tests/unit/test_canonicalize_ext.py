"""`canonicalize-ext` against upstream MLIR's `--canonicalize` and xDSL's.

With `mlir-opt-22`: on upstream-kind linalg / tensor / scf inputs (written
here), our output and `mlir-opt-22 --canonicalize`'s compute the same
values (both run on our interpreter, on the same random inputs, and as the
input does) and ours has no more ops. Without it those tests are skipped.
Also: installing the package leaves xDSL's `canonicalize` as it was (our
patterns are not registered on xDSL's ops).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp
from xdsl.transforms.canonicalize import CanonicalizePass

from helpers import (
    MLIR_OPT,
    REPO,
    after_mlir_opt,
    after_pass,
    function_names,
    meaning_difference,
    parse_module,
    print_module,
)
from linalg_ext.context import make_context
from linalg_ext.passes.canonicalize_ext import CanonicalizeExtPass

LIT_DIR = REPO / "tests" / "filecheck" / "passes" / "canonicalize-ext"

PROGRAMS: dict[str, str] = {
    "tiled_loop": """
func.func @f(%x: tensor<8xf32>, %out: tensor<8xf32>) -> tensor<8xf32> {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %r = scf.for %iv = %c0 to %c8 step %c4 iter_args(%acc = %out) -> (tensor<8xf32>) {
    %xs = tensor.extract_slice %x[%iv] [%c4] [1] : tensor<8xf32> to tensor<?xf32>
    %os = tensor.extract_slice %acc[%iv] [%c4] [1] : tensor<8xf32> to tensor<?xf32>
    %e = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%xs : tensor<?xf32>) outs(%os : tensor<?xf32>) {
    ^bb0(%a: f32, %b: f32):
      %n = arith.negf %a : f32
      linalg.yield %n : f32
    } -> tensor<?xf32>
    %w = tensor.insert_slice %e into %acc[%iv] [%c4] [1] : tensor<?xf32> into tensor<8xf32>
    scf.yield %w : tensor<8xf32>
  }
  return %r : tensor<8xf32>
}
""",
    "matmul_casts": """
func.func @f(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %ta = tensor.cast %a : tensor<2x3xf32> to tensor<?x?xf32>
  %tb = tensor.cast %b : tensor<3x4xf32> to tensor<?x?xf32>
  %m = tensor.dim %ta, %c0 : tensor<?x?xf32>
  %n = tensor.dim %tb, %c1 : tensor<?x?xf32>
  %e = tensor.empty(%m, %n) : tensor<?x?xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<?x?xf32>) -> tensor<?x?xf32>
  %r = linalg.matmul ins(%ta, %tb : tensor<?x?xf32>, tensor<?x?xf32>) outs(%f : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}
""",
    "reduction_with_dead_result": """
func.func @f(%x: tensor<3x4xf32>) -> tensor<3xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<3xf32>) -> tensor<3xf32>
  %e2 = tensor.empty() : tensor<3x4xf32>
  %r:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<3x4xf32>) outs(%acc, %e2 : tensor<3xf32>, tensor<3x4xf32>) {
  ^bb0(%a: f32, %s: f32, %t: f32):
    %sum = arith.addf %a, %s : f32
    %sq = arith.mulf %a, %a : f32
    linalg.yield %sum, %sq : f32, f32
  } -> (tensor<3xf32>, tensor<3x4xf32>)
  return %r#0 : tensor<3xf32>
}
""",
}
"""Inputs written here; the lit inputs without `linalg_ext` ops (which
upstream does not know) are compared too."""

LIT_FILES = ["linalg_tensor.mlir", "scf_arith.mlir", "fold_generic.mlir"]


def _inputs() -> dict[str, str]:
    texts = dict(PROGRAMS)
    for name in LIT_FILES:
        texts[Path(name).stem] = (LIT_DIR / name).read_text()
    return texts


INPUTS = _inputs()


def ours(text: str) -> ModuleOp:
    return after_pass(CanonicalizeExtPass(), text)


def upstream(text: str) -> ModuleOp:
    return after_mlir_opt(text, "--canonicalize")


def function_ops(module: ModuleOp, name: str) -> int:
    """The ops of function @name, the function itself included."""
    for op in module.walk():
        if isinstance(op, func.FuncOp) and op.sym_name.data == name:
            return sum(1 for _ in op.walk())
    raise AssertionError(f"no function @{name}")


@pytest.mark.skipif(MLIR_OPT is None, reason="mlir-opt-22 is not installed")
@pytest.mark.parametrize("name", INPUTS)
def test_same_values_as_upstream_and_no_more_ops(name: str):
    text = INPUTS[name]
    before = parse_module(text)
    theirs = upstream(text)
    mine = ours(text)
    for function in function_names(before):
        assert meaning_difference(theirs, mine, function) is None, function
        assert meaning_difference(before, mine, function) is None, function
        assert function_ops(mine, function) <= function_ops(theirs, function), (
            function,
            print_module(mine),
            print_module(theirs),
        )


FOLD_GENERIC = (LIT_DIR / "fold_generic.mlir").read_text()


def test_fold_generic_goes_beyond_upstream():
    """Upstream's canonicalizer keeps a generic adding a zero fill: ours
    (ByteIR's FoldGenericOp) folds it."""
    mine = ours(FOLD_GENERIC)
    assert function_ops(mine, "add_zero_fill") == 2  # func + return
    if MLIR_OPT is not None:
        assert function_ops(upstream(FOLD_GENERIC), "add_zero_fill") > 2


REFOLD = """
func.func @f(%t: tensor<?x?xf32>, %a: index, %b: index) -> tensor<?x?xf32> {
  %c = tensor.collapse_shape %t [[0, 1]] : tensor<?x?xf32> into tensor<?xf32>
  %e = tensor.expand_shape %c [[0, 1]] output_shape [%a, %b]
      : tensor<?xf32> into tensor<?x?xf32>
  return %e : tensor<?x?xf32>
}
"""


def test_an_expand_may_split_a_collapse_differently():
    """`expand(collapse(t))` with two dynamic extents in a group is kept
    (its output_shape may split the dimension otherwise than `t`: 2x6 into
    3x4), as upstream keeps it; with one, it is `t`."""
    names = [op.name for op in ours(REFOLD).walk()]
    assert "tensor.expand_shape" in names
    one_dynamic = (
        REFOLD.replace("?x?xf32", "?x4xf32")
        .replace("[%a, %b]", "[%a, 4]")
        .replace(", %b: index", "")
    )
    names = [op.name for op in ours(one_dynamic).walk()]
    assert "tensor.expand_shape" not in names


def test_xdsl_canonicalize_is_unchanged():
    """Installing the package registers nothing on xDSL's ops: xDSL's
    `canonicalize` keeps what canonicalize-ext folds."""
    module = parse_module(FOLD_GENERIC)
    CanonicalizePass().apply(make_context(), module)
    names = [op.name for op in module.walk()]
    assert names.count("linalg.generic") == 7
    assert names.count("linalg.fill") >= 2
