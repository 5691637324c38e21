"""What a caller needs to know about a function it calls.

A `Summary` says which results the caller owns, which may be arguments, and
which arguments the callee may free; `CallSummaries` is how the analysis of
one function asks for the summaries of its callees.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from xdsl.dialects import func
from xdsl.ir import Operation


@dataclass
class Summary:
    """What a caller needs to know about a function."""

    owned_results: set[int] = field(default_factory=set[int])
    """Results the caller owns: each a fresh buffer, returned once, whole."""
    result_arguments: dict[int, set[int]] = field(default_factory=dict[int, set[int]])
    """Per result, the arguments it may be (or be a view of)."""
    whole_arguments: dict[int, int] = field(default_factory=dict[int, int])
    """Results that are always all of one argument (it, or a whole view)."""
    opaque_results: set[int] = field(default_factory=set[int])
    """Results that may be something the caller knows nothing about."""
    may_free: set[int] = field(default_factory=set[int])
    """Arguments the function may free."""
    unknown: str = ""
    """Why nothing is known about the function, if nothing is: then every
    result is opaque and every argument may be freed."""


def unknown_summary(function: func.FuncOp | None, why: str) -> Summary:
    """Nothing known about `function` (None: not even its type), for `why`."""
    outputs = function.function_type.outputs.data if function is not None else ()
    return Summary(opaque_results=set(range(len(outputs))), unknown=why)


class CallSummaries(Protocol):
    """What the analysis of a function asks about the functions it calls
    (`summaries.Summaries` answers, analysing each callee on demand)."""

    def of_call(self, op: func.CallOp) -> Summary:
        """The summary of the callee of `op`."""
        ...

    def frees(self, op: Operation, index: int) -> str | None:
        """Whether `op` may free its operand #index: None if not, "" if it
        does, else why it may."""
        ...
