"""Upstream's verifier rules for `tensor.pad`, `tensor.empty` and the
`tensor`/`memref` `collapse_shape` and `expand_shape` ops, with MLIR 22's
messages.

What xDSL 0.74 lets through and `mlir-opt-22` rejects:

- `tensor.pad`: a result type other than the one MLIR infers (each extent
  is source + low + high where all three are static; rank), a body argument
  that is not an `index`, a `tensor.yield` of another type than the result's
  element type. xDSL's own rule that a result extent is dynamic exactly where
  a pad or the source extent is, is stricter than MLIR's (a static result
  extent is allowed where MLIR infers a dynamic one) and is replaced;
- `tensor.empty` with a number of sizes other than its dynamic extents;
- `tensor.collapse_shape` (xDSL checks nothing) and `memref.collapse_shape`
  / `expand_shape`: reassociations that do not cover the dimensions, extents
  that do not multiply out, element types; for memrefs of the identity layout
  also the result layout (other layouts are not judged);
- `tensor.expand_shape`: the element type (xDSL checks the rest).
"""

from __future__ import annotations

from collections.abc import Sequence
from math import prod
from typing import Annotated

from xdsl.dialects import memref, tensor
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    I64,
    ArrayAttr,
    IndexType,
    IntegerAttr,
    MemRefType,
    NoneAttr,
    TensorType,
)
from xdsl.ir import Attribute, Operation
from xdsl.irdl import AtLeast, IRDLOperation, PropertyDef, irdl_to_attr_constraint

from linalg_ext.compat.slice_checks import chain_verifier
from linalg_ext.verification import op_error


def _quoted(value: object) -> str:
    return f"'{value}'"


# --------------------------------------------------------------------------
# tensor.pad
# --------------------------------------------------------------------------


def verify_pad(op: tensor.PadOp) -> None:
    """MLIR's `PadOp::verify` and its region check (replacing xDSL's)."""
    source = op.source.type
    result = op.result.type
    if not isinstance(source, TensorType) or not isinstance(result, TensorType):
        return
    shape = source.get_shape()
    low = op.static_low.get_values()
    high = op.static_high.get_values()
    if len(low) != len(shape) or len(high) != len(shape):
        op_error(
            op,
            f"failed to infer expectedType from sourceType {_quoted(source)}, "
            f"specified resultType is {_quoted(result)}",
        )
    inferred = [
        DYNAMIC_INDEX if DYNAMIC_INDEX in (size, lo, hi) else size + lo + hi
        for size, lo, hi in zip(shape, low, high, strict=True)
    ]
    expected = TensorType(source.get_element_type(), inferred)
    mismatch = (
        f"specified type {_quoted(result)} does not match the inferred type "
        f"{_quoted(expected)}"
    )
    if len(result.get_shape()) != len(inferred):
        op_error(op, mismatch)
    for size, want in zip(result.get_shape(), inferred, strict=True):
        if size != want and want != DYNAMIC_INDEX:
            op_error(op, mismatch)
    block = op.region.block
    if len(block.args) != len(shape):
        op_error(op, f"expected the block to have {len(shape)} arguments")
    for index, arg in enumerate(block.args):
        if not isinstance(arg.type, IndexType):
            op_error(op, f"expected block argument {index + 1} to be an index")
    terminator = block.last_op
    if isinstance(terminator, tensor.YieldOp):
        types = [value.type for value in terminator.arguments]
        if types != [result.get_element_type()]:
            op_error(op, "expected yield type to match shape element type")


# --------------------------------------------------------------------------
# tensor.empty
# --------------------------------------------------------------------------


def verify_empty(op: tensor.EmptyOp) -> None:
    result = op.tensor.type
    if not isinstance(result, TensorType):
        return
    expected = sum(1 for size in result.get_shape() if size == DYNAMIC_INDEX)
    if len(op.dynamic_sizes) != expected:
        op_error(
            op,
            f"incorrect number of dynamic sizes, has {len(op.dynamic_sizes)}, "
            f"expected {expected}",
        )


# --------------------------------------------------------------------------
# collapse_shape / expand_shape
# --------------------------------------------------------------------------


def _groups(reassociation: ArrayAttr[ArrayAttr[IntegerAttr]]) -> list[list[int]]:
    return [[index.value.data for index in group.data] for group in reassociation.data]


def verify_tensor_reshape(
    op: Operation,
    expanded: TensorType[Attribute],
    collapsed: TensorType[Attribute],
    groups: list[list[int]],
) -> None:
    """MLIR's `verifyTensorReshapeOp`, for both tensor reshapes."""
    expanded_shape = expanded.get_shape()
    collapsed_shape = collapsed.get_shape()
    if len(expanded_shape) < len(collapsed_shape):
        op_error(
            op,
            f"expected the expanded type, {_quoted(expanded)} to have a higher (or "
            f"same) rank than the collapsed type, {_quoted(collapsed)}.",
        )
    if len(collapsed_shape) != len(groups):
        op_error(
            op,
            f"expected collapsed rank ({len(collapsed_shape)}) to equal the number "
            f"of reassociation maps ({len(groups)}).",
        )
    # MLIR's maps have as many dimensions as the largest index plus one.
    num_dims = max((max(group) for group in groups if group), default=-1) + 1
    for index in range(len(groups)):
        if num_dims != len(expanded_shape):
            op_error(
                op,
                f"expected reassociation map #{index} to have size equal to the "
                f"expanded rank ({len(expanded_shape)}), but it is  {num_dims}.",
            )
    next_dim = 0
    for index, group in enumerate(groups):
        for dim in group:
            if dim != next_dim:
                op_error(
                    op,
                    f"expected reassociation map #{index} to be valid and contiguous.",
                )
            next_dim += 1
    start = 0
    for index, group in enumerate(groups):
        extents = expanded_shape[start : start + len(group)]
        start += len(group)
        if DYNAMIC_INDEX in extents:
            if collapsed_shape[index] != DYNAMIC_INDEX:
                op_error(
                    op,
                    f"expected dimension {index} of collapsed type to be dynamic "
                    "since one or more of the corresponding dimensions in the "
                    "expanded type is dynamic",
                )
        elif collapsed_shape[index] != prod(extents):
            op_error(
                op,
                f"expected dimension {index} of collapsed type to be static value "
                f"of {prod(extents)}",
            )
    if collapsed.get_element_type() != expanded.get_element_type():
        expected = TensorType(expanded.get_element_type(), collapsed_shape)
        op_error(
            op,
            f"expected collapsed type to be {_quoted(expected)}, but got "
            f"{_quoted(collapsed)}",
        )


def verify_tensor_collapse(op: tensor.CollapseShapeOp) -> None:
    source, result = op.src.type, op.result.type
    if isinstance(source, TensorType) and isinstance(result, TensorType):
        verify_tensor_reshape(op, source, result, _groups(op.reassociation))


def verify_tensor_expand(op: tensor.ExpandShapeOp) -> None:
    """MLIR's `ExpandShapeOp::verify` (replacing xDSL's, which also wants
    the reassociation to cover a rank-0 source's unit dimensions)."""
    source = op.src.type
    result = op.result.type
    if not isinstance(source, TensorType) or not isinstance(result, TensorType):
        return
    rank = len(result.get_shape())
    static_shape = op.static_output_shape.get_values()
    if len(static_shape) != rank:
        op_error(
            op,
            "expected number of static shape dims to be equal to the output rank "
            f"({rank}) but found {len(static_shape)} inputs instead",
        )
    dynamic = sum(1 for size in static_shape if size == DYNAMIC_INDEX)
    if len(op.dynamic_output_shape) != dynamic:
        op_error(
            op,
            "mismatch in dynamic dims in output_shape and static_output_shape: "
            f"static_output_shape has {dynamic} dynamic dims while output_shape "
            f"has {len(op.dynamic_output_shape)} values",
        )
    verify_tensor_reshape(op, result, source, _groups(op.reassociation))


def verify_collapsed_shape(
    op: Operation,
    collapsed: Sequence[int],
    expanded: Sequence[int],
    groups: list[list[int]],
) -> None:
    """MLIR's `verifyCollapsedShape` of the memref reshapes."""
    if len(collapsed) != len(groups):
        op_error(
            op,
            f"invalid number of reassociation groups: found {len(groups)}, "
            f"expected {len(collapsed)}",
        )
    next_dim = 0
    for index, group in enumerate(groups):
        dynamic = False
        for dim in group:
            if dim != next_dim:
                op_error(op, "reassociation indices must be contiguous")
            next_dim += 1
            if dim >= len(expanded):
                op_error(op, f"reassociation index {dim} is out of bounds")
            dynamic = dynamic or expanded[dim] == DYNAMIC_INDEX
        if (collapsed[index] == DYNAMIC_INDEX) != dynamic:
            op_error(
                op,
                f"collapsed dim ({index}) must be dynamic if and only if "
                "reassociation group is dynamic",
            )
        if not dynamic:
            size = prod(expanded[dim] for dim in group)
            if size != collapsed[index]:
                op_error(
                    op,
                    f"collapsed dim size ({collapsed[index]}) must equal "
                    f"reassociation group size ({size})",
                )
    if not collapsed:
        if any(size != 1 for size in expanded):
            op_error(op, "rank 0 memrefs can only be extended/collapsed with/from ones")
    elif next_dim != len(expanded):
        op_error(
            op,
            f"expanded rank ({len(expanded)}) inconsistent with number of "
            f"reassociation indices ({next_dim})",
        )


def _identity_like(source: MemRefType[Attribute], shape: Sequence[int]) -> MemRefType:
    return MemRefType(source.get_element_type(), shape, NoneAttr(), source.memory_space)


def verify_memref_collapse(op: memref.CollapseShapeOp) -> None:
    source = op.src.type
    result = op.result.type
    if not isinstance(source, MemRefType) or not isinstance(result, MemRefType):
        return
    r0, r1 = len(source.get_shape()), len(result.get_shape())
    if r0 < r1:
        op_error(
            op,
            f"has source rank {r0} and result rank {r1}. This is not a collapse "
            f"({r0} < {r1}).",
        )
    verify_collapsed_shape(
        op, result.get_shape(), source.get_shape(), _groups(op.reassociation)
    )
    if isinstance(source.layout, NoneAttr):
        expected = _identity_like(source, result.get_shape())
        if expected != result:
            op_error(
                op,
                f"expected collapsed type to be {_quoted(expected)} but found "
                f"{_quoted(result)}",
            )


def verify_memref_expand(op: memref.ExpandShapeOp) -> None:
    source = op.src.type
    result = op.result.type
    if not isinstance(source, MemRefType) or not isinstance(result, MemRefType):
        return
    r0, r1 = len(source.get_shape()), len(result.get_shape())
    if r0 > r1:
        op_error(
            op,
            f"has source rank {r0} and result rank {r1}. This is not an expansion "
            f"({r0} > {r1}).",
        )
    verify_collapsed_shape(
        op, source.get_shape(), result.get_shape(), _groups(op.reassociation)
    )
    if isinstance(source.layout, NoneAttr):
        expected = _identity_like(source, result.get_shape())
        if expected != result:
            op_error(
                op,
                f"expected expanded type to be {_quoted(expected)} but found "
                f"{_quoted(result)}",
            )
    static_shape = op.static_output_shape.get_values()
    if len(static_shape) != r1:
        op_error(
            op,
            "expected number of static shape bounds to be equal to the output rank "
            f"({r1}) but found {len(static_shape)} inputs instead",
        )
    dynamic = sum(1 for size in static_shape if size == DYNAMIC_INDEX)
    if len(op.output_shape) != dynamic:
        op_error(
            op,
            "mismatch in dynamic dims in output_shape and static_output_shape: "
            f"static_output_shape has {dynamic} dynamic dims while output_shape "
            f"has {len(op.output_shape)} values",
        )
    for index, size in enumerate(result.get_shape()):
        if size != DYNAMIC_INDEX and size != static_shape[index]:
            op_error(op, f"invalid output shape provided at pos {index}")


_REASSOCIATION = irdl_to_attr_constraint(
    ArrayAttr[
        ArrayAttr[Annotated[IntegerAttr[I64], IntegerAttr.constr(value=AtLeast(0))]]
    ]
)
"""xDSL's reassociation constraint without its contiguity rule, which the
verifiers above check with MLIR's message."""


def _reassociation_without_contiguity(op: type[IRDLOperation]) -> None:
    properties = op.get_irdl_definition().properties
    properties["reassociation"] = PropertyDef(_REASSOCIATION)


def install_shape_checks() -> None:
    for op in (
        tensor.CollapseShapeOp,
        tensor.ExpandShapeOp,
        memref.CollapseShapeOp,
        memref.ExpandShapeOp,
    ):
        _reassociation_without_contiguity(op)
    tensor.PadOp.verify_ = verify_pad  # pyright: ignore[reportAttributeAccessIssue]
    chain_verifier(tensor.EmptyOp, verify_empty)
    chain_verifier(tensor.CollapseShapeOp, verify_tensor_collapse)
    tensor.ExpandShapeOp.verify_ = verify_tensor_expand  # pyright: ignore[reportAttributeAccessIssue]
    chain_verifier(memref.CollapseShapeOp, verify_memref_collapse)
    chain_verifier(memref.ExpandShapeOp, verify_memref_expand)
