"""Making a new op tileable: `linalg_ext.negate` (examples/negate_op.py) gets a
`TilingModel`, is tiled with `scf.for` loops by `tile_using_for`, and gives
the same result before and after.

    python examples/tileable_op.py

docs/tiling.md walks through it: what each method of the model answers,
and the IR printed before and after tiling (6x10 by tiles of 4x4, so both
loops have a partial last tile, clamped by `affine.min`). Last, a chain of
two negates is tiled and fused (`tile_and_fuse`): both run tile by tile;
and a function on `tensor<?x?xf32>` is tiled with interchanged loops.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from negate_op import NegateFunctions, NegateOp
from xdsl.dialects.builtin import MemRefType, ModuleOp, ShapedType, f32
from xdsl.ir import Operation
from xdsl.parser import Parser

from linalg_ext.context import make_context
from linalg_ext.running import make_interpreter
from linalg_ext.semantics.arrays import numpy_view, shaped_array
from linalg_ext.tiling import (
    LoopType,
    TiledOp,
    TilingModel,
    register_tiling,
)
from linalg_ext.tiling.fusion_driver import tile_and_fuse
from linalg_ext.tiling.loops import tile_using_for
from linalg_ext.transforms.mixed_sizes import Mixed
from linalg_ext.transforms.shape_reification import reify_dim
from linalg_ext.transforms.slices import extract_slice


# The model: one parallel loop per dimension; a tile of the loops is the same
# slice of the input and of the output, and the result tile lies there.
class NegateTiling(TilingModel):
    def refusal(self, op: Operation) -> str | None:
        if isinstance(op.operands[0].type, MemRefType):
            return f"{op.name}: tiling works on tensors"
        return None

    def loop_types(self, op: Operation) -> list[LoopType]:
        assert isinstance(op, NegateOp)
        output_type = op.outputs[0].type
        assert isinstance(output_type, ShapedType)
        return ["parallel"] * output_type.get_num_dims()

    def iteration_domain(self, op: Operation, new_ops: list[Operation]) -> list[Mixed]:
        assert isinstance(op, NegateOp)
        rank = len(self.loop_types(op))
        return [reify_dim(op.outputs[0], dim, new_ops) for dim in range(rank)]

    def tile(
        self,
        op: Operation,
        offsets: Sequence[Mixed],
        sizes: Sequence[Mixed],
        new_ops: list[Operation],
    ) -> TiledOp:
        assert isinstance(op, NegateOp)
        x = extract_slice(op.inputs[0], offsets, sizes)
        y = extract_slice(op.outputs[0], offsets, sizes)
        tiled = NegateOp(x.result, y.result)
        new_ops.extend((x, y, tiled))
        return TiledOp([x, y, tiled], list(tiled.results), [x, y])

    def result_tile_position(
        self,
        op: Operation,
        result_index: int,
        offsets: Sequence[Mixed],
        sizes: Sequence[Mixed],
        new_ops: list[Operation],
    ) -> tuple[list[Mixed], list[Mixed]]:
        return list(offsets), list(sizes)

    def iteration_tile_of_result(
        self,
        op: Operation,
        result_index: int,
        offsets: Sequence[Mixed],
        sizes: Sequence[Mixed],
        new_ops: list[Operation],
    ) -> tuple[list[Mixed], list[Mixed]]:
        return list(offsets), list(sizes)


register_tiling(NegateOp, NegateTiling())


PROGRAM = """
func.func @neg(%x: tensor<6x10xf32>) -> tensor<6x10xf32> {
  %e = tensor.empty() : tensor<6x10xf32>
  %y = linalg_ext.negate ins(%x : tensor<6x10xf32>) outs(%e : tensor<6x10xf32>)
      : tensor<6x10xf32>
  return %y : tensor<6x10xf32>
}
"""

TWICE = """
func.func @neg(%x: tensor<6x10xf32>) -> tensor<6x10xf32> {
  %e = tensor.empty() : tensor<6x10xf32>
  %y = linalg_ext.negate ins(%x : tensor<6x10xf32>) outs(%e : tensor<6x10xf32>)
      : tensor<6x10xf32>
  %z = linalg_ext.negate ins(%y : tensor<6x10xf32>) outs(%e : tensor<6x10xf32>)
      : tensor<6x10xf32>
  return %z : tensor<6x10xf32>
}
"""

DYNAMIC = """
func.func @neg(%x: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %rows = tensor.dim %x, %c0 : tensor<?x?xf32>
  %cols = tensor.dim %x, %c1 : tensor<?x?xf32>
  %e = tensor.empty(%rows, %cols) : tensor<?x?xf32>
  %y = linalg_ext.negate ins(%x : tensor<?x?xf32>) outs(%e : tensor<?x?xf32>)
      : tensor<?x?xf32>
  return %y : tensor<?x?xf32>
}
"""


def run(module: ModuleOp, x: np.ndarray) -> np.ndarray:
    """`@neg(x)` on the interpreter, which also knows `linalg_ext.negate`."""
    interpreter = make_interpreter(module)
    interpreter.register_implementations(NegateFunctions())
    (result,) = interpreter.call_op("neg", (shaped_array(x, f32),))
    return numpy_view(result).copy()


def negates(module: ModuleOp) -> list[NegateOp]:
    return [op for op in module.walk() if isinstance(op, NegateOp)]


def main() -> None:
    ctx = make_context()
    ctx.load_op(NegateOp)
    x = np.arange(60, dtype=np.float32).reshape(6, 10)

    # Tiling: one loop per tiled dimension, the op computed tile by tile.
    module = Parser(ctx, PROGRAM).parse_module()
    print(module)
    before = run(module, x)
    (negate,) = negates(module)
    tiling = tile_using_for(negate, [4, 4])
    module.verify()
    print(module)
    assert len(tiling.loops) == 2
    after = run(module, x)
    assert np.array_equal(before, after) and np.array_equal(after, -x)
    print("== tiled 4x4: the same result as untiled, -x")

    # Fusion: the producer of the slice the tile reads is computed in the
    # loops too (`iteration_tile_of_result` says which tile of it to build).
    module = Parser(ctx, TWICE).parse_module()
    _, last = negates(module)
    fused = tile_and_fuse(last, [4, 4])
    module.verify()
    assert len(fused.fused) == 1
    assert all(op.parent_op() is fused.loops[-1] for op in negates(module))
    assert np.array_equal(run(module, x), x)
    print("== both negates fused into the loops: the same result as untiled, x")

    # Dynamic shapes: the extents are the `tensor.empty`'s sizes, every tile
    # is clamped; the column loop outermost (interchange).
    module = Parser(ctx, DYNAMIC).parse_module()
    (negate,) = negates(module)
    tiling = tile_using_for(negate, [4, 3], interchange=[1, 0])
    module.verify()
    assert len(tiling.loops) == 2
    for shape in ((6, 10), (5, 7), (1, 1)):
        y = np.arange(np.prod(shape), dtype=np.float32).reshape(shape)
        assert np.array_equal(run(module, y), -y)
    print("== dynamic shapes, interchanged loops: -x for every shape tried")


if __name__ == "__main__":
    main()
