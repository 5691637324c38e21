"""Passes that must leave the module unchanged when they fail work on a
clone; `replace_module_contents` then moves the clone's ops into the module."""

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
