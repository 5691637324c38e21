"""A module's top-level ops: passes that must leave the module unchanged
when they fail work on a clone, and `replace_module_contents` then moves the
clone's ops into the module; `unique_name` picks a free name for a new
symbol."""

from __future__ import annotations

from xdsl.dialects.builtin import ModuleOp
from xdsl.rewriter import Rewriter


def replace_module_contents(module: ModuleOp, replacement: ModuleOp) -> None:
    """Make `replacement`'s top-level ops `module`'s own (moved, not copied),
    erasing what `module` held."""
    for old in list(module.body.block.ops):
        Rewriter.erase_op(old, safe_erase=False)
    for new in list(replacement.body.block.ops):
        new.detach()
        module.body.block.add_op(new)


def unique_name(base: str, taken: set[str]) -> str:
    """`base`, or the first `base_<n>` (n = 0, 1, ...) not in `taken` (MLIR's
    `SymbolTable::insert` renaming)."""
    if base not in taken:
        return base
    counter = 0
    while f"{base}_{counter}" in taken:
        counter += 1
    return f"{base}_{counter}"
