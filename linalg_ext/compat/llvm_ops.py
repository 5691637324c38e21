"""`llvm` dialect ops xDSL 0.74 lacks, with their translation to LLVM IR.

Each op is an IRDL definition with upstream MLIR's name and syntax, appended
to xDSL's `llvm` dialect by `compat.install()`, and its translation is
registered with `compat.llvm_translation.translates`.
"""

from __future__ import annotations

from xdsl.ir import Operation

LLVM_OPS: tuple[type[Operation], ...] = ()
"""Every op defined here, in the order `compat.install()` appends them."""
