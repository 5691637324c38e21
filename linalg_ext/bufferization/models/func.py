"""Bufferization of `func.func`, `func.call` and `func.return` (function
boundaries, with `bufferize-function-boundaries`)."""

from __future__ import annotations

from xdsl.dialects import bufferization, func
from xdsl.dialects.builtin import (
    ArrayAttr,
    DictionaryAttr,
    IntegerAttr,
    MemRefType,
)
from xdsl.ir import Block, BlockArgument, Operation, OpResult, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from linalg_ext.bufferization.interface import (
    AliasingValue,
    AnalysisQueries,
    BufferizableOpModel,
    BufferizationError,
    BufferizerServices,
    BufferRelation,
    FunctionFacts,
    OpOperand,
    buffer_as_if_tensor,
    is_tensor,
    register_model,
)

WRITABLE_ATTR = "bufferization.writable"
"""The function-argument attribute that says whether the argument's buffer
may be written (MLIR's `bufferization.writable`)."""


def _writable_attr(function: func.FuncOp, index: int) -> bool | None:
    if function.arg_attrs is None:
        return None
    attr = function.arg_attrs.data[index].data.get(WRITABLE_ATTR)
    # (A BoolAttr is an IntegerAttr of i1.)
    if isinstance(attr, IntegerAttr):
        return bool(attr.value.data)
    return None


class FuncOpModel(BufferizableOpModel):
    def is_writable(self, value: SSAValue, state: AnalysisQueries) -> bool:
        assert isinstance(value, BlockArgument)
        function = value.block.parent_op()
        assert isinstance(function, func.FuncOp)
        if value.block is not function.body.blocks.first:
            return True
        # An explicit `bufferization.writable` decides; otherwise arguments
        # are writable, as in MLIR: the caller passes buffers it gives up.
        writable = _writable_attr(function, value.index)
        return True if writable is None else writable

    def buffer_type(
        self, value: SSAValue, bufferizer: BufferizerServices
    ) -> MemRefType:
        assert isinstance(value, BlockArgument)
        function = value.block.parent_op()
        assert isinstance(function, func.FuncOp)
        found = bufferizer.function_types[function.sym_name.data].inputs.data[
            value.index
        ]
        assert isinstance(found, MemRefType)
        return found

    def bufferize(self, op: Operation, bufferizer: BufferizerServices) -> None:
        assert isinstance(op, func.FuncOp)
        signature = bufferizer.function_types[op.sym_name.data]
        if not op.is_declaration:
            block = op.body.blocks.first
            assert block is not None
            retype_arguments(block, list(signature.inputs.data))
        op.function_type = signature
        if op.arg_attrs is not None:
            op.arg_attrs = ArrayAttr(
                DictionaryAttr({k: v for k, v in d.data.items() if k != WRITABLE_ATTR})
                for d in op.arg_attrs.data
            )


def retype_arguments(block: Block, types: list) -> None:
    """Give the block's tensor arguments their buffer types; tensor users
    see them through `to_tensor` until they are rewritten."""
    wrappers: list[Operation] = []
    for arg, new_type in zip(list(block.args), types, strict=True):
        if not is_tensor(arg) or not isinstance(new_type, MemRefType):
            continue
        old_type = arg.type
        new_arg = Rewriter.replace_value_with_new_type(arg, new_type)
        users = list(new_arg.uses)
        if users:
            wrapper = bufferization.ToTensorOp.create(
                operands=[new_arg], result_types=[old_type]
            )
            for use in users:
                use.operation.operands[use.index] = wrapper.results[0]
            wrappers.append(wrapper)
    if wrappers:
        Rewriter.insert_op(wrappers, InsertPoint.at_start(block))


class ReturnOpModel(BufferizableOpModel):
    def bufferize(self, op: Operation, bufferizer: BufferizerServices) -> None:
        function = op.parent_op()
        assert isinstance(function, func.FuncOp)
        outputs = bufferizer.function_types[function.sym_name.data].outputs.data
        values = [
            buffer_as_if_tensor(bufferizer, v, t)
            for v, t in zip(op.operands, outputs, strict=True)
        ]
        bufferizer.insert(func.ReturnOp(*values))
        bufferizer.erase(op)


class CallOpModel(BufferizableOpModel):
    def _facts(self, op: Operation, state: AnalysisQueries) -> FunctionFacts | None:
        assert isinstance(op, func.CallOp)
        return state.function_facts.get(op.callee.root_reference.data)

    def reads(self, operand: OpOperand, state: AnalysisQueries) -> bool:
        facts = self._facts(operand.op, state)
        return facts is None or operand.index in facts.read

    def writes(self, operand: OpOperand, state: AnalysisQueries) -> bool:
        facts = self._facts(operand.op, state)
        return facts is None or operand.index in facts.written

    def aliasing_values(
        self, operand: OpOperand, state: AnalysisQueries
    ) -> list[AliasingValue]:
        facts = self._facts(operand.op, state)
        if facts is None:
            return []
        found: list[AliasingValue] = []
        for result_index, args in facts.aliasing_args.items():
            if operand.index not in args:
                continue
            equivalent = facts.equivalent_arg.get(result_index) == operand.index
            found.append(
                AliasingValue(
                    operand.op.results[result_index],
                    BufferRelation.EQUIVALENT if equivalent else BufferRelation.UNKNOWN,
                    definite=equivalent,
                )
            )
        return found

    def buffer_type(
        self, value: SSAValue, bufferizer: BufferizerServices
    ) -> MemRefType:
        assert isinstance(value, OpResult)
        op = value.owner
        assert isinstance(op, func.CallOp)
        signature = bufferizer.function_types.get(op.callee.root_reference.data)
        if signature is None:
            return super().buffer_type(value, bufferizer)
        found = signature.outputs.data[value.index]
        assert isinstance(found, MemRefType)
        return found

    def bufferize(self, op: Operation, bufferizer: BufferizerServices) -> None:
        assert isinstance(op, func.CallOp)
        name = op.callee.root_reference.data
        signature = bufferizer.function_types.get(name)
        if signature is None:
            raise BufferizationError(op, f"calls @{name}, which is not in the module")
        operands = [
            buffer_as_if_tensor(bufferizer, v, t)
            for v, t in zip(op.operands, signature.inputs.data, strict=True)
        ]
        call = func.CallOp(op.callee, operands, list(signature.outputs.data))
        bufferizer.insert(call)
        bufferizer.replace_op(op, list(call.results))


register_model(func.FuncOp, FuncOpModel())
register_model(func.ReturnOp, ReturnOpModel())
register_model(func.CallOp, CallOpModel())
