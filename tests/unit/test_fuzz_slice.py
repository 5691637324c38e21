"""A fixed-seed slice of the differential fuzzer (tests/fuzz/), run by
`make test`; `make fuzz N=...` runs many more programs."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "fuzz"))

import fuzz  # noqa: E402
from generator import generate  # noqa: E402

from linalg_ext.context import make_context  # noqa: E402

SLICE = range(5000, 5024)


@pytest.mark.parametrize("seed", SLICE[::4])
def test_programs_are_valid_and_deterministic(seed: int):
    from xdsl.parser import Parser

    text = generate(seed).text()
    assert text == generate(seed).text()
    Parser(make_context(), text).parse_module().verify()


@pytest.mark.parametrize("first", SLICE[::6])
def test_fixed_seed_slice_finds_no_bug(first: int):
    bugs = []
    for seed in range(first, first + 6):
        outcomes = fuzz.run_program(generate(seed), list(fuzz.PIPELINES), seed % 3 == 0)
        bugs += [o for o in outcomes if o.kind in fuzz.BUGS]
    assert not bugs, "\n".join(f"{o.seed} {o.pipeline}: {o.detail}" for o in bugs)


def test_a_wrong_pass_is_caught_and_shrunk(monkeypatch: pytest.MonkeyPatch):
    # test-perturb-constants changes every float constant: the oracle must
    # call it a miscompile, and shrinking must keep the failure.
    monkeypatch.setitem(fuzz.PIPELINES, "perturb", "test-perturb-constants")
    for seed in range(100):
        program = generate(seed)
        if any(
            "arith.constant" in line and "f32" in line
            for s in program.steps
            for line in s.lines
        ):
            break
    [outcome] = fuzz.run_program(program, ["perturb"], False)
    assert outcome.kind == "miscompile", outcome
    smaller = fuzz.shrink(program, "perturb", "miscompile")
    assert len(smaller.steps) <= len(program.steps)
    assert fuzz.run_program(smaller, ["perturb"], False)[0].kind == "miscompile"
