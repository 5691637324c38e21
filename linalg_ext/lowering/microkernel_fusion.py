"""What a contraction's micro-kernel computes besides the contraction: the
`linalg.fill` of C before it and an elementwise `linalg.generic` after it
(`Fusion`; `find_fusion`), on memrefs, as `linalg-contraction-microkernel`
fuses them (linalg_ext/lowering/microkernel.py builds the code).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects import memref
from xdsl.dialects.builtin import MemRefType
from xdsl.dialects.linalg import ops as linalg
from xdsl.ir import Operation
from xdsl.ir.affine import AffineMap
from xdsl.traits import is_side_effect_free

from linalg_ext.lowering.contraction import Contraction
from linalg_ext.transforms.dps import buffer_root


@dataclass
class Fusion:
    """What the micro-kernel computes besides the contraction.

    `fill`: the `linalg.fill` of C right before the op, when the reduction
    is statically non-empty: the first block of k starts the stage from the
    fill value instead of reading C, and the fill goes.

    `epilogue`: the elementwise `linalg.generic` right after the op (past
    `memref.alloc`s, in `moved`) that reads C once with the identity map and
    is the last reader of C, or writes C itself: the last block of k applies
    its body to the stage and stores into its output, and the generic goes.
    """

    fill: linalg.FillOp | None = None
    epilogue: linalg.GenericOp | None = None
    epilogue_input: int = 0
    """Which input of the epilogue is C."""
    moved: tuple[Operation, ...] = ()
    """Allocations between the op and the epilogue, moved before the op."""


def absorbable_fill(c: Contraction) -> linalg.FillOp | None:
    """The fill of C that the micro-kernel can start from (see `Fusion`)."""
    fill = c.op.prev_op
    if not isinstance(fill, linalg.FillOp) or len(fill.outputs) != 1:
        return None
    if fill.outputs[0] is not c.init or len(fill.inputs) != 1:
        return None
    if fill.inputs[0].type != c.element or not c.static_k():
        return None
    root = buffer_root(c.init)
    if root in (buffer_root(c.lhs), buffer_root(c.rhs)):
        return None
    return fill


def _identity(map_: AffineMap) -> bool:
    return map_ == AffineMap.identity(map_.num_dims) and not map_.num_symbols


def fusable_epilogue(
    c: Contraction, fill: linalg.FillOp | None
) -> tuple[linalg.GenericOp, int, tuple[Operation, ...]] | None:
    """(epilogue, its input that is C, allocations to move) (see
    `Fusion`), or None."""
    moved: list[Operation] = []
    after = c.op.next_op
    while isinstance(after, memref.AllocOp):
        moved.append(after)
        after = after.next_op
    if not isinstance(after, linalg.GenericOp) or len(after.outputs) != 1:
        return None
    generic = after
    init_type = c.init.type
    assert isinstance(init_type, MemRefType)
    maps = [m.data for m in generic.indexing_maps]
    if maps[0].num_dims != init_type.get_num_dims() or any(m.num_symbols for m in maps):
        return None
    if any(str(t.data) != "parallel" for t in generic.iterator_types):
        return None
    positions = [i for i, v in enumerate(generic.inputs) if v is c.init]
    if len(positions) != 1 or not _identity(maps[positions[0]]):
        return None
    (position,) = positions
    output = generic.outputs[0]
    if not isinstance(output.type, MemRefType) or not _identity(maps[-1]):
        return None
    root = buffer_root(c.init)
    for index, operand in enumerate(generic.operands):
        if index == position or (operand is c.init and operand is output):
            continue
        if buffer_root(operand) is root:
            return None
    # The epilogue now runs tile by tile, while the contraction still reads
    # its inputs: its output may not be one of them, nor be read by the
    # epilogue other than at the element it writes.
    if buffer_root(output) in (buffer_root(c.lhs), buffer_root(c.rhs)):
        return None
    for index, operand in enumerate(generic.inputs):
        if index != position and buffer_root(operand) is buffer_root(output):
            return None
    body = list(generic.body.block.ops)
    if not all(is_side_effect_free(op) for op in body[:-1]):
        return None
    if output is not c.init:
        owner = c.init.owner
        if not isinstance(owner, memref.AllocOp):
            return None
        allowed = {c.op, generic, fill, c.generic}
        for use in c.init.uses:
            if use.operation in allowed:
                continue
            if not isinstance(use.operation, memref.DeallocOp):
                return None
            if use.operation.parent is not generic.parent:
                return None
            if not generic.is_before_in_block(use.operation):
                return None
    return generic, position, tuple(moved)


def find_fusion(c: Contraction) -> Fusion:
    """What `c`'s micro-kernel can compute besides it (see `Fusion`).
    Nothing when reduction loops run around the kernel: C is then neither
    started nor finished by one pass."""
    if c.outer_reductions:
        return Fusion()
    fill = absorbable_fill(c)
    epilogue = fusable_epilogue(c, fill)
    if epilogue is None:
        return Fusion(fill)
    generic, position, moved = epilogue
    return Fusion(fill, generic, position, moved)
