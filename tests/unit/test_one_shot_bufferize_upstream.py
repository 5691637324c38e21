"""one-shot-bufferize against upstream's `mlir-opt-22 --one-shot-bufferize`.

Every tests/filecheck/passes/one-shot-bufferize/*.mlir (found at collection
time, so every file of the directory takes part), split at `// -----` where
a RUN line splits it, goes through each `one-shot-bufferize{...}` pipeline
of its RUN lines, ours and upstream's with the same options. RUN lines that
expect an error (`not`, `--verify-diagnostics`) and pipelines with other
passes are left out. The inline inputs below join them. Then:

- mlir-opt-22 accepts our output (per input and pipeline);
- without `test-analysis-only`, each function of ours has no more
  `memref.alloc` and no more `memref.copy` ops than upstream's;
- with `test-analysis-only`, each function of ours carries the same
  `__inplace_operands_attr__` values as upstream's, op by op in order, the
  same `bufferization.access` argument annotations and the same
  `__equivalent_func_args__` (these two when both print them), and they
  survive printing;
- the inline inputs keep their meaning (the directory's files are run by
  test_pass_meaning.py).

Upstream does not know `linalg_ext`: inputs with those ops, and inputs
mlir-opt-22 rejects, are skipped for the comparisons (the reason says which)
but still re-parsed (linalg_ext ones in the generic form, without the
verifier on parsing: unregistered ops cannot hold a linalg.yield). Known
differences are strict xfails in `XFAILS`, each with its reason: once fixed
they fail as XPASS, and the entry goes. Skipped without mlir-opt-22.
"""

from __future__ import annotations

import dataclasses
import functools
import re
import shutil
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass

import pytest
from xdsl.dialects import func
from xdsl.dialects.builtin import ArrayAttr, DictionaryAttr, ModuleOp, StringAttr
from xdsl.parser import Parser

from helpers import (
    REPO,
    has_linalg_ext,
    parse_module,
    print_for_mlir_opt,
    print_module,
)
from linalg_ext.context import make_context
from linalg_ext.passes.one_shot_bufferize import OneShotBufferizePass
from linalg_ext.running import find_function
from linalg_ext.tools.check import check_module, parse_pipeline

PASS = "one-shot-bufferize"
INPUT_DIR = REPO / "tests" / "filecheck" / "passes" / PASS
INPLACE = "__inplace_operands_attr__"
ACCESS = "bufferization.access"
EQUIVALENT = "__equivalent_func_args__"

BOUNDARIES = "one-shot-bufferize{bufferize-function-boundaries=true}"
ANALYSIS = (
    "one-shot-bufferize{bufferize-function-boundaries=true test-analysis-only=true}"
)
TOP_DOWN = (
    "one-shot-bufferize{bufferize-function-boundaries=true analysis-heuristic=top-down}"
)
TOP_DOWN_ANALYSIS = (
    "one-shot-bufferize{bufferize-function-boundaries=true "
    "analysis-heuristic=top-down test-analysis-only=true}"
)

INLINE_INPUTS: dict[str, tuple[str, tuple[str, ...]]] = {
    # A tile of a tile, written and inserted back twice: the write is inside
    # the subset the outer insert_slice puts back, so no copy is needed.
    "nested_slices": (
        """
func.func @slice_of_slice(%t: tensor<8xf32>, %v: f32) -> tensor<8xf32> {
  %a = tensor.extract_slice %t[2] [4] [1] : tensor<8xf32> to tensor<4xf32>
  %b = tensor.extract_slice %a[1] [2] [1] : tensor<4xf32> to tensor<2xf32>
  %f = linalg.fill ins(%v : f32) outs(%b : tensor<2xf32>) -> tensor<2xf32>
  %a2 = tensor.insert_slice %f into %a[1] [2] [1] : tensor<2xf32> into tensor<4xf32>
  %t2 = tensor.insert_slice %a2 into %t[2] [4] [1] : tensor<4xf32> into tensor<8xf32>
  return %t2 : tensor<8xf32>
}
""",
        (BOUNDARIES, ANALYSIS),
    ),
    # Top-down, the insert_slice is analysed before the extract_slice whose
    # result (returned: read) still needs the old contents of %t.
    "read_through_unanalysed_slice": (
        """
func.func @read_slice_after_insert(%t: tensor<8xf32>, %s: tensor<4xf32>) -> (tensor<8xf32>, tensor<4xf32>) {
  %t1 = tensor.insert_slice %s into %t[0] [4] [1] : tensor<4xf32> into tensor<8xf32>
  %r = tensor.extract_slice %t[0] [4] [1] : tensor<8xf32> to tensor<4xf32>
  return %t1, %r : tensor<8xf32>, tensor<4xf32>
}
""",
        (TOP_DOWN, TOP_DOWN_ANALYSIS),
    ),
    # copy-before-write skips the analysis: the loop yields a new buffer
    # each iteration, as upstream's does (this once failed the equivalence
    # check of scf.for).
    "copy_before_write_loop": (
        """
func.func @loop_insert(%t: tensor<8xf32>, %v: f32) -> tensor<8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %r = scf.for %i = %c0 to %c8 step %c1 iter_args(%s = %t) -> (tensor<8xf32>) {
    %n = tensor.insert %v into %s[%i] : tensor<8xf32>
    scf.yield %n : tensor<8xf32>
  }
  return %r : tensor<8xf32>
}
""",
        (
            "one-shot-bufferize{bufferize-function-boundaries=true copy-before-write=true}",
        ),
    ),
    # Named ops carrying the analysis' annotations, which must be printed
    # where mlir-opt-22 reads them (linalg_ext/compat/linalg_named_attrs.py).
    "annotated_named_elementwise": (
        """
func.func @add_in_place(%x: tensor<8xf32>, %y: tensor<8xf32>) -> tensor<8xf32> {
  %s = linalg.add ins(%x, %y : tensor<8xf32>, tensor<8xf32>) outs(%x : tensor<8xf32>) -> tensor<8xf32>
  return %s : tensor<8xf32>
}
""",
        (ANALYSIS,),
    ),
    "annotated_transpose": (
        """
func.func @transpose_into_empty(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %e = tensor.empty() : tensor<4x4xf32>
  %t = linalg.transpose ins(%x : tensor<4x4xf32>) outs(%e : tensor<4x4xf32>) permutation = [1, 0]
  return %t : tensor<4x4xf32>
}
""",
        (ANALYSIS,),
    ),
    # An argument written through a collapse_shape of it.
    "collapse_then_write": (
        """
func.func @collapse_write(%t: tensor<2x4xf32>, %v: f32) -> tensor<8xf32> {
  %c = tensor.collapse_shape %t [[0, 1]] : tensor<2x4xf32> into tensor<8xf32>
  %f = linalg.fill ins(%v : f32) outs(%c : tensor<8xf32>) -> tensor<8xf32>
  return %f : tensor<8xf32>
}
""",
        (ANALYSIS,),
    ),
}
"""Inputs that pin known differences (see `XFAILS`)."""

XFAILS: dict[tuple[str, str], str] = {}
"""(input label, or label@function; kind) of known differences, kind one of
pass (our pass fails), reparse, count, analysis, meaning."""

pytestmark = pytest.mark.skipif(
    shutil.which("mlir-opt-22") is None, reason="mlir-opt-22 is not installed"
)

RUN_LINE = re.compile(r"^//\s*RUN:(.*)$", re.M)
PIPELINE = re.compile(r"(?:^|\s)-p\s+(\"[^\"]+\"|'[^']+'|\S+)")
EXPECTS_ERROR = re.compile(r"(^|\|)\s*not\s|--verify-diagnostics")
SPLIT = re.compile(r"^// -----\s*$", re.M)


@dataclass(frozen=True)
class Case:
    """One input (a file, a `// -----` piece of one, or an inline input)
    under one one-shot-bufferize pipeline."""

    label: str
    text: str
    pipeline: str
    inline: bool = False

    @property
    def one_shot(self) -> OneShotBufferizePass:
        (bufferize,) = parse_pipeline(self.pipeline).passes
        assert isinstance(bufferize, OneShotBufferizePass)
        return bufferize

    @property
    def analysis_only(self) -> bool:
        return self.one_shot.test_analysis_only


def run_commands(text: str) -> list[str]:
    """The RUN lines of a test file, continuation lines joined."""
    return "\n".join(RUN_LINE.findall(text)).replace("\\\n", " ").split("\n")


def one_shot_pipeline(command: str) -> str | None:
    """The pipeline of a RUN command if it is one one-shot-bufferize pass and
    the command expects no error, else None."""
    if EXPECTS_ERROR.search(command):
        return None
    found = PIPELINE.search(command)
    if found is None:
        return None
    spec = found.group(1).strip("\"'")
    try:
        passes = parse_pipeline(spec).passes
    except Exception:  # a bad spec is the business of the FileCheck test
        return None
    if len(passes) != 1 or not isinstance(passes[0], OneShotBufferizePass):
        return None
    return spec


def mlir_options(bufferize: OneShotBufferizePass) -> str:
    """The pass's options in mlir-opt's syntax: every option not at its
    default (both have the same names and defaults), `key=value`."""
    options = []
    for field in dataclasses.fields(bufferize):
        value = getattr(bufferize, field.name)
        if value == field.default:
            continue
        if isinstance(value, bool):
            value = "true" if value else "false"
        options.append(f"{field.name.replace('_', '-')}={value}")
    return " ".join(options)


def collect_cases() -> list[Case]:
    cases: list[Case] = []
    for path in sorted(INPUT_DIR.glob("*.mlir")):
        text = path.read_text()
        for command in run_commands(text):
            pipeline = one_shot_pipeline(command)
            if pipeline is None:
                continue
            if "--split-input-file" in command:
                pieces = SPLIT.split(text)
                cases.extend(
                    Case(f"{path.stem}#{i}", piece, pipeline)
                    for i, piece in enumerate(pieces)
                )
            else:
                cases.append(Case(path.stem, text, pipeline))
    for label, (text, pipelines) in INLINE_INPUTS.items():
        cases.extend(Case(label, text, p, inline=True) for p in pipelines)
    return list(dict.fromkeys(cases))


CASES = collect_cases()


def function_names(module: ModuleOp) -> list[str]:
    return [
        op.sym_name.data
        for op in module.walk()
        if isinstance(op, func.FuncOp) and not op.is_declaration
    ]


def case_id(case: Case) -> str:
    return f"{case.label}:{case.pipeline}"


def marks(case: Case, kind: str, name: str | None = None) -> list:
    """The strict xfail of a known difference, if there is one."""
    keys = [(case.label, "pass"), (case.label, kind)]
    if name is not None:
        keys += [(f"{case.label}@{name}", "pass"), (f"{case.label}@{name}", kind)]
    for key in keys:
        if key in XFAILS:
            return [pytest.mark.xfail(strict=True, reason=XFAILS[key])]
    return []


def module_params(kind: str, *, inline_only: bool = False) -> list:
    return [
        pytest.param(case, marks=marks(case, kind), id=case_id(case))
        for case in CASES
        if case.inline or not inline_only
    ]


def function_params(kind: str, *, analysis_only: bool) -> Iterator[object]:
    for case in CASES:
        if case.analysis_only != analysis_only:
            continue
        try:
            module = parse_module(case.text)
        except Exception:  # the test then fails on it, naming the error
            yield pytest.param(case, None, id=case_id(case))
            continue
        if has_linalg_ext(module):
            continue  # upstream MLIR has no linalg_ext ops to compare with
        for name in function_names(module):
            yield pytest.param(
                case, name, marks=marks(case, kind, name), id=f"{case_id(case)}:{name}"
            )


def mlir_opt(text: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["mlir-opt-22", "--allow-unregistered-dialect", *args],
        input=text,
        capture_output=True,
        text=True,
    )


def parse_unverified(text: str) -> ModuleOp:
    # Not verified: xDSL's linalg.index only accepts linalg.generic as its
    # parent, and upstream fills pads with linalg.map over linalg.index.
    return Parser(make_context(allow_unregistered=True), text).parse_module()


@functools.cache
def ours(case: Case) -> ModuleOp:
    """Our output (shared by the tests: they only read it)."""
    module = parse_module(case.text)
    parse_pipeline(case.pipeline).apply(make_context(), module)
    module.verify()
    return module


@functools.cache
def reparsed(case: Case) -> ModuleOp:
    """Our output as printed for mlir-opt-22, parsed back."""
    return parse_unverified(print_for_mlir_opt(ours(case)))


@functools.cache
def upstream(case: Case) -> ModuleOp | str:
    """Upstream's output, or why there is none to compare with."""
    if has_linalg_ext(parse_module(case.text)):
        return "upstream MLIR does not know linalg_ext ops"
    options = mlir_options(case.one_shot)
    flag = f"--one-shot-bufferize={options}" if options else "--one-shot-bufferize"
    result = mlir_opt(case.text, flag, "--mlir-print-op-generic")
    if result.returncode != 0:
        first = next((line for line in result.stderr.splitlines() if line), "")
        return f"mlir-opt-22 {flag} rejects the input: {first}"
    return parse_unverified(result.stdout)


def upstream_or_skip(case: Case) -> ModuleOp:
    theirs = upstream(case)
    if isinstance(theirs, str):
        pytest.skip(theirs)
    return theirs


def function_text(module: ModuleOp, name: str) -> str:
    return print_module(ModuleOp([find_function(module, name).clone()]))


def both_texts(mine: ModuleOp, theirs: ModuleOp, name: str) -> str:
    return (
        f"\n--- ours\n{function_text(mine, name)}"
        f"\n--- upstream\n{function_text(theirs, name)}"
    )


def op_count(function: func.FuncOp, op_name: str) -> int:
    return sum(1 for op in function.walk() if op.name == op_name)


def inplace_decisions(function: func.FuncOp) -> list[tuple[str, tuple[str, ...]]]:
    """(op name, `__inplace_operands_attr__`) of every annotated op, in order."""
    decisions = []
    for op in function.walk():
        attr = op.attributes.get(INPLACE)
        if isinstance(attr, ArrayAttr):
            values = tuple(
                v.data if isinstance(v, StringAttr) else str(v) for v in attr.data
            )
            decisions.append((op.name, values))
    return decisions


def argument_accesses(function: func.FuncOp) -> list[str | None] | None:
    """The `bufferization.access` annotation of each argument, or None if
    no argument has one."""
    if function.arg_attrs is None:
        return None
    accesses: list[str | None] = []
    for attrs in function.arg_attrs.data:
        access = attrs.data.get(ACCESS) if isinstance(attrs, DictionaryAttr) else None
        accesses.append(access.data if isinstance(access, StringAttr) else None)
    return accesses if any(accesses) else None


def equivalent_arguments(function: func.FuncOp) -> list[str] | None:
    """The `__equivalent_func_args__` of each `func.return`, or None if none
    has one."""
    found = [
        str(op.attributes.get(EQUIVALENT))
        for op in function.walk()
        if isinstance(op, func.ReturnOp)
    ]
    return found if any(value != "None" for value in found) else None


def analysis_annotations(function: func.FuncOp) -> dict[str, object]:
    return {
        INPLACE: inplace_decisions(function),
        ACCESS: argument_accesses(function),
        EQUIVALENT: equivalent_arguments(function),
    }


@pytest.mark.parametrize("case", module_params("reparse"))
def test_upstream_accepts_our_output(case: Case):
    module = ours(case)
    flags = []
    if has_linalg_ext(module):
        # Unregistered for mlir-opt-22, linalg_ext ops cannot hold the
        # linalg.yield that ends their bodies: parse without the verifier.
        flags.append("--mlir-very-unsafe-disable-verifier-on-parsing")
    text = print_for_mlir_opt(module)
    result = mlir_opt(text, *flags)
    assert result.returncode == 0, result.stderr


@pytest.mark.parametrize(
    ("case", "name"), list(function_params("count", analysis_only=False))
)
def test_no_more_allocations_and_copies_than_upstream(case: Case, name: str):
    mine = ours(case)
    theirs = upstream_or_skip(case)
    our_function, their_function = (
        find_function(mine, name),
        find_function(theirs, name),
    )
    for op_name in ("memref.alloc", "memref.copy"):
        our_count = op_count(our_function, op_name)
        their_count = op_count(their_function, op_name)
        assert our_count <= their_count, (
            f"@{name}: {our_count} {op_name} in ours, {their_count} in upstream's"
            + both_texts(mine, theirs, name)
        )


@pytest.mark.parametrize(
    ("case", "name"), list(function_params("analysis", analysis_only=True))
)
def test_same_in_place_decisions_as_upstream(case: Case, name: str):
    mine = ours(case)
    theirs = upstream_or_skip(case)
    our_function, their_function = (
        find_function(mine, name),
        find_function(theirs, name),
    )
    expected = analysis_annotations(their_function)
    got = analysis_annotations(our_function)
    for key, value in got.items():
        if key != INPLACE and (value is None or expected[key] is None):
            continue  # an annotation one side does not print
        assert value == expected[key], (
            f"@{name}: the {key} annotations differ:\n ours     {value}\n "
            f"upstream {expected[key]}" + both_texts(mine, theirs, name)
        )
    # What a reader of the output sees: the annotations must survive printing.
    printed = analysis_annotations(find_function(reparsed(case), name))
    assert printed == got, (
        f"@{name}: the printed output loses or changes annotations:\n printed "
        f"{printed}\n in memory {got}"
    )


@pytest.mark.parametrize(
    "case",
    [
        pytest.param(case, marks=marks(case, "meaning"), id=case_id(case))
        for case in CASES
        if case.inline and not case.analysis_only
    ],
)
def test_inline_inputs_keep_their_meaning(case: Case):
    report = check_module(
        parse_module(case.text), case.pipeline, trials=3, seed=5, allow_leaks=True
    )
    assert report.ok, "\n".join(verdict.line() for verdict in report.verdicts)
