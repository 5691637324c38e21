"""What a transform script's values hold while `transform-interpreter` runs,
and the one-line failures of a transform op.

Op handles are xDSL's `OperationHandle` (the payload ops, in order).
Parameters (`!transform.param<...>`, from `transform.param.constant`) are
`ParamValues`, the attributes upstream associates with a parameter.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeVar

from xdsl.dialects.builtin import DYNAMIC_INDEX, IndexType, IntegerAttr
from xdsl.interpreters.transform import OperationHandle
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.utils.hints import isa

from linalg_ext.diagnostics import OpPassFailed, source_location
from linalg_ext.transform_ops.definitions import PayloadRefused
from linalg_ext.transforms.mixed_sizes import Mixed

_OpT = TypeVar("_OpT", bound=Operation)


@dataclass(frozen=True)
class ParamValues:
    """The attributes a transform parameter holds (upstream's
    `TransformState::getParams`)."""

    values: tuple[Attribute, ...]


class TransformOpFailed(OpPassFailed):
    """A transform op could not do its work on its payload: located at the
    transform op (`op`), the message says why."""


def failure(
    transform_op: Operation, reason: str, payload: Operation | None = None
) -> TransformOpFailed:
    """The failure of `transform_op`, naming the payload op it is about and
    where that op is, in one line."""
    message = f"'{transform_op.name}' op {reason}"
    if payload is not None:
        where = source_location(payload)
        place = f" at {where[0]}:{where[1]}:{where[2]}" if where else ""
        message += f" (target: {payload.name}{place})"
    return TransformOpFailed(message, transform_op)


def distinct_ops(ops: Sequence[Operation]) -> list[Operation]:
    """The payload ops of a handle, each once, in order (a handle may name
    an op twice, e.g. after `merge_handles`: rewriting it twice would touch
    an erased op)."""
    return list(dict.fromkeys(ops))


def typed_targets(
    transform_op: Operation,
    targets: Sequence[Operation],
    kinds: tuple[type[_OpT], ...],
    message: str,
) -> list[_OpT]:
    """`targets`, each once (`distinct_ops`), every one checked to be one
    of `kinds` before the caller changes any: else the failure `message`,
    naming the first that is not."""
    checked: list[_OpT] = []
    for target in distinct_ops(targets):
        if not isinstance(target, kinds):
            raise failure(transform_op, message, target)
        checked.append(target)
    return checked


def refusal(transform_op: Operation, refused: PayloadRefused) -> TransformOpFailed:
    """The failure of `transform_op` whose payload rewrite refused a payload
    op: the reason, naming that op and where it is."""
    return failure(transform_op, str(refused), refused.payload)


def op_handle(transform_op: Operation, value: object, what: str) -> OperationHandle:
    """`value` as an op handle, or the failure saying the operand is not one."""
    if not isinstance(value, OperationHandle):
        raise failure(transform_op, f"expects {what} to be an op handle")
    return value


def mixed_lists(
    transform_op: Operation,
    static: Sequence[int],
    dynamic: Sequence[object],
    num_targets: int,
    what: str,
) -> list[list[Mixed]]:
    """For each of `num_targets` targets, the list `static` with each
    dynamic marker replaced by the target's value of the next `dynamic`
    operand: a parameter holds one integer per target, a handle one op per
    target whose single `index` result is the value (upstream's rules for
    `tile_sizes`)."""
    per_operand: list[list[Mixed]] = []
    for value in dynamic:
        if isinstance(value, ParamValues):
            if len(value.values) != num_targets:
                raise failure(
                    transform_op,
                    f"expected as many parameter values ({len(value.values)}) "
                    f"as target ops ({num_targets})",
                )
            integers: list[Mixed] = []
            for attr in value.values:
                if not isa(attr, IntegerAttr):
                    raise failure(
                        transform_op, f"expects integer parameters for {what}"
                    )
                integers.append(attr.value.data)
            per_operand.append(integers)
            continue
        handle = op_handle(transform_op, value, what)
        if len(handle.ops) != num_targets:
            raise failure(
                transform_op,
                "expected as many dynamic size-producing operations "
                f"({len(handle.ops)}) as target ops ({num_targets})",
            )
        produced: list[Mixed] = []
        for producer in handle.ops:
            if len(producer.results) != 1 or not isinstance(
                producer.results[0].type, IndexType
            ):
                raise failure(
                    transform_op,
                    "expected sizes to be produced by ops with a single "
                    "index-type result",
                    producer,
                )
            result: SSAValue = producer.results[0]
            produced.append(result)
        per_operand.append(produced)

    lists: list[list[Mixed]] = []
    for target in range(num_targets):
        values = iter(per_operand)
        lists.append(
            [next(values)[target] if s == DYNAMIC_INDEX else s for s in static]
        )
    return lists
