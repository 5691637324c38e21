"""The `vector` dialect's 1-D ops, and `arith` on vectors, for the interpreter.

xDSL 0.74 has no interpreter functions for `vector`. A vector value is a new
contiguous `ShapedArray` of the vector's shape (never a view of a memref), so
`vector.print`, `scf.for` iter_args and function results take it as they take
a tensor (`run_function` returns it as a numpy array).

- `arith` and `math` ops on vectors compute lane by lane with exactly the
  scalar semantics (`lanewise`, used by `scalar_ops`): float results are
  rounded to the element type after every op, integers wrap. The float ops
  whose numpy result is correctly rounded (add, sub, mul, div, ...) run on
  the whole vector at once, which gives the same lanes.
- `arith.constant` with a dense (splat or not) vector value.
- `vector.load` / `vector.store` move the vector's lanes from / to the
  consecutive elements along the last dimension of a memref starting at the
  indices, found as memref.load finds each element (through a strided
  view's strides; upstream's verifier and our lowering also require the
  innermost stride to be 1, the interpreter does not need to). The access
  is out of bounds when a leading index is not < its size or the last
  index + the length > the last size: `vector_access_message` says so
  (compiled code's run-time checks say the same).
- `vector.broadcast` of a scalar to a vector (a vector source is refused).
- `vector.fma`: a·b + c per lane with ONE rounding to the element type, as
  `llvm.intr.fma` computes it (`fused_multiply_add`).
- `vector.reduction`: kinds add, mul, maxnumf, minnumf, maximumf, minimumf
  (and the integer ones), folded in order from lane 0, after the
  accumulator if there is one, rounding after each step: what the ordered
  `llvm.vector.reduce.*` intrinsics compute. Fast-math flags (which would
  allow any order) are ignored: the ordered result is one they allow.
- `vector.extract` / `vector.insert` of one lane of a 1-D vector, at a static
  or dynamic position.

Only 1-D, fixed-length vectors are run by the `vector` ops (the lowering
supports no more); others are refused in one line naming the op. `arith`
works lane by lane on vectors of any shape. (xDSL 0.74's `arith` cannot
express everything on vectors: `cmpf`/`cmpi` of vectors are typed as giving
one i1, which is refused here, `select` takes only an i1 condition, and the
integer casts do not accept vectors.)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any, cast

import numpy as np
from xdsl.dialects import arith, vector
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AnyFloat,
    DenseIntOrFPElementsAttr,
    IndexType,
    IntegerType,
    VectorType,
)
from xdsl.interpreter import (
    Interpreter,
    InterpreterFunctions,
    PythonValues,
    impl,
    register_impls,
)
from xdsl.interpreters.shaped_array import ShapedArray
from xdsl.ir import Attribute, Block, Operation
from xdsl.utils.comparisons import to_signed, to_unsigned
from xdsl.utils.exceptions import InterpretationError

from linalg_ext.semantics.arrays import (
    array_from_numpy,
    canonical_i1,
    element_xtype,
    is_i1,
    numpy_view,
)
from linalg_ext.semantics.memref_ops import allocation_tracker
from linalg_ext.semantics.tensor_ops import TensorOpFunctions
from linalg_ext.shaped import element_type_or_self

# --------------------------------------------------------------------------
# Vector values
# --------------------------------------------------------------------------


def vector_value(
    interpreter: Interpreter, values: Any, type_: VectorType
) -> ShapedArray[Any]:
    """A new vector of `type_` holding `values` (converted to its elements;
    an i1 true is held as 1, as upstream stores it)."""
    element = type_.get_element_type()
    array = np.asarray(values).reshape(type_.get_shape())
    if is_i1(element):
        array = canonical_i1(array)
    return array_from_numpy(array, element_xtype(element, interpreter.index_bitwidth))


def one_dimensional(op: Operation, type_: Attribute) -> int:
    """The length of a 1-D, fixed-length vector type; any other is refused,
    naming `op`."""
    if not isinstance(type_, VectorType):
        raise InterpretationError(f"{op.name}: expected a vector, got {type_}")
    if type_.get_num_scalable_dims():
        raise InterpretationError(
            f"{op.name}: scalable vectors are not supported, got {type_}"
        )
    if len(type_.get_shape()) != 1:
        raise InterpretationError(
            f"{op.name}: only 1-D vectors are supported, got {type_}"
        )
    return type_.get_shape()[0]


# --------------------------------------------------------------------------
# Lane by lane: scalar semantics on vectors
# --------------------------------------------------------------------------


def has_vector_type(op: Operation) -> bool:
    """Whether an operand or a result of `op` is a vector."""
    return any(isinstance(r.type, VectorType) for r in op.results) or any(
        isinstance(o.type, VectorType) for o in op.operands
    )


def _lane_type(type_: Attribute) -> Attribute:
    return element_type_or_self(type_) if isinstance(type_, VectorType) else type_


def _lane_op(interpreter: Interpreter, op: Operation) -> Operation:
    """`op` on the vectors' element types (made once per op): what the
    scalar functions, which read their op's types, run for each lane. Its
    operands are arguments of a block of its own; it is never inserted."""
    lane_ops: dict[Operation, Operation] = interpreter.get_data(
        VectorOpFunctions, "lane_ops", dict
    )
    lane_op = lane_ops.get(op)
    if lane_op is None:
        block = Block(arg_types=[_lane_type(o.type) for o in op.operands])
        lane_op = type(op).create(
            operands=block.args,
            result_types=[_lane_type(r.type) for r in op.results],
            properties=dict(op.properties),
            attributes=dict(op.attributes),
        )
        lane_ops[op] = lane_op
    return lane_op


ScalarRun = Callable[[Any, Interpreter, Operation, PythonValues], PythonValues]


def run_lanewise(
    run: ScalarRun, functions: Any, interpreter: Interpreter, op: Operation, args
) -> PythonValues:
    """Run the scalar function `run` of `op` once per lane of its vector
    operands (a scalar operand is the same in every lane) and gather each
    result's lanes into a new vector."""
    vector_types = [
        v.type for v in (*op.results, *op.operands) if isinstance(v.type, VectorType)
    ]
    for result in op.results:
        if not isinstance(result.type, VectorType):
            # xDSL 0.74 types `arith.cmpf` of vectors as giving one i1.
            raise InterpretationError(
                f"{op.name}: vector operands need a vector result, got {result.type}"
            )
    shape = tuple(vector_types[0].get_shape())
    lanes = int(np.prod(shape))
    operand_lanes = [
        numpy_view(a).ravel().tolist()
        if isinstance(o.type, VectorType)
        else [a] * lanes
        for o, a in zip(op.operands, args, strict=True)
    ]
    lane_op = _lane_op(interpreter, op)
    results: list[list[Any]] = [[] for _ in op.results]
    for lane in range(lanes):
        values = run(
            functions, interpreter, lane_op, tuple(a[lane] for a in operand_lanes)
        )
        for gathered, value in zip(results, values, strict=True):
            gathered.append(value)
    return tuple(
        vector_value(interpreter, values, cast(VectorType, r.type))
        for r, values in zip(op.results, results, strict=True)
    )


def lanewise(run: ScalarRun, whole_vectors: bool = False) -> ScalarRun:
    """`run` (the function of a scalar op) extended to vector operands: lane
    by lane, or, with `whole_vectors` (for functions already elementwise on
    shaped values, whose lanes come out the same), on the whole vectors."""

    def run_any(
        functions: Any, interpreter: Interpreter, op: Operation, args: PythonValues
    ) -> PythonValues:
        # Vectors come as ShapedArrays: most calls, on scalars, stop at the
        # first test (a plain loop: this is on every scalar op's path).
        for arg in args:
            if isinstance(arg, ShapedArray):
                break
        else:
            return run(functions, interpreter, op, args)
        if whole_vectors or not has_vector_type(op):
            return run(functions, interpreter, op, args)
        return run_lanewise(run, functions, interpreter, op, args)

    run_any.__doc__ = run.__doc__
    return run_any


# --------------------------------------------------------------------------
# Fused multiply-add with one rounding
# --------------------------------------------------------------------------


def _narrow_fma(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
    """a·b + c rounded once to the (f16 or f32) type of `a`.

    The product of two f32 (or f16) values is exact in f64 (2×24 bits < 53),
    and Knuth's TwoSum splits the sum into `high + low` exactly, `high` its
    rounding to f64. Rounding `high` to the narrow type gives the single
    rounding of the exact sum, except when `high` lies exactly halfway
    between two narrow values: then the sign of `low` says which way the
    exact sum lies. (Not handled: a sum exactly at the overflow threshold,
    halfway between the largest finite value and infinity.)
    """
    dtype = a.dtype
    a64, b64, c64 = (x.astype(np.float64) for x in (a, b, c))
    product = a64 * b64
    high = product + c64
    c_part = high - product
    product_part = high - c_part
    low = (product - product_part) + (c64 - c_part)
    rounded = high.astype(dtype)
    back = rounded.astype(np.float64)
    toward = np.where(high > back, np.inf, -np.inf).astype(dtype)
    neighbour = np.nextafter(rounded, toward)
    halfway = (high != back) & ((back + neighbour.astype(np.float64)) / 2 == high)
    fix = halfway & (low != 0)
    corrected = np.where(
        low > 0, np.maximum(rounded, neighbour), np.minimum(rounded, neighbour)
    )
    return np.where(fix, corrected, rounded).astype(dtype)


def _wide_fma(a: float, b: float, c: float) -> float:
    """a·b + c rounded once to f64: exact rationals, then one (correct)
    rounding by Python's int division."""
    if not all(np.isfinite((a, b))):
        return a * b + c  # an infinite or NaN product is exact; so is the sum
    if not np.isfinite(c):
        return c  # a finite product does not change an infinite or NaN c
    exact = Fraction(a) * Fraction(b) + Fraction(c)
    if exact == 0:
        # A zero product plus a zero c keeps IEEE's sign rule (-0 + -0 is
        # -0); a cancellation is +0.
        return a * b + c if a * b == 0 and c == 0 else 0.0
    try:
        return float(exact)
    except OverflowError:
        return float("inf") if exact > 0 else float("-inf")


def fused_multiply_add(a: Any, b: Any, c: Any) -> np.ndarray:
    """a·b + c elementwise with one rounding to the type of `a` (numpy
    scalars or arrays of f16, f32 or f64), as `llvm.intr.fma` computes it."""
    a_array = np.asarray(a)
    dtype = a_array.dtype
    b_array, c_array = np.asarray(b, dtype=dtype), np.asarray(c, dtype=dtype)
    with np.errstate(all="ignore"):
        if dtype != np.float64:
            return _narrow_fma(a_array, b_array, c_array)
        lanes = np.broadcast_arrays(a_array, b_array, c_array)
        values = [
            _wide_fma(x, y, z)
            for x, y, z in zip(*(v.ravel().tolist() for v in lanes), strict=True)
        ]
        return np.asarray(values, dtype=dtype).reshape(lanes[0].shape)


# --------------------------------------------------------------------------
# Memory accesses
# --------------------------------------------------------------------------


def vector_access_message(
    op_name: str, type_: Attribute, indices: Sequence[Any], shape: Sequence[Any]
) -> str:
    """`vector.load: vector<16xf32> at index [3, 14] is out of bounds of shape
    [4, 16]`: what an out-of-bounds vector access says (in the interpreter
    and in compiled code)."""
    return (
        f"{op_name}: {type_} at index [{', '.join(str(i) for i in indices)}] "
        f"is out of bounds of shape [{', '.join(str(s) for s in shape)}]"
    )


def _accessed(
    interpreter: Interpreter,
    op: vector.LoadOp | vector.StoreOp,
    type_: Attribute,
    memref: ShapedArray[Any],
    indices: Sequence[int],
) -> np.ndarray:
    """The elements of `memref` (a numpy view of them) a vector access of
    `type_` at `indices` reaches: along the last dimension, as memref.load
    finds each (through the view's strides)."""
    length = one_dimensional(op, type_)
    tracker = allocation_tracker(interpreter)
    if tracker.freed:
        tracker.check_live(op, memref)
    shape = list(memref.shape)
    if (
        not shape
        or len(indices) != len(shape)
        or not all(0 <= i < s for i, s in zip(indices[:-1], shape[:-1], strict=True))
        or not 0 <= indices[-1] <= shape[-1] - length
    ):
        raise InterpretationError(vector_access_message(op.name, type_, indices, shape))
    *leading, last = indices
    return numpy_view(memref)[(*leading, slice(last, last + length))]


# --------------------------------------------------------------------------
# Reductions
# --------------------------------------------------------------------------


def _maximumf(a: Any, b: Any) -> Any:
    """arith.maximumf: NaN if either is; +0 is above -0."""
    if np.isnan(a) or np.isnan(b):
        return a if np.isnan(a) else b
    if a == b == 0:
        return b if np.signbit(a) else a
    return max(a, b)


def _minimumf(a: Any, b: Any) -> Any:
    """arith.minimumf: NaN if either is; -0 is below +0."""
    if np.isnan(a) or np.isnan(b):
        return a if np.isnan(a) else b
    if a == b == 0:
        return a if np.signbit(a) else b
    return min(a, b)


FLOAT_COMBINERS: dict[str, Callable[[Any, Any], Any]] = {
    "add": lambda a, b: a + b,
    "mul": lambda a, b: a * b,
    "maxnumf": np.fmax,
    "minnumf": np.fmin,
    "maximumf": _maximumf,
    "minimumf": _minimumf,
}
"""Each float kind of `vector.reduction` on two numpy scalars of the element
type (so every step rounds to it)."""

INTEGER_COMBINERS: dict[str, tuple[bool, Callable[[int, int], int]]] = {
    "add": (True, lambda a, b: a + b),
    "mul": (True, lambda a, b: a * b),
    "minsi": (True, min),
    "maxsi": (True, max),
    "minui": (False, min),
    "maxui": (False, max),
    "and": (False, lambda a, b: a & b),
    "or": (False, lambda a, b: a | b),
    "xor": (False, lambda a, b: a ^ b),
}
"""Each integer kind: (operands read as signed?, function); results wrap."""


def _reduce(
    interpreter: Interpreter, op: vector.ReductionOp, lanes: list[Any], acc: Any
) -> Any:
    kind = op.kind.data.value
    element = element_type_or_self(op.vector.type)
    values = lanes if acc is None else [acc, *lanes]
    if isinstance(element, AnyFloat) and kind in FLOAT_COMBINERS:
        combine = FLOAT_COMBINERS[kind]
        dtype = _float_dtype(element)
        result = dtype.type(values[0])
        with np.errstate(all="ignore"):
            for value in values[1:]:
                result = dtype.type(combine(result, dtype.type(value)))
        return float(result)
    if isinstance(element, IntegerType | IndexType) and kind in INTEGER_COMBINERS:
        width = (
            interpreter.index_bitwidth
            if isinstance(element, IndexType)
            else element.width.data
        )
        signed, combine = INTEGER_COMBINERS[kind]
        convert = to_signed if signed else to_unsigned
        result = convert(values[0], width)
        for value in values[1:]:
            result = convert(combine(result, convert(value, width)), width)
        return to_signed(result, width)
    raise InterpretationError(
        f"{op.name}: <{kind}> of {op.vector.type} is not supported"
    )


def _float_dtype(element: Attribute) -> np.dtype:
    """The numpy dtype of a float element type (f16, f32, f64)."""
    dtypes = {16: np.float16, 32: np.float32, 64: np.float64}
    assert isinstance(element, AnyFloat)
    dtype = dtypes.get(element.bitwidth)
    if dtype is None:
        raise InterpretationError(f"element type {element} cannot be interpreted")
    return np.dtype(dtype)


def _position(op: vector.ExtractOp | vector.InsertOp, dynamic: Sequence[int]) -> int:
    """The one lane a 1-D extract or insert names, checked."""
    type_ = op.vector.type if isinstance(op, vector.ExtractOp) else op.dest.type
    length = one_dimensional(op, type_)
    values = iter(dynamic)
    position = [
        next(values) if p == DYNAMIC_INDEX else p
        for p in op.static_position.get_values()
    ]
    if len(position) != 1 or not 0 <= position[0] < length:
        raise InterpretationError(
            f"{op.name}: position {position} is out of bounds of {type_}"
        )
    return position[0]


@register_impls
class VectorOpFunctions(InterpreterFunctions):
    """The `vector` ops above, and `arith.constant` of a vector (other
    constants as `TensorOpFunctions` runs them). Registered last, over
    xDSL's own and ours."""

    @impl(arith.ConstantOp)
    def run_constant(
        self, interpreter: Interpreter, op: arith.ConstantOp, args: PythonValues
    ) -> PythonValues:
        type_ = op.result.type
        value = op.value
        if not isinstance(type_, VectorType):
            return TensorOpFunctions().run_constant(interpreter, op, args).values
        if not isinstance(value, DenseIntOrFPElementsAttr):
            raise InterpretationError(f"{op.name}: {value} is not a dense vector")
        if type_.get_num_scalable_dims():
            raise InterpretationError(
                f"{op.name}: scalable vectors are not supported, got {type_}"
            )
        elements = np.array(value.get_values())
        if value.is_splat():
            elements = np.full(type_.get_shape(), elements.reshape(-1)[0])
        return (vector_value(interpreter, elements, type_),)

    @impl(vector.LoadOp)
    def run_load(
        self, interpreter: Interpreter, op: vector.LoadOp, args: PythonValues
    ) -> PythonValues:
        memref, *indices = args
        elements = _accessed(interpreter, op, op.result.type, memref, indices)
        return (array_from_numpy(elements, memref.data_ptr.xtype),)

    @impl(vector.StoreOp)
    def run_store(
        self, interpreter: Interpreter, op: vector.StoreOp, args: PythonValues
    ) -> PythonValues:
        value, memref, *indices = args
        elements = _accessed(interpreter, op, op.vector.type, memref, indices)
        elements[...] = numpy_view(value)
        return ()

    @impl(vector.BroadcastOp)
    def run_broadcast(
        self, interpreter: Interpreter, op: vector.BroadcastOp, args: PythonValues
    ) -> PythonValues:
        if isinstance(op.source.type, VectorType):
            raise InterpretationError(
                f"{op.name}: only a scalar source is supported, got {op.source.type}"
            )
        length = one_dimensional(op, op.vector.type)
        (value,) = args
        return (vector_value(interpreter, [value] * length, op.vector.type),)

    @impl(vector.FMAOp)
    def run_fma(
        self, interpreter: Interpreter, op: vector.FMAOp, args: PythonValues
    ) -> PythonValues:
        one_dimensional(op, op.res.type)
        a, b, c = (numpy_view(v) for v in args)
        return (vector_value(interpreter, fused_multiply_add(a, b, c), op.res.type),)

    @impl(vector.ReductionOp)
    def run_reduction(
        self, interpreter: Interpreter, op: vector.ReductionOp, args: PythonValues
    ) -> PythonValues:
        one_dimensional(op, op.vector.type)
        element = element_type_or_self(op.vector.type)
        if op.dest.type != element:
            # As xDSL 0.74's ReductionOp constructor types it.
            raise InterpretationError(
                f"{op.name}: the result is typed {op.dest.type}, not the element "
                f"type {element}"
            )
        source, *acc = args
        lanes = numpy_view(source).tolist()
        return (_reduce(interpreter, op, lanes, acc[0] if acc else None),)

    @impl(vector.ExtractOp)
    def run_extract(
        self, interpreter: Interpreter, op: vector.ExtractOp, args: PythonValues
    ) -> PythonValues:
        source, *dynamic = args
        if not len(op.static_position) and op.result.type == op.vector.type:
            return (source,)
        return (numpy_view(source)[_position(op, dynamic)].item(),)

    @impl(vector.InsertOp)
    def run_insert(
        self, interpreter: Interpreter, op: vector.InsertOp, args: PythonValues
    ) -> PythonValues:
        value, destination, *dynamic = args
        if not len(op.static_position) and op.source.type == op.dest.type:
            return (value,)
        lane = _position(op, dynamic)
        lanes = numpy_view(destination).copy()
        lanes[lane] = value
        return (vector_value(interpreter, lanes, op.result.type),)
