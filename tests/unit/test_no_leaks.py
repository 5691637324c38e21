"""No leaks: every buffer freed exactly once on every path.

- Every FileCheck input the JIT executes (tests/unit/test_pass_meaning.py's
  JIT-checked inputs) compiled with memory tracking: nothing leaks.
- `buffer-deallocation-pipeline`'s inputs after the pass and the
  one-shot-bufferize inputs (bufferized and deallocated by `compile_module`),
  compiled and tracked: nothing leaks but what `report` names.
- Run-time ownership (tests/filecheck/passes/buffer-deallocation-pipeline/
  ownership.mlir: `scf.if` yielding a new buffer or an argument, selects,
  loops whose iter_arg is sometimes replaced, results returned or copied),
  on both directions of every branch and 0, 1 or 3 iterations: on the
  interpreter (which fails on a double free or a use after free) and
  compiled, against the program before the pass and, when mlir-opt-22 is
  installed, against upstream's `--buffer-deallocation-pipeline` output.
- Random programs of that kind (tests/unit/dealloc_programs.py): the same,
  none leaks (bench/dealloc_random_bench.py runs more of them).
- An op of unknown memory effects is refused, with a located message.
"""

from __future__ import annotations

import functools
import io
import shutil
import subprocess
from contextlib import redirect_stderr

import numpy as np
import pytest
from dealloc_programs import copied, inputs, ownership_program
from test_pass_meaning import JIT, PASS_TESTS, RETURN_ALLOCS, cases
from xdsl.dialects.builtin import ModuleOp

from helpers import REPO, parse_module, print_module
from linalg_ext.comparison import compare_values
from linalg_ext.context import make_context
from linalg_ext.jit import JitError, compile_module
from linalg_ext.jit.compiled import run_function as run_compiled
from linalg_ext.passes.buffer_deallocation import BufferDeallocationPass
from linalg_ext.running import find_function, random_inputs, run_function
from linalg_ext.tools import opt

DEALLOCATION = PASS_TESTS / "buffer-deallocation-pipeline"
OWNERSHIP = DEALLOCATION / "ownership.mlir"

JIT_INPUTS = sorted({c.values[0] for c in cases() if c.values[1] == JIT})
"""The inputs test_pass_meaning compiles with no pipeline before."""


def _public(module) -> list[str]:
    from xdsl.dialects import func
    from xdsl.dialects.builtin import StringAttr

    return [
        op.sym_name.data
        for op in module.ops
        if isinstance(op, func.FuncOp)
        and not op.is_declaration
        and op.sym_visibility != StringAttr("private")
    ]


def _compiled_leaks(module, names, trials: int = 1, seed: int = 3) -> list[str]:
    """Leaks of each function compiled with tracking, on random inputs (a
    call the compiled code refuses, a run-time check, is not counted)."""
    compiled = compile_module(module, track_memory=True)
    rng = np.random.default_rng(seed)
    leaks: list[str] = []
    for name in names:
        function = find_function(module, name)
        for _ in range(trials):
            try:
                run = run_compiled(compiled, name, random_inputs(function, rng))
            except JitError:
                continue
            leaks += [f"@{name}: {leak}" for leak in run.leaks]
    return leaks


@pytest.mark.parametrize("path", JIT_INPUTS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_compiled_filecheck_input_leaks_nothing(path):
    module = parse_module(path.read_text())
    assert _compiled_leaks(module, _public(module)) == []


def _deallocated(module: ModuleOp, report: bool = False) -> tuple[ModuleOp, str]:
    after = module.clone()
    err = io.StringIO()
    with redirect_stderr(err):
        BufferDeallocationPass(report=report).apply(make_context(), after)
    after.verify()
    return after, err.getvalue()


@pytest.mark.parametrize(
    "path",
    sorted(p for p in DEALLOCATION.glob("*.mlir") if p.stem != "errors"),
    ids=lambda p: p.stem,
)
def test_deallocated_input_compiled_leaks_nothing_unreported(path):
    module = parse_module(path.read_text())
    after, report = _deallocated(module, report=True)
    reported = {line.split(": ")[1].removeprefix("@") for line in report.splitlines()}
    names = [n for n in _public(after) if n not in reported]
    assert _compiled_leaks(after, names, trials=3) == []


BUFFERIZED = sorted(
    path
    for path in (PASS_TESTS / "one-shot-bufferize").glob("*.mlir")
    if "--verify-diagnostics" not in path.read_text()  # inputs it refuses
)


@pytest.mark.parametrize("path", BUFFERIZED, ids=lambda p: p.stem)
def test_bufferized_and_compiled_leaks_nothing(path):
    text = path.read_text()
    module = parse_module(text)
    try:
        leaks = _compiled_leaks(module, _public(module))
    except JitError as error:
        # Loops yielding new buffers need allow-return-allocs-from-loops,
        # which compile_module's bufferization does not pass.
        assert RETURN_ALLOCS in text, str(error)
        return
    assert leaks == []


@pytest.mark.parametrize(
    "path",
    sorted(
        p
        for p in (PASS_TESTS / "one-shot-bufferize").glob("*.mlir")
        if RETURN_ALLOCS in p.read_text()
    ),
    ids=lambda p: p.stem,
)
def test_loops_returning_new_buffers_leak_nothing(path):
    """Were allowed to leak before run-time ownership flags."""
    from linalg_ext.tools.check import check_module

    pipeline = (
        f"one-shot-bufferize{{{RETURN_ALLOCS} bufferize-function-boundaries=true}},"
        "buffer-deallocation-pipeline"
    )
    report = check_module(parse_module(path.read_text()), pipeline, trials=3, seed=5)
    assert report.ok, "\n".join(v.line() for v in report.verdicts)


# --------------------------------------------------------------------------
# Run-time ownership, both directions of every branch
# --------------------------------------------------------------------------


def _argument_sets(function) -> list[list]:
    """Every combination of the i1 arguments, 0, 1 and 3 for the index ones
    (iterations), random arrays."""
    from itertools import product

    from xdsl.dialects.builtin import IndexType, IntegerType

    types = function.function_type.inputs.data
    choices = []
    for type_ in types:
        if isinstance(type_, IntegerType) and type_.width.data == 1:
            choices.append([True, False])
        elif isinstance(type_, IndexType):
            choices.append([0, 1, 3])
        else:
            choices.append([None])
    rng = np.random.default_rng(7)
    sets = []
    for combination in product(*choices):
        arrays = random_inputs(function, rng)
        sets.append(
            [a if c is None else c for a, c in zip(arrays, combination, strict=True)]
        )
    return sets


def _agree(expected, actual, what: str) -> None:
    difference = compare_values(
        expected.results, actual.results, "result"
    ) or compare_values(expected.arguments, actual.arguments, "argument")
    assert difference is None, f"{what}: {difference}"


OWNERSHIP_MODULE = parse_module(OWNERSHIP.read_text())
OWNERSHIP_AFTER, OWNERSHIP_REPORT = _deallocated(OWNERSHIP_MODULE, report=True)


@functools.cache
def _ownership_compiled():
    return compile_module(OWNERSHIP_AFTER, track_memory=True)


def test_ownership_inputs_are_all_handled():
    assert OWNERSHIP_REPORT == ""
    flags = print_module(OWNERSHIP_AFTER).count("i1)")
    assert flags >= 8  # one i1 result (or iter_arg) per flagged merge


@pytest.mark.parametrize("name", _public(OWNERSHIP_MODULE))
def test_ownership_on_the_interpreter_and_compiled(name):
    function = find_function(OWNERSHIP_MODULE, name)
    compiled = _ownership_compiled()
    for arguments in _argument_sets(function):
        expected = run_function(OWNERSHIP_MODULE, name, copied(arguments))
        # The interpreter raises on a double free or a use after free.
        actual = run_function(OWNERSHIP_AFTER, name, copied(arguments))
        _agree(expected, actual, f"@{name}{arguments[1:]}")
        assert actual.leaks == [], (name, arguments)
        native = run_compiled(compiled, name, copied(arguments))
        _agree(expected, native, f"compiled @{name}")
        assert native.leaks == [], (name, arguments)


needs_mlir_opt = pytest.mark.skipif(
    shutil.which("mlir-opt-22") is None, reason="mlir-opt-22 is not installed"
)


@needs_mlir_opt
def test_ownership_agrees_with_upstream_deallocation():
    """Upstream's --buffer-deallocation-pipeline output, run on our
    interpreter (its bufferization.dealloc lowered to scf.ifs and a helper
    function), computes the same and leaks nothing either."""
    upstream = subprocess.run(
        ["mlir-opt-22", "--buffer-deallocation-pipeline"],
        input=OWNERSHIP.read_text(),
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    theirs = parse_module(upstream)
    for name in _public(OWNERSHIP_MODULE):
        for arguments in _argument_sets(find_function(OWNERSHIP_MODULE, name)):
            ours = run_function(OWNERSHIP_AFTER, name, copied(arguments))
            upstream_run = run_function(theirs, name, copied(arguments))
            _agree(ours, upstream_run, f"@{name} upstream")
            assert upstream_run.leaks == ours.leaks == []


# --------------------------------------------------------------------------
# Random programs
# --------------------------------------------------------------------------


@pytest.mark.parametrize("chunk", range(4))
def test_random_ownership_programs_leak_nothing(chunk):
    for seed in range(chunk * 12, chunk * 12 + 12):
        module = parse_module(ownership_program(seed))
        after, report = _deallocated(module, report=True)
        assert report == "", (seed, report)
        for arguments in inputs(seed):
            expected = run_function(module, "f", copied(arguments))
            actual = run_function(after, "f", copied(arguments))
            _agree(expected, actual, f"seed {seed}")
            assert actual.leaks == [], (seed, actual.leaks)
        if seed % 6 == 0:
            compiled = compile_module(after, track_memory=True)
            for arguments in inputs(seed):
                native = run_compiled(compiled, "f", copied(arguments))
                _agree(run_function(module, "f", copied(arguments)), native, "jit")
                assert native.leaks == [], (seed, native.leaks)


# --------------------------------------------------------------------------
# Ops of unknown memory effects
# --------------------------------------------------------------------------

UNKNOWN = """func.func @f(%x: memref<4xf32>) {
  %t = memref.alloc() : memref<4xf32>
  linalg.exp ins(%x : memref<4xf32>) outs(%t : memref<4xf32>)
  "my.keep"(%t) : (memref<4xf32>) -> ()
  return
}
"""


def test_an_op_of_unknown_effects_is_refused_located(tmp_path, capsys):
    path = tmp_path / "unknown.mlir"
    path.write_text(UNKNOWN)
    code = opt.main(
        [
            str(path),
            "-p",
            "buffer-deallocation-pipeline",
            "--allow-unregistered-dialect",
        ]
    )
    assert code == 1
    captured = capsys.readouterr()
    assert captured.err.strip() == (
        f"{path}:4:3: error: buffer-deallocation-pipeline: 'my.keep': ops with "
        "unknown memory side effects are not supported"
    )


@needs_mlir_opt
def test_upstream_refuses_the_same_op():
    run = subprocess.run(
        [
            "mlir-opt-22",
            "--allow-unregistered-dialect",
            "--buffer-deallocation-pipeline",
        ],
        input=UNKNOWN,
        capture_output=True,
        text=True,
    )
    assert run.returncode == 1
    assert "4:3: error: ops with unknown memory side effects are not supported" in (
        run.stderr
    )


def test_calls_and_known_ops_are_not_refused():
    source = REPO / "tests" / "filecheck" / "passes" / "buffer-deallocation-pipeline"
    module = parse_module((source / "calls.mlir").read_text())
    _deallocated(module)  # no OpPassFailed
