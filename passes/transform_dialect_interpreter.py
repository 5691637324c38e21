"""`transform-dialect-interpreter`: run the module's top-level
`transform.sequence` scripts on it (ByteIR's pass, the older form of MLIR's
transform interpreter).

    transform-dialect-interpreter{erase-after=true}

Each top-level `transform.sequence` runs in order, its entry block argument
bound to the module, with every transform op xDSL's `transform-interpreter`
knows, ours included (the same `TransformFunctions`, the same registry of
passes for `apply_registered_pass`, ours added). `erase-after` then erases
every transform op of the module (ByteIR's option, false by default: the
scripts stay, and running functions ignores them).

A transform op that fails stops the pass with one located line (the op and
the reason); the module is then left as it was before the pass.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.passes import ModulePass

from linalg_ext.compat.transform_sequence import SequenceOp


@dataclass(frozen=True)
class TransformDialectInterpreterPass(ModulePass):
    """Run the module's top-level transform.sequence scripts on it
    (ByteIR's pass)."""

    name = "transform-dialect-interpreter"

    erase_after: bool = False
    """Erase every transform op of the module once the scripts have run."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        sequences = [s for s in op.body.block.ops if isinstance(s, SequenceOp)]
        if sequences:
            backup = op.clone()
            try:
                _run(ctx, op, sequences)
            except Exception:
                _restore(op, backup)
                raise
        if self.erase_after:
            erase_transform_ops(op)


def _run(ctx: Context, module: ModuleOp, sequences: list[SequenceOp]) -> None:
    # The interpreter functions of xDSL import every interpreter xDSL has:
    # only when the pass runs (see `linalg_ext.transform_ops.install`).
    from xdsl.interpreter import Interpreter
    from xdsl.interpreters.printf import PrintfFunctions
    from xdsl.interpreters.transform import OperationHandle, TransformFunctions
    from xdsl.transforms import get_all_passes

    from linalg_ext.passes import ALL_PASSES
    from linalg_ext.transform_ops.install import register_functions
    from linalg_ext.transform_ops.sequence_functions import run_sequence

    register_functions()
    interpreter = Interpreter(module)
    passes = {**get_all_passes(), **ALL_PASSES}
    interpreter.register_implementations(TransformFunctions(ctx, passes))
    interpreter.register_implementations(PrintfFunctions())
    for sequence in sequences:
        run_sequence(interpreter, sequence, (OperationHandle(module),))


def _restore(module: ModuleOp, backup: ModuleOp) -> None:
    """Put the ops of `backup` in place of the module's."""
    block = module.body.block
    for old in reversed(list(block.ops)):
        old.detach()
        old.erase(safe_erase=False)
    for kept in list(backup.body.block.ops):
        kept.detach()
        block.add_op(kept)


def erase_transform_ops(module: ModuleOp) -> None:
    """Erase every transform op of the module, outermost first (ByteIR's
    `erase-after`)."""
    found: list[Operation] = []
    for candidate in module.walk():
        if candidate.name.startswith("transform.") and not any(
            outer.is_ancestor(candidate) for outer in found
        ):
            found.append(candidate)
    for transform_op in reversed(found):
        transform_op.detach()
        transform_op.erase(safe_erase=False)
