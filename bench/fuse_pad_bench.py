"""The measured benefit of `fuse-pad`: the padded image, compiled natively.

    python bench/fuse_pad_bench.py [--quick]

One program, the seed's case scaled up: an elementwise `linalg.generic`
(2x + 1) over an NxM f32 image, then `tensor.pad` by [1, 2] low and [2, 3]
high with a constant. Four versions of it:

- unfused: the program as written;
- upstream: after `mlir-opt-22 --test-linalg-pad-fusion` (fill everything);
- fuse-pad: after our pass with its defaults (`fill=full`, like upstream);
- fuse-pad{fill=border}: after our pass writing only the border.

Each is compiled by upstream MLIR (`linalg_ext.upstream.OPTIMIZED_LOWERING`:
one-shot bufferize, deallocation, canonicalize, loops, LLVM, JIT with
llvmlite) and called on the same input, its result buffer freed after each
call so that every call finds the allocator in the same state; numpy's
`np.pad(2x + 1)` is the reference. Times are medians over repetitions,
measured side by side in one run; every result is checked against numpy.
The native path needs mlir-opt-22: without it this prints a note and exits 0.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from collections.abc import Sequence

import numpy as np
from timing import machine_line, median_seconds
from xdsl.dialects.builtin import ModuleOp
from xdsl.parser import Parser
from xdsl.printer import Printer

from linalg_ext.context import make_context
from linalg_ext.pipelines import parse_pipeline
from linalg_ext.upstream import (
    MLIR_OPT,
    OPTIMIZED_LOWERING,
    compile_upstream,
    upstream_available,
)

LOW, HIGH = (1, 2), (2, 3)
PARALLEL_2D = 'iterator_types = ["parallel", "parallel"]'


def source(n: int, m: int) -> str:
    pn, pm = n + LOW[0] + HIGH[0], m + LOW[1] + HIGH[1]
    return f"""
#id = affine_map<(i, j) -> (i, j)>
func.func @pad_image(%x: tensor<{n}x{m}xf32>, %v: f32) -> tensor<{pn}x{pm}xf32> {{
  %two = arith.constant 2.0 : f32
  %one = arith.constant 1.0 : f32
  %e = tensor.empty() : tensor<{n}x{m}xf32>
  %y = linalg.generic {{indexing_maps = [#id, #id], {PARALLEL_2D}}}
      ins(%x : tensor<{n}x{m}xf32>) outs(%e : tensor<{n}x{m}xf32>) {{
  ^bb0(%in: f32, %out: f32):
    %d = arith.mulf %in, %two : f32
    %s = arith.addf %d, %one : f32
    linalg.yield %s : f32
  }} -> tensor<{n}x{m}xf32>
  %p = tensor.pad %y low[{LOW[0]}, {LOW[1]}] high[{HIGH[0]}, {HIGH[1]}] {{
  ^bb0(%i: index, %j: index):
    tensor.yield %v : f32
  }} : tensor<{n}x{m}xf32> to tensor<{pn}x{pm}xf32>
  return %p : tensor<{pn}x{pm}xf32>
}}
"""


def parse(text: str) -> ModuleOp:
    module = Parser(make_context(), text).parse_module()
    module.verify()
    return module


def printed(module: ModuleOp) -> str:
    import io

    out = io.StringIO()
    Printer(stream=out).print_op(module)
    return out.getvalue()


def ours(text: str, pipeline: str) -> str:
    module = parse(text)
    parse_pipeline(pipeline).apply(make_context(), module)
    module.verify()
    return printed(module)


def upstreams(text: str) -> str:
    return subprocess.run(
        [MLIR_OPT, "--test-linalg-pad-fusion"],
        input=text,
        capture_output=True,
        text=True,
        check=True,
    ).stdout


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="small and few runs")
    options = parser.parse_args(argv)
    if not upstream_available():
        print("fuse-pad bench: mlir-opt-22 is not installed; skipped")
        return 0
    n, m = (256, 256) if options.quick else (2048, 2048)
    repetitions = 3 if options.quick else 11
    text = source(n, m)
    versions = {
        "unfused": text,
        "upstream --test-linalg-pad-fusion": upstreams(text),
        "fuse-pad": ours(text, "fuse-pad"),
        "fuse-pad{fill=border}": ours(text, "fuse-pad{fill=border}"),
    }
    rng = np.random.default_rng(0)
    x = rng.uniform(-1, 1, size=(n, m)).astype(np.float32)
    pad_value = np.float32(0.5)
    want = np.pad(2 * x + 1, (LOW, HIGH), constant_values=pad_value)

    print(machine_line())
    print(f"fuse-pad: {n}x{m} f32 image, pad low {LOW} high {HIGH}; compiled by")
    print(f"upstream MLIR, medians over {repetitions} calls, one run\n")
    times: dict[str, float] = {}
    for name, version in versions.items():
        function = compile_upstream(
            version, parse(version), "pad_image", OPTIMIZED_LOWERING
        )
        seconds, run = median_seconds(
            lambda f=function: f([x, pad_value], free_results=True), repetitions
        )
        if not np.allclose(run.results[0], want, rtol=1e-6, atol=1e-6):
            raise SystemExit(f"{name}: result differs from numpy")
        times[name] = seconds
    numpy_seconds, _ = median_seconds(
        lambda: np.pad(2 * x + 1, (LOW, HIGH), constant_values=pad_value),
        repetitions,
    )
    base = times["unfused"]
    for name, seconds in times.items():
        print(f"  {name:36} {seconds * 1e3:9.2f} ms   {base / seconds:5.2f}x unfused")
    print(f"  {'numpy np.pad(2x + 1)':36} {numpy_seconds * 1e3:9.2f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
