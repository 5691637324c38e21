"""Input-sharing fusion (`shared-input=true`): generics that read the same
tensor over the same loops become one generic with the results of both.

    %1 = linalg.generic ins(%x, %y) outs(%e) { addf }
    %2 = linalg.generic ins(%x, %z) outs(%e) { mulf }

becomes

    %r:2 = linalg.generic ins(%x, %y, %z) outs(%e, %e) { addf; mulf }

so `%x` is read once (seed 002's `input_sharing` example). ByteIR gets there
by giving the shared tensor a `linalg_ext.alias` producer and running
producer–consumer fusion; merging the two ops directly gives the same IR.

Two generics merge when they are in the same block, both on tensors, with
the same iterator types, and read one tensor value through the same
permutation map (so their loops have the same extents), and when no user of
the first's results comes before the second (the merged op stands where the
second stood).
"""

from __future__ import annotations

from xdsl.dialects.builtin import AffineMapAttr
from xdsl.dialects.linalg.ops import GenericOp, YieldOp
from xdsl.ir import Operation, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from linalg_ext.transforms.affine_maps import is_permutation
from linalg_ext.transforms.dps import has_pure_tensor_semantics
from linalg_ext.transforms.ordering import ancestor_in

from .fusion import NotFused, maps_of, move_body_before


def check_sharing(first: GenericOp, second: GenericOp, shared: SSAValue) -> None:
    """NotFused with the reason unless `first` and `second` (in that order
    in their block) can be merged around their common input `shared`."""
    block = second.parent_block()
    if first.parent_block() is not block or block is None:
        raise NotFused("the two ops are in different blocks")
    if not (has_pure_tensor_semantics(first) and has_pure_tensor_semantics(second)):
        raise NotFused("expected tensor semantics (memref operands)")
    if [t.data for t in first.iterator_types] != [
        t.data for t in second.iterator_types
    ]:
        raise NotFused("the two ops have different iterator types")
    first_maps, second_maps = maps_of(first), maps_of(second)
    first_map = next(first_maps[i] for i, v in enumerate(first.inputs) if v == shared)
    second_map = next(
        second_maps[i] for i, v in enumerate(second.inputs) if v == shared
    )
    if first_map != second_map or not is_permutation(first_map):
        raise NotFused(
            "the shared input is not read through the same permutation map "
            f"({first_map} and {second_map})"
        )
    for result in first.results:
        for use in result.uses:
            user = ancestor_in(block, use.operation)
            if user is None or not second.is_before_in_block(user):
                raise NotFused(
                    "a user of the first op's results comes before the second op"
                )


def merge(first: GenericOp, second: GenericOp) -> GenericOp:
    """One generic computing both ops, in place of `second`; its results are
    the first's, then the second's. The first's region is reused."""
    block = first.body.block
    other = second.body.block
    num_first_inputs = len(first.inputs)
    num_second_inputs = len(second.inputs)
    first_yield, second_yield = block.last_op, other.last_op
    assert isinstance(first_yield, YieldOp) and isinstance(second_yield, YieldOp)

    # Arguments: first's inputs, second's inputs, first's outputs, second's.
    for i in range(num_second_inputs):
        argument = other.args[i]
        new = block.insert_arg(argument.type, num_first_inputs + i)
        argument.replace_all_uses_with(new)
    for argument in other.args[num_second_inputs:]:
        new = block.insert_arg(argument.type, len(block.args))
        argument.replace_all_uses_with(new)
    move_body_before(other, first_yield)
    Rewriter.replace_op(
        first_yield, YieldOp(*first_yield.operands, *second_yield.operands)
    )

    first_maps, second_maps = maps_of(first), maps_of(second)
    maps = (
        first_maps[:num_first_inputs]
        + second_maps[:num_second_inputs]
        + first_maps[num_first_inputs:]
        + second_maps[num_second_inputs:]
    )
    region = Rewriter.move_region_contents_to_new_regions(first.body)
    merged = GenericOp(
        [*first.inputs, *second.inputs],
        [*first.outputs, *second.outputs],
        region,
        [AffineMapAttr(m) for m in maps],
        first.iterator_types,
        [r.type for r in (*first.results, *second.results)],
    )
    Rewriter.insert_op(merged, InsertPoint.before(second))
    count = len(first.results)
    for k, result in enumerate(first.results):
        result.replace_all_uses_with(merged.results[k])
    for k, result in enumerate(second.results):
        result.replace_all_uses_with(merged.results[count + k])
    Rewriter.erase_op(second)
    Rewriter.erase_op(first)
    return merged


def sharing_candidates(op: Operation) -> list[tuple[SSAValue, GenericOp]]:
    """For each tensor input of `op`, the next generic after `op` in its
    block reading the same value (the partner to try first)."""
    found: list[tuple[SSAValue, GenericOp]] = []
    block = op.parent_block()
    if not isinstance(op, GenericOp) or block is None:
        return found
    for value in dict.fromkeys(op.inputs):
        partners = [
            use.operation
            for use in value.uses
            if isinstance(use.operation, GenericOp)
            and use.operation is not op
            and use.operation.parent_block() is block
            and op.is_before_in_block(use.operation)
            and use.index < len(use.operation.inputs)
        ]
        if partners:
            nearest = min(partners, key=lambda o: block.get_operation_index(o))
            found.append((value, nearest))
    return found
