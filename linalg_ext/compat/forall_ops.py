"""`scf.forall`, its `scf.forall.in_parallel` terminator, and
`tensor.parallel_insert_slice`, none of which xDSL 0.74 has.

A forall runs its body once per point of a multi-dimensional range, in no
particular order. Tensors it produces are `shared_outs`: each starts as its
init, the body sees it as a block argument, and the terminator's
`tensor.parallel_insert_slice` ops say which slice of it each iteration
writes. The three ops only make sense together, so they live together.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Self

from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    ArrayAttr,
    DenseArrayBase,
    IndexType,
    IntegerAttr,
    IntegerType,
    TensorType,
    i64,
)
from xdsl.dialects.utils import (
    DynamicIndexList,
    parse_assignment,
    parse_dynamic_index_list_without_types,
    print_assignment,
    print_dynamic_index_list,
    verify_dynamic_index_list,
)
from xdsl.ir import Attribute, Block, BlockArgument, Region, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    irdl_op_definition,
    lazy_traits_def,
    operand_def,
    opt_prop_def,
    prop_def,
    region_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.traits import (
    HasParent,
    IsTerminator,
    NoTerminator,
    RecursiveMemoryEffect,
    SingleBlockImplicitTerminator,
)
from xdsl.utils.exceptions import VerifyException

from linalg_ext.compat.syntax import sorted_attributes
from linalg_ext.verification import op_error

# --------------------------------------------------------------------------
# scf.forall.in_parallel
# --------------------------------------------------------------------------


@irdl_op_definition
class InParallelOp(IRDLOperation):
    """Terminates an `scf.forall` body. Its region holds only the
    `tensor.parallel_insert_slice` ops that write the iteration's slices of
    the shared outputs.

    See external [documentation](https://mlir.llvm.org/docs/Dialects/SCFDialect/#scfforallin_parallel-scfinparallelop).
    """

    name = "scf.forall.in_parallel"

    region = region_def("single_block")

    traits = lazy_traits_def(
        lambda: (IsTerminator(), NoTerminator(), HasParent(ForallOp))
    )

    def __init__(
        self,
        ops: Sequence[ParallelInsertSliceOp] = (),
        attributes: dict[str, Attribute] | None = None,
    ):
        super().__init__(regions=[Region(Block(ops))], attributes=attributes)

    # `{ ops } attr-dict?`, hand-written because the region always has its
    # one block, even when `{ }` is empty (the declarative format would make
    # a region without blocks).

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        region = parser.parse_region()
        if not region.blocks:
            region.add_block(Block())
        op = cls.build(regions=[region])
        op.attributes |= parser.parse_optional_attr_dict()
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_region(self.region, print_empty_block=False)
        printer.print_op_attributes(sorted_attributes(self.attributes))

    def verify_(self) -> None:
        for op in self.region.ops:
            if not isinstance(op, ParallelInsertSliceOp):
                op_error(
                    self,
                    f"expected only tensor.parallel_insert_slice ops, got {op.name}",
                )


# --------------------------------------------------------------------------
# scf.forall
# --------------------------------------------------------------------------


def _constant_index(value: SSAValue) -> int | None:
    """The value of an `arith.constant` index or integer, else None."""
    owner = value.owner
    if isinstance(owner, arith.ConstantOp) and isinstance(owner.value, IntegerAttr):
        return owner.value.value.data
    return None


@irdl_op_definition
class ForallOp(IRDLOperation):
    """A parallel loop nest over `lower <= i < upper` with `step`, one
    induction variable per dimension, each bound static or an index value.

    `shared_outs` are the tensors the loop produces: each result starts as
    its init and is written by the iterations' `tensor.parallel_insert_slice`
    ops. `mapping`, if present, names for each loop the hardware dimension it
    is distributed over (e.g. `#gpu.thread<x>`).

    See external [documentation](https://mlir.llvm.org/docs/Dialects/SCFDialect/#scfforall-scfforallop).
    """

    name = "scf.forall"

    dynamic_lower_bound = var_operand_def(IndexType)
    dynamic_upper_bound = var_operand_def(IndexType)
    dynamic_step = var_operand_def(IndexType)
    outputs = var_operand_def(TensorType)

    static_lower_bound = prop_def(
        DenseArrayBase.constr(i64), prop_name="staticLowerBound"
    )
    static_upper_bound = prop_def(
        DenseArrayBase.constr(i64), prop_name="staticUpperBound"
    )
    static_step = prop_def(DenseArrayBase.constr(i64), prop_name="staticStep")
    mapping = opt_prop_def(ArrayAttr)

    res = var_result_def(TensorType)

    body = region_def("single_block")

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    traits = traits_def(
        SingleBlockImplicitTerminator(InParallelOp), RecursiveMemoryEffect()
    )

    def __init__(
        self,
        lower_bounds: Sequence[SSAValue | int],
        upper_bounds: Sequence[SSAValue | int],
        steps: Sequence[SSAValue | int],
        outputs: Sequence[SSAValue],
        body: Region,
        mapping: ArrayAttr | None = None,
        attributes: dict[str, Attribute] | None = None,
    ):
        dynamic: list[list[SSAValue]] = []
        static: list[DenseArrayBase] = []
        for mixed in (lower_bounds, upper_bounds, steps):
            dynamic.append([v for v in mixed if isinstance(v, SSAValue)])
            static.append(
                DenseArrayBase.from_list(
                    i64, [v if isinstance(v, int) else DYNAMIC_INDEX for v in mixed]
                )
            )
        super().__init__(
            operands=[*dynamic, outputs],
            result_types=[[o.type for o in outputs]],
            properties={
                "staticLowerBound": static[0],
                "staticUpperBound": static[1],
                "staticStep": static[2],
                "mapping": mapping,
            },
            attributes=attributes,
            regions=[body],
        )

    @property
    def rank(self) -> int:
        return len(self.static_upper_bound.get_values())

    @property
    def induction_variables(self) -> tuple[BlockArgument, ...]:
        return tuple(self.body.block.args[: self.rank])

    @property
    def region_out_args(self) -> tuple[BlockArgument, ...]:
        """The block arguments standing for the shared outputs."""
        return tuple(self.body.block.args[self.rank :])

    def mixed_bounds(self) -> tuple[list[SSAValue | int], ...]:
        """Lower bounds, upper bounds and steps, each static or a value."""
        lists: list[list[SSAValue | int]] = []
        for static, dynamic in (
            (self.static_lower_bound, self.dynamic_lower_bound),
            (self.static_upper_bound, self.dynamic_upper_bound),
            (self.static_step, self.dynamic_step),
        ):
            values = iter(dynamic)
            lists.append(
                [next(values) if s == DYNAMIC_INDEX else s for s in static.get_values()]
            )
        return tuple(lists)

    def verify_(self) -> None:
        rank = self.rank
        for what, static, dynamic in (
            ("lower bound", self.static_lower_bound, self.dynamic_lower_bound),
            ("upper bound", self.static_upper_bound, self.dynamic_upper_bound),
            ("step", self.static_step, self.dynamic_step),
        ):
            values = static.get_values()
            if len(values) != rank:
                op_error(self, f"expected {rank} {what} values, got {len(values)}")
            try:
                verify_dynamic_index_list(
                    values, dynamic, DYNAMIC_INDEX, f" in the {what}s"
                )
            except VerifyException as error:
                op_error(self, str(error))

        args = self.body.block.args
        if len(args) != rank + len(self.outputs):
            op_error(
                self,
                f"expected {rank + len(self.outputs)} body arguments ({rank} "
                f"induction variables and {len(self.outputs)} shared outputs), "
                f"got {len(args)}",
            )
        for index, arg in enumerate(args[:rank]):
            if not isinstance(arg.type, IndexType):
                op_error(self, f"expected induction variable #{index} to be an index")
        if len(self.res) != len(self.outputs):
            op_error(
                self,
                f"expected one result per shared output ({len(self.outputs)}), "
                f"got {len(self.res)}",
            )
        for index, (output, arg, result) in enumerate(
            zip(self.outputs, args[rank:], self.res, strict=True)
        ):
            if arg.type != output.type or result.type != output.type:
                op_error(
                    self,
                    f"expected shared output #{index}, its body argument and its "
                    f"result to have one type, got {output.type}, {arg.type} and "
                    f"{result.type}",
                )
        if self.mapping is not None and len(self.mapping.data) != rank:
            op_error(
                self,
                f"expected the mapping to have one entry per loop ({rank}), got "
                f"{len(self.mapping.data)}",
            )

    # Syntax:
    #   scf.forall (%i, %j) in (ubs) (shared_outs(...) -> (types))? region attrs?
    #   scf.forall (%i, %j) = (lbs) to (ubs) step (steps) ...
    # with each bound an integer or an index value. MLIR prints the `in` form
    # whenever every lower bound is the constant 0 and every step the
    # constant 1, looking through `arith.constant`; so do we.

    def _is_normalized(self) -> bool:
        lower, _, steps = self.mixed_bounds()
        return all(
            (v if isinstance(v, int) else _constant_index(v)) == expected
            for bounds, expected in ((lower, 0), (steps, 1))
            for v in bounds
        )

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        start = parser.pos
        induction_variables = parser.parse_comma_separated_list(
            Parser.Delimiter.PAREN, lambda: parser.parse_argument(expect_type=False)
        )
        rank = len(induction_variables)

        def bounds(what: str) -> list[SSAValue | int]:
            pos = parser.pos
            unresolved, static = parse_dynamic_index_list_without_types(
                parser, DYNAMIC_INDEX, delimiter=Parser.Delimiter.PAREN
            )
            if len(static) != rank:
                parser.raise_error(
                    f"'scf.forall' expects {rank} {what} values, got {len(static)}",
                    pos,
                    parser.pos,
                )
            dynamic = iter(
                parser.resolve_operands(
                    unresolved, [IndexType()] * len(unresolved), pos
                )
            )
            return [next(dynamic) if s == DYNAMIC_INDEX else s for s in static]

        if parser.parse_optional_keyword("in") is not None:
            lower: list[SSAValue | int] = [0] * rank
            upper = bounds("upper bound")
            steps: list[SSAValue | int] = [1] * rank
        else:
            parser.parse_punctuation("=")
            lower = bounds("lower bound")
            parser.parse_keyword("to")
            upper = bounds("upper bound")
            parser.parse_keyword("step")
            steps = bounds("step")

        out_args: Sequence[Parser.UnresolvedArgument] = ()
        inits: Sequence[UnresolvedOperand] = ()
        result_types: Sequence[Attribute] = ()
        outs_pos = parser.pos
        if parser.parse_optional_keyword("shared_outs") is not None:
            assignments = parser.parse_comma_separated_list(
                Parser.Delimiter.PAREN, lambda: parse_assignment(parser)
            )
            out_args = [arg for arg, _ in assignments]
            inits = [init for _, init in assignments]
            parser.parse_punctuation("->")
            result_types = parser.parse_comma_separated_list(
                Parser.Delimiter.PAREN, parser.parse_type
            )
            if len(result_types) != len(inits):
                parser.raise_error(
                    f"'scf.forall' expects one result type per shared output, got "
                    f"{len(result_types)} for {len(inits)}",
                    outs_pos,
                    parser.pos,
                )
        # MLIR reads the inits' types off the result types.
        outputs = parser.resolve_operands(inits, result_types, outs_pos)

        arguments = [iv.resolve(IndexType()) for iv in induction_variables]
        arguments += [
            arg.resolve(t) for arg, t in zip(out_args, result_types, strict=True)
        ]
        body = parser.parse_region(arguments)
        entries = parser.parse_optional_attr_dict()
        mapping = entries.pop("mapping", None)
        if mapping is not None and not isinstance(mapping, ArrayAttr):
            parser.raise_error(
                f"'scf.forall' expects the mapping to be a list, got {mapping}",
                start,
                parser.pos,
            )
        # The terminator may be left implicit (MLIR prints it only when there
        # are shared outputs). Not `ensure_terminator`: that would build an
        # in_parallel without its region.
        block = body.block
        last = block.last_op
        if last is None or not last.has_trait(IsTerminator, value_if_unregistered=True):
            block.add_op(InParallelOp())
        return cls(lower, upper, steps, outputs, body, mapping, entries)

    def print(self, printer: Printer) -> None:
        printer.print_string(" (")
        printer.print_list(self.induction_variables, printer.print_ssa_value)
        printer.print_string(")")
        lower, upper, steps = (
            (self.static_lower_bound, self.dynamic_lower_bound),
            (self.static_upper_bound, self.dynamic_upper_bound),
            (self.static_step, self.dynamic_step),
        )

        def print_bounds(
            bounds: tuple[DenseArrayBase[IntegerType], Sequence[SSAValue]],
        ) -> None:
            static, dynamic = bounds
            print_dynamic_index_list(
                printer,
                DYNAMIC_INDEX,
                dynamic,
                static.get_values(),
                delimiter=Parser.Delimiter.PAREN,
            )

        if self._is_normalized():
            printer.print_string(" in ")
            print_bounds(upper)
        else:
            printer.print_string(" = ")
            print_bounds(lower)
            printer.print_string(" to ")
            print_bounds(upper)
            printer.print_string(" step ")
            print_bounds(steps)
        if self.outputs:
            printer.print_string(" shared_outs(")
            printer.print_list(
                zip(self.region_out_args, self.outputs, strict=True),
                lambda pair: print_assignment(printer, *pair),
            )
            printer.print_string(") -> (")
            printer.print_list(self.res.types, printer.print_attribute)
            printer.print_string(")")
        printer.print_string(" ")
        printer.print_region(
            self.body,
            print_entry_block_args=False,
            print_block_terminators=bool(self.outputs),
        )
        entries = dict(self.attributes)
        if self.mapping is not None:
            entries["mapping"] = self.mapping
        printer.print_op_attributes(sorted_attributes(entries))


# --------------------------------------------------------------------------
# tensor.parallel_insert_slice
# --------------------------------------------------------------------------


def rank_reduces_to(sizes: Sequence[int], shape: Sequence[int]) -> bool:
    """Whether `shape` is `sizes` with some unit extents dropped (a dynamic
    size matches only a dynamic extent)."""
    remaining = list(shape)
    for size in sizes:
        if remaining and remaining[0] == size:
            remaining.pop(0)
        elif size != 1:
            return False
    return not remaining


@irdl_op_definition
class ParallelInsertSliceOp(IRDLOperation):
    """In an `scf.forall.in_parallel`, writes `source` into the slice of a
    shared output given by offsets, sizes and strides (each static or an
    index value). `source` has the slice's shape, or that shape with unit
    extents dropped.

    See external [documentation](https://mlir.llvm.org/docs/Dialects/TensorOps/#tensorparallel_insert_slice-tensorparallelinsertsliceop).
    """

    name = "tensor.parallel_insert_slice"

    source = operand_def(TensorType)
    dest = operand_def(TensorType)
    offsets = var_operand_def(IndexType)
    sizes = var_operand_def(IndexType)
    strides = var_operand_def(IndexType)
    static_offsets = prop_def(DenseArrayBase.constr(i64))
    static_sizes = prop_def(DenseArrayBase.constr(i64))
    static_strides = prop_def(DenseArrayBase.constr(i64))

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    traits = traits_def(HasParent(InParallelOp))

    assembly_format = (
        "$source `into` $dest ``"
        "custom<DynamicIndexList>($offsets, $static_offsets)"
        "custom<DynamicIndexList>($sizes, $static_sizes)"
        "custom<DynamicIndexList>($strides, $static_strides)"
        "attr-dict `:` type($source) `into` type($dest)"
    )
    custom_directives = (DynamicIndexList,)

    def __init__(
        self,
        source: SSAValue,
        dest: SSAValue,
        offsets: Sequence[SSAValue | int],
        sizes: Sequence[SSAValue | int],
        strides: Sequence[SSAValue | int],
    ):
        dynamic: list[list[SSAValue]] = []
        properties: dict[str, Attribute] = {}
        for name, mixed in (
            ("static_offsets", offsets),
            ("static_sizes", sizes),
            ("static_strides", strides),
        ):
            dynamic.append([v for v in mixed if isinstance(v, SSAValue)])
            properties[name] = DenseArrayBase.from_list(
                i64, [v if isinstance(v, int) else DYNAMIC_INDEX for v in mixed]
            )
        super().__init__(operands=[source, dest, *dynamic], properties=properties)

    def verify_(self) -> None:
        dest_type = self.dest.type
        source_type = self.source.type
        assert isinstance(dest_type, TensorType) and isinstance(source_type, TensorType)
        rank = len(dest_type.get_shape())
        for what, static, dynamic in (
            ("offset", self.static_offsets, self.offsets),
            ("size", self.static_sizes, self.sizes),
            ("stride", self.static_strides, self.strides),
        ):
            values = static.get_values()
            if len(values) != rank:
                op_error(
                    self,
                    f"expected {rank} {what} values for the destination's rank, "
                    f"got {len(values)}",
                )
            try:
                verify_dynamic_index_list(
                    values, dynamic, DYNAMIC_INDEX, f" in the {what}s"
                )
            except VerifyException as error:
                op_error(self, str(error))
        sizes = self.static_sizes.get_values()
        if source_type.get_element_type() != dest_type.get_element_type():
            op_error(
                self,
                f"expected source and destination to have one element type, got "
                f"{source_type.get_element_type()} and {dest_type.get_element_type()}",
            )
        if not rank_reduces_to(sizes, source_type.get_shape()):
            slice_shape = ", ".join(
                "?" if s == DYNAMIC_INDEX else str(s) for s in sizes
            )
            op_error(
                self,
                f"expected source type {source_type} to have the slice's shape "
                f"[{slice_shape}], or that shape without some unit extents",
            )
        # The destination is one of the shared outputs of the enclosing forall.
        in_parallel = self.parent_op()
        forall = in_parallel.parent_op() if in_parallel is not None else None
        if isinstance(forall, ForallOp) and self.dest not in forall.region_out_args:
            op_error(self, "may only insert into a shared output of the scf.forall")


FORALL_OPS = (ForallOp, InParallelOp)
"""The ops this module adds to xDSL's `scf` dialect."""
