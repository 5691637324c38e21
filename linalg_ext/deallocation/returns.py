"""What a function does with the buffers it returns, and what its callers
may assume (its `Summary`).

A result that is certainly all of one buffer the function owns, returned
once, is the caller's (no code). Every other result that may be (a view of)
a buffer the function owns is planned here, as an `Incoming` per result:

- `taken`: the buffers the result may be all of. Each is handed to one
  result only (the first that may be all of it): that result is returned as
  it is when it is one of them (compared by address where not certain), and
  a buffer not returned that way is freed.
- `after`: the buffers the result may be a view of, or that an earlier
  result already hands over: the result is returned as a copy (a new buffer
  the caller owns) unless it is one of its `taken`, and those buffers,
  unless taken or retained, are freed once every copy is made.
- `retained`: the buffers a result whose type no copy can have (a layout of
  static strides or offset) may be a view of: it is returned as it is (a
  view the caller keeps alive but cannot free), and each of them is freed
  when no retained result has its address.

So a buffer returned several times (whole and as views) is handed over by
one result and the others are copies: the caller owns independent buffers,
nothing leaks and nothing is freed twice. Upstream MLIR 22's
`-ownership-based-buffer-deallocation` instead returns all the aliasing
results as they are, each owned, and relies on its callers'
`bufferization.dealloc` to free an aliased buffer once at run time; our
callers free each owned result unconditionally (see `Summary`), so aliasing
owned results would be freed twice: we copy instead.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Protocol

from xdsl.dialects import func
from xdsl.dialects.builtin import MemRefType
from xdsl.ir import Block, BlockArgument, Operation, SSAValue, Use

from linalg_ext.deallocation.buffers import (
    VIEW_OPS,
    Decision,
    Incoming,
    Kind,
    MayBeView,
    Merge,
    NotOwned,
    Source,
    tracked,
)
from linalg_ext.deallocation.summary import CallSummaries, Summary
from linalg_ext.deallocation.values import copyable, is_copy_choice


class FunctionAnalysis(Protocol):
    """What the return planning reads of a function's analysis
    (`function_analysis.FunctionAnalysis`, which imports this module)."""

    function: func.FuncOp
    summaries: CallSummaries
    own: dict[SSAValue, Source]
    sources: dict[SSAValue, frozenset[Source]]
    accepted: dict[Merge, tuple[Source, ...]]
    returns: dict[int, Incoming]

    def whole_source(self, value: SSAValue) -> SSAValue: ...

    def uses(self, source: Source) -> Iterator[Use]: ...

    def order(self, source: Source) -> int: ...

    def check_taken(
        self,
        source: Source,
        value: SSAValue,
        terminator: Operation,
        index: int,
        *,
        alone: bool = True,
    ) -> None: ...

    def decide(self, source: Source) -> Operation | Block | Decision: ...


def plan_returns(analysis: FunctionAnalysis) -> dict[int, Incoming]:
    """The results that are not certainly all of one owned buffer returned
    once but may be (a view of) a buffer the function owns, by index: what
    each hands over, copies or retains (see the module docstring)."""
    function = analysis.function
    if len(function.body.blocks) != 1:
        return {}  # several returns: not followed
    entry = function.body.block
    terminator = entry.last_op
    if not isinstance(terminator, func.ReturnOp):
        return {}
    owned: dict[int, list[Source]] = {}
    for index, value in enumerate(terminator.operands):
        if not tracked(value) or is_copy_choice(value):
            continue
        sources = analysis.sources.get(value, frozenset[Source]())
        mine = [s for s in sources if s.owned and s.block is entry]
        if not mine or returned_static(analysis, value, sources, terminator):
            continue
        if not copyable(value.type) and not (
            isinstance(value.type, MemRefType) and _shared(analysis, value, terminator)
        ):
            continue  # refused alone by `leaves_function`, as before
        owned[index] = sorted(mine, key=analysis.order)
    # What each result may be of each buffer, and the buffers that cannot
    # be handed over at all (freed elsewhere, used outside the block).
    wholes: dict[tuple[int, Source], bool] = {}
    refused: dict[Source, str] = {}
    for index, sources in owned.items():
        value = terminator.operands[index]
        for source in sources:
            try:
                analysis.check_taken(source, value, terminator, index, alone=False)
                wholes[index, source] = True
            except MayBeView:
                wholes[index, source] = False
            except NotOwned as reason:
                refused[source] = f"it is returned (result #{index}) and {reason}"
    # A buffer a result not planned here may also be (a tensor, or what a
    # first run of the pass made) cannot be handed over nor freed.
    for index, value in enumerate(terminator.operands):
        if index in owned:
            continue
        for source in analysis.sources.get(value, frozenset[Source]()):
            if any(source in sources for sources in owned.values()):
                refused[source] = "it is returned more than once"
    retained = {
        source
        for index, sources in owned.items()
        if not copyable(terminator.operands[index].type)
        for source in sources
        if source not in refused
    }
    keeper: dict[Source, int] = {}
    places: dict[int, Incoming] = {}
    for index, sources in sorted(owned.items()):
        value = terminator.operands[index]
        place = Incoming(value, entry, terminator, [], {}, [])
        for source in sources:
            if source in refused:
                place.refused[source] = refused[source]
            elif not copyable(value.type):
                place.retained.append(source)
            elif wholes[index, source] and source not in retained | set(keeper):
                keeper[source] = index
                place.taken.append(source)
                if analysis.whole_source(value) is source.value:
                    place.whole.append(source)
            else:
                place.after.append(source)
        if place.taken or place.after or place.retained:
            places[index] = place
    return places


def _shared(analysis: FunctionAnalysis, value: SSAValue, terminator: Operation) -> bool:
    """Whether a result may be several buffers, or shares one with another
    result (else a result no copy can stand for is refused as before)."""
    sources = analysis.sources.get(value, frozenset[Source]())
    if len(sources) > 1:
        return True
    return any(
        other is not value and sources & analysis.sources.get(other, frozenset())
        for other in terminator.operands
    )


def returned_static(
    analysis: FunctionAnalysis,
    value: SSAValue,
    sources: frozenset[Source],
    terminator: Operation,
) -> bool:
    """Whether `value` is certainly all of one buffer the function owns,
    returned once: the caller's without a check."""
    if len(sources) != 1:
        return False
    (source,) = sources
    return (
        source.flag is None
        and analysis.whole_source(value) is source.value
        and sum(source in analysis.sources.get(v, ()) for v in terminator.operands) == 1
    )


def leaves_function(
    analysis: FunctionAnalysis, source: Source, terminator: func.ReturnOp
) -> Decision:
    """`source`, returned by `terminator` and planned by no `plan_returns`
    place: returned whole and alone (the caller's), else NotOwned."""
    passed = [
        (i, v)
        for i, v in enumerate(terminator.operands)
        if source in analysis.sources.get(v, ())
    ]
    if len(passed) > 1:
        raise NotOwned("it is returned more than once")
    ((position, value),) = passed
    if source.flag is not None:
        raise NotOwned(
            f"it is returned (result #{position}), and whether the "
            "function owns it is known only at run time"
        )
    others = [s.describe() for s in analysis.sources[value] if s is not source]
    if others:
        raise NotOwned(
            f"result #{position} may be it or {', '.join(sorted(others))}, "
            "so the caller cannot own it"
        )
    if analysis.whole_source(value) is not source.value:
        through = analysis.whole_source(value).owner
        if isinstance(through, Operation) and through.name not in VIEW_OPS:
            raise NotOwned(
                f"it is returned through {through.name} (result "
                f"#{position}), so the caller cannot own it"
            )
        raise NotOwned(
            f"a view of it is returned (result #{position}): the caller "
            "cannot free a view, and the function cannot free a buffer "
            "it returns"
        )
    return Decision.RETURNED


def function_summary(analysis: FunctionAnalysis) -> Summary:
    """What callers need to know: which results they own, which are
    arguments, which arguments this function may free."""
    summary = Summary()
    entry = analysis.function.body.block
    terminator = entry.last_op
    if isinstance(terminator, func.ReturnOp):
        for index, value in enumerate(terminator.operands):
            if not tracked(value):
                continue
            sources = analysis.sources.get(value, frozenset[Source]())
            place = analysis.returns.get(index)
            if _returned_whole(analysis, value, sources) or (
                place is not None and not place.retained
            ):
                summary.owned_results.add(index)
                continue
            for source in sources:
                if source.kind is Kind.ARGUMENT:
                    assert isinstance(source.value, BlockArgument)
                    summary.result_arguments.setdefault(index, set()).add(
                        source.value.index
                    )
                else:
                    summary.opaque_results.add(index)
            whole = analysis.whole_source(value)
            if isinstance(whole, BlockArgument) and whole.block is entry:
                summary.whole_arguments[index] = whole.index
    for argument in entry.args:
        source = analysis.own.get(argument)
        if source is not None and any(
            analysis.summaries.frees(use.operation, use.index) is not None
            for use in analysis.uses(source)
        ):
            summary.may_free.add(argument.index)
    return summary


def _returned_whole(
    analysis: FunctionAnalysis, value: SSAValue, sources: frozenset[Source]
) -> bool:
    if len(sources) != 1:
        return False
    (source,) = sources
    handed_over = {s for taken in analysis.accepted.values() for s in taken}
    if not source.owned or source in handed_over:
        return False
    try:
        return (
            analysis.decide(source) is Decision.RETURNED
            and analysis.whole_source(value) is source.value
        )
    except NotOwned:
        return False
