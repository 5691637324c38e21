"""`scf` syntax upstream prints and xDSL 0.74 cannot read.

- **`scf.parallel`'s custom form** (xDSL 0.74 reads only the generic one;
  it prints the generic one, which upstream reads, so only the parser is
  added):

      %r = scf.parallel (%i, %j) = (%c0, %c0) to (%n, %m) step (%c1, %c1)
          init (%zero) -> f32 {
        ...
        scf.reduce(%v : f32) {
        ^bb0(%a: f32, %b: f32):
          %s = arith.addf %a, %b : f32
          scf.reduce.return %s : f32
        }
      }

  Without `init`, the `scf.reduce` terminator is implicit.
- **`scf.reduce` with several reductions**: upstream separates the regions
  with commas (`scf.reduce(%a, %b : f32, i32) { ... }, { ... }`). xDSL
  0.74 prints them without (`} {`), which upstream cannot read, and reads
  only that. Both sides are fixed: the parser takes either, the printer
  writes the commas.
- **`scf.index_switch` regions without `scf.yield`**: upstream leaves out
  the terminator of a result-less case (`default { memref.store ... }`);
  xDSL 0.74's parser keeps the block unterminated and verification fails.
  The parser now adds the `scf.yield`.
- **One result type without parentheses**: upstream reads `scf.for ...
  iter_args(%x = %t) -> tensor<4xf32> {` and `scf.if %c -> f32 {` (its
  tests and ByteIR's write them so); xDSL 0.74 reads only `-> (T)`. Both
  forms are read now; printing is unchanged (`-> (T)`, as upstream prints).
- **`scf.while` without operands**: upstream writes `scf.while : () -> ()
  {`; xDSL 0.74 reads and prints only `scf.while () : () -> () {`. Both are
  read now, and upstream's form is printed.
"""

from __future__ import annotations

from xdsl.dialects import scf
from xdsl.dialects.builtin import FunctionType, IndexType, i1
from xdsl.dialects.utils import parse_assignment
from xdsl.ir import Attribute, Region
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.traits import SingleBlockImplicitTerminator, ensure_terminator

from linalg_ext.compat.syntax import parse_optional_result_types


def _parse_parallel(cls: type[scf.ParallelOp], parser: Parser) -> scf.ParallelOp:
    """`(ivs) = (lbs) to (ubs) step (steps) (init (vals) -> types)? region
    attr-dict`."""
    index = IndexType()
    ivs = parser.parse_comma_separated_list(
        Parser.Delimiter.PAREN, lambda: parser.parse_argument(expect_type=False)
    )
    parser.parse_punctuation("=")

    def bounds() -> list:
        return parser.parse_comma_separated_list(
            Parser.Delimiter.PAREN, lambda: parser.parse_operand(index)
        )

    lower = bounds()
    parser.parse_keyword("to")
    upper = bounds()
    parser.parse_keyword("step")
    steps = bounds()
    inits: list[UnresolvedOperand] = []
    init_types: list[Attribute] = []
    if parser.parse_optional_keyword("init") is not None:
        inits = parser.parse_comma_separated_list(
            Parser.Delimiter.PAREN, parser.parse_unresolved_operand
        )
        parser.parse_punctuation("->")
        parsed = parser.parse_optional_comma_separated_list(
            Parser.Delimiter.PAREN, parser.parse_type
        )
        init_types = list(parsed) if parsed is not None else [parser.parse_type()]
    if len(inits) != len(init_types):
        parser.raise_error(
            f"expected {len(inits)} result types for the init values, got "
            f"{len(init_types)}"
        )
    init_values = [
        parser.resolve_operand(value, type_)
        for value, type_ in zip(inits, init_types, strict=True)
    ]
    body = parser.parse_region([iv.resolve(index) for iv in ivs])
    attributes = parser.parse_optional_attr_dict()
    op = cls(lower, upper, steps, body, init_values)
    op.attributes.update(attributes)
    for trait in op.get_traits_of_type(SingleBlockImplicitTerminator):
        ensure_terminator(op, trait)
    return op


def _parse_reduce(cls: type[scf.ReduceOp], parser: Parser) -> scf.ReduceOp:
    """`(`(` operands `:` types `)`)? (region (`,`? region)*)? attr-dict`."""
    args = []
    if parser.parse_optional_punctuation("(") is not None:
        unresolved = parser.parse_comma_separated_list(
            Parser.Delimiter.NONE, parser.parse_unresolved_operand
        )
        parser.parse_punctuation(":")
        types = parser.parse_comma_separated_list(
            Parser.Delimiter.NONE, parser.parse_type
        )
        parser.parse_punctuation(")")
        if len(unresolved) != len(types):
            parser.raise_error(
                f"expected {len(unresolved)} types for the operands of scf.reduce, "
                f"got {len(types)}"
            )
        args = [
            parser.resolve_operand(value, type_)
            for value, type_ in zip(unresolved, types, strict=True)
        ]
    regions: list[Region] = []
    region = parser.parse_optional_region()
    while region is not None:
        regions.append(region)
        if parser.parse_optional_punctuation(",") is not None:
            region = parser.parse_region()
        else:
            region = parser.parse_optional_region()
    attributes = parser.parse_optional_attr_dict()
    op = cls(args, regions)
    op.attributes.update(attributes)
    return op


def _print_reduce(op: scf.ReduceOp, printer: Printer) -> None:
    if op.args:
        with printer.in_parens():
            printer.print_list(op.args, printer.print_operand)
            printer.print_string(" : ")
            printer.print_list(op.args.types, printer.print_attribute)
    for index, region in enumerate(op.reductions):
        printer.print_string(", " if index else " ")
        printer.print_region(region)
    printer.print_op_attributes(op.attributes)


def _with_implicit_yield(xdsl_parse):
    def parse(cls: type[scf.IndexSwitchOp], parser: Parser) -> scf.IndexSwitchOp:
        op = xdsl_parse.__func__(cls, parser)
        if not op.output:
            ensure_terminator(op, SingleBlockImplicitTerminator(scf.YieldOp))
        return op

    return parse


def _parse_for(cls: type[scf.ForOp], parser: Parser) -> scf.ForOp:
    """`%iv = %lb to %ub step %step (iter_args(assignments) -> types)?
    (: type)? region attr-dict`, the types `T` or `(T1, T2)`."""
    induction = parser.parse_argument(expect_type=False)
    parser.parse_punctuation("=")
    lower = parser.parse_unresolved_operand()
    parser.parse_keyword("to")
    upper = parser.parse_unresolved_operand()
    parser.parse_keyword("step")
    step = parser.parse_unresolved_operand()
    carried: list[tuple[Parser.UnresolvedArgument, UnresolvedOperand]] = []
    carried_types: list[Attribute] = []
    types_pos = parser.pos
    if parser.parse_optional_keyword("iter_args") is not None:
        carried = parser.parse_comma_separated_list(
            Parser.Delimiter.PAREN, lambda: parse_assignment(parser)
        )
        types_pos = parser.pos
        if parser.parse_optional_punctuation("->") is None:
            parser.raise_error("expected '->' and the types of the iter_args")
        carried_types = list(_parse_type_or_type_list(parser))
    if len(carried) != len(carried_types):
        parser.raise_error(
            f"expected {len(carried)} types for the iter_args, got "
            f"{len(carried_types)}",
            types_pos,
            parser.pos,
        )
    inits = [
        parser.resolve_operand(operand, type_)
        for (_, operand), type_ in zip(carried, carried_types, strict=True)
    ]
    arguments = [
        argument.resolve(type_)
        for (argument, _), type_ in zip(carried, carried_types, strict=True)
    ]
    induction_type = (
        parser.parse_type()
        if parser.parse_optional_punctuation(":") is not None
        else IndexType()
    )
    lower_bound, upper_bound, step_value = (
        parser.resolve_operand(value, induction_type) for value in (lower, upper, step)
    )
    body = parser.parse_region((induction.resolve(induction_type), *arguments))
    attributes = parser.parse_optional_attr_dict()
    op = cls(lower_bound, upper_bound, step_value, inits, body)
    op.attributes |= attributes
    if not arguments:
        for trait in op.get_traits_of_type(SingleBlockImplicitTerminator):
            ensure_terminator(op, trait)
    return op


def _parse_type_or_type_list(parser: Parser) -> list[Attribute]:
    """`T` or `(T1, T2)` (also `()`), after an arrow."""
    types = parser.parse_optional_comma_separated_list(
        Parser.Delimiter.PAREN, parser.parse_type
    )
    return [parser.parse_type()] if types is None else list(types)


def _parse_if(cls: type[scf.IfOp], parser: Parser) -> scf.IfOp:
    """`%cond (-> types)? region (else region)? attr-dict`, the types `T` or
    `(T1, T2)`."""
    condition = parser.parse_operand(i1)
    result_types = list(parse_optional_result_types(parser))
    then_region = cls.parse_region_with_yield(parser)
    else_region = Region()
    if parser.parse_optional_keyword("else") is not None:
        else_region = cls.parse_region_with_yield(parser)
    attributes = parser.parse_optional_attr_dict()
    return cls(condition, result_types, then_region, else_region, attributes)


def _parse_while(cls: type[scf.WhileOp], parser: Parser) -> scf.WhileOp:
    """`((assignments))? : function-type region do region attr-dict`."""
    assignments = parser.parse_optional_comma_separated_list(
        Parser.Delimiter.PAREN, lambda: parse_assignment(parser)
    )
    assignments = assignments or []
    parser.parse_punctuation(":")
    type_pos = parser.pos
    function_type = parser.parse_type()
    if not isinstance(function_type, FunctionType):
        parser.raise_error(
            f"expected a function type for scf.while, got {function_type}",
            type_pos,
            parser.pos,
        )
    inputs = function_type.inputs.data
    if len(assignments) != len(inputs):
        parser.raise_error(
            f"expected {len(assignments)} operand types for scf.while, got "
            f"{len(inputs)}",
            type_pos,
            parser.pos,
        )
    arguments = [
        argument.resolve(type_)
        for (argument, _), type_ in zip(assignments, inputs, strict=True)
    ]
    operands = [
        parser.resolve_operand(operand, type_)
        for (_, operand), type_ in zip(assignments, inputs, strict=True)
    ]
    before = parser.parse_region(arguments)
    parser.parse_keyword("do")
    after = parser.parse_region()
    attributes = parser.parse_optional_attr_dict_with_keyword()
    op = cls(operands, function_type.outputs.data, before, after)
    if attributes is not None:
        op.attributes |= attributes.data
    return op


def _with_upstream_empty_while(xdsl_print):
    """Without operands upstream prints `scf.while : () -> () {`: no `()`."""

    def print_while(op: scf.WhileOp, printer: Printer) -> None:
        if op.arguments:
            xdsl_print(op, printer)
            return
        printer.print_string(" : ")
        printer.print_operation_type(op)
        printer.print_string(" ")
        printer.print_region(op.before_region, print_entry_block_args=False)
        printer.print_string(" do ")
        printer.print_region(op.after_region)
        if op.attributes:
            printer.print_op_attributes(op.attributes, print_keyword=True)

    return print_while


def install_scf_syntax() -> None:
    # Replacing xDSL's methods: pyright holds a class to its declared methods.
    scf.ForOp.parse = classmethod(_parse_for)  # pyright: ignore[reportAttributeAccessIssue]
    scf.IfOp.parse = classmethod(_parse_if)  # pyright: ignore[reportAttributeAccessIssue]
    scf.WhileOp.parse = classmethod(_parse_while)  # pyright: ignore[reportAttributeAccessIssue]
    scf.WhileOp.print = _with_upstream_empty_while(scf.WhileOp.print)  # pyright: ignore[reportAttributeAccessIssue]
    scf.ParallelOp.parse = classmethod(_parse_parallel)  # pyright: ignore[reportAttributeAccessIssue]
    scf.ReduceOp.parse = classmethod(_parse_reduce)  # pyright: ignore[reportAttributeAccessIssue]
    scf.ReduceOp.print = _print_reduce  # pyright: ignore[reportAttributeAccessIssue]
    scf.IndexSwitchOp.parse = classmethod(  # pyright: ignore[reportAttributeAccessIssue]
        _with_implicit_yield(scf.IndexSwitchOp.parse)
    )
