"""`lower-to-llvm`: a memref program all the way to the `llvm` dialect.

One pass that runs, in order, every lowering a bufferized program needs, so
that `xdsl-opt -p lower-to-llvm` followed by `-t llvm` (or `linalg_ext.jit`)
takes it to machine code without `mlir-opt`:

    convert-linalg-ext-to-loops, convert-linalg-to-loops, lower-affine,
    convert-scf-to-cf, convert-cf-to-llvm, convert-math-to-llvm,
    convert-arith-to-llvm, convert-index-to-llvm, finalize-memref-to-llvm,
    convert-func-to-llvm, reconcile-unrealized-casts

(upstream's order for the same steps; `expand-strided-metadata` has no
counterpart: finalize-memref-to-llvm computes the descriptors of views itself).
Each step is the pass registered under that name, ours where we replace
xDSL's. At the end every op must be an `llvm` op (or the module): the first
one that is not is reported, naming it, and the module is left as it was.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, UnrealizedConversionCastOp
from xdsl.passes import ModulePass
from xdsl.utils.exceptions import PassFailedException

from linalg_ext.transforms.module_contents import replace_module_contents

LOWERING_STEPS = (
    "convert-linalg-ext-to-loops",
    "convert-linalg-to-loops",
    "lower-affine",
    "convert-scf-to-cf",
    "convert-cf-to-llvm",
    "convert-math-to-llvm",
    "convert-arith-to-llvm",
    "convert-index-to-llvm",
    "finalize-memref-to-llvm",
    "convert-func-to-llvm",
    "reconcile-unrealized-casts",
)
"""The passes `lower-to-llvm` runs, in order."""


def _pass_class(name: str) -> type[ModulePass]:
    """The pass registered as `name`: ours first (some replace xDSL's)."""
    from xdsl.transforms import get_all_passes

    from linalg_ext.passes import ALL_PASSES

    loader = ALL_PASSES.get(name) or get_all_passes()[name]
    return loader()


def _first_unlowered_op(module: ModuleOp) -> str | None:
    """The first op left outside the llvm dialect, preferring a real op to
    the cast that bridges to it (a cast is left only because of one)."""
    casts: list[str] = []
    for op in module.walk():
        if op is module or op.name.startswith("llvm."):
            continue
        if isinstance(op, UnrealizedConversionCastOp):
            types = ", ".join(str(r.type) for r in op.results)
            casts.append(f"{op.name}' to '{types}")
            continue
        return op.name
    return casts[0] if casts else None


@dataclass(frozen=True)
class LowerToLLVMPass(ModulePass):
    """Lower a memref program (linalg, linalg_ext, scf, affine, cf, arith,
    math, index, memref, func) to the `llvm` dialect; see the module
    docstring for the steps."""

    name = "lower-to-llvm"

    use_generic_functions: bool = False
    """Allocate and free through `_mlir_memref_to_llvm_alloc`/`_free`
    instead of `malloc`/`free` (finalize-memref-to-llvm's option of the same
    name): `linalg_ext.jit` binds them to functions that measure memory."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        lowered = op.clone()
        for step in LOWERING_STEPS:
            pass_class = _pass_class(step)
            if step == "finalize-memref-to-llvm":
                lowering = pass_class(  # pyright: ignore[reportCallIssue]
                    use_generic_functions=self.use_generic_functions
                )
            else:
                lowering = pass_class()
            try:
                with warnings.catch_warnings():
                    # reconcile-unrealized-casts warns of casts it cannot
                    # remove; the check below names the op that kept them.
                    warnings.simplefilter("ignore", UserWarning)
                    lowering.apply(ctx, lowered)
            except PassFailedException as error:
                message = str(error)
                if not message.startswith(f"{step}:"):
                    message = f"{step}: {message}"
                raise PassFailedException(f"lower-to-llvm: {message}") from error
        leftover = _first_unlowered_op(lowered)
        if leftover is not None:
            raise PassFailedException(
                f"lower-to-llvm: '{leftover}' is not lowered to the llvm dialect "
                "(no step of the pipeline converts it)"
            )
        lowered.verify()
        replace_module_contents(op, lowered)
