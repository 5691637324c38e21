"""Assembly pieces shared by the project's ops: custom directives for the
declarative format, and the `ins(...)`/`outs(...)` operand groups of the
hand-written parsers and printers.

Only what xDSL's declarative format cannot say on its own lives here.
"""

from __future__ import annotations

import math
import struct
from collections.abc import Sequence

from xdsl.dialects.builtin import (
    I64,
    ArrayAttr,
    Float64Type,
    FloatAttr,
    IntegerAttr,
    f64,
    i64,
)
from xdsl.ir import SSAValue
from xdsl.irdl import IRDLOperation
from xdsl.irdl.declarative_assembly_format import (
    AttributeVariable,
    CustomDirective,
    ParsingState,
    PrintingState,
    irdl_custom_directive,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.hints import isa


def parse_optional_operand_group(
    parser: Parser, keyword: str
) -> Sequence[SSAValue] | None:
    """`keyword(%a, %b : T1, T2)`, if the keyword is next."""
    pos = parser.pos
    if parser.parse_optional_keyword(keyword) is None:
        return None
    parser.parse_punctuation("(")
    if parser.parse_optional_punctuation(")") is not None:
        return ()
    unresolved = parser.parse_comma_separated_list(
        Parser.Delimiter.NONE, parser.parse_unresolved_operand
    )
    parser.parse_punctuation(":")
    types = parser.parse_comma_separated_list(Parser.Delimiter.NONE, parser.parse_type)
    parser.parse_punctuation(")")
    return parser.resolve_operands(unresolved, types, pos)


def print_operand_group(
    printer: Printer, keyword: str, values: Sequence[SSAValue]
) -> None:
    """` keyword(%a, %b : T1, T2)`, with the leading space."""
    printer.print_string(f" {keyword}(")
    printer.print_list(values, printer.print_ssa_value)
    printer.print_string(" : ")
    printer.print_list((v.type for v in values), printer.print_attribute)
    printer.print_string(")")


@irdl_custom_directive
class I64ArrayList(CustomDirective):
    """An `I64ArrayAttr` spelled as MLIR prints it, `[2, 3]`, without `: i64`.

    xDSL prints each element of an `ArrayAttr` with its type (`[2 : i64]`);
    MLIR elides the default integer type, and ByteIR's IR is written that way.
    """

    values: AttributeVariable

    def parse(self, parser: Parser, state: ParsingState) -> None:
        def parse_element() -> int:
            value = parser.parse_integer(allow_boolean=False)
            # MLIR also accepts the element type spelled out, `[2 : i64]`.
            if parser.parse_optional_punctuation(":") is not None:
                pos = parser.pos
                if parser.parse_type() != i64:
                    parser.raise_error("expected i64 elements", pos, parser.pos)
            return value

        ints = parser.parse_comma_separated_list(Parser.Delimiter.SQUARE, parse_element)
        self.values.set(state, ArrayAttr(IntegerAttr(v, 64) for v in ints))

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        state.print_whitespace(printer)
        attr = self.values.get(op)
        if not isa(attr, ArrayAttr[IntegerAttr[I64]]):
            # Only reachable for unverified IR (`--disable-verify`): print it
            # as it is rather than fail.
            assert attr is not None
            printer.print_attribute(attr)
            return
        printer.print_string(
            "[" + ", ".join(str(element.value.data) for element in attr.data) + "]"
        )


# --------------------------------------------------------------------------
# f64 attributes spelled as MLIR spells them
# --------------------------------------------------------------------------

_F64 = struct.Struct("<d")


def _f64_bits(value: float) -> int:
    return int.from_bytes(_F64.pack(value), "little")


def _round_half_up_digits(
    digits: str, exponent: int, precision: int
) -> tuple[str, int]:
    """Keep `precision` significant digits of `digits`·10^`exponent`, rounding
    half up on the first dropped digit alone and dropping trailing zeros, as
    LLVM's APFloat does."""
    if len(digits) <= precision:
        return digits, exponent
    dropped = len(digits) - precision
    kept = digits[:precision]
    if digits[precision] >= "5":
        rounded = str(int(kept) + 1)
        if len(rounded) > precision:  # carried through: 99…9 -> 100…0
            dropped += 1
            rounded = rounded[:precision]
        kept = rounded
    stripped = kept.rstrip("0")
    return stripped, exponent + dropped + (len(kept) - len(stripped))


def _apfloat_default_string(value: float) -> str:
    """`APFloat::toString()` with its defaults for a finite non-zero double:
    17 significant digits, scientific notation unless it pads with at most
    three zeros, `E` without exponent padding, trailing zeros truncated."""
    precision, max_padding = 17, 3
    numerator, denominator = abs(value).as_integer_ratio()
    significand, exponent = numerator, 0
    while significand % 2 == 0:
        significand //= 2
        exponent += 1
    exponent -= denominator.bit_length() - 1
    # value = significand · 2^exponent; make the power a power of ten.
    if exponent > 0:
        significand <<= exponent
        exponent = 0
    elif exponent < 0:
        significand *= 5**-exponent
    # APFloat first truncates (not rounds) digits beyond what the precision
    # needs, with 196/59 as its estimate of log2(10).
    bits_required = (precision * 196 + 58) // 59
    if significand.bit_length() > bits_required:
        removable = (significand.bit_length() - bits_required) * 59 // 196
        significand //= 10**removable
        exponent += removable
    digits = str(significand)
    stripped = digits.rstrip("0")
    exponent += len(digits) - len(stripped)
    digits, exponent = _round_half_up_digits(stripped, exponent, precision)

    n = len(digits)
    if exponent >= 0:
        scientific = exponent > max_padding or n + exponent > precision
    else:
        most_significant = exponent + n - 1
        scientific = most_significant < 0 and -most_significant > max_padding
    sign = "-" if value < 0 else ""
    if scientific:
        power = exponent + n - 1
        mantissa = digits[0] + "." + (digits[1:] or "0")
        return f"{sign}{mantissa}E{'+' if power >= 0 else '-'}{abs(power)}"
    if exponent >= 0:
        return sign + digits + "0" * exponent
    whole = exponent + n
    if whole > 0:
        return f"{sign}{digits[:whole]}.{digits[whole:]}"
    return f"{sign}0.{'0' * -whole}{digits}"


def format_f64_like_mlir(value: float) -> str:
    """How MLIR prints an f64 attribute's value (`printFloatValue`).

    First six significant digits in scientific form, if that reads back as
    the same double; then APFloat's default form, if it has a decimal point;
    otherwise the bits in hexadecimal. Infinities and NaNs are hexadecimal.
    """
    if math.isfinite(value):
        short = f"{value:.5e}"
        short = short.replace("e", "0e")  # MLIR pads to seven digits
        if float(short) == value and (value != 0 or math.copysign(1, value) > 0):
            return short
        if value == 0:
            return "-0.000000e+00"
        default = _apfloat_default_string(value)
        if "." in default:
            return default
    return f"0x{_f64_bits(value):016X}"


@irdl_custom_directive
class MlirF64(CustomDirective):
    """An `F64Attr` whose type the format implies: `1.000000e-05`, or
    `9.9999999747524271E-7` where six digits do not suffice, as MLIR prints
    it (xDSL would print `9.9999999747524271e-07`). Hexadecimal bit patterns
    (`0x7FF0000000000000`) are accepted, as in MLIR."""

    value: AttributeVariable

    def parse(self, parser: Parser, state: ParsingState) -> None:
        pos = parser.pos
        # A hexadecimal literal is a bit pattern, not a number; xDSL's own
        # attribute parser tells them apart by the token's text the same way.
        is_hex = parser._current_token.text[:2] in ("0x", "0X")  # pyright: ignore[reportPrivateUsage]
        number = parser.parse_number()
        if is_hex:
            assert isinstance(number, int)
            if not 0 <= number < 2**64:
                parser.raise_error("expected a 64-bit f64 bit pattern", pos, parser.pos)
            value = _F64.unpack(number.to_bytes(8, "little"))[0]
        else:
            value = float(number)
        self.value.set(state, FloatAttr(value, f64))

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        state.print_whitespace(printer)
        attr = self.value.get(op)
        if not isa(attr, FloatAttr[Float64Type]):
            assert attr is not None
            printer.print_attribute(attr)
            return
        printer.print_string(format_f64_like_mlir(attr.value.data))
