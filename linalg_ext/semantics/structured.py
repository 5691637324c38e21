"""Execution of Linalg structured ops (generic and named ops).

Replaces xDSL's functions for them (registered with override=True).
"""

from __future__ import annotations

from xdsl.interpreter import InterpreterFunctions, register_impls


@register_impls
class StructuredOpFunctions(InterpreterFunctions):
    pass
