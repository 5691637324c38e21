"""ByteIR's tile-and-fuse transform ops, with ByteIR's syntax and verifier:
`transform.structured.fuse_ext` and `transform.structured.fuse_operands`
(the definitions; their interpreter functions are in `fuse_ext_functions`).

Both are written without types, their options in the attribute
dictionary, as ByteIR's tests write them:

    %t, %loops:2 = transform.structured.fuse_ext %root, %stop
        {tile_sizes = [4, 0, 8], tile_interchange = [2, 1, 0]}
    %t, %loops:2 = transform.structured.fuse_operands %ret
        {tile_nums = [2, 1, 4], tile_interchange = [0, 1, 2]}

The operands are handles; written without types, the results have the
target's type (ByteIR's handles are `!pdl.operation`, and so are these
results when the target is one). One loop result per nonzero tile size
(`fuse_ext`) or per tile count other than 1 (`fuse_operands`).

The options are properties, with the names and kinds of ByteIR's
attributes: `tile_sizes`, `tile_nums`, `tile_interchange`,
`use_distributed` (arrays of `i64` integers, ByteIR's `I64ArrayAttr`),
`keep_intermediates`, `expect_whole_graph_fusion` (`i1`, ByteIR's
`BoolAttr`). They print as one sorted dictionary, as MLIR prints an op's
attributes; `fuse_ext` leaves `keep_intermediates` out when it is false,
and both leave out what was not given.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import ClassVar, Self

from xdsl.dialects.builtin import (
    ArrayAttr,
    BoolAttr,
    IntegerAttr,
    IntegerType,
    UnitAttr,
    i1,
    i64,
)
from xdsl.dialects.transform import TransformHandleType
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    var_result_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer

from linalg_ext.transform_ops.definitions import handle_type_or_pdl
from linalg_ext.verification import op_error

_HANDLE = TransformHandleType
_I64_ARRAY = ArrayAttr[IntegerAttr[IntegerType]]


def i64_array(values: Iterable[int]) -> ArrayAttr[IntegerAttr[IntegerType]]:
    """`[v, ...]` as ByteIR's `I64ArrayAttr` holds it."""
    return ArrayAttr([IntegerAttr(v, i64) for v in values])


def array_values(attr: ArrayAttr[IntegerAttr[IntegerType]] | None) -> tuple[int, ...]:
    """The integers of an optional integer array (none if absent)."""
    if attr is None:
        return ()
    return tuple(entry.value.data for entry in attr.data)


def _flag(value: bool) -> BoolAttr:
    return IntegerAttr(int(value), i1)


def _flag_value(attr: IntegerAttr[IntegerType] | None) -> bool:
    return attr is not None and attr.value.data != 0


class _ByteirTileLikeOp(IRDLOperation):
    """What `fuse_ext` and `fuse_operands` share: ByteIR's parser (operands,
    then the options in an attribute dictionary, one result per loop plus
    the tiled op), printer and interchange rule."""

    SIZES: ClassVar[str]
    """The option that says how many loops there are."""
    OPTIONS: ClassVar[tuple[str, ...]]
    """The properties read from (and printed in) the attribute dictionary."""
    HAS_STOP: ClassVar[bool] = False

    @classmethod
    def loop_count(cls, sizes: Sequence[int]) -> int:
        """How many loops the option values `sizes` make."""
        raise NotImplementedError

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        start = parser.pos
        operands = [parser.parse_unresolved_operand()]
        if cls.HAS_STOP and parser.parse_optional_punctuation(",") is not None:
            operands.append(parser.parse_unresolved_operand())
        entries = dict(parser.parse_optional_attr_dict())
        sizes = entries.get(cls.SIZES)
        if sizes is None:
            parser.raise_error(f"expected '{cls.SIZES}' attribute", start, start)
        if not isinstance(sizes, ArrayAttr):
            parser.raise_error(
                f"'{cls.SIZES}' attribute must be an array", start, start
            )
        values = [e.value.data for e in sizes.data if isinstance(e, IntegerAttr)]
        resolved = [
            parser.resolve_operand(o, handle_type_or_pdl(parser, o)) for o in operands
        ]
        properties = {
            name: entries.pop(name) for name in cls.OPTIONS if name in entries
        }
        return cls.create(
            operands=resolved,
            result_types=[resolved[0].type] * (1 + cls.loop_count(values)),
            properties=properties,
            attributes=entries,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list(self.operands, printer.print_ssa_value)
        entries = dict(self.attributes)
        for name in self.OPTIONS:
            if (value := self.properties.get(name)) is not None and self.shows(name):
                entries[name] = value
        if not entries:
            return
        printer.print_string(" {")
        printer.print_list(
            sorted(entries.items()), lambda entry: _print_entry(printer, *entry)
        )
        printer.print_string("}")

    def shows(self, name: str) -> bool:
        """Whether the printer shows the option `name` when it is set."""
        return True

    def verify_interchange(self, interchange: Sequence[int]) -> None:
        """ByteIR's rule: the interchange is a permutation of 0..n-1."""
        if sorted(interchange) != list(range(len(interchange))):
            found = "[" + ", ".join(str(i) for i in interchange) + "]"
            op_error(self, f"expects interchange to be a permutation, found {found}")

    def verify_loop_results(self, sizes: Sequence[int], loops: int) -> None:
        wanted = self.loop_count(sizes)
        if loops != wanted:
            op_error(self, f"expects {wanted} loop results, got {loops}")


def _print_entry(printer: Printer, name: str, value: Attribute) -> None:
    """`name = value` as MLIR prints it: `i64` integers of an array and `i1`
    flags without their type (`[4, 0]`, `true`), a unit attribute by its
    name alone."""
    if isinstance(value, UnitAttr):
        printer.print_identifier_or_string_literal(name)
        return
    printer.print_identifier_or_string_literal(name)
    printer.print_string(" = ")
    if isinstance(value, ArrayAttr) and all(
        isinstance(e, IntegerAttr) and e.type == i64 for e in value.data
    ):
        values = array_values(value)
        printer.print_string("[" + ", ".join(str(v) for v in values) + "]")
    elif isinstance(value, IntegerAttr) and value.type == i1:
        printer.print_string("true" if value.value.data else "false")
    else:
        printer.print_attribute(value)


@irdl_op_definition
class FuseExtOp(_ByteirTileLikeOp):
    """`transform.structured.fuse_ext %target[, %stop] {tile_sizes = [..],
    tile_interchange = [..], keep_intermediates = true}`: tile each target
    op by `tile_sizes` (loops in `tile_interchange` order, one per nonzero
    size) and fuse the producers of its cone into the loops, up to the ops
    of `stop` (ByteIR's op). Results: the tiled target and the loops,
    outermost first."""

    name = "transform.structured.fuse_ext"

    SIZES: ClassVar[str] = "tile_sizes"
    OPTIONS: ClassVar[tuple[str, ...]] = (
        "tile_sizes",
        "tile_interchange",
        "keep_intermediates",
    )
    HAS_STOP: ClassVar[bool] = True

    target = operand_def(_HANDLE)
    stop = opt_operand_def(_HANDLE)
    tile_sizes = prop_def(_I64_ARRAY)
    tile_interchange = opt_prop_def(_I64_ARRAY)
    keep_intermediates = opt_prop_def(IntegerAttr[IntegerType])

    transformed = result_def(_HANDLE)
    loops = var_result_def(_HANDLE)

    def __init__(
        self,
        target: SSAValue,
        stop: SSAValue | None = None,
        tile_sizes: Sequence[int] = (),
        tile_interchange: Sequence[int] = (),
        keep_intermediates: bool = False,
    ):
        super().__init__(
            operands=[target, [] if stop is None else [stop]],
            properties={
                "tile_sizes": i64_array(tile_sizes),
                "tile_interchange": i64_array(tile_interchange),
                "keep_intermediates": _flag(True) if keep_intermediates else None,
            },
            result_types=[target.type, [target.type] * self.loop_count(tile_sizes)],
        )

    @classmethod
    def loop_count(cls, sizes: Sequence[int]) -> int:
        return len(sizes) - list(sizes).count(0)

    @property
    def sizes(self) -> tuple[int, ...]:
        """`tile_sizes` as integers."""
        return array_values(self.tile_sizes)

    @property
    def interchange(self) -> tuple[int, ...]:
        """`tile_interchange` as integers (none when absent)."""
        return array_values(self.tile_interchange)

    @property
    def keeps_intermediates(self) -> bool:
        """Whether `keep_intermediates` is set and true."""
        return _flag_value(self.keep_intermediates)

    def shows(self, name: str) -> bool:
        return name != "keep_intermediates" or self.keeps_intermediates

    def verify_(self) -> None:
        self.verify_interchange(self.interchange)
        self.verify_loop_results(self.sizes, len(self.loops))


@irdl_op_definition
class FuseOperandsOp(_ByteirTileLikeOp):
    """`transform.structured.fuse_operands %target {tile_nums = [..],
    tile_interchange = [..], use_distributed = [..],
    expect_whole_graph_fusion = true}`: tile the ops producing the target's
    operands (usually a `func.return`'s) together, dimension d split into
    `tile_nums[d]` tiles, and fuse their producers into the loops (ByteIR's
    op). Results: the tiled ops and the loops (one per count other than 1),
    outermost first."""

    name = "transform.structured.fuse_operands"

    SIZES: ClassVar[str] = "tile_nums"
    OPTIONS: ClassVar[tuple[str, ...]] = (
        "tile_nums",
        "tile_interchange",
        "use_distributed",
        "expect_whole_graph_fusion",
    )

    target = operand_def(_HANDLE)
    tile_nums = prop_def(_I64_ARRAY)
    tile_interchange = opt_prop_def(_I64_ARRAY)
    use_distributed = opt_prop_def(_I64_ARRAY)
    expect_whole_graph_fusion = opt_prop_def(IntegerAttr[IntegerType])

    transformed = result_def(_HANDLE)
    loops = var_result_def(_HANDLE)

    def __init__(
        self,
        target: SSAValue,
        tile_nums: Sequence[int] = (),
        tile_interchange: Sequence[int] = (),
        expect_whole_graph_fusion: bool = False,
    ):
        super().__init__(
            operands=[target],
            properties={
                "tile_nums": i64_array(tile_nums),
                "tile_interchange": i64_array(tile_interchange),
                "expect_whole_graph_fusion": _flag(expect_whole_graph_fusion),
            },
            result_types=[target.type, [target.type] * self.loop_count(tile_nums)],
        )

    @classmethod
    def loop_count(cls, sizes: Sequence[int]) -> int:
        return len(sizes) - list(sizes).count(1)

    @property
    def nums(self) -> tuple[int, ...]:
        """`tile_nums` as integers."""
        return array_values(self.tile_nums)

    @property
    def interchange(self) -> tuple[int, ...]:
        """`tile_interchange` as integers (none when absent)."""
        return array_values(self.tile_interchange)

    @property
    def expects_whole_graph_fusion(self) -> bool:
        """Whether `expect_whole_graph_fusion` is set and true."""
        return _flag_value(self.expect_whole_graph_fusion)

    def verify_(self) -> None:
        self.verify_interchange(self.interchange)
        self.verify_loop_results(self.nums, len(self.loops))


BYTEIR_TRANSFORM_OPS: tuple[type[IRDLOperation], ...] = (FuseExtOp, FuseOperandsOp)
"""The ops of this module, for `ops.TRANSFORM_OPS`."""
