"""Our interpreter agrees with upstream MLIR 22's compiled code.

Each function of tests/oracle/*.mlir runs twice on the same random inputs:
on our interpreter (`linalg_ext.running`) and compiled by mlir-opt-22 +
mlir-translate-22 and JIT-run with llvmlite (`linalg_ext.upstream`). Results
must agree by `linalg_ext.comparison`'s rule. Skipped without the tools.
"""

from __future__ import annotations

import re

import numpy as np
import pytest

from helpers import REPO, parse_module
from linalg_ext.comparison import compare_values
from linalg_ext.running import find_function, random_inputs, run_function
from linalg_ext.upstream import run_upstream, upstream_available

ORACLE_DIR = REPO / "tests" / "oracle"

pytestmark = pytest.mark.skipif(
    not upstream_available(), reason="mlir-opt-22 / mlir-translate-22 not installed"
)


def oracle_functions() -> list:
    cases = []
    for path in sorted(ORACLE_DIR.glob("*.mlir")):
        for name in re.findall(r"^func\.func @(\w+)", path.read_text(), re.M):
            cases.append(pytest.param(path, name, id=f"{path.stem}-{name}"))
    return cases


@pytest.mark.parametrize(("path", "name"), oracle_functions())
def test_interpreter_agrees_with_upstream(path, name):
    source = path.read_text()
    module = parse_module(source)
    function = find_function(module, name)
    rng = np.random.default_rng(11)
    for _ in range(2):
        inputs = random_inputs(function, rng)
        ours = run_function(module, name, inputs)
        theirs = run_upstream(source, module, name, inputs)
        difference = compare_values(theirs.results, ours.results, "result")
        assert difference is None, f"upstream vs ours: {difference}"
        difference = compare_values(theirs.arguments, ours.arguments, "argument")
        assert difference is None, f"upstream vs ours: {difference}"
