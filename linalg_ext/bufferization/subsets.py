"""Subset insertions (`tensor.insert_slice`, `tensor.parallel_insert_slice`)
as the analysis sees them: a write of a source into one subset of a
destination. An `extract_slice` of an equivalent tensor with the same
offsets, sizes and strides reads exactly that subset, which is what lets a
tile be computed in place inside its destination."""

from __future__ import annotations

from xdsl.dialects import tensor
from xdsl.ir import Operation, OpResult, SSAValue

from linalg_ext.bufferization.interface import AnalysisQueries, OpOperand
from linalg_ext.compat.forall_ops import ParallelInsertSliceOp

_INSERTIONS = (tensor.InsertSliceOp, ParallelInsertSliceOp)


def source_operand(op: Operation) -> OpOperand | None:
    if isinstance(op, _INSERTIONS):
        return OpOperand(op, 0)
    return None


def destination_operand(op: Operation) -> OpOperand | None:
    if isinstance(op, _INSERTIONS):
        return OpOperand(op, 1)
    return None


def same_subset(extraction: tensor.ExtractSliceOp, insertion: Operation) -> bool:
    """Whether the two ops name the same offsets, sizes and strides."""
    for name in ("static_offsets", "static_sizes", "static_strides"):
        if getattr(extraction, name) != getattr(insertion, name):
            return False
    for name in ("offsets", "sizes", "strides"):
        if tuple(getattr(extraction, name)) != tuple(getattr(insertion, name)):
            return False
    return True


def is_equivalent_subset(
    state: AnalysisQueries, value: SSAValue, insertion: Operation
) -> bool:
    """Whether `value` is an `extract_slice` of a tensor equivalent to the
    insertion's destination, on the same subset."""
    if not isinstance(value, OpResult) or not isinstance(
        value.op, tensor.ExtractSliceOp
    ):
        return False
    extraction = value.op
    destination = insertion.operands[1]
    return state.are_equivalent(extraction.source, destination) and same_subset(
        extraction, insertion
    )


def matches_insert_destination(
    state: AnalysisQueries, value: SSAValue, insertion: Operation
) -> bool:
    """Whether every value `value` comes from (through equivalent aliases)
    is the subset the insertion writes."""
    found = state.reverse_chain(
        value,
        lambda v: is_equivalent_subset(state, v, insertion),
        include_leaves=True,
    )
    return bool(found) and all(is_equivalent_subset(state, v, insertion) for v in found)
