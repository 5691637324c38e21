"""`linalg-contraction-microkernel`: matmuls on memrefs as packed,
register-tiled vector code.

Every contraction on memrefs (`linalg.matmul`, `linalg.batch_matmul`,
`linalg_ext.batch_matmul` in every layout, the convolutions, a
`linalg.generic` that multiplies two inputs into an accumulating output:
linalg_ext/lowering/contraction.py says exactly which) becomes the
GotoBLAS/BLIS loops: blocks of `nc` columns and `kc` reduction steps of B
packed into contiguous zero-padded panels, blocks of `mc` rows of A
likewise, and a micro-kernel that keeps an MR x NR tile of C in vector
registers (`vector.load`, `vector.broadcast`, `vector.fma` or
`arith.mulf` + `arith.addf` on vectors) while it runs along k.

    linalg.matmul ins(%a, %b : memref<512x256xf32>, memref<256x384xf32>)
                  outs(%c : memref<512x384xf32>)

becomes (abridged, AVX-512: MR = 8, NR = 2 x 16)

    %packed_rhs = memref.alloc() : memref<12x256x32xf32>
    %packed_lhs = memref.alloc() : memref<8x256x8xf32>
    %stage = memref.alloca() : memref<8x32xf32>
    scf.for %jc = %c0 to %c384 step %c384 {
      scf.for %pc = %c0 to %c256 step %c256 {
        ... pack B into %packed_rhs ...
        scf.for %ic = %c0 to %c512 step %c64 {
          ... pack A into %packed_lhs ...
          scf.for %q ... { scf.for %p ... {
            ... C tile into %stage ...
            %acc:16 = scf.for %k = %c0 to %kc step %c1 iter_args(...) {
              %b0 = vector.load %packed_rhs[%q, %k, %c0] : ..., vector<16xf32>
              %a0 = memref.load %packed_lhs[%p, %k, %c0] : memref<8x256x8xf32>
              %a0v = vector.broadcast %a0 : f32 to vector<16xf32>
              %m = arith.mulf %a0v, %b0 : vector<16xf32>
              %s = arith.addf %acc0, %m : vector<16xf32>
              ...
            }
            ... %acc into %stage, %stage into C ...
          } }
        }
      }
    }

Each element of C adds its products in the order of k from its value in C,
as the plain loops do: without `fma` the results are the same bits as
`convert-linalg-to-loops-ext`'s; with `fma` each multiply-add rounds once
(the floating-point contract `contract` of `lower-to-llvm`, which sets this
option).

Options:
- `vector-bits`: the vector width the tiles are made for; 0 (the default) is
  the host's (`linalg_ext.lowering.cpu_target`), else 128, 256 or 512;
- `register-tile` = `MR,NR`: rows and columns of the register tile (NR a
  multiple of the vector length); by default from the target (8 x 32 f32
  with AVX-512, 6 x 16 with AVX2);
- `cache-tile` = `mc,nc,kc` (default 64,1024,1024), rounded to the register
  tile;
- `fma`: one `vector.fma` per step instead of a multiply and an add;
- `min-multiply-adds`: contractions with static sizes doing fewer
  multiply-adds than this (default 32768) are left to
  `convert-linalg-to-loops-ext`; 0 takes every contraction;
- `runtime-checks`: check the operands' dynamic extents with the
  interpreter's messages first (as `convert-linalg-to-loops-ext` does) and
  mark the accesses in bounds.

Other ops are left as they are (`lower-to-llvm` runs this pass before the
loop lowerings). Wrong options are a one-line error naming the option.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
)
from xdsl.rewriter import InsertPoint

from linalg_ext.diagnostics import OpPassFailed
from linalg_ext.lowering.contraction import (
    ELEMENT_BYTES,
    Contraction,
    match_contraction,
)
from linalg_ext.lowering.cpu_target import target_with_vector_bits
from linalg_ext.lowering.loop_nest import LoopNestBuilder
from linalg_ext.lowering.microkernel import KernelShape, emit_microkernel
from linalg_ext.lowering.microkernel_fusion import Fusion, find_fusion

DEFAULT_CACHE_TILE = (64, 1024, 1024)
"""mc, nc, kc: 64 rows of A and 1024 steps of k packed (256 KiB of f32, in
L2), 1024 columns of B (4 MiB, in L3). A long kc means few passes over C
(each block of k loads and stores the whole of it): on AMD Zen 4 (1 MiB L2)
matmul 1024^3 took 21 ms with kc = 1024 against 23-25 ms with 256."""


def kernel_shape(
    contraction: Contraction,
    vector_bits: int,
    register_tile: tuple[int, ...],
    cache_tile: tuple[int, ...],
) -> KernelShape | str:
    """The tiles for `contraction` under the pass's options, or what is
    wrong with them for it."""
    element_bytes = ELEMENT_BYTES[type(contraction.element)]
    target = target_with_vector_bits(vector_bits)
    lanes = target.lanes(element_bytes)
    if register_tile:
        rows, columns = register_tile
        if columns % lanes:
            return (
                f"register-tile: NR={columns} is not a multiple of the vector "
                f"length ({lanes} elements of {contraction.element} in "
                f"{target.vector_bits} bits)"
            )
        vectors = columns // lanes
    else:
        rows, vectors = target.register_tile(element_bytes)
    mc, nc, kc = cache_tile
    columns = lanes * vectors
    return KernelShape(
        rows=rows,
        lanes=lanes,
        vectors=vectors,
        mc=max(rows, mc // rows * rows),
        nc=max(columns, nc // columns * columns),
        kc=max(1, kc),
    )


def _check_extents(b: LoopNestBuilder, contraction: Contraction) -> None:
    """The run-time checks the op's own loop lowering would make first."""
    from linalg_ext.lowering.linalg_ext_loops import check_extents
    from linalg_ext.lowering.structured_scalar import check_structured_extents

    op = contraction.op
    if contraction.generic is None and op.dialect_name() == "linalg_ext":
        check_extents(b, op)
        return
    generic = contraction.generic or op
    from xdsl.dialects.linalg import ops as linalg

    assert isinstance(generic, linalg.GenericOp)
    upper = _uppers(b, contraction)
    check_structured_extents(b, op, generic, upper)


def _check_epilogue_extents(b: LoopNestBuilder, epilogue: Operation) -> None:
    """The run-time checks of the fused epilogue's own loop lowering."""
    from xdsl.dialects.linalg import ops as linalg

    from linalg_ext.lowering.loop_nest import static_extent
    from linalg_ext.lowering.structured_scalar import (
        check_structured_extents,
        loop_bound_sources,
    )

    assert isinstance(epilogue, linalg.GenericOp)
    upper: list[SSAValue] = []
    for source in loop_bound_sources(epilogue):
        assert source is not None  # the identity map of C gives every loop
        size = static_extent(source)
        upper.append(b.index(size) if size is not None else b.extent(source))
    check_structured_extents(b, epilogue, epilogue, upper)


def _uppers(b: LoopNestBuilder, contraction: Contraction) -> list[SSAValue]:
    """Each loop's extent, from the first operand dimension it indexes."""
    return [
        b.extent(*contraction.sources(loop)) for loop in range(contraction.num_loops)
    ]


@dataclass(frozen=True)
class ContractionToMicrokernel(RewritePattern):
    """One contraction on memrefs as its micro-kernel loops."""

    vector_bits: int
    register_tile: tuple[int, ...]
    cache_tile: tuple[int, ...]
    fma: bool
    min_multiply_adds: int
    runtime_checks: bool
    fuse: bool
    parallel: bool

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if op.dialect_name() not in ("linalg", "linalg_ext") or op.parent is None:
            return
        contraction = match_contraction(op)
        if isinstance(contraction, str):
            return
        work = contraction.multiply_adds()
        if work is not None and work < self.min_multiply_adds:
            if contraction.generic is not None:
                contraction.generic.erase()
            return
        shape = kernel_shape(
            contraction, self.vector_bits, self.register_tile, self.cache_tile
        )
        assert not isinstance(shape, str), "the pass checks the options first"
        fusion = find_fusion(contraction) if self.fuse else Fusion()
        b = LoopNestBuilder.detached()
        if self.runtime_checks:
            b.mark_in_bounds()
            _check_extents(b, contraction)
            if fusion.epilogue is not None:
                _check_epilogue_extents(b, fusion.epilogue)
        emit_microkernel(
            b,
            contraction,
            shape,
            self.fma,
            _uppers(b, contraction),
            fusion,
            self.parallel,
        )
        start = fusion.fill or op
        for moved in fusion.moved:
            moved.detach()
            rewriter.insert(moved, InsertPoint.before(start))
        rewriter.insert(b.take_ops(), InsertPoint.before(op))
        if contraction.generic is not None:
            contraction.generic.erase()
        rewriter.erase(op)
        if fusion.fill is not None:
            rewriter.erase(fusion.fill)
        if fusion.epilogue is not None:
            rewriter.erase(fusion.epilogue)


def option_problem(
    vector_bits: int, register_tile: tuple[int, ...], cache_tile: tuple[int, ...]
) -> str | None:
    """What is wrong with the tile options, or None."""
    if vector_bits not in (0, 128, 256, 512):
        return f"vector-bits must be 0, 128, 256 or 512, not {vector_bits}"
    if register_tile:
        if len(register_tile) != 2 or min(register_tile) < 1:
            return "register-tile must be two positive integers MR,NR, not " + ",".join(
                map(str, register_tile)
            )
    if len(cache_tile) != 3 or min(cache_tile) < 1:
        return "cache-tile must be three positive integers mc,nc,kc, not " + ",".join(
            map(str, cache_tile)
        )
    return None


@dataclass(frozen=True)
class LinalgContractionMicrokernelPass(ModulePass):
    """Contractions on memrefs as packed, register-tiled vector loops (see
    the module docstring)."""

    name = "linalg-contraction-microkernel"

    vector_bits: int = 0
    """The vector width to tile for: 0 is the host's, else 128, 256, 512."""

    register_tile: tuple[int, ...] = ()
    """MR,NR: rows and columns of the accumulator tile kept in registers
    (default from the target)."""

    cache_tile: tuple[int, ...] = DEFAULT_CACHE_TILE
    """mc,nc,kc: rows of A, columns of B and reduction steps packed at a
    time."""

    fma: bool = False
    """Fused multiply-add (one rounding per step) instead of a multiply and
    an add; `lower-to-llvm` sets it when its fast-math allows `contract`."""

    min_multiply_adds: int = 32768
    """Contractions of static sizes with fewer multiply-adds stay as they
    are (0: every contraction)."""

    runtime_checks: bool = False
    """Check the dynamic extents at run time with the interpreter's
    messages first, and mark the accesses in bounds."""

    parallel: bool = False
    """Make the loop over the blocks of rows an `scf.parallel` (each block
    with its own packed A and stage), which `outline-parallel-loops-ext`
    and the JIT's threads run on several cores."""

    fuse: bool = True
    """Start from the value of a `linalg.fill` of C right before the op,
    and apply an elementwise `linalg.generic` right after it that is C's
    last reader to each finished register tile (both ops go)."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        problem = option_problem(self.vector_bits, self.register_tile, self.cache_tile)
        if problem is not None:
            raise OpPassFailed(f"{self.name}: {problem}", op)
        # Only a register tile given by hand can be wrong for an op's
        # element type; otherwise no op needs reading twice.
        targets = op.walk() if self.register_tile else ()
        for target in targets:
            if target.dialect_name() not in ("linalg", "linalg_ext"):
                continue
            contraction = match_contraction(target)
            if isinstance(contraction, str):
                continue
            if contraction.generic is not None:
                contraction.generic.erase()
            shape = kernel_shape(
                contraction, self.vector_bits, self.register_tile, self.cache_tile
            )
            if isinstance(shape, str):
                raise OpPassFailed(f"{self.name}: {target.name}: {shape}", target)
        PatternRewriteWalker(
            ContractionToMicrokernel(
                self.vector_bits,
                tuple(self.register_tile),
                tuple(self.cache_tile),
                self.fma,
                self.min_multiply_adds,
                self.runtime_checks,
                self.fuse,
                self.parallel,
            ),
            apply_recursively=False,
        ).rewrite_module(op)
