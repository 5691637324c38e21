"""`linalg_ext.custom` does not tile: its body takes every operand whole and
says nothing of which part of an output depends on which part of an input,
so no tile of it can be built (ByteIR's "fake tiling" returns the op
itself for every tile, which computes every tile whole)."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.ir import Operation

from linalg_ext.dialect.custom import CustomOp
from linalg_ext.tiling.interface import (
    LoopType,
    TiledOp,
    TilingModel,
    TilingRefused,
    register_tiling,
)
from linalg_ext.transforms.mixed_sizes import Mixed

NO_ITERATION_SPACE = "linalg_ext.custom has no known iteration space"


class CustomTiling(TilingModel):
    """Refuses every question with the same reason."""

    def refusal(self, op: Operation) -> str | None:
        return NO_ITERATION_SPACE

    def _refuse(self, op: Operation) -> TilingRefused:
        return TilingRefused(NO_ITERATION_SPACE, op)

    def loop_types(self, op: Operation) -> list[LoopType]:
        raise self._refuse(op)

    def iteration_domain(self, op: Operation, new_ops: list[Operation]) -> list[Mixed]:
        raise self._refuse(op)

    def tile(
        self,
        op: Operation,
        offsets: Sequence[Mixed],
        sizes: Sequence[Mixed],
        new_ops: list[Operation],
    ) -> TiledOp:
        raise self._refuse(op)

    def result_tile_position(
        self,
        op: Operation,
        result_index: int,
        offsets: Sequence[Mixed],
        sizes: Sequence[Mixed],
        new_ops: list[Operation],
    ) -> tuple[list[Mixed], list[Mixed]]:
        raise self._refuse(op)

    def iteration_tile_of_result(
        self,
        op: Operation,
        result_index: int,
        offsets: Sequence[Mixed],
        sizes: Sequence[Mixed],
        new_ops: list[Operation],
    ) -> tuple[list[Mixed], list[Mixed]]:
        raise self._refuse(op)


register_tiling(CustomOp, CustomTiling())
