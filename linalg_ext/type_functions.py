"""Linalg's type functions, as the arith ops that region builders emit.

The bodies of named ops with mixed element types (ByteIR's and upstream's
batch_matmul) convert their inputs with `cast_signed`; this is its one home.
"""

from __future__ import annotations

from xdsl.dialects import arith
from xdsl.dialects.builtin import AnyFloat, IntegerType
from xdsl.ir import Attribute, SSAValue


def is_int_or_float(type_: Attribute) -> bool:
    return isinstance(type_, IntegerType | AnyFloat)


def can_cast_signed(from_type: Attribute, to_type: Attribute) -> bool:
    """Whether `cast_signed` has a valid conversion: two different float types
    of one width (bf16 and f16) have none, since `arith.extf` and
    `arith.truncf` must change the width."""
    if from_type == to_type:
        return True
    if isinstance(from_type, AnyFloat) and isinstance(to_type, AnyFloat):
        return from_type.bitwidth != to_type.bitwidth
    return is_int_or_float(from_type) and is_int_or_float(to_type)


def cast_signed(value: SSAValue, to_type: Attribute) -> SSAValue:
    """`value` promoted or demoted to `to_type`, integers read as signed:
    extf/truncf, extsi/trunci, sitofp or fptosi (nothing for the same type)."""
    from_type = value.type
    if from_type == to_type:
        return value
    if isinstance(from_type, AnyFloat) and isinstance(to_type, AnyFloat):
        if from_type.bitwidth < to_type.bitwidth:
            return arith.ExtFOp(value, to_type).result
        return arith.TruncFOp(value, to_type).result
    if isinstance(from_type, IntegerType) and isinstance(to_type, IntegerType):
        if from_type.width.data < to_type.width.data:
            return arith.ExtSIOp(value, to_type).result
        return arith.TruncIOp(value, to_type).result
    if isinstance(from_type, IntegerType) and isinstance(to_type, AnyFloat):
        return arith.SIToFPOp(value, to_type).result
    if isinstance(from_type, AnyFloat) and isinstance(to_type, IntegerType):
        return arith.FPToSIOp(value, to_type).result
    raise ValueError(f"no signed cast from {from_type} to {to_type}")
