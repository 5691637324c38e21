"""Interpreter functions of `transform.structured.tile_ext` and
`transform.structured.lower_to_loops` (ops in `tile_ext`).

`tile_ext` tiles each target with `linalg_ext.tiling.loops.tile_using_for`;
ByteIR's validity check (`isValidTiling`) is the model's `whole_dims`: a
nonzero size on one of them is refused as "unsupported tiling dim", and any
other refusal of the model is the op's failure too, one line located at the
transform op naming the target. Every target's request is checked before
any is tiled. `lower_to_loops` checks every target and
loop id first, then replaces each target by its scalar loop nest
(`linalg_ext.lowering.structured_scalar`).
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import arith
from xdsl.dialects.builtin import IntegerAttr
from xdsl.interpreter import (
    Interpreter,
    InterpreterFunctions,
    PythonValues,
    impl,
    register_impls,
)
from xdsl.interpreters.transform import OperationHandle
from xdsl.ir import Operation, OpResult
from xdsl.rewriter import InsertPoint, Rewriter

from linalg_ext.lowering.structured_scalar import (
    build_scalar_loops,
    scalar_loop_count,
    scalar_loops_refusal,
)
from linalg_ext.tiling import TilingRefused, tiling_model
from linalg_ext.tiling.fusion_driver import parallel_tile_loops
from linalg_ext.tiling.loops import tile_using_for
from linalg_ext.transform_ops.handles import failure, mixed_lists, op_handle
from linalg_ext.transform_ops.tile_ext import LowerToLoopsOp, TileExtOp, static_values
from linalg_ext.transform_ops.tiling_functions import computing_ops
from linalg_ext.transforms.mixed_sizes import Mixed


def _interchange_for(target: Operation, interchange: Sequence[int]) -> list[int]:
    """`interchange` cut to the target's loops (upstream's
    `fillInterchangeVector`: a longer one is truncated)."""
    model = tiling_model(target)
    assert model is not None
    return list(interchange[: len(model.loop_types(target))])


def _is_zero(size: Mixed) -> bool:
    """A size of 0: the integer, or an `index` constant 0 from a handle."""
    if isinstance(size, OpResult) and isinstance(size.op, arith.ConstantOp):
        value = size.op.value
        return isinstance(value, IntegerAttr) and value.value.data == 0
    return size == 0


def _whole_dim_refusal(
    transform_op: Operation, target: Operation, sizes: Sequence[Mixed]
) -> None:
    """ByteIR's validity check: no nonzero tile size on a loop the op
    needs whole (a softmax's dimension, a layer_norm's axes)."""
    model = tiling_model(target)
    assert model is not None
    for dim in sorted(model.whole_dims(target)):
        if dim < len(sizes) and not _is_zero(sizes[dim]):
            raise failure(
                transform_op,
                f"unsupported tiling dim {dim} of {target.name}: it must stay whole",
                target,
            )


@register_impls
class TileExtFunctions(InterpreterFunctions):
    """The impls of `tile_ext` and `lower_to_loops`, registered on xDSL's
    `TransformFunctions` by `install`."""

    @impl(TileExtOp)
    def run_tile_ext(
        self, interpreter: Interpreter, op: TileExtOp, args: PythonValues
    ) -> PythonValues:
        targets = op_handle(op, args[0], "the target")
        size_lists = mixed_lists(
            op, static_values(op.static_sizes), args[1:], len(targets.ops), "tile sizes"
        )
        interchange = static_values(op.interchange)
        # The requests are checked for every target before any is tiled.
        for target, sizes in zip(targets.ops, size_lists, strict=True):
            if tiling_model(target) is None:
                raise failure(
                    op, "only ops implementing TilingInterface are supported", target
                )
            _whole_dim_refusal(op, target, sizes)
            try:
                parallel_tile_loops(
                    target, sizes, _interchange_for(target, interchange)
                )
            except TilingRefused as refused:
                raise failure(op, str(refused), target) from refused
        tiled_ops: list[Operation] = []
        loops: list[list[Operation]] = [[] for _ in op.loops]
        for target, sizes in zip(targets.ops, size_lists, strict=True):
            try:
                tiling = tile_using_for(
                    target, sizes, _interchange_for(target, interchange)
                )
            except TilingRefused as refused:
                raise failure(op, str(refused), target) from refused
            tiled_ops.extend(computing_ops(tiling.tiled))
            # A size of 0 from a handle builds no loop: its handle stays empty.
            for handle, loop in zip(loops, tiling.loops, strict=False):
                handle.append(loop)
        return (OperationHandle(*tiled_ops), *(OperationHandle(*h) for h in loops))

    @impl(LowerToLoopsOp)
    def run_lower_to_loops(
        self, interpreter: Interpreter, op: LowerToLoopsOp, args: PythonValues
    ) -> PythonValues:
        targets = op_handle(op, args[0], "the target")
        loop_ids = static_values(op.loop_ids)
        handles: list[list[Operation]] = [[] for _ in loop_ids]
        # Everything is checked before anything changes.
        positions: list[list[int]] = []
        for target in targets.ops:
            reason = scalar_loops_refusal(target)
            if reason is not None:
                raise failure(op, reason, target)
            count = scalar_loop_count(target)
            chosen: list[int] = []
            for loop_id in loop_ids:
                position = loop_id + count if loop_id < 0 else loop_id
                if not 0 <= position < count:
                    raise failure(
                        op,
                        f"invalid loop id {loop_id}: {target.name} has {count} loops",
                        target,
                    )
                chosen.append(position)
            positions.append(chosen)
        for target, chosen in zip(targets.ops, positions, strict=True):
            lowered = build_scalar_loops(target)
            Rewriter.insert_op(lowered.ops, InsertPoint.before(target))
            Rewriter.erase_op(target)
            for handle, position in zip(handles, chosen, strict=True):
                handle.append(lowered.loops[position])
        return tuple(OperationHandle(*h) for h in handles)


__all__ = ["TileExtFunctions"]
