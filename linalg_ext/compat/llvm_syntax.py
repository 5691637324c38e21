"""`llvm.getelementptr`'s no-wrap flags as MLIR 22 prints them.

Since LLVM 19 a GEP carries no-wrap flags, and `mlir-opt-22` prints them
before the base pointer, joined by `|`:

    %p = llvm.getelementptr inbounds|nuw %base[%i] : (!llvm.ptr, i64) -> !llvm.ptr, f32

`finalize-memref-to-llvm` emits `inbounds|nuw` for every element address.
xDSL 0.74 reads only a lone `inbounds`. The parser now reads any `|`-joined
combination of `inbounds`, `nusw` and `nuw` into the op's `noWrapFlags`
property (nusw 1, inbounds 3, nuw 4, as upstream numbers them).

xDSL 0.74 also marks an inbounds GEP with an `inbounds` unit property of its
own, which its printer and translation read and upstream does not have (its
generic form carries `noWrapFlags` only). So that both of upstream's forms
read as the same op, every GEP created with the inbounds bits in
`noWrapFlags` (by either parser, or by a clone) gets the `inbounds` unit
property too. xDSL's printer, which upstream reads, is unchanged: its custom
form shows `inbounds` only (the generic form keeps every flag), and its
translation to LLVM IR drops `nuw`, which only forgoes an optimization.
"""

from __future__ import annotations

from xdsl.dialects import llvm
from xdsl.dialects.builtin import IntegerAttr, UnitAttr
from xdsl.parser import Parser

GEP_NO_WRAP_FLAGS = {"nusw": 1, "inbounds": 3, "nuw": 4}
"""Each keyword's bits in `noWrapFlags` (`inbounds` implies `nusw`)."""


def _optional_flag(parser: Parser) -> str | None:
    for keyword in GEP_NO_WRAP_FLAGS:
        if parser.parse_optional_keyword(keyword) is not None:
            return keyword
    return None


def parse_gep_flags(parser: Parser) -> int:
    """`(flag (`|` flag)*)?` before the base pointer, as bits."""
    flags = 0
    keyword = _optional_flag(parser)
    while keyword is not None:
        flags |= GEP_NO_WRAP_FLAGS[keyword]
        if parser.parse_optional_punctuation("|") is None:
            break
        keyword = parser.expect(
            lambda: _optional_flag(parser),
            "expected 'inbounds', 'nusw' or 'nuw' after '|'",
        )
    return flags


def _mark_inbounds(op: llvm.GEPOp) -> None:
    flags = op.properties.get("noWrapFlags")
    inbounds = GEP_NO_WRAP_FLAGS["inbounds"]
    if isinstance(flags, IntegerAttr) and flags.value.data & inbounds == inbounds:
        op.properties.setdefault("inbounds", UnitAttr())


def _creating_marked(xdsl_create):
    def create(cls: type[llvm.GEPOp], **kwargs) -> llvm.GEPOp:
        op = xdsl_create.__func__(cls, **kwargs)
        _mark_inbounds(op)
        return op

    return create


def _with_flags(xdsl_parse):
    def parse(cls: type[llvm.GEPOp], parser: Parser) -> llvm.GEPOp:
        flags = parse_gep_flags(parser)
        op = xdsl_parse.__func__(cls, parser)
        op.properties["noWrapFlags"] = IntegerAttr(flags, 32)
        _mark_inbounds(op)
        return op

    return parse


def install_llvm_syntax() -> None:
    # Replacing xDSL's methods: pyright holds a class to its declared methods.
    llvm.GEPOp.parse = classmethod(_with_flags(llvm.GEPOp.parse))  # pyright: ignore[reportAttributeAccessIssue]
    llvm.GEPOp.create = classmethod(  # pyright: ignore[reportAttributeAccessIssue]
        _creating_marked(llvm.GEPOp.create)
    )
