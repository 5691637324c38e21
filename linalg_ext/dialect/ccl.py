"""The `ccl` dialect: ByteIR's collective communication op `ccl.all_reduce`.

ByteIR (compiler/include/byteir/Dialect/Ccl/IR/CclOps.td) declares no custom
syntax for it, so it is written, and printed, in MLIR's generic form:

    %r = "ccl.all_reduce"(%src) {reduction = "sum", replica_groups = [[0, 1]]}
        : (tensor<8xf32>) -> tensor<8xf32>

(one line in the IR). Its options are inherent attributes, as in ByteIR:
`reduction` ("sum", "prod", "max", "min" or "avg"), `replica_groups` (a list
of lists of replica ids), `unique_id` (an `i64`) and `synchronous` (a bool,
which newer ByteIR adds); the replica groups may instead come at run time as
a second operand, `dynamic_replica_groups` (a rank-2 tensor of integers or
indices). The newer ByteIR form with the options as properties,
`"ccl.all_reduce"(%src) <{reduction = "sum"}> : ...`, is read with the same
meaning (and printed as attributes). The result has the type of `src`.

What it computes on the single device our interpreter and JIT model is
defined in docs/ccl.md and by `replica_groups_for`: the replicas of an
all-reduce are the iterations of the `scf.forall` whose body holds it (one
replica when it is in none).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import ClassVar

from xdsl.dialects.builtin import (
    ArrayAttr,
    BoolAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    StringAttr,
    TensorType,
    i64,
)
from xdsl.ir import Attribute, Dialect, Operation, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    attr_def,
    irdl_op_definition,
    operand_def,
    opt_attr_def,
    opt_operand_def,
    result_def,
)
from xdsl.utils.hints import isa

from linalg_ext.diagnostics import source_location
from linalg_ext.verification import op_error

REDUCTIONS = ("sum", "prod", "max", "min", "avg")
"""The values of `reduction` (ByteIR's `getRedOp*Name`)."""


class CclUnsupported(Exception):
    """Why an all-reduce cannot run on one device (message without the op
    name; callers locate it at the op)."""


@irdl_op_definition
class AllReduceOp(IRDLOperation):
    """`ccl.all_reduce`: every replica of a group gets the `reduction` of the
    `src` values of all replicas of its group (see the module docstring)."""

    name = "ccl.all_reduce"

    src = operand_def(TensorType)
    dynamic_replica_groups = opt_operand_def(TensorType)
    reduction = attr_def(StringAttr)
    replica_groups = opt_attr_def(ArrayAttr)
    unique_id = opt_attr_def(IntegerAttr[IntegerType])
    synchronous = opt_attr_def(BoolAttr)
    result = result_def(TensorType)

    _OPTIONS: ClassVar[tuple[str, ...]] = (
        "reduction",
        "replica_groups",
        "unique_id",
        "synchronous",
    )

    def __init__(
        self,
        src: SSAValue,
        reduction: str,
        replica_groups: Sequence[Sequence[int]] | None = None,
        unique_id: int | None = None,
    ):
        attributes: dict[str, Attribute] = {"reduction": StringAttr(reduction)}
        if replica_groups is not None:
            attributes["replica_groups"] = ArrayAttr(
                [ArrayAttr([IntegerAttr(i, i64) for i in g]) for g in replica_groups]
            )
        if unique_id is not None:
            attributes["unique_id"] = IntegerAttr(unique_id, i64)
        super().__init__(
            operands=[src, []],
            attributes=attributes,
            result_types=[src.type],
        )

    @classmethod
    def create(
        cls,
        *,
        operands: Sequence[SSAValue] = (),
        result_types: Sequence[Attribute] = (),
        properties: Mapping[str, Attribute] = {},
        attributes: Mapping[str, Attribute] = {},
        **kwargs: object,
    ):
        # Newer ByteIR prints the options as properties (`<{...}>`): the same
        # inherent attributes, kept here in the attribute dictionary.
        moved = {k: v for k, v in properties.items() if k in cls._OPTIONS}
        rest = {k: v for k, v in properties.items() if k not in cls._OPTIONS}
        return super().create(
            operands=operands,
            result_types=result_types,
            properties=rest,
            attributes={**moved, **attributes},
            **kwargs,  # pyright: ignore[reportArgumentType]
        )

    def groups(self) -> list[list[int]] | None:
        """The static replica groups (None when absent)."""
        if self.replica_groups is None:
            return None
        groups: list[list[int]] = []
        for group in self.replica_groups.data:
            if not isa(group, ArrayAttr[IntegerAttr]):
                return None
            groups.append([entry.value.data for entry in group.data])
        return groups

    def verify_(self) -> None:
        if self.reduction.data not in REDUCTIONS:
            op_error(self, f"unknown reduction str: {self.reduction.data}")
        if self.result.type != self.src.type:
            op_error(
                self,
                f"expects the result type {self.result.type} to be the type of "
                f"src {self.src.type}",
            )
        dynamic = self.dynamic_replica_groups
        if dynamic is not None and self.replica_groups is not None:
            op_error(
                self,
                "dynamic_replica_groups and replica_groups can't exist simultaneously",
            )
        if dynamic is not None:
            assert isinstance(dynamic.type, TensorType)
            element = dynamic.type.element_type
            if not isinstance(element, IndexType | IntegerType):
                op_error(
                    self,
                    "dynamic_replica_groups's element type should be index or integer",
                )
            if dynamic.type.get_num_dims() != 2:
                op_error(self, "dynamic_replica_groups's rank should equal to 2")
        if self.replica_groups is not None:
            groups = self.groups()
            if groups is None:
                op_error(
                    self,
                    "expects replica_groups to be a list of lists of integers",
                )
            for group in groups:
                seen: set[int] = set()
                for replica in group:
                    if replica in seen:
                        op_error(self, f"replica id #{replica} seen more than once")
                    seen.add(replica)


def replica_groups_for(op: AllReduceOp, num_replicas: int) -> list[list[int]]:
    """The groups of replicas `0 .. num_replicas - 1` whose values `op`
    combines, each in ascending replica order, or `CclUnsupported`.

    No `replica_groups`: one group of all replicas. Otherwise every replica
    must be in exactly one group, and no group may name a replica that does
    not exist (ByteIR's verifier lets a replica be in two groups; on one
    device that has no meaning)."""
    if op.dynamic_replica_groups is not None:
        raise CclUnsupported("dynamic_replica_groups are not supported on one device")
    groups = op.groups()
    if groups is None:
        return [list(range(num_replicas))]
    seen: set[int] = set()
    for group in groups:
        for replica in group:
            if not 0 <= replica < num_replicas:
                where = (
                    "there is one device (the op is in no scf.forall)"
                    if num_replicas == 1
                    else f"its scf.forall has {num_replicas} iterations"
                )
                raise CclUnsupported(
                    f"replica groups {groups} name replica {replica}, but {where}"
                )
            if replica in seen:
                raise CclUnsupported(
                    f"replica groups {groups} put replica {replica} in two groups"
                )
            seen.add(replica)
    if len(seen) != num_replicas:
        missing = sorted(set(range(num_replicas)) - seen)
        raise CclUnsupported(
            f"replica groups {groups} leave out replicas {missing} of the "
            f"{num_replicas} iterations of its scf.forall"
        )
    return [sorted(group) for group in groups]


def located(op: Operation, reason: str) -> str:
    """`reason` as a one-line diagnostic about `op`, at its source location
    when it has one (`file:line:col: 'ccl.all_reduce' op reason`)."""
    message = f"'{op.name}' op {reason}"
    where = source_location(op)
    return f"{where[0]}:{where[1]}:{where[2]}: {message}" if where else message


def enclosing_forall(op: Operation) -> Operation | None:
    """The `scf.forall` whose body block directly holds `op`, or None."""
    block = op.parent_block()
    parent = op.parent_op()
    if parent is None or parent.name != "scf.forall" or block is None:
        return None
    return parent


Ccl = Dialect("ccl", [AllReduceOp])
"""ByteIR's collective communication dialect: `ccl.all_reduce`."""
