"""A Linalg structured op on memrefs as a perfect nest of `scf.for` loops
around its scalar body: upstream's `scf::lowerToLoopsUsingSCFForOp` with the
`generateScalarImplementation` of a `LinalgOp`, which ByteIR's
`transform.structured.lower_to_loops` runs.

One loop per loop of the iteration domain, in the domain's order, from 0 to
the extent of the first operand dimension indexed by that loop alone (a
constant, or `memref.dim`), step 1. The innermost body loads the elements of
the inputs (and of the outputs the body reads) at the indices the indexing
maps give, runs the body (`linalg.index` is the loop's induction variable)
and stores what it yields: every iteration loads and stores, as upstream's
(`convert-linalg-to-loops-ext` carries accumulators of innermost reductions
instead; this is the plain nest a schedule then transforms loop by loop).
The bounds and access indices follow the rules of that pass
(`passes/convert_linalg_to_loops.py`), which sits above the transform ops
and so cannot be imported by them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.dialects import affine, arith, scf
from xdsl.dialects.builtin import DYNAMIC_INDEX, AffineMapAttr, MemRefType, TensorType
from xdsl.dialects.linalg import ops as linalg
from xdsl.ir import Block, Operation, SSAValue
from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineDimExpr,
    AffineExpr,
    AffineMap,
)

from linalg_ext.lowering.loop_nest import LoopNestBuilder, map_indices, static_extent
from linalg_ext.lowering.runtime_checks import all_of, assert_that, check_equal
from linalg_ext.transforms.generalize import GENERALIZED_OPS, generalize


@dataclass
class ScalarLoops:
    """What `build_scalar_loops` built, not inserted: `ops` (constants and
    extents, then the outermost loop) and `loops`, the nest outermost first
    (one per loop of the iteration domain)."""

    ops: list[Operation]
    loops: list[scf.ForOp]


def _as_generic(op: Operation) -> tuple[linalg.GenericOp | None, bool]:
    if isinstance(op, linalg.GenericOp):
        return op, False
    return generalize(op), True


def loop_bound_sources(
    generic: linalg.GenericOp,
) -> list[tuple[SSAValue, int] | None]:
    """For each loop, the first (operand, dimension) indexed by that loop
    alone, as upstream's shapes-to-loops map picks it; None if there is
    none."""
    maps = [m.data for m in generic.indexing_maps]
    sources: list[tuple[SSAValue, int] | None] = [None] * maps[0].num_dims
    for operand, map_ in zip(generic.operands, maps, strict=True):
        for dim, expr in enumerate(map_.results):
            if isinstance(expr, AffineDimExpr) and sources[expr.position] is None:
                sources[expr.position] = (operand, dim)
    return sources


def scalar_loops_refusal(op: Operation) -> str | None:
    """Why `op` cannot be lowered by `build_scalar_loops`, or None."""
    if op.dialect_name() == "linalg_ext":
        return (
            f"{op.name} is not a Linalg structured op "
            "(convert-linalg-ext-to-loops lowers linalg_ext ops)"
        )
    if op.dialect_name() != "linalg":
        return f"{op.name} is not a Linalg structured op"
    if not isinstance(op, linalg.GenericOp) and op.name not in GENERALIZED_OPS:
        return f"{op.name} has no scalar body here (not a generalizable Linalg op)"
    if op.results or any(isinstance(v.type, TensorType) for v in op.operands):
        return (
            f"{op.name} works on tensors: unable to lower to loops operations "
            "with return values (bufferize first)"
        )
    generic, is_new = _as_generic(op)
    if generic is None:
        return f"{op.name}: no scalar body for these element types"
    try:
        if any(m.data.num_symbols for m in generic.indexing_maps):
            return f"{op.name} has an indexing map with symbols"
        if any(source is None for source in loop_bound_sources(generic)):
            return f"{op.name}: a loop indexes no operand dimension alone"
    finally:
        if is_new:
            generic.erase()
    return None


def scalar_loop_count(op: Operation) -> int:
    """How many loops `build_scalar_loops` builds for `op` (checked with
    `scalar_loops_refusal` first): one per loop of its iteration domain."""
    generic, is_new = _as_generic(op)
    assert generic is not None, "checked by scalar_loops_refusal"
    count = generic.indexing_maps.data[0].data.num_dims
    if is_new:
        generic.erase()
    return count


def inline_body(
    b: LoopNestBuilder,
    block: Block,
    mapping: dict[SSAValue, SSAValue],
    ivs: Sequence[SSAValue],
) -> list[SSAValue]:
    """Clone the ops of a Linalg body at the point `ivs` (its arguments
    already in `mapping`; `linalg.index` is the induction variable of its
    loop); returns the values it yields, mapped. An op whose results are
    all in `mapping` already (computed outside the loops) is not cloned."""
    for body_op in block.ops:
        if isinstance(body_op, linalg.YieldOp):
            return [mapping.get(v, v) for v in body_op.operands]
        if isinstance(body_op, linalg.IndexOp):
            mapping[body_op.result] = ivs[body_op.dim.value.data]
            continue
        if body_op.results and all(r in mapping for r in body_op.results):
            continue
        b.insert(body_op.clone(value_mapper=mapping))
    raise AssertionError("a linalg body ends with linalg.yield")


def _scalar_body(
    b: LoopNestBuilder, generic: linalg.GenericOp, ivs: Sequence[SSAValue]
) -> None:
    """The body at the point `ivs`: loads, the body's ops, stores."""
    maps = [m.data for m in generic.indexing_maps]
    block = generic.body.block
    mapping: dict[SSAValue, SSAValue] = {}
    for arg, operand, map_ in zip(block.args, generic.operands, maps, strict=True):
        if not arg.uses:
            continue
        if isinstance(operand.type, MemRefType):
            mapping[arg] = b.load(operand, map_indices(b, map_, ivs))
        else:
            mapping[arg] = operand  # a scalar input is its own element
    yielded = inline_body(b, block, mapping, ivs)
    output_maps = maps[len(generic.inputs) :]
    for value, output, map_ in zip(yielded, generic.outputs, output_maps, strict=True):
        b.store(value, output, map_indices(b, map_, ivs))


def build_scalar_loops(op: Operation) -> ScalarLoops:
    """The loops computing `op` (checked with `scalar_loops_refusal`
    first), built detached: the caller inserts `ops` where `op` is and
    erases `op`."""
    generic, is_new = _as_generic(op)
    assert generic is not None, "checked by scalar_loops_refusal"
    b = LoopNestBuilder.detached()
    uppers: list[SSAValue] = []
    for source in loop_bound_sources(generic):
        assert source is not None
        uppers.append(b.extent(source))

    def body(
        inner: LoopNestBuilder, ivs: tuple[SSAValue, ...], _: tuple[SSAValue, ...]
    ) -> Sequence[SSAValue]:
        _scalar_body(inner, generic, ivs)
        return ()

    b.loop_nest(uppers, (), body, ivs=None)
    if is_new:
        generic.erase()
    ops = b.take_ops()
    loops: list[scf.ForOp] = []
    candidates: Sequence[Operation] = ops
    for _ in uppers:
        loop = next(o for o in candidates if isinstance(o, scf.ForOp))
        loops.append(loop)
        candidates = list(loop.body.block.ops)
    return ScalarLoops(ops, loops)


def _monotone(expr: AffineExpr) -> bool:
    """`expr` never decreases as any loop grows (sums and products by
    non-negative constants of loops and constants): its smallest value over
    the iteration space is at the first point and its largest at the last."""
    if isinstance(expr, AffineDimExpr):
        return True
    if isinstance(expr, AffineConstantExpr):
        return expr.value >= 0
    if isinstance(expr, AffineBinaryOpExpr) and expr.kind == AffineBinaryOpKind.Add:
        return _monotone(expr.lhs) and _monotone(expr.rhs)
    if isinstance(expr, AffineBinaryOpExpr) and expr.kind == AffineBinaryOpKind.Mul:
        return _monotone(expr.lhs) and _monotone(expr.rhs)
    return False


def check_structured_extents(
    b: LoopNestBuilder, op: Operation, generic: linalg.GenericOp, upper: list[SSAValue]
) -> bool:
    """Assert at run time what the interpreter checks of the operands'
    extents (semantics/structured/iteration_space.py's `loop_ranges`, in its
    order and words): every dimension indexed by a loop alone has that
    loop's extent; one indexed by a (monotone) expression holds its range.
    False if some access is not covered (a non-monotone expression): its
    loads and stores are then left to `insert-runtime-checks`."""
    covered = True
    maps = [m.data for m in generic.indexing_maps]
    extents_minus_one: list[SSAValue] | None = None
    for index, (operand, map_) in enumerate(zip(generic.operands, maps, strict=True)):
        if not isinstance(operand.type, MemRefType):
            continue
        shape = operand.type.get_shape()
        for dim, expr in enumerate(map_.results):
            if isinstance(expr, AffineDimExpr):
                loop = expr.position
                source = loop_bound_sources(generic)[loop]
                assert source is not None
                if source == (operand, dim):
                    continue
                if shape[dim] != DYNAMIC_INDEX and static_extent(source) is not None:
                    continue  # both static: the verifier's
                size = b.extent((operand, dim))
                check_equal(
                    b,
                    size,
                    upper[loop],
                    f"{op.name}: operand #{index} has size {{}} in dimension {dim}, "
                    f"but loop d{loop} runs {{}} times",
                    [size, upper[loop]],
                )
                continue
            if isinstance(expr, AffineConstantExpr) and 0 <= expr.value < shape[dim]:
                continue
            if not _monotone(expr):
                covered = False
                continue
            size = b.extent((operand, dim))
            if extents_minus_one is None:
                one = b.index(1)
                extents_minus_one = [b.add(arith.SubiOp(u, one)) for u in upper]
            single = AffineMapAttr(AffineMap(map_.num_dims, 0, (expr,)))
            zeros = [b.index(0)] * map_.num_dims
            low = b.add(affine.ApplyOp(zeros, single))
            high = b.add(affine.ApplyOp(extents_minus_one, single))
            in_range = all_of(
                b,
                [
                    b.add(arith.CmpiOp(low, b.index(0), "sge")),
                    b.add(arith.CmpiOp(high, size, "slt")),
                ],
            )
            empty = [b.add(arith.CmpiOp(u, b.index(0), "eq")) for u in upper]
            fine = in_range
            for nothing in empty:
                fine = b.add(arith.OrIOp(fine, nothing))
            assert_that(
                b,
                fine,
                f"{op.name}: operand #{index} is accessed at indices {{}}..{{}} in "
                f"dimension {dim}, of size {{}}",
                [low, high, size],
            )
    return covered
