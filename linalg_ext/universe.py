"""What this package adds to xDSL's universe of dialects and passes.

`LINALG_EXT_UNIVERSE` (and `ALL_DIALECTS`, which `make_context` and
`linalg-ext-opt` register) is the library's: our dialects and passes, loaded
on first use. The stock `xdsl-opt` discovers it through the `xdsl.universe`
entry point, which names `linalg_ext.tools.xdsl_plugin`: the same loaders,
each first giving the stock `xdsl-opt`/`xdsl-run` that calls it one-line
error reports (`linalg_ext.tools.stock_drivers`, a driver concern kept out
of the library).

Installing the package changes nothing for those who do not use it: this
module imports no dialect and patches nothing, so `xdsl-opt` starts as fast as
without us and treats IR that uses neither our dialects nor our passes exactly
as plain xDSL does. Our fixes to xDSL (`linalg_ext.compat`) are applied when
`xdsl-opt` first loads the `linalg_ext` dialect or one of our passes.
"""

from __future__ import annotations

import sys
from collections.abc import Callable

from xdsl.context import Context
from xdsl.ir import Dialect
from xdsl.passes import ModulePass
from xdsl.universe import Universe

from linalg_ext.passes import ALL_PASSES

# The stock xdsl-opt's context is 2 frames up for a dialect and 4 for a pass
# when loaded through linalg_ext.tools.xdsl_plugin (whose wrapper adds one);
# a few more allow for xDSL adding a frame.
_CALLER_FRAMES_SEARCHED = 10


def _calling_context() -> Context | None:
    """The `Context` whose lazy loading called one of our loaders, if any.

    xDSL hands a universe loader no context (gap in xDSL 0.74: loaders are
    plain functions). `Context.load_registered_dialect` (dialects) and
    `xDSLOptMain` (passes, through `self.ctx`) are a few frames up; finding
    them lets `compat.install` give that context the ops it added to dialects
    the context loaded before ours (a `linalg.` op seen before the first
    `linalg_ext.` op)."""
    frame = sys._getframe(2)  # pyright: ignore[reportPrivateUsage]
    for _ in range(_CALLER_FRAMES_SEARCHED):
        if frame is None:
            return None
        owner = frame.f_locals.get("self")
        if isinstance(owner, Context):
            return owner
        ctx = getattr(owner, "ctx", None)
        if isinstance(ctx, Context):
            return ctx
        frame = frame.f_back
    return None


def _activate_compat() -> None:
    """Apply our fixes and install our transform ops (the context that
    loads us, if found, gets them)."""
    from linalg_ext import compat

    ctx = _calling_context()
    # The fixes to `llvm`, `vector` and `transform` when they are used.
    compat.install_on_use(ctx)
    # Our transform ops and their implementations for xDSL's
    # `transform-interpreter` (`linalg_ext.transform_ops.install`), when the
    # context loads `transform`.
    from linalg_ext.transform_ops.install import install_on_load

    install_on_load(ctx)


def _linalg_ext_dialect() -> Dialect:
    _activate_compat()
    from linalg_ext.dialect import LinalgExt

    return LinalgExt


def _ccl_dialect() -> Dialect:
    # ByteIR's `ccl.all_reduce`: needs none of the fixes to xDSL's dialects.
    from linalg_ext.dialect.ccl import Ccl

    return Ccl


def _index_dialect() -> Dialect:
    # xDSL 0.74 has no `index` dialect: ours, with upstream's names and syntax.
    # Self-contained: loading it needs none of the fixes to xDSL's dialects.
    from linalg_ext.compat.index_ops import Index

    return Index


def _activating(load_pass: Callable[[], type[ModulePass]]):
    def load() -> type[ModulePass]:
        _activate_compat()
        return load_pass()

    return load


def _runtime_check_dialect() -> Dialect:
    # `rtcheck.assert`, the run-time checks of compiled code: needs no fixes.
    from linalg_ext.dialect.runtime_check import RtCheck

    return RtCheck


def _shape_dialect() -> Dialect:
    # xDSL 0.74 has no `shape` dialect: the ops upstream's Linalg tests use.
    from linalg_ext.compat.shape_dialect import Shape

    return Shape


ALL_DIALECTS: dict[str, Callable[[], Dialect]] = {
    "ccl": _ccl_dialect,
    "index": _index_dialect,
    "linalg_ext": _linalg_ext_dialect,
    "rtcheck": _runtime_check_dialect,
    "shape": _shape_dialect,
}
"""Dialect name -> loader, for every dialect this package defines."""

LINALG_EXT_UNIVERSE = Universe(
    all_dialects=ALL_DIALECTS,
    all_passes={name: _activating(load) for name, load in ALL_PASSES.items()},
)
