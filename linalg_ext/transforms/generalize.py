"""Named Linalg ops rewritten as the `linalg.generic` they stand for.

Passes such as elementwise fusion match `linalg.generic` only: a named op
(`linalg.add`, `linalg.matmul`, `linalg.map`, ...) has to be generalized
first, as upstream's `generalizeNamedOp` (`--linalg-generalize-named-ops`)
does. `generalize(op)` builds that generic and leaves the rewriting to the
caller: same operands (inputs, then outputs), same result types, the op's
indexing maps and iterator types, and a body that is the op's computation.

The bodies are built as MLIR 22's region builders build them, not copied from
the hidden bodies xDSL 0.74 gives its named ops, some of which compute
something else: on `i1`, upstream adds with `arith.ori` and multiplies with
`arith.andi` (xDSL's bodies use `addi`/`muli`); a contraction accumulates as
`out + a * b` after converting both factors to the output's element type
(`cast_signed`); `linalg.pooling_nchw_max` maximises the output with the
input, where xDSL's body maximises the input with the window operand.

An op whose body upstream would not build (`linalg.sub` on `i1`, `linalg.exp`
on integers, `linalg.add` of mixed element types, a `linalg.fill` whose value
is not of the output's element type) is not generalized: `generalize`
returns None for it, as for every op it does not know and for
`linalg.generic` itself.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xdsl.builder import ImplicitBuilder
from xdsl.dialects import arith, math
from xdsl.dialects.builtin import AnyFloat, FloatAttr, IntegerType
from xdsl.dialects.linalg import ops as linalg
from xdsl.ir import Attribute, Block, BlockArgument, Operation, Region, SSAValue

from linalg_ext.compat import linalg_ops as compat
from linalg_ext.compat.checks import element_type
from linalg_ext.compat.linalg_elementwise import ElementwiseOp
from linalg_ext.compat.linalg_elemwise_legacy import ElemwiseBinaryOp, ElemwiseUnaryOp
from linalg_ext.compat.linalg_fill_rng import FillRng2DOp
from linalg_ext.compat.linalg_opdsl import OPDSL_OPS
from linalg_ext.compat.linalg_reduce import ReduceOp
from linalg_ext.type_functions import can_cast_signed, cast_signed


class _Unsupported(Exception):
    """Upstream's region builder rejects these element types."""


def generalize(op: Operation) -> linalg.GenericOp | None:
    """The `linalg.generic` computing what `op` computes, built but neither
    inserted nor used; None if `op` is a `linalg.generic`, is not a named
    op handled here, or has element types upstream cannot build a body for.

    Handled: the named elementwise ops (`ELEMENTWISE_FUNCTIONS`),
    `linalg.select`, `copy`, `fill`, `transpose`, `broadcast`, `map`,
    `reduce`, the contractions `matmul`, `batch_matmul`, `quantized_matmul`
    and convolutions, `linalg.pooling_nchw_max`, and the OpDSL ops of
    `linalg_opdsl` (their hidden body, which is upstream's).
    """
    builder = _BODY_BUILDERS.get(type(op))
    if builder is None:
        return None
    inputs: Sequence[SSAValue] = op.inputs  # pyright: ignore[reportAttributeAccessIssue]
    outputs: Sequence[SSAValue] = op.outputs  # pyright: ignore[reportAttributeAccessIssue]
    try:
        body = builder(op, inputs, outputs)
    except _Unsupported:
        return None
    return linalg.GenericOp(
        tuple(inputs),
        tuple(outputs),
        body,
        op.get_indexing_maps(),  # pyright: ignore[reportAttributeAccessIssue]
        op.get_iterator_types(),  # pyright: ignore[reportAttributeAccessIssue]
        [result.type for result in op.results],
    )


# --------------------------------------------------------------------------
# Scalar functions, as upstream's RegionBuilderHelper emits them
# --------------------------------------------------------------------------


def _is_float(type_: Attribute) -> bool:
    return isinstance(type_, AnyFloat)


def _is_bool(type_: Attribute) -> bool:
    return isinstance(type_, IntegerType) and type_.width.data == 1


_FLOAT_UNARY: dict[str, Callable[[SSAValue], Operation]] = {
    "exp": math.ExpOp,
    "log": math.LogOp,
    "sqrt": math.SqrtOp,
    "rsqrt": math.RsqrtOp,
    "abs": math.AbsFOp,
    "floor": math.FloorOp,
    "ceil": math.CeilOp,
    "tanh": math.TanhOp,
    "negf": arith.NegfOp,
    "round": math.RoundOp,
    "erf": math.ErfOp,
}


def _unary(function: str, value: SSAValue) -> SSAValue:
    """`UnaryFn::<function>` of `value`; floats only, as upstream."""
    type_ = value.type
    if not isinstance(type_, AnyFloat):
        raise _Unsupported(f"{function} of {type_}")
    if function == "reciprocal":
        return arith.DivfOp(arith.ConstantOp(FloatAttr(1.0, type_)), value).result
    if function == "square":
        return arith.MulfOp(value, value).result
    return _FLOAT_UNARY[function](value).results[0]


# function -> (float op, integer op, i1 op); None: upstream rejects it.
_BINARY: dict[str, tuple[Callable[[SSAValue, SSAValue], Operation] | None, ...]] = {
    "add": (arith.AddfOp, arith.AddiOp, arith.OrIOp),
    "sub": (arith.SubfOp, arith.SubiOp, None),
    "mul": (arith.MulfOp, arith.MuliOp, arith.AndIOp),
    "div": (arith.DivfOp, arith.DivSIOp, None),
    "max_signed": (arith.MaximumfOp, arith.MaxSIOp, arith.MaxSIOp),
    "min_signed": (arith.MinimumfOp, arith.MinSIOp, arith.MinSIOp),
    "powf": (math.PowFOp, None, None),
    "div_unsigned": (None, arith.DivUIOp, None),
}


def _binary(function: str, lhs: SSAValue, rhs: SSAValue) -> SSAValue:
    """`BinaryFn::<function>` of two values of one type."""
    if lhs.type != rhs.type:
        raise _Unsupported(f"{function} of {lhs.type} and {rhs.type}")
    float_op, int_op, bool_op = _BINARY[function]
    if _is_float(lhs.type):
        op_type = float_op
    elif _is_bool(lhs.type):
        op_type = bool_op
    elif isinstance(lhs.type, IntegerType):
        op_type = int_op
    else:
        op_type = None
    if op_type is None:
        raise _Unsupported(f"{function} of {lhs.type}")
    return op_type(lhs, rhs).results[0]


def _cast(value: SSAValue, to_type: Attribute) -> SSAValue:
    if not can_cast_signed(value.type, to_type):
        raise _Unsupported(f"cast of {value.type} to {to_type}")
    return cast_signed(value, to_type)


# --------------------------------------------------------------------------
# Bodies
# --------------------------------------------------------------------------

BodyBuilder = Callable[[Operation, Sequence[SSAValue], Sequence[SSAValue]], Region]


def _body(
    inputs: Sequence[SSAValue],
    outputs: Sequence[SSAValue],
    payload: Callable[[tuple[BlockArgument, ...]], Sequence[SSAValue]],
) -> Region:
    """A block with one argument per operand (its element type, or its own
    type for a scalar) whose ops `payload` builds; it yields what `payload`
    returns, which must be of the outputs' element types."""
    block = Block(arg_types=[element_type(v.type) for v in (*inputs, *outputs)])
    with ImplicitBuilder(block):
        yielded = payload(block.args)
        if [v.type for v in yielded] != [element_type(o.type) for o in outputs]:
            raise _Unsupported("the body would yield other types than the outputs'")
        linalg.YieldOp(*yielded)
    return Region(block)


ELEMENTWISE_FUNCTIONS: dict[type[Operation], tuple[str, str]] = {
    linalg.AddOp: ("binary", "add"),
    linalg.SubOp: ("binary", "sub"),
    linalg.MulOp: ("binary", "mul"),
    linalg.MaxOp: ("binary", "max_signed"),
    linalg.MinOp: ("binary", "min_signed"),
    compat.DivOp: ("binary", "div"),
    compat.PowFOp: ("binary", "powf"),
    linalg.ExpOp: ("unary", "exp"),
    linalg.LogOp: ("unary", "log"),
    linalg.SqrtOp: ("unary", "sqrt"),
    compat.RsqrtOp: ("unary", "rsqrt"),
    compat.AbsOp: ("unary", "abs"),
    compat.FloorOp: ("unary", "floor"),
    compat.CeilOp: ("unary", "ceil"),
    compat.TanhOp: ("unary", "tanh"),
    compat.NegFOp: ("unary", "negf"),
    compat.ReciprocalOp: ("unary", "reciprocal"),
    compat.SquareOp: ("unary", "square"),
    compat.RoundOp: ("unary", "round"),
    compat.ErfOp: ("unary", "erf"),
    compat.DivUnsignedOp: ("binary", "div_unsigned"),
}
"""Each named elementwise op: whether upstream's scalar function of it is
unary or binary, and which. All operands have one element type (upstream's
`T1`), and nothing is converted."""


def _elementwise(
    op: Operation, inputs: Sequence[SSAValue], outputs: Sequence[SSAValue]
) -> Region:
    kind, function = ELEMENTWISE_FUNCTIONS[type(op)]
    arity = 2 if kind == "binary" else 1
    if len(inputs) != arity or len(outputs) != 1:
        raise _Unsupported(f"{op.name} with {len(inputs)} inputs")

    def payload(args: tuple[BlockArgument, ...]) -> list[SSAValue]:
        if kind == "binary":
            return [_binary(function, args[0], args[1])]
        return [_unary(function, args[0])]

    return _body(inputs, outputs, payload)


def _select(
    op: Operation, inputs: Sequence[SSAValue], outputs: Sequence[SSAValue]
) -> Region:
    """`TernaryFn::select`: the condition is i1, the two values are of the
    output's element type."""
    if len(inputs) != 3 or len(outputs) != 1:
        raise _Unsupported("linalg.select takes a condition and two values")

    def payload(args: tuple[BlockArgument, ...]) -> list[SSAValue]:
        condition, lhs, rhs = args[:3]
        if not _is_bool(condition.type) or lhs.type != rhs.type:
            raise _Unsupported("select of other than an i1 and two alike values")
        return [arith.SelectOp(condition, lhs, rhs).result]

    return _body(inputs, outputs, payload)


def _converted_input(
    op: Operation, inputs: Sequence[SSAValue], outputs: Sequence[SSAValue]
) -> Region:
    """`linalg.copy`: the input converted to the output's type (cast_signed)."""
    if len(inputs) != 1 or len(outputs) != 1:
        raise _Unsupported(f"{op.name} with {len(inputs)} inputs")
    target = element_type(outputs[0].type)
    return _body(inputs, outputs, lambda args: [_cast(args[0], target)])


def _input_as_is(
    op: Operation, inputs: Sequence[SSAValue], outputs: Sequence[SSAValue]
) -> Region:
    """`linalg.fill`, `transpose`, `broadcast`: the input element yielded as it
    is (MLIR 22 requires it to be of the output's element type already)."""
    if len(inputs) != 1 or len(outputs) != 1:
        raise _Unsupported(f"{op.name} with {len(inputs)} inputs")
    return _body(inputs, outputs, lambda args: [args[0]])


def _contraction(
    op: Operation, inputs: Sequence[SSAValue], outputs: Sequence[SSAValue]
) -> Region:
    """Matmuls and convolutions: `out + cast(a) * cast(b)`."""
    if len(inputs) != 2 or len(outputs) != 1:
        raise _Unsupported(f"{op.name} with {len(inputs)} inputs")
    target = element_type(outputs[0].type)

    def payload(args: tuple[BlockArgument, ...]) -> list[SSAValue]:
        lhs, rhs, out = args
        product = _binary("mul", _cast(lhs, target), _cast(rhs, target))
        return [_binary("add", out, product)]

    return _body(inputs, outputs, payload)


def _quantized_contraction(
    op: Operation, inputs: Sequence[SSAValue], outputs: Sequence[SSAValue]
) -> Region:
    """`linalg.quantized_matmul`:
    `out + (cast(a) - cast(a_zero)) * (cast(b) - cast(b_zero))`."""
    if len(inputs) != 4 or len(outputs) != 1:
        raise _Unsupported(f"{op.name} with {len(inputs)} inputs")
    target = element_type(outputs[0].type)

    def payload(args: tuple[BlockArgument, ...]) -> list[SSAValue]:
        lhs, rhs, lhs_zero, rhs_zero, out = args
        lhs_shifted = _binary("sub", _cast(lhs, target), _cast(lhs_zero, target))
        rhs_shifted = _binary("sub", _cast(rhs, target), _cast(rhs_zero, target))
        return [_binary("add", out, _binary("mul", lhs_shifted, rhs_shifted))]

    return _body(inputs, outputs, payload)


def _pooling_max(
    op: Operation, inputs: Sequence[SSAValue], outputs: Sequence[SSAValue]
) -> Region:
    """`linalg.pooling_*_max`: `max_signed(out, cast(input))`; the second
    input only gives the window's shape."""
    if len(inputs) != 2 or len(outputs) != 1:
        raise _Unsupported(f"{op.name} with {len(inputs)} inputs")
    target = element_type(outputs[0].type)

    def payload(args: tuple[BlockArgument, ...]) -> list[SSAValue]:
        return [_binary("max_signed", args[2], _cast(args[0], target))]

    return _body(inputs, outputs, payload)


def _own_region(
    op: Operation, inputs: Sequence[SSAValue], outputs: Sequence[SSAValue]
) -> Region:
    """`linalg.map` and `linalg.reduce` (and the OpDSL ops, whose hidden
    body is upstream's): their region, cloned. Its arguments
    are already a generic's: one element per input, then the init's (MLIR 22
    requires that of a mapper; one written as before, with the input
    arguments only, gets the init's, unused)."""
    region = op.regions[0].clone()
    block = region.block
    if len(block.args) == len(inputs):
        block.insert_arg(element_type(outputs[0].type), len(inputs))
    return region


_BODY_BUILDERS: dict[type[Operation], BodyBuilder] = {
    **dict.fromkeys(ELEMENTWISE_FUNCTIONS, _elementwise),
    linalg.SelectOp: _select,
    linalg.CopyOp: _converted_input,
    linalg.FillOp: _input_as_is,
    linalg.TransposeOp: _input_as_is,
    linalg.BroadcastOp: _input_as_is,
    compat.MapOp: _own_region,
    linalg.ReduceOp: _own_region,
    ReduceOp: _own_region,
    ElementwiseOp: _own_region,
    ElemwiseUnaryOp: _own_region,
    ElemwiseBinaryOp: _own_region,
    linalg.MatmulOp: _contraction,
    compat.BatchMatmulOp: _contraction,
    linalg.Conv2DNchwFchwOp: _contraction,
    linalg.Conv2DNgchwFgchwOp: _contraction,
    linalg.Conv2DNgchwGfchwOp: _contraction,
    linalg.Conv2DNhwc_FhwcOp: _contraction,
    linalg.Conv2DNhwc_HwcfOp: _contraction,
    linalg.Conv2DNhwgcGfhwcOp: _contraction,
    linalg.QuantizedMatmulOp: _quantized_contraction,
    linalg.PoolingNchwMaxOp: _pooling_max,
    # Their hidden bodies are built as upstream's region builder builds them.
    **dict.fromkeys(OPDSL_OPS, _own_region),
    FillRng2DOp: _own_region,
}

GENERALIZED_OPS: frozenset[str] = frozenset(cls.name for cls in _BODY_BUILDERS)
"""The names of the ops `generalize` handles."""
