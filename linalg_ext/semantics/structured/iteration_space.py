"""The iteration space of a structured op, and its operands over parts of it.

A `Box` is a part of the space (a range per loop). Values over a box are
arrays with one axis per loop: `load_operand` reads an operand through its
indexing map that way and `store_output` writes an output back;
`loop_ranges` reads the extent of each loop off the operands' run-time
shapes and checks that every access is in bounds.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np
from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineDimExpr,
    AffineExpr,
    AffineMap,
)
from xdsl.utils.exceptions import InterpretationError

Box = tuple[tuple[int, int], ...]
"""A part of the iteration space: (start, stop) for each loop."""


def loop_indices(box: Box, dim: int) -> np.ndarray:
    """The values of loop `dim` over `box`, along axis `dim`."""
    start, stop = box[dim]
    shape = [1] * len(box)
    shape[dim] = stop - start
    return np.arange(start, stop, dtype=np.int64).reshape(shape)


def _affine_values(expr: AffineExpr, box: Box, name: str) -> np.ndarray | int:
    """An indexing map result evaluated over `box` (broadcast over the loops)."""
    if isinstance(expr, AffineConstantExpr):
        return expr.value
    if isinstance(expr, AffineDimExpr):
        return loop_indices(box, expr.position)
    if isinstance(expr, AffineBinaryOpExpr):
        lhs = _affine_values(expr.lhs, box, name)
        rhs = _affine_values(expr.rhs, box, name)
        match expr.kind:
            case AffineBinaryOpKind.Add:
                return lhs + rhs
            case AffineBinaryOpKind.Mul:
                return lhs * rhs
        if np.any(np.asarray(rhs) <= 0):
            raise InterpretationError(
                f"{name}: indexing map divides by a non-positive value in {expr}"
            )
        match expr.kind:
            case AffineBinaryOpKind.Mod:
                return lhs % rhs
            case AffineBinaryOpKind.FloorDiv:
                return lhs // rhs
            case AffineBinaryOpKind.CeilDiv:
                return -((-lhs) // rhs)
    raise InterpretationError(f"{name}: indexing maps with symbols are not supported")


def loop_ranges(
    name: str, maps: Sequence[AffineMap], shapes: Sequence[Sequence[int]]
) -> tuple[int, ...]:
    """The extent of each loop, read off the runtime shapes of the operands
    (so dynamic shapes work), after checking the operands agree on it."""
    ndim = maps[0].num_dims if maps else 0
    ranges: list[int | None] = [None] * ndim
    for index, (indexing_map, shape) in enumerate(zip(maps, shapes, strict=True)):
        if len(indexing_map.results) != len(shape):
            raise InterpretationError(
                f"{name}: operand #{index} has rank {len(shape)} but its "
                f"indexing map has {len(indexing_map.results)} results"
            )
        for result, size in zip(indexing_map.results, shape, strict=True):
            if isinstance(result, AffineDimExpr) and ranges[result.position] is None:
                ranges[result.position] = size
    if None in ranges:
        raise InterpretationError(
            f"{name}: loop d{ranges.index(None)} is not the size of any operand "
            "dimension, so its range is unknown"
        )
    extents = tuple(r for r in ranges if r is not None)
    for index, (indexing_map, shape) in enumerate(zip(maps, shapes, strict=True)):
        for dim, (result, size) in enumerate(
            zip(indexing_map.results, shape, strict=True)
        ):
            if isinstance(result, AffineDimExpr):
                if size != extents[result.position]:
                    raise InterpretationError(
                        f"{name}: operand #{index} has size {size} in dimension "
                        f"{dim}, but loop d{result.position} runs "
                        f"{extents[result.position]} times"
                    )
            elif math.prod(extents):
                values = _affine_values(result, full_box(extents), name)
                low, high = int(np.min(values)), int(np.max(values))
                if low < 0 or high >= size:
                    raise InterpretationError(
                        f"{name}: operand #{index} is accessed at indices "
                        f"{low}..{high} in dimension {dim}, of size {size}"
                    )
    return extents


def full_box(ranges: Sequence[int]) -> Box:
    return tuple((0, r) for r in ranges)


def load_operand(
    stored: Any, indexing_map: AffineMap, box: Box, name: str
) -> np.ndarray:
    """An operand's elements at every point of `box`, one axis per loop."""
    ndim = len(box)
    if not isinstance(stored, np.ndarray):
        raise InterpretationError(f"{name}: scalar operand where an array is expected")
    results = indexing_map.results
    simple = [r for r in results if isinstance(r, AffineDimExpr | AffineConstantExpr)]
    if len(simple) == len(results):
        dims = [r.position for r in simple if isinstance(r, AffineDimExpr)]
        if len(set(dims)) == len(dims):
            # A view: slices for loops, fixed indices for constants, then the
            # axes put in loop order with unit axes for the loops not used.
            # The trailing Ellipsis keeps a rank-0 selection an array.
            index = (
                *(
                    slice(*box[r.position]) if isinstance(r, AffineDimExpr) else r.value
                    for r in simple
                ),
                Ellipsis,
            )
            view = stored[index]
            order = sorted(range(len(dims)), key=dims.__getitem__)
            view = view.transpose(order)
            missing = tuple(d for d in range(ndim) if d not in dims)
            return np.expand_dims(view, missing) if missing else view
    indices = [_affine_values(r, box, name) for r in results]
    if not indices:
        return stored.reshape((1,) * ndim)
    gathered = stored[tuple(indices)]
    return np.asarray(gathered).reshape(
        np.broadcast_shapes(*(np.shape(i) for i in indices), (1,) * ndim)
    )


def store_output(
    stored: np.ndarray, dims: tuple[int, ...], values: np.ndarray, box: Box
) -> None:
    """Write `values` (one axis per loop, unit along the loops not in `dims`)
    into the output whose indexing map is the projection onto `dims`."""
    kept = sorted(dims)
    values = values.reshape([values.shape[d] for d in kept])
    values = values.transpose([kept.index(d) for d in dims])
    stored[tuple(slice(*box[d]) for d in dims)] = values
