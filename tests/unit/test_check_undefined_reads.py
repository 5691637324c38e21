"""Reads of uninitialised memory are named, not blamed on a pass; refusals
that agree are agreement; linalg-ext-check's --inputs and --range.

The interpreter fills fresh buffers (`tensor.empty`, `memref.alloc`,
`memref.alloca`) by a configurable pattern (`semantics.fresh_buffers`);
`linalg_ext.checking` re-runs a function with patterns to see whether its
results depend on them, and fills one site at a time to name the reads.
"""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.parser import Parser
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from helpers import parse_module
from linalg_ext.checking import (
    CheckError,
    check_module,
    same_refusal,
    uninitialised_reads,
)
from linalg_ext.context import make_context
from linalg_ext.running import run_function
from linalg_ext.semantics.fresh_buffers import FreshFill, current_fill, filling
from linalg_ext.tools import check
from linalg_ext.value_ranges import ValueRange, ValueRangeError, parse_value_range

REDUCTION = """
func.func @sum(%x: tensor<4x8xf32>) -> tensor<4xf32> {
  %init = tensor.empty() : tensor<4xf32>
  %r = linalg.reduce ins(%x : tensor<4x8xf32>) outs(%init : tensor<4xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  return %r : tensor<4xf32>
}
"""
"""A reduction whose accumulator starts as a tensor.empty: undefined."""

DEFINED = """
func.func @overwrite(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %init = tensor.empty() : tensor<4x8xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x8xf32>) outs(%init : tensor<4x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %d = arith.addf %in, %in : f32
      linalg.yield %d : f32
  } -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}
func.func @copied(%x: memref<4xi32>) -> i32 {
  %buf = memref.alloc() : memref<4xi32>
  memref.copy %x, %buf : memref<4xi32> to memref<4xi32>
  %c1 = arith.constant 1 : index
  %v = memref.load %buf[%c1] : memref<4xi32>
  memref.dealloc %buf : memref<4xi32>
  return %v : i32
}
func.func @filled_sum(%x: tensor<4x8xf32>) -> tensor<4xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %r = linalg.reduce ins(%x : tensor<4x8xf32>) outs(%init : tensor<4xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  return %r : tensor<4xf32>
}
"""
"""Fresh buffers, each written whole before it is read: defined."""

TWO_SITES = """
func.func @max_of_rows(%x: memref<4x8xi32>) -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %zero = arith.constant 0 : i32
  %written = memref.alloca() : memref<4xi32>
  %partial = memref.alloc() : memref<4xi32>
  linalg.reduce ins(%x : memref<4x8xi32>) outs(%written : memref<4xi32>) dimensions = [1]
    (%in: i32, %acc: i32) {
      linalg.yield %in : i32
    }
  memref.store %zero, %partial[%c0] : memref<4xi32>
  %a = memref.load %written[%c3] : memref<4xi32>
  %b = memref.load %partial[%c1] : memref<4xi32>
  %s = arith.maxsi %a, %b : i32
  memref.dealloc %partial : memref<4xi32>
  return %s : i32
}
"""
"""Two sites: %written is written whole (the reduction's body ignores its
accumulator), %partial only at 0 and read at 1."""


def test_fresh_buffers_are_zeros_unless_a_fill_says_otherwise():
    module = parse_module("""
    func.func @f() -> (tensor<2xf32>, tensor<2xi32>, tensor<2xi1>, memref<2xindex>) {
      %e = tensor.empty() : tensor<2xf32>
      %i = tensor.empty() : tensor<2xi32>
      %b = tensor.empty() : tensor<2xi1>
      %m = memref.alloc() : memref<2xindex>
      return %e, %i, %b, %m : tensor<2xf32>, tensor<2xi32>, tensor<2xi1>, memref<2xindex>
    }
    """)
    zeros = run_function(module, "f", []).results
    assert all(not np.any(r) for r in zeros)
    with filling(FreshFill("high")):
        high = run_function(module, "f", []).results
    assert current_fill() == FreshFill()  # reset on leaving
    assert high[0][0] == np.float32(np.frombuffer(b"\x5a" * 4, np.float32)[0])
    assert high[1][0] == 0x5A5A5A5A and list(high[2]) == [1, 1]
    assert high[3][0] == 0x5A5A5A5A5A5A5A5A
    with filling(FreshFill("low")):
        low = run_function(module, "f", []).results
    assert np.isnan(low[0]).all() and low[1][0] < 0 and low[3][0] < 0
    # One site only: the others stay zeros.
    empty = next(op for op in module.walk() if op.name == "tensor.empty")
    with filling(FreshFill("low", frozenset({empty}))):
        one = run_function(module, "f", []).results
    assert np.isnan(one[0]).all() and not np.any(one[1]) and not np.any(one[3])


def test_a_reduction_into_an_empty_is_an_undefined_read_not_a_mismatch():
    (verdict,) = check_module(parse_module(REDUCTION), "canonicalize").verdicts
    assert not verdict.ok and verdict.mismatch is None
    assert verdict.undefined == (
        "reads uninitialised memory of %init (tensor.empty in @sum) (trial 0)"
    )
    assert verdict.line().startswith("@sum: UNDEFINED reads uninitialised memory")


def test_the_slow_path_names_the_read_when_the_first_trial_does_not_look():
    # Without the first trial's probe, the run after the pipeline (fresh
    # buffers filled with a pattern) disagrees, and the disagreement is
    # traced to the program, not blamed on the pass.
    report = check_module(parse_module(REDUCTION), "cse", undefined_reads=False)
    (verdict,) = report.verdicts
    assert verdict.mismatch is None
    assert verdict.undefined is not None and "%init" in verdict.undefined


def test_buffers_written_before_they_are_read_are_defined():
    module = parse_module(DEFINED)
    assert (
        uninitialised_reads(module, "overwrite", [np.ones((4, 8), np.float32)]) is None
    )
    assert uninitialised_reads(module, "copied", [np.arange(4, dtype=np.int32)]) is None
    report = check_module(module, "canonicalize")
    assert report.ok, "\n".join(v.line() for v in report.verdicts)


def test_one_site_at_a_time_names_only_the_one_read_uninitialised():
    module = parse_module(TWO_SITES)
    x = np.arange(32, dtype=np.int32).reshape(4, 8) - 40  # all negative
    sites = uninitialised_reads(module, "max_of_rows", [x])
    assert sites is not None
    assert [op.results[0].name_hint for op in sites] == ["partial"]


def test_a_fill_dependent_refusal_is_an_undefined_read():
    module = parse_module("""
    func.func @divide(%x: i32) -> i32 {
      %c0 = arith.constant 0 : index
      %m = memref.alloc() : memref<1xi32>
      %d = memref.load %m[%c0] : memref<1xi32>
      %q = arith.divsi %x, %d : i32
      memref.dealloc %m : memref<1xi32>
      return %q : i32
    }
    """)
    (verdict,) = check_module(module, "cse").verdicts
    assert verdict.undefined is not None and "%m (memref.alloc" in verdict.undefined


class ReplaceModulePass(ModulePass):
    """Replace the module by `text` (stands for a pass)."""

    name = "test-replace-module-undefined"

    def __init__(self, text: str):
        self.text = text

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for old in list(op.body.block.ops):
            Rewriter.erase_op(old)
        for new_op in list(parse_module(self.text).body.block.ops):
            new_op.detach()
            op.body.block.add_op(new_op)


def test_a_pass_that_makes_a_program_read_uninitialised_memory_is_blamed():
    after = DEFINED.replace(
        "%init = linalg.fill ins(%zero : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>",
        "%init = tensor.empty() : tensor<4xf32>",
    )
    report = check_module(
        parse_module(DEFINED), [ReplaceModulePass(after)], entry="filled_sum"
    )
    (verdict,) = report.verdicts
    assert verdict.undefined is None and verdict.mismatch is not None
    assert verdict.mismatch.startswith("in result #0")
    assert (
        "after the pipeline, it reads uninitialised memory of %init "
        "(tensor.empty in @filled_sum)" in verdict.mismatch
    )


GUARDED = """
func.func @guarded(%x: i32) -> i32 {
  %lo = arith.constant 10 : i32
  %hi = arith.constant 12 : i32
  %above = arith.cmpi sge, %x, %lo : i32
  %below = arith.cmpi sle, %x, %hi : i32
  %ok = arith.andi %above, %below : i1
  rtcheck.assert %ok, "MESSAGE {}" (%x : i32)
  return %x : i32
}
"""


def test_refusals_with_the_same_message_agree():
    module = parse_module(GUARDED.replace("MESSAGE", "x out of range:"))
    # Given inputs that fail the check on both sides: agreement.
    (verdict,) = check_module(module, "cse", inputs=[3]).verdicts
    assert verdict.ok and verdict.refused == 1
    assert verdict.line() == (
        "@guarded: OK (1 trial; 1 refused before and after the pipeline with "
        "the same message: x out of range: 3)"
    )
    # Random inputs that all fail compare nothing: an error, not a pass.
    (verdict,) = check_module(module, "cse").verdicts
    assert verdict.error is not None and "on any of the 3 random trials" in (
        verdict.error
    )
    # In range: runs and compares.
    (verdict,) = check_module(module, "cse", ranges=["0=10:12"]).verdicts
    assert verdict.ok and verdict.refused == 0


def test_refusals_with_different_messages_are_a_mismatch():
    before = GUARDED.replace("MESSAGE", "x out of range:")
    after = GUARDED.replace("MESSAGE", "something else:")
    report = check_module(parse_module(before), [ReplaceModulePass(after)], inputs=[3])
    (verdict,) = report.verdicts
    assert verdict.mismatch == (
        "both refuse, with different messages: before the pipeline: x out of "
        "range: 3; after it: something else: 3 (trial 0)"
    )


def test_same_refusal_allows_a_function_prefix_or_context():
    assert same_refusal("index 7 out of bounds", "@f: index 7 out of bounds")
    assert same_refusal("index 7 out of bounds", "call failed: index 7 out of bounds")
    assert not same_refusal("index 7 out of bounds", "index 8 out of bounds")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("1=0:7", ValueRange(1, 0, 7)),
        ("%indices=-3:3", ValueRange("indices", -3, 3)),
        ("@f:%x=-1.5:2.5", ValueRange("x", -1.5, 2.5, "f")),
        ("@g:0=1e-3:1", ValueRange(0, 0.001, 1, "g")),
    ],
)
def test_value_ranges_parse(text, expected):
    assert parse_value_range(text) == expected


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("x=0:7", "expected [@FUNCTION:]ARGUMENT=LOW:HIGH"),
        ("1=0-7", "expected [@FUNCTION:]ARGUMENT=LOW:HIGH"),
        ("1=a:b", "expected [@FUNCTION:]ARGUMENT=LOW:HIGH"),
        ("1=7:0", "7 is above 0"),
    ],
)
def test_bad_value_ranges_say_why(text, fragment):
    with pytest.raises(ValueRangeError, match=fragment.replace("[", r"\[")):
        parse_value_range(text)


FLOAT_GUARD = """
func.func @positive(%x: tensor<3xf32>, %i: i8) -> tensor<3xf32> {
  %c0 = arith.constant 0 : index
  %v = tensor.extract %x[%c0] : tensor<3xf32>
  %five = arith.constant 5.0 : f32
  %ok = arith.cmpf oge, %v, %five : f32
  rtcheck.assert %ok, "too small: {}" (%i : i8)
  return %x : tensor<3xf32>
}
"""


def test_ranges_bound_random_values_and_must_fit_the_argument():
    module = parse_module(FLOAT_GUARD)
    (verdict,) = check_module(module, "cse").verdicts
    assert verdict.error is not None  # [-1, 1] is never >= 5
    (verdict,) = check_module(module, "cse", ranges=["%x=5:6"]).verdicts
    assert verdict.ok and verdict.refused == 0
    with pytest.raises(CheckError, match="holds \\[-128, 127\\] only"):
        check_module(module, "cse", ranges=["%i=0:300"])
    with pytest.raises(CheckError, match="its bounds must be whole numbers"):
        check_module(module, "cse", ranges=["1=0:2.5"])
    with pytest.raises(CheckError, match="no function checked has an argument %y"):
        check_module(module, "cse", ranges=["%y=0:1"])
    with pytest.raises(CheckError, match="not given ones"):
        check_module(module, "cse", ranges=["0=0:1"], inputs=[np.ones(3), 1])


SCATTER = """
func.func @scatter(%indices: memref<3x2xi32>, %updates: memref<3x4xf32>, %dest: memref<5x?x4xf32>) {
  linalg_ext.scatter ins(%indices, %updates : memref<3x2xi32>, memref<3x4xf32>) outs(%dest : memref<5x?x4xf32>) {
  ^bb0(%u: f32, %d: f32):
    %s = arith.addf %u, %d : f32
    linalg_ext.yield %s : f32
  }
  return
}
"""


def test_scatter_indices_default_to_valid_positions():
    module = parse_module(SCATTER)
    report = check_module(module, "convert-linalg-ext-to-loops", trials=5, dim_size=2)
    (verdict,) = report.verdicts
    assert verdict.ok and verdict.refused == 0, verdict.line()
    # A range given wins over the default: out of bounds, the interpreter
    # refuses before the pipeline.
    (verdict,) = check_module(
        module, "convert-linalg-ext-to-loops", ranges=["%indices=5:9"]
    ).verdicts
    assert not verdict.ok
    assert "out of bounds" in (verdict.error or verdict.mismatch or "")


def test_check_refuses_an_input_that_does_not_verify():
    text = REDUCTION.replace("dimensions = [1]", "dimensions = [5]")
    module = Parser(make_context(), text).parse_module()
    with pytest.raises(CheckError, match="the input does not verify"):
        check_module(module, "cse")


# --------------------------------------------------------------------------
# The command line
# --------------------------------------------------------------------------


def one_error_line(capsys, code: int) -> str:
    out, err = capsys.readouterr()
    assert code == 1, out + err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("linalg-ext-check: error:"), err
    return lines[0]


def test_tool_names_the_uninitialised_read_with_its_location(tmp_path, capsys):
    path = tmp_path / "sum.mlir"
    path.write_text(REDUCTION)
    code = check.main([str(path), "-p", "canonicalize"])
    out = capsys.readouterr().out
    assert code == 1
    assert out.strip() == (
        f"@sum: UNDEFINED reads uninitialised memory of %init "
        f"(tensor.empty at {path}:3:11) (trial 0)"
    )


def test_tool_inputs_and_ranges(tmp_path, capsys):
    path = tmp_path / "guarded.mlir"
    path.write_text(GUARDED.replace("MESSAGE", "x out of range:"))
    np.save(tmp_path / "x.npy", np.array(11, dtype=np.int32))
    code = check.main([str(path), "-p", "cse", "--inputs", str(tmp_path / "x.npy")])
    assert code == 0
    assert capsys.readouterr().out.strip() == "@guarded: OK (1 trial)"
    code = check.main([str(path), "-p", "cse", "--range", "%x=10:12"])
    assert code == 0
    assert capsys.readouterr().out.strip() == "@guarded: OK (3 trials)"
    line = one_error_line(
        capsys,
        check.main([str(path), "-p", "cse", "--range", "0=1:2", "--inputs", "x.npy"]),
    )
    assert "--range is for random inputs" in line
    line = one_error_line(capsys, check.main([str(path), "-p", "cse", "--range", "x"]))
    assert "bad value range 'x'" in line
    np.save(tmp_path / "f.npy", np.array(1.5))
    line = one_error_line(
        capsys,
        check.main([str(path), "-p", "cse", "--inputs", str(tmp_path / "f.npy")]),
    )
    assert "argument #0 of @guarded" in line


def test_tool_refuses_a_module_that_does_not_verify(tmp_path, capsys):
    path = tmp_path / "bad.mlir"
    path.write_text(REDUCTION.replace("dimensions = [1]", "dimensions = [5]"))
    line = one_error_line(capsys, check.main([str(path), "-p", "cse"]))
    assert "invalid IR" in line


# --------------------------------------------------------------------------
# Compiled code
# --------------------------------------------------------------------------


def test_compiled_reads_of_an_empty_are_named_not_a_mismatch():
    # Compiled, the accumulator holds whatever malloc returns: without the
    # probe the verdict would depend on the allocator.
    (verdict,) = check_module(parse_module(REDUCTION), [], backend="jit").verdicts
    assert verdict.mismatch is None
    assert verdict.undefined is not None and "%init" in verdict.undefined
    report = check_module(parse_module(DEFINED), [], backend="jit", trials=2)
    assert report.ok, "\n".join(v.line() for v in report.verdicts)


def test_a_compiled_check_that_fails_as_the_interpreter_does_agrees():
    module = parse_module(GUARDED.replace("MESSAGE", "x out of range:"))
    (verdict,) = check_module(module, [], backend="jit", inputs=[3]).verdicts
    assert verdict.ok and verdict.refused == 1, verdict.line()
    assert verdict.refusal == "x out of range: 3"
    (verdict,) = check_module(module, [], backend="jit", ranges=["%x=10:12"]).verdicts
    assert verdict.ok and verdict.refused == 0, verdict.line()
