"""Random, valid tensor programs for the differential fuzzer.

`generate(seed)` returns a `Program`: one `func.func @main` over f32 tensors
(static and dynamic shapes) built from a random sequence of ops we handle:
`linalg.generic` (elementwise, broadcast, transpose, reduction), named linalg
ops (fill, matmul, transpose, broadcast, reduce, map), `linalg_ext` ops
(softmax, scan, topk, layer_norm, batch_matmul, diag, scatter), `tensor` ops
(pad, extract_slice, insert_slice, expand_shape, collapse_shape, empty) and
`scf.for` / `scf.if`, with arith/math bodies.

A program is a list of `Step`s, each one or more lines of MLIR defining one
new tensor from earlier ones, so a failing program shrinks by dropping steps
(`Program.without`): a step whose operands are gone is dropped with it.

Every dynamic (`?`) extent is `DYNAMIC_EXTENT` at run time: the random inputs
(`linalg_ext.running.random_inputs`) give every `?` that extent, so shapes
that agree statically agree at run time too.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field

DYNAMIC_EXTENT = 4
"""The run-time extent of every `?` dimension (random_inputs' default)."""

MAX_ARGUMENTS = 4


@dataclass(frozen=True)
class Tensor:
    """An SSA value of tensor type: its name, its extents at run time and
    which of them are dynamic in its type."""

    name: str
    shape: tuple[int, ...]
    dynamic: tuple[bool, ...]
    element: str = "f32"

    @property
    def type(self) -> str:
        dims = "".join(
            ("?" if d else str(e)) + "x"
            for e, d in zip(self.shape, self.dynamic, strict=True)
        )
        return f"tensor<{dims}{self.element}>"

    @property
    def rank(self) -> int:
        return len(self.shape)

    def without(self, axis: int) -> tuple[list[int], tuple[int, ...], tuple[bool, ...]]:
        """The dimensions other than `axis`, with their extents and which
        are dynamic: the shape a reduction along `axis` produces."""
        kept = [d for d in range(self.rank) if d != axis]
        return (
            kept,
            tuple(self.shape[d] for d in kept),
            tuple(self.dynamic[d] for d in kept),
        )


@dataclass
class Step:
    """Lines of MLIR that define `result` from `uses`."""

    lines: list[str]
    result: Tensor
    uses: tuple[str, ...]
    kind: str


@dataclass
class Program:
    seed: int
    arguments: list[Tensor]
    steps: list[Step]
    returns: list[str] = field(default_factory=list[str])
    family: str = "mixed"

    def text(self) -> str:
        values = {a.name: a for a in self.arguments}
        for step in self.steps:
            values[step.result.name] = step.result
        returned = [values[name] for name in self.returns if name in values]
        if not returned:
            returned = [self.steps[-1].result] if self.steps else self.arguments[:1]
        args = ", ".join(f"{a.name}: {a.type}" for a in self.arguments)
        results = ", ".join(r.type for r in returned)
        body = [line for step in self.steps for line in step.lines]
        if any("%zero_i" in line for line in body):
            body.insert(0, "%zero_i = arith.constant 0 : index")
        names = ", ".join(r.name for r in returned)
        family = "" if self.family == "mixed" else f" ({self.family})"
        return "\n".join(
            [
                f"// fuzz seed {self.seed}{family}: "
                f"{', '.join(s.kind for s in self.steps)}",
                f"func.func @main({args}) -> ({results}) {{",
                *("  " + line for line in body),
                f"  func.return {names} : {results}",
                "}",
                "",
            ]
        )

    def without(self, index: int) -> Program:
        """The program without step `index` and the steps that depend on it."""
        removed = {self.steps[index].result.name}
        kept: list[Step] = []
        for position, step in enumerate(self.steps):
            if position == index or removed & set(step.uses):
                removed.add(step.result.name)
                continue
            kept.append(step)
        returns = [name for name in self.returns if name not in removed]
        return Program(self.seed, self.arguments, kept, returns, self.family)


class Builder:
    def __init__(self, seed: int):
        self.rng = random.Random(seed)
        self.seed = seed
        self.arguments: list[Tensor] = []
        self.values: list[Tensor] = []
        self.steps: list[Step] = []
        self.counter = 0

    # -- names and values -------------------------------------------------

    def fresh(self, stem: str = "v") -> str:
        self.counter += 1
        return f"%{stem}{self.counter}"

    def random_shape(self, rank: int) -> tuple[tuple[int, ...], tuple[bool, ...]]:
        shape: list[int] = []
        dynamic: list[bool] = []
        for _ in range(rank):
            if self.rng.random() < 0.25:
                shape.append(DYNAMIC_EXTENT)
                dynamic.append(True)
            else:
                shape.append(self.rng.choice([1, 2, 3, 4, 5, 6]))
                dynamic.append(False)
        return tuple(shape), tuple(dynamic)

    def argument(self, shape: tuple[int, ...], element: str = "f32") -> Tensor:
        """A new function argument of these run-time extents (dynamic where
        the extent allows it, sometimes)."""
        dynamic = tuple(e == DYNAMIC_EXTENT and self.rng.random() < 0.4 for e in shape)
        tensor = Tensor(f"%arg{len(self.arguments)}", shape, dynamic, element)
        self.arguments.append(tensor)
        self.values.append(tensor)
        return tensor

    def value(self, predicate: Callable[[Tensor], bool] | None = None) -> Tensor | None:
        candidates = [
            v
            for v in self.values
            if v.element == "f32" and (predicate is None or predicate(v))
        ]
        if not candidates:
            return None
        # Prefer recent values: programs become chains rather than fans.
        weights = [1 + i for i in range(len(candidates))]
        return self.rng.choices(candidates, weights)[0]

    def value_of_shape(self, shape: tuple[int, ...]) -> Tensor:
        found = self.value(lambda v: v.shape == shape)
        if found is not None and self.rng.random() < 0.8:
            return found
        if len(self.arguments) < MAX_ARGUMENTS:
            return self.argument(shape)
        if found is not None:
            return found
        return self.splat(shape)

    def splat(self, shape: tuple[int, ...]) -> Tensor:
        """A constant tensor of this (static) shape, as a step."""
        name = self.fresh("c")
        result = Tensor(name, shape, tuple(False for _ in shape))
        value = self.rng.choice(["0.5", "-1.0", "2.0"])
        self.add(
            [f"{name} = arith.constant dense<{value}> : {result.type}"],
            result,
            (),
            "constant",
        )
        return result

    def add(self, lines: list[str], result: Tensor, uses: tuple[str, ...], kind: str):
        self.steps.append(Step(lines, result, uses, kind))
        self.values.append(result)

    # -- destinations -----------------------------------------------------

    def empty(
        self,
        shape: tuple[int, ...],
        dynamic: tuple[bool, ...],
        lines: list[str],
        uses: list[str],
        element: str = "f32",
    ) -> Tensor:
        """Lines of a `tensor.empty` with these extents; dynamic sizes come
        from a `tensor.dim` of a value with a dynamic dimension (all are
        DYNAMIC_EXTENT at run time) or from a constant."""
        sizes: list[str] = []
        for is_dynamic in dynamic:
            if not is_dynamic:
                continue
            source = next(
                (v for v in self.values if any(v.dynamic) and v.name not in ()), None
            )
            size = self.fresh("d")
            if source is not None and self.rng.random() < 0.7:
                dim = source.dynamic.index(True)
                index = self.fresh("i")
                lines.append(f"{index} = arith.constant {dim} : index")
                lines.append(
                    f"{size} = tensor.dim {source.name}, {index} : {source.type}"
                )
                uses.append(source.name)
            else:
                lines.append(f"{size} = arith.constant {DYNAMIC_EXTENT} : index")
            sizes.append(size)
        result = Tensor(self.fresh("e"), shape, dynamic, element)
        lines.append(
            f"{result.name} = tensor.empty({', '.join(sizes)}) : {result.type}"
        )
        return result

    def filled(
        self,
        shape: tuple[int, ...],
        dynamic: tuple[bool, ...],
        value: str,
        lines: list[str],
        uses: list[str],
    ) -> Tensor:
        init = self.empty(shape, dynamic, lines, uses)
        constant = self.fresh("f")
        lines.append(f"{constant} = arith.constant {value} : f32")
        result = Tensor(self.fresh("fill"), shape, dynamic)
        lines.append(
            f"{result.name} = linalg.fill ins({constant} : f32) "
            f"outs({init.name} : {init.type}) -> {init.type}"
        )
        return result

    def like(self, tensor: Tensor, lines: list[str], uses: list[str]) -> Tensor:
        return self.empty(tensor.shape, tensor.dynamic, lines, uses)


UNARY_BODIES = [
    ["{r} = arith.negf {a} : f32"],
    ["{r} = math.tanh {a} : f32"],
    ["{r} = math.absf {a} : f32"],
    ["{r} = arith.mulf {a}, {a} : f32"],
    ["{t} = arith.constant 0.0 : f32", "{r} = arith.maximumf {a}, {t} : f32"],
    ["{t} = math.exp {a} : f32", "{r} = arith.mulf {t}, {a} : f32"],
]
_BINARY_OPS = [
    "arith.addf",
    "arith.subf",
    "arith.mulf",
    "arith.maximumf",
    "arith.minimumf",
]


def dim_list(rank: int) -> str:
    return ", ".join(f"d{i}" for i in range(rank))


def identity_map(rank: int) -> str:
    dims = dim_list(rank)
    return f"affine_map<({dims}) -> ({dims})>"


def iterator_list(kinds: list[str]) -> str:
    return ", ".join(f'"{k}"' for k in kinds)


class Ops:
    """One method per kind of step; each returns False when it cannot apply."""

    def __init__(self, builder: Builder):
        self.b = builder

    def unary(self, in_place: bool = False) -> bool:
        """An elementwise generic; `in_place` writes into its input's tensor
        (outs = ins), as loop bodies that bufferize in place do."""
        b = self.b
        x = b.value()
        if x is None:
            return False
        lines: list[str] = []
        uses = [x.name]
        init = x if in_place else b.like(x, lines, uses)
        body = b.rng.choice(UNARY_BODIES)
        result = Tensor(b.fresh(), x.shape, x.dynamic)
        a, o, r, t = b.fresh("a"), b.fresh("o"), b.fresh("r"), b.fresh("t")
        m = identity_map(x.rank)
        lines += [
            f"{result.name} = linalg.generic {{indexing_maps = [{m}, {m}], "
            f"iterator_types = [{iterator_list(['parallel'] * x.rank)}]}} "
            f"ins({x.name} : {x.type}) outs({init.name} : {init.type}) {{",
            f"^bb0({a}: f32, {o}: f32):",
            *("  " + line.format(a=a, r=r, t=t) for line in body),
            f"  linalg.yield {r} : f32",
            f"}} -> {init.type}",
        ]
        b.add(lines, result, tuple(uses), "unary")
        return True

    def binary(self) -> bool:
        b = self.b
        x = b.value()
        if x is None:
            return False
        # The second operand: same shape, or broadcast along dropped dims.
        drop = [d for d in range(x.rank) if b.rng.random() < 0.3]
        kept = [d for d in range(x.rank) if d not in drop]
        y = b.value_of_shape(tuple(x.shape[d] for d in kept))
        lines: list[str] = []
        uses = [x.name, y.name]
        init = b.like(x, lines, uses)
        result = Tensor(b.fresh(), x.shape, x.dynamic)
        dims = dim_list(x.rank)
        ymap = f"affine_map<({dims}) -> ({', '.join(f'd{d}' for d in kept)})>"
        m = identity_map(x.rank)
        op = b.rng.choice(_BINARY_OPS)
        a, c, o, r = b.fresh("a"), b.fresh("b"), b.fresh("o"), b.fresh("r")
        swap = b.rng.random() < 0.5
        lines += [
            f"{result.name} = linalg.generic {{indexing_maps = [{m}, {ymap}, {m}], "
            f"iterator_types = [{iterator_list(['parallel'] * x.rank)}]}} "
            f"ins({x.name}, {y.name} : {x.type}, {y.type}) "
            f"outs({init.name} : {init.type}) {{",
            f"^bb0({a}: f32, {c}: f32, {o}: f32):",
            f"  {r} = {op} {(c + ', ' + a) if swap else (a + ', ' + c)} : f32",
            f"  linalg.yield {r} : f32",
            f"}} -> {init.type}",
        ]
        b.add(lines, result, tuple(uses), "binary")
        return True

    def transpose(self) -> bool:
        b = self.b
        x = b.value(lambda v: v.rank >= 2)
        if x is None:
            return False
        permutation = list(range(x.rank))
        while permutation == sorted(permutation):
            b.rng.shuffle(permutation)
        shape = tuple(x.shape[p] for p in permutation)
        dynamic = tuple(x.dynamic[p] for p in permutation)
        lines: list[str] = []
        uses = [x.name]
        init = b.empty(shape, dynamic, lines, uses)
        result = Tensor(b.fresh(), shape, dynamic)
        if b.rng.random() < 0.5:
            lines.append(
                f"{result.name} = linalg.transpose ins({x.name} : {x.type}) "
                f"outs({init.name} : {init.type}) "
                f"permutation = [{', '.join(map(str, permutation))}]"
            )
        else:
            dims = dim_list(x.rank)
            out = ", ".join(f"d{p}" for p in permutation)
            a, o = b.fresh("a"), b.fresh("o")
            lines += [
                f"{result.name} = linalg.generic {{indexing_maps = "
                f"[{identity_map(x.rank)}, affine_map<({dims}) -> ({out})>], "
                f"iterator_types = [{iterator_list(['parallel'] * x.rank)}]}} "
                f"ins({x.name} : {x.type}) outs({init.name} : {init.type}) {{",
                f"^bb0({a}: f32, {o}: f32):",
                f"  linalg.yield {a} : f32",
                f"}} -> {init.type}",
            ]
        b.add(lines, result, tuple(uses), "transpose")
        return True

    def reduce(self) -> bool:
        b = self.b
        x = b.value(lambda v: v.rank >= 1)
        if x is None:
            return False
        axis = b.rng.randrange(x.rank)
        kept, shape, dynamic = x.without(axis)
        use_max = b.rng.random() < 0.4
        lines: list[str] = []
        uses = [x.name]
        init = b.filled(shape, dynamic, "-3.0e38" if use_max else "0.0", lines, uses)
        op = "arith.maximumf" if use_max else "arith.addf"
        result = Tensor(b.fresh(), shape, dynamic)
        a, o, r = b.fresh("a"), b.fresh("o"), b.fresh("r")
        if b.rng.random() < 0.5:
            lines += [
                f"{result.name} = linalg.reduce ins({x.name} : {x.type}) "
                f"outs({init.name} : {init.type}) dimensions = [{axis}]",
                f"  ({a}: f32, {o}: f32) {{",
                f"    {r} = {op} {a}, {o} : f32",
                f"    linalg.yield {r} : f32",
                "  }",
            ]
        else:
            dims = dim_list(x.rank)
            out = ", ".join(f"d{d}" for d in kept)
            kinds = ["reduction" if d == axis else "parallel" for d in range(x.rank)]
            lines += [
                f"{result.name} = linalg.generic {{indexing_maps = "
                f"[{identity_map(x.rank)}, affine_map<({dims}) -> ({out})>], "
                f"iterator_types = [{iterator_list(kinds)}]}} "
                f"ins({x.name} : {x.type}) outs({init.name} : {init.type}) {{",
                f"^bb0({a}: f32, {o}: f32):",
                f"  {r} = {op} {a}, {o} : f32",
                f"  linalg.yield {r} : f32",
                f"}} -> {init.type}",
            ]
        b.add(lines, result, tuple(uses), "reduce")
        return True

    def matmul(self) -> bool:
        b = self.b
        x = b.value(lambda v: v.rank == 2)
        if x is None:
            return False
        m, k = x.shape
        n = b.rng.choice([1, 2, 3, 4, 5])
        y = b.value_of_shape((k, n))
        lines: list[str] = []
        uses = [x.name, y.name]
        init = b.filled((m, n), (x.dynamic[0], y.dynamic[1]), "0.0", lines, uses)
        result = Tensor(b.fresh(), (m, n), (x.dynamic[0], y.dynamic[1]))
        lines.append(
            f"{result.name} = linalg.matmul ins({x.name}, {y.name} : {x.type}, "
            f"{y.type}) outs({init.name} : {init.type}) -> {init.type}"
        )
        b.add(lines, result, tuple(uses), "matmul")
        return True

    def batch_matmul(self) -> bool:
        b = self.b
        x = b.value(lambda v: v.rank == 3)
        if x is None:
            return False
        batch, m, k = x.shape
        n = b.rng.choice([1, 2, 3])
        y = b.value_of_shape((batch, k, n))
        lines: list[str] = []
        uses = [x.name, y.name]
        dynamic = (x.dynamic[0], x.dynamic[1], y.dynamic[2])
        init = b.filled((batch, m, n), dynamic, "0.0", lines, uses)
        result = Tensor(b.fresh(), (batch, m, n), dynamic)
        lines.append(
            f"{result.name} = linalg_ext.batch_matmul ins({x.name}, {y.name} : "
            f'{x.type}, {y.type}) outs({init.name} : {init.type}) layout = "nn"'
        )
        b.add(lines, result, tuple(uses), "batch_matmul")
        return True

    def softmax(self) -> bool:
        b = self.b
        x = b.value(lambda v: v.rank >= 1)
        if x is None:
            return False
        axis = b.rng.randrange(x.rank)
        _, shape, dynamic = x.without(axis)
        lines: list[str] = []
        uses = [x.name]
        out = b.like(x, lines, uses)
        m0 = b.filled(shape, dynamic, "-3.0e38", lines, uses)
        a0 = b.filled(shape, dynamic, "0.0", lines, uses)
        scale = b.empty(shape, dynamic, lines, uses)
        small = Tensor("", shape, dynamic).type
        name = b.fresh("sm")
        result = Tensor(f"{name}#0", x.shape, x.dynamic)
        lines += [
            f"{name}:4 = linalg_ext.softmax dimension({axis}) ins({x.name} : {x.type}) "
            f"outs({out.name}, {m0.name}, {a0.name}, {scale.name} : {x.type}, "
            f"{small}, {small}, {small}) : {out.type}, {small}, {small}, {small}"
        ]
        b.add(lines, result, tuple(uses), "softmax")
        return True

    def scan(self) -> bool:
        b = self.b
        x = b.value(lambda v: v.rank >= 1)
        if x is None:
            return False
        axis = b.rng.randrange(x.rank)
        _, shape, dynamic = x.without(axis)
        lines: list[str] = []
        uses = [x.name]
        out = b.like(x, lines, uses)
        acc = b.filled(shape, dynamic, "0.0", lines, uses)
        name = b.fresh("scan")
        result = Tensor(f"{name}#0", x.shape, x.dynamic)
        p, e, r = b.fresh("p"), b.fresh("x"), b.fresh("r")
        inclusive = b.rng.choice(["true", "false"])
        lines += [
            f"{name}:2 = linalg_ext.scan dimension({axis}) inclusive({inclusive}) "
            f"ins({x.name} : {x.type}) outs({out.name}, {acc.name} : {out.type}, "
            f"{acc.type}) {{",
            f"^bb0({p}: f32, {e}: f32):",
            f"  {r} = arith.addf {p}, {e} : f32",
            f"  linalg_ext.yield {r} : f32",
            f"}} -> {out.type}, {acc.type}",
        ]
        b.add(lines, result, tuple(uses), "scan")
        return True

    def topk(self) -> bool:
        b = self.b
        x = b.value(lambda v: v.rank >= 1 and max(v.shape) >= 2)
        if x is None:
            return False
        axis = max(range(x.rank), key=lambda d: (x.shape[d], b.rng.random()))
        k = b.rng.randrange(1, x.shape[axis] + 1)
        shape = tuple(k if d == axis else e for d, e in enumerate(x.shape))
        dynamic = tuple(False if d == axis else x.dynamic[d] for d in range(x.rank))
        lines: list[str] = []
        uses = [x.name]
        out = b.empty(shape, dynamic, lines, uses)
        indices = b.empty(shape, dynamic, lines, uses, element="i32")
        name = b.fresh("topk")
        result = Tensor(f"{name}#0", shape, dynamic)
        a, c, r = b.fresh("a"), b.fresh("b"), b.fresh("r")
        lines += [
            f"{name}:2 = linalg_ext.topk dimension({axis}) ins({x.name} : {x.type}) "
            f"outs({out.name}, {indices.name} : {out.type}, {indices.type}) {{",
            f"^bb0({a}: f32, {c}: f32):",
            f"  {r} = arith.cmpf ogt, {a}, {c} : f32",
            f"  linalg_ext.yield {r} : i1",
            f"}} -> {out.type}, {indices.type}",
        ]
        b.add(lines, result, tuple(uses), "topk")
        return True

    def layer_norm(self) -> bool:
        b = self.b
        x = b.value(lambda v: v.rank >= 1)
        if x is None:
            return False
        axis = x.rank - 1
        lines: list[str] = []
        uses = [x.name]
        out = b.like(x, lines, uses)
        result = Tensor(b.fresh("ln"), x.shape, x.dynamic)
        if b.rng.random() < 0.5:
            w = b.value_of_shape((x.shape[axis],))
            bias = b.value_of_shape((x.shape[axis],))
            uses += [w.name, bias.name]
            ins = f"{x.name}, {w.name}, {bias.name} : {x.type}, {w.type}, {bias.type}"
        else:
            ins = f"{x.name} : {x.type}"
        lines.append(
            f"{result.name} = linalg_ext.layer_norm axis([{axis}]) epsilon(1.0e-05) "
            f"ins({ins}) outs({out.name} : {out.type}) : {out.type}"
        )
        b.add(lines, result, tuple(uses), "layer_norm")
        return True

    def diag(self) -> bool:
        b = self.b
        x = b.value(lambda v: v.rank == 1)
        if x is None:
            return False
        shape = (x.shape[0], x.shape[0])
        dynamic = (x.dynamic[0], x.dynamic[0])
        lines: list[str] = []
        uses = [x.name]
        init = b.filled(shape, dynamic, "0.0", lines, uses)
        result = Tensor(b.fresh("diag"), shape, dynamic)
        lines.append(
            f"{result.name} = linalg_ext.diag ins({x.name} : {x.type}) "
            f"outs({init.name} : {init.type}) : {init.type}"
        )
        b.add(lines, result, tuple(uses), "diag")
        return True

    def scatter(self) -> bool:
        b = self.b
        src = b.value(lambda v: v.rank >= 1)
        if src is None:
            return False
        batch = b.rng.randrange(1, 4)
        rows = [[b.rng.randrange(src.shape[0])] for _ in range(batch)]
        window = src.shape[1:]
        updates = b.value_of_shape((batch, *window))
        lines: list[str] = []
        uses = [src.name, updates.name]
        indices = b.fresh("idx")
        literal = ", ".join(f"[{r[0]}]" for r in rows)
        lines.append(
            f"{indices} = arith.constant dense<[{literal}]> : tensor<{batch}x1xi64>"
        )
        result = Tensor(b.fresh("sc"), src.shape, src.dynamic)
        old, new, r = b.fresh("old"), b.fresh("new"), b.fresh("r")
        combine = (
            f"  {r} = arith.addf {old}, {new} : f32"
            if b.rng.random() < 0.5
            else f"  {r} = arith.mulf {new}, {new} : f32"
        )
        lines += [
            f"{result.name} = linalg_ext.scatter ins({indices}, {updates.name} : "
            f"tensor<{batch}x1xi64>, {updates.type}) outs({src.name} : {src.type}) {{",
            f"^bb0({old}: f32, {new}: f32):",
            combine,
            f"  linalg_ext.yield {r} : f32",
            f"}} -> {src.type}",
        ]
        b.add(lines, result, tuple(uses), "scatter")
        return True

    def pad(self) -> bool:
        b = self.b
        x = b.value(lambda v: v.rank >= 1)
        if x is None:
            return False
        # A dynamic extent stays unpadded: every `?` is DYNAMIC_EXTENT.
        low = [0 if d else b.rng.randrange(3) for d in x.dynamic]
        high = [0 if d else b.rng.randrange(3) for d in x.dynamic]
        shape = tuple(e + lo + hi for e, lo, hi in zip(x.shape, low, high, strict=True))
        dynamic = x.dynamic
        result = Tensor(b.fresh("pad"), shape, dynamic)
        constant = b.fresh("pv")
        index_args = ", ".join(f"{b.fresh('j')}: index" for _ in x.shape)
        value = b.rng.choice(["0.0", "1.5"])
        lines = [
            f"{constant} = arith.constant {value} : f32",
            f"{result.name} = tensor.pad {x.name} low[{', '.join(map(str, low))}] "
            f"high[{', '.join(map(str, high))}] {{",
            f"^bb0({index_args}):",
            f"  tensor.yield {constant} : f32",
            f"}} : {x.type} to {result.type}",
        ]
        b.add(lines, result, (x.name,), "pad")
        return True

    def extract_slice(self) -> bool:
        b = self.b
        x = b.value(lambda v: v.rank >= 1 and not any(v.dynamic))
        if x is None:
            return False
        sizes = [b.rng.randrange(1, e + 1) for e in x.shape]
        offsets = [
            b.rng.randrange(e - s + 1) for e, s in zip(x.shape, sizes, strict=True)
        ]
        result = Tensor(b.fresh("sl"), tuple(sizes), tuple(False for _ in sizes))
        b.add(
            [
                f"{result.name} = tensor.extract_slice {x.name}"
                f"[{', '.join(map(str, offsets))}] [{', '.join(map(str, sizes))}] "
                f"[{', '.join('1' for _ in sizes)}] : {x.type} to {result.type}"
            ],
            result,
            (x.name,),
            "extract_slice",
        )
        return True

    def insert_slice(self) -> bool:
        b = self.b
        dest = b.value(lambda v: v.rank >= 1 and not any(v.dynamic))
        if dest is None:
            return False
        source = b.value(
            lambda v: (
                v.rank == dest.rank
                and not any(v.dynamic)
                and all(s <= d for s, d in zip(v.shape, dest.shape, strict=True))
            )
        )
        if source is None:
            return False
        offsets = [
            b.rng.randrange(d - s + 1)
            for d, s in zip(dest.shape, source.shape, strict=True)
        ]
        result = Tensor(b.fresh("ins"), dest.shape, dest.dynamic)
        b.add(
            [
                f"{result.name} = tensor.insert_slice {source.name} into {dest.name}"
                f"[{', '.join(map(str, offsets))}] "
                f"[{', '.join(map(str, source.shape))}] "
                f"[{', '.join('1' for _ in source.shape)}] : {source.type} into "
                f"{dest.type}"
            ],
            result,
            (source.name, dest.name),
            "insert_slice",
        )
        return True

    def collapse(self) -> bool:
        b = self.b
        x = b.value(lambda v: v.rank >= 2 and not any(v.dynamic))
        if x is None:
            return False
        at = b.rng.randrange(x.rank - 1)
        groups = [[d] for d in range(at)] + [[at, at + 1]]
        groups += [[d] for d in range(at + 2, x.rank)]
        shape = tuple(
            x.shape[at] * x.shape[at + 1] if g == [at, at + 1] else x.shape[g[0]]
            for g in groups
        )
        result = Tensor(b.fresh("col"), shape, tuple(False for _ in shape))
        b.add(
            [
                f"{result.name} = tensor.collapse_shape {x.name} {groups} : "
                f"{x.type} into {result.type}"
            ],
            result,
            (x.name,),
            "collapse_shape",
        )
        return True

    def expand(self) -> bool:
        b = self.b
        x = b.value(
            lambda v: (
                v.rank <= 3 and not any(v.dynamic) and any(e in (4, 6) for e in v.shape)
            )
        )
        if x is None:
            return False
        at = next(d for d, e in enumerate(x.shape) if e in (4, 6))
        split = (2, x.shape[at] // 2)
        shape = x.shape[:at] + split + x.shape[at + 1 :]
        groups: list[list[int]] = []
        position = 0
        for d in range(x.rank):
            if d == at:
                groups.append([position, position + 1])
                position += 2
            else:
                groups.append([position])
                position += 1
        result = Tensor(b.fresh("exp"), shape, tuple(False for _ in shape))
        b.add(
            [
                f"{result.name} = tensor.expand_shape {x.name} {groups} "
                f"output_shape [{', '.join(map(str, shape))}] : "
                f"{x.type} into {result.type}"
            ],
            result,
            (x.name,),
            "expand_shape",
        )
        return True

    def loop(self) -> bool:
        b = self.b
        x = b.value()
        if x is None:
            return False
        lo, hi, step, i, carried = (
            b.fresh("lo"),
            b.fresh("hi"),
            b.fresh("st"),
            b.fresh("iv"),
            b.fresh("it"),
        )
        result = Tensor(b.fresh("for"), x.shape, x.dynamic)
        body_init: list[str] = []
        inner = Builder(b.rng.randrange(1 << 30))
        inner.counter = b.counter + 1000
        inner.values = [Tensor(carried, x.shape, x.dynamic)]
        inner.arguments = [Tensor("%none", (), ())] * MAX_ARGUMENTS  # no new args
        if not Ops(inner).unary(in_place=b.rng.random() < 0.8):
            return False
        b.counter = inner.counter
        body = inner.steps[-1]
        body_init += body.lines
        lines = [
            f"{lo} = arith.constant 0 : index",
            f"{hi} = arith.constant {b.rng.randrange(1, 4)} : index",
            f"{step} = arith.constant 1 : index",
            f"{result.name} = scf.for {i} = {lo} to {hi} step {step} "
            f"iter_args({carried} = {x.name}) -> ({x.type}) {{",
            *("  " + line for line in body_init),
            f"  scf.yield {body.result.name} : {x.type}",
            "}",
        ]
        b.add(lines, result, (x.name,), "scf.for")
        return True

    def branch(self) -> bool:
        b = self.b
        x = b.value(lambda v: v.rank >= 1)
        if x is None:
            return False
        y = b.value(lambda v: v.type == x.type and v.name != x.name)
        zeros = ", ".join("%zero_i" for _ in x.shape)
        element, zero, flag = b.fresh("el"), b.fresh("z"), b.fresh("flag")
        result = Tensor(b.fresh("if"), x.shape, x.dynamic)
        other = y.name if y is not None else x.name
        lines = [
            f"{zero} = arith.constant 0.0 : f32",
            f"{element} = tensor.extract {x.name}[{zeros}] : {x.type}",
            f"{flag} = arith.cmpf ogt, {element}, {zero} : f32",
            f"{result.name} = scf.if {flag} -> ({x.type}) {{",
            f"  scf.yield {x.name} : {x.type}",
            "} else {",
            f"  scf.yield {other} : {x.type}",
            "}",
        ]
        b.add(lines, result, (x.name, other), "scf.if")
        return True


_KINDS: list[tuple[str, float]] = [
    ("unary", 3),
    ("binary", 3),
    ("transpose", 1),
    ("reduce", 1.5),
    ("matmul", 1),
    ("batch_matmul", 0.5),
    ("softmax", 0.7),
    ("scan", 0.5),
    ("topk", 0.5),
    ("layer_norm", 0.5),
    ("diag", 0.4),
    ("scatter", 0.5),
    ("pad", 1),
    ("extract_slice", 0.8),
    ("insert_slice", 0.6),
    ("collapse", 0.5),
    ("expand", 0.5),
    ("loop", 0.5),
    ("branch", 0.5),
]


FAMILIES = ("mixed", "tiling", "contraction")
"""The program families: `mixed` (every step kind above, the programs every
pass meets), `tiling` (shaped for the tiling passes: tests/fuzz/tiling_steps.py)
and `contraction` (transposes and broadcasts feeding contractions, as in
torch-mlir's output: tests/fuzz/contraction_steps.py). A family's programs do
not change when another family's step kinds do."""


def generate(seed: int, *, max_steps: int = 8, family: str = "mixed") -> Program:
    """A random valid program of `family` (same seed and family, same program)."""
    if family == "tiling":
        from tiling_steps import TILING_KINDS, TilingBuilder, TilingOps

        b: Builder = TilingBuilder(seed)
        kinds, ops = TILING_KINDS, TilingOps(b)
    elif family == "contraction":
        from contraction_steps import (
            CONTRACTION_FAMILY_KINDS,
            ContractionBuilder,
            ContractionOps,
        )

        b = ContractionBuilder(seed)
        kinds, ops = CONTRACTION_FAMILY_KINDS, ContractionOps(b)
    elif family == "mixed":
        b = Builder(seed)
        kinds, ops = _KINDS, Ops(b)
    else:
        raise ValueError(f"unknown program family {family!r} (not in {FAMILIES})")
    rank = b.rng.choice([1, 2, 2, 3])
    shape, _ = b.random_shape(rank)
    b.argument(shape)
    wanted = b.rng.randrange(2, max_steps + 1)
    attempts = 0
    while len([s for s in b.steps if s.kind != "constant"]) < wanted and attempts < 50:
        attempts += 1
        names = [k for k, _ in kinds]
        weights = [w for _, w in kinds]
        kind = b.rng.choices(names, weights)[0]
        getattr(ops, kind)()
    finish = getattr(ops, "finish", None)
    if finish is not None:  # the family's last step (the mixed family has none)
        finish()
    returns = [b.steps[-1].result.name] if b.steps else []
    if len(b.steps) > 2 and b.rng.random() < 0.3:
        returns.append(b.rng.choice(b.steps[:-1]).result.name)
    live_outs = getattr(ops, "live_outs", None)
    if live_outs is not None:  # values a family wants returned (not dead code)
        returns += [name for name in live_outs() if name not in returns]
    return Program(seed, b.arguments, b.steps, returns, family)
