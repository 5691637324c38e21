"""The structured-op queries for the linalg ops xDSL 0.74 defines without them.

Upstream, every Linalg structured op answers `getDpsInputs`, `getDpsInits`,
`getIndexingMapsArray` and `getIteratorTypesArray`. xDSL's
`LinalgStructuredOperation`s offer the same as `inputs`, `outputs`,
`get_indexing_maps()` and `get_iterator_types()`, but `linalg.broadcast` and
`linalg.reduce` are plain ops with one `input` and one `init`. Passes that
work on "any structured op" (`linalg_ext.transforms.dps`) need the queries
on them too, so `install_structured_interface` adds them, with upstream's
maps:

- `linalg.broadcast dimensions = [k...]`: loops over the init; the input map
  drops the added dimensions `k...`; all loops parallel.
- `linalg.reduce dimensions = [k...]`: loops over the input; the init map
  drops the reduced dimensions `k...`, which are reduction loops.
"""

from __future__ import annotations

from xdsl.dialects.builtin import AffineMapAttr, ArrayAttr
from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.dialects.linalg.ops import BroadcastOp, ReduceOp
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import AffineMap

from linalg_ext.iterator_types import iterator_types
from linalg_ext.shaped import rank_of_value


def _dimensions(op: BroadcastOp | ReduceOp) -> set[int]:
    return set(op.dimensions.get_values())


def _without_dimensions(op: BroadcastOp | ReduceOp, rank: int) -> AffineMapAttr:
    """The identity on `rank` loops, less the op's `dimensions`."""
    dimensions = _dimensions(op)
    return AffineMapAttr(
        AffineMap.identity(rank).drop_results([d in dimensions for d in range(rank)])
    )


def _inputs(op: BroadcastOp | ReduceOp) -> tuple[SSAValue]:
    return (op.input,)


def _outputs(op: BroadcastOp | ReduceOp) -> tuple[SSAValue]:
    return (op.init,)


def _broadcast_maps(op: BroadcastOp) -> ArrayAttr[AffineMapAttr]:
    rank = rank_of_value(op.init)
    return ArrayAttr(
        (
            _without_dimensions(op, rank),
            AffineMapAttr(AffineMap.identity(rank)),
        )
    )


def _broadcast_iterators(op: BroadcastOp) -> ArrayAttr[IteratorTypeAttr]:
    return iterator_types(rank_of_value(op.init))


def _reduce_maps(op: ReduceOp) -> ArrayAttr[AffineMapAttr]:
    rank = rank_of_value(op.input)
    return ArrayAttr(
        (
            AffineMapAttr(AffineMap.identity(rank)),
            _without_dimensions(op, rank),
        )
    )


def _reduce_iterators(op: ReduceOp) -> ArrayAttr[IteratorTypeAttr]:
    return iterator_types(rank_of_value(op.input), _dimensions(op))


def _attach(cls: type[Operation], name: str, value: object) -> None:
    # Never replace what a newer xDSL defines itself.
    if name not in vars(cls):
        setattr(cls, name, value)


def install_structured_interface() -> None:
    for cls in (BroadcastOp, ReduceOp):
        _attach(cls, "inputs", property(_inputs))
        _attach(cls, "outputs", property(_outputs))
    _attach(BroadcastOp, "get_indexing_maps", _broadcast_maps)
    _attach(BroadcastOp, "get_iterator_types", _broadcast_iterators)
    _attach(ReduceOp, "get_indexing_maps", _reduce_maps)
    _attach(ReduceOp, "get_iterator_types", _reduce_iterators)
