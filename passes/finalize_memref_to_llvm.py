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
  field of its descriptor but the aligned pointer). `vector.load`/`store`
  of a 1-D vector address its first element so and load or store the
  vector in one `llvm.load`/`llvm.store` (aligned to one element); the
  memref's innermost stride must be 1 in its type, as upstream requires.
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

The lowering lives in `linalg_ext.lowering`: `memref_patterns` (all but
views and copies), `memref_views`, `memref_copy`, with `memref_ops` (index
arithmetic and descriptors) and `memref_runtime` (the functions called).
This module checks the module first and holds the options and the pattern
list.

Refused with a message naming the op, the module left unchanged: unranked
memrefs, memory spaces that are not integers (an integer memory space is
ordinary memory on the CPU: lowered as the default), element types other than
f16, f32, f64, i1, i8, i16, i32, i64 and index, layouts that are not
strided, allocations of a non-identity layout, a `vector.load`/`store` of an
n-D, scalable or `index` vector or on a memref whose innermost stride is not
a static 1, memref ops not listed above
(`atomic_rmw`, `alloca_scope`, `memory_space_cast`, DMA), and a copy that
needs a loop inside a region whose control flow is not lowered yet.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import func, llvm, memref, vector
from xdsl.dialects.builtin import (
    DenseResourceAttr,
    IntegerAttr,
    MemRefType,
    ModuleOp,
    NoneAttr,
    StridedLayoutAttr,
    UnrankedMemRefType,
    VectorType,
)
from xdsl.ir import Attribute, Operation
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriteWalker,
    RewritePattern,
)
from xdsl.traits import SymbolTable
from xdsl.utils.exceptions import PassFailedException

from linalg_ext.bufferization.layouts import row_major_strides as static_row_major
from linalg_ext.bufferization.layouts import strides_and_offset
from linalg_ext.diagnostics import OpPassFailed
from linalg_ext.lowering.llvm_types import LoweringError, vector_type_problem
from linalg_ext.lowering.memref_copy import lower_copy, static_contiguity
from linalg_ext.lowering.memref_ops import SUPPORTED_ELEMENT_TYPES, element_size
from linalg_ext.lowering.memref_patterns import (
    LowerAlloc,
    LowerAssumeAlignment,
    LowerCast,
    LowerDealloc,
    LowerDim,
    LowerExtractAlignedPointer,
    LowerExtractStridedMetadata,
    LowerGetGlobal,
    LowerGlobal,
    LowerLoad,
    LowerRank,
    LowerStore,
    LowerVectorLoad,
    LowerVectorStore,
)
from linalg_ext.lowering.memref_runtime import (
    RuntimeFunctions,
    runtime_function_problem,
)
from linalg_ext.lowering.memref_views import (
    LowerCollapseShape,
    LowerExpandShape,
    LowerReinterpretCast,
    LowerSubview,
    LowerView,
)
from linalg_ext.transforms.module_contents import replace_module_contents

PASS_NAME = "finalize-memref-to-llvm"


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
    vector.LoadOp,
    vector.StoreOp,
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
    # On the CPU every integer memory space is ordinary memory (pointers in
    # LLVM's address space 0), so ByteIR's data placement (spaces 1, 2, ...)
    # compiles; named spaces (strings, GPU attributes) have no such meaning.
    if not isinstance(space, NoneAttr | IntegerAttr):
        return f"memory space {space} is not supported (only integer ones): {type_}"
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


def _check_vector_access(op: vector.LoadOp | vector.StoreOp) -> None:
    """A 1-D vector along a memref dimension of static stride 1 (the lanes
    are consecutive elements)."""
    type_ = op.result.type if isinstance(op, vector.LoadOp) else op.vector.type
    assert isinstance(type_, VectorType)
    if (problem := vector_type_problem(type_)) is not None:
        raise _Refusal(f"'{op.name}': {problem}")
    memref_type = op.base.type
    assert isinstance(memref_type, MemRefType)
    strides, _ = strides_and_offset(memref_type)
    if not strides or strides[-1] != 1:
        raise _Refusal(
            f"'{op.name}': the innermost stride of {memref_type} must be a "
            "static 1 (the vector's lanes are consecutive elements)"
        )


def _check(op: Operation, module: ModuleOp) -> None:
    """Raise `_Refusal` if the pass cannot lower the memref op `op`."""
    if type(op) not in _LOWERED_OPS:
        reason = _REASONS.get(type(op), f"is not lowered by {PASS_NAME}")
        raise _Refusal(f"'{op.name}': {reason}")
    types = [v.type for v in (*op.operands, *op.results)]
    if isinstance(op, memref.GlobalOp):
        types.append(op.type)
        if isinstance(op.initial_value, DenseResourceAttr):
            # Its blob becomes the LLVM global's data (compat/resources.py).
            from linalg_ext.compat.resources import resource_problem

            if (problem := resource_problem(op.initial_value)) is not None:
                raise _Refusal(f"'{op.name}' @{op.sym_name.data}: {problem}")
    for type_ in types:
        if (problem := _type_problem(type_)) is not None:
            raise _Refusal(f"'{op.name}': {problem}")
    if isinstance(op, vector.LoadOp | vector.StoreOp):
        _check_vector_access(op)
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
    module: ModuleOp, runtime: RuntimeFunctions
) -> tuple[Operation, str] | None:
    """The first memref op the pass refuses, and why."""
    for op in module.walk():
        if op.name.startswith("memref.") or isinstance(
            op, vector.LoadOp | vector.StoreOp
        ):
            try:
                _check(op, module)
            except _Refusal as refusal:
                return op, str(refusal)
            problem = runtime_function_problem(op, runtime, module)
            if problem is not None:
                return op, problem
    return None


# --------------------------------------------------------------------------
# The pass


def _patterns(runtime: RuntimeFunctions) -> list[RewritePattern]:
    return [
        LowerAlloc(runtime),
        LowerDealloc(runtime),
        LowerLoad(),
        LowerStore(),
        LowerVectorLoad(),
        LowerVectorStore(),
        LowerDim(),
        LowerRank(),
        LowerCast(),
        LowerAssumeAlignment(),
        LowerSubview(),
        LowerReinterpretCast(),
        LowerExpandShape(),
        LowerCollapseShape(),
        LowerView(),
        LowerExtractStridedMetadata(),
        LowerExtractAlignedPointer(),
        LowerGlobal(),
        LowerGetGlobal(),
    ]


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
        runtime = RuntimeFunctions(self.use_generic_functions, self.use_aligned_alloc)
        refusal = _first_refusal(op, runtime)
        if refusal is not None:
            raise OpPassFailed(f"{self.name}: {refusal[1]}", refusal[0])
        # Work on a copy, so that a failure leaves the module unchanged.
        work = op.clone()
        try:
            PatternRewriteWalker(
                GreedyRewritePatternApplier(_patterns(runtime), dce_enabled=False),
                apply_recursively=False,
            ).rewrite_module(work)
            # Last, as they may split blocks.
            for copy in [o for o in work.walk() if isinstance(o, memref.CopyOp)]:
                lower_copy(copy)
            runtime.declare_functions(work)
        except LoweringError as error:
            # What `_first_refusal` let through and the lowering could not
            # do after all; the original module is untouched.
            raise PassFailedException(f"{self.name}: {error}") from None
        replace_module_contents(op, work)
