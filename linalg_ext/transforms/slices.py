"""Building `tensor.extract_slice` and `tensor.insert_slice` from mixed
(static or dynamic) offsets, sizes and strides, or from the slice an
insertion writes."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import tensor
from xdsl.dialects.builtin import DYNAMIC_INDEX, TensorType
from xdsl.dialects.utils import get_dynamic_index_list, split_dynamic_index_list
from xdsl.ir import SSAValue

from linalg_ext.compat.forall_ops import ParallelInsertSliceOp
from linalg_ext.transforms.mixed_sizes import Mixed


def extract_slice(
    source: SSAValue,
    offsets: Sequence[Mixed],
    sizes: Sequence[Mixed],
    strides: Sequence[Mixed] | None = None,
) -> tensor.ExtractSliceOp:
    """A slice of `source` of the given sizes (static where they are), unit
    strides unless given."""
    assert isinstance(source.type, TensorType)
    strides = [1] * len(sizes) if strides is None else strides
    result_type = tensor.ExtractSliceOp.infer_result_type(source.type, sizes)
    return tensor.ExtractSliceOp(source, offsets, sizes, strides, result_type)


def insert_slice(
    source: SSAValue,
    dest: SSAValue,
    offsets: Sequence[Mixed],
    sizes: Sequence[Mixed],
    strides: Sequence[Mixed] | None = None,
) -> tensor.InsertSliceOp:
    """`source` written into `dest` at the given place, unit strides unless
    given. (xDSL's `InsertSliceOp` has no builder from mixed values, as
    `ExtractSliceOp` has: `get` takes the two halves of each list.)"""
    strides = [1] * len(sizes) if strides is None else strides
    static_offsets, dynamic_offsets = split_dynamic_index_list(offsets, DYNAMIC_INDEX)
    static_sizes, dynamic_sizes = split_dynamic_index_list(sizes, DYNAMIC_INDEX)
    static_strides, dynamic_strides = split_dynamic_index_list(strides, DYNAMIC_INDEX)
    return tensor.InsertSliceOp.get(
        source,
        dest,
        static_sizes,
        static_offsets,
        static_strides,
        dynamic_offsets,
        dynamic_sizes,
        dynamic_strides,
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


SliceOp = tensor.ExtractSliceOp | tensor.InsertSliceOp | ParallelInsertSliceOp
"""The ops that name a slice by offsets, sizes and strides."""


def slice_offsets(op: SliceOp) -> list[Mixed]:
    """The offsets of a slice op, static or dynamic as they are."""
    return get_dynamic_index_list(
        op.static_offsets.get_values(), op.offsets, DYNAMIC_INDEX
    )


def slice_sizes(op: SliceOp) -> list[Mixed]:
    """The sizes of a slice op, static or dynamic as they are."""
    return get_dynamic_index_list(op.static_sizes.get_values(), op.sizes, DYNAMIC_INDEX)


def slice_strides(op: SliceOp) -> list[Mixed]:
    """The strides of a slice op, static or dynamic as they are."""
    return get_dynamic_index_list(
        op.static_strides.get_values(), op.strides, DYNAMIC_INDEX
    )
