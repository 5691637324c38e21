"""The pieces of `make test-xdsl-compat` (tests/xdsl_compat/) that run fast.

The check itself (xDSL's own tests in two environments) takes a minute and is
its own make target; here: the xdsl-opt recorder passes everything through
and records it, and the comparison reports status and output differences.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from helpers import REPO

COMPAT_DIR = REPO / "tests" / "xdsl_compat"
sys.path.insert(0, str(COMPAT_DIR))

import run_xdsl_tests  # noqa: E402

XDSL_OPT = str(Path(sys.executable).parent / "xdsl-opt")
PROGRAM = "func.func @f(%a: i32) -> i32 {\n  func.return %a : i32\n}\n"


def record(tmp_path: Path, test: Path, *args: str, stdin: str = "") -> tuple:
    """Run xdsl-opt directly and through the recorder; both results, records."""
    direct = subprocess.run(
        [XDSL_OPT, *args], input=stdin, capture_output=True, text=True
    )
    recorded = subprocess.run(
        [
            sys.executable,
            str(COMPAT_DIR / "record_xdsl_opt.py"),
            *(str(tmp_path / "records"), str(tmp_path), str(test)),
            XDSL_OPT,
            *args,
        ],
        input=stdin,
        capture_output=True,
        text=True,
    )
    files = sorted((tmp_path / "records" / test.name).glob("*.json"))
    return direct, recorded, [json.loads(p.read_text()) for p in files]


def test_recorder_passes_output_through_and_records_it(tmp_path):
    test = tmp_path / "ok.mlir"
    test.write_text(PROGRAM)
    direct, recorded, records = record(tmp_path, test, str(test))
    assert recorded.returncode == direct.returncode == 0
    assert recorded.stdout == direct.stdout and "func.func @f" in recorded.stdout
    [entry] = records
    assert entry["argv"][1] == "<tree>/ok.mlir"
    assert entry["stdout"] == direct.stdout and entry["returncode"] == 0
    assert entry["stdin_sha256"] is None


def test_recorder_keeps_exit_status_and_reads_stdin(tmp_path):
    test = tmp_path / "bad.mlir"
    direct, recorded, records = record(tmp_path, test, stdin="this is not IR\n")
    assert recorded.returncode == direct.returncode != 0
    assert recorded.stdout == direct.stdout
    [entry] = records
    assert entry["returncode"] == direct.returncode
    assert entry["stdin_sha256"] is not None


def result(code: str, *records: str) -> dict:
    return {"code": code, "output": "", "records": list(records)}


def test_compare_reports_status_and_output_differences():
    plain = {
        "same.mlir": result("PASS", "$ xdsl-opt a\nstdout: x"),
        "status.mlir": result("PASS", "$ xdsl-opt b\nstdout: y"),
        "output.mlir": result("PASS", "$ xdsl-opt c\nstdout: z"),
    }
    ours = {
        "same.mlir": result("PASS", "$ xdsl-opt a\nstdout: x"),
        "status.mlir": result("FAIL", "$ xdsl-opt b\nstdout: y"),
        "output.mlir": result("PASS", "$ xdsl-opt c\nstdout: z2"),
    }
    reports = run_xdsl_tests.compare(ours, plain)
    assert [r.split(":")[0] for r in reports] == ["output.mlir", "status.mlir"]
    assert "FAIL with package, PASS plain" in reports[1]
    assert "+stdout: z2" in reports[0] and "-stdout: z" in reports[0]
    assert run_xdsl_tests.compare(plain, plain) == []
