"""Running a compiled body with numpy: the whole space, or step by step.

`VectorisedRun` is one execution of a planned computation: over the whole
iteration space at once (cut into chunks of at most `CHUNK_POINTS` points
along a loop every output keeps), or one step per point of the reduction
loops, vectorised over the loops all outputs share.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from itertools import product
from typing import Any

import numpy as np
from xdsl.dialects.builtin import TensorType
from xdsl.interpreter import Interpreter
from xdsl.ir import SSAValue

from linalg_ext.semantics.arrays import numpy_view
from linalg_ext.semantics.structured.body import BodyContext
from linalg_ext.semantics.structured.computation import StructuredComputation
from linalg_ext.semantics.structured.folding import contract_product, fold_along
from linalg_ext.semantics.structured.iteration_space import (
    Box,
    full_box,
    load_operand,
    store_output,
)
from linalg_ext.semantics.structured.planning import OutputPlan, Plan, projected_dims
from linalg_ext.semantics.structured.scalars import constant_array, to_compute

# Whole-space evaluation materialises arrays as large as the iteration space
# (a broadcast product, say). Past this many points the space is cut into
# chunks along a loop every output keeps, so temporaries stay in the tens of MB.
CHUNK_POINTS = 1 << 22


class VectorisedRun:
    """One execution of a computation: operand arrays, loop ranges, the plan."""

    def __init__(
        self,
        interpreter: Interpreter,
        computation: StructuredComputation,
        plan: Plan,
        arrays: list[Any],
        ranges: tuple[int, ...],
    ):
        self.computation = computation
        self.plan = plan
        self.arrays = arrays
        self.ranges = ranges
        self.num_inputs = len(computation.inputs)
        body = plan.body
        assert body is not None
        self.body = body
        context = BodyContext(len(ranges), interpreter.index_bitwidth)
        self.scalars = [context.scalar(arg) for arg in body.arguments]
        self.positions = {arg: i for i, arg in enumerate(body.arguments)}
        self.captured: dict[SSAValue, np.ndarray] = {}
        for value, type_ in body.captured.items():
            (python_value,) = interpreter.get_values((value,))
            if isinstance(type_, TensorType):
                scalar = context.scalar_of(type_.get_element_type())
                self.captured[value] = to_compute(numpy_view(python_value), scalar)
            else:
                self.captured[value] = constant_array(
                    python_value, context.scalar_of(type_), len(ranges)
                )

    def leaves(self, box: Box) -> Callable[[SSAValue], np.ndarray]:
        """The body's arguments and captured values over `box`."""

        def leaf(value: SSAValue) -> np.ndarray:
            position = self.positions.get(value)
            if position is None:
                return self.captured[value]
            array = self.arrays[position]
            scalar = self.scalars[position]
            if not isinstance(array, np.ndarray):
                return constant_array(array, scalar, len(box))
            loaded = load_operand(
                array, self.computation.maps[position], box, self.computation.name
            )
            return to_compute(loaded, scalar)

        return leaf

    def write(self, finals: list[tuple[int, np.ndarray]], box: Box) -> None:
        """Store every output's values only once all are computed: a value may
        be a view of another output, as in a body yielding its arguments."""
        outputs = self.arrays[self.num_inputs :]
        safe = []
        for index, values in finals:
            if any(np.may_share_memory(values, out) for out in outputs):
                values = values.copy()
            safe.append((index, values))
        for index, values in safe:
            dims = projected_dims(self.computation.maps[self.num_inputs + index])
            assert dims is not None
            store_output(outputs[index], dims, values, box)

    def whole_space(self) -> None:
        outputs = self.plan.outputs
        assert outputs is not None
        for box in self._chunks():
            self.write(self._finals(outputs, box), box)

    def _finals(
        self, outputs: list[OutputPlan], box: Box
    ) -> list[tuple[int, np.ndarray]]:
        leaf = self.leaves(box)
        cache: dict[SSAValue, np.ndarray] = {}

        def values(*wanted: SSAValue) -> list[np.ndarray]:
            missing = tuple(v for v in wanted if v not in cache)
            if missing:
                computed = self.body.evaluate(
                    missing, lambda v: cache[v] if v in cache else leaf(v), box
                )
                cache.update(zip(missing, computed, strict=True))
            return [cache[v] for v in wanted]

        finals: list[tuple[int, np.ndarray]] = []
        for index, output in enumerate(outputs):
            position = self.num_inputs + index
            scalar = self.scalars[position]
            axes = output.reduced
            if output.kind == "unchanged":
                continue
            assert output.value is not None
            if output.kind == "pointwise":
                (result,) = values(output.value)
            elif output.kind == "last":
                (result,) = values(output.value)
                last = tuple(
                    slice(-1, None)
                    if d in axes and result.shape[d] != 1
                    else slice(None)
                    for d in range(len(box))
                )
                result = result[last]
            else:
                combiner = output.combiner
                assert combiner is not None
                (initial,) = values(self.body.arguments[position])
                result = None
                if output.factors is not None:
                    lhs, rhs = values(*output.factors)
                    summed = contract_product(lhs, rhs, axes, box)
                    if summed is not None:
                        result = combiner.combine(initial, summed).astype(scalar.dtype)
                if result is None:
                    (term,) = values(output.value)
                    result = fold_along(combiner, scalar, initial, term, axes, box)
            finals.append((index, result))
        return finals

    def _chunks(self) -> Iterator[Box]:
        full = full_box(self.ranges)
        total = math.prod(self.ranges)
        shared = self.plan.shared_dims
        if total <= CHUNK_POINTS or not shared:
            yield full
            return
        dim = max(shared, key=lambda d: self.ranges[d])
        per_index = total // self.ranges[dim]
        length = max(1, CHUNK_POINTS // per_index)
        for start in range(0, self.ranges[dim], length):
            box = list(full)
            box[dim] = (start, min(start + length, self.ranges[dim]))
            yield tuple(box)

    def stepwise(self) -> None:
        """One step per point of the loops some output folds over, in
        lexicographic order, each vectorised over the loops all outputs use.

        An element of an output sees the same sequence of updates as in the
        loop nest: the points updating it differ only in the stepped loops."""
        shared = self.plan.shared_dims
        stepped = [d for d in range(len(self.ranges)) if d not in shared]
        yielded = self.body.yielded
        for point in product(*(range(self.ranges[d]) for d in stepped)):
            box = list(full_box(self.ranges))
            for dim, value in zip(stepped, point, strict=True):
                box[dim] = (value, value + 1)
            step_box = tuple(box)
            results = self.body.evaluate(yielded, self.leaves(step_box), step_box)
            self.write(list(enumerate(results)), step_box)
