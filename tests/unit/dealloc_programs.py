"""Random memref programs whose buffers' ownership is known only at run
time, for `buffer-deallocation-pipeline` (tests/unit/test_no_leaks.py and
bench/dealloc_random_bench.py).

`ownership_program(seed)` writes one function `@f(%x, %y, %c, %d, %n, %out)`
over `memref<4xf32>`: fresh buffers (`memref.alloc` filled by `linalg.add`),
`arith.select`s of buffers on `%c`/`%d`, `scf.if`s yielding buffers (a new
one, an argument, an outer buffer, an iter_arg, a select) from either
branch, `scf.for`s (`%n` iterations) whose iter_arg is replaced on some
iterations and not others, nested up to three deep; it ends by adding one
of its buffers into `%out` and returning nothing or one of its buffers.
`inputs(seed)` gives the argument sets to run it on: both values of each
condition, and 0, 1 or 3 iterations.
"""

from __future__ import annotations

import itertools
import random
from typing import Any

import numpy as np

F4 = "memref<4xf32>"


class OwnershipProgram:
    def __init__(self, seed: int):
        self.rng = random.Random(seed)
        self.count = 0
        self.lines: list[str] = []

    def name(self, prefix: str) -> str:
        self.count += 1
        return f"%{prefix}{self.count}"

    def emit(self, depth: int, line: str) -> None:
        self.lines.append("  " * (depth + 1) + line)

    def condition(self) -> str:
        return self.rng.choice(["%c", "%d"])

    def block(self, scope: list[str], depth: int, length: int) -> list[str]:
        scope = list(scope)
        pick = self.rng.choice
        for _ in range(length):
            kind = self.rng.random()
            if kind < 0.25:
                new = self.name("a")
                a, b = pick(scope), pick(scope)
                self.emit(depth, f"{new} = memref.alloc() : {F4}")
                self.emit(
                    depth, f"linalg.add ins({a}, {b} : {F4}, {F4}) outs({new} : {F4})"
                )
                scope.append(new)
            elif kind < 0.4:
                new = self.name("s")
                self.emit(
                    depth,
                    f"{new} = arith.select {self.condition()}, {pick(scope)}, "
                    f"{pick(scope)} : {F4}",
                )
                scope.append(new)
            elif kind < 0.6 and depth < 3:
                result = self.name("i")
                self.emit(depth, f"{result} = scf.if {self.condition()} -> ({F4}) {{")
                inner = self.block(scope, depth + 1, self.rng.randint(0, 3))
                self.emit(depth + 1, f"scf.yield {pick(inner)} : {F4}")
                self.emit(depth, "} else {")
                inner = self.block(scope, depth + 1, self.rng.randint(0, 3))
                self.emit(depth + 1, f"scf.yield {pick(inner)} : {F4}")
                self.emit(depth, "}")
                scope.append(result)
            elif kind < 0.78 and depth < 3:
                result, carried, i = self.name("f"), self.name("it"), self.name("iv")
                self.emit(
                    depth,
                    f"{result} = scf.for {i} = %c0 to %n step %c1 iter_args("
                    f"{carried} = {pick(scope)}) -> ({F4}) {{",
                )
                inner = self.block(scope + [carried], depth + 1, self.rng.randint(0, 4))
                # Often the iter_arg itself or a new buffer, so that it is
                # replaced on some iterations only.
                yielded = pick([carried, *inner[-2:], *inner])
                self.emit(depth + 1, f"scf.yield {yielded} : {F4}")
                self.emit(depth, "}")
                scope.append(result)
            elif kind < 0.9:
                a, b, into = pick(scope), pick(scope), pick(scope)
                self.emit(
                    depth, f"linalg.add ins({a}, {b} : {F4}, {F4}) outs({into} : {F4})"
                )
            else:
                self.emit(
                    depth,
                    f"linalg.add ins({pick(scope)}, %out : {F4}, {F4}) outs(%out : {F4})",
                )
        return scope

    def text(self) -> str:
        returns = self.rng.random() < 0.4
        scope = self.block(["%x", "%y"], 0, self.rng.randint(2, 8))
        self.emit(
            0,
            f"linalg.add ins({self.rng.choice(scope)}, %out : {F4}, {F4}) "
            f"outs(%out : {F4})",
        )
        signature = f" -> {F4}" if returns else ""
        ret = f"return {self.rng.choice(scope)} : {F4}" if returns else "return"
        body = "\n".join(self.lines)
        return f"""func.func @f(%x: {F4}, %y: {F4}, %c: i1, %d: i1, %n: index, %out: {F4}){signature} {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
{body}
  {ret}
}}
"""


def ownership_program(seed: int) -> str:
    return OwnershipProgram(seed).text()


def inputs(seed: int) -> list[list[Any]]:
    """Argument sets: every pair of conditions, with 0, 1 or 3 iterations."""
    rng = np.random.default_rng(seed)
    sets = []
    for (c, d), n in zip(
        itertools.product([True, False], repeat=2), [0, 1, 3, 3], strict=True
    ):
        x, y, out = (rng.uniform(-1, 1, 4).astype(np.float32) for _ in range(3))
        sets.append([x, y, c, d, n, out])
    return sets


def copied(values: list[Any]) -> list[Any]:
    return [v.copy() if isinstance(v, np.ndarray) else v for v in values]
