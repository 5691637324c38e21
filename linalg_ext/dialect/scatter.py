"""`linalg_ext.scatter`: updates combined into `src` at indexed positions."""

from __future__ import annotations

from collections.abc import Mapping

from xdsl.dialects.builtin import ArrayAttr, ShapedType
from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.ir import Attribute, Region, SSAValue
from xdsl.irdl import irdl_op_definition, region_def

from linalg_ext.dialect.destination_style import LinalgExtDpsOp
from linalg_ext.dialect.verifiers import (
    expect_count,
    expect_integer_elements,
    expect_rank_at_least,
    expect_same_element_type,
    verify_body,
)
from linalg_ext.dialect.yield_op import YieldOp
from linalg_ext.iterator_types import iterator_types
from linalg_ext.shaped import (
    element_type_of,
    format_shape,
    rank_of_value,
    shape_of,
    shapes_compatible,
)
from linalg_ext.verification import op_error


@irdl_op_definition
class ScatterOp(LinalgExtDpsOp):
    """Update `src` at positions given by `indices` with `updates`.

    ins(indices: [B..., D], updates: [B..., W...]) outs(src: [S0..S(D-1), W...]);
    for each batch position b, in row-major order, and window position w:
    src[indices[b, :], w] = combine(src[indices[b, :], w], updates[b, w]).
    """

    name = "linalg_ext.scatter"

    region = region_def()

    def get_iterator_types(self) -> ArrayAttr[IteratorTypeAttr]:
        """The updates' loops: the batch loops are reductions (two updates
        may hit one position), the window loops parallel."""
        batches = rank_of_value(self.inputs[0]) - 1
        return iterator_types(rank_of_value(self.inputs[1]), tuple(range(batches)))

    assembly_format = (
        "attr-dict `ins` `(` $inputs `:` type($inputs) `)` "
        "`outs` `(` $outputs `:` type($outputs) `)` "
        "$region (`->` type($res)^)?"
    )

    def __init__(
        self,
        indices: SSAValue,
        updates: SSAValue,
        src: SSAValue,
        region: Region,
        attributes: Mapping[str, Attribute] | None = None,
    ):
        super().__init__(
            [indices, updates], [src], attributes=attributes, regions=[region]
        )

    def verify_operands(self) -> None:
        expect_count(self, "input", len(self.inputs), (2,), "indices, updates")
        expect_count(self, "output", len(self.outputs), (1,), "src")
        indices_type, updates_type = (i.type for i in self.inputs)
        src_type = self.outputs[0].type
        assert isinstance(indices_type, ShapedType)
        assert isinstance(updates_type, ShapedType)
        assert isinstance(src_type, ShapedType)
        expect_integer_elements(self, "indices", indices_type)
        expect_same_element_type(self, "updates", updates_type, "src", src_type)
        expect_rank_at_least(self, "indices", indices_type, 1)
        indices_shape = shape_of(indices_type)
        updates_shape = shape_of(updates_type)
        src_shape = shape_of(src_type)
        index_depth = indices_shape[-1]
        if index_depth < 0:
            op_error(
                self,
                f"expected the last dimension of indices to be static, "
                f"got {indices_type}",
            )
        batch_rank = len(indices_shape) - 1
        expect_rank_at_least(self, "updates", updates_type, batch_rank)
        if not shapes_compatible(
            updates_shape[:batch_rank], indices_shape[:batch_rank]
        ):
            op_error(
                self,
                f"expected updates to start with the batch dimensions of indices "
                f"{format_shape(indices_shape[:batch_rank])}, got {updates_type}",
            )
        window_shape = updates_shape[batch_rank:]
        if len(src_shape) != index_depth + len(window_shape):
            op_error(
                self,
                f"expected src to have rank {index_depth + len(window_shape)} "
                f"(index depth {index_depth} + window rank {len(window_shape)}), "
                f"got {src_type}",
            )
        if not shapes_compatible(src_shape[index_depth:], window_shape):
            op_error(
                self,
                f"expected src to end with the window dimensions of updates "
                f"{format_shape(window_shape)}, got {src_type}",
            )
        verify_body(
            self,
            self.region,
            YieldOp,
            (element_type_of(src_type), element_type_of(updates_type)),
            "src element, update element",
            (element_type_of(src_type),),
            "new src element",
        )
