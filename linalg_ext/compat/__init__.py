"""Compatibility with upstream MLIR where xDSL 0.74 falls short.

The one place that adds to or corrects xDSL's own dialects (ops it cannot
parse, printing it gets wrong). `install()` applies everything, once; the
package's universe and `linalg_ext.context.make_context` call it.
"""

from __future__ import annotations

_installed = False


def install() -> None:
    """Apply every compatibility fix to xDSL's dialects (idempotent)."""
    global _installed
    if _installed:
        return
    _installed = True
