"""`llvm` dialect ops xDSL 0.74 lacks, with their translation to LLVM IR.

Each op is an IRDL definition with upstream MLIR's name and syntax, appended
to xDSL's `llvm` dialect by `compat.install()`, and its translation is
registered with `compat.llvm_translation.translates`. The scalar lowerings
(`convert-{arith,math,cf}-to-llvm`) produce them:

- casts `llvm.fptosi`, `llvm.fptoui`, `llvm.uitofp`;
- `llvm.switch`;
- intrinsics `llvm.intr.maximum`/`minimum` (NaN-propagating float
  max/min), `llvm.intr.round`/`roundeven`/`trunc`/`log10`,
  `llvm.intr.smax`/`smin`/`umax`/`umin`, `llvm.intr.ctpop`, and
  `llvm.intr.ctlz`/`cttz`/`abs` with their poison flag (printed in generic
  form, as upstream prints them).

It also replaces xDSL's translation of ops xDSL has but translates wrongly:

- every intrinsic op (`llvm.intr.fabs`, `exp`, `exp2`, `log`, `log2`, `sqrt`,
  `sin`, `cos`, `ceil`, `floor`, `pow`, `maxnum`, `minnum`, `copysign`,
  `fma`): xDSL declares the intrinsic under its unmangled name
  (`llvm.fabs`), so a module that uses one on f32 and on f64 reuses the
  first declaration for both and fails; it also drops the fast-math flags
  (and refuses them on `fma`). Here each is declared per type
  (`llvm.fabs.f32`, `llvm.fabs.f64`) and called with its flags;
- `llvm.fcmp`: xDSL fails on the predicates `_false` and `_true` and drops
  the fast-math flags.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from llvmlite import ir
from llvmlite.ir import instructions
from xdsl.backend.llvm.convert_type import convert_type
from xdsl.dialects import llvm
from xdsl.dialects.builtin import (
    I1,
    AnyFloatConstr,
    BoolAttr,
    DenseArrayBase,
    DenseIntElementsAttr,
    IntegerAttr,
    IntegerType,
    SignlessIntegerConstraint,
    VectorType,
    i32,
)
from xdsl.dialects.utils.fast_math import FastMathFlag
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    ParsePropInAttrDict,
    VarConstraint,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    successor_def,
    traits_def,
    var_operand_def,
    var_successor_def,
)
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.traits import IsTerminator, NoMemoryEffect, Pure
from xdsl.utils.exceptions import VerifyException

from linalg_ext.compat.llvm_translation import llvm_type_of, translates

FloatLike = AnyFloatConstr | VectorType.constr(AnyFloatConstr)
IntegerLike = SignlessIntegerConstraint | VectorType.constr(SignlessIntegerConstraint)


def _fastmath(fast_math: llvm.FastMathAttr | FastMathFlag | None) -> llvm.FastMathAttr:
    if isinstance(fast_math, llvm.FastMathAttr):
        return fast_math
    return llvm.FastMathAttr(fast_math)


# --------------------------------------------------------------------------
# Casts


@irdl_op_definition
class FPToSIOp(llvm.GenericCastOp):
    """Float to signed integer, truncating toward zero (poison out of range)."""

    name = "llvm.fptosi"


@irdl_op_definition
class FPToUIOp(llvm.GenericCastOp):
    """Float to unsigned integer, truncating toward zero (poison out of range)."""

    name = "llvm.fptoui"


@irdl_op_definition
class UIToFPOp(llvm.GenericCastOp):
    """Unsigned integer to float, rounding to nearest."""

    name = "llvm.uitofp"


# --------------------------------------------------------------------------
# Intrinsics


class FloatUnaryIntrinsic(IRDLOperation):
    """`llvm.intr.<name>(%x) : (f32) -> f32`, with fast-math flags."""

    T: ClassVar = VarConstraint("T", FloatLike)

    input = operand_def(T)
    result = result_def(T)
    fastmathFlags = prop_def(llvm.FastMathAttr, default_value=llvm.FastMathAttr(None))

    traits = traits_def(Pure())
    assembly_format = (
        "`(` operands `)` attr-dict `:` functional-type(operands, results)"
    )
    irdl_options = (ParsePropInAttrDict(),)

    INTRINSIC: ClassVar[str]
    """The LLVM intrinsic, without its type suffix."""

    def __init__(
        self,
        input: SSAValue | Operation,
        fast_math: llvm.FastMathAttr | FastMathFlag | None = None,
    ):
        input = SSAValue.get(input)
        super().__init__(
            operands=[input],
            result_types=[input.type],
            properties={"fastmathFlags": _fastmath(fast_math)},
        )


@irdl_op_definition
class RoundOp(FloatUnaryIntrinsic):
    """Round to the nearest integer, halfway cases away from zero."""

    name = "llvm.intr.round"
    INTRINSIC: ClassVar[str] = "llvm.round"


@irdl_op_definition
class RoundEvenOp(FloatUnaryIntrinsic):
    """Round to the nearest integer, halfway cases to even."""

    name = "llvm.intr.roundeven"
    INTRINSIC: ClassVar[str] = "llvm.roundeven"


@irdl_op_definition
class FTruncOp(FloatUnaryIntrinsic):
    """Round toward zero to an integer value."""

    name = "llvm.intr.trunc"
    INTRINSIC: ClassVar[str] = "llvm.trunc"


@irdl_op_definition
class Log10Op(FloatUnaryIntrinsic):
    """Base-10 logarithm."""

    name = "llvm.intr.log10"
    INTRINSIC: ClassVar[str] = "llvm.log10"


class FloatBinaryIntrinsic(IRDLOperation):
    """`llvm.intr.<name>(%a, %b) : (f32, f32) -> f32`, with fast-math flags."""

    T: ClassVar = VarConstraint("T", FloatLike)

    lhs = operand_def(T)
    rhs = operand_def(T)
    res = result_def(T)
    fastmathFlags = prop_def(llvm.FastMathAttr, default_value=llvm.FastMathAttr(None))

    traits = traits_def(Pure())
    assembly_format = (
        "`(` operands `)` attr-dict `:` functional-type(operands, results)"
    )
    irdl_options = (ParsePropInAttrDict(),)

    INTRINSIC: ClassVar[str]

    def __init__(
        self,
        lhs: SSAValue | Operation,
        rhs: SSAValue | Operation,
        fast_math: llvm.FastMathAttr | FastMathFlag | None = None,
    ):
        lhs = SSAValue.get(lhs)
        super().__init__(
            operands=[lhs, rhs],
            result_types=[lhs.type],
            properties={"fastmathFlags": _fastmath(fast_math)},
        )


@irdl_op_definition
class MaximumOp(FloatBinaryIntrinsic):
    """The larger operand; NaN if either is NaN; -0.0 < +0.0."""

    name = "llvm.intr.maximum"
    INTRINSIC: ClassVar[str] = "llvm.maximum"


@irdl_op_definition
class MinimumOp(FloatBinaryIntrinsic):
    """The smaller operand; NaN if either is NaN; -0.0 < +0.0."""

    name = "llvm.intr.minimum"
    INTRINSIC: ClassVar[str] = "llvm.minimum"


class IntegerBinaryIntrinsic(IRDLOperation):
    """`llvm.intr.<name>(%a, %b) : (i32, i32) -> i32`."""

    T: ClassVar = VarConstraint("T", IntegerLike)

    lhs = operand_def(T)
    rhs = operand_def(T)
    res = result_def(T)

    traits = traits_def(Pure())
    assembly_format = (
        "`(` operands `)` attr-dict `:` functional-type(operands, results)"
    )

    INTRINSIC: ClassVar[str]

    def __init__(self, lhs: SSAValue | Operation, rhs: SSAValue | Operation):
        lhs = SSAValue.get(lhs)
        super().__init__(operands=[lhs, rhs], result_types=[lhs.type])


@irdl_op_definition
class SMaxOp(IntegerBinaryIntrinsic):
    name = "llvm.intr.smax"
    INTRINSIC: ClassVar[str] = "llvm.smax"


@irdl_op_definition
class SMinOp(IntegerBinaryIntrinsic):
    name = "llvm.intr.smin"
    INTRINSIC: ClassVar[str] = "llvm.smin"


@irdl_op_definition
class UMaxOp(IntegerBinaryIntrinsic):
    name = "llvm.intr.umax"
    INTRINSIC: ClassVar[str] = "llvm.umax"


@irdl_op_definition
class UMinOp(IntegerBinaryIntrinsic):
    name = "llvm.intr.umin"
    INTRINSIC: ClassVar[str] = "llvm.umin"


@irdl_op_definition
class CtPopOp(IRDLOperation):
    """The number of set bits."""

    name = "llvm.intr.ctpop"

    T: ClassVar = VarConstraint("T", IntegerLike)
    input = operand_def(T)
    result = result_def(T)

    traits = traits_def(Pure())
    assembly_format = (
        "`(` operands `)` attr-dict `:` functional-type(operands, results)"
    )

    def __init__(self, input: SSAValue | Operation):
        input = SSAValue.get(input)
        super().__init__(operands=[input], result_types=[input.type])


class FlaggedIntegerIntrinsic(IRDLOperation):
    """An integer intrinsic of one operand whose second LLVM argument is a
    constant i1 flag (a property here, as upstream); printed generically."""

    T: ClassVar = VarConstraint("T", IntegerLike)
    input = operand_def(T)
    result = result_def(T)

    traits = traits_def(Pure())

    INTRINSIC: ClassVar[str]
    FLAG_NAME: ClassVar[str]

    def __init__(self, input: SSAValue | Operation, flag: bool = False):
        input = SSAValue.get(input)
        super().__init__(
            operands=[input],
            result_types=[input.type],
            properties={self.FLAG_NAME: BoolAttr.from_bool(flag)},
        )

    def flag(self) -> bool:
        attr = self.properties[self.FLAG_NAME]
        assert isinstance(attr, IntegerAttr)
        return bool(attr.value.data)


@irdl_op_definition
class CountLeadingZerosOp(FlaggedIntegerIntrinsic):
    """Leading zero bits; the width for 0 unless `is_zero_poison`."""

    name = "llvm.intr.ctlz"
    INTRINSIC: ClassVar[str] = "llvm.ctlz"
    FLAG_NAME: ClassVar[str] = "is_zero_poison"
    is_zero_poison = prop_def(IntegerAttr[I1])


@irdl_op_definition
class CountTrailingZerosOp(FlaggedIntegerIntrinsic):
    """Trailing zero bits; the width for 0 unless `is_zero_poison`."""

    name = "llvm.intr.cttz"
    INTRINSIC: ClassVar[str] = "llvm.cttz"
    FLAG_NAME: ClassVar[str] = "is_zero_poison"
    is_zero_poison = prop_def(IntegerAttr[I1])


@irdl_op_definition
class AbsOp(FlaggedIntegerIntrinsic):
    """Integer absolute value; the minimum value is its own absolute value
    unless `is_int_min_poison`."""

    name = "llvm.intr.abs"
    INTRINSIC: ClassVar[str] = "llvm.abs"
    FLAG_NAME: ClassVar[str] = "is_int_min_poison"
    is_int_min_poison = prop_def(IntegerAttr[I1])


# --------------------------------------------------------------------------
# llvm.switch


def _parse_destination(
    parser: Parser,
) -> tuple[Block, list[UnresolvedOperand], list[Attribute]]:
    block = parser.parse_successor()
    operands: list[UnresolvedOperand] = []
    types: list[Attribute] = []
    if parser.parse_optional_punctuation("(") is not None:
        operands = parser.parse_comma_separated_list(
            Parser.Delimiter.NONE, parser.parse_unresolved_operand
        )
        parser.parse_punctuation(":")
        types = parser.parse_comma_separated_list(
            Parser.Delimiter.NONE, parser.parse_type
        )
        parser.parse_punctuation(")")
    return block, operands, types


def _print_destination(
    printer: Printer, block: Block, operands: Sequence[SSAValue]
) -> None:
    printer.print_block_name(block)
    if operands:
        with printer.in_parens():
            printer.print_list(operands, printer.print_operand)
            printer.print_string(" : ")
            printer.print_list([o.type for o in operands], printer.print_attribute)


@irdl_op_definition
class SwitchOp(IRDLOperation):
    """Multi-way branch on an integer:

    llvm.switch %flag : i32, ^default(%a : i64) [
      3: ^bb1,
      -7: ^bb2(%b : i64)
    ]
    """

    name = "llvm.switch"

    value = operand_def(SignlessIntegerConstraint)
    default_operands = var_operand_def()
    case_operands = var_operand_def()

    case_values = opt_prop_def(DenseIntElementsAttr)
    case_operand_segments = prop_def(DenseArrayBase.constr(i32))

    default_destination = successor_def()
    case_destinations = var_successor_def()

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(IsTerminator(), NoMemoryEffect())

    def __init__(
        self,
        value: SSAValue | Operation,
        default_destination: Block,
        default_operands: Sequence[SSAValue | Operation],
        case_values: Sequence[int],
        case_destinations: Sequence[Block],
        case_operands: Sequence[Sequence[SSAValue | Operation]],
    ):
        value = SSAValue.get(value)
        properties: dict[str, Attribute] = {
            "case_operand_segments": DenseArrayBase.from_list(
                i32, [len(o) for o in case_operands]
            )
        }
        if case_values:
            # The cases are of the switched value's (signless integer) type.
            value_type = value.type
            assert isinstance(value_type, IntegerType)
            properties["case_values"] = DenseIntElementsAttr.from_list(
                VectorType(value_type, (len(case_values),)), list(case_values)
            )
        super().__init__(
            operands=[value, default_operands, [o for os in case_operands for o in os]],
            properties=properties,
            successors=[default_destination, case_destinations],
        )

    def cases(self) -> list[tuple[int, Block, Sequence[SSAValue]]]:
        """(value, destination, operands) of every case, in order."""
        values = self.case_values.get_values() if self.case_values else ()
        result: list[tuple[int, Block, Sequence[SSAValue]]] = []
        start = 0
        for value, block, size in zip(
            values,
            self.case_destinations,
            self.case_operand_segments.get_values(),
            strict=True,
        ):
            result.append((int(value), block, self.case_operands[start : start + size]))
            start += size
        return result

    def verify_(self) -> None:
        count = len(self.case_values.get_values()) if self.case_values else 0
        if count != len(self.case_destinations):
            raise VerifyException(
                f"expects {len(self.case_destinations)} case values, got {count}"
            )
        if self.case_values and (
            self.case_values.get_element_type() != self.value.type
        ):
            raise VerifyException("case values must have the type of the value")
        segments = self.case_operand_segments.get_values()
        if len(segments) != len(self.case_destinations) or sum(segments) != len(
            self.case_operands
        ):
            raise VerifyException("case operand segments do not match the cases")

    @classmethod
    def parse(cls, parser: Parser) -> SwitchOp:
        unresolved_value = parser.parse_unresolved_operand()
        parser.parse_punctuation(":")
        value_type = parser.parse_type()
        value = parser.resolve_operand(unresolved_value, value_type)
        parser.parse_punctuation(",")
        default, default_unresolved, default_types = _parse_destination(parser)
        default_operands = parser.resolve_operands(
            default_unresolved, default_types, parser.pos
        )

        def parse_case() -> tuple[int, Block, Sequence[SSAValue]]:
            case_value = parser.parse_integer()
            parser.parse_punctuation(":")
            block, unresolved, types = _parse_destination(parser)
            return (
                case_value,
                block,
                parser.resolve_operands(unresolved, types, parser.pos),
            )

        cases = parser.parse_comma_separated_list(Parser.Delimiter.SQUARE, parse_case)
        attributes = parser.parse_optional_attr_dict()
        op = cls(
            value,
            default,
            default_operands,
            [c[0] for c in cases],
            [c[1] for c in cases],
            [c[2] for c in cases],
        )
        op.attributes |= attributes
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.value)
        printer.print_string(" : ")
        printer.print_attribute(self.value.type)
        printer.print_string(", ")
        _print_destination(printer, self.default_destination, self.default_operands)
        cases = self.cases()
        if not cases:
            printer.print_string(" []")
            printer.print_op_attributes(self.attributes)
            return
        printer.print_string(" [")
        with printer.indented():
            for index, (value, block, operands) in enumerate(cases):
                if index:
                    printer.print_string(",")
                printer.print_string(f"\n{value}: ")
                _print_destination(printer, block, operands)
        printer.print_string("\n]")
        printer.print_op_attributes(self.attributes)


LLVM_OPS: tuple[type[Operation], ...] = (
    FPToSIOp,
    FPToUIOp,
    UIToFPOp,
    RoundOp,
    RoundEvenOp,
    FTruncOp,
    Log10Op,
    MaximumOp,
    MinimumOp,
    SMaxOp,
    SMinOp,
    UMaxOp,
    UMinOp,
    CtPopOp,
    CountLeadingZerosOp,
    CountTrailingZerosOp,
    AbsOp,
    SwitchOp,
)
"""Every op defined here, in the order `compat.install()` appends them."""


# --------------------------------------------------------------------------
# Translations

Values = dict[SSAValue, ir.Value]


def _flags(op: Operation) -> list[str]:
    attr = op.properties.get("fastmathFlags")
    if not isinstance(attr, llvm.FastMathAttr):
        return []
    return sorted(flag.value for flag in attr.data)


def _type_suffix(type_: ir.Type) -> str:
    """How an intrinsic's name spells an overloaded type: `f32`, `v4f32`."""
    if isinstance(type_, ir.VectorType):
        return f"v{type_.count}{_type_suffix(type_.element)}"
    # The llvmlite types that name themselves in intrinsics.
    if isinstance(
        type_, ir.IntType | ir.HalfType | ir.FloatType | ir.DoubleType | ir.PointerType
    ):
        return type_.intrinsic_name
    raise NotImplementedError(f"no intrinsic name for LLVM type {type_}")


def declare_intrinsic(
    module: ir.Module,
    name: str,
    overloaded: Sequence[ir.Type],
    return_type: ir.Type,
    argument_types: Sequence[ir.Type],
) -> ir.Function:
    """The declaration of intrinsic `name` mangled with the types it is
    overloaded on (`llvm.fabs` on float: `llvm.fabs.f32`), made once."""
    full_name = ".".join([name, *(_type_suffix(t) for t in overloaded)])
    if full_name in module.globals:
        existing = module.globals[full_name]
        assert isinstance(existing, ir.Function)
        return existing
    return ir.Function(
        module, ir.FunctionType(return_type, list(argument_types)), name=full_name
    )


def _call_intrinsic(
    op: Operation,
    name: str,
    builder: ir.IRBuilder,
    values: Values,
    extra: Sequence[ir.Value] = (),
) -> None:
    """Call intrinsic `name` overloaded on the result type, with the op's
    operands (then `extra` constants) and fast-math flags."""
    arguments = [values[operand] for operand in op.operands] + list(extra)
    result_type = convert_type(op.results[0].type)
    function = declare_intrinsic(
        builder.module,
        name,
        [result_type],
        result_type,
        [llvm_type_of(a) for a in arguments],
    )
    values[op.results[0]] = builder.call(function, arguments, fastmath=_flags(op))


_XDSL_INTRINSICS: dict[type[Operation], str] = {
    llvm.FAbsOp: "llvm.fabs",
    llvm.FExpOp: "llvm.exp",
    llvm.FExp2Op: "llvm.exp2",
    llvm.FLogOp: "llvm.log",
    llvm.FLog2Op: "llvm.log2",
    llvm.FSqrtOp: "llvm.sqrt",
    llvm.FSinOp: "llvm.sin",
    llvm.FCosOp: "llvm.cos",
    llvm.FCeilOp: "llvm.ceil",
    llvm.FFloorOp: "llvm.floor",
    llvm.FPowOp: "llvm.pow",
    llvm.VectorFMaxOp: "llvm.maxnum",
    llvm.VectorFMinOp: "llvm.minnum",
    llvm.FCopySignOp: "llvm.copysign",
    llvm.FMAOp: "llvm.fma",
}
"""xDSL's intrinsic ops, whose translation this module replaces."""


@translates(*_XDSL_INTRINSICS)
def _translate_xdsl_intrinsic(op: Operation, builder: ir.IRBuilder, values: Values):
    _call_intrinsic(op, _XDSL_INTRINSICS[type(op)], builder, values)


@translates(FloatUnaryIntrinsic, FloatBinaryIntrinsic, IntegerBinaryIntrinsic)
def _translate_intrinsic(op: Operation, builder: ir.IRBuilder, values: Values):
    assert isinstance(
        op, FloatUnaryIntrinsic | FloatBinaryIntrinsic | IntegerBinaryIntrinsic
    )
    _call_intrinsic(op, op.INTRINSIC, builder, values)


@translates(CtPopOp)
def _translate_ctpop(op: Operation, builder: ir.IRBuilder, values: Values):
    _call_intrinsic(op, "llvm.ctpop", builder, values)


@translates(FlaggedIntegerIntrinsic)
def _translate_flagged(op: Operation, builder: ir.IRBuilder, values: Values):
    assert isinstance(op, FlaggedIntegerIntrinsic)
    flag = ir.Constant(ir.IntType(1), int(op.flag()))
    _call_intrinsic(op, op.INTRINSIC, builder, values, [flag])


_CASTS: dict[type[Operation], str] = {
    FPToSIOp: "fptosi",
    FPToUIOp: "fptoui",
    UIToFPOp: "uitofp",
}


@translates(*_CASTS)
def _translate_cast(op: Operation, builder: ir.IRBuilder, values: Values):
    cast = getattr(builder, _CASTS[type(op)])
    values[op.results[0]] = cast(
        values[op.operands[0]], convert_type(op.results[0].type)
    )


_FCMP_PREDICATES = {"_false": "false", "_true": "true"}


@translates(llvm.FCmpOp)
def _translate_fcmp(op: Operation, builder: ir.IRBuilder, values: Values):
    assert isinstance(op, llvm.FCmpOp)
    predicate = llvm.FCmpPredicateFlag.from_int(op.predicate.value.data).value
    instruction = instructions.FCMPInstr(
        builder.block,
        _FCMP_PREDICATES.get(predicate, predicate),
        values[op.lhs],
        values[op.rhs],
        flags=_flags(op),
    )
    builder._insert(instruction)  # pyright: ignore[reportPrivateUsage]
    values[op.res] = instruction


def _llvm_block(block: Block, builder: ir.IRBuilder) -> ir.Block:
    """The LLVM block xDSL's translation made for `block`: it appends one per
    block of the function, in order."""
    region = block.parent
    assert region is not None
    return builder.function.blocks[list(region.blocks).index(block)]


@translates(SwitchOp)
def _translate_switch(op: Operation, builder: ir.IRBuilder, values: Values):
    assert isinstance(op, SwitchOp)
    current = builder.block

    def edge(destination: Block, operands: Sequence[SSAValue]) -> ir.Block:
        # Each edge gives the destination's phis one incoming value, as
        # xDSL's translation of llvm.br and llvm.cond_br does.
        for argument, operand in zip(destination.args, operands, strict=True):
            phi = values[argument]
            assert isinstance(phi, instructions.PhiInstr)
            phi.add_incoming(values[operand], current)
        return _llvm_block(destination, builder)

    default = edge(op.default_destination, op.default_operands)
    switch = builder.switch(values[op.value], default)
    for case_value, destination, operands in op.cases():
        switch.add_case(case_value, edge(destination, operands))
