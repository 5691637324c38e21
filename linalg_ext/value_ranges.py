"""Random inputs with bounds: `linalg-ext-check`'s `--range` and the valid
positions it gives scatter indices.

A `ValueRange` (`parse_value_range("%indices=0:7")`, the syntax of
`--range`: `[@FUNCTION:]ARGUMENT=LOW:HIGH`, ARGUMENT a `%name` of the
signature or a position from 0) bounds the random values of one argument,
both bounds included: floats drawn uniformly, integers and indices whole
(and within their type). The indices operand of a `linalg_ext.scatter` that
is an argument (through casts) is bounded by default to the positions of
the destination's dimensions, when their extents are known: column k of an
index addresses dimension k. `random_trial_inputs` makes each trial's
inputs: `linalg_ext.running.random_inputs`'s, then the bounded arguments
drawn again (so that, without bounds, the inputs are the same as without
this module). A bad range is a `ValueRangeError` saying why.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from xdsl.dialects import func
from xdsl.dialects.builtin import AnyFloat, IndexType, IntegerType, ShapedType
from xdsl.ir import Attribute, BlockArgument, OpResult, SSAValue

from linalg_ext.dialect.scatter import ScatterOp
from linalg_ext.running import INDEX_BITWIDTH, random_inputs
from linalg_ext.semantics.arrays import numpy_dtype
from linalg_ext.shaped import element_type_or_self, shape_of

__all__ = [
    "Bounds",
    "ValueRange",
    "ValueRangeError",
    "argument_bounds",
    "argument_index",
    "parse_value_range",
    "random_trial_inputs",
]


class ValueRangeError(ValueError):
    """A value range that does not parse or does not fit its argument."""


_RANGE = re.compile(
    r"^(?:@(?P<function>[^:=\s]+):)?(?:%(?P<name>[\w$.-]+)|(?P<position>\d+))"
    r"=(?P<low>[^:]+):(?P<high>.+)$"
)


@dataclass(frozen=True)
class ValueRange:
    """Random values of one argument in [low, high], both included (whole
    numbers for an integer or index argument, each element of a shaped one)."""

    argument: int | str
    """The argument's position (from 0), or its name in the signature
    (`%indices` is "indices")."""
    low: int | float
    high: int | float
    function: str | None = None
    """Only for this function's argument (else for every function checked)."""

    def __str__(self) -> str:
        where = f"@{self.function}:" if self.function is not None else ""
        what = f"%{self.argument}" if isinstance(self.argument, str) else ""
        what = what or str(self.argument)
        return f"{where}{what}={self.low}:{self.high}"


def _number(text: str) -> int | float:
    try:
        return int(text)
    except ValueError:
        return float(text)


def parse_value_range(text: str) -> ValueRange:
    """`[@FUNCTION:]ARGUMENT=LOW:HIGH`: ARGUMENT is `%name` (as the function's
    signature names it) or a position from 0; LOW and HIGH are numbers.
    Raises ValueRangeError for anything else."""
    found = _RANGE.match(text.strip())
    try:
        if found is None:
            raise ValueError
        low, high = _number(found["low"]), _number(found["high"])
    except ValueError:
        raise ValueRangeError(
            f"bad value range {text!r}: expected [@FUNCTION:]ARGUMENT=LOW:HIGH, "
            "ARGUMENT a %name or a position from 0 (e.g. %indices=0:7 or 1=-2.5:2.5)"
        ) from None
    if not low <= high:
        raise ValueRangeError(f"bad value range {text!r}: {low} is above {high}")
    argument = found["name"] if found["name"] is not None else int(found["position"])
    return ValueRange(argument, low, high, found["function"])


Bounds = tuple[Any, Any]
"""Inclusive (low, high); for scatter indices, `high` has one per column."""


def argument_index(function: func.FuncOp, value_range: ValueRange) -> int | None:
    if value_range.function not in (None, function.sym_name.data):
        return None
    arguments = function.body.block.args
    if isinstance(value_range.argument, int):
        return value_range.argument if value_range.argument < len(arguments) else None
    for argument in arguments:
        if argument.name_hint == value_range.argument:
            return argument.index
    return None


def _checked_bounds(value_range: ValueRange, type_: Attribute, where: str) -> Bounds:
    element = element_type_or_self(type_)
    low, high = value_range.low, value_range.high
    if isinstance(element, AnyFloat):
        return (float(low), float(high))
    if not isinstance(element, IntegerType | IndexType):
        raise ValueRangeError(f"value range {value_range}: {where} is of type {type_}")
    if isinstance(low, float) or isinstance(high, float):
        raise ValueRangeError(
            f"value range {value_range}: {where} is of type {type_}, "
            "its bounds must be whole numbers"
        )
    if _is_i1(element):
        smallest, largest = 0, 1
    else:
        info = np.iinfo(numpy_dtype(element, INDEX_BITWIDTH))
        smallest, largest = int(info.min), int(info.max)
    if low < smallest or high > largest:
        raise ValueRangeError(
            f"value range {value_range}: {where} of type {type_} holds "
            f"[{smallest}, {largest}] only"
        )
    return (low, high)


def _is_i1(element: Attribute) -> bool:
    return isinstance(element, IntegerType) and element.width.data == 1


_PASS_THROUGH = frozenset(
    {
        "tensor.cast",
        "memref.cast",
        "bufferization.to_tensor",
        "bufferization.to_buffer",
        "bufferization.to_memref",
    }
)
"""Ops whose result holds their first operand's elements."""


def _source_argument(value: SSAValue, function: func.FuncOp) -> BlockArgument | None:
    """The argument of `function` that `value` is (through casts), if any."""
    while isinstance(value, OpResult):
        op = value.op
        if op.name not in _PASS_THROUGH or not op.operands:
            return None
        value = op.operands[0]
    if not isinstance(value, BlockArgument):
        return None
    return value if value.block is function.body.block else None


def _scatter_index_bounds(function: func.FuncOp, dim_size: int) -> dict[int, Bounds]:
    """Valid positions for the arguments `linalg_ext.scatter` ops take as
    indices: column k of an index addresses dimension k of the scatter's
    destination, so it gets [0, extent - 1] when that extent is known (static,
    or a dynamic extent of an argument, which random inputs make `dim_size`)."""
    bounds: dict[int, Bounds] = {}
    for op in function.walk():
        if not isinstance(op, ScatterOp) or len(op.inputs) != 2 or not op.outputs:
            continue
        argument = _source_argument(op.inputs[0], function)
        indices_type, destination = op.inputs[0].type, op.outputs[0]
        if argument is None or not isinstance(indices_type, ShapedType):
            continue
        depth = shape_of(indices_type)[-1]
        assert isinstance(destination.type, ShapedType)
        extents = list(shape_of(destination.type)[:depth])
        if _source_argument(destination, function) is not None:
            extents = [dim_size if e < 0 else e for e in extents]
        if depth < 0 or len(extents) != depth or any(e <= 0 for e in extents):
            continue
        high = np.array(extents, dtype=np.int64) - 1
        if argument.index in bounds:
            high = np.minimum(high, bounds[argument.index][1])
        bounds[argument.index] = (0, high)
    return bounds


def argument_bounds(
    function: func.FuncOp, ranges: Sequence[ValueRange], dim_size: int
) -> dict[int, Bounds]:
    """The arguments of `function` whose random values are not the default
    ones: scatter indices, then the ranges given (which win)."""
    bounds = _scatter_index_bounds(function, dim_size)
    types = function.function_type.inputs.data
    for value_range in ranges:
        index = argument_index(function, value_range)
        if index is not None:
            where = f"argument #{index} of @{function.sym_name.data}"
            bounds[index] = _checked_bounds(value_range, types[index], where)
    return bounds


def _draw(type_: Attribute, like: Any, bounds: Bounds, rng: np.random.Generator):
    """Random values in `bounds` of the shape of `like`, of `type_`."""
    element = element_type_or_self(type_)
    shape = np.shape(like)
    low, high = bounds
    if isinstance(element, AnyFloat):
        values = rng.uniform(low, high, size=shape)
    else:
        values = rng.integers(low, high, size=shape, endpoint=True)
    values = values.astype(numpy_dtype(element, INDEX_BITWIDTH))
    return values if isinstance(type_, ShapedType) else values.item()


def random_trial_inputs(
    function: func.FuncOp, bounds: dict[int, Bounds], seed: int, dim_size: int
) -> Callable[[int], list[Any]]:
    """Inputs for each trial, from one generator: `random_inputs`'s (so that
    they are the same as without ranges), then the bounded ones replaced."""
    rng = np.random.default_rng(seed)
    types = function.function_type.inputs.data

    def make(trial: int) -> list[Any]:
        inputs = random_inputs(function, rng, dim_size)
        for index, index_bounds in sorted(bounds.items()):
            inputs[index] = _draw(types[index], inputs[index], index_bounds, rng)
        return inputs

    return make
