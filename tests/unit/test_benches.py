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


def test_native_bench_runs_and_checks_every_kernel():
    # Small sizes; the script checks every compiled result against numpy.
    result = subprocess.run(
        [sys.executable, str(REPO / "bench" / "native_bench.py"), "--quick"],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr
    for kernel in (
        "square+pad unfused",
        "square+pad fused",
        "(a+b)*c two generics",
        "(a+b)*c fused",
        "matmul+relu",
    ):
        assert kernel in result.stdout
    if shutil.which("mlir-opt-22") is None:
        assert "n/a" in result.stdout


def test_pad_fusion_demo_checks_both_versions():
    result = subprocess.run(
        [
            sys.executable,
            str(REPO / "examples" / "pad_fusion_demo.py"),
            "--size",
            "64",
            "--pad",
            "8",
            "--repetitions",
            "2",
        ],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr
    assert "unfused" in result.stdout and "fuse-pad" in result.stdout
    assert "both results equal each other and numpy's" in result.stdout


def test_startup_bench_times_both_files_without_judging_in_quick_mode():
    # --quick never creates the plain venv and never asserts a timing.
    result = subprocess.run(
        [sys.executable, str(REPO / "bench" / "startup_bench.py"), "--quick"],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("machine: ")
    rows = [line.split() for line in result.stdout.splitlines()]
    timed = {row[0] for row in rows if row[1:3] == ["with", "package"]}
    assert timed == {"plain.mlir", "linalg_ext.mlir"}
    if (REPO / ".venv-xdsl" / "bin" / "xdsl-opt").exists():
        assert "not judged (--quick)" in result.stdout
    else:
        assert "no plain xDSL venv" in result.stdout
