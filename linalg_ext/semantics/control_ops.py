"""Interpreter functions for `scf` and `affine` ops that xDSL lacks or runs
wrongly.

Registered over xDSL's own (override=True).
"""

from __future__ import annotations

from xdsl.interpreter import InterpreterFunctions, register_impls


@register_impls
class ControlOpFunctions(InterpreterFunctions):
    pass
