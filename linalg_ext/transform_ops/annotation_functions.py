"""Interpreter functions of ByteIR's `transform.annotate_ext`,
`transform.structured.tile_loop_hint` and `transform.cleanup` (defined in
`annotations` and `cleanup`), registered by `install`."""

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

from linalg_ext.tiling.interface import tiling_model
from linalg_ext.tiling.loops import enclosing_loops
from linalg_ext.transform_ops.annotations import (
    AnnotateExtOp,
    TileLoopHintOp,
    label_parallel_loops,
)
from linalg_ext.transform_ops.cleanup import CleanupOp, cleanup_payload
from linalg_ext.transform_ops.handles import failure, op_handle


@register_impls
class AnnotationFunctions(InterpreterFunctions):
    """The impls of ByteIR's annotation and clean-up transform ops."""

    @impl(AnnotateExtOp)
    def run_annotate_ext(
        self, interpreter: Interpreter, op: AnnotateExtOp, args: PythonValues
    ) -> PythonValues:
        targets = op_handle(op, args[0], "the target")
        for target in targets.ops:
            target.attributes.update(op.attributes)
        return (targets,)

    @impl(TileLoopHintOp)
    def run_tile_loop_hint(
        self, interpreter: Interpreter, op: TileLoopHintOp, args: PythonValues
    ) -> PythonValues:
        targets = op_handle(op, args[0], "the target")
        for target in targets.ops:
            if tiling_model(target) is None:
                raise failure(op, "only TilingInterface ops are supported", target)
            if not enclosing_loops(target):
                raise failure(op, "no loops at the target op", target)
            label_parallel_loops(target)
        return ()

    @impl(CleanupOp)
    def run_cleanup(
        self, interpreter: Interpreter, op: CleanupOp, args: PythonValues
    ) -> PythonValues:
        roots: tuple[Operation, ...]
        if op.target is not None:
            roots = op_handle(op, args[0], "the target").ops
        else:
            roots = (interpreter.module,)
        for root in roots:
            cleanup_payload(root)
        return (OperationHandle(*roots),) if op.results_ is not None else ()
