"""The fuse_ext bench runs (small and quick) and checks itself: one tile per
op on residual blocks, and attention compiled natively, where the flash form
computes the same values as numpy without holding a whole score matrix."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys

from helpers import REPO

SEQ, HEAD = 128, 16


def test_fuse_ext_bench_runs_and_checks_both_sections():
    result = subprocess.run(
        [
            sys.executable,
            str(REPO / "bench" / "fuse_ext_bench.py"),
            "--quick",
            "--upstream-limit",
            "1",
            "--seq",
            str(SEQ),
            "--head",
            str(HEAD),
            "--flash-tiles",
            "16,0,32",
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    out = result.stdout
    assert out.startswith("machine: ")
    for n in (16, 32, 64):
        # N, reps, fuse_ext ms, us/op, e2e wall, e2e cpu, then 2N twice:
        # after fuse_ext and in linalg-ext-opt's output.
        row = (
            rf"^\s*{n}\s+\d+\s+[\d.]+\s+[\d.]+\s+[\d.]+\s+[\d.]+\s+{2 * n}\s+{2 * n}\s"
        )
        assert re.search(row, out, re.MULTILINE), out
    if shutil.which("mlir-opt-22") is None:
        assert "mlir-opt-22 is not installed; not run" in out
    else:
        # Upstream copies the first blocks' ops: 9 linalg ops for 2 blocks.
        assert re.search(r"^\s*2\s+[\d.]+\s+[\d.]+\s+9\s", out, re.MULTILINE), out
        assert re.search(r"^stopped: over 1 s at N=\d+$", out, re.MULTILINE), out
    for variant in ("unfused", "flash", "numpy"):
        assert re.search(rf"^{variant}\s+[\d.]+\s+[\d.]+\s", out, re.MULTILINE), out
    assert f"the {SEQ}x{SEQ} score matrix is never allocated whole" in out
