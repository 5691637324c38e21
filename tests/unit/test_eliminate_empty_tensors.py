"""eliminate-empty-tensors: its helpers, that it leaves alone what it cannot
change, and how it compares with upstream's pass of the same name.

Against `mlir-opt-22 --eliminate-empty-tensors` (skipped without it), on every
input of tests/filecheck/passes/eliminate-empty-tensors and on fuse-pad's
inputs after fuse-pad: we leave no more `tensor.empty` ops in use than
upstream (nor in all: we also erase the ones we leave unused), upstream's
output computes what the input does (so the inputs do not read undefined
elements), and mlir-opt-22 accepts ours.
"""

from __future__ import annotations

import shutil
import subprocess

import pytest
from xdsl.dialects import func, tensor
from xdsl.dialects.builtin import ModuleOp

from helpers import (
    REPO,
    meaning_difference,
    parse_module,
    print_for_mlir_opt,
    print_module,
)
from linalg_ext.context import make_context
from linalg_ext.tools.check import parse_pipeline
from linalg_ext.transforms.dps import aliased_operand, buffer_origin
from linalg_ext.transforms.ordering import CannotMove, definitions_to_move

PASS_DIR = REPO / "tests" / "filecheck" / "passes" / "eliminate-empty-tensors"
INPUTS = sorted(PASS_DIR.glob("*.mlir"))
FUSE_PAD_INPUTS = sorted(
    (REPO / "tests" / "filecheck" / "passes" / "fuse-pad").glob("*.mlir")
)
FUSE_PAD_OPTIONS = [
    "fuse-pad",
    "fuse-pad{fill=border}",
    "fuse-pad{allow-recompute=true}",
]

needs_mlir_opt = pytest.mark.skipif(
    shutil.which("mlir-opt-22") is None, reason="mlir-opt-22 is not installed"
)


def apply(pipeline: str, module: ModuleOp) -> ModuleOp:
    parse_pipeline(pipeline).apply(make_context(), module)
    module.verify()
    return module


def empties(module: ModuleOp, *, used_only: bool = False) -> int:
    return sum(
        1
        for op in module.walk()
        if isinstance(op, tensor.EmptyOp) and (op.tensor.uses or not used_only)
    )


def function_names(module: ModuleOp) -> list[str]:
    return [
        op.sym_name.data
        for op in module.walk()
        if isinstance(op, func.FuncOp) and not op.is_declaration
    ]


def upstream(module: ModuleOp) -> ModuleOp:
    output = subprocess.run(
        [
            "mlir-opt-22",
            "--allow-unregistered-dialect",
            "--eliminate-empty-tensors",
            "--mlir-print-op-generic",
        ],
        input=print_for_mlir_opt(module),
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return parse_module(output)


# --------------------------------------------------------------------------
# Helpers
# --------------------------------------------------------------------------

CHAIN = """
func.func @f(%x: tensor<4xf32>, %d: tensor<8xf32>, %v: f32) -> tensor<8xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %f = linalg.fill ins(%v : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %g = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
      ins(%x : tensor<4xf32>) outs(%f : tensor<4xf32>) {
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  %c = tensor.cast %g : tensor<4xf32> to tensor<?xf32>
  %back = tensor.cast %c : tensor<?xf32> to tensor<4xf32>
  %r = tensor.insert_slice %back into %d[2] [4] [1] : tensor<4xf32> into tensor<8xf32>
  return %r : tensor<8xf32>
}
"""


def ops_by_name(module: ModuleOp) -> dict[str, list]:
    found: dict[str, list] = {}
    for op in module.walk():
        found.setdefault(op.name, []).append(op)
    return found


def test_aliased_operand_names_the_updated_operand():
    ops = ops_by_name(parse_module(CHAIN))
    (fill,) = ops["linalg.fill"]
    (generic,) = ops["linalg.generic"]
    first_cast, _ = ops["tensor.cast"]
    (insert,) = ops["tensor.insert_slice"]
    (empty,) = ops["tensor.empty"]
    assert fill.operands[aliased_operand(fill.results[0])] is empty.results[0]
    assert generic.operands[aliased_operand(generic.results[0])] is fill.results[0]
    assert aliased_operand(first_cast.results[0]) == 0
    assert insert.operands[aliased_operand(insert.results[0])] is insert.dest
    assert aliased_operand(empty.results[0]) is None


def test_buffer_origin_follows_inits_and_casts_back_to_the_empty():
    from xdsl.ir import Use

    ops = ops_by_name(parse_module(CHAIN))
    (insert,) = ops["tensor.insert_slice"]
    (fill,) = ops["linalg.fill"]
    origin = buffer_origin(Use(insert, 0))
    assert origin.operation is fill and origin.index == 1
    # An operand that is not on such a chain is its own origin.
    dest_use = buffer_origin(Use(insert, 1))
    assert dest_use.operation is insert and dest_use.index == 1


def test_definitions_that_need_the_user_cannot_move():
    module = parse_module(
        """
func.func @f(%x: tensor<4xf32>) -> index {
  %e = tensor.empty() : tensor<4xf32>
  %c = tensor.cast %e : tensor<4xf32> to tensor<?xf32>
  %c0 = arith.constant 0 : index
  %n = tensor.dim %c, %c0 : tensor<?xf32>
  return %n : index
}
"""
    )
    ops = ops_by_name(module)
    (cast,) = ops["tensor.cast"]
    (dim,) = ops["tensor.dim"]
    with pytest.raises(CannotMove, match="depend on the result of tensor.cast"):
        definitions_to_move([dim.results[0]], cast)
    # The constant alone moves.
    (constant,) = ops["arith.constant"]
    assert definitions_to_move([constant.results[0]], cast) == [constant]


# --------------------------------------------------------------------------
# The pass on its own inputs
# --------------------------------------------------------------------------


def test_nothing_changes_where_nothing_applies():
    text = (PASS_DIR / "nothing_applies.mlir").read_text()
    before = print_module(parse_module(text))
    after = print_module(apply("eliminate-empty-tensors", parse_module(text)))
    assert after == before


@pytest.mark.parametrize("path", INPUTS, ids=lambda p: p.stem)
def test_a_second_run_changes_nothing(path):
    once = apply("eliminate-empty-tensors", parse_module(path.read_text()))
    printed = print_module(once)
    assert print_module(apply("eliminate-empty-tensors", once)) == printed


# --------------------------------------------------------------------------
# Against upstream
# --------------------------------------------------------------------------


@needs_mlir_opt
@pytest.mark.parametrize("path", INPUTS, ids=lambda p: p.stem)
def test_no_more_empties_than_upstream_and_same_values(path):
    text = path.read_text()
    original = parse_module(text)
    theirs = upstream(parse_module(text))
    ours = apply("eliminate-empty-tensors", parse_module(text))
    assert empties(ours, used_only=True) <= empties(theirs, used_only=True)
    assert empties(ours) <= empties(theirs)
    for name in function_names(original):
        difference = meaning_difference(original, theirs, name, trials=2, seed=3)
        assert difference is None, f"upstream @{name}: {difference}"


@needs_mlir_opt
@pytest.mark.parametrize("path", INPUTS, ids=lambda p: p.stem)
def test_upstream_accepts_our_output(path):
    ours = apply("eliminate-empty-tensors", parse_module(path.read_text()))
    result = subprocess.run(
        ["mlir-opt-22", "--allow-unregistered-dialect"],
        input=print_for_mlir_opt(ours),
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr


@needs_mlir_opt
@pytest.mark.parametrize("options", FUSE_PAD_OPTIONS)
@pytest.mark.parametrize("path", FUSE_PAD_INPUTS, ids=lambda p: p.stem)
def test_after_fuse_pad_as_upstream(path, options):
    """fuse-pad's output already computes each producer into the interior of
    its padded tensor: upstream finds as little to eliminate as we do."""
    fused = apply(options, parse_module(path.read_text()))
    theirs = upstream(fused.clone())
    ours = apply("eliminate-empty-tensors", fused.clone())
    assert empties(ours, used_only=True) <= empties(theirs, used_only=True)
    assert empties(ours) <= empties(theirs)
