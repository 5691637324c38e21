"""convert-linalg-ext-to-loops: the cases random inputs rarely hit, refusals
that leave the module as it was, and our loops compiled by upstream MLIR.

test_pass_meaning runs every FileCheck input of the pass on the interpreter
before and after; here, the loops are also compiled by `mlir-opt-22` (skipped
without it) and run natively against the interpreter on the input, and the
documented examples with ties, repeated indices and carries are checked for
their exact values.
"""

from __future__ import annotations

import shutil

import numpy as np
import pytest
from xdsl.dialects import func
from xdsl.dialects.builtin import MemRefType, ModuleOp
from xdsl.utils.exceptions import InterpretationError, PassFailedException

from helpers import REPO, parse_module, print_module
from linalg_ext.comparison import compare_values, first_difference
from linalg_ext.context import make_context
from linalg_ext.passes.convert_linalg_ext_to_loops import ConvertLinalgExtToLoopsPass
from linalg_ext.running import find_function, random_inputs, run_function
from linalg_ext.tools.check import check_module
from linalg_ext.upstream import compile_upstream

PASS = "convert-linalg-ext-to-loops"
PASS_DIR = REPO / "tests" / "filecheck" / "passes" / PASS
INPUTS = sorted(p for p in PASS_DIR.glob("*.mlir") if p.name != "errors.mlir")

needs_mlir_opt = pytest.mark.skipif(
    shutil.which("mlir-opt-22") is None, reason="mlir-opt-22 is not installed"
)


def lowered(module: ModuleOp) -> ModuleOp:
    result = module.clone()
    ConvertLinalgExtToLoopsPass().apply(make_context(), result)
    result.verify()
    return result


def run_lowered(text: str, name: str, inputs: list) -> list:
    """@name of `text` after the pass, on the interpreter: the arguments as
    the call left them."""
    return run_function(lowered(parse_module(text)), name, inputs).arguments


def function_names(module: ModuleOp) -> list[str]:
    return [
        op.sym_name.data
        for op in module.walk()
        if isinstance(op, func.FuncOp) and not op.is_declaration
    ]


# --------------------------------------------------------------------------
# Our loops compiled by upstream MLIR
# --------------------------------------------------------------------------


@needs_mlir_opt
@pytest.mark.parametrize("path", INPUTS, ids=lambda p: p.stem)
def test_upstream_compiles_and_runs_our_loops(path):
    """mlir-opt-22 accepts the output (only scf, memref, arith, math and
    linalg remain), and the compiled loops compute what the interpreter
    computes on the input."""
    before = parse_module(path.read_text())
    after = lowered(before)
    assert not any(op.name.startswith("linalg_ext.") for op in after.walk())
    source = print_module(after)
    rng = np.random.default_rng(11)
    for name in function_names(before):
        compiled = compile_upstream(source, after, name)
        function = find_function(before, name)
        for trial in range(3):
            inputs = random_inputs(function, rng)
            expected = run_function(before, name, [np.copy(v) for v in inputs])
            actual = compiled([np.copy(v) for v in inputs])
            difference = compare_values(expected.results, actual.results, "result")
            for index, type_ in enumerate(function.function_type.inputs.data):
                if difference is None and isinstance(type_, MemRefType):
                    # The oracle hands a rank-0 argument back with shape (1,).
                    expected_value = expected.arguments[index]
                    difference = first_difference(
                        expected_value,
                        np.reshape(actual.arguments[index], np.shape(expected_value)),
                    )
            assert difference is None, f"@{name} trial {trial}: {difference}"


@pytest.mark.parametrize(
    ("path", "dim_size"),
    [
        pytest.param(path, dim_size, id=f"{path.stem}-{dim_size}")
        for path in INPUTS
        for dim_size in (1, 7)
        if not (path.stem == "topk" and dim_size == 1)
    ],
)
def test_other_dynamic_extents(path, dim_size):
    """The inputs again with other extents for their `?` dimensions (1: a
    single element per row; 7: longer rows than K); inputs whose static
    extents tie a `?` to 4 are left out, and so is topk with a single
    element per row, which makes N < K (undefined)."""
    module = parse_module(path.read_text())
    for name in function_names(module):
        if not _runs_with(module, name, dim_size):
            continue
        report = check_module(module, PASS, entry=name, trials=3, dim_size=dim_size)
        assert report.ok, "\n".join(v.line() for v in report.verdicts)


def _runs_with(module: ModuleOp, name: str, dim_size: int) -> bool:
    """Whether @name runs (before the pass) when every `?` is `dim_size`."""
    function = find_function(module, name)
    inputs = random_inputs(function, np.random.default_rng(0), dim_size)
    try:
        run_function(module, name, inputs)
    except (InterpretationError, ValueError):  # a `?` tied to a static extent
        return False
    return True


# --------------------------------------------------------------------------
# Exact values
# --------------------------------------------------------------------------

TOPK = """
func.func @topk(%v: memref<1x?xi32>, %ov: memref<1x?xi32>, %oi: memref<1x?xi64>) {
  linalg_ext.topk dimension(1) ins(%v : memref<1x?xi32>)
      outs(%ov, %oi : memref<1x?xi32>, memref<1x?xi64>) {
  ^bb0(%a: i32, %b: i32):
    %first = arith.cmpi sgt, %a, %b : i32
    linalg_ext.yield %first : i1
  }
  func.return
}
"""


@pytest.mark.parametrize(
    ("values", "k", "top_values", "top_indices"),
    [
        # The example of docs/ops/topk.md: the two 7s, in their order.
        ([3, 7, 1, 7, 5], 2, [7, 7], [1, 3]),
        # Ties across the cut: the earlier 5 is kept, the later one dropped.
        ([5, 1, 5, 9, 5], 3, [9, 5, 5], [3, 0, 2]),
        # All equal: positions in order.
        ([2, 2, 2, 2], 4, [2, 2, 2, 2], [0, 1, 2, 3]),
        # A later larger element pushes everything down.
        ([1, 2, 3, 4, 5, 6], 3, [6, 5, 4], [5, 4, 3]),
        # K = 0 at run time: nothing written.
        ([4, 3], 0, [], []),
    ],
)
def test_topk_ties_keep_the_smaller_position_first(values, k, top_values, top_indices):
    inputs = [
        np.array([values], dtype=np.int32),
        np.full((1, k), -100, dtype=np.int32),
        np.full((1, k), -1, dtype=np.int64),
    ]
    _, out_values, out_indices = run_lowered(TOPK, "topk", inputs)
    assert out_values.tolist() == [top_values]
    assert out_indices.tolist() == [top_indices]


SCATTER = """
func.func @scatter(%idx: memref<3x1xi64>, %upd: memref<3x2xf32>, %src: memref<4x2xf32>) {
  linalg_ext.scatter ins(%idx, %upd : memref<3x1xi64>, memref<3x2xf32>)
      outs(%src : memref<4x2xf32>) {
  ^bb0(%old: f32, %new: f32):
    COMBINE
  }
  func.return
}
"""


@pytest.mark.parametrize(
    ("combine", "expected"),
    [
        # docs/ops/scatter.md: duplicates accumulate.
        (
            "%s = arith.addf %old, %new : f32\n    linalg_ext.yield %s : f32",
            [[5, 5], [0, 0], [3, 4], [0, 0]],
        ),
        # Overwriting: the last update of a position wins.
        ("linalg_ext.yield %new : f32", [[5, 5], [0, 0], [2, 3], [0, 0]]),
    ],
)
def test_scatter_applies_repeated_indices_in_order(combine, expected):
    inputs = [
        np.array([[2], [0], [2]], dtype=np.int64),
        np.array([[1, 1], [5, 5], [2, 3]], dtype=np.float32),
        np.zeros((4, 2), dtype=np.float32),
    ]
    *_, src = run_lowered(SCATTER.replace("COMBINE", combine), "scatter", inputs)
    assert src.tolist() == expected


@pytest.mark.parametrize("index", [-1, 4])
def test_scatter_out_of_bounds_index_is_an_error(index):
    """Never a silent write or a wrap-around: the store fails."""
    inputs = [
        np.array([[0], [index], [1]], dtype=np.int64),
        np.ones((3, 2), dtype=np.float32),
        np.zeros((4, 2), dtype=np.float32),
    ]
    combine = "linalg_ext.yield %new : f32"
    with pytest.raises(InterpretationError, match="out of bounds"):
        run_lowered(SCATTER.replace("COMBINE", combine), "scatter", inputs)


SCAN = """
func.func @scan(%x: memref<4xi64>, %o: memref<4xi64>, %carry: memref<i64>) {
  linalg_ext.scan dimension(0) inclusive(INCLUSIVE)
      ins(%x : memref<4xi64>) outs(%o, %carry : memref<4xi64>, memref<i64>) {
  ^bb0(%running: i64, %elem: i64):
    %next = arith.addi %running, %elem : i64
    linalg_ext.yield %next : i64
  }
  func.return
}
"""


@pytest.mark.parametrize(
    ("inclusive", "output"),
    [("false", [10, 11, 13, 16]), ("true", [11, 13, 16, 20])],
)
def test_scan_carries_in_and_out(inclusive, output):
    """docs/ops/scan.md: the carry in starts both forms, the carry out is
    the combination with every element in both."""
    inputs = [
        np.array([1, 2, 3, 4], dtype=np.int64),
        np.zeros(4, dtype=np.int64),
        np.array(10, dtype=np.int64),
    ]
    _, out, carry = run_lowered(SCAN.replace("INCLUSIVE", inclusive), "scan", inputs)
    assert out.tolist() == output
    assert carry.tolist() == 20


SOFTMAX = """
func.func @softmax(%x: memref<1x2xf32>, %o: memref<1x2xf32>, %m: memref<1xf32>,
                   %a: memref<1xf32>, %s: memref<1xf32>) {
  linalg_ext.OP dimension(1) ins(%x : memref<1x2xf32>)
      outs(%o, %m, %a, %s : memref<1x2xf32>, memref<1xf32>, memref<1xf32>, memref<1xf32>)
  func.return
}
"""


@pytest.mark.parametrize(
    ("op", "output", "scale"),
    [("softmax", [0.0900, 0.2447], 0.6652), ("unnorm_softmax", [0.1353, 0.3679], 1)],
)
def test_softmax_continues_from_running_statistics(op, output, scale):
    """docs/ops/softmax.md and unnorm_softmax.md: x = [1, 2], m0 = 3, a0 = 1."""
    inputs = [
        np.array([[1, 2]], dtype=np.float32),
        np.zeros((1, 2), dtype=np.float32),
        np.array([3], dtype=np.float32),
        np.array([1], dtype=np.float32),
        np.zeros(1, dtype=np.float32),
    ]
    _, out, max_, acc, s = run_lowered(SOFTMAX.replace("OP", op), "softmax", inputs)
    assert max_.tolist() == [3]
    assert acc[0] == pytest.approx(1 + np.exp(-2) + np.exp(-1), rel=1e-6)
    assert out[0] == pytest.approx(output, abs=1e-4)
    assert s[0] == pytest.approx(scale, abs=1e-4)


# --------------------------------------------------------------------------
# What the pass changes and what it leaves
# --------------------------------------------------------------------------


def test_refusal_leaves_the_module_unchanged():
    text = """
    func.func @f(%v: memref<3xf32>, %d: memref<3x3xf32>, %t: tensor<4xf32>) -> tensor<4xf32> {
      linalg_ext.diag ins(%v : memref<3xf32>) outs(%d : memref<3x3xf32>)
      %a = linalg_ext.alias(%t : tensor<4xf32>) : tensor<4xf32>
      return %a : tensor<4xf32>
    }
    """
    module = parse_module(text)
    before = print_module(module)
    with pytest.raises(PassFailedException, match="'linalg_ext.alias': operates"):
        ConvertLinalgExtToLoopsPass().apply(make_context(), module)
    assert print_module(module) == before


def test_ops_in_nested_regions_and_other_ops_are_left_alone():
    """An op inside a loop body is lowered in place; dead ops of the program
    and ops of other dialects stay."""
    text = """
    func.func @f(%v: memref<2x3xf32>, %d: memref<2x3x3xf32>) {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %unused = arith.constant 7 : i32
      scf.for %i = %c0 to %c2 step %c1 {
        %row = memref.subview %v[%i, 0] [1, 3] [1, 1]
            : memref<2x3xf32> to memref<3xf32, strided<[1], offset: ?>>
        %matrix = memref.subview %d[%i, 0, 0] [1, 3, 3] [1, 1, 1]
            : memref<2x3x3xf32> to memref<3x3xf32, strided<[3, 1], offset: ?>>
        linalg_ext.diag ins(%row : memref<3xf32, strided<[1], offset: ?>>)
            outs(%matrix : memref<3x3xf32, strided<[3, 1], offset: ?>>)
      }
      func.return
    }
    """
    module = parse_module(text)
    after = lowered(module)
    names = [op.name for op in after.walk()]
    assert "linalg_ext.diag" not in names
    assert names.count("memref.subview") == 2
    assert any(
        op.name == "arith.constant" and op.results[0].name_hint == "unused"
        for op in after.walk()
    )
    report = check_module(module, PASS, trials=2)
    assert report.ok, "\n".join(v.line() for v in report.verdicts)


def test_a_module_without_linalg_ext_is_unchanged():
    text = (REPO / "tests" / "filecheck" / "passes" / PASS / "scatter.mlir").read_text()
    module = lowered(parse_module(text))
    assert print_module(lowered(module)) == print_module(module)
