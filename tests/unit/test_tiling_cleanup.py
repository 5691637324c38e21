"""The clean-up of tiled IR (`linalg_ext.tiling.cleanup`).

Each fold keeps the meaning (every function run before and after on the
interpreter, one input compiled natively), leaves alone what it must
(a loop that changes a tensor's shape, a loop too long to enumerate,
effects), and, on tiled loop nests (hand-written, upstream's
`transform.structured.fuse` output, our `tile_using_for`'s), leaves no more
ops in each loop body than `mlir-opt-22 --canonicalize --cse` on the same
input (skipped without mlir-opt-22). The FileCheck inputs under
tests/filecheck/passes/linalg-ext-tiling-cleanup pin the structure of each
fold; test_pass_meaning runs them before/after, interpreted and compiled.
"""

from __future__ import annotations

import shutil
import subprocess

import pytest
from xdsl.dialects import affine, func, scf, tensor
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation

from helpers import REPO, meaning_difference, parse_module, print_module
from linalg_ext.checking import check_module
from linalg_ext.tiling.cleanup import apply_tiling_cleanup

CLEANUP_INPUTS = sorted(
    (REPO / "tests" / "filecheck" / "passes" / "linalg-ext-tiling-cleanup").glob(
        "*.mlir"
    )
)

needs_mlir_opt = pytest.mark.skipif(
    shutil.which("mlir-opt-22") is None, reason="mlir-opt-22 is not installed"
)


def cleaned(text: str) -> ModuleOp:
    module = parse_module(text)
    apply_tiling_cleanup(module)
    module.verify()
    return module


def function_names(module: ModuleOp) -> list[str]:
    return [f.sym_name.data for f in module.ops if isinstance(f, func.FuncOp)]


def assert_same_meaning(before: ModuleOp, after: ModuleOp) -> None:
    for name in function_names(before):
        assert meaning_difference(before, after, name, trials=2, seed=11) is None, name


def loop_body_sizes(module: Operation) -> list[int]:
    """The number of ops directly in each `scf.for` body (a nested loop
    counts as one; the yield too), loops in walk order."""
    return [
        len(list(op.body.block.ops))
        for op in module.walk()
        if isinstance(op, scf.ForOp)
    ]


def ops_in_loops(module: Operation) -> int:
    return sum(
        1
        for loop in module.walk()
        if isinstance(loop, scf.ForOp)
        for op in loop.body.block.ops
        if not isinstance(op, scf.ForOp)
    )


def mlir_opt(text: str, *options: str) -> str:
    return subprocess.run(
        ["mlir-opt-22", *options],
        input=text,
        capture_output=True,
        text=True,
        check=True,
    ).stdout


def upstream_cleanup(module: ModuleOp) -> ModuleOp:
    """`mlir-opt-22 --canonicalize --cse` on the module, read back."""
    return parse_module(mlir_opt(print_module(module), "--canonicalize", "--cse"))


def assert_no_more_ops_than_upstream(before: ModuleOp) -> None:
    ours = parse_module(print_module(before))
    apply_tiling_cleanup(ours)
    ours.verify()
    theirs = upstream_cleanup(before)
    ours_sizes, their_sizes = loop_body_sizes(ours), loop_body_sizes(theirs)
    if len(ours_sizes) == len(their_sizes):
        for mine, upstream in zip(ours_sizes, their_sizes, strict=True):
            assert mine <= upstream, (ours_sizes, their_sizes, print_module(ours))
    else:
        assert len(ours_sizes) < len(their_sizes)
        assert ops_in_loops(ours) <= ops_in_loops(theirs)
    assert_same_meaning(before, ours)
    assert_same_meaning(before, theirs)


# --- folds, one by one --------------------------------------------------------

RESHAPING_LOOP = """
func.func @f(%x: tensor<?xf32>) -> index {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %r = scf.for %iv = %c0 to %c2 step %c1 iter_args(%acc = %x) -> (tensor<?xf32>) {
    %m = tensor.dim %acc, %c0 : tensor<?xf32>
    %h = arith.subi %m, %c1 : index
    %s = tensor.extract_slice %acc[0] [%h] [1] : tensor<?xf32> to tensor<?xf32>
    scf.yield %s : tensor<?xf32>
  }
  %d = tensor.dim %r, %c0 : tensor<?xf32>
  return %d : index
}
"""


def test_dim_of_a_loop_that_changes_the_shape_stays():
    before = parse_module(RESHAPING_LOOP)
    after = cleaned(RESHAPING_LOOP)
    dims = [op for op in after.walk() if isinstance(op, tensor.DimOp)]
    assert len(dims) == 2  # the iter_arg's and the result's
    assert all(not str(d.source).startswith("%x") for d in dims)
    assert_same_meaning(before, after)


def tiled_exp(extent: int, step: int) -> str:
    return f"""
func.func @f(%x: tensor<{extent}xf32>, %out: tensor<{extent}xf32>) -> tensor<{extent}xf32> {{
  %c0 = arith.constant 0 : index
  %step = arith.constant {step} : index
  %n = arith.constant {extent} : index
  %r = scf.for %iv = %c0 to %n step %step iter_args(%acc = %out) -> (tensor<{extent}xf32>) {{
    %sz = affine.min affine_map<(d0) -> ({step}, -d0 + {extent})>(%iv)
    %xs = tensor.extract_slice %x[%iv] [%sz] [1] : tensor<{extent}xf32> to tensor<?xf32>
    %os = tensor.extract_slice %acc[%iv] [%sz] [1] : tensor<{extent}xf32> to tensor<?xf32>
    %e = linalg.exp ins(%xs : tensor<?xf32>) outs(%os : tensor<?xf32>) -> tensor<?xf32>
    %w = tensor.insert_slice %e into %acc[%iv] [%sz] [1] : tensor<?xf32> into tensor<{extent}xf32>
    scf.yield %w : tensor<{extent}xf32>
  }}
  return %r : tensor<{extent}xf32>
}}
"""


@pytest.mark.parametrize(
    ("extent", "step", "folded"),
    [(16, 4, True), (10, 4, False), (12, 12, True), (3, 4, True), (5000, 1, False)],
)
def test_tile_size_over_a_loop(extent: int, step: int, folded: bool):
    """min(step, extent - iv) is the step when it divides the extent; a
    partial last tile keeps it, unless it is the only tile (3 by 4: the
    size is 3); a loop of more than 4096 iterations is not enumerated.
    (12 by 12: the single-iteration loop is inlined.)"""
    after = cleaned(tiled_exp(extent, step))
    mins = [op for op in after.walk() if isinstance(op, affine.MinOp)]
    assert (not mins) == folded
    if extent <= 16:
        assert_same_meaning(parse_module(tiled_exp(extent, step)), after)


def test_out_of_bounds_constant_is_left_to_run_time():
    """In a loop that never runs (its bounds unknown when compiling), an
    out-of-bounds constant offset is not made static: the verifier would
    reject the slice. The IR stays valid and the abandoned rewrite holds no
    use of the sliced tensor."""
    text = """
func.func @f(%t: tensor<8xf32>, %u: tensor<8xf32>, %n: index) -> tensor<8xf32> {
  %c0 = arith.constant 0 : index
  %c9 = arith.constant 9 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %iv = %n to %c0 step %c1 iter_args(%acc = %u) -> (tensor<8xf32>) {
    %s = tensor.extract_slice %t[%c9] [%c1] [1] : tensor<8xf32> to tensor<?xf32>
    %w = tensor.insert_slice %s into %acc[%iv] [%c1] [1] : tensor<?xf32> into tensor<8xf32>
    scf.yield %w : tensor<8xf32>
  }
  return %r : tensor<8xf32>
}
"""
    after = cleaned(text)
    function = next(op for op in after.ops if isinstance(op, func.FuncOp))
    sliced = function.body.block.args[0]
    (use,) = list(sliced.uses)
    assert isinstance(use.operation, tensor.ExtractSliceOp)
    assert len(use.operation.offsets) == 1  # still dynamic
    assert_same_meaning(parse_module(text), after)


DEAD_CODE = """
func.func @f(%x: tensor<8xf32>, %m: memref<8xf32>) -> tensor<8xf32> {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %e = tensor.empty() : tensor<8xf32>
  %unused = linalg.exp ins(%x : tensor<8xf32>) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %dead_loop = scf.for %iv = %c0 to %c8 step %c4 iter_args(%acc = %e) -> (tensor<8xf32>) {
    %s = tensor.extract_slice %x[%iv] [4] [1] : tensor<8xf32> to tensor<4xf32>
    %o = tensor.extract_slice %acc[%iv] [4] [1] : tensor<8xf32> to tensor<4xf32>
    %l = linalg.log ins(%s : tensor<4xf32>) outs(%o : tensor<4xf32>) -> tensor<4xf32>
    %w = tensor.insert_slice %l into %acc[%iv] [4] [1] : tensor<4xf32> into tensor<8xf32>
    scf.yield %w : tensor<8xf32>
  }
  %live_loop = scf.for %iv = %c0 to %c8 step %c4 iter_args(%acc = %e) -> (tensor<8xf32>) {
    %s = tensor.extract_slice %x[%iv] [4] [1] : tensor<8xf32> to tensor<4xf32>
    %v = tensor.extract %s[%c0] : tensor<4xf32>
    memref.store %v, %m[%iv] : memref<8xf32>
    scf.yield %acc : tensor<8xf32>
  }
  linalg.exp ins(%m : memref<8xf32>) outs(%m : memref<8xf32>)
  %kept = linalg.abs ins(%x : tensor<8xf32>) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  return %kept : tensor<8xf32>
}
"""


def test_dead_untiled_originals_and_loops_are_erased():
    """An unused op on tensors and an unused loop nest computing tensors
    go; a loop that stores to memory and an op on memrefs stay."""
    after = cleaned(DEAD_CODE)
    names = [op.name for op in after.walk()]
    assert "linalg.log" not in names
    assert names.count("linalg.exp") == 1  # the memref one
    assert "memref.store" in names
    assert names.count("scf.for") == 1
    assert_same_meaning(parse_module(DEAD_CODE), after)


def test_cleanup_of_one_function_leaves_the_others():
    text = tiled_exp(16, 4) + tiled_exp(16, 4).replace("@f", "@g")
    module = parse_module(text)
    first = next(op for op in module.ops if isinstance(op, func.FuncOp))
    apply_tiling_cleanup(first)
    module.verify()
    mins = [op for op in module.walk() if isinstance(op, affine.MinOp)]
    assert len(mins) == 1 and mins[0].parent_op() is not None
    assert function_names(module) == ["f", "g"]


@pytest.mark.parametrize("path", CLEANUP_INPUTS, ids=lambda p: p.stem)
def test_cleanup_is_idempotent(path):
    once = cleaned(path.read_text())
    twice = parse_module(print_module(once))
    apply_tiling_cleanup(twice)
    assert print_module(twice) == print_module(once)


# --- against upstream's canonicalizer -----------------------------------------

FUSE_SCRIPT = """
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %0 = transform.structured.match ops{["ROOT"]} in %root : (!transform.any_op) -> !transform.any_op
    %1, %loops:2 = transform.structured.fuse %0 tile_sizes [SIZES] : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}
"""

MATMUL_BIAS = """
func.func @f(%a: tensor<10x12xf32>, %b: tensor<12x7xf32>, %bias: tensor<10x7xf32>) -> tensor<10x7xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<10x7xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%e : tensor<10x7xf32>) -> tensor<10x7xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<10x12xf32>, tensor<12x7xf32>) outs(%fill : tensor<10x7xf32>) -> tensor<10x7xf32>
  %r = linalg.add ins(%mm, %bias : tensor<10x7xf32>, tensor<10x7xf32>) outs(%e : tensor<10x7xf32>) -> tensor<10x7xf32>
  return %r : tensor<10x7xf32>
}
"""

EXP_CHAIN = """
func.func @f(%x: tensor<16x?xf32>) -> tensor<16x?xf32> {
  %c1 = arith.constant 1 : index
  %n = tensor.dim %x, %c1 : tensor<16x?xf32>
  %e = tensor.empty(%n) : tensor<16x?xf32>
  %a = linalg.exp ins(%x : tensor<16x?xf32>) outs(%e : tensor<16x?xf32>) -> tensor<16x?xf32>
  %b = linalg.negf ins(%a : tensor<16x?xf32>) outs(%e : tensor<16x?xf32>) -> tensor<16x?xf32>
  return %b : tensor<16x?xf32>
}
"""


STRIDED_CONV = """
func.func @f(%x: tensor<1x17x17x3xf32>, %w: tensor<3x3x3x8xf32>, %o: tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32> {
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%x, %w : tensor<1x17x17x3xf32>, tensor<3x3x3x8xf32>) outs(%o : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
  return %r : tensor<1x8x8x8xf32>
}
"""


def upstream_fused(program: str, root: str, sizes: str) -> ModuleOp:
    """Upstream's `transform.structured.fuse` of `root`, not cleaned up
    (the raw tiled IR both clean-ups then start from)."""
    script = FUSE_SCRIPT.replace("ROOT", root).replace("SIZES", sizes)
    text = mlir_opt(
        program + script,
        "--transform-interpreter",
        "--test-transform-dialect-erase-schedule",
    )
    module = parse_module(text)
    for op in list(module.ops):
        if isinstance(op, ModuleOp):  # the emptied schedule
            op.detach()
            op.erase()
    return module


@needs_mlir_opt
@pytest.mark.parametrize(
    ("program", "root", "sizes"),
    [
        (MATMUL_BIAS, "linalg.add", "4, 4"),
        (MATMUL_BIAS, "linalg.add", "5, 7"),
        (EXP_CHAIN, "linalg.negf", "4, 3"),
    ],
    ids=["matmul_bias_partial", "matmul_bias_divisible", "dynamic_chain"],
)
def test_upstream_fused_nests(program: str, root: str, sizes: str):
    before = upstream_fused(program, root, sizes)
    assert loop_body_sizes(before)
    assert_no_more_ops_than_upstream(before)


@needs_mlir_opt
@pytest.mark.parametrize("path", CLEANUP_INPUTS, ids=lambda p: p.stem)
def test_cleanup_inputs_against_upstream(path):
    assert_no_more_ops_than_upstream(parse_module(path.read_text()))


@needs_mlir_opt
@pytest.mark.parametrize(
    ("program", "op_name", "sizes"),
    [
        (MATMUL_BIAS, "linalg.matmul", [4, 4, 5]),
        (MATMUL_BIAS, "linalg.matmul", [5, 7, 4]),
        (EXP_CHAIN, "linalg.exp", [4, 2]),
        (STRIDED_CONV, "linalg.conv_2d_nhwc_hwcf", [0, 3, 3, 0]),
        (STRIDED_CONV, "linalg.conv_2d_nhwc_hwcf", [0, 3, 0, 0, 2, 0, 2]),
    ],
    ids=["matmul_partial", "matmul_divisible", "dynamic_exp", "conv", "conv_window"],
)
def test_tile_using_for_nests(program: str, op_name: str, sizes: list[int]):
    from linalg_ext.tiling.loops import tile_using_for

    before = parse_module(program)
    op = next(op for op in before.walk() if op.name == op_name)
    tile_using_for(op, sizes)
    before.verify()
    assert_no_more_ops_than_upstream(before)


@needs_mlir_opt
def test_fewer_ops_than_upstream_where_upstream_keeps_them():
    """Upstream's canonicalizer keeps the tile size of a divisible loop as
    an affine.min (and the dynamic slices and casts it implies); ours makes
    it the constant step."""
    before = parse_module(tiled_exp(16, 4))
    ours = cleaned(tiled_exp(16, 4))
    theirs = upstream_cleanup(before)
    assert ops_in_loops(ours) < ops_in_loops(theirs)


def test_fused_nest_runs_compiled():
    """The clean-up's output on a fused matmul nest, compiled natively,
    computes what the input computes on the interpreter."""
    path = CLEANUP_INPUTS[[p.stem for p in CLEANUP_INPUTS].index("fused_matmul")]
    report = check_module(
        parse_module(path.read_text()),
        "linalg-ext-tiling-cleanup",
        trials=2,
        seed=3,
        allow_leaks=True,
        backend="jit",
    )
    assert report.ok, "\n".join(v.line() for v in report.verdicts)


@needs_mlir_opt
@pytest.mark.parametrize(
    ("program", "root", "sizes"),
    [
        (MATMUL_BIAS, "linalg.add", [4, 4]),
        (MATMUL_BIAS, "linalg.add", [5, 7]),
        (EXP_CHAIN, "linalg.negf", [4, 3]),
    ],
    ids=["matmul_bias_partial", "matmul_bias_divisible", "dynamic_chain"],
)
def test_tile_and_fuse_nests(program: str, root: str, sizes: list[int]):
    """Our tile-and-fuse driver's nests, as upstream's fuse output above."""
    from linalg_ext.tiling.fusion_driver import tile_and_fuse

    before = parse_module(program)
    op = next(op for op in before.walk() if op.name == root)
    tile_and_fuse(op, sizes)
    before.verify()
    assert_no_more_ops_than_upstream(before)
