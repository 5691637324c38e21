"""Compatibility with upstream MLIR where xDSL 0.74 falls short.

The one place that adds to or corrects xDSL's own dialects (ops it cannot
parse, printing it gets wrong). `install()` applies everything, once; the
package's universe and `linalg_ext.context.make_context` call it.

What it adds (see docs/compat.md):

- `linalg`: `linalg.map`, `linalg.batch_matmul`, and the named elementwise
  ops `div`, `negf`, `abs`, `floor`, `ceil`, `tanh`, `rsqrt`, `reciprocal`,
  `square`, `powf` (`linalg_ops`);
- `affine`: `affine.max` (`affine_ops`);
- `scf`: `scf.forall` and `scf.forall.in_parallel`; `tensor`:
  `tensor.parallel_insert_slice` (`forall_ops`), `tensor.generate`
  (`tensor_ops`);
- `gpu`: the mapping attributes `#gpu.block<x>`, `#gpu.thread<x>`, ... that
  `scf.forall` names (`gpu_attrs`).

What it corrects: `linalg.generic`'s custom syntax (`generic_format`); the
structured-op queries (`inputs`, `outputs`, indexing maps, iterator types)
that `linalg.broadcast` and `linalg.reduce` lack (`structured_interface`);
`bufferization.to_tensor`/`to_buffer` between a tensor and a memref of any
layout (`bufferization_ops`).

For the LLVM lowering: `llvm` ops xDSL lacks (`llvm_ops`), and their
translation to LLVM IR, routed in front of xDSL's (`llvm_translation`).

A `Context` finds ops through the `Dialect` objects xDSL's loaders return, so
the new ops are appended to those objects. That has to happen before any
context loads the dialect, which is why our universe entry point (imported by
xdsl-opt before it parses anything) calls `install()`.
"""

from __future__ import annotations

from collections.abc import Iterable

from xdsl.ir import Attribute, Dialect, Operation

_installed = False


def _add_operations(dialect: Dialect, ops: Iterable[type[Operation]]) -> None:
    """Append each op the dialect does not already define (by name), so that
    a second call, or an xDSL that gained the op, changes nothing."""
    known = {op.name for op in dialect.operations}
    for op in ops:
        if op.name not in known:
            dialect._operations.append(op)  # pyright: ignore[reportPrivateUsage]


def _add_attributes(dialect: Dialect, attrs: Iterable[type[Attribute]]) -> None:
    known = {attr.name for attr in dialect.attributes}
    for attr in attrs:
        if attr.name not in known:
            dialect._attributes.append(attr)  # pyright: ignore[reportPrivateUsage]


def install() -> None:
    """Apply every compatibility fix to xDSL's dialects (idempotent)."""
    global _installed
    if _installed:
        return
    _installed = True

    from xdsl.dialects.affine import Affine
    from xdsl.dialects.gpu import GPU
    from xdsl.dialects.linalg import Linalg
    from xdsl.dialects.llvm import LLVM
    from xdsl.dialects.scf import Scf
    from xdsl.dialects.tensor import Tensor

    from linalg_ext.compat.affine_ops import MaxOp
    from linalg_ext.compat.bufferization_ops import install_bufferization_fixes
    from linalg_ext.compat.forall_ops import FORALL_OPS, ParallelInsertSliceOp
    from linalg_ext.compat.generic_format import install_generic_format
    from linalg_ext.compat.gpu_attrs import GPU_MAPPING_ATTRS
    from linalg_ext.compat.linalg_ops import LINALG_OPS
    from linalg_ext.compat.llvm_memory_ops import LLVM_MEMORY_OPS
    from linalg_ext.compat.llvm_ops import LLVM_OPS
    from linalg_ext.compat.llvm_translation import install_llvm_translation
    from linalg_ext.compat.structured_interface import install_structured_interface
    from linalg_ext.compat.tensor_ops import TENSOR_OPS

    _add_operations(Linalg, LINALG_OPS)
    _add_operations(Affine, (MaxOp,))
    _add_operations(Scf, FORALL_OPS)
    _add_operations(Tensor, (*TENSOR_OPS, ParallelInsertSliceOp))
    _add_attributes(GPU, GPU_MAPPING_ATTRS)
    install_generic_format()
    install_bufferization_fixes()
    install_structured_interface()
    _add_operations(LLVM, (*LLVM_OPS, *LLVM_MEMORY_OPS))
    install_llvm_translation()
