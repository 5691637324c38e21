"""The benchmarks run (small and quick) and check their own results."""

from __future__ import annotations

import shutil
import subprocess
import sys

import pytest

from helpers import REPO


@pytest.mark.skipif(shutil.which("mlir-opt-22") is None, reason="needs mlir-opt-22")
def test_fuse_pad_bench_runs_and_checks_every_version():
    result = subprocess.run(
        [sys.executable, str(REPO / "bench" / "fuse_pad_bench.py"), "--quick"],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr
    for version in ("unfused", "upstream", "fuse-pad", "fuse-pad{fill=border}"):
        assert version in result.stdout
