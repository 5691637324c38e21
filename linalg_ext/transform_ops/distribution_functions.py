"""The interpreter function of
`transform.structured.shared_output_to_distributed_style` (op in
`distribution`), and the rewrite it applies (`distribute_shared_output`).

Every (loop, init, merge) triple is checked before any is rewritten; a
refusal is one line located at the transform op naming the payload op.

What ByteIR's implementation assumes without checking, refused here:
- the fill must be the loop's shared output, and the loop's result used by
  the merge alone (ByteIR rewrites whatever it is given);
- the loop's slices of the shared output must be the whole merged result
  (a loop that also tiles a parallel dimension would all-reduce the
  partial results of different rows together: ByteIR builds ill-typed IR);
- the merge must read the partial results in its output's layout (a
  transposing merge of a square result gives wrong values in ByteIR);
- the merge's combiner and the all-reduce must agree: `max`/`min` are
  `arith.maximumf`/`minimumf` or the signed integer ops (`arith.maxnumf`,
  which ignores NaN, and the unsigned ops have no all-reduce of that
  meaning; ByteIR takes the unsigned ones as `max`/`min` and accepted the
  old `arith.maxf`); `prod` (`mulf`/`muli`, fill 1) is supported, which
  ByteIR left as a TODO;
- the replica groups name the loop's iterations: one per iteration of the
  static bounds, not the product of the upper bounds (which ByteIR uses, and
  which is wrong for a lower bound other than 0 or a step other than 1).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import (
    AffineMapAttr,
    FloatAttr,
    IntegerAttr,
    IntegerType,
    TensorType,
)
from xdsl.dialects.linalg import ops as linalg
from xdsl.dialects.linalg.attrs import IteratorType, IteratorTypeAttr
from xdsl.interpreter import (
    Interpreter,
    InterpreterFunctions,
    PythonValues,
    impl,
    register_impls,
)
from xdsl.interpreters.transform import OperationHandle
from xdsl.ir import Attribute, Block, BlockArgument, Operation, OpResult, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap
from xdsl.rewriter import InsertPoint, Rewriter

from linalg_ext.compat.forall_ops import ForallOp, InParallelOp, ParallelInsertSliceOp
from linalg_ext.dialect.ccl import AllReduceOp
from linalg_ext.transform_ops.definitions import PayloadRefused
from linalg_ext.transform_ops.distribution import SharedOutputToDistributedStyleOp
from linalg_ext.transform_ops.handles import failure, op_handle, refusal

_REDUCTIONS = {
    "arith.addf": "sum",
    "arith.addi": "sum",
    "arith.mulf": "prod",
    "arith.muli": "prod",
    "arith.maximumf": "max",
    "arith.maxsi": "max",
    "arith.minimumf": "min",
    "arith.minsi": "min",
}
"""The merge combiners this transform turns into an all-reduce."""


@dataclass
class _Plan:
    loop: ForallOp
    fill: linalg.FillOp
    merge: Operation
    reduction: str
    result_type: TensorType[Attribute]
    merge_output: SSAValue
    shared: BlockArgument
    insert: ParallelInsertSliceOp
    replicas: int


def _neutral(reduction: str, value: Attribute) -> bool:
    """Whether the fill value `value` is the identity of `reduction`."""
    if isinstance(value, FloatAttr):
        number = float(value.value.data)
        return {
            "sum": number == 0.0,
            "prod": number == 1.0,
            "max": number == -math.inf,
            "min": number == math.inf,
        }[reduction]
    if isinstance(value, IntegerAttr) and isinstance(value.type, IntegerType):
        number = value.value.data
        width = value.type.width.data
        # An integer attribute may hold the value signed or unsigned.
        low, high = -(2 ** (width - 1)), 2 ** (width - 1) - 1
        return {
            "sum": number == 0,
            "prod": number == 1,
            "max": number in (low, low + 2**width),
            "min": number == high,
        }[reduction]
    return False


def _merge_reduction(merge: Operation) -> str:
    """The all-reduce kind of the merge's combiner (a block of one op on its
    two arguments, then the yield)."""
    block = merge.regions[0].block
    ops = list(block.ops)
    if len(ops) != 2 or len(block.args) != 2:
        raise PayloadRefused(
            "expects the merge's body to be one combining op and its yield", merge
        )
    combiner, yield_ = ops
    if (
        set(combiner.operands) != set(block.args)
        or len(combiner.operands) != 2
        or list(yield_.operands) != list(combiner.results)
    ):
        raise PayloadRefused(
            "expects the merge's body to combine its two arguments and yield "
            "the result",
            merge,
        )
    reduction = _REDUCTIONS.get(combiner.name)
    if reduction is None:
        raise PayloadRefused(
            f"fails to get reduce type: {combiner.name} matches no all-reduce "
            f"(supported: {', '.join(sorted(_REDUCTIONS))})",
            merge,
        )
    return reduction


def _check_merge_maps(merge: linalg.GenericOp) -> None:
    """The merge reads the partial results with the output's dimensions in
    the output's order, plus the reduction dimension: the merged value of
    each iteration, in the output's layout, is then the all-reduce's."""
    kinds = [i.data for i in merge.iterator_types.data]
    reduced = AffineExpr.dimension(kinds.index(IteratorType.REDUCTION))
    input_map, output_map = (m.data for m in merge.indexing_maps.data)
    kept = [e for e in input_map.results if e != reduced]
    if len(kept) != len(input_map.results) - 1 or kept != list(output_map.results):
        raise PayloadRefused(
            "expects the merge to read the partial results in the layout of its "
            "output, plus the reduced dimension",
            merge,
        )


def _dominates(value: SSAValue, op: Operation) -> bool:
    """Whether `value` is defined before `op` (in an enclosing block)."""
    if isinstance(value, BlockArgument):
        block: Block | None = op.parent_block()
        while block is not None:
            if block is value.block:
                return True
            parent = block.parent_op()
            block = parent.parent_block() if parent is not None else None
        return False
    assert isinstance(value, OpResult)
    ancestor: Operation | None = op
    while ancestor is not None:
        if value.op.parent_block() is ancestor.parent_block():
            return value.op.is_before_in_block(ancestor)
        ancestor = ancestor.parent_op()
    return False


def _replica_count(loop: ForallOp) -> int:
    count = 1
    for lower, upper, step in zip(*loop.mixed_bounds(), strict=True):
        if not all(isinstance(b, int) for b in (lower, upper, step)):
            raise PayloadRefused(
                "all the thread numbers are expected to be constant int", loop
            )
        assert isinstance(lower, int) and isinstance(upper, int)
        assert isinstance(step, int)
        count *= len(range(lower, upper, step))
    return count


def plan(loop: Operation, init: Operation, merge: Operation) -> _Plan:
    """Check one triple; raises `PayloadRefused`."""
    if not isinstance(loop, ForallOp):
        raise PayloadRefused("loop op is supposed to be of type scf.forall op", loop)
    if not isinstance(init, linalg.FillOp):
        raise PayloadRefused("init op is supposed to be of type linalg.fill", init)
    if not isinstance(merge, linalg.GenericOp) and merge.name != "linalg.reduce":
        raise PayloadRefused(
            "merge op is supposed to be of type linalg.generic or linalg.reduce",
            merge,
        )
    if len(loop.res) != 1:
        raise PayloadRefused("loop op is expected to have only one result", loop)
    if loop.outputs[0] is not init.res[0]:
        raise PayloadRefused("expects the fill to be the loop's shared output", init)
    inputs, outputs = merge.operands[:-1], merge.operands[-1:]
    if len(merge.results) != 1 or len(inputs) != 1 or inputs[0] is not loop.res[0]:
        raise PayloadRefused(
            "expects the merge to reduce the loop's result into one output", merge
        )
    if loop.res[0].uses.get_length() != 1:
        raise PayloadRefused(
            "expects the merge to be the only user of the loop's result", loop
        )
    if isinstance(merge, linalg.GenericOp):
        reductions = [
            i for i in merge.iterator_types.data if i.data == IteratorType.REDUCTION
        ]
        if len(reductions) != 1:
            raise PayloadRefused(
                f"expected 1 reduction dim, but get {len(reductions)}", merge
            )
        _check_merge_maps(merge)
    reduction = _merge_reduction(merge)
    result_type = merge.results[0].type
    if not isinstance(result_type, TensorType) or not result_type.has_static_shape():
        raise PayloadRefused("expects the merged result to have a static shape", merge)
    if not _dominates(outputs[0], loop):
        raise PayloadRefused(
            "expects the merge's output to be defined before the loop", merge
        )
    constant = init.inputs[0].owner if len(init.inputs) == 1 else None
    if not isinstance(constant, arith.ConstantOp):
        raise PayloadRefused(
            "fill op's input is expected to be type of arith.constant", init
        )
    if not _neutral(reduction, constant.value):
        raise PayloadRefused(
            f"expects the fill value to be the identity of the '{reduction}' reduction",
            init,
        )
    replicas = _replica_count(loop)
    shared = loop.region_out_args[0]
    inserts: list[ParallelInsertSliceOp] = []
    for use in shared.uses:
        user = use.operation
        if isinstance(user, tensor.ExtractSliceOp) and use.index == 0:
            if user.result.type != result_type:
                raise PayloadRefused(
                    f"expects the loop's slices of its shared output to be the "
                    f"whole merged result {result_type}, got {user.result.type}",
                    user,
                )
        elif isinstance(user, ParallelInsertSliceOp) and user.dest is shared:
            inserts.append(user)
        else:
            raise PayloadRefused(
                "all the users of loop op's block arg are expected to be "
                "tensor.extract_slice or tensor.parallel_insert_slice",
                user,
            )
    terminator = loop.body.block.last_op
    assert isinstance(terminator, InParallelOp)
    if len(list(terminator.region.block.ops)) != 1 or len(inserts) != 1:
        raise PayloadRefused(
            "only one tensor.parallel_insert_slice op is expected in the region "
            "of scf.in_parallel op",
            loop,
        )
    if inserts[0].source.type != result_type:
        raise PayloadRefused(
            f"expects each iteration to insert a whole merged result "
            f"{result_type}, got {inserts[0].source.type}",
            inserts[0],
        )
    return _Plan(
        loop,
        init,
        merge,
        reduction,
        result_type,
        outputs[0],
        shared,
        inserts[0],
        replicas,
    )


def distribute_shared_output(p: _Plan) -> tuple[ForallOp, linalg.FillOp]:
    """Rewrite one checked triple; returns the new loop and fill."""
    loop, result_type = p.loop, p.result_type
    rank = result_type.get_num_dims()
    empty = tensor.EmptyOp([], result_type)
    fill = linalg.FillOp([p.fill.inputs[0]], [empty.tensor], [result_type])
    Rewriter.insert_op([empty, fill], InsertPoint.before(p.fill))

    # The loop's body, with the shared output now the whole result: its
    # slices of it become the value itself.
    body = loop.detach_region(loop.body)
    block = body.block
    shared = block.insert_arg(result_type, p.shared.index)
    for use in list(p.shared.uses):
        user = use.operation
        if isinstance(user, tensor.ExtractSliceOp):
            user.result.replace_all_uses_with(shared)
            Rewriter.erase_op(user)
    partial = p.insert.source
    Rewriter.erase_op(p.insert)
    block.erase_arg(p.shared)

    reduce = AllReduceOp(partial, p.reduction, [list(range(p.replicas))])
    if isinstance(partial, OpResult) and partial.op.parent_block() is block:
        where = InsertPoint.after(partial.op)
    else:
        where = InsertPoint.at_start(block)
    identity = AffineMapAttr(AffineMap.identity(rank))
    merged = linalg.GenericOp(
        [reduce.result],
        [p.merge_output],
        p.merge.detach_region(p.merge.regions[0]),
        [identity, identity],
        [IteratorTypeAttr.parallel()] * rank,
        [result_type],
    )
    Rewriter.insert_op([reduce, merged], where)
    terminator = block.last_op
    assert isinstance(terminator, InParallelOp)
    Rewriter.insert_op(
        ParallelInsertSliceOp(
            merged.res[0], shared, [0] * rank, list(result_type.get_shape()), [1] * rank
        ),
        InsertPoint.at_end(terminator.region.block),
    )

    lower, upper, steps = loop.mixed_bounds()
    new_loop = ForallOp(
        lower,
        upper,
        steps,
        [fill.res[0]],
        body,
        loop.mapping,
        dict(loop.attributes),
    )
    Rewriter.insert_op(new_loop, InsertPoint.before(loop))
    p.merge.results[0].replace_all_uses_with(new_loop.res[0])
    Rewriter.erase_op(p.merge)
    Rewriter.erase_op(loop)
    # The old fill (and what it filled) are dead unless used elsewhere.
    if not p.fill.res[0].uses:
        old_empty = p.fill.outputs[0].owner
        Rewriter.erase_op(p.fill)
        if isinstance(old_empty, tensor.EmptyOp) and not old_empty.tensor.uses:
            Rewriter.erase_op(old_empty)
    return new_loop, fill


@register_impls
class DistributionFunctions(InterpreterFunctions):
    """The impl of `transform.structured.shared_output_to_distributed_style`,
    registered by `install`."""

    @impl(SharedOutputToDistributedStyleOp)
    def run_shared_output_to_distributed_style(
        self,
        interpreter: Interpreter,
        op: SharedOutputToDistributedStyleOp,
        args: PythonValues,
    ) -> PythonValues:
        loops = op_handle(op, args[0], "the loop").ops
        inits = op_handle(op, args[1], "the init").ops
        merges = op_handle(op, args[2], "the merge").ops
        if not len(loops) == len(inits) == len(merges):
            raise failure(op, "the size of loop, init, merge should be the same")
        triples = list(zip(loops, inits, merges, strict=True))
        # A triple named twice is rewritten once (a second rewrite would
        # meet erased ops); an op in two different triples is refused.
        distinct = list(dict.fromkeys(triples))
        for position in range(3):
            named: set[Operation] = set()
            for triple in distinct:
                if triple[position] in named:
                    raise failure(
                        op,
                        "expects each loop, init and merge op in one triple only",
                        triple[position],
                    )
                named.add(triple[position])
        plans: dict[tuple[Operation, Operation, Operation], _Plan] = {}
        for triple in distinct:
            try:
                plans[triple] = plan(*triple)
            except PayloadRefused as refused:
                raise refusal(op, refused) from refused
        rewritten = {
            triple: distribute_shared_output(checked)
            for triple, checked in plans.items()
        }
        new_loops = [rewritten[triple][0] for triple in triples]
        new_inits = [rewritten[triple][1] for triple in triples]
        return (OperationHandle(*new_loops), OperationHandle(*new_inits))
