"""`linalg_ext.batch_matmul`: batched matrix multiply in one of four layouts.

A structured op whose multiply-accumulate region (`batch_matmul_body`) is
hidden in the custom form and explicit in the generic one.
"""

from __future__ import annotations

from collections.abc import Mapping

from xdsl.builder import Builder
from xdsl.dialects import arith
from xdsl.dialects.builtin import AnyFloat, ShapedType, StringAttr, TensorType
from xdsl.dialects.linalg import ops as upstream_linalg
from xdsl.ir import Attribute, BlockArgument, Region, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    prop_def,
    region_def,
    traits_def,
    var_result_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer

from linalg_ext.assembly import parse_optional_operand_group, print_operand_group
from linalg_ext.dialect.destination_style import DestinationStyleMemoryEffect
from linalg_ext.dialect.verifiers import (
    expect_rank_at_least,
    verify_body,
    verify_destination_style,
)
from linalg_ext.shaped import (
    element_type_of,
    extents_compatible,
    format_shape,
    rank_of,
    shape_of,
)
from linalg_ext.type_functions import can_cast_signed, cast_signed, is_int_or_float
from linalg_ext.verification import op_error

BATCH_MATMUL_LAYOUTS = ("nn", "nt", "tn", "tt")


def batch_matmul_body(
    lhs_element: Attribute, rhs_element: Attribute, out_element: Attribute
) -> Region:
    """`out + cast(lhs) * cast(rhs)`, yielded with `linalg.yield`.

    This is the region ByteIR fills in with Linalg's batch_matmul region
    builder; it is hidden in the custom form and explicit in the generic one.
    """
    add, mul = (
        (arith.AddfOp, arith.MulfOp)
        if isinstance(out_element, AnyFloat)
        else (arith.AddiOp, arith.MuliOp)
    )

    @Builder.implicit_region((lhs_element, rhs_element, out_element))
    def body(args: tuple[BlockArgument, ...]) -> None:
        lhs = cast_signed(args[0], out_element)
        rhs = cast_signed(args[1], out_element)
        product = mul(lhs, rhs)
        upstream_linalg.YieldOp(add(args[2], product))

    return body


@irdl_op_definition
class BatchMatmulOp(IRDLOperation):
    """Batched matrix multiply of rank >= 3 operands in one of four layouts.

    ins(lhs, rhs) outs(init) layout = "nn" | "nt" | "tn" | "tt". The first
    letter says whether lhs is [B..., M, K] (n) or [B..., K, M] (t); the
    second whether rhs is [B..., K, N] (n) or [B..., N, K] (t). init is
    [B..., M, N] and is accumulated into. Inputs are cast to the init's
    element type before the multiply.
    """

    name = "linalg_ext.batch_matmul"

    lhs = operand_def()
    rhs = operand_def()
    init = operand_def()
    layout = prop_def(StringAttr)
    res = var_result_def()
    body = region_def()

    traits = traits_def(DestinationStyleMemoryEffect())

    def __init__(
        self,
        lhs: SSAValue,
        rhs: SSAValue,
        init: SSAValue,
        layout: str,
        attributes: Mapping[str, Attribute] | None = None,
    ):
        element_types = [
            element_type_of(v.type)
            for v in (lhs, rhs, init)
            if isinstance(v.type, ShapedType)
        ]
        super().__init__(
            operands=[lhs, rhs, init],
            result_types=[[init.type] if isinstance(init.type, TensorType) else []],
            properties={"layout": StringAttr(layout)},
            attributes=attributes,
            regions=[batch_matmul_body(*element_types)],
        )

    @property
    def inputs(self) -> tuple[SSAValue, SSAValue]:
        return (self.lhs, self.rhs)

    @property
    def outputs(self) -> tuple[SSAValue]:
        return (self.init,)

    @classmethod
    def parse(cls, parser: Parser) -> BatchMatmulOp:
        # ByteIR parses this with Linalg's `parseDstStyleOp`: an optional
        # attribute dictionary, ins, outs, then `layout = "..."`, then an
        # optional attribute dictionary. Result types follow from the init.
        attributes = parser.parse_optional_attr_dict()
        operands_pos = parser.pos
        ins = parse_optional_operand_group(parser, "ins")
        if ins is None:
            parser.raise_error("Expected 'ins' in 'linalg_ext.batch_matmul'")
        outs = parse_optional_operand_group(parser, "outs")
        if outs is None:
            parser.raise_error("Expected 'outs' in 'linalg_ext.batch_matmul'")
        parser.parse_keyword("layout", " in 'linalg_ext.batch_matmul'")
        parser.parse_punctuation("=")
        layout = parser.parse_str_literal(" for the batch_matmul layout")
        attributes |= parser.parse_optional_attr_dict()
        if "layout" in attributes:
            parser.raise_error(
                "'linalg_ext.batch_matmul' has its layout given twice, as "
                "`layout = ...` and in the attribute dictionary",
                operands_pos,
                parser.pos,
            )
        if len(ins) != 2 or len(outs) != 1:
            parser.raise_error(
                "'linalg_ext.batch_matmul' expects ins(lhs, rhs) and outs(init), "
                f"got {len(ins)} inputs and {len(outs)} outputs",
                operands_pos,
                parser.pos,
            )
        for value in (*ins, *outs):
            if not isinstance(value.type, ShapedType) or not is_int_or_float(
                element_type_of(value.type)
            ):
                parser.raise_error(
                    "'linalg_ext.batch_matmul' expects tensor or memref operands "
                    f"of integer or float elements, got {value.type}",
                    operands_pos,
                    parser.pos,
                )
        return cls(ins[0], ins[1], outs[0], layout, attributes)

    def print(self, printer: Printer) -> None:
        print_operand_group(printer, "ins", self.inputs)
        print_operand_group(printer, "outs", self.outputs)
        printer.print_string(f' layout = "{self.layout.data}"')
        printer.print_op_attributes(self.attributes)

    def verify_(self) -> None:
        verify_destination_style(
            self,
            (("lhs", self.lhs), ("rhs", self.rhs), ("init", self.init)),
            self.outputs,
            self.res,
        )
        lhs_type, rhs_type, init_type = (
            v.type for v in (self.lhs, self.rhs, self.init)
        )
        assert isinstance(lhs_type, ShapedType)
        assert isinstance(rhs_type, ShapedType)
        assert isinstance(init_type, ShapedType)
        for role, type_ in (("lhs", lhs_type), ("rhs", rhs_type), ("init", init_type)):
            if not is_int_or_float(element_type_of(type_)):
                op_error(
                    self,
                    f"expected {role} element type to be an integer or float type, "
                    f"got {element_type_of(type_)}",
                )
        init_element = element_type_of(init_type)
        for role, type_ in (("lhs", lhs_type), ("rhs", rhs_type)):
            if not can_cast_signed(element_type_of(type_), init_element):
                op_error(
                    self,
                    f"expected {role} element type {element_type_of(type_)} to "
                    f"convert to the init element type {init_element}: floats of "
                    f"the same width cannot be converted by extf or truncf",
                )
        layout = self.layout.data
        if layout not in BATCH_MATMUL_LAYOUTS:
            op_error(
                self,
                f'expected layout to be one of "nn", "nt", "tn", "tt", got "{layout}"',
            )
        expect_rank_at_least(self, "lhs", lhs_type, 3)
        rank = rank_of(lhs_type)
        if rank_of(rhs_type) != rank or rank_of(init_type) != rank:
            op_error(
                self,
                f"expected lhs, rhs and init to have the same rank, got "
                f"{rank}, {rank_of(rhs_type)} and {rank_of(init_type)}",
            )
        lhs, rhs, init = shape_of(lhs_type), shape_of(rhs_type), shape_of(init_type)
        for index in range(rank - 2):
            extents = (lhs[index], rhs[index], init[index])
            if not all(extents_compatible(a, b) for a in extents for b in extents):
                op_error(
                    self,
                    f"expected batch dimension #{index} to agree, got "
                    f"{format_shape(extents)} for lhs, rhs and init",
                )
        m_lhs, k_lhs = (lhs[-2], lhs[-1]) if layout[0] == "n" else (lhs[-1], lhs[-2])
        k_rhs, n_rhs = (rhs[-2], rhs[-1]) if layout[1] == "n" else (rhs[-1], rhs[-2])
        for what, a_role, a, b_role, b in (
            ("M", "lhs", m_lhs, "init", init[-2]),
            ("N", "rhs", n_rhs, "init", init[-1]),
            ("K", "lhs", k_lhs, "rhs", k_rhs),
        ):
            if not extents_compatible(a, b):
                op_error(
                    self,
                    f'expected {what} to agree for layout "{layout}", got {a} in '
                    f"{a_role} and {b} in {b_role}",
                )
        verify_body(
            self,
            self.body,
            upstream_linalg.YieldOp,
            tuple(element_type_of(t) for t in (lhs_type, rhs_type, init_type)),
            "lhs, rhs and init elements",
            (element_type_of(init_type),),
            "new init element",
        )
        # The custom form prints no body and the parser rebuilds the standard
        # one, so any other body would silently change meaning on a round trip.
        expected_body = batch_matmul_body(
            *(element_type_of(t) for t in (lhs_type, rhs_type, init_type))
        )
        if not self.body.is_structurally_equivalent(expected_body):
            op_error(
                self,
                "expected the body to be the multiply-accumulate "
                "`init + cast(lhs) * cast(rhs)`, as the custom form implies",
            )
