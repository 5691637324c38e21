"""Transposes and broadcasts folded into the contractions that read them.

    %t = linalg.transpose ins(%w : tensor<2048x512xf32>)
             outs(%e : tensor<512x2048xf32>) permutation = [1, 0]
    %c = linalg.matmul ins(%x, %t : ...) outs(%acc : ...)

becomes a `linalg.generic` multiply-add reading `%w` through the map
`(m, n, k) -> (n, k)`: the transpose is no longer computed (and, once
unused, is erased). The contraction micro-kernel packs its operands from
any projected-permutation map, so the fused op costs what the matmul did.
Broadcasts likewise, along batch loops (a weight shared by every batch):
the contraction reads the unbroadcast source through a map without them.
A broadcast along a reduction, row or column loop is kept: the operand
would lose a loop the micro-kernel needs.

The producer is any op that only moves elements: `linalg.transpose`,
`linalg.broadcast`, or an all-parallel `linalg.generic` on tensors with one
input read through a projected permutation, one output whose map is a
permutation, and a body that yields the input element. Its element at the
consumer's loop point `c` is the source element at `p_in ∘ p_out⁻¹ ∘ c`,
the map the consumer reads the source through.

The consumer is a contraction: a `linalg.generic` (or a named op that
generalises to one: `linalg.matmul`, `batch_matmul`, the OpDSL matmuls)
with two inputs, one output, reduction loops, projected-permutation maps
and a multiply-accumulate body. Other consumers are left to the
elementwise fusion, and other producers are not folded into contractions
(a computed operand would be recomputed for every reduction step and the
body would no longer be the micro-kernel's).

Upstream has no such pass; IREE gets the same IR by generalising the named
ops and running elementwise fusion, which also fuses the transpose (a
yield-only producer) into the generic matmul.
"""

from __future__ import annotations

from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import AffineMapAttr, ArrayAttr, ModuleOp
from xdsl.dialects.linalg.ops import BroadcastOp, GenericOp, TransposeOp
from xdsl.ir import Block, Operation, OpResult, SSAValue
from xdsl.ir.affine import AffineMap
from xdsl.rewriter import Rewriter

from linalg_ext.transforms.affine_maps import is_permutation
from linalg_ext.transforms.dps import has_pure_tensor_semantics, is_all_parallel
from linalg_ext.transforms.generalize import generalize

from .fusion import NotFused
from .reshape import bypass_reshape_pair, expand_through_collapse

CONSUMER_NAMED_OPS = frozenset(
    {
        "linalg.matmul",
        "linalg.batch_matmul",
        "linalg.batch_reduce_matmul",
    }
)
"""Named contractions generalised when a transpose or broadcast feeds them."""


def _generic_view(op: Operation) -> GenericOp | None:
    """`op` if it is a generic, else its generalisation (built, not
    inserted: only read here), or None."""
    if isinstance(op, GenericOp):
        return op
    if op.name in CONSUMER_NAMED_OPS or isinstance(op, TransposeOp | BroadcastOp):
        return generalize(op)
    return None


def _is_multiply_accumulate(block: Block) -> bool:
    """The body is `yield(out + a * b)` of its three arguments, in any
    order of the add's and the multiply's operands."""
    ops = list(block.ops)
    if len(ops) != 3 or len(block.args) != 3:
        return False
    mul, add, terminator = ops
    a, b, out = block.args
    if not (isinstance(mul, arith.MulfOp) and isinstance(add, arith.AddfOp)) and not (
        isinstance(mul, arith.MuliOp) and isinstance(add, arith.AddiOp)
    ):
        return False
    return (
        {mul.lhs, mul.rhs} == {a, b}
        and mul.lhs is not mul.rhs
        and {add.lhs, add.rhs} == {out, mul.result}
        and list(terminator.operands) == [add.result]
    )


def _is_contraction(generic: GenericOp) -> bool:
    maps = [m.data for m in generic.indexing_maps]
    return (
        len(generic.inputs) == 2
        and len(generic.outputs) == 1
        and not is_all_parallel(generic)
        and all(m.is_projected_permutation() and not m.num_symbols for m in maps)
        and _is_multiply_accumulate(generic.body.block)
    )


def source_map(producer: Operation) -> tuple[SSAValue, AffineMap] | None:
    """For a producer that only moves elements: its source and the map
    from its result's indices to the source's (`p_in ∘ p_out⁻¹`)."""
    if len(producer.results) != 1 or not has_pure_tensor_semantics(producer):
        return None
    view = _generic_view(producer)
    if view is None:
        return None
    found = _moved_source(view)
    if view is not producer:
        view.erase()  # built only to be read: it must not keep uses
    return found


def _moved_source(view: GenericOp) -> tuple[SSAValue, AffineMap] | None:
    if len(view.inputs) != 1 or len(view.outputs) != 1:
        return None
    if not is_all_parallel(view):
        return None
    block = view.body.block
    terminator = block.last_op
    if len(block.ops) != 1 or terminator is None:
        return None
    if list(terminator.operands) != [block.args[0]]:
        return None  # not a yield of the input element
    input_map, output_map = (m.data for m in view.indexing_maps)
    if input_map.num_symbols or not input_map.is_projected_permutation():
        return None
    if not is_permutation(output_map):
        return None
    inverse = output_map.inverse_permutation()
    assert inverse is not None  # a permutation has one
    return view.inputs[0], input_map.compose(inverse)


def _permuted(value: SSAValue) -> bool:
    """Whether `value` is the result of a producer that only moves
    elements."""
    return isinstance(value, OpResult) and source_map(value.op) is not None


def _collapsed_permuted(value: SSAValue) -> bool:
    """Whether `value` is a `tensor.collapse_shape` of such a result."""
    return (
        isinstance(value, OpResult)
        and isinstance(value.op, tensor.CollapseShapeOp)
        and _permuted(value.op.src)
    )


def fold_permutation_producers(consumer: Operation) -> GenericOp | None:
    """Make contraction `consumer` read the sources of the transposes and
    broadcasts that produce its inputs; the op that replaced it, or None
    when it is not a contraction or no input is so produced.

    An input that is a `tensor.collapse_shape` of such a producer's result
    (attention's heads folded into the batch: `collapse(transpose(x))`) is
    first read through: the contraction's loops are expanded as the
    elementwise fusion expands a consumer of a collapse. The producers stay
    for their other users (dead ones are erased later)."""
    if not has_pure_tensor_semantics(consumer):
        return None
    inputs = consumer.operands[:2]
    if not any(_permuted(v) or _collapsed_permuted(v) for v in inputs):
        return None  # cheap exit before generalising anything
    view = _generic_view(consumer)
    if view is None or not _is_contraction(view):
        if view is not None and view is not consumer:
            view.erase()
        return None
    # Direct producers first (on the generalisation before it is
    # inserted: a named op with nothing to fold stays named); an expansion
    # would reshape them away.
    changed = _read_sources(view)
    collapsed = [i for i in range(2) if _collapsed_permuted(view.inputs[i])]
    if not changed and not collapsed:
        if view is not consumer:
            view.erase()
        return None
    generic = view
    if view is not consumer:
        Rewriter.replace_op(consumer, view)
    for index in collapsed:
        if not _collapsed_permuted(generic.inputs[index]):
            continue  # read through already by the first expansion
        try:
            generic = expand_through_collapse(generic, index)
        except NotFused:
            continue
        # The expansion reshapes the other operands: undo expand(collapse).
        for other in range(len(generic.operands)):
            bypass_reshape_pair(generic, other)
        _read_sources(generic)
    return generic


def _read_sources(generic: GenericOp) -> bool:
    """Make contraction `generic` read the sources of the producers of its
    inputs that only move elements, through composed maps (in place);
    whether any input changed."""
    maps = [m.data for m in generic.indexing_maps]
    kinds = [str(t.data) for t in generic.iterator_types]
    changed = False
    for index, value in enumerate(list(generic.inputs)):
        if not isinstance(value, OpResult):
            continue
        found = source_map(value.op)
        if found is None:
            continue
        source, to_source = found
        new_map = to_source.compose(maps[index])
        # A broadcast may drop only batch loops (parallel, read by the other
        # input too): without its row, column or reduction loop an input
        # no longer makes a contraction the micro-kernel takes.
        dropped = set(maps[index].used_dims()) - set(new_map.used_dims())
        other = set(maps[1 - index].used_dims())
        if any(kinds[d] != "parallel" or d not in other for d in dropped):
            continue
        trial = [*maps[:index], new_map, *maps[index + 1 :]]
        generic.operands[index] = source
        maps = trial
        changed = True
    if changed:
        generic.properties["indexing_maps"] = ArrayAttr(AffineMapAttr(m) for m in maps)
    return changed


def fold_permutations_into_contractions(module: ModuleOp) -> int:
    """`fold_permutation_producers` on every op of `module`; how many
    contractions changed."""
    count = 0
    for op in list(module.walk()):
        if op.parent is None:
            continue
        if isinstance(op, GenericOp) or op.name in CONSUMER_NAMED_OPS:
            if fold_permutation_producers(op) is not None:
                count += 1
    return count
