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


def test_each_argument_keeps_its_own_buffer_during_the_call():
    # Arguments of one size once shared freed memory in the harness, so the
    # compiled code read the wrong argument.
    source = """
    func.func @f(%x: tensor<4x5xf32>, %y: tensor<5xf32>, %o: tensor<5x4xf32>) -> tensor<5x4xf32> {
      %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (j, i)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>],
                           iterator_types = ["parallel", "parallel"]}
          ins(%x, %y : tensor<4x5xf32>, tensor<5xf32>) outs(%o : tensor<5x4xf32>) {
      ^bb0(%a: f32, %b: f32, %c: f32):
        linalg.yield %a : f32
      } -> tensor<5x4xf32>
      return %r : tensor<5x4xf32>
    }
    """
    x = np.arange(20, dtype=np.float32).reshape(4, 5)
    inputs = [x, np.zeros(5, np.float32), np.ones((5, 4), np.float32)]
    (result,) = run_upstream(source, parse_module(source), "f", inputs).results
    np.testing.assert_array_equal(result, x.T)
