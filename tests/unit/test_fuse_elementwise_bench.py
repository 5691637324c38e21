"""The fuse-elementwise scaling bench runs (small and quick) and checks itself."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from helpers import REPO
from linalg_ext.passes import ALL_PASSES

PASS = "linalg-fuse-elementwise-ext"
QUICK_SIZES = (10, 100, 300)


@pytest.mark.skipif(PASS not in ALL_PASSES, reason=f"{PASS} is not registered yet")
def test_fuse_elementwise_bench_runs_and_prints_every_size():
    result = subprocess.run(
        [sys.executable, str(REPO / "bench" / "fuse_elementwise_bench.py"), "--quick"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert "checked at N=10: ours fuses to 1 linalg.generic" in result.stdout
    assert "@chain: OK" in result.stdout
    for n in QUICK_SIZES:
        # N, repetitions, then upstream (a time or "-" without mlir-opt-22),
        # ours end to end, ours pass only.
        row = rf"^\s*{n}\s+1\s+(\d+\.\d+|-)\s+\d+\.\d+\s+\d+\.\d+\s"
        assert re.search(row, result.stdout, re.MULTILINE), result.stdout
    assert "growth, ours pass only" in result.stdout
