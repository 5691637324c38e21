"""Building `tensor.extract_slice` and `tensor.insert_slice` from mixed
(static or dynamic) offsets, sizes and strides, or from the slice an
insertion writes."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import tensor
from xdsl.dialects.builtin import DenseArrayBase, TensorType, i64
from xdsl.ir import SSAValue

from linalg_ext.compat.forall_ops import ParallelInsertSliceOp
from linalg_ext.transforms.mixed_sizes import Mixed, split_mixed


def extract_slice(
    source: SSAValue,
    offsets: Sequence[Mixed],
    sizes: Sequence[Mixed],
    strides: Sequence[Mixed] | None = None,
) -> tensor.ExtractSliceOp:
    """A slice of `source` of the given sizes (static where they are)."""
    assert isinstance(source.type, TensorType)
    strides = [1] * len(sizes) if strides is None else strides
    static_sizes, _ = split_mixed(sizes)
    result_type = TensorType(source.type.get_element_type(), static_sizes)
    return tensor.ExtractSliceOp(source, offsets, sizes, strides, result_type)


def insert_slice(
    source: SSAValue,
    dest: SSAValue,
    offsets: Sequence[Mixed],
    sizes: Sequence[Mixed],
    strides: Sequence[Mixed] | None = None,
) -> tensor.InsertSliceOp:
    """`source` written into `dest` at the given place."""
    strides = [1] * len(sizes) if strides is None else strides
    static_offsets, dynamic_offsets = split_mixed(offsets)
    static_sizes, dynamic_sizes = split_mixed(sizes)
    static_strides, dynamic_strides = split_mixed(strides)
    return tensor.InsertSliceOp.build(
        operands=[source, dest, dynamic_offsets, dynamic_sizes, dynamic_strides],
        properties={
            "static_offsets": DenseArrayBase.from_list(i64, static_offsets),
            "static_sizes": DenseArrayBase.from_list(i64, static_sizes),
            "static_strides": DenseArrayBase.from_list(i64, static_strides),
        },
        result_types=[dest.type],
    )


def slice_inserted_by(
    insertion: tensor.InsertSliceOp | ParallelInsertSliceOp,
) -> tensor.ExtractSliceOp:
    """The `tensor.extract_slice` of the slice of its dest that an
    `insert_slice` or `parallel_insert_slice` writes: the same offsets, sizes
    and strides (static and dynamic as they are), typed like the inserted
    source, so rank-reduced when the insertion is."""
    return tensor.ExtractSliceOp.build(
        operands=[
            insertion.dest,
            insertion.offsets,
            insertion.sizes,
            insertion.strides,
        ],
        properties={
            "static_offsets": insertion.static_offsets,
            "static_sizes": insertion.static_sizes,
            "static_strides": insertion.static_strides,
        },
        result_types=[insertion.source.type],
    )
