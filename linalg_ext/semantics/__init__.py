"""Executable semantics: interpreter functions that give ops their meaning.

`LinalgExtFunctions` runs every `linalg_ext` op as docs/ops/ defines it;
`UpstreamOpFunctions` replaces xDSL's functions for upstream ops it runs
wrongly; `linalg_ext.running` puts them together with xDSL's own.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from linalg_ext.semantics.linalg_ext_ops import LinalgExtFunctions
    from linalg_ext.semantics.upstream_ops import UpstreamOpFunctions

__all__ = ["LinalgExtFunctions", "UpstreamOpFunctions"]

# Imported on first use (PEP 562): a module of this package that needs no
# interpreter (`static_rules`, used by passes) must not pull in numpy and
# every interpreter of xDSL when it is imported.
_LAZY = {
    "LinalgExtFunctions": "linalg_ext.semantics.linalg_ext_ops",
    "UpstreamOpFunctions": "linalg_ext.semantics.upstream_ops",
}


def __getattr__(name: str) -> object:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(import_module(module), name)
