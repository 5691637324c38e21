"""The `linalg_ext` ops on memrefs as loops: `scf.for` (with `scf.if` and, for
`topk`, `scf.while`) around `memref.load`/`memref.store` and `arith`/`math`.

Each `lower_*` function builds, with a `LoopNestBuilder`
(`linalg_ext.lowering.loop_nest`), the loops computing
exactly what the op's page in docs/ops/ defines (and
`linalg_ext.semantics` runs): same operations, in the same order where the
order is observable (scan, scatter, topk). `lowering_problem(op)` says why an
op cannot be lowered (None if it can); `convert-linalg-ext-to-loops` asks it
of every op before changing anything.

Shapes: an extent is a constant when any operand that has it is static, else
a `memref.dim` of the first operand that has it, built once ahead of the
loops. Reductions are carried in `scf.for` iter_args, never through memory.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from math import prod
from typing import TypeVar

from xdsl.dialects import arith, math, memref
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AnyFloat,
    IndexType,
    IntegerType,
    MemRefType,
    Signedness,
    TensorType,
    i1,
)
from xdsl.ir import Attribute, Operation, SSAValue

from linalg_ext import dialect as le
from linalg_ext.dialect.extents import (
    compared_pairs,
    extent_groups,
    mismatch_message,
    scatter_index_message,
    topk_k_exceeds_message,
)
from linalg_ext.lowering.loop_nest import LoopNestBuilder, static_extent
from linalg_ext.lowering.runtime_checks import (
    all_of,
    assert_that,
    check_equal,
    check_less_equal,
)

# --------------------------------------------------------------------------
# What cannot be lowered
# --------------------------------------------------------------------------


def _shaped_types(op: Operation) -> list[Attribute]:
    return [v.type for v in (*op.operands, *op.results)]


def _element(value: SSAValue) -> Attribute:
    assert isinstance(value.type, MemRefType)
    return value.type.get_element_type()


def _shape(value: SSAValue) -> tuple[int, ...]:
    assert isinstance(value.type, MemRefType)
    return value.type.get_shape()


def _can_make_zero(type_: Attribute) -> bool:
    return isinstance(type_, AnyFloat | IndexType) or (
        isinstance(type_, IntegerType) and type_.signedness.data == Signedness.SIGNLESS
    )


def _is_signless_or_index(type_: Attribute) -> bool:
    return isinstance(type_, IndexType) or (
        isinstance(type_, IntegerType) and type_.signedness.data == Signedness.SIGNLESS
    )


def lowering_problem(op: Operation) -> str | None:
    """Why `op` (a `linalg_ext` op other than `yield`) cannot be lowered to
    loops, or None. Tensor operands come first: those need bufferizing."""
    if any(isinstance(t, TensorType) for t in _shaped_types(op)):
        return "operates on tensors; bufferize first (one-shot-bufferize)"
    if isinstance(op, le.DiagOp):
        element = _element(op.inputs[0])
        if not _can_make_zero(element):
            return f"cannot build the zero of element type {element} off the diagonal"
    if isinstance(op, le.ScatterOp):
        element = _element(op.inputs[0])
        if not _is_signless_or_index(element):
            return (
                f"index element type {element} is not a signless integer or index "
                "(arith.index_cast reads signless integers)"
            )
    if isinstance(op, le.TopkOp):
        element = _element(op.outputs[1])
        if not _is_signless_or_index(element):
            return (
                f"output index element type {element} is not a signless integer "
                "or index (arith.index_cast writes signless integers)"
            )
    return None


# --------------------------------------------------------------------------
# The ops
# --------------------------------------------------------------------------


def _extent(b: LoopNestBuilder, *dims: tuple[SSAValue, int]) -> SSAValue:
    """The extent the `(memref, dimension)` pairs share, built once ahead of
    every loop (the operands of the op dominate it). Unnamed: `%0`, as the
    tests of the pass spell it."""
    return b.extent(*dims, hoist=True, name=None)


def _with_dim(
    outer: Sequence[SSAValue], dimension: int, iv: SSAValue
) -> list[SSAValue]:
    """The indices of an element: `outer` (every dimension but `dimension`)
    with `iv` put back at `dimension`."""
    return [*outer[:dimension], iv, *outer[dimension:]]


def _to_index(b: LoopNestBuilder, value: SSAValue) -> SSAValue:
    """An index element as `index` (integers read as signed)."""
    if isinstance(value.type, IndexType):
        return value
    return b.add(arith.IndexCastOp(value, IndexType()))


def _from_index(b: LoopNestBuilder, value: SSAValue, type_: Attribute) -> SSAValue:
    if isinstance(type_, IndexType):
        return value
    return b.add(arith.IndexCastOp(value, type_))


def check_extents(b: LoopNestBuilder, op: Operation) -> None:
    """Assert, ahead of the loops, that the operand dimensions which must
    agree do (`linalg_ext.dialect.extents`: the interpreter's checks, in its
    order and words), and for topk that K <= N; pairs whose extents are both
    static are the verifier's."""
    for group in extent_groups(op):
        for other, ref in compared_pairs(group):
            size = _extent(b, (other.value, other.dim))
            expected = _extent(b, (ref.value, ref.dim))
            message = mismatch_message(op, other, ref)
            check_equal(b, size, expected, message, [size, expected])
    if isinstance(op, le.TopkOp):
        dimension = op.dimension.value.data
        k_dim = (op.outputs[0], dimension)
        n_dim = (op.inputs[0], dimension)
        if static_extent(k_dim) is None or static_extent(n_dim) is None:
            k, n = _extent(b, k_dim), _extent(b, n_dim)
            check_less_equal(b, k, n, topk_k_exceeds_message(op), [k, n])


def _check_scatter_index(
    b: LoopNestBuilder,
    op: le.ScatterOp,
    where: Sequence[SSAValue],
    position: Sequence[SSAValue],
) -> None:
    """Assert the coordinates `where` read at batch `position` address src
    (one unsigned comparison each: a negative one is a huge one)."""
    src = op.outputs[0]
    shape = _shape(src)
    extents = [_extent(b, (src, d)) for d in range(len(shape))]
    conditions = [
        b.add(arith.CmpiOp(i, extent, "ult"))
        for i, extent in zip(where, extents, strict=False)
    ]
    if not conditions:
        return  # no coordinates (index depth 0): every batch updates all of src
    dynamic = [
        e for e, size in zip(extents, shape, strict=True) if size == DYNAMIC_INDEX
    ]
    assert_that(
        b,
        all_of(b, conditions),
        scatter_index_message(op),
        [*where, *position, *dynamic],
    )


def lower_softmax(b: LoopNestBuilder, op: le.SoftmaxLikeOp) -> None:
    """Per row along `dimension`: the max (carried, from the max init), the
    exponentials written to the output while their sum is carried, then,
    for softmax, the output divided by the new sum in place."""
    normalise = isinstance(op, le.SoftmaxOp)
    x = op.inputs[0]
    output, max_, accumulator, scale = op.outputs
    element = _element(x)
    dimension = op.dimension.value.data
    rank = len(_shape(x))
    outer_dims = [d for d in range(rank) if d != dimension]
    outer_extents = [
        _extent(
            b,
            (x, d),
            (output, d),
            *((v, i) for v in (max_, accumulator, scale)),
        )
        for i, d in enumerate(outer_dims)
    ]
    row_extent = _extent(b, (x, dimension), (output, dimension))
    zero = b.constant(0.0, element)

    def row(b: LoopNestBuilder, outer: tuple[SSAValue, ...], _: tuple) -> list:
        m0 = b.load(max_, outer, "max_in")
        a0 = b.load(accumulator, outer, "sum_in")

        def maximum(b: LoopNestBuilder, k: SSAValue, carried: tuple) -> list:
            value = b.load(x, _with_dim(outer, dimension, k))
            return [b.add(arith.MaximumfOp(carried[0], value))]

        (new_max,) = b.for_loop(row_extent, [m0], maximum, iv="k", names=["max"])

        def exponentials(b: LoopNestBuilder, k: SSAValue, carried: tuple) -> list:
            at = _with_dim(outer, dimension, k)
            shifted = b.add(arith.SubfOp(b.load(x, at), new_max))
            exponential = b.add(math.ExpOp(shifted), "exp")
            b.store(exponential, output, at)
            return [b.add(arith.AddfOp(carried[0], exponential))]

        (total,) = b.for_loop(
            row_extent, [zero], exponentials, iv="k", names=["exp_sum"]
        )
        decay = b.add(math.ExpOp(b.add(arith.SubfOp(m0, new_max))), "decay")
        kept = b.add(arith.MulfOp(a0, decay), "kept")
        new_acc = b.add(arith.AddfOp(kept, total), "sum")
        if normalise:

            def normalised(b: LoopNestBuilder, k: SSAValue, _: tuple) -> list:
                at = _with_dim(outer, dimension, k)
                b.store(b.add(arith.DivfOp(b.load(output, at), new_acc)), output, at)
                return []

            b.for_loop(row_extent, [], normalised, iv="k")
            decay = b.add(arith.DivfOp(kept, new_acc), "scale")
        b.store(decay, scale, outer)
        b.store(new_max, max_, outer)
        b.store(new_acc, accumulator, outer)
        return []

    b.loop_nest(outer_extents, [], row)


def lower_diag(b: LoopNestBuilder, op: le.DiagOp) -> None:
    """Every row of every matrix zeroed, then its diagonal element stored."""
    vector, matrix = op.inputs[0], op.outputs[0]
    rank = len(_shape(matrix))
    extents = [_extent(b, (vector, d), (matrix, d)) for d in range(rank - 1)]
    columns = _extent(b, (vector, rank - 2), (matrix, rank - 2), (matrix, rank - 1))
    zero = b.constant(0, _element(matrix))

    def row(b: LoopNestBuilder, ivs: tuple[SSAValue, ...], _: tuple) -> list:
        def clear(b: LoopNestBuilder, j: SSAValue, _: tuple) -> list:
            b.store(zero, matrix, [*ivs, j])
            return []

        b.for_loop(columns, [], clear, iv="j")
        b.store(b.load(vector, ivs), matrix, [*ivs, ivs[-1]])
        return []

    b.loop_nest(extents, [], row)


def lower_scan(b: LoopNestBuilder, op: le.ScanOp) -> None:
    """Per row: the carry starts from the accumulator and runs through the
    combiner; the output gets the carry after (inclusive) or before
    (exclusive) each element; the last carry goes back to the
    accumulator."""
    x = op.inputs[0]
    output, accumulator = op.outputs
    dimension = op.dimension.value.data
    inclusive = bool(op.inclusive.value.data)
    rank = len(_shape(x))
    outer_dims = [d for d in range(rank) if d != dimension]
    outer_extents = [
        _extent(b, (x, d), (output, d), (accumulator, i))
        for i, d in enumerate(outer_dims)
    ]
    row_extent = _extent(b, (x, dimension), (output, dimension))

    def row(b: LoopNestBuilder, outer: tuple[SSAValue, ...], _: tuple) -> list:
        def step(b: LoopNestBuilder, k: SSAValue, carried: tuple) -> list:
            at = _with_dim(outer, dimension, k)
            (combined,) = b.inline(op.region, [carried[0], b.load(x, at)])
            b.store(combined if inclusive else carried[0], output, at)
            return [combined]

        carry_in = b.load(accumulator, outer, "carry_in")
        (carry,) = b.for_loop(row_extent, [carry_in], step, iv="k", names=["carry"])
        b.store(carry, accumulator, outer)
        return []

    b.loop_nest(outer_extents, [], row)


def lower_scatter(b: LoopNestBuilder, op: le.ScatterOp) -> None:
    """Batch positions in row-major order, each reading its coordinates
    once, then its window element by element through the combiner."""
    indices, updates = op.inputs
    src = op.outputs[0]
    index_shape = _shape(indices)
    batch_rank, depth = len(index_shape) - 1, index_shape[-1]
    window_rank = len(_shape(updates)) - batch_rank
    batch_extents = [_extent(b, (indices, d), (updates, d)) for d in range(batch_rank)]
    window_extents = [
        _extent(b, (updates, batch_rank + d), (src, depth + d))
        for d in range(window_rank)
    ]

    def batch(b: LoopNestBuilder, position: tuple[SSAValue, ...], _: tuple) -> list:
        where = [
            _to_index(b, b.load(indices, [*position, b.index(d)])) for d in range(depth)
        ]
        if b.marks_in_bounds:
            _check_scatter_index(b, op, where, position)

        def update(b: LoopNestBuilder, window: tuple[SSAValue, ...], _: tuple) -> list:
            at = [*where, *window]
            old = b.load(src, at)
            new = b.load(updates, [*position, *window])
            (combined,) = b.inline(op.region, [old, new])
            b.store(combined, src, at)
            return []

        b.loop_nest(window_extents, [], update, ivs="w")
        return []

    b.loop_nest(batch_extents, [], batch, ivs="p")


def lower_topk(b: LoopNestBuilder, op: le.TopkOp) -> None:
    """Per row, an insertion sort into the outputs, which hold the best
    min(l, K) of the first l elements in order. Element l goes after every
    kept element it does not come strictly before (those have smaller
    original indices, so ties keep the smaller index first); once K are
    kept, an element that does not come before the last is dropped at once.
    """
    values = op.inputs[0]
    given_indices = op.inputs[1] if len(op.inputs) == 2 else None
    out_values, out_indices = op.outputs
    dimension = op.dimension.value.data
    rank = len(_shape(values))
    known = [
        size
        for output in (out_values, out_indices)
        if (size := _shape(output)[dimension]) != DYNAMIC_INDEX
    ]
    k_static = known[0] if known else DYNAMIC_INDEX
    if k_static == 0:
        return  # nothing to write
    operands = [values, out_values, out_indices]
    if given_indices is not None:
        operands.append(given_indices)
    outer_extents = [
        _extent(b, *((v, d) for v in operands)) for d in range(rank) if d != dimension
    ]
    sources = [values] if given_indices is None else [values, given_indices]
    n = _extent(b, *((v, dimension) for v in sources))
    n_known = [
        size
        for source in sources
        if (size := _shape(source)[dimension]) != DYNAMIC_INDEX
    ]
    sorts_all = k_static != DYNAMIC_INDEX and k_static in n_known[:1]
    k = _extent(b, (out_values, dimension), (out_indices, dimension))
    one = b.index(1)
    if sorts_all:
        last = k  # unused: no element is ever compared with the last kept
    elif k_static == DYNAMIC_INDEX:
        last = b.add(arith.SubiOp(k, one), "last")
    else:
        last = b.index(k_static - 1)
    index_type = _element(out_indices)

    def comes_before(b: LoopNestBuilder, lhs: SSAValue, rhs: SSAValue) -> SSAValue:
        (first,) = b.inline(op.region, [lhs, rhs])
        return first

    def rows(b: LoopNestBuilder) -> list:
        b.loop_nest(outer_extents, [], row)
        return []

    def row(b: LoopNestBuilder, outer: tuple[SSAValue, ...], _: tuple) -> list:
        def at(position: SSAValue) -> list[SSAValue]:
            return _with_dim(outer, dimension, position)

        def element(b: LoopNestBuilder, l: SSAValue, _: tuple) -> list:  # noqa: E741
            value = b.load(values, at(l), "value")
            if sorts_all:
                # K = N: every element is kept, in the hole at its position.
                insert(b, value, l, l)
                return []
            full = b.add(arith.CmpiOp(l, k, "sge"), "full")

            def beats_last(b: LoopNestBuilder) -> list:
                return [comes_before(b, value, b.load(out_values, at(last)))]

            (accept,) = b.if_then(
                full, [i1], beats_last, lambda b: [b.constant(True, i1)]
            )
            accept.name_hint = "kept"

            def insert_at_hole(b: LoopNestBuilder) -> list:
                hole = b.add(arith.SelectOp(full, last, l), "hole")
                insert(b, value, l, hole)
                return []

            b.if_then(accept, [], insert_at_hole)
            return []

        def insert(
            b: LoopNestBuilder,
            value: SSAValue,
            l: SSAValue,  # noqa: E741
            hole: SSAValue,
        ) -> None:
            """Shift the kept elements `value` comes before one place down,
            from `hole` backwards, and put `value` (from position l) in the
            place left."""

            def shifting(b: LoopNestBuilder, args: tuple) -> SSAValue:
                (t,) = args
                positive = b.add(arith.CmpiOp(t, b.index(0), "sgt"))

                def before_previous(b: LoopNestBuilder) -> list:
                    previous = b.add(arith.SubiOp(t, one))
                    kept = b.load(out_values, at(previous))
                    return [comes_before(b, value, kept)]

                (moves,) = b.if_then(
                    positive,
                    [i1],
                    before_previous,
                    lambda b: [b.constant(False, i1)],
                )
                return moves

            def shift(b: LoopNestBuilder, args: tuple) -> list:
                (t,) = args
                previous = b.add(arith.SubiOp(t, one))
                for target in (out_values, out_indices):
                    b.store(b.load(target, at(previous)), target, at(t))
                return [previous]

            (slot,) = b.while_loop([hole], shifting, shift, ["t"])
            slot.name_hint = "slot"
            index = (
                b.load(given_indices, at(l))
                if given_indices is not None
                else _from_index(b, l, index_type)
            )
            b.store(value, out_values, at(slot))
            b.store(index, out_indices, at(slot))

        b.for_loop(n, [], element, iv="l")
        return []

    if k_static == DYNAMIC_INDEX:
        # Comparing with the K-th kept element needs K > 0.
        b.if_then(b.add(arith.CmpiOp(k, b.index(0), "sgt")), [], rows)
    else:
        rows(b)


def lower_layer_norm(b: LoopNestBuilder, op: le.LayerNormOp) -> None:
    """Per position outside `axis`: the mean and the biased variance, each a
    sum carried through the `axis` loops, then the normalised output."""
    x = op.inputs[0]
    weight, bias = (op.inputs[1], op.inputs[2]) if len(op.inputs) == 3 else (None, None)
    output = op.outputs[0]
    mean_out, rstd_out = (
        (op.outputs[1], op.outputs[2]) if len(op.outputs) == 3 else (None, None)
    )
    element = _element(x)
    assert isinstance(element, AnyFloat)  # verified: layer_norm is on floats
    axes = op.axis_values
    rank = len(_shape(x))
    others = [d for d in range(rank) if d not in axes]

    def dims_of(d: int) -> list[tuple[SSAValue, int]]:
        """The operand dimensions that have the extent of input dimension d."""
        dims = [(x, d), (output, d)]
        if d in axes and weight is not None and bias is not None:
            dims += [(weight, axes.index(d)), (bias, axes.index(d))]
        if d in others and mean_out is not None and rstd_out is not None:
            dims += [(mean_out, others.index(d)), (rstd_out, others.index(d))]
        return dims

    outer_extents = [_extent(b, *dims_of(d)) for d in others]
    axis_extents = [_extent(b, *dims_of(d)) for d in axes]
    static_sizes = [static_extent(*dims_of(d)) for d in axes]
    known_sizes = [size for size in static_sizes if size is not None]
    if len(known_sizes) == len(static_sizes):
        count_float = b.constant(float(prod(known_sizes)), element)
    else:
        count = axis_extents[0]
        for size in axis_extents[1:]:
            count = b.add(arith.MuliOp(count, size))
        count_i64 = b.add(arith.IndexCastOp(count, IntegerType(64)))
        count_float = b.add(arith.SIToFPOp(count_i64, element), "count")
    zero = b.constant(0.0, element)
    one = b.constant(1.0, element)
    epsilon = b.constant(op.epsilon.value.data, element)

    def position(b: LoopNestBuilder, outer: tuple[SSAValue, ...], _: tuple) -> list:
        def at(inner: Sequence[SSAValue]) -> list[SSAValue]:
            indices: list[SSAValue] = []
            outer_it, inner_it = iter(outer), iter(inner)
            for d in range(rank):
                indices.append(next(inner_it) if d in axes else next(outer_it))
            return indices

        def add_element(b: LoopNestBuilder, inner: tuple, carried: tuple) -> list:
            return [b.add(arith.AddfOp(carried[0], b.load(x, at(inner))))]

        (total,) = b.loop_nest(
            axis_extents, [zero], add_element, ivs="a", names=["sum"]
        )
        mean = b.add(arith.DivfOp(total, count_float), "mean")

        def add_square(b: LoopNestBuilder, inner: tuple, carried: tuple) -> list:
            centred = b.add(arith.SubfOp(b.load(x, at(inner)), mean))
            square = b.add(arith.MulfOp(centred, centred))
            return [b.add(arith.AddfOp(carried[0], square))]

        (squares,) = b.loop_nest(
            axis_extents, [zero], add_square, ivs="a", names=["squares"]
        )
        variance = b.add(arith.DivfOp(squares, count_float), "variance")
        deviation = b.add(math.SqrtOp(b.add(arith.AddfOp(variance, epsilon))))
        rstd = b.add(arith.DivfOp(one, deviation), "rstd")

        def normalise(b: LoopNestBuilder, inner: tuple, _: tuple) -> list:
            indices = at(inner)
            centred = b.add(arith.SubfOp(b.load(x, indices), mean))
            value = b.add(arith.MulfOp(centred, rstd))
            if weight is not None and bias is not None:
                value = b.add(arith.MulfOp(value, b.load(weight, inner)))
                value = b.add(arith.AddfOp(value, b.load(bias, inner)))
            b.store(value, output, indices)
            return []

        b.loop_nest(axis_extents, [], normalise, ivs="a")
        if mean_out is not None and rstd_out is not None:
            b.store(mean, mean_out, outer)
            b.store(rstd, rstd_out, outer)
        return []

    b.loop_nest(outer_extents, [], position)


def lower_batch_matmul(b: LoopNestBuilder, op: le.BatchMatmulOp) -> None:
    """Loops over the init's elements; the reduction over K carried from the
    init's element through the op's multiply-accumulate body."""
    lhs, rhs, init = op.lhs, op.rhs, op.init
    layout = op.layout.data
    rank = len(_shape(init))
    batch = rank - 2
    m_dim = batch if layout[0] == "n" else batch + 1
    k_lhs_dim = batch + 1 if layout[0] == "n" else batch
    k_rhs_dim = batch if layout[1] == "n" else batch + 1
    n_dim = batch + 1 if layout[1] == "n" else batch
    extents = [_extent(b, (init, d), (lhs, d), (rhs, d)) for d in range(batch)]
    extents.append(_extent(b, (init, batch), (lhs, m_dim)))
    extents.append(_extent(b, (init, batch + 1), (rhs, n_dim)))
    k_extent = _extent(b, (lhs, k_lhs_dim), (rhs, k_rhs_dim))

    def element(b: LoopNestBuilder, ivs: tuple[SSAValue, ...], _: tuple) -> list:
        *batch_ivs, m, n = ivs

        def multiply_add(b: LoopNestBuilder, k: SSAValue, carried: tuple) -> list:
            a = b.load(lhs, [*batch_ivs, *((m, k) if layout[0] == "n" else (k, m))])
            c = b.load(rhs, [*batch_ivs, *((k, n) if layout[1] == "n" else (n, k))])
            return b.inline(op.body, [a, c, carried[0]])

        init_value = b.load(init, ivs, "init")
        (result,) = b.for_loop(
            k_extent, [init_value], multiply_add, iv="k", names=["acc"]
        )
        b.store(result, init, ivs)
        return []

    b.loop_nest(extents, [], element, ivs=["batch"] * batch + ["m", "n"])


def lower_custom(b: LoopNestBuilder, op: le.CustomOp) -> None:
    """The body inlined on the buffers; each yielded buffer that is not its
    output already is copied into it."""
    yielded = b.inline(op.region, [*op.inputs, *op.outputs])
    for value, output in zip(yielded, op.outputs, strict=False):
        if value is not output:
            b.insert(memref.CopyOp(value, output))


_OpT = TypeVar("_OpT", bound=Operation)


def _checked(
    op_class: type[_OpT], lower: Callable[[LoopNestBuilder, _OpT], None]
) -> Callable[[LoopNestBuilder, Operation], None]:
    """`lower` as a lowering of any op, checking that the op is an
    `op_class`: a registry keyed by class cannot say each entry's op type."""

    def lower_checked(b: LoopNestBuilder, op: Operation) -> None:
        assert isinstance(op, op_class)
        lower(b, op)

    return lower_checked


LOWERINGS: dict[type[Operation], Callable[[LoopNestBuilder, Operation], None]] = {
    le.SoftmaxOp: _checked(le.SoftmaxOp, lower_softmax),
    le.UnnormSoftmaxOp: _checked(le.UnnormSoftmaxOp, lower_softmax),
    le.DiagOp: _checked(le.DiagOp, lower_diag),
    le.ScanOp: _checked(le.ScanOp, lower_scan),
    le.ScatterOp: _checked(le.ScatterOp, lower_scatter),
    le.TopkOp: _checked(le.TopkOp, lower_topk),
    le.LayerNormOp: _checked(le.LayerNormOp, lower_layer_norm),
    le.BatchMatmulOp: _checked(le.BatchMatmulOp, lower_batch_matmul),
    le.CustomOp: _checked(le.CustomOp, lower_custom),
}
"""The lowering of each op with outputs; `linalg_ext.alias` is replaced by
its operand, and `linalg_ext.yield` goes with its parent's region."""


def lower_to_loops(op: Operation, runtime_checks: bool = False) -> list[Operation]:
    """The ops computing what `op` (one of `LOWERINGS`, on memrefs) does,
    neither inserted nor used: the caller puts them in place of `op`.

    With `runtime_checks`, the extents that must agree and the scatter
    indices are checked at run time (`rtcheck.assert`, the interpreter's
    messages), and the loads and stores of the loops, in bounds once those
    hold, are marked so (`rtcheck.in_bounds`); what the op's regions do is
    left to `insert-runtime-checks`."""
    builder = LoopNestBuilder.detached()
    if runtime_checks:
        builder.mark_in_bounds()
        check_extents(builder, op)
    LOWERINGS[type(op)](builder, op)
    return builder.take_ops()
