"""Interpreter functions for the `bufferization` ops.

Registered over xDSL's own (override=True).
"""

from __future__ import annotations

from xdsl.interpreter import InterpreterFunctions, register_impls


@register_impls
class BufferizationOpFunctions(InterpreterFunctions):
    pass
