"""One-Shot Bufferize's analysis: which operands may reuse their buffer.

Every tensor value starts in its own *alias set*. Ops are visited one by one
(by default bottom-up: the last op of a function first, an op before the ops
of its regions) and each tensor operand is decided:

* **in place** (the op's aliasing results share the operand's buffer): the
  alias sets of the operand and of those results are merged;
* **out of place** (the operand gets a copy) when in place would either
  write a buffer that must not be written (a constant, a read-only function
  argument), or cause a *read-after-write conflict*: some read of an alias
  would, once everything shares buffers, see a write that in the tensor
  program happens after the value it reads was defined.

A read `r` of a value whose *definitions* (the last writes along its reverse
use-def chain) are `D` conflicts with a write `w` to an alias unless `r`
happens before `w`, or `w` happens before every definition in `D`, or `w` is
the definition itself, or one of a few structural exceptions holds (the
two operands of an elementwise op that are the same buffer; an
`extract_slice`/`insert_slice` pair on the same subset; op-specific rules).
Happens-before is op dominance, except when a loop body holds both the read
and the write but not the definition: a later iteration's read then sees an
earlier iteration's write.

Operands that must be in place are decided first; if they already conflict
(or write a read-only buffer), the input is refused, as upstream does
(`conflicts.check_consistency`).

After the decisions, *equivalence sets* (values that are the very same
buffer) are computed from in-place operands whose results are equivalent.
With `bufferize-function-boundaries`, functions are analysed callees first
(`ordered_functions`), and each records which arguments it reads and writes
and which results are its arguments, so calls are analysed precisely.

This module is the driver: the order ops and functions are visited in, the
decisions, equivalence sets, function facts and the `test-analysis-only`
annotations. The state it fills and queries is `analysis_state.py`; the
conflict rule is `conflicts.py`.
"""

from __future__ import annotations

from xdsl.dialects import func
from xdsl.dialects.builtin import (
    ArrayAttr,
    DictionaryAttr,
    IntegerAttr,
    ModuleOp,
    StringAttr,
    i64,
)
from xdsl.ir import Operation

from linalg_ext.bufferization.analysis_state import AnalysisState, post_order
from linalg_ext.bufferization.conflicts import (
    check_consistency,
    would_conflict,
    would_write_read_only,
)
from linalg_ext.bufferization.interface import (
    BufferizationError,
    BufferRelation,
    FunctionFacts,
    OpOperand,
    has_tensor_semantics,
    is_tensor,
    tensor_operands,
)
from linalg_ext.bufferization.options import BufferizationOptions

INPLACE_ATTR = "__inplace_operands_attr__"
ACCESS_ATTR = "bufferization.access"
EQUIVALENT_ARGS_ATTR = "__equivalent_func_args__"


def analyze_operand(state: AnalysisState, operand: OpOperand) -> None:
    """Decide `operand`: in place unless that would write a read-only buffer
    or cause a conflict (with `copy-before-write`: unless it is written)."""
    if operand in state.decided:
        return
    if state.options.copy_before_write:
        conflict = state.writes(operand)
    else:
        model = state.model(operand.op)
        conflict = (
            would_write_read_only(state, operand)
            or would_conflict(state, operand)
            or (model is not None and model.must_not_share(operand, state))
        )
    if conflict:
        state.bufferize_out_of_place(operand)
    else:
        state.bufferize_in_place(operand)


def analyze_ops(state: AnalysisState, ops: list[Operation]) -> None:
    """Decide every tensor operand of `ops` (given in program order): first
    those that must be in place, then, once no conflict among them is
    found, the others in the configured order."""
    for op in ops:
        model = state.model(op)
        if model is None:
            continue
        for operand in tensor_operands(op):
            if model.must_bufferize_in_place(operand, state):
                state.bufferize_in_place(operand)
    if not state.options.copy_before_write:
        # (With copy-before-write there is no analysis to be consistent
        # with: every write goes to a copy.)
        check_consistency(state, ops)
    if state.options.analysis_heuristic == "bottom-up":
        ops = ops[::-1]
    for op in ops:
        if state.model(op) is None:
            continue
        for operand in tensor_operands(op):
            analyze_operand(state, operand)


def equivalence_analysis(state: AnalysisState, root: Operation) -> None:
    """Merge the equivalence sets of in-place operands and their
    equivalent results, nested ops first."""
    for op in post_order(root):
        if state.model(op) is None:
            continue
        for result in op.results:
            if not is_tensor(result):
                continue
            aliases = state.aliasing_operands(result)
            if not aliases:
                continue
            first = aliases[0].operand.value
            all_equivalent = True
            for alias in aliases:
                equivalent = alias.relation is BufferRelation.EQUIVALENT
                in_place = state.is_in_place(alias.operand)
                if equivalent and in_place and alias.definite:
                    state.equivalences.union(result, alias.operand.value)
                    all_equivalent = False
                    break
                if not (equivalent and in_place) or not state.are_equivalent(
                    alias.operand.value, first
                ):
                    all_equivalent = False
            if all_equivalent and not state.allocates(result):
                state.equivalences.union(result, first)


def record_function_facts(state: AnalysisState, function: func.FuncOp) -> None:
    facts = FunctionFacts()
    block = function.body.block
    returns = [op for op in block.ops if isinstance(op, func.ReturnOp)]
    for arg in block.args:
        if not is_tensor(arg):
            continue
        if state.is_value_read(arg):
            facts.read.add(arg.index)
        if state.is_value_written(arg):
            facts.written.add(arg.index)
    if returns:
        for index, returned in enumerate(returns[0].operands):
            if not is_tensor(returned):
                continue
            for arg in block.args:
                if not is_tensor(arg):
                    continue
                if state.are_equivalent(returned, arg):
                    facts.equivalent_arg[index] = arg.index
                if state.are_aliasing(returned, arg):
                    facts.aliasing_args.setdefault(index, []).append(arg.index)
    state.function_facts[function.sym_name.data] = facts


def annotate(state: AnalysisState, root: Operation) -> None:
    """Write the decisions on the ops, as MLIR's `test-analysis-only`."""
    # Every op with a tensor operand, known or not (an unknown op's
    # operands are never in place), as MLIR does.
    for op in root.walk():
        operands = [OpOperand(op, i) for i in range(len(op.operands))]
        if not any(is_tensor(o.value) for o in operands):
            continue
        op.attributes[INPLACE_ATTR] = ArrayAttr(
            StringAttr(
                ("true" if state.is_in_place(o) else "false")
                if is_tensor(o.value)
                else "none"
            )
            for o in operands
        )


def analyze_module(module: ModuleOp, options: BufferizationOptions) -> AnalysisState:
    """Run the whole analysis on `module` and return its state. Raises
    `BufferizationError` for IR the analysis cannot handle."""
    state = AnalysisState(module, options)
    _check_known_ops(module, state)
    if options.bufferize_function_boundaries:
        functions = ordered_functions(module)
        roots: list[Operation] = list(functions)
        listed = set(roots)
        roots += [op for op in module.body.block.ops if op not in listed]
    else:
        roots = list(module.body.block.ops)
    for root in roots:
        ops = [op for op in post_order(root) if has_tensor_semantics(op)]
        analyze_ops(state, ops)
        equivalence_analysis(state, root)
        if isinstance(root, func.FuncOp) and options.bufferize_function_boundaries:
            if not root.is_declaration:
                record_function_facts(state, root)
    for op in module.walk():
        model = state.model(op)
        if model is None:
            continue
        reason = model.verify_analysis(op, state)
        if reason is not None:
            raise BufferizationError(op, reason)
    if options.test_analysis_only:
        annotate(state, module)
        if options.bufferize_function_boundaries:
            _annotate_function_access(module, state)
    return state


def _annotate_function_access(module: ModuleOp, state: AnalysisState) -> None:
    for op in module.body.block.ops:
        if not isinstance(op, func.FuncOp) or op.is_declaration:
            continue
        facts = state.function_facts.get(op.sym_name.data)
        if facts is None:
            continue
        arg_attrs = list(op.arg_attrs.data) if op.arg_attrs is not None else None
        if arg_attrs is None:
            arg_attrs = [DictionaryAttr({}) for _ in op.args]
        for arg in op.args:
            if not is_tensor(arg):
                continue
            read, written = arg.index in facts.read, arg.index in facts.written
            access = {
                (False, False): "none",
                (True, False): "read",
                (False, True): "write",
                (True, True): "read-write",
            }[(read, written)]
            entries = dict(arg_attrs[arg.index].data)
            entries[ACCESS_ATTR] = StringAttr(access)
            arg_attrs[arg.index] = DictionaryAttr(entries)
        op.arg_attrs = ArrayAttr(arg_attrs)
        for ret in op.walk():
            # Only when some result is an argument's buffer, as MLIR does.
            if isinstance(ret, func.ReturnOp) and facts.equivalent_arg:
                ret.attributes[EQUIVALENT_ARGS_ATTR] = ArrayAttr(
                    IntegerAttr(facts.equivalent_arg.get(i, -1), i64)
                    for i in range(len(ret.operands))
                )


def _check_known_ops(module: ModuleOp, state: AnalysisState) -> None:
    if state.options.allow_unknown_ops:
        return
    for op in module.walk():
        if isinstance(op, ModuleOp) or not has_tensor_semantics(op):
            continue
        if state.model(op) is not None or isinstance(op, func.FuncOp | func.ReturnOp):
            continue
        if isinstance(op, func.CallOp):
            raise BufferizationError(
                op,
                "passes or returns tensors; pass bufferize-function-boundaries "
                "to bufferize calls, or allow-unknown-ops to keep them on tensors",
            )
        raise BufferizationError(
            op,
            "has tensor operands or results but is not bufferizable (no "
            "bufferization model is registered for it); pass allow-unknown-ops "
            "to keep it on tensors",
        )


def ordered_functions(module: ModuleOp) -> list[func.FuncOp]:
    """The module's functions, every callee before its callers. Recursion is
    refused: a function's facts would depend on themselves."""
    functions = {
        op.sym_name.data: op
        for op in module.body.block.ops
        if isinstance(op, func.FuncOp)
    }
    callees: dict[str, list[str]] = {}
    for name, function in functions.items():
        callees[name] = [
            op.callee.root_reference.data
            for op in function.walk()
            if isinstance(op, func.CallOp)
            and op.callee.root_reference.data in functions
        ]
    ordered: list[func.FuncOp] = []
    state: dict[str, str] = {}

    def visit(name: str, path: list[str]) -> None:
        if state.get(name) == "done":
            return
        if state.get(name) == "active":
            cycle = " -> ".join([*path[path.index(name) :], name])
            raise BufferizationError(
                functions[name],
                f"recursive calls ({cycle}) cannot be bufferized across function "
                "boundaries",
            )
        state[name] = "active"
        for callee in callees[name]:
            visit(callee, [*path, name])
        state[name] = "done"
        ordered.append(functions[name])

    for name in functions:
        visit(name, [])
    return ordered
