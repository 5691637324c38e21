"""The step kinds of the fuzzer's `contraction` family
(`generate(seed, family="contraction")`): programs shaped like torch-mlir's
output for a model's layers, for `linalg-fuse-elementwise-ext{
permutations-into-contractions=true}` and `linalg-ext-model-pipeline`.

A contraction (`linalg.matmul`, `linalg.batch_matmul`, or a matmul-like
`linalg.generic` whose maps may already transpose an operand) reads
operands that only move elements: a `linalg.transpose`, a
`linalg.broadcast`, or torch-mlir's yield-only `linalg.generic` that
transposes (input map permuted, output map the identity) or broadcasts
(input map without some loops); a batch matmul's weight is often broadcast
along the batch. The sources are arguments, computed values or non-splat
`arith.constant dense` weights (so that `linalg-fold-constants-ext` has a
transpose or broadcast of constants to compute). Then, often, a bias along
the rows and an activation, as a Gemm layer has. The mixed family's steps
(inherited) come in at a lower weight.

The other families do not use this module, so their programs stay as they
were for every seed.
"""

from __future__ import annotations

import random

from generator import Builder, Tensor, dim_list, identity_map, iterator_list
from tiling_steps import TilingOps

_WEIGHT_VALUES = ("-1.5", "-1.0", "-0.5", "0.25", "0.5", "1.0", "2.0", "3.0")


class ContractionBuilder(Builder):
    """The mixed family's builder with its own random stream (a seed's
    contraction program is not a variation of its mixed one)."""

    def __init__(self, seed: int):
        super().__init__(seed)
        self.rng = random.Random(f"contraction:{seed}")


def _map(rank: int, results: list[int]) -> str:
    return f"affine_map<({dim_list(rank)}) -> ({', '.join(f'd{d}' for d in results)})>"


class ContractionOps(TilingOps):
    """The contraction family's step kinds (plus the mixed and tiling
    families' helpers, inherited)."""

    def finish(self) -> None:
        """Every program has a contraction: one is added at the end when
        the random steps made none."""
        if not any(s.kind in CONTRACTION_KINDS for s in self.b.steps):
            self.gemm()

    def live_outs(self) -> list[str]:
        """The last values of the contraction chains no later step reads:
        returned, so that no contraction is dead code the passes erase."""
        steps = self.b.steps
        used = {name for step in steps for name in step.uses}
        return [
            s.result.name
            for s in steps
            if s.kind in (*CONTRACTION_KINDS, "bias", "activation")
            and s.result.name not in used
        ]

    # -- operands that only move elements ----------------------------------

    def _weight(self, shape: tuple[int, ...]) -> Tensor:
        """A non-splat constant of this shape (static), as a step."""
        b = self.b

        def nested(dims: tuple[int, ...]) -> str:
            if not dims:
                return b.rng.choice(_WEIGHT_VALUES)
            return "[" + ", ".join(nested(dims[1:]) for _ in range(dims[0])) + "]"

        result = Tensor(b.fresh("w"), shape, tuple(False for _ in shape))
        b.add(
            [f"{result.name} = arith.constant dense<{nested(shape)}> : {result.type}"],
            result,
            (),
            "constant",
        )
        return result

    def _source(self, shape: tuple[int, ...]) -> Tensor:
        """A value of this shape: often a constant weight, else an earlier
        value or a new argument."""
        b = self.b
        if b.rng.random() < 0.4:
            return self._weight(shape)
        return b.value_of_shape(shape)

    def _transposed(self, shape: tuple[int, ...], permutation: list[int]) -> Tensor:
        """A value of `shape` that transposes a source by `permutation`
        (result dim i is source dim permutation[i]): a `linalg.transpose`
        or torch-mlir's yield-only generic."""
        inverse = [permutation.index(i) for i in range(len(permutation))]
        source = self._source(tuple(shape[i] for i in inverse))
        dynamic = tuple(source.dynamic[p] for p in permutation)
        named = f"permutation = [{', '.join(map(str, permutation))}]"
        return self._moved(source, shape, dynamic, "transpose", named, inverse)

    def _broadcast(self, shape: tuple[int, ...], added: list[int]) -> Tensor:
        """A value of `shape` that broadcasts a source along the dims
        `added`: a `linalg.broadcast` or torch-mlir's yield-only generic."""
        kept = [d for d in range(len(shape)) if d not in added]
        source = self._source(tuple(shape[d] for d in kept))
        dynamic = tuple(
            source.dynamic[kept.index(d)] if d in kept else False
            for d in range(len(shape))
        )
        named = f"dimensions = [{', '.join(map(str, added))}]"
        return self._moved(source, shape, dynamic, "broadcast", named, kept)

    def _moved(
        self,
        source: Tensor,
        shape: tuple[int, ...],
        dynamic: tuple[bool, ...],
        kind: str,
        named_attribute: str,
        source_dims: list[int],
    ) -> Tensor:
        """`source`'s elements moved into a new value of `shape`: half the
        time the named `linalg.<kind>` (with `named_attribute`), else a
        yield-only generic reading `source` at `source_dims` of its loops."""
        b = self.b
        lines: list[str] = []
        uses = [source.name]
        init = b.empty(shape, dynamic, lines, uses)
        result = Tensor(b.fresh("tr" if kind == "transpose" else "bc"), shape, dynamic)
        if b.rng.random() < 0.5:
            lines.append(
                f"{result.name} = linalg.{kind} ins({source.name} : "
                f"{source.type}) outs({init.name} : {init.type}) "
                f"{named_attribute}"
            )
        else:
            rank = len(shape)
            a, o = b.fresh("a"), b.fresh("o")
            lines += [
                f"{result.name} = linalg.generic {{indexing_maps = "
                f"[{_map(rank, source_dims)}, {identity_map(rank)}], "
                f"iterator_types = [{iterator_list(['parallel'] * rank)}]}} "
                f"ins({source.name} : {source.type}) "
                f"outs({init.name} : {init.type}) {{",
                f"^bb0({a}: f32, {o}: f32):",
                f"  linalg.yield {a} : f32",
                f"}} -> {init.type}",
            ]
        b.add(lines, result, tuple(uses), kind)
        return result

    def _operand(self, shape: tuple[int, ...], batch: bool) -> Tensor:
        """An operand of a contraction of this shape: mostly a transpose
        (of the last two dims, or any permutation), sometimes a broadcast
        (along the batch dim when `batch`, else along a row or column: the
        pass keeps those), sometimes a plain value."""
        b = self.b
        rank = len(shape)
        choice = b.rng.random()
        if choice < 0.45:
            permutation = list(range(rank))
            permutation[-2:] = permutation[-1], permutation[-2]
            if rank == 3 and b.rng.random() < 0.3:
                while permutation == sorted(permutation):
                    b.rng.shuffle(permutation)
            return self._transposed(shape, permutation)
        if choice < 0.7:
            added = [0] if batch and b.rng.random() < 0.8 else [b.rng.randrange(rank)]
            return self._broadcast(shape, added)
        return b.value_of_shape(shape)

    def _result(self, shape: tuple[int, ...], dynamic: tuple[bool, ...]):
        """The lines, uses and zero-filled init of a contraction's result."""
        lines: list[str] = []
        uses: list[str] = []
        init = self.b.filled(shape, dynamic, "0.0", lines, uses)
        return lines, uses, init

    def _epilogue(self, product: Tensor) -> None:
        """Often a bias along the last dim, then sometimes an activation:
        what follows a Gemm in a model."""
        b = self.b
        if b.rng.random() < 0.4:
            return
        n = product.shape[-1]
        bias = self._weight((n,)) if b.rng.random() < 0.5 else b.value_of_shape((n,))
        biased = self._generic_binary(
            product, bias, [product.rank - 1], "arith.addf", "bias"
        )
        if b.rng.random() < 0.5:
            self._generic_unary(biased, "activation")

    # -- contractions ------------------------------------------------------

    def _sizes(self, count: int) -> list[int]:
        return [self.b.rng.choice([1, 2, 3, 4, 5, 6]) for _ in range(count)]

    def gemm(self) -> bool:
        """`linalg.matmul` of two operands that may be transposes or
        broadcasts, then maybe bias and activation."""
        b = self.b
        m, k, n = self._sizes(3)
        x = self._operand((m, k), False)
        y = self._operand((x.shape[1], n), False)
        m, n = x.shape[0], y.shape[1]
        dynamic = (x.dynamic[0], y.dynamic[1])
        lines, uses, init = self._result((m, n), dynamic)
        result = Tensor(b.fresh("mm"), (m, n), dynamic)
        lines.append(
            f"{result.name} = linalg.matmul ins({x.name}, {y.name} : {x.type}, "
            f"{y.type}) outs({init.name} : {init.type}) -> {init.type}"
        )
        b.add(lines, result, (x.name, y.name, *uses), "gemm")
        self._epilogue(result)
        return True

    def batch_gemm(self) -> bool:
        """`linalg.batch_matmul`, its weight often broadcast along the
        batch or transposed."""
        b = self.b
        batch, m, k, n = self._sizes(4)
        x = self._operand((batch, m, k), True)
        y = self._operand((x.shape[0], x.shape[2], n), True)
        shape = (x.shape[0], x.shape[1], y.shape[2])
        dynamic = (x.dynamic[0] or y.dynamic[0], x.dynamic[1], y.dynamic[2])
        lines, uses, init = self._result(shape, dynamic)
        result = Tensor(b.fresh("bmm"), shape, dynamic)
        lines.append(
            f"{result.name} = linalg.batch_matmul ins({x.name}, {y.name} : "
            f"{x.type}, {y.type}) outs({init.name} : {init.type}) -> {init.type}"
        )
        b.add(lines, result, (x.name, y.name, *uses), "batch_gemm")
        self._epilogue(result)
        return True

    def contraction_generic(self) -> bool:
        """A matmul-like `linalg.generic` (loops m, n, k, maybe a batch
        loop first) whose maps may read an operand transposed, and whose
        multiply-add has its operands in either order."""
        b = self.b
        batched = b.rng.random() < 0.3
        sizes = self._sizes(4 if batched else 3)
        lead = [0] if batched else []
        m, n, k = (d + len(lead) for d in (0, 1, 2))
        rank = len(sizes)
        a_dims = [*lead, *((k, m) if b.rng.random() < 0.3 else (m, k))]
        b_dims = [*lead, *((n, k) if b.rng.random() < 0.3 else (k, n))]
        x = self._operand(tuple(sizes[d] for d in a_dims), batched)
        extent = {d: x.shape[i] for i, d in enumerate(a_dims)}
        y = self._operand(tuple(extent.get(d, sizes[d]) for d in b_dims), batched)
        extent |= {d: y.shape[i] for i, d in enumerate(b_dims)}
        dyn = {d: x.dynamic[i] for i, d in enumerate(a_dims)}
        for i, d in enumerate(b_dims):
            dyn[d] = dyn.get(d, False) or y.dynamic[i]
        out_dims = [*lead, m, n]
        shape = tuple(extent[d] for d in out_dims)
        dynamic = tuple(dyn[d] for d in out_dims)
        lines, uses, init = self._result(shape, dynamic)
        result = Tensor(b.fresh("cg"), shape, dynamic)
        kinds = ["parallel"] * rank
        kinds[k] = "reduction"
        a, c, o, p, s = (b.fresh(t) for t in ("a", "b", "o", "p", "s"))
        product = f"{c}, {a}" if b.rng.random() < 0.5 else f"{a}, {c}"
        total = f"{p}, {o}" if b.rng.random() < 0.5 else f"{o}, {p}"
        lines += [
            f"{result.name} = linalg.generic {{indexing_maps = [{_map(rank, a_dims)}, "
            f"{_map(rank, b_dims)}, {_map(rank, out_dims)}], "
            f"iterator_types = [{iterator_list(kinds)}]}} "
            f"ins({x.name}, {y.name} : {x.type}, {y.type}) "
            f"outs({init.name} : {init.type}) {{",
            f"^bb0({a}: f32, {c}: f32, {o}: f32):",
            f"  {p} = arith.mulf {product} : f32",
            f"  {s} = arith.addf {total} : f32",
            f"  linalg.yield {s} : f32",
            f"}} -> {init.type}",
        ]
        b.add(lines, result, (x.name, y.name, *uses), "contraction_generic")
        self._epilogue(result)
        return True


CONTRACTION_KINDS = ("gemm", "batch_gemm", "contraction_generic")
"""The step kinds that end in a contraction."""


CONTRACTION_FAMILY_KINDS: list[tuple[str, float]] = [
    ("gemm", 3),
    ("batch_gemm", 2),
    ("contraction_generic", 2),
    ("unary", 1),
    ("binary", 1),
    ("transpose", 0.7),
    ("reduce", 0.5),
    ("softmax", 0.3),
    ("chain", 0.5),
]
"""The contraction family's step kinds and their weights."""
