"""Building blocks of the memref lowering (`finalize-memref-to-llvm`).

- `Emitter` (an `xdsl.builder.Builder`) inserts `llvm` ops at one point and
  does index arithmetic on `Index` values, an `int` where the value is known
  statically and an `i64` SSA value otherwise, folding what is static: a
  load from a memref whose type fixes its strides and offset computes its
  address with constants, as upstream does.
- `StridedMemRef` is a memref being lowered: its type's static facts (shape,
  strides and offset, from `bufferization.layouts`) and, for the rest, the
  fields of its descriptor, each read once.
- `build_descriptor`, `row_major_strides`: new descriptors.
- `element_size`, `llvm_element_type`: what one element takes.
- The operands of a memref op being lowered: `index_operand`,
  `lowered_memref`, `mixed_indices`, `known`.

The ops themselves lower in `memref_patterns`, `memref_views` and
`memref_copy`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

from xdsl.builder import Builder
from xdsl.dialects import arith, llvm
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    DenseArrayBase,
    Float16Type,
    Float32Type,
    Float64Type,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    i1,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.rewriter import InsertPoint

from linalg_ext.bufferization.layouts import strides_and_offset
from linalg_ext.lowering.llvm_types import (
    INDEX_TYPE,
    MemRefDescriptor,
    convert_type,
    descriptor_type,
    to_llvm,
)

Index = int | SSAValue
"""An index: static (`int`) or an `i64` value."""

OpT = TypeVar("OpT", bound=Operation)

SUPPORTED_ELEMENT_TYPES = "f16, f32, f64, i1, i8, i16, i32, i64, index"
"""What `element_size` knows, for messages."""

_NO_WRAP = llvm.OverflowAttr((llvm.OverflowFlag.NO_SIGNED_WRAP,))
"""Index arithmetic of in-bounds accesses does not overflow (upstream marks
it the same way); it lets LLVM reason about addresses in loops."""

_I32_RANGE = range(-(2**31), 2**31)


def element_size(type_: Attribute) -> int | None:
    """Bytes one element of a memref of `type_` takes (LLVM's allocation
    size: an i1 takes a byte), or None for an unsupported element type."""
    if isinstance(type_, IndexType):
        return 8
    if isinstance(type_, IntegerType) and type_.width.data in (1, 8, 16, 32, 64):
        return max(1, type_.width.data // 8)
    if isinstance(type_, Float16Type | Float32Type | Float64Type):
        return type_.bitwidth // 8
    return None


def llvm_element_type(memref_type: MemRefType) -> Attribute:
    """The LLVM type of one element of `memref_type`."""
    return convert_type(memref_type.get_element_type())


class Emitter(Builder):
    """An `xdsl.builder.Builder` inserting `llvm` ops at one point, in
    program order, with folding index arithmetic.

    `where` (the insertion point) must stay a valid append point:
    `InsertPoint.before(op)` (every op goes right before `op`, after those
    inserted earlier) or the end of a block that has no terminator yet.
    `rewriter` is the `PatternRewriter` inside a pattern (ops are inserted
    through it, so that it sees them), None outside one. Constants are made
    once per emitter.
    """

    def __init__(self, where: InsertPoint, rewriter: PatternRewriter | None = None):
        super().__init__(where)
        self.rewriter = rewriter
        self._constants: dict[tuple[int, Attribute], SSAValue] = {}

    @property
    def where(self) -> InsertPoint:
        return self.insertion_point

    def emit(self, op: OpT) -> OpT:
        if self.rewriter is not None:
            return self.rewriter.insert(op, self.insertion_point)
        return self.insert(op)

    def constant(
        self, value: int, type_: IntegerType | IndexType = INDEX_TYPE
    ) -> SSAValue:
        key = (value, type_)
        if key not in self._constants:
            op = self.emit(llvm.ConstantOp(IntegerAttr(value, type_), type_))
            self._constants[key] = op.result
        return self._constants[key]

    def value(self, index: Index) -> SSAValue:
        """`index` as an SSA value."""
        return self.constant(index) if isinstance(index, int) else index

    def add(self, lhs: Index, rhs: Index) -> Index:
        if isinstance(lhs, int) and isinstance(rhs, int):
            return lhs + rhs
        if lhs == 0:
            return rhs
        if rhs == 0:
            return lhs
        op = llvm.AddOp(self.value(lhs), self.value(rhs), overflow=_NO_WRAP)
        return self.emit(op).res

    def mul(self, lhs: Index, rhs: Index) -> Index:
        if isinstance(lhs, int) and isinstance(rhs, int):
            return lhs * rhs
        if lhs == 0 or rhs == 0:
            return 0
        if lhs == 1:
            return rhs
        if rhs == 1:
            return lhs
        op = llvm.MulOp(self.value(lhs), self.value(rhs), overflow=_NO_WRAP)
        return self.emit(op).res

    def product(self, factors: Sequence[Index]) -> Index:
        result: Index = 1
        for factor in factors:
            result = self.mul(result, factor)
        return result

    def compare(self, predicate: str, lhs: Index, rhs: Index) -> bool | SSAValue:
        """`lhs <predicate> rhs` (`eq`, `slt`, ... ): a bool when both are
        static, an `i1` otherwise."""
        if isinstance(lhs, int) and isinstance(rhs, int):
            return {
                "eq": lhs == rhs,
                "ne": lhs != rhs,
                "slt": lhs < rhs,
                "sle": lhs <= rhs,
                "sgt": lhs > rhs,
                "sge": lhs >= rhs,
            }[predicate]
        flag = llvm.ICmpPredicateFlag(predicate)
        op = llvm.ICmpOp(
            self.value(lhs), self.value(rhs), IntegerAttr(flag.to_int(), 64)
        )
        return self.emit(op).res

    def both(self, lhs: bool | SSAValue, rhs: bool | SSAValue) -> bool | SSAValue:
        """Logical and, folded where one side is static."""
        if isinstance(lhs, bool):
            return rhs if lhs else False
        if isinstance(rhs, bool):
            return lhs if rhs else False
        return self.emit(llvm.AndOp(lhs, rhs)).res

    def either(self, lhs: bool | SSAValue, rhs: bool | SSAValue) -> bool | SSAValue:
        """Logical or, folded where one side is static."""
        if isinstance(lhs, bool):
            return True if lhs else rhs
        if isinstance(rhs, bool):
            return True if rhs else lhs
        return self.emit(llvm.OrOp(lhs, rhs)).res

    def select(self, condition: bool | SSAValue, lhs: Index, rhs: Index) -> Index:
        if isinstance(condition, bool):
            return lhs if condition else rhs
        if isinstance(lhs, int) and isinstance(rhs, int) and lhs == rhs:
            return lhs
        op = llvm.SelectOp(condition, self.value(lhs), self.value(rhs))
        return self.emit(op).res

    def boolean(self, value: bool | SSAValue) -> SSAValue:
        if isinstance(value, bool):
            return self.constant(int(value), i1)
        return value

    def element_pointer(
        self, base: SSAValue, index: Index, element_type: Attribute
    ) -> SSAValue:
        """The address of element `index` of an array of `element_type` at
        `base`."""
        if index == 0:
            return base
        if isinstance(index, int) and index in _I32_RANGE:
            op = llvm.GEPOp(base, [index], element_type, inbounds=True)
        else:
            op = llvm.GEPOp.from_mixed_indices(
                base, [self.value(index)], element_type, inbounds=True
            )
        return self.emit(op).result

    def call(
        self, callee: str, arguments: Sequence[SSAValue], result: Attribute | None
    ) -> SSAValue | None:
        op = self.emit(llvm.CallOp(callee, *arguments, return_type=result))
        return op.returned

    def descriptor(self, value: SSAValue) -> _Descriptor:
        """The descriptor `value`, read and updated through this emitter."""
        return _Descriptor(value, self)


class _Descriptor(MemRefDescriptor):
    """A `MemRefDescriptor` whose ops go through an `Emitter`, so that they
    interleave in program order with the emitter's other ops."""

    def __init__(self, value: SSAValue, emitter: Emitter):
        super().__init__(value, emitter.where, emitter.rewriter)
        self.emitter = emitter

    def emit(self, op: Operation) -> Operation:
        return self.emitter.emit(op)


def build_descriptor(
    emitter: Emitter,
    allocated: SSAValue,
    aligned: SSAValue,
    offset: Index,
    sizes: Sequence[Index],
    strides: Sequence[Index],
) -> SSAValue:
    """A new descriptor with these fields."""
    rank = len(sizes)
    undef = emitter.emit(llvm.UndefOp(descriptor_type(rank)))
    descriptor = emitter.descriptor(undef.res)
    descriptor.set_allocated_ptr(allocated)
    descriptor.set_aligned_ptr(aligned)
    descriptor.set_offset(emitter.value(offset))
    for dim, size in enumerate(sizes):
        descriptor.set_size(dim, emitter.value(size))
    for dim, stride in enumerate(strides):
        descriptor.set_stride(dim, emitter.value(stride))
    return descriptor.value


def row_major_strides(emitter: Emitter, sizes: Sequence[Index]) -> list[Index]:
    """The strides of a row-major (identity layout) memref of `sizes`."""
    strides: list[Index] = [1] * len(sizes)
    for dim in reversed(range(len(sizes) - 1)):
        strides[dim] = emitter.mul(strides[dim + 1], sizes[dim + 1])
    return strides


class StridedMemRef:
    """A memref value being lowered: static facts from its type, the rest
    read from its descriptor (each field once, by `emitter`; the descriptor
    itself is only asked for when a field is)."""

    def __init__(self, emitter: Emitter, value: SSAValue):
        assert isinstance(value.type, MemRefType)
        type_: MemRefType = value.type
        self.emitter = emitter
        self.value = value
        self.type = type_
        self.shape = list(type_.get_shape())
        self.rank = len(self.shape)
        self.element_type = llvm_element_type(type_)
        self.element_bytes = element_size(type_.get_element_type()) or 1
        self.static_strides, self.static_offset = strides_and_offset(type_)
        self._descriptor: _Descriptor | None = None
        self._fields: dict[tuple[str, int], SSAValue] = {}

    @property
    def descriptor(self) -> _Descriptor:
        """The memref's descriptor (a cast of it, if not converted yet)."""
        if self._descriptor is None:
            emitter = self.emitter
            value = to_llvm(self.value, emitter.where, emitter.rewriter)
            self._descriptor = emitter.descriptor(value)
        return self._descriptor

    def _field(self, name: str, dim: int, read: Callable[[], SSAValue]) -> SSAValue:
        key = (name, dim)
        if key not in self._fields:
            self._fields[key] = read()
        return self._fields[key]

    def allocated_ptr(self) -> SSAValue:
        return self._field("allocated", 0, self.descriptor.allocated_ptr)

    def aligned_ptr(self) -> SSAValue:
        return self._field("aligned", 0, self.descriptor.aligned_ptr)

    def offset(self) -> Index:
        if self.static_offset is not None:
            return self.static_offset
        return self._field("offset", 0, self.descriptor.offset)

    def size(self, dim: int) -> Index:
        if self.shape[dim] != DYNAMIC_INDEX:
            return self.shape[dim]
        return self._field("size", dim, lambda: self.descriptor.size(dim))

    def stride(self, dim: int) -> Index:
        static = self.static_strides[dim]
        if static is not None:
            return static
        return self._field("stride", dim, lambda: self.descriptor.stride(dim))

    def sizes(self) -> list[Index]:
        return [self.size(d) for d in range(self.rank)]

    def strides(self) -> list[Index]:
        return [self.stride(d) for d in range(self.rank)]

    def element_pointer(
        self, indices: Sequence[Index], emitter: Emitter | None = None
    ) -> SSAValue:
        """The address of the element at `indices`: aligned pointer +
        offset + sum(index * stride), in elements. The arithmetic goes
        through `emitter` (default: this memref's)."""
        emitter = emitter or self.emitter
        linear: Index = self.offset()
        for dim, index in enumerate(indices):
            linear = emitter.add(linear, emitter.mul(index, self.stride(dim)))
        return emitter.element_pointer(self.aligned_ptr(), linear, self.element_type)

    def start_pointer(self) -> SSAValue:
        """The address of the first element (aligned pointer + offset)."""
        return self.emitter.element_pointer(
            self.aligned_ptr(), self.offset(), self.element_type
        )

    def byte_size(self) -> Index:
        """Bytes the elements take when contiguous."""
        return self.emitter.mul(self.emitter.product(self.sizes()), self.element_bytes)


# --------------------------------------------------------------------------
# Operands of the memref ops being lowered


def index_operand(value: SSAValue, emitter: Emitter) -> Index:
    """An index operand of a memref op: its value when it is a constant,
    else as i64."""
    owner = value.owner
    if isinstance(owner, arith.ConstantOp) and isinstance(owner.value, IntegerAttr):
        return owner.value.value.data
    converted = to_llvm(value, emitter.where, emitter.rewriter)
    owner = converted.owner
    if isinstance(owner, llvm.ConstantOp) and isinstance(owner.value, IntegerAttr):
        return owner.value.value.data
    return converted


def lowered_memref(
    value: SSAValue, emitter: Emitter, lazy: bool = False
) -> StridedMemRef:
    """`value` being lowered; its descriptor is cast from it right away,
    unless `lazy` (then only if a field is read)."""
    memref_value = StridedMemRef(emitter, value)
    if not lazy:
        memref_value.descriptor  # noqa: B018
    return memref_value


def mixed_indices(
    static: DenseArrayBase[IntegerType],
    dynamic: Sequence[SSAValue],
    emitter: Emitter,
) -> list[Index]:
    """A static list with DYNAMIC_INDEX holes filled, in order, from
    `dynamic`."""
    values = iter(dynamic)
    return [
        index_operand(next(values), emitter) if entry == DYNAMIC_INDEX else entry
        for entry in static.get_values()
    ]


def known(static: int | None, computed: Index) -> Index:
    """`static` if the type gives it, else `computed`."""
    return computed if static is None or static == DYNAMIC_INDEX else static
