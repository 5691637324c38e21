"""Hexadecimal float elements in `dense<...>` attributes, as upstream MLIR.

MLIR prints a non-finite float element of a dense attribute as the hex of its
bit pattern (`dense<[0xFF800000, 1.0]> : tensor<2xf32>` is `[-inf, 1.0]`,
`dense<0xFF800000> : tensor<4xf32>` a splat of `-inf`); torch-mlir's
attention masks are full of them. xDSL 0.74 reads such an element as the
integer it spells (4.29e9). It also decides whether to print a splat by
comparing values, so `[0.0, -0.0]` printed as `dense<0.0>` and a NaN splat
printed as a list. `install_dense_hex_fixes` corrects both, for the process,
once our package is in use. Non-finite elements keep xDSL's spelling,
lower-case hex (`0xff800000`), which upstream reads back (it prints upper
case); tests of other passes check that spelling.
"""

from __future__ import annotations

from typing import Any

from xdsl.dialects.builtin import (
    AnyFloat,
    ComplexType,
    DenseIntOrFPElementsAttr,
    IndexType,
    IntegerType,
)
from xdsl.parser import AttrParser

_Element = AttrParser._TensorLiteralElement  # pyright: ignore[reportPrivateUsage]
_xdsl_to_type = _Element.to_type
_xdsl_is_splat = DenseIntOrFPElementsAttr.is_splat


def _to_type(
    self: Any,
    parser: AttrParser,
    type: AnyFloat | IntegerType | IndexType | ComplexType,
) -> Any:
    """An element written in hex, of a float type, is the bit pattern of
    that type (MLIR's rule); anything else as xDSL reads it."""
    if not isinstance(type, AnyFloat) or not isinstance(self.value, int):
        return _xdsl_to_type(self, parser, type)
    text: str = self.span.text
    if not text.lstrip("-").lower().startswith("0x"):
        return _xdsl_to_type(self, parser, type)
    if self.is_negative or text.startswith("-"):
        parser.raise_error(
            "hexadecimal float literal should not have a leading minus",
            at_position=self.span,
        )
    size = type.compile_time_size
    if self.value >= 1 << (8 * size):
        parser.raise_error(
            f"hexadecimal float constant out of range for type {type}",
            at_position=self.span,
        )
    return next(iter(type.iter_unpack(self.value.to_bytes(size, "little"))))


def _is_splat(self: DenseIntOrFPElementsAttr) -> bool:
    """Whether every element has the same bits (MLIR's test): `0.0` and
    `-0.0` differ, NaNs of one pattern are the same."""
    length = len(self)
    raw = self.data.data
    if length == 0 or len(raw) % length:
        return _xdsl_is_splat(self)
    size = len(raw) // length
    return raw == raw[:size] * length


def install_dense_hex_fixes() -> None:
    """Read hex float elements of `dense<...>` as bit patterns and test
    splats by bits. Idempotent."""
    _Element.to_type = _to_type
    DenseIntOrFPElementsAttr.is_splat = _is_splat
