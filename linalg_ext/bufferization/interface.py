"""The bufferization interface: what an op tells One-Shot Bufferize.

An op takes part in bufferization through a *model*: an object answering a
few questions about the op's tensor operands and results (does this operand
get read? written? which results may share its buffer, and are they then the
very same buffer?) and rewriting the op to memrefs. The analysis
(`analysis.py`) only asks the questions; the rewrite (`bufferizer.py`) only
calls `bufferize`. Models are registered per op class:

    from linalg_ext.bufferization import BufferizableOpModel, register_model

    class MyOpModel(BufferizableOpModel):
        def reads(self, operand, state): ...
        def writes(self, operand, state): ...
        def aliasing_values(self, operand, state): ...
        def bufferize(self, op, bufferizer): ...

    register_model(MyOp, MyOpModel())

Every method has the default MLIR's interface has, so a model only says
what is special about its op. `docs/bufferization.md` explains each
question with examples.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING

from xdsl.dialects.builtin import MemRefType, TensorType
from xdsl.ir import BlockArgument, Operation, OpResult, SSAValue

if TYPE_CHECKING:
    from linalg_ext.bufferization.analysis import AnalysisState
    from linalg_ext.bufferization.bufferizer import Bufferizer


class BufferRelation(Enum):
    """How a result's buffer relates to an aliasing operand's buffer."""

    EQUIVALENT = "equivalent"
    """The very same buffer (same address, same shape)."""
    UNKNOWN = "unknown"
    """Possibly overlapping memory: a view into it, or one of several."""


@dataclass(frozen=True)
class OpOperand:
    """One operand slot of an op (MLIR's `OpOperand`), hashable."""

    op: Operation
    index: int

    @property
    def value(self) -> SSAValue:
        return self.op.operands[self.index]

    def __repr__(self) -> str:
        return f"OpOperand({self.op.name}, #{self.index})"


@dataclass(frozen=True)
class AliasingValue:
    """A value that may share the buffer of an operand, if it is in place."""

    value: SSAValue
    relation: BufferRelation
    definite: bool = True
    """False when the value aliases one of several operands (a `select`, a
    branch's yield): then it is not known to be this one."""


@dataclass(frozen=True)
class AliasingOperand:
    """The inverse view: an operand whose buffer a value may share."""

    operand: OpOperand
    relation: BufferRelation
    definite: bool = True


def is_tensor(value: SSAValue) -> bool:
    return isinstance(value.type, TensorType)


def tensor_operands(op: Operation) -> list[OpOperand]:
    return [OpOperand(op, i) for i, v in enumerate(op.operands) if is_tensor(v)]


def owner_of(value: SSAValue) -> Operation | None:
    """The op a value belongs to: its defining op, or for a block argument
    the op whose region holds the block."""
    if isinstance(value, OpResult):
        return value.op
    if isinstance(value, BlockArgument):
        return value.block.parent_op()
    return None


class BufferizableOpModel:
    """How an op bufferizes. Subclass it and override what differs from the
    defaults (those of MLIR's `BufferizableOpInterface`)."""

    # ----------------------------------------------------------------- analysis

    def reads(self, operand: OpOperand, state: AnalysisState) -> bool:
        """Whether the op reads the operand's buffer. Default: yes (safe)."""
        return True

    def writes(self, operand: OpOperand, state: AnalysisState) -> bool:
        """Whether the op writes the operand's buffer, if it is given that
        buffer (in place). Default: no."""
        return False

    def aliasing_values(
        self, operand: OpOperand, state: AnalysisState
    ) -> list[AliasingValue]:
        """The op's results (or region arguments) that share the operand's
        buffer when the operand bufferizes in place. Default: none."""
        return []

    def aliasing_operands(
        self, value: SSAValue, state: AnalysisState
    ) -> list[AliasingOperand]:
        """The operands whose buffer the result `value` may be. Default: the
        inverse of `aliasing_values` over the op's own tensor operands."""
        op = owner_of(value)
        assert op is not None
        found: list[AliasingOperand] = []
        for operand in tensor_operands(op):
            for alias in self.aliasing_values(operand, state):
                if alias.value is value:
                    found.append(
                        AliasingOperand(operand, alias.relation, alias.definite)
                    )
        return found

    def result_writes(self, value: SSAValue, state: AnalysisState) -> bool:
        """Whether the result is a definition: the op gives it new contents
        (it is where a reader's value is written). Default as MLIR's: a
        result with no aliasing operand is new; otherwise, it is a write if
        an aliasing operand is written, or if a write inside the op's regions
        flows into it."""
        aliases = state.aliasing_operands(value)
        if not aliases:
            return True
        if any(state.writes(a.operand) for a in aliases):
            return True
        op = owner_of(value)
        for alias in aliases:
            for definition in state.find_definitions(
                alias.operand, inside=op, follow_leaves=False
            ):
                if definition is not value:
                    return True
        return False

    def allocates(self, value: SSAValue) -> bool:
        """Whether the result bufferizes to a new allocation."""
        return False

    def is_writable(self, value: SSAValue, state: AnalysisState) -> bool:
        """Whether the buffer of a result or region argument may be written.
        Default: yes."""
        return True

    def must_bufferize_in_place(self, operand: OpOperand, state: AnalysisState) -> bool:
        return False

    def is_elementwise_access(
        self, op: Operation, operands: list[OpOperand], state: AnalysisState
    ) -> bool:
        """Whether every element of these operands is read before the same
        element is written and no other element is read after: then an input
        and an output may share one buffer."""
        return False

    def is_not_conflicting(
        self, read: OpOperand, write: OpOperand, state: AnalysisState
    ) -> bool:
        """An op-specific exception to a read-after-write conflict."""
        return False

    def is_repetitive_region(self, op: Operation, region_index: int) -> bool:
        """Whether the region may run several times (a loop body)."""
        return False

    def is_parallel_region(self, op: Operation, region_index: int) -> bool:
        """Whether the region's iterations may run concurrently (an
        `scf.forall` body)."""
        return False

    def has_exclusive_regions(self, op: Operation) -> bool:
        """Whether at most one of the op's regions runs (an `scf.if`)."""
        return False

    def verify_analysis(self, op: Operation, state: AnalysisState) -> str | None:
        """A reason the op cannot bufferize with these decisions, if any."""
        return None

    # ------------------------------------------------------------------ rewrite

    def buffer_type(self, value: SSAValue, bufferizer: Bufferizer) -> MemRefType:
        """The memref type the value bufferizes to. Default: that of the
        first aliasing operand, else an identity-layout memref."""
        aliases = self.aliasing_operands(value, bufferizer.state)
        if aliases:
            source = bufferizer.buffer_type(aliases[0].operand.value)
            assert isinstance(value.type, TensorType)
            return with_shape(source, value.type)
        assert isinstance(value.type, TensorType)
        return bufferizer.default_type(value.type)

    def bufferize(self, op: Operation, bufferizer: Bufferizer) -> None:
        """Rewrite `op` to memrefs. Operands' buffers come from
        `bufferizer.buffer(value)`; results are replaced with
        `bufferizer.replace_op(op, buffers)`. Every out-of-place operand has
        already been copied: the op may write any operand buffer it is given."""
        raise NotImplementedError(f"{type(self).__name__} cannot bufferize")


def with_shape(source: MemRefType, tensor_type: TensorType) -> MemRefType:
    """`source`'s layout and memory space with `tensor_type`'s shape and
    element type."""
    return MemRefType(
        tensor_type.get_element_type(),
        tensor_type.get_shape(),
        source.layout,
        source.memory_space,
    )


_MODELS: dict[type[Operation], BufferizableOpModel] = {}


def register_model(op_type: type[Operation], model: BufferizableOpModel) -> None:
    """Make ops of `op_type` (and its subclasses) bufferizable with `model`.
    A later registration for the same class replaces the earlier one."""
    _MODELS[op_type] = model


def model_for(op: Operation) -> BufferizableOpModel | None:
    """The model of `op`'s class or of its nearest registered base class."""
    for cls in type(op).__mro__:
        model = _MODELS.get(cls)  # pyright: ignore[reportArgumentType]
        if model is not None:
            return model
    return None


def tensor_type_of(value: SSAValue) -> TensorType:
    type_ = value.type
    assert isinstance(type_, TensorType), f"expected a tensor, got {type_}"
    return type_  # pyright: ignore[reportUnknownVariableType]


def memref_of(value: SSAValue) -> MemRefType:
    type_ = value.type
    assert isinstance(type_, MemRefType), f"expected a memref, got {type_}"
    return type_  # pyright: ignore[reportUnknownVariableType]
