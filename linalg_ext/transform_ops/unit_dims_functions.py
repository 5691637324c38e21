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

from linalg_ext.transform_ops.handles import op_handle, typed_targets
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
        targets = typed_targets(
            op,
            op_handle(op, args[0], "the target").ops,
            (GenericOp,),
            # ByteIR's message.
            "fold_unit_extent_dims transformation should be applied on linalg.generic",
        )
        transformed: list[Operation] = []
        for target in targets:
            rewriter = PatternRewriter(target)
            new = fold_unit_dims(target, rewriter, "reshape", fold_producers=False)
            transformed.append(target if new is None else new)
        return (OperationHandle(*transformed),)
