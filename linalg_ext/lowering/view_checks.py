"""Run-time checks of memref views with the interpreter's messages:
`check_expand_shape`, `check_collapse_shape` (reshapes that fit their
source, as semantics/memref_ops.py checks them) and `check_cast` (a
`memref.cast` to static sizes, strides or an offset the source's type
leaves dynamic: the source has them). The building blocks (`assert_that`,
`constant`, ...) are `linalg_ext.lowering.runtime_checks`'.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.builder import Builder
from xdsl.dialects import arith, memref
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    IntegerType,
    MemRefType,
    NoneAttr,
    StridedLayoutAttr,
    TensorType,
)
from xdsl.ir import SSAValue

from linalg_ext.lowering.runtime_checks import (
    all_of,
    assert_that,
    check_nonnegative,
    checked_product,
    constant,
    dynamic_of,
    list_template,
)


def _mixed(shape: Sequence[int], dynamic: Sequence[SSAValue]) -> list[int | SSAValue]:
    values = iter(dynamic)
    return [next(values) if size == DYNAMIC_INDEX else size for size in shape]


def _extents(b: Builder, source: SSAValue) -> list[int | SSAValue]:
    """The sizes of memref `source`: static ones as ints, a `memref.dim`
    for each dynamic one."""
    type_ = source.type
    assert isinstance(type_, MemRefType)
    return [
        b.insert(memref.DimOp(source, constant(b, dim))).result
        if size == DYNAMIC_INDEX
        else size
        for dim, size in enumerate(type_.get_shape())
    ]


def check_expand_shape(
    b: Builder,
    op_name: str,
    source: SSAValue,
    groups: Sequence[Sequence[int]],
    static_output_shape: Sequence[int],
    output_sizes: Sequence[SSAValue],
) -> None:
    """Assert an `expand_shape`'s dynamic output sizes are what the
    interpreter accepts (semantics/memref_ops.py): none negative
    ("memref.expand_shape: negative size in [-2, 4]"), and each group's
    sizes multiply to its source dimension, exactly ("memref.expand_shape:
    dimensions [3, 4] of [3, 4] do not make up size 8 of [8]"; the
    product computed with overflow detection), group by group. Groups
    whose sizes and source dimension are all static are the verifier's."""
    shape = _mixed(static_output_shape, output_sizes)
    check_nonnegative(
        b, output_sizes, f"{op_name}: negative size in {list_template(shape)}"
    )
    extents = _extents(b, source)
    for group, extent in zip(groups, extents, strict=True):
        sizes = [shape[d] for d in group]
        dynamic = dynamic_of(sizes)
        if not dynamic and not isinstance(extent, SSAValue):
            continue
        static = 1
        for size in sizes:
            if isinstance(size, int):
                static *= size
        product, fits = checked_product(b, static, dynamic)
        extent_value = extent if isinstance(extent, SSAValue) else constant(b, extent)
        equal = b.insert(arith.CmpiOp(product, extent_value, "eq")).result
        template = (
            f"{op_name}: dimensions {list_template(sizes)} of "
            f"{list_template(shape)} do not make up size "
            f"{'{}' if isinstance(extent, SSAValue) else extent} of "
            f"{list_template(extents)}"
        )
        values = [*dynamic, *output_sizes]
        if isinstance(extent, SSAValue):
            values.append(extent)
        values += dynamic_of(extents)
        assert_that(b, all_of(b, [fits, equal]), template, values)


def check_collapse_shape(
    b: Builder, op_name: str, source: SSAValue, groups: Sequence[Sequence[int]]
) -> None:
    """Assert the dimensions each group of a `collapse_shape` merges are
    contiguous in its source, as the interpreter requires
    (semantics/memref_ops.py): within a group, each dimension whose extent
    is not 1 steps over exactly the next such one's extent (stride of
    outer = stride of inner * extent of inner), unless the group is
    empty (an extent 0): "memref.collapse_shape: dimensions [0, 1] of a
    view of shape [2, 3] and strides [5, 1] are not contiguous, so they
    cannot be collapsed without a copy". Only for a source with a layout
    (row-major ones are contiguous), in groups of two or more dimensions
    not all static (those are the verifier's)."""
    type_ = source.type
    assert isinstance(type_, MemRefType)
    if isinstance(type_.layout, NoneAttr):
        return  # row-major: contiguous
    static_strides = type_.get_strides()
    if static_strides is None:
        return  # an affine map layout: not known
    shape = type_.get_shape()
    if not any(
        len(group) > 1
        and any(shape[d] == DYNAMIC_INDEX or static_strides[d] is None for d in group)
        for group in groups
    ):
        return
    metadata = b.insert(memref.ExtractStridedMetaDataOp(source))
    extents = _extents(b, source)
    strides: list[int | SSAValue] = [
        stride if stride is not None else metadata.strides[dim]
        for dim, stride in enumerate(static_strides)
    ]
    template_values = [*dynamic_of(extents), *dynamic_of(strides)]
    one = constant(b, 1)
    zero = constant(b, 0)
    true = constant(b, 1, IntegerType(1))

    def value(v: int | SSAValue) -> SSAValue:
        return v if isinstance(v, SSAValue) else constant(b, v)

    for group in groups:
        if len(group) < 2 or not any(
            isinstance(extents[d], SSAValue) or isinstance(strides[d], SSAValue)
            for d in group
        ):
            continue
        # From the innermost dimension out: `expected` is the stride the next
        # non-unit dimension must have, once one (`seen`) was met.
        seen: SSAValue = constant(b, 0, IntegerType(1))
        expected = zero
        conditions: list[SSAValue] = []
        empty: list[SSAValue] = []
        for d in reversed(group):
            extent, stride = value(extents[d]), value(strides[d])
            unit = b.insert(arith.CmpiOp(extent, one, "eq")).result
            empty.append(b.insert(arith.CmpiOp(extent, zero, "eq")).result)
            steps = b.insert(arith.CmpiOp(stride, expected, "eq")).result
            not_seen = b.insert(arith.XOrIOp(seen, true)).result
            conditions.append(
                b.insert(
                    arith.OrIOp(b.insert(arith.OrIOp(unit, not_seen)).result, steps)
                ).result
            )
            span = b.insert(arith.MuliOp(stride, extent)).result
            expected = b.insert(arith.SelectOp(unit, expected, span)).result
            not_unit = b.insert(arith.XOrIOp(unit, true)).result
            seen = b.insert(arith.OrIOp(seen, not_unit)).result
        fine = all_of(b, conditions)
        for is_empty in empty:
            fine = b.insert(arith.OrIOp(fine, is_empty)).result
        assert_that(
            b,
            fine,
            f"{op_name}: dimensions {list(group)} of a view of shape "
            f"{list_template(extents)} and strides {list_template(strides)} are "
            "not contiguous, so they cannot be collapsed without a copy",
            template_values,
        )


def _static_or_dynamic(value: int | None) -> int:
    return DYNAMIC_INDEX if value is None else value


def _static(type_: MemRefType) -> list[int]:
    """The strides of `type_`, `DYNAMIC_INDEX` for each dynamic one."""
    return [_static_or_dynamic(stride) for stride in type_.get_strides() or ()]


def _dynamic(value: int) -> bool:
    return value == DYNAMIC_INDEX


def check_cast(
    b: Builder,
    op_name: str,
    source: SSAValue,
    target: MemRefType,
    as_tensor: bool = False,
) -> None:
    """Assert a `memref.cast`'s source has the static sizes, and (for a
    strided target layout) the static strides and offset, its `target`
    type claims where the source's type leaves them dynamic, as the
    interpreter checks them (semantics/arrays.py's `check_fits_type`,
    semantics/memref_ops.py's `check_cast_layout`): "memref.cast: the source has
    shape [5], which does not fit memref<3xf32>". `as_tensor`: the cast was
    a `tensor.cast`, whose message names the tensor type. Strides of unit
    dimensions, and the layout of an empty view, are not compared."""
    source_type = source.type
    assert isinstance(source_type, MemRefType)
    source_shape, target_shape = source_type.get_shape(), target.get_shape()
    if any(
        size == DYNAMIC_INDEX and want != DYNAMIC_INDEX
        for size, want in zip(source_shape, target_shape, strict=True)
    ):
        extents = _extents(b, source)
        conditions = [
            b.insert(arith.CmpiOp(extent, constant(b, want), "eq")).result
            for extent, want in zip(extents, target_shape, strict=True)
            if isinstance(extent, SSAValue) and want != DYNAMIC_INDEX
        ]
        shown = (
            TensorType(target.get_element_type(), target_shape) if as_tensor else target
        )
        assert_that(
            b,
            all_of(b, conditions),
            f"{op_name}: the source has shape {list_template(extents)}, which "
            f"does not fit {shown}",
            dynamic_of(extents),
        )
    _check_cast_layout(b, op_name, source, target)


def _times(b: Builder, lhs: int | SSAValue, rhs: int | SSAValue) -> int | SSAValue:
    if isinstance(lhs, int) and isinstance(rhs, int):
        return lhs * rhs
    left = lhs if isinstance(lhs, SSAValue) else constant(b, lhs)
    right = rhs if isinstance(rhs, SSAValue) else constant(b, rhs)
    return b.insert(arith.MuliOp(left, right)).result


def _check_cast_layout(
    b: Builder, op_name: str, source: SSAValue, target: MemRefType
) -> None:
    """`check_cast`'s layout part: the static strides and offset of a
    strided `target` layout, or (an identity `target` of a strided source)
    row-major strides and offset 0, where the source's type leaves them
    dynamic: "memref.cast: the source has strides [5, 1] and offset 2, which
    do not fit memref<2x?xf32, strided<[5, 1], offset: 1>>"."""
    source_type = source.type
    assert isinstance(source_type, MemRefType)
    source_shape, target_shape = source_type.get_shape(), target.get_shape()
    if source_type.get_strides() is None or target.get_strides() is None:
        return  # an affine map layout: not known
    if 0 in source_shape:
        return  # an empty view: any layout will do
    source_strides = _static(source_type)
    source_offset = _static_or_dynamic(source_type.get_offset())
    row_major = isinstance(target.layout, NoneAttr)
    if row_major and isinstance(source_type.layout, NoneAttr):
        return  # both row-major
    if not row_major and not isinstance(target.layout, StridedLayoutAttr):
        return
    target_strides = _static(target)
    target_offset = 0 if row_major else _static_or_dynamic(target.get_offset())
    dims = [
        d
        for d, (have, want) in enumerate(
            zip(source_strides, target_strides, strict=True)
        )
        if target_shape[d] != 1
        and (
            (_dynamic(have) and not _dynamic(want))
            or (row_major and (_dynamic(have) or _dynamic(want)))
        )
    ]
    offset_checked = _dynamic(source_offset) and not _dynamic(target_offset)
    if not dims and not offset_checked:
        return
    metadata = b.insert(memref.ExtractStridedMetaDataOp(source))
    strides: list[int | SSAValue] = [
        metadata.strides[d] if _dynamic(stride) else stride
        for d, stride in enumerate(source_strides)
    ]
    offset: int | SSAValue = (
        metadata.offset if _dynamic(source_offset) else source_offset
    )
    expected: list[int | SSAValue] = list(target_strides)
    if row_major:
        running: int | SSAValue = 1
        extents = _extents(b, source)
        for d in reversed(range(len(extents))):
            expected[d] = running
            running = _times(b, running, extents[d])

    def value(v: int | SSAValue) -> SSAValue:
        return v if isinstance(v, SSAValue) else constant(b, v)

    conditions: list[SSAValue] = []
    for d in dims:
        fits = b.insert(arith.CmpiOp(value(strides[d]), value(expected[d]), "eq"))
        fine = fits.result
        if target_shape[d] == DYNAMIC_INDEX:
            # A unit dimension's stride does not matter.
            extent = b.insert(memref.DimOp(source, constant(b, d))).result
            unit = b.insert(arith.CmpiOp(extent, constant(b, 1), "eq")).result
            fine = b.insert(arith.OrIOp(fine, unit)).result
        conditions.append(fine)
    if offset_checked:
        conditions.append(
            b.insert(
                arith.CmpiOp(value(offset), constant(b, target_offset), "eq")
            ).result
        )
    fine = all_of(b, conditions)
    for d, size in enumerate(source_shape):
        if size == DYNAMIC_INDEX:  # an empty view: any layout will do
            extent = b.insert(memref.DimOp(source, constant(b, d))).result
            empty = b.insert(arith.CmpiOp(extent, constant(b, 0), "eq")).result
            fine = b.insert(arith.OrIOp(fine, empty)).result
    offset_template = "{}" if isinstance(offset, SSAValue) else str(offset)
    assert_that(
        b,
        fine,
        f"{op_name}: the source has strides {list_template(strides)} and offset "
        f"{offset_template}, which do not fit {target}",
        [*dynamic_of(strides), *dynamic_of([offset])],
    )
