"""The tiling model of `tensor.pad`.

The iteration domain is the padded result's shape, every loop parallel; a
tile of the result is a tile of the iteration space (the identity both
ways). A tile reads only the part of the source it needs: along each
dimension with low padding `l`, high padding `h`, source extent `s`, tile
offset `o` and size `n` (so the tile covers `[o, o + n)` of the result, the
source `[l, l + s)` of it), the tile is

    pad(extract_slice(source, [src_off, src_end)),
        low = new_low, high = n - new_low - (src_end - src_off))

with `src_off = min(max(o - l, 0), s)`, `src_end = min(max(o + n - l, 0), s)`
and `new_low = min(max(l - o, 0), n)`: the slice always lies inside the
source (`0 <= src_off <= src_end <= s`), and is empty for a tile that lies
entirely in the border, whose pad is then all padding. Static parts fold to
ints; the rest are `affine.max`/`affine.min`/`affine.apply` on the dynamic
values. A dimension without padding keeps the tile's offset and size; one
padded on one side only needs half the clamps.

When the tile is known at compile time to lie entirely in the border (a
source slice of static size 0), the tile is a `tensor.generate` of the
padding value and reads nothing. When that is only known at run time, the
pad of the empty slice computes the same (upstream builds an `scf.if`
choosing between the two; ByteIR turns that guard off, as we do: an empty
slice is a valid slice).

Only pads whose padding value does not depend on the position are tiled (a
region yielding a value computed from its index arguments would need them
shifted by the tile's offsets): others are refused with a reason.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Literal

from xdsl.dialects import tensor
from xdsl.dialects.builtin import DYNAMIC_INDEX, TensorType
from xdsl.dialects.utils import get_dynamic_index_list, split_dynamic_index_list
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap

from linalg_ext.compat.tensor_ops import GenerateOp
from linalg_ext.tiling.interface import (
    LoopType,
    TiledOp,
    TilingModel,
    TilingRefused,
    register_tiling,
)
from linalg_ext.transforms.mixed_sizes import (
    Mixed,
    affine_max,
    affine_min,
    apply_affine_map,
)
from linalg_ext.transforms.shape_reification import reify_dim
from linalg_ext.transforms.slices import extract_slice

Term = int | AffineExpr
"""A result of `affine_of`'s `build`: an affine expression over its operands'
dimensions, or a constant as an int."""

AffineKind = Literal["apply", "min", "max"]


def affine_of(
    kind: AffineKind,
    operands: Sequence[Mixed],
    build: Callable[..., Sequence[Term]],
    new_ops: list[Operation],
) -> Mixed:
    """`build`, called with one dimension per operand, gives the results of
    an affine map over the operands; this is their value (`apply`: the one
    result; `min`/`max`: the smallest/largest), folded by
    `linalg_ext.transforms.mixed_sizes`: an int when static, else one
    `affine.apply`/`affine.min`/`affine.max` appended to `new_ops`. (Results
    are built from dimensions, never as `int - expression`: xDSL 0.74's
    `__rsub__` computes `expression - int`.)"""
    dims = [AffineExpr.dimension(i) for i in range(len(operands))]
    results = tuple(
        r if isinstance(r, AffineExpr) else AffineExpr.constant(r) for r in build(*dims)
    )
    map_ = AffineMap(len(operands), 0, results)
    if kind == "apply":
        (value,) = apply_affine_map(map_, operands, new_ops)
        return value
    if kind == "min":
        return affine_min(map_, operands, new_ops)
    return affine_max(map_, operands, new_ops)


def padding_value_refusal(op: tensor.PadOp) -> str | None:
    """Why the padding value of `op` stops it being tiled (it depends on the
    position: the region's yield uses the index arguments), None if not."""
    block = op.region.block
    dependent: set[SSAValue] = set(block.args)
    for inner in block.ops:
        if any(
            operand in dependent
            for nested in inner.walk()
            for operand in nested.operands
        ):
            dependent.update(inner.results)
    terminator = block.last_op
    if isinstance(terminator, tensor.YieldOp) and not any(
        value in dependent for value in terminator.operands
    ):
        return None
    return (
        "its padding value depends on the position (the region's yield uses "
        "its index arguments), which tiling would shift"
    )


def _pad_amounts(op: tensor.PadOp) -> tuple[list[Mixed], list[Mixed]]:
    low = get_dynamic_index_list(op.static_low.get_values(), op.low, DYNAMIC_INDEX)
    high = get_dynamic_index_list(op.static_high.get_values(), op.high, DYNAMIC_INDEX)
    return low, high


def tile_type(element: Attribute, sizes: Sequence[Mixed]) -> TensorType[Attribute]:
    """The type of a tile of `sizes`: static where they are."""
    return TensorType(
        element, [s if isinstance(s, int) else DYNAMIC_INDEX for s in sizes]
    )


class PadTiling(TilingModel):
    """`tensor.pad`: tiles of the padded result, each reading only the part
    of the source it covers (see the module's docstring)."""

    def refusal(self, op: Operation) -> str | None:
        assert isinstance(op, tensor.PadOp)
        reason = padding_value_refusal(op)
        return None if reason is None else f"{op.name} cannot be tiled: {reason}"

    def loop_types(self, op: Operation) -> list[LoopType]:
        assert isinstance(op, tensor.PadOp)
        return ["parallel"] * len(op.static_low)

    def iteration_domain(self, op: Operation, new_ops: list[Operation]) -> list[Mixed]:
        assert isinstance(op, tensor.PadOp)
        result_type = op.result.type
        assert isinstance(result_type, TensorType)
        low, high = _pad_amounts(op)
        domain: list[Mixed] = []
        for dim, extent in enumerate(result_type.get_shape()):
            if extent != DYNAMIC_INDEX:
                domain.append(extent)
                continue
            source = reify_dim(op.source, dim, new_ops)
            domain.append(
                affine_of(
                    "apply",
                    (low[dim], source, high[dim]),
                    lambda lo, s, hi: (lo + s + hi,),
                    new_ops,
                )
            )
        return domain

    def tile(
        self,
        op: Operation,
        offsets: Sequence[Mixed],
        sizes: Sequence[Mixed],
        new_ops: list[Operation],
    ) -> TiledOp:
        assert isinstance(op, tensor.PadOp)
        if (reason := self.refusal(op)) is not None:
            raise TilingRefused(reason, op)
        rank = len(op.static_low)
        if len(offsets) != rank or len(sizes) != rank:
            raise TilingRefused(
                f"{op.name} has {rank} loops, the tile has {len(offsets)} "
                f"offsets and {len(sizes)} sizes",
                op,
            )
        low, high = _pad_amounts(op)
        source_offsets: list[Mixed] = []
        source_sizes: list[Mixed] = []
        new_low: list[Mixed] = []
        new_high: list[Mixed] = []
        for dim in range(rank):
            unpadded = low[dim] == 0 and high[dim] == 0
            # (An unpadded dimension does not need the source's extent.)
            extent = 0 if unpadded else reify_dim(op.source, dim, new_ops)
            parts = _dim_tile(
                low[dim], high[dim], extent, offsets[dim], sizes[dim], new_ops
            )
            source_offsets.append(parts[0])
            source_sizes.append(parts[1])
            new_low.append(parts[2])
            new_high.append(parts[3])
        result_type = op.result.type
        assert isinstance(result_type, TensorType)
        wanted = tile_type(result_type.get_element_type(), sizes)
        if 0 in source_sizes:
            # Entirely in the border, known now: only padding, nothing read.
            generate = GenerateOp(
                [s for s in sizes if isinstance(s, SSAValue)],
                wanted,
                op.region.clone(),
            )
            new_ops.append(generate)
            return TiledOp([generate], [generate.result], [])
        source_slice = extract_slice(op.source, source_offsets, source_sizes)
        new_ops.append(source_slice)
        static_low, dynamic_low = split_dynamic_index_list(new_low, DYNAMIC_INDEX)
        static_high, dynamic_high = split_dynamic_index_list(new_high, DYNAMIC_INDEX)
        padded_shape = [
            size + lo + hi
            if isinstance(size, int) and isinstance(lo, int) and isinstance(hi, int)
            else DYNAMIC_INDEX
            for size, lo, hi in zip(source_sizes, new_low, new_high, strict=True)
        ]
        pad = tensor.PadOp(
            source_slice.result,
            dynamic_low,
            dynamic_high,
            op.region.clone(),
            static_low,
            static_high,
            TensorType(result_type.get_element_type(), padded_shape),
            op.nofold,
        )
        new_ops.append(pad)
        ops: list[Operation] = [source_slice, pad]
        result = pad.result
        if pad.result.type != wanted:
            # A static tile size the pad's type cannot show (its amounts are
            # dynamic): the tile's type, as the drivers insert it.
            cast = tensor.CastOp(pad.result, wanted)
            new_ops.append(cast)
            ops.append(cast)
            result = cast.dest
        return TiledOp(ops, [result], [source_slice])

    def result_tile_position(
        self,
        op: Operation,
        result_index: int,
        offsets: Sequence[Mixed],
        sizes: Sequence[Mixed],
        new_ops: list[Operation],
    ) -> tuple[list[Mixed], list[Mixed]]:
        return list(offsets), list(sizes)

    def iteration_tile_of_result(
        self,
        op: Operation,
        result_index: int,
        offsets: Sequence[Mixed],
        sizes: Sequence[Mixed],
        new_ops: list[Operation],
    ) -> tuple[list[Mixed], list[Mixed]]:
        return list(offsets), list(sizes)


def _dim_tile(
    low: Mixed,
    high: Mixed,
    extent: Mixed,
    offset: Mixed,
    size: Mixed,
    new_ops: list[Operation],
) -> tuple[Mixed, Mixed, Mixed, Mixed]:
    """(source offset, source size, new low, new high) of one dimension of a
    tile (see the module's docstring). Uses what a pad guarantees (amounts,
    offset and size are not negative; the tile ends inside the result) to
    drop clamps that cannot bind."""
    if low == 0 and high == 0:
        return offset, size, 0, 0

    def clamp(
        operands: Sequence[Mixed], build: Callable[..., Term], upper: Mixed | None
    ) -> Mixed:
        # max(build(*operands), 0), then min(that, upper) when there is one.
        at_least_zero = affine_of(
            "max", operands, lambda *terms: (build(*terms), 0), new_ops
        )
        if upper is None:
            return at_least_zero
        return affine_of("min", (at_least_zero, upper), lambda v, u: (v, u), new_ops)

    if low == 0:
        # Nothing before the source: the source starts where the result does.
        source_offset = affine_of("min", (offset, extent), lambda o, s: (o, s), new_ops)
        source_end = affine_of(
            "min", (offset, size, extent), lambda o, n, s: (o + n, s), new_ops
        )
        new_low: Mixed = 0
    else:
        # With no high padding, a tile ending inside the result ends inside
        # the source: only the lower clamps can bind.
        upper = None if high == 0 else extent
        source_offset = clamp((offset, low), lambda o, lo: o - lo, upper)
        source_end = clamp((offset, size, low), lambda o, n, lo: o + n - lo, upper)
        before = clamp((low, offset), lambda lo, o: lo - o, None)
        new_low = affine_of("min", (before, size), lambda v, n: (v, n), new_ops)
    source_size = affine_of(
        "apply", (source_offset, source_end), lambda a, b: (b - a,), new_ops
    )
    if high == 0:
        new_high: Mixed = 0
    else:
        new_high = affine_of(
            "apply",
            (size, new_low, source_size),
            lambda n, lo, s: (n - lo - s,),
            new_ops,
        )
    return source_offset, source_size, new_low, new_high


register_tiling(tensor.PadOp, PadTiling())
