"""Producer–consumer fusion of two `linalg.generic` ops on tensors.

A producer `P` whose result `r` the consumer `C` reads through input map
`c` is folded into `C`: the fused op runs over `C`'s loops, evaluates `P`'s
body at every point and hands the value `P` would have stored to `C`'s body.
That is only possible when `P`'s loop point can be recovered from the
element of `r` it wrote, i.e. when `P`'s result map `p_r` is a permutation
(seed 004); then `P`'s loops, seen from `C`'s, are

    to_producer = inverse(p_r) ∘ c

and each of `P`'s operand maps `p_a` becomes `p_a ∘ to_producer`.

Beyond upstream (`mlir-opt --linalg-fuse-elementwise-ops`, which only fuses
a producer with a single use):

- a producer with other users is still fused: the results they need become
  extra results of the fused op (written through `P`'s inits), so nothing is
  computed twice (ByteIR's "intermediate as output");
- a consumer reading several results of the producer has them all fused at
  once;
- a producer whose body reads its init gets that init as an input.

Unlike upstream, a producer computing a costly math function (`math.exp`,
`math.tanh`, ...: a libm call or a polynomial) is not fused into a consumer
with reduction loops unless `math-into-reduction` is set
(`check_reduction_pays`).

Compile time: the fused op reuses `P`'s region (the ops are moved, never
cloned) and only `C`'s ops are moved into it. Fusing a chain top-down, `C`
is the small op each time, so a chain of N ops fuses in time linear in N
(upstream clones both bodies at each step: N²).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects import affine, func
from xdsl.dialects.builtin import AffineMapAttr, TensorType
from xdsl.dialects.linalg.ops import GenericOp, IndexOp, YieldOp
from xdsl.ir import Block, Operation, OpResult, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineMap
from xdsl.rewriter import InsertPoint, Rewriter

from linalg_ext.transforms.affine_maps import dims_used, is_permutation
from linalg_ext.transforms.dps import has_pure_tensor_semantics, is_all_parallel
from linalg_ext.transforms.ordering import ancestor_in


class NotFused(Exception):
    """Why a producer is not fused into a consumer (the reasons of `report`)."""


@dataclass
class Fusion:
    """A checked producer–consumer pair: which of the consumer's inputs read
    the producer, and the producer's loops in the consumer's."""

    producer: GenericOp
    consumer: GenericOp
    fused_inputs: list[int]
    to_producer: AffineMap
    preserved: list[int]
    """Producer results kept as results of the fused op (other users)."""


def maps_of(op: GenericOp) -> list[AffineMap]:
    return [m.data for m in op.indexing_maps]


def block_of(op: GenericOp) -> Block:
    return op.body.block


def check_fusion(consumer: GenericOp, input_index: int, diff_shapes: bool) -> Fusion:
    """The fusion of the producer of `consumer`'s input `input_index` into
    it, or NotFused with the reason."""
    value = consumer.inputs[input_index]
    if not isinstance(value, OpResult):
        raise NotFused("the operand is not produced by an op")
    producer = value.op
    if not isinstance(producer, GenericOp):
        raise NotFused(f"the producer is {producer.name}, not a linalg.generic")
    if producer.parent_block() is not consumer.parent_block():
        raise NotFused("the producer and the consumer are in different blocks")
    if not all(has_pure_tensor_semantics(op) for op in (producer, consumer)):
        raise NotFused("expected tensor semantics (memref operands)")
    if not is_all_parallel(producer):
        raise NotFused("the producer has reduction iterators")
    producer_maps = maps_of(producer)
    consumer_maps = maps_of(consumer)
    num_inputs = len(producer.inputs)
    result_map = producer_maps[num_inputs + value.index]
    # Upstream's order of checks, so the reasons agree.
    operand_map = consumer_maps[input_index]
    if len(operand_map.results) != result_map.num_dims:
        raise NotFused(
            f"the consumer's map for the operand has {len(operand_map.results)} "
            f"results, the producer has {result_map.num_dims} loops"
        )
    if not is_permutation(result_map):
        raise NotFused(f"the producer's result map is not a permutation ({result_map})")
    inverse = result_map.inverse_permutation()
    assert inverse is not None  # a permutation has one
    to_producer = inverse.compose(operand_map)

    # Every read of the producer by the consumer is fused at once; they must
    # all see the producer at the same loop point.
    fused_inputs: list[int] = []
    for index, operand in enumerate(consumer.inputs):
        if not (isinstance(operand, OpResult) and operand.op is producer):
            continue
        this_map = producer_maps[num_inputs + operand.index]
        if not is_permutation(this_map) or len(consumer_maps[index].results) != len(
            this_map.results
        ):
            raise NotFused(
                f"the consumer also reads result #{operand.index} of the "
                "producer through a map that cannot be fused"
            )
        this_inverse = this_map.inverse_permutation()
        assert this_inverse is not None  # a permutation has one
        if this_inverse.compose(consumer_maps[index]) != to_producer:
            raise NotFused(
                "the consumer reads the producer's results at different points"
            )
        fused_inputs.append(index)
    for operand in consumer.outputs:
        if isinstance(operand, OpResult) and operand.op is producer:
            raise NotFused("the consumer's init is a result of the producer")

    # The fused op's loop bounds come from its operands' shapes: with a
    # reduction, the inits do not give them all.
    if not is_all_parallel(consumer):
        covered = dims_used(
            m for i, m in enumerate(consumer_maps) if i not in fused_inputs
        ) | dims_used(m.compose(to_producer) for m in producer_maps[:num_inputs])
        missing = sorted(set(range(operand_map.num_dims)) - covered)
        if missing:
            raise NotFused(
                f"fusing would leave loop d{missing[0]} of the consumer without an "
                "operand that gives its size"
            )

    fused_uses = {(consumer, i) for i in fused_inputs}
    preserved: list[int] = []
    block = consumer.parent_block()
    assert block is not None
    for result in producer.results:
        others = [
            use for use in result.uses if (use.operation, use.index) not in fused_uses
        ]
        if not others:
            continue
        for use in others:
            user = ancestor_in(block, use.operation)
            if user is None or not consumer.is_before_in_block(user):
                raise NotFused("the producer has another user before the consumer")
            if not diff_shapes and isinstance(use.operation, func.ReturnOp):
                if result.type != consumer.results[0].type:
                    raise NotFused(
                        "the producer's result is returned and its shape differs "
                        "from the consumer's (diff-shapes=false)"
                    )
        output_map = producer_maps[num_inputs + result.index].compose(to_producer)
        if not output_map.is_projected_permutation():
            raise NotFused(
                f"result #{result.index} of the producer has other users, but "
                f"it cannot be an output of the fused op (map {output_map})"
            )
        preserved.append(result.index)

    # Without the fused operand, some loop may have no operand left to give
    # its size (an all-parallel consumer writing a projection, say): as
    # upstream, the producer's result is then kept as an output, which does.
    producer_block = producer.body.block
    kept_maps = [m for i, m in enumerate(consumer_maps) if i not in fused_inputs]
    kept_maps += [m.compose(to_producer) for m in producer_maps[:num_inputs]]
    kept_maps += [
        producer_maps[num_inputs + k].compose(to_producer)
        for k, argument in enumerate(producer_block.args[num_inputs:])
        if argument.uses or k in preserved
    ]
    missing = set(range(operand_map.num_dims)) - dims_used(kept_maps)
    for i in fused_inputs:
        fused = consumer.inputs[i]
        assert isinstance(fused, OpResult)  # a result of the producer
        k = fused.index
        output_map = producer_maps[num_inputs + k].compose(to_producer)
        if missing and k not in preserved and output_map.is_projected_permutation():
            preserved.append(k)
            missing -= dims_used([output_map])
    if missing:
        raise NotFused(
            f"fusing would leave loop d{min(missing)} of the consumer without an "
            "operand that gives its size"
        )
    preserved.sort()
    return Fusion(producer, consumer, fused_inputs, to_producer, preserved)


CHEAP_MATH_OPS = frozenset(
    {
        "math.absf",
        "math.absi",
        "math.ceil",
        "math.copysign",
        "math.ctlz",
        "math.ctpop",
        "math.cttz",
        "math.floor",
        "math.fma",
        "math.round",
        "math.roundeven",
        "math.rsqrt",
        "math.sqrt",
        "math.trunc",
    }
)
"""`math` ops that compile to one or a few instructions, in any loop; every
other `math` op is a libm call or a polynomial (`exp`, `log`, `tanh`, ...)."""


def costly_math_op(producer: GenericOp) -> Operation | None:
    """The first `math` op of `producer`'s body that is not in
    `CHEAP_MATH_OPS`, or None."""
    for op in producer.body.walk():
        if op.name.startswith("math.") and op.name not in CHEAP_MATH_OPS:
            return op
    return None


def check_reduction_pays(producer: GenericOp, consumer: GenericOp) -> None:
    """NotFused when `consumer` has reduction loops and `producer` computes a
    costly math function (`costly_math_op`).

    Why: a reduction's loop adds in order (unless the compiled code may
    reassociate, `fast_math` "reassoc" or looser), so LLVM does not
    vectorise it, and whatever is fused into it runs one element at a time.
    A parallel producer vectorises on its own (`llvm.exp.v16f32`, or the
    polynomial of `approximate_math`): computed there, written once and read
    back by the reduction, it costs less than scalar calls in the reduction's
    loop. Measured (docs/passes/linalg-fuse-elementwise-ext.md): softmax
    256x1024, sub+exp pulled into the sum, 1.2x slower (2.7x with
    `approximate_math`); cheap arithmetic (a squared difference summed)
    fused into the sum is 1.1-1.2x faster, and stays fused."""
    if is_all_parallel(consumer):
        return
    costly = costly_math_op(producer)
    if costly is not None:
        raise NotFused(
            f"the producer computes {costly.name} and the consumer has reduction "
            "loops: fused, it would run one element at a time in the reduction's "
            "loop (math-into-reduction=false)"
        )


def move_body_before(source: Block, anchor: Operation) -> None:
    """Move the ops of `source`, all but its terminator, before `anchor`
    (moved, not cloned: the cost is the size of `source` only)."""
    terminator = source.last_op
    for op in list(source.ops):
        if op is terminator:
            break
        op.detach()
        block = anchor.parent_block()
        assert block is not None
        block.insert_op_before(op, anchor)


def _remap_indices(block: Block, to_producer: AffineMap) -> None:
    """`linalg.index k` in the producer's body asks for the producer's loop
    k: in the fused op that is `to_producer`'s result k."""
    if to_producer == AffineMap.identity(to_producer.num_dims):
        return
    index_ops = [op for op in block.walk() if isinstance(op, IndexOp)]
    for index_op in index_ops:
        expression = to_producer.results[index_op.dim.value.data]
        if isinstance(expression, AffineDimExpr):
            Rewriter.replace_op(index_op, IndexOp(expression.position))
            continue
        dims = [IndexOp(d) for d in range(to_producer.num_dims)]
        apply = affine.ApplyOp(
            [d.result for d in dims],
            AffineMapAttr(AffineMap(to_producer.num_dims, 0, (expression,))),
        )
        Rewriter.replace_op(index_op, [*dims, apply])


def fuse(fusion: Fusion) -> GenericOp:
    """Replace the consumer (and the producer) by the fused op."""
    producer, consumer = fusion.producer, fusion.consumer
    to_producer = fusion.to_producer
    producer_maps = maps_of(producer)
    consumer_maps = maps_of(consumer)
    num_p_inputs = len(producer.inputs)
    producer_block = block_of(producer)
    consumer_block = block_of(consumer)
    producer_yield = producer_block.last_op
    consumer_yield = consumer_block.last_op
    assert isinstance(producer_yield, YieldOp)
    assert isinstance(consumer_yield, YieldOp)
    yielded = list(producer_yield.operands)

    inputs: list[SSAValue] = list(producer.inputs)
    input_maps = [m.compose(to_producer) for m in producer_maps[:num_p_inputs]]
    outputs: list[SSAValue] = []
    output_maps: list[AffineMap] = []

    # The producer's init arguments: read ones become inputs (they already
    # follow its inputs), the others go.
    init_arguments = producer_block.args[num_p_inputs:]
    read_inits = [k for k, a in enumerate(init_arguments) if a.uses]
    for argument in reversed(init_arguments):
        if not argument.uses:
            producer_block.erase_arg(argument)
    for k in read_inits:
        inputs.append(producer.outputs[k])
        input_maps.append(producer_maps[num_p_inputs + k].compose(to_producer))

    _remap_indices(producer_block, to_producer)

    # The consumer's arguments: fused ones take the producer's yielded value.
    replacements: dict[SSAValue, SSAValue] = {}
    for i, operand in enumerate(consumer.inputs):
        argument = consumer_block.args[i]
        if i in fusion.fused_inputs:
            assert isinstance(operand, OpResult)
            replacements[argument] = yielded[operand.index]
            continue
        inputs.append(operand)
        input_maps.append(consumer_maps[i])
        replacements[argument] = producer_block.insert_arg(
            argument.type, len(producer_block.args)
        )
    for k in fusion.preserved:
        outputs.append(producer.outputs[k])
        output_maps.append(producer_maps[num_p_inputs + k].compose(to_producer))
        producer_block.insert_arg(
            producer_block_arg_type(producer, k), len(producer_block.args)
        )
    num_c_inputs = len(consumer.inputs)
    for j, operand in enumerate(consumer.outputs):
        argument = consumer_block.args[num_c_inputs + j]
        outputs.append(operand)
        output_maps.append(consumer_maps[num_c_inputs + j])
        replacements[argument] = producer_block.insert_arg(
            argument.type, len(producer_block.args)
        )
    for old, new in replacements.items():
        old.replace_all_uses_with(new)

    # The consumer's ops follow the producer's, then one yield for both.
    move_body_before(consumer_block, producer_yield)
    new_yield = YieldOp(
        *[yielded[k] for k in fusion.preserved], *consumer_yield.operands
    )
    Rewriter.replace_op(producer_yield, new_yield)

    region = Rewriter.move_region_contents_to_new_regions(producer.body)
    fused = GenericOp(
        inputs,
        outputs,
        region,
        [AffineMapAttr(m) for m in (*input_maps, *output_maps)],
        consumer.iterator_types,
        [producer.results[k].type for k in fusion.preserved]
        + [r.type for r in consumer.results],
    )
    Rewriter.insert_op(fused, InsertPoint.before(consumer))
    kept = len(fusion.preserved)
    for position, k in enumerate(fusion.preserved):
        producer.results[k].replace_all_uses_with(fused.results[position])
    for j, result in enumerate(consumer.results):
        result.replace_all_uses_with(fused.results[kept + j])
    Rewriter.erase_op(consumer)
    Rewriter.erase_op(producer)
    return fused


def producer_block_arg_type(producer: GenericOp, k: int):
    output_type = producer.outputs[k].type
    assert isinstance(output_type, TensorType)
    return output_type.get_element_type()
