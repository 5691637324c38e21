"""Upstream's verifier rules for `linalg.yield`, `linalg.fill` and the result
types of Linalg's destination-style ops, with MLIR 22's messages.

What xDSL 0.74 lets through and `mlir-opt-22` rejects:

- a `linalg.yield` whose number of values differs from the number of inits
  of the enclosing op, or whose value types differ from the inits' element
  types (`linalg.generic`, `map`, `reduce`, ...);
- a `linalg.fill` whose value type differs from the output's element type
  (MLIR 22 no longer casts);
- a destination-style op whose results are not one per tensor init, each of
  the init's type (`linalg.generic ... outs(%t : tensor<4xf32>) ->
  tensor<4xf16>`).

`install_linalg_checks()` puts the result rule in front of every Linalg op's
own verifier, as MLIR checks its interfaces before the op.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import linalg
from xdsl.dialects.builtin import MemRefType, TensorType
from xdsl.dialects.linalg.ops import FillOp, IndexOp, YieldOp
from xdsl.ir import Attribute, Operation, SSAValue

from linalg_ext.compat.checks import verify_destination_results
from linalg_ext.compat.slice_checks import chain_verifier
from linalg_ext.verification import op_error


def _quoted(value: object) -> str:
    return f"'{value}'"


def _outputs(op: Operation) -> Sequence[SSAValue] | None:
    """The inits of a Linalg op (xDSL's structured ops and ours all answer
    `outputs`), or None for any other op."""
    if not op.name.startswith("linalg."):
        return None
    outputs = getattr(op, "outputs", None)
    if outputs is None:
        return None
    return tuple(outputs)


_WRITTEN_BODIES = frozenset({"linalg.generic", "linalg.map", "linalg.reduce"})
"""The Linalg ops whose body is part of their syntax."""


def _element_type(type_: Attribute) -> Attribute:
    if isinstance(type_, MemRefType | TensorType):
        return type_.get_element_type()
    return type_


def verify_linalg_yield(op: YieldOp) -> None:
    """MLIR's `linalg.yield` verifier, in the bodies written in the IR. The
    named ops' bodies are xDSL's (built without MLIR's casts, so a
    `linalg.copy` from i8 to i32 yields an i8) and are not judged; a
    `linalg.fill`'s value is checked by the fill."""
    parent = op.parent_op()
    if parent is None or parent.name not in _WRITTEN_BODIES:
        return
    outputs = _outputs(parent)
    if outputs is None:
        return
    if len(op.operands) != len(outputs):
        op_error(
            op,
            f"expected number of yield values ({len(op.operands)}) to match the "
            "number of inits / outs operands of the enclosing LinalgOp "
            f"({len(outputs)})",
        )
    for index, (value, output) in enumerate(zip(op.operands, outputs, strict=True)):
        expected = _element_type(output.type)
        if value.type != expected:
            op_error(
                op,
                f"type of yield operand {index + 1} ({_quoted(value.type)}) doesn't "
                "match the element type of the enclosing linalg.generic op "
                f"({_quoted(expected)})",
            )


def verify_fill_value(op: FillOp) -> None:
    if len(op.inputs) != 1 or len(op.outputs) != 1:
        return
    value = op.inputs[0].type
    expected = _element_type(op.outputs[0].type)
    if value != expected:
        op_error(
            op,
            f"expected fill value type ({_quoted(value)}) to match output element "
            f"type ({_quoted(expected)})",
        )


def verify_linalg_results(op: Operation) -> None:
    outputs = _outputs(op)
    if outputs is not None:
        verify_destination_results(op, outputs, op.results)


def install_linalg_checks() -> None:
    chain_verifier(YieldOp, verify_linalg_yield)
    chain_verifier(FillOp, verify_fill_value)
    for op in linalg.Linalg.operations:
        if op is YieldOp or op is IndexOp:
            continue
        chain_verifier(op, verify_linalg_results, first=True)
