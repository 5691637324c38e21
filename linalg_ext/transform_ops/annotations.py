"""ByteIR's annotation transform ops: `transform.annotate_ext` (attributes
onto payload ops) and `transform.structured.tile_loop_hint` (which tile
loops are parallel), their definitions with ByteIR's syntax and the
library behind the second (`label_parallel_loops`).

The interpreter functions are in `annotation_functions` (they need xDSL's
transform interpreter, which these definitions must not import: they are
loaded with the dialect).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Self

from xdsl.dialects import affine, memref, pdl, scf, tensor
from xdsl.dialects.builtin import DYNAMIC_INDEX, TensorType, UnitAttr
from xdsl.dialects.utils import get_dynamic_index_list
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    result_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer

from linalg_ext.tiling.cleanup import kept_dims
from linalg_ext.tiling.dims import operand_loop_dims
from linalg_ext.tiling.interface import LoopType, tiling_model
from linalg_ext.tiling.loops import enclosing_loops
from linalg_ext.transform_ops.definitions import ANY_HANDLE, handle_type_or_pdl
from linalg_ext.transforms.mixed_sizes import Mixed
from linalg_ext.transforms.slices import slice_offsets

PARALLEL_LOOP_ATTR = "__byteir_parallel__"
"""The unit attribute `tile_loop_hint` puts on a parallel `scf.for`
(ByteIR's `getSCFForParallelAttrName`)."""


@irdl_op_definition
class AnnotateExtOp(IRDLOperation):
    """`transform.annotate_ext %target {attrs}`: set every attribute of the
    op's attribute dictionary on each payload op of `%target` (replacing one
    of the same name); the result holds the same ops (ByteIR's op and
    syntax: no types are written, the result is a `!pdl.operation`)."""

    name = "transform.annotate_ext"

    target = operand_def(ANY_HANDLE)
    transformed = result_def(pdl.OperationType)

    def __init__(
        self, target: SSAValue, attributes: dict[str, Attribute] | None = None
    ):
        super().__init__(
            operands=[target],
            result_types=[pdl.OperationType()],
            attributes=attributes,
        )

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        target = parser.parse_unresolved_operand()
        # The syntax names no type: the operand keeps the type its value was
        # defined with.
        operand = parser.resolve_operand(target, handle_type_or_pdl(parser, target))
        attributes = parser.parse_optional_attr_dict()
        return cls(operand, attributes)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_ssa_value(self.target)
        printer.print_op_attributes(self.attributes)


@irdl_op_definition
class TileLoopHintOp(IRDLOperation):
    """`transform.structured.tile_loop_hint %target : type`: mark with
    `__byteir_parallel__` each `scf.for` around the target ops that only
    walks parallel dimensions of the ops computed in the innermost loop
    (ByteIR's op and syntax; no result)."""

    name = "transform.structured.tile_loop_hint"

    target = operand_def(ANY_HANDLE)

    assembly_format = "$target attr-dict `:` type($target)"

    def __init__(self, target: SSAValue):
        super().__init__(operands=[target])


def _offsets_by_dim(value: SSAValue) -> list[Mixed] | None:
    """The offset of each dimension of `value` in the tensor or memref it is
    a slice of, if it is one (an `extract_slice`, rank-reducing or not, or a
    `memref.subview` keeping the rank)."""
    owner = value.owner
    if isinstance(owner, tensor.ExtractSliceOp):
        kept = kept_dims(owner)
        if kept is None:
            return None
        offsets = slice_offsets(owner)
        return [offsets[d] for d in kept]
    if isinstance(owner, memref.SubviewOp):
        if len(owner.static_offsets.get_values()) != len(owner.result.type.get_shape()):
            return None
        return list(
            get_dynamic_index_list(
                owner.static_offsets.get_values(), owner.offsets, DYNAMIC_INDEX
            )
        )
    return None


def _walked_loop(offset: Mixed, loop_of_iv: dict[SSAValue, int]) -> int | None:
    """The loop whose induction variable is the offset, directly or through
    an `affine.apply` of it alone."""
    if isinstance(offset, int):
        return None
    owner = offset.owner
    if isinstance(owner, affine.ApplyOp) and len(owner.mapOperands) == 1:
        offset = owner.mapOperands[0]
    return loop_of_iv.get(offset)


def _merge(into: list[LoopType | None], loop: int, loop_type: LoopType) -> None:
    """A loop is parallel only if every dimension it walks is."""
    if into[loop] is None or into[loop] == loop_type:
        into[loop] = loop_type
    else:
        into[loop] = "reduction"


def _computes_fresh_values(op: Operation) -> bool:
    """Every init is a new `tensor.empty` (ByteIR's local computation): the
    op's tile starts from nothing carried across iterations."""
    outputs: Sequence[SSAValue] | None = getattr(op, "outputs", None)
    return bool(outputs) and all(
        isinstance(v.type, TensorType) and isinstance(v.owner, tensor.EmptyOp)
        for v in outputs or ()
    )


def walked_loop_types(
    op: Operation, loops: Sequence[scf.ForOp]
) -> list[LoopType | None] | None:
    """What each of `loops` walks of `op`: for each operand that is a slice
    whose offset along a dimension is a loop's induction variable, that
    loop walks the iteration-domain loop the dimension follows, of the type
    `op`'s tiling model gives (parallel for an op whose inits are all fresh
    `tensor.empty`s). None for a loop `op` does not tell about; None in all
    when `op` has no model or no operand maps."""
    model = tiling_model(op)
    dims = operand_loop_dims(op)
    if model is None or dims is None:
        return None
    types = model.loop_types(op)
    fresh = _computes_fresh_values(op)
    loop_of_iv: dict[SSAValue, int] = {
        loop.body.block.args[0]: i for i, loop in enumerate(loops)
    }
    walked: list[LoopType | None] = [None] * len(loops)
    for operand, operand_dims in zip(op.operands, dims, strict=True):
        offsets = _offsets_by_dim(operand)
        if offsets is None:
            continue
        for offset, domain_loop in zip(offsets, operand_dims, strict=False):
            loop = _walked_loop(offset, loop_of_iv)
            if loop is None or domain_loop is None:
                continue
            _merge(walked, loop, "parallel" if fresh else types[domain_loop])
    return walked


def label_parallel_loops(op: Operation) -> list[scf.ForOp]:
    """Put `__byteir_parallel__` on each `scf.for` around `op` that walks
    only parallel dimensions of the tileable ops of the innermost loop's body
    (ByteIR's `labelTileLoopType`); returns the labelled loops. Nothing is
    labelled when `op` is not directly in the innermost loop's body. A loop
    that walks a reduction dimension of any op, or a parallel and a
    reduction one of the same op, is not parallel."""
    loops = enclosing_loops(op)
    if not loops or op.parent_block() is not loops[-1].body.block:
        return []
    merged: list[LoopType | None] = [None] * len(loops)
    for body_op in loops[-1].body.block.ops:
        walked = walked_loop_types(body_op, loops)
        for loop, loop_type in enumerate(walked or ()):
            if loop_type is not None:
                _merge(merged, loop, loop_type)
    labelled = [
        loop
        for loop, loop_type in zip(loops, merged, strict=True)
        if loop_type == "parallel"
    ]
    for loop in labelled:
        loop.attributes[PARALLEL_LOOP_ATTR] = UnitAttr()
    return labelled
