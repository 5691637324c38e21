"""One-Shot Bufferize's rewrite: tensors to memrefs, given the analysis.

Two steps, as in MLIR:

1. *Copy insertion*: every operand the analysis put out of place gets a
   `bufferization.alloc_tensor` (with `copy(...)` unless the old contents
   are never read), so that afterwards every op may write any operand
   buffer it is given.
2. *Rewrite*, top-down: each op's model replaces it with memref ops. An op
   asks `buffer(value)` for the buffer of a tensor operand and hands its
   result buffers to `replace_op`, which wraps them in
   `bufferization.to_tensor` for the users not yet rewritten. A buffer asked
   of a `to_tensor` is its operand, so the wrappers vanish as the rewrite
   proceeds; at the end, unused wrappers are erased.

With `bufferize-function-boundaries`, every function's memref signature is
computed before any op is rewritten (`Bufferizer.compute_signatures`).
The rewrite sits above the analysis and the models: it runs the analysis,
and reaches models only through the registry (`interface.model_for`).
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import arith, bufferization, func, memref, tensor
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    FunctionType,
    IndexType,
    IntegerAttr,
    MemRefType,
    ModuleOp,
    TensorType,
    UnitAttr,
    i64,
)
from xdsl.ir import Attribute, Operation, OpResult, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from linalg_ext.bufferization.analysis import analyze_module, ordered_functions
from linalg_ext.bufferization.analysis_state import AnalysisState
from linalg_ext.bufferization.interface import (
    BufferizableOpModel,
    BufferizationError,
    OpOperand,
    has_tensor_semantics,
    is_tensor,
    owner_of,
    tensor_operands,
)
from linalg_ext.bufferization.layouts import (
    fully_dynamic_memref,
    guaranteed_cast_compatible,
    identity_memref,
)
from linalg_ext.bufferization.options import BufferizationOptions
from linalg_ext.transforms.module_contents import unique_name


class Bufferizer:
    """What a model's `bufferize` works with: buffers of tensor values, new
    allocations and copies, replacing the op. New ops go before the op being
    rewritten unless a method says otherwise."""

    def __init__(self, module: ModuleOp, state: AnalysisState):
        self.module = module
        self.state = state
        self.options = state.options
        self.function_types: dict[str, FunctionType] = {}
        self.buffer_types: dict[SSAValue, MemRefType] = {}
        """The memref type found for each value so far (a model that made a
        provisional assumption may forget the types found meanwhile)."""
        self._current: Operation | None = None
        self.erased: set[Operation] = set()
        self._input_to_tensors = {
            op for op in module.walk() if isinstance(op, bufferization.ToTensorOp)
        }

    # ------------------------------------------------------------------ types

    def default_type(self, tensor_type: TensorType) -> MemRefType:
        """The type of a new allocation for a tensor of this type."""
        return identity_memref(tensor_type)

    def unknown_type(self, tensor_type: TensorType) -> MemRefType:
        """The type of a buffer whose layout nothing determines."""
        if self.options.unknown_type_conversion == "identity-layout-map":
            return identity_memref(tensor_type)
        return fully_dynamic_memref(tensor_type)

    def boundary_type(self, tensor_type: TensorType) -> MemRefType:
        """The type of a function argument's buffer."""
        if self.options.function_boundary_type_conversion == "identity-layout-map":
            return identity_memref(tensor_type)
        return fully_dynamic_memref(tensor_type)

    def buffer_type(self, value: SSAValue) -> MemRefType:
        """The memref type `value` bufferizes to."""
        if isinstance(value.type, MemRefType):
            return value.type
        cached = self.buffer_types.get(value)
        if cached is not None:
            return cached
        assert isinstance(value.type, TensorType), value.type
        owner = owner_of(value)
        if isinstance(value, OpResult) and isinstance(
            value.op, bufferization.ToTensorOp
        ):
            found = value.op.memref.type
        else:
            model = self.rewrite_model(owner) if owner is not None else None
            if model is None:
                found = self.unknown_type(value.type)
            else:
                found = model.buffer_type(value, self)
        assert isinstance(found, MemRefType)
        self.buffer_types[value] = found
        return found

    def rewrite_model(self, op: Operation) -> BufferizableOpModel | None:
        """The model that rewrites `op`; function ops are left alone unless
        function boundaries are bufferized."""
        if not self.options.bufferize_function_boundaries and isinstance(
            op, func.FuncOp | func.CallOp | func.ReturnOp
        ):
            return None
        return self.state.model(op)

    # ------------------------------------------------------------- insertion

    def insert(self, *ops: Operation) -> None:
        """Insert `ops` before the op being rewritten."""
        assert self._current is not None
        Rewriter.insert_op(ops, InsertPoint.before(self._current))

    def insert_at(self, point: InsertPoint, *ops: Operation) -> None:
        Rewriter.insert_op(ops, point)

    def index_constant(self, value: int) -> SSAValue:
        op = arith.ConstantOp(IntegerAttr(value, IndexType()))
        self.insert(op)
        return op.result

    # ---------------------------------------------------------------- buffers

    def buffer(self, value: SSAValue) -> SSAValue:
        """The buffer of a tensor value (a memref value is its own)."""
        if isinstance(value.type, MemRefType):
            return value
        if isinstance(value, OpResult) and isinstance(
            value.op, bufferization.ToTensorOp
        ):
            return value.op.memref
        memref_type = self.buffer_type(value)
        to_buffer = bufferization.ToBufferOp(
            operands=[value], result_types=[memref_type]
        )
        # Before the op being rewritten: it uses the value, so the value
        # (a result or a block argument) is defined there.
        self.insert(to_buffer)
        return to_buffer.results[0]

    def buffer_as(self, value: SSAValue, memref_type: MemRefType) -> SSAValue:
        """The buffer of `value`, cast (or copied) to `memref_type`."""
        return self.cast(self.buffer(value), memref_type)

    def cast(self, buffer: SSAValue, memref_type: MemRefType) -> SSAValue:
        """`buffer` as `memref_type`: itself, a `memref.cast`, or a copy
        into a new allocation when no cast can express the change. A cast
        that would only hold for some buffers (a dynamic stride or offset
        made static: a strided view is not an identity-layout buffer) is a
        copy too."""
        if buffer.type == memref_type:
            return buffer
        source = buffer.type
        assert isinstance(source, MemRefType)
        if guaranteed_cast_compatible(source, memref_type):
            cast = memref.CastOp.get(buffer, memref_type)
            self.insert(cast)
            return cast.results[0]
        fresh = self.allocate_like(buffer)
        self.copy(buffer, fresh)
        fresh_type = fresh.type
        assert isinstance(fresh_type, MemRefType)
        if fresh_type == memref_type:
            return fresh
        if not guaranteed_cast_compatible(fresh_type, memref_type):
            raise BufferizationError(
                None, f"cannot make a buffer of type {memref_type} from {source}"
            )
        cast = memref.CastOp.get(fresh, memref_type)
        self.insert(cast)
        return cast.results[0]

    def dynamic_sizes_of(self, buffer: SSAValue) -> list[SSAValue]:
        """`memref.dim` of each dynamic dimension of `buffer`."""
        memref_type = buffer.type
        assert isinstance(memref_type, MemRefType)
        sizes: list[SSAValue] = []
        for dim, extent in enumerate(memref_type.get_shape()):
            if extent == DYNAMIC_INDEX:
                dim_op = memref.DimOp(buffer, self.index_constant(dim))
                self.insert(dim_op)
                sizes.append(dim_op.result)
        return sizes

    def allocate(
        self, memref_type: MemRefType, dynamic_sizes: Sequence[SSAValue] = ()
    ) -> SSAValue:
        """A new buffer of `memref_type` (which must have an identity
        layout), aligned as the options say."""
        alignment = self.options.buffer_alignment
        alloc = memref.AllocOp(
            list(dynamic_sizes),
            [],
            memref_type,
            IntegerAttr(alignment, i64) if alignment else None,
        )
        self.insert(alloc)
        return alloc.memref

    def allocate_like(
        self, buffer: SSAValue, like: MemRefType | None = None
    ) -> SSAValue:
        """A new identity-layout buffer of `buffer`'s shape."""
        source = buffer.type
        assert isinstance(source, MemRefType)
        memref_type = MemRefType(
            source.get_element_type(),
            (like or source).get_shape(),
            memory_space=source.memory_space,
        )
        sizes = (
            self.dynamic_sizes_of(buffer)
            if DYNAMIC_INDEX in memref_type.get_shape()
            else []
        )
        return self.allocate(memref_type, sizes)

    def copy(self, source: SSAValue, destination: SSAValue) -> None:
        if source is destination:
            return
        self.insert(memref.CopyOp(source, destination))

    # --------------------------------------------------------------- results

    def replace_op(self, op: Operation, values: Sequence[SSAValue | None]) -> None:
        """Replace `op`'s results: a tensor result by its buffer (wrapped in
        `to_tensor` for users not yet rewritten), any other by the value
        given. Then erase `op`."""
        assert len(values) == len(op.results)
        for result, value in zip(op.results, values, strict=True):
            if not result.uses:
                continue
            assert value is not None, f"no replacement for a result of {op.name}"
            if is_tensor(result) and isinstance(value.type, MemRefType):
                wrapper = bufferization.ToTensorOp(value)
                if wrapper.tensor.type != result.type:
                    wrapper = bufferization.ToTensorOp.create(
                        operands=[value], result_types=[result.type]
                    )
                Rewriter.insert_op(wrapper, InsertPoint.after(op))
                value = wrapper.results[0]
            result.replace_all_uses_with(value)
        self.erase(op)

    def erase(self, op: Operation) -> None:
        for nested in op.walk():
            self.erased.add(nested)
        for result in op.results:
            if result.uses:
                raise BufferizationError(op, "erased while its results are still used")
        Rewriter.erase_op(op, safe_erase=False)

    def new_global_name(self, prefix: str) -> str:
        """`prefix`, or `prefix_0`, `prefix_1`, ... if that name is taken."""
        taken = {
            op.sym_name.data
            for op in self.module.body.block.ops
            if isinstance(op, memref.GlobalOp | func.FuncOp)
        }
        return unique_name(prefix, taken)

    # ------------------------------------------------------------- functions

    def compute_signatures(self) -> None:
        """The memref signature of every function, before any is rewritten:
        arguments as `function-boundary-type-conversion` says; results too,
        except with `infer-layout-map`, where a result has the type of the
        buffer returned."""
        options = self.options
        functions = ordered_functions(self.module)
        for function in functions:
            inputs = [
                self.boundary_type(t) if isinstance(t, TensorType) else t
                for t in function.function_type.inputs
            ]
            self.function_types[function.sym_name.data] = FunctionType.from_lists(
                inputs, list(function.function_type.outputs)
            )
        for function in functions:
            name = function.sym_name.data
            returns = [op for op in function.walk() if isinstance(op, func.ReturnOp)]
            outputs: list[Attribute] = []
            for index, output in enumerate(function.function_type.outputs):
                if not isinstance(output, TensorType):
                    outputs.append(output)
                    continue
                conversion = options.function_boundary_type_conversion
                if conversion == "identity-layout-map":
                    outputs.append(identity_memref(output))
                elif conversion == "fully-dynamic-layout-map" or not returns:
                    outputs.append(fully_dynamic_memref(output))
                else:
                    types = {self.buffer_type(r.operands[index]) for r in returns}
                    outputs.append(
                        types.pop() if len(types) == 1 else fully_dynamic_memref(output)
                    )
            inputs = list(self.function_types[name].inputs)
            self.function_types[name] = FunctionType.from_lists(inputs, outputs)

    # ------------------------------------------------------------------ driver

    def run(self) -> None:
        if self.options.bufferize_function_boundaries:
            self.compute_signatures()
        worklist = [
            op
            for op in self.module.walk()
            if op is not self.module and has_tensor_semantics(op)
        ]
        for op in worklist:
            if op in self.erased or op.parent is None:
                continue
            if not has_tensor_semantics(op):
                continue
            model = self.rewrite_model(op)
            if model is None:
                continue
            self._current = op
            model.bufferize(op, self)
        self._current = None
        self._clean_up()

    def _clean_up(self) -> None:
        """Fold the `to_buffer(to_tensor(x))` pairs left, then erase the
        `to_tensor` wrappers nobody uses. Erasing a wrapper makes nothing
        new to fold (its operand is a memref), so one sweep of each is all."""
        for op in list(self.module.walk()):
            if not isinstance(op, bufferization.ToBufferOp):
                continue
            source = op.tensor
            if isinstance(source, OpResult) and isinstance(
                source.op, bufferization.ToTensorOp
            ):
                self._current = op
                memref_type = op.memref.type
                assert isinstance(memref_type, MemRefType)
                buffer = self.cast(source.op.memref, memref_type)
                op.memref.replace_all_uses_with(buffer)
                Rewriter.erase_op(op)
        self._current = None
        for op in list(self.module.walk()):
            if isinstance(op, bufferization.ToTensorOp) and not op.tensor.uses:
                Rewriter.erase_op(op)
        if not self.options.bufferize_function_boundaries:
            self._mark_returned_wrappers_restrict()

    def _mark_returned_wrappers_restrict(self) -> None:
        """The `to_tensor` wrappers left for `func.return` (function
        boundaries not bufferized) are `restrict`: nothing else in the
        function reaches their buffer through a tensor any more (every op but
        the boundary ones is on memrefs now), so the output may be
        bufferized again (as the JIT does, at the boundaries), where a
        `to_tensor` without `restrict` is refused. Wrappers kept for ops
        left on tensors (allow-unknown-ops) are not: such an op may reach
        the buffer through another tensor."""
        for op in self.module.walk():
            if (
                isinstance(op, bufferization.ToTensorOp)
                and op not in self._input_to_tensors
                and op.restrict is None
                and all(isinstance(u.operation, func.ReturnOp) for u in op.tensor.uses)
            ):
                op.restrict = UnitAttr()


# --------------------------------------------------------------- copy insertion


def _shape_operands(value: SSAValue, before: Operation) -> list[SSAValue]:
    """`tensor.dim` of each dynamic dimension of `value`, inserted before
    `before`."""
    tensor_type = value.type
    assert isinstance(tensor_type, TensorType)
    # A slice (of the same rank) or an empty tensor already holds its dynamic
    # sizes as operands: use them rather than asking `tensor.dim`, which a
    # tiled loop would re-evaluate on every iteration through a subview.
    owner = value.owner
    if isinstance(owner, tensor.EmptyOp):
        return list(owner.dynamic_sizes)
    if (
        isinstance(owner, tensor.ExtractSliceOp)
        and isinstance(owner.source.type, TensorType)
        and owner.source.type.get_num_dims() == tensor_type.get_num_dims()
    ):
        return list(owner.sizes)
    sizes: list[SSAValue] = []
    for dim, extent in enumerate(tensor_type.get_shape()):
        if extent == DYNAMIC_INDEX:
            index = arith.ConstantOp(IntegerAttr(dim, IndexType()))
            dim_op = tensor.DimOp(value, index)
            Rewriter.insert_op([index, dim_op], InsertPoint.before(before))
            sizes.append(dim_op.result)
    return sizes


def _alloc_tensor(
    value: SSAValue, before: Operation, copy: bool
) -> bufferization.AllocTensorOp:
    tensor_type = value.type
    assert isinstance(tensor_type, TensorType)
    if copy:
        alloc = bufferization.AllocTensorOp(tensor_type, [], value)
    else:
        alloc = bufferization.AllocTensorOp(tensor_type, _shape_operands(value, before))
    Rewriter.insert_op(alloc, InsertPoint.before(before))
    return alloc


def insert_tensor_copies(module: ModuleOp, state: AnalysisState) -> None:
    """Give every out-of-place operand a copy of its own (MLIR's
    `TensorCopyInsertion`)."""
    for op in list(module.walk()):
        if state.model(op) is None:
            continue
        values_to_copy: list[tuple[SSAValue, bool]] = []
        operands_to_copy: list[tuple[OpOperand, bool]] = []
        for operand in tensor_operands(op):
            if state.is_in_place(operand) or operand not in state.decided:
                continue
            aliases = state.aliasing_values(operand)
            copy = not state.can_omit_copy(operand)
            if (
                len(aliases) == 1
                and isinstance(aliases[0].value, OpResult)
                and not state.writes(operand)
                and len(state.aliasing_operands(aliases[0].value)) == 1
            ):
                # The op only makes an alias (an extract_slice): copying the
                # (often smaller) result serves as well as the operand.
                values_to_copy.append((aliases[0].value, copy))
            else:
                operands_to_copy.append((operand, copy))
        for operand, copy in operands_to_copy:
            alloc = _alloc_tensor(operand.value, op, copy)
            op.operands[operand.index] = alloc.tensor
        for value, copy in values_to_copy:
            users = [u for u in value.uses]
            after = op.next_op
            assert after is not None
            alloc = _alloc_tensor(value, after, copy)
            for use in users:
                if isinstance(use.operation, tensor.DimOp):
                    continue
                use.operation.operands[use.index] = alloc.tensor


def bufferize_module(module: ModuleOp, options: BufferizationOptions) -> AnalysisState:
    """Analyse and (unless `test_analysis_only`) bufferize `module` in place.
    Raises `BufferizationError`; the caller keeps a copy to restore."""
    state = analyze_module(module, options)
    if options.test_analysis_only:
        return state
    insert_tensor_copies(module, state)
    Bufferizer(module, state).run()
    _check_done(module, options)
    return state


def _check_done(module: ModuleOp, options: BufferizationOptions) -> None:
    if options.allow_unknown_ops:
        return
    for op in module.walk():
        if op is module or not has_tensor_semantics(op):
            continue
        if isinstance(op, bufferization.ToTensorOp | bufferization.ToBufferOp):
            continue
        if not options.bufferize_function_boundaries and isinstance(
            op, func.FuncOp | func.ReturnOp | func.CallOp
        ):
            continue
        raise BufferizationError(op, "op was not bufferized")
