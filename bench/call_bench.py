"""Per-call overhead from Python: a compiled function on tiny inputs, ours
(with a fresh result, and with `out=`) next to numpy and IREE.

    python bench/call_bench.py [--quick]

Each row is a function whose work is negligible (a few elements), so the
time is what a call costs: checking and packing arguments, the ctypes call,
the entry point (context, clock), the compiled code's `malloc`, and
wrapping (or, with `out=`, copying and freeing) the result. Times are CPU
time of this thread per call: the median over batches of calls, all in one
run. "numpy" is the same computation with numpy (a fresh result; "numpy
out" with `out=`); IREE runs the same tensor program (`iree-base-compiler`,
llvm-cpu for the host, `local-sync` driver) when `iree-base-compiler` and
`iree-base-runtime` are installed, and says "not installed" otherwise.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
from timing import machine_line
from xdsl.parser import Parser

from linalg_ext.context import make_context
from linalg_ext.jit import compile_module


def _add(extent: str) -> str:
    """a + b over `extent` f32 (`?`: dynamic), as a generic (IREE 3.13
    reads no `linalg.add`)."""
    t = f"tensor<{extent}xf32>"
    empty = "tensor.empty()"
    dim = ""
    if extent == "?":
        dim = f"  %c0 = arith.constant 0 : index\n  %n = tensor.dim %a, %c0 : {t}\n"
        empty = "tensor.empty(%n)"
    return f"""
func.func @kernel(%a: {t}, %b: {t}) -> {t} {{
{dim}  %e = {empty} : {t}
  %r = linalg.generic {{indexing_maps = [affine_map<(i) -> (i)>,
      affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
      iterator_types = ["parallel"]}}
      ins(%a, %b : {t}, {t}) outs(%e : {t}) {{
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  }} -> {t}
  return %r : {t}
}}
"""


SCALE = """
func.func @kernel(%a: tensor<4x4xf32>, %s: f32) -> tensor<4x4xf32> {
  %e = tensor.empty() : tensor<4x4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>,
                                        affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<4x4xf32>) outs(%e : tensor<4x4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.mulf %x, %s : f32
    linalg.yield %y : f32
  } -> tensor<4x4xf32>
  return %r : tensor<4x4xf32>
}
"""


@dataclass
class Row:
    label: str
    text: str
    inputs: list[Any]
    reference: Callable[..., np.ndarray]
    reference_out: Callable[..., Any]


def rows() -> list[Row]:
    four = [np.arange(4, dtype=np.float32), np.ones(4, np.float32)]
    sixteen = [np.arange(16, dtype=np.float32), np.ones(16, np.float32)]
    square = np.arange(16, dtype=np.float32).reshape(4, 4)
    return [
        Row(
            "add 4 f32",
            _add("4"),
            four,
            lambda a, b: a + b,
            lambda a, b, out: np.add(a, b, out=out),
        ),
        Row(
            "add 16 f32",
            _add("16"),
            sixteen,
            lambda a, b: a + b,
            lambda a, b, out: np.add(a, b, out=out),
        ),
        Row(
            "add ? f32 (dynamic, 4)",
            _add("?"),
            four,
            lambda a, b: a + b,
            lambda a, b, out: np.add(a, b, out=out),
        ),
        Row(
            "scale 4x4 f32 by a scalar",
            SCALE,
            [square, np.float32(1.5)],
            lambda a, s: a * s,
            lambda a, s, out: np.multiply(a, s, out=out),
        ),
    ]


def per_call(run: Callable[[], Any], calls: int, batches: int) -> float:
    """Median CPU seconds per call over `batches` batches of `calls` calls."""
    run()
    times = []
    for _ in range(batches):
        start = time.thread_time()
        for _ in range(calls):
            run()
        times.append((time.thread_time() - start) / calls)
    return statistics.median(times)


def iree_function(text: str) -> tuple[Callable[..., Any] | None, str]:
    """IREE's compiled `@kernel`, or None and why not."""
    try:
        import iree.compiler as compiler
        import iree.runtime as runtime
    except ImportError:
        return None, "not installed"
    try:
        vmfb = compiler.compile_str(
            text,
            target_backends=["llvm-cpu"],
            extra_args=["--iree-llvmcpu-target-cpu=host"],
        )
    except Exception as failure:  # the compiler's own error type
        lines = [line for line in str(failure).splitlines() if line.strip()]
        return None, f"compile failed: {lines[0] if lines else ''}"
    config = runtime.Config("local-sync")
    context = runtime.SystemContext(config=config)
    context.add_vm_module(runtime.VmModule.copy_buffer(context.instance, vmfb))
    return context.modules.module["kernel"], ""


def microseconds(seconds: float | None) -> str:
    return "n/a" if seconds is None else f"{seconds * 1e6:.2f}"


def measure(
    row: Row, calls: int, batches: int, notes: set[str], with_iree: bool
) -> str:
    """The table line of `row` (IREE's absence noted in `notes`)."""
    context = make_context()
    function = compile_module(Parser(context, row.text).parse_module())["kernel"]
    inputs = row.inputs
    expected = row.reference(*inputs)
    out = np.empty_like(expected)
    if not np.allclose(function(*inputs), expected) or not np.allclose(
        function(*inputs, out=out), expected
    ):
        raise SystemExit(f"{row.label}: our result differs from numpy")
    ours = per_call(lambda: function(*inputs), calls, batches)
    ours_out = per_call(lambda: function(*inputs, out=out), calls, batches)
    numpy_time = per_call(lambda: row.reference(*inputs), calls, batches)
    numpy_out = per_call(lambda: row.reference_out(*inputs, out), calls, batches)
    iree, why = iree_function(row.text) if with_iree else (None, "skipped")
    iree_time = None
    if iree is not None:
        iree_inputs = [v if isinstance(v, np.ndarray) else float(v) for v in inputs]
        if not np.allclose(iree(*iree_inputs).to_host(), expected):
            raise SystemExit(f"{row.label}: IREE's result differs from numpy")
        iree_time = per_call(lambda: iree(*iree_inputs), calls, batches)
    else:
        notes.add(f"IREE: {why}")
    ratio = "n/a" if iree_time is None else f"{ours / iree_time:.2f}"
    return (
        f"{row.label:<28}{microseconds(ours):>8}{microseconds(ours_out):>10}"
        f"{microseconds(numpy_time):>8}{microseconds(numpy_out):>11}"
        f"{microseconds(iree_time):>8}{ratio:>11}"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer calls")
    parser.add_argument(
        "--skip-iree", action="store_true", help="leave IREE out (tests)"
    )
    args = parser.parse_args(argv)
    calls, batches = (200, 5) if args.quick else (2000, 15)
    print(machine_line())
    print("Per-call overhead from Python, µs of CPU time per call (median of")
    print("batches).")
    print(
        "'ours' returns a fresh array; 'ours out' writes into an array given as out=."
    )
    header = (
        f"{'function':<28}{'ours':>8}{'ours out':>10}{'numpy':>8}"
        f"{'numpy out':>11}{'IREE':>8}{'ours/IREE':>11}"
    )
    print(header)
    print("-" * len(header))
    notes: set[str] = set()
    for row in rows():
        print(measure(row, calls, batches, notes, not args.skip_iree), flush=True)
    for note in sorted(notes):
        print(note)
    return 0


if __name__ == "__main__":
    sys.exit(main())
