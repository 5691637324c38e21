"""Interpreter functions of ByteIR's tile-and-fuse transform ops,
`transform.structured.fuse_ext` and `transform.structured.fuse_operands`,
on `linalg_ext.tiling.fuse_ext`.

As ByteIR's, neither op cleans up after itself (its tests follow it with
`cleanup` or `--canonicalize-ext`); a refusal of the library is the op's
failure, one line, naming the payload op.
"""

from __future__ import annotations

from xdsl.interpreter import (
    Interpreter,
    InterpreterFunctions,
    PythonValues,
    impl,
    register_impls,
)
from xdsl.interpreters.transform import OperationHandle
from xdsl.ir import Operation

from linalg_ext.tiling import TilingRefused, tiling_model
from linalg_ext.tiling.fuse_ext import fuse_ext, fuse_operands
from linalg_ext.transform_ops.byteir_ops import FuseExtOp, FuseOperandsOp
from linalg_ext.transform_ops.handles import failure, op_handle


@register_impls
class FuseExtFunctions(InterpreterFunctions):
    """The impls, registered on xDSL's `TransformFunctions` by `install`."""

    @impl(FuseExtOp)
    def run_fuse_ext(
        self, interpreter: Interpreter, op: FuseExtOp, args: PythonValues
    ) -> PythonValues:
        targets = op_handle(op, args[0], "the target")
        stops: list[Operation] = []
        if op.stop is not None:
            stops = list(op_handle(op, args[1], "the stop").ops)
            if len(targets.ops) > 1:
                raise failure(
                    op,
                    "only support one target payload operation when using stop "
                    "operands",
                )
        transformed: list[Operation] = []
        loops: list[list[Operation]] = [[] for _ in op.loops]
        for target in targets.ops:
            if target.parent is None:
                continue  # fused (and erased) by an earlier target's loops
            if tiling_model(target) is None:
                raise failure(op, "only TilingInterface ops are supported", target)
            try:
                result = fuse_ext(
                    target,
                    op.sizes,
                    op.interchange,
                    stops,
                    op.keeps_intermediates,
                )
            except TilingRefused as refused:
                raise failure(op, str(refused), target) from refused
            transformed.extend(result.tiled)
            for handle, loop in zip(loops, result.loops, strict=False):
                handle.append(loop)
        return (OperationHandle(*transformed), *(OperationHandle(*h) for h in loops))

    @impl(FuseOperandsOp)
    def run_fuse_operands(
        self, interpreter: Interpreter, op: FuseOperandsOp, args: PythonValues
    ) -> PythonValues:
        targets = op_handle(op, args[0], "the target")
        if op.use_distributed is not None and any(
            entry.value.data for entry in op.use_distributed.data
        ):
            raise failure(op, "use_distributed is not supported (scf.for loops only)")
        loops: list[list[Operation]] = [[] for _ in op.loops]
        for target in targets.ops:
            try:
                result = fuse_operands(
                    target,
                    op.nums,
                    op.interchange,
                    op.expects_whole_graph_fusion,
                )
            except TilingRefused as refused:
                culprit = refused.op if refused.op is not None else target
                raise failure(op, str(refused), culprit) from refused
            for handle, loop in zip(loops, result.loops, strict=False):
                handle.append(loop)
        return (OperationHandle(*targets.ops), *(OperationHandle(*h) for h in loops))


__all__ = ["FuseExtFunctions"]
