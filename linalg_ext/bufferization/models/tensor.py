"""Bufferization of the `tensor` ops that make, view and update tensors.

`empty` allocates; `extract_slice`, `cast`, `expand_shape` and
`collapse_shape` are views of their source's buffer; `insert` and
`insert_slice` write into their destination's buffer; `extract` and `dim`
only read.

The loads, stores, subviews, expansions, casts and copies made from
`extract`, `insert`, `extract_slice`, `insert_slice`,
`parallel_insert_slice`, `expand_shape` and `cast` (all but the first two
where checked at run time: something dynamic) carry the discardable
attribute `rtcheck.origin` (linalg_ext/dialect/runtime_check.py's `ORIGIN`)
naming their tensor op: `insert-runtime-checks` then
reports a bounds violation under that name, with the text the interpreter
gives for the tensor op (e.g. "tensor.extract: index [5] is out of bounds
of shape [3]" rather than "memref.load: ...")."""

from __future__ import annotations

import math

from xdsl.dialects import arith, memref, tensor
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    IntegerAttr,
    MemRefType,
    StringAttr,
    TensorType,
)
from xdsl.ir import Operation, OpResult, SSAValue

from linalg_ext.bufferization.interface import (
    AliasingValue,
    AnalysisQueries,
    BufferizableOpModel,
    BufferizerServices,
    BufferRelation,
    OpOperand,
    register_model,
    tensor_type_of,
)
from linalg_ext.bufferization.layouts import (
    collapsed_type,
    expanded_type,
    guaranteed_collapsible,
    subview_type,
)
from linalg_ext.compat.forall_ops import ParallelInsertSliceOp
from linalg_ext.dialect.runtime_check import ORIGIN
from linalg_ext.semantics.static_rules import (
    kept_slice_dims,
    memory_bytes,
    reassociation_groups,
)


def mark_origin(access: Operation, origin: Operation) -> Operation:
    """Mark `access` (a load, store, subview, dim or alloc) as made from
    `origin`."""
    access.attributes[ORIGIN] = StringAttr(origin.name)
    return access


def mark_allocation(buffer: SSAValue, origin: Operation) -> None:
    """Mark the `memref.alloc` of `buffer`, made for `origin` (a
    `tensor.empty`, `bufferization.alloc_tensor`), as made from it when it
    may fail a size check (a dynamic size, or a static shape that may not
    fit in memory: 8 bytes is the largest element compiled code supports),
    so that the failure names `origin` as the interpreter does."""
    alloc = buffer.owner
    assert isinstance(alloc, memref.AllocOp)
    type_ = alloc.memref.type
    assert isinstance(type_, MemRefType)
    if alloc.dynamic_sizes or 8 * math.prod(type_.get_shape()) > memory_bytes():
        mark_origin(alloc, origin)


class EmptyOpModel(BufferizableOpModel):
    """A new buffer of undefined contents."""

    def result_writes(self, value: SSAValue, state: AnalysisQueries) -> bool:
        return False

    def allocates(self, value: SSAValue) -> bool:
        return True

    def bufferize(self, op: Operation, bufferizer: BufferizerServices) -> None:
        assert isinstance(op, tensor.EmptyOp)
        if not op.tensor.uses:
            bufferizer.erase(op)
            return
        memref_type = bufferizer.default_type(tensor_type_of(op.tensor))
        buffer = bufferizer.allocate(memref_type, list(op.dynamic_sizes))
        mark_allocation(buffer, op)
        bufferizer.replace_op(op, [buffer])


class ReadOnlyModel(BufferizableOpModel):
    """An op that reads its tensor operand and makes no tensor."""

    def reads(self, operand: OpOperand, state: AnalysisQueries) -> bool:
        return True


def _constant_within(value: SSAValue, rank: int) -> bool:
    """`value` is an `arith.constant` in `[0, rank)`."""
    owner = value.owner
    return (
        isinstance(owner, arith.ConstantOp)
        and isinstance(owner.value, IntegerAttr)
        and 0 <= owner.value.value.data < rank
    )


class DimOpModel(BufferizableOpModel):
    def reads(self, operand: OpOperand, state: AnalysisQueries) -> bool:
        return False

    def bufferize(self, op: Operation, bufferizer: BufferizerServices) -> None:
        assert isinstance(op, tensor.DimOp)
        dim = memref.DimOp(bufferizer.buffer(op.source), op.index)
        if not _constant_within(op.index, len(tensor_type_of(op.source).shape)):
            mark_origin(dim, op)  # checked at run time: named tensor.dim
        bufferizer.insert(dim)
        bufferizer.replace_op(op, [dim.result])


class ExtractOpModel(ReadOnlyModel):
    def bufferize(self, op: Operation, bufferizer: BufferizerServices) -> None:
        assert isinstance(op, tensor.ExtractOp)
        load = memref.LoadOp.get(bufferizer.buffer(op.tensor), list(op.indices))
        bufferizer.insert(mark_origin(load, op))
        bufferizer.replace_op(op, [load.res])


class ViewModel(BufferizableOpModel):
    """A result that is a view of operand 0's buffer: no read, no write."""

    relation = BufferRelation.EQUIVALENT

    def reads(self, operand: OpOperand, state: AnalysisQueries) -> bool:
        return False

    def aliasing_values(
        self, operand: OpOperand, state: AnalysisQueries
    ) -> list[AliasingValue]:
        if operand.index != 0:
            return []
        return [AliasingValue(operand.op.results[0], self.relation)]


class CastOpModel(ViewModel):
    def buffer_type(
        self, value: SSAValue, bufferizer: BufferizerServices
    ) -> MemRefType:
        assert isinstance(value, OpResult)
        source = bufferizer.buffer_type(value.op.operands[0])
        result = tensor_type_of(value)
        return MemRefType(
            result.get_element_type(),
            result.get_shape(),
            source.layout,
            source.memory_space,
        )

    def bufferize(self, op: Operation, bufferizer: BufferizerServices) -> None:
        assert isinstance(op, tensor.CastOp)
        memref_type = bufferizer.buffer_type(op.dest)
        cast = memref.CastOp.get(bufferizer.buffer(op.source), memref_type)
        if any(
            size == DYNAMIC_INDEX and want != DYNAMIC_INDEX
            for size, want in zip(
                tensor_type_of(op.source).get_shape(),
                memref_type.get_shape(),
                strict=True,
            )
        ):
            # Checked at run time (the source must have the static sizes).
            mark_origin(cast, op)
        bufferizer.insert(cast)
        bufferizer.replace_op(op, [cast.results[0]])


class ExpandShapeOpModel(ViewModel):
    def buffer_type(
        self, value: SSAValue, bufferizer: BufferizerServices
    ) -> MemRefType:
        assert isinstance(value, OpResult)
        op = value.op
        assert isinstance(op, tensor.ExpandShapeOp)
        return expanded_type(
            bufferizer.buffer_type(op.src),
            tensor_type_of(value).get_shape(),
            reassociation_groups(op.reassociation),
        )

    def bufferize(self, op: Operation, bufferizer: BufferizerServices) -> None:
        assert isinstance(op, tensor.ExpandShapeOp)
        expand = memref.ExpandShapeOp.create(
            operands=[bufferizer.buffer(op.src), *op.dynamic_output_shape],
            result_types=[bufferizer.buffer_type(op.result)],
            properties={
                "reassociation": op.reassociation,
                "static_output_shape": op.static_output_shape,
            },
        )
        if (
            op.dynamic_output_shape
            or DYNAMIC_INDEX in tensor_type_of(op.src).get_shape()
        ):
            # Checked at run time (the sizes must make up the source's).
            mark_origin(expand, op)
        bufferizer.insert(expand)
        bufferizer.replace_op(op, [expand.results[0]])


class CollapseShapeOpModel(ViewModel):
    def reads(self, operand: OpOperand, state: AnalysisQueries) -> bool:
        # A source that cannot be collapsed as it lies is copied first.
        return True

    def buffer_type(
        self, value: SSAValue, bufferizer: BufferizerServices
    ) -> MemRefType:
        assert isinstance(value, OpResult)
        op = value.op
        assert isinstance(op, tensor.CollapseShapeOp)
        source = bufferizer.buffer_type(op.src)
        groups = reassociation_groups(op.reassociation)
        if not guaranteed_collapsible(source, groups):
            source = bufferizer.default_type(tensor_type_of(op.src))
        return collapsed_type(source, tensor_type_of(value).get_shape(), groups)

    def bufferize(self, op: Operation, bufferizer: BufferizerServices) -> None:
        assert isinstance(op, tensor.CollapseShapeOp)
        buffer = bufferizer.buffer(op.src)
        groups = reassociation_groups(op.reassociation)
        source_type = buffer.type
        assert isinstance(source_type, MemRefType)
        if not guaranteed_collapsible(source_type, groups):
            # The dimensions may not be contiguous: collapse a packed copy.
            fresh = bufferizer.allocate_like(buffer)
            bufferizer.copy(buffer, fresh)
            buffer = fresh
        collapse = memref.CollapseShapeOp.create(
            operands=[buffer],
            result_types=[bufferizer.buffer_type(op.result)],
            properties={"reassociation": op.reassociation},
        )
        bufferizer.insert(collapse)
        bufferizer.replace_op(op, [collapse.results[0]])


SliceOp = tensor.ExtractSliceOp | tensor.InsertSliceOp | ParallelInsertSliceOp
"""The ops that name a slice of a tensor by offsets, sizes and strides."""


def slice_buffer_type(
    source: MemRefType, op: SliceOp, slice_type: TensorType
) -> MemRefType:
    """The subview type of the slice `op` names in a buffer of type
    `source`, rank-reduced to `slice_type`'s shape."""
    sizes = list(op.static_sizes.get_values())
    kept = kept_slice_dims(sizes, slice_type.get_shape(), op.name)
    return subview_type(
        source,
        list(op.static_offsets.get_values()),
        sizes,
        list(op.static_strides.get_values()),
        kept,
    )


def make_subview(
    bufferizer: BufferizerServices,
    buffer: SSAValue,
    op: SliceOp,
    slice_type: TensorType,
) -> SSAValue:
    """A subview of `buffer` on the slice `op` (an extract/insert slice)
    names."""
    source_type = buffer.type
    assert isinstance(source_type, MemRefType)
    subview = memref.SubviewOp(
        buffer,
        list(op.offsets),
        list(op.sizes),
        list(op.strides),
        op.static_offsets,
        op.static_sizes,
        op.static_strides,
        slice_buffer_type(source_type, op, slice_type),
    )
    checked = (
        op.offsets or op.sizes or op.strides or DYNAMIC_INDEX in source_type.get_shape()
    )
    if checked:
        # Checked at run time: the interpreter's message names the tensor op.
        mark_origin(subview, op)
    bufferizer.insert(subview)
    return subview.result


class ExtractSliceOpModel(ViewModel):
    relation = BufferRelation.UNKNOWN

    def buffer_type(
        self, value: SSAValue, bufferizer: BufferizerServices
    ) -> MemRefType:
        assert isinstance(value, OpResult)
        op = value.op
        assert isinstance(op, tensor.ExtractSliceOp)
        return slice_buffer_type(
            bufferizer.buffer_type(op.source), op, tensor_type_of(value)
        )

    def bufferize(self, op: Operation, bufferizer: BufferizerServices) -> None:
        assert isinstance(op, tensor.ExtractSliceOp)
        view = make_subview(
            bufferizer, bufferizer.buffer(op.source), op, tensor_type_of(op.result)
        )
        bufferizer.replace_op(op, [view])


def same_subview(buffer: SSAValue, destination: SSAValue, op: SliceOp) -> bool:
    """Whether `buffer` already is the subview of `destination` that `op`
    inserts into (the insertion is then a copy onto itself)."""
    if not isinstance(buffer, OpResult) or not isinstance(buffer.op, memref.SubviewOp):
        return False
    view = buffer.op
    return (
        view.source is destination
        and view.static_offsets == op.static_offsets
        and view.static_sizes == op.static_sizes
        and view.static_strides == op.static_strides
        and tuple(view.offsets) == tuple(op.offsets)
        and tuple(view.sizes) == tuple(op.sizes)
        and tuple(view.strides) == tuple(op.strides)
    )


def covers_destination(op: tensor.InsertSliceOp | ParallelInsertSliceOp) -> bool:
    """Whether an insert_slice (or parallel_insert_slice) writes all of its
    destination: static offsets 0, strides 1, sizes the destination's."""
    return (
        not op.offsets
        and not op.sizes
        and not op.strides
        and all(v == 0 for v in op.static_offsets.get_values())
        and all(v == 1 for v in op.static_strides.get_values())
        and list(op.static_sizes.get_values())
        == list(tensor_type_of(op.operands[1]).get_shape())
    )


def copy_into_slice(
    bufferizer: BufferizerServices,
    source: SSAValue,
    destination: SSAValue,
    op: tensor.InsertSliceOp | ParallelInsertSliceOp,
) -> None:
    """Copy `source` into the subview of `destination` that `op` names
    (nothing if `source` already is it). A copy whose shapes are checked at
    run time (the source must fill the slice) names `op`."""
    if same_subview(source, destination, op):
        return
    view = make_subview(bufferizer, destination, op, tensor_type_of(op.source))
    copy = memref.CopyOp(source, view)
    view_type = view.type
    assert isinstance(view_type, MemRefType)
    shapes = (*tensor_type_of(op.source).get_shape(), *view_type.get_shape())
    if DYNAMIC_INDEX in shapes:
        mark_origin(copy, op)
    bufferizer.insert(copy)


class WritesDestinationModel(BufferizableOpModel):
    """An op that writes its operand #1 (the destination) and returns it."""

    def writes(self, operand: OpOperand, state: AnalysisQueries) -> bool:
        return operand.index == 1

    def aliasing_values(
        self, operand: OpOperand, state: AnalysisQueries
    ) -> list[AliasingValue]:
        if operand.index != 1:
            return []
        return [AliasingValue(operand.op.results[0], BufferRelation.EQUIVALENT)]


class InsertSliceOpModel(WritesDestinationModel):
    """Writes the source into a subset of the destination."""

    def reads(self, operand: OpOperand, state: AnalysisQueries) -> bool:
        # The source is read; the rest of the destination is kept (read)
        # unless the slice is all of it.
        if operand.index == 0:
            return True
        op = operand.op
        assert isinstance(op, tensor.InsertSliceOp)
        return operand.index == 1 and not covers_destination(op)

    def bufferize(self, op: Operation, bufferizer: BufferizerServices) -> None:
        assert isinstance(op, tensor.InsertSliceOp)
        destination = bufferizer.buffer(op.dest)
        source = bufferizer.buffer(op.source)
        copy_into_slice(bufferizer, source, destination, op)
        bufferizer.replace_op(op, [destination])


class InsertOpModel(WritesDestinationModel):
    def reads(self, operand: OpOperand, state: AnalysisQueries) -> bool:
        return operand.index == 1

    def bufferize(self, op: Operation, bufferizer: BufferizerServices) -> None:
        assert isinstance(op, tensor.InsertOp)
        destination = bufferizer.buffer(op.dest)
        store = memref.StoreOp.get(op.scalar, destination, list(op.indices))
        bufferizer.insert(mark_origin(store, op))
        bufferizer.replace_op(op, [destination])


register_model(tensor.EmptyOp, EmptyOpModel())
register_model(tensor.DimOp, DimOpModel())
register_model(tensor.ExtractOp, ExtractOpModel())
register_model(tensor.CastOp, CastOpModel())
register_model(tensor.ExpandShapeOp, ExpandShapeOpModel())
register_model(tensor.CollapseShapeOp, CollapseShapeOpModel())
register_model(tensor.ExtractSliceOp, ExtractSliceOpModel())
register_model(tensor.InsertSliceOp, InsertSliceOpModel())
register_model(tensor.InsertOp, InsertOpModel())
