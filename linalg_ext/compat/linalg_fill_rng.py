"""Upstream's `linalg.fill_rng_2d` (OpDSL), which xDSL 0.74 lacks.

    linalg.fill_rng_2d ins(%min, %max, %seed : f64, f64, i32)
                       outs(%O : tensor<16x32xf32>) -> tensor<16x32xf32>

fills a 2-D tensor or memref (of any float or integer element type) with
pseudo-random numbers between `min` and `max`: two parallel loops; the three
scalar inputs are read through `(d0, d1) -> ()`, the output through the
identity. Each element is computed from its position by two steps of a
linear congruential generator on wrapping `i32`,

    r = (j + ((i + seed) * 1103515245 + 12345)) * 1103515245 + 12345

then scaled in `f64`: `(2147483647.0 + r) * ((max - min) * 2.3283064e-10) +
min`, converted to the output's element type as a signed cast.

The op is an `OpDslOperation` of `linalg_opdsl` (same syntax, memoized maps,
operand checks, interpretation by its maps and hidden body, generalization
by cloning that body), with its own body: built as MLIR 22's region builder
builds it, op for op (the integer constants as `i64` truncated to `i32`,
`2147483647` as an `i64` converted to `f64`), which is what `mlir-opt-22
--mlir-print-op-generic` prints as the op's region. Its body reads the loop
indices (`linalg.index`), so a tile of it is a `linalg.generic` whose indices
are shifted by the tile's offsets (`linalg_ext.tiling.structured`): the custom
form of the named op has no room for the shift.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from xdsl.builder import Builder
from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    AnyFloat,
    FloatAttr,
    IntegerAttr,
    IntegerType,
    ShapedType,
    f64,
    i32,
    i64,
)
from xdsl.dialects.linalg.ops import IndexOp, YieldOp
from xdsl.ir import Attribute, BlockArgument, Region, SSAValue
from xdsl.irdl import irdl_op_definition
from xdsl.utils.exceptions import VerifyException

from linalg_ext.compat.checks import element_type
from linalg_ext.compat.linalg_opdsl import OpDslDescription, OpDslOperation
from linalg_ext.type_functions import cast_signed
from linalg_ext.verification import op_error

MULTIPLIER = 1103515245
"""The linear congruential generator's multiplier."""
INCREMENT = 12345
"""Its increment."""
OFFSET = 2147483647
"""Added (as `f64`) to the generator's signed `i32` output."""
SCALE = 2.3283064e-10
"""About 2**-32: scales `max - min` to one step of the generator."""

FILL_RNG_2D_DESCRIPTION = OpDslDescription(
    "linalg.fill_rng_2d", "m n", ("", "", "", "m, n"), "fill_rng"
)
"""Two parallel loops; `min`, `max`, `seed` scalars, the output indexed by
both loops."""

INPUT_TYPES: tuple[Attribute, ...] = (f64, f64, i32)
"""The element types of `min`, `max` and `seed`, as upstream's definition
fixes them (its body does not convert them)."""


def _integer_constant(value: int) -> SSAValue:
    """An `i32` constant as upstream's region builder makes one: an `i64`
    constant truncated to `i32`."""
    wide = arith.ConstantOp(IntegerAttr(value, i64))
    return arith.TruncIOp(wide.result, i32).result


def _generator_step(value: SSAValue) -> SSAValue:
    """`value * MULTIPLIER + INCREMENT`, wrapping in `i32`."""
    product = arith.MuliOp(value, _integer_constant(MULTIPLIER)).result
    return arith.AddiOp(product, _integer_constant(INCREMENT)).result


def _loop_index(dim: int) -> SSAValue:
    index = IndexOp(dim).result
    return arith.IndexCastOp(index, i32).result


def build_fill_rng_body(output_type: Attribute) -> Region:
    """The hidden body of `linalg.fill_rng_2d` with this output element
    type: MLIR 22's region builder's ops, in its order."""
    if not isinstance(output_type, AnyFloat | IntegerType):
        raise VerifyException(f"expects a float or integer output, got {output_type}")

    @Builder.implicit_region((*INPUT_TYPES, output_type))
    def body(args: tuple[BlockArgument, ...]) -> None:
        low, high, seed = args[0], args[1], args[2]
        offset = arith.SIToFPOp(
            arith.ConstantOp(IntegerAttr(OFFSET, i64)).result, f64
        ).result
        column = _loop_index(1)
        row = _loop_index(0)
        first = _generator_step(arith.AddiOp(row, seed).result)
        second = _generator_step(arith.AddiOp(column, first).result)
        shifted = arith.AddfOp(offset, arith.SIToFPOp(second, f64).result).result
        span = arith.SubfOp(high, low).result
        step = arith.MulfOp(span, arith.ConstantOp(FloatAttr(SCALE, f64)).result)
        value = arith.AddfOp(arith.MulfOp(shifted, step.result).result, low).result
        YieldOp(cast_signed(value, output_type))

    return body


@irdl_op_definition
class FillRng2DOp(OpDslOperation):
    """Upstream's `linalg.fill_rng_2d` (OpDSL): a 2-D output filled with
    pseudo-random numbers between `min` and `max` from `seed` (module doc).

    See external [documentation](https://mlir.llvm.org/docs/Dialects/Linalg/).
    """

    name = "linalg.fill_rng_2d"
    DESCRIPTION: ClassVar[OpDslDescription] = FILL_RNG_2D_DESCRIPTION

    @classmethod
    def get_hidden_region(
        cls, inputs: Sequence[SSAValue], outputs: Sequence[SSAValue]
    ) -> Region:
        _check_operand_types(inputs, outputs)
        return build_fill_rng_body(element_type(outputs[0].type))

    def verify_(self) -> None:
        try:
            _check_operand_types(self.inputs, self.outputs)
        except VerifyException as error:
            op_error(self, str(error))
        super().verify_()


def _check_operand_types(
    inputs: Sequence[SSAValue], outputs: Sequence[SSAValue]
) -> None:
    """Three scalars `f64, f64, i32` and one 2-D output of floats or
    integers (upstream's verifier reports the same mistakes, some only as
    type errors inside the body it builds)."""
    if len(inputs) != 3 or len(outputs) != 1:
        raise VerifyException(
            f"expects 3 input(s) and 1 output, got {len(inputs)} and {len(outputs)}"
        )
    actual = tuple(v.type for v in inputs)
    if actual != INPUT_TYPES:
        names = ", ".join(map(str, actual))
        raise VerifyException(f"expects inputs of types f64, f64, i32, got {names}")
    output = outputs[0].type
    if not isinstance(output, ShapedType) or len(output.get_shape()) != 2:
        raise VerifyException(f"expects a 2-D tensor or memref output, got {output}")
    element = element_type(output)
    if not isinstance(element, AnyFloat | IntegerType):
        raise VerifyException(f"expects a float or integer output, got {element}")
