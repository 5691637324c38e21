"""The stock `xdsl-opt`/`xdsl-run`, once they use our dialects or passes,
report errors in one line, never a traceback (`linalg_ext.tools.stock_drivers`,
installed by the loaders of our entry point, `linalg_ext.tools.xdsl_plugin`);
without us they behave as plain xDSL."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

BIN = Path(sys.executable).parent
XDSL_OPT = BIN / "xdsl-opt"
XDSL_RUN = BIN / "xdsl-run"

pytestmark = pytest.mark.skipif(
    not XDSL_OPT.exists() or not XDSL_RUN.exists(),
    reason="the stock xdsl-opt/xdsl-run are not installed next to this Python",
)

ADD = """\
func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.add ins(%a, %a : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}
"""

UNKNOWN_OP = ADD.replace("linalg.add", "linalg.foo")

BMM = 'linalg_ext.batch_matmul ins(%a, %a : {t}, {t}) outs(%c : {t}) layout = "nn"'

EXT_THEN_UNKNOWN = f"""\
func.func @f(%a: tensor<1x2x2xf32>, %c: tensor<1x2x2xf32>) -> tensor<1x2x2xf32> {{
  %r = {BMM.format(t="tensor<1x2x2xf32>")}
  %s = linalg.foo %r : tensor<1x2x2xf32>
  return %s : tensor<1x2x2xf32>
}}
"""

BAD_SHAPES = (
    ADD.replace(
        "%e = tensor.empty() : tensor<4xf32>", "%e = tensor.empty() : tensor<5xf32>"
    )
    .replace(
        "outs(%e : tensor<4xf32>) -> tensor<4xf32>",
        "outs(%e : tensor<5xf32>) -> tensor<5xf32>",
    )
    .replace("return %r", "return %a")
)

RUN_EXT = f"""\
func.func @main() -> index {{
  %a = memref.alloc() : memref<1x2x2xf32>
  %c = memref.alloc() : memref<1x2x2xf32>
  {BMM.format(t="memref<1x2x2xf32>")}
  %i = arith.constant 0 : index
  return %i : index
}}
"""

# A pass of ours with a bug: its patterns raise a KeyError on linalg.add.
BUGGY_PASS = """\
import sys
from linalg_ext.passes.linalg_fold_constants import FoldConstantLinalgOp

def match_and_rewrite(self, op, rewriter):
    if op.name == "linalg.add":
        raise KeyError("boom")

FoldConstantLinalgOp.match_and_rewrite = match_and_rewrite
from xdsl.tools.xdsl_opt import main

sys.argv = ["xdsl-opt", *sys.argv[1:]]
main()
"""


def run(
    tool: Path | list[str], tmp_path: Path, text: str, *args: str, **env: str
) -> tuple[int, list[str]]:
    """Run the tool on `text` (as `in.mlir` in tmp_path): exit code and the
    lines of stderr."""
    (tmp_path / "in.mlir").write_text(text)
    command = [str(tool)] if isinstance(tool, Path) else tool
    environment = {k: v for k, v in os.environ.items() if k != "LINALG_EXT_TRACEBACK"}
    done = subprocess.run(
        [*command, "in.mlir", *args],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
        env={**environment, **env},
    )
    return done.returncode, done.stderr.splitlines()


def test_unknown_op_with_our_pass(tmp_path: Path):
    code, err = run(XDSL_OPT, tmp_path, UNKNOWN_OP, "-p", "linalg-fold-constants-ext")
    assert (code, err) == (
        1,
        ["in.mlir:3:19: error: Operation linalg.foo is not registered"],
    )


def test_unknown_op_after_our_dialect(tmp_path: Path):
    code, err = run(XDSL_OPT, tmp_path, EXT_THEN_UNKNOWN)
    assert (code, err) == (
        1,
        ["in.mlir:3:19: error: Operation linalg.foo is not registered"],
    )


def test_pass_refusal_is_located(tmp_path: Path):
    code, err = run(XDSL_OPT, tmp_path, ADD, "-p", "convert-linalg-to-loops-ext")
    assert code == 1
    assert len(err) == 1
    assert err[0].startswith(
        "in.mlir:3:8: error: convert-linalg-to-loops-ext: 'linalg.add' works on tensors"
    )


def test_verifier_error_is_located(tmp_path: Path):
    code, err = run(XDSL_OPT, tmp_path, BAD_SHAPES, "-p", "linalg-fold-constants-ext")
    assert code == 1
    assert len(err) == 1
    assert err[0].startswith("in.mlir:3:8: error: 'linalg.add' op ")


def test_bad_pass_option(tmp_path: Path):
    code, err = run(
        XDSL_OPT, tmp_path, ADD, "-p", "linalg-fold-constants-ext{max-elements=x}"
    )
    assert (code, err) == (
        1,
        [
            "xdsl-opt: error: pass 'linalg-fold-constants-ext': option "
            "'max-elements' expects an integer, got 'x'"
        ],
    )


def test_bug_in_our_pass_is_an_internal_error(tmp_path: Path):
    (tmp_path / "buggy.py").write_text(BUGGY_PASS)
    command = [sys.executable, "buggy.py"]
    code, err = run(command, tmp_path, ADD, "-p", "linalg-fold-constants-ext")
    assert (code, err) == (
        1,
        [
            "in.mlir:3:8: error: internal error: KeyError: 'boom' "
            "(LINALG_EXT_TRACEBACK=1 shows the traceback)"
        ],
    )
    code, err = run(
        command,
        tmp_path,
        ADD,
        "-p",
        "linalg-fold-constants-ext",
        LINALG_EXT_TRACEBACK="1",
    )
    assert code == 1
    assert err[0] == "Traceback (most recent call last):"
    assert "KeyError: 'boom'" in err


def test_xdsl_run_cannot_interpret_our_op(tmp_path: Path):
    code, err = run(XDSL_RUN, tmp_path, RUN_EXT)
    assert (code, err) == (
        1,
        [
            "xdsl-run: error: Could not find interpretation function for op "
            "linalg_ext.batch_matmul"
        ],
    )


def test_without_us_xdsl_behaves_as_before(tmp_path: Path):
    # No dialect or pass of ours: xDSL's own report, traceback included.
    code, err = run(XDSL_OPT, tmp_path, UNKNOWN_OP, "-p", "canonicalize")
    assert code == 1
    assert err[0] == "Traceback (most recent call last):"
    assert "xdsl.utils.exceptions.ParseError: in.mlir:3:19" in err
    assert err[-1] == "" and err[-2].strip() == "Operation linalg.foo is not registered"
