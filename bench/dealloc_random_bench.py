"""Random programs through `buffer-deallocation-pipeline`: leaks, double
frees, uses after free and wrong results, counted.

    python bench/dealloc_random_bench.py [-n 200] [--seed 0] [--jit-every 5]

The programs are those of tests/unit/dealloc_programs.py: buffers allocated,
chosen by `arith.select`, yielded by `scf.if`s and `scf.for`s (an iter_arg
replaced on some iterations only), nested, returned or not; each is run on
both values of its two conditions and 0, 1 or 3 iterations. Per program:
the interpreter before and after the pass (it raises on a double free or a
use of a freed buffer, and lists leaks), and every `--jit-every`-th one
compiled with memory tracking. Also counted: programs the pass changes on a
second run (it must be idempotent), and lines `report=true` prints. Exit 1
if anything but zero is found.
"""

from __future__ import annotations

import argparse
import io
import sys
import time
from contextlib import redirect_stderr
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "unit"))

from dealloc_programs import copied, inputs, ownership_program  # noqa: E402

from helpers import parse_module, print_module  # noqa: E402
from linalg_ext.comparison import compare_values  # noqa: E402
from linalg_ext.context import make_context  # noqa: E402
from linalg_ext.jit import JitError, compile_module  # noqa: E402
from linalg_ext.jit.compiled import run_function as run_compiled  # noqa: E402
from linalg_ext.passes.buffer_deallocation import (  # noqa: E402
    BufferDeallocationPass,
)
from linalg_ext.running import run_function  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, default=200, help="number of programs")
    parser.add_argument("--seed", type=int, default=0, help="first seed")
    parser.add_argument(
        "--jit-every", type=int, default=5, help="compile every k-th program"
    )
    args = parser.parse_args(argv)
    counts = dict.fromkeys(
        [
            "leaking",
            "errors",
            "mismatches",
            "jit leaking",
            "not idempotent",
            "reported",
        ],
        0,
    )
    examples: list[str] = []
    start = time.perf_counter()
    for seed in range(args.seed, args.seed + args.n):
        module = parse_module(ownership_program(seed))
        after = module.clone()
        report = io.StringIO()
        with redirect_stderr(report):
            BufferDeallocationPass(report=True).apply(make_context(), after)
        counts["reported"] += bool(report.getvalue())
        again = after.clone()
        BufferDeallocationPass().apply(make_context(), again)
        counts["not idempotent"] += print_module(again) != print_module(after)
        compiled = None
        if args.jit_every and seed % args.jit_every == 0:
            compiled = compile_module(after, track_memory=True)
        found: set[str] = set()
        for arguments in inputs(seed):
            expected = run_function(module, "f", copied(arguments))
            try:
                actual = run_function(after, "f", copied(arguments))
            except Exception as error:  # noqa: BLE001 (counted, shown)
                found.add("errors")
                examples.append(f"seed {seed}: {error}")
                continue
            if compare_values(
                expected.results, actual.results, "result"
            ) or compare_values(expected.arguments, actual.arguments, "argument"):
                found.add("mismatches")
            if actual.leaks:
                found.add("leaking")
            if compiled is not None:
                try:
                    native = run_compiled(compiled, "f", copied(arguments))
                except JitError as error:
                    found.add("errors")
                    examples.append(f"seed {seed} (compiled): {error}")
                    continue
                if native.leaks:
                    found.add("jit leaking")
                if compare_values(expected.results, native.results, "result"):
                    found.add("mismatches")
        for key in found:
            counts[key] += 1
            if key != "errors":
                examples.append(f"seed {seed}: {key}")
    seconds = time.perf_counter() - start
    last = args.seed + args.n - 1
    print(f"{args.n} programs (seeds {args.seed}..{last}), {seconds:.1f} s")
    for key, value in counts.items():
        print(f"  {key}: {value}")
    for line in examples[:10]:
        print(f"  {line}")
    return 1 if any(counts.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
