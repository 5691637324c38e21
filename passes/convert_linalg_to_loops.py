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

Refused, with a diagnostic naming the op and the module left unchanged:
ops on tensors (bufferize first), ops whose scalar body upstream cannot
build for their element types (e.g. `linalg.sub` on i1), indexing maps with
symbols, and loops whose extent no operand dimension gives.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import (
    MemRefType,
    ModuleOp,
    TensorType,
    UnrankedMemRefType,
)
from xdsl.dialects.linalg import ops as linalg
from xdsl.dialects.linalg.attrs import IteratorType
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import (
    AffineMap,
)
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
)
from xdsl.rewriter import InsertPoint
from xdsl.traits import is_side_effect_free

from linalg_ext.diagnostics import OpPassFailed
from linalg_ext.lowering.loop_nest import LoopNestBuilder, map_indices, static_extent
from linalg_ext.lowering.loop_order import vectorizable_order
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


def _carried_loops(generic: linalg.GenericOp) -> int:
    """How many innermost loops are reductions that no output map uses."""
    maps = [m.data for m in generic.indexing_maps]
    output_maps = maps[len(generic.inputs) :]
    used = {d for m in output_maps for e in m.results for d in e.used_dims()}
    iterators = [t.data for t in generic.iterator_types]
    count = 0
    for loop in reversed(range(len(iterators))):
        if iterators[loop] != IteratorType.REDUCTION or loop in used:
            break
        count += 1
    return count


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
    if runtime_checks and not accesses_checked:
        return domain
    if not _outputs_unshared(generic) or not _body_reorderable(generic, runtime_checks):
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
    ):
        self.op = op or generic
        self.runtime_checks = runtime_checks
        self.unit_stride_innermost = unit_stride_innermost
        self.generic = generic
        self.maps = [m.data for m in generic.indexing_maps]
        self.num_inputs = len(generic.inputs)
        self.block = generic.body.block
        carried = _carried_loops(generic) if carry_accumulators else 0
        if carried and not _outputs_unshared(generic):
            carried = 0
        self.num_loops = self.maps[0].num_dims
        self.split = self.num_loops - carried
        """Loops before `split` store per iteration; those after carry the
        outputs (none when `split` is the number of loops)."""

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

        def outer_body(
            b: LoopNestBuilder, ivs: Sequence[SSAValue], _: Sequence[SSAValue]
        ) -> Sequence[SSAValue]:
            if split == self.num_loops:
                self._element(b, point(ivs), None)
                return ()
            outputs = list(generic.outputs)
            output_maps = self.maps[self.num_inputs :]
            # The output maps use only the outer loops.
            inits = [
                _load(b, o, m, point(ivs))
                for o, m in zip(outputs, output_maps, strict=True)
            ]

            def inner_body(
                b: LoopNestBuilder,
                inner_ivs: Sequence[SSAValue],
                acc: Sequence[SSAValue],
            ) -> Sequence[SSAValue]:
                return self._element(b, point((*ivs, *inner_ivs)), acc)

            finals = b.loop_nest(
                uppers[split:],
                inits,
                inner_body,
                lowers=lower[split:],
                steps=steps[split:],
                ivs=None,
            )
            for value, output, map_ in zip(finals, outputs, output_maps, strict=True):
                _store(b, value, output, map_, point(ivs))
            return ()

        b.loop_nest(
            uppers[:split],
            (),
            outer_body,
            lowers=lower[:split],
            steps=steps[:split],
            ivs=None,
        )

    def _element(
        self,
        b: LoopNestBuilder,
        ivs: Sequence[SSAValue],
        accumulators: Sequence[SSAValue] | None,
    ) -> Sequence[SSAValue]:
        """The body at point `ivs`. With `accumulators`, the outputs' values
        are those and the yielded values are returned; otherwise outputs are
        loaded (if read) and the yielded values stored."""
        generic, block = self.generic, self.block
        mapping: dict[SSAValue, SSAValue] = {}
        for position, (arg, operand, map_) in enumerate(
            zip(block.args, generic.operands, self.maps, strict=True)
        ):
            if accumulators is not None and position >= self.num_inputs:
                mapping[arg] = accumulators[position - self.num_inputs]
            elif arg.uses:
                mapping[arg] = _load(b, operand, map_, ivs)
        yielded = inline_body(b, block, mapping, ivs)
        if accumulators is not None:
            return yielded
        outputs = generic.outputs
        for value, output, map_ in zip(
            yielded, outputs, self.maps[self.num_inputs :], strict=True
        ):
            _store(b, value, output, map_, ivs)
        return ()


@dataclass(frozen=True)
class LowerStructuredOpToLoops(RewritePattern):
    """A Linalg op on memrefs (checked by the pass beforehand) as loops."""

    carry_accumulators: bool = True
    runtime_checks: bool = False
    unit_stride_innermost: bool = True

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not is_lowered_here(op):
            return
        generic, is_new = _as_generic(op)
        assert generic is not None, "the pass checks every op before lowering"
        builder = LoopNestBuilder.detached()
        lowering = _Lowering(
            generic,
            self.carry_accumulators,
            op,
            self.runtime_checks,
            self.unit_stride_innermost,
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
            ),
            apply_recursively=False,
        ).rewrite_module(op)
