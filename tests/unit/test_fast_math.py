"""The floating-point contract: `fast_math` modes reach LLVM IR, change what
LLVM may do (fused multiply-adds, vectorised reductions), and the check's
tolerance follows them; "none" is the old path, bit for bit."""

from __future__ import annotations

import platform
import re
import subprocess
import sys

import numpy as np
import pytest
from xdsl.dialects.utils.fast_math import FastMathFlag

from helpers import REPO, parse_module
from linalg_ext import checking
from linalg_ext.checking import CheckError, check_module
from linalg_ext.comparison import first_difference
from linalg_ext.jit import (
    JitError,
    compile_module,
    optimized_assembly,
    optimized_llvm_ir,
)
from linalg_ext.jit.compiler import llvm_binding
from linalg_ext.lowering.fast_math import (
    FAST_MATH_MODES,
    added_flags,
    fast_math_slack,
)
from linalg_ext.running import find_function
from linalg_ext.running import run_function as interpret
from linalg_ext.tools import check as check_tool
from linalg_ext.tools import opt as opt_tool
from linalg_ext.tools import run as run_tool

MULTIPLY_ADD = """
func.func @square_plus(%a: f32, %c: f32) -> f32 {
  %p = arith.mulf %a, %a : f32
  %s = arith.addf %p, %c : f32
  return %s : f32
}
func.func @written_contract(%a: f32, %c: f32) -> f32 {
  %p = arith.mulf %a, %a fastmath<contract> : f32
  %s = arith.addf %p, %c fastmath<contract> : f32
  return %s : f32
}
"""

KERNELS = """
func.func @matmul(%a: tensor<16x48xf32>, %b: tensor<48x8xf32>) -> tensor<16x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x8xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<16x8xf32>) -> tensor<16x8xf32>
  %m = linalg.matmul ins(%a, %b : tensor<16x48xf32>, tensor<48x8xf32>)
      outs(%acc : tensor<16x8xf32>) -> tensor<16x8xf32>
  return %m : tensor<16x8xf32>
}
func.func @row_sum(%x: tensor<4x1024xf32>) -> tensor<4xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %s = linalg.reduce ins(%x : tensor<4x1024xf32>) outs(%acc : tensor<4xf32>)
      dimensions = [1]
    (%in: f32, %init: f32) {
      %r = arith.addf %in, %init : f32
      linalg.yield %r : f32
    }
  return %s : tensor<4xf32>
}
func.func @softmax(%x: tensor<4x64xf32>) -> tensor<4x64xf32> {
  // The running maximum starts at the lowest finite f32, not -inf: `fast`
  // assumes no infinities.
  %ninf = arith.constant -3.40282347E+38 : f32
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x64xf32>
  %e0 = tensor.empty() : tensor<4xf32>
  %e1 = tensor.empty() : tensor<4xf32>
  %e2 = tensor.empty() : tensor<4xf32>
  %max = linalg.fill ins(%ninf : f32) outs(%e0 : tensor<4xf32>) -> tensor<4xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e1 : tensor<4xf32>) -> tensor<4xf32>
  %r:4 = linalg_ext.softmax dimension(1) ins(%x : tensor<4x64xf32>)
      outs(%e, %max, %acc, %e2 : tensor<4x64xf32>, tensor<4xf32>, tensor<4xf32>,
           tensor<4xf32>) : tensor<4x64xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
  return %r#0 : tensor<4x64xf32>
}
"""

ROW_SUM_ONLY = KERNELS[
    KERNELS.index("func.func @row_sum") : KERNELS.index("func.func @softmax")
]

# a * a + c with a = 1 + 2^-12, c = -(1 + 2^-11): a * a = 1 + 2^-11 + 2^-24
# rounds to 1 + 2^-11 (a tie, to even), so the sum is 0 with two roundings
# and exactly 2^-24 with one (a fused multiply-add).
A = np.float32(1 + 2.0**-12)
C = np.float32(-(1 + 2.0**-11))
FUSED = 2.0**-24


def _host_has_fma() -> bool:
    features = llvm_binding().get_host_cpu_features()
    return bool(features.get("fma", False))


def _float_instructions(llvm_ir: str) -> list[str]:
    return re.findall(r"= (f(?:add|sub|mul|div|neg)[^%]*)%", llvm_ir)


# --------------------------------------------------------------------------
# Flags reach LLVM IR


@pytest.mark.parametrize(
    ("mode", "fmul", "fadd"),
    [
        ("none", "fmul float", "fadd float"),
        ("contract", "fmul contract float", "fadd contract float"),
        ("reassoc", "fmul reassoc contract float", "fadd reassoc contract float"),
        ("arcp", "fmul reassoc contract float", "fadd reassoc contract float"),
        ("fast", "fmul fast float", "fadd fast float"),
    ],
)
def test_each_mode_sets_its_flags_on_the_llvm_ir_instructions(mode, fmul, fadd):
    compiled = compile_module(parse_module(MULTIPLY_ADD), fast_math=mode)
    body = compiled.llvm_ir.split('@"_lx_fn_square_plus"', 1)[1].split("}", 1)[0]
    assert [i.strip() for i in _float_instructions(body)] == [fmul, fadd]


def test_flags_written_in_the_ir_reach_llvm_ir_in_every_mode():
    compiled = compile_module(parse_module(MULTIPLY_ADD))
    body = compiled.llvm_ir.split('@"_lx_fn_written_contract"', 1)[1].split("}", 1)[0]
    assert [i.strip() for i in _float_instructions(body)] == [
        "fmul contract float",
        "fadd contract float",
    ]


def test_flags_are_printed_in_llvm_order_whatever_the_set_order():
    text = """
    func.func @f(%a: f32, %b: f32) -> f32 {
      %d = arith.subf %a, %b fastmath<afn,nsz,reassoc,arcp,ninf> : f32
      return %d : f32
    }
    """
    compiled = compile_module(parse_module(text), fast_math="contract")
    # LLVM's order: reassoc nnan ninf nsz arcp contract afn.
    assert "fsub reassoc ninf nsz arcp contract afn float" in compiled.llvm_ir


def test_contract_and_reassoc_leave_division_and_min_max_alone():
    for mode in ("contract", "reassoc"):
        assert added_flags(mode, "arith.divf") == frozenset()
        assert added_flags(mode, "arith.maximumf") == frozenset()
        assert added_flags(mode, "arith.addf")
    assert len(added_flags("fast", "arith.divf")) == 7
    assert added_flags("none", "arith.addf") == frozenset()


def test_arcp_adds_only_arcp_and_only_to_division():
    assert added_flags("arcp", "arith.divf") == {FastMathFlag.ALLOW_RECIP}
    assert added_flags("arcp", "arith.addf") == added_flags("reassoc", "arith.addf")
    for name in ("arith.maximumf", "arith.remf", "arith.negf"):
        assert added_flags("arcp", name) == frozenset()


ROW_DIVIDED_BY_ITS_SUM = """
func.func @normalise(%x: tensor<8x256xf32>, %s: tensor<8xf32>) -> tensor<8x256xf32> {
  %e = tensor.empty() : tensor<8x256xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>,
      affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>],
      iterator_types = ["parallel", "parallel"]}
      ins(%x, %s : tensor<8x256xf32>, tensor<8xf32>) outs(%e : tensor<8x256xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %q = arith.divf %a, %b : f32
    linalg.yield %q : f32
  } -> tensor<8x256xf32>
  return %r : tensor<8x256xf32>
}
"""


@pytest.mark.skipif(platform.machine() != "x86_64", reason="reads x86 assembly")
def test_arcp_turns_a_row_division_into_one_reciprocal_and_multiplications():
    module = parse_module(ROW_DIVIDED_BY_ITS_SUM)
    packed_divide = re.compile(r"\bv?divps\b")
    strict = optimized_assembly(compile_module(module, fast_math="reassoc").llvm_ir)
    assert packed_divide.search(strict)
    compiled = compile_module(module, fast_math="arcp")
    # The IR keeps `fdiv arcp`; the back end divides once per row and
    # multiplies the rest.
    assert re.search(r"fdiv arcp <\d+ x float>", optimized_llvm_ir(compiled.llvm_ir))
    loose = optimized_assembly(compiled.llvm_ir)
    assert not packed_divide.search(loose)
    assert re.search(r"\bv?mulps\b", loose)
    # Special values as IEEE: x / inf = 0, x / 0 = inf, 0 / 0 = NaN.
    x = np.ones((8, 256), np.float32)
    x[1, :] = 0.0
    s = np.array([2, 0, np.inf, 0, 4, 8, -0.5, 3], np.float32)
    with np.errstate(divide="ignore", invalid="ignore"):
        expected = x / s[:, None]
    actual = compiled["normalise"](x, s)
    assert np.array_equal(np.isnan(actual), np.isnan(expected))
    finite = ~np.isnan(expected)
    np.testing.assert_allclose(actual[finite], expected[finite], rtol=2e-7)


# --------------------------------------------------------------------------
# "none" is the old path


def test_none_is_the_default_path_bit_for_bit():
    module = parse_module(KERNELS)
    default = compile_module(module)
    none = compile_module(module, fast_math="none")
    assert none.llvm_ir == default.llvm_ir
    assert not any(
        flag in instruction
        for instruction in _float_instructions(none.llvm_ir)
        for flag in ("contract", "reassoc", "fast", "nnan", "nsz")
    )
    rng = np.random.default_rng(3)
    a = rng.uniform(-1, 1, (16, 48)).astype(np.float32)
    b = rng.uniform(-1, 1, (48, 8)).astype(np.float32)
    assert np.array_equal(none["matmul"](a, b), default["matmul"](a, b))


def test_none_rounds_a_multiply_add_twice_as_the_interpreter_does():
    module = parse_module(MULTIPLY_ADD)
    assert interpret(module, "square_plus", [A, C]).results == [0.0]
    assert compile_module(module)["square_plus"](A, C) == 0.0


@pytest.mark.skipif(not _host_has_fma(), reason="the host CPU has no FMA")
def test_contract_fuses_a_multiply_add_into_one_rounding():
    module = parse_module(MULTIPLY_ADD)
    for mode in ("contract", "reassoc", "arcp", "fast"):
        assert compile_module(module, fast_math=mode)["square_plus"](A, C) == FUSED
    # Flags written in the program are honoured without any mode.
    assert compile_module(module)["written_contract"](A, C) == FUSED


# --------------------------------------------------------------------------
# What LLVM makes of it


def test_reassoc_lets_llvm_vectorise_a_reduction():
    module = parse_module(ROW_SUM_ONLY)
    vector_add = re.compile(r"fadd [a-z ]*<\d+ x float>")
    strict = optimized_llvm_ir(compile_module(module).llvm_ir)
    assert not vector_add.search(strict)
    for mode in ("reassoc", "arcp", "fast"):
        loose = optimized_llvm_ir(compile_module(module, fast_math=mode).llvm_ir)
        assert re.search(r"fadd (reassoc contract|fast) <\d+ x float>", loose), mode


# --------------------------------------------------------------------------
# Results within the documented tolerance


@pytest.mark.parametrize("mode", FAST_MATH_MODES)
def test_compiled_code_agrees_with_the_interpreter_in_every_mode(mode):
    report = check_module(
        parse_module(KERNELS), [], backend="jit", fast_math=mode, trials=2, seed=5
    )
    assert report.ok, [v.line() for v in report.verdicts]


def _cancelling_row(n: int) -> np.ndarray:
    """One row of terms of up to 1000 in magnitude that sum to almost zero."""
    rng = np.random.default_rng(11)
    half = rng.uniform(-1000, 1000, n // 2).astype(np.float32)
    noise = rng.uniform(-1e-3, 1e-3, n // 2).astype(np.float32)
    row = np.concatenate([half, -half + noise])
    return rng.permutation(row).reshape(1, n).astype(np.float32)


SUM_ONE_ROW = """
func.func @row_sum(%x: tensor<1x4096xf32>) -> tensor<1xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<1xf32>) -> tensor<1xf32>
  %s = linalg.reduce ins(%x : tensor<1x4096xf32>) outs(%acc : tensor<1xf32>)
      dimensions = [1]
    (%in: f32, %init: f32) {
      %r = arith.addf %in, %init : f32
      linalg.yield %r : f32
    }
  return %s : tensor<1xf32>
}
"""


def test_the_check_needs_the_fast_math_slack_for_a_reordered_sum(monkeypatch):
    module = parse_module(SUM_ONE_ROW)
    row = _cancelling_row(4096)
    expected = interpret(module, "row_sum", [row])
    actual = compile_module(module, fast_math="reassoc")["row_sum"](row)
    # Another order of a sum that cancels: more than the f32 tolerance apart.
    assert first_difference(expected.results[0], actual) is not None
    slack = fast_math_slack(
        "reassoc", find_function(module, "row_sum"), [row], expected
    )
    assert slack is not None
    assert first_difference(expected.results[0], actual, slack.results[0]) is None
    # The whole check passes on that slack alone (no conditioning).
    monkeypatch.setattr(checking, "conditioning", lambda *args: None)
    report = check_module(module, [], backend="jit", fast_math="reassoc", inputs=[row])
    assert report.ok, report.verdicts[0].line()


def test_the_fast_math_slack_still_catches_a_wrong_result():
    module = parse_module(ROW_SUM_ONLY)
    rng = np.random.default_rng(2)
    x = rng.uniform(-1, 1, (4, 1024)).astype(np.float32)
    expected = interpret(module, "row_sum", [x])
    slack = fast_math_slack("fast", find_function(module, "row_sum"), [x], expected)
    assert slack is not None
    wrong = expected.results[0] + np.float32(0.01) * np.abs(expected.results[0]).max()
    assert first_difference(expected.results[0], wrong, slack.results[0]) is not None
    # A dropped term (one element of a row) is caught too.
    dropped = expected.results[0] - np.float32(0.5) * x[:, 0]
    assert first_difference(expected.results[0], dropped, slack.results[0])


def test_the_slack_is_unchanged_without_fast_math():
    module = parse_module(ROW_SUM_ONLY)
    x = np.ones((4, 1024), np.float32)
    run = interpret(module, "row_sum", [x])
    assert fast_math_slack("none", find_function(module, "row_sum"), [x], run) is None
    widened = fast_math_slack(
        "contract", find_function(module, "row_sum"), [x], run, run
    )
    assert widened is not None
    # Added to the given slack: n (4096) * eps(f32) * 1024 (the largest |result|).
    extra = 4096 * float(np.finfo(np.float32).eps) * 1024
    np.testing.assert_allclose(widened.results[0], run.results[0] + extra)


# --------------------------------------------------------------------------
# Options: one-line errors


@pytest.mark.parametrize("value", ["fastest", "FAST", True, None, 1])
def test_compile_module_refuses_an_unknown_mode_in_one_line(value):
    with pytest.raises(JitError) as error:
        compile_module(parse_module(MULTIPLY_ADD), fast_math=value)
    assert str(error.value) == (
        "compile_module: fast_math must be one of none, contract, reassoc, arcp, fast, "
        f"not {value!r}"
    )


def test_check_module_refuses_an_unknown_mode_or_the_interpreter():
    module = parse_module(MULTIPLY_ADD)
    with pytest.raises(CheckError, match=r"^fast_math must be one of .*'loose'$"):
        check_module(module, [], backend="jit", fast_math="loose")  # pyright: ignore[reportArgumentType]
    with pytest.raises(CheckError, match="needs backend 'jit'"):
        check_module(module, "canonicalize", fast_math="fast")


def test_the_pass_option_refuses_an_unknown_mode_in_one_line(tmp_path, capsys):
    source = tmp_path / "f.mlir"
    source.write_text(MULTIPLY_ADD)
    for pipeline in (
        "lower-to-llvm{fast-math=fastest}",
        "convert-arith-to-llvm{fast-math=fastest}",
    ):
        assert opt_tool.main([str(source), "-p", pipeline]) == 1
        err = capsys.readouterr().err.strip()
        assert "\n" not in err
        assert (
            "option 'fast-math' expects one of none, contract, reassoc, arcp, fast"
            in err
        )
        assert "'fastest'" in err


def test_the_tools_take_fast_math_with_the_jit_only(tmp_path, capsys):
    source = tmp_path / "f.mlir"
    source.write_text(MULTIPLY_ADD)
    assert (
        check_tool.main([str(source), "--backend", "jit", "--fast-math", "fast"]) == 0
    )
    assert "@square_plus: OK" in capsys.readouterr().out
    for tool in (check_tool, run_tool):
        arguments = [str(source), "--fast-math", "contract", "--entry", "square_plus"]
        if tool is check_tool:
            arguments += ["-p", "canonicalize"]
        assert tool.main(arguments) == 1
        err = capsys.readouterr().err.strip()
        assert err.endswith(
            "error: --fast-math is for compiled code: use it with --backend jit"
        )
        assert "\n" not in err
    arguments = [str(source), "-p", "canonicalize", "--approximate-math"]
    assert check_tool.main(arguments) == 1
    err = capsys.readouterr().err.strip()
    assert err.endswith(
        "error: --approximate-math is for compiled code: use it with --backend jit"
    )
    assert "\n" not in err
    with pytest.raises(CheckError, match="approximate_math is how compiled code"):
        check_module(parse_module(MULTIPLY_ADD), "canonicalize", approximate_math=True)
    assert (
        run_tool.main(
            [
                str(source),
                "--entry",
                "square_plus",
                "--backend",
                "jit",
                "--fast-math",
                "reassoc",
            ]
        )
        == 0
    )


# --------------------------------------------------------------------------
# The bench


def test_the_bench_runs_every_mode_and_shows_the_vectorised_reduction():
    result = subprocess.run(
        [sys.executable, str(REPO / "bench" / "fast_math_bench.py"), "--quick"],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].startswith("machine: ")
    rows = {tuple(line.split()[2:4]): line for line in lines if line.startswith("row")}
    assert set(rows) == {("256²", mode) for mode in FAST_MATH_MODES}
    assert "scalar" in rows[("256²", "none")]
    assert "x float>" in rows[("256²", "reassoc")]
    assert sum(line.startswith("matmul 64³") for line in lines) == len(FAST_MATH_MODES)
