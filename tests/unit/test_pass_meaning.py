"""Every FileCheck input of every pass keeps its meaning under that pass.

For each tests/filecheck/passes/<pass>/*.mlir, the pipelines of its RUN lines
(and for fuse-pad, each of its option sets) are applied and every function
is run before and after on random inputs (`linalg_ext.tools.check`): FileCheck
pins the structure, this proves the meaning.
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
}
"""Option sets every input of a pass's directory is also checked with."""

RUN_PIPELINE = re.compile(r"^// RUN:.*?-p\s+(\"[^\"]+\"|'[^']+'|\S+)", re.M)


def cases() -> list:
    params = []
    for path in sorted(PASS_TESTS.glob("*/*.mlir")):
        text = path.read_text()
        pipelines = [p.strip("\"'") for p in RUN_PIPELINE.findall(text)]
        pipelines += EXTRA_PIPELINES.get(path.parent.name, [])
        for pipeline in dict.fromkeys(pipelines):
            params.append(
                pytest.param(
                    path, pipeline, id=f"{path.parent.name}/{path.stem}:{pipeline}"
                )
            )
    return params


@pytest.mark.parametrize(("path", "pipeline"), cases())
def test_pass_keeps_meaning(path, pipeline):
    report = check_module(parse_module(path.read_text()), pipeline, trials=3, seed=5)
    assert report.ok, "\n".join(v.line() for v in report.verdicts)
