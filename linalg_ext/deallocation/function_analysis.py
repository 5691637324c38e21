"""The ownership analysis of one function, and where to free its buffers.

`FunctionAnalysis` follows the steps the package docstring lists: sources
of every value to a fixpoint, merges accepted until all remaining ones own
what flows in, then `plan()`: after which op (or at the start of which
block) each owned buffer is freed, and why the others are not.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from xdsl.dialects import func, memref, scf
from xdsl.ir import Block, BlockArgument, Operation, OpResult, SSAValue, Use

from linalg_ext.deallocation.buffers import (
    CHOICE_OPS,
    VIEW_OPS,
    WHOLE_VIEW_OPS,
    Decision,
    Kind,
    Merge,
    NotOwned,
    Plan,
    Source,
    is_memref,
    tracked,
)
from linalg_ext.deallocation.summary import CallSummaries, Summary
from linalg_ext.transforms.ordering import ancestor_in


class FunctionAnalysis:
    """Sources of every value of one (single-block) function, and where to
    free each buffer it owns."""

    def __init__(self, function: func.FuncOp, summaries: CallSummaries):
        self.function = function
        self.summaries = summaries
        self.own: dict[SSAValue, Source] = {}
        """The values that are sources themselves."""
        self.sources: dict[SSAValue, frozenset[Source]] = {}
        """What each tracked value may be."""
        self.aliases: dict[Source, list[SSAValue]] = {}
        """The values each source may be (the inverse of `sources`)."""
        self.accepted: dict[Merge, tuple[Source, ...]] = {}
        """Accepted merges, with the sources whose ownership they take over."""
        self.rejected: dict[Merge, str] = {}
        self._ops = list(function.walk())
        candidates = list(self._merges())
        # Assume every merge owns what flows in, drop those that do not,
        # until the rest all do (dropping one can only make others fail).
        while True:
            self._compute_sources(candidates)
            accepted: dict[Merge, tuple[Source, ...]] = {}
            rejected: dict[Merge, str] = {}
            for merge in candidates:
                try:
                    accepted[merge] = self._check_merge(merge)
                except NotOwned as reason:
                    rejected[merge] = str(reason)
            self.rejected.update(rejected)
            if not rejected:
                self.accepted = accepted
                break
            candidates = [m for m in candidates if m not in rejected]

    # ------------------------------------------------------------------
    # Sources

    def _merges(self) -> Iterator[Merge]:
        for op in self._ops:
            if isinstance(op, scf.ForOp):
                for index, value in enumerate(op.iter_args):
                    if is_memref(value):
                        yield Merge(op, index)
            elif isinstance(op, scf.IfOp) and op.false_region.blocks:
                for index, value in enumerate(op.output):
                    if is_memref(value):
                        yield Merge(op, index)

    def _set_own(self, kind: Kind, value: SSAValue) -> None:
        source = Source(kind, value)
        self.own[value] = source
        self.sources[value] = frozenset({source})

    def _compute_sources(self, merges: list[Merge]) -> None:
        self.own = {}
        self.sources = {}
        for argument in self.function.body.block.args:
            if tracked(argument):
                self._set_own(Kind.ARGUMENT, argument)
        for op in self._ops:
            if isinstance(op, memref.AllocOp):
                self._set_own(Kind.ALLOC, op.memref)
            elif isinstance(op, memref.AllocaOp):
                self._set_own(Kind.ALLOCA, op.memref)
            elif isinstance(op, memref.GetGlobalOp):
                self._set_own(Kind.GLOBAL, op.memref)
            elif isinstance(op, func.CallOp):
                for index in self.summaries.of_call(op).owned_results:
                    if index < len(op.res):
                        self._set_own(Kind.CALL, op.res[index])
        for merge in merges:
            op, index = merge.op, merge.index
            if isinstance(op, scf.ForOp):
                self._set_own(Kind.LOOP_ARG, op.body.block.args[index + 1])
                self._set_own(Kind.LOOP_RESULT, op.res[index])
            else:
                self._set_own(Kind.IF_RESULT, op.output[index])
        fixed = set(self.sources)
        changed = True
        while changed:
            changed = False
            for op in self._ops:
                for value, sources in self._derived(op):
                    if value in fixed:
                        continue
                    old = self.sources.get(value, frozenset[Source]())
                    new = old | sources
                    if new != old:
                        self.sources[value] = new
                        changed = True
        self.aliases = {}
        for value, sources in self.sources.items():
            for source in sources:
                self.aliases.setdefault(source, []).append(value)

    def _of(self, values: Iterable[SSAValue]) -> frozenset[Source]:
        result = frozenset[Source]()
        for value in values:
            result |= self.sources.get(value, frozenset[Source]())
        return result

    def _opaque(self, value: SSAValue) -> frozenset[Source]:
        source = self.own.get(value)
        if source is None:
            source = self.own[value] = Source(Kind.OPAQUE, value)
        return frozenset({source})

    def _derived(self, op: Operation) -> Iterator[tuple[SSAValue, frozenset[Source]]]:
        """What each value `op` defines may be, from what its operands may be."""
        if isinstance(op, memref.AllocOp | memref.AllocaOp | memref.GetGlobalOp):
            return
        if op.name in VIEW_OPS or op.name in CHOICE_OPS:
            for result in op.results:
                if tracked(result):
                    yield result, self._of(v for v in op.operands if tracked(v))
            return
        if isinstance(op, scf.ForOp):
            terminator = op.body.block.last_op
            assert terminator is not None
            for index, (init, result) in enumerate(
                zip(op.iter_args, op.res, strict=True)
            ):
                if tracked(result):
                    sources = self._of((init, terminator.operands[index]))
                    yield op.body.block.args[index + 1], sources
                    yield result, sources
            return
        if isinstance(op, scf.IfOp):
            for index, result in enumerate(op.output):
                if tracked(result):
                    yield (
                        result,
                        self._of(
                            block.last_op.operands[index]
                            for region in op.regions
                            for block in region.blocks
                            if block.last_op is not None
                        ),
                    )
            return
        if (
            isinstance(op, func.CallOp)
            and not (summary := self.summaries.of_call(op)).unknown
        ):
            for index, result in enumerate(op.res):
                if not tracked(result) or index in summary.owned_results:
                    continue
                sources = self._of(
                    op.arguments[j]
                    for j in summary.result_arguments.get(index, ())
                    if j < len(op.arguments)
                )
                if index in summary.opaque_results:
                    sources |= self._opaque(result)
                yield result, sources
            return
        # Anything else: its results and block arguments may be any of its
        # operands, anything its regions' terminators pass on, or new.
        inner = [
            value
            for region in op.regions
            for block in region.blocks
            if block.last_op is not None
            for value in block.last_op.operands
            if tracked(value)
        ]
        flowing = self._of([v for v in op.operands if tracked(v)] + inner)
        for result in op.results:
            if tracked(result):
                yield result, flowing | self._opaque(result)
        for region in op.regions:
            for block in region.blocks:
                for argument in block.args:
                    if tracked(argument):
                        yield argument, flowing | self._opaque(argument)

    def _whole_source(self, value: SSAValue) -> SSAValue:
        """The value `value` is all of, from its first element: back through
        whole views, calls that return an argument whole, loops that carry
        a buffer unchanged (update it in place) and scf.ifs whose branches
        yield the same buffer."""
        while isinstance(owner := value.owner, Operation):
            assert isinstance(value, OpResult)
            if owner.name in WHOLE_VIEW_OPS:
                value = owner.operands[0]
            elif isinstance(owner, scf.ForOp):
                body = owner.body.block
                assert body.last_op is not None
                yielded = self._whole_source(body.last_op.operands[value.index])
                if yielded is not body.args[value.index + 1]:
                    break
                value = owner.iter_args[value.index]
            elif isinstance(owner, scf.IfOp):
                yielded = {
                    self._whole_source(block.last_op.operands[value.index])
                    for region in owner.regions
                    for block in region.blocks
                    if block.last_op is not None
                }
                if len(yielded) != 1:
                    break
                (value,) = yielded
            elif isinstance(owner, func.CallOp):
                summary = self.summaries.of_call(owner)
                argument = summary.whole_arguments.get(value.index)
                if argument is None or argument >= len(owner.arguments):
                    break
                value = owner.arguments[argument]
            else:
                break
        return value

    def _whole_view_of(self, value: SSAValue, base: SSAValue) -> bool:
        """Whether `value` is `base`, or all of it from its first element."""
        return self._whole_source(value) is base

    def _uses(self, source: Source) -> Iterator[Use]:
        for value in self.aliases.get(source, ()):
            yield from value.uses

    # ------------------------------------------------------------------
    # Merges

    def _single_owned(
        self, value: SSAValue, block: Block, what: str, where: str
    ) -> Source:
        """The one owned source of `block` that `value` is (whole), or why not."""
        sources = self.sources.get(value, frozenset[Source]())
        if len(sources) != 1:
            listed = ", ".join(sorted(s.describe() for s in sources)) or "nothing"
            raise NotOwned(f"{what} may be any of several buffers ({listed})")
        (source,) = sources
        if not source.owned or source.block is not block:
            raise NotOwned(f"{what} is {source.describe()}, not a buffer {where}")
        if not self._whole_view_of(value, source.value):
            raise NotOwned(f"{what} is a view of {source.describe()}")
        return source

    def _check_handed_over(
        self, source: Source, terminator: Operation, index: int, what: str
    ) -> None:
        """`source` leaves through `terminator` only as its operand #index,
        and nothing frees it."""
        for position, value in enumerate(terminator.operands):
            if position != index and source in self.sources.get(value, ()):
                raise NotOwned(f"{what} is also yielded as #{position}")
        for use in self._uses(source):
            if self.summaries.frees(use.operation, use.index) is not None:
                raise NotOwned(f"{what} is freed by {use.operation.name}")

    def _check_merge(self, merge: Merge) -> tuple[Source, ...]:
        """The sources whose ownership the merge takes over, or why it does not."""
        op, index = merge.op, merge.index
        if isinstance(op, scf.ForOp):
            block = op.parent_block()
            assert block is not None
            initial = self._single_owned(
                op.iter_args[index],
                block,
                "the initial value",
                "allocated before the loop, in its block",
            )
            init_use = (op, 3 + index)  # after the bounds and the step
            for use in self._uses(initial):
                if (use.operation, use.index) == init_use:
                    continue
                if self.summaries.frees(use.operation, use.index) is not None:
                    raise NotOwned(
                        f"the initial value is freed by {use.operation.name}"
                    )
                user = ancestor_in(block, use.operation)
                if user is None or not user.is_before_in_block(op):
                    raise NotOwned(
                        "the initial value is still used once the loop has "
                        f"started (by {use.operation.name})"
                    )
            body = op.body.block
            terminator = body.last_op
            assert terminator is not None
            fresh = self._single_owned(
                terminator.operands[index],
                body,
                "the yielded value",
                "allocated in the loop body",
            )
            if fresh.kind is Kind.LOOP_ARG:
                raise NotOwned("the yielded value is an iter_arg, not a new buffer")
            self._check_handed_over(fresh, terminator, index, "the yielded value")
            return (initial, fresh)
        taken: list[Source] = []
        for branch, region in (("then", op.true_region), ("else", op.false_region)):
            terminator = region.block.last_op
            assert terminator is not None
            what = f"the value the {branch} branch yields"
            fresh = self._single_owned(
                terminator.operands[index], region.block, what, "allocated there"
            )
            self._check_handed_over(fresh, terminator, index, what)
            taken.append(fresh)
        return tuple(taken)

    # ------------------------------------------------------------------
    # Deallocations

    def owned_sources(self) -> list[Source]:
        """The owned sources of the function, in the order they are defined."""
        values: list[SSAValue] = []
        for op in self._ops:
            for region in op.regions:
                for block in region.blocks:
                    values.extend(block.args)
            values.extend(op.results)
        return [
            source
            for value in values
            if (source := self.own.get(value)) is not None and source.owned
        ]

    def plan(self) -> Plan:
        """Where to free each owned source (after an op, or at the start of a
        block), and why each of the others is not freed; sources that are
        returned, handed over to a merge or freed already are in neither."""
        where: dict[Source, Operation | Block] = {}
        refused: dict[Source, str] = {}
        handed_over = {s for taken in self.accepted.values() for s in taken}
        for source in self.owned_sources():
            if source in handed_over:
                continue
            try:
                decision = self.decide(source)
            except NotOwned as reason:
                refused[source] = str(reason)
                continue
            if not isinstance(decision, Decision):
                where[source] = decision
        return where, refused

    def decide(self, source: Source) -> Operation | Block | Decision:
        """After which op of the source's block (or at the start of which
        block) to free it, or why not to (returned, or freed already), or
        NotOwned if it cannot be freed at all."""
        for use in self._uses(source):
            reason = self.summaries.frees(use.operation, use.index)
            if reason:
                raise NotOwned(reason)
            if reason is not None:
                return Decision.FREED  # not a second time
        block = source.block
        terminator = block.last_op
        last: Operation | None = (
            source.value.op if isinstance(source.value, OpResult) else None
        )
        users = [
            (use.operation, ancestor_in(block, use.operation))
            for use in self._uses(source)
        ]
        if terminator is not None and any(u is terminator for _, u in users):
            return self._leaves_block(source, terminator)
        for user, ancestor in users:
            if ancestor is None:
                # Only a terminator of the block passes values out of it.
                raise NotOwned(f"it is used outside its block (by {user.name})")
            if last is None or last.is_before_in_block(ancestor):
                last = ancestor
        return last if last is not None else block

    def _leaves_block(self, source: Source, terminator: Operation) -> Decision:
        """Returned whole and alone: the caller's. Anything else: NotOwned."""
        passed = [
            (i, v)
            for i, v in enumerate(terminator.operands)
            if source in self.sources.get(v, ())
        ]
        if isinstance(terminator, func.ReturnOp):
            if len(passed) > 1:
                raise NotOwned("it is returned more than once")
            ((position, value),) = passed
            others = [s.describe() for s in self.sources[value] if s is not source]
            if others:
                raise NotOwned(
                    f"result #{position} may be it or {', '.join(sorted(others))}, "
                    "so the caller cannot own it"
                )
            if not self._whole_view_of(value, source.value):
                through = self._whole_source(value).owner
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
        parent = terminator.parent_op()
        assert parent is not None
        # Only the merges of loops and ifs are ever rejected.
        merges = (
            [Merge(parent, position) for position, _ in passed]
            if isinstance(parent, scf.ForOp | scf.IfOp)
            else []
        )
        reasons = [
            f"{merge.describe()}: {self.rejected[merge]}"
            for merge in merges
            if merge in self.rejected
        ]
        detail = f" ({'; '.join(reasons)})" if reasons else ""
        raise NotOwned(
            f"it leaves its block through {terminator.name} into the results of "
            f"{parent.name}, where who owns it cannot be proven{detail}"
        )

    def summary(self) -> Summary:
        """What callers need to know: which results they own, which are
        arguments, which arguments this function may free."""
        summary = Summary()
        entry = self.function.body.block
        terminator = entry.last_op
        if isinstance(terminator, func.ReturnOp):
            for index, value in enumerate(terminator.operands):
                if not tracked(value):
                    continue
                sources = self.sources.get(value, frozenset[Source]())
                if self._returned_whole(value, sources):
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
                whole = self._whole_source(value)
                if isinstance(whole, BlockArgument) and whole.block is entry:
                    summary.whole_arguments[index] = whole.index
        for argument in entry.args:
            source = self.own.get(argument)
            if source is not None and any(
                self.summaries.frees(use.operation, use.index) is not None
                for use in self._uses(source)
            ):
                summary.may_free.add(argument.index)
        return summary

    def _returned_whole(self, value: SSAValue, sources: frozenset[Source]) -> bool:
        if len(sources) != 1:
            return False
        (source,) = sources
        handed_over = {s for taken in self.accepted.values() for s in taken}
        if not source.owned or source in handed_over:
            return False
        try:
            return self.decide(source) is Decision.RETURNED and self._whole_view_of(
                value, source.value
            )
        except NotOwned:
            return False
