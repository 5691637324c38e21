"""What this package adds to xDSL's universe of dialects and passes.

`pyproject.toml` names `LINALG_EXT_UNIVERSE` under the `xdsl.universe` entry
point, so the stock `xdsl-opt` of an environment where the package is
installed parses `linalg_ext` ops and offers our passes under `-p`. Loading is
lazy: nothing here is imported until xDSL asks for that dialect or pass.
"""

from __future__ import annotations

from xdsl.ir import Dialect
from xdsl.universe import Universe

from linalg_ext import compat
from linalg_ext.compat import pass_names  # noqa: F401 (compat.pass_names)
from linalg_ext.passes import ALL_PASSES

# xdsl-opt loads this module before it parses anything: the right moment to
# add to xDSL's dialects what they lack.
compat.install()
# Our passes that carry the name of a narrower xDSL pass replace it.
compat.pass_names.withdraw_xdsl_passes(ALL_PASSES)


def _linalg_ext_dialect() -> Dialect:
    from linalg_ext.dialect import LinalgExt

    return LinalgExt


def _index_dialect() -> Dialect:
    # xDSL 0.74 has no `index` dialect: ours, with upstream's names and syntax.
    from linalg_ext.compat.index_ops import Index

    return Index


ALL_DIALECTS = {"index": _index_dialect, "linalg_ext": _linalg_ext_dialect}
"""Dialect name -> loader, for every dialect this package defines."""

LINALG_EXT_UNIVERSE = Universe(all_dialects=ALL_DIALECTS, all_passes=ALL_PASSES)
