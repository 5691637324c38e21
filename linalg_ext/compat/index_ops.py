"""The `index` dialect, which xDSL 0.74 does not have.

Upstream MLIR's dialect of integer arithmetic on `index` values, with its
names and syntax:

    %r = index.add %a, %b            (sub, mul, divs, divu, ceildivs,
                                      ceildivu, floordivs, rems, remu, maxs,
                                      maxu, mins, minu, shl, shrs, shru, and,
                                      or, xor)
    %c = index.cmp slt(%a, %b)       (eq, ne, slt, sle, sgt, sge, ult, ule,
                                      ugt, uge)
    %k = index.constant 42
    %t = index.bool.constant true
    %i = index.casts %x : i32 to index   (sign-extends or truncates)
    %u = index.castu %i : index to i32   (zero-extends or truncates)
    %s = index.sizeof                (the width of index in bits)

The divisions round as their names say (`divs` toward zero); dividing by
zero, and `divs`/`ceildivs`/`floordivs`/`rems` of the minimum value by -1,
are undefined, as are shifts by the width or more. Their meaning for the
interpreter is in `linalg_ext/semantics/index_ops.py`; `convert-index-to-llvm`
lowers them.
"""

from __future__ import annotations

from xdsl.dialects.builtin import (
    I1,
    BoolAttr,
    IndexType,
    IndexTypeConstr,
    IntegerAttr,
    IntegerType,
    SignlessIntegerConstraint,
)
from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import Attribute, Dialect, Operation, SSAValue
from xdsl.ir.core import SpacedOpaqueSyntaxAttribute
from xdsl.irdl import (
    IRDLOperation,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import ConstantLike, Pure
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.str_enum import StrEnum


class IndexBinaryOp(IRDLOperation):
    """`%r = index.<name> %lhs, %rhs` on index values."""

    lhs = operand_def(IndexTypeConstr)
    rhs = operand_def(IndexTypeConstr)
    result = result_def(IndexTypeConstr)

    traits = traits_def(Pure())
    assembly_format = "$lhs `,` $rhs attr-dict"

    def __init__(self, lhs: SSAValue | Operation, rhs: SSAValue | Operation):
        super().__init__(operands=[lhs, rhs], result_types=[IndexType()])


@irdl_op_definition
class AddOp(IndexBinaryOp):
    name = "index.add"


@irdl_op_definition
class SubOp(IndexBinaryOp):
    name = "index.sub"


@irdl_op_definition
class MulOp(IndexBinaryOp):
    name = "index.mul"


@irdl_op_definition
class DivSOp(IndexBinaryOp):
    name = "index.divs"


@irdl_op_definition
class DivUOp(IndexBinaryOp):
    name = "index.divu"


@irdl_op_definition
class CeilDivSOp(IndexBinaryOp):
    name = "index.ceildivs"


@irdl_op_definition
class CeilDivUOp(IndexBinaryOp):
    name = "index.ceildivu"


@irdl_op_definition
class FloorDivSOp(IndexBinaryOp):
    name = "index.floordivs"


@irdl_op_definition
class RemSOp(IndexBinaryOp):
    name = "index.rems"


@irdl_op_definition
class RemUOp(IndexBinaryOp):
    name = "index.remu"


@irdl_op_definition
class MaxSOp(IndexBinaryOp):
    name = "index.maxs"


@irdl_op_definition
class MaxUOp(IndexBinaryOp):
    name = "index.maxu"


@irdl_op_definition
class MinSOp(IndexBinaryOp):
    name = "index.mins"


@irdl_op_definition
class MinUOp(IndexBinaryOp):
    name = "index.minu"


@irdl_op_definition
class ShlOp(IndexBinaryOp):
    name = "index.shl"


@irdl_op_definition
class ShrSOp(IndexBinaryOp):
    name = "index.shrs"


@irdl_op_definition
class ShrUOp(IndexBinaryOp):
    name = "index.shru"


@irdl_op_definition
class AndOp(IndexBinaryOp):
    name = "index.and"


@irdl_op_definition
class OrOp(IndexBinaryOp):
    name = "index.or"


@irdl_op_definition
class XOrOp(IndexBinaryOp):
    name = "index.xor"


class CmpPredicate(StrEnum):
    EQ = "eq"
    NE = "ne"
    SLT = "slt"
    SLE = "sle"
    SGT = "sgt"
    SGE = "sge"
    ULT = "ult"
    ULE = "ule"
    UGT = "ugt"
    UGE = "uge"


@irdl_attr_definition
class CmpPredicateAttr(EnumAttribute[CmpPredicate], SpacedOpaqueSyntaxAttribute):
    """`#index<cmp_predicate slt>`."""

    name = "index.cmp_predicate"


@irdl_op_definition
class CmpOp(IRDLOperation):
    """`%r = index.cmp slt(%lhs, %rhs)`: an i1."""

    name = "index.cmp"

    lhs = operand_def(IndexTypeConstr)
    rhs = operand_def(IndexTypeConstr)
    result = result_def(I1)
    pred = prop_def(CmpPredicateAttr)

    traits = traits_def(Pure())

    def __init__(
        self,
        predicate: CmpPredicate | str,
        lhs: SSAValue | Operation,
        rhs: SSAValue | Operation,
    ):
        super().__init__(
            operands=[lhs, rhs],
            result_types=[IntegerType(1)],
            properties={"pred": CmpPredicateAttr(CmpPredicate(predicate))},
        )

    @classmethod
    def parse(cls, parser: Parser) -> CmpOp:
        predicate = parser.parse_str_enum(CmpPredicate)
        parser.parse_punctuation("(")
        lhs = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        rhs = parser.parse_unresolved_operand()
        parser.parse_punctuation(")")
        lhs, rhs = parser.resolve_operands([lhs, rhs], [IndexType()] * 2, parser.pos)
        attributes = parser.parse_optional_attr_dict()
        op = cls(predicate, lhs, rhs)
        op.attributes |= attributes
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(f" {self.pred.data.value}(")
        printer.print_operand(self.lhs)
        printer.print_string(", ")
        printer.print_operand(self.rhs)
        printer.print_string(")")
        printer.print_op_attributes(self.attributes)


@irdl_op_definition
class ConstantOp(IRDLOperation):
    """`%c = index.constant 42`."""

    name = "index.constant"

    value = prop_def(IntegerAttr[IndexType])
    result = result_def(IndexTypeConstr)

    traits = traits_def(Pure(), ConstantLike())

    def __init__(self, value: int | IntegerAttr[IndexType]):
        if isinstance(value, int):
            value = IntegerAttr(value, IndexType())
        super().__init__(properties={"value": value}, result_types=[IndexType()])

    @classmethod
    def parse(cls, parser: Parser) -> ConstantOp:
        value = parser.parse_integer()
        attributes = parser.parse_optional_attr_dict()
        op = cls(value)
        op.attributes |= attributes
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(f" {self.value.value.data}")
        printer.print_op_attributes(self.attributes)


@irdl_op_definition
class BoolConstantOp(IRDLOperation):
    """`%t = index.bool.constant true`."""

    name = "index.bool.constant"

    value = prop_def(BoolAttr)
    result = result_def(I1)

    traits = traits_def(Pure(), ConstantLike())

    def __init__(self, value: bool | BoolAttr):
        if isinstance(value, bool):
            value = BoolAttr.from_bool(value)
        super().__init__(properties={"value": value}, result_types=[IntegerType(1)])

    @classmethod
    def parse(cls, parser: Parser) -> BoolConstantOp:
        value = parser.parse_boolean()
        attributes = parser.parse_optional_attr_dict()
        op = cls(value)
        op.attributes |= attributes
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" true" if self.value.value.data else " false")
        printer.print_op_attributes(self.attributes)


class IndexCastOp(IRDLOperation):
    """`%r = index.<name> %x : i32 to index`: between index and an integer."""

    input = operand_def(IndexTypeConstr | SignlessIntegerConstraint)
    output = result_def(IndexTypeConstr | SignlessIntegerConstraint)

    traits = traits_def(Pure())
    assembly_format = "$input attr-dict `:` type($input) `to` type($output)"

    def __init__(self, input: SSAValue | Operation, target: Attribute):
        super().__init__(operands=[input], result_types=[target])

    def verify_(self) -> None:
        if isinstance(self.input.type, IndexType) == isinstance(
            self.output.type, IndexType
        ):
            raise VerifyException(
                f"'{self.name}' casts between index and an integer type, "
                f"not {self.input.type} to {self.output.type}"
            )


@irdl_op_definition
class CastSOp(IndexCastOp):
    """Sign-extends or truncates."""

    name = "index.casts"


@irdl_op_definition
class CastUOp(IndexCastOp):
    """Zero-extends or truncates."""

    name = "index.castu"


@irdl_op_definition
class SizeOfOp(IRDLOperation):
    """`%s = index.sizeof`: the width of index in bits."""

    name = "index.sizeof"

    result = result_def(IndexTypeConstr)

    traits = traits_def(Pure())
    assembly_format = "attr-dict"

    def __init__(self):
        super().__init__(result_types=[IndexType()])


BINARY_OPS: tuple[type[IndexBinaryOp], ...] = (
    AddOp,
    SubOp,
    MulOp,
    DivSOp,
    DivUOp,
    CeilDivSOp,
    CeilDivUOp,
    FloorDivSOp,
    RemSOp,
    RemUOp,
    MaxSOp,
    MaxUOp,
    MinSOp,
    MinUOp,
    ShlOp,
    ShrSOp,
    ShrUOp,
    AndOp,
    OrOp,
    XOrOp,
)

Index = Dialect(
    "index",
    [*BINARY_OPS, CmpOp, ConstantOp, BoolConstantOp, CastSOp, CastUOp, SizeOfOp],
    [CmpPredicateAttr],
)
"""The dialect; `linalg_ext.universe` registers it under `index`."""
