"""ByteIR's `transform.structured.outline` and `transform.structured.inline`:
their definitions, with ByteIR's syntax, and the payload rewrites behind
them (`outline_ops`, `inline_calls`); the interpreter functions are in
`outlining_functions` (they need xDSL's transform interpreter, which these
definitions, loaded with the dialect, must not import).

    %funcs, %calls = transform.structured.outline %t {func_name = "f"}
        : (!pdl.operation) -> (!pdl.operation, !pdl.operation)
    transform.structured.inline %calls

`outline` moves each target op into a new private `func.func` and puts a
`func.call` of it in the op's place: the function's arguments are the op's
operands, then the values defined above that its regions use (ByteIR
refuses those; here they are passed in), its results the op's. Without
`libcall`, each target gets its own function, `func_name` or, when that
name is taken, the first free `func_name_<n>` (MLIR's `SymbolTable::insert`
renaming). With `libcall`, every call refers to the one function named
`func_name` (the library routine): ByteIR makes it a body-less declaration,
so its output cannot run until linked. Here the function keeps the op as
its body, a reference implementation, and carries `linalg_ext.libcall`
(`LIBCALL_ATTR`): the program still runs, and a backend with the library
drops the body. An existing function of that name is reused when it is a
declaration of the right type (ByteIR's case) or a `linalg_ext.libcall`
function computing the same op; targets that differ from it, or from each
other, are refused (ByteIR would call one routine for different ops).

`inline` replaces each `func.call` target by a copy of its callee's body
(its ops, or for a callee of several blocks an `scf.execute_region` of
them; recursive callees and declarations are refused); a private callee
that nothing refers to any more is then erased (ByteIR erases public
callees too, which removes a module's entry points; we keep those).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Self

from xdsl.dialects import func, scf
from xdsl.dialects.builtin import (
    FunctionType,
    StringAttr,
    UnitAttr,
)
from xdsl.ir import Block, IRNode, Operation, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    ParsePropInAttrDict,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    result_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.traits import IsTerminator, SymbolOpInterface, SymbolTable

from linalg_ext.transform_ops.cleanup import referenced_symbols, symbol_name
from linalg_ext.transform_ops.definitions import (
    ANY_HANDLE,
    PayloadRefused,
    handle_type_or_pdl,
)
from linalg_ext.transforms.module_contents import unique_name
from linalg_ext.verification import op_error

LIBCALL_ATTR = "linalg_ext.libcall"
"""The unit attribute on a function `outline {libcall}` made: its body is
the reference implementation of the library routine `func_name`."""


@irdl_op_definition
class OutlineOp(IRDLOperation):
    """`transform.structured.outline %t {func_name = "f"[, libcall]} :
    (type) -> (type, type)`: move each target op into a private function
    called in its place; results: the functions (each once), the calls
    (ByteIR's `LinalgOutlineOp`, its syntax)."""

    name = "transform.structured.outline"

    target = operand_def(ANY_HANDLE)
    func_name = prop_def(StringAttr)
    libcall = opt_prop_def(UnitAttr)

    functions = result_def(ANY_HANDLE)
    calls = result_def(ANY_HANDLE)

    irdl_options = (ParsePropInAttrDict(),)

    assembly_format = "$target attr-dict `:` functional-type(operands, results)"

    def __init__(self, target: SSAValue, func_name: str, libcall: bool = False):
        super().__init__(
            operands=[target],
            properties={
                "func_name": StringAttr(func_name),
                "libcall": UnitAttr() if libcall else None,
            },
            result_types=[target.type, target.type],
        )

    def verify_(self) -> None:
        if not self.func_name.data:
            op_error(self, "expects a non-empty func_name")


@irdl_op_definition
class InlineOp(IRDLOperation):
    """`transform.structured.inline %calls`: replace each `func.call` of the
    handle by its callee's body (ByteIR's op and syntax: no type written,
    no result)."""

    name = "transform.structured.inline"

    target = operand_def(ANY_HANDLE)

    def __init__(self, target: SSAValue):
        super().__init__(operands=[target])

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        target = parser.parse_unresolved_operand()
        # No type is written: the operand keeps the type its value was
        # defined with.
        op = cls(parser.resolve_operand(target, handle_type_or_pdl(parser, target)))
        op.attributes.update(parser.parse_optional_attr_dict())
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_ssa_value(self.target)
        printer.print_op_attributes(self.attributes)


# --------------------------------------------------------------------------
# Outlining
# --------------------------------------------------------------------------


def _is_inside(op: Operation, value: SSAValue) -> bool:
    """Whether `value` is defined by `op` or in one of its regions."""
    owner = value.owner
    node: IRNode | None = owner if isinstance(owner, Operation) else owner.parent_op()
    return node is not None and op.is_ancestor(node)


def captured_values(op: Operation) -> list[SSAValue]:
    """The values defined above `op` that the ops in its regions use, each
    once, in the order they are first used."""
    found: dict[SSAValue, None] = {}
    for region in op.regions:
        for nested in region.walk():
            for operand in nested.operands:
                if not _is_inside(op, operand):
                    found.setdefault(operand)
    return list(found)


def _enclosing_function(op: Operation) -> func.FuncOp | None:
    """The `func.func` directly in a symbol table that holds `op`."""
    current = op.parent_op()
    while current is not None:
        parent = current.parent_op()
        if (
            isinstance(current, func.FuncOp)
            and parent is not None
            and parent.has_trait(SymbolTable)
        ):
            return current
        current = parent
    return None


def symbol_names(table: Operation) -> set[str]:
    """The names of the symbols directly in the symbol table `table`."""
    ops = table.regions[0].block.ops
    return {name for op in ops if (name := symbol_name(op)) is not None}


def _outline_refusal(op: Operation) -> str | None:
    """Why `op` cannot become a call, or None."""
    if op.has_trait(IsTerminator) or op.successors:
        return f"cannot outline {op.name}: it is a terminator"
    if op.has_trait(SymbolOpInterface) or op.has_trait(SymbolTable):
        return f"cannot outline {op.name}: it defines a symbol"
    if _enclosing_function(op) is None:
        return f"cannot outline {op.name}: it is not inside a func.func"
    return None


def _symbol_table(op: Operation) -> Operation:
    """The symbol table the function enclosing `op` is in (`op` has one:
    `_outline_refusal` checked it)."""
    enclosing = _enclosing_function(op)
    assert enclosing is not None
    table = enclosing.parent_op()
    assert table is not None
    return table


def _new_function(op: Operation, name: str, libcall: bool) -> func.FuncOp:
    """A private function whose body is a copy of `op` on its arguments
    (`op`'s operands, then the values defined above it that it uses)."""
    arguments = [*op.operands, *captured_values(op)]
    function = func.FuncOp(
        name,
        FunctionType.from_lists([a.type for a in arguments], op.result_types),
        visibility="private",
    )
    block = function.body.block
    for argument, value in zip(block.args, arguments, strict=True):
        argument.name_hint = value.name_hint
    mapping: dict[SSAValue, SSAValue] = dict(zip(arguments, block.args, strict=True))
    copy = op.clone(value_mapper=mapping)
    block.add_ops([copy, func.ReturnOp(*copy.results)])
    if libcall:
        function.attributes[LIBCALL_ATTR] = UnitAttr()
    return function


def _computed_op(function: func.FuncOp) -> Operation | None:
    """The op a function made by `_new_function` computes: the one op of
    its body before a `func.return` of its results."""
    if len(function.body.blocks) != 1:
        return None
    ops = list(function.body.block.ops)
    if (
        len(ops) != 2
        or not isinstance(ops[1], func.ReturnOp)
        or tuple(ops[1].operands) != tuple(ops[0].results)
    ):
        return None
    return ops[0]


def _same_computation(first: func.FuncOp, second: func.FuncOp) -> bool:
    """Whether two functions of the `_new_function` form compute the same
    op (same name, attributes, regions) on their arguments."""
    if first.function_type != second.function_type:
        return False
    first_op, second_op = _computed_op(first), _computed_op(second)
    if first_op is None or second_op is None:
        return False
    first_block, second_block = first.body.block, second.body.block
    context: dict[IRNode | SSAValue, IRNode | SSAValue] = {first_block: second_block}
    context.update(zip(first_block.args, second_block.args, strict=True))
    return first_op.is_structurally_equivalent(second_op, context)


def _library_refusal(
    existing: Operation, candidate: func.FuncOp, name: str
) -> str | None:
    """Why the existing symbol `name` cannot be the library routine of the
    function `candidate` the target would become: it must be a declaration
    of its type or a `linalg_ext.libcall` function computing the same op.
    None if it can."""
    if not isinstance(existing, func.FuncOp):
        return f"@{name} is a {existing.name}, not a func.func"
    if existing.function_type != candidate.function_type:
        return (
            f"@{name} has type {existing.function_type}, the target needs "
            f"{candidate.function_type}"
        )
    if existing.is_declaration:
        return None
    if LIBCALL_ATTR not in existing.attributes:
        return (
            f"@{name} is a function with a body and no {LIBCALL_ATTR} "
            "(a library function is a declaration or a libcall outline)"
        )
    if not _same_computation(candidate, existing):
        return f"@{name} computes something else"
    return None


@dataclass
class Outlined:
    """What `outline_ops` made: the functions (each once, in order) and
    one call per target."""

    functions: list[func.FuncOp] = field(default_factory=list[func.FuncOp])
    calls: list[func.CallOp] = field(default_factory=list[func.CallOp])


def _check_targets(targets: Sequence[Operation], name: str, libcall: bool) -> None:
    """Everything `outline_ops` refuses, before anything changes."""
    for target in targets:
        reason = _outline_refusal(target)
        if reason is not None:
            raise PayloadRefused(reason, target)
        for other in targets:
            if other is not target and other.is_ancestor(target):
                raise PayloadRefused(
                    f"cannot outline {target.name}: it is inside another target, "
                    f"a {other.name}",
                    target,
                )
    if not libcall:
        return
    # Per symbol table, the routine is the existing function or else the
    # one the first target becomes: every target must compute it.
    routines: dict[Operation, tuple[Operation, Operation | None]] = {}
    for target in targets:
        table = _symbol_table(target)
        candidate = _new_function(target, name, libcall)
        if table not in routines:
            existing = SymbolTable.lookup_symbol(table, name)
            routines[table] = (
                (existing, None) if existing is not None else (candidate, target)
            )
        routine, first = routines[table]
        if routine is candidate:
            continue
        reason = _library_refusal(routine, candidate, name)
        if reason is not None and first is not None:
            reason = (
                f"this {target.name} computes something else than the first "
                f"target, a {first.name}"
            )
        if reason is not None:
            raise PayloadRefused(f"cannot call library @{name}: {reason}", target)


def outline_ops(targets: Sequence[Operation], name: str, libcall: bool) -> Outlined:
    """Replace each of `targets` (each once) by a call of a private function
    holding it; with `libcall`, all call the one function `name`, reused if
    it exists. Raises `PayloadRefused`, with the IR unchanged, when a
    target cannot be outlined."""
    targets = list(dict.fromkeys(targets))
    _check_targets(targets, name, libcall)
    outlined = Outlined()
    for target in targets:
        enclosing = _enclosing_function(target)
        assert enclosing is not None
        table = enclosing.parent_op()
        assert table is not None
        function: Operation | None = None
        if libcall:
            function = SymbolTable.lookup_symbol(table, name)
        if function is None:
            chosen = name if libcall else unique_name(name, symbol_names(table))
            function = _new_function(target, chosen, libcall)
            Rewriter.insert_op(function, InsertPoint.before(enclosing))
        assert isinstance(function, func.FuncOp)
        call = func.CallOp(
            function.sym_name.data,
            [*target.operands, *captured_values(target)],
            target.result_types,
        )
        Rewriter.replace_op(target, call)
        if function not in outlined.functions:
            outlined.functions.append(function)
        outlined.calls.append(call)
    return outlined


# --------------------------------------------------------------------------
# Inlining
# --------------------------------------------------------------------------


def _callee(call: func.CallOp) -> func.FuncOp:
    callee = SymbolTable.lookup_symbol(call, call.callee)
    name = call.callee.string_value()
    if callee is None:
        raise PayloadRefused(f"cannot inline: @{name} is not defined", call)
    if not isinstance(callee, func.FuncOp):
        raise PayloadRefused(
            f"cannot inline: @{name} is a {callee.name}, not a func.func", call
        )
    return callee


def _is_recursive(callee: func.FuncOp) -> bool:
    """Whether `callee` calls itself, directly or through other functions
    of its symbol table."""
    seen: set[str] = set()
    worklist: list[func.FuncOp] = [callee]
    while worklist:
        current = worklist.pop()
        for nested in current.body.walk():
            if not isinstance(nested, func.CallOp):
                continue
            name = nested.callee.string_value()
            if name == callee.sym_name.data:
                return True
            if name in seen:
                continue
            seen.add(name)
            found = SymbolTable.lookup_symbol(nested, nested.callee)
            if isinstance(found, func.FuncOp):
                worklist.append(found)
    return False


def _inline_refusal(callee: func.FuncOp) -> str | None:
    name = callee.sym_name.data
    if callee.is_declaration:
        return f"cannot inline @{name}: it is a declaration (no body)"
    if _is_recursive(callee):
        return f"cannot inline @{name}: it is recursive"
    if len(callee.body.blocks) == 1 and not isinstance(
        callee.body.block.last_op, func.ReturnOp
    ):
        return f"cannot inline @{name}: its body does not end with func.return"
    return None


def _inline_one(call: func.CallOp, callee: func.FuncOp) -> None:
    """Replace `call` by a copy of `callee`'s body: its ops, for a single
    block; else an `scf.execute_region` holding its blocks, each
    `func.return` an `scf.yield` (the blocks stay blocks wherever the call
    is, a loop body included, which splitting the caller's block, as
    upstream's inliner does, would not allow)."""
    if len(callee.body.blocks) > 1:
        region = callee.body.clone()
        entry = region.blocks[0]
        for argument, value in zip(entry.args, call.arguments, strict=True):
            argument.replace_all_uses_with(value)
        for argument in reversed(entry.args):
            entry.erase_arg(argument)
        for block in region.blocks:
            returned = block.last_op
            if isinstance(returned, func.ReturnOp):
                Rewriter.replace_op(returned, scf.YieldOp(*returned.arguments))
        Rewriter.replace_op(call, scf.ExecuteRegionOp(call.result_types, region))
        return
    block: Block = callee.body.block
    mapping: dict[SSAValue, SSAValue] = dict(
        zip(block.args, call.arguments, strict=True)
    )
    returned = block.last_op
    assert isinstance(returned, func.ReturnOp)
    copies = [op.clone(value_mapper=mapping) for op in block.ops if op is not returned]
    Rewriter.insert_op(copies, InsertPoint.before(call))
    for result, value in zip(call.res, returned.arguments, strict=True):
        result.replace_all_uses_with(mapping.get(value, value))
    Rewriter.erase_op(call)


def inline_calls(calls: Sequence[Operation]) -> list[str]:
    """Replace each of `calls` (`func.call`s, each once) by a copy of its
    callee's body, then erase the private callees nothing refers to any
    more; returns their names. Raises `PayloadRefused`, with the IR
    unchanged, when a call cannot be inlined."""
    calls = list(dict.fromkeys(calls))
    callees: list[func.FuncOp] = []
    for call in calls:
        if not isinstance(call, func.CallOp):
            raise PayloadRefused(f"expects func.call targets, not {call.name}", call)
        callee = _callee(call)
        reason = _inline_refusal(callee)
        if reason is not None:
            raise PayloadRefused(reason, call)
        callees.append(callee)
    for call, callee in zip(calls, callees, strict=True):
        assert isinstance(call, func.CallOp)
        _inline_one(call, callee)
    erased: list[str] = []
    for callee in dict.fromkeys(callees):
        table = callee.parent_op()
        if table is None or callee.sym_visibility != StringAttr("private"):
            continue
        name = callee.sym_name.data
        if not any(
            name in referenced_symbols(op)
            for op in table.regions[0].block.ops
            if op is not callee
        ):
            Rewriter.erase_op(callee)
            erased.append(name)
    return erased


TRANSFORM_OUTLINING_OPS: tuple[type[IRDLOperation], ...] = (OutlineOp, InlineOp)
"""The ops of this file, for `TRANSFORM_OPS`."""
