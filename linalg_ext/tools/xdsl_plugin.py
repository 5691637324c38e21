"""The universe the stock `xdsl-opt` and `xdsl-run` discover: ours, plus
one-line errors.

`pyproject.toml` names `XDSL_PLUGIN_UNIVERSE` under the `xdsl.universe`
entry point, so the stock `xdsl-opt` of an environment where the package is
installed parses our dialects and offers our passes under `-p`. Its loaders
are the library's (`linalg_ext.universe`), each wrapped to first give a stock
driver running it our one-line error reports
(`linalg_ext.tools.stock_drivers.install`: cheap, and nothing after the first
call or outside such a driver). The library's universe stays without that
hook: library users and `linalg-ext-opt` report errors their own way.

Every `xdsl-opt` imports this module at start-up, so it costs what
`linalg_ext.universe` costs: the tools' helpers are imported only by a
loader, when the driver first uses one of our dialects or passes.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from xdsl.universe import Universe

from linalg_ext.universe import LINALG_EXT_UNIVERSE

_Loaded = TypeVar("_Loaded")


def _reporting_errors_in_one_line(
    load: Callable[[], _Loaded],
) -> Callable[[], _Loaded]:
    """`load`, after making a stock driver that calls it report its errors
    in one line."""

    def load_from_stock_driver() -> _Loaded:
        from linalg_ext.tools import stock_drivers

        stock_drivers.install()
        return load()

    return load_from_stock_driver


XDSL_PLUGIN_UNIVERSE = Universe(
    all_dialects={
        name: _reporting_errors_in_one_line(load)
        for name, load in LINALG_EXT_UNIVERSE.all_dialects.items()
    },
    all_passes={
        name: _reporting_errors_in_one_line(load)
        for name, load in LINALG_EXT_UNIVERSE.all_passes.items()
    },
)
"""`linalg_ext.universe.LINALG_EXT_UNIVERSE`, with loaders that install the
stock drivers' one-line errors first."""
