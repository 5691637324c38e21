"""GPU mapping attributes (`#gpu.thread<x>` and kin), which xDSL 0.74's `gpu`
dialect lacks.

They are what `scf.forall`'s `mapping` names: which hardware dimension each
loop is distributed over.
"""

from __future__ import annotations

from typing import Any

from xdsl.dialects.utils import EnumAttribute
from xdsl.irdl import irdl_attr_definition
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.str_enum import StrEnum


class MappingId(StrEnum):
    """The dimensions a loop may be mapped to, as MLIR names them."""

    X = "x"
    Y = "y"
    Z = "z"
    LINEAR_DIM_0 = "linear_dim_0"
    LINEAR_DIM_1 = "linear_dim_1"
    LINEAR_DIM_2 = "linear_dim_2"
    LINEAR_DIM_3 = "linear_dim_3"
    LINEAR_DIM_4 = "linear_dim_4"
    LINEAR_DIM_5 = "linear_dim_5"
    LINEAR_DIM_6 = "linear_dim_6"
    LINEAR_DIM_7 = "linear_dim_7"
    LINEAR_DIM_8 = "linear_dim_8"
    LINEAR_DIM_9 = "linear_dim_9"


class MappingAttrSyntax:
    """`<x>` after the attribute's name: xDSL's `EnumAttribute` prints its
    value bare, which only reads back in the opaque `#gpu<thread x>` form."""

    # A mixin: `super()` is the EnumAttribute after it in the attribute's
    # bases, which pyright cannot know (hence the two ignores).

    def print_parameter(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            super().print_parameter(printer)  # pyright: ignore[reportAttributeAccessIssue]

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> Any:
        with parser.in_angle_brackets():
            return super().parse_parameter(parser)  # pyright: ignore[reportAttributeAccessIssue]


@irdl_attr_definition
class BlockMappingAttr(MappingAttrSyntax, EnumAttribute[MappingId]):
    """A loop distributed over thread blocks: `#gpu.block<x>`."""

    name = "gpu.block"


@irdl_attr_definition
class ThreadMappingAttr(MappingAttrSyntax, EnumAttribute[MappingId]):
    """A loop distributed over the threads of a block: `#gpu.thread<x>`."""

    name = "gpu.thread"


@irdl_attr_definition
class WarpMappingAttr(MappingAttrSyntax, EnumAttribute[MappingId]):
    """A loop distributed over warps: `#gpu.warp<x>`."""

    name = "gpu.warp"


@irdl_attr_definition
class WarpgroupMappingAttr(MappingAttrSyntax, EnumAttribute[MappingId]):
    """A loop distributed over warpgroups: `#gpu.warpgroup<x>`."""

    name = "gpu.warpgroup"


@irdl_attr_definition
class LaneMappingAttr(MappingAttrSyntax, EnumAttribute[MappingId]):
    """A loop distributed over the lanes of a warp: `#gpu.lane<x>`."""

    name = "gpu.lane"


GPU_MAPPING_ATTRS = (
    BlockMappingAttr,
    ThreadMappingAttr,
    WarpMappingAttr,
    WarpgroupMappingAttr,
    LaneMappingAttr,
)
"""Every attribute this module adds to xDSL's `gpu` dialect."""
