"""Folding a Linalg op whose operands are all constants into a constant.

`ConstantFolder.fold(op)` computes the results of a structured `linalg` op
on tensors (`linalg.transpose`, `linalg.broadcast`, `linalg.generic`, the
named elementwise ops, ...) whose operands are all known at compile time,
by running the op on the project's interpreter: the interpreter is what the
op means, so the folded constant is bit for bit what the op would compute.

An operand is known when it is made, without arguments, by

- an `arith.constant` of a dense tensor (splat or not) or of a scalar (a
  `dense_resource` constant is not folded: its bytes live outside the IR);
- a `tensor.empty` of a static shape;
- a `linalg.fill` on tensors of known operands;

and so is a value the op's body uses from outside it (a scalar constant
defined above a `linalg.generic`). Nothing is folded when a result or a
known operand has more than `max_elements` elements, when a result shape is
not static, or when the interpreter refuses the op. A result that depends on
the undefined elements of a `tensor.empty` (an op that reads its init, like
`linalg.matmul` into an empty tensor) is not folded either: the op is run
once for each of the interpreter's fresh-buffer patterns
(`linalg_ext.semantics.fresh_buffers`), and folded only if all runs agree.

Nor is an op whose result is larger than each dense constant it reads
(more than 1024 elements and not a splat): a `linalg.broadcast` of a bias
runs as fast as a copy of the constant it would become, which only costs
compile time and memory.

`linalg.fill` itself is never folded (a fill is cheaper than a constant it
would become), and neither is an op with no tensor input.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from math import prod
from typing import Any

import numpy as np
from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    FloatAttr,
    IntegerAttr,
    ModuleOp,
    TensorType,
)
from xdsl.dialects.linalg.ops import FillOp
from xdsl.interpreter import Interpreter
from xdsl.interpreters.shaped_array import ShapedArray
from xdsl.ir import Attribute, Operation, OpResult, SSAValue
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.utils.exceptions import InterpretationError

from linalg_ext.running import make_interpreter
from linalg_ext.semantics.arrays import canonical_i1, is_i1, numpy_view
from linalg_ext.semantics.fresh_buffers import PATTERNS, FreshFill, filling
from linalg_ext.transforms.dps import has_pure_tensor_semantics, is_structured

DEFAULT_MAX_ELEMENTS = 1 << 16
"""The largest result (and known operand), in elements, folded by default."""

_REFUSALS = (InterpretationError, ValueError, TypeError, OverflowError, IndexError)
"""What evaluating an op or building its constant may raise when the op
cannot be folded (the op is then left alone; it fails, if it does, when it
runs)."""


def _elements(type_: Attribute) -> int | None:
    """The element count of a static tensor type (1 for a scalar), or None."""
    if not isinstance(type_, TensorType):
        return 1
    shape = type_.get_shape()
    if any(extent < 0 for extent in shape):
        return None
    return prod(shape)


def _captured_values(op: Operation) -> list[SSAValue]:
    """The values the op's regions use that are defined outside the op."""
    inside = {id(nested) for nested in op.walk()}
    captured: dict[int, SSAValue] = {}
    for nested in op.walk():
        if nested is op:
            continue
        for operand in nested.operands:
            owner = operand.owner
            defining = owner if isinstance(owner, Operation) else owner.parent_op()
            if defining is None or id(defining) not in inside:
                captured.setdefault(id(operand), operand)
    return list(captured.values())


def _result_array(value: Any, type_: Attribute) -> np.ndarray | None:
    """A tensor result as a numpy copy (i1 as 0/1), or None if not shaped."""
    if not isinstance(value, ShapedArray) or not isinstance(type_, TensorType):
        return None
    array = numpy_view(value).copy()
    return canonical_i1(array) if is_i1(type_.get_element_type()) else array


def _same_bits(first: np.ndarray, second: np.ndarray) -> bool:
    return (
        first.dtype == second.dtype
        and first.shape == second.shape
        and first.tobytes() == second.tobytes()
    )


def _is_splat(flat: np.ndarray) -> bool:
    """Whether every element has the bits of the first (NaNs and signed zeros
    compared by their bits, not by value)."""
    if flat.size <= 1:
        return False
    rows = np.ascontiguousarray(flat).view(np.uint8).reshape(flat.size, -1)
    return bool((rows == rows[0]).all())


def dense_attribute(
    array: np.ndarray, type_: TensorType[Any]
) -> DenseIntOrFPElementsAttr | None:
    """A dense attribute of `type_` holding `array` (a splat when all its
    elements have the same bits), or None if xDSL cannot hold its elements."""
    flat = array.reshape(-1)
    if _is_splat(flat):
        flat = flat[:1]
    values: list[Any] = flat.tolist()
    try:
        return DenseIntOrFPElementsAttr.from_list(type_, values)
    except _REFUSALS:
        return None


@dataclass
class _Plan:
    """How to compute an op: the ops making its known operands (producers
    first), and a `tensor.empty` (in no block) standing for each init that
    is not known."""

    producers: list[Operation]
    stand_ins: dict[SSAValue, tensor.EmptyOp]


class ConstantFolder:
    """Folds Linalg ops of known operands in one module (see the module
    docstring); one interpreter serves every fold."""

    def __init__(self, module: ModuleOp, max_elements: int = DEFAULT_MAX_ELEMENTS):
        self.module = module
        self.max_elements = max_elements
        self._interpreter: Interpreter | None = None
        # Ops the interpreter ran but that were not folded (they read
        # undefined elements, or their constant would not read back): their
        # operands are all known, so asking again gives the same answer.
        self._refused: dict[int, Operation] = {}

    @property
    def interpreter(self) -> Interpreter:
        if self._interpreter is None:
            self._interpreter = make_interpreter(self.module)
        return self._interpreter

    # -- what may be folded ------------------------------------------------

    def _small(self, type_: Attribute) -> bool:
        count = _elements(type_)
        return count is not None and count <= self.max_elements

    def _known_producers(self, value: SSAValue, found: list[Operation]) -> bool:
        """Whether `value` is known at compile time; appends the ops that
        make it (producers first) to `found`."""
        if not isinstance(value, OpResult) or not self._small(value.type):
            return False
        op = value.op
        if any(op is seen for seen in found):
            return True
        if isinstance(op, arith.ConstantOp):
            known = isinstance(op.value, FloatAttr | IntegerAttr) or (
                isinstance(op.value, DenseIntOrFPElementsAttr)
                and isinstance(op.result.type, TensorType)
            )
        elif isinstance(op, tensor.EmptyOp):
            known = not op.operands
        elif isinstance(op, FillOp):
            known = has_pure_tensor_semantics(op) and all(
                self._known_producers(operand, found) for operand in op.operands
            )
        else:
            known = False
        if known:
            found.append(op)
        return known

    def plan(self, op: Operation) -> _Plan | None:
        """How to compute a foldable `op`, or None if it is not foldable."""
        if (
            not op.name.startswith("linalg.")
            or isinstance(op, FillOp)
            or not is_structured(op)
            or not has_pure_tensor_semantics(op)
            or not op.results
            or not all(self._small(result.type) for result in op.results)
            or not any(isinstance(v.type, TensorType) for v in op.inputs)  # pyright: ignore[reportAttributeAccessIssue]
        ):
            return None
        found: list[Operation] = []
        stand_ins: dict[SSAValue, tensor.EmptyOp] = {}
        outputs: list[SSAValue] = list(op.outputs)  # pyright: ignore[reportAttributeAccessIssue]
        for value in captured_and_operands(op):
            if self._known_producers(value, found):
                continue
            if value in outputs and self._small(value.type):
                # An unknown init: a fresh tensor in its place, whose
                # undefined elements the result must not depend on.
                stand_ins[value] = tensor.EmptyOp([], value.type)
                continue
            return None
        return _Plan(found, stand_ins)

    # -- folding -----------------------------------------------------------

    def _run(self, op: Operation, plan: _Plan) -> list[np.ndarray] | None:
        """The op's results, computed by the interpreter from its producers
        (run in a scope of their own), or None if it refuses."""
        interpreter = self.interpreter
        interpreter.push_scope("constant-fold")
        try:
            for producer in plan.producers:
                inputs = interpreter.get_values(producer.operands)
                outputs = interpreter.run_op(producer, inputs)
                interpreter.set_values(zip(producer.results, outputs, strict=True))
            for value, stand_in in plan.stand_ins.items():
                (fresh,) = interpreter.run_op(stand_in, ())
                interpreter.set_values([(value, fresh)])
            outputs = interpreter.run_op(op, interpreter.get_values(op.operands))
        except _REFUSALS:
            return None
        finally:
            interpreter.pop_scope()
        arrays = [
            _result_array(value, result.type)
            for value, result in zip(outputs, op.results, strict=True)
        ]
        if any(array is None for array in arrays):
            return None
        return [array for array in arrays if array is not None]

    def _reread(self, constant: arith.ConstantOp) -> np.ndarray | None:
        """What the interpreter makes of a new constant."""
        try:
            (value,) = self.interpreter.run_op(constant, ())
        except _REFUSALS:
            return None
        return _result_array(value, constant.result.type)

    def fold(self, op: Operation) -> list[arith.ConstantOp] | None:
        """One `arith.constant` per result of `op`, holding what `op`
        computes, or None if `op` is not folded."""
        if id(op) in self._refused and self._refused[id(op)] is op:
            return None
        plan = self.plan(op)
        if plan is None:
            return None
        constants = self._fold_planned(op, plan)
        if constants is None:
            self._refused[id(op)] = op
        return constants

    def _fold_planned(
        self, op: Operation, plan: _Plan
    ) -> list[arith.ConstantOp] | None:
        reads_fresh = plan.stand_ins or any(
            isinstance(p, tensor.EmptyOp) for p in plan.producers
        )
        patterns = PATTERNS if reads_fresh else PATTERNS[:1]
        computed: list[np.ndarray] | None = None
        for pattern in patterns:
            with filling(FreshFill(pattern)):
                arrays = self._run(op, plan)
            if arrays is None:
                return None
            if computed is None:
                computed = arrays
            elif not all(map(_same_bits, computed, arrays)):
                # The results depend on undefined elements: nothing to fold.
                return None
        assert computed is not None
        if any(_grows(array, plan) for array in computed):
            return None
        constants: list[arith.ConstantOp] = []
        for array, result in zip(computed, op.results, strict=True):
            assert isinstance(result.type, TensorType)
            attribute = dense_attribute(array, result.type)
            if attribute is None:
                return None
            constant = arith.ConstantOp(attribute, result.type)
            # The constant must read back as the very bits computed.
            reread = self._reread(constant)
            if reread is None or not _same_bits(reread, array):
                return None
            constants.append(constant)
        return constants


SMALL_RESULT = 1024
"""Results of at most this many elements are folded even when they are
larger than every constant they are computed from."""


def _grows(array: np.ndarray, plan: _Plan) -> bool:
    """Whether folding makes a larger constant than the op's constant
    inputs, for nothing: a `linalg.broadcast` of a bias is as fast as the
    copy of its folded result, and the larger constant costs compile time
    and memory. Splat results (a broadcast of a splat) cost one element."""
    if array.size <= SMALL_RESULT or _is_splat(array.reshape(-1)):
        return False
    largest = max(
        (
            _elements(producer.result.type) or 0
            for producer in plan.producers
            if isinstance(producer, arith.ConstantOp)
            and isinstance(producer.value, DenseIntOrFPElementsAttr)
        ),
        default=0,
    )
    return array.size > largest


def erase_unused_producers(
    values: Sequence[SSAValue], rewriter: PatternRewriter
) -> None:
    """Erase the ops a fold may leave unused: the `arith.constant`,
    `tensor.empty` and tensor `linalg.fill` ops making `values` (and, in
    turn, their own operands). A `linalg.fill` is not side-effect free to
    xDSL's dead code elimination, so it would otherwise stay."""
    worklist = [v.op for v in values if isinstance(v, OpResult)]
    while worklist:
        op = worklist.pop()
        if op.parent is None or any(result.uses for result in op.results):
            continue
        if isinstance(op, arith.ConstantOp | tensor.EmptyOp) or (
            isinstance(op, FillOp) and has_pure_tensor_semantics(op)
        ):
            operands = list(op.operands)
            rewriter.erase(op)
            worklist.extend(v.op for v in operands if isinstance(v, OpResult))


def captured_and_operands(op: Operation) -> list[SSAValue]:
    """The op's operands and the values its regions use from outside it."""
    return [*op.operands, *_captured_values(op)]
