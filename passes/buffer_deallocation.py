"""`buffer-deallocation-pipeline`: free the buffers a memref program allocates.

    %t = memref.alloc() : memref<4xf32>
    linalg.exp ins(%x : memref<4xf32>) outs(%t : memref<4xf32>)
    linalg.add ins(%t, %y : ...) outs(%out : memref<4xf32>)

gets `memref.dealloc %t` right after the `linalg.add`, the last use of `%t`
or of a view of it. Upstream MLIR's pipeline of that name inserts
`bufferization.dealloc` ops whose conditions are computed at run time and
lowers them to `memref.dealloc` under `scf.if`s; this pass proves ownership
at compile time instead and frees unconditionally, or does not free at all
(a leak, never a double free; `report` says why). docs/passes/
buffer-deallocation-pipeline.md has the rules.

How it works, per function:

1. Every memref (or tensor) value gets the set of *sources* it may be at run
   time: allocations, function arguments, globals, allocas, call results,
   and opaque values; views (`memref.subview`, `cast`, `expand_shape`, …)
   and `scf.yield`s propagate them, to a fixpoint over loops.
2. A merge point (an `scf.for` iter_arg, an `scf.if` result) that receives
   only fresh allocations, each handing over ownership (a fresh buffer made in
   the loop body or the branch, an owned initial value not used after the
   loop), becomes a source of its own: the loop body owns its iter_arg, the
   enclosing block owns the result. Merges are first all assumed to qualify,
   then the ones that do not are dropped, until none is.
3. Each owned source (a `memref.alloc`, an owned call result, an accepted
   merge) is freed in its block after the last op that uses it or a value
   aliasing it, unless ownership moved (returned, handed to a merge); if an
   alias leaves the block any other way, it is not freed.

Function summaries say, per callee, which results the caller owns (a fresh
allocation returned once and whole), which may be arguments (and which are
all of one), and which arguments the callee may free. Everything is decided
on the program as it is before any `memref.dealloc` is inserted.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from enum import Enum

from xdsl.context import Context
from xdsl.dialects import func, memref, scf
from xdsl.dialects.builtin import (
    MemRefType,
    ModuleOp,
    TensorType,
    UnrankedMemRefType,
    UnrankedTensorType,
)
from xdsl.ir import Block, BlockArgument, Operation, OpResult, SSAValue, Use
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.traits import MemoryEffectKind, get_effects

from linalg_ext.transforms.ordering import ancestor_in

PASS = "buffer-deallocation-pipeline"

VIEW_OPS = frozenset(
    {
        "memref.subview",
        "memref.cast",
        "memref.expand_shape",
        "memref.collapse_shape",
        "memref.reinterpret_cast",
        "memref.transpose",
        "memref.view",
        "memref.memory_space_cast",
        "memref.assume_alignment",
    }
)
"""Ops whose memref result is a view of their (first) memref operand."""

CHOICE_OPS = frozenset({"arith.select"})
"""Ops whose result is one of their operands."""

WHOLE_VIEW_OPS = frozenset(
    {"memref.cast", "memref.expand_shape", "memref.collapse_shape"}
)
"""Views that cover the whole buffer from its first element: freeing one
frees the buffer, and a function may hand one over as its result."""


def _tracked(value: SSAValue) -> bool:
    """Whether a value can refer to a buffer (memrefs, and tensors, which
    `bufferization.to_tensor` can make from a buffer)."""
    return isinstance(
        value.type, MemRefType | UnrankedMemRefType | TensorType | UnrankedTensorType
    )


def _is_memref(value: SSAValue) -> bool:
    return isinstance(value.type, MemRefType | UnrankedMemRefType)


class Kind(Enum):
    ALLOC = "memref.alloc"
    CALL = "call result"
    LOOP_ARG = "scf.for iter_arg"
    LOOP_RESULT = "scf.for result"
    IF_RESULT = "scf.if result"
    ARGUMENT = "function argument"
    GLOBAL = "memref.get_global"
    ALLOCA = "memref.alloca"
    OPAQUE = "opaque"


OWNED_KINDS = frozenset(
    {Kind.ALLOC, Kind.CALL, Kind.LOOP_ARG, Kind.LOOP_RESULT, Kind.IF_RESULT}
)


@dataclass(eq=False)
class Source:
    """A buffer as the analysis knows it: `value` is the buffer itself."""

    kind: Kind
    value: SSAValue

    @property
    def owned(self) -> bool:
        """Whether the function owns it (must free it or hand it over)."""
        return self.kind in OWNED_KINDS

    @property
    def block(self) -> Block:
        """Where it is defined: the block that frees it."""
        value = self.value
        if isinstance(value, BlockArgument):
            return value.block
        assert isinstance(value, OpResult)
        block = value.op.parent_block()
        assert block is not None
        return block

    def describe(self) -> str:
        value = self.value
        hint = f"%{value.name_hint}" if value.name_hint else None
        if self.kind is Kind.ARGUMENT:
            assert isinstance(value, BlockArgument)
            return f"function argument #{value.index}" + (f" {hint}" if hint else "")
        if self.kind is Kind.OPAQUE:
            owner = value.owner
            what = owner.name if isinstance(owner, Operation) else "a block argument"
            return f"{hint or 'a value'} (from {what})"
        return f"{hint or 'a buffer'} ({self.kind.value})"


@dataclass
class Summary:
    """What a caller needs to know about a function."""

    owned_results: set[int] = field(default_factory=set[int])
    """Results the caller owns: each a fresh buffer, returned once, whole."""
    result_arguments: dict[int, set[int]] = field(default_factory=dict[int, set[int]])
    """Per result, the arguments it may be (or be a view of)."""
    whole_arguments: dict[int, int] = field(default_factory=dict[int, int])
    """Results that are always all of one argument (it, or a whole view)."""
    opaque_results: set[int] = field(default_factory=set[int])
    """Results that may be something the caller knows nothing about."""
    may_free: set[int] = field(default_factory=set[int])
    """Arguments the function may free."""
    unknown: str = ""
    """Why nothing is known about the function, if nothing is: then every
    result is opaque and every argument may be freed."""


def _unknown_summary(function: func.FuncOp | None, why: str) -> Summary:
    outputs = function.function_type.outputs.data if function is not None else ()
    return Summary(opaque_results=set(range(len(outputs))), unknown=why)


@dataclass(frozen=True)
class Merge:
    """An scf.for iter_arg (with its result) or an scf.if result."""

    op: scf.ForOp | scf.IfOp
    index: int

    def describe(self) -> str:
        what = "iter_arg" if isinstance(self.op, scf.ForOp) else "result"
        return f"{what} #{self.index} of {self.op.name}"


Plan = tuple[dict[Source, Operation | Block], dict[Source, str]]
"""Where to free each buffer, and why the ones not freed are not."""


class NotOwned(Exception):
    """Why a buffer cannot be freed, or why a merge point does not own what
    flows into it."""


class Decision(Enum):
    RETURNED = "returned"
    FREED = "already freed"


class FunctionAnalysis:
    """Sources of every value of one (single-block) function, and where to
    free each buffer it owns."""

    def __init__(self, function: func.FuncOp, summaries: Summaries):
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
                    if _is_memref(value):
                        yield Merge(op, index)
            elif isinstance(op, scf.IfOp) and op.false_region.blocks:
                for index, value in enumerate(op.output):
                    if _is_memref(value):
                        yield Merge(op, index)

    def _set_own(self, kind: Kind, value: SSAValue) -> None:
        source = Source(kind, value)
        self.own[value] = source
        self.sources[value] = frozenset({source})

    def _compute_sources(self, merges: list[Merge]) -> None:
        self.own = {}
        self.sources = {}
        for argument in self.function.body.block.args:
            if _tracked(argument):
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
                if _tracked(result):
                    yield result, self._of(v for v in op.operands if _tracked(v))
            return
        if isinstance(op, scf.ForOp):
            terminator = op.body.block.last_op
            assert terminator is not None
            for index, (init, result) in enumerate(
                zip(op.iter_args, op.res, strict=True)
            ):
                if _tracked(result):
                    sources = self._of((init, terminator.operands[index]))
                    yield op.body.block.args[index + 1], sources
                    yield result, sources
            return
        if isinstance(op, scf.IfOp):
            for index, result in enumerate(op.output):
                if _tracked(result):
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
                if not _tracked(result) or index in summary.owned_results:
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
            if _tracked(value)
        ]
        flowing = self._of([v for v in op.operands if _tracked(v)] + inner)
        for result in op.results:
            if _tracked(result):
                yield result, flowing | self._opaque(result)
        for region in op.regions:
            for block in region.blocks:
                for argument in block.args:
                    if _tracked(argument):
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
        reasons = [
            f"{merge.describe()}: {self.rejected[merge]}"
            for position, _ in passed
            if (merge := Merge(parent, position)) in self.rejected  # pyright: ignore[reportArgumentType]
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
                if not _tracked(value):
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


class Summaries:
    """The summaries and analyses of one module's functions, on demand."""

    def __init__(self, module: ModuleOp):
        self.functions: dict[str, func.FuncOp] = {
            op.sym_name.data: op for op in module.walk() if isinstance(op, func.FuncOp)
        }
        self.done: dict[str, Summary] = {}
        self.analyses: dict[str, FunctionAnalysis] = {}
        self.in_progress: set[str] = set()

    def analysis(self, function: func.FuncOp) -> FunctionAnalysis | None:
        """The function's analysis, None if it has no body or several blocks."""
        if function.is_declaration or len(function.body.blocks) != 1:
            return None
        name = function.sym_name.data
        if name not in self.analyses:
            self.in_progress.add(name)
            try:
                self.analyses[name] = FunctionAnalysis(function, self)
            finally:
                self.in_progress.discard(name)
        return self.analyses[name]

    def of(self, name: str) -> Summary:
        if name in self.done:
            return self.done[name]
        function = self.functions.get(name)
        if function is None:
            return _unknown_summary(None, f"@{name} is not in the module")
        if name in self.in_progress:
            # A recursive call: nothing is known yet.
            return _unknown_summary(function, f"@{name} is recursive")
        if function.is_declaration:
            # Upstream's convention: a function returns buffers its caller
            # owns, and does not free its arguments.
            summary = Summary(
                owned_results={
                    i
                    for i, t in enumerate(function.function_type.outputs.data)
                    if isinstance(t, MemRefType | UnrankedMemRefType)
                }
            )
        elif (analysis := self.analysis(function)) is None:
            summary = _unknown_summary(
                function, f"@{name} has several blocks, which the pass does not follow"
            )
        else:
            summary = analysis.summary()
        self.done[name] = summary
        return summary

    def of_call(self, op: func.CallOp) -> Summary:
        return self.of(op.callee.root_reference.data)

    def frees(self, op: Operation, index: int) -> str | None:
        """Whether `op` may free its operand #index: None if not, "" if it
        does (a dealloc, a callee that frees that argument), else why it
        may (a callee the pass knows nothing about)."""
        if isinstance(op, memref.DeallocOp):
            return ""
        if isinstance(op, func.CallOp):
            summary = self.of_call(op)
            if summary.unknown:
                callee = op.callee.root_reference.data
                return (
                    f"it is passed to @{callee}, which may free it ({summary.unknown})"
                )
            return "" if index in summary.may_free else None
        if op.name == "func.call_indirect" and index > 0:
            return "it is passed to an indirect call, which may free it"
        effects = get_effects(op)
        if effects and any(e.kind is MemoryEffectKind.FREE for e in effects):
            return ""  # e.g. bufferization.dealloc: it takes care of the buffer
        return None


def _label(source: Source, number: dict[Source, int]) -> str:
    """`%t (memref.alloc)`, or for a value with no name, its kind, its place
    among the function's owned buffers and its type."""
    value = source.value
    if value.name_hint:
        return f"%{value.name_hint} ({source.kind.value})"
    return f"{source.kind.value} #{number[source]} ({value.type})"


@dataclass(frozen=True)
class BufferDeallocationPass(ModulePass):
    """Insert `memref.dealloc` for every buffer a function allocates and does
    not return (see the module docstring and
    docs/passes/buffer-deallocation-pipeline.md)."""

    name = "buffer-deallocation-pipeline"

    report: bool = False
    """Print one line per buffer left unfreed, with the reason, to stderr."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        summaries = Summaries(op)
        functions = [
            f for f in op.walk() if isinstance(f, func.FuncOp) and not f.is_declaration
        ]
        # Decide everything on the program as it is, then insert.
        plans: list[tuple[str, FunctionAnalysis | None, Plan]] = []
        for function in functions:
            name = function.sym_name.data
            analysis = summaries.analysis(function)
            plans.append((name, analysis, analysis.plan() if analysis else ({}, {})))
        for name, analysis, (where, refused) in plans:
            self._insert(where)
            if not self.report:
                continue
            if analysis is None:
                if any(
                    isinstance(o, memref.AllocOp)
                    for o in summaries.functions[name].walk()
                ):
                    self._print(
                        name,
                        "function not handled: it has several blocks "
                        "(unstructured control flow), so nothing in it is freed",
                    )
                continue
            number = {s: n for n, s in enumerate(analysis.owned_sources())}
            for source, reason in refused.items():
                self._print(name, f"{_label(source, number)} not freed: {reason}")

    @staticmethod
    def _print(function: str, message: str) -> None:
        print(f"{PASS}: @{function}: {message}", file=sys.stderr)

    @staticmethod
    def _insert(where: dict[Source, Operation | Block]) -> None:
        grouped: dict[Operation | Block, list[Source]] = {}
        for source, anchor in where.items():
            grouped.setdefault(anchor, []).append(source)
        for anchor, sources in grouped.items():
            deallocs = [memref.DeallocOp.get(s.value) for s in sources]
            point = (
                InsertPoint.at_start(anchor)
                if isinstance(anchor, Block)
                else InsertPoint.after(anchor)
            )
            Rewriter.insert_op(deallocs, point)
