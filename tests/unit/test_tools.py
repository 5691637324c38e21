"""linalg-ext-run and linalg-ext-check: results, options and one-line errors."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from helpers import REPO, parse_module
from linalg_ext.passes.test_perturb_constants import PerturbConstantsPass
from linalg_ext.tools import check, run

DEMO = str(REPO / "examples" / "demo.mlir")

PROGRAM = """
func.func @scale(%x: tensor<?x3xf32>, %s: f32) -> tensor<?x3xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x3xf32>
  %init = tensor.empty(%n) : tensor<?x3xf32>
  %two = arith.constant 2.0 : f32
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<?x3xf32>) outs(%init : tensor<?x3xf32>) {
  ^bb0(%v: f32, %o: f32):
    %a = arith.mulf %v, %s : f32
    %b = arith.mulf %a, %two : f32
    linalg.yield %b : f32
  } -> tensor<?x3xf32>
  return %r : tensor<?x3xf32>
}
func.func @fill(%out: memref<2x2xi32>, %v: i32) {
  linalg.fill ins(%v : i32) outs(%out : memref<2x2xi32>)
  return
}
func.func private @external(i32) -> i32
func.func @unsupported(%a: i32) -> i32 {
  %r = func.call @external(%a) : (i32) -> i32
  return %r : i32
}
"""


@pytest.fixture
def program(tmp_path):
    path = tmp_path / "program.mlir"
    path.write_text(PROGRAM)
    return str(path)


def expect_error(capsys, code: int, fragment: str):
    out, err = capsys.readouterr()
    assert code == 1, out + err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(
        ("linalg-ext-run: error:", "linalg-ext-check: error:")
    ), err
    assert fragment in lines[0], lines[0]


# --------------------------------------------------------------------------
# linalg-ext-run
# --------------------------------------------------------------------------


def test_run_random_inputs_and_save(tmp_path, capsys):
    code = run.main([DEMO, "--seed", "3", "--save-dir", str(tmp_path / "out")])
    out = capsys.readouterr().out
    assert code == 0
    assert "@attention_block: 3 result(s)" in out
    assert "result #0: tensor<2x8x16xf32>, shape (2, 8, 16), dtype float32" in out
    assert "result #2: tensor<2x8x2xi32>, shape (2, 8, 2), dtype int32" in out
    saved = [np.load(tmp_path / "out" / f"result{i}.npy") for i in range(3)]
    # The same seed gives the same inputs, hence the same results.
    code = run.main([DEMO, "--seed", "3", "--save-dir", str(tmp_path / "again")])
    assert code == 0
    for i in range(3):
        np.testing.assert_array_equal(
            np.load(tmp_path / "again" / f"result{i}.npy"), saved[i]
        )


def test_run_with_inputs_and_dynamic_shapes(program, tmp_path, capsys):
    x = np.arange(15, dtype=np.float32).reshape(5, 3)
    np.save(tmp_path / "x.npy", x)
    np.save(tmp_path / "s.npy", np.float32(0.5))
    code = run.main(
        [
            program,
            "--entry",
            "scale",
            "--inputs",
            str(tmp_path / "x.npy"),
            str(tmp_path / "s.npy"),
            "--save-dir",
            str(tmp_path),
        ]
    )
    assert code == 0
    np.testing.assert_array_equal(np.load(tmp_path / "result0.npy"), x)  # x * 0.5 * 2
    out = capsys.readouterr().out
    assert "result #0: tensor<?x3xf32>, shape (5, 3), dtype float32" in out


def test_run_dim_size_and_memref_arguments(program, tmp_path, capsys):
    assert run.main([program, "--entry", "scale", "--dim-size", "7"]) == 0
    assert "shape (7, 3)" in capsys.readouterr().out
    assert run.main([program, "--entry", "fill", "--save-dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert (
        "argument #0 after the call: memref<2x2xi32>, shape (2, 2), dtype int32" in out
    )
    filled = np.load(tmp_path / "argument0.npy")
    assert (filled == filled[0, 0]).all()


@pytest.mark.parametrize(
    ("argv", "fragment"),
    [
        (["missing.mlir"], "cannot read missing.mlir"),
        (["{program}", "--entry", "nope"], "no function @nope in the module"),
        (["{program}"], "give --entry: the module defines @scale, @fill, @unsupported"),
        (
            ["{program}", "--entry", "scale", "--inputs", "{x}"],
            "@scale takes 2 arguments, --inputs gives 1",
        ),
        (
            ["{program}", "--entry", "fill", "--inputs", "{x}", "{x}"],
            "argument #0 of @fill has shape [5, 3], which does not fit memref<2x2xi32>",
        ),
        (["{program}", "--entry", "unsupported"], "cannot run @unsupported"),
        (
            ["{program}", "--entry", "scale", "--dim-size", "0"],
            "--dim-size must be at least 1",
        ),
        (["{bad}"], "bad.mlir:2:"),
        (["{invalid}"], "invalid IR: 'linalg_ext.diag' op expected output shape"),
    ],
)
def test_run_errors_are_one_line(argv, fragment, program, tmp_path, capsys):
    np.save(tmp_path / "x.npy", np.zeros((5, 3), np.float32))
    (tmp_path / "bad.mlir").write_text(
        "func.func @f() {\n  %x = arith.constant : f32\n}\n"
    )
    (tmp_path / "invalid.mlir").write_text(
        "func.func @f(%v: tensor<4xf32>, %o: tensor<4x5xf32>) {\n"
        "  %d = linalg_ext.diag ins(%v : tensor<4xf32>) outs(%o : tensor<4x5xf32>) : tensor<4x5xf32>\n"
        "  return\n}\n"
    )
    names = {
        "program": program,
        "x": str(tmp_path / "x.npy"),
        "bad": str(tmp_path / "bad.mlir"),
        "invalid": str(tmp_path / "invalid.mlir"),
    }
    expect_error(capsys, run.main([a.format(**names) for a in argv]), fragment)


def test_run_out_of_range_scatter_index_is_reported(tmp_path, capsys):
    source = tmp_path / "scatter.mlir"
    source.write_text(
        """
        func.func @f(%src: tensor<4xf32>, %idx: tensor<2x1xi32>, %upd: tensor<2xf32>) -> tensor<4xf32> {
          %r = linalg_ext.scatter ins(%idx, %upd : tensor<2x1xi32>, tensor<2xf32>) outs(%src : tensor<4xf32>) {
          ^bb0(%a: f32, %b: f32):
            linalg_ext.yield %b : f32
          } -> tensor<4xf32>
          return %r : tensor<4xf32>
        }
        """
    )
    for name, value in (
        ("src", np.zeros(4, np.float32)),
        ("idx", np.array([[1], [9]], np.int32)),
        ("upd", np.ones(2, np.float32)),
    ):
        np.save(tmp_path / f"{name}.npy", value)
    code = run.main(
        [
            str(source),
            "--inputs",
            *(str(tmp_path / f"{n}.npy") for n in ("src", "idx", "upd")),
        ]
    )
    expect_error(capsys, code, "index [9] at batch position [1] is out of bounds")


# --------------------------------------------------------------------------
# linalg-ext-check
# --------------------------------------------------------------------------


def test_check_accepts_a_correct_pipeline(capsys):
    code = check.main([DEMO, "-p", "canonicalize,cse", "--trials", "2"])
    out = capsys.readouterr().out
    assert code == 0
    assert out.strip() == "@attention_block: OK (2 trials)"


def test_check_catches_a_wrong_pass(capsys):
    code = check.main([DEMO, "-p", "test-perturb-constants"])
    out = capsys.readouterr().out
    assert code == check.EXIT_MISMATCH
    assert out.startswith("@attention_block: MISMATCH in result #")
    assert "before" in out and "after" in out and "(trial 0)" in out


def test_check_compares_memref_arguments(program, capsys):
    code = check.main(
        [program, "-p", "test-perturb-constants{delta=3}", "--entry", "fill"]
    )
    assert code == 0  # fill's value is an argument, not a constant
    code = check.main([program, "-p", "test-perturb-constants", "--entry", "scale"])
    assert code == check.EXIT_MISMATCH
    assert "@scale: MISMATCH in result #0" in capsys.readouterr().out


def test_check_reports_functions_it_cannot_run(program, capsys):
    code = check.main([program, "-p", "cse"])
    out = capsys.readouterr().out
    assert code == 1
    assert "@scale: OK (3 trials)" in out and "@fill: OK (3 trials)" in out
    assert "@unsupported: ERROR cannot run before the pipeline" in out


def test_check_bad_pipeline_is_one_line(capsys):
    expect_error(
        capsys, check.main([DEMO, "-p", "no-such-pass"]), "bad pipeline 'no-such-pass'"
    )


def test_check_as_a_library():
    module = parse_module(PROGRAM)
    assert check.check_module(module, "canonicalize", entry="scale").ok
    report = check.check_module(
        module, [PerturbConstantsPass()], entry="scale", trials=1
    )
    assert not report.ok
    assert report.verdicts[0].mismatch.startswith("in result #0")


def test_console_scripts_are_installed(program):
    bin_dir = Path(sys.executable).parent
    result = subprocess.run(
        [str(bin_dir / "linalg-ext-run"), program, "--entry", "nope"],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 1
    assert (
        result.stderr.strip()
        == "linalg-ext-run: error: no function @nope in the module"
    )
    result = subprocess.run(
        [str(bin_dir / "linalg-ext-check"), program, "-p", "dce", "--entry", "scale"],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "@scale: OK (3 trials)"
