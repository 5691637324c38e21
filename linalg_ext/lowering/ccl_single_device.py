"""`lower_all_reduces`: `ccl.all_reduce` replaced by what it computes on one
device (docs/ccl.md), on tensors, before bufferization, so that compiled
code runs it as the interpreter does (`linalg_ext.semantics.ccl_ops`).

- An all-reduce in no `scf.forall` has one replica: its result is `src`
  (replica groups naming any other replica are refused).
- In the body of an `scf.forall` (static bounds) the iterations are the
  replicas. Groups of one replica each: the result is `src`. One group of
  all iterations: the loop is split in two at the all-reduce. A first copy
  of the loop computes every iteration's `src` (reading the inits where the
  body reads its shared outputs, as each replica reads its own copy) and
  stacks them in a `tensor<N x ...>`, iteration `k` at row `k` (lexicographic
  order); a `linalg.generic` folds rows 1 .. N-1 into row 0, in order
  (`avg` then divides by N); the original loop then uses that value in
  place of the all-reduce, and what only fed the all-reduce is erased.
  Other groupings are refused.

Refusals are `OpPassFailed`, located at the all-reduce.
"""

from __future__ import annotations

from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import (
    AffineMapAttr,
    AnyFloat,
    DenseArrayBase,
    FloatAttr,
    IndexType,
    IntegerAttr,
    ModuleOp,
    TensorType,
    i64,
)
from xdsl.dialects.linalg import ops as linalg
from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap
from xdsl.rewriter import InsertPoint, Rewriter

from linalg_ext.compat.forall_ops import ForallOp, InParallelOp, ParallelInsertSliceOp
from linalg_ext.diagnostics import OpPassFailed
from linalg_ext.dialect.ccl import (
    AllReduceOp,
    CclUnsupported,
    enclosing_forall,
    located,
    replica_groups_for,
)
from linalg_ext.transforms.dps import has_no_effects

_FLOAT_OPS = {
    "sum": arith.AddfOp,
    "avg": arith.AddfOp,
    "prod": arith.MulfOp,
    "max": arith.MaximumfOp,
    "min": arith.MinimumfOp,
}
_INTEGER_OPS = {
    "sum": arith.AddiOp,
    "avg": arith.AddiOp,
    "prod": arith.MuliOp,
    "max": arith.MaxSIOp,
    "min": arith.MinSIOp,
}


def _refuse(op: AllReduceOp, reason: str) -> OpPassFailed:
    return OpPassFailed(f"'{op.name}' op {reason}", op)


def lower_all_reduces(module: ModuleOp, *, locate: bool = True) -> None:
    """Replace every `ccl.all_reduce` of `module` (see the module docstring).

    `locate`: a refusal's message starts with the op's source location (as
    the interpreter's does); a pass leaves it out, since `linalg-ext-opt`
    reports the failure at the op."""
    try:
        while True:
            pending = [op for op in module.walk() if isinstance(op, AllReduceOp)]
            if not pending:
                return
            _lower(pending[0])
    except OpPassFailed as refusal:
        if not locate or refusal.op is None:
            raise
        message = str(refusal).removeprefix(f"'{refusal.op.name}' op ")
        raise OpPassFailed(located(refusal.op, message), refusal.op) from refusal


def _iterations(loop: ForallOp) -> list[tuple[int, int, int]] | None:
    bounds = list(zip(*loop.mixed_bounds(), strict=True))
    if not all(isinstance(v, int) for bound in bounds for v in bound):
        return None
    return [(int(lo), int(up), int(st)) for lo, up, st in bounds]


def _lower(op: AllReduceOp) -> None:
    loop = enclosing_forall(op)
    if loop is None:
        if _inside_forall(op):
            raise _refuse(
                op,
                "must be directly in the body of the scf.forall whose "
                "iterations are its replicas",
            )
        _groups(op, 1)
        _forward(op)
        return
    assert isinstance(loop, ForallOp)
    bounds = _iterations(loop)
    if bounds is None:
        raise _refuse(op, "needs the bounds of its scf.forall to be constants")
    count = 1
    for lower, upper, step in bounds:
        count *= len(range(lower, upper, step))
    groups = _groups(op, count)
    if all(len(group) == 1 for group in groups):
        _forward(op)
        return
    if len(groups) != 1:
        raise _refuse(
            op,
            f"replica groups {op.groups()} of several groups of several "
            "replicas are not supported by the single-device lowering",
        )
    src_type = op.src.type
    assert isinstance(src_type, TensorType)
    if not src_type.has_static_shape():
        raise _refuse(op, "needs src to have a static shape")
    _split(loop, op, bounds, count)


def _inside_forall(op: Operation) -> bool:
    parent = op.parent_op()
    while parent is not None:
        if isinstance(parent, ForallOp):
            return True
        parent = parent.parent_op()
    return False


def _groups(op: AllReduceOp, count: int) -> list[list[int]]:
    try:
        return replica_groups_for(op, count)
    except CclUnsupported as reason:
        raise _refuse(op, str(reason)) from reason


def _forward(op: AllReduceOp) -> None:
    """One replica per group: the all-reduce gives its `src`."""
    op.result.replace_all_uses_with(op.src)
    Rewriter.erase_op(op)


def _erase_dead(block: Block) -> None:
    """Erase the ops of `block` nothing uses and that have no effects."""
    changed = True
    while changed:
        changed = False
        for body_op in reversed(list(block.ops)):
            if not any(r.uses for r in body_op.results) and has_no_effects(body_op):
                Rewriter.erase_op(body_op)
                changed = True


def _replica_id(
    block: Block, ivs: list[SSAValue], bounds: list[tuple[int, int, int]]
) -> tuple[list[Operation], SSAValue]:
    """Ops computing the lexicographic ordinal of the iteration `ivs`."""
    ops: list[Operation] = []

    def constant(value: int) -> SSAValue:
        c = arith.ConstantOp(IntegerAttr(value, IndexType()))
        ops.append(c)
        return c.result

    linear: SSAValue | None = None
    for iv, (lower, upper, step) in zip(ivs, bounds, strict=True):
        ordinal = iv
        if lower != 0:
            sub = arith.SubiOp(ordinal, constant(lower))
            ops.append(sub)
            ordinal = sub.result
        if step != 1:
            div = arith.DivUIOp(ordinal, constant(step))
            ops.append(div)
            ordinal = div.result
        if linear is None:
            linear = ordinal
            continue
        extent = len(range(lower, upper, step))
        mul = arith.MuliOp(linear, constant(extent))
        add = arith.AddiOp(mul.result, ordinal)
        ops += [mul, add]
        linear = add.result
    assert linear is not None
    return ops, linear


def _split(
    loop: ForallOp, op: AllReduceOp, bounds: list[tuple[int, int, int]], count: int
) -> None:
    src_type = op.src.type
    assert isinstance(src_type, TensorType)
    shape = list(src_type.get_shape())
    element = src_type.element_type
    stack_type = TensorType(element, [count, *shape])
    position = list(loop.body.block.ops).index(op)

    # The first loop: every iteration's src, stacked.
    first = loop.clone()
    block = first.body.block
    body_ops = list(block.ops)
    src = body_ops[position].operands[0]
    terminator = body_ops[-1]
    assert isinstance(terminator, InParallelOp)
    # Nothing after the all-reduce is needed, nor the loop's writes.
    for inner in reversed(list(terminator.region.block.ops)):
        Rewriter.erase_op(inner)
    for body_op in reversed(body_ops[position:-1]):
        Rewriter.erase_op(body_op)
    for arg, init in zip(first.region_out_args, loop.outputs, strict=True):
        arg.replace_all_uses_with(init)
    stack = block.insert_arg(stack_type, len(block.args))
    for arg in list(first.region_out_args)[:-1]:
        block.erase_arg(arg)
    id_ops, replica = _replica_id(block, list(first.induction_variables), bounds)
    Rewriter.insert_op(id_ops, InsertPoint.before(terminator))
    rank = len(shape)
    Rewriter.insert_op(
        ParallelInsertSliceOp(
            src, stack, [replica, *[0] * rank], [1, *shape], [1] * (rank + 1)
        ),
        InsertPoint.at_end(terminator.region.block),
    )
    _erase_dead(block)
    empty = tensor.EmptyOp([], stack_type)
    lower, upper, steps = first.mixed_bounds()
    stacked = ForallOp(
        lower,
        upper,
        steps,
        [empty.tensor],
        first.detach_region(first.body),
        first.mapping,
    )
    Rewriter.insert_op([empty, stacked], InsertPoint.before(loop))
    first.erase()

    # Their reduction, in replica order.
    ops: list[Operation] = []
    row_type = TensorType(element, shape)
    total = _slice(stacked.res[0], [0] * (rank + 1), [1, *shape], row_type)
    ops.append(total)
    value: SSAValue = total.result
    floats = isinstance(element, AnyFloat)
    if count > 1:
        rest = _slice(
            stacked.res[0],
            [1, *[0] * rank],
            [count - 1, *shape],
            TensorType(element, [count - 1, *shape]),
        )
        combiner = (_FLOAT_OPS if floats else _INTEGER_OPS)[op.reduction.data]
        fold = _generic(
            [rest.result],
            value,
            rank,
            reduce_rows=True,
            body=lambda row, acc: [combiner(acc, row)],
        )
        ops += [rest, fold]
        value = fold.results[0]
        if op.reduction.data == "avg":
            divisor = arith.ConstantOp(
                FloatAttr(float(count), element)
                if isinstance(element, AnyFloat)
                else IntegerAttr(count, element)
            )
            divide = arith.DivfOp if floats else arith.DivSIOp
            average = _generic(
                [value],
                value,
                rank,
                reduce_rows=False,
                body=lambda x, _: [divide(x, divisor.result)],
            )
            ops += [divisor, average]
            value = average.results[0]
    Rewriter.insert_op(ops, InsertPoint.before(loop))

    # The loop itself, with the all-reduce's value.
    op.result.replace_all_uses_with(value)
    Rewriter.erase_op(op)
    _erase_dead(loop.body.block)


def _slice(
    source: SSAValue, offsets: list[int], sizes: list[int], result_type: TensorType
) -> tensor.ExtractSliceOp:
    """`tensor.extract_slice` of static offsets and sizes, unit strides
    (`result_type` may drop unit dimensions)."""
    return tensor.ExtractSliceOp.build(
        operands=[source, [], [], []],
        result_types=[result_type],
        properties={
            "static_offsets": DenseArrayBase.from_list(i64, offsets),
            "static_sizes": DenseArrayBase.from_list(i64, sizes),
            "static_strides": DenseArrayBase.from_list(i64, [1] * len(sizes)),
        },
    )


def _generic(
    inputs: list[SSAValue],
    output: SSAValue,
    rank: int,
    *,
    reduce_rows: bool,
    body,  # noqa: ANN001 - (element, accumulator) -> ops, the last yielded
) -> linalg.GenericOp:
    """A `linalg.generic` over `output`'s shape; with `reduce_rows` its one
    input has an extra leading dimension, folded into the output in order."""
    dims = [AffineExpr.dimension(i) for i in range(rank)]
    output_map = AffineMap(rank + reduce_rows, 0, tuple(dims))
    if reduce_rows:
        input_map = AffineMap(rank + 1, 0, (AffineExpr.dimension(rank), *dims))
    else:
        input_map = output_map
    iterators = [IteratorTypeAttr.parallel()] * rank
    if reduce_rows:
        iterators.append(IteratorTypeAttr.reduction())
    output_type = output.type
    assert isinstance(output_type, TensorType)
    element: Attribute = output_type.element_type
    block = Block(arg_types=[element, element])
    made = body(block.args[0], block.args[1])
    block.add_ops([*made, linalg.YieldOp(made[-1].results[0])])
    return linalg.GenericOp(
        inputs,
        [output],
        Region(block),
        [AffineMapAttr(input_map), AffineMapAttr(output_map)],
        iterators,
        [output_type],
    )
