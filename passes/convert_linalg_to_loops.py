"""`convert-linalg-to-loops-ext`: every Linalg op on memrefs as `scf.for` loops.

Replaces xDSL 0.74's pass of this name, which lowers only some ops and no
`linalg.index`. A named op (`linalg.add`, `linalg.matmul`, `linalg.fill`,
`linalg.reduce`, a convolution, ...) is first written as the
`linalg.generic` it stands for (`linalg_ext.transforms.generalize`, with
upstream's scalar bodies); a generic then becomes one `scf.for` per loop of
its iteration domain, in the domain's order (upstream's order) or with one
parallel loop moved innermost (below), from 0 to
the extent of the first operand dimension indexed by that loop alone (a
constant, or `memref.dim` when dynamic), step 1. The innermost loop loads
the element of each input the body reads (`memref.load` at the indices its
indexing map gives; a scalar input is used as it is), runs the body (each
`linalg.index` is the loop's induction variable) and stores what it yields
into each output.

Loop order. By default (`unit-stride-innermost`), the last parallel loop
along which every output is unit-stride and every input unit-stride or
invariant (`linalg_ext/lowering/loop_order.py`) runs innermost, the others
in the domain's order: a matmul runs `i, k, j`, a loop LLVM vectorises.
Each output element's reduction still runs in the same order, so no result
bit changes. Only done when the order of the points cannot be seen (no
output shares a buffer with another operand, a body without side effects
and, with run-time checks, no check that can fail inside the loops: see
`loop_order`), and not for a loop statically shorter than 64 iterations
(LLVM unrolls it fully instead of vectorising it).

Accumulators. When the innermost loops are reductions that no output's
indexing map uses (a matmul's `k`, a reduction to a row), every iteration
of them reads and writes the same output elements. Upstream loads and
stores the output element on every iteration; here, by default
(`carry-accumulators`), the output elements are loaded once before those
loops, carried through them as `scf.for` `iter_args`, and stored once after
them: one load and one store per output element instead of one per
reduction step, and a loop whose body the LLVM backend keeps in registers.
This is only done when no output may share its buffer with another operand
(their root buffers, looking through views, differ; distinct function
arguments are taken not to overlap, as Linalg's semantics on buffers
assume). With `carry-accumulators=false` the loops are upstream's.

An output whose map uses those reduction loops is stored at every point
while the others are carried (when no output's map leaves out more loops).
Before the carried loops, the inputs their points all read alike (a row's
mean) are loaded once and the body's side-effect-free ops on them only
(`sqrt(var + eps)`) computed once.

Interleaved reductions. With `interleave-reductions=N` (lower-to-llvm: 8),
the carried reductions of N consecutive points of the parallel loop around
them (N rows of a row sum) run in one nest, its innermost loop unrolled 8
times with every input loaded first: N independent chains instead of one,
which LLVM turns into a transpose of the 8x8 block and vector adds whose
lanes are rows. Each row still reduces in its own order (no bit changes).
Only when the points' order cannot be seen (as for the loop order), no
input is contiguous along that loop and LLVM would not vectorise the
reduction itself (`loop_order.reduction_self_vectorised`, which depends
on `fast-math`).

Refused, with a diagnostic naming the op and the module left unchanged:
ops on tensors (bufferize first), ops whose scalar body upstream cannot
build for their element types (e.g. `linalg.sub` on i1), indexing maps with
symbols, and loops whose extent no operand dimension gives.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import compress

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    IntegerAttr,
    MemRefType,
    ModuleOp,
    TensorType,
    UnrankedMemRefType,
)
from xdsl.dialects.linalg import ops as linalg
from xdsl.dialects.linalg.attrs import IteratorType
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import AffineConstantExpr, AffineDimExpr, AffineMap
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
)
from xdsl.rewriter import InsertPoint
from xdsl.traits import is_side_effect_free

from linalg_ext.diagnostics import OpPassFailed
from linalg_ext.lowering.fast_math import FastMathMode, reassociates
from linalg_ext.lowering.flat_elementwise import flat_elementwise
from linalg_ext.lowering.loop_nest import LoopNestBuilder, map_indices, static_extent
from linalg_ext.lowering.loop_order import (
    Stride,
    reduction_self_vectorised,
    stride_along,
    vectorizable_order,
)
from linalg_ext.lowering.runtime_checks import (
    DIVISIONS,
)
from linalg_ext.lowering.structured_scalar import (
    check_structured_extents,
    inline_body,
    loop_bound_sources,
)
from linalg_ext.transforms.dps import buffer_root
from linalg_ext.transforms.generalize import GENERALIZED_OPS, generalize

INNER_UNROLL = 8
"""With interleaved rows, the innermost reduction loop runs this many
iterations per step (an 8x8 block of a row-major input whose rows LLVM
loads as vectors and transposes, so that each vector lane sums one row in
its own order)."""

MAX_UNROLLED_BODY = 32
"""Bodies of more ops than this are not unrolled `INNER_UNROLL` times (the
rows are still interleaved)."""

BODY_OPS = frozenset({linalg.YieldOp.name, linalg.IndexOp.name})
"""Linalg ops that only live in a structured op's body."""


def is_lowered_here(op: Operation) -> bool:
    """A Linalg structured op (not an op of a body)."""
    return op.dialect_name() == "linalg" and op.name not in BODY_OPS


def _as_generic(op: Operation) -> tuple[linalg.GenericOp | None, bool]:
    """The generic `op` is (itself), or a new detached one it stands for;
    whether it is new (the caller erases it)."""
    if isinstance(op, linalg.GenericOp):
        return op, False
    return generalize(op), True


def refusal(op: Operation) -> str | None:
    """Why `op` cannot be lowered, or None if it can."""
    shaped = [*op.operands, *op.results]
    if any(isinstance(v.type, TensorType) for v in shaped):
        return (
            f"'{op.name}' works on tensors: bufferize first (one-shot-bufferize); "
            "only ops on memrefs are lowered to loops"
        )
    if any(isinstance(v.type, UnrankedMemRefType) for v in shaped):
        return f"'{op.name}' has an unranked memref operand"
    if not isinstance(op, linalg.GenericOp) and op.name not in GENERALIZED_OPS:
        return f"'{op.name}' is not a structured op this pass knows"
    generic, is_new = _as_generic(op)
    if generic is None:
        types = ", ".join(str(v.type) for v in op.operands)
        return (
            f"'{op.name}' on {types}: upstream builds no scalar body for these "
            "element types"
        )
    try:
        return _generic_refusal(op, generic)
    finally:
        if is_new:
            generic.erase()


def _generic_refusal(op: Operation, generic: linalg.GenericOp) -> str | None:
    maps = [m.data for m in generic.indexing_maps]
    if any(m.num_symbols for m in maps):
        return f"'{op.name}' has an indexing map with symbols"
    if any(not isinstance(o.type, MemRefType) for o in generic.outputs):
        return f"'{op.name}' has an output that is not a memref"
    for loop, source in enumerate(loop_bound_sources(generic)):
        if source is None:
            return (
                f"'{op.name}': no operand dimension is indexed by loop d{loop} "
                "alone, so its extent is unknown"
            )
    return None


def _load(
    b: LoopNestBuilder, operand: SSAValue, map_: AffineMap, ivs: Sequence[SSAValue]
) -> SSAValue:
    """The element of `operand` at the point `ivs` (a scalar is its own)."""
    if not isinstance(operand.type, MemRefType):
        return operand  # a scalar input is its own element
    return b.load(operand, map_indices(b, map_, ivs))


def _store(
    b: LoopNestBuilder,
    value: SSAValue,
    operand: SSAValue,
    map_: AffineMap,
    ivs: Sequence[SSAValue],
) -> None:
    b.store(value, operand, map_indices(b, map_, ivs))


def _carried_loops(generic: linalg.GenericOp) -> tuple[int, list[bool]]:
    """How many innermost loops are reductions whose outputs are carried,
    and which outputs are (their maps use none of those loops): the most
    loops that every output's map leaves out, or else, when every output
    uses the innermost reduction (an argmax that also writes each
    element), the most that some outputs leave out. (0, []) for none."""
    maps = [m.data for m in generic.indexing_maps]
    output_maps = maps[len(generic.inputs) :]
    uses = [{d for e in m.results for d in e.used_dims()} for m in output_maps]
    iterators = [t.data for t in generic.iterator_types]
    trailing = 0
    for loop in reversed(range(len(iterators))):
        if iterators[loop] != IteratorType.REDUCTION:
            break
        trailing += 1
    best: tuple[int, list[bool]] = (0, [])
    for count in range(1, trailing + 1):
        inner = set(range(len(iterators) - count, len(iterators)))
        carried = [not (used & inner) for used in uses]
        if all(carried):
            best = (count, carried)
        elif not any(carried):
            break
        elif not best[1] or not all(best[1]):
            best = (count, carried)
    return best


def _outputs_unshared(generic: linalg.GenericOp) -> bool:
    """No output's buffer is another operand's (by root buffer)."""
    outputs = [buffer_root(o) for o in generic.outputs]
    inputs = {buffer_root(i) for i in generic.inputs if isinstance(i.type, MemRefType)}
    return len(set(outputs)) == len(outputs) and not inputs.intersection(outputs)


def _body_reorderable(generic: linalg.GenericOp, runtime_checks: bool) -> bool:
    """Whether the body's points may run in another order: no op with side
    effects (what the points compute then does not depend on the order)
    and, with run-time checks, no integer division (whose check reports
    the values of the first point that fails, as the interpreter meets
    them in the domain's order)."""
    for op in generic.body.block.ops:
        if isinstance(op, linalg.YieldOp | linalg.IndexOp):
            continue
        if not is_side_effect_free(op):
            return False
        if runtime_checks and op.name in DIVISIONS:
            return False
    return True


def points_reorderable(
    generic: linalg.GenericOp, runtime_checks: bool, accesses_checked: bool
) -> bool:
    """Whether running `generic`'s points in another order cannot be seen:
    no output shares a buffer with another operand, the body has no side
    effects and, with run-time checks, no check can fail inside the loops
    (`accesses_checked`: every access was checked before them; no division
    in the body), so the first failure is the interpreter's."""
    if runtime_checks and not accesses_checked:
        return False
    return _outputs_unshared(generic) and _body_reorderable(generic, runtime_checks)


def loop_order(
    generic: linalg.GenericOp, runtime_checks: bool, accesses_checked: bool
) -> list[int]:
    """The order to run `generic`'s loops in, outermost first (loop numbers
    of its domain): a parallel loop along which its outputs are unit-stride
    innermost when `lowering/loop_order.py`'s rule finds one and running
    the points in another order cannot be seen: no output shares a buffer
    with another operand, the body has no side effects and, with run-time
    checks, no check can fail inside the loops (`accesses_checked`: every
    access was checked before them; no division in the body), so the first
    failure is the interpreter's; else the domain's order."""
    count = len(generic.iterator_types)
    domain = list(range(count))
    if not points_reorderable(generic, runtime_checks, accesses_checked):
        return domain
    maps = [m.data for m in generic.indexing_maps]
    buffers = [
        (map_, position >= len(generic.inputs))
        for position, (operand, map_) in enumerate(
            zip(generic.operands, maps, strict=True)
        )
        if isinstance(operand.type, MemRefType)
    ]
    parallel = [t.data == IteratorType.PARALLEL for t in generic.iterator_types]
    extents = [
        static_extent(source) if source is not None else None
        for source in loop_bound_sources(generic)
    ]
    return vectorizable_order(
        [m for m, _ in buffers], [out for _, out in buffers], parallel, extents
    )


class _Lowering:
    """The loops of one generic, built by a `LoopNestBuilder`."""

    def __init__(
        self,
        generic: linalg.GenericOp,
        carry_accumulators: bool,
        op: Operation | None = None,
        runtime_checks: bool = False,
        unit_stride_innermost: bool = True,
        interleave: int = 1,
        fast_math: FastMathMode = "none",
    ):
        self.op = op or generic
        self.fast_math: FastMathMode = fast_math
        self.runtime_checks = runtime_checks
        self.unit_stride_innermost = unit_stride_innermost
        self.interleave = interleave
        self.generic = generic
        self.maps = [m.data for m in generic.indexing_maps]
        self.num_inputs = len(generic.inputs)
        self.block = generic.body.block
        carried, self.carried_outputs = (
            _carried_loops(generic) if carry_accumulators else (0, [])
        )
        if carried and not _outputs_unshared(generic):
            carried = 0
        self.num_loops = self.maps[0].num_dims
        self.split = self.num_loops - carried
        """Loops before `split` store per iteration; those after carry the
        outputs of `carried_outputs` (none when `split` is the number of
        loops) and store the others per iteration."""

    def emit(self, b: LoopNestBuilder) -> None:
        generic = self.generic
        upper: list[SSAValue] = []
        for source in loop_bound_sources(generic):
            assert source is not None
            upper.append(b.extent(source))
        checked = self.runtime_checks and check_structured_extents(
            b, self.op, generic, upper
        )
        if checked:
            b.mark_in_bounds()
        order = list(range(self.num_loops))
        split = self.split
        if self.unit_stride_innermost:
            order = loop_order(generic, self.runtime_checks, checked)
        if order != sorted(order):
            split = self.num_loops  # the innermost loop is parallel: no carry
        factor = self._interleave_factor(order, split, upper, checked)
        lower: list[SSAValue] = []
        steps: list[SSAValue] = []
        if self.num_loops:
            lower = [b.index(0)] * self.num_loops
            steps = [b.index(1)] * self.num_loops
        uppers = [upper[d] for d in order]

        def point(ivs: Sequence[SSAValue]) -> list[SSAValue]:
            """The induction variables of the loops `ivs` (outermost first,
            in `order`) in the domain's order, the loops not given at 0."""
            in_domain = list(lower)
            for position, iv in enumerate(ivs):
                in_domain[order[position]] = iv
            return in_domain

        def carried(b: LoopNestBuilder, rows: Sequence[Sequence[SSAValue]]) -> None:
            """The carried inner loops for the outer points `rows` (their
            loops' ivs, in `order`): each row's accumulators loaded, one
            nest computing every row's reduction, each row's stored."""
            outputs = list(compress(generic.outputs, self.carried_outputs))
            output_maps = list(
                compress(self.maps[self.num_inputs :], self.carried_outputs)
            )
            width = len(outputs)
            invariants: list[dict[SSAValue, SSAValue]] = [{} for _ in rows]
            if not self.runtime_checks or checked:
                # (Unchecked accesses fail in the interpreter's order.)
                carried_loops = set(range(split, self.num_loops))
                invariants = [
                    self._invariants(b, point(ivs), carried_loops) for ivs in rows
                ]
            # The carried outputs' maps use only the outer loops.
            inits = [
                _load(b, o, m, point(ivs))
                for ivs in rows
                for o, m in zip(outputs, output_maps, strict=True)
            ]

            def inner_steps(
                b: LoopNestBuilder,
                steps_ivs: Sequence[Sequence[SSAValue]],
                acc: Sequence[SSAValue],
            ) -> Sequence[SSAValue]:
                """The points of every row at the inner ivs `steps_ivs`
                (in order): with several rows, every input element first
                (so that LLVM may combine the loads of a row), then each
                row's body, step by step."""
                points = [
                    [point((*ivs, *inner)) for ivs in rows] for inner in steps_ivs
                ]
                loaded = [list(invariants) for _ in points]
                if len(rows) > 1:
                    loaded = [
                        [
                            self._input_elements(b, p, known)
                            for p, known in zip(step, invariants, strict=True)
                        ]
                        for step in points
                    ]
                values = list(acc)
                for step, preloaded in zip(points, loaded, strict=True):
                    for row, at in enumerate(step):
                        own = values[row * width : (row + 1) * width]
                        new = self._element(b, at, own, preloaded[row])
                        values[row * width : (row + 1) * width] = new
                return values

            def inner_body(
                b: LoopNestBuilder,
                inner_ivs: Sequence[SSAValue],
                acc: Sequence[SSAValue],
            ) -> Sequence[SSAValue]:
                return inner_steps(b, [inner_ivs], acc)

            unroll = INNER_UNROLL if len(rows) > 1 else 1
            if len(list(self.block.ops)) > MAX_UNROLLED_BODY:
                unroll = 1  # (8 x 8 copies of a long body: compile time)
            if unroll == 1:
                finals = b.loop_nest(
                    uppers[split:],
                    inits,
                    inner_body,
                    lowers=lower[split:],
                    steps=steps[split:],
                    ivs=None,
                )
            else:

                def unrolled(
                    b: LoopNestBuilder,
                    outer_ivs: Sequence[SSAValue],
                    acc: Sequence[SSAValue],
                ) -> Sequence[SSAValue]:
                    """The innermost loop in steps of `unroll` iterations,
                    then the rest one by one."""
                    last = uppers[-1]
                    rest = b.add(arith.RemUIOp(last, b.index(unroll)))
                    main = b.add(arith.SubiOp(last, rest))

                    def several(
                        b: LoopNestBuilder, iv: SSAValue, acc: tuple[SSAValue, ...]
                    ) -> Sequence[SSAValue]:
                        ks = [iv] + [
                            b.add(arith.AddiOp(iv, b.index(j)))
                            for j in range(1, unroll)
                        ]
                        return inner_steps(b, [(*outer_ivs, k) for k in ks], acc)

                    def one(
                        b: LoopNestBuilder, iv: SSAValue, acc: tuple[SSAValue, ...]
                    ) -> Sequence[SSAValue]:
                        return inner_body(b, (*outer_ivs, iv), acc)

                    acc = b.for_loop(main, acc, several, step=unroll, iv=None)
                    return b.for_loop(last, acc, one, lower=main, iv=None)

                finals = b.loop_nest(
                    uppers[split:-1],
                    inits,
                    unrolled,
                    lowers=lower[split:-1],
                    steps=steps[split:-1],
                    ivs=None,
                )
            for row, ivs in enumerate(rows):
                for value, output, map_ in zip(
                    finals[row * width : (row + 1) * width],
                    outputs,
                    output_maps,
                    strict=True,
                ):
                    _store(b, value, output, map_, point(ivs))

        def outer_body(
            b: LoopNestBuilder, ivs: Sequence[SSAValue], _: Sequence[SSAValue]
        ) -> Sequence[SSAValue]:
            if split == self.num_loops:
                self._element(b, point(ivs), None)
            elif factor == 1:
                carried(b, [ivs])
            else:
                self._interleaved(b, ivs, uppers[split - 1], factor, carried)
            return ()

        outer = split if factor == 1 else split - 1
        b.loop_nest(
            uppers[:outer],
            (),
            outer_body,
            lowers=lower[:outer],
            steps=steps[:outer],
            ivs=None,
        )

    def _interleave_factor(
        self, order: list[int], split: int, upper: list[SSAValue], checked: bool
    ) -> int:
        """How many points of the loop around the carried reductions to
        compute together (1: one at a time): `interleave` when that loop
        is parallel, runs at least that often (or dynamically) and the
        points may run in another order."""
        factor = self.interleave
        if factor <= 1 or split in (0, self.num_loops) or order != sorted(order):
            return 1
        loop = split - 1
        if self.generic.iterator_types.data[loop].data != IteratorType.PARALLEL:
            return 1
        extent = upper[loop].owner
        if isinstance(extent, arith.ConstantOp):
            value = extent.value
            if isinstance(value, IntegerAttr) and value.value.data < factor:
                return 1
        if not points_reorderable(self.generic, self.runtime_checks, checked):
            return 1
        if any(
            stride_along(map_, loop) == Stride.UNIT
            for operand, map_ in zip(
                self.generic.inputs, self.maps[: self.num_inputs], strict=True
            )
            if isinstance(operand.type, MemRefType)
        ):
            # An input contiguous along that loop (a matmul's B along j):
            # LLVM vectorises across it as it is.
            return 1
        outputs = self.block.args[self.num_inputs :]
        accumulators = list(compress(outputs, self.carried_outputs))
        reassociate = reassociates(self.fast_math)
        if reduction_self_vectorised(self.block, accumulators, reassociate):
            return 1  # LLVM splits each reduction over vector lanes itself
        return factor

    def _interleaved(
        self,
        b: LoopNestBuilder,
        ivs: Sequence[SSAValue],
        upper: SSAValue,
        factor: int,
        carried: Callable[[LoopNestBuilder, Sequence[Sequence[SSAValue]]], None],
    ) -> None:
        """The loop around the carried reductions (bound `upper`) in steps
        of `factor`, the reductions of `factor` consecutive points in one
        nest (independent chains LLVM overlaps, each in its own order),
        then the remaining points one by one."""
        remainder = b.add(arith.RemUIOp(upper, b.index(factor)))
        main = b.add(arith.SubiOp(upper, remainder))

        def together(
            b: LoopNestBuilder, iv: SSAValue, _: tuple[SSAValue, ...]
        ) -> Sequence[SSAValue]:
            rows = [(*ivs, iv)]
            for offset in range(1, factor):
                rows.append((*ivs, b.add(arith.AddiOp(iv, b.index(offset)))))
            carried(b, rows)
            return ()

        def alone(
            b: LoopNestBuilder, iv: SSAValue, _: tuple[SSAValue, ...]
        ) -> Sequence[SSAValue]:
            carried(b, [(*ivs, iv)])
            return ()

        b.for_loop(main, (), together, step=factor, iv=None)
        b.for_loop(upper, (), alone, lower=main, iv=None)

    def _input_elements(
        self,
        b: LoopNestBuilder,
        ivs: Sequence[SSAValue],
        known: dict[SSAValue, SSAValue],
    ) -> dict[SSAValue, SSAValue]:
        """`known` and the elements the body reads of the other inputs at
        point `ivs`, by block argument (loaded ahead of the stores of other
        points: only when no output shares a buffer with an input)."""
        elements = dict(known)
        for arg, operand, map_ in zip(
            self.block.args[: self.num_inputs],
            self.generic.inputs,
            self.maps[: self.num_inputs],
            strict=True,
        ):
            if arg.uses and arg not in elements:
                elements[arg] = _load(b, operand, map_, ivs)
        return elements

    def _invariants(
        self, b: LoopNestBuilder, ivs: Sequence[SSAValue], inner: set[int]
    ) -> dict[SSAValue, SSAValue]:
        """What the body computes the same at every point of the loops
        `inner` (domain loop numbers) around the outer point `ivs`, built
        here, before them, by block argument or body value: the inputs
        whose maps use none of those loops (when the load is in bounds
        whether or not the loops run: each index a loop's, or a constant
        inside a static dimension) and the side-effect-free ops of the body
        that only use those (not integer divisions, which may trap, nor
        ops with regions). The inner loops then only compute what
        changes (a row's `sqrt(var + eps)` once per row)."""
        values: dict[SSAValue, SSAValue] = {}
        for arg, operand, map_ in zip(
            self.block.args[: self.num_inputs],
            self.generic.inputs,
            self.maps[: self.num_inputs],
            strict=True,
        ):
            if not arg.uses:
                continue
            if not isinstance(operand.type, MemRefType):
                values[arg] = operand
                continue
            if any(d in inner for e in map_.results for d in e.used_dims()):
                continue
            shape = operand.type.get_shape()
            if all(
                isinstance(e, AffineDimExpr)
                or (isinstance(e, AffineConstantExpr) and 0 <= e.value < shape[i])
                for i, e in enumerate(map_.results)
            ):
                values[arg] = _load(b, operand, map_, ivs)
        body = self.block
        for op in body.ops:
            if isinstance(op, linalg.YieldOp | linalg.IndexOp) or op.regions:
                continue
            if op.name in DIVISIONS or not is_side_effect_free(op):
                continue
            if not all(
                v in values
                or v.owner is not body
                and v.owner.parent_block() is not body
                for v in op.operands
            ):
                continue
            clone = op.clone(value_mapper=dict(values))
            b.insert(clone)
            values.update(zip(op.results, clone.results, strict=True))
        return values

    def _element(
        self,
        b: LoopNestBuilder,
        ivs: Sequence[SSAValue],
        accumulators: Sequence[SSAValue] | None,
        inputs: dict[SSAValue, SSAValue] | None = None,
    ) -> Sequence[SSAValue]:
        """The body at point `ivs`, the inputs' elements `inputs` when
        given (`_input_elements`). With `accumulators`, the carried
        outputs' values are those and the values yielded to them are
        returned; the other outputs are loaded (if read) and the values
        yielded to them stored."""
        generic, block = self.generic, self.block
        carried = self.carried_outputs if accumulators is not None else []
        carried = carried + [False] * (len(generic.outputs) - len(carried))
        given = iter(accumulators or ())
        mapping: dict[SSAValue, SSAValue] = dict(inputs or {})
        for position, (arg, operand, map_) in enumerate(
            zip(block.args, generic.operands, self.maps, strict=True)
        ):
            if arg in mapping:
                continue
            if position >= self.num_inputs and carried[position - self.num_inputs]:
                mapping[arg] = next(given)
            elif arg.uses:
                mapping[arg] = _load(b, operand, map_, ivs)
        yielded = inline_body(b, block, mapping, ivs)
        returned: list[SSAValue] = []
        for value, output, map_, is_carried in zip(
            yielded, generic.outputs, self.maps[self.num_inputs :], carried, strict=True
        ):
            if is_carried:
                returned.append(value)
            else:
                _store(b, value, output, map_, ivs)
        return returned


@dataclass(frozen=True)
class LowerStructuredOpToLoops(RewritePattern):
    """A Linalg op on memrefs (checked by the pass beforehand) as loops."""

    carry_accumulators: bool = True
    runtime_checks: bool = False
    unit_stride_innermost: bool = True
    interleave_reductions: int = 1
    fast_math: FastMathMode = "none"
    flatten_elementwise: bool = False

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not is_lowered_here(op):
            return
        generic, is_new = _as_generic(op)
        assert generic is not None, "the pass checks every op before lowering"
        flat = flat_elementwise(generic) if self.flatten_elementwise else None
        if flat is not None:  # one loop over whole buffers (its docstring)
            collapses, flat_generic = flat
            rewriter.insert([*collapses, flat_generic], InsertPoint.before(op))
            if is_new:
                generic.erase()
            rewriter.erase(op)
            op = generic = flat_generic
            is_new = False
        builder = LoopNestBuilder.detached()
        lowering = _Lowering(
            generic,
            self.carry_accumulators,
            op,
            self.runtime_checks,
            self.unit_stride_innermost,
            self.interleave_reductions,
            self.fast_math,
        )
        lowering.emit(builder)
        rewriter.insert(builder.take_ops(), InsertPoint.before(op))
        if is_new:
            generic.erase()
        rewriter.erase(op)


@dataclass(frozen=True)
class ConvertLinalgToLoopsPass(ModulePass):
    """Lower every Linalg structured op on memrefs to `scf.for` loops with
    `memref.load`/`memref.store` (see the module docstring)."""

    name = "convert-linalg-to-loops-ext"

    carry_accumulators: bool = True
    """Carry the output elements of innermost reduction loops that the
    outputs' maps do not use in `iter_args` (load once, store once) instead
    of loading and storing them on every iteration as upstream does."""

    runtime_checks: bool = False
    """Check at run time, with the interpreter's message, that the dynamic
    extents the loops rely on agree across operands, and mark the loads and
    stores the loops make as in bounds (`insert-runtime-checks` skips them)."""

    unit_stride_innermost: bool = True
    """Run innermost a parallel loop along which every output is unit-stride
    and every input unit-stride or invariant (matmul: `i, k, j`), when
    there is one and the order of the points cannot be seen; false keeps
    the domain's order (upstream's)."""

    interleave_reductions: int = 1
    """Compute the carried reductions of this many consecutive points of
    the parallel loop around them together (a row sum: that many rows at
    once), when their order cannot be seen: independent dependency chains
    the CPU overlaps, each summed in its own order (no result bit changes).
    1 computes one point at a time. Not done for reductions LLVM
    vectorises by itself (`loop_order.reduction_self_vectorised`)."""

    fast_math: FastMathMode = "none"
    """The fast-math mode the float ops will be lowered with
    (convert-arith-to-llvm's): with `reassoc` or looser LLVM vectorises
    float sums and products itself, so they are not interleaved."""

    flatten_elementwise: bool = False
    """Lower an all-parallel op over contiguous buffers of static shapes
    with each run of neighbouring loops every operand reads alike (a fill's
    or an identity-map op's all, a broadcast bias's spatial ones) merged
    into one loop over `memref.collapse_shape`s of them, in the same order
    (`linalg_ext.lowering.flat_elementwise`): LLVM unrolls a nest of short
    constant loops fully instead of vectorising it (lower-to-llvm sets it)."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        problems = [
            (target, problem)
            for target in op.walk()
            if is_lowered_here(target) and (problem := refusal(target)) is not None
        ]
        if problems:
            raise OpPassFailed(
                f"{self.name}: " + "; ".join(text for _, text in problems),
                problems[0][0],
            )
        PatternRewriteWalker(
            LowerStructuredOpToLoops(
                self.carry_accumulators,
                self.runtime_checks,
                self.unit_stride_innermost,
                self.interleave_reductions,
                self.fast_math,
                self.flatten_elementwise,
            ),
            apply_recursively=False,
        ).rewrite_module(op)
