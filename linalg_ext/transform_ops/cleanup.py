"""ByteIR's `transform.cleanup`: its definition (ByteIR's syntax) and what it
runs on the payload (`cleanup_payload`): the clean-up of tiled IR
(`linalg_ext.tiling.cleanup`: xDSL's canonicalization, our folds of slices,
`affine.min` and `tensor.dim`, dead-code elimination, CSE), ByteIR's
`canonicalize-ext` fold of an addition of zeros (`FoldGenericOp`, the pattern
`canonicalize-ext` runs), and, on an op holding a symbol table (the module),
the removal of private symbols nothing reachable uses (upstream's
`symbol-dce`).

ByteIR's op also runs SCCP; xDSL has none, and the constant folding of the
canonicalization covers what tiled IR needs. The interpreter function is in
`annotation_functions`.
"""

from __future__ import annotations

from collections.abc import Iterator

from xdsl.dialects.builtin import (
    ArrayAttr,
    DictionaryAttr,
    StringAttr,
    SymbolRefAttr,
)
from xdsl.ir import Attribute, Operation, Region
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    opt_operand_def,
    opt_result_def,
)
from xdsl.pattern_rewriter import PatternRewriteWalker
from xdsl.rewriter import Rewriter
from xdsl.traits import SymbolTable

from linalg_ext.canonicalization.patterns import FoldGenericOp
from linalg_ext.tiling.cleanup import apply_tiling_cleanup
from linalg_ext.transform_ops.definitions import ANY_HANDLE


@irdl_op_definition
class CleanupOp(IRDLOperation):
    """`transform.cleanup` (`cleanup` in a ByteIR sequence): clean up the
    payload root, or each op of the optional target handle; the optional
    result holds the cleaned-up ops (ByteIR's op and syntax)."""

    name = "transform.cleanup"

    target = opt_operand_def(ANY_HANDLE)
    results_ = opt_result_def(ANY_HANDLE)

    assembly_format = (
        "(`(` $target^ `:` type($target) `)`)? attr-dict (`->` type($results_)^)?"
    )


def _visibility(op: Operation) -> str | None:
    attr = op.properties.get("sym_visibility") or op.attributes.get("sym_visibility")
    return attr.data if isinstance(attr, StringAttr) else None


def symbol_name(op: Operation) -> str | None:
    """The name of the symbol `op` defines (its `sym_name`), or None."""
    attr = op.properties.get("sym_name") or op.attributes.get("sym_name")
    return attr.data if isinstance(attr, StringAttr) else None


def _references(attr: Attribute) -> Iterator[str]:
    if isinstance(attr, SymbolRefAttr):
        yield attr.root_reference.data
    elif isinstance(attr, ArrayAttr):
        for element in attr.data:
            yield from _references(element)
    elif isinstance(attr, DictionaryAttr):
        for element in attr.data.values():
            yield from _references(element)


def referenced_symbols(root: Operation | Region) -> Iterator[str]:
    """The symbols the ops in `root` (itself included) refer to: the root
    names of the symbol references in their properties and attributes."""
    for op in root.walk():
        for attr in (*op.properties.values(), *op.attributes.values()):
            yield from _references(attr)


def remove_dead_symbols(table: Operation) -> list[str]:
    """Erase the private symbols of the symbol table `table` (its body's
    ops) that nothing reachable refers to, reachable being what public
    symbols and the ops that are not symbols refer to, transitively
    (upstream's `symbol-dce`, without descending into nested symbol
    tables). Returns the names erased."""
    if not table.regions or not table.regions[0].blocks:
        return []
    ops = list(table.regions[0].block.ops)
    symbols = {name: op for op in ops if (name := symbol_name(op)) is not None}
    live: set[str] = set()
    worklist = [op for op in ops if _visibility(op) != "private"]
    while worklist:
        for name in referenced_symbols(worklist.pop()):
            if name in symbols and name not in live:
                live.add(name)
                worklist.append(symbols[name])
    dead = [
        name
        for name, op in symbols.items()
        if name not in live and _visibility(op) == "private"
    ]
    for name in dead:
        Rewriter.erase_op(symbols[name], safe_erase=False)
    return dead


def _is_transform_op(op: Operation) -> bool:
    return op.name.startswith("transform.")


def cleanup_payload(root: Operation) -> None:
    """Clean up inside `root` (`root` itself stays): `FoldGenericOp`, then
    the clean-up of tiled IR, then, if `root` holds a symbol table, the
    removal of dead private symbols. Transform ops directly in a symbol
    table (the script being run) are left alone."""
    if root.has_trait(SymbolTable) and root.regions and root.regions[0].blocks:
        children = [op for op in root.regions[0].block.ops if not _is_transform_op(op)]
    else:
        children = [root]
    folder = PatternRewriteWalker(FoldGenericOp())
    for child in children:
        for region in child.regions:
            folder.rewrite_region(region)
        apply_tiling_cleanup(child)
    if root.has_trait(SymbolTable):
        remove_dead_symbols(root)
