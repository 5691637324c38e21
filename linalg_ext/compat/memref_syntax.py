"""Reading upstream's custom forms of `memref` ops xDSL 0.74 reads only
generically.

xDSL 0.74 defines `memref.copy`, `memref.cast`, `memref.global`,
`memref.rank` and `memref.extract_aligned_pointer_as_index` without a custom
syntax, so it cannot read what `mlir-opt` prints after bufferization or
buffer deallocation:

    memref.copy %a, %b : memref<4xf32> to memref<4xf32, strided<[1]>>
    %c = memref.cast %a : memref<4xf32> to memref<?xf32>
    memref.global "private" constant @c : memref<4xf32> = dense<1.0>
        {alignment = 64 : i64}
    %r = memref.rank %u : memref<*xf32>
    %p = memref.extract_aligned_pointer_as_index %a : memref<4xf32> -> index

Only the parsers are added: xDSL prints these ops in the generic form, which
`mlir-opt` reads, and changing that would change every existing output.

Also: `memref.rank` of an unranked memref (upstream accepts any memref;
xDSL 0.74 only ranked ones), and `memref.copy` between compatible shapes
(`memref<4xf32>` to `memref<?xf32>`: upstream requires each dimension to be
equal or dynamic on one side; xDSL 0.74 requires equal shapes). A
`memref.global` written without a visibility is public: the parser says so
explicitly (`sym_visibility = "public"`), because xDSL 0.74's op requires
the property; for upstream's generic form, which leaves a public global's
visibility out too, a global created without one gets it the same way.
"""

from __future__ import annotations

from xdsl.dialects import memref
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AnyDenseElement,
    DenseResourceAttr,
    IndexType,
    MemRefType,
    StringAttr,
    TensorType,
    UnitAttr,
    UnrankedMemRefType,
)
from xdsl.ir import Attribute
from xdsl.irdl import OperandDef
from xdsl.irdl.constraints import AnyOf, BaseAttr
from xdsl.parser import Parser

from linalg_ext.compat.syntax import split_properties
from linalg_ext.verification import op_error


def _parse_memref_type(parser: Parser) -> Attribute:
    type_ = parser.parse_type()
    if not isinstance(type_, MemRefType | UnrankedMemRefType):
        parser.raise_error(f"expected a memref type, got {type_}")
    return type_


def _parse_copy(cls: type[memref.CopyOp], parser: Parser) -> memref.CopyOp:
    """`%source, %target attr-dict : T1 to T2`."""
    source = parser.parse_unresolved_operand()
    parser.parse_punctuation(",")
    target = parser.parse_unresolved_operand()
    attributes = parser.parse_optional_attr_dict()
    parser.parse_punctuation(":")
    source_type = _parse_memref_type(parser)
    parser.parse_keyword("to")
    target_type = _parse_memref_type(parser)
    op = cls(
        parser.resolve_operand(source, source_type),
        parser.resolve_operand(target, target_type),
    )
    op.attributes.update(attributes)
    return op


def _parse_cast(cls: type[memref.CastOp], parser: Parser) -> memref.CastOp:
    """`%source attr-dict : T1 to T2`."""
    source = parser.parse_unresolved_operand()
    attributes = parser.parse_optional_attr_dict()
    parser.parse_punctuation(":")
    source_type = _parse_memref_type(parser)
    parser.parse_keyword("to")
    result_type = _parse_memref_type(parser)
    op = cls.build(
        operands=[parser.resolve_operand(source, source_type)],
        result_types=[result_type],
        attributes=attributes,
    )
    return op


def _parse_rank(cls: type[memref.RankOp], parser: Parser) -> memref.RankOp:
    """`%memref attr-dict : T`."""
    source = parser.parse_unresolved_operand()
    attributes = parser.parse_optional_attr_dict()
    parser.parse_punctuation(":")
    source_type = _parse_memref_type(parser)
    return cls.build(
        operands=[parser.resolve_operand(source, source_type)],
        result_types=[IndexType()],
        attributes=attributes,
    )


def _parse_aligned_pointer(
    cls: type[memref.ExtractAlignedPointerAsIndexOp], parser: Parser
) -> memref.ExtractAlignedPointerAsIndexOp:
    """`%source : T -> index attr-dict`."""
    source = parser.parse_unresolved_operand()
    parser.parse_punctuation(":")
    source_type = _parse_memref_type(parser)
    parser.parse_punctuation("->")
    result_type = parser.parse_type()
    attributes = parser.parse_optional_attr_dict()
    return cls.build(
        operands=[parser.resolve_operand(source, source_type)],
        result_types=[result_type],
        attributes=attributes,
    )


def _parse_initial_value(parser: Parser, type_: MemRefType) -> Attribute:
    """After `=`: `uninitialized` (a unit attribute) or an elements literal
    typed by the tensor of the global's shape (`dense<...>`,
    `dense_resource<key>`)."""
    if parser.parse_optional_keyword("uninitialized") is not None:
        return UnitAttr()
    if parser.parse_optional_keyword("dense_resource") is not None:
        # Upstream's bufferization of a `dense_resource` constant (compat/resources.py).
        from linalg_ext.compat.resources import parse_resource_handle

        key = parse_resource_handle(parser)
        tensor_type = TensorType(type_.get_element_type(), type_.get_shape())
        return DenseResourceAttr.from_params(key, tensor_type)
    if parser.parse_optional_keyword("dense") is None:
        parser.raise_error(
            "expected 'uninitialized' or a dense elements literal as the "
            "initial value of memref.global"
        )
    element_type = type_.get_element_type()
    if not isinstance(element_type, AnyDenseElement):
        parser.raise_error(
            "expected an integer, index, float or complex element type for a "
            f"dense initial value, got {element_type}"
        )
    tensor_type = TensorType(element_type, type_.get_shape())
    return parser.parse_dense_int_or_fp_elements_attr(tensor_type)


def _parse_global(cls: type[memref.GlobalOp], parser: Parser) -> memref.GlobalOp:
    """`("visibility")? (constant)? @name : memref<...> (= initial-value)?
    attr-dict`."""
    visibility = parser.parse_optional_str_literal()
    constant = parser.parse_optional_keyword("constant") is not None
    name = parser.parse_symbol_name()
    parser.parse_punctuation(":")
    type_ = parser.parse_type()
    if not isinstance(type_, MemRefType):
        parser.raise_error(f"expected a ranked memref type, got {type_}")
    if parser.parse_optional_punctuation("=") is None:
        # An external declaration: xDSL 0.74's op requires an initial value.
        parser.raise_error(
            "memref.global without an initial value (an external declaration) "
            "is not supported by xDSL 0.74's memref.global"
        )
    initial_value = _parse_initial_value(parser, type_)
    entries = parser.parse_optional_attr_dict()
    properties, attributes = split_properties(entries, ("alignment",))
    properties |= {
        "sym_name": name,
        "sym_visibility": StringAttr(visibility or "public"),
        "type": type_,
        "initial_value": initial_value,
    }
    if constant:
        properties["constant"] = UnitAttr()
    return cls.build(properties=properties, attributes=attributes)


def _verify_copy(op: memref.CopyOp) -> None:
    source, target = op.source.type, op.destination.type
    assert isinstance(source, MemRefType) and isinstance(target, MemRefType)
    if source.get_element_type() != target.get_element_type():
        op_error(
            op, f"requires the same element type for all operands ({source}, {target})"
        )
    source_shape, target_shape = source.get_shape(), target.get_shape()
    if len(source_shape) != len(target_shape) or any(
        a != b and DYNAMIC_INDEX not in (a, b)
        for a, b in zip(source_shape, target_shape, strict=True)
    ):
        op_error(op, f"requires the same shape for all operands ({source}, {target})")


def _creating_public(xdsl_create):
    def create(cls: type[memref.GlobalOp], **kwargs) -> memref.GlobalOp:
        op = xdsl_create.__func__(cls, **kwargs)
        op.properties.setdefault("sym_visibility", StringAttr("public"))
        return op

    return create


_ANY_MEMREF = AnyOf((BaseAttr(MemRefType), BaseAttr(UnrankedMemRefType)))


def install_memref_syntax() -> None:
    """Give the five ops upstream's custom syntax (parsing only) and let
    `memref.rank` take an unranked memref."""
    # Replacing xDSL's methods: pyright holds a class to its declared methods.
    memref.CopyOp.parse = classmethod(_parse_copy)  # pyright: ignore[reportAttributeAccessIssue]
    memref.CastOp.parse = classmethod(_parse_cast)  # pyright: ignore[reportAttributeAccessIssue]
    memref.RankOp.parse = classmethod(_parse_rank)  # pyright: ignore[reportAttributeAccessIssue]
    memref.ExtractAlignedPointerAsIndexOp.parse = classmethod(  # pyright: ignore[reportAttributeAccessIssue]
        _parse_aligned_pointer
    )
    memref.GlobalOp.parse = classmethod(_parse_global)  # pyright: ignore[reportAttributeAccessIssue]
    memref.GlobalOp.create = classmethod(  # pyright: ignore[reportAttributeAccessIssue]
        _creating_public(memref.GlobalOp.create)
    )
    memref.CopyOp.verify_ = _verify_copy  # pyright: ignore[reportAttributeAccessIssue]
    rank = memref.RankOp.get_irdl_definition()
    rank.operands[0] = ("source", OperandDef(_ANY_MEMREF))
