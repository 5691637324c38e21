"""`linalg-data-place`: run tagged Linalg ops on copies of their memref
operands placed in given memory spaces.

ByteIR's pass of this name, with its option `mem-spaces` (a list of integer
memory spaces, one per operand: inputs first, then outputs; an operand past
the end of the list takes its last entry; `-1` leaves an operand where it
is; the default, an empty list, places nothing). Only ops carrying the
`__byteir_data_place__` attribute change: the unit attribute means "use
`mem-spaces`", an array gives the spaces for that op itself (an entry that
is not an integer leaves its operand where it is), any other value leaves
the op alone. For each placed memref operand the pass allocates a buffer of
its shape (dynamic sizes read with `memref.dim`) in the space, with an
identity layout; an input is copied in (`linalg.copy`) before the op, an
output is copied back after it. For example, with `mem-spaces=1,2,3`

    linalg.matmul {__byteir_data_place__}
        ins(%a, %b : memref<8x4xf32>, memref<4x4xf32>)
        outs(%c : memref<8x4xf32>)

becomes

    %0 = memref.alloc() : memref<8x4xf32, 1 : i64>
    linalg.copy ins(%a : memref<8x4xf32>) outs(%0 : memref<8x4xf32, 1 : i64>)
    %1 = memref.alloc() : memref<4x4xf32, 2 : i64>
    linalg.copy ins(%b : memref<4x4xf32>) outs(%1 : memref<4x4xf32, 2 : i64>)
    %2 = memref.alloc() : memref<8x4xf32, 3 : i64>
    linalg.copy ins(%c : memref<8x4xf32>) outs(%2 : memref<8x4xf32, 3 : i64>)
    linalg.matmul ins(%0, %1 : ...) outs(%2 : memref<8x4xf32, 3 : i64>)
    linalg.copy ins(%2 : memref<8x4xf32, 3 : i64>) outs(%c : memref<8x4xf32>)
    memref.dealloc %0 : memref<8x4xf32, 1 : i64>
    memref.dealloc %1 : memref<4x4xf32, 2 : i64>
    memref.dealloc %2 : memref<8x4xf32, 3 : i64>

Tensor operands are left as they are (ByteIR's later tensor mode, which
promotes elementwise results feeding `tensor.insert_slice`, is not this
pass). On the CPU an integer memory space is ordinary memory:
`finalize-memref-to-llvm` lowers it as the default space, so the result runs
compiled as well as on the interpreter.

Differences from ByteIR, which are its defects fixed: ByteIR never copies an
output in, so an op that reads its output (`linalg.matmul` accumulates into
it) computes on uninitialized memory; here an output is copied in unless the
op's body never reads it (a `linalg.generic` or named op whose output block
argument is unused, `linalg.map`). ByteIR's copy-back loop advances its
output index only on placed outputs, so with two outputs of which only the
second is placed it copies the wrong buffer; here each placed output is
copied back to itself. ByteIR never frees the buffers it allocates; here
each is deallocated right after the copies back.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, memref
from xdsl.dialects.builtin import (
    ArrayAttr,
    IndexType,
    IntegerAttr,
    MemRefType,
    ModuleOp,
    NoneAttr,
    UnitAttr,
    i64,
)
from xdsl.dialects.linalg.ops import CopyOp
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.utils.exceptions import PassFailedException

from linalg_ext.compat.linalg_ops import MapOp
from linalg_ext.transforms.dps import has_loops

DATA_PLACE_ATTR = "__byteir_data_place__"
"""The attribute that marks an op for placement (ByteIR's name)."""

UNPLACED = -1
"""The space that means "leave this operand where it is" (ByteIR's)."""


def spaces_of(op: Operation, default: Sequence[int]) -> list[int] | None:
    """The memory spaces `op`'s tag asks for, or None if it has no usable
    tag (absent, or neither a unit attribute nor an array)."""
    tag = op.attributes.get(DATA_PLACE_ATTR)
    if isinstance(tag, UnitAttr):
        return list(default)
    if isinstance(tag, ArrayAttr):
        return [
            entry.value.data if isinstance(entry, IntegerAttr) else UNPLACED
            for entry in tag.data
        ]
    return None


def space_for(spaces: Sequence[int], index: int) -> int:
    """The space of operand `index`: past the end of the list, its last
    entry; no list at all, unplaced."""
    if not spaces:
        return UNPLACED
    return spaces[min(index, len(spaces) - 1)]


def reads_output(op: Operation, output_index: int) -> bool:
    """Whether `op`'s body may read output `output_index` (conservatively
    true when the op does not show it)."""
    if isinstance(op, MapOp):
        # linalg.map's body has no argument for its output.
        return False
    inputs = len(op.inputs)  # pyright: ignore[reportAttributeAccessIssue]
    outputs = len(op.outputs)  # pyright: ignore[reportAttributeAccessIssue]
    for region in op.regions:
        block = region.first_block
        if block is not None and len(block.args) == inputs + outputs:
            return bool(block.args[inputs + output_index].uses)
    return True


def _placed_buffer(
    rewriter: Rewriter, point: InsertPoint, value: SSAValue, space: int
) -> SSAValue:
    """A new buffer shaped like the memref `value`, identity layout, in
    memory space `space`; its allocation (and the `memref.dim`s of dynamic
    sizes) inserted at `point`."""
    type_ = value.type
    assert isinstance(type_, MemRefType)
    sizes: list[SSAValue] = []
    for dim, extent in enumerate(type_.get_shape()):
        if extent < 0:
            index = arith.ConstantOp.from_int_and_width(dim, IndexType())
            size = memref.DimOp(value, index)
            rewriter.insert_op((index, size), point)
            sizes.append(size.result)
    placed = MemRefType(
        type_.get_element_type(),
        type_.get_shape(),
        NoneAttr(),
        IntegerAttr(space, i64),
    )
    alloc = memref.AllocOp(sizes, [], placed)
    rewriter.insert_op(alloc, point)
    return alloc.memref


def place_op(op: Operation, spaces: Sequence[int]) -> None:
    """Run `op` on placed copies of its memref operands, as the module
    docstring says, and drop its tag. An op whose operands are not its
    inputs then its outputs is left alone."""
    inputs = list(op.inputs)  # pyright: ignore[reportAttributeAccessIssue]
    outputs = list(op.outputs)  # pyright: ignore[reportAttributeAccessIssue]
    if list(op.operands) != [*inputs, *outputs]:
        return
    del op.attributes[DATA_PLACE_ATTR]
    rewriter = Rewriter()
    before = InsertPoint.before(op)
    after: list[Operation] = []
    frees: list[Operation] = []
    for index, value in enumerate((*inputs, *outputs)):
        space = space_for(spaces, index)
        if space == UNPLACED or not isinstance(value.type, MemRefType):
            continue
        placed = _placed_buffer(rewriter, before, value, space)
        is_output = index >= len(inputs)
        if not is_output or reads_output(op, index - len(inputs)):
            rewriter.insert_op(CopyOp([value], [placed], []), before)
        if is_output:
            after.append(CopyOp([placed], [value], []))
        frees.append(memref.DeallocOp.get(placed))
        # By position: the same value may also be another operand.
        op.operands[index] = placed
    rewriter.insert_op((*after, *frees), InsertPoint.after(op))


@dataclass(frozen=True)
class LinalgDataPlacePass(ModulePass):
    """Place the memref operands of tagged Linalg ops in memory spaces; see
    the module docstring."""

    name = "linalg-data-place"

    mem_spaces: tuple[int, ...] = ()
    """One memory space per operand, inputs then outputs (the last repeats;
    -1 leaves an operand where it is); used by ops tagged with the unit
    `__byteir_data_place__`."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for space in self.mem_spaces:
            if space < UNPLACED:
                raise PassFailedException(
                    f"{self.name}: option 'mem-spaces' takes memory spaces >= 0 "
                    f"or -1 (leave in place), got {space}"
                )
        for target in list(op.walk()):
            if DATA_PLACE_ATTR not in target.attributes or not has_loops(target):
                continue
            spaces = spaces_of(target, self.mem_spaces)
            if spaces is not None:
                place_op(target, spaces)
