"""The memref view ops in the `llvm` dialect: each builds a new descriptor
of its source's buffer (same allocated and aligned pointers) with its own
offset, sizes and strides, static wherever the result type fixes them.

`subview` (also rank-reducing), `reinterpret_cast`, `expand_shape`,
`collapse_shape` and `view`; upstream runs `expand-strided-metadata` first,
which has no counterpart here.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import memref
from xdsl.dialects.builtin import DYNAMIC_INDEX, MemRefType
from xdsl.dialects.utils.reshape_ops_utils import ArrayOfIntArrayAttr
from xdsl.ir import Operation
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint

from linalg_ext.bufferization.layouts import strides_and_offset
from linalg_ext.lowering.llvm_types import replace_with_llvm
from linalg_ext.lowering.memref_ops import (
    Emitter,
    Index,
    StridedMemRef,
    build_descriptor,
    index_operand,
    known,
    lowered_memref,
    mixed_indices,
    row_major_strides,
)


def _replace_with_view(
    op: Operation,
    source: StridedMemRef,
    offset: Index,
    sizes: Sequence[Index],
    strides: Sequence[Index],
    emitter: Emitter,
    rewriter: PatternRewriter,
) -> None:
    """Replace `op` by a descriptor of `source`'s buffer (same allocated and
    aligned pointers) with these offset, sizes and strides: what every view
    op lowers to."""
    descriptor = build_descriptor(
        emitter, source.allocated_ptr(), source.aligned_ptr(), offset, sizes, strides
    )
    replace_with_llvm(op, [], [descriptor], rewriter)


def _kept_dims(sizes: Sequence[int], result_shape: Sequence[int]) -> list[int]:
    """Which dimensions of a subview of `sizes` (DYNAMIC_INDEX where
    dynamic) are the result's, when unit dimensions are dropped; leading
    unit dimensions are dropped first (which ones does not move any
    element)."""

    def fits(size: int, wanted: int) -> bool:
        return DYNAMIC_INDEX in (size, wanted) or size == wanted

    def match(dim: int, wanted: int) -> list[int] | None:
        if wanted == len(result_shape):
            return [] if all(s == 1 for s in sizes[dim:]) else None
        if dim == len(sizes):
            return None
        if sizes[dim] == 1 and len(sizes) - dim > len(result_shape) - wanted:
            dropped = match(dim + 1, wanted)
            if dropped is not None:
                return dropped
        if fits(sizes[dim], result_shape[wanted]):
            kept = match(dim + 1, wanted + 1)
            if kept is not None:
                return [dim, *kept]
        return None

    kept = match(0, 0)
    assert kept is not None, "the verifier accepted a subview that does not reduce"
    return kept


class LowerSubview(RewritePattern):
    """Offset += sum(offset_i * stride_i); sizes as given; strides
    multiplied by the steps; unit dimensions dropped if the result type
    drops them."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: memref.SubviewOp, rewriter: PatternRewriter):
        emitter = Emitter(InsertPoint.before(op), rewriter)
        source = lowered_memref(op.source, emitter)
        result_type = op.result.type
        assert isinstance(result_type, MemRefType)
        offsets = mixed_indices(op.static_offsets, op.offsets, emitter)
        sizes = mixed_indices(op.static_sizes, op.sizes, emitter)
        steps = mixed_indices(op.static_strides, op.strides, emitter)
        static_strides, static_offset = strides_and_offset(result_type)
        if static_offset is not None:
            offset: Index = static_offset
        else:
            offset = source.offset()
            for dim, start in enumerate(offsets):
                offset = emitter.add(offset, emitter.mul(start, source.stride(dim)))
        shape = result_type.get_shape()
        kept = _kept_dims(list(op.static_sizes.get_values()), shape)
        new_sizes = [known(shape[i], sizes[d]) for i, d in enumerate(kept)]
        new_strides = [
            stride if stride is not None else emitter.mul(source.stride(d), steps[d])
            for stride, d in ((static_strides[i], d) for i, d in enumerate(kept))
        ]
        _replace_with_view(
            op,
            source,
            offset,
            new_sizes,
            new_strides,
            emitter,
            rewriter,
        )


class LowerReinterpretCast(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: memref.ReinterpretCastOp, rewriter: PatternRewriter
    ):
        emitter = Emitter(InsertPoint.before(op), rewriter)
        source = lowered_memref(op.source, emitter)
        result_type = op.result.type
        assert isinstance(result_type, MemRefType)
        static_strides, static_offset = strides_and_offset(result_type)
        (offset,) = mixed_indices(op.static_offsets, op.offsets, emitter)
        sizes = mixed_indices(op.static_sizes, op.sizes, emitter)
        strides = mixed_indices(op.static_strides, op.strides, emitter)
        _replace_with_view(
            op,
            source,
            known(static_offset, offset),
            [known(s, v) for s, v in zip(result_type.get_shape(), sizes, strict=True)],
            [known(s, v) for s, v in zip(static_strides, strides, strict=True)],
            emitter,
            rewriter,
        )


def _groups(reassociation: ArrayOfIntArrayAttr) -> list[list[int]]:
    return [[entry.value.data for entry in group] for group in reassociation]


class LowerExpandShape(RewritePattern):
    """Each source dimension of stride s split into sizes (.., b, c) gets
    strides (.., c*s, s)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: memref.ExpandShapeOp, rewriter: PatternRewriter):
        emitter = Emitter(InsertPoint.before(op), rewriter)
        source = lowered_memref(op.src, emitter)
        result_type = op.result.type
        assert isinstance(result_type, MemRefType)
        sizes = mixed_indices(op.static_output_shape, op.output_shape, emitter)
        static_strides, static_offset = strides_and_offset(result_type)
        strides: list[Index] = [0] * len(sizes)
        for source_dim, group in enumerate(_groups(op.reassociation)):
            group_strides = [static_strides[d] for d in group]
            known_strides = [s for s in group_strides if s is not None]
            if len(known_strides) == len(group_strides):
                for dim, stride in zip(group, known_strides, strict=True):
                    strides[dim] = stride
                continue
            running = source.stride(source_dim)
            for dim in reversed(group):
                strides[dim] = running
                if dim != group[0]:
                    running = emitter.mul(running, sizes[dim])
        _replace_with_view(
            op,
            source,
            known(static_offset, source.offset()),
            sizes,
            strides,
            emitter,
            rewriter,
        )


class LowerCollapseShape(RewritePattern):
    """Each group of source dimensions becomes one of their product's size,
    with the stride of the innermost one whose extent is not 1."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: memref.CollapseShapeOp, rewriter: PatternRewriter):
        emitter = Emitter(InsertPoint.before(op), rewriter)
        source = lowered_memref(op.src, emitter)
        result_type = op.result.type
        assert isinstance(result_type, MemRefType)
        shape = result_type.get_shape()
        static_strides, static_offset = strides_and_offset(result_type)
        sizes: list[Index] = []
        strides: list[Index] = []
        for dim, group in enumerate(_groups(op.reassociation)):
            if shape[dim] == DYNAMIC_INDEX:
                sizes.append(emitter.product([source.size(d) for d in group]))
            else:
                sizes.append(shape[dim])
            if (static_stride := static_strides[dim]) is not None:
                strides.append(static_stride)
                continue
            stride: Index = source.stride(group[0]) if group else 1
            for d in group[1:]:
                size = source.size(d)
                if size == 1:
                    continue
                stride = emitter.select(
                    emitter.compare("eq", size, 1), stride, source.stride(d)
                )
            strides.append(stride)
        _replace_with_view(
            op,
            source,
            known(static_offset, source.offset()),
            sizes,
            strides,
            emitter,
            rewriter,
        )


class LowerView(RewritePattern):
    """A row-major memref at a byte offset into an i8 buffer."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: memref.ViewOp, rewriter: PatternRewriter):
        emitter = Emitter(InsertPoint.before(op), rewriter)
        source = lowered_memref(op.source, emitter)
        result_type = op.result.type
        assert isinstance(result_type, MemRefType)
        shift = index_operand(op.byte_shift, emitter)
        base = emitter.element_pointer(
            source.aligned_ptr(),
            emitter.add(source.offset(), shift),
            source.element_type,
        )
        dynamic = iter(op.sizes)
        sizes: list[Index] = [
            index_operand(next(dynamic), emitter) if extent == DYNAMIC_INDEX else extent
            for extent in result_type.get_shape()
        ]
        descriptor = build_descriptor(
            emitter,
            source.allocated_ptr(),
            base,
            0,
            sizes,
            row_major_strides(emitter, sizes),
        )
        replace_with_llvm(op, [], [descriptor], rewriter)
