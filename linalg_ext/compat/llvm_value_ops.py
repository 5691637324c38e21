"""`llvm` ops that upstream's LLVM lowering prints and xDSL 0.74 lacks.

- `llvm.mlir.poison : T`: a poison value. `finalize-memref-to-llvm` starts
  every memref descriptor from one (`llvm.mlir.poison : !llvm.struct<(ptr,
  ptr, i64, ...)>`), so no lowered memref program could be read back.
  Translated as `undef` (llvmlite 0.50 has no `poison` constant; `undef` is
  a valid refinement of it).
- `llvm.intr.powi(%x, %n) : (f64, i32) -> f64`: `x` to an integer power
  (`convert-math-to-llvm` of `math.fpowi`), with fast-math flags.
- the float intrinsics `llvm.intr.tan`, `tanh`, `sinh`, `cosh`, `asin`,
  `acos`, `atan` and `atan2` (`convert-math-to-llvm` of the `math` ops of
  the same names), and `llvm.intr.is.fpclass` (of `math.isnan`,
  `math.isfinite`: whether the float is in one of the classes the `bit`
  mask names), printed generically as upstream prints it;
- `llvm.intr.assume %cond ["align"(%p, %n : !llvm.ptr, i64)] : i1`, with
  its operand bundles (`finalize-memref-to-llvm` of
  `memref.assume_alignment`). The translation drops the bundles (llvmlite
  cannot write them), which only forgoes the alignment hint;
- `llvm.intr.uadd.with.overflow`, `sadd`, `usub`, `ssub`, `umul`, `smul`:
  the wrapped result and whether it overflowed, as a two-field struct
  (`convert-arith-to-llvm` of `arith.addui_extended`); printed generically,
  as upstream prints them.

Each has its translation to LLVM IR (`compat.llvm_translation`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from llvmlite import ir
from xdsl.backend.llvm.convert_type import convert_type
from xdsl.dialects import llvm
from xdsl.dialects.builtin import (
    I1,
    I32,
    ArrayAttr,
    DenseArrayBase,
    IntegerAttr,
    IntegerType,
    StringAttr,
    i32,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    ParsePropInAttrDict,
    VarConstraint,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.traits import NoMemoryEffect, Pure

from linalg_ext.compat.llvm_ops import (
    FloatBinaryIntrinsic,
    FloatLike,
    FloatUnaryIntrinsic,
    IntegerLike,
    declare_intrinsic,
)
from linalg_ext.compat.llvm_translation import llvm_type_of, translates
from linalg_ext.verification import op_error

Values = dict[SSAValue, ir.Value]


@irdl_op_definition
class PoisonOp(IRDLOperation):
    """A poison value of any LLVM-compatible type.

    See external [documentation](https://mlir.llvm.org/docs/Dialects/LLVM/#llvmmlirpoison-llvmpoisonop).
    """

    name = "llvm.mlir.poison"

    res = result_def(Attribute)

    traits = traits_def(NoMemoryEffect())
    assembly_format = "attr-dict `:` type($res)"

    def __init__(self, result_type: Attribute):
        super().__init__(result_types=[result_type])


@irdl_op_definition
class PowIOp(IRDLOperation):
    """`x` to the integer power `n` (`llvm.powi`)."""

    name = "llvm.intr.powi"

    T: ClassVar = VarConstraint("T", FloatLike)

    val = operand_def(T)
    power = operand_def(IntegerType)
    res = result_def(T)
    fastmathFlags = prop_def(llvm.FastMathAttr, default_value=llvm.FastMathAttr(None))

    traits = traits_def(Pure())
    assembly_format = (
        "`(` operands `)` attr-dict `:` functional-type(operands, results)"
    )
    irdl_options = (ParsePropInAttrDict(),)

    def __init__(self, val: SSAValue | Operation, power: SSAValue | Operation):
        val = SSAValue.get(val)
        super().__init__(operands=[val, power], result_types=[val.type])


@irdl_op_definition
class TanOp(FloatUnaryIntrinsic):
    name = "llvm.intr.tan"
    INTRINSIC: ClassVar[str] = "llvm.tan"


@irdl_op_definition
class TanhOp(FloatUnaryIntrinsic):
    name = "llvm.intr.tanh"
    INTRINSIC: ClassVar[str] = "llvm.tanh"


@irdl_op_definition
class SinhOp(FloatUnaryIntrinsic):
    name = "llvm.intr.sinh"
    INTRINSIC: ClassVar[str] = "llvm.sinh"


@irdl_op_definition
class CoshOp(FloatUnaryIntrinsic):
    name = "llvm.intr.cosh"
    INTRINSIC: ClassVar[str] = "llvm.cosh"


@irdl_op_definition
class AsinOp(FloatUnaryIntrinsic):
    name = "llvm.intr.asin"
    INTRINSIC: ClassVar[str] = "llvm.asin"


@irdl_op_definition
class AcosOp(FloatUnaryIntrinsic):
    name = "llvm.intr.acos"
    INTRINSIC: ClassVar[str] = "llvm.acos"


@irdl_op_definition
class AtanOp(FloatUnaryIntrinsic):
    name = "llvm.intr.atan"
    INTRINSIC: ClassVar[str] = "llvm.atan"


@irdl_op_definition
class Atan2Op(FloatBinaryIntrinsic):
    name = "llvm.intr.atan2"
    INTRINSIC: ClassVar[str] = "llvm.atan2"


@irdl_op_definition
class IsFPClassOp(IRDLOperation):
    """Whether the float is in one of the classes the `bit` mask names
    (bit 0 signaling NaN, 1 quiet NaN, 2 -inf, ..., 9 +inf)."""

    name = "llvm.intr.is.fpclass"

    val = operand_def(FloatLike)
    res = result_def(IntegerType)
    bit = prop_def(IntegerAttr[I32])

    traits = traits_def(Pure())


@irdl_op_definition
class AssumeOp(IRDLOperation):
    """Lets the optimizer assume `cond`, and what each operand bundle says
    (`"align"(%p, %n)`: `%p` is aligned to `%n` bytes)."""

    name = "llvm.intr.assume"

    cond = operand_def(I1)
    op_bundle_operands = var_operand_def()
    op_bundle_sizes = prop_def(DenseArrayBase.constr(i32))
    op_bundle_tags = opt_prop_def(ArrayAttr[StringAttr])

    def __init__(
        self,
        cond: SSAValue | Operation,
        bundles: Sequence[tuple[str, Sequence[SSAValue | Operation]]] = (),
    ):
        properties: dict[str, Attribute] = {
            "op_bundle_sizes": DenseArrayBase.from_list(
                i32, [len(operands) for _, operands in bundles]
            )
        }
        if bundles:
            properties["op_bundle_tags"] = ArrayAttr(
                [StringAttr(tag) for tag, _ in bundles]
            )
        super().__init__(
            operands=[cond, [o for _, operands in bundles for o in operands]],
            properties=properties,
        )

    def bundles(self) -> list[tuple[str, Sequence[SSAValue]]]:
        """(tag, operands) of each operand bundle."""
        tags = [t.data for t in self.op_bundle_tags or ()]
        operands = iter(self.op_bundle_operands)
        return [
            (tag, [next(operands) for _ in range(size)])
            for tag, size in zip(tags, self.op_bundle_sizes.get_values(), strict=True)
        ]

    def verify_(self) -> None:
        sizes = self.op_bundle_sizes.get_values()
        tags = self.op_bundle_tags.data if self.op_bundle_tags else ()
        if len(sizes) != len(tags) or sum(sizes) != len(self.op_bundle_operands):
            op_error(self, "expected one tag and one operand count per bundle")

    @classmethod
    def parse(cls, parser: Parser) -> AssumeOp:
        cond = parser.parse_unresolved_operand()
        bundles: list[tuple[str, list[UnresolvedOperand], list[Attribute]]] = []

        def parse_bundle() -> None:
            tag = parser.parse_str_literal()
            operands: list[UnresolvedOperand] = []
            types: list[Attribute] = []
            if parser.parse_optional_punctuation("(") is not None:
                if parser.parse_optional_punctuation(")") is None:
                    operands = parser.parse_comma_separated_list(
                        Parser.Delimiter.NONE, parser.parse_unresolved_operand
                    )
                    parser.parse_punctuation(":")
                    types = parser.parse_comma_separated_list(
                        Parser.Delimiter.NONE, parser.parse_type
                    )
                    parser.parse_punctuation(")")
            if len(operands) != len(types):
                parser.raise_error(f"expected one type per operand of bundle {tag!r}")
            bundles.append((tag, operands, types))

        parser.parse_optional_comma_separated_list(
            Parser.Delimiter.SQUARE, parse_bundle
        )
        attributes = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        cond_type = parser.parse_type()
        op = cls(
            parser.resolve_operand(cond, cond_type),
            [
                (
                    tag,
                    [
                        parser.resolve_operand(o, t)
                        for o, t in zip(operands, types, strict=True)
                    ],
                )
                for tag, operands, types in bundles
            ],
        )
        op.attributes.update(attributes)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.cond)
        bundles = self.bundles()
        if bundles:

            def print_bundle(bundle: tuple[str, Sequence[SSAValue]]) -> None:
                tag, operands = bundle
                printer.print_string_literal(tag)
                with printer.in_parens():
                    printer.print_list(operands, printer.print_operand)
                    if operands:
                        printer.print_string(" : ")
                        printer.print_list(
                            [o.type for o in operands], printer.print_attribute
                        )

            printer.print_string(" ")
            with printer.in_square_brackets():
                printer.print_list(bundles, print_bundle)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.cond.type)


class ArithWithOverflowIntrinsic(IRDLOperation):
    """`"llvm.intr.<op>.with.overflow"(%a, %b) : (i32, i32) ->
    !llvm.struct<(i32, i1)>`: the wrapped result and the overflow bit."""

    T: ClassVar = VarConstraint("T", IntegerLike)

    lhs = operand_def(T)
    rhs = operand_def(T)
    res = result_def(llvm.LLVMStructType)

    traits = traits_def(Pure())

    INTRINSIC: ClassVar[str]

    def verify_(self) -> None:
        fields = self.res.type.types.data
        if len(fields) != 2 or fields[0] != self.lhs.type:
            op_error(
                self,
                f"expected the result to be a struct of {self.lhs.type} and the "
                f"overflow bit, got {self.res.type}",
            )


@irdl_op_definition
class UAddWithOverflowOp(ArithWithOverflowIntrinsic):
    name = "llvm.intr.uadd.with.overflow"
    INTRINSIC: ClassVar[str] = "llvm.uadd.with.overflow"


@irdl_op_definition
class SAddWithOverflowOp(ArithWithOverflowIntrinsic):
    name = "llvm.intr.sadd.with.overflow"
    INTRINSIC: ClassVar[str] = "llvm.sadd.with.overflow"


@irdl_op_definition
class USubWithOverflowOp(ArithWithOverflowIntrinsic):
    name = "llvm.intr.usub.with.overflow"
    INTRINSIC: ClassVar[str] = "llvm.usub.with.overflow"


@irdl_op_definition
class SSubWithOverflowOp(ArithWithOverflowIntrinsic):
    name = "llvm.intr.ssub.with.overflow"
    INTRINSIC: ClassVar[str] = "llvm.ssub.with.overflow"


@irdl_op_definition
class UMulWithOverflowOp(ArithWithOverflowIntrinsic):
    name = "llvm.intr.umul.with.overflow"
    INTRINSIC: ClassVar[str] = "llvm.umul.with.overflow"


@irdl_op_definition
class SMulWithOverflowOp(ArithWithOverflowIntrinsic):
    name = "llvm.intr.smul.with.overflow"
    INTRINSIC: ClassVar[str] = "llvm.smul.with.overflow"


# --------------------------------------------------------------------------
# Translation


@translates(PoisonOp)
def _translate_poison(op: Operation, builder: ir.IRBuilder, values: Values) -> None:
    values[op.results[0]] = ir.Constant(convert_type(op.results[0].type), ir.Undefined)


@translates(PowIOp)
def _translate_powi(op: Operation, builder: ir.IRBuilder, values: Values) -> None:
    base, power = (values[operand] for operand in op.operands)
    base_type, power_type = llvm_type_of(base), llvm_type_of(power)
    function = declare_intrinsic(
        builder.module,
        "llvm.powi",
        [base_type, power_type],
        base_type,
        [base_type, power_type],
    )
    flags = op.properties["fastmathFlags"]
    assert isinstance(flags, llvm.FastMathAttr)
    values[op.results[0]] = builder.call(
        function, [base, power], fastmath=sorted(f.value for f in flags.data)
    )


@translates(IsFPClassOp)
def _translate_is_fpclass(op: Operation, builder: ir.IRBuilder, values: Values) -> None:
    assert isinstance(op, IsFPClassOp)
    value = values[op.val]
    mask = ir.Constant(ir.IntType(32), op.bit.value.data)
    result_type = convert_type(op.res.type)
    function = declare_intrinsic(
        builder.module,
        "llvm.is.fpclass",
        [llvm_type_of(value)],
        result_type,
        [
            llvm_type_of(value),
            mask.type,
        ],
    )
    values[op.res] = builder.call(function, [value, mask])


@translates(AssumeOp)
def _translate_assume(op: Operation, builder: ir.IRBuilder, values: Values) -> None:
    assert isinstance(op, AssumeOp)
    condition = values[op.cond]
    if op.op_bundle_operands:
        # Without its bundles, the assumption is only that the (true)
        # condition holds.
        condition = ir.Constant(ir.IntType(1), 1)
    function = declare_intrinsic(
        builder.module, "llvm.assume", [], ir.VoidType(), [ir.IntType(1)]
    )
    builder.call(function, [condition])


@translates(ArithWithOverflowIntrinsic)
def _translate_with_overflow(
    op: Operation, builder: ir.IRBuilder, values: Values
) -> None:
    assert isinstance(op, ArithWithOverflowIntrinsic)
    lhs, rhs = values[op.lhs], values[op.rhs]
    result_type = convert_type(op.res.type)
    lhs_type, rhs_type = llvm_type_of(lhs), llvm_type_of(rhs)
    function = declare_intrinsic(
        builder.module, op.INTRINSIC, [lhs_type], result_type, [lhs_type, rhs_type]
    )
    values[op.res] = builder.call(function, [lhs, rhs])


LLVM_VALUE_OPS: tuple[type[IRDLOperation], ...] = (
    PoisonOp,
    PowIOp,
    TanOp,
    TanhOp,
    SinhOp,
    CoshOp,
    AsinOp,
    AcosOp,
    AtanOp,
    Atan2Op,
    IsFPClassOp,
    AssumeOp,
    UAddWithOverflowOp,
    SAddWithOverflowOp,
    USubWithOverflowOp,
    SSubWithOverflowOp,
    UMulWithOverflowOp,
    SMulWithOverflowOp,
)
"""The `llvm` ops this module adds."""
