"""A structured op reduced to what running it needs."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from xdsl.ir import Attribute, Block, Operation
from xdsl.ir.affine import AffineMap


@dataclass
class StructuredComputation:
    """A structured op reduced to what running it needs: its operand values
    and types, one indexing map per operand, and a body taking one element of
    each operand and yielding one per output.

    Ops that are not `LinalgStructuredOperation`s (`linalg.reduce`, say, or a
    `linalg.map`) describe themselves this way and call `run_structured`."""

    op: Operation
    inputs: Sequence[Any]
    input_types: Sequence[Attribute]
    outputs: Sequence[Any]
    output_types: Sequence[Attribute]
    maps: Sequence[AffineMap]
    block: Block
    returns_tensors: bool

    @property
    def name(self) -> str:
        return self.op.name
