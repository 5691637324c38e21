"""`linalg.reduce` as MLIR 22 defines it: several inputs and inits.

xDSL 0.74's `linalg.reduce` has exactly one input and one init, so a
reduction computing several values at once (a sum and a maximum, an argmax
over values and indices) cannot be read, in the custom or the generic form.
Its parser also lacks the short form `linalg.reduce { arith.addf } ins(...)
outs(...) dimensions = [...]` and the attribute dictionary MLIR prints after
the dimensions, and its printer drops the op's attributes.

`compat.install()` puts `ReduceOp` in place of xDSL's class in the `linalg`
dialect (a context knows one class per op name). So that code written
against xDSL's class keeps working, it is registered as a virtual subclass
of it (`isinstance` holds), and it answers `input`, `init` and `region`
as xDSL's does when it has one input and one init.

Syntax, as MLIR 22 reads and prints it:

    linalg.reduce { payload-op attr-dict? } ins(...) outs(...)
        dimensions = [...] attr-dict?
    linalg.reduce ins(...) outs(...) dimensions = [...] attr-dict?
        (%in: T, ..., %init: T, ...) { region }

The short form stands for a combiner that applies the payload op to the
init's element, then the inputs' elements, and yields its one result.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Self

from xdsl.dialects.builtin import (
    AffineMapAttr,
    ArrayAttr,
    DenseArrayBase,
    TensorType,
    i64,
)
from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.dialects.linalg.ops import YieldOp
from xdsl.ir import Attribute, Block, Region, SSAValue
from xdsl.ir.affine import AffineMap
from xdsl.irdl import (
    IRDLOperation,
    SameVariadicOperandSize,
    irdl_op_definition,
    prop_def,
    region_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer

from linalg_ext.assembly import parse_optional_operand_group, print_operand_group
from linalg_ext.compat.checks import (
    element_type,
    verify_destination_results,
    verify_shaped_operands,
)
from linalg_ext.compat.linalg_named_attrs import (
    print_integer_list,
    print_trailing_attributes,
)
from linalg_ext.compat.linalg_ops import TENSOR_OR_MEMREF
from linalg_ext.compat.short_form import (
    build_short_form_region,
    parse_optional_short_form,
    print_short_form,
    short_form_payload,
)
from linalg_ext.iterator_types import iterator_types
from linalg_ext.shaped import is_ranked_shaped
from linalg_ext.verification import op_error


@irdl_op_definition
class ReduceOp(IRDLOperation):
    """Folds the inputs over the `dimensions` into the inits.

    The inputs have one shape; the inits have that shape without the reduced
    dimensions. The combiner takes one element of each input, then the
    current value of each init, and yields the new value of each init; it is
    applied for every index of the inputs, in any order (the combination is
    meant to be associative and commutative). Tensor inits give results of
    their types; memref inits are written in place.

    See external [documentation](https://mlir.llvm.org/docs/Dialects/Linalg/#linalgreduce-linalgreduceop).
    """

    name = "linalg.reduce"

    inputs = var_operand_def(TENSOR_OR_MEMREF)
    inits = var_operand_def(TENSOR_OR_MEMREF)
    result = var_result_def(TensorType)
    # `region`, not upstream's `combiner`: xDSL's class names it so.
    region = region_def("single_block")
    dimensions = prop_def(DenseArrayBase.constr(i64))

    irdl_options = (SameVariadicOperandSize(),)

    def __init__(
        self,
        inputs: Sequence[SSAValue],
        inits: Sequence[SSAValue],
        dimensions: Sequence[int] | DenseArrayBase,
        region: Region,
        attributes: dict[str, Attribute] | None = None,
    ):
        if not isinstance(dimensions, DenseArrayBase):
            dimensions = DenseArrayBase.from_list(i64, dimensions)
        super().__init__(
            operands=[inputs, inits],
            result_types=[[v.type for v in inits if isinstance(v.type, TensorType)]],
            properties={"dimensions": dimensions},
            regions=[region],
            attributes=attributes,
        )

    # The queries of xDSL's one-input class, and of structured ops.

    @property
    def input(self) -> SSAValue:
        return self._single(self.inputs, "input")

    @property
    def init(self) -> SSAValue:
        return self._single(self.inits, "init")

    def _single(self, values: Sequence[SSAValue], role: str) -> SSAValue:
        if len(values) != 1:
            raise ValueError(
                f"this linalg.reduce has {len(values)} {role}s; use `{role}s`"
            )
        return values[0]

    @property
    def outputs(self) -> tuple[SSAValue, ...]:
        return tuple(self.inits)

    def reduced_dimensions(self) -> list[int]:
        return list(self.dimensions.get_values())

    def get_indexing_maps(self) -> ArrayAttr[AffineMapAttr]:
        rank = _rank(self.inputs[0])
        identity = AffineMap.identity(rank)
        reduced = self.reduced_dimensions()
        kept = identity.drop_results([d in reduced for d in range(rank)])
        return ArrayAttr(
            (AffineMapAttr(identity),) * len(self.inputs)
            + (AffineMapAttr(kept),) * len(self.inits)
        )

    def get_iterator_types(self) -> ArrayAttr[IteratorTypeAttr]:
        return iterator_types(_rank(self.inputs[0]), self.reduced_dimensions())

    def verify_(self) -> None:
        if not self.inputs or len(self.inputs) != len(self.inits):
            op_error(
                self,
                "expects as many inits as inputs, and at least one, got "
                f"{len(self.inputs)} and {len(self.inits)}",
            )
        roles = [(f"input #{i}", v) for i, v in enumerate(self.inputs)]
        roles += [(f"init #{i}", v) for i, v in enumerate(self.inits)]
        verify_shaped_operands(self, roles)
        verify_destination_results(self, self.inits, self.result)
        for kind, values in (("inputs", self.inputs), ("outputs", self.inits)):
            shapes = [_shape(v) for v in values]
            for index, shape in enumerate(shapes[1:], 1):
                if shape != shapes[0]:
                    op_error(
                        self,
                        f"expects all {kind} to have the same shapes. Shape at "
                        f"{kind[:-1]}-index {index} is not equal to the shape at "
                        f"{kind[:-1]}-index 0.",
                    )
        input_shape, init_shape = _shape(self.inputs[0]), _shape(self.inits[0])
        dimensions = self.reduced_dimensions()
        rank = len(input_shape)
        if len(set(dimensions)) != len(dimensions) or any(
            not 0 <= d < rank for d in dimensions
        ):
            op_error(
                self,
                f"dimensions for reduction should be distinct and in the range "
                f"[0, {rank - 1}], got {dimensions}",
            )
        kept = [s for d, s in enumerate(input_shape) if d not in dimensions]
        if len(kept) != len(init_shape):
            op_error(
                self,
                f"number of dimensions after reduction {len(kept)} doesn't match "
                f"the init rank {len(init_shape)}",
            )
        pairs = zip(kept, init_shape, strict=True)
        if any(a != b and a >= 0 and b >= 0 for a, b in pairs):
            op_error(
                self,
                f"init dimensions [{_shape_text(init_shape)}] doesn't match input "
                f"dimensions after reduction [{_shape_text(kept)}]",
            )
        self._verify_combiner()

    def _verify_combiner(self) -> None:
        block = self.region.block
        operands = (*self.inputs, *self.inits)
        if len(block.args) != len(operands):
            op_error(
                self,
                f"mismatching number of operands and block arguments: "
                f"{len(operands)} and {len(block.args)}",
            )
        for index, (value, arg) in enumerate(zip(operands, block.args, strict=True)):
            kind = "input" if index < len(self.inputs) else "output"
            if arg.type != element_type(value.type):
                op_error(
                    self,
                    f"{kind} element type {element_type(value.type)} does not "
                    f"match corresponding block argument type {arg.type}",
                )
        terminator = block.last_op
        if not isinstance(terminator, YieldOp):
            op_error(self, "expected the combiner to end with linalg.yield")
        yielded = [v.type for v in terminator.arguments]
        expected = [element_type(v.type) for v in self.inits]
        if yielded != expected:
            op_error(
                self,
                "expected the combiner to yield the inits' element types ("
                + ", ".join(map(str, expected))
                + "), got ("
                + ", ".join(map(str, yielded))
                + ")",
            )

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        start = parser.pos
        payload = parse_optional_short_form(parser, cls.name)
        inputs = parse_optional_operand_group(parser, "ins") or ()
        inits = parse_optional_operand_group(parser, "outs") or ()
        for value in (*inputs, *inits):
            if not is_ranked_shaped(value.type):
                parser.raise_error(
                    "'linalg.reduce' expects tensor or memref operands, got "
                    f"{value.type}",
                    start,
                    parser.pos,
                )
        if not inits:
            parser.raise_error("'linalg.reduce' expects outs(...)", start, parser.pos)
        parser.parse_keyword("dimensions")
        parser.parse_punctuation("=")
        dimensions = parser.parse_comma_separated_list(
            Parser.Delimiter.SQUARE, parser.parse_integer
        )
        attributes = parser.parse_optional_attr_dict()
        if payload is not None:
            region = build_short_form_region(
                parser,
                cls.name,
                payload,
                (*inputs, *inits),
                _payload_operands,
                element_type(inits[-1].type),
            )
        else:
            arguments = parser.parse_comma_separated_list(
                Parser.Delimiter.PAREN, parser.parse_argument
            )
            region = parser.parse_region(arguments)
        return cls(inputs, inits, dimensions, region, attributes)

    def print(self, printer: Printer) -> None:
        payload = (
            short_form_payload(self.region, _payload_operands)
            if len(self.inits) == 1
            else None
        )
        if payload is not None:
            print_short_form(printer, payload)
        print_operand_group(printer, "ins", self.inputs)
        print_operand_group(printer, "outs", self.inits)
        print_integer_list(printer, "dimensions", self.reduced_dimensions())
        print_trailing_attributes(printer, dict(self.attributes))
        if payload is not None:
            return
        with printer.indented():
            printer.print_string("\n(")
            printer.print_list(self.region.block.args, printer.print_block_argument)
            printer.print_string(") ")
            printer.print_region(self.region, print_entry_block_args=False)


def _rank(value: SSAValue) -> int:
    return len(_shape(value))


def _shape(value: SSAValue) -> tuple[int, ...]:
    type_ = value.type
    assert is_ranked_shaped(type_)
    return tuple(type_.get_shape())


def _shape_text(shape: Sequence[int]) -> str:
    return ", ".join("?" if s < 0 else str(s) for s in shape)


def _payload_operands(block: Block) -> tuple[SSAValue, ...]:
    """What the short form applies its payload op to: the last init's
    element, then every other argument in order (MLIR's `initFirst`)."""
    return (block.args[-1], *block.args[:-1])
