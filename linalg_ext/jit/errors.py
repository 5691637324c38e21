"""The one exception the JIT API raises (re-exported by `linalg_ext.jit`)."""

from __future__ import annotations


class JitError(Exception):
    """Compiling or calling failed: the message says which function and why,
    or, for a call that failed at run time, is the interpreter's message."""
