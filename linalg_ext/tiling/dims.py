"""`tensor.dim` of intermediates, asked of the first tensor with the same
extent instead (ByteIR's `simplifyTensorDimOpUsedInLinalg`).

A loop nest built around a consumer takes its bounds from `tensor.dim`s;
when those ask an intermediate (`tensor.dim %producer_result, 0`), the loop
bound depends on the producer, which then cannot be fused into the loop
without keeping its untiled copy alive. Every extent of an intermediate is
also the extent of something upstream of it: `simplify_tensor_dims` asks
that instead, following the chain as far upstream as it goes.

`first_equivalent_dim(value, dim)` walks one step at a time
(`upstream_dim`), from a dimension of a value to one known to have the same
extent at run time (what a verified program guarantees):

- a static extent is a constant;
- `tensor.empty`'s dimension is its size operand; `extract_slice`'s dynamic
  size is its size operand; `expand_shape`'s dynamic output dimension is its
  `output_shape` operand; a `tensor.dim` with a constant index among those
  is followed in turn (as `reify_dim` does for the first two);
- a structured op's result dimension indexed by loop `d` (a plain `d` in
  its init's map) is the dimension of the first operand, inputs first, that
  indexes `d` by a plain `d`: ByteIR's rule, which reaches the function's
  arguments in one step where `reify_dim` goes through inits one by one.
  The maps are the op's indexing maps or, for a `linalg_ext` op without
  them, the projected permutations of its tiling model (`operand_tilings`,
  whose `own_extent` dimensions do not follow a loop);
- otherwise a destination-style result is its tied init, an `insert_slice`'s
  its dest, `tensor.cast`'s its source, `tensor.pad`'s its source's where
  both paddings are 0, and `collapse_shape`'s group its source's one
  dimension that is not a static 1.

`scf.for` results and block arguments stop the walk (a loop may yield a
tensor of another extent).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import DYNAMIC_INDEX, IndexType, TensorType
from xdsl.ir import Operation, OpResult, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineMap
from xdsl.rewriter import Rewriter
from xdsl.transforms.canonicalization_patterns.utils import const_evaluate_operand

from linalg_ext.tiling.cleanup import kept_dims
from linalg_ext.tiling.interface import tiling_model
from linalg_ext.transforms.dps import aliased_operand, is_structured
from linalg_ext.transforms.mixed_sizes import Mixed
from linalg_ext.transforms.reassociation import groups_of
from linalg_ext.transforms.shape_reification import tensor_dim
from linalg_ext.transforms.slices import slice_sizes

DimSource = int | SSAValue | tuple[SSAValue, int]
"""Where an extent is known: a static int, an `index` value, or (tensor,
dimension) for `tensor.dim` of that tensor."""

_MAX_STEPS = 10_000
"""A bound on a walk (SSA chains are acyclic; this only guards bad IR)."""


def operand_loop_dims(op: Operation) -> list[list[int | None]] | None:
    """For each operand of `op` (inputs, then inits), for each of its
    dimensions, the loop of `op`'s iteration domain that indexes it by a
    plain dimension expression, None where none does (a compound or constant
    expression, a dimension taken whole at its own extent). None when `op`
    does not say how its operands follow its loops."""
    if is_structured(op):
        maps: list[AffineMap] = [
            m.data
            for m in op.get_indexing_maps().data  # pyright: ignore[reportAttributeAccessIssue]
        ]
        operands: list[SSAValue] = [*op.inputs, *op.outputs]  # pyright: ignore[reportAttributeAccessIssue]
        if len(maps) != len(operands) or len(operands) != len(op.operands):
            return None
        return [_plain_dims(map_, frozenset()) for map_ in maps]
    model = tiling_model(op)
    # The models of linalg_ext ops (`ProjectedTilingModel`, in the dialect
    # layer above this one) say it through `operand_tilings`.
    operand_tilings = getattr(model, "operand_tilings", None)
    if operand_tilings is None:
        return None
    tilings: Sequence[Any] = operand_tilings(op)
    if len(tilings) != len(op.operands):
        return None
    result: list[list[int | None]] = []
    for value, tiling in zip(op.operands, tilings, strict=True):
        map_: AffineMap | None = tiling.map
        if map_ is None:
            shaped = isinstance(value.type, TensorType)
            rank = value.type.get_num_dims() if shaped else 0  # pyright: ignore[reportAttributeAccessIssue]
            result.append([None] * rank)
        else:
            result.append(_plain_dims(map_, tiling.own_extent))
    return result


def _plain_dims(map_: AffineMap, own_extent: frozenset[int]) -> list[int | None]:
    return [
        r.position
        if isinstance(r, AffineDimExpr) and position not in own_extent
        else None
        for position, r in enumerate(map_.results)
    ]


def _tied_operand(op: Operation, result_index: int) -> int | None:
    """The operand position of the init of result `result_index` (results
    follow the tensor inits in order)."""
    outputs: Sequence[SSAValue] | None = getattr(op, "outputs", None)
    if outputs is None:
        return None
    first_output = len(op.operands) - len(outputs)
    tensors = [j for j, o in enumerate(outputs) if isinstance(o.type, TensorType)]
    if len(tensors) != len(op.results) or result_index >= len(tensors):
        return None
    return first_output + tensors[result_index]


def _structured_source(result: OpResult, dim: int) -> tuple[SSAValue, int] | None:
    """ByteIR's rule: the first operand dimension indexed by the loop that
    indexes dimension `dim` of `result`."""
    op = result.op
    loops = operand_loop_dims(op)
    tied = _tied_operand(op, result.index)
    if loops is None or tied is None or dim >= len(loops[tied]):
        return None
    loop = loops[tied][dim]
    if loop is None:
        return None
    for operand, dims in zip(op.operands, loops, strict=True):
        if not isinstance(operand.type, TensorType) or loop not in dims:
            continue
        position = dims.index(loop)
        if position < operand.type.get_num_dims():
            return operand, position
    return None


def _dynamic_position(shape: Sequence[int], dim: int) -> int:
    """Among the dynamic extents of `shape`, the position of `dim`'s."""
    return sum(1 for extent in shape[:dim] if extent == DYNAMIC_INDEX)


def _is_zero(value: Mixed) -> bool:
    return (value if isinstance(value, int) else const_evaluate_operand(value)) == 0


def _pad_source(op: tensor.PadOp, dim: int) -> tuple[SSAValue, int] | None:
    for static, dynamic in (
        (op.static_low.get_values(), op.low),
        (op.static_high.get_values(), op.high),
    ):
        amount = static[dim]
        if amount == DYNAMIC_INDEX:
            amount = const_evaluate_operand(dynamic[_dynamic_position(static, dim)])
        if amount != 0:
            return None
    return op.source, dim


def _collapse_source(
    op: tensor.CollapseShapeOp, dim: int
) -> tuple[SSAValue, int] | None:
    source_type = op.src.type
    assert isinstance(source_type, TensorType)
    shape = source_type.get_shape()
    groups = groups_of(op.reassociation)
    if dim >= len(groups):
        return None
    not_unit = [d for d in groups[dim] if shape[d] != 1]
    if len(not_unit) != 1:
        return None
    return op.src, not_unit[0]


def upstream_dim(value: SSAValue, dim: int) -> SSAValue | tuple[SSAValue, int] | None:
    """One step up: an `index` value, or another (tensor, dimension), whose
    extent is that of dimension `dim` of `value`; None when the op defining
    `value` tells nothing (or `value` is a block argument)."""
    if not isinstance(value, OpResult):
        return None
    owner = value.op
    value_type = value.type
    assert isinstance(value_type, TensorType)
    shape = value_type.get_shape()
    if isinstance(owner, tensor.EmptyOp):
        return owner.dynamic_sizes[_dynamic_position(shape, dim)]
    if isinstance(owner, tensor.ExtractSliceOp):
        kept = kept_dims(owner)
        if kept is None:
            return None
        size = slice_sizes(owner)[kept[dim]]
        return size if isinstance(size, SSAValue) else None
    if isinstance(owner, tensor.ExpandShapeOp):
        static = owner.static_output_shape.get_values()
        if static[dim] != DYNAMIC_INDEX:
            return None
        return owner.dynamic_output_shape[_dynamic_position(static, dim)]
    if isinstance(owner, tensor.CollapseShapeOp):
        return _collapse_source(owner, dim)
    if isinstance(owner, tensor.PadOp):
        return _pad_source(owner, dim)
    if isinstance(owner, tensor.CastOp):
        source_type = owner.source.type
        return (owner.source, dim) if isinstance(source_type, TensorType) else None
    structured = _structured_source(value, dim)
    if structured is not None:
        return structured
    if isinstance(owner, tensor.InsertSliceOp | tensor.InsertOp) or hasattr(
        owner, "outputs"
    ):
        operand = aliased_operand(value)
        if operand is not None:
            return owner.operands[operand], dim
    return None


def first_equivalent_dim(value: SSAValue, dim: int) -> DimSource:
    """The most upstream known source of the extent of dimension `dim` of
    tensor `value`: a static int, an `index` value (a size operand), or a
    (tensor, dimension) from which no step goes further (possibly `(value,
    dim)` itself)."""
    current: tuple[SSAValue, int] = (value, dim)
    for _ in range(_MAX_STEPS):
        tensor_value, position = current
        tensor_type = tensor_value.type
        assert isinstance(tensor_type, TensorType)
        extent = tensor_type.get_shape()[position]
        if extent != DYNAMIC_INDEX:
            return extent
        step = upstream_dim(tensor_value, position)
        if step is None:
            return current
        if isinstance(step, SSAValue):
            followed = _dim_of(step)
            if followed is None:
                return step
            step = followed
        if step == current:
            return current
        current = step
    return current


def _dim_of(value: SSAValue) -> tuple[SSAValue, int] | None:
    """(tensor, dimension) if `value` is a `tensor.dim` of a ranked tensor
    with a constant index in range."""
    if not isinstance(value, OpResult) or not isinstance(value.op, tensor.DimOp):
        return None
    dim_op = value.op
    index = const_evaluate_operand(dim_op.index)
    source_type = dim_op.source.type
    if index is None or not isinstance(source_type, TensorType):
        return None
    if not 0 <= index < source_type.get_num_dims():
        return None
    return dim_op.source, index


def simplify_tensor_dims(scope: Operation) -> int:
    """Rewrite every `tensor.dim` with a constant index under `scope` (itself
    included) to ask the first equivalent source of its extent
    (`first_equivalent_dim`): a constant, a size operand, or `tensor.dim` of
    the most upstream tensor with that extent. Returns how many were
    rewritten (a `tensor.dim` already asking its first source is left)."""
    rewritten = 0
    for op in list(scope.walk()):
        if not isinstance(op, tensor.DimOp):
            continue
        asked = _dim_of(op.result)
        if asked is None:
            continue
        source = first_equivalent_dim(*asked)
        if source == asked:
            continue
        new_ops: list[Operation] = []
        if isinstance(source, int):
            new_ops.append(
                constant := arith.ConstantOp.from_int_and_width(source, IndexType())
            )
            replacement: SSAValue = constant.result
        elif isinstance(source, SSAValue):
            replacement = source
        elif source[1] == asked[1]:
            new_ops.append(same := tensor.DimOp(source[0], op.index))
            replacement = same.result
        else:
            replacement = tensor_dim(source[0], source[1], new_ops)
        Rewriter.replace_op(op, new_ops, [replacement])
        rewritten += 1
    return rewritten
