"""Translation to LLVM IR (llvmlite) of the `llvm` ops xDSL 0.74 cannot translate.

xDSL's `xdsl.backend.llvm.convert_module` dispatches every op through one
`match` in `convert_op`, with no extension point. `install_llvm_translation`
puts a dispatcher in front of it: an op whose class has a translation
registered here (`@translates(OpClass)`) is translated by it, every other op
by xDSL. The ops themselves (those xDSL lacks) are defined next to their
translation in `compat/llvm_ops.py` (scalar), `compat/llvm_value_ops.py`
(values: poison, intrinsics) and `compat/llvm_memory_ops.py` (memory), and
appended to xDSL's `llvm` dialect by `compat.install()`.

This module is the registry those op modules register into: it imports
none of them, so the dependency goes one way. A translation is registered
when its op module is imported; `compat.install()` imports every op module
(to add the ops to the dialect) and installs the dispatcher, and ops are
only translated after that.

A translation receives the op, llvmlite's `IRBuilder` positioned where the op
goes, and the map from xDSL values to llvmlite values, which it extends with
the op's results.
"""

from __future__ import annotations

from collections.abc import Callable

from llvmlite import ir
from xdsl.ir import Block, Operation, SSAValue

Translation = Callable[[Operation, ir.IRBuilder, dict[SSAValue, ir.Value]], None]

TRANSLATIONS: dict[type[Operation], Translation] = {}
"""Op class -> its translation; looked up by the class's MRO."""


def translates(*op_classes: type[Operation]) -> Callable[[Translation], Translation]:
    """Register the decorated function as the translation of `op_classes`."""

    def register(function: Translation) -> Translation:
        for op_class in op_classes:
            TRANSLATIONS[op_class] = function
        return function

    return register


def llvm_type_of(value: ir.Value) -> ir.Type:
    """The LLVM type of a translated value. llvmlite (untyped) sets `type` in
    the constructors of its constants and named values (instructions,
    arguments, globals), not on `ir.Value`, the type of the value map."""
    if not isinstance(value, ir.Constant | ir.NamedValue):
        raise TypeError(f"no LLVM type known for {value!r}")
    return value.type


def translation_for(op: Operation) -> Translation | None:
    for klass in type(op).__mro__:
        if klass in TRANSLATIONS:
            return TRANSLATIONS[klass]
    return None


_installed = False


def install_llvm_translation() -> None:
    """Route xDSL's op translation through `TRANSLATIONS` first (idempotent).
    Translations registered later (an op module imported afterwards) are
    found too: the dispatcher looks them up when an op is translated."""
    global _installed
    if _installed:
        return
    _installed = True

    import xdsl.backend.llvm.convert as convert_module
    import xdsl.backend.llvm.convert_op as convert_op_module

    xdsl_convert_op = convert_op_module.convert_op

    def convert_op(
        op: Operation,
        builder: ir.IRBuilder,
        val_map: dict[SSAValue, ir.Value],
        block_map: dict[Block, ir.Block] | None = None,
    ) -> None:
        translation = translation_for(op)
        if translation is not None:
            translation(op, builder, val_map)
        else:
            xdsl_convert_op(op, builder, val_map, block_map)

    convert_op_module.convert_op = convert_op
    # convert.py imported the function by name (so, for pyright, privately).
    convert_module.convert_op = convert_op  # pyright: ignore[reportPrivateImportUsage]
