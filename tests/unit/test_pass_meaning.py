"""Every FileCheck input of every pass keeps its meaning under that pass.

For each tests/filecheck/passes/<pass>/*.mlir, the pipelines of its RUN lines
(and for fuse-pad, each of its option sets) are applied and every function
is run before and after on random inputs (`linalg_ext.tools.check`): FileCheck
pins the structure, this proves the meaning. RUN lines that expect a
diagnostic (`--verify-diagnostics`) are not pipelines to check. A pipeline
that bufferizes without `buffer-deallocation-pipeline` leaks by design (as
upstream's one-shot-bufferize does); every other pipeline must not leak.

The LLVM lowering passes leave a program half in the `llvm` dialect, which
only machine code can run: every input of their directories is instead
compiled whole (`linalg_ext.jit`, `lower-to-llvm`) and compared with the
interpreter on the input. The inputs of the to-loops passes are also
compiled that way, so every op we lower is executed natively.
"""

from __future__ import annotations

import re

import pytest

from helpers import REPO, parse_module
from linalg_ext.tools.check import check_module

PASS_TESTS = REPO / "tests" / "filecheck" / "passes"

EXTRA_PIPELINES = {
    "fuse-pad": ["fuse-pad", "fuse-pad{fill=border}", "fuse-pad{allow-recompute=true}"],
    "linalg-fuse-elementwise-ext": [
        "linalg-fuse-elementwise-ext",
        "linalg-fuse-elementwise-ext{shared-input=true}",
        "linalg-fuse-elementwise-ext{diff-shapes=true}",
    ],
    "one-shot-bufferize": [
        "one-shot-bufferize{bufferize-function-boundaries=true},"
        "buffer-deallocation-pipeline",
        "one-shot-bufferize{bufferize-function-boundaries=true "
        "copy-before-write=true},buffer-deallocation-pipeline",
        "one-shot-bufferize{bufferize-function-boundaries=true "
        "function-boundary-type-conversion=identity-layout-map},"
        "buffer-deallocation-pipeline",
    ],
}
"""Option sets every input of a pass's directory is also checked with."""

JIT_ONLY = {
    "convert-arith-to-llvm",
    "convert-cf-to-llvm",
    "convert-func-to-llvm",
    "convert-index-to-llvm",
    "convert-math-to-llvm",
    "convert-vector-to-llvm-ext",
    "finalize-memref-to-llvm",
    "lower-to-llvm",
    # Its output calls the JIT's thread runtime, which only the JIT defines.
    "outline-parallel-loops-ext",
}
"""Directories whose inputs are checked compiled natively only."""

ALSO_JIT = {
    "convert-linalg-ext-to-loops",
    "convert-linalg-to-loops-ext",
    "convert-scf-to-cf-ext",
    "insert-runtime-checks",
    "lower-affine-ext",
}
"""Directories whose inputs are also checked compiled natively."""

OUTPUT_JIT = {
    "linalg-tile-and-fuse",
    "test-linalg-greedy-fusion",
    "transform-interpreter-tiling",
    "linalg-ext-tiling-cleanup",
    "linalg-op-tile",
    "linalg-fuse-ext",
    "transform-dialect-interpreter",
    "linalg-contraction-microkernel",
    "linalg-generalization-ext",
    "linalg-ext-to-linalg",
    "linalg-collapse-loops",
    "linalg-fold-unit-extent-dims",
    "linalg-fold-constants-ext",
    "linalg-data-place",
    "linalg-prefetch",
    "canonicalize-ext",
    "convert-ccl-to-single-device",
}
"""Directories whose pipelines' outputs are also compiled natively and
compared with the interpreter on the input (`linalg-ext-check --backend
jit` with the pipeline): tiled loop nests run compiled."""

JIT = "jit"
"""The parameter that stands for "compiled natively, no pipeline before"."""

RETURN_ALLOCS = "allow-return-allocs-from-loops=true"
RUN_LINE = re.compile(r"^// RUN:(.*)$", re.M)
PIPELINE = re.compile(r"-p\s+(\"[^\"]+\"|'[^']+'|\S+)")


def cases() -> list:
    params = []
    for path in sorted(PASS_TESTS.glob("*/*.mlir")):
        text = path.read_text()
        pipelines = [
            found.group(1).strip("\"'")
            for line in RUN_LINE.findall(text)
            if "--verify-diagnostics" not in line
            and (found := PIPELINE.search(line)) is not None
        ]
        if pipelines:
            extras = EXTRA_PIPELINES.get(path.parent.name, [])
            if RETURN_ALLOCS in text:
                # Inputs whose loops yield new buffers need the option on
                # every bufferization of them.
                extras = [
                    p.replace("bufferize{", "bufferize{" + RETURN_ALLOCS + " ")
                    for p in extras
                ]
            pipelines += extras
        directory = path.parent.name
        if directory in JIT_ONLY and pipelines:
            pipelines = [JIT]
        elif directory in ALSO_JIT and pipelines:
            pipelines.append(JIT)
        for pipeline in dict.fromkeys(pipelines):
            params.append(
                pytest.param(
                    path,
                    pipeline,
                    "interpreter",
                    id=f"{path.parent.name}/{path.stem}:{pipeline}",
                )
            )
            if directory in OUTPUT_JIT and pipeline != JIT:
                params.append(
                    pytest.param(
                        path,
                        pipeline,
                        JIT,
                        id=f"{path.parent.name}/{path.stem}:{pipeline}:jit",
                    )
                )
    return params


@pytest.mark.parametrize(("path", "pipeline", "backend"), cases())
def test_pass_keeps_meaning(path, pipeline, backend):
    # Bufferization without deallocation leaves every buffer it allocates;
    # with buffer-deallocation-pipeline (run-time ownership flags included)
    # nothing may leak.
    leaks_expected = (
        "bufferize" in pipeline and "buffer-deallocation-pipeline" not in pipeline
    )
    report = check_module(
        parse_module(path.read_text()),
        [] if pipeline == JIT else pipeline,
        trials=3,
        seed=5,
        allow_leaks=leaks_expected,
        backend="jit" if pipeline == JIT else backend,
    )
    assert report.ok, "\n".join(v.line() for v in report.verdicts)
