"""one-shot-bufferize refuses what it cannot do correctly, and copies where
a copy makes it correct (issue 16, Build item 6).

The inputs are the FileCheck files of tests/filecheck/passes/one-shot-
bufferize/: `conflict_refusals.mlir` (split at `// -----`) holds what is
refused, `conflicts.mlir` and `conflicts_linalg_ext.mlir` what is accepted
with copies. Each is tried without function-boundary bufferization (tensor
signatures, arguments read-only) and with it (arguments writable).

- A refusal is one line on stderr, exit code 1, naming the file, line and
  column of the op and upstream's reason; the module is left unchanged.
  Where mlir-opt-22 is installed, it refuses the same input at the same
  line and column with the same reason.
- An accepted function computes the same before (interpreter) and after
  the pass, interpreted and compiled (JIT); where mlir-opt-22 is
  installed, its bufferization with the same options, compiled, computes
  the same too.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest
from xdsl.dialects import func
from xdsl.dialects.builtin import MemRefType

from helpers import REPO, parse_module, print_module
from linalg_ext.checking import check_module
from linalg_ext.comparison import compare_values
from linalg_ext.context import make_context
from linalg_ext.diagnostics import OpPassFailed
from linalg_ext.passes.one_shot_bufferize import OneShotBufferizePass
from linalg_ext.running import find_function, random_inputs, run_function
from linalg_ext.tools.opt import main as opt_main

DIRECTORY = REPO / "tests" / "filecheck" / "passes" / "one-shot-bufferize"
REFUSALS = DIRECTORY / "conflict_refusals.mlir"
ACCEPTED = [DIRECTORY / "conflicts.mlir", DIRECTORY / "conflicts_linalg_ext.mlir"]
MLIR_OPT = shutil.which("mlir-opt-22")
needs_upstream = pytest.mark.skipif(
    MLIR_OPT is None, reason="mlir-opt-22 is not installed"
)

OPTIONS = {
    "tensors": "",
    "boundaries": "bufferize-function-boundaries=true",
}
"""Our option sets (name -> one-shot-bufferize options)."""

UPSTREAM_OPTIONS = {
    "tensors": "--one-shot-bufferize",
    "boundaries": "--one-shot-bufferize=bufferize-function-boundaries=1",
}

RAW = "not bufferizable under the given constraints: cannot avoid RaW conflict"
READ_ONLY = (
    "not bufferizable under the given constraints: would write to read-only buffer"
)
NO_RESTRICT = "to_tensor ops without `restrict` are not supported by One-Shot Analysis"


@dataclass(frozen=True)
class Refusal:
    op: str
    reason: str
    marker: str
    """Text of the line the op is on (its first occurrence locates it)."""


MATERIALIZE = "bufferization.materialize_in_destination %s in"
EXPECTED: dict[str, dict[str, Refusal | None]] = {
    "materialize_dest_read_after": {
        "tensors": Refusal(
            "bufferization.materialize_in_destination", RAW, MATERIALIZE
        ),
        "boundaries": Refusal(
            "bufferization.materialize_in_destination", RAW, MATERIALIZE
        ),
    },
    "materialize_into_argument": {
        "tensors": Refusal(
            "bufferization.materialize_in_destination", READ_ONLY, MATERIALIZE
        ),
        "boundaries": None,
    },
    "materialize_into_non_writable_argument": {
        "tensors": Refusal(
            "bufferization.materialize_in_destination", READ_ONLY, MATERIALIZE
        ),
        "boundaries": Refusal(
            "bufferization.materialize_in_destination", READ_ONLY, MATERIALIZE
        ),
    },
    "materialize_into_constant": {
        "tensors": Refusal(
            "bufferization.materialize_in_destination", READ_ONLY, MATERIALIZE
        ),
        "boundaries": Refusal(
            "bufferization.materialize_in_destination", READ_ONLY, MATERIALIZE
        ),
    },
    "materialize_into_to_tensor": {
        "tensors": Refusal(
            "bufferization.materialize_in_destination", READ_ONLY, MATERIALIZE
        ),
        "boundaries": Refusal(
            "bufferization.materialize_in_destination", READ_ONLY, MATERIALIZE
        ),
    },
    "to_tensor_without_restrict": {
        "tensors": Refusal("bufferization.to_tensor", NO_RESTRICT, "to_tensor %m :"),
        "boundaries": Refusal("bufferization.to_tensor", NO_RESTRICT, "to_tensor %m :"),
    },
    "materialize_dest_read_in_loop_before": {
        "tensors": Refusal(
            "bufferization.materialize_in_destination", READ_ONLY, MATERIALIZE
        ),
        "boundaries": None,
    },
    "materialize_dest_read_after_through_slice": {
        "tensors": Refusal("tensor.extract_slice", RAW, "extract_slice %d[0]"),
        "boundaries": Refusal("tensor.extract_slice", RAW, "extract_slice %d[0]"),
    },
    "for_body_reads_old_value": {
        # Ours names the loop; upstream the yield, in its own words.
        "tensors": Refusal(
            "scf.for", "yield operand #0 is not equivalent", "scf.for %i"
        ),
        "boundaries": Refusal(
            "scf.for", "yield operand #0 is not equivalent", "scf.for %i"
        ),
    },
}
"""Function of conflict_refusals.mlir -> option set -> what is refused
(None: accepted)."""


def refusal_chunks() -> dict[str, str]:
    chunks: dict[str, str] = {}
    for text in REFUSALS.read_text().split("// -----"):
        found = re.search(r"func\.func @(\w+)", text)
        assert found is not None
        # Without the RUN and CHECK comments: a program as a user writes it.
        program = "\n".join(
            line for line in text.splitlines() if not line.startswith("//")
        )
        chunks[found.group(1)] = program.strip() + "\n"
    return chunks


CHUNKS = refusal_chunks()


def location_of(text: str, refusal: Refusal) -> tuple[int, int]:
    for number, line in enumerate(text.splitlines(), start=1):
        if refusal.marker in line:
            return number, line.index(refusal.op) + 1
    raise AssertionError(f"no line holds {refusal.marker!r}")


def pipeline(options: str) -> str:
    return f"one-shot-bufferize{{{options}}}" if options else "one-shot-bufferize"


def test_every_refusal_input_has_expectations():
    assert set(CHUNKS) == set(EXPECTED)


REFUSAL_CASES = [
    pytest.param(name, option, id=f"{name}-{option}")
    for name, per_option in EXPECTED.items()
    for option, refusal in per_option.items()
    if refusal is not None
]


@pytest.mark.parametrize(("name", "option"), REFUSAL_CASES)
def test_refusal_is_one_located_line(name, option, tmp_path, capsys):
    refusal = EXPECTED[name][option]
    assert refusal is not None
    path = tmp_path / "input.mlir"
    path.write_text(CHUNKS[name])
    code = opt_main([str(path), "-p", pipeline(OPTIONS[option])])
    captured = capsys.readouterr()
    assert code == 1
    assert captured.out == ""
    line, column = location_of(CHUNKS[name], refusal)
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1, captured.err
    assert lines[0].startswith(
        f"{path}:{line}:{column}: error: one-shot-bufferize: '{refusal.op}': "
        f"{refusal.reason}"
    ), lines[0]


@pytest.mark.parametrize(("name", "option"), REFUSAL_CASES)
def test_refusal_leaves_the_module_unchanged(name, option):
    module = parse_module(CHUNKS[name])
    before = print_module(module)
    options = dict(
        [("bufferize_function_boundaries", True)] if option == "boundaries" else []
    )
    with pytest.raises(OpPassFailed):
        OneShotBufferizePass(**options).apply(make_context(), module)
    assert print_module(module) == before


@needs_upstream
@pytest.mark.parametrize(
    ("name", "option"),
    [
        pytest.param(name, option, id=f"{name}-{option}")
        for name, per_option in EXPECTED.items()
        for option in per_option
    ],
)
def test_upstream_refuses_the_same(name, option, tmp_path):
    """mlir-opt-22 refuses where we do, at the same place, in the same words
    (but for the loop, which it reports at the yield), and accepts where we
    accept."""
    refusal = EXPECTED[name][option]
    path = tmp_path / "input.mlir"
    path.write_text(CHUNKS[name])
    assert MLIR_OPT is not None
    run = subprocess.run(
        [MLIR_OPT, UPSTREAM_OPTIONS[option], str(path)],
        capture_output=True,
        text=True,
    )
    if refusal is None:
        assert run.returncode == 0, run.stderr
        return
    assert run.returncode != 0
    first = run.stderr.splitlines()[0]
    if refusal.op == "scf.for":
        assert "Yield operand #0 is not equivalent" in first
        return
    line, column = location_of(CHUNKS[name], refusal)
    assert first == (
        f"{path}:{line}:{column}: error: '{refusal.op}' op {refusal.reason}"
    )


# ------------------------------------------------------------ accepted inputs


def accepted_functions() -> list[tuple[Path, str]]:
    found: list[tuple[Path, str]] = []
    for path in ACCEPTED:
        for name in re.findall(r"^func\.func @(\w+)", path.read_text(), re.M):
            found.append((path, name))
    return found


@pytest.mark.parametrize("option", list(OPTIONS))
@pytest.mark.parametrize("backend", ["interpreter", "jit"])
@pytest.mark.parametrize("path", ACCEPTED, ids=lambda p: p.stem)
def test_accepted_inputs_keep_their_meaning(path, backend, option):
    report = check_module(
        parse_module(path.read_text()),
        pipeline(OPTIONS[option]),
        trials=3,
        seed=16,
        allow_leaks=True,
        backend=backend,
    )
    assert report.ok, "\n".join(v.line() for v in report.verdicts)
    assert len(report.verdicts) == len(
        re.findall(r"^func\.func @", path.read_text(), re.M)
    )


@pytest.mark.parametrize(
    "source",
    [
        pytest.param(CHUNKS["materialize_into_argument"], id="into_argument"),
        pytest.param(
            CHUNKS["materialize_dest_read_in_loop_before"], id="read_in_loop_before"
        ),
    ],
)
def test_materialize_accepted_at_boundaries_keeps_its_meaning(source):
    """Accepted where the argument is writable: the destination argument is
    the result's buffer, written in place (compiled, the caller's array is
    not changed: the JIT passes tensor arguments by copy)."""
    for backend in ("interpreter", "jit"):
        report = check_module(
            parse_module(source),
            pipeline(OPTIONS["boundaries"]),
            allow_leaks=True,
            backend=backend,
        )
        assert report.ok, "\n".join(v.line() for v in report.verdicts)


def test_loop_refusal_is_lifted_by_returning_allocations():
    """The loop whose body needs the old iter_arg is accepted with
    allow-return-allocs-from-loops (each iteration writes a new buffer)."""
    report = check_module(
        parse_module(CHUNKS["for_body_reads_old_value"]),
        "one-shot-bufferize{bufferize-function-boundaries=true "
        "allow-return-allocs-from-loops=true}",
        allow_leaks=True,
        backend="jit",
    )
    assert report.ok, "\n".join(v.line() for v in report.verdicts)


def _upstream_source(text: str, option: str) -> str:
    """The input bufferized by mlir-opt-22 with `option`'s options, ready for
    the oracle's lowering (which bufferizes function boundaries): without
    function boundaries, the `to_tensor` ops it leaves at the returns are
    marked `restrict` (as ours are), so that a second bufferization takes
    them."""
    if option == "boundaries":
        return text
    assert MLIR_OPT is not None
    run = subprocess.run(
        [MLIR_OPT, UPSTREAM_OPTIONS[option]], input=text, capture_output=True, text=True
    )
    assert run.returncode == 0, run.stderr
    return re.sub(
        r"(bufferization\.to_tensor %[\w$.-]+) :", r"\1 restrict :", run.stdout
    )


@needs_upstream
@pytest.mark.parametrize("option", list(OPTIONS))
def test_upstream_computes_the_same(option):
    """mlir-opt-22 accepts every accepted input of conflicts.mlir with the
    same options, and its code computes what the input means (upstream does
    not know linalg_ext: conflicts_linalg_ext.mlir is ours alone)."""
    from linalg_ext.upstream import compile_upstream

    text = ACCEPTED[0].read_text()
    module = parse_module(text)
    source = _upstream_source(text, option)
    rng = np.random.default_rng(16)
    for op in module.body.block.ops:
        if not isinstance(op, func.FuncOp):
            continue
        name = op.sym_name.data
        compiled = compile_upstream(source, module, name)
        for _ in range(2):
            inputs = random_inputs(find_function(module, name), rng)
            expected = run_function(module, name, [_copy(v) for v in inputs])
            actual = compiled([_copy(v) for v in inputs])
            difference = compare_values(expected.results, actual.results, "result")
            memref_args = [
                i
                for i, t in enumerate(op.function_type.inputs.data)
                if isinstance(t, MemRefType)
            ]
            difference = difference or compare_values(
                [expected.arguments[i] for i in memref_args],
                [actual.arguments[i] for i in memref_args],
                "memref argument",
            )
            assert difference is None, f"@{name}: {difference}"


def _copy(value: object) -> object:
    return value.copy() if isinstance(value, np.ndarray) else value


COPY_BEFORE_WRITE = (
    "one-shot-bufferize{bufferize-function-boundaries=true copy-before-write=true}"
)


@pytest.mark.parametrize("name", list(EXPECTED))
def test_copy_before_write_accepts_and_keeps_the_meaning(name):
    """With copy-before-write there is no analysis to refuse: every write,
    materialize_in_destination's too, goes to a new buffer (as upstream
    has it), so nothing read later is clobbered."""
    for backend in ("interpreter", "jit"):
        report = check_module(
            parse_module(CHUNKS[name]),
            COPY_BEFORE_WRITE,
            allow_leaks=True,
            backend=backend,
        )
        assert report.ok, "\n".join(v.line() for v in report.verdicts)


@needs_upstream
@pytest.mark.parametrize("name", list(EXPECTED))
def test_upstream_accepts_with_copy_before_write(name):
    assert MLIR_OPT is not None
    run = subprocess.run(
        [
            MLIR_OPT,
            "--one-shot-bufferize=bufferize-function-boundaries=1 copy-before-write=1",
        ],
        input=CHUNKS[name],
        capture_output=True,
        text=True,
    )
    assert run.returncode == 0, run.stderr
