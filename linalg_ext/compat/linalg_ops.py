"""Upstream Linalg ops that xDSL 0.74 cannot parse.

- `linalg.map`, in both of MLIR's spellings: the short form that names one
  payload op, `linalg.map { arith.addf } ins(...) outs(...)`, and the region
  form. Its mapper takes one argument per input and, last, the init's element
  (MLIR 22), as mlir-opt-22 requires.
- `linalg.batch_matmul`, with upstream's optional `indexing_maps = [...]`.
- The named elementwise ops xDSL lacks: `linalg.div`, `negf`, `abs`, `floor`,
  `ceil`, `tanh`, `rsqrt`, `reciprocal`, `square`, `powf`, `round`, `erf`
  and `div_unsigned`.

Named ops build their hidden body op for op as MLIR 22 does, so that the
generic form is exactly what mlir-opt-22 prints for them.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
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
    TensorType,
)
from xdsl.dialects.linalg.abstract_ops import ElementwiseOperation, NamedOperation
from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.dialects.linalg.ops import YieldOp
from xdsl.ir import Attribute, Block, BlockArgument, Region, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineMap
from xdsl.irdl import (
    IRDLOperation,
    base,
    irdl_op_definition,
    operand_def,
    prop_def,
    region_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from linalg_ext.assembly import (
    parse_optional_operand_group,
    print_operand_group,
)
from linalg_ext.compat.checks import (
    element_type,
    verify_destination_results,
    verify_shaped_operands,
)
from linalg_ext.compat.short_form import (
    build_short_form_region,
    parse_optional_short_form,
    print_short_form,
    short_form_payload,
)
from linalg_ext.compat.syntax import (
    parse_optional_result_types,
    print_result_types,
    sorted_attributes,
)
from linalg_ext.shaped import is_ranked_shaped, rank_of_value
from linalg_ext.type_functions import cast_signed
from linalg_ext.verification import op_error

TENSOR_OR_MEMREF = base(TensorType) | base(MemRefType)


def _is_float(type_: Attribute) -> bool:
    return isinstance(type_, AnyFloat)


def _is_numeric(type_: Attribute) -> bool:
    return isinstance(type_, AnyFloat | IntegerType)


def _identity_maps(rank: int, count: int) -> ArrayAttr[AffineMapAttr]:
    return ArrayAttr((AffineMapAttr(AffineMap.identity(rank)),) * count)


# --------------------------------------------------------------------------
# linalg.map
# --------------------------------------------------------------------------


@irdl_op_definition
class MapOp(IRDLOperation):
    """Applies the mapper to the elements of the inputs at each index and
    writes what it yields to the init at that index.

    All operands have one shape. The mapper's arguments are one element of
    each input and, last, the init's element at the same index; it yields one
    value of the init's element type. On tensors the result is a new tensor
    of the init's type; on memrefs the init is written in place.

    It is not a `LinalgStructuredOperation`: that base class declares two
    variadic operand groups (so an `operandSegmentSizes` property), while
    upstream's op has variadic inputs and one init and no such property, and
    the generic forms must agree. It offers the same queries
    (`get_indexing_maps`, `get_iterator_types`), for its identity maps.

    See external [documentation](https://mlir.llvm.org/docs/Dialects/Linalg/#linalgmap-linalgmapop).
    """

    name = "linalg.map"

    inputs = var_operand_def(TENSOR_OR_MEMREF)
    init = operand_def(TENSOR_OR_MEMREF)
    result = var_result_def(TensorType)
    mapper = region_def("single_block")

    def __init__(
        self,
        inputs: Sequence[SSAValue],
        init: SSAValue,
        mapper: Region,
        attributes: dict[str, Attribute] | None = None,
    ):
        super().__init__(
            operands=[inputs, init],
            result_types=[[init.type] if isinstance(init.type, TensorType) else []],
            regions=[mapper],
            attributes=attributes,
        )

    @property
    def outputs(self) -> tuple[SSAValue]:
        """The init as the one output, as structured-op code expects it."""
        return (self.init,)

    def get_indexing_maps(self) -> ArrayAttr[AffineMapAttr]:
        return _identity_maps(rank_of_value(self.init), len(self.inputs) + 1)

    def get_iterator_types(self) -> ArrayAttr[IteratorTypeAttr]:
        return ArrayAttr((IteratorTypeAttr.parallel(),) * rank_of_value(self.init))

    def verify_(self) -> None:
        roles = [(f"input #{i}", v) for i, v in enumerate(self.inputs)]
        verify_shaped_operands(self, [*roles, ("init", self.init)])
        verify_destination_results(self, (self.init,), self.result)
        init_type = self.init.type
        assert isinstance(init_type, TensorType | MemRefType)
        init_shape = tuple(init_type.get_shape())
        for value in self.inputs:
            assert isinstance(value.type, TensorType | MemRefType)
            shape = tuple(value.type.get_shape())
            if shape != init_shape:
                op_error(
                    self,
                    f"expected shape of input ({_shape_text(shape)}) to match "
                    f"shape of output ({_shape_text(init_shape)})",
                )

        block = self.mapper.block
        operands = (*self.inputs, self.init)
        if len(block.args) != len(operands):
            op_error(
                self,
                "expects number of operands to match the arity of mapper, but "
                f"got: {len(operands)} and {len(block.args)}",
            )
        for index, (value, arg) in enumerate(zip(operands, block.args, strict=True)):
            expected = element_type(value.type)
            if arg.type != expected:
                op_error(
                    self,
                    f"expected element type of operand #{index} ({expected}) to "
                    f"match mapper argument type ({arg.type})",
                )
        yield_op = block.last_op
        if not isinstance(yield_op, YieldOp):
            op_error(self, "expected the mapper to end with linalg.yield")
        if len(yield_op.arguments) != 1:
            op_error(
                self,
                f"expected the mapper to yield 1 value, got {len(yield_op.arguments)}",
            )
        yielded = yield_op.arguments[0].type
        if yielded != element_type(init_type):
            op_error(
                self,
                f"expected the mapper to yield the init's element type "
                f"({element_type(init_type)}), got {yielded}",
            )

    # Syntax, as MLIR 22 reads and prints it:
    #   linalg.map { payload-op attr-dict? }? ins(...)? outs(...) attr-dict?
    #   linalg.map ins(...)? outs(...) attr-dict? (%in: T, %init: T) { region }

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        start = parser.pos
        # Short form: `{ payload-op attr-dict? }`, read before the operands it
        # applies to are known.
        payload = parse_optional_short_form(parser, cls.name)
        inputs = parse_optional_operand_group(parser, "ins") or ()
        outs_pos = parser.pos
        outputs = parse_optional_operand_group(parser, "outs")
        if outputs is None or len(outputs) != 1:
            parser.raise_error(
                "'linalg.map' expects outs with exactly one init", outs_pos, parser.pos
            )
        (init,) = outputs
        for value in (*inputs, init):
            if not is_ranked_shaped(value.type):
                parser.raise_error(
                    f"'linalg.map' expects tensor or memref operands, got {value.type}",
                    start,
                    parser.pos,
                )
        attributes = parser.parse_optional_attr_dict()

        if payload is not None:
            mapper = build_short_form_region(
                parser,
                cls.name,
                payload,
                (*inputs, init),
                lambda block: block.args[: len(inputs)],
                element_type(init.type),
            )
        else:
            arguments = parser.parse_comma_separated_list(
                Parser.Delimiter.PAREN, parser.parse_argument
            )
            mapper = parser.parse_region(arguments)
        return cls(inputs, init, mapper, attributes)

    def _payload_operands(self, block: Block) -> Sequence[SSAValue]:
        """The short form applies its payload op to the inputs' elements."""
        return block.args[: len(self.inputs)]

    def print(self, printer: Printer) -> None:
        payload = short_form_payload(self.mapper, self._payload_operands)
        if payload is not None:
            print_short_form(printer, payload)
        if self.inputs:
            print_operand_group(printer, "ins", self.inputs)
        print_operand_group(printer, "outs", (self.init,))
        printer.print_op_attributes(sorted_attributes(self.attributes))
        if payload is not None:
            return
        with printer.indented():
            printer.print_string("\n(")
            printer.print_list(self.mapper.block.args, printer.print_block_argument)
            printer.print_string(") ")
            printer.print_region(self.mapper, print_entry_block_args=False)


def _shape_text(shape: Sequence[int]) -> str:
    return ", ".join("?" if extent < 0 else str(extent) for extent in shape)


# --------------------------------------------------------------------------
# Named ops with upstream's syntax: attributes in front of ins/outs
# --------------------------------------------------------------------------


class UpstreamNamedOperation(NamedOperation, ABC):
    """A named op as MLIR 22 spells it: `{attrs}` in front of `ins`, results
    after `->`. A body that cannot be built for the operands is a parse
    error naming the op, not a failure deep inside the builder."""

    PRINT_ATTRS_IN_FRONT: ClassVar[bool] = True

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        start = parser.pos
        try:
            return super().parse(parser)
        except VerifyException as error:
            parser.raise_error(f"'{cls.name}' {error}", start, parser.pos)

    @classmethod
    def _body_element_types(
        cls, inputs: Sequence[SSAValue], outputs: Sequence[SSAValue]
    ) -> list[Attribute]:
        return [element_type(v.type) for v in (*inputs, *outputs)]


def _verify_structured(op: NamedOperation) -> None:
    """xDSL's checks of a structured op (maps against shapes, body arguments),
    their messages prefixed with the op's name like ours."""
    try:
        NamedOperation.verify_(op)
    except VerifyException as error:
        op_error(op, str(error))


def _result_types(outputs: Sequence[SSAValue]) -> list[Attribute]:
    return [o.type for o in outputs if isinstance(o.type, TensorType)]


class UpstreamElementwiseOperation(UpstreamNamedOperation, ElementwiseOperation, ABC):
    """A named elementwise op xDSL lacks: `ARITY` inputs and one init, all of
    one shape and element type; the body applies `build_payload` to the input
    elements."""

    ARITY: ClassVar[int] = 1
    FLOAT_ONLY: ClassVar[bool] = True

    def __init__(
        self,
        inputs: Sequence[SSAValue],
        outputs: Sequence[SSAValue] = (),
        res: Sequence[Attribute] | None = None,
        attributes: dict[str, Attribute] | None = None,
    ):
        super().__init__(
            ins=inputs,
            outs=outputs,
            result_types=_result_types(outputs) if res is None else res,
            attributes=attributes,
            hidden_region=self.get_hidden_region(inputs, outputs),
        )

    @classmethod
    @abstractmethod
    def build_payload(cls, args: Sequence[BlockArgument]) -> SSAValue:
        """The scalar computation on the input elements. Ops built here are
        inserted in the body being built."""

    @classmethod
    def get_hidden_region(
        cls, inputs: Sequence[SSAValue], outputs: Sequence[SSAValue]
    ) -> Region:
        if len(inputs) != cls.ARITY or len(outputs) != 1:
            raise VerifyException(
                f"expects {cls.ARITY} input(s) and 1 output, got {len(inputs)} "
                f"and {len(outputs)}"
            )
        arg_types = cls._body_element_types(inputs, outputs)
        supported = _is_float if cls.FLOAT_ONLY else _is_numeric
        for type_ in arg_types:
            if not supported(type_):
                kinds = "floating-point" if cls.FLOAT_ONLY else "numeric"
                raise VerifyException(f"expects {kinds} element types, got {type_}")

        @Builder.implicit_region(arg_types)
        def body(args: tuple[BlockArgument, ...]) -> None:
            YieldOp(cls.build_payload(args[: cls.ARITY]))

        return body

    def verify_(self) -> None:
        if len(self.inputs) != self.ARITY or len(self.outputs) != 1:
            op_error(
                self,
                f"expects {self.ARITY} input(s) and 1 output, got "
                f"{len(self.inputs)} and {len(self.outputs)}",
            )
        roles = [(f"input #{i}", v) for i, v in enumerate(self.inputs)]
        verify_shaped_operands(self, [*roles, ("output", self.outputs[0])])
        verify_destination_results(self, self.outputs, self.res)
        types = {element_type(v.type) for v in self.operands}
        if len(types) != 1:
            op_error(
                self,
                "expects all operands to have one element type, got "
                + ", ".join(str(element_type(v.type)) for v in self.operands),
            )
        _verify_structured(self)


@irdl_op_definition
class DivOp(UpstreamElementwiseOperation):
    """Divides the first input by the second elementwise: `arith.divf` on
    floats, `arith.divsi` (signed, rounding toward zero) on integers.

    See external [documentation](https://mlir.llvm.org/docs/Dialects/Linalg/#linalgdiv-linalgdivop).
    """

    name = "linalg.div"
    ARITY: ClassVar[int] = 2
    FLOAT_ONLY: ClassVar[bool] = False

    @classmethod
    def build_payload(cls, args: Sequence[BlockArgument]) -> SSAValue:
        if _is_float(args[0].type):
            return arith.DivfOp(args[0], args[1]).result
        return arith.DivSIOp(args[0], args[1]).result


@irdl_op_definition
class NegFOp(UpstreamElementwiseOperation):
    """Negates a floating-point input elementwise (`arith.negf`).

    See external [documentation](https://mlir.llvm.org/docs/Dialects/Linalg/#linalgnegf-linalgnegfop).
    """

    name = "linalg.negf"

    @classmethod
    def build_payload(cls, args: Sequence[BlockArgument]) -> SSAValue:
        return arith.NegfOp(args[0]).result


@irdl_op_definition
class AbsOp(UpstreamElementwiseOperation):
    """Absolute value of a floating-point input, elementwise (`math.absf`).

    See external [documentation](https://mlir.llvm.org/docs/Dialects/Linalg/#linalgabs-linalgabsop).
    """

    name = "linalg.abs"

    @classmethod
    def build_payload(cls, args: Sequence[BlockArgument]) -> SSAValue:
        return math.AbsFOp(args[0]).result


@irdl_op_definition
class FloorOp(UpstreamElementwiseOperation):
    """Rounds a floating-point input down, elementwise (`math.floor`).

    See external [documentation](https://mlir.llvm.org/docs/Dialects/Linalg/#linalgfloor-linalgfloorop).
    """

    name = "linalg.floor"

    @classmethod
    def build_payload(cls, args: Sequence[BlockArgument]) -> SSAValue:
        return math.FloorOp(args[0]).result


@irdl_op_definition
class CeilOp(UpstreamElementwiseOperation):
    """Rounds a floating-point input up, elementwise (`math.ceil`).

    See external [documentation](https://mlir.llvm.org/docs/Dialects/Linalg/#linalgceil-linalgceilop).
    """

    name = "linalg.ceil"

    @classmethod
    def build_payload(cls, args: Sequence[BlockArgument]) -> SSAValue:
        return math.CeilOp(args[0]).result


@irdl_op_definition
class TanhOp(UpstreamElementwiseOperation):
    """Hyperbolic tangent of a floating-point input, elementwise (`math.tanh`).

    See external [documentation](https://mlir.llvm.org/docs/Dialects/Linalg/#linalgtanh-linalgtanhop).
    """

    name = "linalg.tanh"

    @classmethod
    def build_payload(cls, args: Sequence[BlockArgument]) -> SSAValue:
        return math.TanhOp(args[0]).result


@irdl_op_definition
class RsqrtOp(UpstreamElementwiseOperation):
    """Reciprocal square root of a floating-point input, elementwise
    (`math.rsqrt`).

    See external [documentation](https://mlir.llvm.org/docs/Dialects/Linalg/#linalgrsqrt-linalgrsqrtop).
    """

    name = "linalg.rsqrt"

    @classmethod
    def build_payload(cls, args: Sequence[BlockArgument]) -> SSAValue:
        return math.RsqrtOp(args[0]).result


@irdl_op_definition
class ReciprocalOp(UpstreamElementwiseOperation):
    """`1 / x` of a floating-point input, elementwise (`arith.divf` of the
    constant 1.0 by the element, as MLIR builds it).

    See external [documentation](https://mlir.llvm.org/docs/Dialects/Linalg/#linalgreciprocal-linalgreciprocalop).
    """

    name = "linalg.reciprocal"

    @classmethod
    def build_payload(cls, args: Sequence[BlockArgument]) -> SSAValue:
        type_ = args[0].type
        assert isinstance(type_, AnyFloat)
        one = arith.ConstantOp(FloatAttr(1.0, type_))
        return arith.DivfOp(one, args[0]).result


@irdl_op_definition
class SquareOp(UpstreamElementwiseOperation):
    """`x * x` of a floating-point input, elementwise (`arith.mulf`).

    See external [documentation](https://mlir.llvm.org/docs/Dialects/Linalg/#linalgsquare-linalgsquareop).
    """

    name = "linalg.square"

    @classmethod
    def build_payload(cls, args: Sequence[BlockArgument]) -> SSAValue:
        return arith.MulfOp(args[0], args[0]).result


@irdl_op_definition
class PowFOp(UpstreamElementwiseOperation):
    """The first floating-point input raised to the power of the second,
    elementwise (`math.powf`).

    See external [documentation](https://mlir.llvm.org/docs/Dialects/Linalg/#linalgpowf-linalgpowfop).
    """

    name = "linalg.powf"
    ARITY: ClassVar[int] = 2

    @classmethod
    def build_payload(cls, args: Sequence[BlockArgument]) -> SSAValue:
        return math.PowFOp(args[0], args[1]).result


@irdl_op_definition
class RoundOp(UpstreamElementwiseOperation):
    """Rounds a floating-point input to the nearest integer, halfway cases
    away from zero, elementwise (`math.round`).

    See external [documentation](https://mlir.llvm.org/docs/Dialects/Linalg/#linalground-linalgroundop).
    """

    name = "linalg.round"

    @classmethod
    def build_payload(cls, args: Sequence[BlockArgument]) -> SSAValue:
        return math.RoundOp(args[0]).result


@irdl_op_definition
class ErfOp(UpstreamElementwiseOperation):
    """The error function of a floating-point input, elementwise (`math.erf`).

    See external [documentation](https://mlir.llvm.org/docs/Dialects/Linalg/#linalgerf-linalgerfop).
    """

    name = "linalg.erf"

    @classmethod
    def build_payload(cls, args: Sequence[BlockArgument]) -> SSAValue:
        return math.ErfOp(args[0]).result


@irdl_op_definition
class DivUnsignedOp(UpstreamElementwiseOperation):
    """Divides the first integer input by the second, both read as unsigned,
    elementwise (`arith.divui`); upstream builds no body on floats or i1.

    See external [documentation](https://mlir.llvm.org/docs/Dialects/Linalg/#linalgdiv_unsigned-linalgdivunsignedop).
    """

    name = "linalg.div_unsigned"
    ARITY: ClassVar[int] = 2
    FLOAT_ONLY: ClassVar[bool] = False

    @classmethod
    def build_payload(cls, args: Sequence[BlockArgument]) -> SSAValue:
        type_ = args[0].type
        if not isinstance(type_, IntegerType) or type_.width.data == 1:
            raise VerifyException(
                f"expects integer element types wider than i1, got {type_}"
            )
        return arith.DivUIOp(args[0], args[1]).result


ELEMENTWISE_OPS: tuple[type[UpstreamElementwiseOperation], ...] = (
    DivOp,
    NegFOp,
    AbsOp,
    FloorOp,
    CeilOp,
    TanhOp,
    RsqrtOp,
    ReciprocalOp,
    SquareOp,
    PowFOp,
    RoundOp,
    ErfOp,
    DivUnsignedOp,
)


# --------------------------------------------------------------------------
# linalg.batch_matmul
# --------------------------------------------------------------------------


def _batch_matmul_map(*dims: int) -> AffineMapAttr:
    return AffineMapAttr(AffineMap(4, 0, tuple(AffineDimExpr(d) for d in dims)))


# Loops (d0, d1, d2, d3) = (batch, m, n, k).
BATCH_MATMUL_DEFAULT_MAPS = ArrayAttr(
    (
        _batch_matmul_map(0, 1, 3),
        _batch_matmul_map(0, 3, 2),
        _batch_matmul_map(0, 1, 2),
    )
)


@irdl_op_definition
class BatchMatmulOp(UpstreamNamedOperation):
    """Batched matrix product accumulated into the init:
    `C[b, m, n] += A[b, m, k] * B[b, k, n]`.

    The inputs are first converted to the init's element type (signed
    integers). `indexing_maps = [...]` may replace the default maps over the
    loops (batch, m, n, k), to read an input transposed or broadcast over the
    batch; the init's map stays `(d0, d1, d2)`.

    See external [documentation](https://mlir.llvm.org/docs/Dialects/Linalg/#linalgbatch_matmul-linalgbatchmatmulop).
    """

    name = "linalg.batch_matmul"

    indexing_maps = prop_def(
        ArrayAttr[AffineMapAttr], default_value=BATCH_MATMUL_DEFAULT_MAPS
    )

    def __init__(
        self,
        inputs: Sequence[SSAValue],
        outputs: Sequence[SSAValue],
        res: Sequence[Attribute] | None = None,
        attributes: dict[str, Attribute] | None = None,
        indexing_maps: ArrayAttr[AffineMapAttr] = BATCH_MATMUL_DEFAULT_MAPS,
    ):
        super().__init__(
            ins=inputs,
            outs=outputs,
            result_types=_result_types(outputs) if res is None else res,
            # Always present, as in MLIR, whose generic form always has it.
            properties={"indexing_maps": indexing_maps},
            attributes=attributes,
            hidden_region=self.get_hidden_region(inputs, outputs),
        )

    @classmethod
    def get_hidden_region(
        cls, inputs: Sequence[SSAValue], outputs: Sequence[SSAValue]
    ) -> Region:
        if len(inputs) != 2 or len(outputs) != 1:
            raise VerifyException(
                "expects ins(lhs, rhs) and outs(init), got "
                f"{len(inputs)} input(s) and {len(outputs)} output(s)"
            )
        arg_types = cls._body_element_types(inputs, outputs)
        for type_ in arg_types:
            if not _is_numeric(type_):
                raise VerifyException(f"expects numeric element types, got {type_}")
        accumulator_type = arg_types[-1]
        add, mul = (
            (arith.AddfOp, arith.MulfOp)
            if isinstance(accumulator_type, AnyFloat)
            else (arith.AddiOp, arith.MuliOp)
        )

        @Builder.implicit_region(arg_types)
        def body(args: tuple[BlockArgument, ...]) -> None:
            lhs = cast_signed(args[0], accumulator_type)
            rhs = cast_signed(args[1], accumulator_type)
            YieldOp(add(args[2], mul(lhs, rhs)))

        return body

    def get_default_indexing_maps(self) -> Sequence[AffineMap]:
        return tuple(m.data for m in self.indexing_maps.data)

    def get_indexing_maps(self) -> ArrayAttr[AffineMapAttr]:
        return self.indexing_maps

    def get_iterator_types(self) -> ArrayAttr[IteratorTypeAttr]:
        return ArrayAttr(
            (IteratorTypeAttr.parallel(),) * 3 + (IteratorTypeAttr.reduction(),)
        )

    def verify_(self) -> None:
        if len(self.inputs) != 2 or len(self.outputs) != 1:
            op_error(
                self,
                "expects ins(lhs, rhs) and outs(init), got "
                f"{len(self.inputs)} input(s) and {len(self.outputs)} output(s)",
            )
        roles = [("lhs", self.inputs[0]), ("rhs", self.inputs[1])]
        verify_shaped_operands(self, [*roles, ("init", self.outputs[0])])
        verify_destination_results(self, self.outputs, self.res)
        maps = tuple(m.data for m in self.indexing_maps.data)
        if len(maps) != 3:
            op_error(self, f"expects 3 indexing maps, got {len(maps)}")
        for index, map_ in enumerate(maps):
            if map_.num_dims != 4 or map_.num_symbols != 0:
                op_error(
                    self,
                    f"expects indexing map #{index} over 4 loops and no symbols, "
                    f"got {map_}",
                )
            if not all(isinstance(e, AffineDimExpr) for e in map_.results):
                op_error(
                    self, f"expects indexing map #{index} to select loops, got {map_}"
                )
        if maps[2] != BATCH_MATMUL_DEFAULT_MAPS.data[2].data:
            op_error(
                self, f"expects the init's indexing map (d0, d1, d2), got {maps[2]}"
            )
        # Each input reads its two matrix loops, and the batch loop or not.
        for index, (role, needed) in enumerate((("lhs", {1, 3}), ("rhs", {3, 2}))):
            loops = [
                e.position for e in maps[index].results if isinstance(e, AffineDimExpr)
            ]
            if len(set(loops)) != len(loops) or not needed <= set(loops) <= needed | {
                0
            }:
                op_error(
                    self,
                    f"expects the {role}'s indexing map to use loops "
                    f"{sorted(needed)} and optionally the batch loop 0, got "
                    f"{maps[index]}",
                )
        _verify_structured(self)

    # Syntax: (`indexing_maps` `=` `[` maps `]`)? attr-dict ins(...) outs(...)
    # (`->` types)?; the maps are printed only when they are not the default.

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        start = parser.pos
        indexing_maps = BATCH_MATMUL_DEFAULT_MAPS
        if parser.parse_optional_keyword("indexing_maps") is not None:
            parser.parse_punctuation("=")
            maps_pos = parser.pos
            maps = parser.parse_attribute()
            if not (
                isinstance(maps, ArrayAttr)
                and all(isinstance(m, AffineMapAttr) for m in maps.data)
            ):
                parser.raise_error(
                    "'linalg.batch_matmul' expects indexing_maps to be a list of "
                    "affine maps",
                    maps_pos,
                    parser.pos,
                )
            indexing_maps = maps
        entries = parser.parse_optional_attr_dict()
        inputs = parse_optional_operand_group(parser, "ins") or ()
        outputs = parse_optional_operand_group(parser, "outs") or ()
        result_types = parse_optional_result_types(parser)
        try:
            op = cls(inputs, outputs, result_types, entries, indexing_maps)
        except VerifyException as error:
            parser.raise_error(f"'{cls.name}' {error}", start, parser.pos)
        return op

    def print(self, printer: Printer) -> None:
        if self.indexing_maps != BATCH_MATMUL_DEFAULT_MAPS:
            printer.print_string(" indexing_maps = ")
            printer.print_attribute(self.indexing_maps)
        printer.print_op_attributes(sorted_attributes(self.attributes))
        print_operand_group(printer, "ins", self.inputs)
        print_operand_group(printer, "outs", self.outputs)
        print_result_types(printer, self.res.types)


LINALG_OPS: tuple[type[IRDLOperation], ...] = (MapOp, BatchMatmulOp, *ELEMENTWISE_OPS)
"""Every op this module adds to xDSL's `linalg` dialect."""
