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
Happens-before is op dominance, except inside loop bodies, where a later
iteration's read sees an earlier iteration's write.

After the decisions, *equivalence sets* (values that are the very same
buffer) are computed from in-place operands whose results are equivalent.
With `bufferize-function-boundaries`, functions are analysed callees first,
and each records which arguments it reads and writes and which results are
its arguments, so calls are analysed precisely.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from xdsl.dialects import func
from xdsl.dialects.builtin import (
    ArrayAttr,
    IntegerAttr,
    ModuleOp,
    StringAttr,
    TensorType,
    UnitAttr,
    i64,
)
from xdsl.ir import BlockArgument, Operation, OpResult, Region, SSAValue

from linalg_ext.bufferization.interface import (
    AliasingOperand,
    AliasingValue,
    BufferizableOpModel,
    BufferRelation,
    OpOperand,
    is_tensor,
    model_for,
    owner_of,
    tensor_operands,
)
from linalg_ext.bufferization.options import BufferizationOptions
from linalg_ext.transforms.ordering import ancestor_in

INPLACE_ATTR = "__inplace_operands_attr__"
ACCESS_ATTR = "bufferization.access"
WRITABLE_ATTR = "bufferization.writable"
EQUIVALENT_ARGS_ATTR = "__equivalent_func_args__"


class BufferizationError(Exception):
    """Bufferization cannot proceed; the message names the op and why."""

    def __init__(self, op: Operation | None, reason: str):
        self.op = op
        self.reason = reason
        where = f"'{op.name}': " if op is not None else ""
        super().__init__(f"{where}{reason}")


def has_tensor_semantics(op: Operation) -> bool:
    """Whether the op touches tensors: a tensor operand or result, a tensor
    region argument, or (a function) a tensor in its signature."""
    if isinstance(op, func.FuncOp):
        function_type = op.function_type
        return any(
            isinstance(t, TensorType)
            for t in (*function_type.inputs, *function_type.outputs)
        )
    if any(is_tensor(v) for v in op.operands) or any(is_tensor(r) for r in op.results):
        return True
    return any(
        is_tensor(arg)
        for region in op.regions
        for block in region.blocks
        for arg in block.args
    )


@dataclass
class FunctionFacts:
    """What callers need to know about a function's tensor arguments."""

    read: set[int] = field(default_factory=set[int])
    written: set[int] = field(default_factory=set[int])
    equivalent_arg: dict[int, int] = field(default_factory=dict[int, int])
    """Result index -> the argument it is the very buffer of."""
    aliasing_args: dict[int, list[int]] = field(default_factory=dict[int, list[int]])
    """Result index -> arguments it may alias (including equivalent ones)."""


class _UnionFind:
    def __init__(self) -> None:
        self.parent: dict[SSAValue, SSAValue] = {}
        self.members: dict[SSAValue, list[SSAValue]] = {}

    def find(self, value: SSAValue) -> SSAValue:
        parent = self.parent.get(value)
        if parent is None:
            self.parent[value] = value
            self.members[value] = [value]
            return value
        root = value
        while self.parent[root] is not root:
            root = self.parent[root]
        while self.parent[value] is not root:
            self.parent[value], value = root, self.parent[value]
        return root

    def union(self, a: SSAValue, b: SSAValue) -> None:
        root_a, root_b = self.find(a), self.find(b)
        if root_a is root_b:
            return
        if len(self.members[root_a]) < len(self.members[root_b]):
            root_a, root_b = root_b, root_a
        self.parent[root_b] = root_a
        self.members[root_a].extend(self.members.pop(root_b))

    def same(self, a: SSAValue, b: SSAValue) -> bool:
        return self.find(a) is self.find(b)

    def set_of(self, value: SSAValue) -> list[SSAValue]:
        return self.members[self.find(value)]


class _UnknownOpModel(BufferizableOpModel):
    """What the analysis assumes of an op it has no model for (only with
    `allow-unknown-ops`): it reads and writes every tensor operand, its
    results may alias any of them, and nothing it returns may be written."""

    def writes(self, operand: OpOperand, state: AnalysisState) -> bool:
        return True

    def aliasing_values(
        self, operand: OpOperand, state: AnalysisState
    ) -> list[AliasingValue]:
        return [
            AliasingValue(r, BufferRelation.UNKNOWN, definite=False)
            for r in operand.op.results
            if is_tensor(r)
        ]

    def is_writable(self, value: SSAValue, state: AnalysisState) -> bool:
        return False


UNKNOWN_OP = _UnknownOpModel()


class AnalysisState:
    """The decisions and the facts the analysis derives; models query it."""

    def __init__(self, module: Operation, options: BufferizationOptions):
        self.module = module
        self.options = options
        self.in_place: set[OpOperand] = set()
        self.decided: set[OpOperand] = set()
        self.aliases = _UnionFind()
        self.equivalences = _UnionFind()
        self.function_facts: dict[str, FunctionFacts] = {}
        self.conflict_count = 0
        self._positions: dict[Operation, int] = {}
        self._definitions: dict[OpOperand, list[SSAValue]] = {}
        self._result_writes: dict[SSAValue, bool] = {}
        self._undefined_uses: set[OpOperand] | None = None
        for op in module.walk():
            block = op.parent_block()
            if block is not None and block.first_op is op:
                for index, each in enumerate(block.ops):
                    self._positions[each] = index

    # ------------------------------------------------------------ model lookup

    def model(self, op: Operation) -> BufferizableOpModel | None:
        """The model the analysis uses for `op`, or None if `op` is unknown
        (or excluded: function ops when function boundaries are kept)."""
        if not self.options.bufferize_function_boundaries and isinstance(
            op, func.FuncOp | func.CallOp
        ):
            return None
        return model_for(op)

    def _model_or_unknown(self, op: Operation) -> BufferizableOpModel:
        return self.model(op) or UNKNOWN_OP

    # ------------------------------------------------------- interface queries

    def reads(self, operand: OpOperand) -> bool:
        return self._model_or_unknown(operand.op).reads(operand, self)

    def writes(self, operand: OpOperand) -> bool:
        return self._model_or_unknown(operand.op).writes(operand, self)

    def aliasing_values(self, operand: OpOperand) -> list[AliasingValue]:
        return self._model_or_unknown(operand.op).aliasing_values(operand, self)

    def aliasing_operands(self, value: SSAValue) -> list[AliasingOperand]:
        if not isinstance(value, OpResult):
            return []
        model = self.model(value.op)
        if model is None:
            return [
                AliasingOperand(o, BufferRelation.UNKNOWN, definite=False)
                for o in tensor_operands(value.op)
            ]
        return model.aliasing_operands(value, self)

    def result_writes(self, value: SSAValue) -> bool:
        """Whether `value` is a definition (new contents are written there).
        Block arguments and results of unknown ops are."""
        cached = self._result_writes.get(value)
        if cached is not None:
            return cached
        owner = owner_of(value)
        model = self.model(owner) if isinstance(value, OpResult) and owner else None
        # Guard against cycles through region-carrying ops.
        self._result_writes[value] = True
        answer = True if model is None else model.result_writes(value, self)
        self._result_writes[value] = answer
        return answer

    def is_writable(self, value: SSAValue) -> bool:
        owner = owner_of(value)
        if owner is None:
            return False
        model = self.model(owner)
        return model is not None and model.is_writable(value, self)

    def is_in_place(self, operand: OpOperand) -> bool:
        return operand in self.in_place

    def allocates(self, value: SSAValue) -> bool:
        owner = owner_of(value)
        model = self.model(owner) if isinstance(value, OpResult) and owner else None
        return model is not None and model.allocates(value)

    # ------------------------------------------------------- use-def traversal

    def reverse_chain(
        self,
        start: SSAValue,
        condition: Callable[[SSAValue], bool],
        *,
        include_leaves: bool,
        equivalent_only: bool = False,
        in_place_only: bool = False,
    ) -> list[SSAValue]:
        """Values found walking back from `start` through aliasing operands
        (MLIR's `findValueInReverseUseDefChain`): those meeting `condition`
        end a path; with `include_leaves`, so do values with nothing
        further to follow."""
        found: list[SSAValue] = []
        seen: set[SSAValue] = set()
        worklist = [start]
        while worklist:
            value = worklist.pop()
            if value in seen:
                continue
            seen.add(value)
            if condition(value):
                found.append(value)
                continue
            if not isinstance(value, OpResult) or self.model(value.op) is None:
                if include_leaves:
                    found.append(value)
                continue
            aliases = self.aliasing_operands(value)
            if not aliases:
                if include_leaves:
                    found.append(value)
                continue
            for alias in aliases:
                if equivalent_only and alias.relation is not BufferRelation.EQUIVALENT:
                    if include_leaves:
                        found.append(value)
                    continue
                if in_place_only and not self.is_in_place(alias.operand):
                    if include_leaves:
                        found.append(value)
                    continue
                worklist.append(alias.operand.value)
        return list(dict.fromkeys(found))

    def find_definitions(
        self,
        operand: OpOperand,
        *,
        inside: Operation | None = None,
        follow_leaves: bool = False,
    ) -> list[SSAValue]:
        """The last writes of the value the operand reads (MLIR's
        `findDefinitions`). With `inside`, only writes made inside that op."""
        if inside is None:
            cached = self._definitions.get(operand)
            if cached is None:
                cached = self.reverse_chain(
                    operand.value, self.result_writes, include_leaves=follow_leaves
                )
                self._definitions[operand] = cached
            return cached

        def written_inside(value: SSAValue) -> bool:
            owner = owner_of(value)
            return (
                owner is not None
                and inside.is_ancestor(owner)
                and value not in inside.results
                and self.result_writes(value)
            )

        return self.reverse_chain(
            operand.value, written_inside, include_leaves=follow_leaves
        )

    def is_value_read(self, value: SSAValue) -> bool:
        """Whether some use reads the value, looking through ops that only
        make an alias of it (MLIR's `isValueRead`)."""
        worklist = [OpOperand(u.operation, u.index) for u in value.uses]
        seen: set[OpOperand] = set()
        while worklist:
            use = worklist.pop()
            if use in seen:
                continue
            seen.add(use)
            if self.reads(use):
                return True
            if not self.writes(use):
                for alias in self.aliasing_values(use):
                    worklist.extend(
                        OpOperand(u.operation, u.index) for u in alias.value.uses
                    )
        return False

    def is_value_written(self, value: SSAValue) -> bool:
        """Whether some in-place use of an alias of the value writes it."""
        return any(
            self.is_in_place(use) and self.writes(use)
            for alias in self.aliases.set_of(value)
            for use in _uses(alias)
        )

    def has_undefined_contents(self, operand: OpOperand) -> bool:
        """Whether the operand's value was never written (a `tensor.empty`,
        an `alloc_tensor` without copy, along aliases)."""
        if self._undefined_uses is None:
            undefined: set[OpOperand] = set()
            for op in self.module.walk():
                if self.model(op) is None:
                    continue
                for result in op.results:
                    if not is_tensor(result) or not result.uses:
                        continue
                    first = next(iter(result.uses))
                    if not self.find_definitions(
                        OpOperand(first.operation, first.index)
                    ):
                        undefined.update(_uses(result))
            self._undefined_uses = undefined
        return operand in self._undefined_uses

    def can_omit_copy(self, operand: OpOperand) -> bool:
        """Whether an out-of-place operand needs a new buffer but not its
        old contents (MLIR's `canOmitTensorCopy`)."""
        if self.has_undefined_contents(operand):
            return True
        reads = self.reads(operand)
        if self.writes(operand) and not reads:
            return True
        return not reads and not any(
            self.is_value_read(a.value) for a in self.aliasing_values(operand)
        )

    def are_equivalent(self, a: SSAValue, b: SSAValue) -> bool:
        return a is b or self.equivalences.same(a, b)

    def are_aliasing(self, a: SSAValue, b: SSAValue) -> bool:
        return a is b or self.aliases.same(a, b)

    # ----------------------------------------------------------------- order

    def happens_before(self, a: Operation, b: Operation) -> bool:
        """Whether `a` (or an op enclosing it) runs before `b` in every
        execution, judged by op dominance."""
        current: Operation | None = a
        while current is not None:
            if current.is_ancestor(b):
                return False
            if self._properly_dominates(current, b):
                return True
            current = current.parent_op()
        return False

    def _properly_dominates(self, a: Operation, b: Operation) -> bool:
        block = a.parent_block()
        if block is None:
            return False
        other = ancestor_in(block, b)
        if other is None or other is a:
            return False
        return self._positions[a] < self._positions[other]

    def repetitive_region(self, op_or_value: Operation | SSAValue) -> Region | None:
        """The innermost loop body (repetitive region) enclosing it."""
        return self._enclosing_region(
            _region_of(op_or_value), lambda m, op, i: m.is_repetitive_region(op, i)
        )

    def parallel_region(self, region: Region | None) -> Region | None:
        """The innermost region enclosing `region` (or itself) whose
        iterations may run concurrently."""
        return self._enclosing_region(
            region, lambda m, op, i: m.is_parallel_region(op, i)
        )

    def _enclosing_region(
        self,
        region: Region | None,
        question: Callable[[BufferizableOpModel, Operation, int], bool],
    ) -> Region | None:
        """The innermost region from `region` outwards for which the model of
        the op holding it answers `question` with yes."""
        while region is not None:
            parent = region.parent_op()
            if parent is None:
                return None
            model = self.model(parent)
            if model is not None and question(
                model, parent, parent.regions.index(region)
            ):
                return region
            region = parent.parent_region()
        return None

    def in_exclusive_regions(self, a: Operation, b: Operation) -> bool:
        """Whether `a` and `b` sit in different regions of an op that runs
        at most one of them (an `scf.if`)."""
        region = a.parent_region()
        while region is not None:
            parent = region.parent_op()
            if parent is None:
                return False
            if parent.is_ancestor(b):
                model = self.model(parent)
                if model is not None and model.has_exclusive_regions(parent):
                    other = _region_containing(parent, b)
                    return other is not None and other is not region
                return False
            region = parent.parent_region()
        return False

    # -------------------------------------------------------------- conflicts

    def _alias_reads_and_writes(
        self, values: Iterable[SSAValue]
    ) -> tuple[list[OpOperand], list[OpOperand]]:
        reads: dict[OpOperand, None] = {}
        writes: dict[OpOperand, None] = {}
        for value in values:
            for alias in self.aliases.set_of(value):
                for use in _uses(alias):
                    writes_use = self.writes(use)
                    if self.reads(use):
                        reads[use] = None
                    elif not writes_use and any(
                        self.is_value_read(a.value) for a in self.aliasing_values(use)
                    ):
                        # An op not analysed yet that only makes an alias
                        # (an extract_slice) whose value is read later: its
                        # operand is a read too.
                        reads[use] = None
                    if writes_use and self.is_in_place(use):
                        writes[use] = None
        return list(reads), list(writes)

    def would_conflict(self, operand: OpOperand) -> bool:
        """Whether deciding `operand` in place creates a read-after-write
        conflict among the aliases it would join."""
        values = [operand.value] + [a.value for a in self.aliasing_values(operand)]
        reads, writes = self._alias_reads_and_writes(values)
        if self.writes(operand) and operand not in writes:
            writes.append(operand)
        return self._has_read_after_write(reads, writes)

    def would_write_read_only(self, operand: OpOperand) -> bool:
        """Whether in place would write a buffer that must not be written."""
        found_write = self.writes(operand)
        values = [operand.value] + [a.value for a in self.aliasing_values(operand)]
        if not found_write:
            found_write = any(
                self.is_in_place(use) and self.writes(use)
                for value in values
                for alias in self.aliases.set_of(value)
                for use in _uses(alias)
            )
        if not found_write:
            return False
        return any(
            not self.is_writable(alias)
            for value in values
            for alias in self.aliases.set_of(value)
        )

    def _writes_shared_buffer(self, write: OpOperand) -> bool:
        """Whether the buffer `write` writes was defined (or allocated)
        outside the parallel region the write runs in: concurrent
        iterations would then write one buffer."""
        origins = self.reverse_chain(
            write.value, self.result_writes, include_leaves=True
        )
        here = self.parallel_region(write.op.parent_region())
        return any(self.parallel_region(_region_of(o)) is not here for o in origins)

    def _has_read_after_write(
        self, reads: list[OpOperand], writes: list[OpOperand]
    ) -> bool:
        # A buffer written in a parallel region must be private to it
        # (when what is written is read at all).
        if reads and any(self._writes_shared_buffer(w) for w in writes):
            return True
        for read in reads:
            definitions = self.find_definitions(read)
            if not definitions:
                continue
            reader = read.op
            read_region = self.repetitive_region(reader)
            for write in writes:
                writer = write.op
                dominance_ok = all(
                    self.repetitive_region(d) is read_region for d in definitions
                )
                if dominance_ok:
                    if self.happens_before(reader, writer):
                        continue
                    if read == write:
                        continue
                    if self.in_exclusive_regions(reader, writer):
                        continue
                if writer is reader:
                    model = self.model(reader)
                    if (
                        model is not None
                        and model.is_elementwise_access(reader, [read, write], self)
                        and (
                            self._equivalent_in_chain(read, write.value)
                            or self._equivalent_in_chain(write, read.value)
                        )
                    ):
                        continue
                if self._non_conflicting_subsets(read, write):
                    continue
                reader_model = self.model(reader)
                if reader_model is not None and reader_model.is_not_conflicting(
                    read, write, self
                ):
                    continue
                if writer is not reader:
                    writer_model = self.model(writer)
                    if writer_model is not None and writer_model.is_not_conflicting(
                        read, write, self
                    ):
                        continue
                for definition in definitions:
                    if isinstance(definition, OpResult):
                        defining = definition.op
                        if self.happens_before(writer, defining):
                            continue
                        if defining is not writer and defining.is_ancestor(writer):
                            continue
                    else:
                        assert isinstance(definition, BlockArgument)
                        if ancestor_in(definition.block, writer) is None:
                            continue
                    write_aliases = self.aliasing_values(write)
                    if len(write_aliases) == 1 and write_aliases[0].value is definition:
                        continue
                    if self.options.print_conflicts:
                        self._annotate_conflict(read, write, definition)
                    return True
        return False

    def _equivalent_in_chain(self, start: OpOperand, other: SSAValue) -> bool:
        return bool(
            self.reverse_chain(
                start.value,
                lambda v: v is other,
                include_leaves=False,
                equivalent_only=True,
            )
        )

    def _non_conflicting_subsets(self, read: OpOperand, write: OpOperand) -> bool:
        from linalg_ext.bufferization.subsets import (
            destination_operand,
            matches_insert_destination,
            source_operand,
        )

        reader, writer = read.op, write.op
        reader_dest = destination_operand(reader)
        if reader_dest is not None:
            if read == reader_dest and matches_insert_destination(
                self, write.value, reader
            ):
                return True
            if (
                read == source_operand(reader)
                and write == reader_dest
                and matches_insert_destination(self, read.value, reader)
            ):
                return True
        writer_dest = destination_operand(writer)
        if writer_dest is not None and write == writer_dest:
            source = source_operand(writer)
            assert source is not None
            if self.are_equivalent(read.value, source.value) and (
                matches_insert_destination(self, source.value, writer)
            ):
                return True
        return False

    def _annotate_conflict(
        self, read: OpOperand, write: OpOperand, definition: SSAValue
    ) -> None:
        name = f"C_{self.conflict_count}"
        self.conflict_count += 1
        write.op.attributes[f"{name}[CONFL-WRITE: {write.index}]"] = UnitAttr()
        read.op.attributes[f"{name}[READ: {read.index}]"] = UnitAttr()
        if isinstance(definition, OpResult):
            definition.op.attributes[f"{name}[DEF: result {definition.index}]"] = (
                UnitAttr()
            )
        else:
            assert isinstance(definition, BlockArgument)
            parent = definition.block.parent_op()
            if parent is not None:
                parent.attributes[f"{name}[DEF: bbArg {definition.index}]"] = UnitAttr()

    # -------------------------------------------------------------- decisions

    def bufferize_in_place(self, operand: OpOperand) -> None:
        if operand in self.in_place:
            return
        self.in_place.add(operand)
        self.decided.add(operand)
        for alias in self.aliasing_values(operand):
            self.aliases.union(alias.value, operand.value)

    def bufferize_out_of_place(self, operand: OpOperand) -> None:
        self.decided.add(operand)

    def analyze_operand(self, operand: OpOperand) -> None:
        if operand in self.decided:
            return
        if self.options.copy_before_write:
            conflict = self.writes(operand)
        else:
            conflict = self.would_write_read_only(operand) or self.would_conflict(
                operand
            )
        if conflict:
            self.bufferize_out_of_place(operand)
        else:
            self.bufferize_in_place(operand)

    def analyze_ops(self, ops: list[Operation]) -> None:
        """Decide every tensor operand of `ops`, in the configured order."""
        for op in ops:
            model = self.model(op)
            if model is None:
                continue
            for operand in tensor_operands(op):
                if model.must_bufferize_in_place(operand, self):
                    self.bufferize_in_place(operand)
        for op in ops:
            if self.model(op) is None:
                continue
            for operand in tensor_operands(op):
                self.analyze_operand(operand)

    def equivalence_analysis(self, root: Operation) -> None:
        """Merge the equivalence sets of in-place operands and their
        equivalent results, nested ops first."""
        for op in _post_order(root):
            if self.model(op) is None:
                continue
            for result in op.results:
                if not is_tensor(result):
                    continue
                aliases = self.aliasing_operands(result)
                if not aliases:
                    continue
                first = aliases[0].operand.value
                all_equivalent = True
                for alias in aliases:
                    equivalent = alias.relation is BufferRelation.EQUIVALENT
                    in_place = self.is_in_place(alias.operand)
                    if equivalent and in_place and alias.definite:
                        self.equivalences.union(result, alias.operand.value)
                        all_equivalent = False
                        break
                    if not (equivalent and in_place) or not self.are_equivalent(
                        alias.operand.value, first
                    ):
                        all_equivalent = False
                if all_equivalent and not self.allocates(result):
                    self.equivalences.union(result, first)

    # ------------------------------------------------------------- functions

    def record_function_facts(self, function: func.FuncOp) -> None:
        facts = FunctionFacts()
        block = function.body.block
        returns = [op for op in block.ops if isinstance(op, func.ReturnOp)]
        for arg in block.args:
            if not is_tensor(arg):
                continue
            if self.is_value_read(arg):
                facts.read.add(arg.index)
            if self.is_value_written(arg):
                facts.written.add(arg.index)
        if returns:
            for index, returned in enumerate(returns[0].operands):
                if not is_tensor(returned):
                    continue
                for arg in block.args:
                    if not is_tensor(arg):
                        continue
                    if self.are_equivalent(returned, arg):
                        facts.equivalent_arg[index] = arg.index
                    if self.are_aliasing(returned, arg):
                        facts.aliasing_args.setdefault(index, []).append(arg.index)
        self.function_facts[function.sym_name.data] = facts

    # ------------------------------------------------------------ annotation

    def annotate(self, root: Operation) -> None:
        """Write the decisions on the ops, as MLIR's `test-analysis-only`."""
        # Every op with a tensor operand, known or not (an unknown op's
        # operands are never in place), as MLIR does.
        for op in root.walk():
            operands = [OpOperand(op, i) for i in range(len(op.operands))]
            if not any(is_tensor(o.value) for o in operands):
                continue
            op.attributes[INPLACE_ATTR] = ArrayAttr(
                StringAttr(
                    ("true" if self.is_in_place(o) else "false")
                    if is_tensor(o.value)
                    else "none"
                )
                for o in operands
            )


def analyze_module(module: ModuleOp, options: BufferizationOptions) -> AnalysisState:
    """Run the whole analysis on `module` and return its state. Raises
    `BufferizationError` for IR the analysis cannot handle."""
    from linalg_ext.bufferization.functions import ordered_functions

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
        ops = [op for op in _post_order(root) if has_tensor_semantics(op)]
        if options.analysis_heuristic == "bottom-up":
            ops.reverse()
        state.analyze_ops(ops)
        state.equivalence_analysis(root)
        if isinstance(root, func.FuncOp) and options.bufferize_function_boundaries:
            if not root.is_declaration:
                state.record_function_facts(root)
    for op in module.walk():
        model = state.model(op)
        if model is None:
            continue
        reason = model.verify_analysis(op, state)
        if reason is not None:
            raise BufferizationError(op, reason)
    if options.test_analysis_only:
        state.annotate(module)
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
        from xdsl.dialects.builtin import DictionaryAttr

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


# ----------------------------------------------------------------- helpers


def _uses(value: SSAValue) -> list[OpOperand]:
    return [OpOperand(u.operation, u.index) for u in value.uses]


def _post_order(root: Operation) -> list[Operation]:
    return list(root.walk(reverse=False, region_first=True))


def _region_of(op_or_value: Operation | SSAValue) -> Region | None:
    """The region an op, a result or a block argument is in."""
    if isinstance(op_or_value, BlockArgument):
        return op_or_value.block.parent
    if isinstance(op_or_value, OpResult):
        return op_or_value.op.parent_region()
    if isinstance(op_or_value, Operation):
        return op_or_value.parent_region()
    return None


def _region_containing(parent: Operation, op: Operation) -> Region | None:
    current: Operation | None = op
    while current is not None:
        region = current.parent_region()
        if region is None:
            return None
        if region.parent_op() is parent:
            return region
        current = region.parent_op()
    return None
