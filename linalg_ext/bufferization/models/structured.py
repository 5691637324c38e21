"""Bufferization of destination-passing ops: every linalg structured op
(generic, named, map, reduce, broadcast, transpose, fill, copy ...) and every
`linalg_ext` op with `ins`/`outs`. Result i is the buffer of the i-th tensor
init; inits are written, and read only when the body reads them."""

from __future__ import annotations

from xdsl.dialects.linalg import ops as linalg_ops
from xdsl.dialects.linalg.ops import GenericOp
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import AffineMap

from linalg_ext.bufferization.interface import (
    AliasingValue,
    AnalysisQueries,
    BufferizableOpModel,
    BufferizerServices,
    BufferRelation,
    OpOperand,
    is_tensor,
    register_model,
)
from linalg_ext.compat import (
    linalg_elementwise,
    linalg_elemwise_legacy,
    linalg_fill_rng,
    linalg_opdsl,
    linalg_reduce,
    linalg_softmax,
)
from linalg_ext.compat import linalg_ops as compat_linalg
from linalg_ext.dialect import LinalgExt
from linalg_ext.transforms.dps import body_reads_output, is_all_parallel, is_structured


def _inputs(op: Operation) -> tuple[SSAValue, ...]:
    return tuple(op.inputs)  # pyright: ignore[reportAttributeAccessIssue]


def _outputs(op: Operation) -> tuple[SSAValue, ...]:
    return tuple(op.outputs)  # pyright: ignore[reportAttributeAccessIssue]


def _output_index(operand: OpOperand) -> int | None:
    """Which output the operand is, or None for an input."""
    first_output = len(operand.op.operands) - len(_outputs(operand.op))
    index = operand.index - first_output
    return index if index >= 0 else None


class DestinationStyleModel(BufferizableOpModel):
    def reads(self, operand: OpOperand, state: AnalysisQueries) -> bool:
        op = operand.op
        output = _output_index(operand)
        if output is not None:
            return body_reads_output(op, output)
        # An input the payload never looks at is not read (a generic's).
        if isinstance(op, GenericOp):
            args = op.body.block.args
            if operand.index < len(args):
                return bool(args[operand.index].uses)
        return True

    def writes(self, operand: OpOperand, state: AnalysisQueries) -> bool:
        return _output_index(operand) is not None

    def aliasing_values(
        self, operand: OpOperand, state: AnalysisQueries
    ) -> list[AliasingValue]:
        output = _output_index(operand)
        if output is None:
            return []
        tensor_outputs = [o for o in _outputs(operand.op) if is_tensor(o)]
        position = sum(1 for o in _outputs(operand.op)[:output] if is_tensor(o))
        results = operand.op.results
        if position >= len(results) or position >= len(tensor_outputs):
            return []
        return [AliasingValue(results[position], BufferRelation.EQUIVALENT)]

    def is_elementwise_access(
        self, op: Operation, operands: list[OpOperand], state: AnalysisQueries
    ) -> bool:
        if not is_structured(op) or not is_all_parallel(op):
            return False
        maps = op.get_indexing_maps().data  # pyright: ignore[reportAttributeAccessIssue]
        accesses: list[AffineMap] = [maps[o.index].data for o in operands]
        return all(m == AffineMap.identity(m.num_dims) for m in accesses)

    def bufferize(self, op: Operation, bufferizer: BufferizerServices) -> None:
        operands = [bufferizer.buffer(v) if is_tensor(v) else v for v in op.operands]
        tensor_outputs = [
            operands[len(operands) - len(_outputs(op)) + i]
            for i, o in enumerate(_outputs(op))
            if is_tensor(o)
        ]
        new_op = type(op).create(
            operands=operands,
            result_types=[r.type for r in op.results if not is_tensor(r)],
            properties=dict(op.properties),
            attributes=dict(op.attributes),
            regions=[op.detach_region(r) for r in list(op.regions)],
        )
        bufferizer.insert(new_op)
        bufferizer.replace_op(op, tensor_outputs)


def _is_destination_style(cls: type[Operation]) -> bool:
    if hasattr(cls, "inputs") and hasattr(cls, "outputs"):
        return True
    get_definition = getattr(cls, "get_irdl_definition", None)
    if get_definition is None:
        return False
    try:
        names = {name for name, _ in get_definition().operands}
    except Exception:  # abstract bases have no definition
        return False
    # linalg.broadcast and linalg.reduce: the compat layer gives them
    # `inputs` and `outputs` (compat/structured_interface.py).
    # linalg.map names its operands `inputs` and `init`, the compat
    # linalg.reduce `inputs` and `inits`.
    pairs = (
        {"inputs", "outputs"},
        {"input", "init"},
        {"inputs", "init"},
        {"inputs", "inits"},
    )
    return any(pair <= names for pair in pairs)


def register_structured_ops() -> None:
    """Register the model for every destination-style op class: xDSL's
    linalg ops, the compat ones and linalg_ext's."""
    model = DestinationStyleModel()
    # Classes defined in each module (not those it merely imports).
    modules = (
        linalg_ops,
        compat_linalg,
        linalg_elementwise,
        linalg_elemwise_legacy,
        linalg_reduce,
        # Its ops' classes are made from a table; their base is defined here.
        linalg_opdsl,
        linalg_fill_rng,
    )
    defined = [
        value
        for module in (*modules, linalg_softmax)
        for value in vars(module).values()
        # The module test first: `issubclass` of an unrelated class walks
        # every registered subclass of the ABC `Operation` (a tenth of a
        # second of start-up over the imported names).
        if isinstance(value, type)
        and value.__module__ == module.__name__
        and issubclass(value, Operation)
    ]
    for op_class in (*defined, *LinalgExt.operations):
        if _is_destination_style(op_class):
            register_model(op_class, model)


register_structured_ops()
