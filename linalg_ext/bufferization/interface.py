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

This module is the bottom of the package: it imports nothing of it but
`options`. What a model may ask of the analysis and of the rewrite is
spelled out here as two protocols (`AnalysisQueries`, `BufferizerServices`),
which `analysis_state.AnalysisState` and `bufferizer.Bufferizer` implement;
models therefore never import the analysis or the rewriter.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Protocol

from xdsl.dialects import func
from xdsl.dialects.builtin import FunctionType, MemRefType, ModuleOp, TensorType
from xdsl.ir import Attribute, BlockArgument, Operation, OpResult, Region, SSAValue

from linalg_ext.bufferization.options import BufferizationOptions


class BufferizationError(Exception):
    """Bufferization cannot proceed; the message names the op and why."""

    def __init__(self, op: Operation | None, reason: str):
        self.op = op
        self.reason = reason
        where = f"'{op.name}': " if op is not None else ""
        super().__init__(f"{where}{reason}")


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


def has_tensor_semantics(op: Operation) -> bool:
    """Whether the op touches tensors: a tensor operand or result, a tensor
    region argument, or (a function) a tensor in its signature (MLIR's
    `bufferization::hasTensorSemantics`: the ops bufferization visits).
    Looser than `transforms.dps.has_pure_tensor_semantics` (no buffer at
    all): an op mixing tensors and memrefs, or returning a scalar from a
    tensor, still has to be bufferized."""
    if isinstance(op, func.FuncOp):
        function_type = op.function_type
        return any(
            isinstance(t, TensorType)
            for t in (*function_type.inputs, *function_type.outputs)
        )
    if any(is_tensor(v) for v in op.operands) or any(is_tensor(r) for r in op.results):
        return True
    return any(
        is_tensor(arg)
        for region in op.regions
        for block in region.blocks
        for arg in block.args
    )


def owner_of(value: SSAValue) -> Operation | None:
    """The op a value belongs to: its defining op, or for a block argument
    the op whose region holds the block."""
    if isinstance(value, OpResult):
        return value.op
    if isinstance(value, BlockArgument):
        return value.block.parent_op()
    return None


@dataclass
class FunctionFacts:
    """What callers need to know about a function's tensor arguments (the
    analysis records them with `bufferize-function-boundaries`)."""

    read: set[int] = field(default_factory=set[int])
    written: set[int] = field(default_factory=set[int])
    equivalent_arg: dict[int, int] = field(default_factory=dict[int, int])
    """Result index -> the argument it is the very buffer of."""
    aliasing_args: dict[int, list[int]] = field(default_factory=dict[int, list[int]])
    """Result index -> arguments it may alias (including equivalent ones)."""


class AnalysisQueries(Protocol):
    """What a model may ask of the analysis (`analysis_state.AnalysisState`
    answers). Defined here so that models need not import the analysis."""

    options: BufferizationOptions
    function_facts: dict[str, FunctionFacts]

    def model(self, op: Operation) -> BufferizableOpModel | None: ...

    def reads(self, operand: OpOperand) -> bool: ...

    def writes(self, operand: OpOperand) -> bool: ...

    def aliasing_values(self, operand: OpOperand) -> list[AliasingValue]: ...

    def aliasing_operands(self, value: SSAValue) -> list[AliasingOperand]: ...

    def is_in_place(self, operand: OpOperand) -> bool: ...

    def reverse_chain(
        self,
        start: SSAValue,
        condition: Callable[[SSAValue], bool],
        *,
        include_leaves: bool,
        equivalent_only: bool = False,
        in_place_only: bool = False,
    ) -> list[SSAValue]: ...

    def find_definitions(
        self,
        operand: OpOperand,
        *,
        inside: Operation | None = None,
        follow_leaves: bool = False,
    ) -> list[SSAValue]: ...

    def is_value_read(self, value: SSAValue) -> bool: ...

    def alias_set(self, value: SSAValue) -> list[SSAValue]: ...

    def are_equivalent(self, a: SSAValue, b: SSAValue) -> bool: ...

    def repetitive_region(self, op_or_value: Operation | SSAValue) -> Region | None: ...


class BufferizerServices(Protocol):
    """What a model's rewrite may use (`bufferizer.Bufferizer` provides it).
    Defined here so that models need not import the rewriter."""

    module: ModuleOp
    options: BufferizationOptions
    function_types: dict[str, FunctionType]
    buffer_types: dict[SSAValue, MemRefType]

    # Read-only, so that the rewriter may hold the analysis's own type.
    @property
    def state(self) -> AnalysisQueries: ...

    def default_type(self, tensor_type: TensorType) -> MemRefType: ...

    def buffer_type(self, value: SSAValue) -> MemRefType: ...

    def insert(self, *ops: Operation) -> None: ...

    def index_constant(self, value: int) -> SSAValue: ...

    def buffer(self, value: SSAValue) -> SSAValue: ...

    def buffer_as(self, value: SSAValue, memref_type: MemRefType) -> SSAValue: ...

    def cast(self, buffer: SSAValue, memref_type: MemRefType) -> SSAValue: ...

    def dynamic_sizes_of(self, buffer: SSAValue) -> list[SSAValue]: ...

    def allocate(
        self, memref_type: MemRefType, dynamic_sizes: Sequence[SSAValue] = ()
    ) -> SSAValue: ...

    def allocate_like(
        self, buffer: SSAValue, like: MemRefType | None = None
    ) -> SSAValue: ...

    def copy(self, source: SSAValue, destination: SSAValue) -> None: ...

    def replace_op(self, op: Operation, values: Sequence[SSAValue | None]) -> None: ...

    def erase(self, op: Operation) -> None: ...

    def new_global_name(self, prefix: str) -> str: ...


def buffer_as_if_tensor(
    bufferizer: BufferizerServices, value: SSAValue, type_: Attribute
) -> SSAValue:
    """A tensor `value`'s buffer as `type_` (then a memref type, as a
    bufferized signature or loop gives it), any other value itself."""
    if not is_tensor(value):
        return value
    assert isinstance(type_, MemRefType)
    return bufferizer.buffer_as(value, type_)


class BufferizableOpModel:
    """How an op bufferizes. Subclass it and override what differs from the
    defaults (those of MLIR's `BufferizableOpInterface`)."""

    # ----------------------------------------------------------------- analysis

    def reads(self, operand: OpOperand, state: AnalysisQueries) -> bool:
        """Whether the op reads the operand's buffer. Default: yes (safe)."""
        return True

    def writes(self, operand: OpOperand, state: AnalysisQueries) -> bool:
        """Whether the op writes the operand's buffer, if it is given that
        buffer (in place). Default: no."""
        return False

    def aliasing_values(
        self, operand: OpOperand, state: AnalysisQueries
    ) -> list[AliasingValue]:
        """The op's results (or region arguments) that share the operand's
        buffer when the operand bufferizes in place. Default: none."""
        return []

    def aliasing_operands(
        self, value: SSAValue, state: AnalysisQueries
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

    def result_writes(self, value: SSAValue, state: AnalysisQueries) -> bool:
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

    def is_writable(self, value: SSAValue, state: AnalysisQueries) -> bool:
        """Whether the buffer of a result or region argument may be written.
        Default: yes."""
        return True

    def must_bufferize_in_place(
        self, operand: OpOperand, state: AnalysisQueries
    ) -> bool:
        return False

    def is_elementwise_access(
        self, op: Operation, operands: list[OpOperand], state: AnalysisQueries
    ) -> bool:
        """Whether every element of these operands is read before the same
        element is written and no other element is read after: then an input
        and an output may share one buffer."""
        return False

    def is_not_conflicting(
        self, read: OpOperand, write: OpOperand, state: AnalysisQueries
    ) -> bool:
        """An op-specific exception to a read-after-write conflict."""
        return False

    def must_not_share(self, operand: OpOperand, state: AnalysisQueries) -> bool:
        """Whether `operand` must be out of place because an operand of the
        same op already in place would share its buffer where the op needs
        two (an op-specific conflict the read-after-write rule cannot see)."""
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

    def verify_analysis(self, op: Operation, state: AnalysisQueries) -> str | None:
        """A reason the op cannot bufferize with these decisions, if any."""
        return None

    # ------------------------------------------------------------------ rewrite

    def buffer_type(
        self, value: SSAValue, bufferizer: BufferizerServices
    ) -> MemRefType:
        """The memref type the value bufferizes to. Default: that of the
        first aliasing operand, else an identity-layout memref."""
        aliases = self.aliasing_operands(value, bufferizer.state)
        if aliases:
            source = bufferizer.buffer_type(aliases[0].operand.value)
            assert isinstance(value.type, TensorType)
            return with_shape(source, value.type)
        assert isinstance(value.type, TensorType)
        return bufferizer.default_type(value.type)

    def bufferize(self, op: Operation, bufferizer: BufferizerServices) -> None:
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
        model = _MODELS.get(cls)
        if model is not None:
            return model
    return None


def tensor_type_of(value: SSAValue) -> TensorType:
    type_ = value.type
    assert isinstance(type_, TensorType), f"expected a tensor, got {type_}"
    return type_


def memref_of(value: SSAValue) -> MemRefType:
    type_ = value.type
    assert isinstance(type_, MemRefType), f"expected a memref, got {type_}"
    return type_
