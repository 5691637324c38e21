"""Read-after-write conflicts: whether an operand may bufferize in place.

A read `r` of a value whose *definitions* (the last writes along its reverse
use-def chain) are `D` conflicts with a write `w` to an alias unless `r`
happens before `w`, or `w` happens before every definition in `D`, or `w` is
the definition itself, or one of a few structural exceptions holds (the
two operands of an elementwise op that are the same buffer; an
`extract_slice`/`insert_slice` pair on the same subset, see `subsets.py`;
op-specific rules). In place is also refused when it would write a buffer
that must not be written (a constant, a read-only function argument).

Before any decision, `check_consistency` refuses, in upstream's words, what
no decision can make correct: operands that must be in place (the
destination of `materialize_in_destination`) already conflicting or writing
a read-only buffer, and a used `to_tensor` without `restrict`.
"""

from __future__ import annotations

from collections.abc import Iterable

from xdsl.dialects import bufferization
from xdsl.dialects.builtin import UnitAttr
from xdsl.ir import BlockArgument, Operation, OpResult, SSAValue

from linalg_ext.bufferization.analysis_state import (
    AnalysisState,
    region_of,
    uses_of,
)
from linalg_ext.bufferization.interface import (
    BufferizationError,
    OpOperand,
    tensor_operands,
)
from linalg_ext.bufferization.subsets import (
    destination_operand,
    matches_insert_destination,
    source_operand,
)
from linalg_ext.transforms.ordering import ancestor_in


def _alias_reads_and_writes(
    state: AnalysisState, values: Iterable[SSAValue]
) -> tuple[list[OpOperand], list[OpOperand]]:
    reads: dict[OpOperand, None] = {}
    writes: dict[OpOperand, None] = {}
    for value in values:
        for alias in state.aliases.set_of(value):
            for use in uses_of(alias):
                writes_use = state.writes(use)
                if state.reads(use):
                    reads[use] = None
                elif not writes_use and any(
                    state.is_value_read(a.value) for a in state.aliasing_values(use)
                ):
                    # An op not analysed yet that only makes an alias
                    # (an extract_slice) whose value is read later: its
                    # operand is a read too.
                    reads[use] = None
                if writes_use and state.is_in_place(use):
                    writes[use] = None
    return list(reads), list(writes)


def would_conflict(
    state: AnalysisState, operand: OpOperand, *, consistency_only: bool = False
) -> bool:
    """Whether deciding `operand` in place creates a read-after-write
    conflict among the aliases it would join. With `consistency_only`,
    whether the decisions already made have one (the operand's own write
    counts only if it is already in place)."""
    values = [operand.value] + [a.value for a in state.aliasing_values(operand)]
    reads, writes = _alias_reads_and_writes(state, values)
    if not consistency_only and state.writes(operand) and operand not in writes:
        writes.append(operand)
    return _has_read_after_write(state, reads, writes)


def would_write_read_only(
    state: AnalysisState, operand: OpOperand, *, consistency_only: bool = False
) -> bool:
    """Whether in place would write a buffer that must not be written. With
    `consistency_only`, whether the decisions already made do (the
    operand's own write counts only if it is already in place)."""
    found_write = not consistency_only and state.writes(operand)
    values = [operand.value] + [a.value for a in state.aliasing_values(operand)]
    if not found_write:
        found_write = any(
            state.is_in_place(use) and state.writes(use)
            for value in values
            for alias in state.aliases.set_of(value)
            for use in uses_of(alias)
        )
    if not found_write:
        return False
    return any(
        not state.is_writable(alias)
        for value in values
        for alias in state.aliases.set_of(value)
    )


def _writes_shared_buffer(state: AnalysisState, write: OpOperand) -> bool:
    """Whether the buffer `write` writes was defined (or allocated)
    outside the parallel region the write runs in: concurrent
    iterations would then write one buffer."""
    origins = state.reverse_chain(write.value, state.result_writes, include_leaves=True)
    here = state.parallel_region(write.op.parent_region())
    return any(state.parallel_region(region_of(o)) is not here for o in origins)


def _has_read_after_write(
    state: AnalysisState, reads: list[OpOperand], writes: list[OpOperand]
) -> bool:
    # A buffer written in a parallel region must be private to it
    # (when what is written is read at all).
    if reads and any(_writes_shared_buffer(state, w) for w in writes):
        return True
    for read in reads:
        definitions = state.find_definitions(read)
        if not definitions:
            continue
        reader = read.op
        for write in writes:
            writer = write.op
            if _can_use_dominance(state, reader, writer, definitions):
                if state.happens_before(reader, writer):
                    continue
                if read == write:
                    continue
                if state.in_exclusive_regions(reader, writer):
                    continue
            if writer is reader:
                model = state.model(reader)
                if (
                    model is not None
                    and model.is_elementwise_access(reader, [read, write], state)
                    and (
                        _equivalent_in_chain(state, read, write.value)
                        or _equivalent_in_chain(state, write, read.value)
                    )
                ):
                    continue
            if _non_conflicting_subsets(state, read, write):
                continue
            reader_model = state.model(reader)
            if reader_model is not None and reader_model.is_not_conflicting(
                read, write, state
            ):
                continue
            if writer is not reader:
                writer_model = state.model(writer)
                if writer_model is not None and writer_model.is_not_conflicting(
                    read, write, state
                ):
                    continue
            for definition in definitions:
                if isinstance(definition, OpResult):
                    defining = definition.op
                    if state.happens_before(writer, defining):
                        continue
                    if defining is not writer and defining.is_ancestor(writer):
                        continue
                else:
                    assert isinstance(definition, BlockArgument)
                    if ancestor_in(definition.block, writer) is None:
                        continue
                write_aliases = state.aliasing_values(write)
                if len(write_aliases) == 1 and write_aliases[0].value is definition:
                    continue
                if state.options.print_conflicts:
                    _annotate_conflict(state, read, write, definition)
                return True
    return False


def _can_use_dominance(
    state: AnalysisState,
    reader: Operation,
    writer: Operation,
    definitions: list[SSAValue],
) -> bool:
    """Whether program order (dominance) may rule the write out for the
    read: not when a loop body that holds the read but not the value's
    definition also holds the write, since a later iteration's read then
    sees an earlier iteration's write (definition, (read, write)*). A loop
    around the read alone (definition, write, read*) or around the write
    alone (definition, write*, read) does not matter."""
    for definition in definitions:
        definition_region = state.repetitive_region(definition)
        region = state.repetitive_region(reader)
        if region is definition_region:
            continue
        # The outermost loop body around the read that is not the
        # definition's own.
        while region is not None:
            parent = region.parent_op()
            assert parent is not None
            outer = state.repetitive_region(parent)
            if outer is definition_region:
                break
            region = outer
        if region is None:
            # The definition's loop does not enclose the read: be careful.
            return False
        parent = region.parent_op()
        assert parent is not None
        if parent.is_ancestor(writer):
            return False
    return True


def _equivalent_in_chain(
    state: AnalysisState, start: OpOperand, other: SSAValue
) -> bool:
    return bool(
        state.reverse_chain(
            start.value,
            lambda v: v is other,
            include_leaves=False,
            equivalent_only=True,
        )
    )


def _non_conflicting_subsets(
    state: AnalysisState, read: OpOperand, write: OpOperand
) -> bool:
    reader, writer = read.op, write.op
    reader_dest = destination_operand(reader)
    if reader_dest is not None:
        if read == reader_dest and matches_insert_destination(
            state, write.value, reader
        ):
            return True
        if (
            read == source_operand(reader)
            and write == reader_dest
            and matches_insert_destination(state, read.value, reader)
        ):
            return True
    writer_dest = destination_operand(writer)
    if writer_dest is not None and write == writer_dest:
        source = source_operand(writer)
        assert source is not None
        if state.are_equivalent(read.value, source.value) and (
            matches_insert_destination(state, source.value, writer)
        ):
            return True
    return False


def _annotate_conflict(
    state: AnalysisState, read: OpOperand, write: OpOperand, definition: SSAValue
) -> None:
    name = f"C_{state.conflict_count}"
    state.conflict_count += 1
    write.op.attributes[f"{name}[CONFL-WRITE: {write.index}]"] = UnitAttr()
    read.op.attributes[f"{name}[READ: {read.index}]"] = UnitAttr()
    if isinstance(definition, OpResult):
        definition.op.attributes[f"{name}[DEF: result {definition.index}]"] = UnitAttr()
    else:
        assert isinstance(definition, BlockArgument)
        parent = definition.block.parent_op()
        if parent is not None:
            parent.attributes[f"{name}[DEF: bbArg {definition.index}]"] = UnitAttr()


RAW_CONFLICT = "not bufferizable under the given constraints: cannot avoid RaW conflict"
"""Upstream's words for an operand that must bufferize in place (the
destination of `materialize_in_destination`) where a later read still needs
the destination's old contents."""

READ_ONLY_WRITE = (
    "not bufferizable under the given constraints: would write to read-only buffer"
)
"""Upstream's words for an operand that must bufferize in place into a
buffer that must not be written (a constant, a function argument when
function boundaries are not bufferized, a `to_tensor` not `writable`)."""

NON_RESTRICT_TO_TENSOR = (
    "to_tensor ops without `restrict` are not supported by One-Shot Analysis"
)
"""Upstream's words for a used `to_tensor` without `restrict`: its tensor
may alias any other, which the analysis cannot see."""


def check_consistency(state: AnalysisState, ops: Iterable[Operation]) -> None:
    """Refuse, as upstream does before deciding anything, what no decision
    can make correct: the operands that must bufferize in place (already
    marked) creating a read-after-write conflict or writing a read-only
    buffer, and a used `to_tensor` without `restrict`."""
    ops = list(ops)
    for op in ops:
        if (
            isinstance(op, bufferization.ToTensorOp)
            and op.restrict is None
            and op.tensor.uses
            and state.model(op) is not None
        ):
            raise BufferizationError(op, NON_RESTRICT_TO_TENSOR)
    if not state.in_place:
        # Nothing is in place yet: nothing is written, nothing conflicts.
        return
    for op in ops:
        if state.model(op) is None:
            continue
        for operand in tensor_operands(op):
            if would_conflict(state, operand, consistency_only=True):
                raise BufferizationError(op, RAW_CONFLICT)
            if state.is_in_place(operand) and would_write_read_only(
                state, operand, consistency_only=True
            ):
                raise BufferizationError(op, READ_ONLY_WRITE)
