"""`lower-to-llvm`: a memref program all the way to the `llvm` dialect.

One pass that runs, in order, every lowering a bufferized program needs, so
that `xdsl-opt -p lower-to-llvm` followed by `-t llvm` (or `linalg_ext.jit`)
takes it to machine code without `mlir-opt`:

    [linalg-contraction-microkernel], [outline-parallel-loops-ext],
    convert-linalg-ext-to-loops,
    convert-linalg-to-loops-ext, [insert-runtime-checks], lower-affine-ext,
    convert-scf-to-cf-ext,
    convert-cf-to-llvm, [math-polynomial-approximation-ext],
    convert-math-to-llvm, convert-vector-to-llvm-ext, convert-arith-to-llvm,
    convert-index-to-llvm, finalize-memref-to-llvm, convert-func-to-llvm,
    reconcile-unrealized-casts

(upstream's order for the same steps; `expand-strided-metadata` has no
counterpart: finalize-memref-to-llvm computes the descriptors of views itself).
Each step is the pass registered under that name, ours where we replace
xDSL's. With `runtime-checks` the loop lowerings check the extents that
must agree and the scatter indices, and `insert-runtime-checks` guards
loads, stores, divisions and loop steps (`rtcheck.assert`, lowered by
convert-cf-to-llvm). At the end every op must be an `llvm` op (or the
module): the first one that is not is reported, naming it, and the module
is left as it was.

With `fast-math` (`contract`, `reassoc`, `arcp`, `fast`), convert-arith-to-llvm adds
fast-math flags to the float ops (and convert-vector-to-llvm-ext to the
float reductions) (docs/jit.md, "Floating-point contract").

The pass is a `StagedPass`: `stages()` returns the steps as configured pass
instances, the list `apply` runs and `linalg-ext-opt --print-between-passes`
/ `--time-passes` show one by one.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, UnrealizedConversionCastOp
from xdsl.ir import Operation
from xdsl.passes import ModulePass

from linalg_ext.diagnostics import OpPassFailed
from linalg_ext.lowering.fast_math import FastMathMode
from linalg_ext.transforms.staged import StagedPass

LOWERING_STEPS = (
    "linalg-contraction-microkernel",
    "outline-parallel-loops-ext",
    "convert-linalg-ext-to-loops",
    "convert-linalg-to-loops-ext",
    "insert-runtime-checks",
    "lower-affine-ext",
    "convert-scf-to-cf-ext",
    "convert-cf-to-llvm",
    "convert-math-to-llvm",
    "convert-vector-to-llvm-ext",
    "convert-arith-to-llvm",
    "convert-index-to-llvm",
    "finalize-memref-to-llvm",
    "convert-func-to-llvm",
    "reconcile-unrealized-casts",
)
"""The passes `lower-to-llvm` runs, in order (`linalg-contraction-microkernel`
only with `microkernels`, `outline-parallel-loops-ext` only with `parallel`,
`insert-runtime-checks` only with `runtime-checks`;
APPROXIMATION_STEP before convert-math-to-llvm with
`approximate-math`)."""

APPROXIMATION_STEP = "math-polynomial-approximation-ext"
"""The pass that `approximate-math` (or `fast-math=fast`) runs before
convert-math-to-llvm: f32 math functions as vectorisable polynomials."""

INTERLEAVED_REDUCTIONS = 8
"""convert-linalg-to-loops-ext's `interleave-reductions`: a reduction
carried in registers (a row sum) is computed for this many rows at once,
independent chains instead of one chain of dependent additions."""

CHECKED_STEPS = frozenset(
    {
        "linalg-contraction-microkernel",
        "convert-linalg-ext-to-loops",
        "convert-linalg-to-loops-ext",
    }
)
"""The loop lowerings that take a `runtime_checks` option."""


def _pass_class(name: str) -> type[ModulePass]:
    """The pass registered as `name`: ours first (some replace xDSL's)."""
    from xdsl.transforms import get_all_passes

    from linalg_ext.passes import ALL_PASSES

    loader = ALL_PASSES.get(name) or get_all_passes()[name]
    return loader()


def _first_unlowered_op(module: ModuleOp) -> tuple[Operation, str] | None:
    """The first op left outside the llvm dialect and how to name it,
    preferring a real op to the cast that bridges to it (a cast is left only
    because of one)."""
    casts: list[tuple[Operation, str]] = []
    for op in module.walk():
        if op is module or op.name.startswith("llvm."):
            continue
        if isinstance(op, UnrealizedConversionCastOp):
            types = ", ".join(str(r.type) for r in op.results)
            casts.append((op, f"{op.name}' to '{types}"))
            continue
        return op, op.name
    return casts[0] if casts else None


@dataclass(frozen=True)
class LowerToLLVMPass(StagedPass):
    """Lower a memref program (linalg, linalg_ext, scf, affine, cf, arith,
    math, index, memref, func) to the llvm dialect, in stages."""

    name = "lower-to-llvm"

    use_generic_functions: bool = False
    """Allocate and free through `_mlir_memref_to_llvm_alloc`/`_free`
    instead of `malloc`/`free` (finalize-memref-to-llvm's option of the same
    name): `linalg_ext.jit` binds them to functions that measure memory."""

    runtime_checks: bool = False
    """Check at run time what the interpreter checks (indices in bounds,
    extents that must agree, division by zero and overflow, loop steps):
    the loop lowerings check extents and scatter indices, and
    `insert-runtime-checks` runs before `lower-affine-ext` (so that affine
    accesses are checked as such, with their own messages), so that a failing
    check stops the compiled call with the interpreter's message."""

    approximate_math: bool = False
    """Run `math-polynomial-approximation-ext` before convert-math-to-llvm
    (also done with `fast-math=fast`): f32 `exp`, `log`, `log2`, `log1p`,
    `expm1`, `tanh`, `erf` become polynomials within 1 to 4 ulps instead of
    libm calls, so that LLVM vectorises the loops around them. Off by
    default: where the loop stays scalar for another reason (a sum of
    exponentials without `fast-math=reassoc`), glibc's scalar functions are
    faster (docs/passes/math-polynomial-approximation-ext.md)."""

    fast_math: FastMathMode = "none"
    """What compiled code may do to float arithmetic, passed to
    convert-arith-to-llvm (`linalg_ext.lowering.fast_math`): `none` rounds
    every op as written, in the order of the loops, `contract`
    allows fused multiply-adds, `reassoc` also reordered sums and products
    (vectorised reductions), `fast` all seven flags on every float op (NaN
    and infinities then give undefined results)."""

    microkernels: bool = True
    """Run `linalg-contraction-microkernel` first: matmuls and other
    contractions become packed, register-tiled vector loops (with one fused
    multiply-add per step when `fast-math` allows `contract`); false leaves
    them to the plain loops of convert-linalg-to-loops-ext."""

    vector_bits: int = 0
    """The vector width the micro-kernels are tiled for: 0 is the host's,
    else 128, 256 or 512 (`linalg-contraction-microkernel`'s option)."""

    parallel: bool = False
    """Make the micro-kernels' blocks of rows `scf.parallel` loops and
    outline every outermost 1-D `scf.parallel` (`outline-parallel-loops-ext`)
    into a call the JIT's thread runtime runs on several cores
    (`compile_module(threads=N)` sets it; only the JIT defines those calls)."""

    @property
    def approximates_math(self) -> bool:
        """Whether APPROXIMATION_STEP runs: asked for, or allowed by
        `fast-math=fast` (whose `afn` flag lets LLVM approximate functions)."""
        return self.approximate_math or self.fast_math == "fast"

    def stages(self) -> tuple[ModulePass, ...]:
        """One pass per name of LOWERING_STEPS, with this pass's options."""
        stages: list[ModulePass] = []
        for step in LOWERING_STEPS:
            if step == "insert-runtime-checks" and not self.runtime_checks:
                continue
            if step == "linalg-contraction-microkernel" and not self.microkernels:
                continue
            if step == "outline-parallel-loops-ext" and not self.parallel:
                continue
            # The registry types each pass as a plain ModulePass: an option
            # goes to it by name, as in a pass pipeline's text.
            options: dict[str, bool | str | int] = {}
            if step == "linalg-contraction-microkernel":
                options["fma"] = self.fast_math != "none"
                options["vector_bits"] = self.vector_bits
                options["parallel"] = self.parallel
            if step == "finalize-memref-to-llvm":
                options["use_generic_functions"] = self.use_generic_functions
            if step == "convert-linalg-to-loops-ext":
                options["interleave_reductions"] = INTERLEAVED_REDUCTIONS
                options["flatten_elementwise"] = True
            if step in CHECKED_STEPS and self.runtime_checks:
                options["runtime_checks"] = True
            if (
                step
                in (
                    "convert-vector-to-llvm-ext",
                    "convert-arith-to-llvm",
                    "convert-linalg-to-loops-ext",
                )
                and self.fast_math != "none"
            ):
                options["fast_math"] = self.fast_math
            if step == "convert-math-to-llvm" and self.approximates_math:
                stages.append(_pass_class(APPROXIMATION_STEP)())
            stages.append(_pass_class(step)(**options))
        return tuple(stages)

    def run_stage(self, ctx: Context, module: ModuleOp, stage: ModulePass) -> None:
        with warnings.catch_warnings():
            # reconcile-unrealized-casts warns of casts it cannot remove;
            # `finish` names the op that kept them.
            warnings.simplefilter("ignore", UserWarning)
            super().run_stage(ctx, module, stage)

    def finish(self, module: ModuleOp) -> None:
        """Every op must now be an llvm op: name the first one that is not."""
        leftover = _first_unlowered_op(module)
        if leftover is not None:
            op, name = leftover
            raise OpPassFailed(
                f"lower-to-llvm: '{name}' is not lowered to the llvm dialect "
                "(no step of the pipeline converts it)",
                op,
            )
        super().finish(module)
