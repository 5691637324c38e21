"""Tiled loop nests bufferize in place (issue 17, item 6).

A nest as the tiling drivers build it (`scf.for` with tensor `iter_args`,
the tiled op computing into an `extract_slice` of the iter_arg,
`insert_slice` of its result back into the iter_arg, `scf.yield`) must
become, under `one-shot-bufferize{bufferize-function-boundaries=true}`, a
nest over one buffer: the destination slices are `memref.subview`s of the
loop's buffer (the result's), the loops yield that buffer unchanged, and
there is no `memref.alloc` nor `memref.copy` inside the loops (no tensor
copied per iteration). Checked on the structure, and by running every
function before and after (interpreter; compiled natively too).

A producer fused into the nest that computes into a slice of some other
tensor than the iter_arg (a `tensor.empty` also used as the loop's init,
as upstream's `transform.structured.fuse` leaves a fused `linalg.fill`)
gets a tile-sized buffer per iteration, as upstream's bufferization gives
it: never a whole-tensor one, never a copy.
"""

from __future__ import annotations

import pytest
from xdsl.dialects import func, memref, scf
from xdsl.dialects.builtin import DYNAMIC_INDEX, MemRefType, ModuleOp
from xdsl.ir import BlockArgument, Operation, OpResult, SSAValue

from helpers import parse_module
from linalg_ext.checking import check_module
from linalg_ext.context import make_context
from linalg_ext.pipelines import parse_pipeline
from linalg_ext.tiling.cleanup import apply_tiling_cleanup

BUFFERIZE = "one-shot-bufferize{bufferize-function-boundaries=true}"

ELEMENTWISE_2D = """
func.func @f(%x: tensor<10x7xf32>, %y: tensor<10x7xf32>, %out: tensor<10x7xf32>) -> tensor<10x7xf32> {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c3 = arith.constant 3 : index
  %c10 = arith.constant 10 : index
  %c7 = arith.constant 7 : index
  %r = scf.for %i = %c0 to %c10 step %c4 iter_args(%acc = %out) -> (tensor<10x7xf32>) {
    %r2 = scf.for %j = %c0 to %c7 step %c3 iter_args(%acc2 = %acc) -> (tensor<10x7xf32>) {
      %m = affine.min affine_map<(d0) -> (4, -d0 + 10)>(%i)
      %n = affine.min affine_map<(d0) -> (3, -d0 + 7)>(%j)
      %xs = tensor.extract_slice %x[%i, %j] [%m, %n] [1, 1] : tensor<10x7xf32> to tensor<?x?xf32>
      %ys = tensor.extract_slice %y[%i, %j] [%m, %n] [1, 1] : tensor<10x7xf32> to tensor<?x?xf32>
      %os = tensor.extract_slice %acc2[%i, %j] [%m, %n] [1, 1] : tensor<10x7xf32> to tensor<?x?xf32>
      %s = linalg.add ins(%xs, %ys : tensor<?x?xf32>, tensor<?x?xf32>) outs(%os : tensor<?x?xf32>) -> tensor<?x?xf32>
      %w = tensor.insert_slice %s into %acc2[%i, %j] [%m, %n] [1, 1] : tensor<?x?xf32> into tensor<10x7xf32>
      scf.yield %w : tensor<10x7xf32>
    }
    scf.yield %r2 : tensor<10x7xf32>
  }
  return %r : tensor<10x7xf32>
}
"""

MATMUL_WITH_REDUCTION_LOOP = """
func.func @f(%a: tensor<8x12xf32>, %b: tensor<12x6xf32>) -> tensor<8x6xf32> {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c8 = arith.constant 8 : index
  %c6 = arith.constant 6 : index
  %c12 = arith.constant 12 : index
  %e = tensor.empty() : tensor<8x6xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<8x6xf32>) -> tensor<8x6xf32>
  %r = scf.for %i = %c0 to %c8 step %c4 iter_args(%acc = %init) -> (tensor<8x6xf32>) {
    %r2 = scf.for %j = %c0 to %c6 step %c3 iter_args(%acc2 = %acc) -> (tensor<8x6xf32>) {
      %r3 = scf.for %k = %c0 to %c12 step %c5 iter_args(%acc3 = %acc2) -> (tensor<8x6xf32>) {
        %ks = affine.min affine_map<(d0) -> (5, -d0 + 12)>(%k)
        %as = tensor.extract_slice %a[%i, %k] [4, %ks] [1, 1] : tensor<8x12xf32> to tensor<4x?xf32>
        %bs = tensor.extract_slice %b[%k, %j] [%ks, 3] [1, 1] : tensor<12x6xf32> to tensor<?x3xf32>
        %cs = tensor.extract_slice %acc3[%i, %j] [4, 3] [1, 1] : tensor<8x6xf32> to tensor<4x3xf32>
        %mm = linalg.matmul ins(%as, %bs : tensor<4x?xf32>, tensor<?x3xf32>) outs(%cs : tensor<4x3xf32>) -> tensor<4x3xf32>
        %w = tensor.insert_slice %mm into %acc3[%i, %j] [4, 3] [1, 1] : tensor<4x3xf32> into tensor<8x6xf32>
        scf.yield %w : tensor<8x6xf32>
      }
      scf.yield %r3 : tensor<8x6xf32>
    }
    scf.yield %r2 : tensor<8x6xf32>
  }
  return %r : tensor<8x6xf32>
}
"""

FILL_FUSED_INTO_ITER_ARG = """
func.func @f(%a: tensor<8x12xf32>, %b: tensor<12x6xf32>, %out: tensor<8x6xf32>) -> tensor<8x6xf32> {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c6 = arith.constant 6 : index
  %r = scf.for %i = %c0 to %c8 step %c4 iter_args(%acc = %out) -> (tensor<8x6xf32>) {
    %r2 = scf.for %j = %c0 to %c6 step %c4 iter_args(%acc2 = %acc) -> (tensor<8x6xf32>) {
      %n = affine.min affine_map<(d0) -> (4, -d0 + 6)>(%j)
      %as = tensor.extract_slice %a[%i, 0] [4, 12] [1, 1] : tensor<8x12xf32> to tensor<4x12xf32>
      %bs = tensor.extract_slice %b[0, %j] [12, %n] [1, 1] : tensor<12x6xf32> to tensor<12x?xf32>
      %cs = tensor.extract_slice %acc2[%i, %j] [4, %n] [1, 1] : tensor<8x6xf32> to tensor<4x?xf32>
      %f = linalg.fill ins(%zero : f32) outs(%cs : tensor<4x?xf32>) -> tensor<4x?xf32>
      %mm = linalg.matmul ins(%as, %bs : tensor<4x12xf32>, tensor<12x?xf32>) outs(%f : tensor<4x?xf32>) -> tensor<4x?xf32>
      %w = tensor.insert_slice %mm into %acc2[%i, %j] [4, %n] [1, 1] : tensor<4x?xf32> into tensor<8x6xf32>
      scf.yield %w : tensor<8x6xf32>
    }
    scf.yield %r2 : tensor<8x6xf32>
  }
  return %r : tensor<8x6xf32>
}
"""

DYNAMIC_INTO_EMPTY = """
func.func @f(%x: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %m = tensor.dim %x, %c0 : tensor<?x?xf32>
  %n = tensor.dim %x, %c1 : tensor<?x?xf32>
  %e = tensor.empty(%m, %n) : tensor<?x?xf32>
  %r = scf.for %i = %c0 to %m step %c3 iter_args(%acc = %e) -> (tensor<?x?xf32>) {
    %r2 = scf.for %j = %c0 to %n step %c2 iter_args(%acc2 = %acc) -> (tensor<?x?xf32>) {
      %ts = affine.min affine_map<(d0)[s0] -> (3, s0 - d0)>(%i)[%m]
      %us = affine.min affine_map<(d0)[s0] -> (2, s0 - d0)>(%j)[%n]
      %xs = tensor.extract_slice %x[%i, %j] [%ts, %us] [1, 1] : tensor<?x?xf32> to tensor<?x?xf32>
      %os = tensor.extract_slice %acc2[%i, %j] [%ts, %us] [1, 1] : tensor<?x?xf32> to tensor<?x?xf32>
      %s = linalg.exp ins(%xs : tensor<?x?xf32>) outs(%os : tensor<?x?xf32>) -> tensor<?x?xf32>
      %w = tensor.insert_slice %s into %acc2[%i, %j] [%ts, %us] [1, 1] : tensor<?x?xf32> into tensor<?x?xf32>
      scf.yield %w : tensor<?x?xf32>
    }
    scf.yield %r2 : tensor<?x?xf32>
  }
  return %r : tensor<?x?xf32>
}
"""

TILED_IN_PLACE = {
    "elementwise_2d": ELEMENTWISE_2D,
    "matmul_reduction_loop": MATMUL_WITH_REDUCTION_LOOP,
    "fill_fused_into_iter_arg": FILL_FUSED_INTO_ITER_ARG,
    "dynamic_into_empty": DYNAMIC_INTO_EMPTY,
}


def bufferized(text: str) -> ModuleOp:
    module = parse_module(text)
    parse_pipeline(BUFFERIZE).apply(make_context(), module)
    module.verify()
    return module


def loops_of(module: ModuleOp) -> list[scf.ForOp]:
    return [op for op in module.walk() if isinstance(op, scf.ForOp)]


def ops_in_loops(module: ModuleOp) -> list[Operation]:
    """Every op inside a loop nest, once."""
    outermost = [
        loop
        for loop in loops_of(module)
        if not any(isinstance(p, scf.ForOp) for p in _ancestors(loop))
    ]
    return [op for loop in outermost for op in loop.body.walk()]


def _ancestors(op: Operation) -> list[Operation]:
    found: list[Operation] = []
    while (parent := op.parent_op()) is not None:
        found.append(parent)
        op = parent
    return found


def subview_root(value: SSAValue) -> SSAValue:
    """The buffer a chain of subviews views."""
    while isinstance(owner := value.owner, memref.SubviewOp):
        value = owner.source
    return value


def carried_buffer_origin(value: SSAValue) -> SSAValue:
    """Back from an iter_arg of a loop nest to the outermost loop's init."""
    while isinstance(value, BlockArgument) and isinstance(
        loop := value.block.parent_op(), scf.ForOp
    ):
        if value.index == 0:
            break
        value = loop.iter_args[value.index - 1]
    return value


def assert_in_place(module: ModuleOp) -> None:
    loops = loops_of(module)
    assert loops, "no loops left"
    inside = ops_in_loops(module)
    names = [op.name for op in inside]
    assert "memref.alloc" not in names, names
    assert "memref.alloca" not in names, names
    assert "memref.copy" not in names, names
    # Every loop yields its iter_arg's buffer unchanged (or its inner
    # loop's result, which is that buffer).
    for loop in loops:
        yielded = loop.body.block.last_op
        assert isinstance(yielded, scf.YieldOp)
        for index, value in enumerate(yielded.operands):
            iter_arg = loop.body.block.args[index + 1]
            if isinstance(value, OpResult) and isinstance(value.op, scf.ForOp):
                value = value.op.iter_args[value.index]
            assert value is iter_arg
    # The tiled computations write into subviews of the carried buffer,
    # whose origin is the buffer the function returns.
    function = next(op for op in module.ops if isinstance(op, func.FuncOp))
    returned = function.body.block.last_op
    assert returned is not None
    result_buffers = {carried_buffer_origin(v) for v in returned.operands}
    outermost = loops[0]
    origins = {carried_buffer_origin(a) for a in outermost.iter_args}
    written = 0
    for op in inside:
        outputs = getattr(op, "outputs", None)
        if outputs is None or not op.name.startswith("linalg."):
            continue
        for value in outputs:
            assert isinstance(value.type, MemRefType)
            # A subview of it (the whole buffer when the tile spans the
            # result: only a reduction loop tiled).
            root = carried_buffer_origin(subview_root(value))
            assert root in origins
            written += 1
    assert written
    assert origins <= {carried_buffer_origin(r) for r in result_buffers} | origins


@pytest.mark.parametrize("name", sorted(TILED_IN_PLACE))
def test_tiled_nest_bufferizes_in_place(name: str):
    assert_in_place(bufferized(TILED_IN_PLACE[name]))


@pytest.mark.parametrize("name", sorted(TILED_IN_PLACE))
def test_tiled_nest_keeps_meaning(name: str):
    report = check_module(
        parse_module(TILED_IN_PLACE[name]),
        BUFFERIZE,
        trials=2,
        seed=4,
        allow_leaks=True,
    )
    assert report.ok, "\n".join(v.line() for v in report.verdicts)


@pytest.mark.parametrize("name", ["elementwise_2d", "matmul_reduction_loop"])
def test_tiled_nest_keeps_meaning_compiled(name: str):
    report = check_module(
        parse_module(TILED_IN_PLACE[name]),
        BUFFERIZE + ",buffer-deallocation-pipeline",
        trials=2,
        seed=4,
        backend="jit",
    )
    assert report.ok, "\n".join(v.line() for v in report.verdicts)


def test_result_buffer_is_the_out_argument():
    """With the destination a function argument, the loops work on that
    argument's buffer: nothing is allocated at all."""
    module = bufferized(ELEMENTWISE_2D)
    assert not [op for op in module.walk() if isinstance(op, memref.AllocOp)]
    outermost = loops_of(module)[0]
    function = next(op for op in module.ops if isinstance(op, func.FuncOp))
    assert outermost.iter_args[0] is function.body.block.args[2]


def test_reduction_accumulates_in_the_result_buffer():
    """Tiled along k, the matmul accumulates into the subview of the one
    result buffer the fill zeroed, allocated once before the loops."""
    module = bufferized(MATMUL_WITH_REDUCTION_LOOP)
    allocs = [op for op in module.walk() if isinstance(op, memref.AllocOp)]
    assert len(allocs) == 1
    assert allocs[0].parent_op() is not None
    assert not isinstance(allocs[0].parent_op(), scf.ForOp)


FUSED_BY_UPSTREAM_SHAPE = """
func.func @f(%a: tensor<10x12xf32>, %b: tensor<12x7xf32>, %bias: tensor<10x7xf32>) -> tensor<10x7xf32> {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c10 = arith.constant 10 : index
  %c7 = arith.constant 7 : index
  %e = tensor.empty() : tensor<10x7xf32>
  %r = scf.for %i = %c0 to %c10 step %c4 iter_args(%acc = %e) -> (tensor<10x7xf32>) {
    %r2 = scf.for %j = %c0 to %c7 step %c4 iter_args(%acc2 = %acc) -> (tensor<10x7xf32>) {
      %m = affine.min affine_map<(d0) -> (-d0 + 10, 4)>(%i)
      %n = affine.min affine_map<(d0) -> (-d0 + 7, 4)>(%j)
      %as = tensor.extract_slice %a[%i, 0] [%m, 12] [1, 1] : tensor<10x12xf32> to tensor<?x12xf32>
      %bs = tensor.extract_slice %b[0, %j] [12, %n] [1, 1] : tensor<12x7xf32> to tensor<12x?xf32>
      %es = tensor.extract_slice %e[%i, %j] [%m, %n] [1, 1] : tensor<10x7xf32> to tensor<?x?xf32>
      %f = linalg.fill ins(%zero : f32) outs(%es : tensor<?x?xf32>) -> tensor<?x?xf32>
      %mm = linalg.matmul ins(%as, %bs : tensor<?x12xf32>, tensor<12x?xf32>) outs(%f : tensor<?x?xf32>) -> tensor<?x?xf32>
      %cs = tensor.extract_slice %bias[%i, %j] [%m, %n] [1, 1] : tensor<10x7xf32> to tensor<?x?xf32>
      %os = tensor.extract_slice %acc2[%i, %j] [%m, %n] [1, 1] : tensor<10x7xf32> to tensor<?x?xf32>
      %s = linalg.add ins(%mm, %cs : tensor<?x?xf32>, tensor<?x?xf32>) outs(%os : tensor<?x?xf32>) -> tensor<?x?xf32>
      %w = tensor.insert_slice %s into %acc2[%i, %j] [%m, %n] [1, 1] : tensor<?x?xf32> into tensor<10x7xf32>
      scf.yield %w : tensor<10x7xf32>
    }
    scf.yield %r2 : tensor<10x7xf32>
  }
  return %r : tensor<10x7xf32>
}
"""


def test_fused_producer_of_another_tensor_gets_a_tile_buffer():
    """The fill computes into a slice of the empty that is also the loops'
    init (upstream's fuse output): that slice cannot be written in place (the
    loop's buffer holds earlier tiles), so the fill gets a tile-sized buffer
    per iteration, as upstream's one-shot-bufferize gives it; no copy, and
    the consumer still writes a subview of the result buffer."""
    module = bufferized(FUSED_BY_UPSTREAM_SHAPE)
    inside = ops_in_loops(module)
    assert "memref.copy" not in [op.name for op in inside]
    allocs = [op for op in inside if isinstance(op, memref.AllocOp)]
    assert len(allocs) == 1
    # Tile-sized: its extents are the clamped tile sizes, not 10x7.
    assert allocs[0].memref.type.get_shape() == (DYNAMIC_INDEX, DYNAMIC_INDEX)
    assert {v.op.name for v in allocs[0].dynamic_sizes if isinstance(v, OpResult)} <= {
        "memref.dim",
        "affine.min",
    }
    add = next(op for op in inside if op.name == "linalg.add")
    assert isinstance(add.outputs[0].owner, memref.SubviewOp)  # pyright: ignore[reportAttributeAccessIssue]
    report = check_module(
        parse_module(FUSED_BY_UPSTREAM_SHAPE), BUFFERIZE, trials=2, allow_leaks=True
    )
    assert report.ok, "\n".join(v.line() for v in report.verdicts)


@pytest.mark.parametrize("sizes", [[4, 4, 0], [4, 3, 5], [0, 0, 6]])
def test_tile_using_for_output_bufferizes_in_place(sizes: list[int]):
    """Our driver's nests (after the clean-up) bufferize in place too,
    whichever loops are tiled (k alone included)."""
    from linalg_ext.tiling.loops import tile_using_for

    text = """
func.func @f(%a: tensor<10x12xf32>, %b: tensor<12x7xf32>, %c: tensor<10x7xf32>) -> tensor<10x7xf32> {
  %mm = linalg.matmul ins(%a, %b : tensor<10x12xf32>, tensor<12x7xf32>) outs(%c : tensor<10x7xf32>) -> tensor<10x7xf32>
  return %mm : tensor<10x7xf32>
}
"""
    module = parse_module(text)
    matmul = next(op for op in module.walk() if op.name == "linalg.matmul")
    tile_using_for(matmul, sizes)
    apply_tiling_cleanup(module)
    module.verify()
    tiled_text = str(module)
    assert_in_place(bufferized(tiled_text))
    report = check_module(
        parse_module(tiled_text), BUFFERIZE, trials=2, seed=2, allow_leaks=True
    )
    assert report.ok, "\n".join(v.line() for v in report.verdicts)
