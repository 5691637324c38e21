"""Upstream transform ops xDSL 0.74 lacks, with MLIR 22's syntax.

`transform.structured.fuse` and `transform.structured.fuse_into_containing_op`
are new; `transform.split_handle` and `transform.merge_handles` exist in
xDSL without a custom syntax, so they are redefined (subclasses of xDSL's,
which `isinstance` checks keep finding) with upstream's. `install` (in
`linalg_ext.transform_ops.install`) puts them into xDSL's `transform`
dialect only where our package is loaded.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar, Self

from xdsl.dialects import transform
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    ArrayAttr,
    BoolAttr,
    DenseArrayBase,
    IntegerAttr,
    IntegerType,
    UnitAttr,
    i1,
    i32,
    i64,
)
from xdsl.dialects.utils import (
    parse_dynamic_index_list_without_types,
    print_dynamic_index_list,
)
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    ParsePropInAttrDict,
    RangeOf,
    VarConstraint,
    base,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer

from linalg_ext.transform_ops.annotations import AnnotateExtOp, TileLoopHintOp
from linalg_ext.transform_ops.byteir_ops import BYTEIR_TRANSFORM_OPS
from linalg_ext.transform_ops.cleanup import CleanupOp
from linalg_ext.transform_ops.distribution import DISTRIBUTION_TRANSFORM_OPS
from linalg_ext.transform_ops.outlining import TRANSFORM_OUTLINING_OPS
from linalg_ext.transform_ops.reshaping_ops import RESHAPING_TRANSFORM_OPS
from linalg_ext.transform_ops.tile_ext import LowerToLoopsOp, TileExtOp
from linalg_ext.transform_ops.unit_dims_ops import UNIT_DIMS_TRANSFORM_OPS
from linalg_ext.verification import op_error

_HANDLE = transform.TransformHandleType


def static_values(attr: DenseArrayBase[IntegerType] | None) -> tuple[int, ...]:
    """The integers of an optional `array<i64: ...>` property (none if absent)."""
    if attr is None:
        return ()
    return tuple(attr.get_values())


def _integer_list(attr: Attribute) -> list[int] | None:
    """The integers of `[1, 2]` or `array<i64: 1, 2>`, or None."""
    if isinstance(attr, DenseArrayBase):
        return [int(v) for v in attr.get_values()]
    if isinstance(attr, ArrayAttr):
        values = [e.value.data for e in attr.data if isinstance(e, IntegerAttr)]
        return values if len(values) == len(attr.data) else None
    return None


@irdl_op_definition
class FuseOp(IRDLOperation):
    """`transform.structured.fuse`: tile the target ops and fuse their
    producers into the loops, greedily (upstream's op, MLIR 22's syntax).

    `tile_sizes` and `interchange` are lists of integers and handles (an
    `!transform.param` of integers, or a handle to ops with one `index`
    result); one loop per nonzero tile size. `apply_cleanup` cleans slices up
    between fusion steps. Our implementation never fuses the producer of a
    destination into a loop that tiles a reduction dimension (upstream does,
    and re-initialises the accumulator on every step).

    The older form ByteIR's tests use, integer lists in the attribute
    dictionary (`{tile_sizes = [32, 32], tile_interchange = [0, 1]}`), is
    read with the same meaning and printed in MLIR 22's form."""

    name = "transform.structured.fuse"

    target = operand_def(_HANDLE)
    tile_sizes = var_operand_def(_HANDLE)
    tile_interchange = var_operand_def(_HANDLE)
    static_tile_sizes = opt_prop_def(DenseArrayBase.constr(i64))
    static_tile_interchange = opt_prop_def(DenseArrayBase.constr(i64))
    apply_cleanup = opt_prop_def(UnitAttr)
    use_forall = opt_prop_def(UnitAttr)

    transformed = result_def(_HANDLE)
    loops = var_result_def(_HANDLE)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    # `functional-type(operands, results)` with two variadic operand groups
    # is beyond xDSL's declarative format: hence `parse` and `print`.

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        target = parser.parse_unresolved_operand()
        lists: dict[str, tuple[Sequence[UnresolvedOperand], Sequence[int]]] = {}
        for keyword in ("tile_sizes", "interchange"):
            if parser.parse_optional_keyword(keyword) is not None:
                lists[keyword] = parse_dynamic_index_list_without_types(
                    parser, DYNAMIC_INDEX
                )
        entries = parser.parse_optional_attr_dict()
        # ByteIR's (and MLIR <= 17's) form gives the sizes in the attribute
        # dictionary: `{tile_sizes = [4, 8], tile_interchange = [1, 0]}`.
        for keyword, attr_name in (
            ("tile_sizes", "tile_sizes"),
            ("interchange", "tile_interchange"),
        ):
            if attr_name not in entries:
                continue
            values = _integer_list(entries.pop(attr_name))
            if values is None:
                parser.raise_error(f"'{attr_name}' must be a list of integers")
            if keyword in lists:
                parser.raise_error(
                    f"'{attr_name}' given twice: as '{keyword} [...]' and in "
                    "the attribute dictionary"
                )
            lists[keyword] = ((), values)
        sizes, static_sizes = lists.get("tile_sizes", ((), ()))
        interchange, static_interchange = lists.get("interchange", ((), ()))
        parser.parse_punctuation(":")
        pos = parser.pos
        function_type = parser.parse_function_type()
        operands = parser.resolve_operands(
            [target, *sizes, *interchange], function_type.inputs.data, pos
        )
        properties: dict[str, Attribute] = {
            "static_tile_sizes": DenseArrayBase.from_list(i64, static_sizes),
            "static_tile_interchange": DenseArrayBase.from_list(
                i64, static_interchange
            ),
        }
        # Upstream's attr-dict holds the inherent attributes too.
        for name in ("apply_cleanup", "use_forall"):
            if name in entries:
                properties[name] = entries.pop(name)
        op = cls.create(
            operands=operands,
            result_types=function_type.outputs.data,
            properties=properties,
            attributes=entries,
        )
        op.properties["operandSegmentSizes"] = DenseArrayBase.from_list(
            i32, [1, len(sizes), len(interchange)]
        )
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_ssa_value(self.target)
        for keyword, static, dynamic in (
            ("tile_sizes", self.static_tile_sizes, self.tile_sizes),
            ("interchange", self.static_tile_interchange, self.tile_interchange),
        ):
            values = static_values(static)
            if values:
                printer.print_string(f" {keyword} ")
                print_dynamic_index_list(printer, DYNAMIC_INDEX, dynamic, values)
        entries = dict(self.attributes)
        for name in ("apply_cleanup", "use_forall"):
            if (value := self.properties.get(name)) is not None:
                entries[name] = value
        printer.print_op_attributes(entries)
        printer.print_string(" : ")
        printer.print_function_type(self.operand_types, self.result_types)

    def __init__(
        self,
        target: SSAValue,
        tile_sizes: Sequence[int | SSAValue] = (),
        interchange: Sequence[int | SSAValue] = (),
        *,
        apply_cleanup: bool = False,
    ):
        static_sizes = [s if isinstance(s, int) else DYNAMIC_INDEX for s in tile_sizes]
        static_interchange = [
            i if isinstance(i, int) else DYNAMIC_INDEX for i in interchange
        ]
        super().__init__(
            operands=[
                target,
                [s for s in tile_sizes if isinstance(s, SSAValue)],
                [i for i in interchange if isinstance(i, SSAValue)],
            ],
            properties={
                "static_tile_sizes": DenseArrayBase.from_list(i64, static_sizes),
                "static_tile_interchange": DenseArrayBase.from_list(
                    i64, static_interchange
                ),
                "apply_cleanup": UnitAttr() if apply_cleanup else None,
            },
            result_types=[
                transform.AnyOpType(),
                [transform.AnyOpType() for s in static_sizes if s != 0],
            ],
        )

    def verify_(self) -> None:
        sizes = static_values(self.static_tile_sizes)
        interchange = static_values(self.static_tile_interchange)
        if sizes.count(DYNAMIC_INDEX) != len(self.tile_sizes):
            op_error(
                self,
                f"expects {sizes.count(DYNAMIC_INDEX)} dynamic tile sizes, "
                f"got {len(self.tile_sizes)}",
            )
        if interchange.count(DYNAMIC_INDEX) != len(self.tile_interchange):
            op_error(
                self,
                f"expects {interchange.count(DYNAMIC_INDEX)} dynamic interchange "
                f"values, got {len(self.tile_interchange)}",
            )
        if len(interchange) > len(sizes):
            op_error(
                self,
                "interchange length exceeds iteration space dimensions "
                f"({len(sizes)}), found {list(interchange)}",
            )
        seen: set[int] = set()
        for value in interchange:
            if value == DYNAMIC_INDEX:
                continue
            if value < 0 or value >= len(sizes):
                op_error(self, f"expects interchange values to be in [0, {len(sizes)})")
            if value in seen:
                op_error(self, f"found duplicate interchange value: {value}")
            seen.add(value)
        loops = len(sizes) - sizes.count(0)
        if len(self.loops) != loops:
            op_error(self, f"expects {loops} loop results")


@irdl_op_definition
class FuseIntoContainingOp(IRDLOperation):
    """`transform.structured.fuse_into_containing_op %producer into %loop`:
    compute, inside the containing loop, the tiles of the producer's results
    that the loop reads (`tensor.extract_slice`s of them), instead of the
    whole results before the loop. Returns the fused ops and the containing
    op (upstream's op and syntax)."""

    name = "transform.structured.fuse_into_containing_op"

    producer_op = operand_def(_HANDLE)
    containing_op = operand_def(_HANDLE)

    fused_op = result_def(_HANDLE)
    new_containing_op = result_def(_HANDLE)

    assembly_format = (
        "$producer_op `into` $containing_op attr-dict "
        "`:` functional-type(operands, results)"
    )

    def __init__(self, producer_op: SSAValue, containing_op: SSAValue):
        super().__init__(
            operands=[producer_op, containing_op],
            result_types=[transform.AnyOpType(), transform.AnyOpType()],
        )


_TRUE = BoolAttr(True, i1)


@irdl_op_definition
class SplitHandleOp(transform.SplitHandleOp):
    """`transform.split_handle` with upstream's syntax
    (`%a, %b = transform.split_handle %h : (...) -> (...)`) and defaults
    (`pass_through_empty_handle` and `fail_on_payload_too_small` true)."""

    name = "transform.split_handle"

    pass_through_empty_handle = prop_def(IntegerAttr[IntegerType], _TRUE)
    fail_on_payload_too_small = prop_def(IntegerAttr[IntegerType], _TRUE)
    overflow_result = opt_prop_def(IntegerAttr[IntegerType])
    handle = operand_def(_HANDLE)
    results_ = var_result_def(_HANDLE)

    irdl_options = (ParsePropInAttrDict(),)

    assembly_format = "$handle attr-dict `:` functional-type(operands, results)"


@irdl_op_definition
class MergeHandlesOp(transform.MergeHandlesOp):
    """`transform.merge_handles` with upstream's syntax
    (`transform.merge_handles deduplicate %a, %b : !transform.any_op`)."""

    name = "transform.merge_handles"

    T: ClassVar = VarConstraint("T", base(_HANDLE))

    deduplicate = opt_prop_def(UnitAttr)
    handles = var_operand_def(RangeOf(T))
    result = result_def(T)

    assembly_format = (
        "(`deduplicate` $deduplicate^)? $handles attr-dict `:` type($result)"
    )

    def verify_(self) -> None:
        if not self.handles:
            op_error(self, "expects at least one handle")


@irdl_op_definition
class ParamConstantOp(transform.ParamConstantOp):
    """`transform.param.constant` with upstream's syntax
    (`%p = transform.param.constant 4 : i64 -> !transform.param<i64>`)."""

    name = "transform.param.constant"

    value = prop_def()
    param = result_def(transform.TransformParamHandleType)

    assembly_format = "$value attr-dict `->` type($param)"


@irdl_op_definition
class CastOp(transform.CastOp):
    """`transform.cast` with upstream's syntax
    (`%c = transform.cast %h : !transform.any_op to !transform.op<"scf.for">`)."""

    name = "transform.cast"

    input = operand_def(_HANDLE)
    output = result_def(_HANDLE)

    assembly_format = "$input attr-dict `:` type($input) `to` type($output)"


_FALSE = BoolAttr(False, i1)


@irdl_op_definition
class LoopPeelOp(IRDLOperation):
    """`transform.loop.peel %loop`: split each `scf.for` into the loop over
    its whole steps and one for the last, partial step; returns both
    (upstream's op and syntax)."""

    name = "transform.loop.peel"

    target = operand_def(_HANDLE)
    peel_front = prop_def(IntegerAttr[IntegerType], _FALSE)
    fail_if_already_divisible = prop_def(IntegerAttr[IntegerType], _FALSE)

    peeled_loop = result_def(_HANDLE)
    remainder_loop = result_def(_HANDLE)

    irdl_options = (ParsePropInAttrDict(),)

    assembly_format = "$target attr-dict `:` functional-type(operands, results)"


TRANSFORM_OPS: tuple[type[IRDLOperation], ...] = (
    FuseOp,
    FuseIntoContainingOp,
    LoopPeelOp,
    TileExtOp,
    LowerToLoopsOp,
    AnnotateExtOp,
    TileLoopHintOp,
    CleanupOp,
    *BYTEIR_TRANSFORM_OPS,
    *DISTRIBUTION_TRANSFORM_OPS,
    *RESHAPING_TRANSFORM_OPS,
    *TRANSFORM_OUTLINING_OPS,
    *UNIT_DIMS_TRANSFORM_OPS,
)
"""The ops `install` adds to xDSL's `transform` dialect."""

TRANSFORM_REPLACEMENTS: tuple[tuple[type[IRDLOperation], type[IRDLOperation]], ...] = (
    (transform.SplitHandleOp, SplitHandleOp),
    (transform.MergeHandlesOp, MergeHandlesOp),
    (transform.ParamConstantOp, ParamConstantOp),
    (transform.CastOp, CastOp),
)
"""(xDSL's op, ours with upstream's syntax), put in place by `install`."""
