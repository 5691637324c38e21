"""The package plugs into the stock xdsl-opt through the xdsl.universe entry
point: `linalg_ext.tools.xdsl_plugin`, the library's universe
(`linalg_ext.universe`) with loaders that first install the stock drivers'
one-line errors."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from xdsl.universe import Universe

from linalg_ext.dialect import LinalgExt
from linalg_ext.passes import ALL_PASSES
from linalg_ext.tools.xdsl_plugin import XDSL_PLUGIN_UNIVERSE
from linalg_ext.universe import LINALG_EXT_UNIVERSE


def test_entry_point_is_discovered():
    multiverse = Universe.get_multiverse()
    assert "linalg_ext" in multiverse.all_dialects
    assert multiverse.all_dialects["linalg_ext"]() is LinalgExt
    for name in ALL_PASSES:
        assert name in multiverse.all_passes


def test_universe_lists_our_dialect_and_passes():
    # `index` and `shape`: upstream's dialects, which xDSL 0.74 lacks
    # (compat/index_ops.py, compat/shape_dialect.py); `rtcheck`: the run-time
    # checks of compiled code (dialect/runtime_check.py); `ccl`: ByteIR's
    # `ccl.all_reduce` (dialect/ccl.py).
    assert set(LINALG_EXT_UNIVERSE.all_dialects) == {
        "ccl",
        "index",
        "linalg_ext",
        "rtcheck",
        "shape",
    }
    assert set(LINALG_EXT_UNIVERSE.all_passes) == set(ALL_PASSES)
    for name, load in LINALG_EXT_UNIVERSE.all_passes.items():
        assert load() is ALL_PASSES[name]()


def test_the_entry_point_is_the_tools_plugin_with_the_library_loaders():
    from importlib.metadata import entry_points

    (ours,) = [
        entry
        for entry in entry_points(group="xdsl.universe")
        if entry.module.startswith("linalg_ext")
    ]
    assert ours.value == "linalg_ext.tools.xdsl_plugin:XDSL_PLUGIN_UNIVERSE"
    assert ours.load() is XDSL_PLUGIN_UNIVERSE
    assert set(XDSL_PLUGIN_UNIVERSE.all_dialects) == set(
        LINALG_EXT_UNIVERSE.all_dialects
    )
    assert set(XDSL_PLUGIN_UNIVERSE.all_passes) == set(LINALG_EXT_UNIVERSE.all_passes)
    for name, load in XDSL_PLUGIN_UNIVERSE.all_dialects.items():
        assert load() is LINALG_EXT_UNIVERSE.all_dialects[name]()


def test_only_the_plugin_loaders_install_the_stock_driver_hook():
    # The library's universe stays hook-free: loading through it never even
    # imports the hook; through the entry point, every loader calls install()
    # (a no-op outside a stock xdsl-opt/xdsl-run).
    out = _python(
        """
import sys
from linalg_ext.universe import LINALG_EXT_UNIVERSE
for load in LINALG_EXT_UNIVERSE.all_dialects.values():
    load()
LINALG_EXT_UNIVERSE.all_passes["fuse-pad"]()
print("linalg_ext.tools.stock_drivers" in sys.modules)
from linalg_ext.tools import stock_drivers
calls = []
stock_drivers.install = lambda: calls.append(1)
from linalg_ext.tools.xdsl_plugin import XDSL_PLUGIN_UNIVERSE
XDSL_PLUGIN_UNIVERSE.all_dialects["ccl"]()
XDSL_PLUGIN_UNIVERSE.all_passes["fuse-pad"]()
print(len(calls), stock_drivers._installed)
"""
    )
    assert out.split() == ["False", "2", "False"]


def test_no_xdsl_pass_name_is_taken_over():
    from xdsl.transforms import get_all_passes

    assert not set(ALL_PASSES) & set(get_all_passes())
    multiverse = Universe.get_multiverse()
    xdsl_passes = get_all_passes()
    for name in ("convert-linalg-to-loops", "lower-affine", "convert-scf-to-cf"):
        assert multiverse.all_passes[name]() is xdsl_passes[name]()


def _python(code: str) -> str:
    env = {**os.environ, "PYTHONWARNINGS": "ignore"}
    return subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env=env,
        check=True,
    ).stdout


def test_discovering_the_universe_changes_nothing_in_xdsl():
    # What `xdsl-opt` does at start-up: every plugin is loaded and merged.
    # Nothing of xDSL may change until our dialect or a pass of ours is loaded.
    out = _python(
        """
from xdsl.dialects.linalg import Linalg
from xdsl.dialects.linalg.ops import GenericOp
from xdsl.dialects.llvm import LLVM
import xdsl.dialects.linalg.ops as linalg_ops
before = ({op.name for op in Linalg.operations}, {op.name for op in LLVM.operations},
          GenericOp.parse, GenericOp.print)
from xdsl.universe import Universe
multiverse = Universe.get_multiverse()
import linalg_ext.compat as compat
after = ({op.name for op in Linalg.operations}, {op.name for op in LLVM.operations},
         GenericOp.parse, GenericOp.print)
print(before == after, compat._installed)
multiverse.all_passes["fuse-pad"]()
print(compat._installed, "linalg.map" in {op.name for op in Linalg.operations})
"""
    )
    assert out.split() == ["True", "False", "True", "True"]


def test_importing_the_package_is_cheap():
    # Start-up of xdsl-opt pays for importing the entry point: it must not
    # pull in our dialect, the compat layer, the passes, llvmlite, or the
    # tools' helpers (the stock drivers' hook waits for a loader).
    out = _python(
        """
import sys
import linalg_ext.tools.xdsl_plugin
heavy = ("linalg_ext.dialect", "linalg_ext.compat.linalg_ops", "llvmlite",
         "linalg_ext.passes.fuse_pad", "xdsl.dialects.llvm",
         "linalg_ext.tools.stock_drivers", "linalg_ext.tools.located",
         "linalg_ext.tools.common", "linalg_ext.tools.opt_pipeline",
         "linalg_ext.pipelines")
print(*[m for m in heavy if m in sys.modules])
"""
    )
    assert out.split() == []


def _xdsl_opt() -> str:
    # The xdsl-opt of this interpreter's environment, where the package is installed.
    candidate = Path(sys.executable).parent / "xdsl-opt"
    return str(candidate) if candidate.exists() else shutil.which("xdsl-opt")


def test_stock_xdsl_opt_parses_and_reprints(tmp_path):
    program = tmp_path / "p.mlir"
    program.write_text(
        """
        func.func @f(%v: tensor<6xf32>, %o: tensor<6x6xf32>) -> tensor<6x6xf32> {
          %d = linalg_ext.diag ins(%v : tensor<6xf32>) outs(%o : tensor<6x6xf32>) : tensor<6x6xf32>
          return %d : tensor<6x6xf32>
        }
        """
    )
    env = {**os.environ, "PYTHONWARNINGS": "ignore"}
    first = subprocess.run(
        [_xdsl_opt(), str(program)], capture_output=True, text=True, env=env, check=True
    ).stdout
    assert (
        "%d = linalg_ext.diag ins(%v : tensor<6xf32>) outs(%o : tensor<6x6xf32>) "
        ": tensor<6x6xf32>" in first
    )
    second = subprocess.run(
        [_xdsl_opt()], input=first, capture_output=True, text=True, env=env, check=True
    ).stdout
    assert second == first


def _run_xdsl_opt(text: str, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONWARNINGS": "ignore"}
    return subprocess.run(
        [_xdsl_opt(), *args], input=text, capture_output=True, text=True, env=env
    )


MAP_THEN_DIAG = """
func.func @f(%a: tensor<8xf32>, %o: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %s = linalg.map { math.exp } ins(%a : tensor<8xf32>) outs(%a : tensor<8xf32>)
  %d = linalg_ext.diag ins(%s : tensor<8xf32>) outs(%o : tensor<8x8xf32>) : tensor<8x8xf32>
  return %d : tensor<8x8xf32>
}
"""


def test_upstream_ops_xdsl_lacks_need_our_dialect_or_pass_first():
    # `linalg.map` is an upstream op xDSL 0.74 lacks. Before anything of ours
    # is loaded, the stock xdsl-opt rejects it as plain xDSL does...
    plain = _run_xdsl_opt(MAP_THEN_DIAG)
    assert plain.returncode != 0
    assert "Operation linalg.map is not registered" in plain.stderr
    # ... one of our passes loads the fixes before parsing ...
    with_pass = _run_xdsl_opt(MAP_THEN_DIAG, "-p", "eliminate-empty-tensors")
    assert with_pass.returncode == 0, with_pass.stderr
    assert "linalg.map { math.exp }" in with_pass.stdout


def test_a_linalg_ext_op_after_linalg_ops_brings_the_fixes_to_that_context():
    # The `linalg` dialect is loaded (without the additions) at the first
    # `linalg.` op; loading `linalg_ext` later hands the added ops to that
    # same context, so the `linalg.map` after it parses.
    text = """
func.func @f(%a: tensor<8xf32>, %o: tensor<8x8xf32>) -> tensor<8xf32> {
  %e = linalg.exp ins(%a : tensor<8xf32>) outs(%a : tensor<8xf32>) -> tensor<8xf32>
  %d = linalg_ext.diag ins(%e : tensor<8xf32>) outs(%o : tensor<8x8xf32>) : tensor<8x8xf32>
  %s = linalg.map { math.exp } ins(%a : tensor<8xf32>) outs(%a : tensor<8xf32>)
  %z = tensor.empty() : tensor<f32>
  %r = linalg.reduce { arith.addf } ins(%s : tensor<8xf32>) outs(%z : tensor<f32>) dimensions = [0]
  return %s : tensor<8xf32>
}
"""
    result = _run_xdsl_opt(text)
    assert result.returncode == 0, result.stderr
    assert "linalg.map { math.exp }" in result.stdout
    # xDSL's own `linalg.reduce`, loaded with `linalg`, was swapped for ours,
    # which reads the short form.
    assert "linalg.reduce { arith.addf }" in result.stdout
