"""Bufferization of the `bufferization` ops themselves."""

from __future__ import annotations

from xdsl.dialects import bufferization
from xdsl.dialects.builtin import MemRefType, TensorType
from xdsl.ir import Operation, SSAValue

from linalg_ext.bufferization.interface import (
    AliasingValue,
    AnalysisQueries,
    BufferizableOpModel,
    BufferizerServices,
    BufferRelation,
    OpOperand,
    register_model,
)
from linalg_ext.bufferization.models.tensor import mark_allocation


class AllocTensorOpModel(BufferizableOpModel):
    """A new buffer; with `copy(%t)`, a copy of %t's contents."""

    def reads(self, operand: OpOperand, state: AnalysisQueries) -> bool:
        return True

    def result_writes(self, value: SSAValue, state: AnalysisQueries) -> bool:
        op = value.owner
        assert isinstance(op, bufferization.AllocTensorOp)
        return op.copy is not None

    def allocates(self, value: SSAValue) -> bool:
        return True

    def bufferize(self, op: Operation, bufferizer: BufferizerServices) -> None:
        assert isinstance(op, bufferization.AllocTensorOp)
        if not op.tensor.uses:
            bufferizer.erase(op)
            return
        tensor_type = op.tensor.type
        assert isinstance(tensor_type, TensorType)
        memref_type = bufferizer.default_type(tensor_type)
        if op.copy is not None:
            source = bufferizer.buffer(op.copy)
            buffer = bufferizer.allocate(
                memref_type, bufferizer.dynamic_sizes_of(source)
            )
            bufferizer.copy(source, buffer)
        else:
            buffer = bufferizer.allocate(memref_type, list(op.dynamic_sizes))
        mark_allocation(buffer, op)
        bufferizer.replace_op(op, [buffer])


class ToTensorOpModel(BufferizableOpModel):
    """The boundary from a buffer: nothing to rewrite. Its result may be
    written only if the op says `writable`."""

    def is_writable(self, value: SSAValue, state: AnalysisQueries) -> bool:
        op = value.owner
        assert isinstance(op, bufferization.ToTensorOp)
        return op.writable is not None

    def bufferize(self, op: Operation, bufferizer: BufferizerServices) -> None:
        return None


class ToBufferOpModel(BufferizableOpModel):
    """The boundary to a buffer: whoever uses the buffer may read it, and
    write it unless `read_only`."""

    def writes(self, operand: OpOperand, state: AnalysisQueries) -> bool:
        op = operand.op
        assert isinstance(op, bufferization.ToBufferOp)
        return op.read_only is None

    def bufferize(self, op: Operation, bufferizer: BufferizerServices) -> None:
        assert isinstance(op, bufferization.ToBufferOp)
        memref_type = op.memref.type
        assert isinstance(memref_type, MemRefType)
        buffer = bufferizer.buffer_as(op.tensor, memref_type)
        op.memref.replace_all_uses_with(buffer)
        bufferizer.erase(op)


class MaterializeInDestinationOpModel(BufferizableOpModel):
    """Copies the source into the destination (a tensor or a buffer)."""

    def reads(self, operand: OpOperand, state: AnalysisQueries) -> bool:
        return operand.index == 0

    def writes(self, operand: OpOperand, state: AnalysisQueries) -> bool:
        return operand.index == 1

    def aliasing_values(
        self, operand: OpOperand, state: AnalysisQueries
    ) -> list[AliasingValue]:
        if operand.index != 1 or not operand.op.results:
            return []
        return [AliasingValue(operand.op.results[0], BufferRelation.EQUIVALENT)]

    def must_bufferize_in_place(
        self, operand: OpOperand, state: AnalysisQueries
    ) -> bool:
        # Materializing into a copy of the destination would be pointless.
        # With copy-before-write (no analysis), every write goes to a copy,
        # this one too, as upstream has it.
        return operand.index == 1 and not state.options.copy_before_write

    def bufferize(self, op: Operation, bufferizer: BufferizerServices) -> None:
        assert isinstance(op, bufferization.MaterializeInDestinationOp)
        destination = bufferizer.buffer(op.dest)
        source = bufferizer.buffer(op.source)
        if source is not destination:
            source_type, destination_type = source.type, destination.type
            assert isinstance(source_type, MemRefType)
            assert isinstance(destination_type, MemRefType)
            # memref.copy copies between layouts: only the shapes must be
            # made the same (the source keeps its layout, which may be a
            # strided view's).
            shaped = MemRefType(
                source_type.get_element_type(),
                destination_type.get_shape(),
                source_type.layout,
                source_type.memory_space,
            )
            bufferizer.copy(bufferizer.cast(source, shaped), destination)
        bufferizer.replace_op(op, [destination] if op.results else [])


register_model(bufferization.AllocTensorOp, AllocTensorOpModel())
register_model(bufferization.ToTensorOp, ToTensorOpModel())
register_model(bufferization.ToBufferOp, ToBufferOpModel())
register_model(
    bufferization.MaterializeInDestinationOp, MaterializeInDestinationOpModel()
)
