"""The base of the destination-passing `linalg_ext` ops and their memory effects.

`LinalgExtDpsOp` is an op with `ins(...) outs(...)` whose results mirror its
tensor outputs (ByteIR's `LinalgExt_Op`); `DestinationStyleMemoryEffect`
declares what such an op reads and writes.
"""

from __future__ import annotations

from abc import ABC
from collections.abc import Mapping, Sequence
from typing import Protocol, cast

from xdsl.dialects.builtin import ArrayAttr, MemRefType, TensorType
from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.ir import Attribute, Operation, Region, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.traits import (
    EffectInstance,
    IsTerminator,
    MemoryEffect,
    MemoryEffectKind,
    get_effects,
)

from linalg_ext.dialect.verifiers import verify_destination_style
from linalg_ext.iterator_types import iterator_types
from linalg_ext.shaped import rank_of_value


class _InputsAndOutputs(Protocol):
    """What `DestinationStyleMemoryEffect` reads of the ops it is attached to
    (`LinalgExtDpsOp`s and `BatchMatmulOp`)."""

    @property
    def inputs(self) -> Sequence[SSAValue]: ...

    @property
    def outputs(self) -> Sequence[SSAValue]: ...


class DestinationStyleMemoryEffect(MemoryEffect):
    """Reads of memref inputs, reads and writes of memref outputs, and whatever
    the op's body does (unknown if the body has an op of unknown effects).

    On tensors that leaves only the body's effects, so an unused tensor-form op
    is dead and `dce` may remove it; on memrefs the writes keep it alive. This
    is what ByteIR's `getEffects` declares.
    """

    @classmethod
    def get_effects(cls, op: Operation) -> set[EffectInstance] | None:
        operands = cast(_InputsAndOutputs, op)
        effects = set[EffectInstance]()
        for value in operands.inputs:
            if isinstance(value.type, MemRefType):
                effects.add(EffectInstance(MemoryEffectKind.READ, value))
        for value in operands.outputs:
            if isinstance(value.type, MemRefType):
                effects.add(EffectInstance(MemoryEffectKind.READ, value))
                effects.add(EffectInstance(MemoryEffectKind.WRITE, value))
        for region in op.regions:
            for nested in region.walk():
                # The body's terminator only hands values back to this op.
                # (`linalg.yield` declares no effects in xDSL, so ask no trait.)
                # An unregistered op is never taken for a terminator here: its
                # effects are unknown.
                block = nested.parent_block()
                if (
                    block is not None
                    and block.last_op is nested
                    and nested.parent_op() is op
                    and nested.has_trait(IsTerminator, value_if_unregistered=False)
                ):
                    continue
                nested_effects = get_effects(nested)
                if nested_effects is None:
                    return None
                effects.update(nested_effects)
        return effects


def input_loops(
    op: LinalgExtDpsOp, reduced: Sequence[int]
) -> ArrayAttr[IteratorTypeAttr]:
    """The loops of an op iterating over its first input, `reduced` being
    reductions (ByteIR's getLoopIteratorTypes for scan, softmax, topk and
    layer_norm)."""
    return iterator_types(rank_of_value(op.inputs[0]), reduced)


class LinalgExtDpsOp(IRDLOperation, ABC):
    """An op with variadic `inputs` and `outputs` (ByteIR's `LinalgExt_Op`).

    Subclasses implement `verify_operands` for their own operand rules; the
    destination-style rules (pure tensor or memref, results = tensor outputs)
    are checked here first.
    """

    # Operand and result types are checked by the verifier rather than by IRDL
    # constraints, so that a wrong type is reported with the operand's name.
    inputs = var_operand_def()
    outputs = var_operand_def()
    res = var_result_def()

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(DestinationStyleMemoryEffect())

    def __init__(
        self,
        inputs: Sequence[SSAValue],
        outputs: Sequence[SSAValue],
        *,
        properties: Mapping[str, Attribute | None] | None = None,
        attributes: Mapping[str, Attribute | None] | None = None,
        regions: Sequence[Region] = (),
    ):
        super().__init__(
            operands=[inputs, outputs],
            result_types=[[o.type for o in outputs if isinstance(o.type, TensorType)]],
            properties=properties,
            attributes=attributes,
            regions=regions,
        )

    def verify_(self) -> None:
        roles = [(f"input #{i}", v) for i, v in enumerate(self.inputs)]
        roles += [(f"output #{i}", v) for i, v in enumerate(self.outputs)]
        verify_destination_style(self, roles, self.outputs, self.res)
        self.verify_operands()

    def verify_operands(self) -> None:
        raise NotImplementedError

    def reads_output(self, index: int) -> bool:
        """Whether the op reads the old value of output `index` (so a pass that
        changes its destination must keep those values there). True unless
        the op is known to overwrite all of it."""
        return True


INS = "(`ins` `(` $inputs^ `:` type($inputs) `)`)?"
OUTS = "(`outs` `(` $outputs^ `:` type($outputs) `)`)?"
