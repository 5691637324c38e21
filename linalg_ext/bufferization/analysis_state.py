"""The state of One-Shot Bufferize's analysis, and the questions it answers.

`AnalysisState` holds the decisions (which operands are in place), the
*alias sets* (values that may share a buffer) and *equivalence sets* (values
that are the very same buffer), the facts recorded about functions, and
answers what models ask (`interface.AnalysisQueries`): the interface queries
routed to each op's model, walks along the reverse use-def chain
(definitions, reads), and program order (happens-before by dominance, loop
bodies, exclusive regions). Deciding operands is `analysis.py`'s job;
detecting conflicts is `conflicts.py`'s.
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.dialects import func
from xdsl.ir import BlockArgument, Operation, OpResult, Region, SSAValue

from linalg_ext.bufferization.interface import (
    AliasingOperand,
    AliasingValue,
    AnalysisQueries,
    BufferizableOpModel,
    BufferRelation,
    FunctionFacts,
    OpOperand,
    is_tensor,
    model_for,
    owner_of,
    tensor_operands,
)
from linalg_ext.bufferization.options import BufferizationOptions
from linalg_ext.transforms.ordering import ancestor_in


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

    def writes(self, operand: OpOperand, state: AnalysisQueries) -> bool:
        return True

    def aliasing_values(
        self, operand: OpOperand, state: AnalysisQueries
    ) -> list[AliasingValue]:
        return [
            AliasingValue(r, BufferRelation.UNKNOWN, definite=False)
            for r in operand.op.results
            if is_tensor(r)
        ]

    def is_writable(self, value: SSAValue, state: AnalysisQueries) -> bool:
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
            for use in uses_of(alias)
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
                        undefined.update(uses_of(result))
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

    def alias_set(self, value: SSAValue) -> list[SSAValue]:
        """The values that may share `value`'s buffer (itself included)."""
        return self.aliases.set_of(value)

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
            region_of(op_or_value), lambda m, op, i: m.is_repetitive_region(op, i)
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


# ------------------------------------------------------------------ helpers


def uses_of(value: SSAValue) -> list[OpOperand]:
    return [OpOperand(u.operation, u.index) for u in value.uses]


def post_order(root: Operation) -> list[Operation]:
    return list(root.walk(reverse=False, region_first=True))


def region_of(op_or_value: Operation | SSAValue) -> Region | None:
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
