"""Affine syntax upstream prints and xDSL 0.74 cannot read.

- **Semi-affine expressions.** xDSL 0.74 refuses a product of two
  non-constant expressions and a division or modulo by a non-constant
  (`NotImplementedError`), so it cannot read `affine_map<(d0)[s0] -> (d0 *
  s0)>`, which `expand-strided-metadata` and the bufferization of dynamic
  shapes produce. Upstream allows them when one factor, or the divisor, is
  symbolic (uses no dimension); so does this fix, with upstream's order (the
  symbolic factor on the right). A product of two dimensions is still
  refused, as upstream refuses it.
- **`symbol(%x)` in memory accesses** (`affine.load %m[symbol(%i) + 1]`):
  xDSL reads every SSA name in the brackets as a symbol already, so
  `symbol(%x)` is read as `%x`.
- **`affine.if`'s custom form**, read (xDSL prints it generically, which
  upstream reads): `affine.if #set(%d)[%s] -> (T) { ... } else { ... }`,
  the terminators of result-less regions implicit.
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.dialects import affine
from xdsl.dialects.builtin import AffineSetAttr, IndexType
from xdsl.ir import Region
from xdsl.ir.affine.affine_expr import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineDimExpr,
    AffineExpr,
)
from xdsl.parser import Parser
from xdsl.parser.affine_parser import AffineParser
from xdsl.utils.mlir_lexer import MLIRTokenKind

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
# symbol(%x) in maps of SSA names


def _with_symbol_keyword(xdsl_factory):
    def factory(self: AffineParser):
        parse_ssa, by_name, spans = xdsl_factory(self)

        def parse_optional_ssa_value() -> AffineExpr | None:
            # The parser's private token stream (no public look-ahead).
            token = self._current_token  # pyright: ignore[reportPrivateUsage]
            if token.kind == MLIRTokenKind.BARE_IDENT and token.text == "symbol":
                self._consume_token(MLIRTokenKind.BARE_IDENT)  # pyright: ignore[reportPrivateUsage]
                self.parse_punctuation("(")
                expr = parse_ssa()
                if expr is None:
                    self.raise_error("expected an SSA value in symbol(...)")
                self.parse_punctuation(")")
                return expr
            return parse_ssa()

        return parse_optional_ssa_value, by_name, spans

    return factory


def install_symbol_keyword() -> None:
    # xDSL's private hook for the operands of affine expressions.
    AffineParser._get_parse_optional_ssa_value = (  # pyright: ignore[reportPrivateUsage]
        _with_symbol_keyword(
            AffineParser._get_parse_optional_ssa_value  # pyright: ignore[reportPrivateUsage]
        )
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


def install_affine_syntax() -> None:
    """Semi-affine expressions, `symbol(%x)`, and `affine.if`'s custom form."""
    install_semi_affine()
    install_symbol_keyword()
    # Replacing xDSL's methods: pyright holds a class to its declared methods.
    affine.IfOp.parse = classmethod(_parse_if)  # pyright: ignore[reportAttributeAccessIssue]
