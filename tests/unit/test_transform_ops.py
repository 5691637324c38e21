"""The tiling transform ops (`linalg_ext.transform_ops`), executed.

- Syntax: every op we add or redefine parses, prints and reparses as it
  was, and mlir-opt-22 reads what we print (MLIR 22's syntax).
- Installation: our implementations run in xDSL's `transform-interpreter`
  only where our package is loaded; xDSL's own remain reachable.
- Our `tile_using_for` against xDSL's on what xDSL handles: the same
  values, and the same loops (only the `affine.min` of a partial tile is
  spelled with its constants folded in ours).
- Against upstream (mlir-opt-22, skipped without it): on the same script
  both compute the input's values, and after clean-up (ours:
  `apply_cleanup`/`linalg-ext-tiling-cleanup`; upstream's:
  `--canonicalize --cse`) our loops hold no more ops than upstream's. On a
  matmul whose init is a fill, tiled along k by `transform.structured.fuse`,
  upstream's result is wrong and ours is right.
- Failures: one located line, exit code 1, no traceback.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from xdsl.dialects import scf
from xdsl.dialects.builtin import ModuleOp
from xdsl.interpreter import Interpreter
from xdsl.interpreters.transform import OperationHandle
from xdsl.transforms import get_all_passes
from xdsl.transforms.transform_interpreter import TransformInterpreterPass

from helpers import REPO, meaning_difference, parse_module, print_module
from linalg_ext.context import make_context
from linalg_ext.tools.check import parse_pipeline

TESTS = REPO / "tests" / "filecheck" / "passes" / "transform-interpreter-tiling"
PIPELINE = "transform-interpreter,test-transform-dialect-erase-schedule"
CLEANUP = "linalg-ext-tiling-cleanup"
HAS_MLIR_OPT = shutil.which("mlir-opt-22") is not None
needs_mlir_opt = pytest.mark.skipif(
    not HAS_MLIR_OPT, reason="mlir-opt-22 is not installed"
)

SCRIPT_OPS = """\
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %0 = transform.structured.match ops{["linalg.matmul"]} attributes {tag = 1 : i64} in %root : (!transform.any_op) -> !transform.any_op
    %p = transform.param.constant 4 : i64 -> !transform.param<i64>
    %t, %l0, %l1 = transform.structured.fuse %0 tile_sizes [%p, 2] interchange [1, 0] {apply_cleanup} : (!transform.any_op, !transform.param<i64>) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    %t2 = transform.structured.fuse %0 : (!transform.any_op) -> !transform.any_op
    %t3, %l3 = transform.structured.fuse %0 tile_sizes [4] interchange [%p] : (!transform.any_op, !transform.param<i64>) -> (!transform.any_op, !transform.any_op)
    %f, %c = transform.structured.fuse_into_containing_op %0 into %l0 : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    %a, %b = transform.split_handle %f : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %s:2 = transform.split_handle %f {overflow_result = 1 : i64} : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %m = transform.merge_handles deduplicate %a, %b : !transform.any_op
    %n = transform.merge_handles %a, %b : !transform.any_op
    %k = transform.cast %l0 : !transform.any_op to !transform.op<"scf.for">
    %main, %rest = transform.loop.peel %k : (!transform.op<"scf.for">) -> (!transform.op<"scf.for">, !transform.op<"scf.for">)
    transform.yield
  }
}
"""


def run_pipeline(text: str, pipeline: str) -> ModuleOp:
    module = parse_module(text)
    parse_pipeline(pipeline).apply(make_context(), module)
    module.verify()
    return module


def function_names(module: ModuleOp) -> list[str]:
    from xdsl.dialects import func

    return [op.sym_name.data for op in module.walk() if isinstance(op, func.FuncOp)]


# --------------------------------------------------------------------------
# Syntax


def test_transform_ops_round_trip():
    module = parse_module(SCRIPT_OPS)
    printed = print_module(module)
    assert (
        "transform.structured.fuse %0 tile_sizes [%p, 2] interchange [1, 0] {apply_cleanup} : ("
        in printed
    )
    assert (
        "%t2 = transform.structured.fuse %0 : (!transform.any_op) -> !transform.any_op"
        in printed
    )
    assert "transform.merge_handles deduplicate %a, %b : !transform.any_op" in printed
    assert "transform.param.constant 4 : i64 -> !transform.param<i64>" in printed
    assert parse_module(printed).is_structurally_equivalent(module)
    generic = print_module(module, generic=True)
    assert parse_module(generic).is_structurally_equivalent(module)


@needs_mlir_opt
def test_mlir_opt_reads_what_we_print():
    printed = print_module(parse_module(SCRIPT_OPS))
    done = subprocess.run(
        ["mlir-opt-22"], input=printed, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr


@needs_mlir_opt
def test_we_read_what_mlir_opt_prints():
    done = subprocess.run(
        ["mlir-opt-22"], input=SCRIPT_OPS, capture_output=True, text=True, check=True
    )
    assert parse_module(done.stdout).is_structurally_equivalent(
        parse_module(SCRIPT_OPS)
    )


@pytest.mark.parametrize(
    ("script", "message"),
    [
        (
            "%vt, %vl = transform.structured.fuse %0 tile_sizes [2, 2] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)",
            "'transform.structured.fuse' op expects 2 loop results",
        ),
        (
            "%vt, %vl:2 = transform.structured.fuse %0 tile_sizes [2, 2] interchange [0, 0] : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)",
            "'transform.structured.fuse' op found duplicate interchange value: 0",
        ),
        (
            "%vt, %vl:2 = transform.structured.fuse %0 tile_sizes [2, 2] interchange [0, 1, 2] : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)",
            "'transform.structured.fuse' op interchange length exceeds iteration space dimensions (2), found [0, 1, 2]",
        ),
    ],
)
def test_fuse_verifier(script, message):
    from xdsl.utils.exceptions import VerifyException

    text = SCRIPT_OPS.replace(
        "    transform.yield\n", f"    {script}\n    transform.yield\n"
    )
    with pytest.raises(VerifyException, match=re.escape(message)):
        parse_module(text)


# --------------------------------------------------------------------------
# Installation


def test_package_not_loaded_means_xdsl_as_it_is():
    """What `xdsl-opt` imports at start-up (our universe) installs nothing:
    xDSL's `transform` dialect and its interpreter functions stay as xDSL
    ships them until our dialect or a pass of ours is loaded."""
    code = (
        "import linalg_ext.universe\n"
        "from xdsl.dialects import transform\n"
        "from xdsl.interpreters.transform import TransformFunctions\n"
        "impls = dict(TransformFunctions._impls())\n"
        "assert impls[transform.TileOp] is vars(TransformFunctions)['run_tile_op']\n"
        "names = {op.name for op in transform.Transform.operations}\n"
        "assert 'transform.structured.fuse' not in names\n"
        "from linalg_ext.universe import LINALG_EXT_UNIVERSE\n"
        "LINALG_EXT_UNIVERSE.all_dialects['linalg_ext']()\n" + OURS_INSTALLED
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO
    )
    assert done.returncode == 0, done.stderr


OURS_INSTALLED = (
    "from xdsl.dialects import transform\n"
    "from xdsl.interpreters.transform import TransformFunctions\n"
    "impls = dict(TransformFunctions._impls())\n"
    "from linalg_ext.transform_ops.tiling_functions import "
    "TilingTransformFunctions as Ours\n"
    "assert impls[transform.TileOp] is vars(Ours)['run_tile_using_for']\n"
    "names = {op.name for op in transform.Transform.operations}\n"
    "assert 'transform.structured.fuse' in names\n"
)


def test_interpreter_functions_are_registered_when_xdsl_imports_them():
    """Loading our dialect adds the ops, not xDSL's interpreters (slow to
    import); importing xDSL's transform interpreter later brings ours."""
    code = (
        "import sys\n"
        "from linalg_ext.universe import LINALG_EXT_UNIVERSE\n"
        "LINALG_EXT_UNIVERSE.all_dialects['linalg_ext']()\n"
        "assert 'xdsl.interpreters.transform' not in sys.modules\n" + OURS_INSTALLED
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO
    )
    assert done.returncode == 0, done.stderr


def run_with_xdsls_functions(module: ModuleOp) -> None:
    """`transform-interpreter` as xDSL runs it without our package."""
    from linalg_ext.transform_ops.install import xdsl_transform_functions

    schedule = TransformInterpreterPass.find_transform_entry_point(
        module, "__transform_main"
    )
    interpreter = Interpreter(module)
    interpreter.register_implementations(
        xdsl_transform_functions()(make_context(), get_all_passes())
    )
    interpreter.call_op(schedule, (OperationHandle(module),))


XDSL_HANDLES = """\
#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (j)>
module attributes {transform.with_named_sequence} {
  func.func @add_row(%a: tensor<10x7xf32>, %b: tensor<7xf32>, %c: tensor<10x7xf32>) -> tensor<10x7xf32> {
    %r = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
        ins(%a, %b : tensor<10x7xf32>, tensor<7xf32>) outs(%c : tensor<10x7xf32>) {
    ^bb0(%x: f32, %y: f32, %o: f32):
      %s = arith.addf %x, %y : f32
      linalg.yield %s : f32
    } -> tensor<10x7xf32>
    return %r : tensor<10x7xf32>
  }
  func.func @matmul(%a: tensor<9x5xf32>, %b: tensor<5x6xf32>, %c: tensor<9x6xf32>) -> tensor<9x6xf32> {
    %r = linalg.matmul ins(%a, %b : tensor<9x5xf32>, tensor<5x6xf32>) outs(%c : tensor<9x6xf32>) -> tensor<9x6xf32>
    return %r : tensor<9x6xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %g = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %l:2 = transform.structured.tile_using_for %g tile_sizes [4, 3] : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    %m = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %t2, %l2:3 = transform.structured.tile_using_for %m tile_sizes [2, 4, 2] : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}
"""

_MIN_MAP = re.compile(r"affine\.min .*$", re.M)


def test_ours_computes_what_xdsls_computes_and_looks_alike():
    original = parse_module(XDSL_HANDLES)
    theirs = parse_module(XDSL_HANDLES)
    run_with_xdsls_functions(theirs)
    ours = parse_module(XDSL_HANDLES)
    TransformInterpreterPass().apply(make_context(), ours)
    for name in function_names(original):
        assert meaning_difference(original, theirs, name) is None
        assert meaning_difference(original, ours, name) is None

    # The same ops in the same order, but for two spellings: xDSL's
    # affine.min takes the tile size and the extent as operands where ours
    # folds the constants into the map, and xDSL makes one constant per tile
    # size where ours makes one per value.
    def structure(module: ModuleOp) -> list[str]:
        return [op.name for op in module.walk() if op.name != "arith.constant"]

    assert structure(ours) == structure(theirs)
    ours_mins = _MIN_MAP.findall(print_module(ours))
    assert ours_mins[0] == "affine.min affine_map<(d0) -> (((d0 * -1) + 10), 4)> (%5)"


# --------------------------------------------------------------------------
# Failures


@pytest.mark.parametrize(
    ("script", "message"),
    [
        (
            "%t, %l:2 = transform.structured.tile_using_for %0 tile_sizes [2, 4] : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)",
            "error: 'transform.structured.tile_using_for' op linalg_ext.softmax cannot be tiled along loop 1: it must stay whole (target: linalg_ext.softmax at ",
        ),
        (
            "%t, %l = transform.structured.fuse %0 tile_sizes [2] {use_forall} : (!transform.any_op) -> (!transform.any_op, !transform.any_op)",
            "error: 'transform.structured.fuse' op use_forall is not supported (scf.for loops only)",
        ),
        (
            "%p = transform.param.constant 2 : i64 -> !transform.param<i64>\n"
            "    %q = transform.merge_handles %p, %p : !transform.param<i64>\n"
            "    %t, %l = transform.structured.tile_using_for %0 tile_sizes [%q] : (!transform.any_op, !transform.param<i64>) -> (!transform.any_op, !transform.any_op)",
            "error: 'transform.structured.tile_using_for' op expected as many parameter values (2) as target ops (1)",
        ),
    ],
)
@pytest.mark.parametrize("tool", ["linalg-ext-opt", "xdsl-opt"])
def test_a_failing_transform_op_is_one_located_line(script, message, tool, tmp_path):
    text = f"""\
module attributes {{transform.with_named_sequence}} {{
  func.func @softmax(%x: tensor<4x8xf32>, %m: tensor<4xf32>, %a: tensor<4xf32>) -> tensor<4x8xf32> {{
    %out = tensor.empty() : tensor<4x8xf32>
    %s = tensor.empty() : tensor<4xf32>
    %r:4 = linalg_ext.softmax dimension(1) ins(%x : tensor<4x8xf32>)
        outs(%out, %m, %a, %s : tensor<4x8xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>)
        : tensor<4x8xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
    return %r#0 : tensor<4x8xf32>
  }}
  transform.named_sequence @__transform_main(%root: !transform.any_op {{transform.readonly}}) {{
    %0 = transform.structured.match ops{{["linalg_ext.softmax"]}} in %root : (!transform.any_op) -> !transform.any_op
    {script}
    transform.yield
  }}
}}
"""
    path = tmp_path / "failing.mlir"
    path.write_text(text)
    line = 1 + text.splitlines().index("    " + script.splitlines()[-1].strip())
    if tool == "xdsl-opt":
        # The stock driver prints what a failing pass raised with its
        # traceback (xDSL's way for every pass); with --verify-diagnostics
        # it prints the message alone.
        done = subprocess.run(
            [
                str(Path(sys.executable).parent / "xdsl-opt"),
                "--verify-diagnostics",
                "-p",
                "transform-interpreter",
                str(path),
            ],
            capture_output=True,
            text=True,
        )
        # (No source locations there: the payload op is named only.)
        assert message.removeprefix("error: ").split(" (target")[0] in done.stdout
        return
    done = subprocess.run(
        [
            str(Path(sys.executable).parent / "linalg-ext-opt"),
            "-p",
            "transform-interpreter",
            str(path),
        ],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 1
    assert done.stdout == ""
    assert "Traceback" not in done.stderr
    lines = done.stderr.splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith(f"{path}:{line}:"), lines[0]
    assert message in lines[0]


# --------------------------------------------------------------------------
# Against upstream


def upstream_transform(text: str, *extra: str) -> str:
    return subprocess.run(
        [
            "mlir-opt-22",
            "--transform-interpreter",
            "--test-transform-dialect-erase-schedule",
            *extra,
        ],
        input=text,
        capture_output=True,
        text=True,
        check=True,
    ).stdout


def ops_in_loops(module: ModuleOp) -> int:
    """How many ops the outermost `scf.for`s of the module hold (their
    bodies, nested loops and their bodies included)."""
    count = 0
    for op in module.walk():
        if isinstance(op, scf.ForOp) and not isinstance(op.parent_op(), scf.ForOp):
            count += sum(1 for _ in op.walk()) - 1
    return count


def upstream_runs_of(text: str, name: str, inputs: list) -> list:
    from linalg_ext.upstream import run_upstream

    return run_upstream(text, parse_module(text), name, inputs).results


CONV = """\
module attributes {transform.with_named_sequence} {
  func.func @conv(%in: tensor<1x13x12x3xf32>, %filter: tensor<3x2x3x4xf32>, %init: tensor<1x5x10x4xf32>) -> tensor<1x5x10x4xf32> {
    %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<[2, 1]> : tensor<2xi64>, strides = dense<[2, 1]> : tensor<2xi64>}
        ins(%in, %filter : tensor<1x13x12x3xf32>, tensor<3x2x3x4xf32>) outs(%init : tensor<1x5x10x4xf32>) -> tensor<1x5x10x4xf32>
    return %r : tensor<1x5x10x4xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %conv = transform.structured.match interface{LinalgOp} in %root : (!transform.any_op) -> !transform.any_op
    %t, %l:3 = transform.structured.tile_using_for %conv tile_sizes [0, 2, 4, 0, 0, 2] : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}
"""

PAD = """\
module attributes {transform.with_named_sequence} {
  func.func @pad(%x: tensor<5x6xf32>) -> tensor<9x8xf32> {
    %cst = arith.constant 1.5 : f32
    %p = tensor.pad %x low[1, 0] high[3, 2] {
    ^bb0(%i: index, %j: index):
      tensor.yield %cst : f32
    } : tensor<5x6xf32> to tensor<9x8xf32>
    return %p : tensor<9x8xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %pad = transform.structured.match ops{["tensor.pad"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %l:2 = transform.structured.tile_using_for %pad tile_sizes [4, 3] : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}
"""

UPSTREAM_INPUTS = {
    **{
        stem: (TESTS / f"{stem}.mlir").read_text()
        for stem in (
            "tile_matmul",
            "fuse_chain",
            "fuse_into_containing",
            "fuse_into_hand_written_loop",
            "loop_peel",
        )
    },
    "conv": CONV,
    "pad": PAD,
}
"""Scripts upstream runs right (no linalg_ext op, no reduction-tiled fill)."""


@needs_mlir_opt
@pytest.mark.parametrize("stem", UPSTREAM_INPUTS)
def test_same_values_as_upstream_and_no_more_ops_in_the_loops(stem):
    from linalg_ext.running import find_function, random_inputs, run_function

    text = UPSTREAM_INPUTS[stem]
    original = parse_module(text)
    ours = run_pipeline(text, f"{PIPELINE},{CLEANUP}")
    theirs_text = upstream_transform(text, "--canonicalize", "--cse")
    theirs = parse_module(theirs_text)
    rng = np.random.default_rng(11)
    for name in function_names(original):
        inputs = random_inputs(find_function(original, name), rng)
        expected = run_function(original, name, inputs).results
        mine = run_function(ours, name, inputs).results
        upstream = upstream_runs_of(theirs_text, name, inputs)
        for want, got, other in zip(expected, mine, upstream, strict=True):
            np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)
            np.testing.assert_allclose(other, want, rtol=1e-5, atol=1e-5)
    assert ops_in_loops(ours) <= ops_in_loops(theirs), (
        f"ours: {ops_in_loops(ours)} ops in the loops, upstream: "
        f"{ops_in_loops(theirs)}\n{print_module(ours)}"
    )


FILL_ALONG_K = """\
module attributes {transform.with_named_sequence} {
  func.func @matmul(%a: tensor<8x12xf32>, %b: tensor<12x6xf32>) -> tensor<8x6xf32> {
    %zero = arith.constant 0.0 : f32
    %empty = tensor.empty() : tensor<8x6xf32>
    %fill = linalg.fill ins(%zero : f32) outs(%empty : tensor<8x6xf32>) -> tensor<8x6xf32>
    %mm = linalg.matmul ins(%a, %b : tensor<8x12xf32>, tensor<12x6xf32>) outs(%fill : tensor<8x6xf32>) -> tensor<8x6xf32>
    return %mm : tensor<8x6xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %0 = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %l:3 = transform.structured.fuse %0 tile_sizes [4, 3, 4] {apply_cleanup} : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}
"""


@needs_mlir_opt
def test_fill_init_tiled_along_k_upstream_is_wrong_ours_is_right():
    from linalg_ext.running import run_function

    rng = np.random.default_rng(5)
    a = rng.uniform(-1, 1, (8, 12)).astype(np.float32)
    b = rng.uniform(-1, 1, (12, 6)).astype(np.float32)
    expected = a.astype(np.float64) @ b.astype(np.float64)

    theirs_text = upstream_transform(FILL_ALONG_K)
    # Upstream fuses the fill into the k loop: every k step restarts from 0.
    assert theirs_text.index("linalg.fill") > theirs_text.index("scf.for")
    (upstream,) = upstream_runs_of(theirs_text, "matmul", [a, b])
    last_k_tile = a[:, 8:].astype(np.float64) @ b[8:, :].astype(np.float64)
    np.testing.assert_allclose(upstream, last_k_tile, rtol=1e-5, atol=1e-5)
    assert not np.allclose(upstream, expected, rtol=1e-3, atol=1e-3)

    ours = run_pipeline(FILL_ALONG_K, PIPELINE)
    (mine,) = run_function(ours, "matmul", [a, b]).results
    np.testing.assert_allclose(mine, expected, rtol=1e-5, atol=1e-5)
    # The fill stays before the loops, once.
    fills = [op for op in ours.walk() if op.name == "linalg.fill"]
    assert len(fills) == 1 and not isinstance(fills[0].parent_op(), scf.ForOp)


# --------------------------------------------------------------------------
# Docs


def test_every_transform_op_has_a_page_and_a_readme_row():
    from linalg_ext.transform_ops.ops import TRANSFORM_OPS

    readme = (REPO / "README.md").read_text()
    names = [op.name for op in TRANSFORM_OPS] + [
        "transform.structured.tile_using_for",
        "transform.structured.match",
    ]
    for name in names:
        page = REPO / "docs" / "transform-ops" / f"{name.removeprefix('transform.')}.md"
        assert page.read_text().startswith(f"# `{name}`"), name
        assert f"| `{name}` |" in readme, f"{name}: no row in README"
