"""`linalg-ext-to-linalg`: softmax, unnorm_softmax and layer_norm as linalg ops.

ByteIR's pass of the same name (no options). Each op becomes `linalg.reduce`
(the reductions), `linalg.generic` (the elementwise steps) and `linalg.fill`
(zero inits), on tensors or on memrefs; on memrefs everything is written into
the op's own output buffers. Other `linalg_ext` ops are left as they are.

    %r:4 = linalg_ext.softmax dimension(1) ins(%x : tensor<2x3xf32>)
        outs(%o, %m, %a, %s : tensor<2x3xf32>, tensor<2xf32>, tensor<2xf32>,
        tensor<2xf32>) : ...

becomes (maps and bodies abbreviated)

    %max_init = linalg.generic ins(%m) outs(%s)            // scale := m0
    %r = linalg.reduce { arith.maximumf } ins(%x) outs(%m) dimensions = [1]
    %exp = linalg.generic ins(%x, %r) outs(%o)             // exp(x - max)
    %kept, %1 = linalg.generic ins(%r) outs(%a, %max_init) // a0 * exp(m0 - max)
    %r_1 = linalg.reduce { arith.addf } ins(%exp) outs(%kept) dimensions = [1]
    %r_2 = linalg.generic ins(%r_1) outs(%exp)             // exp / sum
    %r_3 = linalg.generic ins(%r_1) outs(%1)               // kept / sum

The scale output holds the max init until the max is overwritten, so no
temporary is needed. Scale is `a0 * exp(m0 - max) / sum`, the op's definition
(docs/ops/softmax.md); ByteIR's lowering multiplies by the sum instead.
layer_norm: sum, mean, the squared deviations summed by a reduction generic,
rstd, the output; without mean and rstd outputs it allocates them
(`tensor.empty`, or `memref.alloc` freed at the end). The variance is that of
the definition, not ByteIR's cancelling E[x²] − mean². See
docs/passes/linalg-ext-to-linalg.md.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from math import prod

from xdsl.context import Context
from xdsl.dialects import arith, math, memref, tensor
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AffineMapAttr,
    AnyFloat,
    FloatAttr,
    IndexType,
    IntegerType,
    MemRefType,
    ModuleOp,
    ShapedType,
    TensorType,
)
from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.dialects.linalg.ops import FillOp, GenericOp, YieldOp
from xdsl.ir import Attribute, Block, Operation, OpResult, Region, SSAValue
from xdsl.ir.affine import AffineMap
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint

from linalg_ext import dialect as le
from linalg_ext.compat.linalg_reduce import ReduceOp
from linalg_ext.diagnostics import OpPassFailed
from linalg_ext.shaped import drop_dims, element_type_or_self

Body = Callable[[list[Operation], Sequence[SSAValue]], Sequence[SSAValue]]
"""Builds a payload: appends ops to the list, returns the values to yield."""


def _binary(
    ops: list[Operation], kind: type[arith.FloatingPointLikeBinaryOperation], *args
) -> SSAValue:
    op = kind(*args)
    ops.append(op)
    return op.result


def _exp(ops: list[Operation], value: SSAValue) -> SSAValue:
    op = math.ExpOp(value)
    ops.append(op)
    return op.result


class _Emitter:
    """The ops replacing one op, in order. On tensors every step's result
    is the next value of the role it writes; on memrefs that value stays
    the buffer, written in place."""

    def __init__(self, element: AnyFloat):
        self.ops: list[Operation] = []
        self.element = element

    def name(self, value: SSAValue, name: str) -> SSAValue:
        """`value`, named `name` if one of the new ops made it (given to
        intermediate values; a buffer of the program keeps its name, and the
        values standing for the op's results take the op's names)."""
        if isinstance(value, OpResult) and any(value.op is op for op in self.ops):
            value.name_hint = name
        return value

    def _region(self, types: Sequence[Attribute], body: Body) -> Region:
        block = Block(arg_types=types)
        ops: list[Operation] = []
        yielded = body(ops, block.args)
        block.add_ops([*ops, YieldOp(*yielded)])
        return Region(block)

    @staticmethod
    def _next(outs: Sequence[SSAValue], op: Operation) -> list[SSAValue]:
        results = iter(op.results)
        return [next(results) if isinstance(v.type, TensorType) else v for v in outs]

    def generic(
        self,
        ins: Sequence[SSAValue],
        outs: Sequence[SSAValue],
        maps: Sequence[AffineMap],
        body: Body,
        reductions: Sequence[int] = (),
    ) -> list[SSAValue]:
        """A generic over `maps[0].num_dims` loops, those in `reductions`
        reduction loops, the others parallel."""
        rank = maps[0].num_dims
        op = GenericOp(
            ins,
            outs,
            self._region([self.element] * (len(ins) + len(outs)), body),
            [AffineMapAttr(m) for m in maps],
            [
                IteratorTypeAttr.reduction()
                if d in reductions
                else IteratorTypeAttr.parallel()
                for d in range(rank)
            ],
            [v.type for v in outs if isinstance(v.type, TensorType)],
        )
        self.ops.append(op)
        return self._next(outs, op)

    def reduce(
        self, input: SSAValue, init: SSAValue, dims: Sequence[int], combiner: type
    ) -> SSAValue:
        """`init` combined with every element of `input` over `dims`; the
        combiner's operands in the loop lowering's order (init, element)."""

        def body(ops: list[Operation], args: Sequence[SSAValue]) -> list[SSAValue]:
            return [_binary(ops, combiner, args[1], args[0])]

        op = ReduceOp([input], [init], dims, self._region([self.element] * 2, body))
        self.ops.append(op)
        return self._next([init], op)[0]

    def constant(self, value: float) -> SSAValue:
        op = arith.ConstantOp(FloatAttr(value, self.element))
        self.ops.append(op)
        return op.result

    def fill(self, value: SSAValue, out: SSAValue) -> SSAValue:
        op = FillOp(
            [value], [out], [out.type] if isinstance(out.type, TensorType) else []
        )
        self.ops.append(op)
        return self._next([out], op)[0]

    def extent(self, value: SSAValue, dim: int) -> SSAValue:
        """The run-time extent of dimension `dim` of a tensor or memref."""
        index = arith.ConstantOp.from_int_and_width(dim, IndexType())
        kind = tensor.DimOp if isinstance(value.type, TensorType) else memref.DimOp
        op = kind(value, index)
        self.ops.extend((index, op))
        return op.result


def _identity(rank: int) -> AffineMap:
    return AffineMap.identity(rank)


def _without(rank: int, dims: Sequence[int]) -> AffineMap:
    """The map from all `rank` loops to those not in `dims`."""
    return _identity(rank).drop_results([d in dims for d in range(rank)])


def _only(rank: int, dims: Sequence[int]) -> AffineMap:
    """The map from all `rank` loops to those in `dims`."""
    return _identity(rank).drop_results([d not in dims for d in range(rank)])


def _element(value: SSAValue) -> AnyFloat:
    element = element_type_or_self(value.type)
    assert isinstance(element, AnyFloat)  # verified: these ops are on floats
    return element


def decompose_softmax(op: le.SoftmaxLikeOp) -> tuple[list[Operation], list[SSAValue]]:
    """The ops computing `op` and the values standing for its results."""
    x = op.inputs[0]
    output, max_, accumulator, scale = op.outputs
    normalise = isinstance(op, le.SoftmaxOp)
    dimension = op.dimension.value.data
    rank = len(_shape(x))
    whole, row = _identity(rank), _without(rank, (dimension,))
    rows = _identity(rank - 1)
    e = _Emitter(_element(x))

    # scale := m0, kept there until max is overwritten and m0 is used.
    (scale,) = e.generic([max_], [scale], [rows, rows], lambda ops, a: [a[0]])
    e.name(scale, "max_init")
    max_ = e.reduce(x, max_, (dimension,), arith.MaximumfOp)

    def exponential(ops: list[Operation], a: Sequence[SSAValue]) -> list[SSAValue]:
        return [_exp(ops, _binary(ops, arith.SubfOp, a[0], a[1]))]

    (output,) = e.generic([x, max_], [output], [whole, row, whole], exponential)
    if normalise:
        e.name(output, "exp")

    def kept(ops: list[Operation], a: Sequence[SSAValue]) -> list[SSAValue]:
        new_max, a0, m0 = a
        decay = _exp(ops, _binary(ops, arith.SubfOp, m0, new_max))
        kept = _binary(ops, arith.MulfOp, a0, decay)
        return [kept, kept if normalise else decay]

    accumulator, scale = e.generic(
        [max_], [accumulator, scale], [rows, rows, rows], kept
    )
    e.name(accumulator, "kept")
    accumulator = e.reduce(output, accumulator, (dimension,), arith.AddfOp)
    if normalise:

        def divide(ops: list[Operation], a: Sequence[SSAValue]) -> list[SSAValue]:
            return [_binary(ops, arith.DivfOp, a[1], a[0])]

        (output,) = e.generic([accumulator], [output], [row, whole], divide)
        (scale,) = e.generic([accumulator], [scale], [rows, rows], divide)
    return e.ops, [output, max_, accumulator, scale]


def _shape(value: SSAValue) -> tuple[int, ...]:
    assert isinstance(value.type, ShapedType)
    return value.type.get_shape()


def _statistics_buffers(
    e: _Emitter, x: SSAValue, axes: Sequence[int]
) -> list[SSAValue]:
    """Fresh mean and rstd holders (tensor.empty, or memref.alloc for the
    caller to free), sized as `x` without `axes`."""
    shape = drop_dims(_shape(x), axes)
    dynamic = [
        e.extent(x, d)
        for d, extent in enumerate(_shape(x))
        if d not in axes and extent == DYNAMIC_INDEX
    ]
    made: list[SSAValue] = []
    for _ in range(2):
        if isinstance(x.type, TensorType):
            op = tensor.EmptyOp(dynamic, TensorType(e.element, shape))
        else:
            op = memref.AllocOp(dynamic, [], MemRefType(e.element, shape))
        e.ops.append(op)
        made.append(e.name(op.results[0], "statistics"))
    return made


def _count(e: _Emitter, x: SSAValue, axes: Sequence[int]) -> SSAValue:
    """M, the number of elements each mean is over, as an element value."""
    extents = [_shape(x)[d] for d in axes]
    if DYNAMIC_INDEX not in extents:
        return e.constant(float(prod(extents)))
    count = e.extent(x, axes[0])
    for d in axes[1:]:
        multiply = arith.MuliOp(count, e.extent(x, d))
        e.ops.append(multiply)
        count = multiply.result
    as_i64 = arith.IndexCastOp(count, IntegerType(64))
    as_float = arith.SIToFPOp(as_i64, e.element)
    e.ops.extend((as_i64, as_float))
    return as_float.result


def decompose_layer_norm(
    op: le.LayerNormOp,
) -> tuple[list[Operation], list[SSAValue]]:
    """The ops computing `op` and the values standing for its results."""
    x = op.inputs[0]
    axes = op.axis_values
    rank = len(_shape(x))
    e = _Emitter(_element(x))
    output = op.outputs[0]
    if len(op.outputs) == 3:
        mean, rstd = op.outputs[1], op.outputs[2]
    else:
        mean, rstd = _statistics_buffers(e, x, axes)
    allocated = (mean, rstd)
    whole, outer = _identity(rank), _without(rank, axes)
    stats = _identity(rank - len(axes))
    count = e.name(_count(e, x, axes), "count")
    zero = e.name(e.constant(0.0), "zero")
    one = e.name(e.constant(1.0), "one")
    epsilon = e.name(e.constant(op.epsilon.value.data), "epsilon")

    mean = e.name(
        e.reduce(x, e.name(e.fill(zero, mean), "zeros"), axes, arith.AddfOp), "sum"
    )

    def average(ops: list[Operation], a: Sequence[SSAValue]) -> list[SSAValue]:
        return [_binary(ops, arith.DivfOp, a[0], count)]

    (mean,) = e.generic([], [mean], [stats], average)
    e.name(mean, "mean")

    def add_square(ops: list[Operation], a: Sequence[SSAValue]) -> list[SSAValue]:
        centred = _binary(ops, arith.SubfOp, a[0], a[1])
        square = _binary(ops, arith.MulfOp, centred, centred)
        return [_binary(ops, arith.AddfOp, a[2], square)]

    # A reduction generic, not a reduce over a tensor of squares: no
    # temporary, and the output may be the input's own buffer.
    (rstd,) = e.generic(
        [x, mean],
        [e.name(e.fill(zero, rstd), "zeros")],
        [whole, outer, outer],
        add_square,
        axes,
    )
    e.name(rstd, "squares")

    def reciprocal_deviation(
        ops: list[Operation], a: Sequence[SSAValue]
    ) -> list[SSAValue]:
        variance = _binary(ops, arith.DivfOp, a[0], count)
        shifted = _binary(ops, arith.AddfOp, variance, epsilon)
        root = math.SqrtOp(shifted)
        ops.append(root)
        return [_binary(ops, arith.DivfOp, one, root.result)]

    (rstd,) = e.generic([], [rstd], [stats], reciprocal_deviation)
    e.name(rstd, "rstd")
    affine = len(op.inputs) == 3

    def normalise(ops: list[Operation], a: Sequence[SSAValue]) -> list[SSAValue]:
        centred = _binary(ops, arith.SubfOp, a[0], a[1])
        value = _binary(ops, arith.MulfOp, centred, a[2])
        if affine:
            value = _binary(ops, arith.MulfOp, value, a[3])
            value = _binary(ops, arith.AddfOp, value, a[4])
        return [value]

    ins = [x, mean, rstd, *op.inputs[1:]]
    maps = [whole, outer, outer, *[_only(rank, axes)] * (len(ins) - 3), whole]
    (output,) = e.generic(ins, [output], maps, normalise)
    if len(op.outputs) == 1 and not isinstance(x.type, TensorType):
        e.ops.extend(memref.DeallocOp.get(v) for v in allocated)
    return e.ops, [output, mean, rstd][: len(op.outputs)]


class DecomposeSoftmax(RewritePattern):
    """softmax and unnorm_softmax into reduce, generic."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: le.SoftmaxLikeOp, rewriter: PatternRewriter):
        _replace(op, *decompose_softmax(op), rewriter)


class DecomposeLayerNorm(RewritePattern):
    """layer_norm into fill, reduce, generic."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: le.LayerNormOp, rewriter: PatternRewriter):
        _replace(op, *decompose_layer_norm(op), rewriter)


def _shared_buffer(op: Operation) -> str | None:
    """Why `op` on memrefs cannot be decomposed, if it cannot: two of its
    outputs are one buffer. The op reads every input before it writes any
    output; its decomposition writes the outputs one after the other and
    reads some of them back, so they must be distinct (an output may be an
    input's buffer: output and input are read and written at one index)."""
    if isinstance(op, le.SoftmaxLikeOp):
        roles = ("output", "max", "accumulator", "scale")
    elif isinstance(op, le.LayerNormOp):
        roles = ("output", "mean", "rstd")
    else:
        return None
    seen: dict[SSAValue, str] = {}
    for role, value in zip(roles[: len(op.outputs)], op.outputs, strict=True):
        if not isinstance(value.type, MemRefType):
            return None
        if value in seen:
            return (
                f"the {seen[value]} and {role} outputs are the same buffer; "
                "pass distinct buffers"
            )
        seen[value] = role
    return None


def _replace(
    op: Operation,
    ops: list[Operation],
    values: list[SSAValue],
    rewriter: PatternRewriter,
) -> None:
    # Inserted first, so that `replace` passes the op's result name only to
    # the values standing for its results, not to every new op.
    rewriter.insert(ops, InsertPoint.before(op))
    tensors = [v for v in values if isinstance(v.type, TensorType)]
    rewriter.replace(op, [], tensors)


@dataclass(frozen=True)
class LinalgExtToLinalgPass(ModulePass):
    """Decompose `linalg_ext.softmax`, `unnorm_softmax` and `layer_norm` into
    `linalg.reduce`, `linalg.generic` and `linalg.fill`."""

    name = "linalg-ext-to-linalg"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        # Checked before anything changes: a refusal leaves the module as it
        # was.
        for inner in op.walk():
            if (reason := _shared_buffer(inner)) is not None:
                raise OpPassFailed(f"{self.name}: '{inner.name}': {reason}", inner)
        PatternRewriteWalker(
            GreedyRewritePatternApplier([DecomposeSoftmax(), DecomposeLayerNorm()]),
            apply_recursively=False,
        ).rewrite_module(op)
