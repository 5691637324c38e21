"""The interpreter function of `transform.structured.fold_unit_extent_dims`
(defined in `unit_dims_ops`), registered by `install`."""

from __future__ import annotations

from xdsl.dialects.linalg.ops import GenericOp
from xdsl.interpreter import (
    Interpreter,
    InterpreterFunctions,
    PythonValues,
    impl,
    register_impls,
)
from xdsl.interpreters.transform import OperationHandle
from xdsl.ir import Operation
from xdsl.pattern_rewriter import PatternRewriter

from linalg_ext.transform_ops.handles import failure, op_handle
from linalg_ext.transform_ops.unit_dims_ops import FoldUnitExtentDimsOp
from linalg_ext.transforms.unit_dims import fold_unit_dims


@register_impls
class UnitDimsFunctions(InterpreterFunctions):
    """The impl of `transform.structured.fold_unit_extent_dims`, registered
    by `install`."""

    @impl(FoldUnitExtentDimsOp)
    def run_fold_unit_extent_dims(
        self, interpreter: Interpreter, op: FoldUnitExtentDimsOp, args: PythonValues
    ) -> PythonValues:
        targets = op_handle(op, args[0], "the target")
        # Every target is checked before any changes (ByteIR's message).
        for target in targets.ops:
            if not isinstance(target, GenericOp):
                raise failure(
                    op,
                    "fold_unit_extent_dims transformation should be applied "
                    "on linalg.generic",
                    target,
                )
        transformed: list[Operation] = []
        for target in targets.ops:
            assert isinstance(target, GenericOp)
            rewriter = PatternRewriter(target)
            new = fold_unit_dims(target, rewriter, "reshape", fold_producers=False)
            transformed.append(target if new is None else new)
        return (OperationHandle(*transformed),)
