"""ByteIR's `transform.structured.tile_ext` and
`transform.structured.lower_to_loops`: definitions, with ByteIR's syntax
(their interpreter functions are in `tile_ext_functions`).

    %tiled, %l:2 = transform.structured.tile_ext %t [4, 0, 8] {interchange = [2, 1, 0]}
    %outer, %inner = transform.structured.lower_to_loops %t [0, -1]

Both are printed without types, as ByteIR prints them: their results have
the type of their target handle (`!pdl.operation` in a `transform.sequence`,
`!transform.any_op` in a `named_sequence`), so the target must be defined
before the op (always so in a script).

`tile_ext` tiles every op with a tiling model with `scf.for` loops
(`linalg_ext.tiling.loops.tile_using_for`); ByteIR's validity check
(`isValidTiling`: a softmax or layer_norm tiled along its normalised
dimensions) is the model's `whole_dims`, refused as "unsupported tiling
dim". `lower_to_loops` turns a Linalg structured op on memrefs into the
perfect nest of its iteration domain around the scalar body
(`linalg_ext.lowering.structured_scalar`), as upstream's
`lowerToLoopsUsingSCFForOp` does, and returns the loops its `loop_ids`
name (negative ids count from the innermost).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Self

from xdsl.dialects.builtin import DYNAMIC_INDEX, DenseArrayBase, IntegerType, i64
from xdsl.dialects.utils import (
    parse_dynamic_index_list_without_types,
    print_dynamic_index_list,
)
from xdsl.ir import SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer

from linalg_ext.transform_ops.definitions import ANY_HANDLE, defined_handle_type
from linalg_ext.verification import op_error

_GIVES = "the results' type"
"""What a handle's type gives in these ops, which print no types."""


_NO_INTEGERS = DenseArrayBase.from_list(i64, ())
"""The default of the integer-list properties (ByteIR's
`DefaultValuedOptionalAttr<DenseI64ArrayAttr, "{}">`)."""


def static_values(attr: DenseArrayBase[IntegerType]) -> tuple[int, ...]:
    """The integers of an `array<i64: ...>` property."""
    return tuple(attr.get_values())


def _parse_integers(parser: Parser) -> list[int]:
    return parser.parse_comma_separated_list(
        Parser.Delimiter.SQUARE, parser.parse_integer
    )


def _print_integers(printer: Printer, values: Sequence[int]) -> None:
    printer.print_string("[" + ", ".join(str(v) for v in values) + "]")


@irdl_op_definition
class TileExtOp(IRDLOperation):
    """`transform.structured.tile_ext %target [sizes] {interchange = [..]}`:
    tile each target op (any op with a tiling model) with one `scf.for` per
    nonzero size; results: the tiled ops, then one handle per loop,
    outermost first (ByteIR's op and syntax)."""

    name = "transform.structured.tile_ext"

    target = operand_def(ANY_HANDLE)
    dynamic_sizes = var_operand_def(ANY_HANDLE)
    static_sizes = prop_def(DenseArrayBase.constr(i64), _NO_INTEGERS)
    interchange = prop_def(DenseArrayBase.constr(i64), _NO_INTEGERS)

    tiled_linalg_op = result_def(ANY_HANDLE)
    loops = var_result_def(ANY_HANDLE)

    def __init__(
        self,
        target: SSAValue,
        sizes: Sequence[int | SSAValue],
        interchange: Sequence[int] = (),
    ):
        static = [s if isinstance(s, int) else DYNAMIC_INDEX for s in sizes]
        super().__init__(
            operands=[target, [s for s in sizes if isinstance(s, SSAValue)]],
            properties={
                "static_sizes": DenseArrayBase.from_list(i64, static),
                "interchange": DenseArrayBase.from_list(i64, interchange),
            },
            result_types=[target.type, [target.type] * (len(static) - static.count(0))],
        )

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        unresolved = parser.parse_unresolved_operand()
        handle_type = defined_handle_type(parser, unresolved, _GIVES)
        target = parser.resolve_operand(unresolved, handle_type)
        dynamic, static = parse_dynamic_index_list_without_types(parser, DYNAMIC_INDEX)
        sizes = [
            parser.resolve_operand(size, defined_handle_type(parser, size, _GIVES))
            for size in dynamic
        ]
        interchange: list[int] = []
        if parser.parse_optional_punctuation("{") is not None:
            parser.parse_keyword("interchange")
            parser.parse_punctuation("=")
            interchange = _parse_integers(parser)
            parser.parse_punctuation("}")
        loops = len(static) - list(static).count(0)
        return cls.create(
            operands=[target, *sizes],
            properties={
                "static_sizes": DenseArrayBase.from_list(i64, static),
                "interchange": DenseArrayBase.from_list(i64, interchange),
            },
            result_types=[handle_type] * (1 + loops),
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_ssa_value(self.target)
        printer.print_string(" ")
        print_dynamic_index_list(
            printer, DYNAMIC_INDEX, self.dynamic_sizes, static_values(self.static_sizes)
        )
        interchange = static_values(self.interchange)
        if interchange:
            printer.print_string(" {interchange = ")
            _print_integers(printer, interchange)
            printer.print_string("}")

    def verify_(self) -> None:
        sizes = static_values(self.static_sizes)
        if sizes.count(DYNAMIC_INDEX) != len(self.dynamic_sizes):
            op_error(
                self,
                f"expects {sizes.count(DYNAMIC_INDEX)} dynamic tile sizes, "
                f"got {len(self.dynamic_sizes)}",
            )
        if any(size < 0 and size != DYNAMIC_INDEX for size in sizes):
            op_error(self, f"expects non-negative tile sizes, found {list(sizes)}")
        loops = len(sizes) - sizes.count(0)
        if len(self.loops) != loops:
            op_error(self, f"expects {loops} loop results, got {len(self.loops)}")


@irdl_op_definition
class LowerToLoopsOp(IRDLOperation):
    """`transform.structured.lower_to_loops %target [loop_ids]`: replace each
    target op by the `scf.for` nest of its iteration domain around its
    scalar body; one result per loop id (of the domain's loops, outermost
    0, negative ids from the innermost -1), ByteIR's op and syntax."""

    name = "transform.structured.lower_to_loops"

    target = operand_def(ANY_HANDLE)
    loop_ids = prop_def(DenseArrayBase.constr(i64), _NO_INTEGERS)

    loops = var_result_def(ANY_HANDLE)

    def __init__(self, target: SSAValue, loop_ids: Sequence[int]):
        super().__init__(
            operands=[target],
            properties={"loop_ids": DenseArrayBase.from_list(i64, loop_ids)},
            result_types=[[target.type] * len(loop_ids)],
        )

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        unresolved = parser.parse_unresolved_operand()
        handle_type = defined_handle_type(parser, unresolved, _GIVES)
        target = parser.resolve_operand(unresolved, handle_type)
        loop_ids = _parse_integers(parser)
        return cls.create(
            operands=[target],
            properties={"loop_ids": DenseArrayBase.from_list(i64, loop_ids)},
            result_types=[handle_type] * len(loop_ids),
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_ssa_value(self.target)
        printer.print_string(" ")
        _print_integers(printer, static_values(self.loop_ids))

    def verify_(self) -> None:
        ids = static_values(self.loop_ids)
        if len(self.loops) != len(ids):
            op_error(self, f"expects {len(ids)} loop results, got {len(self.loops)}")


__all__ = ["LowerToLoopsOp", "TileExtOp", "static_values"]
