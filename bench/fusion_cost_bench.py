"""Does `linalg-fuse-elementwise-ext` make compiled code faster? Unfused vs fused.

    python bench/fusion_cost_bench.py [--quick] [--repetitions R]
        [--fast-math MODE]

Workloads (f32, written as torch-mlir's linalg-on-tensors lowering writes
them: one `linalg.generic` per step, keepdim results through `(d0, 0)`
maps):

- softmax over rows, at 256x1024, 1024x256 and 64x4096: reduce max, sub,
  exp, reduce sum, div. `exp` has two users (the sum and the div);
- sum of squares over rows, at 256x1024: sub, square, reduce sum, where
  fusion pulls the whole elementwise chain into the reduction.

Each is compiled (`linalg_ext.jit.compile_module`, one thread, default
options, or `--fast-math`) three ways:

- unfused: as written;
- fused: after `linalg-fuse-elementwise-ext` (default options: a producer
  computing a costly math function such as `math.exp` is not pulled into a
  reduction, docs/passes/linalg-fuse-elementwise-ext.md);
- fused, math-into-reduction: after
  `linalg-fuse-elementwise-ext{math-into-reduction=true}`, the behaviour
  before that rule (sub+exp run in the sum's loop). Shown only where its
  output differs from "fused".

Time: the median CPU time of one call on this thread (`time.thread_time`),
the variants called in turn, repetition after repetition, so that the
machine's load weighs on all alike. Every result is checked against numpy
(float64 reference); "generics" is the number of `linalg.generic` ops
compiled, "vs unfused" the unfused time over this one (above 1: faster).

Exit 0 on success, 1 (one line on stderr) when a result is wrong.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from string import Template

import numpy as np
from timing import machine_line
from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.linalg.ops import GenericOp
from xdsl.parser import Parser

from linalg_ext.context import make_context
from linalg_ext.jit import JitFunction, compile_module
from linalg_ext.lowering.fast_math import FAST_MATH_MODES
from linalg_ext.pipelines import parse_pipeline

NAME = "fusion cost bench"
PASS = "linalg-fuse-elementwise-ext"
VARIANTS = (
    ("unfused", None),
    ("fused", PASS),
    ("fused, math-into-reduction", f"{PASS}{{math-into-reduction=true}}"),
)
SOFTMAX_SIZES = ((256, 1024), (1024, 256), (64, 4096))
SQUARES_SIZES = ((256, 1024),)
QUICK_SIZES = ((16, 64),)


class BenchError(Exception):
    """A failure reported as one line."""


SOFTMAX = """#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d0, 0)>
func.func @main(%arg0: $T) -> $T {
  %cst = arith.constant 0.000000e+00 : f32
  %cst_0 = arith.constant 0xFF800000 : f32
  %0 = tensor.empty() : $V
  %1 = linalg.fill ins(%cst_0 : f32) outs(%0 : $V) -> $V
  %2 = linalg.generic {indexing_maps = [#map, #map1],
      iterator_types = ["parallel", "reduction"]}
      ins(%arg0 : $T) outs(%1 : $V) {
  ^bb0(%in: f32, %out: f32):
    %9 = arith.maximumf %in, %out : f32
    linalg.yield %9 : f32
  } -> $V
  %3 = tensor.empty() : $T
  %4 = linalg.generic {indexing_maps = [#map, #map1, #map],
      iterator_types = ["parallel", "parallel"]}
      ins(%arg0, %2 : $T, $V) outs(%3 : $T) {
  ^bb0(%in: f32, %in_1: f32, %out: f32):
    %9 = arith.subf %in, %in_1 : f32
    linalg.yield %9 : f32
  } -> $T
  %5 = linalg.generic {indexing_maps = [#map, #map],
      iterator_types = ["parallel", "parallel"]}
      ins(%4 : $T) outs(%3 : $T) {
  ^bb0(%in: f32, %out: f32):
    %9 = math.exp %in : f32
    linalg.yield %9 : f32
  } -> $T
  %6 = linalg.fill ins(%cst : f32) outs(%0 : $V) -> $V
  %7 = linalg.generic {indexing_maps = [#map, #map1],
      iterator_types = ["parallel", "reduction"]}
      ins(%5 : $T) outs(%6 : $V) {
  ^bb0(%in: f32, %out: f32):
    %9 = arith.addf %in, %out : f32
    linalg.yield %9 : f32
  } -> $V
  %8 = linalg.generic {indexing_maps = [#map, #map1, #map],
      iterator_types = ["parallel", "parallel"]}
      ins(%5, %7 : $T, $V) outs(%3 : $T) {
  ^bb0(%in: f32, %in_1: f32, %out: f32):
    %9 = arith.divf %in, %in_1 : f32
    linalg.yield %9 : f32
  } -> $T
  return %8 : $T
}
"""
"""Softmax over rows, one generic per step, as torch-mlir lowers it; $T is
the input's tensor type, $V the keepdim row vector's."""

SUM_OF_SQUARES = """#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d0, 0)>
func.func @main(%a: $T, %b: $T) -> $V {
  %cst = arith.constant 0.000000e+00 : f32
  %0 = tensor.empty() : $V
  %3 = tensor.empty() : $T
  %4 = linalg.generic {indexing_maps = [#map, #map, #map],
      iterator_types = ["parallel", "parallel"]}
      ins(%a, %b : $T, $T) outs(%3 : $T) {
  ^bb0(%in: f32, %in_1: f32, %out: f32):
    %9 = arith.subf %in, %in_1 : f32
    linalg.yield %9 : f32
  } -> $T
  %5 = linalg.generic {indexing_maps = [#map, #map],
      iterator_types = ["parallel", "parallel"]}
      ins(%4 : $T) outs(%3 : $T) {
  ^bb0(%in: f32, %out: f32):
    %9 = arith.mulf %in, %in : f32
    linalg.yield %9 : f32
  } -> $T
  %6 = linalg.fill ins(%cst : f32) outs(%0 : $V) -> $V
  %7 = linalg.generic {indexing_maps = [#map, #map1],
      iterator_types = ["parallel", "reduction"]}
      ins(%5 : $T) outs(%6 : $V) {
  ^bb0(%in: f32, %out: f32):
    %9 = arith.addf %in, %out : f32
    linalg.yield %9 : f32
  } -> $V
  return %7 : $V
}
"""
"""sum((a - b)^2) over rows: an elementwise chain feeding a reduction."""


def instantiate(template: str, m: int, n: int) -> str:
    """The template at m x n."""
    return Template(template).substitute(
        T=f"tensor<{m}x{n}xf32>", V=f"tensor<{m}x1xf32>"
    )


def softmax_reference(x: np.ndarray) -> np.ndarray:
    e = np.exp(x - x.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def squares_reference(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return ((a - b) ** 2).sum(axis=1, keepdims=True)


@dataclass
class Workload:
    label: str
    text: str
    shapes: list[tuple[int, int]]
    reference: Callable[..., np.ndarray]


def workloads(quick: bool) -> list[Workload]:
    softmax_sizes = QUICK_SIZES if quick else SOFTMAX_SIZES
    squares_sizes = QUICK_SIZES if quick else SQUARES_SIZES
    return [
        Workload(
            f"softmax {m}x{n}",
            instantiate(SOFTMAX, m, n),
            [(m, n)],
            softmax_reference,
        )
        for m, n in softmax_sizes
    ] + [
        Workload(
            f"sum of squares {m}x{n}",
            instantiate(SUM_OF_SQUARES, m, n),
            [(m, n)] * 2,
            squares_reference,
        )
        for m, n in squares_sizes
    ]


@dataclass
class Variant:
    label: str
    function: JitFunction
    generics: int
    times: list[float]


def transformed(text: str, pipeline: str | None) -> ModuleOp:
    ctx = make_context()
    module = Parser(ctx, text).parse_module()
    if pipeline is not None:
        parse_pipeline(pipeline).apply(ctx, module)
        module.verify()
    return module


def variants(workload: Workload, fast_math: str) -> list[Variant]:
    """The compiled variants; one whose IR equals an earlier one's is left out."""
    compiled: list[Variant] = []
    seen: set[str] = set()
    for label, pipeline in VARIANTS:
        module = transformed(workload.text, pipeline)
        text = str(module)
        if text in seen:
            continue
        seen.add(text)
        generics = sum(isinstance(op, GenericOp) for op in module.walk())
        function = compile_module(module, fast_math=fast_math)["main"]  # type: ignore[arg-type]
        compiled.append(Variant(label, function, generics, []))
    return compiled


def thread_seconds(
    function: JitFunction, inputs: Sequence[np.ndarray]
) -> tuple[float, np.ndarray]:
    start = time.thread_time()
    result = function(*inputs)
    return time.thread_time() - start, result


def bench(options: argparse.Namespace) -> None:
    rng = np.random.default_rng(0)
    repetitions = options.repetitions or (3 if options.quick else 50)
    header = (
        f"{'workload':<26}{'variant':<28}{'generics':>9}{'ms':>9}{'vs unfused':>12}"
    )
    print(header)
    print("-" * len(header))
    for workload in workloads(options.quick):
        inputs = [rng.standard_normal(s).astype(np.float32) for s in workload.shapes]
        expected = workload.reference(*(x.astype(np.float64) for x in inputs))
        compiled = variants(workload, options.fast_math)
        for _ in range(repetitions):
            for variant in compiled:
                seconds, result = thread_seconds(variant.function, inputs)
                variant.times.append(seconds)
                if not np.allclose(result, expected, rtol=1e-4, atol=1e-5):
                    error = float(np.abs(result - expected).max())
                    raise BenchError(
                        f"{workload.label}, {variant.label}: wrong result "
                        f"(max error {error:.2e})"
                    )
                del result
        baseline = statistics.median(compiled[0].times)
        for variant in compiled:
            median = statistics.median(variant.times)
            print(
                f"{workload.label:<26}{variant.label:<28}{variant.generics:>9}"
                f"{median * 1e3:>9.3f}{baseline / median:>11.2f}x",
                flush=True,
            )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument(
        "--quick", action="store_true", help="16x64 only, 3 repetitions (a smoke test)"
    )
    parser.add_argument(
        "--repetitions", type=int, metavar="R", help="calls per variant (default 50)"
    )
    parser.add_argument(
        "--fast-math",
        default="none",
        choices=FAST_MATH_MODES,
        help="compile_module's fast_math (default none)",
    )
    options = parser.parse_args(argv)
    if options.repetitions is not None and options.repetitions < 1:
        parser.error("--repetitions must be at least 1")
    print(machine_line())
    print(
        "== elementwise fusion, compiled: unfused vs fused (CPU ms of one call,"
        f" one thread, median;\n   fast_math={options.fast_math})"
    )
    try:
        bench(options)
    except BenchError as error:
        print(f"{NAME}: error: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
