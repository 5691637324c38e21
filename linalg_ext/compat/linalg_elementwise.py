"""`linalg.elementwise` and `#linalg.elementwise_kind<...>` (MLIR 22), which
xDSL 0.74 lacks.

    linalg.elementwise kind=#linalg.elementwise_kind<add>
        (indexing_maps = [...])? attr-dict? ins(...) outs(...) attr-dict?
        (-> types)?

One op for every elementwise computation, the kind naming it: unary (`exp`,
`log`, `abs`, `ceil`, `floor`, `negf`, `reciprocal`, `round`, `sqrt`,
`rsqrt`, `square`, `tanh`, `erf`), binary (`add`, `sub`, `mul`, `div`,
`div_unsigned`, `max_signed`, `min_signed`, `max_unsigned`, `min_unsigned`,
`powf`) or ternary (`select`, whose first input is the i1 condition). The
indexing maps default to identities over the output's dimensions (and are
then not printed); given, they can transpose or broadcast an input. Its
hidden body is built op for op as MLIR 22 builds it (`arith.addf` or
`arith.addi`, `math.exp`, `1.0 / x` for the reciprocal, `arith.ori` for `add`
on i1, ...). Kinds MLIR builds for floats only (the math functions, `negf`,
`reciprocal`, `square`, `powf`) or for integers only (the unsigned ones) are
refused on the other element types, where mlir-opt-22 crashes.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from enum import auto
from typing import ClassVar, Self

from xdsl.builder import Builder
from xdsl.dialects import arith, math
from xdsl.dialects.builtin import (
    AffineMapAttr,
    AnyFloat,
    ArrayAttr,
    FloatAttr,
    IntegerType,
    MemRefType,
    i1,
)
from xdsl.dialects.linalg.abstract_ops import LinalgStructuredOperation, NamedOperation
from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.dialects.linalg.ops import YieldOp
from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import Attribute, BlockArgument, Operation, Region, SSAValue
from xdsl.ir.affine import AffineMap
from xdsl.irdl import irdl_attr_definition, irdl_op_definition, prop_def
from xdsl.parser import AttrParser, Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.str_enum import StrEnum

from linalg_ext.assembly import parse_optional_operand_group, print_operand_group
from linalg_ext.compat.checks import (
    element_type,
    verify_destination_results,
    verify_shaped_operands,
)
from linalg_ext.compat.linalg_named_attrs import (
    BUILD_ERRORS,
    parse_indexing_maps,
    parse_trailing_attributes,
)
from linalg_ext.compat.syntax import (
    parse_optional_result_types,
    print_result_types,
    sorted_attributes,
)
from linalg_ext.shaped import rank_of_value
from linalg_ext.verification import op_error


class ElementwiseKind(StrEnum):
    """The computations of `linalg.elementwise`, in MLIR 22's order."""

    EXP = auto()
    LOG = auto()
    ABS = auto()
    CEIL = auto()
    FLOOR = auto()
    NEGF = auto()
    RECIPROCAL = auto()
    ROUND = auto()
    SQRT = auto()
    RSQRT = auto()
    SQUARE = auto()
    TANH = auto()
    ERF = auto()
    ADD = auto()
    SUB = auto()
    MUL = auto()
    DIV = auto()
    DIV_UNSIGNED = auto()
    MAX_SIGNED = auto()
    MIN_SIGNED = auto()
    MAX_UNSIGNED = auto()
    MIN_UNSIGNED = auto()
    POWF = auto()
    SELECT = auto()


@irdl_attr_definition
class ElementwiseKindAttr(EnumAttribute[ElementwiseKind]):
    """`#linalg.elementwise_kind<add>`."""

    name = "linalg.elementwise_kind"

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> ElementwiseKind:
        with parser.in_angle_brackets():
            return super().parse_parameter(parser)

    def print_parameter(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            super().print_parameter(printer)


Payload = Callable[[Sequence[BlockArgument]], SSAValue]


def _unary(op: Callable[[SSAValue], Operation]) -> Payload:
    return lambda args: op(args[0]).results[0]


def _reciprocal(args: Sequence[BlockArgument]) -> SSAValue:
    type_ = args[0].type
    assert isinstance(type_, AnyFloat)
    return arith.DivfOp(arith.ConstantOp(FloatAttr(1.0, type_)), args[0]).result


def _binary(op: Callable[[SSAValue, SSAValue], Operation]) -> Payload:
    return lambda args: op(args[0], args[1]).results[0]


FLOAT_PAYLOADS: dict[ElementwiseKind, Payload] = {
    ElementwiseKind.EXP: _unary(math.ExpOp),
    ElementwiseKind.LOG: _unary(math.LogOp),
    ElementwiseKind.ABS: _unary(math.AbsFOp),
    ElementwiseKind.CEIL: _unary(math.CeilOp),
    ElementwiseKind.FLOOR: _unary(math.FloorOp),
    ElementwiseKind.NEGF: _unary(arith.NegfOp),
    ElementwiseKind.RECIPROCAL: _reciprocal,
    ElementwiseKind.ROUND: _unary(math.RoundOp),
    ElementwiseKind.SQRT: _unary(math.SqrtOp),
    ElementwiseKind.RSQRT: _unary(math.RsqrtOp),
    ElementwiseKind.SQUARE: lambda args: arith.MulfOp(args[0], args[0]).result,
    ElementwiseKind.TANH: _unary(math.TanhOp),
    ElementwiseKind.ERF: _unary(math.ErfOp),
    ElementwiseKind.ADD: _binary(arith.AddfOp),
    ElementwiseKind.SUB: _binary(arith.SubfOp),
    ElementwiseKind.MUL: _binary(arith.MulfOp),
    ElementwiseKind.DIV: _binary(arith.DivfOp),
    ElementwiseKind.MAX_SIGNED: _binary(arith.MaximumfOp),
    ElementwiseKind.MIN_SIGNED: _binary(arith.MinimumfOp),
    ElementwiseKind.POWF: _binary(math.PowFOp),
}
"""The body's computation on floating-point elements."""

INTEGER_PAYLOADS: dict[ElementwiseKind, Payload] = {
    ElementwiseKind.ADD: _binary(arith.AddiOp),
    ElementwiseKind.SUB: _binary(arith.SubiOp),
    ElementwiseKind.MUL: _binary(arith.MuliOp),
    ElementwiseKind.DIV: _binary(arith.DivSIOp),
    ElementwiseKind.DIV_UNSIGNED: _binary(arith.DivUIOp),
    ElementwiseKind.MAX_SIGNED: _binary(arith.MaxSIOp),
    ElementwiseKind.MIN_SIGNED: _binary(arith.MinSIOp),
    ElementwiseKind.MAX_UNSIGNED: _binary(arith.MaxUIOp),
    ElementwiseKind.MIN_UNSIGNED: _binary(arith.MinUIOp),
}
"""The body's computation on integer elements."""

BOOL_PAYLOADS: dict[ElementwiseKind, Payload] = {
    **INTEGER_PAYLOADS,
    ElementwiseKind.ADD: _binary(arith.OrIOp),
    ElementwiseKind.MUL: _binary(arith.AndIOp),
}
"""On i1, MLIR adds with `arith.ori` and multiplies with `arith.andi`; it
cannot build `sub` (mlir-opt-22 crashes), so neither do we."""
del BOOL_PAYLOADS[ElementwiseKind.SUB]

ARITY: dict[ElementwiseKind, int] = {
    **dict.fromkeys(list(ElementwiseKind)[:13], 1),
    **dict.fromkeys(list(ElementwiseKind)[13:23], 2),
    ElementwiseKind.SELECT: 3,
}
"""How many inputs each kind takes."""


def _select(args: Sequence[BlockArgument]) -> SSAValue:
    return arith.SelectOp(args[0], args[1], args[2]).result


def build_body(
    kind: ElementwiseKind, inputs: Sequence[SSAValue], outputs: Sequence[SSAValue]
) -> Region:
    """The hidden body MLIR 22 builds for `kind` over these operands; a
    VerifyException if it builds none."""
    arity = ARITY[kind]
    if len(inputs) != arity or len(outputs) != 1:
        raise VerifyException(
            f"expects {arity} input(s) and 1 output for kind {kind.value}, got "
            f"{len(inputs)} and {len(outputs)}"
        )
    arg_types = [element_type(v.type) for v in (*inputs, *outputs)]
    values = arg_types[1:] if kind == ElementwiseKind.SELECT else arg_types
    if kind == ElementwiseKind.SELECT and arg_types[0] != i1:
        raise VerifyException(
            f"expects the condition of select to have i1 elements, got {arg_types[0]}"
        )
    if len(set(values)) != 1:
        raise VerifyException(
            "expects the inputs and the output to have one element type, got "
            + ", ".join(map(str, values))
        )
    value_type = values[0]
    if kind == ElementwiseKind.SELECT:
        payload: Payload | None = _select
    elif isinstance(value_type, AnyFloat):
        payload = FLOAT_PAYLOADS.get(kind)
    elif value_type == i1:
        payload = BOOL_PAYLOADS.get(kind)
    elif isinstance(value_type, IntegerType):
        payload = INTEGER_PAYLOADS.get(kind)
    else:
        payload = None
    if payload is None:
        raise VerifyException(
            f"cannot compute kind {kind.value} on {value_type} elements"
        )

    @Builder.implicit_region(arg_types)
    def body(args: tuple[BlockArgument, ...]) -> None:
        YieldOp(payload(args[:arity]))

    return body


def identity_maps(rank: int, count: int) -> ArrayAttr[AffineMapAttr]:
    return ArrayAttr((AffineMapAttr(AffineMap.identity(rank)),) * count)


@irdl_op_definition
class ElementwiseOp(NamedOperation):
    """Applies the computation `kind` names to the inputs' elements at each
    index of the output and writes the result there.

    Each operand's indexing map says which of its elements goes with an
    index of the output (all identities by default). All operands have one
    element type, but for the i1 condition of `select`.

    See external [documentation](https://mlir.llvm.org/docs/Dialects/Linalg/#linalgelementwise-linalgelementwiseop).
    """

    name = "linalg.elementwise"

    PRINT_ATTRS_IN_FRONT: ClassVar[bool] = True

    kind = prop_def(ElementwiseKindAttr)
    indexing_maps = prop_def(ArrayAttr[AffineMapAttr])

    def __init__(
        self,
        kind: ElementwiseKind | ElementwiseKindAttr,
        inputs: Sequence[SSAValue],
        outputs: Sequence[SSAValue],
        res: Sequence[Attribute] | None = None,
        indexing_maps: ArrayAttr[AffineMapAttr] | None = None,
        attributes: dict[str, Attribute] | None = None,
    ):
        kind_attr = (
            kind if isinstance(kind, ElementwiseKindAttr) else ElementwiseKindAttr(kind)
        )
        if indexing_maps is None:
            indexing_maps = _default_maps(inputs, outputs)
        if res is None:
            res = [o.type for o in outputs if not _is_memref(o)]
        super().__init__(
            ins=inputs,
            outs=outputs,
            result_types=res,
            properties={"kind": kind_attr, "indexing_maps": indexing_maps},
            attributes=attributes,
            hidden_region=build_body(kind_attr.data, inputs, outputs),
        )

    @classmethod
    def get_hidden_region(
        cls, inputs: Sequence[SSAValue], outputs: Sequence[SSAValue]
    ) -> Region:
        raise VerifyException("the body of linalg.elementwise depends on its kind")

    def get_default_indexing_maps(self) -> Sequence[AffineMap]:
        return tuple(m.data for m in self.indexing_maps.data)

    def get_indexing_maps(self) -> ArrayAttr[AffineMapAttr]:
        return self.indexing_maps

    def get_iterator_types(self) -> ArrayAttr[IteratorTypeAttr]:
        return ArrayAttr((IteratorTypeAttr.parallel(),) * self.get_num_loops())

    def verify_(self) -> None:
        kind = self.kind.data
        arity = ARITY[kind]
        if len(self.inputs) != arity or len(self.outputs) != 1:
            op_error(
                self,
                f"expects {arity} input(s) and 1 output for kind {kind.value}, got "
                f"{len(self.inputs)} and {len(self.outputs)}",
            )
        roles = [(f"input #{i}", v) for i, v in enumerate(self.inputs)]
        verify_shaped_operands(self, [*roles, ("output", self.outputs[0])])
        verify_destination_results(self, self.outputs, self.res)
        rank = rank_of_value(self.outputs[0])
        for index, map_ in enumerate(self.indexing_maps.data):
            if map_.data.num_dims != rank:
                op_error(
                    self,
                    f"expected indexing_map #{index} to have {rank} dim(s), the "
                    "rank of the output",
                )
        try:
            LinalgStructuredOperation.verify_(self)
        except VerifyException as error:
            op_error(self, str(error))

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        start = parser.pos
        parser.parse_keyword("kind")
        parser.parse_punctuation("=")
        kind_pos = parser.pos
        kind = parser.parse_attribute()
        if not isinstance(kind, ElementwiseKindAttr):
            parser.raise_error(
                "'linalg.elementwise' expects kind=#linalg.elementwise_kind<...>",
                kind_pos,
                parser.pos,
            )
        maps = None
        if parser.parse_optional_keyword("indexing_maps") is not None:
            maps = parse_indexing_maps(parser, cls.name)
        attributes = parser.parse_optional_attr_dict()
        inputs = parse_optional_operand_group(parser, "ins") or ()
        outputs = parse_optional_operand_group(parser, "outs") or ()
        attributes |= parse_trailing_attributes(parser)
        result_types = parse_optional_result_types(parser)
        try:
            return cls(kind, inputs, outputs, result_types, maps, attributes)
        except BUILD_ERRORS as error:
            parser.raise_error(f"'{cls.name}' {error}", start, parser.pos)

    def print(self, printer: Printer) -> None:
        printer.print_string(" kind=")
        printer.print_attribute(self.kind)
        if self.indexing_maps != _default_maps(self.inputs, self.outputs):
            printer.print_string(" indexing_maps = ")
            printer.print_attribute(self.indexing_maps)
        printer.print_op_attributes(sorted_attributes(self.attributes))
        print_operand_group(printer, "ins", self.inputs)
        print_operand_group(printer, "outs", self.outputs)
        print_result_types(printer, self.res.types)


def _is_memref(value: SSAValue) -> bool:
    return isinstance(value.type, MemRefType)


def _default_maps(
    inputs: Sequence[SSAValue], outputs: Sequence[SSAValue]
) -> ArrayAttr[AffineMapAttr]:
    """Identities over the output's dimensions, one per operand."""
    rank = rank_of_value(outputs[0]) if outputs else 0
    return identity_maps(rank, len(inputs) + len(outputs))
