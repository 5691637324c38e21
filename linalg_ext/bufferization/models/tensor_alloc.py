"""Bufferization of the `tensor` ops that make a new tensor from scalars or
from a region: `pad`, `generate`, `from_elements` and `splat`.

Each result is a new allocation (identity layout) that the op's rewrite
fills: `splat` (and a `pad` whose padding is one value) with `linalg.fill`,
`generate` (and any other `pad`) with a `linalg.generic` whose body is the
op's body, its index arguments read with `linalg.index`, `from_elements`
with one `memref.store` per element. A `pad` then copies its source into a
subview of the interior.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import arith, memref, tensor
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AffineMapAttr,
    IndexType,
    IntegerAttr,
    MemRefType,
)
from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.dialects.linalg.ops import FillOp, GenericOp, IndexOp
from xdsl.dialects.linalg.ops import YieldOp as LinalgYieldOp
from xdsl.dialects.utils import get_dynamic_index_list, split_dynamic_index_list
from xdsl.ir import Block, BlockArgument, Operation, OpResult, Region, SSAValue
from xdsl.ir.affine import AffineMap

from linalg_ext.bufferization.interface import (
    AnalysisQueries,
    BufferizableOpModel,
    BufferizerServices,
    OpOperand,
    register_model,
    tensor_type_of,
)
from linalg_ext.bufferization.layouts import subview_type
from linalg_ext.compat.tensor_ops import GenerateOp
from linalg_ext.transforms.mixed_sizes import Mixed, as_index_value, sum_mixed


def _index_value(bufferizer: BufferizerServices, value: Mixed) -> SSAValue:
    new_ops: list[Operation] = []
    result = as_index_value(value, new_ops)
    bufferizer.insert(*new_ops)
    return result


def _defined_in(value: SSAValue, block: Block) -> bool:
    if isinstance(value, BlockArgument):
        return value.block is block
    assert isinstance(value, OpResult)
    return value.op.parent_block() is block


def _single_fill_value(bufferizer: BufferizerServices, block: Block) -> SSAValue | None:
    """The one value a body yields at every index: one defined outside the
    body, or a constant inside it (cloned before the op being rewritten).
    None when the body computes its value."""
    terminator = block.last_op
    assert isinstance(terminator, tensor.YieldOp)
    (value,) = terminator.arguments
    if not _defined_in(value, block):
        return value
    if isinstance(value, OpResult) and isinstance(value.op, arith.ConstantOp):
        constant = value.op.clone()
        bufferizer.insert(constant)
        return constant.result
    return None


def _fill(bufferizer: BufferizerServices, value: SSAValue, buffer: SSAValue) -> None:
    bufferizer.insert(FillOp((value,), (buffer,), ()))


def _fill_from_body(
    bufferizer: BufferizerServices, block: Block, buffer: SSAValue
) -> None:
    """Write into every element of `buffer` what `block` (a `pad` or
    `generate` body: one index argument per dimension, ending in
    `tensor.yield`) yields for its index."""
    memref_type = buffer.type
    assert isinstance(memref_type, MemRefType)
    rank = len(memref_type.get_shape())
    body = Block(arg_types=[memref_type.get_element_type()])
    mapping: dict[SSAValue, SSAValue] = {}
    for dim, argument in enumerate(block.args):
        index = IndexOp(dim)
        body.add_op(index)
        mapping[argument] = index.result
    terminator = block.last_op
    for op in block.ops:
        if op is terminator:
            body.add_op(LinalgYieldOp(*(mapping.get(v, v) for v in op.operands)))
        else:
            body.add_op(op.clone(value_mapper=mapping))
    bufferizer.insert(
        GenericOp(
            (),
            (buffer,),
            Region(body),
            (AffineMapAttr(AffineMap.identity(rank)),),
            (IteratorTypeAttr.parallel(),) * rank,
        )
    )


def _fill_like_body(
    bufferizer: BufferizerServices, block: Block, buffer: SSAValue
) -> None:
    value = _single_fill_value(bufferizer, block)
    if value is not None:
        _fill(bufferizer, value, buffer)
    else:
        _fill_from_body(bufferizer, block, buffer)


class NewTensorModel(BufferizableOpModel):
    """An op whose tensor result is a new buffer it fills; tensor operands
    (a pad's source) are only read."""

    def reads(self, operand: OpOperand, state: AnalysisQueries) -> bool:
        return True

    def allocates(self, value: SSAValue) -> bool:
        return True

    def _allocate(
        self,
        op: Operation,
        bufferizer: BufferizerServices,
        dynamic_sizes: Sequence[SSAValue],
    ) -> SSAValue:
        result = op.results[0]
        return bufferizer.allocate(
            bufferizer.default_type(tensor_type_of(result)), dynamic_sizes
        )


class PadOpModel(NewTensorModel):
    """A new buffer filled with the padding, the source copied into its
    interior."""

    def bufferize(self, op: Operation, bufferizer: BufferizerServices) -> None:
        assert isinstance(op, tensor.PadOp)
        if not op.result.uses:
            bufferizer.erase(op)
            return
        source = bufferizer.buffer(op.source)
        source_shape = tensor_type_of(op.source).get_shape()
        result_shape = tensor_type_of(op.result).get_shape()
        low = get_dynamic_index_list(op.static_low.get_values(), op.low, DYNAMIC_INDEX)
        high = get_dynamic_index_list(
            op.static_high.get_values(), op.high, DYNAMIC_INDEX
        )
        source_sizes: list[Mixed] = []
        for dim, extent in enumerate(source_shape):
            if extent != DYNAMIC_INDEX:
                source_sizes.append(extent)
                continue
            dim_op = memref.DimOp(source, bufferizer.index_constant(dim))
            bufferizer.insert(dim_op)
            source_sizes.append(dim_op.result)
        dynamic_sizes: list[SSAValue] = []
        for dim, extent in enumerate(result_shape):
            if extent != DYNAMIC_INDEX:
                continue
            new_ops: list[Operation] = []
            size = sum_mixed([source_sizes[dim], low[dim], high[dim]], new_ops)
            bufferizer.insert(*new_ops)
            dynamic_sizes.append(_index_value(bufferizer, size))
        buffer = self._allocate(op, bufferizer, dynamic_sizes)
        _fill_like_body(bufferizer, op.region.block, buffer)
        buffer_type = buffer.type
        assert isinstance(buffer_type, MemRefType)
        static_offsets, dynamic_offsets = split_dynamic_index_list(low, DYNAMIC_INDEX)
        static_sizes, dynamic_source_sizes = split_dynamic_index_list(
            source_sizes, DYNAMIC_INDEX
        )
        rank = len(source_shape)
        interior = memref.SubviewOp(
            buffer,
            dynamic_offsets,
            dynamic_source_sizes,
            [],
            static_offsets,
            static_sizes,
            [1] * rank,
            subview_type(
                buffer_type,
                static_offsets,
                static_sizes,
                [1] * rank,
                list(range(rank)),
            ),
        )
        bufferizer.insert(interior)
        bufferizer.copy(source, interior.result)
        bufferizer.replace_op(op, [buffer])


class GenerateOpModel(NewTensorModel):
    """A new buffer, each element what the body yields for its index."""

    def bufferize(self, op: Operation, bufferizer: BufferizerServices) -> None:
        assert isinstance(op, GenerateOp)
        if not op.result.uses:
            bufferizer.erase(op)
            return
        buffer = self._allocate(op, bufferizer, list(op.dynamic_extents))
        _fill_like_body(bufferizer, op.body.block, buffer)
        bufferizer.replace_op(op, [buffer])


class FromElementsOpModel(NewTensorModel):
    """A new buffer, the elements stored one by one in row-major order."""

    def bufferize(self, op: Operation, bufferizer: BufferizerServices) -> None:
        assert isinstance(op, tensor.FromElementsOp)
        if not op.result.uses:
            bufferizer.erase(op)
            return
        shape = tensor_type_of(op.result).get_shape()
        buffer = self._allocate(op, bufferizer, [])
        constants: dict[int, SSAValue] = {}

        def index(value: int) -> SSAValue:
            if value not in constants:
                constant = arith.ConstantOp(IntegerAttr(value, IndexType()))
                bufferizer.insert(constant)
                constants[value] = constant.result
            return constants[value]

        for position, element in enumerate(op.elements):
            indices: list[int] = []
            for extent in reversed(shape):
                position, index_in_dim = divmod(position, extent)
                indices.append(index_in_dim)
            indices.reverse()
            bufferizer.insert(
                memref.StoreOp.get(element, buffer, [index(i) for i in indices])
            )
        bufferizer.replace_op(op, [buffer])


class SplatOpModel(NewTensorModel):
    """A new buffer filled with the operand."""

    def bufferize(self, op: Operation, bufferizer: BufferizerServices) -> None:
        assert isinstance(op, tensor.SplatOp)
        if not op.result.uses:
            bufferizer.erase(op)
            return
        buffer = self._allocate(op, bufferizer, list(op.dynamicSizes))
        _fill(bufferizer, op.input, buffer)
        bufferizer.replace_op(op, [buffer])


register_model(tensor.PadOp, PadOpModel())
register_model(GenerateOp, GenerateOpModel())
register_model(tensor.FromElementsOp, FromElementsOpModel())
register_model(tensor.SplatOp, SplatOpModel())
