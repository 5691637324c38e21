"""`linalg-fuse-elementwise-ext{permutations-into-contractions=true}`:
transposes and broadcasts folded into the contractions that read them.

Execution checks on the lit inputs of `permutations_into_contractions.mlir`:
the output computes what the input computes (our interpreter, random
inputs); compiled (fast_math "none", micro-kernels on) it gives the
interpreter's bits; and after bufferization the contraction micro-kernel
still matches every folded contraction.
"""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.linalg.ops import GenericOp

from helpers import (
    REPO,
    after_pass,
    function_names,
    meaning_difference,
    parse_module,
)
from linalg_ext.jit import compile_module, run_function
from linalg_ext.lowering.contraction import Contraction, match_contraction
from linalg_ext.passes.fuse_elementwise_ext import LinalgFuseElementwiseExtPass
from linalg_ext.pipelines import apply_pipeline
from linalg_ext.running import run_function as interpret

TEXT = (
    REPO
    / "tests"
    / "filecheck"
    / "passes"
    / "linalg-fuse-elementwise-ext"
    / "permutations_into_contractions.mlir"
).read_text()

NAMES = function_names(parse_module(TEXT))

FOLDED = ["trans_b", "q_kt", "broadcast_weight", "generic_transpose", "heads"]


def fused() -> ModuleOp:
    return after_pass(
        LinalgFuseElementwiseExtPass(permutations_into_contractions=True), TEXT
    )


def _inputs(module: ModuleOp, name: str) -> list[np.ndarray]:
    from xdsl.dialects import func

    rng = np.random.default_rng(3)
    function = next(
        op
        for op in module.walk()
        if isinstance(op, func.FuncOp) and op.sym_name.data == name
    )
    shapes = [
        [d if d >= 0 else 3 for d in t.get_shape()]  # pyright: ignore[reportAttributeAccessIssue]
        for t in function.function_type.inputs.data
    ]
    return [rng.uniform(-1, 1, s).astype(np.float32) for s in shapes]


@pytest.mark.parametrize("name", NAMES)
def test_same_values_as_the_input(name: str):
    assert meaning_difference(parse_module(TEXT), fused(), name) is None


def test_contractions_are_generics_reading_the_sources():
    names = [op.name for op in fused().walk()]
    # q_kt keeps its transpose (returned); kept its broadcasts along k and
    # its computed operand.
    assert names.count("linalg.transpose") == 1
    assert names.count("linalg.broadcast") == 2
    assert names.count("linalg.matmul") == 2


@pytest.mark.parametrize("name", FOLDED)
def test_compiled_gives_the_unfused_bits(name: str):
    """Compiled, the folded contraction gives the bits the transpose (or
    broadcast) and the named contraction give (the interpreter's values up
    to rounding: with a non-zero init it sums in another order)."""
    original = parse_module(TEXT)
    inputs = _inputs(original, name)
    expected = interpret(original, name, [np.copy(v) for v in inputs])
    unfused = run_function(
        compile_module(parse_module(TEXT)), name, [np.copy(v) for v in inputs]
    )
    actual = run_function(compile_module(fused()), name, [np.copy(v) for v in inputs])
    for e, u, a in zip(expected.results, unfused.results, actual.results, strict=True):
        np.testing.assert_array_equal(a, u)
        np.testing.assert_allclose(a, e, rtol=1e-5, atol=1e-6)


def test_the_microkernel_takes_the_folded_contractions():
    module = fused()
    apply_pipeline("one-shot-bufferize{bufferize-function-boundaries=true}", module)
    contractions = [
        op
        for op in module.walk()
        if isinstance(op, GenericOp)
        and len(op.inputs) == 2
        and op.iterator_types
        and any(str(t.data) == "reduction" for t in op.iterator_types)
    ]
    assert len(contractions) == len(FOLDED)
    for op in contractions:
        matched = match_contraction(op)
        assert isinstance(matched, Contraction), matched
