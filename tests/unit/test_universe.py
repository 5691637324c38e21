"""The package plugs into the stock xdsl-opt through the xdsl.universe entry point."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from xdsl.universe import Universe

from linalg_ext.dialect import LinalgExt
from linalg_ext.passes import ALL_PASSES
from linalg_ext.universe import LINALG_EXT_UNIVERSE


def test_entry_point_is_discovered():
    multiverse = Universe.get_multiverse()
    assert "linalg_ext" in multiverse.all_dialects
    assert multiverse.all_dialects["linalg_ext"]() is LinalgExt
    for name in ALL_PASSES:
        assert name in multiverse.all_passes


def test_universe_lists_our_dialect_and_passes():
    # `index`: upstream's dialect, which xDSL 0.74 lacks (compat/index_ops.py).
    assert set(LINALG_EXT_UNIVERSE.all_dialects) == {"index", "linalg_ext"}
    assert LINALG_EXT_UNIVERSE.all_passes is ALL_PASSES


def _xdsl_opt() -> str:
    # The xdsl-opt of this interpreter's environment, where the package is installed.
    candidate = Path(sys.executable).parent / "xdsl-opt"
    return str(candidate) if candidate.exists() else shutil.which("xdsl-opt")


def test_stock_xdsl_opt_parses_and_reprints(tmp_path):
    program = tmp_path / "p.mlir"
    program.write_text(
        """
        func.func @f(%v: tensor<6xf32>, %o: tensor<6x6xf32>) -> tensor<6x6xf32> {
          %d = linalg_ext.diag ins(%v : tensor<6xf32>) outs(%o : tensor<6x6xf32>) : tensor<6x6xf32>
          return %d : tensor<6x6xf32>
        }
        """
    )
    env = {**os.environ, "PYTHONWARNINGS": "ignore"}
    first = subprocess.run(
        [_xdsl_opt(), str(program)], capture_output=True, text=True, env=env, check=True
    ).stdout
    assert (
        "%d = linalg_ext.diag ins(%v : tensor<6xf32>) outs(%o : tensor<6x6xf32>) "
        ": tensor<6x6xf32>" in first
    )
    second = subprocess.run(
        [_xdsl_opt()], input=first, capture_output=True, text=True, env=env, check=True
    ).stdout
    assert second == first
