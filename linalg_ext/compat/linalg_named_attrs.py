"""Named Linalg ops with discardable attributes and user-given indexing maps,
as MLIR 22 reads and prints them.

xDSL 0.74 gaps closed here:

- `NamedOperation.parse` reads a leading attribute dictionary only for ops
  that set `PRINT_ATTRS_IN_FRONT` (fill, copy, matmul, convolutions); for the
  elementwise ops (`linalg.add`, `sub`, `mul`, `max`, `min`, `exp`, `log`,
  `sqrt`, `select`) `linalg.add {my.tag = 7 : i64} ins(...)` fails with an
  IndexError, and they print their attributes after the outs as
  `attrs = {...}`, which mlir-opt-22 rejects. A body that cannot be built
  for the operands (wrong operand count) is an IndexError or AssertionError
  rather than a parse error.
- `linalg.matmul indexing_maps = [...] ins(...)` cannot be read (IndexError)
  nor printed (the maps are dropped), and its verifier does not check the
  maps upstream requires.
- The hidden bodies of `linalg.matmul` and the convolutions are
  `addf(mul, out)` (and matmul's has no conversions), where MLIR builds
  `addf(out, mul(cast(a), cast(b)))`: the generic forms differ.
- `linalg.transpose` and `linalg.broadcast` drop their discardable
  attributes (printed by MLIR after `permutation = [...]`/`dimensions =
  [...]`), and print `ins(%x:T)` where MLIR prints `ins(%x : T)`.

`install_named_syntax` swaps the functions below into xDSL's classes, so ops
built by passes print the same way as parsed ones. The syntax of a named op,
as MLIR's `parseNamedStructuredOp` reads it:

    (`indexing_maps` `=` `[` maps `]`)? attr-dict? ins(...)? outs(...)?
    attr-dict? (`->` types)?

(xDSL's `attrs = {...}` after the outs is still read.) It is printed with the
maps only when they are not the op's default, then the attributes sorted by
name, in front of `ins`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeVar

from xdsl.builder import Builder
from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    AffineMapAttr,
    AnyFloat,
    ArrayAttr,
    DenseArrayBase,
    i64,
)
from xdsl.dialects.linalg.abstract_ops import (
    ConvOperation,
    LinalgStructuredOperation,
    NamedOperation,
)
from xdsl.dialects.linalg.ops import BroadcastOp, MatmulOp, TransposeOp, YieldOp
from xdsl.ir import Attribute, BlockArgument, Region, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineMap
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from linalg_ext.assembly import parse_optional_operand_group, print_operand_group
from linalg_ext.compat.checks import element_type
from linalg_ext.compat.syntax import (
    parse_optional_result_types,
    print_result_types,
    sorted_attributes,
    split_properties,
)
from linalg_ext.type_functions import cast_signed
from linalg_ext.verification import op_error

HIDDEN_ENTRIES = frozenset({"operandSegmentSizes", "linalg.memoized_indexing_maps"})
"""Properties MLIR never prints in a named op's attribute dictionary."""

BUILD_ERRORS = (VerifyException, IndexError, AssertionError, ValueError, TypeError)
"""What xDSL's body builders raise for operands they cannot build a body
for; turned into a parse error naming the op."""


def parse_indexing_maps(parser: Parser, op_name: str) -> ArrayAttr[AffineMapAttr]:
    """`= [affine_map<...>, ...]`, after the `indexing_maps` keyword."""
    parser.parse_punctuation("=")
    start = parser.pos
    maps = parser.parse_attribute()
    if not (
        isinstance(maps, ArrayAttr)
        and all(isinstance(m, AffineMapAttr) for m in maps.data)
    ):
        parser.raise_error(
            f"'{op_name}' expects indexing_maps to be a list of affine maps",
            start,
            parser.pos,
        )
    return maps


def parse_trailing_attributes(parser: Parser) -> dict[str, Attribute]:
    """The dictionary MLIR also accepts after the outs, or xDSL's
    `attrs = {...}` there."""
    if parser.parse_optional_keyword("attrs") is not None:
        parser.parse_punctuation("=")
        return parser.expect(
            parser.parse_optional_attr_dict, "expected an attribute dictionary"
        )
    return parser.parse_optional_attr_dict()


def default_indexing_maps(cls: type[NamedOperation]) -> Attribute | None:
    """The default of the op's `indexing_maps` property, if it has one."""
    definition = cls.get_irdl_definition().properties.get("indexing_maps")
    return None if definition is None else definition.default_value


def parse_named(cls: type[NamedOperation], parser: Parser) -> NamedOperation:
    start = parser.pos
    property_names = cls.get_irdl_definition().properties
    properties: dict[str, Attribute] = {}
    if "indexing_maps" in property_names:
        if parser.parse_optional_keyword("indexing_maps") is not None:
            properties["indexing_maps"] = parse_indexing_maps(parser, cls.name)
    entries = parser.parse_optional_attr_dict()
    inputs = parse_optional_operand_group(parser, "ins") or ()
    outputs = parse_optional_operand_group(parser, "outs") or ()
    entries |= parse_trailing_attributes(parser)
    result_types = parse_optional_result_types(parser)
    given, attributes = split_properties(entries, property_names)
    properties = given | properties
    # MLIR's generic form always carries the maps; so does ours.
    default = default_indexing_maps(cls)
    if default is not None:
        properties.setdefault("indexing_maps", default)
    try:
        return cls.build(
            operands=(inputs, outputs),
            result_types=(result_types,),
            properties=properties,
            attributes=attributes,
            regions=(cls.get_hidden_region(inputs, outputs),),
        )
    except BUILD_ERRORS as error:
        reason = str(error) or (
            f"cannot build its body for {len(inputs)} input(s) and "
            f"{len(outputs)} output(s)"
        )
        parser.raise_error(f"'{cls.name}' {reason}", start, parser.pos)


def print_named(self: NamedOperation, printer: Printer) -> None:
    entries = {**self.attributes, **self.properties}
    for name in HIDDEN_ENTRIES:
        entries.pop(name, None)
    maps = entries.pop("indexing_maps", None)
    if maps is not None and maps != default_indexing_maps(type(self)):
        printer.print_string(" indexing_maps = ")
        printer.print_attribute(maps)
    printer.print_op_attributes(sorted_attributes(entries))
    if self.inputs:
        print_operand_group(printer, "ins", self.inputs)
    if self.outputs:
        print_operand_group(printer, "outs", self.outputs)
    print_result_types(printer, self.res.types)


# --------------------------------------------------------------------------
# linalg.matmul
# --------------------------------------------------------------------------


def matmul_body(inputs: Sequence[SSAValue], outputs: Sequence[SSAValue]) -> Region:
    """`out + cast(lhs) * cast(rhs)`, as MLIR 22 builds a matmul's body (the
    casts convert to the output's element type, integers read as signed)."""
    if len(inputs) != 2 or len(outputs) != 1:
        raise VerifyException(
            f"expects ins(lhs, rhs) and outs(init), got {len(inputs)} input(s) "
            f"and {len(outputs)} output(s)"
        )
    arg_types = [element_type(v.type) for v in (*inputs, *outputs)]
    accumulator = arg_types[-1]
    add, mul = (
        (arith.AddfOp, arith.MulfOp)
        if isinstance(accumulator, AnyFloat)
        else (arith.AddiOp, arith.MuliOp)
    )

    @Builder.implicit_region(arg_types)
    def body(args: tuple[BlockArgument, ...]) -> None:
        lhs = cast_signed(args[0], accumulator)
        rhs = cast_signed(args[1], accumulator)
        YieldOp(add(args[2], mul(lhs, rhs)))

    return body


def _contraction_hidden_region(
    cls: type[NamedOperation],
    inputs: Sequence[SSAValue],
    outputs: Sequence[SSAValue],
) -> Region:
    return matmul_body(inputs, outputs)


def _dims(indexing_map: AffineMap) -> list[int] | None:
    """The loops a map's results select, or None if one is not a loop."""
    dims = [e for e in indexing_map.results if isinstance(e, AffineDimExpr)]
    if len(dims) != len(indexing_map.results):
        return None
    return [e.position for e in dims]


def verify_matmul_maps(op: NamedOperation, maps: Sequence[AffineMap]) -> None:
    """MLIR's rules for a matmul's maps over the loops (m, n, k): each is a
    projected permutation; the lhs reads (m, k) in some order, or only k (a
    broadcast); the rhs reads (k, n) in some order, or only k."""
    if len(maps) != 3:
        op_error(op, f"expected 3 indexing maps, got {len(maps)}")
    for index, map_ in enumerate(maps):
        dims = _dims(map_)
        if map_.num_dims != 3 or map_.num_symbols != 0:
            op_error(
                op,
                f"expected indexing map #{index} over 3 loops (m, n, k) and no "
                f"symbols, got {map_}",
            )
        if dims is None or len(set(dims)) != len(dims):
            op_error(op, "expected indexing maps to be projected permutations")
    for index, role, loops in ((0, "lhs", {0, 2}), (1, "rhs", {1, 2})):
        dims = _dims(maps[index]) or []
        if len(dims) == 1:
            if dims != [2]:
                op_error(
                    op,
                    f"expected the {role}'s broadcast indexing map to read the "
                    f"reduction loop only, (d2), got {maps[index]}",
                )
        elif set(dims) != loops:
            name = "(d0, d2)" if role == "lhs" else "(d2, d1)"
            op_error(
                op,
                f"expected the {role}'s indexing map to read loops {name} in "
                f"some order, got {maps[index]}",
            )


def _verify_matmul(self: MatmulOp) -> None:
    verify_matmul_maps(self, [m.data for m in self.indexing_maps.data])
    try:
        LinalgStructuredOperation.verify_(self)
    except VerifyException as error:
        op_error(self, str(error))


# --------------------------------------------------------------------------
# linalg.transpose and linalg.broadcast
# --------------------------------------------------------------------------


def _parse_single_operand(parser: Parser, keyword: str, op_name: str) -> SSAValue:
    start = parser.pos
    values = parse_optional_operand_group(parser, keyword)
    if values is None or len(values) != 1:
        parser.raise_error(
            f"'{op_name}' expects {keyword}(...) with one operand", start, parser.pos
        )
    return values[0]


def _parse_integer_list(parser: Parser, keyword: str) -> DenseArrayBase:
    """`keyword = [1, 0]`, as an array<i64>."""
    parser.parse_keyword(keyword)
    parser.parse_punctuation("=")
    values = parser.parse_comma_separated_list(
        Parser.Delimiter.SQUARE, parser.parse_integer
    )
    return DenseArrayBase.from_list(i64, values)


def print_integer_list(printer: Printer, keyword: str, values: Sequence[int]) -> None:
    printer.print_string(f" {keyword} = [")
    printer.print_list(values, printer.print_int)
    printer.print_string("]")


def print_trailing_attributes(printer: Printer, attributes: dict[str, Any]) -> None:
    """MLIR prints a space after the dimension list, then the dictionary with
    its own leading space: two spaces in all."""
    if attributes:
        printer.print_string(" ")
        printer.print_op_attributes(sorted_attributes(attributes))


_PermutingOp = TypeVar("_PermutingOp", TransposeOp, BroadcastOp)


def _parse_permuting(
    cls: type[_PermutingOp], parser: Parser, keyword: str
) -> _PermutingOp:
    """`attr-dict? ins(%x : T) outs(%y : T) keyword = [...] attr-dict?`."""
    attributes = parser.parse_optional_attr_dict()
    source = _parse_single_operand(parser, "ins", cls.name)
    init = _parse_single_operand(parser, "outs", cls.name)
    values = _parse_integer_list(parser, keyword)
    attributes |= parser.parse_optional_attr_dict()
    op = cls(source, init, values)
    op.attributes.update(attributes)
    return op


def _parse_transpose(cls: type[TransposeOp], parser: Parser) -> TransposeOp:
    return _parse_permuting(cls, parser, "permutation")


def _parse_broadcast(cls: type[BroadcastOp], parser: Parser) -> BroadcastOp:
    return _parse_permuting(cls, parser, "dimensions")


def _print_transpose(self: TransposeOp, printer: Printer) -> None:
    print_operand_group(printer, "ins", self.inputs)
    print_operand_group(printer, "outs", self.outputs)
    print_integer_list(printer, "permutation", self.permutation.get_values())
    print_trailing_attributes(printer, dict(self.attributes))


def _print_broadcast(self: BroadcastOp, printer: Printer) -> None:
    print_operand_group(printer, "ins", (self.input,))
    print_operand_group(printer, "outs", (self.init,))
    print_integer_list(printer, "dimensions", self.dimensions.get_values())
    print_trailing_attributes(printer, dict(self.attributes))


def install_named_syntax() -> None:
    """Swap the syntax above into xDSL's classes (see the module doc)."""
    # Replacing xDSL's methods: pyright holds a class to its declared methods.
    NamedOperation.parse = classmethod(parse_named)  # pyright: ignore[reportAttributeAccessIssue]
    NamedOperation.print = print_named
    for cls in (MatmulOp, ConvOperation):
        cls.get_hidden_region = classmethod(_contraction_hidden_region)  # pyright: ignore[reportAttributeAccessIssue]
    MatmulOp.verify_ = _verify_matmul
    TransposeOp.parse = classmethod(_parse_transpose)  # pyright: ignore[reportAttributeAccessIssue]
    TransposeOp.print = _print_transpose
    BroadcastOp.parse = classmethod(_parse_broadcast)  # pyright: ignore[reportAttributeAccessIssue]
    BroadcastOp.print = _print_broadcast
