"""Verification helpers of the `linalg_ext` ops.

Each raises a `VerifyException` with the op's name in front of the reason,
as MLIR's messages read: operand counts, ranks, shapes (a dynamic `?` is
compatible with anything), element types, destination style, region
signatures.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import (
    AnyFloat,
    IndexType,
    IntegerType,
    MemRefType,
    ShapedType,
    TensorType,
)
from xdsl.ir import Attribute, Operation, Region, SSAValue

from linalg_ext.shaped import (
    Shape,
    element_type_of,
    format_shape,
    is_ranked_shaped,
    join_shapes,
    rank_of,
    shape_of,
    shapes_compatible,
)
from linalg_ext.verification import op_error


def count_noun(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def expect_count(
    op: Operation, what: str, got: int, allowed: Sequence[int], names: str
) -> None:
    if got not in allowed:
        expected = " or ".join(str(n) for n in allowed[:-1])
        expected += (" or " if expected else "") + count_noun(
            allowed[-1], f"{what} operand"
        )
        op_error(op, f"expected {expected} ({names}), got {got}")


def expect_rank_at_least(op: Operation, role: str, type_: ShapedType, least: int):
    if rank_of(type_) < least:
        op_error(op, f"expected {role} to have rank >= {least}, got {type_}")


def expect_shape(op: Operation, role: str, type_: ShapedType, expected: Shape) -> Shape:
    """Rank must match exactly; each static extent must match a static one.

    Returns what `expected` and the operand's shape say together, for the
    next operand to be checked against.
    """
    if rank_of(type_) != len(expected):
        op_error(op, f"expected {role} to have rank {len(expected)}, got {type_}")
    if not shapes_compatible(shape_of(type_), expected):
        op_error(
            op,
            f"expected {role} shape to be compatible with {format_shape(expected)}, "
            f"got {type_}",
        )
    return join_shapes(expected, shape_of(type_))


def expect_same_element_type(
    op: Operation, role: str, type_: ShapedType, ref_role: str, ref: ShapedType
):
    if element_type_of(type_) != element_type_of(ref):
        op_error(
            op,
            f"expected {role} element type to match {ref_role} element type "
            f"{element_type_of(ref)}, got {element_type_of(type_)}",
        )


def expect_float_elements(op: Operation, role: str, type_: ShapedType):
    if not isinstance(element_type_of(type_), AnyFloat):
        op_error(
            op,
            f"expected {role} element type to be a float type, "
            f"got {element_type_of(type_)}",
        )


def expect_integer_elements(op: Operation, role: str, type_: ShapedType):
    if not isinstance(element_type_of(type_), IntegerType | IndexType):
        op_error(
            op,
            f"expected {role} element type to be an integer or index type, "
            f"got {element_type_of(type_)}",
        )


def expect_dimension_in_range(op: Operation, name: str, value: int, rank: int):
    if not 0 <= value < rank:
        op_error(op, f"expected {name} to be in [0, {rank}), got {value}")


def verify_destination_style(
    op: Operation,
    operand_roles: Sequence[tuple[str, SSAValue]],
    outputs: Sequence[SSAValue],
    results: Sequence[SSAValue],
) -> None:
    """Ranked shaped operands with pure tensor or pure buffer semantics, and
    results mirroring the tensor outputs.

    ByteIR (through MLIR's DestinationStyleOpInterface) lets a tensor op carry
    memref operands; we do not, because such an op has no single meaning.
    """
    for role, value in operand_roles:
        if not is_ranked_shaped(value.type):
            op_error(
                op, f"expected {role} to be a ranked tensor or memref, got {value.type}"
            )
    shaped = [value.type for _, value in operand_roles]
    has_tensor = any(isinstance(t, TensorType) for t in shaped)
    has_memref = any(isinstance(t, MemRefType) for t in shaped)
    if has_tensor and has_memref:
        op_error(op, "expected all operands to be tensors or all to be memrefs")
    if has_memref:
        if results:
            op_error(op, f"expected no results on memref operands, got {len(results)}")
        return
    if len(results) != len(outputs):
        op_error(
            op,
            f"expected one result per tensor output ({len(outputs)}), "
            f"got {len(results)}",
        )
    for index, (output, result) in enumerate(zip(outputs, results, strict=True)):
        if output.type != result.type:
            op_error(
                op,
                f"expected result #{index} type to match output #{index} type "
                f"{output.type}, got {result.type}",
            )


def verify_body(
    op: Operation,
    region: Region,
    terminator_type: type[Operation],
    arg_types: Sequence[Attribute],
    arg_names: str,
    yield_types: Sequence[Attribute],
    yield_names: str,
) -> None:
    """The region is one block with the given signature, ending in a yield."""
    if len(region.blocks) != 1:
        op_error(op, f"expected a region with one block, got {len(region.blocks)}")
    block = region.block
    if len(block.args) != len(arg_types):
        op_error(
            op,
            f"expected the region to take {count_noun(len(arg_types), 'argument')} "
            f"({arg_names}), "
            f"got {len(block.args)}",
        )
    for index, (arg, expected) in enumerate(zip(block.args, arg_types, strict=True)):
        if arg.type != expected:
            op_error(
                op,
                f"expected region argument #{index} to be of type {expected}, "
                f"got {arg.type}",
            )
    terminator = block.last_op
    if not isinstance(terminator, terminator_type):
        op_error(op, f"expected the region to end with {terminator_type.name}")
    yielded = terminator.operands
    if len(yielded) != len(yield_types):
        op_error(
            op,
            f"expected the region to yield {count_noun(len(yield_types), 'value')} "
            f"({yield_names}), got {len(yielded)}",
        )
    for index, (value, expected) in enumerate(zip(yielded, yield_types, strict=True)):
        if value.type != expected:
            op_error(
                op,
                f"expected yielded value #{index} to be of type {expected}, "
                f"got {value.type}",
            )
