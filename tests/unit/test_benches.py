"""The benchmarks run (small and quick) and check their own results."""

from __future__ import annotations

import json
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


def test_threads_bench_runs_and_checks_every_kernel():
    # Small sizes, 1 and 2 threads; the script checks every result against
    # numpy (exit 1 when one is wrong) and prints the speed-up.
    result = subprocess.run(
        [sys.executable, str(REPO / "bench" / "threads_bench.py"), "--quick"]
        + ["--threads", "1,2"],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("machine: ")
    assert "2 thread(s)" in result.stdout
    for kernel in ("matmul 256³", "matmul 256² + bias + relu", "conv 3×3 16×16×32"):
        assert kernel in result.stdout
    assert "matmul 256³: 2 thread(s)" in result.stderr  # progress


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


def test_standing_bench_writes_every_workload_with_a_time_or_a_reason(tmp_path):
    # Small sizes; the script checks every result of ours, IREE and numpy
    # against numpy (exit 1 when one is wrong). Two variants are skipped to
    # keep this fast: their rows must say so.
    numbers, chart = tmp_path / "results.json", tmp_path / "standing.png"
    command = [sys.executable, str(REPO / "bench" / "standing_bench.py"), "--quick"]
    command += ["--skip", "IREE data-tiled", "--skip", "ours fast-math"]
    command += ["--json", str(numbers), "--chart", str(chart)]
    result = subprocess.run(command, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("machine: ")
    assert "1/8 matmul 32³: ours" in result.stderr  # progress
    document = json.loads(numbers.read_text())
    assert document["machine"] == result.stdout.splitlines()[0]
    assert document["quick"] is True
    assert document["peak"]["sgemm_gflops"] > 0 and document["peak"]["copy_gbs"] > 0
    assert {"ours", "upstream", "IREE", "IREE data-tiled", "numpy"} <= set(
        document["systems"]
    )
    keys = [row["key"] for row in document["workloads"]]
    assert keys == [
        "matmul_32",
        "matmul_64",
        "matmul_bias_relu_64",
        "attention_256_unfused",
        "attention_256_flash",
        "softmax_128",
        "add_mul_128",
        "call_overhead",
    ]
    fields = {"seconds", "rate", "unit", "skipped", "compile_seconds", "error"}
    fields.add("heap_peak_bytes")
    for row in document["workloads"]:
        assert row["unit"] in ("GFLOP/s", "GB/s", "")
        assert set(row["results"]) == set(document["systems"])
        for system, cell in row["results"].items():
            assert set(cell) == fields, (row["key"], system)
            assert cell["error"] is None
            # Ran (a time, and a rate where the row has a unit), or says why not.
            if cell["seconds"] is None:
                assert cell["skipped"], (row["key"], system)
            else:
                assert cell["skipped"] is None and cell["seconds"] >= 0
                if row["unit"] and cell["seconds"] > 0:
                    assert cell["rate"] > 0
        for system in ("ours", "numpy"):  # always there
            assert row["results"][system]["seconds"] is not None, row["key"]
        iree = row["results"]["IREE"]
        if row["key"].startswith("matmul"):  # a time, unless IREE is missing
            assert iree["seconds"] is not None or "not installed" in iree["skipped"]
        for system in ("IREE data-tiled", "ours fast-math"):
            if system in row["results"]:
                assert row["results"][system]["skipped"] == "skipped (--skip)"
    # The flash form never holds the whole score matrix (256² f32).
    heap = {
        row["key"]: row["results"]["ours"]["heap_peak_bytes"]
        for row in document["workloads"]
    }
    assert (
        0 < heap["attention_256_flash"] < 256 * 256 * 4 <= heap["attention_256_unfused"]
    )
    # Issue 19's ratios: one per matmul size and per flash row, at least.
    statuses = [(t["key"], t["status"]) for t in document["targets"]]
    assert {status for _, status in statuses} <= {"met", "not yet", "n/a"}
    assert {key for key, _ in statuses} == set(keys) - {
        "attention_256_unfused",
        "add_mul_128",
        "call_overhead",
    }
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        assert not chart.exists() and "matplotlib is not installed" in result.stdout
    else:
        assert chart.read_bytes().startswith(b"\x89PNG")


def _has_onnx_extra() -> bool:
    from linalg_ext.frontends.onnx import extra_missing

    return extra_missing() is None


@pytest.mark.skipif(not _has_onnx_extra(), reason="needs the [onnx] extra")
def test_model_bench_runs_and_checks_against_onnxruntime(tmp_path):
    # Small sizes, two families; the script exits 1 when our result differs
    # from onnxruntime's or fails to compile.
    result = subprocess.run(
        [sys.executable, str(REPO / "bench" / "model_bench.py"), "--size", "small"]
        + ["--families", "mlp,softmax", "--repetitions", "1"]
        + ["--json", str(tmp_path / "models.json")],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("machine: ")
    document = json.loads((tmp_path / "models.json").read_text())
    assert [entry["family"] for entry in document["families"]] == ["mlp", "softmax"]
    for entry in document["families"]:
        for system in ("ORT", "ours", "ours exact", "ours fast"):
            assert entry["results"][system]["error"] is None
            assert entry["results"][system]["seconds"] > 0


@pytest.mark.skipif(not _has_onnx_extra(), reason="needs the [onnx] extra")
def test_model_demo_imports_compiles_and_compares():
    result = subprocess.run(
        [sys.executable, str(REPO / "examples" / "models" / "demo.py")]
        + ["--size", "small", "--repetitions", "2"],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr
    assert "$ linalg-ext-import build/demo/model.onnx -o build/demo/model.mlir" in (
        result.stdout
    )
    assert "max |ours - onnxruntime|" in result.stdout
    assert "ours / onnxruntime" in result.stdout
