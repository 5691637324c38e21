"""The ownership analysis of one function, and where to free its buffers.

`FunctionAnalysis` follows the steps the package docstring lists: sources
of every value to a fixpoint, merges accepted until all remaining ones own
what flows in, then `plan()`: after which op (or at the start of which
block) each owned buffer is freed, and why the others are not.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from xdsl.dialects import func, memref, scf
from xdsl.ir import Block, Operation, OpResult, SSAValue, Use

from linalg_ext.deallocation.buffers import (
    CHOICE_OPS,
    VIEW_OPS,
    Decision,
    Incoming,
    Kind,
    MayBeView,
    Merge,
    NotOwned,
    Plan,
    Source,
    is_memref,
    tracked,
)
from linalg_ext.deallocation.returns import (
    function_summary,
    leaves_function,
    plan_returns,
)
from linalg_ext.deallocation.summary import CallSummaries, Summary
from linalg_ext.deallocation.values import (
    choices,
    copyable,
    is_copy_choice,
    whole_source,
)
from linalg_ext.transforms.ordering import ancestor_in

ACROSS_BLOCKS = "the pass follows no buffer across blocks (unstructured control flow)"


class FunctionAnalysis:
    """Sources of every value of one function, and where to free each buffer
    it owns. In a function of several blocks (`cf` branches), a buffer is
    freed only when it is used in the block that defines it alone (it does
    not follow buffers across blocks)."""

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
        """Merges that take nothing over, with why not statically."""
        self.incoming: dict[Merge, list[Incoming]] = {}
        """Flagged merges (ownership known at run time), with what flows in."""
        self._ops = list(function.walk())
        self._positions: dict[SSAValue, int] = {}
        """Every value of the function, numbered in order of definition."""
        for op in self._ops:
            for region in op.regions:
                for block in region.blocks:
                    for argument in block.args:
                        self._positions[argument] = len(self._positions)
            for result in op.results:
                self._positions[result] = len(self._positions)
        self._flagged: set[Merge] = set()
        self._handover_refused: dict[Source, str] = {}
        """Buffers flagged merges cannot take over, with why (not freed)."""
        self._taken: set[Source] = set()
        """Buffers flagged merges take over when they are what flows in."""
        self._after_copy: set[Source] = set()
        """Buffers a passed-on value may be a view of: freed after its copy
        (or, returned as a view no copy can stand for, when no result is
        it: see `returns`)."""
        self.returns: dict[int, Incoming] = {}
        """Results returned as they are, copied or retained, by a run-time
        check (`returns.plan_returns`)."""
        self._initial_kept: set[Merge] = set()
        """Flagged loops that do not take over their initial buffer."""
        statics = list(self._merges())
        flagged: list[Merge] = []
        # Assume every merge owns what flows in, drop those that do not,
        # until the rest all do (dropping one can only make others fail);
        # a dropped merge gets a run-time ownership flag instead if anything
        # flowing into it may be a buffer to take over.
        while True:
            self._flagged = set(flagged)
            self._compute_sources(statics + flagged)
            accepted: dict[Merge, tuple[Source, ...]] = {}
            rejected: dict[Merge, str] = {}
            for merge in statics:
                try:
                    accepted[merge] = self._check_merge(merge)
                except NotOwned as reason:
                    rejected[merge] = str(reason)
            self.rejected.update(rejected)
            if rejected:
                # Settle the static merges first: flags are decided on them.
                statics = [m for m in statics if m not in rejected]
                flagged += list(rejected)
                continue
            changed = False
            for merge in flagged:
                if (
                    isinstance(merge.op, scf.ForOp)
                    and merge not in self._initial_kept
                    and self._initial_problem(merge)
                ):
                    self._initial_kept.add(merge)
                    changed = True
            self._set_incoming(flagged)
            # A flag is worth it only if the merge's own buffer gets freed
            # (or taken over by an enclosing merge); a returned one is not.
            # One at a time, outermost first: dropping it may change what
            # the merges inside it can hand over.
            dropped = next(
                (
                    m
                    for m in sorted(flagged, key=self._merge_order)
                    if not self._flaggable(m) or self._own_refused(m)
                ),
                None,
            )
            if dropped is None and not changed:
                self.accepted = accepted
                break
            flagged = [m for m in flagged if m is not dropped]
        for merge in flagged:
            del self.rejected[merge]

    def _merge_order(self, merge: Merge) -> tuple[int, int]:
        return (self._positions[merge.op.results[0]], merge.index)

    def _set_incoming(self, flagged: list[Merge]) -> None:
        """What flows into each flagged merge, which buffers they take over
        and which they cannot."""
        self.incoming = {merge: self._incoming(merge) for merge in flagged}
        self.returns = plan_returns(self)
        places = [p for incoming in self.incoming.values() for p in incoming]
        places += self.returns.values()
        self._handover_refused = {
            source: reason
            for place in places
            for source, reason in place.refused.items()
        }
        self._taken = {source for place in places for source in place.taken}
        self._after_copy = {
            s for place in places for s in (*place.after, *place.retained)
        }

    def _own_refused(self, merge: Merge) -> bool:
        """Whether a buffer the flagged merge owns could not be freed."""
        for value in self._merge_values(merge):
            source = self.own.get(value)
            if source is None or source in self._taken:
                continue
            try:
                self.decide(source)
            except NotOwned:
                return True
        return False

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

    def _set_own(self, kind: Kind, value: SSAValue, flag: Merge | None = None) -> None:
        source = Source(kind, value, flag)
        self.own[value] = source
        self.sources[value] = frozenset({source})

    def _compute_sources(self, merges: list[Merge]) -> None:
        self.own = {}
        self.sources = {}
        for argument in self.function.body.blocks[0].args:
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
        flagged_values: set[SSAValue] = set()
        for merge in merges:
            op, index = merge.op, merge.index
            flag = merge if merge in self._flagged else None
            if isinstance(op, scf.ForOp):
                values = (op.body.block.args[index + 1], op.res[index])
                self._set_own(Kind.LOOP_ARG, values[0], flag)
                self._set_own(Kind.LOOP_RESULT, values[1], flag)
            else:
                values = (op.output[index],)
                self._set_own(Kind.IF_RESULT, values[0], flag)
            if flag is not None:
                # Its own buffer, and what flows in but is not taken over.
                flagged_values.update(values)
        fixed = set(self.sources) - flagged_values
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
            body = op.body.block
            terminator = body.last_op
            assert terminator is not None
            for index, (init, result) in enumerate(
                zip(op.iter_args, op.res, strict=True)
            ):
                if not tracked(result):
                    continue
                merge = Merge(op, index)
                yielded = terminator.operands[index]
                if merge in self._flagged:
                    initial = self._of((init,))
                    if merge not in self._initial_kept:
                        initial -= {self._initial_source(merge)}
                    sources = initial | self._not_taken(yielded, body)
                else:
                    sources = self._of((init, yielded))
                yield body.args[index + 1], sources
                yield result, sources
            return
        if isinstance(op, scf.IfOp):
            for index, result in enumerate(op.output):
                if not tracked(result):
                    continue
                yields = [
                    (block, terminator.operands[index])
                    for region in op.regions
                    for block in region.blocks
                    if (terminator := block.last_op) is not None
                ]
                if Merge(op, index) in self._flagged:
                    sources = frozenset[Source]().union(
                        *(self._not_taken(value, block) for block, value in yields)
                    )
                else:
                    sources = self._of(value for _, value in yields)
                yield result, sources
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
        # A branch (`cf.br`, `cf.cond_br`) passes its operands to the
        # arguments of the blocks it jumps to.
        for successor in op.successors:
            for argument in successor.args:
                if tracked(argument):
                    yield argument, flowing | self._opaque(argument)

    def whole_source(self, value: SSAValue) -> SSAValue:
        return whole_source(value, self.summaries)

    def _whole_view_of(self, value: SSAValue, base: SSAValue) -> bool:
        """Whether `value` is `base`, or all of it from its first element."""
        return self.whole_source(value) is base

    def uses(self, source: Source) -> Iterator[Use]:
        for value in self.aliases.get(source, ()):
            yield from value.uses

    # ------------------------------------------------------------------
    # Merges

    def _not_taken(self, value: SSAValue, block: Block) -> frozenset[Source]:
        """What `value`, yielded by `block` into a flagged merge, may be that
        the merge does not take over: all but the buffers `block` owns."""
        return frozenset(
            s
            for s in self.sources.get(value, frozenset[Source]())
            if not (s.owned and s.block is block)
        )

    def _initial_source(self, merge: Merge) -> Source | None:
        """The buffer a flagged loop may take over as its initial value: one
        its block owns, all of which is the initial value."""
        op = merge.op
        assert isinstance(op, scf.ForOp)
        source = self.own.get(self.whole_source(op.iter_args[merge.index]))
        if source is None or not source.owned or source.block is not op.parent_block():
            return None
        return source

    def _initial_problem(self, merge: Merge) -> str | None:
        """Why a flagged loop cannot take over its initial buffer, if not."""
        source = self._initial_source(merge)
        if source is None:
            return "the initial value is no buffer of the loop's block"
        try:
            self._check_unused_after(source, merge)
        except NotOwned as reason:
            return str(reason)
        return None

    def _check_unused_after(self, initial: Source, merge: Merge) -> None:
        """`initial`, the initial value of a loop, is neither freed nor used
        once the loop has started."""
        op, index = merge.op, merge.index
        block = op.parent_block()
        assert block is not None
        init_use = (op, 3 + index)  # after the bounds and the step
        for use in self.uses(initial):
            if (use.operation, use.index) == init_use:
                continue
            if self.summaries.frees(use.operation, use.index) is not None:
                raise NotOwned(f"the initial value is freed by {use.operation.name}")
            user = ancestor_in(block, use.operation)
            if user is None or not user.is_before_in_block(op):
                raise NotOwned(
                    "the initial value is still used once the loop has "
                    f"started (by {use.operation.name})"
                )

    def _merge_values(self, merge: Merge) -> tuple[SSAValue, ...]:
        op, index = merge.op, merge.index
        if isinstance(op, scf.ForOp):
            return (op.body.block.args[index + 1], op.res[index])
        return (op.output[index],)

    def _flaggable(self, merge: Merge) -> bool:
        """Whether a merge gets a run-time ownership flag: something may flow
        in that it can take over, and nothing its values may be is freed
        already (the pass ran before)."""
        if is_copy_choice(self._merge_values(merge)[-1]):
            return False  # what the pass made of a returned result before
        for value in self._merge_values(merge):
            source = self.own.get(value)
            for use in self.uses(source) if source else value.uses:
                if self.summaries.frees(use.operation, use.index) is not None:
                    return False
        # A new buffer must be able to come from a branch or the loop body
        # (a loop that only carries its initial buffer needs no flag).
        own = self._merge_values(merge)[0]
        return any(
            source.value is not own
            for place in self.incoming[merge]
            if isinstance(place.anchor, scf.YieldOp)
            for source in place.taken + place.after
        )

    def _incoming(self, merge: Merge) -> list[Incoming]:
        op, index = merge.op, merge.index
        places: list[Incoming] = []
        if isinstance(op, scf.ForOp):
            block = op.parent_block()
            assert block is not None
            initial = None
            if merge not in self._initial_kept:
                initial = self._initial_source(merge)
            taken = [initial] if initial else []
            places.append(Incoming(op.iter_args[index], block, op, taken, {}, taken))
            blocks = [op.body.block]
        else:
            blocks = [op.true_region.block, op.false_region.block]
        for block in blocks:
            terminator = block.last_op
            assert terminator is not None
            value = terminator.operands[index]
            taken: list[Source] = []
            refused: dict[Source, str] = {}
            owned = [
                s
                for s in self.sources.get(value, frozenset[Source]())
                if s.owned and s.block is block
            ]
            after: list[Source] = []
            for source in sorted(owned, key=self.order):
                try:
                    self.check_taken(source, value, terminator, index)
                    taken.append(source)
                except MayBeView as reason:
                    if copyable(value.type):
                        # A view of it is yielded as a copy, then it is freed.
                        after.append(source)
                        continue
                    refused[source] = (
                        f"it leaves its block through {terminator.name} into "
                        f"{merge.describe()}, which cannot take it over: {reason} "
                        f"(and no copy of {value.type} can be made)"
                    )
                except NotOwned as reason:
                    refused[source] = (
                        f"it leaves its block through {terminator.name} into "
                        f"{merge.describe()}, which cannot take it "
                        f"over: {reason}"
                    )
            whole = [s for s in taken if self.whole_source(value) is s.value]
            places.append(
                Incoming(value, block, terminator, taken, refused, whole, after)
            )
        return places

    def order(self, source: Source) -> int:
        return self._positions.get(source.value, -1)

    def check_taken(
        self,
        source: Source,
        value: SSAValue,
        terminator: Operation,
        index: int,
        *,
        alone: bool = True,
    ) -> None:
        """A flagged merge can take over `source` when the terminator yields
        it as `value` (operand #index): all of it, only there (unless not
        `alone`: a function's results share buffers out), and nothing else
        uses or frees it outside its block."""
        for position, other in enumerate(terminator.operands):
            if alone and position != index and source in self.sources.get(other, ()):
                raise NotOwned(f"it is also yielded as #{position}")
        block = terminator.parent_block()
        assert block is not None
        for use in self.uses(source):
            if self.summaries.frees(use.operation, use.index) is not None:
                raise NotOwned(f"it is freed by {use.operation.name}")
            if ancestor_in(block, use.operation) is None:
                raise NotOwned(
                    f"it is used outside its block (by {use.operation.name})"
                )
        visited, ends = choices(value, self.summaries)
        if source.value not in visited or any(
            end is not source.value and source in self.sources.get(end, ())
            for end in ends
        ):
            raise MayBeView("what is yielded may be a view of it")

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
        if source.flag is not None:
            raise NotOwned(f"{what} is {source.describe()}, owned only on some runs")
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
        for use in self.uses(source):
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
            self._check_unused_after(initial, merge)
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
        return [
            source
            for value in self._positions
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
            if source in handed_over or source in self._taken:
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
        if source in self._handover_refused:
            raise NotOwned(self._handover_refused[source])
        for use in self.uses(source):
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
            for use in self.uses(source)
        ]
        if terminator is not None and any(u is terminator for _, u in users):
            if source in self._after_copy:
                return Decision.AFTER_COPY
            return self._leaves_block(source, terminator)
        for user, ancestor in users:
            if ancestor is None:
                # Only a terminator of the block passes values out of it.
                why = f"it is used outside its block (by {user.name})"
                if len(self.function.body.blocks) > 1:
                    why += f": {ACROSS_BLOCKS}"
                raise NotOwned(why)
            if last is None or last.is_before_in_block(ancestor):
                last = ancestor
        return last if last is not None else block

    def _leaves_block(self, source: Source, terminator: Operation) -> Decision:
        """Returned whole and alone: the caller's. Anything else: NotOwned."""
        if isinstance(terminator, func.ReturnOp):
            return leaves_function(self, source, terminator)
        passed = [
            (i, v)
            for i, v in enumerate(terminator.operands)
            if source in self.sources.get(v, ())
        ]
        parent = terminator.parent_op()
        assert parent is not None
        if isinstance(parent, func.FuncOp):
            raise NotOwned(
                f"it leaves its block through {terminator.name}: {ACROSS_BLOCKS}"
            )
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
        """What callers need to know (see `returns.function_summary`)."""
        return function_summary(self)
