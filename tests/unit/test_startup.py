"""Start-up stays cheap: every lit RUN line starts a tool, so what a tool
imports before it needs it is paid hundreds of times per test run.

The tools load dialects and passes by name on first use (as xdsl-opt
does); the fixes to `llvm`, `vector` and `transform` and our transform ops
wait until a program uses those dialects; numpy and xDSL's interpreters
wait until something is interpreted.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

TRIVIAL = "func.func @f() {\n  func.return\n}\n"

HEAVY = (
    "numpy",
    "xdsl.interpreters",
    "linalg_ext.semantics.arrays",
    "linalg_ext.transform_ops.ops",
    "xdsl.dialects.llvm",
    "xdsl.dialects.vector",
    "xdsl.dialects.transform",
)


def _imported_after(code: str, stdin: str = "") -> list[str]:
    """The modules of HEAVY that running `code` in a fresh interpreter
    imported."""
    report = (
        f"\nimport sys\nprint('HEAVY:', *[m for m in {HEAVY!r} if m in sys.modules])"
    )
    done = subprocess.run(
        [sys.executable, "-c", code + report],
        input=stdin,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONWARNINGS": "ignore"},
    )
    assert done.returncode == 0, done.stderr
    line = done.stdout.strip().splitlines()[-1]
    return line.split()[1:]


def test_linalg_ext_opt_on_a_trivial_program_imports_nothing_heavy():
    code = (
        "import contextlib, io, sys\n"
        "from linalg_ext.tools.opt import main\n"
        "sys.argv = ['linalg-ext-opt']\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    assert main() == 0\n"
    )
    assert _imported_after(code, TRIVIAL) == []


def test_loading_a_bufferization_pass_imports_no_interpreter():
    code = (
        "from linalg_ext.passes import ALL_PASSES\n"
        "ALL_PASSES['one-shot-bufferize']()\n"
        "ALL_PASSES['insert-runtime-checks']()\n"
        "ALL_PASSES['convert-arith-to-llvm']()\n"
    )
    imported = _imported_after(code)
    assert "numpy" not in imported
    assert "xdsl.interpreters" not in imported
    assert "linalg_ext.semantics.arrays" not in imported


def test_deferred_fixes_arrive_when_the_dialects_are_parsed():
    # `llvm.mlir.poison` (compat.llvm_value_ops), `vector.print` with
    # upstream's punctuation (compat.vector_print), `transform.loop.peel`
    # (our transform ops): each dialect is loaded only at its first op.
    program = """
func.func @f() {
  %p = llvm.mlir.poison : i32
  vector.print punctuation <comma>
  func.return
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %loops = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.any_op
    %main, %rest = transform.loop.peel %loops : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}
"""
    done = subprocess.run(
        [str(Path(sys.executable).parent / "linalg-ext-opt")],
        input=program,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONWARNINGS": "ignore"},
    )
    assert done.returncode == 0, done.stderr
    assert "llvm.mlir.poison" in done.stdout
    assert "vector.print punctuation <comma>" in done.stdout
    assert "transform.loop.peel" in done.stdout


def test_stock_xdsl_opt_on_a_trivial_program_imports_only_the_entry_point():
    # xdsl-opt imports our `xdsl.universe` entry point at every start; until a
    # dialect or pass of ours is loaded, that is all of ours it imports (the
    # stock drivers' one-line errors, `tools.stock_drivers`, wait too).
    code = (
        "import contextlib, io, sys\n"
        "from xdsl.tools.xdsl_opt import main\n"
        "sys.argv = ['xdsl-opt']\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    main()\n"
        "ours = sorted(m for m in sys.modules if m.startswith('linalg_ext'))\n"
        "print('OURS:', *ours)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        input=TRIVIAL,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONWARNINGS": "ignore"},
    )
    assert done.returncode == 0, done.stderr
    ours = done.stdout.strip().splitlines()[-1].split()[1:]
    assert ours == [
        "linalg_ext",
        "linalg_ext.passes",
        "linalg_ext.tools",
        "linalg_ext.tools.xdsl_plugin",
        "linalg_ext.universe",
    ]
    assert _imported_after(code, TRIVIAL) == []
