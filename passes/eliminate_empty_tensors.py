"""`eliminate-empty-tensors`: compute into the destination of an insertion
instead of into a `tensor.empty` that is then copied there.

    %e = tensor.empty() : tensor<4x8xf32>
    %g = linalg.generic ... outs(%e)
    %r = tensor.insert_slice %g into %d[2, 0] [4, 8] [1, 1]

becomes

    %s = tensor.extract_slice %d[2, 0] [4, 8] [1, 1]
    %g = linalg.generic ... outs(%s)
    %r = tensor.insert_slice %g into %d[2, 0] [4, 8] [1, 1]

so that, bufferized, `%g` is written straight into `%d`'s buffer and the
insertion copies nothing. The elements of a `tensor.empty` are undefined, so
any tensor of its type may stand for it: the rewrite never changes what a
program computes (unless it reads those undefined elements).

Upstream MLIR's pass of the same name (one-shot analysis aside, see
docs/passes/eliminate-empty-tensors.md). The insertions are
`tensor.insert_slice`, `tensor.parallel_insert_slice` and
`bufferization.materialize_in_destination` (into a tensor; the replacement is
the whole dest). From the inserted source the pass goes back through results
that update an operand in place (`dps.aliased_operand`: inits of
destination-passing ops, `tensor.insert(_slice)` dests, `scf.for` inits,
`tensor.cast`); when that chain starts at a `tensor.empty`, its use on the
chain (only that one) gets the slice. The slice is built before the empty if
the dest, offsets, sizes and strides are available there, else right after
the last of them to be defined; failing both, the pure ops defining them are
moved before the chain's first op, and when that is impossible the insertion
is left alone.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field

from xdsl.context import Context
from xdsl.dialects import bufferization, func, tensor
from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.ir import BlockArgument, Operation, OpResult, SSAValue, Use
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint

from linalg_ext.compat.forall_ops import ParallelInsertSliceOp
from linalg_ext.transforms.dps import buffer_origin
from linalg_ext.transforms.ordering import (
    CannotMove,
    available_before,
    definitions_to_move,
    move_before,
    placed_before_dominates,
)
from linalg_ext.transforms.slices import slice_inserted_by

Insertion = (
    tensor.InsertSliceOp
    | ParallelInsertSliceOp
    | bufferization.MaterializeInDestinationOp
)


class NotEliminated(Exception):
    """Why an insertion's source keeps its `tensor.empty` (for `report`)."""


def needed_values(insertion: Insertion) -> list[SSAValue]:
    """What building the replacement uses: the dest, and the offsets, sizes
    and strides of a slice."""
    if isinstance(insertion, bufferization.MaterializeInDestinationOp):
        return [insertion.dest]
    return [
        *insertion.offsets,
        *insertion.sizes,
        *insertion.strides,
        insertion.dest,
    ]


def insertion_point(
    empty: tensor.EmptyOp, needed: list[SSAValue], user: Operation
) -> Operation | None:
    """The op to build the replacement right before: the empty itself, else
    right after the definition of one of the needed values, the first of
    these where every needed value is available and that comes before the
    user of the empty."""
    candidates: list[Operation | None] = [empty]
    for value in needed:
        if isinstance(value, BlockArgument):
            candidates.append(value.block.first_op)
        else:
            assert isinstance(value, OpResult)
            candidates.append(value.op.next_op)
    for candidate in candidates:
        if candidate is None:
            continue
        if all(available_before(v, candidate) for v in needed) and (
            placed_before_dominates(candidate, user)
        ):
            return candidate
    return None


def build_replacement(
    insertion: Insertion, rewriter: PatternRewriter, at: Operation
) -> SSAValue:
    """What the empty is replaced by, built right before `at`: the slice the
    insertion writes, or the whole dest of a materialization. A memref dest
    is read as a tensor by a `to_tensor` that takes over the `restrict` of
    the materialization (the promise that no other tensor is made of that
    buffer holds for one of the two, not both)."""
    if isinstance(insertion, bufferization.MaterializeInDestinationOp):
        if isinstance(insertion.dest.type, TensorType):
            return insertion.dest
        to_tensor = bufferization.ToTensorOp(
            insertion.dest, restrict=True, writable=insertion.writable is not None
        )
        rewriter.insert(to_tensor, InsertPoint.before(at))
        del insertion.properties["restrict"]
        rewriter.notify_op_modified(insertion)
        return to_tensor.tensor
    extract = slice_inserted_by(insertion)
    rewriter.insert(extract, InsertPoint.before(at))
    return extract.result


@dataclass
class EliminateEmptyTensor(RewritePattern):
    refusals: dict[Operation, str] = field(default_factory=dict[Operation, str])

    @op_type_rewrite_pattern
    def match_and_rewrite(self, insertion: Insertion, rewriter: PatternRewriter):
        try:
            self.eliminate(insertion, rewriter)
        except NotEliminated as reason:
            self.refusals[insertion] = str(reason)
        else:
            self.refusals.pop(insertion, None)

    def eliminate(self, insertion: Insertion, rewriter: PatternRewriter) -> None:
        use = buffer_origin(Use(insertion, 0))  # operand 0: the source
        user, index = use.operation, use.index
        origin = user.operands[index]
        if not isinstance(origin, OpResult) or not isinstance(
            origin.op, tensor.EmptyOp
        ):
            return  # nothing to eliminate, nothing to report
        if not isinstance(insertion.dest.type, TensorType) and (
            not isinstance(insertion, bufferization.MaterializeInDestinationOp)
            or insertion.restrict is None
        ):
            raise NotEliminated("the destination is a memref not marked `restrict`")
        empty = origin.op
        needed = needed_values(insertion)
        at = insertion_point(empty, needed, user)
        if at is None:
            try:
                to_move = definitions_to_move(needed, user)
            except CannotMove as reason:
                raise NotEliminated(
                    "the destination, offsets, sizes or strides are defined after "
                    f"the empty's use by {user.name} and cannot move before it: "
                    f"{reason}"
                ) from None
            move_before(to_move, user)
            for moved in to_move:
                rewriter.notify_op_modified(moved)
            at = insertion_point(empty, needed, user)
            assert at is not None
        replacement = build_replacement(insertion, rewriter, at)
        if replacement is origin:
            return  # materialized into the empty itself
        if replacement.type != origin.type:
            # Only a tensor.cast on the chain makes the types differ.
            origin_type = origin.type
            assert isinstance(origin_type, TensorType)
            cast = tensor.CastOp(replacement, origin_type)
            rewriter.insert(cast, InsertPoint.before(at))
            replacement = cast.dest
        rewriter.replace_uses_with_if(
            origin, replacement, lambda u: u.operation is user and u.index == index
        )
        if not origin.uses:
            rewriter.erase(empty)


@dataclass(frozen=True)
class EliminateEmptyTensorsPass(ModulePass):
    """Replace a `tensor.empty` whose value is inserted into a destination by
    the slice of that destination it is inserted into (see the module
    docstring and docs/passes/eliminate-empty-tensors.md)."""

    name = "eliminate-empty-tensors"

    report: bool = False
    """Print one line per insertion whose `tensor.empty` is kept, with the
    reason, to stderr."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        pattern = EliminateEmptyTensor()
        PatternRewriteWalker(
            pattern, apply_recursively=True, walk_regions_first=True
        ).rewrite_module(op)
        if self.report:
            self.print_report(op, pattern.refusals)

    @staticmethod
    def print_report(module: ModuleOp, refusals: dict[Operation, str]) -> None:
        for function in module.walk():
            if not isinstance(function, func.FuncOp):
                continue
            for op in function.walk():
                if op in refusals:
                    source = op.operands[0].name_hint
                    of = f" of %{source}" if source else ""
                    print(
                        f"eliminate-empty-tensors: @{function.sym_name.data}: "
                        f"{op.name}{of} keeps its tensor.empty: {refusals[op]}",
                        file=sys.stderr,
                    )
