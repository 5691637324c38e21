"""Translating a structured op's body into numpy, once per op.

`compile_body` turns the ops of a body (arith, math, `linalg.index`,
`tensor.extract`) into a `CompiledBody`: one numpy function per op, over
arrays spanning a box of the loops. An op or type it cannot translate raises
`NotVectorisable` (docs/interpreter.md lists which bodies qualify).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from xdsl.dialects import arith
from xdsl.dialects.builtin import FloatAttr, IntegerAttr, TensorType
from xdsl.dialects.linalg import ops as linalg
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.utils.exceptions import InterpretationError

from linalg_ext.semantics.structured.arith_arrays import (
    CASTS,
    CMPI,
    FLOAT_BINARY,
    FLOAT_TESTS,
    FLOAT_UNARY,
    INT_BINARY,
    cmpf,
    cmpi,
    convert,
    fma,
    fpowi,
    in_category,
)
from linalg_ext.semantics.structured.iteration_space import Box, loop_indices
from linalg_ext.semantics.structured.scalars import (
    NotVectorisable,
    Scalar,
    constant_array,
    scalar_of_type,
)

Evaluate = Callable[[Sequence[np.ndarray], Box], np.ndarray]


@dataclass(frozen=True)
class BodyContext:
    ndim: int
    index_bitwidth: int

    def scalar(self, value: SSAValue) -> Scalar:
        return self.scalar_of(value.type)

    def scalar_of(self, type_: Attribute) -> Scalar:
        return scalar_of_type(type_, self.index_bitwidth)


def _same_types(op: Operation, context: BodyContext) -> Scalar:
    """The one scalar type of an op's operands and result."""
    scalars = {context.scalar(v) for v in (*op.operands, *op.results)}
    if len(scalars) != 1:
        raise NotVectorisable(f"{op.name} on mixed types")
    return scalars.pop()


def _build_float_binary(op: Operation, context: BodyContext) -> Evaluate:
    if _same_types(op, context).kind != "float":
        raise NotVectorisable(f"{op.name} on non-floats")
    function = FLOAT_BINARY[op.name]
    return lambda args, box: function(args[0], args[1])


def _build_float_unary(op: Operation, context: BodyContext) -> Evaluate:
    if _same_types(op, context).kind != "float":
        raise NotVectorisable(f"{op.name} on non-floats")
    function = FLOAT_UNARY[op.name]
    return lambda args, box: function(args[0])


def _build_float_test(op: Operation, context: BodyContext) -> Evaluate:
    if context.scalar(op.operands[0]).kind != "float":
        raise NotVectorisable(f"{op.name} on non-floats")
    function = FLOAT_TESTS[op.name]
    return lambda args, box: function(args[0])


def _build_fpowi(op: Operation, context: BodyContext) -> Evaluate:
    base, exponent = (context.scalar(v) for v in op.operands)
    if base.kind != "float" or exponent.kind != "int":
        raise NotVectorisable(f"{op.name} on {base.dtype}, {exponent.dtype}")
    return lambda args, box: fpowi(args[0], args[1])


def _build_fma(op: Operation, context: BodyContext) -> Evaluate:
    if _same_types(op, context).kind != "float":
        raise NotVectorisable(f"{op.name} on non-floats")
    return lambda args, box: fma(args[0], args[1], args[2])


SIGNED_DIVISIONS = frozenset(
    {"arith.divsi", "arith.remsi", "arith.floordivsi", "arith.ceildivsi"}
)
"""Divisions undefined on the minimum value divided by -1."""


def _build_int_binary(op: Operation, context: BodyContext) -> Evaluate:
    scalar = _same_types(op, context)
    function, accepts_bool, divides = INT_BINARY[op.name]
    if scalar.kind == "float" or (scalar.kind == "bool" and not accepts_bool):
        raise NotVectorisable(f"{op.name} on {scalar.dtype}")
    if not divides:
        return lambda args, box: function(args[0], args[1], scalar)
    name = op.name

    signed = name in SIGNED_DIVISIONS
    minimum = -(1 << (scalar.width - 1))

    def divide(args: Sequence[np.ndarray], box: Box) -> np.ndarray:
        # The scalar ops' messages (semantics/scalar_ops.py), which compiled
        # code's run-time checks repeat.
        if np.any(args[1] == 0):
            raise InterpretationError(f"'{name}' divides by zero")
        if signed and np.any((args[1] == -1) & (args[0] == minimum)):
            raise InterpretationError(f"'{name}' of {minimum} by -1 overflows")
        return function(args[0], args[1], scalar)

    return divide


def _build_absi(op: Operation, context: BodyContext) -> Evaluate:
    if _same_types(op, context).kind != "int":
        raise NotVectorisable("math.absi on this type")
    return lambda args, box: np.abs(args[0])


def _build_cmpi(op: Operation, context: BodyContext) -> Evaluate:
    assert isinstance(op, arith.CmpiOp)
    scalar = context.scalar(op.operands[0])
    predicate = op.predicate.value.data
    if scalar.kind == "float" or predicate not in CMPI:
        raise NotVectorisable(f"arith.cmpi predicate {predicate}")
    return lambda args, box: cmpi(predicate, args[0], args[1], scalar)


def _build_cmpf(op: Operation, context: BodyContext) -> Evaluate:
    if context.scalar(op.operands[0]).kind != "float":
        raise NotVectorisable("arith.cmpf on non-floats")
    assert isinstance(op, arith.CmpfOp)
    predicate = op.predicate.value.data
    return lambda args, box: cmpf(predicate, args[0], args[1])


def _build_select(op: Operation, context: BodyContext) -> Evaluate:
    if context.scalar(op.operands[0]).kind != "bool":
        raise NotVectorisable("arith.select on a non-i1 condition")
    context.scalar(op.results[0])
    return lambda args, box: np.where(args[0], args[1], args[2])


def _build_cast(op: Operation, context: BodyContext) -> Evaluate:
    source = context.scalar(op.operands[0])
    target = context.scalar(op.results[0])
    source_category, target_category = CASTS[op.name]
    if not (
        in_category(source, source_category) and in_category(target, target_category)
    ):
        raise NotVectorisable(f"{op.name} from {source.dtype} to {target.dtype}")
    if op.name == "arith.bitcast" and source.width != target.width:
        raise NotVectorisable("arith.bitcast between widths")
    name = op.name
    return lambda args, box: convert(name, args[0], source, target)


def _build_constant(op: Operation, context: BodyContext) -> Evaluate:
    assert isinstance(op, arith.ConstantOp)
    attribute = op.value
    if not isinstance(attribute, IntegerAttr | FloatAttr):
        raise NotVectorisable(f"arith.constant {attribute}")
    constant = constant_array(
        attribute.value.data, context.scalar(op.results[0]), context.ndim
    )
    return lambda args, box: constant


def _build_index(op: Operation, context: BodyContext) -> Evaluate:
    assert isinstance(op, linalg.IndexOp)
    dim = op.dim.value.data
    if not 0 <= dim < context.ndim:
        raise NotVectorisable(f"linalg.index {dim} of {context.ndim} loops")
    return lambda args, box: loop_indices(box, dim)


def _build_extract(op: Operation, context: BodyContext) -> Evaluate:
    # Reads a tensor defined outside the body at computed indices (a gather).
    source_type = op.operands[0].type
    if not isinstance(source_type, TensorType):
        raise NotVectorisable("tensor.extract from a non-tensor")
    context.scalar_of(source_type.get_element_type())
    for index in op.operands[1:]:
        context.scalar(index)

    def extract(args: Sequence[np.ndarray], box: Box) -> np.ndarray:
        source, indices = args[0], args[1:]
        for axis, (index, size) in enumerate(zip(indices, source.shape, strict=True)):
            if np.any(index < 0) or np.any(index >= size):
                raise InterpretationError(
                    f"tensor.extract: index {int(np.max(index))} or "
                    f"{int(np.min(index))} out of bounds for dimension {axis} "
                    f"of size {size}"
                )
        if not indices:
            return source.reshape((1,) * context.ndim)
        return source[tuple(indices)]

    return extract


_BUILDERS: dict[str, Callable[[Operation, BodyContext], Evaluate]] = {
    **dict.fromkeys(FLOAT_BINARY, _build_float_binary),
    **dict.fromkeys(FLOAT_UNARY, _build_float_unary),
    **dict.fromkeys(FLOAT_TESTS, _build_float_test),
    **dict.fromkeys(INT_BINARY, _build_int_binary),
    **dict.fromkeys(CASTS, _build_cast),
    "math.fma": _build_fma,
    "math.fpowi": _build_fpowi,
    "math.absi": _build_absi,
    "arith.cmpi": _build_cmpi,
    "arith.cmpf": _build_cmpf,
    "arith.select": _build_select,
    "arith.constant": _build_constant,
    "linalg.index": _build_index,
    "tensor.extract": _build_extract,
}


@dataclass
class _Step:
    result: SSAValue
    operands: tuple[SSAValue, ...]
    evaluate: Evaluate
    dtype: np.dtype[Any]


@dataclass
class CompiledBody:
    """A body as numpy functions over arrays spanning a box of the loops.

    Every value is an array with one axis per loop, of the box's extent along
    the loops it depends on and of extent 1 along the others.
    """

    arguments: tuple[SSAValue, ...]
    steps: list[_Step]
    yielded: tuple[SSAValue, ...]
    captured: dict[SSAValue, Attribute]
    """Values the body uses from outside, with their types."""
    producers: dict[SSAValue, int] = field(default_factory=dict)
    _needed: dict[tuple[SSAValue, ...], tuple[list[_Step], set[SSAValue]]] = field(
        default_factory=dict
    )

    def needed(
        self, targets: tuple[SSAValue, ...]
    ) -> tuple[list[_Step], set[SSAValue]]:
        """The steps computing `targets`, in order, and the leaves they read."""
        if targets not in self._needed:
            wanted: set[int] = set()
            leaves: set[SSAValue] = set()
            pending = list(targets)
            while pending:
                value = pending.pop()
                position = self.producers.get(value)
                if position is None:
                    leaves.add(value)
                elif position not in wanted:
                    wanted.add(position)
                    pending.extend(self.steps[position].operands)
            steps = [self.steps[i] for i in sorted(wanted)]
            self._needed[targets] = (steps, leaves)
        return self._needed[targets]

    def evaluate(
        self,
        targets: tuple[SSAValue, ...],
        leaf: Callable[[SSAValue], np.ndarray],
        box: Box,
    ) -> list[np.ndarray]:
        steps, leaves = self.needed(targets)
        values = {value: leaf(value) for value in leaves}
        for step in steps:
            result = step.evaluate([values[v] for v in step.operands], box)
            if result.dtype != step.dtype:
                result = result.astype(step.dtype)
            values[step.result] = result
        return [values[t] for t in targets]


def compile_body(block: Block, context: BodyContext) -> CompiledBody:
    defined: set[SSAValue] = set(block.args)
    captured: dict[SSAValue, Attribute] = {}
    steps: list[_Step] = []
    terminator = block.last_op
    if not isinstance(terminator, linalg.YieldOp):
        raise NotVectorisable("a body not ended by linalg.yield")
    for arg in block.args:
        context.scalar(arg)
    for op in block.ops:
        if op is terminator:
            break
        builder = _BUILDERS.get(op.name)
        if builder is None or len(op.results) != 1 or op.regions:
            raise NotVectorisable(op.name)
        for operand in op.operands:
            if operand not in defined and operand not in captured:
                captured[operand] = operand.type
        steps.append(
            _Step(
                op.results[0],
                tuple(op.operands),
                builder(op, context),
                context.scalar(op.results[0]).dtype,
            )
        )
        defined.add(op.results[0])
    for value in terminator.operands:
        if value not in defined and value not in captured:
            captured[value] = value.type
    for type_ in captured.values():
        if not isinstance(type_, TensorType):
            context.scalar_of(type_)
    return CompiledBody(
        arguments=tuple(block.args),
        steps=steps,
        yielded=tuple(terminator.operands),
        captured=captured,
        producers={step.result: i for i, step in enumerate(steps)},
    )
