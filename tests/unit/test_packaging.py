"""`pip install .` into a clean virtual environment gives a working package.

This is what a user does: a fresh venv, the distribution installed (not
editable), then the dialect loaded into a Context from a three-line script,
and the stock xdsl-opt of that venv finding our dialect by itself.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

from helpers import REPO

SOFTMAX = """
func.func @f(%x: tensor<4x3xf32>, %o: tensor<4x3xf32>, %m: tensor<3xf32>) -> tensor<4x3xf32> {
  %r:4 = linalg_ext.softmax dimension(0) ins(%x : tensor<4x3xf32>) outs(%o, %m, %m, %m : tensor<4x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) : tensor<4x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>
  func.return %r#0 : tensor<4x3xf32>
}
"""

THREE_LINE_SCRIPT = """\
from xdsl.context import Context; from xdsl.parser import Parser; from xdsl.dialects.func import Func; from linalg_ext.dialect import LinalgExt
ctx = Context(); ctx.load_dialect(Func); ctx.load_dialect(LinalgExt)
module = Parser(ctx, open("softmax.mlir").read()).parse_module(); module.verify(); print(module)
"""


def _copy_distribution_sources(destination: Path) -> None:
    # Build from a copy so the build leaves nothing in the working tree.
    for name in ("pyproject.toml", "setup.py", "README.md"):
        shutil.copy(REPO / name, destination / name)
    for package in ("linalg_ext", "passes"):
        shutil.copytree(
            REPO / package,
            destination / package,
            ignore=shutil.ignore_patterns("__pycache__"),
        )


def test_pip_install_into_clean_venv(tmp_path):
    source = tmp_path / "source"
    source.mkdir()
    _copy_distribution_sources(source)
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    python = venv / "bin" / "python"
    install = subprocess.run(
        [str(python), "-m", "pip", "install", "--quiet", str(source)],
        capture_output=True,
        text=True,
    )
    assert install.returncode == 0, install.stderr

    (tmp_path / "softmax.mlir").write_text(SOFTMAX)
    (tmp_path / "script.py").write_text(THREE_LINE_SCRIPT)
    run = subprocess.run(
        [str(python), "-W", "ignore", "script.py"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
    )
    assert run.returncode == 0, run.stderr
    assert "linalg_ext.softmax dimension(0) ins(%x : tensor<4x3xf32>)" in run.stdout

    opt = subprocess.run(
        [str(python), "-W", "ignore", str(venv / "bin" / "xdsl-opt"), "softmax.mlir"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
    )
    assert opt.returncode == 0, opt.stderr
    assert "linalg_ext.softmax dimension(0)" in opt.stdout
    # The command-line tools come with the distribution, and run.
    (tmp_path / "twice.mlir").write_text(
        "func.func @twice(%x: tensor<3xi32>) -> tensor<3xi32> {\n"
        "  %e = tensor.empty() : tensor<3xi32>\n"
        "  %r = linalg.add ins(%x, %x : tensor<3xi32>, tensor<3xi32>) outs(%e : tensor<3xi32>) -> tensor<3xi32>\n"
        "  return %r : tensor<3xi32>\n}\n"
    )
    tool = subprocess.run(
        [str(venv / "bin" / "linalg-ext-run"), "twice.mlir"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
    )
    assert tool.returncode == 0, tool.stderr
    assert "result #0: tensor<3xi32>, shape (3,), dtype int32" in tool.stdout
    check = subprocess.run(
        [str(venv / "bin" / "linalg-ext-check"), "twice.mlir", "-p", "canonicalize"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
    )
    assert check.returncode == 0, check.stderr
    assert check.stdout.strip() == "@twice: OK (3 trials)"
