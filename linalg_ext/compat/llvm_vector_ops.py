"""`llvm` ops on vectors that xDSL 0.74 lacks or restricts to scalars.

`convert-vector-to-llvm-ext` and `convert-arith-to-llvm` on one-dimensional
vectors produce them; each has its translation to LLVM IR
(`compat.llvm_translation`):

- `llvm.select` with a `vector<N x i1>` condition and `llvm.fcmp` on float
  vectors (giving `vector<N x i1>`): xDSL's ops take an `i1` condition and
  scalar floats only. `SelectOp` and `FCmpOp` are xDSL's with upstream's
  wider types; they replace xDSL's in the `llvm` dialect (so that the text
  reads back) and are registered as virtual subclasses of them (so that
  `isinstance` checks, xDSL's translation of `llvm.select` included, find
  them);
- the reductions `llvm.intr.vector.reduce.fmax`/`fmin` (NaN-ignoring, as
  `maxnum`), `fmaximum`/`fminimum` (NaN-propagating), and the integer
  `add`, `mul`, `and`, `or`, `xor`, `smax`, `smin`, `umax`, `umin`: one
  vector operand, the element as result, printed as upstream prints them
  (`llvm.intr.vector.reduce.fmax(%v) : (vector<16xf32>) -> f32`);
- the translation of xDSL's `llvm.intr.vector.reduce.fadd`/`fmul` with
  their fast-math flags (xDSL drops them): without `reassoc` LLVM adds the
  lanes in order, from the start value; with it, in any order.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar, TypeVar, cast

from llvmlite import ir
from xdsl.backend.llvm.convert_type import convert_type
from xdsl.dialects import llvm
from xdsl.dialects.builtin import (
    I1,
    I64,
    AnyFloatConstr,
    IntegerAttr,
    IntegerType,
    SignlessIntegerConstraint,
    VectorType,
    i1,
    i64,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import (
    AnyAttr,
    IRDLOperation,
    ParsePropInAttrDict,
    VarConstraint,
    irdl_op_definition,
    irdl_to_attr_constraint,
    operand_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.traits import Pure

from linalg_ext.compat.llvm_float_ops import llvm_ir_flags
from linalg_ext.compat.llvm_ops import FloatLike, declare_intrinsic
from linalg_ext.compat.llvm_translation import TRANSLATIONS, llvm_type_of, translates

Values = dict[SSAValue, ir.Value]

_I1 = irdl_to_attr_constraint(I1)
_CONDITION = _I1 | VectorType.constr(_I1)


def _boolean_like(type_: Attribute) -> Attribute:
    """`i1`, or a vector of `i1` of the shape of the vector `type_`."""
    if isinstance(type_, VectorType):
        return VectorType(i1, type_.get_shape())
    return i1


@irdl_op_definition
class SelectOp(IRDLOperation):
    """`llvm.select` whose condition may be a vector of `i1` (one per lane)."""

    name = "llvm.select"

    T: ClassVar = VarConstraint("T", AnyAttr())

    cond = operand_def(_CONDITION)
    lhs = operand_def(T)
    rhs = operand_def(T)
    res = result_def(T)
    fastmathFlags = prop_def(llvm.FastMathAttr, default_value=llvm.FastMathAttr(None))

    traits = traits_def(Pure())
    assembly_format = "$cond `,` $lhs `,` $rhs attr-dict `:` type($cond) `,` type($res)"
    irdl_options = (ParsePropInAttrDict(),)

    def __init__(
        self,
        cond: Operation | SSAValue,
        lhs: Operation | SSAValue,
        rhs: Operation | SSAValue,
    ):
        super().__init__(
            operands=[cond, lhs, rhs], result_types=[SSAValue.get(lhs).type]
        )


@irdl_op_definition
class FCmpOp(IRDLOperation):
    """`llvm.fcmp` of floats or float vectors (then one `i1` per lane), with
    xDSL's syntax."""

    name = "llvm.fcmp"

    T: ClassVar = VarConstraint("T", FloatLike)

    lhs = operand_def(T)
    rhs = operand_def(T)
    res = result_def(_CONDITION)
    predicate = prop_def(IntegerAttr[I64])
    fastmathFlags = prop_def(llvm.FastMathAttr, default_value=llvm.FastMathAttr(None))

    traits = traits_def(Pure())
    irdl_options = (ParsePropInAttrDict(),)

    def __init__(
        self,
        lhs: Operation | SSAValue,
        rhs: Operation | SSAValue,
        predicate: str | IntegerAttr[IntegerType],
        attributes: Mapping[str, Attribute] = {},
    ):
        if isinstance(predicate, str):
            predicate = IntegerAttr(llvm.FCmpPredicateFlag(predicate).to_int(), i64)
        super().__init__(
            operands=[lhs, rhs],
            result_types=[_boolean_like(SSAValue.get(lhs).type)],
            attributes=dict(attributes),
            properties={"predicate": predicate},
        )

    # xDSL's text form; its methods only use the fields both ops have.
    parse = classmethod(llvm.FCmpOp.parse.__func__)  # pyright: ignore
    print = llvm.FCmpOp.print


class VectorReduction(IRDLOperation):
    """A reduction of one vector to its element type (`INTRINSIC`)."""

    INTRINSIC: ClassVar[str]

    vector = operand_def(VectorType)
    res = result_def()

    traits = traits_def(Pure())
    assembly_format = (
        "`(` operands `)` attr-dict `:` functional-type(operands, results)"
    )

    def __init__(self, vector: SSAValue | Operation):
        vector = SSAValue.get(vector)
        assert isinstance(vector.type, VectorType)
        super().__init__(operands=[vector], result_types=[vector.type.element_type])


class FloatVectorReduction(VectorReduction):
    """A float reduction, with fast-math flags."""

    T: ClassVar = VarConstraint("T", AnyFloatConstr)

    vector = operand_def(VectorType.constr(T))
    res = result_def(T)
    fastmathFlags = prop_def(llvm.FastMathAttr, default_value=llvm.FastMathAttr(None))

    irdl_options = (ParsePropInAttrDict(),)

    def __init__(
        self, vector: SSAValue | Operation, fast_math: llvm.FastMathAttr | None = None
    ):
        vector = SSAValue.get(vector)
        assert isinstance(vector.type, VectorType)
        IRDLOperation.__init__(
            self,
            operands=[vector],
            result_types=[vector.type.element_type],
            properties={"fastmathFlags": fast_math or llvm.FastMathAttr(None)},
        )


class IntegerVectorReduction(VectorReduction):
    """An integer reduction (wrapping, as LLVM's)."""

    T: ClassVar = VarConstraint("T", SignlessIntegerConstraint)

    vector = operand_def(VectorType.constr(T))
    res = result_def(T)


R = TypeVar("R", bound=VectorReduction)


def _reduction(base: type[R], op_name: str, intrinsic: str) -> type[R]:
    # Each reduction differs only in its name; a class per name, as IRDL
    # needs, built here rather than spelt out thirteen times.
    cls = type(
        op_name.title().replace(".", "").replace("_", "") + "Op",
        (base,),
        {
            "name": op_name,
            "INTRINSIC": intrinsic,
            "__annotations__": {"INTRINSIC": ClassVar[str]},
            "__module__": __name__,
        },
    )
    return cast(type[R], irdl_op_definition(cls))


FLOAT_REDUCTIONS: dict[str, type[FloatVectorReduction]] = {
    kind: _reduction(
        FloatVectorReduction,
        f"llvm.intr.vector.reduce.{kind}",
        f"llvm.vector.reduce.{kind}",
    )
    for kind in ("fmax", "fmin", "fmaximum", "fminimum")
}
"""The float reductions without a start value, by LLVM's name."""

INTEGER_REDUCTIONS: dict[str, type[IntegerVectorReduction]] = {
    kind: _reduction(
        IntegerVectorReduction,
        f"llvm.intr.vector.reduce.{kind}",
        f"llvm.vector.reduce.{kind}",
    )
    for kind in ("add", "mul", "and", "or", "xor", "smax", "smin", "umax", "umin")
}
"""The integer reductions, by LLVM's name."""


# --------------------------------------------------------------------------
# Translation


@translates(VectorReduction)
def _translate_reduction(op: Operation, builder: ir.IRBuilder, values: Values):
    assert isinstance(op, VectorReduction)
    vector = values[op.vector]
    vector_type = llvm_type_of(vector)
    result_type = convert_type(op.res.type)
    function = declare_intrinsic(
        builder.module, op.INTRINSIC, [vector_type], result_type, [vector_type]
    )
    values[op.res] = builder.call(function, [vector], fastmath=llvm_ir_flags(op))


_ORDERED_REDUCTIONS: dict[type[Operation], str] = {
    llvm.VectorReduceFAddOp: "llvm.vector.reduce.fadd",
    llvm.VectorReduceFMulOp: "llvm.vector.reduce.fmul",
}


@translates(*_ORDERED_REDUCTIONS)
def _translate_ordered_reduction(op: Operation, builder: ir.IRBuilder, values: Values):
    start, vector = (values[operand] for operand in op.operands)
    start_type, vector_type = llvm_type_of(start), llvm_type_of(vector)
    function = declare_intrinsic(
        builder.module,
        _ORDERED_REDUCTIONS[type(op)],
        [vector_type],
        start_type,
        [start_type, vector_type],
    )
    values[op.results[0]] = builder.call(
        function, [start, vector], fastmath=llvm_ir_flags(op)
    )


# llvm_ops translates xDSL's `llvm.fcmp` (every predicate, with its flags).
translates(FCmpOp)(TRANSLATIONS[llvm.FCmpOp])
# Code (and xDSL's translation) that asks for xDSL's classes finds these.
llvm.SelectOp.register(SelectOp)
llvm.FCmpOp.register(FCmpOp)

LLVM_VECTOR_OPS: tuple[type[Operation], ...] = (
    *FLOAT_REDUCTIONS.values(),
    *INTEGER_REDUCTIONS.values(),
)
"""The `llvm` ops this module adds (SelectOp and FCmpOp replace xDSL's)."""

REPLACED_OPS: tuple[tuple[type[Operation], type[Operation]], ...] = (
    (llvm.SelectOp, SelectOp),
    (llvm.FCmpOp, FCmpOp),
)
"""xDSL's op and the one that takes its place in the `llvm` dialect."""
