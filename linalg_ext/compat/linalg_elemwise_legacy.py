"""`linalg.elemwise_unary` and `linalg.elemwise_binary`, the OpDSL ops of
MLIR 19 and before (removed since; MLIR 22 has `linalg.elementwise`), with
the function attributes `#linalg.unary_fn<...>`, `#linalg.binary_fn<...>` and
`#linalg.type_fn<...>`, which xDSL 0.74 lacks. ByteIR's test payloads are
written with them.

    linalg.elemwise_unary attr-dict? ins(...) outs(...) attr-dict? (-> type)?

as every named op (`{fun = #linalg.unary_fn<log>, cast =
#linalg.type_fn<cast_unsigned>}` in the dictionary; absent, `fun` is `exp`
for the unary op and `add` for the binary one, `cast` is `cast_signed`, and
they stay absent when printed). OpDSL's definition, `O = fun(cast(U, I))`
and `O = fun(cast(U, lhs), cast(U, rhs))`: each input element is first
converted to the output's element type `U` (integers read as signed or
unsigned), then `fun` is applied. The ops are rank-polymorphic: every loop
is parallel, one per dimension of the output, which every operand reads
through the identity, but a scalar or rank-0 input, which is read whole
(broadcast), as MLIR 19's generated `getIndexingMaps` does.

The body is the one MLIR 19's region builder builds (`arith.addf`, `addi`,
`ori` on i1, `math.exp`, `1.0 / x` for `reciprocal`, ...); the computations
are `linalg.elementwise`'s (`linalg_elementwise`) but for one OpDSL rule:
`max_unsigned`/`min_unsigned` on floats are `arith.maximumf`/`minimumf`.
Where MLIR 19's builder aborts (a unary function or `powf` on integers,
`div_unsigned` on floats, `sub` and `div` on i1, a conversion between two
float types of one width), the op is refused with a located message.
"""

from __future__ import annotations

from abc import ABC
from collections.abc import Callable, Mapping, Sequence
from typing import ClassVar, Self
from typing import cast as typed

from xdsl.builder import Builder
from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    AnyFloat,
    ArrayAttr,
    IntegerType,
    MemRefType,
    i1,
)
from xdsl.dialects.linalg.abstract_ops import LinalgStructuredOperation, NamedOperation
from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.dialects.linalg.ops import YieldOp
from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import Attribute, BlockArgument, Region, SSAValue
from xdsl.ir.affine import AffineMap
from xdsl.irdl import irdl_attr_definition, irdl_op_definition, opt_prop_def
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.str_enum import StrEnum

from linalg_ext.assembly import parse_optional_operand_group
from linalg_ext.compat.checks import (
    element_type,
    verify_destination_results,
    verify_shaped_operands,
)
from linalg_ext.compat.gpu_attrs import MappingAttrSyntax
from linalg_ext.compat.linalg_elementwise import (
    BOOL_PAYLOADS,
    FLOAT_PAYLOADS,
    INTEGER_PAYLOADS,
    ElementwiseKind,
    Payload,
)
from linalg_ext.compat.linalg_named_attrs import (
    BUILD_ERRORS,
    parse_trailing_attributes,
    print_named,
)
from linalg_ext.compat.syntax import parse_optional_result_types, split_properties
from linalg_ext.shaped import rank_of_value
from linalg_ext.type_functions import can_cast_signed, cast_signed
from linalg_ext.verification import op_error


class UnaryFn(StrEnum):
    """MLIR's `UnaryFn` (LinalgEnums.td), as of MLIR 19."""

    EXP = "exp"
    LOG = "log"
    ABS = "abs"
    CEIL = "ceil"
    FLOOR = "floor"
    NEGF = "negf"
    RECIPROCAL = "reciprocal"
    ROUND = "round"
    SQRT = "sqrt"
    RSQRT = "rsqrt"
    SQUARE = "square"
    TANH = "tanh"
    ERF = "erf"


class BinaryFn(StrEnum):
    """MLIR's `BinaryFn` (LinalgEnums.td), as of MLIR 19."""

    ADD = "add"
    SUB = "sub"
    MUL = "mul"
    DIV = "div"
    DIV_UNSIGNED = "div_unsigned"
    MAX_SIGNED = "max_signed"
    MIN_SIGNED = "min_signed"
    MAX_UNSIGNED = "max_unsigned"
    MIN_UNSIGNED = "min_unsigned"
    POWF = "powf"


class TypeFn(StrEnum):
    """MLIR's `TypeFn`: how an input element is converted to the output's
    element type."""

    CAST_SIGNED = "cast_signed"
    CAST_UNSIGNED = "cast_unsigned"


@irdl_attr_definition
class UnaryFnAttr(MappingAttrSyntax, EnumAttribute[UnaryFn]):
    """`#linalg.unary_fn<exp>`."""

    name = "linalg.unary_fn"


@irdl_attr_definition
class BinaryFnAttr(MappingAttrSyntax, EnumAttribute[BinaryFn]):
    """`#linalg.binary_fn<add>`."""

    name = "linalg.binary_fn"


@irdl_attr_definition
class TypeFnAttr(MappingAttrSyntax, EnumAttribute[TypeFn]):
    """`#linalg.type_fn<cast_signed>`."""

    name = "linalg.type_fn"


FUNCTION_ATTRS = (UnaryFnAttr, BinaryFnAttr, TypeFnAttr)
"""The attributes this module adds to xDSL's `linalg` dialect."""


def cast_unsigned(value: SSAValue, to_type: Attribute) -> SSAValue:
    """`value` converted to `to_type`, integers read as unsigned: extui,
    uitofp, fptoui where `cast_signed` would extend or convert signed."""
    from_type = value.type
    if isinstance(from_type, IntegerType) and isinstance(to_type, IntegerType):
        if from_type.width.data < to_type.width.data:
            return arith.ExtUIOp(value, to_type).result
    elif isinstance(from_type, IntegerType) and isinstance(to_type, AnyFloat):
        return arith.UIToFPOp(value, to_type).result
    elif isinstance(from_type, AnyFloat) and isinstance(to_type, IntegerType):
        return arith.FPToUIOp(value, to_type).result
    return cast_signed(value, to_type)


TYPE_FUNCTIONS: dict[TypeFn, Callable[[SSAValue, Attribute], SSAValue]] = {
    TypeFn.CAST_SIGNED: cast_signed,
    TypeFn.CAST_UNSIGNED: cast_unsigned,
}

_UNSIGNED_ON_FLOATS = {
    ElementwiseKind.MAX_UNSIGNED: ElementwiseKind.MAX_SIGNED,
    ElementwiseKind.MIN_UNSIGNED: ElementwiseKind.MIN_SIGNED,
}
"""OpDSL computes the unsigned extrema of floats as the signed ones."""


def _payload(fun: UnaryFn | BinaryFn, value_type: Attribute) -> Payload | None:
    """What MLIR 19's region builder computes for `fun` on `value_type`
    elements, or None where it aborts."""
    kind = ElementwiseKind(fun.value)
    if isinstance(value_type, AnyFloat):
        return FLOAT_PAYLOADS.get(_UNSIGNED_ON_FLOATS.get(kind, kind))
    if value_type == i1:
        if kind in (ElementwiseKind.DIV, ElementwiseKind.DIV_UNSIGNED):
            return None
        return BOOL_PAYLOADS.get(kind)
    if isinstance(value_type, IntegerType):
        return INTEGER_PAYLOADS.get(kind)
    return None


def build_legacy_body(
    fun: UnaryFn | BinaryFn,
    type_fn: TypeFn,
    inputs: Sequence[SSAValue],
    outputs: Sequence[SSAValue],
) -> Region:
    """OpDSL's body, `yield fun(cast(U, in)...)`; a VerifyException for
    operands it cannot be built for."""
    arity = 1 if isinstance(fun, UnaryFn) else 2
    if len(inputs) != arity or len(outputs) != 1:
        raise VerifyException(
            f"expects {arity} input(s) and 1 output, got {len(inputs)} and "
            f"{len(outputs)}"
        )
    arg_types = [element_type(v.type) for v in (*inputs, *outputs)]
    target = arg_types[-1]
    payload = _payload(fun, target)
    if payload is None:
        raise VerifyException(f"cannot compute fun {fun.value} on {target} elements")
    for source in arg_types[:arity]:
        if not can_cast_signed(source, target):
            raise VerifyException(f"cannot {type_fn.value} {source} to {target}")
    convert = TYPE_FUNCTIONS[type_fn]

    @Builder.implicit_region(arg_types)
    def body(args: tuple[BlockArgument, ...]) -> None:
        converted = [convert(arg, target) for arg in args[:arity]]
        # The payloads take block arguments; converted values serve as well.
        YieldOp(payload(typed(Sequence[BlockArgument], converted)))

    return body


class LegacyElementwiseOperation(NamedOperation, ABC):
    """An OpDSL elementwise op: `fun` of the converted inputs, written to
    the output; its body follows from `fun`, `cast` and the element types."""

    PRINT_ATTRS_IN_FRONT: ClassVar[bool] = True
    DEFAULT_FUN: ClassVar[UnaryFnAttr | BinaryFnAttr]
    """`fun` when absent; also says which function attribute `fun` is."""

    cast = opt_prop_def(TypeFnAttr)

    def __init__(
        self,
        inputs: Sequence[SSAValue],
        outputs: Sequence[SSAValue],
        res: Sequence[Attribute] | None = None,
        properties: Mapping[str, Attribute] | None = None,
        attributes: Mapping[str, Attribute] | None = None,
    ):
        properties = dict(properties or {})
        if res is None:
            res = [o.type for o in outputs if not isinstance(o.type, MemRefType)]
        super().__init__(
            ins=inputs,
            outs=outputs,
            result_types=res,
            properties=properties,
            attributes=attributes,
            hidden_region=self._body(properties, inputs, outputs),
        )

    @classmethod
    def _body(
        cls,
        properties: Mapping[str, Attribute],
        inputs: Sequence[SSAValue],
        outputs: Sequence[SSAValue],
    ) -> Region:
        default = cls.DEFAULT_FUN
        fun_attr = properties.get("fun", default)
        if not isinstance(fun_attr, type(default)):
            raise VerifyException(f"expects fun to be a #{default.name}<...>")
        cast_attr = properties.get("cast", TypeFnAttr(TypeFn.CAST_SIGNED))
        if not isinstance(cast_attr, TypeFnAttr):
            raise VerifyException(f"expects cast to be a #{TypeFnAttr.name}<...>")
        return build_legacy_body(fun_attr.data, cast_attr.data, inputs, outputs)

    @classmethod
    def get_hidden_region(
        cls, inputs: Sequence[SSAValue], outputs: Sequence[SSAValue]
    ) -> Region:
        return cls._body({}, inputs, outputs)

    def get_default_indexing_maps(self) -> Sequence[AffineMap]:
        rank = rank_of_value(self.outputs[0]) if self.outputs else 0
        return [
            AffineMap.identity(rank)
            if rank_of_value(operand)
            else AffineMap(rank, 0, ())
            for operand in self.operands
        ]

    def get_iterator_types(self) -> ArrayAttr[IteratorTypeAttr]:
        return ArrayAttr((IteratorTypeAttr.parallel(),) * self.get_num_loops())

    def verify_(self) -> None:
        try:
            self._body(self.properties, self.inputs, self.outputs)
        except VerifyException as error:
            op_error(self, str(error))
        verify_shaped_operands(self, [("output", self.outputs[0])])
        verify_destination_results(self, self.outputs, self.res)
        rank = rank_of_value(self.outputs[0])
        for index, operand in enumerate(self.inputs):
            operand_rank = rank_of_value(operand)
            if operand_rank not in (0, rank):
                op_error(
                    self,
                    f"expected operand rank ({operand_rank}) to match the result "
                    f"rank of indexing_map #{index} ({rank})",
                )
        try:
            LinalgStructuredOperation.verify_(self)
        except VerifyException as error:
            op_error(self, str(error))

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        start = parser.pos
        entries = parser.parse_optional_attr_dict()
        inputs = parse_optional_operand_group(parser, "ins") or ()
        outputs = parse_optional_operand_group(parser, "outs") or ()
        entries |= parse_trailing_attributes(parser)
        result_types = parse_optional_result_types(parser)
        properties, attributes = split_properties(
            entries, cls.get_irdl_definition().properties
        )
        try:
            return cls(inputs, outputs, result_types, properties, attributes)
        except BUILD_ERRORS as error:
            parser.raise_error(f"'{cls.name}' {error}", start, parser.pos)

    def print(self, printer: Printer) -> None:
        print_named(self, printer)


@irdl_op_definition
class ElemwiseUnaryOp(LegacyElementwiseOperation):
    """Applies the unary function `fun` (default `exp`) to each input
    element, converted by `cast` (default `cast_signed`) to the output's
    element type: `O = fun(cast(U, I))` (MLIR 19's OpDSL op, removed since).

    See external [documentation](https://github.com/llvm/llvm-project/blob/release/19.x/mlir/python/mlir/dialects/linalg/opdsl/ops/core_named_ops.py).
    """

    name = "linalg.elemwise_unary"

    DEFAULT_FUN: ClassVar[UnaryFnAttr | BinaryFnAttr] = UnaryFnAttr(UnaryFn.EXP)

    fun = opt_prop_def(UnaryFnAttr)


@irdl_op_definition
class ElemwiseBinaryOp(LegacyElementwiseOperation):
    """Applies the binary function `fun` (default `add`) to the two inputs'
    elements, each converted by `cast` (default `cast_signed`) to the
    output's element type: `O = fun(cast(U, lhs), cast(U, rhs))` (MLIR 19's
    OpDSL op, removed since).

    See external [documentation](https://github.com/llvm/llvm-project/blob/release/19.x/mlir/python/mlir/dialects/linalg/opdsl/ops/core_named_ops.py).
    """

    name = "linalg.elemwise_binary"

    DEFAULT_FUN: ClassVar[UnaryFnAttr | BinaryFnAttr] = BinaryFnAttr(BinaryFn.ADD)

    fun = opt_prop_def(BinaryFnAttr)


ELEMWISE_LEGACY_OPS = (ElemwiseUnaryOp, ElemwiseBinaryOp)
"""The ops this module adds to xDSL's `linalg` dialect."""
