"""The tiling interface: what an op tells the tiling and fusion drivers.

The counterpart of upstream MLIR's `TilingInterface`. An op is tileable when
a `TilingModel` is registered for its class (`register_tiling`): upstream
ops' models live in this package (external models, like upstream's), each
`linalg_ext` op's beside its definition in `linalg_ext.dialect` (IREE's way),
registered when the dialect is imported. `tiling_model(op)` finds it.

Everything is on tensors and in destination-passing style. Sizes, offsets
and extents are `Mixed` (`linalg_ext.transforms.mixed_sizes`): an `int`
when known at compile time, an `index` SSA value otherwise. Builders append
the ops they create to a `new_ops` list, in order; the caller inserts them
where the tile is computed (inside the loops), so the model never decides
where IR goes.

A tile is given in the op's iteration space: one offset and one size per
loop of the iteration domain (unit strides). Offsets and sizes may be any
`Mixed`; the tile lies inside the domain (the drivers clamp partial tiles
with `affine.min` before asking).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

from xdsl.ir import Operation, SSAValue

from linalg_ext.transforms.mixed_sizes import Mixed

LoopType = Literal["parallel", "reduction"]
"""How a loop of the iteration domain may be tiled: a `parallel` loop's tiles
are independent; a `reduction` loop's tiles accumulate into the same result
tile, in order (the drivers carry the partial result through the loop's
`iter_args`)."""


class TilingRefused(Exception):
    """The op, or this tile of it, cannot be tiled: `str(error)` says why,
    `op` is the op it is about (for a located diagnostic)."""

    def __init__(self, message: str, op: Operation):
        super().__init__(message)
        self.op = op


@dataclass
class TiledOp:
    """What tiling an op (or generating one of its result tiles) built.

    `ops`: every op created, in order, the tiled computation last among the
    ones that matter (`ops` includes the `extract_slice`s of the operands and
    index arithmetic). `results`: one value per result of the original op,
    the tile of that result (in the original result's element type, the
    tile's shape). `slices`: the slices of operands the tiled op reads (the
    candidates for producer fusion), in operand order."""

    ops: list[Operation]
    results: list[SSAValue]
    slices: list[Operation] = field(default_factory=list[Operation])


class TilingModel(ABC):
    """How one kind of op tiles. Subclasses implement the abstract methods;
    the defaults of the others follow from them."""

    def refusal(self, op: Operation) -> str | None:
        """Why `op` cannot be tiled at all (e.g. `linalg_ext.custom`, an op
        on memrefs), None if it can."""
        return None

    @abstractmethod
    def loop_types(self, op: Operation) -> list[LoopType]:
        """One entry per loop of the iteration domain."""

    @abstractmethod
    def iteration_domain(self, op: Operation, new_ops: list[Operation]) -> list[Mixed]:
        """The extent of each loop (offsets are 0, strides 1): ints where
        static, else values (`tensor.dim` of an operand, appended to
        `new_ops`)."""

    def fuses_producers(self, op: Operation) -> bool:
        """Whether the producers of the operands of a tile of `op` may be
        fused into the loops computing it (ByteIR's
        `isValidTiledProducerOp`): a scatter's may not."""
        return True

    def whole_dims(self, op: Operation) -> set[int]:
        """Loops that must not be tiled (they must stay whole in every tile):
        a softmax's `dimension`, a layer_norm's axes. A driver given a nonzero
        tile size for one refuses."""
        return set()

    @abstractmethod
    def tile(
        self,
        op: Operation,
        offsets: Sequence[Mixed],
        sizes: Sequence[Mixed],
        new_ops: list[Operation],
    ) -> TiledOp:
        """The op computing the iteration-space tile (offsets, sizes): its
        operands sliced, its destinations sliced at the tile's result
        positions. Raises `TilingRefused` if this tile cannot be built."""

    @abstractmethod
    def result_tile_position(
        self,
        op: Operation,
        result_index: int,
        offsets: Sequence[Mixed],
        sizes: Sequence[Mixed],
        new_ops: list[Operation],
    ) -> tuple[list[Mixed], list[Mixed]]:
        """Where the tile of result `result_index` that the iteration-space
        tile (offsets, sizes) computes lies in the whole result: (offsets,
        sizes), one per dimension of the result. The drivers insert the tile
        there (`tensor.insert_slice`)."""

    def iteration_tile_of_result(
        self,
        op: Operation,
        result_index: int,
        offsets: Sequence[Mixed],
        sizes: Sequence[Mixed],
        new_ops: list[Operation],
    ) -> tuple[list[Mixed], list[Mixed]]:
        """The iteration-space tile that computes exactly the tile (offsets,
        sizes) of result `result_index`, whole along the loops the result
        does not index (reductions). Raises `TilingRefused` when no such tile
        exists (the result's map is not a projected permutation, or the tile
        would cut a `whole_dims` loop). The producer side of fusion."""
        raise TilingRefused(
            f"{op.name} cannot compute a tile of its result #{result_index} alone",
            op,
        )

    def result_tile(
        self,
        op: Operation,
        result_index: int,
        offsets: Sequence[Mixed],
        sizes: Sequence[Mixed],
        new_ops: list[Operation],
    ) -> TiledOp:
        """The op computing the tile (offsets, sizes) of result
        `result_index` (upstream's `generateResultTileValue`): by default the
        tile of `iteration_tile_of_result`."""
        tile_offsets, tile_sizes = self.iteration_tile_of_result(
            op, result_index, offsets, sizes, new_ops
        )
        return self.tile(op, tile_offsets, tile_sizes, new_ops)


_MODELS: dict[type[Operation], TilingModel] = {}


def register_tiling(op_type: type[Operation], model: TilingModel) -> None:
    """Make ops of `op_type` (and its subclasses, unless they have their
    own) tileable by `model`."""
    _MODELS[op_type] = model


def tiling_model(op: Operation) -> TilingModel | None:
    """The model registered for `op`'s class or its nearest base, or None."""
    for cls in type(op).__mro__:
        if (model := _MODELS.get(cls)) is not None:
            return model
    return None


def registered_op_types() -> list[type[Operation]]:
    """The op classes with a model (for docs and tests)."""
    return list(_MODELS)
