"""Bufferization of the `arith` ops on tensors: `constant` (a dense tensor,
`dense<...>` or `dense_resource<key>`, becomes a read-only `memref.global`
with the same initial value) and `select` (of one of two buffers)."""

from __future__ import annotations

from xdsl.dialects import arith, memref
from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    DenseResourceAttr,
    MemRefType,
    ModuleOp,
    StringAttr,
    TensorType,
    UnitAttr,
)
from xdsl.ir import Operation, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from linalg_ext.bufferization.interface import (
    AliasingValue,
    AnalysisQueries,
    BufferizableOpModel,
    BufferizationError,
    BufferizerServices,
    BufferRelation,
    OpOperand,
    register_model,
)
from linalg_ext.bufferization.layouts import fully_dynamic_memref


def _global_prefix(tensor_type: TensorType) -> str:
    """`__constant_2x3xf32`, as upstream names the global of a constant."""
    shape = "".join(f"{extent}x" for extent in tensor_type.get_shape())
    return f"__constant_{shape}{tensor_type.get_element_type()}"


def _constant_global(
    module: ModuleOp,
    value: DenseIntOrFPElementsAttr | DenseResourceAttr,
    memref_type: MemRefType,
) -> memref.GlobalOp | None:
    """A private constant global of the module holding exactly `value`."""
    for op in module.body.block.ops:
        if (
            isinstance(op, memref.GlobalOp)
            and op.constant is not None
            and op.sym_visibility == StringAttr("private")
            and op.type == memref_type
            and op.initial_value == value
        ):
            return op
    return None


class ConstantOpModel(BufferizableOpModel):
    """A dense tensor constant is a private constant global: its buffer must
    not be written, so a write goes to a copy. A `dense_resource` one keeps
    its key (the blob stays in the resource section, as upstream does); one
    whose blob is there but unreadable (not hex, wrong size) is refused, a
    missing blob is left for whoever reads the data (upstream elides big
    blobs from test files)."""

    def allocates(self, value: SSAValue) -> bool:
        return True

    def is_writable(self, value: SSAValue, state: AnalysisQueries) -> bool:
        return False

    def verify_analysis(self, op: Operation, state: AnalysisQueries) -> str | None:
        assert isinstance(op, arith.ConstantOp)
        if not isinstance(op.result.type, TensorType):
            return None
        if isinstance(op.value, DenseResourceAttr):
            return _resource_problem(op.value)
        if not isinstance(op.value, DenseIntOrFPElementsAttr):
            return (
                "only dense tensor constants (dense<...>, dense_resource<...>) "
                f"bufferize, to a memref.global; got {op.value.name}"
            )
        return None

    def bufferize(self, op: Operation, bufferizer: BufferizerServices) -> None:
        assert isinstance(op, arith.ConstantOp)
        if not op.result.uses:
            bufferizer.erase(op)
            return
        value = op.value
        tensor_type = op.result.type
        assert isinstance(tensor_type, TensorType)
        if not isinstance(value, DenseIntOrFPElementsAttr | DenseResourceAttr):
            raise BufferizationError(op, "expected a dense tensor constant")
        memref_type = bufferizer.default_type(tensor_type)
        module = bufferizer.module
        global_op = _constant_global(module, value, memref_type)
        if global_op is None:
            alignment = bufferizer.options.buffer_alignment
            global_op = memref.GlobalOp.get(
                StringAttr(bufferizer.new_global_name(_global_prefix(tensor_type))),
                memref_type,
                value,
                constant=UnitAttr(),
                alignment=alignment or None,
            )
            # After the globals already there, before everything else.
            block = module.body.block
            last_global = None
            for each in block.ops:
                if not isinstance(each, memref.GlobalOp):
                    break
                last_global = each
            point = (
                InsertPoint.after(last_global)
                if last_global is not None
                else InsertPoint.at_start(block)
            )
            Rewriter.insert_op(global_op, point)
        get_global = memref.GetGlobalOp(global_op.sym_name.data, memref_type)
        bufferizer.insert(get_global)
        bufferizer.replace_op(op, [get_global.memref])


def _resource_problem(value: DenseResourceAttr) -> str | None:
    from linalg_ext.compat.resources import resource_problem, resource_store

    if not resource_store().lookup(value.resource_handle.data):
        return None
    return resource_problem(value)


class SelectOpModel(BufferizableOpModel):
    """The result is one of the two tensor operands, the very same buffer,
    but which one is known only when running. (xDSL's `arith.select` takes
    an `i1` condition only: there is no elementwise form to refuse.)"""

    def reads(self, operand: OpOperand, state: AnalysisQueries) -> bool:
        return False

    def aliasing_values(
        self, operand: OpOperand, state: AnalysisQueries
    ) -> list[AliasingValue]:
        if operand.index == 0:
            return []
        return [
            AliasingValue(
                operand.op.results[0], BufferRelation.EQUIVALENT, definite=False
            )
        ]

    def buffer_type(
        self, value: SSAValue, bufferizer: BufferizerServices
    ) -> MemRefType:
        op = value.owner
        assert isinstance(op, arith.SelectOp)
        true_type = bufferizer.buffer_type(op.lhs)
        false_type = bufferizer.buffer_type(op.rhs)
        if true_type == false_type:
            return true_type
        if true_type.memory_space != false_type.memory_space:
            raise BufferizationError(
                op, "selects between buffers in different memory spaces"
            )
        tensor_type = value.type
        assert isinstance(tensor_type, TensorType)
        return fully_dynamic_memref(tensor_type, true_type.memory_space)

    def bufferize(self, op: Operation, bufferizer: BufferizerServices) -> None:
        assert isinstance(op, arith.SelectOp)
        memref_type = bufferizer.buffer_type(op.result)
        true_buffer = bufferizer.buffer_as(op.lhs, memref_type)
        false_buffer = bufferizer.buffer_as(op.rhs, memref_type)
        select = arith.SelectOp(op.cond, true_buffer, false_buffer)
        bufferizer.insert(select)
        bufferizer.replace_op(op, [select.result])


register_model(arith.ConstantOp, ConstantOpModel())
register_model(arith.SelectOp, SelectOpModel())
