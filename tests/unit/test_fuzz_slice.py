"""A fixed-seed slice of the differential fuzzer (tests/fuzz/), run by
`make test`; `make fuzz N=...` runs many more programs. The tiling passes'
part (the `tiling` program family, per-seed tile sizes) is at the end."""

from __future__ import annotations

import hashlib
import importlib
import sys
from collections import Counter
from pathlib import Path

import pytest

from linalg_ext.context import make_context

# tests/fuzz/ is a directory of scripts, not a package: its modules are
# imported by name once it is on the path (pyright cannot follow that).
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "fuzz"))
fuzz = importlib.import_module("fuzz")
generate = importlib.import_module("generator").generate

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


def _program_with_a_float_constant():
    for seed in range(100):
        program = generate(seed)
        if any(
            "arith.constant" in line and "f32" in line
            for s in program.steps
            for line in s.lines
        ):
            return program
    raise AssertionError("no program with a float constant")


def test_shrinking_keeps_a_per_program_pipeline(monkeypatch: pytest.MonkeyPatch):
    # A pipeline that is a function of the program (as the tile sizes are):
    # the shrinker must keep the text the original program had, here the
    # only one that perturbs.
    program = _program_with_a_float_constant()
    steps = len(program.steps)
    monkeypatch.setitem(
        fuzz.PIPELINES,
        "perturb-once",
        lambda p: "test-perturb-constants" if len(p.steps) == steps else "cse",
    )
    [outcome] = fuzz.run_program(program, ["perturb-once"], False)
    assert outcome.kind == "miscompile", outcome
    smaller = fuzz.shrink(program, "perturb-once", "miscompile")
    assert len(smaller.steps) < steps


def test_a_wrong_pass_is_caught_and_shrunk(monkeypatch: pytest.MonkeyPatch):
    # test-perturb-constants changes every float constant: the oracle must
    # call it a miscompile, and shrinking must keep the failure.
    monkeypatch.setitem(fuzz.PIPELINES, "perturb", "test-perturb-constants")
    program = _program_with_a_float_constant()
    [outcome] = fuzz.run_program(program, ["perturb"], False)
    assert outcome.kind == "miscompile", outcome
    smaller = fuzz.shrink(program, "perturb", "miscompile")
    assert len(smaller.steps) <= len(program.steps)
    assert fuzz.run_program(smaller, ["perturb"], False)[0].kind == "miscompile"


# -- the tiling passes in the fuzzer ------------------------------------------

TILING_PIPELINES = ["tile-and-fuse", "fuse-ext", "greedy-fusion", "tiling-cleanup"]

MIXED_DIGEST = "111f987c"
"""The first characters of the sha256 of the `mixed` programs of seeds 0 to
199: adding a family or step kinds elsewhere must not change the programs a
seed already gave (seeds in bug reports and fuzz logs must reproduce). A
deliberate change of the mixed family updates it, and says so."""


def test_mixed_programs_of_old_seeds_do_not_change():
    digest = hashlib.sha256()
    for seed in range(200):
        digest.update(generate(seed).text().encode())
    assert digest.hexdigest().startswith(MIXED_DIGEST), digest.hexdigest()[:8]


@pytest.mark.parametrize("seed", [3, 11, 29])
def test_tiling_programs_are_valid_and_deterministic(seed: int):
    from xdsl.parser import Parser

    program = generate(seed, family="tiling")
    assert program.text() == generate(seed, family="tiling").text()
    assert program.text() != generate(seed).text()
    Parser(make_context(), program.text()).parse_module().verify()
    smaller = program.without(len(program.steps) - 1)
    assert smaller.family == "tiling"
    Parser(make_context(), smaller.text()).parse_module().verify()


def test_tile_options_cover_the_cases():
    # Over a few seeds: untiled loops (0), sizes that divide extents and
    # sizes that do not, sizes larger than every extent, interchanges that
    # are permutations (not only the identity), and no option set without a
    # tiled loop.
    seen: set[str] = set()
    for seed in range(100):
        loop_counts = [seed % 4 + 1, 3]
        sizes, interchange = fuzz.tile_options(seed, loop_counts)
        assert 1 <= len(sizes) <= 4 and any(sizes)
        assert len(sizes) in loop_counts or len(sizes) + 1 in loop_counts
        assert interchange == [] or sorted(interchange) == list(range(len(sizes)))
        seen |= {"zero"} if 0 in sizes else set()
        seen |= {"larger"} if any(s > 9 for s in sizes) else set()
        seen |= {"not dividing"} if any(s in (5, 7) for s in sizes) else set()
        seen |= {"permuted"} if interchange != sorted(interchange) else set()
        assert (sizes, interchange) == fuzz.tile_options(seed, loop_counts)
    assert seen == {"zero", "larger", "not dividing", "permuted"}


def _inside_loops(module) -> Counter[str]:
    """How many ops of each name are nested in an `scf.for`."""
    from xdsl.dialects import scf

    counts: Counter[str] = Counter()
    for op in module.walk():
        parent = op.parent_op()
        while parent is not None and not isinstance(parent, scf.ForOp):
            parent = parent.parent_op()
        if parent is not None:
            counts[op.name] += 1
    return counts


@pytest.mark.parametrize("seed", [9, 11, 25, 30, 40])
def test_tiling_pipelines_on_fixed_seeds_find_no_bug(seed: int):
    program = generate(seed, family="tiling")
    outcomes = fuzz.run_program(program, TILING_PIPELINES, seed == 11)
    bugs = [o for o in outcomes if o.kind in fuzz.BUGS]
    assert not bugs, "\n".join(f"{o.seed} {o.pipeline}: {o.detail}" for o in bugs)
    ran = {o.pipeline for o in outcomes}
    assert ran >= set(TILING_PIPELINES)
    if seed == 11:
        assert ran >= {"tile-and-fuse-jit", "greedy-fusion-jit", fuzz.JIT}


def test_tiling_pipelines_on_a_mixed_slice_find_no_bug():
    bugs = []
    for seed in range(5000, 5004):
        outcomes = fuzz.run_program(generate(seed), TILING_PIPELINES, False)
        bugs += [o for o in outcomes if o.kind in fuzz.BUGS]
    assert not bugs, "\n".join(f"{o.seed} {o.pipeline}: {o.detail}" for o in bugs)


# What each fixed tiling seed exercises (so that the slice cannot pass by
# nothing happening): ops the pipeline moves into loops, ops it must leave
# outside. Greedy fusion is checked by doing more than its clean-up alone (a
# fused producer may be hoisted out of loops it does not depend on).
EXERCISED = {
    # matmul tiled along k (tile sizes 0,3,5): its fill init stays outside.
    (9, "tile-and-fuse"): ({"linalg.matmul"}, {"linalg.fill"}),
    # scan tiled along its dimension: the accumulator carried tile to tile.
    (25, "tile-and-fuse"): ({"linalg_ext.scan"}, set()),
    (40, "tile-and-fuse"): ({"linalg_ext.batch_matmul"}, set()),
    # ByteIR's fuse_ext on the same programs and options.
    (9, "fuse-ext"): ({"linalg.matmul"}, {"linalg.fill"}),
    (25, "fuse-ext"): ({"linalg_ext.scan"}, set()),
    (40, "fuse-ext"): ({"linalg_ext.batch_matmul"}, set()),
    # producers fused into consumers tiled by hand.
    (11, "greedy-fusion"): (set(), set()),
    (30, "greedy-fusion"): (set(), set()),
}


@pytest.mark.parametrize(("seed", "pipeline"), sorted(EXERCISED))
def test_fixed_tiling_seeds_are_really_tiled(seed: int, pipeline: str):
    from linalg_ext.pipelines import apply_pipeline

    program = generate(seed, family="tiling")
    module = fuzz._parse(program.text())
    before = _inside_loops(module)
    apply_pipeline(fuzz.pipeline_text(pipeline, program), module)
    after = _inside_loops(module)
    moved_in, kept_out = EXERCISED[seed, pipeline]
    for name in moved_in:
        assert after[name] > before[name], (name, after)
    for name in kept_out:
        assert after[name] == 0, (name, after)
    if pipeline == "greedy-fusion":
        cleaned = fuzz._parse(program.text())
        apply_pipeline("linalg-ext-tiling-cleanup", cleaned)
        assert _print(module) != _print(cleaned)


def _print(module) -> str:
    from io import StringIO

    from xdsl.printer import Printer

    stream = StringIO()
    Printer(stream).print_op(module)
    return stream.getvalue()


def test_a_failure_reproducer_names_the_programs_pipeline(tmp_path: Path):
    program = generate(7, family="tiling")
    path = tmp_path / "7-tiling-tile-and-fuse.mlir"
    command = fuzz.reproduce_command(path, "tile-and-fuse", program)
    assert fuzz.tile_and_fuse_pipeline(program) in command
    assert "tile-sizes=" in command
    jit = fuzz.reproduce_command(path, "tile-and-fuse-jit", program)
    assert "--backend jit" in jit and "tile-sizes=" in jit


@pytest.mark.parametrize("seed", [9, 40])
def test_microkernel_pipeline_on_fixed_seeds_finds_no_bug(seed: int):
    # Seed 9 has a matmul, seed 40 a linalg_ext.batch_matmul: both become
    # micro-kernels (no contraction left, vector loads in its place), checked
    # on the interpreter and compiled.
    from linalg_ext.pipelines import apply_pipeline

    program = generate(seed, family="tiling")
    module = fuzz._parse(program.text())
    apply_pipeline(fuzz.pipeline_text("microkernel", program), module)
    names = {op.name for op in module.walk()}
    assert "vector.load" in names
    assert not names & {"linalg.matmul", "linalg_ext.batch_matmul"}
    outcomes = fuzz.run_program(program, ["microkernel", "microkernel-jit"], True)
    bugs = [o for o in outcomes if o.kind in fuzz.BUGS]
    assert not bugs, "\n".join(f"{o.seed} {o.pipeline}: {o.detail}" for o in bugs)
    assert {o.pipeline for o in outcomes} >= {"microkernel", "microkernel-jit"}


def test_issue_20_passes_on_a_mixed_slice_find_no_bug():
    # linalg-ext-to-linalg, linalg-generalization-ext and linalg-collapse-loops
    # on mixed programs (softmax, layer_norm, named ops, generics).
    pipelines = ["ext-to-linalg", "generalization", "collapse-loops"]
    bugs = []
    for seed in range(8000, 8003):
        outcomes = fuzz.run_program(generate(seed), pipelines, False)
        bugs += [o for o in outcomes if o.kind in fuzz.BUGS]
        assert {o.pipeline for o in outcomes} >= set(pipelines)
    assert not bugs, "\n".join(f"{o.seed} {o.pipeline}: {o.detail}" for o in bugs)


# -- transposes and broadcasts into contractions, the model pipeline ----------

CONTRACTION_PIPELINES = [
    "fuse-elementwise-perm",
    "model-pipeline",
    "model-pipeline-buffers",
]


def _movers(module) -> int:
    """How many ops only move elements (a transpose, a broadcast, a
    yield-only generic): those the option folds into contractions."""
    from linalg_ext.passes.fuse_elementwise_ext.contraction_operands import (
        source_map,
    )

    return sum(source_map(op) is not None for op in list(module.walk()))


@pytest.mark.parametrize("seed", [1, 13])
def test_contraction_programs_are_valid_and_deterministic(seed: int):
    from xdsl.parser import Parser

    program = generate(seed, family="contraction")
    assert program.text() == generate(seed, family="contraction").text()
    assert program.text() != generate(seed).text()
    Parser(make_context(), program.text()).parse_module().verify()
    smaller = program.without(0)
    assert smaller.family == "contraction"
    Parser(make_context(), smaller.text()).parse_module().verify()


# Seed 3: broadcast weights into linalg.batch_matmul and linalg.matmul; 5: a
# transposed constant into linalg.matmul, then a bias; 7: a transpose into a
# contraction generic; 10: a transpose and a broadcast into batch_matmul.
CONTRACTION_SEEDS = [3, 5, 7, 10]


@pytest.mark.parametrize("seed", CONTRACTION_SEEDS)
def test_contraction_pipelines_on_fixed_seeds_find_no_bug(seed: int):
    program = generate(seed, family="contraction")
    outcomes = fuzz.run_program(program, CONTRACTION_PIPELINES, seed == 5)
    bugs = [o for o in outcomes if o.kind in fuzz.BUGS]
    assert not bugs, "\n".join(f"{o.seed} {o.pipeline}: {o.detail}" for o in bugs)
    assert {o.kind for o in outcomes} == {"ok"}, outcomes
    ran = {o.pipeline for o in outcomes}
    assert ran >= set(CONTRACTION_PIPELINES)
    if seed == 5:
        assert ran >= {"model-pipeline-jit", fuzz.JIT}


@pytest.mark.parametrize("seed", CONTRACTION_SEEDS)
def test_fixed_contraction_seeds_exercise_the_passes(seed: int):
    # The option reads a transpose's or broadcast's source through the
    # contraction's map: fewer such ops than plain elementwise fusion leaves.
    # Seeds 3, 5 and 7 also transpose or broadcast constants, which
    # linalg-fold-constants-ext computes.
    from linalg_ext.pipelines import apply_pipeline

    program = generate(seed, family="contraction")
    original = fuzz._parse(program.text())
    after: dict[str, int] = {}
    for name in ("fuse-elementwise-perm", "fuse-elementwise", "fold-constants"):
        module = original.clone()
        apply_pipeline(fuzz.pipeline_text(name, program), module)
        after[name] = _movers(module)
    assert after["fuse-elementwise-perm"] < after["fuse-elementwise"], after
    if seed != 10:
        assert after["fold-constants"] < _movers(original), after
