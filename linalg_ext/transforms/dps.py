"""Facts about destination-passing structured ops (Linalg's and ours).

Works on any op with `inputs`, `outputs`, an indexing map per operand and
iterator types: xDSL's `LinalgStructuredOperation`s, the linalg ops the
compat layer completes (`linalg.map`, `linalg.broadcast`, `linalg.reduce`)
and the `linalg_ext` ops that define their loops (`linalg_ext.diag`, ...).
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import scf, tensor
from xdsl.dialects.builtin import AffineMapAttr, TensorType
from xdsl.dialects.linalg.attrs import IteratorType
from xdsl.dialects.linalg.ops import GenericOp
from xdsl.ir import Attribute, Operation, OpResult, Region, SSAValue, Use
from xdsl.ir.affine import AffineMap
from xdsl.traits import IsTerminator, RecursiveMemoryEffect, is_side_effect_free

from linalg_ext.shaped import is_ranked_shaped

VIEW_OPS = frozenset(
    {
        "memref.subview",
        "memref.cast",
        "memref.expand_shape",
        "memref.collapse_shape",
        "memref.reinterpret_cast",
        "memref.transpose",
        "memref.view",
        "memref.memory_space_cast",
        "memref.assume_alignment",
    }
)
"""Ops whose memref result is a view of their (first) memref operand."""


def buffer_root(value: SSAValue) -> SSAValue:
    """The buffer `value` is a view of, looking through `VIEW_OPS` (itself
    if it is no view)."""
    while isinstance(value, OpResult) and value.op.name in VIEW_OPS:
        value = value.op.operands[0]
    return value


def has_loops(op: Operation) -> bool:
    """Whether the op is destination-style and says what its loops are."""
    names = ("inputs", "outputs", "get_iterator_types")
    return all(hasattr(op, name) for name in names)


def is_structured(op: Operation) -> bool:
    """Whether the op also gives an indexing map per operand."""
    return has_loops(op) and hasattr(op, "get_indexing_maps")


def init_for_result(op: Operation, result_index: int) -> SSAValue | None:
    """The init (`outs` operand) a destination-style op's tensor result comes
    from, or None if `op` is not destination-style."""
    if not is_structured(op):
        return None
    tensor_outputs = [o for o in op.outputs if isinstance(o.type, TensorType)]  # pyright: ignore[reportAttributeAccessIssue]
    if result_index >= len(tensor_outputs):
        return None
    return tensor_outputs[result_index]


def aliased_operand(result: OpResult) -> int | None:
    """The index of the operand of `result.op` that `result` is an updated
    version of: bufferized in place, the two are one buffer. That is the init
    of a destination-passing op (result #i and tensor init #i of a Linalg
    structured op, `linalg.fill`, a `linalg_ext` op, `scf.forall`'s shared
    outputs), the dest of `tensor.insert` / `tensor.insert_slice`, the init of
    an `scf.for` iter_arg, and the source of `tensor.cast` (the same tensor,
    its type made more or less static). None for any other op."""
    op = result.op
    if isinstance(op, tensor.InsertSliceOp | tensor.InsertOp):
        return 1  # the dest, after the source or scalar
    if isinstance(op, tensor.CastOp):
        return 0
    if isinstance(op, scf.ForOp):
        return len(op.operands) - len(op.iter_args) + result.index
    outputs = getattr(op, "outputs", None)
    if outputs is None:
        return None
    tensor_positions = [
        j for j, o in enumerate(outputs) if isinstance(o.type, TensorType)
    ]
    if len(tensor_positions) != len(op.results):
        return None
    position = tensor_positions[result.index]
    index = len(op.operands) - len(outputs) + position
    if op.operands[index] is not outputs[position] or result.type != (
        outputs[position].type
    ):
        return None
    return index


def buffer_origin(use: Use) -> Use:
    """Where the value of `use` comes from, looking back through results
    that update an operand in place (`aliased_operand`): the last use on
    that chain, whose value is not such a result (a `tensor.empty`, a
    function argument, a slice, ...)."""
    seen: set[Operation] = set()
    while True:
        value = use.operation.operands[use.index]
        if not isinstance(value, OpResult) or value.op in seen:
            return use
        index = aliased_operand(value)
        if index is None:
            return use
        seen.add(value.op)
        use = Use(value.op, index)


def is_pure_on_tensors(op: Operation) -> bool:
    """Running the op has no effect but its results: an op known to be
    side-effect free, or a destination-passing op on tensors whose body has
    no side effects (it only makes new tensors)."""
    if is_side_effect_free(op):
        return True
    if not (has_loops(op) and has_pure_tensor_semantics(op)):
        return False
    for region in op.regions:
        for nested in region.walk():
            if nested.has_trait(IsTerminator, value_if_unregistered=False):
                continue
            if not is_side_effect_free(nested):
                return False
    return True


def has_no_effects(op: Operation) -> bool:
    """Running `op` has no effect but its results: ops `is_pure_on_tensors`
    accepts, and ops with recursive effects (`scf.for`, `scf.if`) whose
    nested ops all have none."""
    if is_pure_on_tensors(op):
        return True
    if not op.has_trait(RecursiveMemoryEffect):
        return False
    for region in op.regions:
        for nested in region.walk():
            if nested.has_trait(IsTerminator, value_if_unregistered=False):
                continue
            if not has_no_effects(nested):
                return False
    return True


def has_pure_tensor_semantics(op: Operation) -> bool:
    """Every shaped operand and result is a ranked tensor (scalars are
    allowed): the op makes new values and writes no buffer (what MLIR calls
    pure tensor semantics for a destination-style op). Stricter than
    bufferization's `has_tensor_semantics` (an op touching any tensor)."""
    return all(
        isinstance(v.type, TensorType) or not is_ranked_shaped(v.type)
        for v in op.operands
    ) and all(isinstance(r.type, TensorType) for r in op.results)


def is_all_parallel(op: Operation) -> bool:
    return all(
        t.data == IteratorType.PARALLEL
        for t in op.get_iterator_types().data  # pyright: ignore[reportAttributeAccessIssue]
    )


def output_map(op: Operation, output_index: int) -> AffineMap:
    maps = op.get_indexing_maps().data  # pyright: ignore[reportAttributeAccessIssue]
    return maps[len(op.inputs) + output_index].data  # pyright: ignore[reportAttributeAccessIssue]


def body_reads_output(op: Operation, output_index: int) -> bool:
    """Whether the op reads the old value of that output: an op that knows
    says so (`reads_output`); otherwise, whether its body uses the block
    argument of that output."""
    reads_output = getattr(op, "reads_output", None)
    if reads_output is not None:
        return reads_output(output_index)
    if not isinstance(op, GenericOp) and is_structured(op) and not is_all_parallel(op):
        # A named op with a reduction accumulates onto its init (OpDSL's
        # `O += ...`, `O = max(O, ...)`). Its hidden body is not trusted:
        # xDSL 0.74's pooling_*_max bodies take the max of the input and
        # the window operand, never reading the output.
        return True
    regions = op.regions
    if not regions or not regions[0].blocks:
        return True  # no visible body: assume it reads
    argument = regions[0].block.args[len(op.inputs) + output_index]  # pyright: ignore[reportAttributeAccessIssue]
    return bool(argument.uses)


def with_output(op: Operation, output_index: int, new_init: SSAValue) -> Operation:
    """A copy of `op` (body cloned) whose output `output_index` is `new_init`,
    its result of that index typed like the new init. `op` must return
    tensors, one result per output."""
    operands = list(op.operands)
    operands[len(op.inputs) + output_index] = new_init  # pyright: ignore[reportAttributeAccessIssue]
    result_types = [r.type for r in op.results]
    result_types[output_index] = new_init.type
    return type(op).create(
        operands=operands,
        result_types=result_types,
        properties=dict(op.properties),
        attributes=dict(op.attributes),
        regions=[region.clone() for region in op.regions],
    )


def generic_like(
    op: GenericOp,
    inputs: Sequence[SSAValue],
    outputs: Sequence[SSAValue],
    body: Region,
    indexing_maps: Sequence[AffineMapAttr],
    iterator_types: Sequence[Attribute],
    result_types: Sequence[Attribute],
) -> GenericOp:
    """A new `linalg.generic` of these operands, body, maps, iterator types
    and results that keeps what else `op` carries: its `doc`,
    `library_call` and every discardable attribute (markers such as
    ByteIR's `__byteir_*__` must survive a rewrite of the op)."""
    new_op = GenericOp(
        inputs,
        outputs,
        body,
        indexing_maps,
        iterator_types,
        result_types,
        op.doc,
        op.library_call,
    )
    new_op.attributes.update(op.attributes)
    return new_op
