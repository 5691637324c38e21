"""linalg-fuse-elementwise-ext against upstream's `--linalg-fuse-elementwise-ops`.

Every function of every input in
tests/filecheck/passes/linalg-fuse-elementwise-ext/ (upstream_kinds.mlir holds
inputs of the kinds upstream's fusion-elementwise-ops.mlir covers), plus the
inline inputs below, goes through mlir-opt-22's pass and through ours (default
options). Then:

- the original, upstream's output and ours compute the same values on the
  same random inputs, all three on our interpreter;
- ours has no more ops than upstream's, counted twice per function, both
  excluding `func.return`:
    * *outside bodies*: the ops of the function at any depth, except those
      inside the region of a linalg (or linalg_ext) op, each of which counts
      once. That is the loop nests plus the glue around them (tensor.empty,
      tensor.dim, constants, fills): what fusion removes.
    * *all*: every op at any depth, bodies included (their `linalg.yield`
      too). That is the above plus the per-element work, so a fused op may
      not buy its place by duplicating its body. It also makes the count fair
      where upstream's rewrite driver hoists a constant out of a body and we
      leave it inside;
- mlir-opt-22 accepts our output.

Where ours has more ops than upstream, the function is listed in
`MORE_OPS_THAN_UPSTREAM` with the gap it shows; where our pass fails on an
input, the input is in `PASS_FAILS`. Both are strict xfails: once the pass is
fixed they fail as XPASS, and the entry goes.

mlir-opt-22 does not know `linalg_ext`: inputs that use it are given to it in
the generic form with `--allow-unregistered-dialect`. Skipped without
mlir-opt-22.
"""

from __future__ import annotations

import functools
import shutil
import subprocess
from collections.abc import Iterator

import pytest
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation

from helpers import (
    REPO,
    has_linalg_ext,
    meaning_difference,
    parse_module,
    print_for_mlir_opt,
    print_module,
)
from linalg_ext.context import make_context
from linalg_ext.running import find_function
from linalg_ext.tools.check import parse_pipeline

PASS = "linalg-fuse-elementwise-ext"
INPUT_DIR = REPO / "tests" / "filecheck" / "passes" / PASS
TRIALS = 2

INLINE_INPUTS: dict[str, str] = {}
"""Inputs that cannot live in a .mlir of the directory (none at present)."""

PASS_FAILS: dict[str, str] = {}

MORE_OPS_THAN_UPSTREAM: dict[tuple[str, str], str] = {
    ("reshape_shared_operand", "expand_read_twice"): (
        "we expand a producer that another generic also reads (that one gets a "
        "tensor.collapse_shape of the expanded result: one op more); upstream "
        "fuses only producers of a single use and leaves the expand_shape"
    ),
    # By design (the pass's `math-into-reduction=false`, fusion.py's
    # check_reduction_pays): a math.exp producer stays out of a reducing
    # consumer, where it would run unvectorised; upstream fuses it.
    ("reduction_cost", "sum_of_exp"): (
        "by design: math.exp is not fused into the sum (math-into-reduction)"
    ),
    ("reshapes", "split_reduction_with_index"): (
        "by design: math.exp is not fused into the sum (math-into-reduction)"
    ),
}

pytestmark = pytest.mark.skipif(
    shutil.which("mlir-opt-22") is None, reason="mlir-opt-22 is not installed"
)


def input_texts() -> dict[str, str]:
    texts = {p.stem: p.read_text() for p in sorted(INPUT_DIR.glob("*.mlir"))}
    texts.update(INLINE_INPUTS)
    return texts


TEXTS = input_texts()


def function_names(module: ModuleOp) -> list[str]:
    return [
        op.sym_name.data
        for op in module.walk()
        if isinstance(op, func.FuncOp) and not op.is_declaration
    ]


def xfail(reason: str) -> pytest.MarkDecorator:
    return pytest.mark.xfail(strict=True, reason=reason)


def cases(*, counting: bool) -> Iterator[object]:
    for label, text in TEXTS.items():
        for name in function_names(parse_module(text)):
            marks = []
            if label in PASS_FAILS:
                marks.append(xfail(PASS_FAILS[label]))
            elif counting and (label, name) in MORE_OPS_THAN_UPSTREAM:
                marks.append(xfail(MORE_OPS_THAN_UPSTREAM[(label, name)]))
            yield pytest.param(label, name, marks=marks, id=f"{label}-{name}")


def for_upstream(text: str) -> str:
    """The input as mlir-opt-22 can read it: as written, unless it has
    linalg_ext ops, which only the generic form lets it skip over."""
    module = parse_module(text)
    return print_for_mlir_opt(module) if has_linalg_ext(module) else text


def mlir_opt(text: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["mlir-opt-22", "--allow-unregistered-dialect", *args],
        input=text,
        capture_output=True,
        text=True,
    )


@functools.cache
def upstream_text(label: str) -> str:
    result = mlir_opt(
        for_upstream(TEXTS[label]),
        "--linalg-fuse-elementwise-ops",
        "--mlir-print-op-generic",
    )
    assert result.returncode == 0, result.stderr
    return result.stdout


@functools.cache
def original(label: str) -> ModuleOp:
    return parse_module(TEXTS[label])


@functools.cache
def theirs(label: str) -> ModuleOp:
    return parse_module(upstream_text(label))


@functools.cache
def ours(label: str) -> ModuleOp:
    """Our output (shared by the tests: they only read and run it)."""
    module = parse_module(TEXTS[label])
    parse_pipeline(PASS).apply(make_context(), module)
    module.verify()
    return module


def disagreement(reference: ModuleOp, candidate: ModuleOp, name: str) -> str | None:
    return meaning_difference(reference, candidate, name, TRIALS)


def is_payload_owner(op: Operation) -> bool:
    """Ops whose regions are per-element bodies."""
    return op.name.startswith(("linalg.", "linalg_ext."))


def op_counts(function: func.FuncOp) -> tuple[int, int]:
    """(ops outside bodies, all ops) of `function`, without `func.return`;
    see the module docstring."""
    outside = every = 0

    def visit(op: Operation, in_body: bool) -> None:
        nonlocal outside, every
        for region in op.regions:
            for block in region.blocks:
                for inner in block.ops:
                    if isinstance(inner, func.ReturnOp):
                        continue
                    every += 1
                    outside += not in_body
                    visit(inner, in_body or is_payload_owner(inner))

    visit(function, False)
    return outside, every


def function_text(module: ModuleOp, name: str) -> str:
    return print_module(ModuleOp([find_function(module, name).clone()]))


@pytest.mark.parametrize(("label", "name"), list(cases(counting=False)))
def test_ours_and_upstreams_compute_the_original_values(label, name):
    difference = disagreement(original(label), theirs(label), name)
    assert difference is None, f"upstream's @{name}: {difference}"
    difference = disagreement(original(label), ours(label), name)
    assert difference is None, f"our @{name}: {difference}"


@pytest.mark.parametrize(("label", "name"), list(cases(counting=True)))
def test_ours_has_no_more_ops_than_upstreams(label, name):
    upstream, mine = theirs(label), ours(label)
    their_counts = op_counts(find_function(upstream, name))
    our_counts = op_counts(find_function(mine, name))
    assert our_counts[0] <= their_counts[0] and our_counts[1] <= their_counts[1], (
        f"@{name}: ours has {our_counts} ops (outside bodies, all), upstream "
        f"{their_counts}\n--- ours\n{function_text(mine, name)}"
        f"\n--- upstream\n{function_text(upstream, name)}"
    )


@pytest.mark.parametrize(
    "label",
    [
        pytest.param(
            label, marks=[xfail(PASS_FAILS[label])] if label in PASS_FAILS else []
        )
        for label in TEXTS
    ],
)
def test_upstream_accepts_our_output(label):
    module = ours(label)
    result = mlir_opt(print_for_mlir_opt(module))
    assert result.returncode == 0, result.stderr
