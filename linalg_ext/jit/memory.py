"""Memory the compiled code holds: counted when a module is tracked, per
process and per call, and freed with the numpy arrays that own it.

With `compile_module(..., track_memory=True)`, `finalize-memref-to-llvm`
allocates through `_mlir_memref_to_llvm_alloc`/`_free` (upstream's generic
allocation functions); `bind_tracking_symbols` binds them, process-wide, to
callbacks that count in `TRACKER` (bytes now and at peak, the live
pointers) and, on the thread that runs a call, in that call's `CallMemory`
(`tracking_call`): the machine code calls back on the thread that called
it, so a call's allocations are told apart from those of calls running on
other threads at the same time. `run_function` reports a call's leaks from
its `CallMemory`; a call that fails frees what it still held.
`OwnedBuffer` frees a buffer a call returned when the array viewing it is
collected.
"""

from __future__ import annotations

import ctypes
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from linalg_ext.calling_convention import LIBC


@dataclass
class MemoryTracker:
    """Bytes the compiled code holds through `_mlir_memref_to_llvm_alloc`:
    now, at most since `reset`, and which pointers are still live. Safe to
    update from several threads."""

    current: int = 0
    peak: int = 0
    allocations: int = 0
    live: dict[int, int] = field(default_factory=dict[int, int])
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def reset(self) -> None:
        self.peak = self.current

    def allocate(self, size: int) -> int:
        """`size` bytes from `malloc`, counted; 0 if there are none."""
        pointer = LIBC.malloc(max(size, 1)) or 0
        if pointer:
            with self._lock:
                self.live[pointer] = size
                self.current += size
                self.allocations += 1
                self.peak = max(self.peak, self.current)
        return pointer

    def free(self, pointer: int | None) -> None:
        if not pointer:
            return
        with self._lock:
            size = self.live.pop(pointer, None)
            if size is not None:
                self.current -= size
        LIBC.free(pointer)


TRACKER = MemoryTracker()
"""The process's one tracker: LLVM symbols are process-wide."""


@dataclass
class CallMemory:
    """The buffers one call of a tracked module allocated and did not free
    (yet): pointer -> bytes."""

    live: dict[int, int] = field(default_factory=dict[int, int])

    def free_all(self) -> None:
        """Free what the call still holds (after it failed: nothing of it
        reaches the caller)."""
        for pointer in list(self.live):
            TRACKER.free(pointer)
        self.live.clear()


_calls = threading.local()
"""`_calls.memory`: the `CallMemory` of the call running on this thread."""


@contextmanager
def tracking_call() -> Iterator[CallMemory]:
    """Count the allocations of the compiled code this thread runs inside
    the block in a new `CallMemory` (restoring the outer one after)."""
    outer = getattr(_calls, "memory", None)
    memory = _calls.memory = CallMemory()
    try:
        yield memory
    finally:
        _calls.memory = outer


def _allocate(size: int) -> int:
    pointer = TRACKER.allocate(size)
    memory: CallMemory | None = getattr(_calls, "memory", None)
    if memory is not None and pointer:
        memory.live[pointer] = size
    return pointer


def _free(pointer: int | None) -> None:
    memory: CallMemory | None = getattr(_calls, "memory", None)
    if memory is not None and pointer:
        memory.live.pop(pointer, None)
    TRACKER.free(pointer)


_ALLOC_TYPE = ctypes.CFUNCTYPE(ctypes.c_void_p, ctypes.c_uint64)
_FREE_TYPE = ctypes.CFUNCTYPE(None, ctypes.c_void_p)
# Module globals: the machine code calls these as long as the process lives.
_alloc_callback = _ALLOC_TYPE(_allocate)
_free_callback = _FREE_TYPE(_free)
_symbols_bound = False


def bind_tracking_symbols(binding: Any) -> None:
    """Resolve upstream's generic allocation functions to the tracking
    callbacks, once, in llvmlite's process-wide symbol table (`binding` is
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
    `TRACKER` when the module is tracked, which counts it, and no longer
    held by the call that allocated it)."""

    def __init__(self, pointer: int, tracked: bool, call: CallMemory | None = None):
        self.pointer = pointer
        self.tracked = tracked
        self.call = call

    def __del__(self):
        if self.call is not None:
            self.call.live.pop(self.pointer, None)
        if self.tracked:
            TRACKER.free(self.pointer)
        else:
            LIBC.free(self.pointer)


GLIBC_MMAP_THRESHOLD = 32 << 20
"""Where glibc's `malloc` maps a buffer afresh instead of reusing its heap:
its own largest dynamic threshold (32 MiB on 64-bit), fixed from the start."""

GLIBC_TRIM_THRESHOLD = 64 << 20
"""How much free memory glibc keeps at the top of its heap before giving it
back: twice the threshold above, as glibc sets it once it reaches it."""

_heap_tuned = False


def keep_freed_buffers_mapped() -> None:
    """Once per process, where the C library is glibc: put `malloc` in the
    state glibc reaches by itself after freeing a 32 MiB buffer (mmap
    threshold 32 MiB, trim threshold 64 MiB), so that buffers up to 32 MiB
    freed by one call are reused by the next instead of unmapped and
    faulted in again page by page. Without it, whether they are depends on
    the order of earlier allocations: a small CNN (a bias-free 1x1
    convolution after a depthwise one) ran 3x slower with every call's
    time in page faults. Elsewhere (no `mallopt`) nothing changes."""
    global _heap_tuned
    if _heap_tuned:
        return
    _heap_tuned = True
    mallopt = getattr(LIBC, "mallopt", None)
    if mallopt is None:
        return
    mallopt.restype = ctypes.c_int
    mallopt.argtypes = [ctypes.c_int, ctypes.c_int]
    m_trim_threshold, m_mmap_threshold = -1, -3  # glibc's malloc.h
    mallopt(m_mmap_threshold, GLIBC_MMAP_THRESHOLD)
    mallopt(m_trim_threshold, GLIBC_TRIM_THRESHOLD)
