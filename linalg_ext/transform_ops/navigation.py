"""Interpreter functions of the transform ops that find and regroup payload
ops: `transform.structured.match` with every filter upstream has (xDSL's
refuses `op_attrs`, `interface` and the type filters),
`transform.split_handle`, `transform.merge_handles`,
`transform.param.constant` and `transform.cast`."""

from __future__ import annotations

from xdsl.dialects import affine, scf, transform
from xdsl.interpreter import (
    Interpreter,
    InterpreterFunctions,
    PythonValues,
    impl,
    register_impls,
)
from xdsl.interpreters.transform import OperationHandle
from xdsl.ir import Attribute, Operation, TypeAttribute

from linalg_ext.compat.forall_ops import ForallOp
from linalg_ext.tiling import tiling_model
from linalg_ext.transform_ops.handles import ParamValues, failure, op_handle
from linalg_ext.transform_ops.ops import (
    CastOp,
    MergeHandlesOp,
    ParamConstantOp,
    SplitHandleOp,
)
from linalg_ext.transforms.dps import is_structured

_LOOP_LIKE = (scf.ForOp, scf.WhileOp, scf.ParallelOp, ForallOp, affine.ForOp)


def _implements(op: Operation, interface: transform.MatchInterfaceEnum) -> bool:
    match interface:
        case transform.MatchInterfaceEnum.LINALG_OP:
            return op.name.startswith("linalg.") and is_structured(op)
        case transform.MatchInterfaceEnum.TILING_INTERFACE:
            return tiling_model(op) is not None
        case transform.MatchInterfaceEnum.LOOP_LIKE_INTERFACE:
            return isinstance(op, _LOOP_LIKE)


def _attribute(op: Operation, name: str) -> Attribute | None:
    """The op's attribute `name`, inherent (a property) or discardable, as
    MLIR's `Operation::getAttr` finds it."""
    if name in op.properties:
        return op.properties[name]
    return op.attributes.get(name)


def _matches(match: transform.MatchOp, op: Operation) -> bool:
    """Whether `op` satisfies every filter of `match` (upstream's rules)."""
    if match.ops is not None and op.name not in {n.data for n in match.ops}:
        return False
    if match.interface is not None:
        interface = transform.MATCH_INTERFACES[match.interface.value.data]
        if not _implements(op, interface):
            return False
    if match.op_attrs is not None:
        for name, value in match.op_attrs.data.items():
            if _attribute(op, name) != value:
                return False
    if match.filter_result_type is not None:
        wanted: TypeAttribute = match.filter_result_type
        if len(op.results) != 1 or op.results[0].type != wanted:
            return False
    if match.filter_operand_types is not None:
        types = match.filter_operand_types.data
        operand_types = [operand.type for operand in op.operands]
        if len(types) == 1:
            return all(t == types[0] for t in operand_types)
        return list(types) == operand_types
    return True


@register_impls
class NavigationFunctions(InterpreterFunctions):
    """The impls, registered on xDSL's `TransformFunctions` by `install`."""

    @impl(transform.MatchOp)
    def run_match(
        self, interpreter: Interpreter, op: transform.MatchOp, args: PythonValues
    ) -> PythonValues:
        roots = op_handle(op, args[0], "the target")
        if len(roots.ops) != 1:
            raise failure(
                op, f"requires exactly one target handle (got {len(roots.ops)})"
            )
        # Upstream walks the root and its descendants in post-order.
        found = [
            candidate
            for candidate in roots.ops[0].walk(region_first=True)
            if _matches(op, candidate)
        ]
        return (OperationHandle(*found),)

    @impl(SplitHandleOp)
    def run_split_handle(
        self, interpreter: Interpreter, op: SplitHandleOp, args: PythonValues
    ) -> PythonValues:
        payload = _payload(op, args[0])
        wanted = len(op.results)
        overflow = op.overflow_result
        if not payload and op.pass_through_empty_handle.value.data:
            return tuple(_like(args[0], ()) for _ in range(wanted))
        too_many = len(payload) > wanted and overflow is None
        too_few = len(payload) < wanted and op.fail_on_payload_too_small.value.data
        if too_many or too_few:
            raise failure(
                op,
                f"expected to contain {wanted} payload ops but it contains "
                f"{len(payload)} payload ops",
            )
        if overflow is not None and not 0 <= overflow.value.data < wanted:
            raise failure(op, f"overflow_result {overflow.value.data} is not a result")
        groups: list[list[object]] = [[] for _ in range(wanted)]
        for index, item in enumerate(payload):
            target = index if index < wanted else overflow.value.data  # pyright: ignore[reportOptionalMemberAccess]
            groups[target].append(item)
        return tuple(_like(args[0], tuple(group)) for group in groups)

    @impl(MergeHandlesOp)
    def run_merge_handles(
        self, interpreter: Interpreter, op: MergeHandlesOp, args: PythonValues
    ) -> PythonValues:
        merged: list[object] = []
        for value in args:
            merged.extend(_payload(op, value))
        # `{deduplicate}` in the attribute dictionary means it too (MLIR
        # reads inherent attributes there).
        if op.deduplicate is not None or "deduplicate" in op.attributes:
            unique: list[object] = []
            for item in merged:
                if not any(item is seen for seen in unique):
                    unique.append(item)
            merged = unique
        return (_like(args[0], tuple(merged)),)

    @impl(ParamConstantOp)
    def run_param_constant(
        self,
        interpreter: Interpreter,
        op: ParamConstantOp,
        args: PythonValues,
    ) -> PythonValues:
        return (ParamValues((op.value,)),)

    @impl(CastOp)
    def run_cast(
        self, interpreter: Interpreter, op: CastOp, args: PythonValues
    ) -> PythonValues:
        return (args[0],)


def _payload(op: Operation, value: object) -> tuple[object, ...]:
    """The ops of a handle or the attributes of a parameter."""
    if isinstance(value, ParamValues):
        return value.values
    return op_handle(op, value, "each operand").ops


def _like(value: object, items: tuple[object, ...]) -> object:
    """A handle or parameter of the same kind as `value`, holding `items`."""
    if isinstance(value, ParamValues):
        return ParamValues(items)  # pyright: ignore[reportArgumentType]
    return OperationHandle(*items)  # pyright: ignore[reportArgumentType]
