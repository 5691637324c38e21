"""Bufferization of `scf.for`, `scf.if`, `scf.yield`, `scf.forall` and its
`tensor.parallel_insert_slice`.

* `scf.for`: each tensor init is the buffer its iteration argument starts
  with, and the loop writes it (a read of the init after the loop sees the
  loop's writes, hence conflicts). Result i is the init's buffer; it is the
  very same buffer when the body yields a value equivalent to the iteration
  argument, which is required unless `allow-return-allocs-from-loops`.
* `scf.if`: no tensor operands; result i is one of the two yielded values.
* `scf.yield`: always in place; yields buffers of the parent's result types.
* `scf.forall`: like `scf.for` for its `shared_outs`; the bufferized loop
  has no results and writes the shared outputs' buffers through the
  `tensor.parallel_insert_slice` ops of its terminator, which become a
  `memref.subview` and a `memref.copy`.
"""

from __future__ import annotations

from weakref import WeakKeyDictionary

from xdsl.dialects import arith, bufferization, scf
from xdsl.dialects.builtin import IntegerAttr, MemRefType, TensorType
from xdsl.ir import (
    Attribute,
    Block,
    BlockArgument,
    Operation,
    OpResult,
    Region,
    SSAValue,
)
from xdsl.rewriter import InsertPoint, Rewriter

from linalg_ext.bufferization.interface import (
    AliasingOperand,
    AliasingValue,
    AnalysisQueries,
    BufferizableOpModel,
    BufferizationError,
    BufferizerServices,
    BufferRelation,
    OpOperand,
    buffer_as_if_tensor,
    is_tensor,
    memref_of,
    register_model,
    tensor_type_of,
)
from linalg_ext.bufferization.layouts import fully_dynamic_memref
from linalg_ext.bufferization.models.func import retype_arguments
from linalg_ext.bufferization.models.tensor import (
    copy_into_slice,
    covers_destination,
)
from linalg_ext.compat.forall_ops import ForallOp, InParallelOp, ParallelInsertSliceOp


def _constant(value: SSAValue | int) -> int | None:
    """The value of a static bound or of an `arith.constant`, else None."""
    if isinstance(value, int):
        return value
    owner = value.owner
    if isinstance(owner, arith.ConstantOp) and isinstance(owner.value, IntegerAttr):
        return owner.value.value.data
    return None


def _yield_of(block: Block) -> scf.YieldOp:
    terminator = block.last_op
    assert isinstance(terminator, scf.YieldOp), "expected an scf.yield terminator"
    return terminator


def _merged_type(
    first: MemRefType, second: MemRefType, tensor_type: TensorType, op: Operation
) -> MemRefType:
    """The buffer type of a value that is one of two buffers: their type if
    they agree, else the same shape with a fully dynamic layout."""
    if first == second:
        return first
    if first.memory_space != second.memory_space:
        raise BufferizationError(
            op,
            f"yields buffers in different memory spaces ({first.memory_space} "
            f"and {second.memory_space}) for one result",
        )
    return fully_dynamic_memref(tensor_type, first.memory_space)


def _in_region(value: SSAValue, region: Region) -> bool:
    """Whether `value` is defined inside `region`: a result of an op in it,
    or an argument of a block nested in it (not of its own block)."""
    if isinstance(value, OpResult):
        op: Operation | None = value.op
    else:
        assert isinstance(value, BlockArgument)
        op = value.block.parent_op()
        if value.block.parent is region:
            return False
    while op is not None:
        if op.parent_region() is region:
            return True
        op = op.parent_op()
    return False


# --------------------------------------------------------------------- scf.for


_FRESH_YIELDS: WeakKeyDictionary[scf.YieldOp, set[int]] = WeakKeyDictionary()
"""Yield operands (by index) of loops being rewritten whose buffer must be
copied into a new allocation: with allow-return-allocs-from-loops, a yielded
value that may alias a buffer from outside the loop (other than its own
iteration argument's) would otherwise become the next iteration's buffer
while still being that outside buffer. Filled when the loop is rewritten,
consumed when its yield is."""


class ForOpModel(BufferizableOpModel):
    """Tensor inits of an `scf.for` (operand 3 onwards) are the buffers of
    the iteration arguments and of the results."""

    def _arg_of(self, operand: OpOperand) -> BlockArgument:
        op = operand.op
        assert isinstance(op, scf.ForOp)
        return op.body.block.args[1 + operand.index - 3]

    def _may_have_zero_iterations(self, op: scf.ForOp) -> bool:
        lower, upper = _constant(op.lb), _constant(op.ub)
        return lower is None or upper is None or upper <= lower

    def reads(self, operand: OpOperand, state: AnalysisQueries) -> bool:
        op = operand.op
        assert isinstance(op, scf.ForOp)
        # Without iterations the results are the inits: they are read.
        if self._may_have_zero_iterations(op):
            return True
        return state.is_value_read(self._arg_of(operand))

    def writes(self, operand: OpOperand, state: AnalysisQueries) -> bool:
        # The iteration argument may be written; so may the init's buffer.
        return True

    def must_not_share(self, operand: OpOperand, state: AnalysisQueries) -> bool:
        """Two iteration arguments are two buffers: an init whose buffer an
        in-place init of the same loop already is (the same `tensor.empty`
        for several destinations, as tiling and CSE leave) gets its own.
        The body may write one and read the other (a tiled op with two
        outputs) without any read-after-write the analysis can see through
        the loop, which it decides before its body; upstream's decisions
        on such loops are the same."""
        if operand.index < 3:
            return False
        aliases = state.alias_set(operand.value)
        return any(
            other.index >= 3
            and other.index != operand.index
            and isinstance(other.value.type, TensorType)
            and state.is_in_place(other)
            and other.value in aliases
            for other in (
                OpOperand(operand.op, i) for i in range(len(operand.op.operands))
            )
        )

    def aliasing_values(
        self, operand: OpOperand, state: AnalysisQueries
    ) -> list[AliasingValue]:
        if operand.index < 3:
            return []
        op = operand.op
        assert isinstance(op, scf.ForOp)
        position = operand.index - 3
        arg = op.body.block.args[1 + position]
        yielded = _yield_of(op.body.block).operands[position]
        equivalent = state.are_equivalent(arg, yielded)
        return [
            AliasingValue(
                op.results[position],
                BufferRelation.EQUIVALENT if equivalent else BufferRelation.UNKNOWN,
                definite=equivalent,
            )
        ]

    def is_repetitive_region(self, op: Operation, region_index: int) -> bool:
        return True

    def verify_analysis(self, op: Operation, state: AnalysisQueries) -> str | None:
        assert isinstance(op, scf.ForOp)
        options = state.options
        # With copy-before-write every write is to a new buffer: loops yield
        # new buffers by design (MLIR runs no analysis to verify then).
        if options.allow_return_allocs_from_loops or options.copy_before_write:
            return None
        yielded = _yield_of(op.body.block).operands
        for position, result in enumerate(op.results):
            if not is_tensor(result):
                continue
            arg = op.body.block.args[1 + position]
            if not state.are_equivalent(arg, yielded[position]):
                return (
                    f"yield operand #{position} is not equivalent to the "
                    f"corresponding iter_arg (the loop would return a new "
                    f"buffer; pass allow-return-allocs-from-loops to allow it)"
                )
        return None

    def buffer_type(
        self, value: SSAValue, bufferizer: BufferizerServices
    ) -> MemRefType:
        op = value.owner
        if isinstance(op, Block):
            op = op.parent_op()
        assert isinstance(op, scf.ForOp)
        if isinstance(value, OpResult):
            return bufferizer.buffer_type(op.body.block.args[1 + value.index])
        assert isinstance(value, BlockArgument)
        position = value.index - 1
        init_type = bufferizer.buffer_type(op.iter_args[position])
        # The buffer starts as the init's and is then the yielded value's:
        # the init's type if the yielded buffer has it too, else a fully
        # dynamic layout. While the yielded type is computed, a question
        # about this argument (it is usually where the yielded value comes
        # from) is answered with the init's type.
        if value in _PENDING:
            return init_type
        if position in _fresh_yields(op, bufferizer.state):
            # The yield copies the value into a new allocation.
            yielded_type = bufferizer.default_type(tensor_type_of(value))
        else:
            yielded = _yield_of(op.body.block).operands[position]
            cache = bufferizer.buffer_types
            known = set(cache)
            _PENDING.add(value)
            try:
                yielded_type = bufferizer.buffer_type(yielded)
            finally:
                _PENDING.discard(value)
            merged = _merged_type(init_type, yielded_type, tensor_type_of(value), op)
            if merged != init_type:
                # The types found meanwhile assumed this argument had the
                # init's type, which it does not: forget them.
                for found in [v for v in cache if v not in known]:
                    del cache[found]
            return merged
        return _merged_type(init_type, yielded_type, tensor_type_of(value), op)

    def bufferize(self, op: Operation, bufferizer: BufferizerServices) -> None:
        assert isinstance(op, scf.ForOp)
        fresh = _fresh_yields(op, bufferizer.state)
        if fresh:
            _FRESH_YIELDS[_yield_of(op.body.block)] = fresh
        types = [
            bufferizer.buffer_type(result) if is_tensor(result) else result.type
            for result in op.results
        ]
        inits = [
            buffer_as_if_tensor(bufferizer, init, t)
            for init, t in zip(op.iter_args, types, strict=True)
        ]
        body = op.detach_region(op.body)
        retype_arguments(body.block, [body.block.args[0].type, *types])
        loop = scf.ForOp(op.lb, op.ub, op.step, inits, body)
        loop.attributes.update(op.attributes)
        bufferizer.insert(loop)
        bufferizer.replace_op(op, list(loop.results))


_PENDING: set[SSAValue] = set()
"""Iteration arguments whose buffer type is being computed."""


def _fresh_yields(op: scf.ForOp, state: AnalysisQueries) -> set[int]:
    """The positions whose yielded value the loop copies into a new buffer
    (MLIR's `scf.for` conflict resolution): with allow-return-allocs-from-
    loops, a yielded value that may alias a buffer from outside the body."""
    options = state.options
    if not options.allow_return_allocs_from_loops or options.copy_before_write:
        return set()
    block = op.body.block
    return {
        position
        for position, value in enumerate(_yield_of(block).operands)
        if is_tensor(value)
        and _may_alias_outside(state, value, op.body, block.args[1 + position])
    }


def _may_alias_outside(
    state: AnalysisQueries, value: SSAValue, body: Region, own: BlockArgument
) -> bool:
    """Whether a value the loop body yields may share a buffer defined
    outside the body, other than its own iteration argument's (MLIR's
    `doesNotAliasExternalValue`, negated)."""
    return any(
        alias is not own and not _in_region(alias, body)
        for alias in state.alias_set(value)
    )


# ---------------------------------------------------------------------- scf.if


class IfOpModel(BufferizableOpModel):
    """Result i is the value yielded by whichever branch runs."""

    def _yields(self, op: scf.IfOp) -> tuple[scf.YieldOp, scf.YieldOp]:
        return _yield_of(op.true_region.block), _yield_of(op.false_region.block)

    def aliasing_operands(
        self, value: SSAValue, state: AnalysisQueries
    ) -> list[AliasingOperand]:
        assert isinstance(value, OpResult)
        op = value.op
        assert isinstance(op, scf.IfOp)
        if not op.false_region.blocks:
            return []
        return [
            AliasingOperand(
                OpOperand(yield_op, value.index),
                BufferRelation.EQUIVALENT,
                definite=False,
            )
            for yield_op in self._yields(op)
        ]

    def has_exclusive_regions(self, op: Operation) -> bool:
        return True

    def buffer_type(
        self, value: SSAValue, bufferizer: BufferizerServices
    ) -> MemRefType:
        assert isinstance(value, OpResult)
        op = value.op
        assert isinstance(op, scf.IfOp)
        then_yield, else_yield = self._yields(op)
        return _merged_type(
            bufferizer.buffer_type(then_yield.operands[value.index]),
            bufferizer.buffer_type(else_yield.operands[value.index]),
            tensor_type_of(value),
            op,
        )

    def bufferize(self, op: Operation, bufferizer: BufferizerServices) -> None:
        assert isinstance(op, scf.IfOp)
        types: list[Attribute] = [
            bufferizer.buffer_type(result) if is_tensor(result) else result.type
            for result in op.results
        ]
        then_region, else_region = op.true_region, op.false_region
        op.detach_region(then_region)
        op.detach_region(else_region)
        new = scf.IfOp(op.cond, types, then_region, else_region)
        new.attributes.update(op.attributes)
        bufferizer.insert(new)
        bufferizer.replace_op(op, list(new.results))


# ------------------------------------------------------------------- scf.yield


class YieldOpModel(BufferizableOpModel):
    """Yields are in place: the buffer yielded is the value's own (copying
    it here would make every branch or iteration allocate)."""

    def reads(self, operand: OpOperand, state: AnalysisQueries) -> bool:
        return True

    def aliasing_values(
        self, operand: OpOperand, state: AnalysisQueries
    ) -> list[AliasingValue]:
        parent = operand.op.parent_op()
        if isinstance(parent, scf.IfOp):
            return [
                AliasingValue(
                    parent.results[operand.index],
                    BufferRelation.EQUIVALENT,
                    definite=False,
                )
            ]
        return []

    def must_bufferize_in_place(
        self, operand: OpOperand, state: AnalysisQueries
    ) -> bool:
        return True

    def bufferize(self, op: Operation, bufferizer: BufferizerServices) -> None:
        assert isinstance(op, scf.YieldOp)
        parent = op.parent_op()
        fresh = _FRESH_YIELDS.pop(op, set())
        if not isinstance(parent, scf.ForOp | scf.IfOp) or any(
            is_tensor(r) for r in parent.results
        ):
            # The parent is left on tensors (an op without a model, kept
            # with allow-unknown-ops): so is its terminator.
            return
        values: list[SSAValue] = []
        for position, value in enumerate(op.operands):
            if not is_tensor(value):
                values.append(value)
                continue
            target = memref_of(parent.results[position])
            buffer = bufferizer.buffer(value)
            if position in fresh:
                copy = bufferizer.allocate_like(buffer, target)
                bufferizer.copy(buffer, copy)
                buffer = copy
            values.append(bufferizer.cast(buffer, target))
        bufferizer.insert(scf.YieldOp(*values))
        bufferizer.erase(op)


# ------------------------------------------------------------------ scf.forall


class ForallOpModel(BufferizableOpModel):
    """Shared output i is the buffer of the body's block argument and of
    result i: the iterations write it in place."""

    def reads(self, operand: OpOperand, state: AnalysisQueries) -> bool:
        # Every shared output is taken to be read (as MLIR does): the parts
        # no iteration writes keep the init's contents.
        return True

    def writes(self, operand: OpOperand, state: AnalysisQueries) -> bool:
        return True

    def aliasing_values(
        self, operand: OpOperand, state: AnalysisQueries
    ) -> list[AliasingValue]:
        op = operand.op
        assert isinstance(op, ForallOp)
        first_output = len(op.operands) - len(op.outputs)
        return [
            AliasingValue(
                op.res[operand.index - first_output], BufferRelation.EQUIVALENT
            )
        ]

    def is_repetitive_region(self, op: Operation, region_index: int) -> bool:
        """Whether some dimension may run more than once (dynamic bounds
        may)."""
        assert isinstance(op, ForallOp)
        for low, high, step in zip(*op.mixed_bounds(), strict=True):
            values = (_constant(low), _constant(high), _constant(step))
            if None in values:
                return True
            low_value, high_value, step_value = values
            assert low_value is not None and high_value is not None
            assert step_value is not None
            if low_value + step_value < high_value:
                return True
        return False

    def is_parallel_region(self, op: Operation, region_index: int) -> bool:
        """Iterations may run at the same time (MLIR's `isParallelRegion`):
        a buffer defined outside must not be written inside in place."""
        return self.is_repetitive_region(op, region_index)

    def buffer_type(
        self, value: SSAValue, bufferizer: BufferizerServices
    ) -> MemRefType:
        if isinstance(value, OpResult):
            op = value.op
            assert isinstance(op, ForallOp)
            return bufferizer.buffer_type(op.outputs[value.index])
        assert isinstance(value, BlockArgument)
        op = value.block.parent_op()
        assert isinstance(op, ForallOp)
        return bufferizer.buffer_type(op.outputs[value.index - op.rank])

    def bufferize(self, op: Operation, bufferizer: BufferizerServices) -> None:
        assert isinstance(op, ForallOp)
        buffers = [bufferizer.buffer(output) for output in op.outputs]
        block = op.body.block
        # The body sees each shared output as its buffer.
        wrappers: list[Operation] = []
        for arg, buffer in zip(op.region_out_args, buffers, strict=True):
            if arg.uses:
                wrapper = bufferization.ToTensorOp.create(
                    operands=[buffer], result_types=[arg.type]
                )
                arg.replace_all_uses_with(wrapper.results[0])
                wrappers.append(wrapper)
        for arg in reversed(op.region_out_args):
            block.erase_arg(arg)
        if wrappers:
            Rewriter.insert_op(wrappers, InsertPoint.at_start(block))
        lower, upper, steps = op.mixed_bounds()
        body = op.detach_region(op.body)
        loop = ForallOp(lower, upper, steps, [], body, op.mapping)
        loop.attributes.update(op.attributes)
        bufferizer.insert(loop)
        bufferizer.replace_op(op, buffers)


class ParallelInsertSliceOpModel(BufferizableOpModel):
    """Writes the source into a slice of a shared output's buffer. The
    destination is always that buffer (in place): there is no result a copy
    could be returned through."""

    def reads(self, operand: OpOperand, state: AnalysisQueries) -> bool:
        op = operand.op
        assert isinstance(op, ParallelInsertSliceOp)
        if operand.index == 0:
            return True
        # The rest of the destination is kept: it is read, unless the slice
        # is all of it.
        return operand.index == 1 and not covers_destination(op)

    def writes(self, operand: OpOperand, state: AnalysisQueries) -> bool:
        return operand.index == 1

    def must_bufferize_in_place(
        self, operand: OpOperand, state: AnalysisQueries
    ) -> bool:
        return operand.index == 1

    def is_not_conflicting(
        self, read: OpOperand, write: OpOperand, state: AnalysisQueries
    ) -> bool:
        """The insertions of one terminator happen together: every one reads
        its operands before any writes (in MLIR, the terminator's region is a
        graph region, where each op dominates the others). As for any
        ordering by dominance, this holds only when the value read is
        defined in the same loop body as the reader."""
        reader, writer = read.op, write.op
        if not isinstance(writer, ParallelInsertSliceOp):
            return False
        if reader.parent_block() is not writer.parent_block():
            return False
        region = state.repetitive_region(reader)
        return all(
            state.repetitive_region(definition) is region
            for definition in state.find_definitions(read)
        )

    def bufferize(self, op: Operation, bufferizer: BufferizerServices) -> None:
        assert isinstance(op, ParallelInsertSliceOp)
        in_parallel = op.parent_op()
        assert isinstance(in_parallel, InParallelOp)
        # The terminator holds only insertions: the copy goes before it.
        op.detach()
        Rewriter.insert_op(op, InsertPoint.before(in_parallel))
        destination = bufferizer.buffer(op.dest)
        source = bufferizer.buffer(op.source)
        copy_into_slice(bufferizer, source, destination, op)
        bufferizer.erase(op)


register_model(scf.ForOp, ForOpModel())
register_model(scf.IfOp, IfOpModel())
register_model(scf.YieldOp, YieldOpModel())
register_model(ForallOp, ForallOpModel())
register_model(ParallelInsertSliceOp, ParallelInsertSliceOpModel())
