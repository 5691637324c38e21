"""`fuse-pad`: compute a producer straight into the interior of its padding.

    %r = linalg.generic ... outs(%init)
    %p = tensor.pad %r low[l] high[h] { tensor.yield %v }

becomes

    %e = tensor.empty(sizes)
    %f = linalg.fill ins(%v) outs(%e)
    %s = tensor.extract_slice %f[l][n][1]
    %g = linalg.generic ... outs(%s)
    %p = tensor.insert_slice %g into %f[l][n][1]

Upstream MLIR has this as the test pattern FusePadOpWithLinalgProducer
(`mlir-opt --test-linalg-pad-fusion`, seed 000). This pass does the same
for every case upstream handles and goes further:

- any all-parallel structured producer, not only `linalg.generic`;
- the producer is computed once: its other users read the interior of the
  padded tensor (`allow-recompute=true` keeps upstream's form, which clones
  the producer and leaves the original for the other users);
- a producer whose body reads its init still sees the init's values in the
  interior (upstream would hand it the padding value instead);
- a pad value that depends on the indices, or that the region computes, is
  evaluated by a `linalg.generic` over `linalg.index` instead of refused;
- `fill=border` writes the padding only into the 2·rank border slabs when the
  producer overwrites the whole interior (static or dynamic sizes);
- `report` prints one line per pad left unfused, with the reason.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

from xdsl.context import Context
from xdsl.dialects import arith, func, tensor
from xdsl.dialects.builtin import DYNAMIC_INDEX, AffineMapAttr, ModuleOp, TensorType
from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.dialects.linalg.ops import FillOp, GenericOp, IndexOp, YieldOp
from xdsl.dialects.utils import get_dynamic_index_list
from xdsl.ir import Block, BlockArgument, Operation, OpResult, Region, SSAValue
from xdsl.ir.affine import AffineMap
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint
from xdsl.traits import is_side_effect_free

from linalg_ext.transforms.affine_maps import is_permutation
from linalg_ext.transforms.dps import (
    body_reads_output,
    has_loops,
    is_all_parallel,
    is_structured,
    output_map,
    with_output,
)
from linalg_ext.transforms.mixed_sizes import Mixed, as_index_value, sum_mixed
from linalg_ext.transforms.ordering import ancestor_in
from linalg_ext.transforms.shape_reification import reify_dim, tensor_dim
from linalg_ext.transforms.slices import extract_slice, insert_slice


class NotFused(Exception):
    """Why a pad is left as it is (the reasons of `report`)."""


@dataclass
class Padding:
    """What the border holds: one value (`linalg.fill`), or the pad region
    evaluated at each index (a `linalg.generic` over `linalg.index`)."""

    value: SSAValue | None
    region: Block | None

    def fill(
        self, dest: SSAValue, offsets: Sequence[Mixed], new_ops: list[Operation]
    ) -> SSAValue:
        """`dest` filled with the padding; `offsets` place `dest` in the padded
        tensor, since an index-dependent value depends on that position."""
        if self.value is not None:
            fill = FillOp((self.value,), (dest,), (dest.type,))
            new_ops.append(fill)
            return fill.res[0]
        assert self.region is not None and isinstance(dest.type, TensorType)
        rank = len(offsets)
        body = Block(arg_types=[dest.type.get_element_type()])
        mapping: dict[SSAValue, SSAValue] = {}
        for dim, (argument, offset) in enumerate(
            zip(self.region.args, offsets, strict=True)
        ):
            index = IndexOp(dim)
            body.add_op(index)
            position: SSAValue = index.result
            if offset != 0:
                # A static offset becomes a constant inside the body; a
                # dynamic one is used from outside.
                shift_ops: list[Operation] = []
                shift = as_index_value(offset, shift_ops)
                body.add_ops(shift_ops)
                add = arith.AddiOp(position, shift)
                body.add_op(add)
                position = add.result
            mapping[argument] = position
        terminator = self.region.last_op
        for op in self.region.ops:
            if op is terminator:
                body.add_op(YieldOp(*(mapping.get(v, v) for v in op.operands)))
            else:
                body.add_op(op.clone(value_mapper=mapping))
        identity = AffineMapAttr(AffineMap.identity(rank))
        generic = GenericOp(
            (),
            (dest,),
            Region(body),
            (identity,),
            (IteratorTypeAttr.parallel(),) * rank,
            (dest.type,),
        )
        new_ops.append(generic)
        return generic.res[0]


def padding_of(pad: tensor.PadOp, new_ops: list[Operation]) -> Padding:
    """A value defined outside the region (or a constant inside, cloned out)
    fills; anything else the region computes is evaluated per index."""
    block = pad.region.block
    terminator = block.last_op
    assert terminator is not None
    (value,) = terminator.operands
    inside = (isinstance(value, BlockArgument) and value.block is block) or (
        isinstance(value, OpResult) and value.op.parent_block() is block
    )
    if not inside:
        return Padding(value, None)
    if isinstance(value, OpResult) and isinstance(value.op, arith.ConstantOp):
        constant = value.op.clone()
        new_ops.append(constant)
        return Padding(constant.result, None)
    for op in block.ops:
        if op is not terminator and not is_side_effect_free(op):
            raise NotFused(f"the pad region has an op with side effects ({op.name})")
    return Padding(None, block)


def producer_of(pad: tensor.PadOp) -> tuple[Operation, int]:
    source = pad.source
    if not isinstance(source, OpResult) or not has_loops(source.op):
        raise NotFused("expected source to be produced by a linalg structured op")
    producer = source.op
    if not is_all_parallel(producer):
        raise NotFused("only supported for ops with all parallel iterator types")
    if not is_structured(producer):
        raise NotFused(f"{producer.name} has no indexing maps")
    # A tensor source is a result, so the producer is in tensor form.
    return producer, source.index


def other_users_after(pad: tensor.PadOp, producer: Operation) -> bool:
    """Whether every use of the producer's results, but the pad, is after the
    pad in its block (so the fused op, placed at the pad, dominates them)."""
    block = pad.parent_block()
    assert block is not None
    for result in producer.results:
        for use in result.uses:
            if use.operation is pad:
                continue
            user = ancestor_in(block, use.operation)
            if user is None or not pad.is_before_in_block(user):
                return False
    return True


def padded_elsewhere(pad: tensor.PadOp, producer: Operation) -> bool:
    """Whether another `tensor.pad` reads a result of the producer. Computed
    into this pad's interior, it would leave that pad a slice to pad, which
    no longer fuses; so each pad but the last gets its own copy of the
    producer, as upstream gives every pad."""
    return any(
        isinstance(use.operation, tensor.PadOp) and use.operation is not pad
        for result in producer.results
        for use in result.uses
    )


@dataclass
class FusePadIntoProducer(RewritePattern):
    allow_recompute: bool
    fill_border: bool
    refusals: dict[tensor.PadOp, str] = field(default_factory=dict)

    @op_type_rewrite_pattern
    def match_and_rewrite(self, pad: tensor.PadOp, rewriter: PatternRewriter):
        try:
            self.fuse(pad, rewriter)
        except NotFused as reason:
            self.refusals[pad] = str(reason)

    def fuse(self, pad: tensor.PadOp, rewriter: PatternRewriter) -> None:
        new_ops: list[Operation] = []
        padding = padding_of(pad, new_ops)
        producer, index = producer_of(pad)
        source = pad.source
        result_type = pad.result.type
        assert isinstance(result_type, TensorType)
        rank = len(result_type.get_shape())
        recompute = (
            self.allow_recompute
            or not other_users_after(pad, producer)
            or padded_elsewhere(pad, producer)
        )

        low = get_dynamic_index_list(
            pad.static_low.get_values(), pad.low, DYNAMIC_INDEX
        )
        high = get_dynamic_index_list(
            pad.static_high.get_values(), pad.high, DYNAMIC_INDEX
        )
        # The interior is the producer's result: upstream asks the old result
        # for its sizes; computing once, we must not, so they come from the
        # producer's init instead.
        if recompute:
            source_type = source.type
            assert isinstance(source_type, TensorType)
            sizes: list[Mixed] = [
                extent if extent >= 0 else tensor_dim(source, d, new_ops)
                for d, extent in enumerate(source_type.get_shape())
            ]
        else:
            sizes = [reify_dim(source, d, new_ops) for d in range(rank)]
        padded_sizes = [
            extent if extent >= 0 else sum_mixed((sizes[d], low[d], high[d]), new_ops)
            for d, extent in enumerate(result_type.get_shape())
        ]
        empty = tensor.EmptyOp(
            [s for s in padded_sizes if isinstance(s, SSAValue)], result_type
        )
        new_ops.append(empty)

        reads_init = body_reads_output(producer, index)
        whole_interior_written = not reads_init and is_permutation(
            output_map(producer, index)
        )
        if self.fill_border and whole_interior_written:
            padded = fill_border(
                empty.tensor, padding, low, sizes, high, padded_sizes, new_ops
            )
        else:
            padded = padding.fill(empty.tensor, [0] * rank, new_ops)
        init = producer.outputs[index]  # pyright: ignore[reportAttributeAccessIssue]
        if reads_init:
            # The body reads its init: the interior must hold the init's values.
            seeded = insert_slice(init, padded, low, sizes)
            new_ops.append(seeded)
            padded = seeded.result
        interior = extract_slice(padded, low, sizes)
        fused = with_output(producer, index, interior.result)
        placed = insert_slice(fused.results[index], padded, low, sizes)
        new_ops.extend((interior, fused, placed))
        rewriter.replace(pad, new_ops, [placed.result])

        if recompute:
            return
        # The other users read what the fused op computed.
        for result in producer.results:
            if result.index == index and result.uses:
                view = extract_slice(placed.result, low, sizes)
                rewriter.insert(view, after(placed))
                rewriter.replace_all_uses_with(result, view.result)
            elif result.uses:
                rewriter.replace_all_uses_with(result, fused.results[result.index])
        rewriter.erase(producer)


def fill_border(
    padded: SSAValue,
    padding: Padding,
    low: Sequence[Mixed],
    sizes: Sequence[Mixed],
    high: Sequence[Mixed],
    padded_sizes: Sequence[Mixed],
    new_ops: list[Operation],
) -> SSAValue:
    """Fill the border only, dimension by dimension: the low and high slabs of
    a dimension span the interior of the dimensions already done and all of
    the later ones, so no element is written twice."""
    offsets: list[Mixed] = [0] * len(sizes)
    extents: list[Mixed] = list(padded_sizes)
    for d in range(len(sizes)):
        high_start = sum_mixed((low[d], sizes[d]), new_ops)
        for slab_offset, slab_size in ((0, low[d]), (high_start, high[d])):
            offsets[d], extents[d] = slab_offset, slab_size
            if 0 in extents:  # statically empty
                continue
            slab = extract_slice(padded, offsets, extents)
            new_ops.append(slab)
            filled = padding.fill(slab.result, offsets, new_ops)
            back = insert_slice(filled, padded, offsets, extents)
            new_ops.append(back)
            padded = back.result
        offsets[d], extents[d] = low[d], sizes[d]
    return padded


def after(op: Operation) -> InsertPoint:
    return InsertPoint.after(op)


@dataclass(frozen=True)
class FusePadPass(ModulePass):
    """Fuse `tensor.pad` into the all-parallel structured op producing its
    source (see the module docstring and docs/passes/fuse-pad.md)."""

    name = "fuse-pad"

    allow_recompute: bool = False
    """Upstream's form: clone the producer and keep the original for its
    other users (it then runs twice)."""

    fill: Literal["full", "border"] = "full"
    """`full` (upstream's form) fills the whole padded tensor; `border` fills
    only the border slabs when the producer writes the whole interior. (xDSL's
    option parser refuses any other value.)"""

    report: bool = False
    """Print one line per pad left unfused, with the reason, to stderr."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        pattern = FusePadIntoProducer(self.allow_recompute, self.fill == "border")
        PatternRewriteWalker(pattern, apply_recursively=True).rewrite_module(op)
        if self.report:
            self.print_report(op, pattern.refusals)

    @staticmethod
    def print_report(module: ModuleOp, refusals: dict[tensor.PadOp, str]) -> None:
        for function in module.walk():
            if not isinstance(function, func.FuncOp):
                continue
            pads = [o for o in function.walk() if isinstance(o, tensor.PadOp)]
            for number, pad in enumerate(pads):
                if pad in refusals:
                    name = pad.result.name_hint
                    label = f"%{name}" if name else f"#{number}"
                    print(
                        f"fuse-pad: @{function.sym_name.data}: tensor.pad {label} "
                        f"not fused: {refusals[pad]}",
                        file=sys.stderr,
                    )
