"""Random memref programs for `buffer-deallocation-pipeline`
(tests/unit/test_no_leaks.py, tests/unit/test_buffer_deallocation.py and
bench/dealloc_random_bench.py).

One generator, `BufferProgram(seed, kinds)`, writes one function
`@f(%x, %y, %c, %d, %n, %out)` over `memref<4xf32>` (after the helpers
`@make`, which returns a new buffer, and `@same`, which returns its
argument): statements drawn by weight from `kinds`, in blocks nested up to
three deep (`scf.if` branches and `scf.for` bodies); it ends by adding one
of its buffers into `%out` and returning nothing, one of its buffers or
one of its views.

- `ownership_program(seed)`: ownership known only at run time: fresh
  buffers (`memref.alloc` filled by `linalg.add`), `arith.select`s on
  `%c`/`%d`, `scf.if`s yielding a new buffer, an argument, an outer buffer,
  an iter_arg or a select from either branch, `scf.for`s (`%n` iterations)
  whose iter_arg is replaced on some iterations and not others, and views
  (`memref.subview`s of layout `strided<[?], offset: ?>`) of arguments, of
  outer buffers and of buffers a branch allocates, yielded by `scf.if`s
  beside new buffers (cast to the view type).
- `mixed_program(seed)`: the same kinds mixed with copies, whole views
  (`expand_shape` then `collapse_shape`), in-place updates of part views,
  and calls.

`inputs(seed)` gives the argument sets to run a program on: both values of
each condition, and 0, 1 or 3 iterations.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable
from typing import Any

import numpy as np

F4 = "memref<4xf32>"
V2 = "memref<2xf32, strided<[?], offset: ?>>"
"""The type of views (any offset and stride: a copy of one can be made)."""

HELPERS = f"""func.func @make(%x: {F4}) -> {F4} {{
  %r = memref.alloc() : {F4}
  linalg.exp ins(%x : {F4}) outs(%r : {F4})
  return %r : {F4}
}}
func.func @same(%x: {F4}) -> {F4} {{
  linalg.negf ins(%x : {F4}) outs(%x : {F4})
  return %x : {F4}
}}
"""


class Scope:
    """The buffers (`memref<4xf32>`) and views (`V2`) a block can use."""

    def __init__(self, buffers: list[str], views: list[str]):
        self.buffers = list(buffers)
        self.views = list(views)

    def copy(self) -> Scope:
        return Scope(self.buffers, self.views)


class BufferProgram:
    """A random program (see the module docstring); `kinds` maps the name of
    a statement kind (a method `kind_<name>`) to its weight."""

    def __init__(self, seed: int, kinds: dict[str, float]):
        self.rng = random.Random(seed)
        self.kinds = kinds
        self.count = 0
        self.lines: list[str] = []

    def name(self, prefix: str) -> str:
        self.count += 1
        return f"%{prefix}{self.count}"

    def emit(self, depth: int, line: str) -> None:
        self.lines.append("  " * (depth + 1) + line)

    def pick(self, values: list[str]) -> str:
        return self.rng.choice(values)

    def condition(self) -> str:
        return self.pick(["%c", "%d"])

    def block(self, scope: Scope, depth: int, length: int) -> Scope:
        scope = scope.copy()
        names = list(self.kinds)
        weights = list(self.kinds.values())
        for _ in range(length):
            kind = self.rng.choices(names, weights)[0]
            statement: Callable[[Scope, int], None] = getattr(self, f"kind_{kind}")
            if kind in ("if", "for", "view_if") and depth >= 3:
                statement = self.kind_add
            statement(scope, depth)
        return scope

    # Statement kinds --------------------------------------------------

    def kind_alloc(self, scope: Scope, depth: int) -> None:
        new, pick = self.name("a"), self.pick
        self.emit(depth, f"{new} = memref.alloc() : {F4}")
        a, b = pick(scope.buffers), pick(scope.buffers)
        self.emit(depth, f"linalg.add ins({a}, {b} : {F4}, {F4}) outs({new} : {F4})")
        scope.buffers.append(new)

    def kind_copy(self, scope: Scope, depth: int) -> None:
        new = self.name("a")
        self.emit(depth, f"{new} = memref.alloc() : {F4}")
        self.emit(
            depth,
            f"linalg.copy ins({self.pick(scope.buffers)} : {F4}) outs({new} : {F4})",
        )
        scope.buffers.append(new)

    def kind_select(self, scope: Scope, depth: int) -> None:
        new, pick = self.name("s"), self.pick
        self.emit(
            depth,
            f"{new} = arith.select {self.condition()}, {pick(scope.buffers)}, "
            f"{pick(scope.buffers)} : {F4}",
        )
        scope.buffers.append(new)

    def kind_if(self, scope: Scope, depth: int) -> None:
        result = self.name("i")
        self.emit(depth, f"{result} = scf.if {self.condition()} -> ({F4}) {{")
        inner = self.block(scope, depth + 1, self.rng.randint(0, 3))
        self.emit(depth + 1, f"scf.yield {self.pick(inner.buffers)} : {F4}")
        self.emit(depth, "} else {")
        inner = self.block(scope, depth + 1, self.rng.randint(0, 3))
        self.emit(depth + 1, f"scf.yield {self.pick(inner.buffers)} : {F4}")
        self.emit(depth, "}")
        scope.buffers.append(result)

    def kind_for(self, scope: Scope, depth: int) -> None:
        result, carried, i = self.name("f"), self.name("it"), self.name("iv")
        self.emit(
            depth,
            f"{result} = scf.for {i} = %c0 to %n step %c1 iter_args("
            f"{carried} = {self.pick(scope.buffers)}) -> ({F4}) {{",
        )
        body = scope.copy()
        body.buffers.append(carried)
        inner = self.block(body, depth + 1, self.rng.randint(0, 4)).buffers
        # Often the iter_arg itself or a new buffer, so that it is replaced
        # on some iterations only.
        yielded = self.pick([carried, *inner[-2:], *inner])
        self.emit(depth + 1, f"scf.yield {yielded} : {F4}")
        self.emit(depth, "}")
        scope.buffers.append(result)

    def kind_add(self, scope: Scope, depth: int) -> None:
        a, b, into = (self.pick(scope.buffers) for _ in range(3))
        self.emit(depth, f"linalg.add ins({a}, {b} : {F4}, {F4}) outs({into} : {F4})")

    def kind_add_out(self, scope: Scope, depth: int) -> None:
        self.emit(
            depth,
            f"linalg.add ins({self.pick(scope.buffers)}, %out : {F4}, {F4}) "
            f"outs(%out : {F4})",
        )

    def kind_reshape(self, scope: Scope, depth: int) -> None:
        e, g = self.name("e"), self.name("g")
        self.emit(
            depth,
            f"{e} = memref.expand_shape {self.pick(scope.buffers)} [[0, 1]] "
            f"output_shape [2, 2] : {F4} into memref<2x2xf32>",
        )
        self.emit(
            depth,
            f"{g} = memref.collapse_shape {e} [[0, 1]] : memref<2x2xf32> into {F4}",
        )
        scope.buffers.append(g)

    def kind_update_part(self, scope: Scope, depth: int) -> None:
        s = self.name("p")
        view = "memref<2xf32, strided<[1], offset: 1>>"
        self.emit(
            depth,
            f"{s} = memref.subview {self.pick(scope.buffers)}[1] [2] [1] : {F4} to {view}",
        )
        self.emit(depth, f"linalg.exp ins({s} : {view}) outs({s} : {view})")

    def kind_call(self, scope: Scope, depth: int) -> None:
        result, callee = self.name("m"), self.pick(["make", "same"])
        self.emit(
            depth,
            f"{result} = func.call @{callee}({self.pick(scope.buffers)}) : "
            f"({F4}) -> {F4}",
        )
        scope.buffers.append(result)

    def kind_view(self, scope: Scope, depth: int) -> None:
        new = self.name("v")
        offset = self.pick(["%c0", "%c1", "%c2"])
        self.emit(
            depth,
            f"{new} = memref.subview {self.pick(scope.buffers)}[{offset}] [2] [%c1] "
            f": {F4} to {V2}",
        )
        scope.views.append(new)

    def kind_view_use(self, scope: Scope, depth: int) -> None:
        if not scope.views:
            self.kind_view(scope, depth)
        a, b, into = (self.pick(scope.views) for _ in range(3))
        self.emit(depth, f"linalg.add ins({a}, {b} : {V2}, {V2}) outs({into} : {V2})")

    def _yield_view(self, scope: Scope, depth: int) -> None:
        """Yield a view, or a new buffer (cast to the view type)."""
        if scope.views and self.rng.random() < 0.7:
            self.emit(depth, f"scf.yield {self.pick(scope.views)} : {V2}")
            return
        new, cast = self.name("n"), self.name("k")
        self.emit(depth, f"{new} = memref.alloc() : memref<2xf32>")
        source = self.pick(scope.views) if scope.views else None
        if source is None:
            self.emit(depth, f"linalg.fill ins(%one : f32) outs({new} : memref<2xf32>)")
        else:
            self.emit(
                depth, f"linalg.exp ins({source} : {V2}) outs({new} : memref<2xf32>)"
            )
        self.emit(depth, f"{cast} = memref.cast {new} : memref<2xf32> to {V2}")
        self.emit(depth, f"scf.yield {cast} : {V2}")

    def kind_view_if(self, scope: Scope, depth: int) -> None:
        """An scf.if yielding views (of arguments, outer buffers, buffers a
        branch allocates) or new buffers."""
        result = self.name("w")
        self.emit(depth, f"{result} = scf.if {self.condition()} -> ({V2}) {{")
        for branch in range(2):
            inner = self.block(scope, depth + 1, self.rng.randint(0, 3))
            if self.rng.random() < 0.6:
                self.kind_view(inner, depth + 1)
            self._yield_view(inner, depth + 1)
            if branch == 0:
                self.emit(depth, "} else {")
        self.emit(depth, "}")
        scope.views.append(result)

    # ------------------------------------------------------------------

    def text(self) -> str:
        returns = self.rng.random()
        scope = self.block(Scope(["%x", "%y"], []), 0, self.rng.randint(2, 8))
        self.emit(
            0,
            f"linalg.add ins({self.pick(scope.buffers)}, %out : {F4}, {F4}) "
            f"outs(%out : {F4})",
        )
        if scope.views:
            part = self.name("o")
            self.emit(0, f"{part} = memref.subview %out[%c0] [2] [%c1] : {F4} to {V2}")
            self.emit(
                0,
                f"linalg.add ins({self.pick(scope.views)}, {part} : {V2}, {V2}) "
                f"outs({part} : {V2})",
            )
        if returns < 0.15 and scope.views:
            signature, ret = f" -> {V2}", f"return {self.pick(scope.views)} : {V2}"
        elif returns < 0.45:
            signature, ret = f" -> {F4}", f"return {self.pick(scope.buffers)} : {F4}"
        else:
            signature, ret = "", "return"
        body = "\n".join(self.lines)
        return f"""{HELPERS}
func.func @f(%x: {F4}, %y: {F4}, %c: i1, %d: i1, %n: index, %out: {F4}){signature} {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %one = arith.constant 1.0 : f32
{body}
  {ret}
}}
"""


OWNERSHIP_KINDS = {
    "alloc": 0.22,
    "select": 0.13,
    "if": 0.17,
    "for": 0.16,
    "view": 0.06,
    "view_if": 0.08,
    "view_use": 0.03,
    "add": 0.1,
    "add_out": 0.05,
}

MIXED_KINDS = {
    "copy": 0.25,
    "add": 0.15,
    "reshape": 0.08,
    "update_part": 0.05,
    "if": 0.1,
    "for": 0.12,
    "call": 0.1,
    "select": 0.05,
    "view_if": 0.05,
    "add_out": 0.05,
}


def ownership_program(seed: int) -> str:
    return BufferProgram(seed, OWNERSHIP_KINDS).text()


def mixed_program(seed: int) -> str:
    return BufferProgram(seed, MIXED_KINDS).text()


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
