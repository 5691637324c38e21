"""The floating-point contract's effect: one kernel compiled in each fast-math mode.

    python bench/fast_math_bench.py [--quick] [--only TEXT]

Kernels (tensor programs, f32, compiled by `linalg_ext.jit.compile_module`
with run-time checks, as by default):

- matmul 256³: `linalg.matmul` of two 256² matrices into a zero-filled one
  (2·n³ flops);
- row sum 4096²: `linalg.reduce` of each row of a 4096² matrix with
  `arith.addf` (n² flops; reads 64 MiB).

Each kernel is compiled with `fast_math` = none, contract, reassoc, arcp and
fast (docs/jit.md, "Floating-point contract"); the five are called in turn,
repetition after repetition, so that a machine's changing load weighs on
all alike, and the fastest call of each is reported (timed in machine code,
`JitFunction.last_call_seconds`), with GFLOP/s and its speed-up over none.
"error" is the largest difference from numpy's float64 result, relative to
the largest |result|.

What LLVM made of the kernel, read from the optimized IR
(`linalg_ext.jit.optimized_llvm_ir`) and the host assembly
(`optimized_assembly`): "vector" is the
widest `<N x float>` arithmetic (`fadd`/`fmul`) in the module ("scalar" if
none), "fma" the number of `vfmadd` instructions in the assembly (fused
multiply-adds: LLVM forms them while selecting instructions, from
`contract` `fmul`/`fadd` pairs, so the IR shows none).
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from timing import machine_line
from xdsl.parser import Parser

from linalg_ext.context import make_context
from linalg_ext.jit import (
    JitFunction,
    compile_module,
    optimized_assembly,
    optimized_llvm_ir,
)
from linalg_ext.lowering.fast_math import FAST_MATH_MODES


def matmul(n: int) -> str:
    t = f"tensor<{n}x{n}xf32>"
    return f"""
func.func @kernel(%a: {t}, %b: {t}) -> {t} {{
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : {t}
  %acc = linalg.fill ins(%zero : f32) outs(%e : {t}) -> {t}
  %m = linalg.matmul ins(%a, %b : {t}, {t}) outs(%acc : {t}) -> {t}
  return %m : {t}
}}
"""


def row_sum(n: int) -> str:
    t, v = f"tensor<{n}x{n}xf32>", f"tensor<{n}xf32>"
    return f"""
func.func @kernel(%x: {t}) -> {v} {{
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : {v}
  %acc = linalg.fill ins(%zero : f32) outs(%e : {v}) -> {v}
  %s = linalg.reduce ins(%x : {t}) outs(%acc : {v}) dimensions = [1]
    (%in: f32, %init: f32) {{
      %r = arith.addf %in, %init : f32
      linalg.yield %r : f32
    }}
  return %s : {v}
}}
"""


@dataclass
class Kernel:
    label: str
    text: str
    shapes: list[tuple[int, ...]]
    flops: float
    reference: Callable[..., np.ndarray]
    repetitions: int


def kernels(quick: bool) -> list[Kernel]:
    n_mm, n_sum = (64, 256) if quick else (256, 4096)
    return [
        Kernel(
            f"matmul {n_mm}³",
            matmul(n_mm),
            [(n_mm, n_mm)] * 2,
            2.0 * n_mm**3,
            lambda a, b: a @ b,
            3 if quick else 20,
        ),
        Kernel(
            f"row sum {n_sum}²",
            row_sum(n_sum),
            [(n_sum, n_sum)],
            float(n_sum * n_sum),
            lambda x: x.sum(axis=1),
            3 if quick else 20,
        ),
    ]


def widest_vector(llvm_ir: str) -> str:
    """`<16 x float>` for the widest float vector arithmetic, else scalar."""
    widths = [
        int(w)
        for w in re.findall(
            r"= f(?:add|mul|sub)[a-z ]* <(\d+) x float>", llvm_ir, flags=re.M
        )
    ]
    return f"<{max(widths)} x float>" if widths else "scalar"


def fused_multiply_adds(llvm_ir: str) -> int:
    """How many `vfmadd`/`vfmsub` instructions the host assembly of
    `llvm_ir` (a `JitModule.llvm_ir`) has."""
    assembly = optimized_assembly(llvm_ir)
    return len(re.findall(r"\bvfn?m(?:add|sub)\w*", assembly))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="One kernel compiled in each fast-math mode."
    )
    parser.add_argument("--quick", action="store_true", help="small sizes, 3 reps")
    parser.add_argument(
        "--only", default="", help="run the kernels whose label contains this text"
    )
    args = parser.parse_args(argv)
    rng = np.random.default_rng(0)
    print(machine_line())
    print("Fastest call of each mode, calls alternated; compiled with run-time")
    print("checks. error: max |ours - float64| / max |float64 result|.")
    header = (
        f"{'kernel':<18}{'fast_math':<11}{'ms':>9}{'GFLOP/s':>9}{'vs none':>9}"
        f"{'error':>10}  {'vector':<16}{'fma':>5}"
    )
    print(header)
    print("-" * len(header))
    for kernel in kernels(args.quick):
        if args.only not in kernel.label:
            continue
        inputs = [rng.uniform(-1, 1, s).astype(np.float32) for s in kernel.shapes]
        expected = kernel.reference(*(x.astype(np.float64) for x in inputs))
        scale = float(np.abs(expected).max())
        functions: dict[str, JitFunction] = {}
        shapes: dict[str, tuple[str, int]] = {}
        for mode in FAST_MATH_MODES:
            module = Parser(make_context(), kernel.text).parse_module()
            compiled = compile_module(module, fast_math=mode)
            functions[mode] = compiled["kernel"]
            optimized = optimized_llvm_ir(compiled.llvm_ir)
            shapes[mode] = (
                widest_vector(optimized),
                fused_multiply_adds(compiled.llvm_ir),
            )
        times: dict[str, list[float]] = {mode: [] for mode in FAST_MATH_MODES}
        errors: dict[str, float] = {}
        for _ in range(kernel.repetitions):
            for mode, function in functions.items():
                result = function(*inputs)
                times[mode].append(function.last_call_seconds)
                errors[mode] = float(np.abs(result - expected).max()) / scale
                del result
        baseline = min(times["none"])
        for mode in FAST_MATH_MODES:
            best = min(times[mode])
            vector, fma = shapes[mode]
            print(
                f"{kernel.label:<18}{mode:<11}{best * 1e3:>9.3f}"
                f"{kernel.flops / best / 1e9:>9.2f}{baseline / best:>8.2f}x"
                f"{errors[mode]:>10.1e}  {vector:<16}{fma:>5}",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
