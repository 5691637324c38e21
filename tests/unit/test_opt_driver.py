"""linalg-ext-opt: the expectation parser and matcher of --verify-diagnostics,
located parsing, pipeline errors, exit codes and internal errors."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import pytest
from xdsl.context import Context
from xdsl.dialects.builtin import FileLineColLoc, ModuleOp
from xdsl.passes import ModulePass

from linalg_ext.context import make_context
from linalg_ext.passes import ALL_PASSES
from linalg_ext.pipelines import describe_type
from linalg_ext.tools import opt
from linalg_ext.tools.expectations import (
    Diagnostic,
    Expectation,
    ExpectationSyntaxError,
    parse_expectations,
    verify,
)
from linalg_ext.tools.opt_pipeline import (
    PipelineError,
    first_docstring_line,
    parse_passes,
)

# --- the expectation parser ---------------------------------------------------


def _one(line: str, **kwargs) -> Expectation:
    (expectation,) = parse_expectations(line, "t.mlir", **kwargs)
    return expectation


def test_designator_on_its_own_line():
    e = _one("  %0 = op  // expected-error {{bad thing}}")
    assert (e.kind, e.text, e.target_line, e.is_regex) == (
        "error",
        "bad thing",
        1,
        False,
    )
    assert (e.line, e.column) == (1, 15)


@pytest.mark.parametrize(
    ("where", "target"),
    [("@+2", 12), ("@-3", 7), ("@above", 9), ("@below", 11), ("@4", 4), ("", 10)],
)
def test_where_a_designator_points(where, target):
    text = "\n" * 9 + f"// expected-warning{where} {{{{w}}}}\n" + "\n" * 5
    assert _one(text).target_line == target


def test_unknown_location_and_every_kind():
    text = "\n".join(
        f"// expected-{kind}@unknown {{{{m}}}}"
        for kind in ("error", "warning", "note", "remark")
    )
    expectations = parse_expectations(text, "t.mlir")
    assert [e.kind for e in expectations] == ["error", "warning", "note", "remark"]
    assert all(e.target_line is None for e in expectations)


def test_spaces_around_the_location_are_allowed():
    assert _one("// expected-error   @below{{x}}\n\n").target_line == 2


def test_message_runs_to_the_last_closing_braces():
    e = _one("// expected-error {{a {{b}} c}}")
    assert e.text == "a {{b}} c"


def test_lines_count_from_the_chunk_offset():
    e = _one("\n\n// expected-error@+1 {{x}}\n\n", line_offset=40)
    assert (e.line, e.target_line) == (43, 44)


def test_absolute_lines_may_point_into_another_chunk():
    e = _one("// expected-error@30 {{x}}", line_offset=3, file_lines=40)
    assert e.target_line == 30
    with pytest.raises(ExpectationSyntaxError, match="line 41, outside the file"):
        parse_expectations("// expected-error@41 {{x}}", "t", 3, file_lines=40)


def test_prose_mentioning_a_designator_is_ignored():
    assert parse_expectations("// an expected-error line checks errors", "t") == []


@pytest.mark.parametrize(
    "line",
    [
        "// expected-error@+1 no braces",
        "// expected-error {{unclosed",
        "// expected-error@sideways {{x}}",
        "// expected-error@-5 {{before the file}}",
        "// expected-error-re {{bad {{[}} regex}}",
    ],
)
def test_malformed_designators_are_errors(line):
    # Upstream ignores these silently; a typo would make the test unable to fail.
    with pytest.raises(ExpectationSyntaxError, match=r"^t\.mlir:1:4: error: "):
        parse_expectations(line, "t.mlir")


def test_plain_messages_are_literal_substrings():
    e = _one("// expected-error {{got [i32] (x.y)}}")
    assert e.matches(Diagnostic("error", "op: got [i32] (x.y) here", "t.mlir", 1))
    assert not e.matches(Diagnostic("error", "got [i32] (xzy)", "t.mlir", 1))
    assert not e.matches(Diagnostic("error", "GOT [i32] (x.y)", "t.mlir", 1))


def test_regex_pieces_only_inside_nested_braces():
    e = _one("// expected-error-re {{rank {{[0-9]+}} (of [x])}}")
    assert e.matches(Diagnostic("error", "bad rank 12 (of [x])", "t.mlir", 1))
    assert not e.matches(Diagnostic("error", "bad rank n (of [x])", "t.mlir", 1))
    assert not e.matches(Diagnostic("error", "bad rank 1 (of x)", "t.mlir", 1))


def test_empty_message_matches_any_message():
    assert _one("// expected-error {{}}").matches(Diagnostic("error", "x", "t", 1))


# --- matching -----------------------------------------------------------------


def test_every_diagnostic_matches_one_expectation():
    expectations = parse_expectations(
        "// expected-error@+1 {{a}}\nop\n// expected-warning@-1 {{b}}", "t.mlir"
    )
    produced = [
        Diagnostic("error", "x a y", "t.mlir", 2, 5),
        Diagnostic("warning", "b", "t.mlir", 2, 1),
    ]
    assert verify(expectations, produced) == []


def test_complaints_use_upstreams_wording():
    expectations = parse_expectations("// expected-error@+1 {{wanted}}\nop", "t.mlir")
    produced = [
        Diagnostic("error", "got this", "t.mlir", 2, 3),
        Diagnostic("warning", "and this", "t.mlir", 5, 1),
        Diagnostic("error", "nowhere"),
    ]
    assert verify(expectations, produced) == [
        "t.mlir:2:3: error: unexpected error: got this",
        "t.mlir:5:1: error: unexpected warning: and this",
        "<unknown>:0: error: unexpected error: nowhere",
        't.mlir:1:4: error: expected error "wanted" was not produced',
    ]


def test_an_expectation_matches_once_and_on_its_line_and_kind():
    expectations = parse_expectations("op // expected-error {{x}}", "t.mlir")
    twice = [Diagnostic("error", "x", "t.mlir", 1, 1)] * 2
    assert len(verify(expectations, twice)) == 1
    expectations = parse_expectations("op // expected-error {{x}}", "t.mlir")
    assert len(verify(expectations, [Diagnostic("error", "x", "t.mlir", 2)])) == 2
    expectations = parse_expectations("op // expected-error {{x}}", "t.mlir")
    assert len(verify(expectations, [Diagnostic("note", "x", "t.mlir", 1)])) == 2


def test_unknown_expectation_matches_a_diagnostic_without_location():
    expectations = parse_expectations("// expected-error@unknown {{x}}", "t")
    assert verify(expectations, [Diagnostic("error", "x")]) == []


# --- parsing with locations ---------------------------------------------------

PROGRAM = """\
func.func @f(%a: i32) -> i32 {
  %0 = arith.addi %a, %a : i32
  func.return %0 : i32
}
"""


def _parse(text: str, line_offset: int = 0) -> ModuleOp:
    return opt.LocatingParser(
        make_context(), text, "p.mlir", line_offset
    ).parse_module()


def test_every_op_is_located_at_its_name():
    module = _parse(PROGRAM)
    where = {
        op.name: (op.location.line.data, op.location.column.data)
        for op in module.walk()
        if isinstance(op.location, FileLineColLoc)
    }
    assert where == {"func.func": (1, 1), "arith.addi": (2, 8), "func.return": (3, 3)}


def test_locations_survive_clone_and_respect_the_chunk_offset():
    clone = _parse(PROGRAM, line_offset=10).clone()
    lines = [op.location.line.data for op in clone.walk() if op is not clone]
    assert lines == [11, 12, 13]


def test_an_explicit_location_is_kept():
    module = _parse('"test.op"() : () -> () loc("elsewhere.py":7:2)')
    (op,) = module.body.ops
    assert isinstance(op.location, FileLineColLoc)
    assert (op.location.filename.data, op.location.line.data) == ("elsewhere.py", 7)


def test_verify_located_names_the_op_upstream_style():
    module = _parse("func.func @f(%a: i32) -> i64 {\n  func.return %a : i32\n}\n")
    diagnostic = opt.verify_located(module)
    assert diagnostic is not None
    assert (diagnostic.file, diagnostic.line, diagnostic.column) == ("p.mlir", 2, 3)
    assert diagnostic.message.startswith("'func.return' op ")
    assert opt.verify_located(_parse(PROGRAM)) is None


# --- the pipeline ---------------------------------------------------------------


@pytest.fixture
def passes():
    driver = opt.LinalgExtOptMain(args=["--list-passes"])
    return driver.available_passes


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("lower-to-lvm", "unknown pass 'lower-to-lvm' (did you mean 'lower-to-llvm'?)"),
        (
            "lower-to-llvm{allow_recompute=1}",
            "pass 'lower-to-llvm' has no option 'allow_recompute'; "
            "its options: approximate-math, fast-math, microkernels, "
            "parallel, runtime-checks, use-generic-functions, vector-bits",
        ),
        (
            "lower-to-llvm{use-generic-functions=3}",
            "option 'use-generic-functions' expects true or false, got '3'",
        ),
        ("fuse-pad{", "cannot parse the pass pipeline 'fuse-pad{' at column 10"),
        (
            "one-shot-bufferize{analysis-heuristic=x}",
            "option 'analysis-heuristic' expects one of bottom-up, top-down, got 'x'",
        ),
    ],
)
def test_pipeline_errors_are_one_line_and_spelt_as_typed(passes, spec, message):
    with pytest.raises(PipelineError) as raised:
        parse_passes(passes, spec)
    assert message in str(raised.value)
    assert "\n" not in str(raised.value)


def test_a_bare_boolean_option_is_true_as_in_mlir(passes):
    (pass_,) = parse_passes(passes, "lower-to-llvm{use-generic-functions}")
    assert pass_.use_generic_functions  # pyright: ignore[reportAttributeAccessIssue]
    (pass_,) = parse_passes(passes, "lower-to-llvm{use_generic_functions=false}")
    assert not pass_.use_generic_functions  # pyright: ignore[reportAttributeAccessIssue]


def test_every_pass_of_ours_is_offered_with_a_description(passes):
    for name in ALL_PASSES:
        assert name in passes
        assert first_docstring_line(passes[name]()), name


def test_describe_type():
    assert describe_type(bool) == "true or false"
    assert describe_type(int | None) == "an integer"
    assert describe_type(tuple[int, ...]) == "a comma-separated list of integers"
    assert describe_type(Literal["full", "border"]) == "one of full, border"


def test_lower_to_llvm_stages_are_what_it_runs():
    from linalg_ext.passes.lower_to_llvm import LOWERING_STEPS, LowerToLLVMPass

    stages = LowerToLLVMPass(use_generic_functions=True).stages()
    optional = ("insert-runtime-checks", "outline-parallel-loops-ext")
    unchecked = tuple(s for s in LOWERING_STEPS if s not in optional)
    assert tuple(s.name for s in stages) == unchecked
    every = LowerToLLVMPass(runtime_checks=True, parallel=True).stages()
    assert tuple(s.name for s in every) == LOWERING_STEPS
    (finalize,) = [s for s in stages if s.name == "finalize-memref-to-llvm"]
    assert finalize.use_generic_functions  # pyright: ignore[reportAttributeAccessIssue]


# --- the whole driver -----------------------------------------------------------


def _run(capsys, *argv: str) -> tuple[int, str, str]:
    code = opt.main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


MEMREF_PROGRAM = """\
func.func @exp(%x: memref<4xf32>, %y: memref<4xf32>) {
  linalg.exp ins(%x : memref<4xf32>) outs(%y : memref<4xf32>)
  return
}
"""


def test_expanded_stages_give_the_same_result(tmp_path, capsys):
    path = tmp_path / "p.mlir"
    path.write_text(MEMREF_PROGRAM)
    code, whole, _ = _run(capsys, str(path), "-p", "lower-to-llvm")
    assert code == 0 and "llvm.func @exp" in whole
    code, staged, err = _run(
        capsys, str(path), "-p", "lower-to-llvm", "--print-between-passes"
    )
    assert code == 0 and staged == whole
    from linalg_ext.passes.lower_to_llvm import LowerToLLVMPass

    # Every stage but the last is followed by the IR.
    assert err.count("IR after") == len(LowerToLLVMPass().stages()) - 1


@pytest.mark.parametrize(
    ("text", "args", "expected"),
    [
        ("func.func @f( {", [], "p.mlir:1:15: error: "),
        ("func.func @f() {\n  foo.bar\n}", [], "p.mlir:2:3: error: Operation foo.bar"),
        ("func.func @f() { func.return }", ["-p", "nope"], "error: unknown pass"),
        (MEMREF_PROGRAM, ["-p", "fuse-pad{x=1}"], "has no option 'x'"),
        (
            MEMREF_PROGRAM.replace("memref", "tensor"),
            ["-p", "finalize-memref-to-llvm,lower-to-llvm"],
            "p.mlir:",
        ),
    ],
)
def test_bad_input_is_one_line_and_exit_code_1(tmp_path, capsys, text, args, expected):
    path = tmp_path / "p.mlir"
    path.write_text(text)
    code, out, err = _run(capsys, str(path), *args)
    assert code == 1
    assert out == ""
    assert err.count("\n") == 1 and expected in err, err


def test_missing_file(tmp_path, capsys):
    code, _, err = _run(capsys, str(tmp_path / "none.mlir"))
    assert code == 1
    assert err == (
        f"linalg-ext-opt: error: cannot open input file '{tmp_path / 'none.mlir'}': "
        "No such file or directory\n"
    )


@dataclass(frozen=True)
class CrashingPass(ModulePass):
    """A pass with a bug."""

    name = "test-crash"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        raise KeyError("missing")


def test_internal_error_is_one_line_unless_traceback_requested(
    tmp_path, capsys, monkeypatch
):
    monkeypatch.setitem(ALL_PASSES, "test-crash", lambda: CrashingPass)
    path = tmp_path / "p.mlir"
    path.write_text("func.func @f() { func.return }")
    code, out, err = _run(capsys, str(path), "-p", "test-crash")
    assert (code, out) == (1, "")
    assert err == (
        "linalg-ext-opt: internal error in pass 'test-crash': KeyError: 'missing' "
        "(--show-traceback or LINALG_EXT_TRACEBACK=1 prints the traceback)\n"
    )
    with pytest.raises(KeyError):
        opt.main([str(path), "-p", "test-crash", "--show-traceback"])
    monkeypatch.setenv("LINALG_EXT_TRACEBACK", "1")
    with pytest.raises(KeyError):
        opt.main([str(path), "-p", "test-crash"])


def test_verify_diagnostics_exit_codes(tmp_path, capsys):
    path = tmp_path / "p.mlir"
    path.write_text(
        "func.func @f(%a: i32) -> i64 {\n"
        "  // expected-error@+1 {{expected [i64], got [i32]}}\n"
        "  func.return %a : i32\n}\n"
    )
    assert _run(capsys, str(path), "--verify-diagnostics")[0] == 0
    path.write_text(path.read_text().replace("[i32]}}", "[f32]}}"))
    code, _, err = _run(capsys, str(path), "--verify-diagnostics")
    assert code == 1
    assert (
        f'{path}:2:6: error: expected error "expected [i64], got [f32]" was not' in err
    )


def test_the_console_script_is_installed():
    # pyproject.toml's [project.scripts] entry, as pip installed it.
    script = Path(sys.executable).parent / "linalg-ext-opt"
    assert script.exists()
    done = subprocess.run(
        [str(script), "--version"], capture_output=True, text=True, check=True
    )
    assert done.stdout.startswith("linalg-ext-opt (xdsl-linalg-ext) on xDSL 0.74")
