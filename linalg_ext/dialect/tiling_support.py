"""What the tiling models of the `linalg_ext` ops share.

Most `linalg_ext` ops tile like a structured op whose operands are indexed
by projected permutations of the loops: a tile of the iteration space reads
and writes the slice of each operand that its map projects the tile onto.
`ProjectedTilingModel` is that model; each op family says, per operand, how
its dimensions follow the loops (`OperandTiling`) and which loops must stay
whole (a softmax's `dimension`, a layer_norm's axes). The ops whose tiles are
not projections (`scatter`, `diag`) and `custom` have their own models and
use the helpers here.

A loop that must stay whole is checked, not trusted: a tile is accepted
only when its offset there is provably 0 and its size provably the whole
extent (a constant equal to the static extent, the very value
`iteration_domain` gave, or a `tensor.dim` of an operand or result of that
extent), so a tile that would cut a softmax row is refused with a reason
instead of computing a softmax of part of a row.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass, field

from xdsl.dialects import affine, arith, tensor
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    IntegerAttr,
    MemRefType,
    ShapedType,
)
from xdsl.dialects.linalg.attrs import IteratorType, IteratorTypeAttr
from xdsl.ir import Operation, OpResult, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineMap, AffineSymExpr

from linalg_ext.tiling.interface import LoopType, TiledOp, TilingModel, TilingRefused
from linalg_ext.transforms.mixed_sizes import Mixed
from linalg_ext.transforms.shape_reification import reify_dim
from linalg_ext.transforms.slices import extract_slice

ON_MEMREFS = "tiling works on tensors"


def memref_refusal(op: Operation) -> str | None:
    """The refusal of an op on memrefs (its tiles would be subviews written
    in place, which the tensor drivers do not build)."""
    if any(isinstance(v.type, MemRefType) for v in op.operands):
        return f"{op.name}: {ON_MEMREFS}"
    return None


def constant_index(value: Mixed) -> int | None:
    """The value of `value` if it is known: an int, or an `arith.constant`."""
    if isinstance(value, int):
        return value
    if isinstance(value, OpResult) and isinstance(value.op, arith.ConstantOp):
        attribute = value.op.value
        if isinstance(attribute, IntegerAttr):
            return attribute.value.data
    return None


def is_zero(value: Mixed) -> bool:
    """Whether `value` is provably 0."""
    return constant_index(value) == 0


def _through_identity_apply(value: SSAValue) -> SSAValue:
    """`value`, or what it copies when it is an `affine.apply` of a map that
    returns its one operand unchanged (as a size built by map arithmetic
    that folded to the identity may be)."""
    while isinstance(value, OpResult) and isinstance(value.op, affine.ApplyOp):
        apply = value.op
        map_ = apply.map.data
        if len(apply.mapOperands) != 1 or len(map_.results) != 1:
            break
        result = map_.results[0]
        if not isinstance(result, AffineDimExpr | AffineSymExpr):
            break
        value = apply.mapOperands[0]
    return value


def is_extent_of(size: Mixed, sources: Sequence[tuple[SSAValue, int]]) -> bool:
    """Whether `size` is provably the extent of dimension `dim` of each
    `(value, dim)` in `sources` (values known to share that extent)."""
    for value, dim in sources:
        assert isinstance(value.type, ShapedType)
        static = value.type.get_shape()[dim]
        if static != DYNAMIC_INDEX:
            return constant_index(size) == static
    if not isinstance(size, SSAValue):
        return False
    size = _through_identity_apply(size)
    if isinstance(size, OpResult) and isinstance(size.op, tensor.DimOp):
        index = constant_index(size.op.index)
        if any(size.op.source is v and index == d for v, d in sources):
            return True
    for value, dim in sources:
        probe: list[Operation] = []
        extent = reify_dim(value, dim, probe)
        for built in reversed(probe):
            built.drop_all_references()
        if not probe and extent is size:
            return True
    return False


def require_whole(
    op: Operation,
    where: str,
    offset: Mixed,
    size: Mixed,
    sources: Sequence[tuple[SSAValue, int]],
    why: str,
) -> None:
    """Refuse (TilingRefused) a tile that is not provably whole `where`
    ("loop 1", "dimension 0 of result #0"): offset 0 and size the extent of
    `sources`."""
    if is_zero(offset) and is_extent_of(size, sources):
        return
    raise TilingRefused(
        f"{op.name} cannot be tiled along {where}: {why}, so a tile must "
        "cover it whole (offset 0, the whole extent)",
        op,
    )


def loop_types_of(op: Operation) -> list[LoopType]:
    """The loop types of an op that says what its loops are
    (`get_iterator_types`)."""
    attributes: Sequence[IteratorTypeAttr] = op.get_iterator_types().data  # pyright: ignore[reportAttributeAccessIssue]
    return [
        "reduction" if t.data == IteratorType.REDUCTION else "parallel"
        for t in attributes
    ]


def rebuilt(op: Operation, operands: Sequence[SSAValue]) -> Operation:
    """A copy of `op` (properties, attributes, regions cloned) on
    `operands`, with one result per tensor operand tied to a result, typed
    like it: the tiled op of a destination-style op whose outputs are the
    last `len(op.results)` operands."""
    first_output = len(operands) - len(op.results)
    return type(op).create(
        operands=list(operands),
        result_types=[v.type for v in operands[first_output:]],
        properties=dict(op.properties),
        attributes=dict(op.attributes),
        regions=[region.clone() for region in op.regions],
    )


@dataclass(frozen=True)
class OperandTiling:
    """How an operand follows the loops of its op.

    `map`: the loops to the operand's dimensions, a projected permutation;
    a tile reads the slice it projects the tile onto. None: the operand is
    read whole by every tile (a layer_norm's weight and bias, whose loops
    are never tiled). `own_extent`: dimensions of the operand that every
    tile reads or writes whole at the operand's own extent, although a loop
    indexes them (a topk output's K dimension, the input's being N)."""

    map: AffineMap | None
    own_extent: frozenset[int] = field(default_factory=frozenset[int])


def identity_tiling(rank: int) -> OperandTiling:
    return OperandTiling(AffineMap.identity(rank))


def dropping_tiling(rank: int, dropped: Sequence[int]) -> OperandTiling:
    """An operand indexed by every loop but `dropped` (a reduced output)."""
    identity = AffineMap.identity(rank)
    return OperandTiling(identity.drop_results([d in dropped for d in range(rank)]))


class ProjectedTilingModel(TilingModel):
    """The model of an op on tensors whose operands follow its loops through
    projected permutations (`operand_tilings`, one per operand in operand
    order, the outputs last and tied to the results in order).

    The iteration domain comes from the first operand indexing each loop;
    a tile slices every operand with a map, keeps whole the ones without,
    and is refused when it cuts a loop of `whole_dims`."""

    @abstractmethod
    def operand_tilings(self, op: Operation) -> list[OperandTiling]:
        """How each operand (inputs, then outputs) follows the loops."""

    def why_whole(self, op: Operation, loop: int) -> str:
        """Why `loop` (one of `whole_dims`) must not be cut, for the message."""
        return "every element of the result depends on all of it"

    def refusal(self, op: Operation) -> str | None:
        return memref_refusal(op)

    def loop_types(self, op: Operation) -> list[LoopType]:
        return loop_types_of(op)

    def _extent_sources(self, op: Operation, loop: int) -> list[tuple[SSAValue, int]]:
        """The operand and result dimensions whose extent is that of `loop`
        (the first operand's first)."""
        tilings = self.operand_tilings(op)
        first_output = len(op.operands) - len(op.results)
        sources: list[tuple[SSAValue, int]] = []
        for index, (value, tiling) in enumerate(zip(op.operands, tilings, strict=True)):
            if tiling.map is None:
                continue
            for position, result in enumerate(tiling.map.results):
                if position in tiling.own_extent:
                    continue
                assert isinstance(result, AffineDimExpr)
                if result.position == loop:
                    sources.append((value, position))
                    if index >= first_output:
                        sources.append((op.results[index - first_output], position))
        return sources

    def _extent(self, op: Operation, loop: int, new_ops: list[Operation]) -> Mixed:
        sources = self._extent_sources(op, loop)
        assert sources, f"{op.name}: no operand gives the extent of loop {loop}"
        value, dim = sources[0]
        return reify_dim(value, dim, new_ops)

    def iteration_domain(self, op: Operation, new_ops: list[Operation]) -> list[Mixed]:
        return [
            self._extent(op, loop, new_ops) for loop in range(len(self.loop_types(op)))
        ]

    def check_whole(
        self, op: Operation, offsets: Sequence[Mixed], sizes: Sequence[Mixed]
    ) -> None:
        """Refuse a tile that cuts one of `whole_dims`."""
        for loop in sorted(self.whole_dims(op)):
            require_whole(
                op,
                f"loop {loop}",
                offsets[loop],
                sizes[loop],
                self._extent_sources(op, loop),
                self.why_whole(op, loop),
            )

    def operand_slice(
        self,
        value: SSAValue,
        tiling: OperandTiling,
        offsets: Sequence[Mixed],
        sizes: Sequence[Mixed],
        new_ops: list[Operation],
    ) -> tuple[list[Mixed], list[Mixed]]:
        """The (offsets, sizes) of the slice of an operand a tile reads."""
        assert tiling.map is not None
        slice_offsets: list[Mixed] = []
        slice_sizes: list[Mixed] = []
        for position, result in enumerate(tiling.map.results):
            assert isinstance(result, AffineDimExpr)
            if position in tiling.own_extent:
                slice_offsets.append(0)
                slice_sizes.append(reify_dim(value, position, new_ops))
            else:
                slice_offsets.append(offsets[result.position])
                slice_sizes.append(sizes[result.position])
        return slice_offsets, slice_sizes

    def build_tiled(self, op: Operation, operands: Sequence[SSAValue]) -> Operation:
        """The op computing the tile from its sliced operands."""
        return rebuilt(op, operands)

    def tile(
        self,
        op: Operation,
        offsets: Sequence[Mixed],
        sizes: Sequence[Mixed],
        new_ops: list[Operation],
    ) -> TiledOp:
        if (reason := self.refusal(op)) is not None:
            raise TilingRefused(reason, op)
        self.check_whole(op, offsets, sizes)
        start = len(new_ops)
        operands: list[SSAValue] = []
        slices: list[Operation] = []
        for value, tiling in zip(op.operands, self.operand_tilings(op), strict=True):
            if tiling.map is None or not tiling.map.results:
                operands.append(value)  # read whole (rank 0: nothing to slice)
                continue
            slice_offsets, slice_sizes = self.operand_slice(
                value, tiling, offsets, sizes, new_ops
            )
            sliced = extract_slice(value, slice_offsets, slice_sizes)
            new_ops.append(sliced)
            slices.append(sliced)
            operands.append(sliced.result)
        tiled = self.build_tiled(op, operands)
        new_ops.append(tiled)
        return TiledOp(new_ops[start:], list(tiled.results), slices)

    def result_tile_position(
        self,
        op: Operation,
        result_index: int,
        offsets: Sequence[Mixed],
        sizes: Sequence[Mixed],
        new_ops: list[Operation],
    ) -> tuple[list[Mixed], list[Mixed]]:
        operand_index = len(op.operands) - len(op.results) + result_index
        tiling = self.operand_tilings(op)[operand_index]
        assert tiling.map is not None, "an output follows the loops"
        return self.operand_slice(
            op.operands[operand_index], tiling, offsets, sizes, new_ops
        )

    def iteration_tile_of_result(
        self,
        op: Operation,
        result_index: int,
        offsets: Sequence[Mixed],
        sizes: Sequence[Mixed],
        new_ops: list[Operation],
    ) -> tuple[list[Mixed], list[Mixed]]:
        """The result tile's offsets and sizes on the loops the result
        indexes; whole along the others. A dimension taken at the output's
        own extent must be asked whole; so must a loop of `whole_dims`; and
        along a reduction loop the result indexes (a scan's dimension) the
        tile must start at 0, since what it holds depends on every element
        before it."""
        if (reason := self.refusal(op)) is not None:
            raise TilingRefused(reason, op)
        operand_index = len(op.operands) - len(op.results) + result_index
        output = op.operands[operand_index]
        tiling = self.operand_tilings(op)[operand_index]
        assert tiling.map is not None, "an output follows the loops"
        loop_types = self.loop_types(op)
        tile_offsets: list[Mixed] = [0] * len(loop_types)
        tile_sizes: list[Mixed | None] = [None] * len(loop_types)
        whole = self.whole_dims(op)
        for position, result in enumerate(tiling.map.results):
            assert isinstance(result, AffineDimExpr)
            loop = result.position
            if position in tiling.own_extent:
                require_whole(
                    op,
                    f"dimension {position} of its result #{result_index}",
                    offsets[position],
                    sizes[position],
                    [(output, position), (op.results[result_index], position)],
                    "the op computes that dimension whole",
                )
                continue
            if (
                loop_types[loop] == "reduction"
                and loop not in whole
                and not is_zero(offsets[position])
            ):
                raise TilingRefused(
                    f"{op.name} cannot compute a tile of its result "
                    f"#{result_index} that starts inside its reduction loop "
                    f"{loop}: the tile depends on the elements before it",
                    op,
                )
            tile_offsets[loop] = offsets[position]
            tile_sizes[loop] = sizes[position]
        # Whole along the loops the result does not index.
        whole_sizes = [
            self._extent(op, loop, new_ops) if size is None else size
            for loop, size in enumerate(tile_sizes)
        ]
        self.check_whole(op, tile_offsets, whole_sizes)
        return tile_offsets, whole_sizes
