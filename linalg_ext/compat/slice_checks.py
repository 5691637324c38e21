"""Upstream's verifier rules for `tensor.extract_slice`, `tensor.insert_slice`
and `memref.subview`, with MLIR 22's messages.

xDSL 0.74 checks only that the dynamic entries of the offset, size and stride
lists match their operands. MLIR also checks (and `mlir-opt-22` rejects):

- one offset, size and stride per dimension of the sliced type, and no
  negative static offset or size (the offset/size/stride interface);
- the result type (the source type for `insert_slice`): the static sizes, or
  a rank-reduced version of them that drops unit dimensions, with the same
  element type; for `subview` also the strided layout MLIR infers (offset and
  strides), and the memory space;
- slices in bounds where the extent of the sliced dimension and the offset
  (size, stride) are static.

`install_slice_checks()` runs these after xDSL's own verifier. Dynamic values
are never guessed: what MLIR leaves to run time is left to run time here.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence

from xdsl.dialects import memref, tensor
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AffineMapAttr,
    MemRefType,
    NoneAttr,
    StridedLayoutAttr,
    TensorType,
)
from xdsl.ir import Attribute, Operation
from xdsl.ir.affine import AffineMap

from linalg_ext.verification import op_error

Shape = Sequence[int]


def _quoted(value: object) -> str:
    """An attribute as MLIR's diagnostics show it, in single quotes."""
    return f"'{value}'"


def verify_offsets_sizes_strides(
    op: Operation,
    rank: int,
    offsets: Shape,
    sizes: Shape,
    strides: Shape,
) -> None:
    """MLIR's `OffsetSizeAndStrideOpInterface` rules: three lists of the
    sliced type's rank; no negative static offset or size."""
    if len(offsets) != len(sizes):
        op_error(
            op,
            f"expected mixed offsets rank to match mixed sizes rank ({len(offsets)} "
            f"vs {len(sizes)}) so the rank of the result type is well-formed.",
        )
    if len(sizes) != len(strides):
        op_error(
            op,
            f"expected mixed sizes rank to match mixed strides rank ({len(sizes)} "
            f"vs {len(strides)}) so the rank of the result type is well-formed.",
        )
    for name, values in (("offset", offsets), ("size", sizes), ("stride", strides)):
        if len(values) != rank:
            op_error(op, f"expected {rank} {name} values, got {len(values)}")
    for name, values in (("offsets", offsets), ("sizes", sizes)):
        for value in values:
            if value < 0 and value != DYNAMIC_INDEX:
                op_error(op, f"expected {name} to be non-negative, but got {value}")


def verify_in_bounds(
    op: Operation, shape: Shape, offsets: Shape, sizes: Shape, strides: Shape
) -> None:
    """MLIR's `verifyInBoundsSlice`: where the sliced extent and the offset
    are static, the offset is inside; where size and stride are static too,
    so is the last position read."""
    for dim, (extent, offset, size, stride) in enumerate(
        zip(shape, offsets, sizes, strides, strict=True)
    ):
        if extent == DYNAMIC_INDEX or offset == DYNAMIC_INDEX:
            continue
        if offset >= extent:
            op_error(op, f"offset {dim} is out-of-bounds: {offset} >= {extent}")
        if size == DYNAMIC_INDEX or stride == DYNAMIC_INDEX:
            continue
        last = offset + max(0, size - 1) * stride
        if last >= extent:
            op_error(
                op,
                f"slice along dimension {dim} runs out-of-bounds: {last} >= {extent}",
            )


def rank_reduction_mask(original: Shape, reduced: Shape) -> set[int] | None:
    """MLIR's `computeRankReductionMask`: the dimensions of `original` that
    `reduced` drops (unit dimensions only, matched greedily left to right),
    or None if `reduced` is not `original` with some unit dimensions left
    out."""
    dropped: set[int] = set()
    next_reduced = 0
    for index, size in enumerate(original):
        if next_reduced < len(reduced) and size == reduced[next_reduced]:
            next_reduced += 1
            continue
        dropped.add(index)
        if size != 1:
            return None
    return dropped if next_reduced == len(reduced) else None


def _shape_check(expected: Shape, candidate: Shape) -> str | None:
    """MLIR's `isRankReducedType`, shape part: None, "rank" or "size"."""
    if len(candidate) > len(expected):
        return "rank"
    if rank_reduction_mask(expected, candidate) is None:
        return "size"
    return None


# --------------------------------------------------------------------------
# tensor.extract_slice and tensor.insert_slice
# --------------------------------------------------------------------------


def _verify_tensor_slice(
    op: Operation,
    sliced: TensorType[Attribute],
    slice_type: TensorType[Attribute],
    offsets: Shape,
    sizes: Shape,
    strides: Shape,
) -> None:
    sliced_shape = sliced.get_shape()
    verify_offsets_sizes_strides(op, len(sliced_shape), offsets, sizes, strides)
    expected = TensorType(sliced.get_element_type(), sizes, sliced.encoding)
    problem = _shape_check(sizes, slice_type.get_shape())
    if problem == "rank":
        op_error(op, "expected rank to be smaller or equal to the other rank. ")
    if problem == "size":
        op_error(
            op,
            f"expected type to be {_quoted(expected)} or a rank-reduced version. "
            "(size mismatch) ",
        )
    if slice_type.get_element_type() != sliced.get_element_type():
        op_error(
            op, f"expected element type to be {_quoted(sliced.get_element_type())}"
        )
    verify_in_bounds(op, sliced_shape, offsets, sizes, strides)


def verify_extract_slice(op: tensor.ExtractSliceOp) -> None:
    source, result = op.source.type, op.result.type
    if not isinstance(source, TensorType) or not isinstance(result, TensorType):
        return
    _verify_tensor_slice(
        op,
        source,
        result,
        op.static_offsets.get_values(),
        op.static_sizes.get_values(),
        op.static_strides.get_values(),
    )


def verify_insert_slice(op: tensor.InsertSliceOp) -> None:
    dest, source = op.dest.type, op.source.type
    if not isinstance(dest, TensorType) or not isinstance(source, TensorType):
        return
    _verify_tensor_slice(
        op,
        dest,
        source,
        op.static_offsets.get_values(),
        op.static_sizes.get_values(),
        op.static_strides.get_values(),
    )


# --------------------------------------------------------------------------
# memref.subview
# --------------------------------------------------------------------------


def _canonical_strides(shape: Shape) -> list[int]:
    """The strides of the identity layout; dynamic past a dynamic extent."""
    strides: list[int] = []
    running = 1
    for size in reversed(shape):
        strides.append(running)
        if running != DYNAMIC_INDEX:
            running = DYNAMIC_INDEX if size == DYNAMIC_INDEX else running * size
    return strides[::-1]


def strides_and_offset(type_: MemRefType[Attribute]) -> tuple[list[int], int] | None:
    """The layout's strides and offset (DYNAMIC_INDEX where dynamic), for the
    identity and `strided<...>` layouts; None for any other layout (an affine
    map that is not the identity), which these checks leave alone."""
    layout = type_.layout
    if isinstance(layout, NoneAttr) or (
        isinstance(layout, AffineMapAttr)
        and layout.data == AffineMap.identity(len(type_.get_shape()))
    ):
        return _canonical_strides(type_.get_shape()), 0
    if isinstance(layout, StridedLayoutAttr):
        strides = [DYNAMIC_INDEX if s is None else s for s in layout.get_strides()]
        offset = layout.get_offset()
        return strides, DYNAMIC_INDEX if offset is None else offset
    return None


def _times(a: int, b: int) -> int:
    """MLIR's saturated product: 0 wins over dynamic."""
    if a == 0 or b == 0:
        return 0
    if DYNAMIC_INDEX in (a, b):
        return DYNAMIC_INDEX
    return a * b


def _plus(a: int, b: int) -> int:
    return DYNAMIC_INDEX if DYNAMIC_INDEX in (a, b) else a + b


def _dropped_strided_dims(
    expected_strides: Sequence[int],
    candidate_strides: Sequence[int],
    sizes: Shape,
    candidate_rank: int,
) -> set[int] | None:
    """MLIR's `computeMemRefRankReductionMask`: which unit dimensions were
    dropped, told apart by their strides when several are of size 1."""
    rank = len(sizes)
    dropped = {index for index, size in enumerate(sizes) if size == 1}
    if rank == candidate_rank:
        return set()
    if len(dropped) + candidate_rank == rank:
        return dropped
    unaccounted = Counter(expected_strides)
    in_candidate = Counter(candidate_strides)
    for dim in sorted(dropped):
        stride = expected_strides[dim]
        if unaccounted[stride] > in_candidate[stride]:
            unaccounted[stride] -= 1
        elif unaccounted[stride] == in_candidate[stride]:
            dropped.discard(dim)
        else:
            return None
    return dropped if len(dropped) + candidate_rank == rank else None


def verify_subview(op: memref.SubviewOp) -> None:
    source = op.source.type
    result = op.result.type
    if not isinstance(source, MemRefType) or not isinstance(result, MemRefType):
        return
    offsets = op.static_offsets.get_values()
    sizes = op.static_sizes.get_values()
    strides = op.static_strides.get_values()
    verify_offsets_sizes_strides(op, len(source.get_shape()), offsets, sizes, strides)
    if source.memory_space != result.memory_space:
        op_error(
            op,
            f"different memory spaces specified for base memref type "
            f"{_quoted(source)} and subview memref type {_quoted(result)}",
        )
    source_layout = strides_and_offset(source)
    if source_layout is None:
        return
    source_strides, source_offset = source_layout
    expected_strides = [
        _times(s, t) for s, t in zip(source_strides, strides, strict=True)
    ]
    expected_offset = source_offset
    for offset, stride in zip(offsets, source_strides, strict=True):
        expected_offset = _plus(expected_offset, _times(offset, stride))
    expected = MemRefType(
        source.get_element_type(),
        sizes,
        StridedLayoutAttr(
            [None if s == DYNAMIC_INDEX else s for s in expected_strides],
            None if expected_offset == DYNAMIC_INDEX else expected_offset,
        ),
        source.memory_space,
    )
    problem = _shape_check(sizes, result.get_shape())
    if problem == "rank":
        op_error(
            op,
            "expected result rank to be smaller or equal to the source rank, "
            f"but got {_quoted(result)}",
        )
    if problem == "size":
        op_error(
            op,
            f"expected result type to be {_quoted(expected)} or a rank-reduced "
            f"version. (mismatch of result sizes), but got {_quoted(result)}",
        )
    if result.get_element_type() != source.get_element_type():
        op_error(
            op,
            f"expected result element type to be "
            f"{_quoted(source.get_element_type())}, but got {_quoted(result)}",
        )
    result_layout = strides_and_offset(result)
    layout_error = (
        f"expected result type to be {_quoted(expected)} or a rank-reduced "
        f"version. (mismatch of result layout), but got {_quoted(result)}"
    )
    if result_layout is None:
        # An affine-map layout: MLIR may still find it strided; not judged.
        verify_in_bounds(op, source.get_shape(), offsets, sizes, strides)
        return
    result_strides, result_offset = result_layout
    if result_offset != expected_offset:
        op_error(op, layout_error)
    dropped = _dropped_strided_dims(
        expected_strides, result_strides, sizes, len(result.get_shape())
    )
    if dropped is None:
        op_error(op, layout_error)
    kept = [s for i, s in enumerate(expected_strides) if i not in dropped]
    if kept != list(result_strides):
        op_error(op, layout_error)
    verify_in_bounds(op, source.get_shape(), offsets, sizes, strides)


def chain_verifier(
    cls: type[Operation], check: Callable[..., None], *, first: bool = False
) -> None:
    """Run `check(op)` after (or, with `first`, before) the class's own
    verifier."""
    original = cls.verify_

    def verify_(op: Operation) -> None:
        if first:
            check(op)
            original(op)
        else:
            original(op)
            check(op)

    verify_.__doc__ = original.__doc__
    cls.verify_ = verify_  # pyright: ignore[reportAttributeAccessIssue]


def install_slice_checks() -> None:
    chain_verifier(tensor.ExtractSliceOp, verify_extract_slice)
    chain_verifier(tensor.InsertSliceOp, verify_insert_slice)
    chain_verifier(memref.SubviewOp, verify_subview)
