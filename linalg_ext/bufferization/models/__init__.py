"""Bufferization models of the ops this package knows, registered on
import (`linalg_ext.bufferization` imports this package)."""

from linalg_ext.bufferization.models import (  # noqa: F401
    arith,
    bufferization,
    func,
    linalg_ext,
    scf,
    structured,
    tensor,
    tensor_alloc,
)
