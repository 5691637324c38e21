"""Interpreter functions of the tiling transform ops, on `linalg_ext.tiling`:
`transform.structured.tile_using_for` (every op with a tiling model, in
place of xDSL's generic-only implementation), `transform.structured.fuse`
and `transform.structured.fuse_into_containing_op`.

A refusal of the library (`TilingRefused`) becomes the failure of the
transform op: one line, located at the transform op, naming the payload op.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import tensor, transform
from xdsl.interpreter import (
    Interpreter,
    InterpreterFunctions,
    PythonValues,
    impl,
    register_impls,
)
from xdsl.interpreters.transform import OperationHandle
from xdsl.ir import Operation, OpResult, SSAValue
from xdsl.pattern_rewriter import PatternRewriterListener

from linalg_ext.tiling import TiledOp, TilingRefused, tiling_model
from linalg_ext.tiling.cleanup import apply_tiling_cleanup
from linalg_ext.tiling.fusion import find_slice_origin, fuse_producer_of_tensor
from linalg_ext.tiling.fusion_driver import erase_dead_ops, tile_and_fuse
from linalg_ext.tiling.loops import discard, tile_using_for
from linalg_ext.transform_ops.handles import failure, mixed_lists, op_handle
from linalg_ext.transform_ops.ops import FuseIntoContainingOp, FuseOp, static_values
from linalg_ext.transforms.mixed_sizes import Mixed
from linalg_ext.transforms.ordering import isolated_scope


def computing_ops(tiled: TiledOp) -> list[Operation]:
    """The ops that compute a tile's results (what upstream's `tiledOps`
    handles hold), in order, without the slices and index arithmetic."""
    found: list[Operation] = []
    for result in tiled.results:
        owner = result.owner
        if isinstance(owner, Operation) and owner not in found:
            found.append(owner)
    return found


def _tileable(transform_op: Operation, target: Operation) -> None:
    if tiling_model(target) is None:
        raise failure(
            transform_op,
            "only ops implementing TilingInterface are supported",
            target,
        )


def _interchanges(
    transform_op: Operation,
    static: Sequence[int],
    dynamic: Sequence[object],
    num_targets: int,
) -> list[list[int]]:
    lists = mixed_lists(transform_op, static, dynamic, num_targets, "interchange")
    result: list[list[int]] = []
    for values in lists:
        integers = [v for v in values if isinstance(v, int)]
        if len(integers) != len(values):
            raise failure(transform_op, "expects interchange values to be parameters")
        result.append(integers)
    return result


def _slices_of(
    producer: Operation, container: Operation
) -> list[tensor.ExtractSliceOp]:
    """The `tensor.extract_slice`s inside `container` that read a result of
    `producer` (directly or through other slices): what fusing the producer
    into the container replaces."""
    found: list[tensor.ExtractSliceOp] = []
    for candidate in container.walk():
        if not isinstance(candidate, tensor.ExtractSliceOp):
            continue
        index_ops: list[Operation] = []
        origin = find_slice_origin(candidate, (), index_ops)
        discard(index_ops)
        if origin is not None and origin.result.op is producer:
            found.append(candidate)
    return found


class ReplacementTracker:
    """Follows the payload ops a handle holds through a clean-up: an op a
    pattern replaces by the results of one new op is that op now; an op
    erased is gone (upstream's tracking listener)."""

    def __init__(self) -> None:
        self.replaced: dict[Operation, Operation | None] = {}
        self.listener = PatternRewriterListener(
            operation_replacement_handler=[self._replaced],
            operation_removal_handler=[self._removed],
        )

    def _replaced(self, op: Operation, values: Sequence[SSAValue | None]) -> None:
        owners = {v.owner for v in values if isinstance(v, OpResult)}
        self.replaced[op] = owners.pop() if len(owners) == 1 else None

    def _removed(self, op: Operation) -> None:
        self.replaced.setdefault(op, None)

    def surviving(self, ops: Sequence[Operation]) -> list[Operation]:
        """What each of `ops` became, in order (erased ones dropped)."""
        found: list[Operation] = []
        for op in ops:
            current: Operation | None = op
            while current is not None and current in self.replaced:
                current = self.replaced[current]
            if current is not None and current.parent is not None:
                found.append(current)
        return found


@register_impls
class TilingTransformFunctions(InterpreterFunctions):
    """The impls, registered on xDSL's `TransformFunctions` by `install`."""

    @impl(transform.TileOp)
    def run_tile_using_for(
        self, interpreter: Interpreter, op: transform.TileOp, args: PythonValues
    ) -> PythonValues:
        targets = op_handle(op, args[0], "the target")
        scalable = static_values(op.scalable_sizes)
        if any(scalable):
            raise failure(op, "scalable tile sizes are not supported")
        size_lists = mixed_lists(
            op, static_values(op.static_sizes), args[1:], len(targets.ops), "tile sizes"
        )
        interchange = static_values(op.interchange)
        tiled_ops: list[Operation] = []
        loops: list[list[Operation]] = [[] for _ in op.loops]
        for target, sizes in zip(targets.ops, size_lists, strict=True):
            _tileable(op, target)
            try:
                tiling = tile_using_for(target, sizes, interchange)
            except TilingRefused as refused:
                raise failure(op, str(refused), target) from refused
            tiled_ops.extend(computing_ops(tiling.tiled))
            # A parameter of 0 builds no loop: its handle stays empty.
            for handle, loop in zip(loops, tiling.loops, strict=False):
                handle.append(loop)
        return (OperationHandle(*tiled_ops), *(OperationHandle(*h) for h in loops))

    @impl(FuseOp)
    def run_fuse(
        self, interpreter: Interpreter, op: FuseOp, args: PythonValues
    ) -> PythonValues:
        if op.use_forall is not None:
            raise failure(op, "use_forall is not supported (scf.for loops only)")
        targets = op_handle(op, args[0], "the target")
        num_sizes = len(op.tile_sizes)
        size_lists: list[list[Mixed]] = mixed_lists(
            op,
            static_values(op.static_tile_sizes),
            args[1 : 1 + num_sizes],
            len(targets.ops),
            "tile sizes",
        )
        interchanges = _interchanges(
            op,
            static_values(op.static_tile_interchange),
            args[1 + num_sizes :],
            len(targets.ops),
        )
        transformed: list[Operation] = []
        loops: list[list[Operation]] = [[] for _ in op.loops]
        for target, sizes, interchange in zip(
            targets.ops, size_lists, interchanges, strict=True
        ):
            _tileable(op, target)
            scope = isolated_scope(target)
            try:
                fused = tile_and_fuse(target, sizes, interchange)
            except TilingRefused as refused:
                raise failure(op, str(refused), target) from refused
            tracker = ReplacementTracker()
            if op.apply_cleanup is not None:
                apply_tiling_cleanup(scope, listener=tracker.listener)
            transformed.extend(tracker.surviving(computing_ops(fused.tiled)))
            for handle, loop in zip(loops, fused.loops, strict=False):
                handle.extend(tracker.surviving([loop]))
        return (OperationHandle(*transformed), *(OperationHandle(*h) for h in loops))

    @impl(FuseIntoContainingOp)
    def run_fuse_into_containing_op(
        self,
        interpreter: Interpreter,
        op: FuseIntoContainingOp,
        args: PythonValues,
    ) -> PythonValues:
        producers = op_handle(op, args[0], "the producer")
        containers = op_handle(op, args[1], "the containing op")
        if len(containers.ops) != 1:
            raise failure(
                op,
                "requires exactly one containing_op handle (got "
                f"{len(containers.ops)})",
            )
        container = containers.ops[0]
        remaining = list(dict.fromkeys(producers.ops))
        fused_ops: list[Operation] = []
        # Upstream's order: any producer with a use inside the container,
        # until none is left (fusing one gives its own producers uses).
        while remaining:
            ready = next(
                (
                    (producer, slices)
                    for producer in remaining
                    if (slices := _slices_of(producer, container))
                ),
                None,
            )
            if ready is None:
                raise failure(
                    op,
                    "could not find next producer to fuse into container",
                    remaining[0],
                )
            producer, slices = ready
            remaining.remove(producer)
            # One slice at a time, found afresh: fusing one changes the
            # others (a slice of it now reads the fused tile).
            while slices:
                fused = fuse_producer_of_tensor(slices[0])
                if fused is None:
                    raise failure(
                        op, "could not tile the producer for its slice", producer
                    )
                fused_ops.extend(computing_ops(fused))
                slices = _slices_of(producer, container)
            erase_dead_ops([producer])
        return (OperationHandle(*fused_ops), OperationHandle(container))


__all__ = ["TilingTransformFunctions", "computing_ops"]
