"""Planning how each output of a compiled body is computed.

`make_plan` decides, once per op, whether every output can be computed over
the whole iteration space at once (pointwise, unchanged, last value, a fold
or a contraction: `OutputPlan`), or only one reduction step at a time, or
only point by point on the interpreter (no compiled body).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.ir import Block, Operation, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineMap

from linalg_ext.semantics.structured.body import BodyContext, CompiledBody, compile_body
from linalg_ext.semantics.structured.folding import COMBINERS, Combiner
from linalg_ext.semantics.structured.scalars import NotVectorisable


@dataclass(frozen=True)
class OutputPlan:
    kind: str
    """
    - "pointwise": each element is written once (the map uses every loop);
    - "unchanged": the body yields the accumulator itself;
    - "last": each element is overwritten by a value not depending on it, so
      the value of the last iteration over the reduction loops wins;
    - "fold": `combiner(accumulator, term)`, term not depending on it;
    - "contract": a fold by addition of `lhs * rhs`, summed by einsum.
    """
    dims: tuple[int, ...]
    """The loops the output's indexing map reads, in its order."""
    reduced: tuple[int, ...]
    """The loops it does not use, which it is folded over."""
    value: SSAValue | None = None
    combiner: Combiner | None = None
    factors: tuple[SSAValue, SSAValue] | None = None


@dataclass
class Plan:
    body: CompiledBody | None
    """None: the body runs on the interpreter, point by point."""
    reason: str = ""
    outputs: list[OutputPlan] | None = None
    """Set when every output can be computed over the whole space at once."""
    shared_dims: tuple[int, ...] = ()
    """Loops every output's map uses."""


def projected_dims(indexing_map: AffineMap) -> tuple[int, ...] | None:
    """The loops of an output map that is a projected permutation, else None."""
    dims = []
    for result in indexing_map.results:
        if not isinstance(result, AffineDimExpr) or result.position in dims:
            return None
        dims.append(result.position)
    return tuple(dims)


def _dependencies(
    body: CompiledBody, num_inputs: int
) -> dict[SSAValue, frozenset[int]]:
    """For each value, the outputs whose accumulator it is computed from."""
    depends: dict[SSAValue, frozenset[int]] = {}
    for position, arg in enumerate(body.arguments):
        output = position - num_inputs
        depends[arg] = frozenset((output,) if output >= 0 else ())
    for value in body.captured:
        depends[value] = frozenset()
    for step in body.steps:
        depends[step.result] = frozenset().union(*(depends[v] for v in step.operands))
    return depends


def make_plan(
    block: Block,
    maps: Sequence[AffineMap],
    num_inputs: int,
    context: BodyContext,
) -> Plan:
    maybe_dims = [projected_dims(m) for m in maps[num_inputs:]]
    output_dims = [dims for dims in maybe_dims if dims is not None]
    if len(output_dims) != len(maybe_dims):
        return Plan(None, "an output indexing map is not a projected permutation")
    try:
        body = compile_body(block, context)
    except NotVectorisable as error:
        return Plan(None, f"the body uses {error}")

    all_dims = range(context.ndim)
    shared = tuple(d for d in all_dims if all(d in dims for dims in output_dims))
    depends = _dependencies(body, num_inputs)
    reduced = [tuple(d for d in all_dims if d not in dims) for dims in output_dims]
    folded = frozenset(o for o, axes in enumerate(reduced) if axes)

    def independent(value: SSAValue) -> bool:
        return not depends[value] & folded

    outputs: list[OutputPlan] = []
    for index, (dims, axes, value) in enumerate(
        zip(output_dims, reduced, body.yielded, strict=True)
    ):
        assert dims is not None
        accumulator = body.arguments[num_inputs + index]
        if not axes:
            if not independent(value):
                break
            outputs.append(OutputPlan("pointwise", dims, axes, value))
        elif value is accumulator:
            outputs.append(OutputPlan("unchanged", dims, axes))
        elif independent(value):
            outputs.append(OutputPlan("last", dims, axes, value))
        elif (
            fold := _fold_plan(body, depends, folded, accumulator, value)
        ) is not None:
            combiner, term, factors = fold
            if context.scalar(accumulator).kind not in combiner.kinds:
                break
            kind = "contract" if factors else "fold"
            outputs.append(OutputPlan(kind, dims, axes, term, combiner, factors))
        else:
            break
    else:
        return Plan(body, outputs=outputs, shared_dims=shared)
    return Plan(
        body,
        "an accumulator is combined in a way that is not one associative op",
        shared_dims=shared,
    )


def _fold_plan(
    body: CompiledBody,
    depends: dict[SSAValue, frozenset[int]],
    folded: frozenset[int],
    accumulator: SSAValue,
    value: SSAValue,
) -> tuple[Combiner, SSAValue, tuple[SSAValue, SSAValue] | None] | None:
    """For `value = combiner(accumulator, term)`: the combiner, the term, and
    the term's two factors when it is a product summed by addition."""
    position = body.producers.get(value)
    if position is None:
        return None
    step = body.steps[position]
    op = value.owner
    assert isinstance(op, Operation)
    combiner = COMBINERS.get(op.name)
    if combiner is None or len(step.operands) != 2:
        return None
    lhs, rhs = step.operands
    if lhs is accumulator and not depends[rhs] & folded:
        term = rhs
    elif rhs is accumulator and not depends[lhs] & folded:
        term = lhs
    else:
        return None
    factors = None
    term_position = body.producers.get(term)
    if op.name in ("arith.addf", "arith.addi") and term_position is not None:
        term_op = term.owner
        assert isinstance(term_op, Operation)
        if (
            term_op.name
            == {"arith.addf": "arith.mulf", "arith.addi": "arith.muli"}[op.name]
        ):
            left, right = body.steps[term_position].operands
            factors = (left, right)
    return combiner, term, factors
