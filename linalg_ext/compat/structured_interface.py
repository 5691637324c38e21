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

from xdsl.dialects.builtin import AffineMapAttr, ArrayAttr, ShapedType
from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.dialects.linalg.ops import BroadcastOp, ReduceOp
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap


def _rank(value: SSAValue) -> int:
    assert isinstance(value.type, ShapedType)
    return len(value.type.get_shape())


def _dropping(rank: int, dropped: set[int]) -> AffineMap:
    """(d0, ..., d{rank-1}) -> the dims not in `dropped`, in order."""
    kept = [AffineExpr.dimension(d) for d in range(rank) if d not in dropped]
    return AffineMap(rank, 0, tuple(kept))


def _dimensions(op: BroadcastOp | ReduceOp) -> set[int]:
    return set(op.dimensions.get_values())


def _inputs(op: BroadcastOp | ReduceOp) -> tuple[SSAValue]:
    return (op.input,)


def _outputs(op: BroadcastOp | ReduceOp) -> tuple[SSAValue]:
    return (op.init,)


def _broadcast_maps(op: BroadcastOp) -> ArrayAttr[AffineMapAttr]:
    rank = _rank(op.init)
    return ArrayAttr(
        (
            AffineMapAttr(_dropping(rank, _dimensions(op))),
            AffineMapAttr(AffineMap.identity(rank)),
        )
    )


def _broadcast_iterators(op: BroadcastOp) -> ArrayAttr[IteratorTypeAttr]:
    return ArrayAttr((IteratorTypeAttr.parallel(),) * _rank(op.init))


def _reduce_maps(op: ReduceOp) -> ArrayAttr[AffineMapAttr]:
    rank = _rank(op.input)
    return ArrayAttr(
        (
            AffineMapAttr(AffineMap.identity(rank)),
            AffineMapAttr(_dropping(rank, _dimensions(op))),
        )
    )


def _reduce_iterators(op: ReduceOp) -> ArrayAttr[IteratorTypeAttr]:
    reduced = _dimensions(op)
    parallel, reduction = IteratorTypeAttr.parallel(), IteratorTypeAttr.reduction()
    return ArrayAttr(
        tuple(reduction if d in reduced else parallel for d in range(_rank(op.input)))
    )


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
