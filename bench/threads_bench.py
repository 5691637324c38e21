"""The speed-up of `compile_module(threads=N)`: the micro-kernels' blocks of
rows on N threads (issue 19, item 6).

For each workload (matmul, a convolution, matmul + bias + relu), compiled
with `fast_math="contract"` once per thread count: the median wall time of
one call (timed in machine code around the call, `last_call_seconds`), the
GFLOP/s and the speed-up over one thread. The results are checked against
numpy first. Threads are wall-clock work: on a shared machine the numbers
vary with its load, and on 2 cores the ideal is 2x.

    python bench/threads_bench.py [--quick] [--threads 1,2]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Sequence

import numpy as np
from native_bench import matmul_bias_relu
from standing_workloads import matmul
from timing import machine_line

from linalg_ext.context import make_context

STARTED = time.perf_counter()


def progress(line: str) -> None:
    print(f"  [threads {time.perf_counter() - STARTED:6.1f} s] {line}", file=sys.stderr)


def convolution(size: int, channels: int) -> str:
    """A 3x3 NHWC convolution of a size x size image, `channels` in and out."""
    padded = size + 2
    x = f"tensor<1x{padded}x{padded}x{channels}xf32>"
    w = f"tensor<3x3x{channels}x{channels}xf32>"
    y = f"tensor<1x{size}x{size}x{channels}xf32>"
    return f"""
func.func @kernel(%x: {x}, %w: {w}) -> {y} {{
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : {y}
  %y0 = linalg.fill ins(%zero : f32) outs(%e : {y}) -> {y}
  %r = linalg.conv_2d_nhwc_hwcf {{dilations = dense<1> : tensor<2xi64>,
      strides = dense<1> : tensor<2xi64>}}
    ins(%x, %w : {x}, {w}) outs(%y0 : {y}) -> {y}
  return %r : {y}
}}
"""


def conv_reference(x: np.ndarray, w: np.ndarray) -> np.ndarray:
    size = x.shape[1] - 2
    out = np.zeros((1, size, size, w.shape[3]), np.float32)
    for kh in range(3):
        for kw in range(3):
            out[0] += x[0, kh : kh + size, kw : kw + size, :] @ w[kh, kw]
    return out


def workloads(
    quick: bool,
) -> list[tuple[str, str, list[tuple[int, ...]], float, object]]:
    n = 256 if quick else 1024
    size, channels = (16, 32) if quick else (56, 64)
    return [
        (
            f"matmul {n}³",
            matmul(n),
            [(n, n), (n, n)],
            2.0 * n**3,
            lambda a, b: a @ b,
        ),
        (
            f"matmul {n}² + bias + relu",
            matmul_bias_relu(n),
            [(n, n), (n, n), (n,)],
            2.0 * n**3,
            lambda a, b, c: np.maximum(a @ b + c, 0),
        ),
        (
            f"conv 3×3 {size}×{size}×{channels}",
            convolution(size, channels),
            [(1, size + 2, size + 2, channels), (3, 3, channels, channels)],
            2.0 * size * size * channels * channels * 9,
            conv_reference,
        ),
    ]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="small sizes")
    parser.add_argument(
        "--threads",
        default=f"1,{os.cpu_count() or 1}",
        help="comma-separated thread counts (default: 1 and the cores)",
    )
    options = parser.parse_args(argv)
    counts = sorted({int(t) for t in options.threads.split(",")} | {1})
    from xdsl.parser import Parser

    from linalg_ext.jit import compile_module

    repetitions = 3 if options.quick else 9
    print(machine_line())
    print("Median wall time of one call (timed in machine code), fast_math=contract")
    header = f"{'workload':34}" + "".join(f"{f'{t} thread(s)':>24}" for t in counts)
    print(header)
    print("-" * len(header))
    failed = False
    rng = np.random.default_rng(0)
    for label, source, shapes, flops, reference in workloads(options.quick):
        inputs = [rng.standard_normal(s).astype(np.float32) for s in shapes]
        expected = reference(*inputs)  # type: ignore[operator]
        cells: list[str] = []
        base: float | None = None
        for count in counts:
            progress(f"{label}: {count} thread(s)")
            module = Parser(make_context(), source).parse_module()
            compiled = compile_module(module, fast_math="contract", threads=count)
            function = compiled["kernel"]
            result = function(*inputs)
            if not np.allclose(result, expected, rtol=1e-3, atol=1e-2):
                print(f"{label}: wrong result with {count} thread(s)", file=sys.stderr)
                failed = True
            times = []
            for _ in range(repetitions):
                function(*inputs)
                times.append(function.last_call_seconds)
            seconds = statistics.median(times)
            base = base or seconds
            cells.append(
                f"{seconds * 1e3:8.2f} ms {flops / seconds / 1e9:5.0f} GF"
                + ("" if count == 1 else f" {base / seconds:4.2f}x")
            )
        print(f"{label:34}" + "".join(f"{c:>24}" for c in cells))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
