"""The tiling models of `tensor.expand_shape` and `tensor.collapse_shape`.

Both reshapes tile over their *expanded* side: the result of an
`expand_shape`, the source of a `collapse_shape`. Every loop is parallel.
ByteIR's rule decides which loops may be cut: within a reassociation group,
only the outermost dimension that is not statically 1 is tiled; the others
(`whole_dims`) stay whole. A tile `[o, o + n)` of that dimension is then the
contiguous range `[o * P, (o + n) * P)` of the collapsed dimension, `P`
being the product of the group's dimensions after it, so the tile of the
collapsed side is one slice, whatever `o` and `n` are: tiles never need to
be multiples of anything, static or dynamic.

Why the expanded side for `collapse_shape` too (ByteIR iterates over its
result): a tile of the collapsed result is a slice of the source only when
its offset and size are multiples of `P`, which ByteIR can only check for
static sizes, so it cannot tile a dynamic shape or a partial last tile
given as a value. Iterating over the source moves that condition to where
it is unavoidable, `iteration_tile_of_result` (the producer side of
fusion: a consumer asks for a tile of the collapsed result), which divides
by `P` when it can prove the tile's offset and size are multiples of it
(ints, `arith.constant`s, `scf.for` induction variables with such bounds
and steps, affine maps of those) and refuses with a reason otherwise.
"""

from __future__ import annotations

from collections.abc import Sequence
from math import prod

from xdsl.dialects import affine, arith, scf, tensor
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    ArrayAttr,
    IndexType,
    IntegerAttr,
    TensorType,
)
from xdsl.dialects.utils import get_dynamic_index_list, split_dynamic_index_list
from xdsl.ir import Attribute, BlockArgument, Operation, OpResult, SSAValue
from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineDimExpr,
    AffineExpr,
    AffineSymExpr,
)

from linalg_ext.compat.affine_ops import MaxOp
from linalg_ext.tiling.interface import (
    LoopType,
    TiledOp,
    TilingModel,
    TilingRefused,
    register_tiling,
)
from linalg_ext.tiling.pad import affine_of, tile_type
from linalg_ext.transforms.mixed_sizes import Mixed
from linalg_ext.transforms.shape_reification import reify_dim
from linalg_ext.transforms.slices import extract_slice

Reshape = tensor.ExpandShapeOp | tensor.CollapseShapeOp


def _groups(op: Reshape) -> list[list[int]]:
    reassociation: ArrayAttr[ArrayAttr[IntegerAttr]] = op.reassociation
    return [[index.value.data for index in group.data] for group in reassociation.data]


def _expanded_type(op: Reshape) -> TensorType[Attribute]:
    value = op.result if isinstance(op, tensor.ExpandShapeOp) else op.src
    assert isinstance(value.type, TensorType)
    return value.type


def _tiled_dims(op: Reshape) -> list[int | None]:
    """Per reassociation group, the expanded dimension that is tiled: the
    outermost one not statically 1 (the first one if all are; none for an
    empty group)."""
    shape = _expanded_type(op).get_shape()
    tiled: list[int | None] = []
    for group in _groups(op):
        non_unit = [dim for dim in group if shape[dim] != 1]
        tiled.append(non_unit[0] if non_unit else (group[0] if group else None))
    return tiled


def product(factors: Sequence[Mixed], new_ops: list[Operation]) -> Mixed:
    """The product of `factors`: an int when all are static; else the
    dynamic ones multiplied by `arith.muli` and the static part applied by
    an `affine.apply` (appended to `new_ops`)."""
    constant = prod(f for f in factors if isinstance(f, int))
    values = [f for f in factors if isinstance(f, SSAValue)]
    if not values or constant == 0:
        return constant
    result: SSAValue = values[0]
    for value in values[1:]:
        multiply = arith.MuliOp(result, value)
        new_ops.append(multiply)
        result = multiply.result
    if constant == 1:
        return result
    return affine_of("apply", (result,), lambda v: (v * constant,), new_ops)


class _ReshapeTiling(TilingModel):
    """What both reshapes share: the loops of the expanded side, the
    collapsed slice a tile of it covers."""

    def loop_types(self, op: Operation) -> list[LoopType]:
        assert isinstance(op, Reshape)
        return ["parallel"] * len(_expanded_type(op).get_shape())

    def whole_dims(self, op: Operation) -> set[int]:
        assert isinstance(op, Reshape)
        tiled = set(_tiled_dims(op))
        return set(range(len(_expanded_type(op).get_shape()))) - tiled

    def _check_tile(
        self, op: Reshape, offsets: Sequence[Mixed], sizes: Sequence[Mixed]
    ) -> None:
        """Refuse a tile of the wrong rank, or one that visibly cuts a
        dimension that must stay whole."""
        shape = _expanded_type(op).get_shape()
        if len(offsets) != len(shape) or len(sizes) != len(shape):
            raise TilingRefused(
                f"{op.name} has {len(shape)} loops, the tile has {len(offsets)} "
                f"offsets and {len(sizes)} sizes",
                op,
            )
        tiled = _tiled_dims(op)
        for index, group in enumerate(_groups(op)):
            for dim in group:
                if dim == tiled[index]:
                    continue
                cut_offset = isinstance(offsets[dim], int) and offsets[dim] != 0
                size = sizes[dim]
                cut_size = (
                    isinstance(size, int)
                    and shape[dim] != DYNAMIC_INDEX
                    and size != shape[dim]
                )
                if cut_offset or cut_size:
                    raise TilingRefused(
                        f"{op.name} tiles only dimension {tiled[index]} of "
                        f"reassociation group {group} (its outermost non-unit "
                        f"one); dimension {dim} must stay whole, the tile "
                        f"takes [{_show(offsets[dim])}, +{_show(size)})",
                        op,
                    )

    def _collapsed_tile(
        self,
        op: Reshape,
        offsets: Sequence[Mixed],
        sizes: Sequence[Mixed],
        new_ops: list[Operation],
    ) -> tuple[list[Mixed], list[Mixed]]:
        """The slice of the collapsed side that a tile of the expanded side
        covers: per group, offset `o * P` and size the product of the
        group's tile sizes."""
        shape = _expanded_type(op).get_shape()
        collapsed_offsets: list[Mixed] = []
        collapsed_sizes: list[Mixed] = []
        for group, tiled in zip(_groups(op), _tiled_dims(op), strict=True):
            assert tiled is not None
            # The dimensions after the tiled one are whole: their static
            # extents where known (the offset's type does not matter).
            after = [
                shape[dim] if shape[dim] != DYNAMIC_INDEX else sizes[dim]
                for dim in group
                if dim > tiled
            ]
            collapsed_offsets.append(product([offsets[tiled], *after], new_ops))
            collapsed_sizes.append(product([sizes[dim] for dim in group], new_ops))
        return collapsed_offsets, collapsed_sizes


class ExpandShapeTiling(_ReshapeTiling):
    """`tensor.expand_shape`: tiles of the expanded result, each expanding
    the slice of the source it covers."""

    def iteration_domain(self, op: Operation, new_ops: list[Operation]) -> list[Mixed]:
        assert isinstance(op, tensor.ExpandShapeOp)
        return get_dynamic_index_list(
            op.static_output_shape.get_values(),
            op.dynamic_output_shape,
            DYNAMIC_INDEX,
        )

    def tile(
        self,
        op: Operation,
        offsets: Sequence[Mixed],
        sizes: Sequence[Mixed],
        new_ops: list[Operation],
    ) -> TiledOp:
        assert isinstance(op, tensor.ExpandShapeOp)
        self._check_tile(op, offsets, sizes)
        source_offsets, source_sizes = self._collapsed_tile(op, offsets, sizes, new_ops)
        source_slice = extract_slice(op.src, source_offsets, source_sizes)
        new_ops.append(source_slice)
        static_shape, dynamic_shape = split_dynamic_index_list(sizes, DYNAMIC_INDEX)
        expand = tensor.ExpandShapeOp(
            source_slice.result,
            dynamic_shape,
            op.reassociation,
            static_shape,
            tile_type(_expanded_type(op).get_element_type(), sizes),
        )
        new_ops.append(expand)
        return TiledOp([source_slice, expand], [expand.result], [source_slice])

    def result_tile_position(
        self,
        op: Operation,
        result_index: int,
        offsets: Sequence[Mixed],
        sizes: Sequence[Mixed],
        new_ops: list[Operation],
    ) -> tuple[list[Mixed], list[Mixed]]:
        return list(offsets), list(sizes)

    def iteration_tile_of_result(
        self,
        op: Operation,
        result_index: int,
        offsets: Sequence[Mixed],
        sizes: Sequence[Mixed],
        new_ops: list[Operation],
    ) -> tuple[list[Mixed], list[Mixed]]:
        assert isinstance(op, tensor.ExpandShapeOp)
        extents = get_dynamic_index_list(
            op.static_output_shape.get_values(),
            op.dynamic_output_shape,
            DYNAMIC_INDEX,
        )
        for dim in sorted(self.whole_dims(op)):
            if not (
                _is_constant(offsets[dim], 0)
                and _same_extent(sizes[dim], extents[dim], op.result, dim)
            ):
                raise TilingRefused(
                    f"{op.name} can only compute tiles of its result that keep "
                    f"dimension {dim} whole (it is not the outermost non-unit "
                    f"dimension of its reassociation group), asked for "
                    f"[{_show(offsets[dim])}, +{_show(sizes[dim])})",
                    op,
                )
        return list(offsets), list(sizes)


class CollapseShapeTiling(_ReshapeTiling):
    """`tensor.collapse_shape`: tiles of the expanded source, each collapsing
    its slice of the source into the part of the result it covers."""

    def iteration_domain(self, op: Operation, new_ops: list[Operation]) -> list[Mixed]:
        assert isinstance(op, tensor.CollapseShapeOp)
        rank = len(_expanded_type(op).get_shape())
        return [reify_dim(op.src, dim, new_ops) for dim in range(rank)]

    def tile(
        self,
        op: Operation,
        offsets: Sequence[Mixed],
        sizes: Sequence[Mixed],
        new_ops: list[Operation],
    ) -> TiledOp:
        assert isinstance(op, tensor.CollapseShapeOp)
        self._check_tile(op, offsets, sizes)
        source_slice = extract_slice(op.src, offsets, sizes)
        new_ops.append(source_slice)
        # A collapsed extent is static exactly where the group's sizes are.
        collapsed_shape = [
            prod(s for s in group_sizes if isinstance(s, int))
            if all(isinstance(s, int) for s in group_sizes)
            else DYNAMIC_INDEX
            for group_sizes in ([sizes[d] for d in g] for g in _groups(op))
        ]
        element = _expanded_type(op).get_element_type()
        collapse = tensor.CollapseShapeOp.build(
            operands=[source_slice.result],
            result_types=[TensorType(element, collapsed_shape)],
            properties={"reassociation": op.reassociation},
        )
        new_ops.append(collapse)
        return TiledOp([source_slice, collapse], [collapse.result], [source_slice])

    def result_tile_position(
        self,
        op: Operation,
        result_index: int,
        offsets: Sequence[Mixed],
        sizes: Sequence[Mixed],
        new_ops: list[Operation],
    ) -> tuple[list[Mixed], list[Mixed]]:
        assert isinstance(op, tensor.CollapseShapeOp)
        return self._collapsed_tile(op, offsets, sizes, new_ops)

    def iteration_tile_of_result(
        self,
        op: Operation,
        result_index: int,
        offsets: Sequence[Mixed],
        sizes: Sequence[Mixed],
        new_ops: list[Operation],
    ) -> tuple[list[Mixed], list[Mixed]]:
        assert isinstance(op, tensor.CollapseShapeOp)
        shape = _expanded_type(op).get_shape()
        groups = _groups(op)
        if len(offsets) != len(groups) or len(sizes) != len(groups):
            raise TilingRefused(
                f"{op.name} has a result of rank {len(groups)}, the tile has "
                f"{len(offsets)} offsets and {len(sizes)} sizes",
                op,
            )
        tile_offsets: list[Mixed] = [0] * len(shape)
        tile_sizes: list[Mixed] = [1] * len(shape)
        for index, (group, tiled) in enumerate(
            zip(groups, _tiled_dims(op), strict=True)
        ):
            assert tiled is not None
            after = [dim for dim in group if dim > tiled]
            for dim in after:
                tile_sizes[dim] = reify_dim(op.src, dim, new_ops)
            offset, size = offsets[index], sizes[index]
            if _is_constant(offset, 0) and _same_extent(size, None, op.result, index):
                # The whole group, whatever its extents.
                tile_sizes[tiled] = reify_dim(op.src, tiled, new_ops)
                continue
            if any(shape[dim] == DYNAMIC_INDEX for dim in after):
                raise TilingRefused(
                    f"{op.name} can only compute a tile of result dimension "
                    f"{index} whose offset and size are multiples of the "
                    f"product of source dimensions {after}, which is dynamic; "
                    f"asked for [{_show(offset)}, +{_show(size)})",
                    op,
                )
            factor = prod(shape[dim] for dim in after)
            if not (_multiple_of(offset, factor) and _multiple_of(size, factor)):
                raise TilingRefused(
                    f"{op.name} can only compute a tile of result dimension "
                    f"{index} whose offset and size are multiples of {factor} "
                    f"(the product of source dimensions {after}); asked for "
                    f"[{_show(offset)}, +{_show(size)}), not provably such",
                    op,
                )
            tile_offsets[tiled] = _divided(offset, factor, new_ops)
            tile_sizes[tiled] = _divided(size, factor, new_ops)
        return tile_offsets, tile_sizes


def _divided(value: Mixed, factor: int, new_ops: list[Operation]) -> Mixed:
    if factor == 1:
        return value
    return affine_of("apply", (value,), lambda v: (v // factor,), new_ops)


def _show(value: Mixed) -> str:
    return str(value) if isinstance(value, int) else "?"


def _constant_value(value: Mixed) -> int | None:
    if isinstance(value, int):
        return value
    if isinstance(value, OpResult) and isinstance(value.op, arith.ConstantOp):
        attribute = value.op.value
        if isinstance(attribute, IntegerAttr) and isinstance(attribute.type, IndexType):
            return attribute.value.data
    return None


def _is_constant(value: Mixed, expected: int) -> bool:
    return _constant_value(value) == expected


def _same_extent(
    size: Mixed, extent: Mixed | None, tensor_value: SSAValue, dim: int
) -> bool:
    """Whether `size` is provably the extent of dimension `dim` of
    `tensor_value`, whose value is `extent` if known: equal ints, the same
    SSA value, or a `tensor.dim` of `tensor_value` at `dim`."""
    static = tensor_value.type
    assert isinstance(static, TensorType)
    static_extent = static.get_shape()[dim]
    constant = _constant_value(size)
    if constant is not None:
        return constant == static_extent
    if extent is not None and size is extent:
        return True
    return (
        isinstance(size, OpResult)
        and isinstance(size.op, tensor.DimOp)
        and size.op.source is tensor_value
        and _constant_value(size.op.index) == dim
    )


def _multiple_of(value: Mixed, factor: int, depth: int = 0) -> bool:
    """Whether `value` is provably a multiple of `factor`: an int or
    constant that is, an `scf.for` induction variable whose lower bound and
    step are, or an affine map or `arith` sum/product of such values whose
    every result is (a small, bounded look through the definitions)."""
    if factor == 1:
        return True
    constant = _constant_value(value)
    if constant is not None:
        return constant % factor == 0
    if depth > 8 or isinstance(value, int):
        return False
    if isinstance(value, BlockArgument):
        loop = value.block.parent_op()
        return (
            isinstance(loop, scf.ForOp)
            and value.index == 0
            and _multiple_of(loop.lb, factor, depth + 1)
            and _multiple_of(loop.step, factor, depth + 1)
        )
    assert isinstance(value, OpResult)
    owner = value.op
    if isinstance(owner, affine.ApplyOp | affine.MinOp | MaxOp):
        map_ = owner.map.data
        dims = list(owner.operands[: map_.num_dims])
        symbols = list(owner.operands[map_.num_dims :])
        return all(
            _expr_multiple_of(result, dims, symbols, factor, depth + 1)
            for result in map_.results
        )
    if isinstance(owner, arith.AddiOp):
        return _multiple_of(owner.lhs, factor, depth + 1) and _multiple_of(
            owner.rhs, factor, depth + 1
        )
    if isinstance(owner, arith.MuliOp):
        return _multiple_of(owner.lhs, factor, depth + 1) or _multiple_of(
            owner.rhs, factor, depth + 1
        )
    return False


def _expr_multiple_of(
    expr: AffineExpr,
    dims: list[SSAValue],
    symbols: list[SSAValue],
    factor: int,
    depth: int,
) -> bool:
    if isinstance(expr, AffineConstantExpr):
        return expr.value % factor == 0
    if isinstance(expr, AffineDimExpr):
        return _multiple_of(dims[expr.position], factor, depth)
    if isinstance(expr, AffineSymExpr):
        return _multiple_of(symbols[expr.position], factor, depth)
    assert isinstance(expr, AffineBinaryOpExpr)
    lhs = _expr_multiple_of(expr.lhs, dims, symbols, factor, depth)
    if expr.kind == AffineBinaryOpKind.Add:
        return lhs and _expr_multiple_of(expr.rhs, dims, symbols, factor, depth)
    if expr.kind == AffineBinaryOpKind.Mul:
        return lhs or _expr_multiple_of(expr.rhs, dims, symbols, factor, depth)
    return False


register_tiling(tensor.ExpandShapeOp, ExpandShapeTiling())
register_tiling(tensor.CollapseShapeOp, CollapseShapeTiling())
