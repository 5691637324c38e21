"""Reassociations: how the dimensions of a tensor group into those of a
reshaped one (`tensor.expand_shape` / `tensor.collapse_shape`).

A reassociation is a list of groups, one per dimension of the collapsed
tensor, each listing the consecutive dimensions of the expanded tensor that
make it up: `[[0, 1], [2]]` takes `tensor<2x3x4xf32>` to `tensor<6x4xf32>`.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import tensor
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    ArrayAttr,
    IntegerAttr,
    TensorType,
    i64,
)
from xdsl.dialects.utils import split_dynamic_index_list
from xdsl.ir import Attribute, SSAValue
from xdsl.ir.affine import AffineConstantExpr, AffineDimExpr, AffineMap

from linalg_ext.transforms.mixed_sizes import Mixed

Groups = list[list[int]]


def groups_of(reassociation: Attribute) -> Groups:
    """The groups of a `reassociation` property."""
    assert isinstance(reassociation, ArrayAttr)
    groups: Groups = []
    for group in reassociation.data:
        assert isinstance(group, ArrayAttr)
        groups.append([entry.value.data for entry in group.data])
    return groups


def reassociation_attr(
    groups: Sequence[Sequence[int]],
) -> ArrayAttr[ArrayAttr[IntegerAttr]]:
    """The `reassociation` property for `groups`."""
    return ArrayAttr(
        [ArrayAttr([IntegerAttr(d, i64) for d in group]) for group in groups]
    )


def consecutive_groups(sizes: Sequence[int]) -> Groups:
    """Groups of the given sizes over consecutive dimensions:
    `[2, 1, 3]` gives `[[0, 1], [2], [3, 4, 5]]`."""
    groups: Groups = []
    start = 0
    for size in sizes:
        groups.append(list(range(start, start + size)))
        start += size
    return groups


def is_projected_permutation_with_constants(map_: AffineMap) -> bool:
    """No symbols, and every result is a constant or a loop dimension that
    no other result uses (ByteIR's `(d0, d1) -> (d0, 0)` broadcasts)."""
    if map_.num_symbols:
        return False
    positions = [r.position for r in map_.results if isinstance(r, AffineDimExpr)]
    if len(set(positions)) != len(positions):
        return False
    return all(isinstance(r, AffineDimExpr | AffineConstantExpr) for r in map_.results)


def expand_shape(
    source: SSAValue, groups: Groups, sizes: Sequence[Mixed]
) -> tensor.ExpandShapeOp:
    """`tensor.expand_shape` of `source` into a tensor of `sizes` (static or
    dynamic), grouped by `groups`."""
    assert isinstance(source.type, TensorType)
    static, dynamic = split_dynamic_index_list(sizes, DYNAMIC_INDEX)
    result_type = TensorType(source.type.get_element_type(), static)
    return tensor.ExpandShapeOp(
        source, dynamic, reassociation_attr(groups), static, result_type
    )


def collapse_shape(
    source: SSAValue, groups: Groups, result_type: Attribute
) -> tensor.CollapseShapeOp:
    """`tensor.collapse_shape` of `source` by `groups` into `result_type`."""
    return tensor.CollapseShapeOp.build(
        operands=[source],
        result_types=[result_type],
        properties={"reassociation": reassociation_attr(groups)},
    )
