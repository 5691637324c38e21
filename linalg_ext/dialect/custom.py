"""`linalg_ext.custom`: an op whose meaning is the body it carries."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from xdsl.dialects.builtin import MemRefType
from xdsl.ir import Attribute, Region, SSAValue
from xdsl.irdl import irdl_op_definition, region_def
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import IsTerminator

from linalg_ext.assembly import parse_optional_operand_group, print_operand_group
from linalg_ext.dialect.destination_style import LinalgExtDpsOp
from linalg_ext.dialect.verifiers import verify_body
from linalg_ext.dialect.yield_op import YieldOp
from linalg_ext.verification import op_error


@irdl_op_definition
class CustomOp(LinalgExtDpsOp):
    """An opaque computation wrapped in destination-passing form.

    The region takes every operand whole (inputs, then outputs) and yields
    one value per output, of the output's type: the op's results (tensors) or
    the new contents of the output buffers (memrefs).
    """

    name = "linalg_ext.custom"

    region = region_def()

    # ByteIR declares custom with `SingleBlockImplicitTerminator<YieldOp>`: a
    # body may omit an operand-less `linalg_ext.yield`, and it is not printed.
    # xDSL's declarative format has no implicit terminators, hence the
    # hand-written syntax: [attr-dict] [ins(...)] outs(...) region [-> types].

    @classmethod
    def parse(cls, parser: Parser) -> CustomOp:
        attributes = parser.parse_optional_attr_dict()
        ins = parse_optional_operand_group(parser, "ins") or []
        outs = parse_optional_operand_group(parser, "outs")
        if outs is None:
            parser.raise_error("Expected 'outs' in 'linalg_ext.custom'")
        region = parser.parse_region()
        result_types: list[Attribute] = []
        if parser.parse_optional_punctuation("->") is not None:
            result_types = parser.parse_comma_separated_list(
                Parser.Delimiter.NONE, parser.parse_type
            )
        if len(region.blocks) == 1 and not (
            (last := region.block.last_op) is not None
            and last.has_trait(IsTerminator, value_if_unregistered=False)
        ):
            region.block.add_op(YieldOp())
        return cls.build(
            operands=[ins, outs],
            result_types=[result_types],
            attributes=attributes,
            regions=[region],
        )

    def print(self, printer: Printer) -> None:
        printer.print_op_attributes(self.attributes)
        if self.inputs:
            print_operand_group(printer, "ins", self.inputs)
        print_operand_group(printer, "outs", self.outputs)
        printer.print_string(" ")
        terminator = self.region.block.last_op if len(self.region.blocks) == 1 else None
        implicit = (
            isinstance(terminator, YieldOp)
            and not terminator.operands
            and not terminator.attributes
        )
        printer.print_region(self.region, print_block_terminators=not implicit)
        if self.res:
            printer.print_string(" -> ")
            printer.print_list([r.type for r in self.res], printer.print_attribute)

    def __init__(
        self,
        inputs: Sequence[SSAValue],
        outputs: Sequence[SSAValue],
        region: Region,
        attributes: Mapping[str, Attribute] | None = None,
    ):
        super().__init__(inputs, outputs, attributes=attributes, regions=[region])

    def verify_operands(self) -> None:
        if not self.outputs:
            op_error(self, "expected at least one output operand")
        input_types = [i.type for i in self.inputs]
        output_types = [o.type for o in self.outputs]
        yield_types, yield_names = output_types, "one per output, of its type"
        on_memrefs = isinstance(output_types[0], MemRefType)
        if on_memrefs and len(self.region.blocks) == 1:
            terminator = self.region.block.last_op
            if isinstance(terminator, YieldOp) and not terminator.operands:
                # The body wrote the output buffers in place.
                yield_types = []
        verify_body(
            self,
            self.region,
            YieldOp,
            input_types + output_types,
            "one per input and output, of its type",
            yield_types,
            yield_names + (", or none on memrefs" if on_memrefs else ""),
        )
