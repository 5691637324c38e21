"""The interpreter function of `transform.sequence` (MLIR's older top-level
transform op, `linalg_ext.compat.transform_sequence`), and `run_sequence`,
which the `transform-dialect-interpreter` pass calls on each top-level one.

The body's ops run one after the other in a scope of their own, the entry
block's arguments bound to the sequence's operands (root, extra bindings)
or, at the top level, to the payload root; what the `transform.yield`
yields are the sequence's results. A failing op (`TransformOpFailed`, a
transform op that could not do its work) stops a `failures(propagate)`
sequence and fails it; a `failures(suppress)` sequence gives the op's
results empty handles and goes on with the next op (MLIR's rule for
silenceable failures). Any other error (a bug, an op without an
implementation) stops both.
"""

from __future__ import annotations

from xdsl.dialects.transform import TransformParamHandleType, YieldOp
from xdsl.interpreter import (
    Interpreter,
    InterpreterFunctions,
    PythonValues,
    impl,
    register_impls,
)
from xdsl.interpreters.transform import OperationHandle
from xdsl.ir import Operation

from linalg_ext.compat.transform_sequence import FailureMode, SequenceOp
from linalg_ext.transform_ops.handles import ParamValues, TransformOpFailed


def run_sequence(
    interpreter: Interpreter, sequence: SequenceOp, args: PythonValues
) -> PythonValues:
    """Run the body of `sequence` with its entry block's arguments bound to
    `args` (as many as the block has, at most); return what it yields."""
    block = sequence.body.block
    interpreter.push_scope("transform.sequence")
    try:
        interpreter.set_values(zip(block.args, args, strict=False))
        for op in block.ops:
            if isinstance(op, YieldOp):
                return interpreter.get_values(op.arguments)
            inputs = interpreter.get_values(op.operands)
            try:
                results = interpreter.run_op(op, inputs)
            except TransformOpFailed:
                if sequence.mode is not FailureMode.SUPPRESS:
                    raise
                results = _empty_results(op)
            interpreter.set_values(zip(op.results, results, strict=True))
        return ()
    finally:
        interpreter.pop_scope()


def _empty_results(op: Operation) -> PythonValues:
    """Empty handles (or parameters) for each result of a failed op."""
    return tuple(
        ParamValues(())
        if isinstance(result.type, TransformParamHandleType)
        else OperationHandle()
        for result in op.results
    )


@register_impls
class SequenceFunctions(InterpreterFunctions):
    """The impl of a nested sequence (registered on xDSL's
    `TransformFunctions` by `install`); top-level ones are run by
    `run_sequence`."""

    @impl(SequenceOp)
    def run_nested_sequence(
        self, interpreter: Interpreter, op: SequenceOp, args: PythonValues
    ) -> PythonValues:
        return run_sequence(interpreter, op, args)
