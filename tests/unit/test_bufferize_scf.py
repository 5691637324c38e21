"""The `scf` bufferization models in cases the FileCheck inputs leave out:
ops kept on tensors next to loops (allow-unknown-ops), the refusal leaving
the module as it was, and the models' bookkeeping between runs."""

from __future__ import annotations

import pytest
from xdsl.dialects import bufferization, memref, scf
from xdsl.utils.exceptions import PassFailedException

from helpers import parse_module, print_module
from linalg_ext.bufferization.models import scf as scf_models
from linalg_ext.context import make_context
from linalg_ext.tools.check import parse_pipeline

BUFFERIZE = "one-shot-bufferize{bufferize-function-boundaries=true}"
UNKNOWN = (
    "one-shot-bufferize{bufferize-function-boundaries=true allow-unknown-ops=true}"
)
RETURN_ALLOCS = (
    "one-shot-bufferize{bufferize-function-boundaries=true "
    "allow-return-allocs-from-loops=true}"
)


def run(text: str, pipeline: str):
    module = parse_module(text)
    parse_pipeline(pipeline).apply(make_context(allow_unregistered=True), module)
    module.verify()
    return module


def ops_named(module, name: str) -> list:
    return [op for op in module.walk() if op.name == name]


UNKNOWN_IN_LOOP = """
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%t = %x) -> (tensor<4xf32>) {
    %u = "test.op"(%t) : (tensor<4xf32>) -> tensor<4xf32>
    scf.yield %u : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}
"""


def test_unknown_op_in_loop_stays_on_tensors():
    # Its result is not known to be the iter_arg's buffer: as in MLIR, the
    # loop then needs allow-return-allocs-from-loops.
    with pytest.raises(PassFailedException, match="'scf.for'"):
        run(UNKNOWN_IN_LOOP, UNKNOWN)
    module = run(
        UNKNOWN_IN_LOOP,
        "one-shot-bufferize{bufferize-function-boundaries=true "
        "allow-unknown-ops=true allow-return-allocs-from-loops=true}",
    )
    (loop,) = ops_named(module, "scf.for")
    # The loop carries a memref; the unknown op sees it through to_tensor and
    # hands its result back through to_buffer.
    block = loop.body.block
    assert any(isinstance(op, bufferization.ToTensorOp) for op in block.ops)
    assert any(isinstance(op, bufferization.ToBufferOp) for op in block.ops)
    assert "memref<4xf32" in str(loop.results[0].type)


WHILE_LOOP = """
func.func @f(%x: tensor<4xf32>, %c: i1) -> tensor<4xf32> {
  %r = scf.while (%t = %x) : (tensor<4xf32>) -> tensor<4xf32> {
    scf.condition(%c) %t : tensor<4xf32>
  } do {
  ^bb0(%a: tensor<4xf32>):
    scf.yield %a : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}
"""


def test_yield_of_a_loop_without_model_is_left_alone():
    """scf.while has no model: with allow-unknown-ops it stays on tensors,
    and so does the scf.yield in it."""
    module = run(WHILE_LOOP, UNKNOWN)
    (loop,) = ops_named(module, "scf.while")
    (yield_op,) = [op for op in loop.walk() if isinstance(op, scf.YieldOp)]
    assert "tensor<4xf32>" in str(yield_op.operands[0].type)


def test_while_loop_is_refused_without_allow_unknown_ops():
    with pytest.raises(PassFailedException, match="'scf.while'"):
        run(WHILE_LOOP, BUFFERIZE)


FRESH_YIELD = """
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%acc = %x) -> (tensor<4xf32>) {
    %e = tensor.empty() : tensor<4xf32>
    %s = linalg.add ins(%acc, %acc : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
    scf.yield %s : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}
"""


def test_refusal_names_the_loop_and_keeps_the_module():
    module = parse_module(FRESH_YIELD)
    before = print_module(module)
    with pytest.raises(PassFailedException, match="'scf.for': yield operand #0"):
        parse_pipeline(BUFFERIZE).apply(make_context(), module)
    assert print_module(module) == before


def test_copy_before_write_needs_no_equivalent_yields():
    """As in MLIR, copy-before-write runs no analysis to verify: every write
    is to a new buffer, loops yield new buffers."""
    module = run(
        FRESH_YIELD,
        "one-shot-bufferize{bufferize-function-boundaries=true copy-before-write=true}",
    )
    assert ops_named(module, "scf.for")


SWAP = """
func.func @f(%a: tensor<4xf32>, %b: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %r:2 = scf.for %i = %c0 to %c3 step %c1 iter_args(%p = %a, %q = %b) -> (tensor<4xf32>, tensor<4xf32>) {
    scf.yield %q, %p : tensor<4xf32>, tensor<4xf32>
  }
  return %r#0, %r#1 : tensor<4xf32>, tensor<4xf32>
}
"""


def test_yields_of_other_iter_args_are_copied_and_bookkeeping_is_consumed():
    module = run(SWAP, RETURN_ALLOCS)
    (loop,) = ops_named(module, "scf.for")
    copies = [op for op in loop.body.block.ops if isinstance(op, memref.CopyOp)]
    assert len(copies) == 2
    assert not scf_models._FRESH_YIELDS  # pyright: ignore[reportPrivateUsage]
    assert not scf_models._PENDING  # pyright: ignore[reportPrivateUsage]


FORALL_WITHOUT_USES = """
func.func @f(%x: tensor<8xf32>) -> tensor<8xf32> {
  %r = scf.forall (%i) in (8) shared_outs(%o = %x) -> (tensor<8xf32>) {
  }
  return %r : tensor<8xf32>
}
"""


def test_forall_with_unused_shared_output_has_no_results():
    module = run(FORALL_WITHOUT_USES, BUFFERIZE)
    (loop,) = ops_named(module, "scf.forall")
    assert not loop.results
    assert len(loop.regions[0].block.args) == 1
    assert "shared_outs" not in print_module(module)
