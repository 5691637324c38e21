"""Affine syntax upstream prints and xDSL 0.74 cannot read.

- **Semi-affine expressions.** xDSL 0.74 refuses a product of two
  non-constant expressions and a division or modulo by a non-constant
  (`NotImplementedError`), so it cannot read `affine_map<(d0)[s0] -> (d0 *
  s0)>`, which `expand-strided-metadata` and the bufferization of dynamic
  shapes produce. Upstream allows them when one factor, or the divisor, is
  symbolic (uses no dimension); so does this fix, with upstream's order (the
  symbolic factor on the right). A product of two dimensions is still
  refused, as upstream refuses it.
- **Memory accesses** (`affine.load %m[%i floordiv symbol(%n) + 1]`):
  xDSL 0.74 reads every SSA name in the brackets as a symbol, and no
  `symbol(%x)`. Read now as upstream reads them: a bare `%x` is a dimension,
  `symbol(%x)` a symbol, so the maps are upstream's (with every name a
  symbol, a loop's induction variable made the generic form one upstream
  refuses: "operand cannot be used as a symbol").
- **Non-affine expressions** (`d0 * d1`, `%i floordiv %n`) are a parse
  error at the operator, not an internal `NotImplementedError`.
- **`affine.if`'s custom form**, read (xDSL prints it generically, which
  upstream reads): `affine.if #set(%d)[%s] -> (T) { ... } else { ... }`,
  the terminators of result-less regions implicit.
- **Printing memory accesses** (`affine.load`, `affine.store`,
  `affine.vector_load`/`vector_store`): xDSL 0.74 prints a symbol `sN` of
  the access map as the N-th operand, which is a dimension's operand when
  the map has dimensions (`(d0)[s0] -> (d0 + s0)` on `(%i, %s)` printed
  `%i + %i`). Symbols are now printed as their own operands, and as
  `symbol(%s)` where the map is semi-affine in them (`%i floordiv
  symbol(%s)`: upstream reads a bare `%s` as a dimension, and refuses a
  division by one).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import nullcontext

from xdsl.dialects import affine
from xdsl.dialects.builtin import AffineSetAttr, IndexType
from xdsl.ir import Region, SSAValue
from xdsl.ir.affine import AffineMap
from xdsl.ir.affine.affine_expr import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineDimExpr,
    AffineExpr,
    AffineSymExpr,
)
from xdsl.parser import Parser
from xdsl.parser.affine_parser import AffineParser
from xdsl.printer import Printer
from xdsl.utils.exceptions import ParseError
from xdsl.utils.lexer import Span
from xdsl.utils.mlir_lexer import MLIRToken, MLIRTokenKind

from linalg_ext.compat.syntax import parse_optional_result_types

# --------------------------------------------------------------------------
# Semi-affine expressions


def is_symbolic(expr: AffineExpr) -> bool:
    """True if `expr` uses no dimension (constants and symbols only)."""
    return not any(isinstance(e, AffineDimExpr) for e in expr.dfs())


def _as_expr(value: AffineExpr | int) -> AffineExpr:
    return AffineExpr.constant(value) if isinstance(value, int) else value


def _semi_affine_mul(xdsl_mul: Callable[[AffineExpr, AffineExpr], AffineExpr]):
    def mul(self: AffineExpr, other: AffineExpr | int) -> AffineExpr:
        other = _as_expr(other)
        if isinstance(self, AffineConstantExpr) or isinstance(
            other, AffineConstantExpr
        ):
            return xdsl_mul(self, other)
        if not is_symbolic(other):
            if not is_symbolic(self):
                raise NotImplementedError(
                    "non-affine expression: at least one of the multiply operands "
                    f"has to be either a constant or symbolic ({self} * {other})"
                )
            self, other = other, self
        return AffineBinaryOpExpr(AffineBinaryOpKind.Mul, self, other)

    return mul


def _semi_affine_division(
    kind: AffineBinaryOpKind,
    xdsl_operation: Callable[[AffineExpr, AffineExpr], AffineExpr],
):
    def operation(self: AffineExpr, other: AffineExpr | int) -> AffineExpr:
        other = _as_expr(other)
        if isinstance(other, AffineConstantExpr):
            return xdsl_operation(self, other)
        if not is_symbolic(other):
            raise NotImplementedError(
                f"non-affine expression: right operand of {kind.get_token()} has "
                f"to be either a constant or symbolic ({self}, {other})"
            )
        return AffineBinaryOpExpr(kind, self, other)

    return operation


def install_semi_affine() -> None:
    AffineExpr.__mul__ = _semi_affine_mul(AffineExpr.__mul__)
    AffineExpr.__floordiv__ = _semi_affine_division(
        AffineBinaryOpKind.FloorDiv, AffineExpr.__floordiv__
    )
    AffineExpr.ceil_div = _semi_affine_division(
        AffineBinaryOpKind.CeilDiv, AffineExpr.ceil_div
    )
    AffineExpr.__mod__ = _semi_affine_division(
        AffineBinaryOpKind.Mod, AffineExpr.__mod__
    )


# --------------------------------------------------------------------------
# Maps of SSA names (memory accesses): dimensions and symbol(%x)


def parse_access_map(self: AffineParser) -> tuple[AffineMap, Sequence[Span]]:
    """`[expr, ...]` over SSA names, as upstream reads it: a bare `%x` is a
    dimension, `symbol(%x)` a symbol. Returns the map and the span of each
    operand's first use, dimensions first (the operand order)."""
    dims: dict[str, int] = {}
    symbols: dict[str, int] = {}
    spans: tuple[list[Span], list[Span]] = ([], [])

    def name(table: dict[str, int], kind: int) -> int | None:
        token = self._parse_optional_token(MLIRTokenKind.PERCENT_IDENT)  # pyright: ignore[reportPrivateUsage]
        if token is None:
            return None
        text = token.span.text
        if text not in table:
            table[text] = len(table)
            spans[kind].append(token.span)
        return table[text]

    def parse_optional_ssa_value() -> AffineExpr | None:
        # The parser's private token stream (no public look-ahead).
        token = self._current_token  # pyright: ignore[reportPrivateUsage]
        if token.kind == MLIRTokenKind.BARE_IDENT and token.text == "symbol":
            self._consume_token(MLIRTokenKind.BARE_IDENT)  # pyright: ignore[reportPrivateUsage]
            self.parse_punctuation("(")
            position = name(symbols, 1)
            if position is None:
                self.raise_error("expected an SSA value in symbol(...)")
            self.parse_punctuation(")")
            return AffineExpr.symbol(position)
        position = name(dims, 0)
        return None if position is None else AffineExpr.dimension(position)

    exprs = self.parse_comma_separated_list(
        self.Delimiter.SQUARE,
        lambda: self._parse_affine_expr(parse_optional_ssa_value),  # pyright: ignore[reportPrivateUsage]
    )
    return AffineMap(len(dims), len(symbols), tuple(exprs)), (*spans[0], *spans[1])


def _located_non_affine(xdsl_create):
    """A non-affine expression (`d0 * d1`) is a parse error at its operator,
    not the `NotImplementedError` the expression classes raise."""

    def create(
        self: AffineParser, lhs: AffineExpr, rhs: AffineExpr, binop: MLIRToken
    ) -> AffineExpr:
        try:
            return xdsl_create(self, lhs, rhs, binop)
        except NotImplementedError as error:
            raise ParseError(binop.span, str(error)) from None

    return create


def install_access_maps() -> None:
    # xDSL's parser of maps of SSA names, and its private hook that builds
    # binary expressions.
    AffineParser.parse_affine_map_of_ssa_ids = parse_access_map
    AffineParser._create_binop_expr = _located_non_affine(  # pyright: ignore[reportPrivateUsage]
        AffineParser._create_binop_expr  # pyright: ignore[reportPrivateUsage]
    )


# --------------------------------------------------------------------------
# affine.if


def _parse_if(cls: type[affine.IfOp], parser: Parser) -> affine.IfOp:
    """`#set(%dims)[%symbols] (-> types)? region (else region)? attr-dict`."""
    condition = parser.parse_attribute()
    if not isinstance(condition, AffineSetAttr):
        parser.raise_error(f"expected an integer set, got {condition}")
    dims = parser.parse_optional_comma_separated_list(
        Parser.Delimiter.PAREN, lambda: parser.parse_operand(IndexType())
    )
    symbols = parser.parse_optional_comma_separated_list(
        Parser.Delimiter.SQUARE, lambda: parser.parse_operand(IndexType())
    )
    result_types = list(parse_optional_result_types(parser))
    then_region = parser.parse_region()
    else_region = Region()
    if parser.parse_optional_keyword("else") is not None:
        else_region = parser.parse_region()
    attributes = parser.parse_optional_attr_dict()
    properties = {"condition": condition}
    op = cls.build(
        operands=[[*(dims or ()), *(symbols or ())]],
        result_types=[result_types],
        properties=properties,
        regions=[then_region, else_region],
        attributes=attributes,
    )
    if not result_types:
        # Upstream leaves out the `affine.yield` of result-less regions.
        for region in op.regions:
            for block in region.blocks:
                last = block.last_op
                if last is None or not isinstance(last, affine.YieldOp):
                    block.add_op(affine.YieldOp.get())
    return op


# --------------------------------------------------------------------------
# Printing memory accesses


def symbols_upstream_needs(expr: AffineExpr) -> set[int]:
    """The symbols upstream must read as symbols for `expr` to be allowed:
    those of a non-constant divisor, or of the right factor of a product of
    two non-constants (read as dimensions, either would be non-affine)."""
    needed: set[int] = set()
    for sub in expr.dfs():
        if not isinstance(sub, AffineBinaryOpExpr):
            continue
        if sub.kind == AffineBinaryOpKind.Add or isinstance(
            sub.rhs, AffineConstantExpr
        ):
            continue
        if sub.kind == AffineBinaryOpKind.Mul and isinstance(
            sub.lhs, AffineConstantExpr
        ):
            continue
        needed.update(e.position for e in sub.rhs.dfs() if isinstance(e, AffineSymExpr))
    return needed


_PRECEDENCE = {
    AffineBinaryOpKind.Add: 10,
    AffineBinaryOpKind.Mul: 20,
    AffineBinaryOpKind.Mod: 20,
    AffineBinaryOpKind.FloorDiv: 20,
    AffineBinaryOpKind.CeilDiv: 20,
}


def _print_access_expr(
    printer: Printer,
    expr: AffineExpr,
    dims: Sequence[SSAValue],
    symbols: Sequence[SSAValue],
    marked: set[int],
    min_precedence: int = 0,
) -> None:
    """xDSL's form (the fewest brackets that keep the meaning), each symbol
    its own operand, `symbol(%s)` for those in `marked`."""
    if isinstance(expr, AffineConstantExpr):
        printer.print_string(str(expr.value))
    elif isinstance(expr, AffineDimExpr):
        printer.print_ssa_value(dims[expr.position])
    elif isinstance(expr, AffineSymExpr):
        mark = expr.position in marked
        if mark:
            printer.print_string("symbol(")
        printer.print_ssa_value(symbols[expr.position])
        if mark:
            printer.print_string(")")
    elif isinstance(expr, AffineBinaryOpExpr):
        precedence = _PRECEDENCE[expr.kind]
        brackets = printer.in_parens() if precedence < min_precedence else nullcontext()
        with brackets:
            _print_access_expr(printer, expr.lhs, dims, symbols, marked, precedence)
            printer.print_string(f" {expr.kind.get_token()} ")
            right = (
                precedence if expr.kind == AffineBinaryOpKind.Add else precedence + 1
            )
            _print_access_expr(printer, expr.rhs, dims, symbols, marked, right)
    else:
        raise ValueError(f"unexpected affine expression {expr}")


def print_access_map(
    printer: Printer, affine_map: AffineMap, operands: Sequence[SSAValue]
) -> None:
    """`[expr, ...]` over the access's operands (dimensions, then symbols)."""
    dims = operands[: affine_map.num_dims]
    symbols = operands[affine_map.num_dims :]
    marked = set[int]().union(*(symbols_upstream_needs(e) for e in affine_map.results))
    with printer.in_square_brackets():
        printer.print_list(
            affine_map.results,
            lambda e: _print_access_expr(printer, e, dims, symbols, marked),
        )


def install_affine_syntax() -> None:
    """Semi-affine expressions, `symbol(%x)`, `affine.if`'s custom form, and
    the printing of memory accesses."""
    install_semi_affine()
    install_access_maps()
    # xDSL's module-level printer of access maps, which its ops call by name.
    affine._print_affine_map_of_ssa_ids = print_access_map  # pyright: ignore[reportPrivateUsage]
    # Replacing xDSL's methods: pyright holds a class to its declared methods.
    affine.IfOp.parse = classmethod(_parse_if)  # pyright: ignore[reportAttributeAccessIssue]
