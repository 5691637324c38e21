"""fuse-pad against upstream's own pattern (`mlir-opt-22 --test-linalg-pad-fusion`).

On every fuse-pad test input, upstream's output and ours (all three option
sets) compute the same values as the original program on the same random
inputs (all three run on our interpreter), and mlir-opt-22 accepts our
output. One input shows where upstream changes the meaning and we do not: a
producer whose body reads its init. Skipped without mlir-opt-22.

mlir-opt-22 does not know `linalg_ext`: inputs that use it are given to it in
the generic form with `--allow-unregistered-dialect`, where its pattern sees
those ops as unknown producers and leaves their pads alone.
"""

from __future__ import annotations

import shutil
import subprocess

import pytest

from helpers import REPO, meaning_difference, parse_module, print_for_mlir_opt
from linalg_ext.tools.check import parse_pipeline

INPUTS = sorted((REPO / "tests" / "filecheck" / "passes" / "fuse-pad").glob("*.mlir"))
OPTION_SETS = ["fuse-pad", "fuse-pad{fill=border}", "fuse-pad{allow-recompute=true}"]

pytestmark = pytest.mark.skipif(
    shutil.which("mlir-opt-22") is None, reason="mlir-opt-22 is not installed"
)


def upstream_pad_fusion(text: str) -> str:
    return subprocess.run(
        [
            "mlir-opt-22",
            "--allow-unregistered-dialect",
            "--test-linalg-pad-fusion",
            "--mlir-print-op-generic",
        ],
        input=print_for_mlir_opt(parse_module(text)),
        capture_output=True,
        text=True,
        check=True,
    ).stdout


def ours(text: str, pipeline: str):
    module = parse_module(text)
    from linalg_ext.context import make_context

    parse_pipeline(pipeline).apply(make_context(), module)
    module.verify()
    return module


def agree(reference, candidate, name: str) -> str | None:
    return meaning_difference(reference, candidate, name, trials=2, seed=3)


def function_names(module) -> list[str]:
    from xdsl.dialects import func

    return [op.sym_name.data for op in module.walk() if isinstance(op, func.FuncOp)]


@pytest.mark.parametrize("path", INPUTS, ids=lambda p: p.stem)
def test_ours_and_upstreams_compute_the_original_values(path):
    text = path.read_text()
    original = parse_module(text)
    theirs = parse_module(upstream_pad_fusion(text))
    for name in function_names(original):
        difference = agree(original, theirs, name)
        if name == "body_reads_init":
            assert difference is not None, "upstream was expected to change this one"
        else:
            assert difference is None, f"upstream @{name}: {difference}"
        for pipeline in OPTION_SETS:
            difference = agree(original, ours(text, pipeline), name)
            assert difference is None, f"{pipeline} @{name}: {difference}"


@pytest.mark.parametrize("path", INPUTS, ids=lambda p: p.stem)
def test_upstream_accepts_our_output(path):
    for pipeline in OPTION_SETS:
        printed = print_for_mlir_opt(ours(path.read_text(), pipeline))
        result = subprocess.run(
            ["mlir-opt-22", "--allow-unregistered-dialect"],
            input=printed,
            capture_output=True,
            text=True,
        )
        assert result.returncode == 0, result.stderr
