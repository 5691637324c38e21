"""`llvm` dialect ops for memory (and their translations) xDSL 0.74 lacks,
used by `finalize-memref-to-llvm`. See `compat/llvm_ops.py` for the scalar
ones and `compat/llvm_translation.py` for how translations are registered.
"""

from __future__ import annotations

from xdsl.ir import Operation

LLVM_MEMORY_OPS: tuple[type[Operation], ...] = ()
"""Every op defined here, in the order `compat.install()` appends them."""
