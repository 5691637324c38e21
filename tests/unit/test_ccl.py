"""`ccl.all_reduce` on one device (docs/ccl.md): the interpreter's meaning
and the JIT's lowering of it (`linalg_ext.lowering.ccl_single_device`) agree
with numpy, and both refuse what has no single-device meaning."""

from __future__ import annotations

import numpy as np
import pytest

from helpers import REPO, interpreter_error, parse_module, print_module
from linalg_ext.jit import compile_module
from linalg_ext.jit.compiled import JitError
from linalg_ext.pipelines import apply_pipeline
from linalg_ext.running import run_function

REDUCTIONS = ("sum", "prod", "max", "min", "avg")

LOOP = """
func.func @{name}(%x: tensor<4x3x{t}>) -> tensor<3x{t}> {{
  %e = tensor.empty() : tensor<3x{t}>
  %r = scf.forall (%i) in (4) shared_outs(%o = %e) -> (tensor<3x{t}>) {{
    %row = tensor.extract_slice %x[%i, 0] [1, 3] [1, 1] : tensor<4x3x{t}> to tensor<3x{t}>
    %s = "ccl.all_reduce"(%row) {{reduction = "{reduction}"{groups}}} : (tensor<3x{t}>) -> tensor<3x{t}>
    scf.forall.in_parallel {{
      tensor.parallel_insert_slice %s into %o[0] [3] [1] : tensor<3x{t}> into tensor<3x{t}>
    }}
  }}
  return %r : tensor<3x{t}>
}}
"""
"""Iteration `i` of the loop is replica `i`; it contributes row `i` of `x`
and writes the all-reduced value whole (the last replica's write stays)."""

SINGLE = """
func.func @{name}(%x: tensor<3x{t}>) -> tensor<3x{t}> {{
  %s = "ccl.all_reduce"(%x) {{reduction = "{reduction}"{groups}}} : (tensor<3x{t}>) -> tensor<3x{t}>
  return %s : tensor<3x{t}>
}}
"""


def _module(template: str, t: str, groups: str = "") -> str:
    return "\n".join(
        template.format(name=r, t=t, reduction=r, groups=groups) for r in REDUCTIONS
    )


def _expected(reduction: str, rows: np.ndarray) -> np.ndarray:
    acc = rows[0].copy()
    for row in rows[1:]:
        acc = {
            "sum": np.add,
            "avg": np.add,
            "prod": np.multiply,
            "max": np.maximum,
            "min": np.minimum,
        }[reduction](acc, row)
    if reduction == "avg":
        if acc.dtype.kind == "f":
            return acc / acc.dtype.type(len(rows))
        quotient = np.abs(acc) // len(rows)
        return np.where(acc < 0, -quotient, quotient).astype(acc.dtype)
    return acc


@pytest.mark.parametrize(("t", "dtype"), [("f32", np.float32), ("i32", np.int32)])
def test_replicas_are_the_loop_iterations(t, dtype):
    module = parse_module(_module(LOOP, t))
    x = np.array([[1, -2, 3], [4, 5, -6], [-7, 8, 9], [2, -3, -1]], dtype=dtype)
    compiled = compile_module(module.clone())
    for reduction in REDUCTIONS:
        expected = _expected(reduction, x)
        interpreted = run_function(module, reduction, [x]).results[0]
        np.testing.assert_allclose(interpreted, expected, rtol=1e-6)
        np.testing.assert_allclose(compiled[reduction](x), expected, rtol=1e-6)


def test_integer_average_rounds_toward_zero():
    module = parse_module(_module(LOOP, "i32"))
    x = np.zeros((4, 3), dtype=np.int32)
    x[0] = [-3, 3, -4]
    expected = np.array([0, 0, -1], dtype=np.int32)
    np.testing.assert_array_equal(run_function(module, "avg", [x]).results[0], expected)
    np.testing.assert_array_equal(compile_module(module.clone())["avg"](x), expected)


def test_float_max_propagates_nan():
    module = parse_module(_module(LOOP, "f32"))
    x = np.ones((4, 3), dtype=np.float32)
    x[2, 1] = np.nan
    for run in (
        run_function(module, "max", [x]).results[0],
        compile_module(module.clone())["max"](x),
    ):
        assert np.isnan(run[1]) and run[0] == 1 and run[2] == 1


def test_one_replica_per_group_gives_src():
    # Each replica is its own group: every iteration writes its own row; the
    # last one's write stays.
    module = parse_module(
        _module(LOOP, "f32", ", replica_groups = [[0], [2], [1], [3]]")
    )
    x = np.arange(12, dtype=np.float32).reshape(4, 3)
    compiled = compile_module(module.clone())
    for reduction in REDUCTIONS:
        np.testing.assert_array_equal(
            run_function(module, reduction, [x]).results[0], x[3]
        )
        np.testing.assert_array_equal(compiled[reduction](x), x[3])


def test_groups_of_the_iterations():
    # Two groups: the interpreter runs them (replica 3, last to write, is in
    # [1, 3]); the JIT's lowering supports one group or singletons only.
    module = parse_module(_module(LOOP, "f32", ", replica_groups = [[0, 2], [3, 1]]"))
    x = np.arange(12, dtype=np.float32).reshape(4, 3)
    np.testing.assert_array_equal(
        run_function(module, "sum", [x]).results[0], x[1] + x[3]
    )
    with pytest.raises(JitError, match="several groups of several replicas"):
        compile_module(module.clone())


@pytest.mark.parametrize("groups", ["", ", replica_groups = [[0]]"])
def test_outside_a_loop_there_is_one_device(groups):
    module = parse_module(_module(SINGLE, "f32", groups))
    x = np.array([1.5, -2.0, 3.25], dtype=np.float32)
    compiled = compile_module(module.clone())
    for reduction in REDUCTIONS:
        np.testing.assert_array_equal(
            run_function(module, reduction, [x]).results[0], x
        )
        np.testing.assert_array_equal(compiled[reduction](x), x)


REFUSED = [
    (
        SINGLE.format(
            name="f", t="f32", reduction="sum", groups=", replica_groups = [[0, 1]]"
        ),
        "replica groups [[0, 1]] name replica 1, but there is one device "
        "(the op is in no scf.forall)",
    ),
    (
        LOOP.format(
            name="f", t="f32", reduction="sum", groups=", replica_groups = [[0, 1, 2]]"
        ),
        "replica groups [[0, 1, 2]] leave out replicas [3] of the 4 iterations "
        "of its scf.forall",
    ),
    (
        LOOP.format(
            name="f",
            t="f32",
            reduction="sum",
            groups=", replica_groups = [[0, 1], [1, 2, 3]]",
        ),
        "replica groups [[0, 1], [1, 2, 3]] put replica 1 in two groups",
    ),
    (
        """
func.func @f(%x: tensor<3xf32>, %g: tensor<1x1xi64>) -> tensor<3xf32> {
  %s = "ccl.all_reduce"(%x, %g) {reduction = "sum"} : (tensor<3xf32>, tensor<1x1xi64>) -> tensor<3xf32>
  return %s : tensor<3xf32>
}
""",
        "dynamic_replica_groups are not supported on one device",
    ),
    (
        """
func.func @f(%x: tensor<3xf32>) -> tensor<3xf32> {
  %e = tensor.empty() : tensor<3xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.forall (%i) in (2) shared_outs(%o = %e) -> (tensor<3xf32>) {
    %v = scf.for %k = %c0 to %c1 step %c1 iter_args(%a = %x) -> (tensor<3xf32>) {
      %s = "ccl.all_reduce"(%a) {reduction = "sum"} : (tensor<3xf32>) -> tensor<3xf32>
      scf.yield %s : tensor<3xf32>
    }
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %v into %o[0] [3] [1] : tensor<3xf32> into tensor<3xf32>
    }
  }
  return %r : tensor<3xf32>
}
""",
        "must be directly in the body of the scf.forall whose iterations are its replicas",
    ),
]


@pytest.mark.parametrize(("text", "reason"), REFUSED)
def test_refused_on_one_device(text, reason):
    module = parse_module(text)
    args: list[np.ndarray] = [
        np.zeros((4, 3) if "4x3" in text else (3,), dtype=np.float32)
    ]
    if "tensor<1x1xi64>" in text:
        args.append(np.zeros((1, 1), dtype=np.int64))
    message = interpreter_error(module, "f", args)
    assert message.endswith(f"'ccl.all_reduce' op {reason}")
    with pytest.raises(JitError) as error:
        compile_module(module.clone())
    assert str(error.value).endswith(f"'ccl.all_reduce' op {reason}")


def test_two_all_reduces_in_one_loop():
    # The second all-reduce reads the first's value: the replicas run in step.
    module = parse_module(
        """
func.func @f(%x: tensor<4x3xf32>) -> tensor<3xf32> {
  %e = tensor.empty() : tensor<3xf32>
  %r = scf.forall (%i) = (2) to (10) step (2) shared_outs(%o = %e) -> (tensor<3xf32>) {
    %k = arith.divui %i, %c2 : index
    %j = arith.subi %k, %c1 : index
    %row = tensor.extract_slice %x[%j, 0] [1, 3] [1, 1] : tensor<4x3xf32> to tensor<3xf32>
    %s = "ccl.all_reduce"(%row) {reduction = "sum"} : (tensor<3xf32>) -> tensor<3xf32>
    %d = linalg.sub ins(%row, %s : tensor<3xf32>, tensor<3xf32>) outs(%e : tensor<3xf32>) -> tensor<3xf32>
    %m = "ccl.all_reduce"(%d) {reduction = "max"} : (tensor<3xf32>) -> tensor<3xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %m into %o[0] [3] [1] : tensor<3xf32> into tensor<3xf32>
    }
  }
  return %r : tensor<3xf32>
}
""".replace(
            "%e = tensor.empty()",
            "%c1 = arith.constant 1 : index\n  %c2 = arith.constant 2 : index\n"
            "  %e = tensor.empty()",
        )
    )
    x = np.array([[1, -2, 3], [4, 5, -6], [-7, 8, 9], [2, -3, -1]], dtype=np.float32)
    expected = (x - x.sum(axis=0)).max(axis=0)
    np.testing.assert_allclose(run_function(module, "f", [x]).results[0], expected)
    np.testing.assert_allclose(compile_module(module.clone())["f"](x), expected)


def _distributed(text: str) -> str:
    module = parse_module(text)
    apply_pipeline("transform-dialect-interpreter{erase-after=true}", module)
    return print_module(module)


def test_shared_output_to_distributed_style_rewrites_a_triple_named_twice_once():
    """`merge_handles` of each handle with itself names the triple twice:
    it is rewritten once (a second rewrite would meet erased ops); a loop
    in two different triples is refused before anything changes."""
    lit = REPO / "tests" / "filecheck" / "passes" / "transform-dialect-interpreter"
    source = (lit / "shared_output_to_distributed_style.mlir").read_text()
    header = "".join(f"{line}\n" for line in source.splitlines() if line[:1] == "#")
    start = source.index("\nfunc.func @sum_squares") + 1
    function = source[start : source.index("\n}\n", start) + 3]
    script = """
transform.sequence failures(propagate) {
^bb0(%root: !pdl.operation):
  %l = transform.structured.match ops{["scf.forall"]} in %root : (!pdl.operation) -> !pdl.operation
  %i = transform.structured.match ops{["linalg.fill"]} in %root : (!pdl.operation) -> !pdl.operation
  %m = transform.structured.match attributes {__merge__} in %root : (!pdl.operation) -> !pdl.operation
  %l2 = transform.merge_handles %l, %l : !pdl.operation
  %i2 = transform.merge_handles %i, %i : !pdl.operation
  %m2 = transform.merge_handles %m, MERGE : !pdl.operation
  %a, %b = transform.structured.shared_output_to_distributed_style %l2, %i2, %m2
}
"""
    once = _distributed(
        header
        + function
        + script.replace("%l, %l", "%l").replace("%i, %i", "%i").replace(", MERGE", "")
    )
    twice = _distributed(header + function + script.replace("MERGE", "%m"))
    assert twice == once
    assert twice.count("ccl.all_reduce") == 1
    with pytest.raises(Exception, match="in one triple only"):
        _distributed(header + function + script.replace("MERGE", "%i"))
