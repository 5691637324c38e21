"""Compiled code side by side: our lowering + llvmlite vs upstream MLIR vs numpy.

    python bench/native_bench.py [--quick] [--only TEXT]

Kernels (tensor programs, f32):

- square+pad unfused / fused: x*x over NxN, padded by P on every side with
  0 (the seed 000 example: 1024² -> 1280²); fused = after our `fuse-pad`;
- (a+b)*c two generics / fused: on 4096²; fused = after our
  `linalg-fuse-elementwise-ext`;
- matmul+relu: a 1024² `linalg.matmul` followed by an elementwise max(x, 0);
- matmul+bias+relu untiled / tiled+fused: relu(a @ b + bias) on 1024²; tiled =
  after our `linalg-tile-and-fuse{tile-sizes=32,32}` (32×32 output tiles, the
  fill, the matmul and the bias+relu generic computed tile by tile); the
  upstream column runs the same tiled IR through mlir-opt-22's lowering;
- softmax dynamic: `linalg_ext.softmax` over the rows of a 2048² matrix, and
  (a+b)*c dynamic: one generic on 4096², both with `?` shapes, so that the
  extents that must agree are checked at run time (no upstream column).

Each kernel is also compiled without run-time checks (`compile_module`'s
`runtime_checks=False`) and called alternately with the checked one: "chk/no" is
what the checks cost, the fastest checked call over the fastest other.

Each kernel text is compiled three ways:

- ours: `linalg_ext.jit.compile_module` (one-shot-bufferize, deallocation,
  lower-to-llvm, llvmlite -O3 for the host CPU), called from Python. A call
  is timed in machine code, the clock read just before and after the
  kernel (`JitFunction.last_call_seconds`), as upstream's `rtclock` is; the
  "+py" column is the same call timed from Python, ctypes and argument
  checks included. The result buffer is freed after the timer stops;
- upstream: `mlir-opt-22` with the pipeline below, then `mlir-runner-22 -O3`
  running a generated `@main` that calls the kernel (marked `noinline`)
  repeatedly and times each call with `rtclock` (the kernel's result is read
  after the timer stops, so its deallocation is not timed either);
- numpy: the same computation with numpy (matmul: BLAS).

Per-call medians over repetitions, all in one run; ratios are ours over the
others. Our compile time per kernel (bufferize + lower + translate + LLVM)
is printed too. Every result of ours is checked against numpy. Without
`mlir-opt-22` the upstream columns say "n/a".
"""

from __future__ import annotations

import argparse
import io
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from timing import machine_line
from xdsl.dialects.builtin import ModuleOp
from xdsl.parser import Parser
from xdsl.printer import Printer

from linalg_ext.context import make_context
from linalg_ext.jit import compile_module
from linalg_ext.pipelines import parse_pipeline

UPSTREAM_PIPELINE = (
    "builtin.module(one-shot-bufferize{bufferize-function-boundaries "
    "function-boundary-type-conversion=identity-layout-map},"
    "buffer-deallocation-pipeline,convert-bufferization-to-memref,"
    "convert-linalg-to-loops,expand-strided-metadata,lower-affine,"
    "convert-scf-to-cf,convert-cf-to-llvm,convert-math-to-llvm,"
    "convert-arith-to-llvm,convert-index-to-llvm,finalize-memref-to-llvm,"
    "convert-func-to-llvm,reconcile-unrealized-casts)"
)
"""The issue's upstream pipeline, as mlir-opt-22's --pass-pipeline."""

RUNNER_LIB = "/usr/lib/llvm-22/lib/libmlir_c_runner_utils.so.22.1"
PARALLEL_2D = 'iterator_types = ["parallel", "parallel"]'
ID2 = "affine_map<(i, j) -> (i, j)>"


def square_pad(n: int, pad: int) -> str:
    p = n + 2 * pad
    return f"""
func.func @kernel(%x: tensor<{n}x{n}xf32>) -> tensor<{p}x{p}xf32> {{
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<{n}x{n}xf32>
  %y = linalg.generic {{indexing_maps = [{ID2}, {ID2}], {PARALLEL_2D}}}
      ins(%x : tensor<{n}x{n}xf32>) outs(%e : tensor<{n}x{n}xf32>) {{
  ^bb0(%in: f32, %out: f32):
    %s = arith.mulf %in, %in : f32
    linalg.yield %s : f32
  }} -> tensor<{n}x{n}xf32>
  %padded = tensor.pad %y low[{pad}, {pad}] high[{pad}, {pad}] {{
  ^bb0(%i: index, %j: index):
    tensor.yield %zero : f32
  }} : tensor<{n}x{n}xf32> to tensor<{p}x{p}xf32>
  return %padded : tensor<{p}x{p}xf32>
}}
"""


def add_mul(n: int) -> str:
    t = f"tensor<{n}x{n}xf32>"
    return f"""
func.func @kernel(%a: {t}, %b: {t}, %c: {t}) -> {t} {{
  %e0 = tensor.empty() : {t}
  %s = linalg.generic {{indexing_maps = [{ID2}, {ID2}, {ID2}], {PARALLEL_2D}}}
      ins(%a, %b : {t}, {t}) outs(%e0 : {t}) {{
  ^bb0(%x: f32, %y: f32, %o: f32):
    %r = arith.addf %x, %y : f32
    linalg.yield %r : f32
  }} -> {t}
  %e1 = tensor.empty() : {t}
  %p = linalg.generic {{indexing_maps = [{ID2}, {ID2}, {ID2}], {PARALLEL_2D}}}
      ins(%s, %c : {t}, {t}) outs(%e1 : {t}) {{
  ^bb0(%x: f32, %y: f32, %o: f32):
    %r = arith.mulf %x, %y : f32
    linalg.yield %r : f32
  }} -> {t}
  return %p : {t}
}}
"""


def matmul_relu(n: int) -> str:
    t = f"tensor<{n}x{n}xf32>"
    return f"""
func.func @kernel(%a: {t}, %b: {t}) -> {t} {{
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : {t}
  %acc = linalg.fill ins(%zero : f32) outs(%e : {t}) -> {t}
  %m = linalg.matmul ins(%a, %b : {t}, {t}) outs(%acc : {t}) -> {t}
  %e1 = tensor.empty() : {t}
  %r = linalg.generic {{indexing_maps = [{ID2}, {ID2}], {PARALLEL_2D}}}
      ins(%m : {t}) outs(%e1 : {t}) {{
  ^bb0(%x: f32, %o: f32):
    %y = arith.maximumf %x, %zero : f32
    linalg.yield %y : f32
  }} -> {t}
  return %r : {t}
}}
"""


def matmul_bias_relu(n: int) -> str:
    """relu(a @ b + bias): the issue-17 kernel, tiled and fused by
    `linalg-tile-and-fuse` in its second row."""
    t, v = f"tensor<{n}x{n}xf32>", f"tensor<{n}xf32>"
    row = "affine_map<(i, j) -> (j)>"
    return f"""
func.func @kernel(%a: {t}, %b: {t}, %bias: {v}) -> {t} {{
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : {t}
  %acc = linalg.fill ins(%zero : f32) outs(%e : {t}) -> {t}
  %m = linalg.matmul ins(%a, %b : {t}, {t}) outs(%acc : {t}) -> {t}
  %e1 = tensor.empty() : {t}
  %r = linalg.generic {{indexing_maps = [{ID2}, {row}, {ID2}], {PARALLEL_2D}}}
      ins(%m, %bias : {t}, {v}) outs(%e1 : {t}) {{
  ^bb0(%x: f32, %c: f32, %o: f32):
    %s = arith.addf %x, %c : f32
    %y = arith.maximumf %s, %zero : f32
    linalg.yield %y : f32
  }} -> {t}
  return %r : {t}
}}
"""


TILE_AND_FUSE = "linalg-tile-and-fuse{tile-sizes=32,32}"
"""How the tiled row of matmul+bias+relu is made (i and j tiled; k whole,
so the fill of the accumulator is fused too)."""


def softmax_dynamic() -> str:
    """`linalg_ext.softmax` over the rows of a matrix of any shape (upstream
    has no such op: no upstream column)."""
    t, v = "tensor<?x?xf32>", "tensor<?xf32>"
    return f"""
func.func @kernel(%x: {t}) -> {t} {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = tensor.dim %x, %c0 : {t}
  %n = tensor.dim %x, %c1 : {t}
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty(%m, %n) : {t}
  %e0 = tensor.empty(%m) : {v}
  %e1 = tensor.empty(%m) : {v}
  %e2 = tensor.empty(%m) : {v}
  %max = linalg.fill ins(%ninf : f32) outs(%e0 : {v}) -> {v}
  %acc = linalg.fill ins(%zero : f32) outs(%e1 : {v}) -> {v}
  %r:4 = linalg_ext.softmax dimension(1) ins(%x : {t})
      outs(%e, %max, %acc, %e2 : {t}, {v}, {v}, {v}) : {t}, {v}, {v}, {v}
  return %r#0 : {t}
}}
"""


def add_mul_dynamic() -> str:
    """(a+b)*c fused, on operands of any shape: the extents that must agree
    are checked once per call."""
    t = "tensor<?x?xf32>"
    return f"""
func.func @kernel(%a: {t}, %b: {t}, %c: {t}) -> {t} {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = tensor.dim %a, %c0 : {t}
  %n = tensor.dim %a, %c1 : {t}
  %e = tensor.empty(%m, %n) : {t}
  %p = linalg.generic {{indexing_maps = [{ID2}, {ID2}, {ID2}, {ID2}], {PARALLEL_2D}}}
      ins(%a, %b, %c : {t}, {t}, {t}) outs(%e : {t}) {{
  ^bb0(%x: f32, %y: f32, %z: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    %r = arith.mulf %s, %z : f32
    linalg.yield %r : f32
  }} -> {t}
  return %p : {t}
}}
"""


def softmax_rows(x: np.ndarray) -> np.ndarray:
    e = np.exp(x - x.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


@dataclass
class Kernel:
    label: str
    text: str
    shapes: list[tuple[int, ...]]
    reference: Callable[..., np.ndarray]
    repetitions: int
    upstream: bool = True
    """Whether upstream MLIR has every op (and the harness static shapes)."""


def parse(text: str) -> ModuleOp:
    module = Parser(make_context(), text).parse_module()
    module.verify()
    return module


def transformed(text: str, pipeline: str) -> str:
    module = parse(text)
    for lowering in parse_pipeline(pipeline).passes:
        lowering.apply(make_context(), module)
    # The functions alone: the upstream harness appends its @main.
    stream = io.StringIO()
    printer = Printer(stream=stream)
    for op in module.body.block.ops:
        printer.print_op(op)
        stream.write("\n")
    return stream.getvalue()


def kernels(quick: bool) -> list[Kernel]:
    n_pad, pad = (64, 8) if quick else (1024, 128)
    n_abc = 128 if quick else 4096
    n_mm = 64 if quick else 1024
    reps = 3 if quick else None

    def square_pad_ref(x):
        return np.pad(x * x, pad)

    unfused_pad = square_pad(n_pad, pad)
    unfused_abc = add_mul(n_abc)
    return [
        Kernel(
            "square+pad unfused",
            unfused_pad,
            [(n_pad, n_pad)],
            square_pad_ref,
            reps or 30,
        ),
        Kernel(
            "square+pad fused",
            transformed(unfused_pad, "fuse-pad"),
            [(n_pad, n_pad)],
            square_pad_ref,
            reps or 30,
        ),
        Kernel(
            "(a+b)*c two generics",
            unfused_abc,
            [(n_abc, n_abc)] * 3,
            lambda a, b, c: (a + b) * c,
            reps or 10,
        ),
        Kernel(
            "(a+b)*c fused",
            transformed(unfused_abc, "linalg-fuse-elementwise-ext"),
            [(n_abc, n_abc)] * 3,
            lambda a, b, c: (a + b) * c,
            reps or 10,
        ),
        Kernel(
            "matmul+relu",
            matmul_relu(n_mm),
            [(n_mm, n_mm)] * 2,
            lambda a, b: np.maximum(a @ b, 0),
            reps or 3,
        ),
        Kernel(
            "matmul+bias+relu untiled",
            matmul_bias_relu(n_mm),
            [(n_mm, n_mm), (n_mm, n_mm), (n_mm,)],
            lambda a, b, c: np.maximum(a @ b + c, 0),
            reps or 3,
        ),
        Kernel(
            "matmul+bias+relu tiled+fused",
            transformed(matmul_bias_relu(n_mm), TILE_AND_FUSE),
            [(n_mm, n_mm), (n_mm, n_mm), (n_mm,)],
            lambda a, b, c: np.maximum(a @ b + c, 0),
            reps or 3,
        ),
        Kernel(
            "softmax dynamic",
            softmax_dynamic(),
            [(n_abc // 2, n_abc // 2)],
            softmax_rows,
            reps or 10,
            upstream=False,
        ),
        Kernel(
            "(a+b)*c dynamic",
            add_mul_dynamic(),
            [(n_abc, n_abc)] * 3,
            lambda a, b, c: (a + b) * c,
            reps or 10,
            upstream=False,
        ),
    ]


def time_ours(kernel: Kernel, inputs: list[np.ndarray]) -> tuple[float, float, float]:
    """(median seconds per call in machine code, the same seen from Python,
    compile seconds); checks the result. Compiled as the JIT does by default,
    with run-time checks."""
    compiled = compile_module(parse(kernel.text))
    function = compiled["kernel"]
    native, from_python = [], []
    result = None
    for _ in range(kernel.repetitions):
        result = None  # the previous result is freed before the next call
        start = time.perf_counter()
        result = function(*inputs)
        from_python.append(time.perf_counter() - start)
        native.append(function.last_call_seconds)
    expected = kernel.reference(*inputs)
    if not np.allclose(result, expected, rtol=1e-4, atol=1e-4):
        raise SystemExit(f"{kernel.label}: our result differs from numpy")
    return (
        statistics.median(native),
        statistics.median(from_python),
        compiled.compile_seconds.total,
    )


def time_check_cost(kernel: Kernel, inputs: list[np.ndarray]) -> tuple[float, float]:
    """(seconds per call in machine code with run-time checks, without): both
    compiled, their calls alternated, so that a machine's changing load weighs
    on both alike, and the fastest call of each, the least disturbed by it (on
    a loaded machine medians of identical code differ by tens of percent)."""
    checked = compile_module(parse(kernel.text))["kernel"]
    unchecked = compile_module(parse(kernel.text), runtime_checks=False)["kernel"]
    with_checks, without = [], []
    for _ in range(max(kernel.repetitions, 5)):
        for function, times in ((checked, with_checks), (unchecked, without)):
            result = function(*inputs)
            times.append(function.last_call_seconds)
            del result
    return min(with_checks), min(without)


def upstream_program(kernel: Kernel) -> str:
    """The kernel (noinline) plus a @main that times `repetitions` calls."""
    text = kernel.text
    signature_end = text.index("{", text.index("func.func @kernel("))
    # `-> tensor<...> {`: the attribute goes before the body's brace.
    text = (
        text[:signature_end]
        + 'attributes {passthrough = ["noinline"]} '
        + text[signature_end:]
    )
    types = [f"tensor<{'x'.join(map(str, s))}xf32>" for s in kernel.shapes]
    fills = []
    for index, type_ in enumerate(types):
        fills.append(
            f"  %e{index} = tensor.empty() : {type_}\n"
            f"  %a{index} = linalg.fill ins(%half : f32) outs(%e{index} : {type_})"
            f" -> {type_}"
        )
    arguments = ", ".join(f"%a{i}" for i in range(len(types)))
    result_type = text.split("->", 1)[1].split("attributes", 1)[0].strip()
    return f"""{text}
func.func private @rtclock() -> f64
func.func private @printF64(f64)
func.func private @printNewline()
func.func @main() {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %reps = arith.constant {kernel.repetitions} : index
  %half = arith.constant 0.5 : f32
  %zero = arith.constant 0.0 : f32
  %micro = arith.constant 1.0e6 : f64
{chr(10).join(fills)}
  %sum = scf.for %i = %c0 to %reps step %c1 iter_args(%acc = %zero) -> f32 {{
    %t0 = func.call @rtclock() : () -> f64
    %r = func.call @kernel({arguments}) : ({", ".join(types)}) -> {result_type}
    %t1 = func.call @rtclock() : () -> f64
    %el = tensor.extract %r[%c0, %c0] : {result_type}
    %dt = arith.subf %t1, %t0 : f64
    %us = arith.mulf %dt, %micro : f64
    func.call @printF64(%us) : (f64) -> ()
    func.call @printNewline() : () -> ()
    %n = arith.addf %acc, %el : f32
    scf.yield %n : f32
  }}
  %s64 = arith.extf %sum : f32 to f64
  func.call @printF64(%s64) : (f64) -> ()
  func.call @printNewline() : () -> ()
  return
}}
"""


def time_upstream(kernel: Kernel) -> float | None:
    """Median seconds per call compiled by mlir-opt-22 | mlir-runner-22 -O3."""
    if not kernel.upstream:
        return None
    if shutil.which("mlir-opt-22") is None or shutil.which("mlir-runner-22") is None:
        return None
    lowered = subprocess.run(
        ["mlir-opt-22", f"--pass-pipeline={UPSTREAM_PIPELINE}"],
        input=upstream_program(kernel),
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    output = subprocess.run(
        [
            "mlir-runner-22",
            "-O3",
            "-e",
            "main",
            "-entry-point-result=void",
            f"-shared-libs={RUNNER_LIB}",
        ],
        input=lowered,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    micros = [float(v) for v in output[:-1]]
    return statistics.median(micros) / 1e6


def time_numpy(kernel: Kernel, inputs: list[np.ndarray]) -> float:
    times = []
    for _ in range(kernel.repetitions):
        start = time.perf_counter()
        kernel.reference(*inputs)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def milliseconds(seconds: float | None) -> str:
    return "n/a" if seconds is None else f"{seconds * 1e3:.3f}"


def ratio(ours: float, other: float | None) -> str:
    # Upstream's rtclock ticks in microseconds: a tiny kernel (--quick) may
    # measure 0.
    return "n/a" if not other else f"{ours / other:.2f}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="small sizes, 3 reps")
    parser.add_argument(
        "--only", default="", help="run the kernels whose label contains this text"
    )
    args = parser.parse_args(argv)
    rng = np.random.default_rng(0)
    header = (
        f"{'kernel':<30}{'ours ms':>10}{'+py ms':>9}{'upstream ms':>13}"
        f"{'numpy ms':>10}{'ours/up':>9}{'ours/np':>9}{'compile s':>11}"
        f"{'chk ms':>9}{'no-chk ms':>11}{'chk/no':>8}"
    )
    print(machine_line())
    print("Per-call medians; compiled by us (llvmlite), upstream (mlir-runner-22 -O3),")
    print("and numpy, in one run. 'ours' checks at run time what the interpreter")
    print("checks (the JIT's default). The cost of those checks: 'chk' and 'no-chk'")
    print("are the kernel compiled with and without them (runtime_checks=False), their")
    print("calls alternated, fastest call of each; 'chk/no' their ratio.")
    print(header)
    print("-" * len(header))
    for kernel in kernels(args.quick):
        if args.only not in kernel.label:
            continue
        inputs = [rng.uniform(-1, 1, s).astype(np.float32) for s in kernel.shapes]
        ours, from_python, compile_seconds = time_ours(kernel, inputs)
        checked, unchecked = time_check_cost(kernel, inputs)
        upstream = time_upstream(kernel)
        numpy_time = time_numpy(kernel, inputs)
        print(
            f"{kernel.label:<30}{milliseconds(ours):>10}"
            f"{milliseconds(from_python):>9}{milliseconds(upstream):>13}"
            f"{milliseconds(numpy_time):>10}{ratio(ours, upstream):>9}"
            f"{ratio(ours, numpy_time):>9}{compile_seconds:>11.2f}"
            f"{milliseconds(checked):>9}{milliseconds(unchecked):>11}"
            f"{ratio(checked, unchecked):>8}",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
