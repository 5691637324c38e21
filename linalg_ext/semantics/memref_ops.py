"""Interpreter functions for the `memref` ops our passes produce and consume.

Registered over xDSL's own (override=True). A memref is a buffer: views
(`subview`, `cast`, `expand_shape`, `collapse_shape`) alias their source, so
a store through a view changes the source and the other way round. A view
that is not row-major is a `StridedArray` (see arrays.py). Loads, stores
and slices are bounds-checked; bad input is an `InterpretationError` naming
the op.

`memref.rank` gives the number of dimensions;
`memref.extract_strided_metadata` the base buffer (a 0-d view of
the start of the memory), the offset, sizes and strides;
`memref.extract_aligned_pointer_as_index` an address that is the same for
every view of one buffer and differs between buffers (what upstream's
buffer deallocation compares). Freeing a base buffer frees its allocation.

Every `memref.alloc` is recorded in the interpreter's `AllocationTracker`
(`allocation_tracker(interpreter)`): `memref.dealloc` of anything but a live
allocation (a double free, a function argument, a global, an alloca, a view
of part of an allocation) is an error, and so is a load, store, copy or view
of a freed buffer. What is still live after a call is how
`linalg_ext.running` finds leaks. Buffers made by bufferization ops from
tensors are not tracked; `bufferization.clone`'s are (its user frees them).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from math import prod
from typing import Any

from xdsl.dialects import bufferization, func, memref
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    DenseResourceAttr,
    MemRefType,
    NoneAttr,
    StridedLayoutAttr,
    TensorType,
)
from xdsl.interpreter import (
    Interpreter,
    InterpreterFunctions,
    PythonValues,
    impl,
    register_impls,
)
from xdsl.interpreters.memref import MemRefFunctions
from xdsl.interpreters.shaped_array import ShapedArray
from xdsl.interpreters.utils.ptr import RawPtr, TypedPtr
from xdsl.ir import Operation
from xdsl.traits import SymbolTable
from xdsl.utils.exceptions import InterpretationError

from linalg_ext.dialect.runtime_check import reported_name
from linalg_ext.semantics.arrays import (
    array_from_numpy,
    check_allocation,
    check_fits_type,
    check_groups,
    check_index,
    check_sizes,
    check_slice_bounds,
    check_stack_allocation,
    checked_dim,
    element_xtype,
    fill_dynamic,
    interpreted_resource,
    is_contiguous,
    make_view,
    numpy_view,
    slice_operands,
    strides_of,
)
from linalg_ext.semantics.fresh_buffers import fresh_buffer
from linalg_ext.semantics.static_rules import kept_slice_dims, reassociation_groups
from linalg_ext.shaped import element_type_of


def check_cast_layout(
    source: ShapedArray[Any],
    source_type: MemRefType,
    type_: MemRefType,
    op_name: str,
) -> None:
    """The real strides and offset of `source` (of type `source_type`)
    against the static ones of a cast's target `type_`: a strided layout's,
    or, for an identity layout of a strided source, row-major strides and
    offset 0. Strides of unit dimensions, and the layout of an empty view,
    do not matter."""
    if 0 in source.shape:
        return
    strides = strides_of(source)
    pointer = source.data_ptr
    offset = pointer.raw.offset // pointer.size
    layout = type_.layout
    if isinstance(layout, NoneAttr):
        if isinstance(source_type.layout, NoneAttr):
            return
        fits = offset == 0 and is_contiguous(source.shape, strides)
    elif isinstance(layout, StridedLayoutAttr):
        want_strides, want_offset = type_.get_strides(), type_.get_offset()
        fits = want_offset in (None, DYNAMIC_INDEX) or want_offset == offset
        if want_strides is not None:
            fits = fits and all(
                want in (None, DYNAMIC_INDEX) or size == 1 or want == have
                for size, have, want in zip(
                    source.shape, strides, want_strides, strict=True
                )
            )
    else:
        return
    if not fits:
        raise InterpretationError(
            f"{op_name}: the source has strides {strides} and offset {offset}, "
            f"which do not fit {type_}"
        )


def _slice_sizes(view: memref.SubviewOp, shape: Sequence[int]) -> list[int]:
    """The sizes of the (rank-reduced) subview `view` whose run-time shape is
    `shape`, its dropped unit dimensions included."""
    sizes = list(view.static_sizes.get_values())
    result_type = view.result.type
    assert isinstance(result_type, MemRefType)
    kept = kept_slice_dims(sizes, result_type.get_shape(), view.name)
    for dim, size in zip(kept, shape, strict=True):
        sizes[dim] = size
    return sizes


def _moved(pointer: TypedPtr[Any], elements: int) -> TypedPtr[Any]:
    """A pointer `elements` further into the same memory."""
    return TypedPtr[Any](pointer.raw + elements * pointer.size, xtype=pointer.xtype)


def _function_of(op: Operation) -> str | None:
    parent = op.parent_op()
    while parent is not None and not isinstance(parent, func.FuncOp):
        parent = parent.parent_op()
    return parent.sym_name.data if parent is not None else None


@dataclass(frozen=True)
class Allocation:
    """One buffer made by `memref.alloc`, `memref.alloca` or
    `bufferization.clone`."""

    op: memref.AllocOp | memref.AllocaOp | bufferization.CloneOp
    shape: tuple[int, ...]
    memory: bytearray = field(repr=False, compare=False)

    def describe(self) -> str:
        """`shape (4, 4) allocated by memref.alloc %t in @f`."""
        hint = self.op.results[0].name_hint
        where = _function_of(self.op)
        return (
            f"shape {self.shape} allocated by {self.op.name}"
            + (f" %{hint}" if hint else "")
            + (f" in @{where}" if where else "")
        )


def _memory(value: ShapedArray[Any]) -> bytearray:
    return value.data_ptr.raw.memory


@dataclass
class AllocationTracker:
    """The buffers of one interpreter: live and freed allocations, keyed by
    the identity of their memory (views share their source's memory), and
    what else is known about buffers that are not allocations."""

    live: dict[int, Allocation] = field(default_factory=dict[int, Allocation])
    freed: dict[int, Allocation] = field(default_factory=dict[int, Allocation])
    """Kept (with their memory) so that an identity is never reused."""
    stack: dict[int, Allocation] = field(default_factory=dict[int, Allocation])
    """`memref.alloca` buffers: freed when their scope ends, never by dealloc."""
    others: dict[int, tuple[str, bytearray]] = field(
        default_factory=dict[int, tuple[str, bytearray]]
    )
    """Buffers that are not allocations, with what they are (set by
    `run_function` for the arguments)."""
    base_buffers: dict[int, ShapedArray[Any]] = field(
        default_factory=dict[int, ShapedArray[Any]]
    )
    """The base buffers `memref.extract_strided_metadata` made, by identity
    (kept so that an identity is never reused): each stands for its whole
    allocation."""

    def allocate(
        self,
        op: memref.AllocOp | memref.AllocaOp | bufferization.CloneOp,
        value: ShapedArray[Any],
    ) -> None:
        memory = _memory(value)
        allocation = Allocation(op, tuple(value.shape), memory)
        table = self.stack if isinstance(op, memref.AllocaOp) else self.live
        table[id(memory)] = allocation

    def note(self, value: ShapedArray[Any], what: str) -> None:
        """Record that `value`'s buffer is `what` (e.g. an argument)."""
        memory = _memory(value)
        self.others[id(memory)] = (what, memory)

    def free(self, op: Operation, value: ShapedArray[Any]) -> None:
        key = id(_memory(value))
        allocation = self.live.get(key)
        if allocation is None:
            raise InterpretationError(f"{op.name}: {self._not_live(key)}")
        whole = id(value) in self.base_buffers or (
            value.data_ptr.raw.offset == 0
            and value.size == prod(allocation.shape)
            and is_contiguous(value.shape, strides_of(value))
        )
        if not whole:
            raise InterpretationError(
                f"{op.name}: not an allocation: the operand is a view of part of "
                f"the buffer of {allocation.describe()}, not the buffer itself"
            )
        del self.live[key]
        self.freed[key] = allocation

    def _not_live(self, key: int) -> str:
        if key in self.freed:
            return f"double free of the buffer of {self.freed[key].describe()}"
        if key in self.stack:
            return (
                f"not an allocation: the buffer of {self.stack[key].describe()} "
                "is freed when its scope ends"
            )
        if key in self.others:
            return f"not an allocation: the operand is {self.others[key][0]}"
        return (
            "not an allocation: the operand's buffer was not made by memref.alloc "
            "(a global, or a buffer made by a bufferization op)"
        )

    def check_live(self, op: Operation, value: Any) -> None:
        """Raise if `value` is a view of a freed buffer."""
        if isinstance(value, ShapedArray):
            allocation = self.freed.get(id(_memory(value)))
            if allocation is not None:
                raise InterpretationError(
                    f"{op.name}: use of a freed buffer (the buffer of "
                    f"{allocation.describe()}, freed by memref.dealloc)"
                )

    def leaks(self, kept: list[Any]) -> list[Allocation]:
        """The live allocations none of the `kept` values (views or not) is in."""
        reachable = {id(_memory(v)) for v in kept if isinstance(v, ShapedArray)}
        return [a for key, a in self.live.items() if key not in reachable]


def allocation_tracker(interpreter: Interpreter) -> AllocationTracker:
    """The allocations of `interpreter` (one tracker per interpreter)."""
    return interpreter.get_data(MemRefOpFunctions, "allocations", AllocationTracker)


def _check_live(interpreter: Interpreter, op: Operation, *values: Any) -> None:
    tracker = allocation_tracker(interpreter)
    if tracker.freed:
        for value in values:
            tracker.check_live(op, value)


def _allocate(
    interpreter: Interpreter, op: memref.AllocOp | memref.AllocaOp, args: PythonValues
) -> PythonValues:
    memref_type = op.memref.type
    # The symbol operands that follow bind a layout map's symbols; a new
    # buffer is laid out row-major whatever its type's layout says.
    dynamic_sizes = args[: len(op.dynamic_sizes)]
    # Named as the op it was bufferized from (a tensor.empty), if any.
    name = reported_name(op)
    shape = fill_dynamic(memref_type.get_shape(), dynamic_sizes, name, "sizes")
    check_sizes(shape, name)
    element_type = memref_type.get_element_type()
    xtype = element_xtype(element_type, interpreter.index_bitwidth)
    if isinstance(op, memref.AllocaOp):
        check_stack_allocation(shape, xtype, name)
    check_allocation(shape, xtype, name)
    # Undefined elements: zeros unless a fill says otherwise (fresh_buffers).
    return (fresh_buffer(op, shape, xtype, element_type),)


@register_impls
class MemRefOpFunctions(InterpreterFunctions):
    @impl(memref.AllocOp)
    def run_alloc(
        self, interpreter: Interpreter, op: memref.AllocOp, args: PythonValues
    ) -> PythonValues:
        results = _allocate(interpreter, op, args)
        allocation_tracker(interpreter).allocate(op, results[0])
        return results

    @impl(memref.AllocaOp)
    def run_alloca(
        self, interpreter: Interpreter, op: memref.AllocaOp, args: PythonValues
    ) -> PythonValues:
        results = _allocate(interpreter, op, args)
        allocation_tracker(interpreter).allocate(op, results[0])
        return results

    @impl(memref.GetGlobalOp)
    def run_get_global(
        self, interpreter: Interpreter, op: memref.GetGlobalOp, args: PythonValues
    ) -> PythonValues:
        # xDSL reads `dense<...>` initial values; ours also `dense_resource`.
        global_op = SymbolTable.lookup_symbol(op, op.name_)
        if not isinstance(global_op, memref.GlobalOp):
            raise InterpretationError(
                f"{op.name}: no memref.global {op.name_} in the module"
            )
        value = global_op.initial_value
        if not isinstance(value, DenseResourceAttr):
            return MemRefFunctions().run_get_global(interpreter, op, args).values
        elements = interpreted_resource(global_op, value)
        element_type = element_type_of(value.type)
        xtype = element_xtype(element_type, interpreter.index_bitwidth)
        return (array_from_numpy(elements, xtype),)

    @impl(memref.DeallocOp)
    def run_dealloc(
        self, interpreter: Interpreter, op: memref.DeallocOp, args: PythonValues
    ) -> PythonValues:
        # The tracker forgets the buffer; Python frees the memory once no
        # value refers to it.
        (buffer,) = args
        allocation_tracker(interpreter).free(op, buffer)
        return ()

    @impl(memref.LoadOp)
    def run_load(
        self, interpreter: Interpreter, op: memref.LoadOp, args: PythonValues
    ) -> PythonValues:
        source, *indices = args
        _check_live(interpreter, op, source)
        return (source.load(check_index(op, source, indices, reported_name(op))),)

    @impl(memref.StoreOp)
    def run_store(
        self, interpreter: Interpreter, op: memref.StoreOp, args: PythonValues
    ) -> PythonValues:
        value, destination, *indices = args
        _check_live(interpreter, op, destination)
        index = check_index(op, destination, indices, reported_name(op))
        destination.store(index, value)
        return ()

    @impl(memref.DimOp)
    def run_dim(
        self, interpreter: Interpreter, op: memref.DimOp, args: PythonValues
    ) -> PythonValues:
        source, dim = args
        _check_live(interpreter, op, source)
        # Named as the tensor.dim it was bufferized from, if any.
        name = reported_name(op)
        kind = "tensor" if name == "tensor.dim" else "memref"
        return (checked_dim(op, source, dim, kind, name),)

    @impl(memref.CastOp)
    def run_cast(
        self, interpreter: Interpreter, op: memref.CastOp, args: PythonValues
    ) -> PythonValues:
        (source,) = args
        _check_live(interpreter, op, source)
        if isinstance(op.dest.type, MemRefType):
            name = reported_name(op)
            target = op.dest.type
            shown = (  # made from a tensor.cast: its message
                TensorType(target.get_element_type(), target.get_shape())
                if name.startswith("tensor.")
                else target
            )
            check_fits_type(source.shape, shown, name, "the source")
            if isinstance(op.source.type, MemRefType):
                check_cast_layout(source, op.source.type, target, name)
        return (source,)

    @impl(memref.RankOp)
    def run_rank(
        self, interpreter: Interpreter, op: memref.RankOp, args: PythonValues
    ) -> PythonValues:
        (source,) = args
        return (len(source.shape),)

    @impl(memref.ExtractStridedMetaDataOp)
    def run_extract_strided_metadata(
        self,
        interpreter: Interpreter,
        op: memref.ExtractStridedMetaDataOp,
        args: PythonValues,
    ) -> PythonValues:
        (source,) = args
        _check_live(interpreter, op, source)
        pointer = source.data_ptr
        start = TypedPtr[Any](RawPtr(pointer.raw.memory), xtype=pointer.xtype)
        base = ShapedArray(start, [])
        allocation_tracker(interpreter).base_buffers[id(base)] = base
        offset = pointer.raw.offset // pointer.size
        return (base, offset, *source.shape, *strides_of(source))

    @impl(memref.ExtractAlignedPointerAsIndexOp)
    def run_extract_aligned_pointer_as_index(
        self,
        interpreter: Interpreter,
        op: memref.ExtractAlignedPointerAsIndexOp,
        args: PythonValues,
    ) -> PythonValues:
        # The buffer's identity stands for its address: equal for every view
        # of one buffer, different for different buffers.
        (source,) = args
        return (id(_memory(source)),)

    @impl(memref.CopyOp)
    def run_copy(
        self, interpreter: Interpreter, op: memref.CopyOp, args: PythonValues
    ) -> PythonValues:
        source, destination = args
        _check_live(interpreter, op, source, destination)
        if list(source.shape) != list(destination.shape):
            name = reported_name(op)
            view = op.destination.owner
            if name != op.name and isinstance(view, memref.SubviewOp):
                # Made from an insert_slice into this subview: its message.
                sizes = _slice_sizes(view, destination.shape)
                raise InterpretationError(
                    f"{name}: source of shape {source.shape} does not fill a slice "
                    f"of sizes {sizes}"
                )
            raise InterpretationError(
                f"{op.name}: source of shape {source.shape} and destination of "
                f"shape {destination.shape} differ"
            )
        # numpy copies through a temporary when the two views overlap.
        numpy_view(destination)[...] = numpy_view(source)
        return ()

    @impl(memref.SubviewOp)
    def run_subview(
        self, interpreter: Interpreter, op: memref.SubviewOp, args: PythonValues
    ) -> PythonValues:
        source, *values = args
        _check_live(interpreter, op, source)
        offsets, sizes, strides = slice_operands(op, values)
        check_slice_bounds(source.shape, offsets, sizes, strides, reported_name(op))
        source_strides = strides_of(source)
        first = sum(o * s for o, s in zip(offsets, source_strides, strict=True))
        kept = kept_slice_dims(
            op.static_sizes.get_values(), op.result.type.get_shape(), op.name
        )
        return (
            make_view(
                _moved(source.data_ptr, first),
                [sizes[d] for d in kept],
                [source_strides[d] * strides[d] for d in kept],
            ),
        )

    @impl(memref.ExpandShapeOp)
    def run_expand_shape(
        self, interpreter: Interpreter, op: memref.ExpandShapeOp, args: PythonValues
    ) -> PythonValues:
        source, *dynamic_sizes = args
        _check_live(interpreter, op, source)
        name = reported_name(op)
        shape = fill_dynamic(
            op.static_output_shape.get_values(), dynamic_sizes, name, "sizes"
        )
        check_sizes(shape, name)
        groups = reassociation_groups(op.reassociation)
        check_groups(groups, shape, source.shape, name)
        # Splitting a dimension of stride s into sizes (.., b, c) gives
        # strides (.., c*s, s): always possible, whatever the source layout.
        strides = [0] * len(shape)
        for group, source_stride in zip(groups, strides_of(source), strict=True):
            stride = source_stride
            for dim in reversed(group):
                strides[dim] = stride
                stride *= shape[dim]
        return (make_view(source.data_ptr, shape, strides),)

    @impl(memref.CollapseShapeOp)
    def run_collapse_shape(
        self, interpreter: Interpreter, op: memref.CollapseShapeOp, args: PythonValues
    ) -> PythonValues:
        (source,) = args
        _check_live(interpreter, op, source)
        groups = reassociation_groups(op.reassociation)
        source_strides = strides_of(source)
        shape: list[int] = []
        strides: list[int] = []
        for group in groups:
            sizes = [source.shape[d] for d in group]
            shape.append(prod(sizes))
            # Merging dimensions into one needs each (non-unit) one to step
            # over exactly the next one's extent, as in a row-major array.
            spanning = [d for d in group if source.shape[d] != 1]
            if 0 not in sizes:
                for outer, inner in zip(spanning, spanning[1:], strict=False):
                    if (
                        source_strides[outer]
                        != source_strides[inner] * source.shape[inner]
                    ):
                        raise InterpretationError(
                            f"{op.name}: dimensions {group} of a view of shape "
                            f"{source.shape} and strides {source_strides} are not "
                            "contiguous, so they cannot be collapsed without a copy"
                        )
            strides.append(source_strides[(spanning or group)[-1]] if group else 1)
        check_groups(groups, source.shape, shape, op.name)
        check_fits_type(shape, op.result.type, op.name, "the collapsed memref")
        return (make_view(source.data_ptr, shape, strides),)
