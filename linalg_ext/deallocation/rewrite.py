"""Insert what a function's deallocation plan says: `memref.dealloc`s, and
the run-time ownership flags of the merges that need them.

A flagged merge (an `scf.if` result or `scf.for` iter_arg that may or may
not be a buffer to free, see `FunctionAnalysis`) gets one more `i1` result
(and, for a loop, iter_arg): true when the buffer it carries is owned. Where
a branch or the loop body yields a value that may be a buffer its block
owns, the flag is computed before the `scf.yield` by comparing addresses
(`memref.extract_aligned_pointer_as_index`), and each owned buffer that is
not the one yielded is freed there (`scf.if` around `memref.dealloc`). A
yielded or returned value that may be a view of a buffer its block owns is
passed on as a copy when it is one, and the buffer is freed after the copy.
A buffer whose ownership is a flag is freed under that flag.
"""

from __future__ import annotations

from xdsl.dialects import arith, func, memref, scf
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    IndexType,
    IntegerType,
    MemRefType,
    NoneAttr,
)
from xdsl.ir import Block, Operation, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from linalg_ext.deallocation.buffers import Incoming, Kind, Merge, Source
from linalg_ext.deallocation.function_analysis import FunctionAnalysis

I1 = IntegerType(1)

Condition = bool | SSAValue
"""Known when the pass runs (a Python bool), or an i1 value."""


class _Builder:
    """Builds conditions and deallocations at an insertion point, folding
    what is known."""

    def __init__(self, point: InsertPoint):
        self.point = point

    def add(self, op: Operation) -> Operation:
        Rewriter.insert_op(op, self.point)
        return op

    def value(self, condition: Condition) -> SSAValue:
        if isinstance(condition, bool):
            return self.add(
                arith.ConstantOp.from_int_and_width(int(condition), I1)
            ).results[0]
        return condition

    def and_(self, a: Condition, b: Condition) -> Condition:
        if isinstance(a, bool):
            return b if a else False
        if isinstance(b, bool):
            return a if b else False
        return self.add(arith.AndIOp(a, b)).results[0]

    def or_(self, a: Condition, b: Condition) -> Condition:
        if isinstance(a, bool):
            return True if a else b
        if isinstance(b, bool):
            return True if b else a
        return self.add(arith.OrIOp(a, b)).results[0]

    def not_(self, a: Condition) -> Condition:
        if isinstance(a, bool):
            return not a
        return self.add(arith.XOrIOp(a, self.value(True))).results[0]

    def same(self, a: SSAValue, b: SSAValue) -> SSAValue:
        pointers = [
            self.add(memref.ExtractAlignedPointerAsIndexOp.get(v)).results[0]
            for v in (a, b)
        ]
        return self.add(arith.CmpiOp(pointers[0], pointers[1], "eq")).results[0]

    def free(self, buffer: SSAValue, condition: Condition) -> None:
        if condition is False:
            return
        if condition is True:
            self.add(memref.DeallocOp.get(buffer))
            return
        self.add(scf.IfOp(condition, [], [memref.DeallocOp.get(buffer), scf.YieldOp()]))


def _copy(value: SSAValue) -> list[Operation]:
    """Ops that copy the buffer `value` (of the identity layout) into a new
    one and yield it."""
    type_ = value.type
    assert isinstance(type_, MemRefType)
    ops: list[Operation] = []
    sizes: list[SSAValue] = []
    for axis, size in enumerate(type_.get_shape()):
        if size == DYNAMIC_INDEX:
            index = arith.ConstantOp.from_int_and_width(axis, IndexType())
            dim = memref.DimOp(value, index)
            ops += [index, dim]
            sizes.append(dim.result)
    copy = memref.AllocOp.get(
        type_.element_type,
        shape=type_.get_shape(),
        dynamic_sizes=sizes,
        memory_space=type_.memory_space,
    )
    ops += [copy, memref.CopyOp(value, copy)]
    if isinstance(type_.layout, NoneAttr):
        return [*ops, scf.YieldOp(copy)]
    # A layout of dynamic strides and offset: the copy cast to it.
    cast = memref.CastOp.get(copy, type_)
    return [*ops, cast, scf.YieldOp(cast)]


class DeallocationRewriter:
    """Applies one function's plan (see the module docstring)."""

    def __init__(self, analysis: FunctionAnalysis):
        self.analysis = analysis
        self.values: dict[SSAValue, SSAValue] = {}
        """Results of rebuilt merge ops: old value to new."""
        self.ops: dict[Operation, Operation] = {}
        """Rebuilt merge ops: old to new."""
        self.flags: dict[Merge, tuple[SSAValue, SSAValue | None]] = {}
        """Per flagged merge, its flag result and (loops) its flag iter_arg."""

    def value(self, value: SSAValue) -> SSAValue:
        return self.values.get(value, value)

    def owned(self, source: Source) -> Condition:
        """Whether `source` is owned: always, or its merge's flag."""
        if source.flag is None:
            return True
        result, iter_arg = self.flags[source.flag]
        if source.kind is Kind.LOOP_ARG:
            assert iter_arg is not None
            return iter_arg
        return result

    def apply(self, where: dict[Source, Operation | Block]) -> None:
        merges: dict[Operation, list[Merge]] = {}
        for merge in self.analysis.incoming:
            merges.setdefault(merge.op, []).append(merge)
        # Outer ops first: a loop's initial flags may be an outer flag.
        for op in [o for o in self.analysis.function.walk() if o in merges]:
            self._rebuild(op, sorted(merges[op], key=lambda m: m.index))
        for op, flagged in merges.items():
            self._yield_flags(self.ops[op], sorted(flagged, key=lambda m: m.index))
        self._return_copies()
        self._free(where)

    def _rebuild(self, op: Operation, flagged: list[Merge]) -> None:
        """`op` with one more i1 result (and iter_arg) per flagged merge."""
        count = len(op.results)
        if isinstance(op, scf.ForOp):
            build = _Builder(InsertPoint.before(op))
            initial = [
                build.value(self._initial_flag(self.analysis.incoming[m][0]))
                for m in flagged
            ]
            body = op.detach_region(op.body)
            for _ in flagged:
                body.block.insert_arg(I1, len(body.block.args))
            new: Operation = scf.ForOp(
                op.lb, op.ub, op.step, [*op.iter_args, *initial], body
            )
            arguments = body.block.args[1 + count :]
        else:
            assert isinstance(op, scf.IfOp)
            true_region, false_region = op.true_region, op.false_region
            op.detach_region(true_region)
            op.detach_region(false_region)
            new = scf.IfOp(
                op.cond,
                [*op.result_types, *(I1 for _ in flagged)],
                true_region,
                false_region,
            )
            arguments = [None for _ in flagged]
        for old, result in zip(op.results, new.results, strict=False):
            self.values[old] = result
        Rewriter.replace_op(op, new, new_results=list(new.results[:count]))
        self.ops[op] = new
        for k, merge in enumerate(flagged):
            self.flags[merge] = (new.results[count + k], arguments[k])

    def _initial_flag(self, place: Incoming) -> Condition:
        # The initial buffer a loop takes over is all of the initial value.
        return self.owned(place.taken[0]) if place.taken else False

    def _yield_flags(self, op: Operation, flagged: list[Merge]) -> None:
        for region in op.regions:
            for block in region.blocks:
                terminator = block.last_op
                assert isinstance(terminator, scf.YieldOp)
                build = _Builder(InsertPoint.before(terminator))
                operands = list(terminator.operands)
                extra: list[SSAValue] = []
                for merge in flagged:
                    place = self._place(merge, block)
                    flag = self._handover(build, place, merge.index)
                    if place.after:
                        copied, operands[merge.index] = self._copy_views(
                            build, place, operands[merge.index]
                        )
                        flag = build.or_(flag, copied)
                    extra.append(build.value(flag))
                Rewriter.replace_op(terminator, scf.YieldOp(*operands, *extra))

    def _place(self, merge: Merge, block: Block) -> Incoming:
        for place in self.analysis.incoming[merge]:
            if place.block is block and isinstance(place.anchor, scf.YieldOp):
                return place
        raise AssertionError("every branch of a flagged merge yields into it")

    def _handover(self, build: _Builder, place: Incoming, index: int) -> Condition:
        """The flag of what the terminator yields as #index; frees the
        buffers its block owns that are not what it yields."""
        terminator = place.anchor
        yielded = terminator.operands[index]
        flag: Condition = False
        for source in place.taken:
            owned = self.owned(source)
            if source in place.whole:
                same: Condition = True
            else:
                same = build.same(yielded, self.value(source.value))
            flag = build.or_(flag, build.and_(same, owned))
            build.free(self.value(source.value), build.and_(owned, build.not_(same)))
        return flag

    @staticmethod
    def _copy_here(build: _Builder, value: SSAValue) -> SSAValue:
        """A copy of `value`, made unconditionally."""
        copy = _copy(value)
        for op in copy[:-1]:
            build.add(op)
        return copy[-1].operands[0]

    def _copy_views(
        self, build: _Builder, place: Incoming, value: SSAValue
    ) -> tuple[Condition, SSAValue]:
        """`value`, or a copy of it when it is (a view of) one of the buffers
        of `place.after` (which are then freed): whether it is a copy, and
        the value to pass on."""
        copied: Condition = False
        certain = self.analysis.sources.get(place.value) == frozenset(place.after)
        for source in place.after:
            # A view of a single buffer needs no address comparison.
            same = True if certain else build.same(value, self.value(source.value))
            copied = build.or_(copied, build.and_(same, self.owned(source)))
        if copied is True:
            result = self._copy_here(build, value)
        else:
            result = build.add(
                scf.IfOp(
                    build.value(copied),
                    [value.type],
                    _copy(value),
                    [scf.YieldOp(value)],
                )
            ).results[0]
        for source in place.after:
            build.free(self.value(source.value), self.owned(source))
        return copied, result

    def _return_copies(self) -> None:
        """The results `returns.plan_returns` planned: each returned as it
        is when it is a buffer it hands over (or a view no copy can stand
        for), else as a copy the caller owns; then the buffers not returned
        are freed (after every copy: a result may be a view of any)."""
        if not self.analysis.returns:
            return
        terminator = self.analysis.function.body.block.last_op
        assert isinstance(terminator, func.ReturnOp)
        build = _Builder(InsertPoint.before(terminator))
        results = list(terminator.operands)
        places = sorted(self.analysis.returns.items())
        same: dict[tuple[int, Source], Condition] = {}
        for index, place in places:
            value = results[index]
            for source in place.taken + place.retained:
                # A value all of, or a view of, that one buffer alone needs
                # no address comparison.
                certain = source in place.whole or (
                    source in place.retained
                    and self.analysis.sources.get(place.value) == {source}
                )
                same[index, source] = (
                    True if certain else build.same(value, self.value(source.value))
                )
            if place.retained:
                continue  # no copy of its type can be made
            owned: Condition = False
            for source in place.taken:
                owned = build.or_(
                    owned, build.and_(same[index, source], self.owned(source))
                )
            if owned is True:
                continue
            if owned is False:  # never the caller's: always a copy
                results[index] = self._copy_here(build, value)
                continue
            results[index] = build.add(
                scf.IfOp(
                    build.value(owned), [value.type], [scf.YieldOp(value)], _copy(value)
                )
            ).results[0]
        # Each buffer once: kept where a result that hands it over or
        # retains it is it, else freed (the copies are made).
        kept: dict[Source, Condition] = {}
        for index, place in places:
            for source in place.taken + place.retained:
                kept[source] = build.or_(kept.get(source, False), same[index, source])
        for _, place in places:
            for source in place.after:
                kept.setdefault(source, False)
        for source, keep in kept.items():
            freed = build.and_(self.owned(source), build.not_(keep))
            build.free(self.value(source.value), freed)
        Rewriter.replace_op(terminator, func.ReturnOp(*results))

    def _free(self, where: dict[Source, Operation | Block]) -> None:
        grouped: dict[Operation | Block, list[Source]] = {}
        for source, anchor in where.items():
            grouped.setdefault(anchor, []).append(source)
        for anchor, sources in grouped.items():
            if isinstance(anchor, Block):
                first = anchor.first_op
                point = (
                    InsertPoint.before(first) if first else InsertPoint.at_end(anchor)
                )
                # Keep the order: each after the previous.
                build = _Builder(point)
            else:
                build = _Builder(InsertPoint.after(self.ops.get(anchor, anchor)))
            for source in sources:
                build.free(self.value(source.value), self.owned(source))
