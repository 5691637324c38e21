"""Interpreter functions of `transform.structured.collapse_dims`,
`detensorize` and `insert_slice_to_copy_ext` (ops in `reshaping_ops`).

Each checks every target first and changes nothing when one is refused:
one line located at the transform op, naming the payload op and why.

- `collapse_dims` merges loops with `linalg_ext.transforms.collapse_loops`
  (the library of `linalg-collapse-loops`), on tensors (static or dynamic
  extents) and identity-layout memrefs, `linalg.index` of a merged loop
  recomputed from the merged one. A grouping that is not valid for every
  operand's indexing map is refused (ByteIR hands it to upstream's
  `collapseOpIterationDims`, which assumes it valid and builds wrong
  reshapes), and so is a group mixing iterator types or merging reductions
  out of order. A grouping that merges nothing returns the target as it is
  (ByteIR fails).
- `detensorize` inlines the body of a Linalg op without loops on 0-d
  tensors and scalars: `tensor.extract` of each element the body reads, the
  body's ops, `tensor.from_elements` of each yielded value (upstream's
  `linalg-detensorize` form). Named ops are read through their generic form.
- `insert_slice_to_copy_ext` copies the inserted source into the slice of
  the destination first; the slice is typed like the source, so
  rank-reduced when the insertion is (upstream's `insert_slice_to_copy`
  builds a full-rank slice there, and a `linalg.copy` between tensors of
  different ranks that fails to verify).
"""

from __future__ import annotations

from xdsl.dialects import tensor
from xdsl.dialects.builtin import MemRefType, TensorType
from xdsl.dialects.linalg import ops as linalg
from xdsl.interpreter import (
    Interpreter,
    InterpreterFunctions,
    PythonValues,
    impl,
    register_impls,
)
from xdsl.interpreters.transform import OperationHandle
from xdsl.ir import Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.rewriter import InsertPoint, Rewriter

from linalg_ext.compat.forall_ops import InParallelOp, ParallelInsertSliceOp
from linalg_ext.transform_ops.handles import (
    distinct_ops,
    failure,
    op_handle,
    typed_targets,
)
from linalg_ext.transform_ops.reshaping_ops import (
    CollapseDimsOp,
    DetensorizeOp,
    InsertSliceToCopyExtOp,
)
from linalg_ext.transforms.collapse_loops import (
    all_loops,
    collapse_generic_loops,
    collapse_refusal,
)
from linalg_ext.transforms.generalize import GENERALIZED_OPS, generalize
from linalg_ext.transforms.slices import slice_inserted_by


def detensorize_refusal(op: Operation) -> str | None:
    """Why `op` cannot be detensorized, or None."""
    if op.dialect_name() != "linalg" or isinstance(op, linalg.YieldOp | linalg.IndexOp):
        return "detensorize transformation should be applied on linalg op"
    if not isinstance(op, linalg.GenericOp) and op.name not in GENERALIZED_OPS:
        return f"{op.name} has no scalar body here (not a generalizable Linalg op)"
    if any(isinstance(v.type, MemRefType) for v in op.operands):
        return f"{op.name} works on memrefs: only ops on tensors are detensorized"
    generic = op if isinstance(op, linalg.GenericOp) else generalize(op)
    if generic is None:
        return f"{op.name}: no scalar body for these element types"
    loops = len(generic.iterator_types)
    reads_index = any(isinstance(o, linalg.IndexOp) for o in generic.body.walk())
    if generic is not op:
        generic.erase()
    if reads_index and not loops:
        return f"{op.name} reads linalg.index but has no loops"
    if loops:
        return (
            f"{op.name} has {loops} loop{'s' if loops > 1 else ''}: only ops "
            "without loops (on 0-d tensors and scalars) are detensorized"
        )
    for number, value in enumerate(op.operands):
        value_type = value.type
        if isinstance(value_type, TensorType) and value_type.get_num_dims():
            return f"{op.name} is not on 0-d tensors: operand #{number} is {value_type}"
    return None


def detensorize(op: Operation) -> None:
    """Replace `op` (checked with `detensorize_refusal`) by its body on the
    elements of its 0-d tensor operands."""
    generic = op if isinstance(op, linalg.GenericOp) else generalize(op)
    assert generic is not None, "checked by detensorize_refusal"
    new_ops: list[Operation] = []
    mapping: dict[SSAValue, SSAValue] = {}
    block = generic.body.block
    for arg, operand in zip(block.args, generic.operands, strict=True):
        if not arg.uses:
            continue
        operand_type = operand.type
        if isinstance(operand_type, TensorType):
            extract = tensor.ExtractOp(operand, [], operand_type.get_element_type())
            new_ops.append(extract)
            mapping[arg] = extract.result
        else:
            mapping[arg] = operand  # a scalar input is its own element
    yielded: list[SSAValue] = []
    for body_op in block.ops:
        if isinstance(body_op, linalg.YieldOp):
            yielded = [mapping.get(v, v) for v in body_op.operands]
            break
        new_ops.append(body_op.clone(value_mapper=mapping))
    results: list[SSAValue] = []
    for value, result in zip(yielded, op.results, strict=True):
        from_elements = tensor.FromElementsOp(value, result_type=result.type)
        new_ops.append(from_elements)
        results.append(from_elements.result)
    if generic is not op:
        generic.erase()
    Rewriter.insert_op(new_ops, InsertPoint.before(op))
    Rewriter.replace_op(op, [], results)


def insert_slice_to_copy(
    insertion: tensor.InsertSliceOp | ParallelInsertSliceOp,
) -> linalg.CopyOp:
    """Copy the source of `insertion` into the slice of its destination it
    writes, and insert the copy instead; returns the copy (the source's
    `linalg.copy` itself if it is one, the IR unchanged)."""
    source = insertion.source
    if isinstance(source.owner, linalg.CopyOp):
        return source.owner
    # Only parallel_insert_slice ops may sit in an `in_parallel` region.
    anchor: Operation = insertion
    parent = insertion.parent_op()
    if isinstance(insertion, ParallelInsertSliceOp) and isinstance(
        parent, InParallelOp
    ):
        anchor = parent
    extracted = slice_inserted_by(insertion)
    copy = linalg.CopyOp([source], [extracted.result])
    Rewriter.insert_op([extracted, copy], InsertPoint.before(anchor))
    insertion.operands[0] = copy.results[0]
    return copy


@register_impls
class ReshapingFunctions(InterpreterFunctions):
    """The impls of `collapse_dims`, `detensorize` and
    `insert_slice_to_copy_ext`, registered on xDSL's `TransformFunctions`
    by `install`."""

    @impl(CollapseDimsOp)
    def run_collapse_dims(
        self, interpreter: Interpreter, op: CollapseDimsOp, args: PythonValues
    ) -> PythonValues:
        targets = distinct_ops(op_handle(op, args[0], "the target").ops)
        groups = op.groups()
        generics: list[linalg.GenericOp] = []
        for target in targets:
            if not isinstance(target, linalg.GenericOp):
                raise failure(
                    op,
                    "collapse_dims transformation should be applied on linalg.generic",
                    target,
                )
            reason = collapse_refusal(target, groups)
            if reason is not None:
                raise failure(op, f"cannot collapse {target.name}: {reason}", target)
            generics.append(target)
        collapsed: list[Operation] = []
        merges = any(len(group) > 1 for group in groups)
        for generic in generics:
            if not merges:
                collapsed.append(generic)
                continue
            loops = all_loops(len(generic.iterator_types), groups)
            rewriter = PatternRewriter(generic)
            collapsed.append(collapse_generic_loops(generic, loops, rewriter))
        return (OperationHandle(*collapsed),)

    @impl(DetensorizeOp)
    def run_detensorize(
        self, interpreter: Interpreter, op: DetensorizeOp, args: PythonValues
    ) -> PythonValues:
        targets = distinct_ops(op_handle(op, args[0], "the target").ops)
        for target in targets:
            reason = detensorize_refusal(target)
            if reason is not None:
                raise failure(op, reason, target)
        for target in targets:
            detensorize(target)
        return ()

    @impl(InsertSliceToCopyExtOp)
    def run_insert_slice_to_copy_ext(
        self,
        interpreter: Interpreter,
        op: InsertSliceToCopyExtOp,
        args: PythonValues,
    ) -> PythonValues:
        targets = typed_targets(
            op,
            op_handle(op, args[0], "the target").ops,
            (tensor.InsertSliceOp, ParallelInsertSliceOp),
            "only InsertSliceOp and ParallelInsertSliceOp ops are supported",
        )
        copies: list[Operation] = [insert_slice_to_copy(t) for t in targets]
        return (OperationHandle(*copies),)
