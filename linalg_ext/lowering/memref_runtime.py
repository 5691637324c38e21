"""The runtime functions `finalize-memref-to-llvm`'s code calls.

`RuntimeFunctions` holds the pass's allocation options and the functions
the lowered code uses: `memref.alloc` calls `malloc` (or
`_mlir_memref_to_llvm_alloc`, or `aligned_alloc`), `memref.dealloc` calls
`free` (or `_mlir_memref_to_llvm_free`); `declare_functions` declares in the
module those it does not declare yet, and `runtime_function_problem` says
when the module uses such a name for something else.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.dialects import llvm, memref
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.traits import SymbolTable

from linalg_ext.lowering.llvm_types import INDEX_TYPE, POINTER
from linalg_ext.lowering.memref_ops import Emitter, Index

DEFAULT_ALIGNED_ALLOC_ALIGNMENT = 16
"""`use-aligned-alloc` without an `alignment` attribute: malloc's own."""


@dataclass
class RuntimeFunctions:
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
        declare already (`runtime_function_problem` made sure any it has
        fits)."""
        block = module.body.block
        # Each goes first: in reverse order, they read sorted.
        for name, type_ in sorted(self.functions.items(), reverse=True):
            if SymbolTable.lookup_symbol(module, name) is None:
                declaration = llvm.FuncOp(
                    name, type_, linkage=llvm.LinkageAttr("external")
                )
                Rewriter.insert_op(declaration, InsertPoint.at_start(block))


def runtime_function_problem(
    op: Operation, runtime: RuntimeFunctions, module: ModuleOp
) -> str | None:
    """Why `op` cannot be lowered if it calls a function whose name the
    module uses for something else, else None."""
    function = runtime.runtime_function(op)
    if function is None:
        return None
    name, type_ = function
    existing = SymbolTable.lookup_symbol(module, name)
    if existing is None or (
        isinstance(existing, llvm.FuncOp) and existing.function_type == type_
    ):
        return None
    return (
        f"'{op.name}': calls @{name} of type {type_}, but the module's "
        f"'{existing.name}' @{name} is something else"
    )
