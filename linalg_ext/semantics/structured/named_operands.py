"""Operands and results of the named ops that numpy computes directly."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from xdsl.interpreter import Interpreter, PythonValues
from xdsl.ir import Operation, SSAValue

from linalg_ext.semantics.arrays import numpy_view, shaped_array
from linalg_ext.semantics.structured.arith_arrays import cast_signed
from linalg_ext.semantics.structured.scalars import (
    Scalar,
    element_type,
    scalar_of_type,
    to_compute,
)


def scalar_of_value(value: SSAValue, interpreter: Interpreter) -> Scalar:
    return scalar_of_type(element_type(value.type), interpreter.index_bitwidth)


def computed_input(
    value: Any, ssa: SSAValue, target: Scalar, interpreter: Interpreter
) -> np.ndarray:
    """An input's elements converted to the output's type (cast_signed)."""
    source = scalar_of_value(ssa, interpreter)
    return cast_signed(to_compute(numpy_view(value), source), source, target)


def write_results(
    op: Operation, outputs: Sequence[Any], values: Sequence[np.ndarray]
) -> PythonValues:
    """Results as new tensors, or written into the memrefs."""
    if op.results:
        return tuple(
            shaped_array(v, element_type(result.type))
            for v, result in zip(values, op.results, strict=True)
        )
    for out, v in zip(outputs, values, strict=True):
        numpy_view(out)[...] = v
    return ()
