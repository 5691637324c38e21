"""What the code generation knows of the CPU it compiles for.

`CpuTarget` is the target description the micro-kernel lowering
(`linalg_ext.lowering.microkernel`) chooses its register tile from: the
width of the vector registers, how many there are, and whether the machine
has fused multiply-add. `host_target()` reads it from the host (LLVM's view
of the CPU, through llvmlite); every field can also be set by hand (the
`vector-bits` option of `linalg-contraction-microkernel` and of
`lower-to-llvm`), e.g. to inspect the code another machine would get.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass


@dataclass(frozen=True)
class CpuTarget:
    """A CPU as the code generation sees it."""

    vector_bits: int
    """Width of a vector register: 128 (SSE, NEON), 256 (AVX2), 512
    (AVX-512)."""

    vector_registers: int
    """How many vector registers there are (16 with AVX2, 32 with AVX-512
    or NEON)."""

    fma: bool
    """Whether the machine has fused multiply-add instructions."""

    def lanes(self, element_bytes: int) -> int:
        """Elements of `element_bytes` bytes in one vector register."""
        return max(1, self.vector_bits // (8 * element_bytes))

    def register_tile(self, element_bytes: int) -> tuple[int, int]:
        """(rows, vectors per row) of the accumulator tile a micro-kernel
        keeps in registers: two vectors per row (so each broadcast of the
        left operand feeds two multiply-adds), and as many rows as the
        registers hold beside the two right-operand vectors and a broadcast
        (6 with 16 registers, 8 at most)."""
        vectors = 2
        rows = (self.vector_registers - vectors - 2) // vectors
        return max(1, min(8, rows)), vectors


GENERIC_TARGET = CpuTarget(vector_bits=128, vector_registers=16, fma=False)
"""What every x86-64 and AArch64 machine has: 128-bit vectors, 16 registers."""


def target_from_features(features: set[str]) -> CpuTarget:
    """The target an LLVM feature set (`avx512f`, `avx2`, `fma`, `neon`, ...)
    describes."""
    if "avx512f" in features:
        return CpuTarget(512, 32, True)
    if "avx2" in features or "avx" in features:
        return CpuTarget(256, 16, "fma" in features)
    if "neon" in features or "asimd" in features:
        return CpuTarget(128, 32, True)
    return GENERIC_TARGET


@functools.cache
def host_target() -> CpuTarget:
    """The host CPU's description (LLVM's host features, through llvmlite);
    `GENERIC_TARGET` if llvmlite cannot say."""
    try:
        import llvmlite.binding as binding

        features = binding.get_host_cpu_features()
    except Exception:  # no llvmlite, or no feature list on this host
        return GENERIC_TARGET
    enabled = {name for name, on in features.items() if on}
    return target_from_features(enabled)


def target_with_vector_bits(vector_bits: int) -> CpuTarget:
    """The host's description, or, for `vector_bits` other than 0, that of a
    machine with vectors of that width (512: 32 registers; otherwise 16),
    with fused multiply-add."""
    if vector_bits == 0:
        return host_target()
    registers = 32 if vector_bits >= 512 else 16
    return CpuTarget(vector_bits, registers, True)
