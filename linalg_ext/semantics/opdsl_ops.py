"""Interpreter functions of the OpDSL ops `linalg_ext.compat.linalg_opdsl`
adds (depthwise convolutions, 1-D and 3-D convolutions and poolings,
`matvec`, `dot`, ...) and of the elementwise `linalg.round`, `erf` and
`div_unsigned` (`linalg_ext.compat.linalg_ops`).

Each runs by its indexing maps and its hidden body (`run_structured_op`),
which is upstream's body: the whole iteration space at once with numpy when
the body allows it, point by point otherwise (docs/interpreter.md).
"""

from __future__ import annotations

from xdsl.dialects.linalg.abstract_ops import NamedOperation
from xdsl.interpreter import (
    Interpreter,
    InterpreterFunctions,
    PythonValues,
    impl,
    register_impls,
)

from linalg_ext.compat.linalg_fill_rng import FillRng2DOp
from linalg_ext.compat.linalg_opdsl import OPDSL_OPS
from linalg_ext.compat.linalg_ops import DivUnsignedOp, ErfOp, RoundOp
from linalg_ext.semantics.structured.execution import run_structured_op

_BY_BODY: tuple[type[NamedOperation], ...] = (
    *OPDSL_OPS,
    FillRng2DOp,
    RoundOp,
    ErfOp,
    DivUnsignedOp,
)
"""The ops run by their maps and hidden body."""


def _structured_impl(op_type: type[NamedOperation]):
    @impl(op_type)
    def run(
        self: InterpreterFunctions,
        interpreter: Interpreter,
        op: NamedOperation,
        args: PythonValues,
    ) -> PythonValues:
        return run_structured_op(interpreter, op, args)

    return run


_OpDslBase = type(
    "_OpDslBase",
    (InterpreterFunctions,),
    {f"run_{t.name[7:]}": _structured_impl(t) for t in _BY_BODY},
)
"""One implementation per op of `_BY_BODY` (registered through the subclass
below), so the table stays the only list of them."""


@register_impls
class OpDslFunctions(_OpDslBase):
    """Runs every op of `_BY_BODY`."""
