"""Building run-time checks (`rtcheck.assert`) with the interpreter's messages.

Compiled code must refuse what the interpreter refuses, with the same text
(linalg_ext/dialect/runtime_check.py). The builders here emit, with any
`xdsl.builder.Builder`, the condition and the `rtcheck.assert` of one
check; each message template is the interpreter's message with a `{}` for
every value known only at run time:

- `check_in_bounds`: an element access (`memref.load`, `memref.store`,
  `affine.load`/`affine.store`), as semantics/arrays.py's `check_index` says
  it: "memref.load: index [5] is out of bounds of shape [3]";
- `check_division`: a divisor of zero, and the minimum value divided by -1
  for the signed divisions (semantics/scalar_ops.py, index_ops.py);
- `check_steps`: `scf.for` / `scf.parallel` steps (semantics/control_ops.py);
- `check_equal`, `check_less_equal`: two run-time values (extents that must
  agree), with the message the caller gives;
- `check_allocation`: `memref.alloc` / `alloca` sizes not negative, their
  byte size within int64 (`checked_product`: a product with overflow
  detection); the interpreter's words (semantics/arrays.py);
- `check_stack_limit`: a `memref.alloca` of at most `STACK_LIMIT` bytes;
  `check_static_memory`: a static `memref.alloc` no larger than memory;
- `check_dim_index`: a `memref.dim` / `tensor.dim` index inside the rank;
- `check_expand_shape`, `check_collapse_shape`: reshapes that fit their
  source, as semantics/memref_ops.py checks them;
- `check_cast`: a `memref.cast` to static sizes, strides or an offset the
  source's type leaves dynamic: the source has them.

The loads and stores the loop lowerings make are in bounds once the extents
they read are checked: with run-time checks on, they carry `IN_BOUNDS` (a
discardable attribute) and `insert-runtime-checks` leaves them unchecked.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from xdsl.builder import Builder
from xdsl.dialects import arith, memref
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    NoneAttr,
    StridedLayoutAttr,
    TensorType,
)
from xdsl.ir import Attribute, SSAValue

from linalg_ext.dialect.runtime_check import RuntimeAssertOp
from linalg_ext.lowering.loop_nest import IN_BOUNDS as IN_BOUNDS
from linalg_ext.semantics.arrays import (
    INT64_MAX,
    STACK_LIMIT,
    allocation_overflow_message,
    memory_bytes,
    stack_limit_message,
)


def constant(b: Builder, value: int, type_: Attribute | None = None) -> SSAValue:
    """`arith.constant value` of `type_` (index by default)."""
    type_ = type_ or IndexType()
    assert isinstance(type_, IntegerType | IndexType)
    return b.insert(arith.ConstantOp(IntegerAttr(value, type_))).result


def assert_that(
    b: Builder, condition: SSAValue, message: str, values: Sequence[SSAValue] = ()
) -> None:
    """`rtcheck.assert condition, message (values)`."""
    b.insert(RuntimeAssertOp(condition, message, values))


def all_of(b: Builder, conditions: Sequence[SSAValue]) -> SSAValue:
    """The conjunction of `conditions` (at least one)."""
    result = conditions[0]
    for condition in conditions[1:]:
        result = b.insert(arith.AndIOp(result, condition)).result
    return result


def _placeholder(size: int) -> str:
    return "{}" if size == DYNAMIC_INDEX else str(size)


def shape_template(shape: Sequence[int]) -> str:
    """How Python prints the tuple `shape`, a `{}` for each dynamic size."""
    parts = [_placeholder(size) for size in shape]
    if len(parts) == 1:
        return f"({parts[0]},)"
    return "(" + ", ".join(parts) + ")"


def check_in_bounds(
    b: Builder,
    op_name: str,
    buffer: SSAValue,
    indices: Sequence[SSAValue],
    unproven: Sequence[bool] | None = None,
) -> None:
    """Assert `0 <= indices[d] < dim(buffer, d)` for every dimension `d`
    whose `unproven[d]` is true (all by default), with `check_index`'s
    message: "<op>: index [i, j] is out of bounds of shape [m, n]". One
    unsigned comparison per dimension: a negative index is a huge one."""
    type_ = buffer.type
    assert isinstance(type_, MemRefType)
    shape = type_.get_shape()
    if not indices:
        return
    unproven = unproven if unproven is not None else [True] * len(indices)
    if not any(unproven):
        return
    conditions: list[SSAValue] = []
    dynamic: list[SSAValue] = []
    for dim, (size, index, check) in enumerate(
        zip(shape, indices, unproven, strict=True)
    ):
        if size == DYNAMIC_INDEX:
            extent = b.insert(memref.DimOp(buffer, constant(b, dim))).result
            dynamic.append(extent)
        elif check:
            extent = constant(b, size)
        else:
            continue
        if check:
            conditions.append(b.insert(arith.CmpiOp(index, extent, "ult")).result)
    sizes = ", ".join(_placeholder(size) for size in shape)
    template = (
        f"{op_name}: index [{', '.join('{}' for _ in indices)}] is out of bounds "
        f"of shape [{sizes}]"
    )
    assert_that(b, all_of(b, conditions), template, [*indices, *dynamic])


SIGNED_DIVISIONS = frozenset(
    {
        "arith.divsi",
        "arith.remsi",
        "arith.ceildivsi",
        "arith.floordivsi",
        "index.divs",
        "index.rems",
        "index.ceildivs",
        "index.floordivs",
    }
)
UNSIGNED_DIVISIONS = frozenset(
    {
        "arith.divui",
        "arith.remui",
        "arith.ceildivui",
        "index.divu",
        "index.remu",
        "index.ceildivu",
    }
)
DIVISIONS = SIGNED_DIVISIONS | UNSIGNED_DIVISIONS
"""The integer divisions and remainders, by name, that the interpreter
refuses on a zero divisor (and, signed, on the minimum value by -1)."""


def _integer_width(type_: Attribute) -> int:
    if isinstance(type_, IntegerType):
        return type_.width.data
    return 64  # index: the JIT's and the interpreter's width


def check_division(
    b: Builder, op_name: str, lhs: SSAValue, rhs: SSAValue, rhs_value: int | None
) -> None:
    """Assert the divisor `rhs` is not 0 and, for a signed division, that
    `lhs / rhs` is not the minimum value by -1; `rhs_value` is the divisor
    when it is a constant (then only what it leaves possible is checked)."""
    type_ = rhs.type
    width = _integer_width(type_)
    if rhs_value is None:
        zero = constant(b, 0, type_)
        nonzero = b.insert(arith.CmpiOp(rhs, zero, "ne")).result
        assert_that(b, nonzero, f"'{op_name}' divides by zero")
    if op_name not in SIGNED_DIVISIONS:
        return
    if rhs_value is not None and rhs_value != -1:
        return
    minimum = constant(b, -(1 << (width - 1)), type_)
    minus_one = constant(b, -1, type_)
    is_minimum = b.insert(arith.CmpiOp(lhs, minimum, "eq")).result
    is_minus_one = b.insert(arith.CmpiOp(rhs, minus_one, "eq")).result
    overflow = b.insert(arith.AndIOp(is_minimum, is_minus_one)).result
    true = constant(b, 1, IntegerType(1))
    fine = b.insert(arith.XOrIOp(overflow, true)).result
    assert_that(b, fine, f"'{op_name}' of {{}} by -1 overflows", [lhs])


def check_steps(b: Builder, op_name: str, steps: Sequence[SSAValue]) -> None:
    """Assert every step is positive: "scf.for: step 0 is not positive",
    "scf.parallel: steps (1, 0) are not all positive"."""
    zero = constant(b, 0)
    positive = [b.insert(arith.CmpiOp(s, zero, "sgt")).result for s in steps]
    if op_name == "scf.parallel":
        template = f"{op_name}: steps {shape_template([DYNAMIC_INDEX] * len(steps))} "
        template += "are not all positive"
    else:
        template = f"{op_name}: step {{}} is not positive"
    assert_that(b, all_of(b, positive), template, steps)


def check_equal(
    b: Builder, lhs: SSAValue, rhs: SSAValue, message: str, values: Sequence[SSAValue]
) -> None:
    """Assert `lhs == rhs` (integers or indices), failing with `message`."""
    assert_that(b, b.insert(arith.CmpiOp(lhs, rhs, "eq")).result, message, values)


def check_less_equal(
    b: Builder, lhs: SSAValue, rhs: SSAValue, message: str, values: Sequence[SSAValue]
) -> None:
    """Assert `lhs <= rhs` (signed), failing with `message`."""
    assert_that(b, b.insert(arith.CmpiOp(lhs, rhs, "sle")).result, message, values)


def check_same_shape(
    b: Builder,
    op_name: str,
    source: SSAValue,
    destination: SSAValue,
    slice_sizes: Sequence[int | SSAValue] | None = None,
) -> None:
    """Assert two memrefs have the same shape, with `memref.copy`'s message:
    "memref.copy: source of shape [4] and destination of shape [2] differ";
    or, given the `slice_sizes` of the subview `destination` is (a copy
    made from an insert_slice), the interpreter's insert_slice message:
    "tensor.insert_slice: source of shape [2] does not fill a slice of
    sizes [3]"."""
    source_type, destination_type = source.type, destination.type
    assert isinstance(source_type, MemRefType)
    assert isinstance(destination_type, MemRefType)
    shapes = (source_type.get_shape(), destination_type.get_shape())
    conditions: list[SSAValue] = []
    extents: list[list[SSAValue]] = [[], []]
    for dim, (size, other) in enumerate(zip(*shapes, strict=True)):
        if size != DYNAMIC_INDEX and other != DYNAMIC_INDEX:
            continue  # both static: the verifier's
        pair: list[SSAValue] = []
        for side, (value, static) in enumerate(((source, size), (destination, other))):
            if static == DYNAMIC_INDEX:
                extent = b.insert(memref.DimOp(value, constant(b, dim))).result
                extents[side].append(extent)
            else:
                extent = constant(b, static)
            pair.append(extent)
        conditions.append(b.insert(arith.CmpiOp(pair[0], pair[1], "eq")).result)
    if not conditions:
        return
    source_shape = ", ".join(map(_placeholder, shapes[0]))
    if slice_sizes is not None:
        values = [*extents[0], *_dynamic_of(slice_sizes)]
        template = (
            f"{op_name}: source of shape [{source_shape}] does not fill a slice of "
            f"sizes {_list_template(slice_sizes)}"
        )
    else:
        values = [*extents[0], *extents[1]]
        template = (
            f"{op_name}: source of shape [{source_shape}] and destination of "
            f"shape [{', '.join(map(_placeholder, shapes[1]))}] differ"
        )
    assert_that(b, all_of(b, conditions), template, values)


def check_slice(
    b: Builder,
    op_name: str,
    source: SSAValue,
    offsets: Sequence[int | SSAValue],
    sizes: Sequence[int | SSAValue],
    strides: Sequence[int | SSAValue],
) -> None:
    """Assert a slice lies in `source`, dimension by dimension, as
    semantics/arrays.py's `check_slice_bounds` does and says: a size is not
    negative ("size -1 of dimension 0"); a non-empty slice's first and last
    elements (offset + (size - 1) * stride) are in `[0, extent)`, an empty
    one's offset in `[0, extent]` ("slice of dimension 0 (offset 2, size 3,
    stride 1) is out of bounds of its size 4"). Dimensions whose values are
    all static are the verifier's."""
    type_ = source.type
    assert isinstance(type_, MemRefType)
    shape = type_.get_shape()
    for dim, (extent_size, offset, size, stride) in enumerate(
        zip(shape, offsets, sizes, strides, strict=True)
    ):
        parts = (extent_size, offset, size, stride)
        if all(isinstance(p, int) and p != DYNAMIC_INDEX for p in parts):
            continue
        as_value = [
            constant(b, p) if isinstance(p, int) else p for p in (offset, size, stride)
        ]
        offset_value, size_value, stride_value = as_value
        if extent_size == DYNAMIC_INDEX:
            extent = b.insert(memref.DimOp(source, constant(b, dim))).result
        else:
            extent = constant(b, extent_size)
        zero, one = constant(b, 0), constant(b, 1)
        if isinstance(size, SSAValue):
            nonnegative = b.insert(arith.CmpiOp(size, zero, "sge")).result
            assert_that(
                b, nonnegative, f"{op_name}: size {{}} of dimension {dim}", [size]
            )
        last = b.insert(
            arith.AddiOp(
                offset_value,
                b.insert(
                    arith.MuliOp(
                        b.insert(arith.SubiOp(size_value, one)).result, stride_value
                    )
                ).result,
            )
        ).result
        nonempty = all_of(
            b,
            [
                b.insert(arith.CmpiOp(offset_value, zero, "sge")).result,
                b.insert(arith.CmpiOp(offset_value, extent, "slt")).result,
                b.insert(arith.CmpiOp(last, zero, "sge")).result,
                b.insert(arith.CmpiOp(last, extent, "slt")).result,
            ],
        )
        empty = all_of(
            b,
            [
                b.insert(arith.CmpiOp(offset_value, zero, "sge")).result,
                b.insert(arith.CmpiOp(offset_value, extent, "sle")).result,
            ],
        )
        is_empty = b.insert(arith.CmpiOp(size_value, zero, "eq")).result
        fits = b.insert(arith.SelectOp(is_empty, empty, nonempty)).result
        assert_that(
            b,
            fits,
            f"{op_name}: slice of dimension {dim} (offset {{}}, size {{}}, stride "
            f"{{}}) is out of bounds of its size {{}}",
            [offset_value, size_value, stride_value, extent],
        )


def check_dim_index(
    b: Builder, op_name: str, kind: str, index: SSAValue, rank: int
) -> None:
    """Assert `0 <= index < rank` for a `memref.dim` (or the `tensor.dim` it
    was made from) of a `kind` ("memref", "tensor") of `rank`, with
    semantics/arrays.py's `checked_dim` message: "tensor.dim: dimension 3
    of a tensor of rank 1". One unsigned comparison: a negative index is a
    huge one."""
    in_range = b.insert(arith.CmpiOp(index, constant(b, rank), "ult")).result
    assert_that(
        b, in_range, f"{op_name}: dimension {{}} of a {kind} of rank {rank}", [index]
    )


def check_nonnegative(b: Builder, sizes: Sequence[SSAValue], message: str) -> None:
    """Assert no size in `sizes` is negative (nothing if there are none),
    failing with `message`, one `{}` per size."""
    if not sizes:
        return
    zero = constant(b, 0)
    nonnegative = [b.insert(arith.CmpiOp(size, zero, "sge")).result for size in sizes]
    assert_that(b, all_of(b, nonnegative), message, sizes)


def check_allocation(
    b: Builder,
    op_name: str,
    shape: Sequence[int],
    dynamic_sizes: Sequence[SSAValue],
    element_bytes: int,
) -> None:
    """Assert the sizes of a `memref.alloc` / `memref.alloca` of `shape`
    (`DYNAMIC_INDEX` where `dynamic_sizes` give them, in order) are what
    the interpreter allocates (semantics/arrays.py's `check_sizes` and
    `check_allocation`): no size is negative ("memref.alloc: negative size
    in [-1, 3]"), and the byte size fits in int64 (`finalize-memref-to-llvm`
    computes it with a wrapping multiplication): an unsigned extended
    product per size, whose high half or sign bit set means overflow,
    unless some size is 0. Nothing when every size is static and fits."""
    template_shape = [_placeholder(size) for size in shape]
    check_nonnegative(
        b, dynamic_sizes, f"{op_name}: negative size in [{', '.join(template_shape)}]"
    )
    static_bytes = element_bytes
    for size in shape:
        if size != DYNAMIC_INDEX:
            static_bytes *= size
    if static_bytes == 0:
        return  # an empty buffer: 0 bytes, whatever the dynamic sizes
    message = allocation_overflow_message(op_name, template_shape, element_bytes)
    if static_bytes > INT64_MAX:
        # Always fails (a static shape too large to address).
        assert_that(b, constant(b, 0, IntegerType(1)), message, dynamic_sizes)
        return
    if not dynamic_sizes:
        return
    _, fits = checked_product(b, static_bytes, dynamic_sizes)
    assert_that(b, fits, message, dynamic_sizes)


def check_static_memory(
    b: Builder, op_name: str, shape: Sequence[int], element_bytes: int
) -> None:
    """A `memref.alloc` of a static `shape` larger than the machine's memory
    (within int64) always fails, as the interpreter says it
    (semantics/arrays.py's `check_allocation`): "tensor.empty: cannot
    allocate 4000000000000 bytes" -- the bytes asked for, where a failing
    `malloc` would count the alignment padding too and name memref.alloc."""
    if DYNAMIC_INDEX in shape:
        return
    size = element_bytes * math.prod(shape)
    if memory_bytes() < size <= INT64_MAX:
        message = f"{op_name}: cannot allocate {size} bytes"
        assert_that(b, constant(b, 0, IntegerType(1)), message)


def check_stack_limit(
    b: Builder,
    op_name: str,
    shape: Sequence[int],
    dynamic_sizes: Sequence[SSAValue],
    element_bytes: int,
) -> None:
    """Assert a `memref.alloca` of `shape` takes at most `STACK_LIMIT`
    bytes (semantics/arrays.py's `check_stack_allocation`): "memref.alloca:
    N bytes exceed the stack limit of 1048576 bytes". After
    `check_allocation`, whose checks (sizes not negative, the byte size
    within int64) make the product here exact."""
    static_bytes = element_bytes
    for size in shape:
        if size != DYNAMIC_INDEX:
            static_bytes *= size
    if static_bytes == 0 or static_bytes > INT64_MAX:
        return  # empty, or refused by check_allocation
    if not dynamic_sizes:
        if static_bytes > STACK_LIMIT:
            message = stack_limit_message(op_name, static_bytes)
            assert_that(b, constant(b, 0, IntegerType(1)), message)
        return
    product = constant(b, static_bytes)
    for size in dynamic_sizes:
        product = b.insert(arith.MuliOp(product, size)).result
    fits = b.insert(arith.CmpiOp(product, constant(b, STACK_LIMIT), "sle")).result
    assert_that(b, fits, stack_limit_message(op_name, "{}"), [product])


def checked_product(
    b: Builder, static: int, factors: Sequence[SSAValue]
) -> tuple[SSAValue, SSAValue]:
    """`static * prod(factors)` of non-negative indices, and whether it is
    exact (fits in int64): an unsigned extended product per factor, whose
    high half or sign bit set means overflow, unless some factor is 0
    (then the product is exactly 0: the low half of anything times 0)."""
    zero = constant(b, 0)
    product = constant(b, static)
    if not factors:
        return product, constant(b, 1, IntegerType(1))
    overflows: list[SSAValue] = []
    empty: list[SSAValue] = []
    for factor in factors:
        extended = b.insert(arith.MulUIExtendedOp(product, factor))
        product = extended.low
        overflows.append(b.insert(arith.CmpiOp(extended.high, zero, "ne")).result)
        overflows.append(b.insert(arith.CmpiOp(product, zero, "slt")).result)
        empty.append(b.insert(arith.CmpiOp(factor, zero, "eq")).result)
    overflow = overflows[0]
    for other in overflows[1:]:
        overflow = b.insert(arith.OrIOp(overflow, other)).result
    fits = b.insert(arith.XOrIOp(overflow, constant(b, 1, IntegerType(1)))).result
    for is_empty in empty:
        fits = b.insert(arith.OrIOp(fits, is_empty)).result
    return product, fits


def _mixed(shape: Sequence[int], dynamic: Sequence[SSAValue]) -> list[int | SSAValue]:
    values = iter(dynamic)
    return [next(values) if size == DYNAMIC_INDEX else size for size in shape]


def _dynamic_of(mixed: Sequence[int | SSAValue]) -> list[SSAValue]:
    return [v for v in mixed if isinstance(v, SSAValue)]


def _list_template(mixed: Sequence[int | SSAValue]) -> str:
    """How Python prints the list `mixed`, a `{}` for each run-time value."""
    parts = ("{}" if isinstance(v, SSAValue) else str(v) for v in mixed)
    return "[" + ", ".join(parts) + "]"


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
        b, output_sizes, f"{op_name}: negative size in {_list_template(shape)}"
    )
    extents = _extents(b, source)
    for group, extent in zip(groups, extents, strict=True):
        sizes = [shape[d] for d in group]
        dynamic = _dynamic_of(sizes)
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
            f"{op_name}: dimensions {_list_template(sizes)} of "
            f"{_list_template(shape)} do not make up size "
            f"{'{}' if isinstance(extent, SSAValue) else extent} of "
            f"{_list_template(extents)}"
        )
        values = [*dynamic, *output_sizes]
        if isinstance(extent, SSAValue):
            values.append(extent)
        values += _dynamic_of(extents)
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
    template_values = [*_dynamic_of(extents), *_dynamic_of(strides)]
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
            f"{_list_template(extents)} and strides {_list_template(strides)} are "
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
            f"{op_name}: the source has shape {_list_template(extents)}, which "
            f"does not fit {shown}",
            _dynamic_of(extents),
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
        f"{op_name}: the source has strides {_list_template(strides)} and offset "
        f"{offset_template}, which do not fit {target}",
        [*_dynamic_of(strides), *_dynamic_of([offset])],
    )
