"""`finalize-memref-to-llvm`: every `memref` op to the `llvm` dialect.

Upstream MLIR's pass of the same name, with upstream's memref descriptor
(`linalg_ext.lowering.llvm_types`): a memref value becomes the struct
`(allocated ptr, aligned ptr, offset, sizes[N], strides[N])`. A partial
conversion, as upstream's: operands of other dialects are bridged with
`builtin.unrealized_conversion_cast`, results are cast back for users not
yet converted, and `reconcile-unrealized-casts` removes the pairs.

- `memref.alloc` calls `malloc` (`use-generic-functions`:
  `_mlir_memref_to_llvm_alloc`); with an `alignment` it allocates that many
  bytes more and rounds the aligned pointer up, as upstream does
  (`use-aligned-alloc`: `aligned_alloc` instead). `memref.alloca` is an
  `llvm.alloca`; `memref.dealloc` frees the allocated pointer (`free`, or
  `_mlir_memref_to_llvm_free`).
- `memref.load`/`store` address `aligned + offset + sum(index * stride)`
  elements with one `llvm.getelementptr`; every size, stride or offset the
  type fixes is a constant (a row-major memref of static shape needs no
  field of its descriptor but the aligned pointer).
- Views (`subview`, also rank-reducing, `reinterpret_cast`, `cast`,
  `expand_shape`, `collapse_shape`, `view`) build the new descriptor
  directly: upstream runs `expand-strided-metadata` first, which has no
  counterpart here. `dim`, `rank`, `extract_strided_metadata`,
  `extract_aligned_pointer_as_index` read the descriptor;
  `assume_alignment` passes its operand on.
- `memref.global` is an `llvm.mlir.global` of a flat `!llvm.array<N x T>`
  (private linkage for a private global, constant when marked so, the
  alignment kept; an uninitialized one starts as zeros); `get_global`
  takes its address, with the allocated pointer `0xdeadbeef`, as upstream,
  since a global must never be freed.
- `memref.copy` between memrefs whose elements are contiguous is one
  `llvm.intr.memcpy`; otherwise a loop nest of loads and stores, built in
  the `llvm` dialect (upstream calls a runtime function instead). When only
  the descriptors can tell (dynamic strides), both are emitted and chosen
  between at run time.

Refused with a message naming the op, the module left unchanged: unranked
memrefs, memory spaces other than the default, element types other than
f16, f32, f64, i1, i8, i16, i32, i64 and index, layouts that are not
strided, allocations of a non-identity layout, memref ops not listed above
(`atomic_rmw`, `alloca_scope`, `memory_space_cast`, DMA), and a copy that
needs a loop inside a region whose control flow is not lowered yet.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from xdsl.context import Context
from xdsl.dialects import arith, func, llvm, memref
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AnyFloat,
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    IntAttr,
    IntegerAttr,
    MemRefType,
    ModuleOp,
    NoneAttr,
    StridedLayoutAttr,
    TensorType,
    UnrankedMemRefType,
)
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import BlockInsertPoint, InsertPoint, Rewriter
from xdsl.traits import SymbolTable
from xdsl.utils.exceptions import PassFailedException

from linalg_ext.bufferization.layouts import row_major_strides as static_row_major
from linalg_ext.bufferization.layouts import strides_and_offset
from linalg_ext.compat.llvm_memory_ops import MemcpyOp
from linalg_ext.diagnostics import OpPassFailed
from linalg_ext.lowering.llvm_types import (
    INDEX_TYPE,
    POINTER,
    LoweringError,
    replace_with_llvm,
    to_llvm,
)
from linalg_ext.lowering.memref_ops import (
    SUPPORTED_ELEMENT_TYPES,
    Emitter,
    Index,
    StridedMemRef,
    build_descriptor,
    contiguity,
    element_size,
    emit_loop_nest,
    llvm_element_type,
    row_major_strides,
    split_block_before,
    static_contiguity,
)
from linalg_ext.transforms.module_contents import replace_module_contents

PASS_NAME = "finalize-memref-to-llvm"

GLOBAL_MARKER = 0xDEADBEEF
"""The allocated pointer of a `memref.get_global` descriptor (upstream's):
freeing it would be a bug, and a crash says so."""

DEFAULT_ALIGNED_ALLOC_ALIGNMENT = 16
"""`use-aligned-alloc` without an `alignment` attribute: malloc's own."""


# --------------------------------------------------------------------------
# What the pass refuses


class _Refusal(Exception):
    """Why an op cannot be lowered; the message names the op."""


_LOWERED_OPS: tuple[type[Operation], ...] = (
    memref.AllocOp,
    memref.AllocaOp,
    memref.DeallocOp,
    memref.LoadOp,
    memref.StoreOp,
    memref.DimOp,
    memref.RankOp,
    memref.CastOp,
    memref.CopyOp,
    memref.SubviewOp,
    memref.ReinterpretCastOp,
    memref.ExpandShapeOp,
    memref.CollapseShapeOp,
    memref.ViewOp,
    memref.GlobalOp,
    memref.GetGlobalOp,
    memref.ExtractStridedMetaDataOp,
    memref.ExtractAlignedPointerAsIndexOp,
    memref.AssumeAlignmentOp,
)

_REASONS: dict[type[Operation], str] = {
    memref.AtomicRMWOp: "atomic read-modify-write is not lowered",
    memref.MemorySpaceCastOp: "memory spaces other than the default are not supported",
    memref.AllocaScopeOp: "alloca scopes are not lowered",
    memref.AllocaScopeReturnOp: "alloca scopes are not lowered",
    memref.DmaStartOp: "DMA operations are not lowered",
    memref.DmaWaitOp: "DMA operations are not lowered",
}


def _type_problem(type_: Attribute) -> str | None:
    if isinstance(type_, UnrankedMemRefType):
        return f"unranked memrefs are not supported: {type_}"
    if not isinstance(type_, MemRefType):
        return None
    space = type_.memory_space
    if not (
        isinstance(space, NoneAttr)
        or (isinstance(space, IntegerAttr) and space.value.data == 0)
    ):
        return f"memory space {space} is not supported (only the default): {type_}"
    if element_size(type_.get_element_type()) is None:
        return (
            f"element type {type_.get_element_type()} is not supported "
            f"({SUPPORTED_ELEMENT_TYPES}): {type_}"
        )
    if not isinstance(type_.layout, NoneAttr | StridedLayoutAttr):
        return f"layout {type_.layout} is not strided: {type_}"
    return None


def _allocatable(type_: MemRefType) -> bool:
    """An identity layout, or a strided one that says the same."""
    if isinstance(type_.layout, NoneAttr):
        return True
    strides, offset = strides_and_offset(type_)
    return offset == 0 and strides == static_row_major(type_.get_shape())


def _multi_block_region(op: Operation) -> bool:
    """Whether `op`'s block may be split (a function body)."""
    parent = op.parent_op()
    return isinstance(parent, func.FuncOp | llvm.FuncOp)


def _check(op: Operation, module: ModuleOp) -> None:
    """Raise `_Refusal` if the pass cannot lower the memref op `op`."""
    if type(op) not in _LOWERED_OPS:
        reason = _REASONS.get(type(op), f"is not lowered by {PASS_NAME}")
        raise _Refusal(f"'{op.name}': {reason}")
    types = [v.type for v in (*op.operands, *op.results)]
    if isinstance(op, memref.GlobalOp):
        types.append(op.type)
    for type_ in types:
        if (problem := _type_problem(type_)) is not None:
            raise _Refusal(f"'{op.name}': {problem}")
    if isinstance(op, memref.AllocOp | memref.AllocaOp | memref.GlobalOp):
        type_ = op.type if isinstance(op, memref.GlobalOp) else op.memref.type
        if not _allocatable(type_):
            raise _Refusal(
                f"'{op.name}': only an identity layout can be allocated, not {type_}"
            )
    if isinstance(op, memref.AllocOp | memref.AllocaOp) and op.symbol_operands:
        raise _Refusal(f"'{op.name}': layout symbol operands are not supported")
    if isinstance(op, memref.GetGlobalOp):
        found = SymbolTable.lookup_symbol(module, op.name_)
        if not isinstance(found, memref.GlobalOp):
            raise _Refusal(
                f"'{op.name}': no memref.global {op.name_} in the module to refer to"
            )
    if isinstance(op, memref.CopyOp):
        source, target = op.source.type, op.destination.type
        assert isinstance(source, MemRefType) and isinstance(target, MemRefType)
        contiguous = static_contiguity(source) is True and (
            static_contiguity(target) is True
        )
        if not contiguous and not _multi_block_region(op):
            parent = op.parent_op()
            raise _Refusal(
                f"'{op.name}': copying non-contiguous memrefs needs a loop, which "
                f"cannot be built inside '{parent.name if parent else '?'}' (lower "
                "its control flow first, e.g. convert-scf-to-cf-ext)"
            )


def _first_refusal(
    module: ModuleOp, lowering: _Lowering
) -> tuple[Operation, str] | None:
    """The first memref op the pass refuses, and why."""
    for op in module.walk():
        if op.name.startswith("memref."):
            try:
                _check(op, module)
                _check_runtime_function(op, lowering, module)
            except _Refusal as refusal:
                return op, str(refusal)
    return None


# --------------------------------------------------------------------------
# Shared state of one run


@dataclass
class _Lowering:
    """The options of one run, and the runtime functions its code calls."""

    use_generic_functions: bool
    use_aligned_alloc: bool
    functions: dict[str, llvm.LLVMFunctionType] = field(
        default_factory=dict[str, llvm.LLVMFunctionType]
    )

    def allocation_function(self) -> tuple[str, llvm.LLVMFunctionType]:
        """What `memref.alloc` calls: (name, type)."""
        if self.use_aligned_alloc:
            name = (
                "_mlir_memref_to_llvm_aligned_alloc"
                if self.use_generic_functions
                else "aligned_alloc"
            )
            return name, llvm.LLVMFunctionType([INDEX_TYPE, INDEX_TYPE], POINTER)
        name = "_mlir_memref_to_llvm_alloc" if self.use_generic_functions else "malloc"
        return name, llvm.LLVMFunctionType([INDEX_TYPE], POINTER)

    def free_function(self) -> tuple[str, llvm.LLVMFunctionType]:
        """What `memref.dealloc` calls: (name, type)."""
        name = "_mlir_memref_to_llvm_free" if self.use_generic_functions else "free"
        return name, llvm.LLVMFunctionType([POINTER], llvm.LLVMVoidType())

    def runtime_function(
        self, op: Operation
    ) -> tuple[str, llvm.LLVMFunctionType] | None:
        if isinstance(op, memref.AllocOp):
            return self.allocation_function()
        if isinstance(op, memref.DeallocOp):
            return self.free_function()
        return None

    def _use(self, function: tuple[str, llvm.LLVMFunctionType]) -> str:
        name, type_ = function
        self.functions[name] = type_
        return name

    def allocate(
        self, emitter: Emitter, size: Index, alignment: int | None
    ) -> tuple[SSAValue, SSAValue]:
        """Heap memory for `size` bytes: (allocated, aligned) pointers."""
        name = self._use(self.allocation_function())
        if self.use_aligned_alloc:
            align = alignment or DEFAULT_ALIGNED_ALLOC_ALIGNMENT
            # aligned_alloc wants a multiple of the alignment.
            if isinstance(size, int):
                rounded: Index = -(-size // align) * align
            else:
                bumped = emitter.add(size, align - 1)
                rounded = emitter.emit(
                    llvm.AndOp(emitter.value(bumped), emitter.constant(-align))
                ).res
            pointer = emitter.call(
                name, [emitter.constant(align), emitter.value(rounded)], POINTER
            )
            assert pointer is not None
            return pointer, pointer
        total = size if alignment is None else emitter.add(size, alignment)
        allocated = emitter.call(name, [emitter.value(total)], POINTER)
        assert allocated is not None
        if alignment is None:
            return allocated, allocated
        # Round the address up to the next multiple of the alignment.
        address = emitter.emit(llvm.PtrToIntOp(allocated, INDEX_TYPE)).output
        bumped = emitter.add(address, alignment - 1)
        rounded = emitter.emit(
            llvm.AndOp(emitter.value(bumped), emitter.constant(-alignment))
        ).res
        aligned = emitter.emit(llvm.IntToPtrOp(rounded)).output
        return allocated, aligned

    def free(self, emitter: Emitter, pointer: SSAValue) -> None:
        emitter.call(self._use(self.free_function()), [pointer], None)

    def declare_functions(self, module: ModuleOp) -> None:
        """Declare each runtime function used that the module does not
        declare already (`_check_runtime_function` made sure any it has
        fits)."""
        block = module.body.block
        # Each goes first: in reverse order, they read sorted.
        for name, type_ in sorted(self.functions.items(), reverse=True):
            if SymbolTable.lookup_symbol(module, name) is None:
                declaration = llvm.FuncOp(
                    name, type_, linkage=llvm.LinkageAttr("external")
                )
                Rewriter.insert_op(declaration, InsertPoint.at_start(block))


def _check_runtime_function(op: Operation, lowering: _Lowering, module: ModuleOp):
    """Raise `_Refusal` if `op` calls a function whose name the module
    uses for something else."""
    function = lowering.runtime_function(op)
    if function is None:
        return
    name, type_ = function
    existing = SymbolTable.lookup_symbol(module, name)
    if existing is None or (
        isinstance(existing, llvm.FuncOp) and existing.function_type == type_
    ):
        return
    raise _Refusal(
        f"'{op.name}': calls @{name} of type {type_}, but the module's "
        f"'{existing.name}' @{name} is something else"
    )


# --------------------------------------------------------------------------
# Operands


def _index(value: SSAValue, emitter: Emitter) -> Index:
    """An index operand: its value when it is a constant, else as i64."""
    owner = value.owner
    if isinstance(owner, arith.ConstantOp) and isinstance(owner.value, IntegerAttr):
        return owner.value.value.data
    converted = to_llvm(value, emitter.where, emitter.rewriter)
    owner = converted.owner
    if isinstance(owner, llvm.ConstantOp) and isinstance(owner.value, IntegerAttr):
        return owner.value.value.data
    return converted


def _memref(value: SSAValue, emitter: Emitter, lazy: bool = False) -> StridedMemRef:
    """`value` being lowered; its descriptor is cast from it right away,
    unless `lazy` (then only if a field is read)."""
    memref_value = StridedMemRef(emitter, value)
    if not lazy:
        memref_value.descriptor  # noqa: B018
    return memref_value


def _replace_with_view(
    op: Operation,
    source: StridedMemRef,
    offset: Index,
    sizes: Sequence[Index],
    strides: Sequence[Index],
    emitter: Emitter,
    rewriter: PatternRewriter,
) -> None:
    """Replace `op` by a descriptor of `source`'s buffer (same allocated and
    aligned pointers) with these offset, sizes and strides: what every view
    op lowers to."""
    descriptor = build_descriptor(
        emitter, source.allocated_ptr(), source.aligned_ptr(), offset, sizes, strides
    )
    replace_with_llvm(op, [], [descriptor], rewriter)


def _mixed(
    static: DenseArrayBase, dynamic: Sequence[SSAValue], emitter: Emitter
) -> list[Index]:
    """A static list with DYNAMIC_INDEX holes filled, in order, from
    `dynamic`."""
    values = iter(dynamic)
    return [
        _index(next(values), emitter) if entry == DYNAMIC_INDEX else entry
        for entry in static.get_values()
    ]


def _known(static: int | None, computed: Index) -> Index:
    return computed if static is None or static == DYNAMIC_INDEX else static


def _kept_dims(sizes: Sequence[int], result_shape: Sequence[int]) -> list[int]:
    """Which dimensions of a subview of `sizes` (DYNAMIC_INDEX where
    dynamic) are the result's, when unit dimensions are dropped; leading
    unit dimensions are dropped first (which ones does not move any
    element)."""

    def fits(size: int, wanted: int) -> bool:
        return DYNAMIC_INDEX in (size, wanted) or size == wanted

    def match(dim: int, wanted: int) -> list[int] | None:
        if wanted == len(result_shape):
            return [] if all(s == 1 for s in sizes[dim:]) else None
        if dim == len(sizes):
            return None
        if sizes[dim] == 1 and len(sizes) - dim > len(result_shape) - wanted:
            dropped = match(dim + 1, wanted)
            if dropped is not None:
                return dropped
        if fits(sizes[dim], result_shape[wanted]):
            kept = match(dim + 1, wanted + 1)
            if kept is not None:
                return [dim, *kept]
        return None

    kept = match(0, 0)
    assert kept is not None, "the verifier accepted a subview that does not reduce"
    return kept


# --------------------------------------------------------------------------
# Patterns


@dataclass
class _Pattern(RewritePattern):
    lowering: _Lowering


class LowerAlloc(_Pattern):
    """`memref.alloc` / `alloca`: allocate, then a row-major descriptor."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: memref.AllocOp | memref.AllocaOp, rewriter: PatternRewriter
    ) -> None:
        emitter = Emitter(InsertPoint.before(op), rewriter)
        type_ = op.memref.type
        assert isinstance(type_, MemRefType)
        dynamic = iter(op.dynamic_sizes)
        sizes: list[Index] = [
            _index(next(dynamic), emitter) if extent == DYNAMIC_INDEX else extent
            for extent in type_.get_shape()
        ]
        strides = row_major_strides(emitter, sizes)
        count = emitter.product(sizes)
        element_bytes = element_size(type_.get_element_type())
        assert element_bytes is not None
        alignment = op.alignment.value.data if op.alignment is not None else None
        if isinstance(op, memref.AllocaOp):
            pointer = emitter.emit(
                llvm.AllocaOp(
                    emitter.value(count),
                    llvm_element_type(type_),
                    alignment or element_bytes,
                )
            ).res
            allocated = aligned = pointer
        else:
            size = emitter.mul(count, element_bytes)
            allocated, aligned = self.lowering.allocate(emitter, size, alignment)
        descriptor = build_descriptor(emitter, allocated, aligned, 0, sizes, strides)
        replace_with_llvm(op, [], [descriptor], rewriter)


class LowerDealloc(_Pattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: memref.DeallocOp, rewriter: PatternRewriter):
        emitter = Emitter(InsertPoint.before(op), rewriter)
        self.lowering.free(emitter, _memref(op.memref, emitter).allocated_ptr())
        rewriter.erase(op)


class LowerLoad(_Pattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: memref.LoadOp, rewriter: PatternRewriter):
        emitter = Emitter(InsertPoint.before(op), rewriter)
        source = _memref(op.memref, emitter)
        indices = [_index(i, emitter) for i in op.indices]
        pointer = source.element_pointer(indices)
        load = emitter.emit(llvm.LoadOp(pointer, source.element_type))
        replace_with_llvm(op, [], [load.dereferenced_value], rewriter)


class LowerStore(_Pattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: memref.StoreOp, rewriter: PatternRewriter):
        emitter = Emitter(InsertPoint.before(op), rewriter)
        target = _memref(op.memref, emitter)
        indices = [_index(i, emitter) for i in op.indices]
        value = to_llvm(op.value, emitter.where, rewriter)
        emitter.emit(llvm.StoreOp(value, target.element_pointer(indices)))
        rewriter.erase(op)


class LowerDim(_Pattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: memref.DimOp, rewriter: PatternRewriter):
        emitter = Emitter(InsertPoint.before(op), rewriter)
        source = _memref(op.source, emitter, lazy=True)
        dim = _index(op.index, emitter)
        if isinstance(dim, int):
            size: Index = source.size(dim) if 0 <= dim < source.rank else 0
        else:
            # A dimension known at run time only: pick among the sizes.
            size = source.size(source.rank - 1) if source.rank else 0
            for d in reversed(range(source.rank - 1)):
                size = emitter.select(
                    emitter.compare("eq", dim, d), source.size(d), size
                )
        replace_with_llvm(op, [], [emitter.value(size)], rewriter)


class LowerRank(_Pattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: memref.RankOp, rewriter: PatternRewriter):
        emitter = Emitter(InsertPoint.before(op), rewriter)
        type_ = op.source.type
        assert isinstance(type_, MemRefType)
        replace_with_llvm(op, [], [emitter.constant(len(type_.get_shape()))], rewriter)


class LowerCast(_Pattern):
    """A ranked `memref.cast` only changes static facts: same descriptor."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: memref.CastOp, rewriter: PatternRewriter):
        descriptor = to_llvm(op.source, InsertPoint.before(op), rewriter)
        replace_with_llvm(op, [], [descriptor], rewriter)


class LowerAssumeAlignment(_Pattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: memref.AssumeAlignmentOp, rewriter: PatternRewriter
    ):
        rewriter.replace(op, [], [op.memref])


class LowerSubview(_Pattern):
    """Offset += sum(offset_i * stride_i); sizes as given; strides
    multiplied by the steps; unit dimensions dropped if the result type
    drops them."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: memref.SubviewOp, rewriter: PatternRewriter):
        emitter = Emitter(InsertPoint.before(op), rewriter)
        source = _memref(op.source, emitter)
        result_type = op.result.type
        assert isinstance(result_type, MemRefType)
        offsets = _mixed(op.static_offsets, op.offsets, emitter)
        sizes = _mixed(op.static_sizes, op.sizes, emitter)
        steps = _mixed(op.static_strides, op.strides, emitter)
        static_strides, static_offset = strides_and_offset(result_type)
        if static_offset is not None:
            offset: Index = static_offset
        else:
            offset = source.offset()
            for dim, start in enumerate(offsets):
                offset = emitter.add(offset, emitter.mul(start, source.stride(dim)))
        shape = result_type.get_shape()
        kept = _kept_dims(list(op.static_sizes.get_values()), shape)
        new_sizes = [_known(shape[i], sizes[d]) for i, d in enumerate(kept)]
        new_strides = [
            static_strides[i]
            if static_strides[i] is not None
            else emitter.mul(source.stride(d), steps[d])
            for i, d in enumerate(kept)
        ]
        _replace_with_view(
            op,
            source,
            offset,
            new_sizes,
            new_strides,
            emitter,
            rewriter,
        )


class LowerReinterpretCast(_Pattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: memref.ReinterpretCastOp, rewriter: PatternRewriter
    ):
        emitter = Emitter(InsertPoint.before(op), rewriter)
        source = _memref(op.source, emitter)
        result_type = op.result.type
        assert isinstance(result_type, MemRefType)
        static_strides, static_offset = strides_and_offset(result_type)
        (offset,) = _mixed(op.static_offsets, op.offsets, emitter)
        sizes = _mixed(op.static_sizes, op.sizes, emitter)
        strides = _mixed(op.static_strides, op.strides, emitter)
        _replace_with_view(
            op,
            source,
            _known(static_offset, offset),
            [_known(s, v) for s, v in zip(result_type.get_shape(), sizes, strict=True)],
            [_known(s, v) for s, v in zip(static_strides, strides, strict=True)],
            emitter,
            rewriter,
        )


def _groups(reassociation: Attribute) -> list[list[int]]:
    return [
        [entry.value.data for entry in group]  # pyright: ignore
        for group in reassociation  # pyright: ignore
    ]


class LowerExpandShape(_Pattern):
    """Each source dimension of stride s split into sizes (.., b, c) gets
    strides (.., c*s, s)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: memref.ExpandShapeOp, rewriter: PatternRewriter):
        emitter = Emitter(InsertPoint.before(op), rewriter)
        source = _memref(op.src, emitter)
        result_type = op.result.type
        assert isinstance(result_type, MemRefType)
        sizes = _mixed(op.static_output_shape, op.output_shape, emitter)
        static_strides, static_offset = strides_and_offset(result_type)
        strides: list[Index] = [0] * len(sizes)
        for source_dim, group in enumerate(_groups(op.reassociation)):
            known = [static_strides[d] for d in group]
            if all(s is not None for s in known):
                for dim, stride in zip(group, known, strict=True):
                    strides[dim] = stride  # pyright: ignore[reportArgumentType]
                continue
            running = source.stride(source_dim)
            for dim in reversed(group):
                strides[dim] = running
                if dim != group[0]:
                    running = emitter.mul(running, sizes[dim])
        _replace_with_view(
            op,
            source,
            _known(static_offset, source.offset()),
            sizes,
            strides,
            emitter,
            rewriter,
        )


class LowerCollapseShape(_Pattern):
    """Each group of source dimensions becomes one of their product's size,
    with the stride of the innermost one whose extent is not 1."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: memref.CollapseShapeOp, rewriter: PatternRewriter):
        emitter = Emitter(InsertPoint.before(op), rewriter)
        source = _memref(op.src, emitter)
        result_type = op.result.type
        assert isinstance(result_type, MemRefType)
        shape = result_type.get_shape()
        static_strides, static_offset = strides_and_offset(result_type)
        sizes: list[Index] = []
        strides: list[Index] = []
        for dim, group in enumerate(_groups(op.reassociation)):
            if shape[dim] == DYNAMIC_INDEX:
                sizes.append(emitter.product([source.size(d) for d in group]))
            else:
                sizes.append(shape[dim])
            if static_strides[dim] is not None:
                strides.append(static_strides[dim])  # pyright: ignore[reportArgumentType]
                continue
            stride: Index = source.stride(group[0]) if group else 1
            for d in group[1:]:
                size = source.size(d)
                if size == 1:
                    continue
                stride = emitter.select(
                    emitter.compare("eq", size, 1), stride, source.stride(d)
                )
            strides.append(stride)
        _replace_with_view(
            op,
            source,
            _known(static_offset, source.offset()),
            sizes,
            strides,
            emitter,
            rewriter,
        )


class LowerView(_Pattern):
    """A row-major memref at a byte offset into an i8 buffer."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: memref.ViewOp, rewriter: PatternRewriter):
        emitter = Emitter(InsertPoint.before(op), rewriter)
        source = _memref(op.source, emitter)
        result_type = op.result.type
        assert isinstance(result_type, MemRefType)
        shift = _index(op.byte_shift, emitter)
        base = emitter.element_pointer(
            source.aligned_ptr(),
            emitter.add(source.offset(), shift),
            source.element_type,
        )
        dynamic = iter(op.sizes)
        sizes: list[Index] = [
            _index(next(dynamic), emitter) if extent == DYNAMIC_INDEX else extent
            for extent in result_type.get_shape()
        ]
        descriptor = build_descriptor(
            emitter,
            source.allocated_ptr(),
            base,
            0,
            sizes,
            row_major_strides(emitter, sizes),
        )
        replace_with_llvm(op, [], [descriptor], rewriter)


class LowerExtractStridedMetadata(_Pattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: memref.ExtractStridedMetaDataOp, rewriter: PatternRewriter
    ):
        emitter = Emitter(InsertPoint.before(op), rewriter)
        source = _memref(op.source, emitter)
        base = build_descriptor(
            emitter, source.allocated_ptr(), source.aligned_ptr(), 0, [], []
        )
        values = [source.offset(), *source.sizes(), *source.strides()]
        replace_with_llvm(op, [], [base, *(emitter.value(v) for v in values)], rewriter)


class LowerExtractAlignedPointer(_Pattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: memref.ExtractAlignedPointerAsIndexOp, rewriter: PatternRewriter
    ):
        emitter = Emitter(InsertPoint.before(op), rewriter)
        pointer = _memref(op.source, emitter).aligned_ptr()
        address = emitter.emit(llvm.PtrToIntOp(pointer, INDEX_TYPE)).output
        replace_with_llvm(op, [], [address], rewriter)


def _flat_initializer(
    value: DenseIntOrFPElementsAttr, element_type: Attribute
) -> DenseIntOrFPElementsAttr:
    """`value` as a one-dimensional dense attribute of `element_type`
    (index elements become i64), a splat kept a splat."""
    values = list(value.get_values())
    count = len(values)
    if value.is_splat():
        values = values[:1]
    return DenseIntOrFPElementsAttr.from_list(TensorType(element_type, [count]), values)


class LowerGlobal(_Pattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: memref.GlobalOp, rewriter: PatternRewriter):
        type_ = op.type
        element_type = llvm_element_type(type_)
        count = 1
        for extent in type_.get_shape():
            count *= extent
        if isinstance(op.initial_value, DenseIntOrFPElementsAttr):
            value = _flat_initializer(op.initial_value, element_type)
        else:
            # `uninitialized`: upstream's initializer is undef; zeros are one
            # of its values, and the same on every run.
            zero = 0.0 if isinstance(element_type, AnyFloat) else 0
            value = DenseIntOrFPElementsAttr.from_list(
                TensorType(element_type, [count]), [zero]
            )
        private = op.sym_visibility.data == "private"
        rewriter.replace(
            op,
            llvm.GlobalOp(
                llvm.LLVMArrayType(IntAttr(count), element_type),
                op.sym_name,
                "private" if private else "external",
                constant=op.constant is not None,
                value=value,
                alignment=op.alignment.value.data if op.alignment else None,
            ),
        )


class LowerGetGlobal(_Pattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: memref.GetGlobalOp, rewriter: PatternRewriter):
        emitter = Emitter(InsertPoint.before(op), rewriter)
        type_ = op.memref.type
        assert isinstance(type_, MemRefType)
        address = emitter.emit(llvm.AddressOfOp(op.name_, POINTER)).result
        marker = emitter.emit(llvm.IntToPtrOp(emitter.constant(GLOBAL_MARKER))).output
        shape: list[Index] = list(type_.get_shape())
        strides: list[Index] = [
            s for s in static_row_major(type_.get_shape()) if s is not None
        ]
        descriptor = build_descriptor(emitter, marker, address, 0, shape, strides)
        replace_with_llvm(op, [], [descriptor], rewriter)


def _patterns(lowering: _Lowering) -> list[RewritePattern]:
    return [
        LowerAlloc(lowering),
        LowerDealloc(lowering),
        LowerLoad(lowering),
        LowerStore(lowering),
        LowerDim(lowering),
        LowerRank(lowering),
        LowerCast(lowering),
        LowerAssumeAlignment(lowering),
        LowerSubview(lowering),
        LowerReinterpretCast(lowering),
        LowerExpandShape(lowering),
        LowerCollapseShape(lowering),
        LowerView(lowering),
        LowerExtractStridedMetadata(lowering),
        LowerExtractAlignedPointer(lowering),
        LowerGlobal(lowering),
        LowerGetGlobal(lowering),
    ]


# --------------------------------------------------------------------------
# memref.copy (may split blocks, so not a pattern)


def _copy_extents(source: StridedMemRef, target: StridedMemRef) -> list[Index]:
    """The shared sizes, static where either type knows them."""
    return [
        target.size(dim)
        if source.shape[dim] == DYNAMIC_INDEX and target.shape[dim] != DYNAMIC_INDEX
        else source.size(dim)
        for dim in range(source.rank)
    ]


def _lower_copy(op: memref.CopyOp) -> None:
    emitter = Emitter(InsertPoint.before(op))
    source = _memref(op.source, emitter)
    target = _memref(op.destination, emitter)
    extents = _copy_extents(source, target)
    contiguous = emitter.both(contiguity(source), contiguity(target))

    def memcpy(at: Emitter, start: tuple[SSAValue, SSAValue], length: Index) -> None:
        at.emit(MemcpyOp(start[1], start[0], at.value(length)))

    if contiguous is not False:
        length = emitter.mul(emitter.product(extents), source.element_bytes)
        start = (source.start_pointer(), target.start_pointer())
        if contiguous is True:
            memcpy(emitter, start, length)
            Rewriter.erase_op(op)
            return
        length_value = emitter.value(length)
    # Read every field the loops need here, where it dominates them.
    for memref_value in (source, target):
        memref_value.aligned_ptr()
        memref_value.offset()
        memref_value.strides()
    bounds = [emitter.value(e) if not isinstance(e, int) else e for e in extents]

    def copy_element(at: Emitter, indices: list[SSAValue]) -> None:
        loaded = at.emit(
            llvm.LoadOp(source.element_pointer(indices, at), source.element_type)
        )
        at.emit(
            llvm.StoreOp(loaded.dereferenced_value, target.element_pointer(indices, at))
        )

    block = op.parent_block()
    assert block is not None
    rest = split_block_before(op)
    Rewriter.erase_op(op)
    if contiguous is False:
        emit_loop_nest(block, rest, bounds, copy_element)
        return
    # Decided at run time: memcpy when both are contiguous, else the loops.
    fast, slow = Block(), Block()
    Rewriter.insert_block([fast, slow], BlockInsertPoint.before(rest))
    assert not isinstance(contiguous, bool)
    block.add_op(llvm.CondBrOp(contiguous, fast, [], slow, []))
    fast_emitter = Emitter(InsertPoint.at_end(fast))
    memcpy(fast_emitter, start, length_value)
    fast.add_op(llvm.BrOp(rest))
    emit_loop_nest(slow, rest, bounds, copy_element)


# --------------------------------------------------------------------------
# The pass


@dataclass(frozen=True)
class FinalizeMemRefToLLVMPass(ModulePass):
    """Lower every `memref` op to the `llvm` dialect with upstream's memref
    descriptor; see the module docstring."""

    name = "finalize-memref-to-llvm"

    use_generic_functions: bool = False
    """Allocate with `_mlir_memref_to_llvm_alloc(i64) -> ptr` and free with
    `_mlir_memref_to_llvm_free(ptr)` instead of `malloc`/`free` (upstream's
    option): whoever links the code provides them, e.g. to measure memory."""

    use_aligned_alloc: bool = False
    """Allocate with `aligned_alloc(alignment, size)` (generic:
    `_mlir_memref_to_llvm_aligned_alloc`) instead of over-allocating."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        lowering = _Lowering(self.use_generic_functions, self.use_aligned_alloc)
        refusal = _first_refusal(op, lowering)
        if refusal is not None:
            raise OpPassFailed(f"{self.name}: {refusal[1]}", refusal[0])
        # Work on a copy, so that a failure leaves the module unchanged.
        work = op.clone()
        try:
            PatternRewriteWalker(
                GreedyRewritePatternApplier(_patterns(lowering), dce_enabled=False),
                apply_recursively=False,
            ).rewrite_module(work)
            # Last, as they may split blocks.
            for copy in [o for o in work.walk() if isinstance(o, memref.CopyOp)]:
                _lower_copy(copy)
            lowering.declare_functions(work)
        except LoweringError as error:
            # What `_first_refusal` let through and the lowering could not
            # do after all; the original module is untouched.
            raise PassFailedException(f"{self.name}: {error}") from None
        replace_module_contents(op, work)
