"""Pad fusion end to end, compiled natively (the last part of `make demo`).

    python examples/pad_fusion_demo.py [--size N] [--pad P] [--repetitions R]

A 1024x1024 elementwise square padded with zeros to 1280x1280, written as
a tensor program, in two versions: as written, and after our `fuse-pad`
(the square computed straight into the interior of the padded result).
Each is bufferized (one-shot-bufferize + buffer-deallocation-pipeline),
lowered to LLVM in Python and JIT-compiled with llvmlite
(`linalg_ext.jit`), run on the same random input, and checked equal to the
other and to numpy. Printed for both: the median time per call, and the
peak memory the compiled code held during a call (measured through
upstream's generic allocation functions, which the JIT counts).
"""

from __future__ import annotations

import argparse
import io
import statistics
import sys
import time

import numpy as np
from xdsl.dialects.builtin import ModuleOp
from xdsl.parser import Parser
from xdsl.printer import Printer

from linalg_ext.context import make_context
from linalg_ext.jit import TRACKER, compile_module
from linalg_ext.passes.fuse_pad import FusePadPass


def program(n: int, pad: int) -> str:
    p = n + 2 * pad
    return f"""
#id = affine_map<(i, j) -> (i, j)>
func.func @square_pad(%x: tensor<{n}x{n}xf32>) -> tensor<{p}x{p}xf32> {{
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<{n}x{n}xf32>
  %sq = linalg.generic {{indexing_maps = [#id, #id],
                        iterator_types = ["parallel", "parallel"]}}
      ins(%x : tensor<{n}x{n}xf32>) outs(%e : tensor<{n}x{n}xf32>) {{
  ^bb0(%in: f32, %out: f32):
    %s = arith.mulf %in, %in : f32
    linalg.yield %s : f32
  }} -> tensor<{n}x{n}xf32>
  %padded = tensor.pad %sq low[{pad}, {pad}] high[{pad}, {pad}] {{
  ^bb0(%i: index, %j: index):
    tensor.yield %zero : f32
  }} : tensor<{n}x{n}xf32> to tensor<{p}x{p}xf32>
  return %padded : tensor<{p}x{p}xf32>
}}
"""


def printed(module: ModuleOp) -> str:
    stream = io.StringIO()
    Printer(stream=stream).print_op(module)
    return stream.getvalue()


def measure(module: ModuleOp, x: np.ndarray, repetitions: int):
    """(result, median seconds per call, peak bytes during a call, compile s)."""
    compiled = compile_module(module)
    function = compiled["square_pad"]
    times = []
    result = None
    for _ in range(repetitions):
        result = None  # free the previous result before the next call
        start = time.perf_counter()
        result = function(x)
        times.append(time.perf_counter() - start)
    tracked = compile_module(module, track_memory=True)["square_pad"]
    baseline = TRACKER.current
    TRACKER.reset()
    tracked_result = tracked(x)
    peak = TRACKER.peak - baseline
    assert np.array_equal(tracked_result, result)
    return result, statistics.median(times), peak, compiled.compile_seconds.total


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--size", type=int, default=1024)
    parser.add_argument("--pad", type=int, default=128)
    parser.add_argument("--repetitions", type=int, default=20)
    args = parser.parse_args(argv)
    n, pad = args.size, args.pad
    p = n + 2 * pad

    unfused = Parser(make_context(), program(n, pad)).parse_module()
    unfused.verify()
    fused = unfused.clone()
    FusePadPass().apply(make_context(), fused)
    fused.verify()
    print(
        f"== 3. pad fusion: x*x over {n}x{n} f32, padded with zeros to {p}x{p}\n"
        "==    (a tensor.pad of a linalg.generic). The program after fuse-pad: the\n"
        "==    square writes straight into the padded result's interior:"
    )
    print(printed(fused))

    x = np.random.default_rng(0).uniform(-1, 1, (n, n)).astype(np.float32)
    expected = np.pad(x * x, pad)
    rows = []
    results = {}
    for label, module in (("unfused", unfused), ("fuse-pad", fused)):
        result, seconds, peak, compile_seconds = measure(module, x, args.repetitions)
        if not np.array_equal(result, expected):
            print(f"{label}: the compiled result differs from numpy", file=sys.stderr)
            return 1
        results[label] = result
        rows.append((label, seconds, peak, compile_seconds))
    if not np.array_equal(results["unfused"], results["fuse-pad"]):
        print("the two versions disagree", file=sys.stderr)
        return 1
    print(
        "== both versions, before and after fuse-pad, bufferized, lowered to LLVM in\n"
        "==    Python and JIT-compiled (llvmlite -O3), run on the same random input:\n"
        f"==    median time per call ({args.repetitions} calls), peak memory held by\n"
        "==    the compiled code during a call, and compile time:"
    )
    print(f"{'version':<10}{'ms/call':>10}{'peak MiB':>10}{'compile s':>11}")
    for label, seconds, peak, compile_seconds in rows:
        print(
            f"{label:<10}{seconds * 1e3:>10.3f}{peak / 2**20:>10.2f}"
            f"{compile_seconds:>11.2f}"
        )
    print("== both results equal each other and numpy's np.pad(x * x).")
    return 0


if __name__ == "__main__":
    sys.exit(main())
