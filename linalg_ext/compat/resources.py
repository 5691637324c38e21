"""The data of `dense_resource<key>` elements (MLIR's resource blobs).

xDSL 0.74 parses and prints a `dense_resource<key> : tensor<4xf32>`
attribute (`DenseResourceAttr`, which holds only the key) and the
`{-# dialect_resources: {builtin: {key: "0x..."}} #-}` section (the blobs,
kept as hex strings by the builtin dialect's `OpAsmDialectInterface`, one
store per process), and prints the blobs of the keys the printed IR still
refers to. Nothing in xDSL reads a blob; this module does, for the
interpreter, bufferization and the lowering to LLVM.

A blob, as MLIR writes it: `0x` then hex digits; the first 4 bytes are the
alignment of the data (a little-endian uint32), the rest the elements,
row-major, little-endian, each in its type's width (`i1` one byte,
`index` 8 bytes). A blob that is missing, not hex, or not exactly the
size of its type raises `ResourceError`, whose message the caller puts
after the op's name.

The store is per process: xDSL renames a key already parsed once in this
process (`blob` becomes `blob_0` on a second parse), so that two files'
blobs of the same name never mix. `install_resource_fixes` (run by
`compat.install()`) makes that renaming consistent within a file (xDSL
0.74 stores each later mention of a taken key under a new name, so the
blob is lost to the attributes), and makes the parser refuse a blob that
is not hex, as upstream does (xDSL checks only the `0x` prefix), and
print one blob a line.
"""

from __future__ import annotations

from collections.abc import Iterable
from math import prod
from typing import TYPE_CHECKING

from xdsl.dialect_interfaces.op_asm import OpAsmDialectInterface
from xdsl.dialects.builtin import (
    AnyFloat,
    BFloat16Type,
    Builtin,
    DenseResourceAttr,
    Float16Type,
    Float32Type,
    Float64Type,
    IndexType,
    IntegerType,
    ShapedType,
    StringAttr,
    TensorType,
)
from xdsl.ir import Attribute, Dialect
from xdsl.parser import AttrParser, Parser
from xdsl.printer import Printer

from linalg_ext.shaped import element_type_of

if TYPE_CHECKING:
    import numpy as np


class ResourceError(ValueError):
    """A `dense_resource` whose blob cannot give its elements."""


def resource_store() -> OpAsmDialectInterface:
    """The builtin dialect's blob store (xDSL's, shared by every context)."""
    store = Builtin.get_interface(OpAsmDialectInterface)
    assert store is not None, "xDSL's builtin dialect keeps the blobs"
    return store


def _little_endian_dtype(element_type: Attribute) -> np.dtype:
    """How one element sits in a blob (bf16: as its 16 raw bits)."""
    # numpy only once a blob is read: parsing and printing start faster.
    import numpy as np

    if isinstance(element_type, IntegerType):
        width = element_type.width.data
        if width == 1:
            return np.dtype("u1")
        if width in (8, 16, 32, 64):
            return np.dtype(f"<i{width // 8}")
    if isinstance(element_type, IndexType):
        return np.dtype("<i8")
    if isinstance(element_type, Float16Type):
        return np.dtype("<f2")
    if isinstance(element_type, BFloat16Type):
        return np.dtype("<u2")
    if isinstance(element_type, Float32Type):
        return np.dtype("<f4")
    if isinstance(element_type, Float64Type):
        return np.dtype("<f8")
    raise ResourceError(f"elements of type {element_type} cannot be read from a blob")


def resource_bytes(attr: DenseResourceAttr) -> bytes:
    """The element bytes of `attr`'s blob (its alignment word dropped),
    checked to be exactly as many as its type needs."""
    key = attr.resource_handle.data
    type_ = attr.type
    assert isinstance(type_, ShapedType)
    blob = resource_store().lookup(key)
    if not blob:
        raise ResourceError(
            f"dense_resource<{key}> has no blob in the file's dialect_resources"
        )
    raw = _hex_bytes(blob)
    if raw is None:
        raise ResourceError(f"the blob of dense_resource<{key}> is not a hex string")
    if len(raw) < 4:
        raise ResourceError(
            f"the blob of dense_resource<{key}> lacks its 4-byte alignment prefix"
        )
    data = raw[4:]
    shape = type_.get_shape()
    if any(extent < 0 for extent in shape):
        raise ResourceError(f"dense_resource<{key}> needs a static shape, not {type_}")
    needed = prod(shape) * _little_endian_dtype(element_type_of(type_)).itemsize
    if len(data) != needed:
        raise ResourceError(
            f"the blob of dense_resource<{key}> holds {len(data)} bytes of "
            f"elements, but {type_} needs {needed}"
        )
    return data


def resource_array(attr: DenseResourceAttr) -> np.ndarray:
    """`attr`'s elements as a numpy array of its shape: integers as signed
    values (i1 as 0 or 1), bf16 widened to float32, other floats in their
    own width."""
    import numpy as np

    type_ = attr.type
    assert isinstance(type_, ShapedType)
    element_type = element_type_of(type_)
    data = resource_bytes(attr)
    elements = np.frombuffer(data, dtype=_little_endian_dtype(element_type))
    if isinstance(element_type, BFloat16Type):
        # A bf16 is the upper half of the float32 with the same value.
        elements = (elements.astype(np.uint32) << 16).view(np.float32)
    elif isinstance(element_type, IntegerType) and element_type.width.data == 1:
        elements = (elements != 0).astype(np.int8)
    elif not isinstance(element_type, AnyFloat):
        elements = elements.astype(np.int64)
    return elements.reshape(type_.get_shape())


def resource_problem(attr: DenseResourceAttr) -> str | None:
    """Why `attr`'s elements cannot be read, or None if they can."""
    try:
        resource_bytes(attr)
    except ResourceError as error:
        return str(error)
    return None


def _hex_bytes(blob: str) -> bytes | None:
    if not blob.startswith("0x"):
        return None
    try:
        return bytes.fromhex(blob[2:])
    except ValueError:
        return None


def parse_resource_handle(parser: Parser) -> str:
    """`<key>` after `dense_resource`, declared in the store so that the
    file's resource section fills it in (xDSL's own parsing of the
    attribute, which a custom op syntax without the type needs too)."""
    parser.parse_punctuation("<")
    # The attribute parser's own handle reading, private in xDSL 0.74.
    key = parser._parse_dialect_resource_handle(  # pyright: ignore[reportPrivateUsage]
        "builtin", resource_store()
    )
    parser.parse_punctuation(">")
    return key


def _checked_parse_resource(
    self: OpAsmDialectInterface,
    key: str,
    val: str,
    _xdsl=OpAsmDialectInterface.parse_resource,
) -> None:
    if _hex_bytes(val) is None:
        raise ValueError(f"expected hex string blob for key '{key}'")
    _xdsl(self, key, val)


def _parse_handle(
    self: AttrParser, dialect_name: str, interface: OpAsmDialectInterface
) -> str:
    """xDSL 0.74's, but remembering what each written key was stored as:
    xDSL's remembers only the stored key, so once a key is taken (by an
    earlier parse in the process) every later mention of it in the file,
    the resource section's included, is stored anew and the blob lands
    under a key no attribute has."""
    key = self.parse_identifier(" for resource handle")
    stored: dict[tuple[str, str], str] = self.__dict__.setdefault("_resource_keys", {})
    if (dialect_name, key) not in stored:
        stored[(dialect_name, key)] = interface.declare_resource(key)
        self.dialect_resources.add((dialect_name, stored[(dialect_name, key)]))
    return stored[(dialect_name, key)]


def _print_metadata(self: Printer, dialects: Iterable[Dialect]) -> None:
    """The `{-# dialect_resources #-}` section of the blobs the printed IR
    referred to, one blob a line as MLIR prints it (xDSL 0.74 writes the
    blobs of a dialect on one line, run together after commas)."""
    stores = {
        d.name: d.get_interface(OpAsmDialectInterface)
        for d in dialects
        if d.has_interface(OpAsmDialectInterface)
    }
    sections: dict[str, dict[str, str]] = {}
    referred = self._dialect_resources  # pyright: ignore[reportPrivateUsage]
    for name, keys in referred.items():
        store = stores.get(name)
        if store is not None and (blobs := store.build_resources(keys)):
            sections[name] = blobs
    if not sections:
        return
    self._print_new_line()  # pyright: ignore[reportPrivateUsage]
    self._print_new_line()  # pyright: ignore[reportPrivateUsage]
    self.print_string("{-#")
    with self.indented():
        self._print_new_line()  # pyright: ignore[reportPrivateUsage]
        self.print_string("dialect_resources: {")
        with self.indented():
            for i, (name, blobs) in enumerate(sections.items()):
                self.print_string("," if i else "")
                self._print_new_line()  # pyright: ignore[reportPrivateUsage]
                self.print_string(f"{name}: {{")
                with self.indented():
                    for j, (key, blob) in enumerate(sorted(blobs.items())):
                        self.print_string("," if j else "")
                        self._print_new_line()  # pyright: ignore[reportPrivateUsage]
                        self.print_string(f'{key}: "{blob}"')
                self._print_new_line()  # pyright: ignore[reportPrivateUsage]
                self.print_string("}")
        self._print_new_line()  # pyright: ignore[reportPrivateUsage]
        self.print_string("}")
    self._print_new_line()  # pyright: ignore[reportPrivateUsage]
    self.print_string("#-}")


def install_resource_fixes() -> None:
    """Refuse a blob that is not hex when parsing it, and let a
    `memref.global` start as a `dense_resource` (upstream's bufferization of
    such a constant; xDSL 0.74 takes only `dense<...>`). Idempotent."""
    from xdsl.dialects import memref
    from xdsl.irdl import PropertyDef
    from xdsl.irdl.constraints import AnyOf, BaseAttr

    AttrParser._parse_dialect_resource_handle = _parse_handle  # pyright: ignore[reportPrivateUsage]
    Printer.print_metadata = _print_metadata
    if OpAsmDialectInterface.parse_resource is not _checked_parse_resource:
        OpAsmDialectInterface.parse_resource = _checked_parse_resource
    properties = memref.GlobalOp.get_irdl_definition().properties
    initial_value = properties["initial_value"]
    if not initial_value.constr.verifies(
        DenseResourceAttr(StringAttr("x"), TensorType(Float32Type(), [1]))
    ):
        properties["initial_value"] = PropertyDef(
            AnyOf((initial_value.constr, BaseAttr(DenseResourceAttr)))
        )
