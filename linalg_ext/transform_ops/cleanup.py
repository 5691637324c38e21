"""ByteIR's `transform.cleanup`: its definition (ByteIR's syntax) and what it
runs on the payload (`cleanup_payload`): the clean-up of tiled IR
(`linalg_ext.tiling.cleanup`: xDSL's canonicalization, our folds of slices,
`affine.min` and `tensor.dim`, dead-code elimination, CSE), ByteIR's
`canonicalize-ext` fold of an addition of zeros (`FoldAddOfZeros`), and, on
an op holding a symbol table (the module), the removal of private symbols
nothing reachable uses (upstream's `symbol-dce`).

ByteIR's op also runs SCCP; xDSL has none, and the constant folding of the
canonicalization covers what tiled IR needs. The interpreter function is in
`annotation_functions`.
"""

from __future__ import annotations

from collections.abc import Iterator

from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    ArrayAttr,
    DictionaryAttr,
    FloatAttr,
    IntegerAttr,
    StringAttr,
    SymbolRefAttr,
)
from xdsl.dialects.linalg.ops import FillOp, GenericOp
from xdsl.ir import Attribute, Block, Operation
from xdsl.ir.affine import AffineMap
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    opt_operand_def,
    opt_result_def,
)
from xdsl.pattern_rewriter import (
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import Rewriter
from xdsl.traits import SymbolTable

from linalg_ext.tiling.cleanup import apply_tiling_cleanup
from linalg_ext.transform_ops.annotations import ANY_HANDLE
from linalg_ext.transforms.dps import is_all_parallel


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


class FoldAddOfZeros(RewritePattern):
    """A `linalg.generic` that only adds its one input to an init filled
    with zeros is its input (ByteIR's `canonicalize-ext` fold): all loops
    parallel, both maps identities, the body one `arith.addf`/`addi` of the
    two block arguments. ByteIR also folds an init that is a bare
    `tensor.empty`, whose elements are undefined; we do not."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: GenericOp, rewriter: PatternRewriter) -> None:
        if len(op.inputs) != 1 or len(op.outputs) != 1 or len(op.results) != 1:
            return
        (value,), (init,) = op.inputs, op.outputs
        if value.type != op.results[0].type or not is_all_parallel(op):
            return
        maps = [m.data for m in op.indexing_maps.data]
        if not all(m == AffineMap.identity(m.num_dims) for m in maps):
            return
        if not _is_zero_fill(init.owner):
            return
        body = list(op.body.block.ops)
        if len(body) != 2 or not isinstance(body[0], arith.AddfOp | arith.AddiOp):
            return
        add, yielded = body
        if set(add.operands) != set(op.body.block.args) or list(yielded.operands) != [
            add.results[0]
        ]:
            return
        rewriter.replace(op, [], [value])


def _is_zero_fill(op: Operation | Block) -> bool:
    if not isinstance(op, FillOp):
        return False
    fill: FillOp = op
    if len(fill.inputs) != 1:
        return False
    scalar = fill.inputs[0].owner
    if not isinstance(scalar, arith.ConstantOp):
        return False
    value = scalar.value
    if isinstance(value, FloatAttr | IntegerAttr):
        return value.value.data == 0
    return False


def _visibility(op: Operation) -> str | None:
    attr = op.properties.get("sym_visibility") or op.attributes.get("sym_visibility")
    return attr.data if isinstance(attr, StringAttr) else None


def _symbol_name(op: Operation) -> str | None:
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


def _used_symbols(op: Operation) -> Iterator[str]:
    """The symbols `op` and the ops nested in it refer to."""
    for nested in op.walk():
        for attr in (*nested.properties.values(), *nested.attributes.values()):
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
    symbols = {name: op for op in ops if (name := _symbol_name(op)) is not None}
    live: set[str] = set()
    worklist = [op for op in ops if _visibility(op) != "private"]
    while worklist:
        for name in _used_symbols(worklist.pop()):
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
    """Clean up inside `root` (`root` itself stays): `FoldAddOfZeros`, then
    the clean-up of tiled IR, then, if `root` holds a symbol table, the
    removal of dead private symbols. Transform ops directly in a symbol
    table (the script being run) are left alone."""
    if root.has_trait(SymbolTable) and root.regions and root.regions[0].blocks:
        children = [op for op in root.regions[0].block.ops if not _is_transform_op(op)]
    else:
        children = [root]
    folder = PatternRewriteWalker(FoldAddOfZeros())
    for child in children:
        for region in child.regions:
            folder.rewrite_region(region)
        apply_tiling_cleanup(child)
    if root.has_trait(SymbolTable):
        remove_dead_symbols(root)
