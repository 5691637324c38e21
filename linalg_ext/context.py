"""One way to build an xDSL `Context` that knows every dialect we work with.

Tools and tests use this instead of assembling their own dialect lists, so
that what parses in a test is what parses for `xdsl-opt` and our tools.
"""

from __future__ import annotations

from xdsl.context import Context
from xdsl.dialects import get_all_dialects

from linalg_ext import compat
from linalg_ext.transform_ops.install import install_on_load
from linalg_ext.universe import ALL_DIALECTS


def make_context(*, allow_unregistered: bool = False) -> Context:
    """xDSL's dialects (with `linalg_ext.compat` applied, and our transform
    ops and their interpreter functions installed when it loads `transform`)
    plus this package's, registered lazily, as xdsl-opt does."""
    compat.install()
    ctx = Context(allow_unregistered=allow_unregistered)
    for name, loader in {**get_all_dialects(), **ALL_DIALECTS}.items():
        ctx.register_dialect(name, loader)
    install_on_load(ctx)
    return ctx
