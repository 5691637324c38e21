"""Interpreter functions for the ops `linalg_ext.compat` adds to xDSL's dialects.

Registered over xDSL's own (override=True).
"""

from __future__ import annotations

from xdsl.interpreter import InterpreterFunctions, register_impls


@register_impls
class CompatOpFunctions(InterpreterFunctions):
    pass
