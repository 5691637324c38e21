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

from xdsl.dialects import scf
from xdsl.dialects.builtin import MemRefType, TensorType
from xdsl.dialects.linalg import ops as linalg
from xdsl.ir import Block, Operation, SSAValue
from xdsl.ir.affine import AffineDimExpr

from linalg_ext.lowering.loop_nest import LoopNestBuilder, map_indices
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
    loop); returns the values it yields, mapped."""
    for body_op in block.ops:
        if isinstance(body_op, linalg.YieldOp):
            return [mapping.get(v, v) for v in body_op.operands]
        if isinstance(body_op, linalg.IndexOp):
            mapping[body_op.result] = ivs[body_op.dim.value.data]
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
