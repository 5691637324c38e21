"""Interpreter functions for upstream ops that xDSL 0.74 runs wrongly or not
at all. They are registered over xDSL's own (`override=True`).

- `linalg.fill`: xDSL's accepts only a destination already full of zeros and
  writes a tensor destination in place, changing a value other ops may still
  read. Ours fills a new tensor (or the memref in place) with any scalar.
"""

from __future__ import annotations

from xdsl.dialects.linalg import ops as linalg
from xdsl.interpreter import (
    Interpreter,
    InterpreterFunctions,
    PythonValues,
    impl,
    register_impls,
)

from linalg_ext.semantics.arrays import numpy_view


@register_impls
class UpstreamOpFunctions(InterpreterFunctions):
    @impl(linalg.FillOp)
    def run_fill(
        self, interpreter: Interpreter, op: linalg.FillOp, args: PythonValues
    ) -> PythonValues:
        value, destination = args
        if op.results:
            destination = destination.copy()
        numpy_view(destination)[...] = value
        return (destination,) if op.results else ()
