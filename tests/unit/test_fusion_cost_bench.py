"""The fusion cost bench runs (small and quick) and checks itself: every
variant of every workload computes numpy's values, and the table has a row
for each."""

from __future__ import annotations

import re
import subprocess
import sys

from helpers import REPO


def test_fusion_cost_bench_runs_and_prints_every_variant():
    result = subprocess.run(
        [sys.executable, str(REPO / "bench" / "fusion_cost_bench.py"), "--quick"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert out.startswith("machine: ")
    # workload, variant, generics, ms, ratio; softmax has all three variants
    # (5 generics unfused, 4 fused: exp stays out of the sum, 3 with
    # math-into-reduction), the sum of squares two (the option changes
    # nothing there).
    number = r"\s+\d+\.\d+\s+\d+\.\d+x$"
    for workload, variant, generics in (
        ("softmax 16x64", "unfused", 5),
        ("softmax 16x64", "fused", 4),
        ("softmax 16x64", "fused, math-into-reduction", 3),
        ("sum of squares 16x64", "unfused", 3),
        ("sum of squares 16x64", "fused", 1),
    ):
        row = rf"^{re.escape(workload)}\s+{re.escape(variant)}\s+{generics}{number}"
        assert re.search(row, out, re.MULTILINE), out
    assert "sum of squares 16x64  fused, math" not in out
