"""Bufferization of the `linalg_ext` ops beyond the destination-passing
model every one of them has (models/structured.py):

- `alias` on tensors: its result is its operand's very buffer;
- which outputs an op reads: the generic model asks the op
  (`reads_output`), and the dialect says "read" for every output but
  `diag`'s. Several ops overwrite some outputs whole; saying so spares
  copies of values nobody reads;
- `custom` on tensors: its body takes the operands whole, as tensors. On
  buffers the body takes the buffers, and the values it yields are copied
  into the outputs (unless they already are those buffers).
"""

from __future__ import annotations

from xdsl.dialects import memref
from xdsl.dialects.builtin import MemRefType
from xdsl.ir import BlockArgument, Operation, OpResult, SSAValue

from linalg_ext import dialect as le
from linalg_ext.bufferization.interface import (
    AliasingValue,
    AnalysisQueries,
    BufferizableOpModel,
    BufferizationError,
    BufferizerServices,
    BufferRelation,
    OpOperand,
    is_tensor,
    register_model,
)
from linalg_ext.bufferization.models.func import (
    retype_arguments,
)
from linalg_ext.bufferization.models.structured import DestinationStyleModel
from linalg_ext.transforms.dps import buffer_root


class AliasOpModel(BufferizableOpModel):
    """The identity: no read, no write, the result is the operand."""

    def reads(self, operand: OpOperand, state: AnalysisQueries) -> bool:
        return False

    def aliasing_values(
        self, operand: OpOperand, state: AnalysisQueries
    ) -> list[AliasingValue]:
        return [AliasingValue(operand.op.results[0], BufferRelation.EQUIVALENT)]

    def bufferize(self, op: Operation, bufferizer: BufferizerServices) -> None:
        assert isinstance(op, le.AliasOp)
        bufferizer.replace_op(op, [bufferizer.buffer(op.operand)])


READ_OUTPUTS: dict[type[Operation], frozenset[int]] = {
    # output, max, accumulator, scale: the running max and sum continue
    # from their inits; output and scale are computed from them.
    le.SoftmaxOp: frozenset({1, 2}),
    le.UnnormSoftmaxOp: frozenset({1, 2}),
    # output, accumulator: the accumulator is the carry-in.
    le.ScanOp: frozenset({1}),
    # values, indices: both written whole.
    le.TopkOp: frozenset(),
    # output [, mean, rstd]: all written whole.
    le.LayerNormOp: frozenset(),
}
"""The outputs whose old contents each op reads, where the dialect's
`reads_output` says more (scatter updates its src in place and batch_matmul
accumulates into its init: both read, as the generic model says)."""


class ReadOutputsModel(DestinationStyleModel):
    """The generic model, with the outputs the op reads given by
    `READ_OUTPUTS`."""

    def reads(self, operand: OpOperand, state: AnalysisQueries) -> bool:
        op = operand.op
        assert isinstance(op, le.LinalgExtDpsOp)  # as every op of READ_OUTPUTS
        first_output = len(op.operands) - len(op.outputs)
        if operand.index < first_output:
            return True
        return operand.index - first_output in READ_OUTPUTS[type(op)]


class CustomOpModel(DestinationStyleModel):
    """`custom` on tensors. The body's block argument i stands for operand
    i: it bufferizes to that operand's buffer, so an input's argument must
    not be written (a write goes to a copy), while an output's may be (the
    op writes that output). What the body yields is copied into the output
    buffers when it is not already in them."""

    def reads(self, operand: OpOperand, state: AnalysisQueries) -> bool:
        op = operand.op
        assert isinstance(op, le.CustomOp)
        if len(op.region.blocks) != 1:
            return True
        # Read if the body reads its argument (looking through views of it).
        return state.is_value_read(op.region.block.args[operand.index])

    def is_writable(self, value: SSAValue, state: AnalysisQueries) -> bool:
        if not isinstance(value, BlockArgument):
            return True
        op = value.block.parent_op()
        assert isinstance(op, le.CustomOp)
        return value.index >= len(op.inputs)

    def verify_analysis(self, op: Operation, state: AnalysisQueries) -> str | None:
        assert isinstance(op, le.CustomOp)
        if len(op.region.blocks) != 1:
            return "expected a body of one block to bufferize"
        return None

    def buffer_type(
        self, value: SSAValue, bufferizer: BufferizerServices
    ) -> MemRefType:
        if isinstance(value, BlockArgument):
            op = value.block.parent_op()
            assert op is not None
            return bufferizer.buffer_type(op.operands[value.index])
        return super().buffer_type(value, bufferizer)

    def bufferize(self, op: Operation, bufferizer: BufferizerServices) -> None:
        assert isinstance(op, le.CustomOp)
        operands = [bufferizer.buffer(v) if is_tensor(v) else v for v in op.operands]
        retype_arguments(op.region.block, [v.type for v in operands])
        new_op = le.CustomOp(
            operands[: len(op.inputs)],
            operands[len(op.inputs) :],
            op.detach_region(op.region),
            attributes=dict(op.attributes),
        )
        bufferizer.insert(new_op)
        bufferizer.replace_op(op, operands[len(op.inputs) :])


class CustomYieldModel(BufferizableOpModel):
    """The terminator of a tensor `custom` body: it reads what it yields,
    which becomes the contents of the outputs."""

    def bufferize(self, op: Operation, bufferizer: BufferizerServices) -> None:
        assert isinstance(op, le.YieldOp)
        custom = op.parent_op()
        block = op.parent_block()
        if not isinstance(custom, le.CustomOp) or block is None:
            raise BufferizationError(
                op, "yields tensors, which only a linalg_ext.custom body may"
            )
        inputs = block.args[: len(custom.inputs)]
        outputs = block.args[len(custom.inputs) :]
        copies: list[tuple[SSAValue, SSAValue]] = []
        for value, output in zip(op.operands, outputs, strict=True):
            buffer = bufferizer.buffer(value)
            if buffer is output:
                continue
            root = buffer_root(buffer)
            safe = root in inputs or (
                isinstance(root, OpResult)
                and isinstance(root.op, memref.AllocOp | memref.GetGlobalOp)
            )
            if not safe:
                # Possibly (a view of) an output that an earlier copy
                # overwrites: take its contents out first.
                fresh = bufferizer.allocate_like(buffer)
                bufferizer.copy(buffer, fresh)
                buffer = fresh
            copies.append((buffer, output))
        for buffer, output in copies:
            bufferizer.copy(buffer, output)
        bufferizer.insert(le.YieldOp())
        bufferizer.erase(op)


register_model(le.AliasOp, AliasOpModel())
for _op_type in READ_OUTPUTS:
    register_model(_op_type, ReadOutputsModel())
register_model(le.CustomOp, CustomOpModel())
register_model(le.YieldOp, CustomYieldModel())
