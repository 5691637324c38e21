"""Time `linalg.generic` on our interpreter, on xDSL's stock one, and in numpy.

    python bench/interpreter_bench.py [--quick]

Two programs, both written as `linalg.generic` on tensors:

- elementwise: exp(a * b + c) over 1024x1024 f32;
- matmul: C + A @ B, 256x256x256 f32 (a reduction loop folded by addf).

Each is run by `linalg_ext.running.make_interpreter` (ours), by an interpreter
holding only xDSL's own function registrations (stock), and by numpy directly.
The stock interpreter runs the body once per loop point, so when its
repetitions at the full size would take more than STOCK_BUDGET_SECONDS it runs
a smaller instance and the time is scaled linearly by the number of loop
points (the output says so).
Times are medians over repetitions; results are checked against numpy.

The last line is PASS or FAIL: ours must beat stock by at least 100x on the
elementwise program. Exit status 1 on FAIL.
"""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
from timing import machine_line, median_seconds
from xdsl.dialects.builtin import Float32Type, ModuleOp
from xdsl.interpreter import Interpreter
from xdsl.parser import Parser

from linalg_ext.context import make_context
from linalg_ext.running import make_interpreter, stock_interpreter
from linalg_ext.semantics.arrays import numpy_view, shaped_array

REQUIRED_SPEEDUP = 100.0
STOCK_BUDGET_SECONDS = 60.0
F32 = Float32Type()


def elementwise_source(n: int) -> str:
    t = f"tensor<{n}x{n}xf32>"
    return f"""
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @main(%a: {t}, %b: {t}, %c: {t}, %init: {t}) -> {t} {{
  %r = linalg.generic {{indexing_maps = [#id, #id, #id, #id],
                        iterator_types = ["parallel", "parallel"]}}
      ins(%a, %b, %c : {t}, {t}, {t}) outs(%init : {t}) {{
  ^bb0(%x: f32, %y: f32, %z: f32, %out: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %p, %z : f32
    %e = math.exp %s : f32
    linalg.yield %e : f32
  }} -> {t}
  return %r : {t}
}}
"""


def matmul_source(n: int) -> str:
    t = f"tensor<{n}x{n}xf32>"
    return f"""
#a = affine_map<(i, j, k) -> (i, k)>
#b = affine_map<(i, j, k) -> (k, j)>
#c = affine_map<(i, j, k) -> (i, j)>
func.func @main(%a: {t}, %b: {t}, %c: {t}) -> {t} {{
  %r = linalg.generic {{indexing_maps = [#a, #b, #c],
                        iterator_types = ["parallel", "parallel", "reduction"]}}
      ins(%a, %b : {t}, {t}) outs(%c : {t}) {{
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }} -> {t}
  return %r : {t}
}}
"""


@dataclass
class Case:
    name: str
    full_size: int
    source: Callable[[int], str]
    inputs: Callable[[np.random.Generator, int], list[np.ndarray]]
    reference: Callable[[Sequence[np.ndarray]], np.ndarray]
    points: Callable[[int], int]
    """Loop points (body executions) at a size: what stock time scales with."""


CASES = [
    Case(
        "elementwise exp(a*b+c)",
        1024,
        elementwise_source,
        lambda rng, n: [
            rng.uniform(-1, 1, (n, n)).astype(np.float32) for _ in range(4)
        ],
        lambda xs: np.exp(xs[0] * xs[1] + xs[2]),
        lambda n: n * n,
    ),
    Case(
        "matmul as linalg.generic",
        256,
        matmul_source,
        lambda rng, n: [
            rng.uniform(-1, 1, (n, n)).astype(np.float32) for _ in range(3)
        ],
        lambda xs: xs[2] + xs[0] @ xs[1],
        lambda n: n**3,
    ),
]


def parse(source: str) -> ModuleOp:
    module = Parser(make_context(), source).parse_module()
    module.verify()
    return module


def time_interpreter(
    make: Callable[[ModuleOp], Interpreter],
    case: Case,
    size: int,
    repetitions: int,
    rng: np.random.Generator,
) -> tuple[float, np.ndarray, list[np.ndarray]]:
    module = parse(case.source(size))
    arrays = case.inputs(rng, size)
    args = tuple(shaped_array(a, F32) for a in arrays)
    interpreter = make(module)
    seconds, results = median_seconds(
        lambda: interpreter.call_op("main", args), repetitions
    )
    return seconds, numpy_view(results[0]).copy(), arrays


def stock_size(
    case: Case, rng: np.random.Generator, repetitions: int
) -> tuple[int, float]:
    """The largest size (halving from the full one) at which `repetitions`
    stock runs fit the budget, judged from a small probe run; and the probe's
    seconds per loop point."""
    probe = max(4, case.full_size // 32)
    seconds, _, _ = time_interpreter(stock_interpreter, case, probe, 1, rng)
    per_point = seconds / case.points(probe)
    size = case.full_size
    while (
        size > probe
        and per_point * case.points(size) * repetitions > STOCK_BUDGET_SECONDS
    ):
        size //= 2
    return size, per_point


def check(name: str, got: np.ndarray, want: np.ndarray) -> None:
    if not np.allclose(got, want, rtol=1e-4, atol=1e-4):
        worst = float(np.max(np.abs(got - want)))
        raise SystemExit(f"{name}: result differs from numpy by up to {worst}")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--quick", action="store_true", help="fewer repetitions (for a smoke test)"
    )
    options = parser.parse_args(argv)
    repetitions = 3 if options.quick else 7
    stock_repetitions = 1 if options.quick else 3
    rng = np.random.default_rng(0)
    speedups: dict[str, float] = {}

    print(machine_line())
    print(f"numpy {np.__version__}; medians over repetitions; f32 tensors")
    for case in CASES:
        n = case.full_size
        ours, got, arrays = time_interpreter(
            make_interpreter, case, n, repetitions, rng
        )
        check(f"ours ({case.name})", got, case.reference(arrays))
        plain, _ = median_seconds(
            lambda case=case, arrays=arrays: case.reference(arrays), repetitions
        )

        size, _ = stock_size(case, rng, stock_repetitions)
        stock_measured, stock_got, stock_arrays = time_interpreter(
            stock_interpreter, case, size, stock_repetitions, rng
        )
        check(f"stock ({case.name})", stock_got, case.reference(stock_arrays))
        scale = case.points(n) / case.points(size)
        stock = stock_measured * scale

        print(f"\n{case.name}, size {n}:")
        print(f"  ours   {ours * 1e3:12.2f} ms")
        if scale == 1:
            print(f"  stock  {stock * 1e3:12.2f} ms")
        else:
            print(
                f"  stock  {stock * 1e3:12.2f} ms  (estimated: measured "
                f"{stock_measured * 1e3:.1f} ms at size {size}, scaled "
                f"linearly by {scale:g}x the loop points)"
            )
        print(f"  numpy  {plain * 1e3:12.2f} ms")
        print(f"  ours vs stock: {stock / ours:10.0f}x faster")
        print(f"  ours vs numpy: {ours / plain:10.2f}x slower")
        speedups[case.name] = stock / ours

    elementwise = speedups[CASES[0].name]
    passed = elementwise >= REQUIRED_SPEEDUP and math.isfinite(elementwise)
    verdict = "PASS" if passed else "FAIL"
    print(
        f"\n{verdict}: elementwise ours vs stock is {elementwise:.0f}x "
        f"(required >= {REQUIRED_SPEEDUP:.0f}x)"
    )
    return 0 if passed else 1


if __name__ == "__main__":
    sys.exit(main())
