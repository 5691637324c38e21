"""The memref ops other than views and copies in the `llvm` dialect.

- `alloc` allocates through the `RuntimeFunctions` (`alloca`: an
  `llvm.alloca`) and builds a row-major descriptor; `dealloc` frees the
  allocated pointer.
- `load` / `store` address `aligned + offset + sum(index * stride)`
  elements with one `llvm.getelementptr`, constants wherever the type fixes
  a field. `vector.load` / `vector.store` (1-D vectors, along the innermost
  dimension, whose stride must be 1) address their first element the same
  way, then load or store the whole vector, aligned to one element.
- `dim`, `rank`, `extract_strided_metadata`,
  `extract_aligned_pointer_as_index` read the descriptor; `cast` and
  `assume_alignment` pass it on.
- `global` is an `llvm.mlir.global` of a flat array; `get_global` takes its
  address, with the allocated pointer `GLOBAL_MARKER`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.dialects import llvm, memref, vector
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AnyFloat,
    DenseIntOrFPElementsAttr,
    DenseResourceAttr,
    IntAttr,
    MemRefType,
    TensorType,
)
from xdsl.ir import Attribute, SSAValue
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint

from linalg_ext.bufferization.layouts import row_major_strides as static_row_major
from linalg_ext.lowering.llvm_types import (
    INDEX_TYPE,
    POINTER,
    replace_with_llvm,
    to_llvm,
)
from linalg_ext.lowering.memref_ops import (
    Emitter,
    Index,
    StridedMemRef,
    build_descriptor,
    element_size,
    index_operand,
    llvm_element_type,
    lowered_memref,
    row_major_strides,
)
from linalg_ext.lowering.memref_runtime import RuntimeFunctions

_DenseValue = int | float | tuple[int, int] | tuple[float, float]
"""An element of a dense attribute, as `get_values` gives it."""

GLOBAL_MARKER = 0xDEADBEEF
"""The allocated pointer of a `memref.get_global` descriptor (upstream's):
freeing it would be a bug, and a crash says so."""


@dataclass
class _RuntimePattern(RewritePattern):
    """A pattern whose code calls runtime functions."""

    runtime: RuntimeFunctions


class LowerAlloc(_RuntimePattern):
    """`memref.alloc` / `alloca`: allocate, then a row-major descriptor."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: memref.AllocOp | memref.AllocaOp, rewriter: PatternRewriter
    ) -> None:
        emitter = Emitter(InsertPoint.before(op), rewriter)
        type_ = op.memref.type
        assert isinstance(type_, MemRefType)
        dynamic = iter(op.dynamic_sizes)
        sizes: list[Index] = [
            index_operand(next(dynamic), emitter) if extent == DYNAMIC_INDEX else extent
            for extent in type_.get_shape()
        ]
        strides = row_major_strides(emitter, sizes)
        count = emitter.product(sizes)
        element_bytes = element_size(type_.get_element_type())
        assert element_bytes is not None
        alignment = op.alignment.value.data if op.alignment is not None else None
        if isinstance(op, memref.AllocaOp):
            pointer = emitter.emit(
                llvm.AllocaOp(
                    emitter.value(count),
                    llvm_element_type(type_),
                    alignment or element_bytes,
                )
            ).res
            allocated = aligned = pointer
        else:
            size = emitter.mul(count, element_bytes)
            allocated, aligned = self.runtime.allocate(emitter, size, alignment)
        descriptor = build_descriptor(emitter, allocated, aligned, 0, sizes, strides)
        replace_with_llvm(op, [], [descriptor], rewriter)


class LowerDealloc(_RuntimePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: memref.DeallocOp, rewriter: PatternRewriter):
        emitter = Emitter(InsertPoint.before(op), rewriter)
        self.runtime.free(emitter, lowered_memref(op.memref, emitter).allocated_ptr())
        rewriter.erase(op)


def _element_address(
    emitter: Emitter, buffer: SSAValue, indices: Sequence[SSAValue]
) -> tuple[StridedMemRef, SSAValue]:
    """`buffer` being lowered, and the address of its element at
    `indices` (where a load or store of an element or a vector goes)."""
    lowered = lowered_memref(buffer, emitter)
    offsets = [index_operand(i, emitter) for i in indices]
    return lowered, lowered.element_pointer(offsets)


class LowerLoad(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: memref.LoadOp, rewriter: PatternRewriter):
        emitter = Emitter(InsertPoint.before(op), rewriter)
        source, pointer = _element_address(emitter, op.memref, op.indices)
        load = emitter.emit(llvm.LoadOp(pointer, source.element_type))
        replace_with_llvm(op, [], [load.dereferenced_value], rewriter)


class LowerStore(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: memref.StoreOp, rewriter: PatternRewriter):
        emitter = Emitter(InsertPoint.before(op), rewriter)
        _, pointer = _element_address(emitter, op.memref, op.indices)
        value = to_llvm(op.value, emitter.where, rewriter)
        emitter.emit(llvm.StoreOp(value, pointer))
        rewriter.erase(op)


class LowerVectorLoad(RewritePattern):
    """`vector.load`: the vector's lanes are consecutive elements from the
    indexed one (the innermost stride is 1, as finalize-memref-to-llvm
    checks), so one `llvm.load` of the vector type from its address."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: vector.LoadOp, rewriter: PatternRewriter):
        emitter = Emitter(InsertPoint.before(op), rewriter)
        source, pointer = _element_address(emitter, op.base, op.indices)
        load = emitter.emit(
            llvm.LoadOp(pointer, op.result.type, alignment=source.element_bytes)
        )
        replace_with_llvm(op, [], [load.dereferenced_value], rewriter)


class LowerVectorStore(RewritePattern):
    """`vector.store`: one `llvm.store` of the vector (see LowerVectorLoad)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: vector.StoreOp, rewriter: PatternRewriter):
        emitter = Emitter(InsertPoint.before(op), rewriter)
        target, pointer = _element_address(emitter, op.base, op.indices)
        value = to_llvm(op.vector, emitter.where, rewriter)
        emitter.emit(llvm.StoreOp(value, pointer, alignment=target.element_bytes))
        rewriter.erase(op)


class LowerDim(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: memref.DimOp, rewriter: PatternRewriter):
        emitter = Emitter(InsertPoint.before(op), rewriter)
        source = lowered_memref(op.source, emitter, lazy=True)
        dim = index_operand(op.index, emitter)
        if isinstance(dim, int):
            size: Index = source.size(dim) if 0 <= dim < source.rank else 0
        else:
            # A dimension known at run time only: pick among the sizes.
            size = source.size(source.rank - 1) if source.rank else 0
            for d in reversed(range(source.rank - 1)):
                size = emitter.select(
                    emitter.compare("eq", dim, d), source.size(d), size
                )
        replace_with_llvm(op, [], [emitter.value(size)], rewriter)


class LowerRank(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: memref.RankOp, rewriter: PatternRewriter):
        emitter = Emitter(InsertPoint.before(op), rewriter)
        type_ = op.source.type
        assert isinstance(type_, MemRefType)
        replace_with_llvm(op, [], [emitter.constant(len(type_.get_shape()))], rewriter)


class LowerCast(RewritePattern):
    """A ranked `memref.cast` only changes static facts: same descriptor."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: memref.CastOp, rewriter: PatternRewriter):
        descriptor = to_llvm(op.source, InsertPoint.before(op), rewriter)
        replace_with_llvm(op, [], [descriptor], rewriter)


class LowerAssumeAlignment(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: memref.AssumeAlignmentOp, rewriter: PatternRewriter
    ):
        rewriter.replace(op, [], [op.memref])


class LowerExtractStridedMetadata(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: memref.ExtractStridedMetaDataOp, rewriter: PatternRewriter
    ):
        emitter = Emitter(InsertPoint.before(op), rewriter)
        source = lowered_memref(op.source, emitter)
        base = build_descriptor(
            emitter, source.allocated_ptr(), source.aligned_ptr(), 0, [], []
        )
        values = [source.offset(), *source.sizes(), *source.strides()]
        replace_with_llvm(op, [], [base, *(emitter.value(v) for v in values)], rewriter)


class LowerExtractAlignedPointer(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: memref.ExtractAlignedPointerAsIndexOp, rewriter: PatternRewriter
    ):
        emitter = Emitter(InsertPoint.before(op), rewriter)
        pointer = lowered_memref(op.source, emitter).aligned_ptr()
        address = emitter.emit(llvm.PtrToIntOp(pointer, INDEX_TYPE)).output
        replace_with_llvm(op, [], [address], rewriter)


def _dense_from_list(
    element_type: Attribute, count: int, values: Sequence[_DenseValue]
) -> DenseIntOrFPElementsAttr:
    """A dense attribute of `count` elements of `element_type`: `values`, or
    a splat of one. xDSL's `from_list` overloads each need the element kind
    (float, integer, complex) known statically; its implementation takes
    any, as here."""
    type_ = TensorType(element_type, [count])
    return DenseIntOrFPElementsAttr.from_list(type_, values)  # pyright: ignore[reportCallIssue, reportArgumentType]


def _flat_initializer(
    value: DenseIntOrFPElementsAttr, element_type: Attribute
) -> DenseIntOrFPElementsAttr:
    """`value` as a one-dimensional dense attribute of `element_type`
    (index elements become i64), a splat kept a splat."""
    values = list(value.get_values())
    count = len(values)
    if value.is_splat():
        values = values[:1]
    return _dense_from_list(element_type, count, values)


class LowerGlobal(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: memref.GlobalOp, rewriter: PatternRewriter):
        type_ = op.type
        element_type = llvm_element_type(type_)
        count = 1
        for extent in type_.get_shape():
            count *= extent
        value: Attribute
        if isinstance(op.initial_value, DenseIntOrFPElementsAttr):
            value = _flat_initializer(op.initial_value, element_type)
        elif isinstance(op.initial_value, DenseResourceAttr):
            # The same blob, as upstream keeps it, typed as the flat array
            # (LLVM wants the two to agree); the translation to LLVM IR reads
            # it (compat/llvm_memory_ops.py).
            value = DenseResourceAttr(
                op.initial_value.resource_handle, TensorType(element_type, [count])
            )
        else:
            # `uninitialized`: upstream's initializer is undef; zeros are one
            # of its values, and the same on every run.
            zero = 0.0 if isinstance(element_type, AnyFloat) else 0
            value = _dense_from_list(element_type, count, [zero])
        private = op.sym_visibility.data == "private"
        rewriter.replace(
            op,
            llvm.GlobalOp(
                llvm.LLVMArrayType(IntAttr(count), element_type),
                op.sym_name,
                "private" if private else "external",
                constant=op.constant is not None,
                value=value,
                alignment=op.alignment.value.data if op.alignment else None,
            ),
        )


class LowerGetGlobal(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: memref.GetGlobalOp, rewriter: PatternRewriter):
        emitter = Emitter(InsertPoint.before(op), rewriter)
        type_ = op.memref.type
        assert isinstance(type_, MemRefType)
        address = emitter.emit(llvm.AddressOfOp(op.name_, POINTER)).result
        marker = emitter.emit(llvm.IntToPtrOp(emitter.constant(GLOBAL_MARKER))).output
        shape: list[Index] = list(type_.get_shape())
        strides: list[Index] = [
            s for s in static_row_major(type_.get_shape()) if s is not None
        ]
        descriptor = build_descriptor(emitter, marker, address, 0, shape, strides)
        replace_with_llvm(op, [], [descriptor], rewriter)
