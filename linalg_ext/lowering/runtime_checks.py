"""Building run-time checks (`rtcheck.assert`) with the interpreter's messages.

Compiled code must refuse what the interpreter refuses, with the same text
(linalg_ext/dialect/runtime_check.py). The builders here emit, with any
`xdsl.builder.Builder`, the condition and the `rtcheck.assert` of one
check; each message template is the interpreter's message with a `{}` for
every value known only at run time:

- `check_in_bounds`: an element access (`memref.load`, `memref.store`,
  `affine.load`/`affine.store`), as semantics/arrays.py's `check_index` says
  it: "memref.load: index [5] is out of bounds of shape [3]";
  `check_vector_in_bounds`: a 1-D `vector.load` / `vector.store` (the
  lanes run along the last dimension), as the interpreter says it:
  "vector.load: vector<16xf32> at index [3, 14] is out of bounds of shape
  [4, 16]";
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
- the checks of views (`check_expand_shape`, `check_collapse_shape`,
  `check_cast`) are in `linalg_ext.lowering.view_checks`.

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
    VectorType,
    i1,
)
from xdsl.ir import Attribute, SSAValue

from linalg_ext.dialect.runtime_check import RuntimeAssertOp
from linalg_ext.lowering.loop_nest import IN_BOUNDS as IN_BOUNDS
from linalg_ext.semantics.static_rules import (
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
    _check_access(b, op_name, buffer, indices, None, unproven)


def check_vector_in_bounds(
    b: Builder,
    op_name: str,
    buffer: SSAValue,
    indices: Sequence[SSAValue],
    vector_type: VectorType,
    unproven: Sequence[bool] | None = None,
) -> None:
    """Assert that the 1-D vector of `vector_type` at `indices` lies in
    `buffer`: `0 <= indices[d] < dim(buffer, d)` for the leading dimensions,
    `0 <= indices[-1]` and `indices[-1] + length <= dim(buffer, -1)` for the
    last one, for each dimension whose `unproven[d]` is true (all by
    default). The message: "<op>: vector<16xf32> at index [i, j] is out of
    bounds of shape [m, n]"."""
    _check_access(b, op_name, buffer, indices, vector_type, unproven)


def _check_access(
    b: Builder,
    op_name: str,
    buffer: SSAValue,
    indices: Sequence[SSAValue],
    vector_type: VectorType | None,
    unproven: Sequence[bool] | None,
) -> None:
    """`check_in_bounds` (an element, `vector_type` None) and
    `check_vector_in_bounds` (a vector along the last dimension)."""
    type_ = buffer.type
    assert isinstance(type_, MemRefType)
    shape = type_.get_shape()
    if not indices:
        return
    unproven = unproven if unproven is not None else [True] * len(indices)
    if not any(unproven):
        return
    # The dimension a vector runs along; an element has none.
    along = len(indices) - 1 if vector_type is not None else -1
    conditions: list[SSAValue] = []
    dynamic: list[SSAValue] = []
    for dim, (size, index, check) in enumerate(
        zip(shape, indices, unproven, strict=True)
    ):
        if size == DYNAMIC_INDEX:
            extent = b.insert(memref.DimOp(buffer, constant(b, dim))).result
            dynamic.append(extent)
        elif check and dim != along:
            extent = constant(b, size)
        else:
            extent = None
        if not check:
            continue
        if dim != along:
            assert extent is not None
            conditions.append(b.insert(arith.CmpiOp(index, extent, "ult")).result)
            continue
        assert vector_type is not None
        length = vector_type.get_shape()[0]
        if size != DYNAMIC_INDEX and size < length:
            # No index fits the vector in.
            conditions.append(constant(b, 0, i1))
            continue
        # `index <= size - length` unsigned (a negative index is a huge
        # one), with `length <= size` so that the difference is not
        # negative; `index + length` could wrap instead.
        if size != DYNAMIC_INDEX:
            room = constant(b, size - length)
        else:
            assert extent is not None
            lanes = constant(b, length)
            fits = b.insert(arith.CmpiOp(lanes, extent, "ule")).result
            conditions.append(fits)
            room = b.insert(arith.SubiOp(extent, lanes)).result
        conditions.append(b.insert(arith.CmpiOp(index, room, "ule")).result)
    sizes = ", ".join(_placeholder(size) for size in shape)
    what = f"{vector_type} at index" if vector_type is not None else "index"
    template = (
        f"{op_name}: {what} [{', '.join('{}' for _ in indices)}] is out of bounds "
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
        values = [*extents[0], *dynamic_of(slice_sizes)]
        template = (
            f"{op_name}: source of shape [{source_shape}] does not fill a slice of "
            f"sizes {list_template(slice_sizes)}"
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


def dynamic_of(mixed: Sequence[int | SSAValue]) -> list[SSAValue]:
    return [v for v in mixed if isinstance(v, SSAValue)]


def list_template(mixed: Sequence[int | SSAValue]) -> str:
    """How Python prints the list `mixed`, a `{}` for each run-time value."""
    parts = ("{}" if isinstance(v, SSAValue) else str(v) for v in mixed)
    return "[" + ", ".join(parts) + "]"
