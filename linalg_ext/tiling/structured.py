"""The tiling model of Linalg's structured ops: `linalg.generic` and every
named op (xDSL's, and the ones `linalg_ext.compat` adds: `linalg.map`,
`linalg.reduce`, `linalg.broadcast`, `linalg.batch_matmul`, the elementwise
ops, `linalg.softmax`).

All of it follows from the indexing maps and iterator types (the queries of
`linalg_ext.transforms.dps`): the iteration domain is read off the operands'
shapes, and a tile of it reads, from each operand, the window its indexing
map sends the tile to. For a map result `e` (an affine expression in the
loops, increasing in each), the slice starts at `e(offsets) - e(0)` and
spans `e(sizes - 1) + 1` elements (the closed interval of the tile, made
half-open again): the input window of a convolution's output tile with
stride 2 and dilation 2 is `(oh_size - 1) * 2 + (kh_size - 1) * 2 + 1`
rows. The tiled op is the same op (the same kind, properties, attributes
and body) on those slices, so its indexing maps are unchanged: subtracting
`e(0)` keeps a map's constant term (`d0 + 2`) reading what it read. A
result using no loop takes the whole dimension, and an operand no loop
indexes (a scalar, a rank-0 tensor) is passed unsliced, as upstream's
`makeTiledShapes` does. `linalg.index` in the tiled body is shifted by the
tile's offsets; a named op whose body reads it (`linalg.fill_rng_2d`) is
tiled to its `linalg.generic`, since a named op's hidden body would lose the
shift when printed.

These are external models (upstream's `LinalgOpTilingInterface`), registered
when `linalg_ext.tiling` is imported. `StructuredTilingModel` also serves
any other op with `inputs`, `outputs`, `get_indexing_maps` and
`get_iterator_types` (a `linalg_ext` op registers it for itself if that is
all its tiling needs).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import (
    AffineMapAttr,
    ArrayAttr,
    IntegerAttr,
    MemRefType,
    TensorType,
)
from xdsl.dialects.linalg.abstract_ops import (
    LinalgStructuredOperation,
    NamedOperation,
)
from xdsl.dialects.linalg.attrs import IteratorType, IteratorTypeAttr
from xdsl.dialects.linalg.ops import BroadcastOp, GenericOp, IndexOp
from xdsl.dialects.linalg.ops import ReduceOp as XdslReduceOp
from xdsl.ir import Operation, OpResult, SSAValue
from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineDimExpr,
    AffineExpr,
    AffineMap,
    AffineSymExpr,
)

from linalg_ext.compat.linalg_ops import MapOp
from linalg_ext.compat.linalg_reduce import ReduceOp
from linalg_ext.compat.linalg_softmax import SoftmaxOp
from linalg_ext.tiling.interface import (
    LoopType,
    TiledOp,
    TilingModel,
    TilingRefused,
    register_tiling,
)
from linalg_ext.transforms.dps import is_structured
from linalg_ext.transforms.mixed_sizes import Mixed, apply_affine_map
from linalg_ext.transforms.shape_reification import reify_dim
from linalg_ext.transforms.slices import extract_slice

_LOOP_TYPES: dict[IteratorType, LoopType] = {
    IteratorType.PARALLEL: "parallel",
    IteratorType.REDUCTION: "reduction",
    # xDSL names a convolution's or pooling's window loops so; they reduce.
    IteratorType.WINDOW: "reduction",
}


def _increasing_refusal(map_: AffineMap) -> str | None:
    """Why a tile of the loops does not read a window of the operand through
    `map_` starting at `e(offsets) - e(0)`, or None: each result must be a
    sum of non-negative multiples of loops plus a constant (no symbols,
    `mod` or divisions, no decreasing loop)."""
    for expression in map_.results:
        for node in expression.dfs():
            if isinstance(node, AffineSymExpr):
                return f"indexing map {map_} has symbols"
            if isinstance(node, AffineBinaryOpExpr) and node.kind not in (
                AffineBinaryOpKind.Add,
                AffineBinaryOpKind.Mul,
            ):
                return f"indexing map {map_} is not a linear combination of loops"
        if not expression.is_pure_affine():
            return f"indexing map {map_} is not affine"
        zeros = [0] * map_.num_dims
        at_zero = expression.eval(zeros, ())
        for dim in range(map_.num_dims):
            unit = [1 if d == dim else 0 for d in range(map_.num_dims)]
            if expression.eval(unit, ()) < at_zero:
                return f"indexing map {map_} decreases along loop d{dim}"
    return None


def _operand_map(expression: AffineExpr, num_dims: int) -> AffineMap:
    return AffineMap(num_dims, 0, (expression,))


class StructuredTilingModel(TilingModel):
    """The tiling of an op described by indexing maps and iterator types
    (upstream's `LinalgOpTilingInterface`), on tensors."""

    def describes(self, op: Operation) -> bool:
        """Whether `op` answers the queries below (is structured)."""
        return is_structured(op)

    def operands(self, op: Operation) -> list[SSAValue]:
        """The operands the indexing maps index: inputs, then outputs."""
        return [*op.inputs, *op.outputs]  # pyright: ignore[reportAttributeAccessIssue]

    def outputs(self, op: Operation) -> list[SSAValue]:
        return list(op.outputs)  # pyright: ignore[reportAttributeAccessIssue]

    def indexing_maps(self, op: Operation) -> list[AffineMap]:
        """One map per operand of `operands`, from the loops to its indices."""
        maps = cast(
            ArrayAttr[AffineMapAttr],
            op.get_indexing_maps(),  # pyright: ignore[reportAttributeAccessIssue]
        )
        return [attribute.data for attribute in maps]

    def iterator_types(self, op: Operation) -> list[IteratorType]:
        types = cast(
            ArrayAttr[IteratorTypeAttr],
            op.get_iterator_types(),  # pyright: ignore[reportAttributeAccessIssue]
        )
        return [attribute.data for attribute in types]

    # The interface.

    def refusal(self, op: Operation) -> str | None:
        if not self.describes(op):
            return f"{op.name} has no indexing maps"
        operands = self.operands(op)
        if any(isinstance(v.type, MemRefType) for v in operands):
            return "tiling works on tensors, not on memrefs"
        if len(op.results) != len(self.outputs(op)):
            return "tiling needs one tensor result per output"
        maps = self.indexing_maps(op)
        if len(maps) != len(operands):
            return (
                f"{op.name} has {len(maps)} indexing maps for {len(operands)} operands"
            )
        for map_ in maps:
            if (reason := _increasing_refusal(map_)) is not None:
                return reason
        return None

    def loop_types(self, op: Operation) -> list[LoopType]:
        return [_LOOP_TYPES[t] for t in self.iterator_types(op)]

    def iteration_domain(self, op: Operation, new_ops: list[Operation]) -> list[Mixed]:
        self._check(op)
        count = len(self.loop_types(op))
        return [self._extent(op, loop, new_ops) for loop in range(count)]

    def tile(
        self,
        op: Operation,
        offsets: Sequence[Mixed],
        sizes: Sequence[Mixed],
        new_ops: list[Operation],
    ) -> TiledOp:
        self._check(op, offsets, sizes)
        first = len(new_ops)
        operands = self.operands(op)
        outputs_start = len(operands) - len(self.outputs(op))
        tiled_operands: list[SSAValue] = []
        slices: list[Operation] = []
        for operand, map_ in zip(operands, self.indexing_maps(op), strict=True):
            if not map_.used_dims() or not isinstance(operand.type, TensorType):
                # Nothing about it changes from tile to tile (upstream passes
                # such an operand whole too).
                tiled_operands.append(operand)
                continue
            slice_offsets, slice_sizes = self._window(
                operand, map_, offsets, sizes, new_ops
            )
            slice_op = extract_slice(operand, slice_offsets, slice_sizes)
            new_ops.append(slice_op)
            slices.append(slice_op)
            tiled_operands.append(slice_op.result)
        tiled = type(op).create(
            operands=tiled_operands,
            result_types=[v.type for v in tiled_operands[outputs_start:]],
            properties=dict(op.properties),
            attributes=dict(op.attributes),
            regions=[region.clone() for region in op.regions],
        )
        if _shift_indices(tiled, offsets) and isinstance(tiled, NamedOperation):
            tiled = _as_generic(tiled)
        new_ops.append(tiled)
        return TiledOp(new_ops[first:], list(tiled.results), slices)

    def result_tile_position(
        self,
        op: Operation,
        result_index: int,
        offsets: Sequence[Mixed],
        sizes: Sequence[Mixed],
        new_ops: list[Operation],
    ) -> tuple[list[Mixed], list[Mixed]]:
        self._check(op, offsets, sizes)
        map_ = self._output_map(op, result_index)
        init = self.outputs(op)[result_index]
        return self._window(init, map_, offsets, sizes, new_ops)

    def iteration_tile_of_result(
        self,
        op: Operation,
        result_index: int,
        offsets: Sequence[Mixed],
        sizes: Sequence[Mixed],
        new_ops: list[Operation],
    ) -> tuple[list[Mixed], list[Mixed]]:
        self._check(op)
        map_ = self._output_map(op, result_index)
        if not map_.is_projected_permutation():
            raise TilingRefused(
                f"{op.name} cannot compute a tile of its result #{result_index} "
                f"alone: its indexing map {map_} is not a projected permutation",
                op,
            )
        if len(offsets) != len(map_.results) or len(sizes) != len(map_.results):
            raise TilingRefused(
                f"a tile of result #{result_index} of {op.name} needs "
                f"{len(map_.results)} offsets and sizes",
                op,
            )
        # Loops the result does not index (reductions, mostly) are computed
        # whole: the tile then holds the finished values.
        tile_offsets: list[Mixed | None] = [None] * map_.num_dims
        tile_sizes: list[Mixed | None] = [None] * map_.num_dims
        for position, expression in enumerate(map_.results):
            assert isinstance(expression, AffineDimExpr)
            tile_offsets[expression.position] = offsets[position]
            tile_sizes[expression.position] = sizes[position]
        whole = self.whole_dims(op)
        for loop in range(map_.num_dims):
            if tile_sizes[loop] is None:
                tile_offsets[loop] = 0
                tile_sizes[loop] = self._extent(op, loop, new_ops)
            elif loop in whole and not self._is_whole(
                op, loop, tile_offsets[loop], tile_sizes[loop]
            ):
                raise TilingRefused(
                    f"{op.name} cannot compute a tile of its result "
                    f"#{result_index} that is not whole along loop {loop}",
                    op,
                )
        return (
            [o for o in tile_offsets if o is not None],
            [s for s in tile_sizes if s is not None],
        )

    # Helpers.

    def _check(
        self,
        op: Operation,
        offsets: Sequence[Mixed] | None = None,
        sizes: Sequence[Mixed] | None = None,
    ) -> None:
        if (reason := self.refusal(op)) is not None:
            raise TilingRefused(reason, op)
        if offsets is None or sizes is None:
            return
        count = len(self.loop_types(op))
        if len(offsets) != count or len(sizes) != count:
            raise TilingRefused(
                f"a tile of {op.name} needs {count} offsets and sizes, "
                f"got {len(offsets)} and {len(sizes)}",
                op,
            )
        for loop in self.whole_dims(op):
            if self._known_partial(op, loop, offsets[loop], sizes[loop]):
                raise TilingRefused(
                    f"{op.name} cannot be tiled along loop {loop}: "
                    "every tile must take it whole",
                    op,
                )

    def _known_partial(
        self, op: Operation, loop: int, offset: Mixed, size: Mixed
    ) -> bool:
        """Whether (offset, size) is known not to cover loop `loop` whole
        (values known only when running are trusted)."""
        if isinstance(offset, int) and offset != 0:
            return True
        if not isinstance(size, int):
            return False
        for operand, position in self._extent_sources(op, loop):
            extent = cast(TensorType, operand.type).get_shape()[position]
            if extent >= 0 and extent != size:
                return True
        return False

    def _output_map(self, op: Operation, result_index: int) -> AffineMap:
        maps = self.indexing_maps(op)
        return maps[len(maps) - len(self.outputs(op)) + result_index]

    def _extent_sources(self, op: Operation, loop: int) -> list[tuple[SSAValue, int]]:
        """The (operand, dimension) pairs whose extent is loop `loop`'s: where
        the operand's map result is that loop alone."""
        return [
            (operand, position)
            for operand, map_ in zip(
                self.operands(op), self.indexing_maps(op), strict=True
            )
            if isinstance(operand.type, TensorType)
            for position, expression in enumerate(map_.results)
            if isinstance(expression, AffineDimExpr) and expression.position == loop
        ]

    def _extent(self, op: Operation, loop: int, new_ops: list[Operation]) -> Mixed:
        """Loop `loop`'s extent: static where some operand's shape gives it,
        else reified from the first operand indexed by the loop alone."""
        sources = self._extent_sources(op, loop)
        if not sources:
            raise TilingRefused(
                f"no operand of {op.name} has the extent of loop {loop}", op
            )
        for operand, position in sources:
            extent = cast(TensorType, operand.type).get_shape()[position]
            if extent >= 0:
                return extent
        operand, position = sources[0]
        return reify_dim(operand, position, new_ops)

    def _is_whole(
        self, op: Operation, loop: int, offset: Mixed | None, size: Mixed | None
    ) -> bool:
        """Whether (offset, size) is known to cover loop `loop` whole: offset
        0 and, as size, its static extent or a `tensor.dim` reading it (of an
        operand the loop indexes alone, or of the result it is tied to)."""
        if offset != 0:
            return False
        sources = self._extent_sources(op, loop)
        read = _dim_read(size)
        for operand, position in sources:
            extent = cast(TensorType, operand.type).get_shape()[position]
            if extent >= 0 and size == extent:
                return True
            if read is not None and read[1] == position:
                tied = self._result_of_output(op, operand)
                if read[0] is operand or (tied is not None and read[0] is tied):
                    return True
        return False

    def _result_of_output(self, op: Operation, operand: SSAValue) -> SSAValue | None:
        for output, result in zip(self.outputs(op), op.results, strict=True):
            if output is operand:
                return result
        return None

    def _window(
        self,
        operand: SSAValue,
        map_: AffineMap,
        offsets: Sequence[Mixed],
        sizes: Sequence[Mixed],
        new_ops: list[Operation],
    ) -> tuple[list[Mixed], list[Mixed]]:
        """The slice of `operand` that the loop tile (offsets, sizes) reads
        through `map_`: per result `e`, offset `e(offsets) - e(0)` and size
        `e(sizes - 1) + 1`; the whole dimension for a result using no loop."""
        slice_offsets: list[Mixed] = []
        slice_sizes: list[Mixed] = []
        num_dims = map_.num_dims
        zeros = [0] * num_dims
        minus_one = [AffineExpr.dimension(d) - 1 for d in range(num_dims)]
        for position, expression in enumerate(map_.results):
            if not expression.used_dims():
                slice_offsets.append(0)
                slice_sizes.append(reify_dim(operand, position, new_ops))
            elif isinstance(expression, AffineDimExpr):
                slice_offsets.append(offsets[expression.position])
                slice_sizes.append(sizes[expression.position])
            else:
                at_zero = expression.eval(zeros, ())
                (offset,) = apply_affine_map(
                    _operand_map(expression - at_zero, num_dims), offsets, new_ops
                )
                last = expression.replace_dims_and_symbols(minus_one, ())
                (size,) = apply_affine_map(
                    _operand_map(last + 1, num_dims), sizes, new_ops
                )
                slice_offsets.append(offset)
                slice_sizes.append(size)
        return slice_offsets, slice_sizes


def _dim_read(size: Mixed | None) -> tuple[SSAValue, int] | None:
    """(tensor, dimension) when `size` is `tensor.dim` of a constant
    dimension, else None."""
    if not isinstance(size, OpResult) or not isinstance(size.op, tensor.DimOp):
        return None
    index = size.op.index
    if not isinstance(index, OpResult) or not isinstance(index.op, arith.ConstantOp):
        return None
    value = index.op.value
    if not isinstance(value, IntegerAttr):
        return None
    return size.op.source, value.value.data


def _as_generic(named: NamedOperation) -> GenericOp:
    """The `linalg.generic` of a named op (built, `named` erased): a named
    op's body is hidden (its custom form does not print it and parsing it
    builds the body anew), so a body changed by the tiling (shifted
    `linalg.index`, as in `linalg.fill_rng_2d`) must be a generic's."""
    generic = GenericOp(
        tuple(named.inputs),
        tuple(named.outputs),
        named.regions[0].clone(),
        named.get_indexing_maps(),
        named.get_iterator_types(),
        [result.type for result in named.results],
    )
    named.erase()
    return generic


def _shift_indices(tiled: Operation, offsets: Sequence[Mixed]) -> bool:
    """Make each `linalg.index` of the tiled body read the index it read in
    the whole op: its index in the tile plus the tile's offset; whether any
    index was shifted."""
    shifted_any = False
    for region in tiled.regions:
        for block in region.blocks:
            for index_op in [o for o in block.ops if isinstance(o, IndexOp)]:
                dim = index_op.dim.value.data
                shift_ops: list[Operation] = []
                d0, d1 = AffineExpr.dimension(0), AffineExpr.dimension(1)
                (shifted,) = apply_affine_map(
                    AffineMap(2, 0, (d0 + d1,)),
                    [index_op.result, offsets[dim]],
                    shift_ops,
                )
                if shifted is index_op.result or not shift_ops:
                    continue
                assert isinstance(shifted, SSAValue)
                shifting = set(shift_ops)
                index_op.result.replace_uses_with_if(
                    shifted,
                    lambda use, shifting=shifting: use.operation not in shifting,
                )
                block.insert_ops_after(shift_ops, index_op)
                shifted_any = True
    return shifted_any


class SoftmaxTilingModel(StructuredTilingModel):
    """`linalg.softmax`: elementwise over every loop but `dimension`, which
    every tile takes whole (a tile along it would normalise over part of
    it). Its loops are all parallel, as upstream says."""

    def describes(self, op: Operation) -> bool:
        return isinstance(op, SoftmaxOp)

    def operands(self, op: Operation) -> list[SSAValue]:
        softmax = cast(SoftmaxOp, op)
        return [softmax.input, softmax.output]

    def outputs(self, op: Operation) -> list[SSAValue]:
        return [cast(SoftmaxOp, op).output]

    def indexing_maps(self, op: Operation) -> list[AffineMap]:
        rank = len(cast(TensorType, cast(SoftmaxOp, op).input.type).get_shape())
        return [AffineMap.identity(rank)] * 2

    def iterator_types(self, op: Operation) -> list[IteratorType]:
        return [IteratorType.PARALLEL] * len(self.indexing_maps(op)[0].results)

    def whole_dims(self, op: Operation) -> set[int]:
        return {cast(SoftmaxOp, op).dimension.value.data}


def register_structured_models() -> None:
    """Register the models of `linalg`'s structured ops."""
    structured = StructuredTilingModel()
    for op_type in (
        LinalgStructuredOperation,
        BroadcastOp,
        XdslReduceOp,
        ReduceOp,
        MapOp,
    ):
        register_tiling(op_type, structured)
    register_tiling(SoftmaxOp, SoftmaxTilingModel())


register_structured_models()
