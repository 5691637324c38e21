"""Memory the compiled code holds: counted when a module is tracked, and
freed with the numpy arrays that own it.

With `compile_module(..., track_memory=True)`, `finalize-memref-to-llvm`
allocates through `_mlir_memref_to_llvm_alloc`/`_free` (upstream's generic
allocation functions); `bind_tracking_symbols` binds them, process-wide, to
`TRACKER`, which counts bytes (current and peak) and knows which pointers
are live, so that `run_function` can tell a leak. `OwnedBuffer` frees a
buffer a call returned when the array viewing it is collected.
"""

from __future__ import annotations

import ctypes
from dataclasses import dataclass, field
from typing import Any

from linalg_ext.calling_convention import LIBC


@dataclass
class MemoryTracker:
    """Bytes the compiled code holds through `_mlir_memref_to_llvm_alloc`:
    now, at most since `reset`, and which pointers are still live."""

    current: int = 0
    peak: int = 0
    allocations: int = 0
    live: dict[int, int] = field(default_factory=dict[int, int])

    def reset(self) -> None:
        self.peak = self.current

    def allocate(self, size: int) -> int:
        pointer = LIBC.malloc(max(size, 1)) or 0
        self.live[pointer] = size
        self.current += size
        self.allocations += 1
        self.peak = max(self.peak, self.current)
        return pointer

    def free(self, pointer: int | None) -> None:
        if not pointer:
            return
        size = self.live.pop(pointer, None)
        if size is not None:
            self.current -= size
        LIBC.free(pointer)


TRACKER = MemoryTracker()
"""The process's one tracker: LLVM symbols are process-wide."""

_ALLOC_TYPE = ctypes.CFUNCTYPE(ctypes.c_void_p, ctypes.c_uint64)
_FREE_TYPE = ctypes.CFUNCTYPE(None, ctypes.c_void_p)
# Module globals: the machine code calls these as long as the process lives.
_alloc_callback = _ALLOC_TYPE(lambda size: TRACKER.allocate(size))
_free_callback = _FREE_TYPE(lambda pointer: TRACKER.free(pointer))
_symbols_bound = False


def bind_tracking_symbols(binding: Any) -> None:
    """Resolve upstream's generic allocation functions to `TRACKER`, once,
    in llvmlite's process-wide symbol table (`binding` is
    `llvmlite.binding`, initialised)."""
    global _symbols_bound
    if _symbols_bound:
        return
    binding.add_symbol(
        "_mlir_memref_to_llvm_alloc",
        ctypes.cast(_alloc_callback, ctypes.c_void_p).value,
    )
    binding.add_symbol(
        "_mlir_memref_to_llvm_free",
        ctypes.cast(_free_callback, ctypes.c_void_p).value,
    )
    _symbols_bound = True


class OwnedBuffer:
    """A buffer the compiled code allocated and returned: freed with it (by
    `TRACKER` when the module is tracked, which counts it)."""

    def __init__(self, pointer: int, tracked: bool):
        self.pointer = pointer
        self.tracked = tracked

    def __del__(self):
        if self.tracked:
            TRACKER.free(self.pointer)
        else:
            LIBC.free(self.pointer)
