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
"""

from __future__ import annotations

from xdsl.dialects import scf
from xdsl.dialects.builtin import IndexType
from xdsl.ir import Attribute, Region
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.traits import SingleBlockImplicitTerminator, ensure_terminator


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


def install_scf_syntax() -> None:
    # Replacing xDSL's methods: pyright holds a class to its declared methods.
    scf.ParallelOp.parse = classmethod(_parse_parallel)  # pyright: ignore[reportAttributeAccessIssue]
    scf.ReduceOp.parse = classmethod(_parse_reduce)  # pyright: ignore[reportAttributeAccessIssue]
    scf.ReduceOp.print = _print_reduce  # pyright: ignore[reportAttributeAccessIssue]
    scf.IndexSwitchOp.parse = classmethod(  # pyright: ignore[reportAttributeAccessIssue]
        _with_implicit_yield(scf.IndexSwitchOp.parse)
    )
