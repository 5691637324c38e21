"""Executable semantics: interpreter functions that give ops their meaning.

`LinalgExtFunctions` runs every `linalg_ext` op as docs/ops/ defines it;
`UpstreamOpFunctions` replaces xDSL's functions for upstream ops it runs
wrongly; `linalg_ext.running` puts them together with xDSL's own.
"""

from linalg_ext.semantics.linalg_ext_ops import LinalgExtFunctions
from linalg_ext.semantics.upstream_ops import UpstreamOpFunctions

__all__ = ["LinalgExtFunctions", "UpstreamOpFunctions"]
