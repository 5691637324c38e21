"""`math-polynomial-approximation-ext` is as accurate as its docstring says.

Each rewritten op is compiled (`linalg_ext.jit`) in a loop over a memref and
run on every 4096th f32 bit pattern (2**20 values, log-spaced over the whole
range, subnormals and both signs included), on 2**20 evenly spaced values
over the function's interesting range, and on the special values; the result
is compared with numpy's float64 function rounded to f32 (`math.erf` for
erf), in ulps: the distance between the two f32s in the order of their bit
patterns. The bound per op is the pass's stated one, so a wrong coefficient
fails (`test_a_wrong_coefficient_is_caught` shows one that does). Special
values must match exactly (NaN where the reference is NaN).

The interpreter runs the rewritten arith code bit for bit as compiled code
does (its `math.fma` rounds once, as `llvm.intr.fma`), and the interpreter of
the original op (numpy's f32 functions, themselves within an ulp) agrees
with it within the bounds plus one.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pytest
from xdsl.dialects.builtin import ModuleOp

from helpers import parse_module
from linalg_ext.context import make_context
from linalg_ext.jit import JitModule, compile_module
from linalg_ext.passes import math_polynomial_approximation as approximation
from linalg_ext.passes.math_polynomial_approximation import (
    MathPolynomialApproximationPass,
)
from linalg_ext.running import run_function

MAX_ULPS = {
    "exp": 1,
    "log": 1,
    "log2": 1,
    "log1p": 2,
    "expm1": 2,
    "tanh": 1,
    "erf": 4,
}
"""The bounds the pass's docstring states."""

INTERESTING = {
    "exp": (-105.0, 90.0),
    "log": (0.0, 4.0),
    "log2": (0.0, 4.0),
    "log1p": (-1.0, 2.0),
    "expm1": (-20.0, 90.0),
    "tanh": (-10.0, 10.0),
    "erf": (-5.0, 5.0),
}
"""Where each function changes most: swept with 2**20 evenly spaced values."""

_erf = np.vectorize(math.erf, otypes=[np.float64])
REFERENCES: dict[str, Callable[[np.ndarray], np.ndarray]] = {
    "exp": np.exp,
    "log": np.log,
    "log2": np.log2,
    "log1p": np.log1p,
    "expm1": np.expm1,
    "tanh": np.tanh,
    "erf": _erf,
}

SPECIAL_VALUES = np.array(
    [
        0.0,
        -0.0,
        np.inf,
        -np.inf,
        np.nan,
        1.0,
        -1.0,
        1e-45,
        -1e-45,
        2.0**-126,
        3.4028235e38,
        -3.4028235e38,
        88.72283,
        88.72284,
        -87.33655,
        -103.9,
        -104.0,
        9.02,
        -9.02,
    ],
    dtype=np.float32,
)


def loop_function(op: str) -> str:
    """`@<op>(in, out)`: out[i] = math.<op>(in[i])."""
    return f"""
  func.func @{op}(%in: memref<?xf32>, %out: memref<?xf32>) {{
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %n = memref.dim %in, %c0 : memref<?xf32>
    scf.for %i = %c0 to %n step %c1 {{
      %x = memref.load %in[%i] : memref<?xf32>
      %y = math.{op} %x : f32
      memref.store %y, %out[%i] : memref<?xf32>
    }}
    return
  }}"""


def loops_module() -> ModuleOp:
    return parse_module(
        "builtin.module {" + "".join(map(loop_function, MAX_ULPS)) + "}"
    )


def approximated(module: ModuleOp) -> ModuleOp:
    MathPolynomialApproximationPass().apply(make_context(), module)
    return module


@pytest.fixture(scope="module")
def compiled() -> JitModule:
    return compile_module(approximated(loops_module()), runtime_checks=False)


def ordered(values: np.ndarray) -> np.ndarray:
    """f32s as integers in the order of the floats (so that the difference
    of two is their distance in ulps, across zero too)."""
    bits = values.view(np.int32).astype(np.int64)
    return np.where(bits < 0, -(bits & 0x7FFFFFFF), bits)


def ulp_errors(actual: np.ndarray, expected: np.ndarray) -> np.ndarray:
    """Distances in ulps; NaN against NaN is 0, NaN against a number huge."""
    both_nan = np.isnan(actual) & np.isnan(expected)
    one_nan = np.isnan(actual) != np.isnan(expected)
    distance = np.abs(ordered(actual) - ordered(expected))
    return np.where(both_nan, 0, np.where(one_nan, 1 << 40, distance))


def reference(op: str, inputs: np.ndarray) -> np.ndarray:
    with np.errstate(all="ignore"):
        return REFERENCES[op](inputs.astype(np.float64)).astype(np.float32)


def sweep(op: str) -> np.ndarray:
    every_4096th = (np.arange(1 << 20, dtype=np.uint64) << 12) + 1234
    low, high = INTERESTING[op]
    return np.concatenate(
        [
            every_4096th.astype(np.uint32).view(np.float32),
            np.linspace(low, high, 1 << 20, dtype=np.float32),
            SPECIAL_VALUES,
        ]
    )


def run(compiled: JitModule, op: str, inputs: np.ndarray) -> np.ndarray:
    out = np.zeros_like(inputs)
    compiled[op](inputs, out)
    return out


@pytest.mark.parametrize("op", MAX_ULPS)
def test_compiled_error_is_within_the_stated_ulps(compiled: JitModule, op: str):
    inputs = sweep(op)
    errors = ulp_errors(run(compiled, op, inputs), reference(op, inputs))
    worst = int(np.argmax(errors))
    assert errors[worst] <= MAX_ULPS[op], (
        f"{op}({inputs[worst]!r}): {errors[worst]} ulps"
    )


EXACT_CASES: dict[str, list[tuple[float, float]]] = {
    "exp": [
        (-np.inf, 0.0),
        (np.inf, np.inf),
        (88.72284, np.inf),
        (-104.0, 0.0),
        (-1000.0, 0.0),
        (1000.0, np.inf),
        (0.0, 1.0),
        (-103.0, float(np.float32(np.exp(-103.0)))),  # subnormal
    ],
    "log": [
        (0.0, -np.inf),
        (-0.0, -np.inf),
        (-1.0, np.nan),
        (-np.inf, np.nan),
        (np.inf, np.inf),
        (1.0, 0.0),
        (1e-45, float(np.float32(np.log(1.401298464324817e-45)))),
    ],
    "log2": [(0.0, -np.inf), (-2.0, np.nan), (np.inf, np.inf), (0.25, -2.0)],
    "log1p": [(-1.0, -np.inf), (-2.0, np.nan), (np.inf, np.inf), (-0.0, -0.0)],
    "expm1": [(-np.inf, -1.0), (np.inf, np.inf), (-0.0, -0.0), (1e-30, 1e-30)],
    "tanh": [(np.inf, 1.0), (-np.inf, -1.0), (9.02, 1.0), (-20.0, -1.0), (-0.0, -0.0)],
    "erf": [(np.inf, 1.0), (-np.inf, -1.0), (4.0, 1.0), (-0.0, -0.0)],
}
"""(input, result) pairs each op must give exactly, NaN included."""


@pytest.mark.parametrize("op", MAX_ULPS)
def test_special_values_are_exact(compiled: JitModule, op: str):
    cases = EXACT_CASES[op] + [(np.nan, np.nan)]
    inputs = np.array([x for x, _ in cases], dtype=np.float32)
    expected = np.array([y for _, y in cases], dtype=np.float32)
    actual = run(compiled, op, inputs)
    for x, want, got in zip(inputs, expected, actual, strict=True):
        same = (np.isnan(want) and np.isnan(got)) or (
            want == got and np.signbit(want) == np.signbit(got)
        )
        assert same, f"{op}({x!r}) = {got!r}, expected {want!r}"


def test_a_wrong_coefficient_is_caught(monkeypatch: pytest.MonkeyPatch):
    """The ulp test fails when one coefficient is off by 1e-5 of itself."""
    wrong = list(approximation.EXP_POLYNOMIAL)
    wrong[1] *= 1 + 1e-5
    monkeypatch.setattr(approximation, "EXP_POLYNOMIAL", tuple(wrong))
    module = approximated(parse_module(f"builtin.module {{{loop_function('exp')}}}"))
    inputs = sweep("exp")
    out = run(compile_module(module, runtime_checks=False), "exp", inputs)
    assert ulp_errors(out, reference("exp", inputs)).max() > MAX_ULPS["exp"]


def interpreter_inputs() -> Iterator[float]:
    yield from (float(x) for x in SPECIAL_VALUES)
    yield from (float(x) for x in np.linspace(-12.0, 12.0, 25, dtype=np.float32))
    yield from (0.3, 0.6, 0.7, 1.9, 2.1, 3.7, 1e-20, 2.0**-140)


def interpret(module: ModuleOp, op: str, inputs: np.ndarray) -> Any:
    out = np.zeros_like(inputs)
    return run_function(module, op, [inputs, out]).arguments[1]


def test_interpreter_runs_the_expansion_as_compiled_code_does(compiled: JitModule):
    inputs = np.array(list(interpreter_inputs()), dtype=np.float32)
    original = loops_module()
    rewritten = approximated(loops_module())
    for op in MAX_ULPS:
        expansion = interpret(rewritten, op, inputs)
        native = run(compiled, op, inputs)
        assert ulp_errors(expansion, native).max() == 0, op
        numpy_op = interpret(original, op, inputs)
        # numpy computes f32 exp, log, ... in f32, within an ulp itself.
        assert ulp_errors(expansion, numpy_op).max() <= MAX_ULPS[op] + 1, op


def test_other_types_and_ops_are_left_alone():
    text = """
    func.func @f(%x: f64, %h: f16, %s: f32) -> (f64, f16, f32) {
      %a = math.exp %x : f64
      %b = math.tanh %h : f16
      %c = math.sin %s : f32
      return %a, %b, %c : f64, f16, f32
    }"""
    module = parse_module(text)
    before = str(module)
    assert str(approximated(module)) == before


def test_lower_to_llvm_runs_it_before_convert_math_to_llvm():
    from linalg_ext.passes.lower_to_llvm import APPROXIMATION_STEP, LowerToLLVMPass

    def names(**options: Any) -> list[str]:
        return [stage.name for stage in LowerToLLVMPass(**options).stages()]

    assert APPROXIMATION_STEP not in names()
    assert APPROXIMATION_STEP not in names(fast_math="reassoc")
    for approximating in (names(approximate_math=True), names(fast_math="fast")):
        position = approximating.index(APPROXIMATION_STEP)
        assert approximating[position + 1] == "convert-math-to-llvm"


def test_compile_module_takes_approximate_math():
    from linalg_ext.jit import JitError

    text = """
func.func @main(%x: tensor<64xf32>) -> tensor<64xf32> {
  %e = tensor.empty() : tensor<64xf32>
  %r = linalg.exp ins(%x : tensor<64xf32>) outs(%e : tensor<64xf32>) -> tensor<64xf32>
  return %r : tensor<64xf32>
}
"""
    x = np.linspace(-10, 10, 64, dtype=np.float32)
    exact = compile_module(parse_module(text))["main"](x)
    approximated = compile_module(parse_module(text), approximate_math=True)
    assert "llvm.exp.f32" not in approximated.llvm_ir
    assert "llvm.exp.f32" in compile_module(parse_module(text)).llvm_ir
    np.testing.assert_allclose(approximated["main"](x), exact, rtol=4e-7)
    with pytest.raises(JitError, match="approximate_math must be True or False"):
        compile_module(parse_module(text), approximate_math="yes")  # type: ignore[arg-type]
