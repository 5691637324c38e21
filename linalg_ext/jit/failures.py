"""How a compiled call fails: its context, the thread's key to it, the message.

A failing check calls `_lx_fail(template, count, values)`
(linalg_ext/lowering/llvm_asserts.py); the JIT defines it
(`llvm_additions.define_runtime_fail`). Every call has a context, an int64
array Python allocates (ctypes) and passes to the packed entry point:

    word 0        the message template (a pointer to a C string)
    word 1        how many values follow
    words 2..     the values (at most MAX_FAIL_VALUES)
    CONTEXT_LIVE_COUNT, CONTEXT_LIVE..
                  the buffers `_lx_malloc` gave the call that `_lx_free`
                  has not freed (at most MAX_LIVE_BUFFERS; untracked)
    JMP_BUF_WORD  the entry point's `jmp_buf` (JMP_BUF_BYTES)

The entry point makes the context the thread's (`pthread_setspecific` with
the process's key, `context_key`), saves its registers there (`setjmp`)
and calls the function. `_lx_fail` finds the context with
`pthread_getspecific`, writes the template and values, and `longjmp`s back:
the entry point returns 1 instead of 0, and `failure_message` gives
`template.format(*values)`, the interpreter's message. A context per call
keeps calls on several threads apart; the entry point restores the
thread's previous context when it returns.
"""

from __future__ import annotations

import ctypes
import threading
from typing import Any

from linalg_ext.calling_convention import LIBC
from linalg_ext.lowering.llvm_asserts import MAX_FAIL_VALUES

CONTEXT_TEMPLATE = 0
CONTEXT_COUNT = 1
CONTEXT_VALUES = 2
CONTEXT_LIVE_COUNT = CONTEXT_VALUES + MAX_FAIL_VALUES
CONTEXT_LIVE = CONTEXT_LIVE_COUNT + 1
MAX_LIVE_BUFFERS = 64
"""How many buffers the call holds that a failure frees (untracked)."""
JMP_BUF_WORD = CONTEXT_LIVE + MAX_LIVE_BUFFERS + 1
"""Where the `jmp_buf` starts, in 8-byte words (16-byte aligned)."""
JMP_BUF_BYTES = 1024
"""Room for a `jmp_buf`: glibc's is 200 bytes on x86-64, 312 on AArch64,
656 on POWER."""
CONTEXT_WORDS = JMP_BUF_WORD + JMP_BUF_BYTES // 8

FAILED = 1
"""What a packed entry point returns when the call failed (0: it did not)."""

_key: int | None = None
_key_lock = threading.Lock()


def context_key() -> int:
    """The `pthread_key_t` under which a thread's running call keeps its
    context: made once per process (compiled code has it as a constant)."""
    global _key
    with _key_lock:
        if _key is None:
            key = ctypes.c_uint(0)
            LIBC.pthread_key_create.argtypes = [ctypes.c_void_p, ctypes.c_void_p]
            LIBC.pthread_key_create.restype = ctypes.c_int
            if LIBC.pthread_key_create(ctypes.byref(key), None) != 0:
                raise OSError("pthread_key_create failed")
            _key = key.value
        return _key


CONTEXT_TYPE = ctypes.c_int64 * CONTEXT_WORDS
"""A context: int64 words (ctypes makes one faster than numpy, and passes
it by address)."""


def new_context() -> Any:
    """A context for one call (zeroed: no live buffers)."""
    return CONTEXT_TYPE()


def free_live_buffers(context: Any) -> None:
    """Free the buffers a failed call still held (see the layout)."""
    count = min(context[CONTEXT_LIVE_COUNT], MAX_LIVE_BUFFERS)
    for pointer in context[CONTEXT_LIVE : CONTEXT_LIVE + count]:
        LIBC.free(pointer)


def failure_message(context: Any) -> str:
    """The message a failed call left in its context."""
    template = ctypes.string_at(context[CONTEXT_TEMPLATE]).decode("utf-8")
    count = context[CONTEXT_COUNT]
    values = list(context[CONTEXT_VALUES : CONTEXT_VALUES + count])
    try:
        return template.format(*values)
    except (IndexError, KeyError, ValueError):
        return f"{template} (values: {values})"
