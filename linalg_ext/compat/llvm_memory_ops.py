"""`llvm` dialect ops for memory (and their translations) xDSL 0.74 lacks,
used by `finalize-memref-to-llvm`. See `compat/llvm_ops.py` for the scalar
ones and `compat/llvm_translation.py` for how translations are registered.

- `llvm.intr.memcpy` (upstream's op, printed in the generic form as upstream
  prints it): `"llvm.intr.memcpy"(%dst, %src, %len) <{isVolatile = false}>`;
  translated to a call of `llvm.memcpy.p0.p0.i64`.

And one correction of xDSL's module-level translation of `llvm.mlir.global`
(`install_global_translation`, applied when this module is imported, which
`compat.install()` does): xDSL ignores the `alignment`, gives a global
without a value no initializer (an external declaration, whatever its
linkage), and builds the initializer from a flat list of values, which
only fits a one-dimensional array type; and it writes `external` before
the initializer of a public definition, which LLVM rejects (the keyword
marks a declaration). Ours sets the alignment, gives a non-external global
without a value a zero initializer (upstream's is `undef`; zero is one of
its values, and deterministic), builds nested arrays from a dense attribute
of any shape (a splat repeated, i1 true as 1), and writes a public
definition without the keyword.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from llvmlite import ir
from xdsl.dialects import llvm
from xdsl.dialects.builtin import (
    BoolAttr,
    DenseIntOrFPElementsAttr,
    DenseResourceAttr,
    FloatAttr,
    IntegerAttr,
    IntegerType,
    StringAttr,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import IRDLOperation, irdl_op_definition, operand_def, prop_def

from linalg_ext.compat.llvm_translation import llvm_type_of, translates


@irdl_op_definition
class MemcpyOp(IRDLOperation):
    """Copy `len` bytes from `src` to `dst`; the two must not overlap.

    See external [documentation](https://mlir.llvm.org/docs/Dialects/LLVM/#llvmintrmemcpy-llvmmemcpyop).
    """

    name = "llvm.intr.memcpy"

    dst = operand_def(llvm.LLVMPointerType)
    src = operand_def(llvm.LLVMPointerType)
    len = operand_def(IntegerType)
    isVolatile = prop_def(BoolAttr)

    def __init__(
        self,
        dst: SSAValue | Operation,
        src: SSAValue | Operation,
        length: SSAValue | Operation,
        is_volatile: bool = False,
    ):
        super().__init__(
            operands=[dst, src, length],
            properties={"isVolatile": BoolAttr.from_bool(is_volatile)},
        )


LLVM_MEMORY_OPS: tuple[type[Operation], ...] = (MemcpyOp,)
"""Every op defined here, in the order `compat.install()` appends them."""


@translates(MemcpyOp)
def _translate_memcpy(
    op: Operation, builder: ir.IRBuilder, values: dict[SSAValue, ir.Value]
) -> None:
    assert isinstance(op, MemcpyOp)
    length = values[op.len]
    length_type = llvm_type_of(length)
    assert isinstance(length_type, ir.IntType)
    pointer = ir.PointerType()
    name = f"llvm.memcpy.p0.p0.i{length_type.width}"
    try:
        intrinsic = builder.module.get_global(name)
    except KeyError:
        intrinsic = ir.Function(
            builder.module,
            ir.FunctionType(
                ir.VoidType(), [pointer, pointer, length_type, ir.IntType(1)]
            ),
            name=name,
        )
    volatile = ir.Constant(ir.IntType(1), op.isVolatile.value.data != 0)
    builder.call(intrinsic, [values[op.dst], values[op.src], length, volatile])


# --------------------------------------------------------------------------
# llvm.mlir.global


def _element_constant(type_: ir.Type, value: Any) -> ir.Constant:
    if isinstance(type_, ir.IntType):
        # i1 true may be stored as -1; LLVM wants the value in the type's
        # range, unsigned or signed alike.
        return ir.Constant(type_, int(value) & ((1 << type_.width) - 1))
    return ir.Constant(type_, float(value))


def _nested_constant(type_: ir.Type, values: Sequence[Any]) -> ir.Constant:
    """`values` (row-major) as a constant of `type_`: nested arrays of
    scalars, of any depth."""
    if not isinstance(type_, ir.ArrayType):
        (value,) = values
        return _element_constant(type_, value)
    count = type_.count
    step = len(values) // count if count else 0
    return ir.Constant(
        type_,
        [
            _nested_constant(type_.element, values[i * step : (i + 1) * step])
            for i in range(count)
        ],
    )


def _scalar_count(type_: ir.Type) -> int:
    count = 1
    while isinstance(type_, ir.ArrayType):
        count *= type_.count
        type_ = type_.element
    return count


def global_initializer(global_type: ir.Type, value: Attribute) -> ir.Constant:
    """The LLVM constant a global of `global_type` starts as, from its
    `value` attribute (a dense attribute of as many elements as the type has
    scalars, whatever its shape; a splat is repeated; or a
    `dense_resource`)."""
    if isinstance(value, DenseIntOrFPElementsAttr):
        values = list(value.get_values())
        count = _scalar_count(global_type)
        if len(values) == 1 and count != 1:
            values *= count
        return _nested_constant(global_type, values)
    if isinstance(value, IntegerAttr | FloatAttr):
        return _element_constant(global_type, value.value.data)
    if isinstance(value, DenseResourceAttr):
        # The blob's elements (compat/resources.py); llvmlite writes a
        # float constant from its double value, exact for f16/bf16 too.
        from linalg_ext.compat.resources import resource_array

        return _nested_constant(global_type, resource_array(value).ravel().tolist())
    raise NotImplementedError(f"global initializer {value} is not supported")


def _translate_global(op: llvm.GlobalOp, llvm_module: ir.Module) -> None:
    from xdsl.backend.llvm.convert_type import convert_type

    type_ = convert_type(op.global_type)
    variable = ir.GlobalVariable(
        llvm_module, type_, name=op.sym_name.data, addrspace=op.addr_space.value.data
    )
    linkage = op.linkage.linkage.data
    # LLVM spells a definition of external linkage without the keyword
    # (`external` marks a declaration).
    if linkage != "external" or op.value is None:
        variable.linkage = linkage
    if op.constant is not None:
        variable.global_constant = True
    # llvmlite is untyped and its GlobalVariable sets `align` and
    # `initializer` only to None, which pyright takes for their types: the
    # four assignments below carry an ignore for that.
    if op.alignment is not None:
        variable.align = op.alignment.value.data  # pyright: ignore[reportAttributeAccessIssue]
    if isinstance(op.value, StringAttr):
        raw = op.value.data.encode("utf-8")
        variable.initializer = ir.Constant(  # pyright: ignore[reportAttributeAccessIssue]
            ir.ArrayType(ir.IntType(8), len(raw)), bytearray(raw)
        )
    elif op.value is not None:
        variable.initializer = global_initializer(type_, op.value)  # pyright: ignore[reportAttributeAccessIssue]
    elif linkage not in ("external", "extern_weak"):
        variable.initializer = ir.Constant(type_, None)  # pyright: ignore[reportAttributeAccessIssue]


_global_translation_installed = False


def install_global_translation() -> None:
    """Make xDSL's `convert_module` translate `llvm.mlir.global` with
    `_translate_global` (idempotent). `convert_module` calls the module
    function `_convert_global` by name, so replacing that name is enough."""
    global _global_translation_installed
    if _global_translation_installed:
        return
    _global_translation_installed = True
    import xdsl.backend.llvm.convert as convert

    convert._convert_global = _translate_global  # pyright: ignore[reportPrivateUsage]


install_global_translation()
