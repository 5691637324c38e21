"""`canonicalize-ext` drops a generic's unused result whose init only its
own yield's computation reads (the argmax torch-mlir computes beside a
max), which upstream's `--canonicalize` keeps.

Execution check: on the lit inputs of `dead_slice_results.mlir`, our output
computes what the input computes (our interpreter, random inputs) and, with
`mlir-opt-22`, what upstream's output computes, with fewer ops where a
result was dropped.
"""

from __future__ import annotations

import pytest
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp

from helpers import (
    MLIR_OPT,
    REPO,
    after_mlir_opt,
    after_pass,
    function_names,
    meaning_difference,
    parse_module,
    print_module,
)
from linalg_ext.passes.canonicalize_ext import CanonicalizeExtPass

TEXT = (
    REPO
    / "tests"
    / "filecheck"
    / "passes"
    / "canonicalize-ext"
    / "dead_slice_results.mlir"
).read_text()

DROPPING = {"unused_argmax", "crossed_slices", "input_of_dead_slice"}
"""The functions whose generic loses an output (upstream keeps them all)."""


def _function(module: ModuleOp, name: str) -> func.FuncOp:
    for op in module.walk():
        if isinstance(op, func.FuncOp) and op.sym_name.data == name:
            return op
    raise AssertionError(f"no function @{name}")


def _outputs(module: ModuleOp, name: str) -> int:
    """How many outputs the generic of function @name has."""
    generics = [
        op for op in _function(module, name).walk() if op.name == "linalg.generic"
    ]
    assert len(generics) == 1, print_module(module)
    return len(generics[0].results)


@pytest.mark.parametrize("name", function_names(parse_module(TEXT)))
def test_same_values_as_the_input(name: str):
    before = parse_module(TEXT)
    mine = after_pass(CanonicalizeExtPass(), TEXT)
    assert meaning_difference(before, mine, name) is None
    expected = _outputs(before, name) - (1 if name != "crossed_slices" else 2)
    if name in DROPPING:
        assert _outputs(mine, name) == expected
    else:
        assert _outputs(mine, name) == _outputs(before, name)


@pytest.mark.skipif(MLIR_OPT is None, reason="mlir-opt-22 is not installed")
@pytest.mark.parametrize("name", sorted(DROPPING))
def test_goes_beyond_upstream(name: str):
    """Upstream keeps every output whose init the body reads: same values,
    more outputs than ours."""
    theirs = after_mlir_opt(TEXT, "--canonicalize")
    mine = after_pass(CanonicalizeExtPass(), TEXT)
    assert meaning_difference(theirs, mine, name) is None
    assert _outputs(theirs, name) > _outputs(mine, name)
