"""The step kinds of the fuzzer's `tiling` family (`generate(seed, family="tiling")`):
programs shaped for the tiling passes (`linalg-tile-and-fuse`,
`test-linalg-greedy-fusion`, `linalg-ext-tiling-cleanup`).

They add to the `mixed` family's steps (reused as they are) what tiling
meets in real code and the mixed family rarely or never makes: chains of
elementwise ops on the latest value (generic, named and `linalg.map`),
matmul with a filled init then a bias and a relu (reduction tiling meets
the rule that a destination's producer is never fused into a reduction
loop), `linalg.index` in a body (tiling shifts it), generics with two
results, `linalg.broadcast`, convolutions and poolings with strides and
dilations, `linalg.softmax` and `linalg_ext.unnorm_softmax`, and consumers
already tiled by hand (`scf.for` over `extract_slice` / `insert_slice`,
`affine.min` for partial tiles, static and dynamic extents): the inputs
`test-linalg-greedy-fusion` fuses producers into.

The mixed family does not use this module, so its programs stay as they
were for every seed.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from generator import (
    DYNAMIC_EXTENT,
    UNARY_BODIES,
    Builder,
    Ops,
    Tensor,
    dim_list,
    identity_map,
    iterator_list,
)

_NAMED_UNARY = [
    "linalg.exp",
    "linalg.tanh",
    "linalg.negf",
    "linalg.abs",
    "linalg.square",
]
_NAMED_BINARY = ["linalg.add", "linalg.sub", "linalg.mul", "linalg.max", "linalg.min"]


def _type(sizes: list[int | None]) -> str:
    """A tensor type with `?` where the size is None."""
    return "tensor<" + "".join(f"{'?' if s is None else s}x" for s in sizes) + "f32>"


EXTENTS = (1, 2, 3, 5, 6, 7, 8, 9)
"""Static extents of the tiling family: larger than the mixed family's (1
to 6), so that most tile sizes leave more than one tile (a loop of one
iteration is folded away by the clean-up), and with primes, so that many
do not divide."""


class TilingBuilder(Builder):
    """The mixed family's builder with its own random stream (a seed's
    tiling program is not a variation of its mixed one) and larger
    extents."""

    def __init__(self, seed: int):
        super().__init__(seed)
        self.rng = random.Random(f"tiling:{seed}")

    def random_shape(self, rank: int) -> tuple[tuple[int, ...], tuple[bool, ...]]:
        shape: list[int] = []
        dynamic: list[bool] = []
        for _ in range(rank):
            is_dynamic = self.rng.random() < 0.25
            shape.append(DYNAMIC_EXTENT if is_dynamic else self.rng.choice(EXTENTS))
            dynamic.append(is_dynamic)
        return tuple(shape), tuple(dynamic)


class TilingOps(Ops):
    """The tiling family's step kinds (plus the mixed family's, inherited)."""

    def finish(self) -> None:
        """Half of the programs end with a step of ROOT_KINDS (tried a few
        times: some kinds need a value of a given rank)."""
        b = self.b
        if b.rng.random() < 0.5:
            return
        for _ in range(4):
            if getattr(self, b.rng.choice(ROOT_KINDS))():
                return

    # -- elementwise on a chosen value ------------------------------------

    def _latest(self, rank_at_least: int = 0) -> Tensor | None:
        """The most recent f32 value of at least this rank."""
        for value in reversed(self.b.values):
            if value.element == "f32" and value.rank >= rank_at_least:
                return value
        return None

    def _produced(self, predicate: Callable[[Tensor], bool]) -> Tensor | None:
        """A recent f32 value satisfying `predicate` that a step computed
        (a hand-tiled consumer of an argument has nothing to fuse): when
        there is none, an elementwise step on such an argument makes one."""
        b = self.b
        arguments = {a.name for a in b.arguments}
        found = b.value(lambda v: predicate(v) and v.name not in arguments)
        if found is not None:
            return found
        argument = b.value(predicate)
        return None if argument is None else self._generic_unary(argument)

    def _generic_unary(self, x: Tensor, kind: str = "unary") -> Tensor:
        b = self.b
        lines: list[str] = []
        uses = [x.name]
        init = b.like(x, lines, uses)
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
        b.add(lines, result, tuple(uses), kind)
        return result

    def _generic_binary(
        self, x: Tensor, y: Tensor, kept: list[int], op: str, kind: str = "binary"
    ) -> Tensor:
        """x op y, y indexed by the dims `kept` of x (a broadcast when some
        are missing)."""
        b = self.b
        lines: list[str] = []
        uses = [x.name, y.name]
        init = b.like(x, lines, uses)
        result = Tensor(b.fresh(), x.shape, x.dynamic)
        dims = dim_list(x.rank)
        ymap = f"affine_map<({dims}) -> ({', '.join(f'd{d}' for d in kept)})>"
        m = identity_map(x.rank)
        a, c, o, r = b.fresh("a"), b.fresh("b"), b.fresh("o"), b.fresh("r")
        lines += [
            f"{result.name} = linalg.generic {{indexing_maps = [{m}, {ymap}, {m}], "
            f"iterator_types = [{iterator_list(['parallel'] * x.rank)}]}} "
            f"ins({x.name}, {y.name} : {x.type}, {y.type}) "
            f"outs({init.name} : {init.type}) {{",
            f"^bb0({a}: f32, {c}: f32, {o}: f32):",
            f"  {r} = {op} {a}, {c} : f32",
            f"  linalg.yield {r} : f32",
            f"}} -> {init.type}",
        ]
        b.add(lines, result, tuple(uses), kind)
        return result

    def _named(self, x: Tensor) -> Tensor:
        """A named elementwise op (unary, or binary with a value of x's
        shape) on x."""
        b = self.b
        lines: list[str] = []
        uses = [x.name]
        init = b.like(x, lines, uses)
        result = Tensor(b.fresh(), x.shape, x.dynamic)
        if b.rng.random() < 0.5:
            op = b.rng.choice(_NAMED_UNARY)
            ins = f"{x.name} : {x.type}"
        else:
            op = b.rng.choice(_NAMED_BINARY)
            y = b.value_of_shape(x.shape)
            uses.append(y.name)
            ins = f"{x.name}, {y.name} : {x.type}, {y.type}"
        lines.append(
            f"{result.name} = {op} ins({ins}) outs({init.name} : {init.type}) "
            f"-> {init.type}"
        )
        b.add(lines, result, tuple(uses), op.removeprefix("linalg."))
        return result

    def _map(self, x: Tensor) -> Tensor:
        """`linalg.map` of x and a value of the same type (x itself when
        there is none: the op wants equal types)."""
        b = self.b
        y = b.value(lambda v: v.type == x.type) or x
        lines: list[str] = []
        uses = [x.name, y.name]
        init = b.like(x, lines, uses)
        result = Tensor(b.fresh("map"), x.shape, x.dynamic)
        a, c, o, r = b.fresh("a"), b.fresh("b"), b.fresh("o"), b.fresh("r")
        op = b.rng.choice(["arith.addf", "arith.mulf", "arith.subf"])
        lines += [
            f"{result.name} = linalg.map ins({x.name}, {y.name} : {x.type}, {y.type}) "
            f"outs({init.name} : {init.type})",
            f"  ({a}: f32, {c}: f32, {o}: f32) {{",
            f"    {r} = {op} {a}, {c} : f32",
            f"    linalg.yield {r} : f32",
            "  }",
        ]
        b.add(lines, result, tuple(uses), "map")
        return result

    def chain(self) -> bool:
        """2 to 4 elementwise ops, each on the previous one's result."""
        b = self.b
        x = self._latest()
        if x is None:
            return False
        for _ in range(b.rng.randrange(2, 5)):
            choice = b.rng.random()
            if choice < 0.35:
                x = self._generic_unary(x)
            elif choice < 0.6:
                drop = [d for d in range(x.rank) if b.rng.random() < 0.3]
                kept = [d for d in range(x.rank) if d not in drop]
                y = b.value_of_shape(tuple(x.shape[d] for d in kept))
                x = self._generic_binary(
                    x, y, kept, b.rng.choice(["arith.addf", "arith.mulf"])
                )
            elif choice < 0.85:
                x = self._named(x)
            else:
                x = self._map(x)
        return True

    def named_elementwise(self) -> bool:
        x = self.b.value()
        if x is None:
            return False
        self._named(x)
        return True

    # -- matmul + bias + relu ---------------------------------------------

    def matmul_bias_relu(self) -> bool:
        """fill → matmul → bias (broadcast along rows) → relu (or only the
        first one or two: then the matmul or the bias is a root), the chain
        where a root tiled along k must not re-fill the accumulator."""
        b = self.b
        x = self._latest(2)
        if x is None or x.rank != 2:
            m, k = b.rng.choice(EXTENTS), b.rng.choice(EXTENTS)
            x = b.value_of_shape((m, k))
        m, k = x.shape
        n = b.rng.choice(EXTENTS)
        y = b.value_of_shape((k, n))
        lines: list[str] = []
        uses = [x.name, y.name]
        dynamic = (x.dynamic[0], y.dynamic[1])
        init = b.filled((m, n), dynamic, "0.0", lines, uses)
        product = Tensor(b.fresh("mm"), (m, n), dynamic)
        lines.append(
            f"{product.name} = linalg.matmul ins({x.name}, {y.name} : {x.type}, "
            f"{y.type}) outs({init.name} : {init.type}) -> {init.type}"
        )
        b.add(lines, product, tuple(uses), "matmul")
        if b.rng.random() < 0.25:
            return True  # the matmul as a root: tiled along k, sometimes
        bias = b.value_of_shape((n,))
        biased = self._generic_binary(product, bias, [1], "arith.addf", "bias")
        if b.rng.random() < 0.2:
            return True
        lines = []
        uses = [biased.name]
        out = b.like(biased, lines, uses)
        relu = Tensor(b.fresh("relu"), biased.shape, biased.dynamic)
        a, o, z, r = b.fresh("a"), b.fresh("o"), b.fresh("z"), b.fresh("r")
        m2 = identity_map(2)
        lines += [
            f"{relu.name} = linalg.generic {{indexing_maps = [{m2}, {m2}], "
            f"iterator_types = [{iterator_list(['parallel'] * 2)}]}} "
            f"ins({biased.name} : {biased.type}) outs({out.name} : {out.type}) {{",
            f"^bb0({a}: f32, {o}: f32):",
            f"  {z} = arith.constant 0.0 : f32",
            f"  {r} = arith.maximumf {a}, {z} : f32",
            f"  linalg.yield {r} : f32",
            f"}} -> {out.type}",
        ]
        b.add(lines, relu, tuple(uses), "relu")
        return True

    # -- bodies and results tiling must shift or split --------------------

    def indexed(self) -> bool:
        """An elementwise generic whose body reads `linalg.index`."""
        b = self.b
        x = b.value(lambda v: v.rank >= 1)
        if x is None:
            return False
        lines: list[str] = []
        uses = [x.name]
        init = b.like(x, lines, uses)
        result = Tensor(b.fresh("idx"), x.shape, x.dynamic)
        dim = b.rng.randrange(x.rank)
        a, o, i, w, f, r = (b.fresh(s) for s in ("a", "o", "i", "w", "f", "r"))
        m = identity_map(x.rank)
        lines += [
            f"{result.name} = linalg.generic {{indexing_maps = [{m}, {m}], "
            f"iterator_types = [{iterator_list(['parallel'] * x.rank)}]}} "
            f"ins({x.name} : {x.type}) outs({init.name} : {init.type}) {{",
            f"^bb0({a}: f32, {o}: f32):",
            f"  {i} = linalg.index {dim} : index",
            f"  {w} = arith.index_cast {i} : index to i64",
            f"  {f} = arith.sitofp {w} : i64 to f32",
            f"  {r} = arith.addf {a}, {f} : f32",
            f"  linalg.yield {r} : f32",
            f"}} -> {init.type}",
        ]
        b.add(lines, result, tuple(uses), "indexed")
        return True

    def two_results(self) -> bool:
        """A generic with two results (the step defines one of them)."""
        b = self.b
        x = b.value()
        if x is None:
            return False
        lines: list[str] = []
        uses = [x.name]
        first = b.like(x, lines, uses)
        second = b.like(x, lines, uses)
        name = b.fresh("two")
        which = b.rng.randrange(2)
        result = Tensor(f"{name}#{which}", x.shape, x.dynamic)
        a, o1, o2, r1, r2 = (b.fresh(s) for s in ("a", "o", "o", "r", "r"))
        m = identity_map(x.rank)
        lines += [
            f"{name}:2 = linalg.generic {{indexing_maps = [{m}, {m}, {m}], "
            f"iterator_types = [{iterator_list(['parallel'] * x.rank)}]}} "
            f"ins({x.name} : {x.type}) outs({first.name}, {second.name} : "
            f"{x.type}, {x.type}) {{",
            f"^bb0({a}: f32, {o1}: f32, {o2}: f32):",
            f"  {r1} = arith.negf {a} : f32",
            f"  {r2} = arith.mulf {a}, {a} : f32",
            f"  linalg.yield {r1}, {r2} : f32, f32",
            f"}} -> ({first.type}, {second.type})",
        ]
        b.add(lines, result, tuple(uses), "two_results")
        return True

    def broadcast(self) -> bool:
        """`linalg.broadcast` adding one dimension."""
        b = self.b
        x = b.value(lambda v: 1 <= v.rank <= 2)
        if x is None:
            return False
        at = b.rng.randrange(x.rank + 1)
        extent = b.rng.choice(EXTENTS)
        shape = x.shape[:at] + (extent,) + x.shape[at:]
        dynamic = x.dynamic[:at] + (False,) + x.dynamic[at:]
        lines: list[str] = []
        uses = [x.name]
        init = b.empty(shape, dynamic, lines, uses)
        result = Tensor(b.fresh("bc"), shape, dynamic)
        lines.append(
            f"{result.name} = linalg.broadcast ins({x.name} : {x.type}) "
            f"outs({init.name} : {init.type}) dimensions = [{at}]"
        )
        b.add(lines, result, tuple(uses), "broadcast")
        return True

    def named_softmax(self) -> bool:
        """`linalg.softmax` or `linalg_ext.unnorm_softmax`."""
        b = self.b
        x = b.value(lambda v: v.rank >= 1)
        if x is None:
            return False
        axis = b.rng.randrange(x.rank)
        lines: list[str] = []
        uses = [x.name]
        out = b.like(x, lines, uses)
        if b.rng.random() < 0.5:
            result = Tensor(b.fresh("lsm"), x.shape, x.dynamic)
            lines.append(
                f"{result.name} = linalg.softmax dimension({axis}) ins({x.name} : "
                f"{x.type}) outs({out.name} : {out.type}) -> {out.type}"
            )
            b.add(lines, result, tuple(uses), "linalg.softmax")
            return True
        _, shape, dynamic = x.without(axis)
        m0 = b.filled(shape, dynamic, "-3.0e38", lines, uses)
        a0 = b.filled(shape, dynamic, "0.0", lines, uses)
        scale = b.empty(shape, dynamic, lines, uses)
        small = Tensor("", shape, dynamic).type
        name = b.fresh("usm")
        result = Tensor(f"{name}#0", x.shape, x.dynamic)
        lines.append(
            f"{name}:4 = linalg_ext.unnorm_softmax dimension({axis}) ins({x.name} : "
            f"{x.type}) outs({out.name}, {m0.name}, {a0.name}, {scale.name} : "
            f"{x.type}, {small}, {small}, {small}) : {out.type}, {small}, {small}, "
            f"{small}"
        )
        b.add(lines, result, tuple(uses), "unnorm_softmax")
        return True

    # -- windows ----------------------------------------------------------

    def _window(self) -> tuple[int, int, int, int]:
        """(input extent, kernel, stride, dilation) with an output >= 1."""
        b = self.b
        while True:
            extent = b.rng.randrange(2, 9)
            kernel = b.rng.randrange(1, 4)
            stride = b.rng.choice([1, 1, 2])
            dilation = b.rng.choice([1, 1, 2])
            if (kernel - 1) * dilation < extent:
                return extent, kernel, stride, dilation

    def conv(self) -> bool:
        """`linalg.conv_2d_nhwc_hwcf` with strides and dilations."""
        b = self.b
        (h, kh, sh, dh), (w, kw, sw, dw) = self._window(), self._window()
        channels, filters = b.rng.randrange(1, 3), b.rng.randrange(1, 4)
        image = b.value_of_shape((1, h, w, channels))
        kernel = b.value_of_shape((kh, kw, channels, filters))
        oh, ow = (h - (kh - 1) * dh - 1) // sh + 1, (w - (kw - 1) * dw - 1) // sw + 1
        lines: list[str] = []
        uses = [image.name, kernel.name]
        shape = (1, oh, ow, filters)
        init = b.filled(shape, (False,) * 4, "0.0", lines, uses)
        result = Tensor(b.fresh("conv"), shape, (False,) * 4)
        lines.append(
            f"{result.name} = linalg.conv_2d_nhwc_hwcf {{dilations = dense<[{dh}, "
            f"{dw}]> : tensor<2xi64>, strides = dense<[{sh}, {sw}]> : tensor<2xi64>}} "
            f"ins({image.name}, {kernel.name} : {image.type}, {kernel.type}) "
            f"outs({init.name} : {init.type}) -> {init.type}"
        )
        b.add(lines, result, tuple(uses), "conv")
        return True

    def pool(self) -> bool:
        """`linalg.pooling_nchw_max` with strides and dilations."""
        b = self.b
        (h, kh, sh, dh), (w, kw, sw, dw) = self._window(), self._window()
        channels = b.rng.randrange(1, 3)
        image = b.value_of_shape((1, channels, h, w))
        window = b.value_of_shape((kh, kw))
        oh, ow = (h - (kh - 1) * dh - 1) // sh + 1, (w - (kw - 1) * dw - 1) // sw + 1
        lines: list[str] = []
        uses = [image.name, window.name]
        shape = (1, channels, oh, ow)
        init = b.filled(shape, (False,) * 4, "-3.0e38", lines, uses)
        result = Tensor(b.fresh("pool"), shape, (False,) * 4)
        lines.append(
            f"{result.name} = linalg.pooling_nchw_max {{dilations = dense<[{dh}, "
            f"{dw}]> : tensor<2xi64>, strides = dense<[{sh}, {sw}]> : tensor<2xi64>}} "
            f"ins({image.name}, {window.name} : {image.type}, {window.type}) "
            f"outs({init.name} : {init.type}) -> {init.type}"
        )
        b.add(lines, result, tuple(uses), "pool")
        return True

    # -- consumers tiled by hand ------------------------------------------

    def _tile_loops(
        self,
        x: Tensor,
        dims: list[int],
        lines: list[str],
        carried: str,
        carried_type: str,
    ) -> tuple[list[str], list[str | int], list[str], list[str], str]:
        """Open one `scf.for` per dim of `dims` (tiling `x`'s extent there),
        carrying `carried`. Returns (offsets, sizes, closing lines, loop
        result names, innermost carried name); sizes are ints where the tile
        size divides a static extent, else `affine.min` values."""
        b = self.b
        zero = b.fresh("c")
        lines.append(f"{zero} = arith.constant 0 : index")
        offsets: list[str] = []
        sizes: list[str | int] = []
        results: list[str] = []
        indent = ""
        bounds: list[tuple[str, int, bool, str]] = []
        for dim in dims:
            tile = b.rng.choice([2, 3, 4, 5])
            upper = b.fresh("ub")
            if x.dynamic[dim]:
                position = b.fresh("c")
                lines.append(f"{position} = arith.constant {dim} : index")
                lines.append(f"{upper} = tensor.dim {x.name}, {position} : {x.type}")
            else:
                lines.append(f"{upper} = arith.constant {x.shape[dim]} : index")
            step = b.fresh("ts")
            lines.append(f"{step} = arith.constant {tile} : index")
            bounds.append((upper, tile, x.dynamic[dim], step))
        for dim, (upper, tile, dynamic, step) in zip(dims, bounds, strict=True):
            iv, inner, result = b.fresh("iv"), b.fresh("acc"), b.fresh("tl")
            lines.append(
                f"{indent}{result} = scf.for {iv} = {zero} to {upper} step {step} "
                f"iter_args({inner} = {carried}) -> ({carried_type}) {{"
            )
            indent += "  "
            results.append(result)
            carried = inner
            offsets.append(iv)
            if not dynamic and x.shape[dim] % tile == 0:
                sizes.append(tile)
            else:
                size = b.fresh("sz")
                if dynamic:
                    lines.append(
                        f"{indent}{size} = affine.min affine_map<(d0)[s0] -> "
                        f"({tile}, s0 - d0)>({iv})[{upper}]"
                    )
                else:
                    lines.append(
                        f"{indent}{size} = affine.min affine_map<(d0) -> "
                        f"({tile}, {x.shape[dim]} - d0)>({iv})"
                    )
                sizes.append(size)
        closing = []
        for depth in range(len(dims) - 1, -1, -1):
            closing.append("  " * (depth + 1) + "scf.yield {}")
            closing.append("  " * depth + "}")
        return offsets, sizes, closing, results, carried

    @staticmethod
    def _close(
        lines: list[str],
        closing: list[str],
        results: list[str],
        last: str,
        carried_type: str,
    ):
        """Add the `scf.yield`s: the innermost yields `last`, each outer
        loop yields the result of the loop it contains."""
        yielded = [last, *reversed(results[1:])]
        for line in closing:
            if "scf.yield" in line:
                lines.append(line.format(f"{yielded.pop(0)} : {carried_type}"))
            else:
                lines.append(line)

    def tiled_elementwise(self) -> bool:
        """An elementwise consumer (unary, or binary with a broadcast
        operand) of a recent value, already tiled by hand along one or two
        dims: what `test-linalg-greedy-fusion` fuses producers into."""
        b = self.b
        x = self._produced(lambda v: v.rank >= 1)
        if x is None:
            return False
        dims = sorted(b.rng.sample(range(x.rank), min(x.rank, b.rng.choice([1, 2]))))
        binary = b.rng.random() < 0.5
        kept = [d for d in range(x.rank) if not (binary and b.rng.random() < 0.3)]
        y = b.value_of_shape(tuple(x.shape[d] for d in kept)) if binary else None
        lines: list[str] = []
        uses = [x.name] + ([y.name] if y is not None else [])
        init = b.like(x, lines, uses)
        offsets, sizes, closing, results, carried = self._tile_loops(
            x, dims, lines, init.name, init.type
        )
        indent = "  " * len(dims)
        tile_offsets: list[str] = ["0"] * x.rank
        tile_sizes = [str(e) for e in x.shape]
        static_sizes: list[int | None] = [
            None if dynamic else extent
            for extent, dynamic in zip(x.shape, x.dynamic, strict=True)
        ]
        for d, offset, size in zip(dims, offsets, sizes, strict=True):
            tile_offsets[d] = offset
            tile_sizes[d] = str(size)
            static_sizes[d] = size if isinstance(size, int) else None
        whole_dynamic = [d for d in range(x.rank) if x.dynamic[d] and d not in dims]
        for d in whole_dynamic:
            position, extent = b.fresh("c"), b.fresh("n")
            lines.append(f"{indent}{position} = arith.constant {d} : index")
            lines.append(
                f"{indent}{extent} = tensor.dim {x.name}, {position} : {x.type}"
            )
            tile_sizes[d] = extent
        tile_type = _type(static_sizes)

        def slice_of(
            source: str, source_type: str, of_dims: list[int]
        ) -> tuple[str, str]:
            name = b.fresh("s")
            slice_type = _type([static_sizes[d] for d in of_dims])
            lines.append(
                f"{indent}{name} = tensor.extract_slice {source}"
                f"[{', '.join(tile_offsets[d] for d in of_dims)}] "
                f"[{', '.join(tile_sizes[d] for d in of_dims)}] "
                f"[{', '.join('1' for _ in of_dims)}] : {source_type} to {slice_type}"
            )
            return name, slice_type

        all_dims = list(range(x.rank))
        xs, xs_type = slice_of(x.name, x.type, all_dims)
        ins, ins_types, maps = [xs], [xs_type], [identity_map(x.rank)]
        if y is not None:
            ys, ys_type = slice_of(y.name, y.type, kept)
            ins.append(ys)
            ins_types.append(ys_type)
            maps.append(
                f"affine_map<({dim_list(x.rank)}) -> ({', '.join(f'd{d}' for d in kept)})>"
            )
        dest, _ = slice_of(carried, init.type, all_dims)
        tile, updated = b.fresh("tile"), b.fresh("upd")
        args = [b.fresh("a") for _ in ins]
        out, r = b.fresh("o"), b.fresh("r")
        if y is None:
            t = b.fresh("t")
            body = [
                line.format(a=args[0], r=r, t=t) for line in b.rng.choice(UNARY_BODIES)
            ]
        else:
            op = b.rng.choice(["arith.addf", "arith.mulf", "arith.subf"])
            body = [f"{r} = {op} {args[0]}, {args[1]} : f32"]
        lines += [
            f"{indent}{tile} = linalg.generic {{indexing_maps = "
            f"[{', '.join([*maps, identity_map(x.rank)])}], "
            f"iterator_types = [{iterator_list(['parallel'] * x.rank)}]}} "
            f"ins({', '.join(ins)} : {', '.join(ins_types)}) "
            f"outs({dest} : {tile_type}) {{",
            f"{indent}^bb0({', '.join(f'{a}: f32' for a in args)}, {out}: f32):",
            *(f"{indent}  {line}" for line in body),
            f"{indent}  linalg.yield {r} : f32",
            f"{indent}}} -> {tile_type}",
            f"{indent}{updated} = tensor.insert_slice {tile} into {carried}"
            f"[{', '.join(tile_offsets)}] [{', '.join(tile_sizes)}] "
            f"[{', '.join('1' for _ in all_dims)}] : {tile_type} into {init.type}",
        ]
        self._close(lines, closing, results, updated, init.type)
        result = Tensor(results[0], x.shape, x.dynamic)
        b.add(lines, result, tuple(uses), "tiled_elementwise")
        return True

    def tiled_matmul(self) -> bool:
        """A matmul consumer (filled init) tiled by hand along m, n or both."""
        b = self.b
        x = self._produced(lambda v: v.rank == 2)
        if x is None:
            return False
        m, k = x.shape
        n = b.rng.choice(EXTENTS)
        y = b.value_of_shape((k, n))
        lines: list[str] = []
        uses = [x.name, y.name]
        dynamic = (x.dynamic[0], y.dynamic[1])
        init = b.filled((m, n), dynamic, "0.0", lines, uses)
        # Loops over the result's dims: their extents are x's rows and y's
        # columns, so tile a stand-in of the result's shape.
        shape_of = Tensor(init.name, (m, n), dynamic)
        dims = b.rng.choice([[0], [1], [0, 1]])
        offsets, sizes, closing, results, carried = self._tile_loops(
            shape_of, dims, lines, init.name, init.type
        )
        indent = "  " * len(dims)
        offset = ["0", "0"]
        size = [str(m), str(n)]
        static: list[int | None] = [
            None if dynamic[0] else m,
            None if dynamic[1] else n,
        ]
        for d, o, s in zip(dims, offsets, sizes, strict=True):
            offset[d], size[d] = o, str(s)
            static[d] = s if isinstance(s, int) else None
        for d in (0, 1):
            if dynamic[d] and d not in dims:
                position, extent = b.fresh("c"), b.fresh("n")
                lines.append(f"{indent}{position} = arith.constant {d} : index")
                lines.append(
                    f"{indent}{extent} = tensor.dim {init.name}, {position} : {init.type}"
                )
                size[d] = extent
        k_type = None if x.dynamic[1] else k
        k_size = str(k)
        if x.dynamic[1]:
            position, extent = b.fresh("c"), b.fresh("n")
            lines.append(f"{indent}{position} = arith.constant 1 : index")
            lines.append(
                f"{indent}{extent} = tensor.dim {x.name}, {position} : {x.type}"
            )
            k_size = extent
        xs, ys, dest = b.fresh("s"), b.fresh("s"), b.fresh("s")
        xs_type, ys_type = _type([static[0], k_type]), _type([k_type, static[1]])
        tile_type = _type(static)
        tile, updated = b.fresh("tile"), b.fresh("upd")
        lines += [
            f"{indent}{xs} = tensor.extract_slice {x.name}[{offset[0]}, 0] "
            f"[{size[0]}, {k_size}] [1, 1] : {x.type} to {xs_type}",
            f"{indent}{ys} = tensor.extract_slice {y.name}[0, {offset[1]}] "
            f"[{k_size}, {size[1]}] [1, 1] : {y.type} to {ys_type}",
            f"{indent}{dest} = tensor.extract_slice {carried}[{offset[0]}, {offset[1]}] "
            f"[{size[0]}, {size[1]}] [1, 1] : {init.type} to {tile_type}",
            f"{indent}{tile} = linalg.matmul ins({xs}, {ys} : {xs_type}, {ys_type}) "
            f"outs({dest} : {tile_type}) -> {tile_type}",
            f"{indent}{updated} = tensor.insert_slice {tile} into {carried}"
            f"[{offset[0]}, {offset[1]}] [{size[0]}, {size[1]}] [1, 1] : "
            f"{tile_type} into {init.type}",
        ]
        self._close(lines, closing, results, updated, init.type)
        result = Tensor(results[0], (m, n), dynamic)
        b.add(lines, result, tuple(uses), "tiled_matmul")
        return True


ROOT_KINDS = [
    "matmul",
    "reduce",
    "batch_matmul",
    "softmax",
    "named_softmax",
    "scan",
    "topk",
    "layer_norm",
    "diag",
    "scatter",
    "conv",
    "pool",
    "transpose",
    "pad",
    "expand",
    "collapse",
]
"""Kinds `TilingOps.finish` may end a program with: the ops tile-and-fuse
then tiles as roots (a reduction tiled along its reduction loop, a
`linalg_ext` op, a window), not only fuses as producers."""


TILING_KINDS: list[tuple[str, float]] = [
    ("chain", 3),
    ("matmul_bias_relu", 2),
    ("tiled_elementwise", 2.5),
    ("tiled_matmul", 1),
    ("unary", 1),
    ("binary", 1.5),
    ("named_elementwise", 1),
    ("indexed", 0.8),
    ("two_results", 0.5),
    ("broadcast", 0.7),
    ("transpose", 1),
    ("reduce", 1.2),
    ("matmul", 0.8),
    ("batch_matmul", 0.4),
    ("softmax", 0.5),
    ("named_softmax", 0.4),
    ("scan", 0.5),
    ("topk", 0.4),
    ("layer_norm", 0.5),
    ("diag", 0.3),
    ("scatter", 0.4),
    ("conv", 0.5),
    ("pool", 0.5),
    ("pad", 0.7),
    ("extract_slice", 0.4),
    ("collapse", 0.4),
    ("expand", 0.4),
]
"""The tiling family's step kinds and their weights."""
