"""Structured ops' loop order side by side: the domain's order vs unit-stride innermost.

    python bench/loop_order_bench.py [--quick] [--only TEXT]

Each kernel (a function on memrefs, f32, writing its output argument) is
compiled twice by `linalg_ext.jit.compile_module` (run-time checks on, the
default): "domain" after lowering its loops first with
`convert-linalg-to-loops-ext{runtime-checks=true unit-stride-innermost=false}`
(the order before issue 19: matmul i, j, k with the output element carried
through k), "unit-stride" with the default lowering (matmul i, k, j: LLVM
vectorises j). Their calls alternate, so a machine's changing load weighs
on both alike; times are in machine code (`last_call_seconds`), the
fastest and the median call of each. Both outputs are checked equal bit for
bit (`np.array_equal`: the reorder changes no reduction's order) and close
to numpy's.

Kernels: matmul N³ (N = 256, 512, 1024); a row sum and a column sum of
4096² (the row sum keeps its order: its input is strided along its only
parallel loop); an elementwise (a+b)*c on 4096² (already unit-stride);
a 3×3 convolution (NHWC/HWCF, 1×58×58×64 -> 1×56×56×64).
"""

from __future__ import annotations

import argparse
import statistics
import sys
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from timing import machine_line
from xdsl.dialects.builtin import ModuleOp
from xdsl.parser import Parser

from linalg_ext.context import make_context
from linalg_ext.jit import compile_module
from linalg_ext.pipelines import apply_pipeline

DOMAIN_ORDER = (
    "convert-linalg-to-loops-ext{runtime-checks=true unit-stride-innermost=false}"
)


@dataclass
class Kernel:
    label: str
    text: str
    shapes: list[tuple[int, ...]]
    """Of every argument; the last is the output."""
    reference: Callable[..., np.ndarray]
    work: float
    """Flops (or bytes, for `unit` GB/s) per call."""
    unit: str
    repetitions: int


def matmul(n: int) -> str:
    t = f"memref<{n}x{n}xf32>"
    return f"""
func.func @kernel(%a: {t}, %b: {t}, %c: {t}) {{
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : {t})
  linalg.matmul ins(%a, %b : {t}, {t}) outs(%c : {t})
  return
}}"""


def axis_sum(n: int, axis: int) -> str:
    """Sum of an n×n matrix over `axis` (0: a column sum, 1: a row sum),
    the reduction loop innermost in the domain."""
    t, v = f"memref<{n}x{n}xf32>", f"memref<{n}xf32>"
    read = "(p, r) -> (p, r)" if axis == 1 else "(p, r) -> (r, p)"
    return f"""
func.func @kernel(%x: {t}, %o: {v}) {{
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%o : {v})
  linalg.generic {{indexing_maps = [affine_map<{read}>, affine_map<(p, r) -> (p)>],
                  iterator_types = ["parallel", "reduction"]}}
      ins(%x : {t}) outs(%o : {v}) {{
  ^bb0(%e: f32, %acc: f32):
    %s = arith.addf %acc, %e : f32
    linalg.yield %s : f32
  }}
  return
}}"""


def add_mul(n: int) -> str:
    t = f"memref<{n}x{n}xf32>"
    ident = "affine_map<(i, j) -> (i, j)>"
    return f"""
func.func @kernel(%a: {t}, %b: {t}, %c: {t}, %o: {t}) {{
  linalg.generic {{indexing_maps = [{ident}, {ident}, {ident}, {ident}],
                  iterator_types = ["parallel", "parallel"]}}
      ins(%a, %b, %c : {t}, {t}, {t}) outs(%o : {t}) {{
  ^bb0(%x: f32, %y: f32, %z: f32, %w: f32):
    %s = arith.addf %x, %y : f32
    %p = arith.mulf %s, %z : f32
    linalg.yield %p : f32
  }}
  return
}}"""


def conv(size: int, channels: int) -> str:
    i = f"memref<1x{size + 2}x{size + 2}x{channels}xf32>"
    f = f"memref<3x3x{channels}x{channels}xf32>"
    o = f"memref<1x{size}x{size}x{channels}xf32>"
    return f"""
func.func @kernel(%in: {i}, %filter: {f}, %out: {o}) {{
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%out : {o})
  linalg.conv_2d_nhwc_hwcf {{dilations = dense<1> : tensor<2xi64>,
                            strides = dense<1> : tensor<2xi64>}}
    ins(%in, %filter : {i}, {f}) outs(%out : {o})
  return
}}"""


def conv_reference(x: np.ndarray, w: np.ndarray, _: np.ndarray) -> np.ndarray:
    size = x.shape[1] - 2
    out = np.zeros((1, size, size, w.shape[3]), np.float32)
    for kh in range(3):
        for kw in range(3):
            window = x[:, kh : kh + size, kw : kw + size, :]
            out += np.tensordot(window, w[kh, kw], axes=([3], [0]))
    return out


def kernels(quick: bool) -> list[Kernel]:
    sizes = [32, 48] if quick else [256, 512, 1024]
    big = 128 if quick else 4096
    conv_size, channels = (8, 8) if quick else (56, 64)
    result = [
        Kernel(
            f"matmul {n}^3",
            matmul(n),
            [(n, n)] * 3,
            lambda a, b, _: a @ b,
            2.0 * n**3,
            "GFLOP/s",
            3 if quick or n == 1024 else 5,
        )
        for n in sizes
    ]
    result += [
        Kernel(
            f"row sum {big}^2",
            axis_sum(big, 1),
            [(big, big), (big,)],
            lambda x, _: x.sum(axis=1),
            4.0 * big * big,
            "GB/s",
            5,
        ),
        Kernel(
            f"column sum {big}^2",
            axis_sum(big, 0),
            [(big, big), (big,)],
            lambda x, _: x.sum(axis=0),
            4.0 * big * big,
            "GB/s",
            5,
        ),
        Kernel(
            f"(a+b)*c {big}^2",
            add_mul(big),
            [(big, big)] * 4,
            lambda a, b, c, _: (a + b) * c,
            16.0 * big * big,
            "GB/s",
            5,
        ),
        Kernel(
            f"conv 3x3 {conv_size}^2x{channels}",
            conv(conv_size, channels),
            [
                (1, conv_size + 2, conv_size + 2, channels),
                (3, 3, channels, channels),
                (1, conv_size, conv_size, channels),
            ],
            conv_reference,
            2.0 * conv_size * conv_size * channels * channels * 9,
            "GFLOP/s",
            3,
        ),
    ]
    return result


def parse(text: str) -> ModuleOp:
    return Parser(make_context(), text).parse_module()


def measure(kernel: Kernel, inputs: list[np.ndarray]) -> dict[str, list[float]]:
    """Seconds per call of each order (calls alternated); checks the
    outputs."""
    domain = parse(kernel.text)
    apply_pipeline(DOMAIN_ORDER, domain)
    compiled = {
        "domain": compile_module(domain)["kernel"],
        "unit-stride": compile_module(parse(kernel.text))["kernel"],
    }
    times: dict[str, list[float]] = {name: [] for name in compiled}
    outputs: dict[str, np.ndarray] = {}
    for _ in range(kernel.repetitions):
        for name, function in compiled.items():
            arguments = [a.copy() for a in inputs]
            function(*arguments)
            times[name].append(function.last_call_seconds)
            outputs[name] = arguments[-1]
    if not np.array_equal(outputs["domain"], outputs["unit-stride"]):
        raise SystemExit(f"{kernel.label}: the two orders' outputs differ")
    expected = kernel.reference(*inputs)
    if not np.allclose(outputs["unit-stride"], expected, rtol=1e-3, atol=1e-3):
        raise SystemExit(f"{kernel.label}: the result differs from numpy's")
    return times


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="small sizes")
    parser.add_argument(
        "--only", default="", help="run the kernels whose label contains this text"
    )
    args = parser.parse_args(argv)
    rng = np.random.default_rng(0)
    print(machine_line())
    print("Compiled with run-time checks; calls alternated; ms per call in machine")
    print("code (min / median); outputs of both orders equal bit for bit.")
    header = (
        f"{'kernel':<24}{'domain ms':>20}{'unit-stride ms':>20}"
        f"{'speed-up':>10}{'rate (best)':>22}"
    )
    print(header)
    print("-" * len(header))
    for kernel in kernels(args.quick):
        if args.only not in kernel.label:
            continue
        inputs = [rng.uniform(-1, 1, s).astype(np.float32) for s in kernel.shapes]
        times = measure(kernel, inputs)
        best = {name: min(t) for name, t in times.items()}
        cells = [
            f"{best[name] * 1e3:.2f} / {statistics.median(times[name]) * 1e3:.2f}"
            for name in ("domain", "unit-stride")
        ]
        rates = " -> ".join(f"{kernel.work / best[name] / 1e9:.1f}" for name in best)
        print(
            f"{kernel.label:<24}{cells[0]:>20}{cells[1]:>20}"
            f"{best['domain'] / best['unit-stride']:>9.1f}x"
            f"{rates + ' ' + kernel.unit:>22}",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
