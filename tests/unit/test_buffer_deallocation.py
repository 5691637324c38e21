"""Deallocation: the interpreter's allocation tracking (double frees, frees of
what is not an allocation, uses after free, leaks), `linalg-ext-check`'s leak
rule, and the `buffer-deallocation-pipeline` pass (leak-free, idempotent,
sound on random programs; its output accepted and run natively by upstream
MLIR when mlir-opt-22 is installed)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest
from dealloc_programs import copied, mixed_program
from xdsl.context import Context
from xdsl.dialects import func, memref
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.utils.exceptions import InterpretationError

from helpers import REPO, parse_module, print_module
from linalg_ext.comparison import compare_values
from linalg_ext.context import make_context
from linalg_ext.passes.buffer_deallocation import BufferDeallocationPass
from linalg_ext.running import find_function, random_inputs, run_function
from linalg_ext.tools import check

INPUTS = sorted(
    path
    for path in (
        REPO / "tests" / "filecheck" / "passes" / "buffer-deallocation-pipeline"
    ).glob("*.mlir")
    if path.stem != "errors"  # refused: tests/unit/test_no_leaks.py
)
F4 = "memref<4xf32>"


def run(source: str, name: str, *inputs):
    return run_function(parse_module(source), name, list(inputs))


def deallocated(module: ModuleOp, report: bool = False) -> ModuleOp:
    result = module.clone()
    BufferDeallocationPass(report=report).apply(make_context(), result)
    result.verify()
    return result


def function_names(module: ModuleOp) -> list[str]:
    return [
        op.sym_name.data
        for op in module.walk()
        if isinstance(op, func.FuncOp) and not op.is_declaration
    ]


# --------------------------------------------------------------------------
# The interpreter's tracking
# --------------------------------------------------------------------------

TRACKING = f"""
"memref.global"() <{{sym_name = "g", type = {F4}, initial_value = dense<1.0> : tensor<4xf32>, sym_visibility = "private"}}> : () -> ()

func.func @double_free() {{
  %t = memref.alloc() : {F4}
  memref.dealloc %t : {F4}
  memref.dealloc %t : {F4}
  return
}}

func.func @free_argument(%x: {F4}) {{
  memref.dealloc %x : {F4}
  return
}}

func.func @free_part_view() {{
  %t = memref.alloc() : {F4}
  %s = memref.subview %t[1] [2] [1] : {F4} to memref<2xf32, strided<[1], offset: 1>>
  memref.dealloc %s : memref<2xf32, strided<[1], offset: 1>>
  return
}}

func.func @free_alloca() {{
  %t = memref.alloca() : {F4}
  memref.dealloc %t : {F4}
  return
}}

func.func @free_global() {{
  %g = memref.get_global @g : {F4}
  memref.dealloc %g : {F4}
  return
}}

func.func @free_whole_views() {{
  %t = memref.alloc() : {F4}
  %c = "memref.cast"(%t) : ({F4}) -> memref<?xf32>
  memref.dealloc %c : memref<?xf32>
  %u = memref.alloc() : {F4}
  %e = memref.expand_shape %u [[0, 1]] output_shape [2, 2] : {F4} into memref<2x2xf32>
  memref.dealloc %e : memref<2x2xf32>
  return
}}

func.func @load_freed() -> f32 {{
  %c0 = arith.constant 0 : index
  %t = memref.alloc() : {F4}
  memref.dealloc %t : {F4}
  %v = memref.load %t[%c0] : {F4}
  return %v : f32
}}

func.func @store_freed(%v: f32) {{
  %c0 = arith.constant 0 : index
  %t = memref.alloc() : {F4}
  %s = memref.subview %t[1] [2] [1] : {F4} to memref<2xf32, strided<[1], offset: 1>>
  memref.dealloc %t : {F4}
  memref.store %v, %s[%c0] : memref<2xf32, strided<[1], offset: 1>>
  return
}}

func.func @copy_freed(%x: {F4}) {{
  %t = memref.alloc() : {F4}
  memref.dealloc %t : {F4}
  "memref.copy"(%x, %t) : ({F4}, {F4}) -> ()
  return
}}

func.func @subview_freed() {{
  %t = memref.alloc() : {F4}
  memref.dealloc %t : {F4}
  %s = memref.subview %t[1] [2] [1] : {F4} to memref<2xf32, strided<[1], offset: 1>>
  return
}}

func.func @leaks(%x: {F4}) -> ({F4}, memref<2xf32, strided<[1], offset: 1>>) {{
  %tmp = memref.alloc() : memref<4x4xf32>
  %kept = memref.alloc() : memref<3xi32>
  memref.dealloc %kept : memref<3xi32>
  %r = memref.alloc() : {F4}
  %v = memref.alloc() : {F4}
  %s = memref.subview %v[1] [2] [1] : {F4} to memref<2xf32, strided<[1], offset: 1>>
  %a = memref.alloca() : {F4}
  return %r, %s : {F4}, memref<2xf32, strided<[1], offset: 1>>
}}

func.func @make() -> {F4} {{
  %r = memref.alloc() : {F4}
  return %r : {F4}
}}

func.func @calls_and_drops() {{
  %m = func.call @make() : () -> {F4}
  return
}}
"""


def test_double_free_is_an_error():
    with pytest.raises(InterpretationError) as error:
        run(TRACKING, "double_free")
    assert str(error.value) == (
        "memref.dealloc: double free of the buffer of shape (4,) allocated by "
        "memref.alloc %t in @double_free"
    )


@pytest.mark.parametrize(
    ("name", "reason"),
    [
        (
            "free_argument",
            "not an allocation: the operand is argument #0 of @free_argument",
        ),
        (
            "free_part_view",
            "not an allocation: the operand is a view of part of the buffer of "
            "shape (4,) allocated by memref.alloc %t in @free_part_view",
        ),
        ("free_alloca", "is freed when its scope ends"),
        ("free_global", "not made by memref.alloc"),
    ],
)
def test_freeing_what_is_not_an_allocation_is_an_error(name, reason):
    inputs = [np.zeros(4, np.float32)] if name == "free_argument" else []
    with pytest.raises(InterpretationError) as error:
        run(TRACKING, name, *inputs)
    assert str(error.value).startswith("memref.dealloc: ")
    assert reason in str(error.value)


def test_a_view_of_the_whole_buffer_frees_it():
    assert run(TRACKING, "free_whole_views").leaks == []


@pytest.mark.parametrize(
    ("name", "inputs", "op"),
    [
        ("load_freed", [], "memref.load"),
        ("store_freed", [1.0], "memref.store"),
        ("copy_freed", [np.zeros(4, np.float32)], "memref.copy"),
        ("subview_freed", [], "memref.subview"),
    ],
)
def test_using_a_freed_buffer_is_an_error(name, inputs, op):
    with pytest.raises(InterpretationError) as error:
        run(TRACKING, name, *inputs)
    assert str(error.value).startswith(f"{op}: use of a freed buffer (the buffer of ")


def test_run_function_reports_leaks_but_not_returned_buffers():
    outcome = run(TRACKING, "leaks", np.zeros(4, np.float32))
    # %r is returned, %v through a view, %kept is freed, %a is an alloca.
    assert outcome.leaks == ["shape (4, 4) allocated by memref.alloc %tmp in @leaks"]
    assert run(TRACKING, "make").leaks == []
    assert run(TRACKING, "calls_and_drops").leaks == [
        "shape (4,) allocated by memref.alloc %r in @make"
    ]


# --------------------------------------------------------------------------
# linalg-ext-check: leaks and double frees
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class DropDeallocsPass(ModulePass):
    """A wrong pipeline for the tests: forgets to free."""

    name = "test-drop-deallocs"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for dealloc in [o for o in op.walk() if isinstance(o, memref.DeallocOp)]:
            Rewriter.erase_op(dealloc)


@dataclass(frozen=True)
class FreeTwicePass(ModulePass):
    """A wrong pipeline for the tests: frees every buffer twice."""

    name = "test-free-twice"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for dealloc in [o for o in op.walk() if isinstance(o, memref.DeallocOp)]:
            Rewriter.insert_op(
                memref.DeallocOp.get(dealloc.memref), InsertPoint.after(dealloc)
            )


@dataclass(frozen=True)
class ReplaceModulePass(ModulePass):
    """Replace the module by `text` (stands for a bufferizing pipeline)."""

    name = "test-replace-module"
    text: str = ""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for old in list(op.body.block.ops):
            Rewriter.erase_op(old)
        new = parse_module(self.text)
        for new_op in list(new.body.block.ops):
            new_op.detach()
            op.body.block.add_op(new_op)


FREED = f"""
func.func @f(%x: memref<4x4xf32>, %out: memref<4x4xf32>) {{
  %t = memref.alloc() : memref<4x4xf32>
  linalg.exp ins(%x : memref<4x4xf32>) outs(%t : memref<4x4xf32>)
  linalg.copy ins(%t : memref<4x4xf32>) outs(%out : memref<4x4xf32>)
  memref.dealloc %t : memref<4x4xf32>
  return
}}

func.func @g(%x: {F4}) {{
  %t = memref.alloc() : {F4}
  linalg.exp ins(%x : {F4}) outs(%t : {F4})
  return
}}
"""


def test_check_reports_a_leak_the_pipeline_adds():
    report = check.check_module(parse_module(FREED), [DropDeallocsPass()])
    assert not report.ok
    leaking, already_leaking = report.verdicts
    assert leaking.line() == (
        "@f: LEAK 1 buffer of shape (4, 4) allocated by memref.alloc %t in @f is "
        "never freed (trial 0)"
    )
    # @g leaks before the pipeline as much as after: not the pipeline's doing.
    assert already_leaking.ok
    assert check.check_module(
        parse_module(FREED), [DropDeallocsPass()], allow_leaks=True
    ).ok


def test_check_reports_a_double_free_the_pipeline_adds():
    report = check.check_module(parse_module(FREED), [FreeTwicePass()], entry="f")
    (verdict,) = report.verdicts
    assert verdict.line() == (
        "@f: ERROR cannot run after the pipeline: memref.dealloc: double free of "
        "the buffer of shape (4, 4) allocated by memref.alloc %t in @f"
    )


def test_check_leak_verdicts_list_every_leak():
    source = f"""
    func.func @h(%x: {F4}) {{
      %a = memref.alloc() : {F4}
      %b = memref.alloc() : memref<2xi32>
      memref.dealloc %a : {F4}
      memref.dealloc %b : memref<2xi32>
      %c = memref.alloc() : memref<1xf64>
      return
    }}
    """
    (verdict,) = check.check_module(parse_module(source), [DropDeallocsPass()]).verdicts
    assert verdict.leak == (
        "3 buffers are never freed: one of shape (4,) allocated by memref.alloc %a "
        "in @h; one of shape (2,) allocated by memref.alloc %b in @h; one of shape "
        "(1,) allocated by memref.alloc %c in @h (1 before the pipeline) (trial 0)"
    )


def test_check_command_line_allow_leaks(tmp_path, capsys, monkeypatch):
    path = tmp_path / "freed.mlir"
    path.write_text(FREED)
    from linalg_ext.tools.xdsl_plugin import XDSL_PLUGIN_UNIVERSE

    # The command line finds passes in the merged universes of the environment
    # (ours through the `xdsl.universe` entry point).
    monkeypatch.setitem(
        XDSL_PLUGIN_UNIVERSE.all_passes, "test-drop-deallocs", lambda: DropDeallocsPass
    )
    code = check.main([str(path), "-p", "test-drop-deallocs", "--entry", "f"])
    assert code == check.EXIT_MISMATCH
    assert "@f: LEAK 1 buffer of shape (4, 4)" in capsys.readouterr().out
    code = check.main(
        [str(path), "-p", "test-drop-deallocs", "--entry", "f", "--allow-leaks"]
    )
    assert code == 0
    assert capsys.readouterr().out.strip() == "@f: OK (3 trials)"


def test_check_does_not_compare_tensor_arguments_that_became_buffers():
    before = """
    func.func @f(%t: tensor<4xf32>) -> tensor<4xf32> {
      %r = linalg.exp ins(%t : tensor<4xf32>) outs(%t : tensor<4xf32>) -> tensor<4xf32>
      return %r : tensor<4xf32>
    }
    """
    # Bufferized at the function boundary, writing the result in place.
    after = """
    func.func @f(%t: memref<4xf32>) -> memref<4xf32> {
      linalg.exp ins(%t : memref<4xf32>) outs(%t : memref<4xf32>)
      return %t : memref<4xf32>
    }
    """
    report = check.check_module(parse_module(before), [ReplaceModulePass(after)])
    assert report.ok, report.verdicts[0].line()
    # A memref argument before the pipeline is still compared.
    memref_before = after.replace("linalg.exp", "linalg.negf")
    report = check.check_module(parse_module(memref_before), [ReplaceModulePass(after)])
    mismatch = report.verdicts[0].mismatch
    assert mismatch is not None and mismatch.startswith("in result #0")


# --------------------------------------------------------------------------
# The pass
# --------------------------------------------------------------------------


@pytest.mark.parametrize("path", INPUTS, ids=lambda p: p.stem)
def test_nothing_leaks_after_the_pass_but_what_report_names(path, capsys):
    module = parse_module(path.read_text())
    after = deallocated(module, report=True)
    reported = {
        line.split(": ")[1].removeprefix("@")
        for line in capsys.readouterr().err.splitlines()
    }
    if path.stem not in ("refusals", "blocks"):
        assert not reported
    rng = np.random.default_rng(17)
    for name in function_names(module):
        function = find_function(module, name)
        leaked = 0
        for _ in range(4):
            inputs = random_inputs(function, rng)
            leaked += len(run_function(after, name, inputs).leaks)
        assert leaked == 0 or name in reported, f"@{name} leaks {leaked} buffers"


@pytest.mark.parametrize("path", INPUTS, ids=lambda p: p.stem)
def test_the_pass_is_idempotent(path):
    once = deallocated(parse_module(path.read_text()))
    assert print_module(deallocated(once)) == print_module(once)


def test_the_docs_example():
    import re

    page = (REPO / "docs" / "passes" / "buffer-deallocation-pipeline.md").read_text()
    before, after = re.findall(r"```mlir\n(.*?)```", page, re.S)[:2]
    expected = parse_module(re.sub(r"//.*", "", after))
    assert print_module(deallocated(parse_module(before))) == print_module(expected)


def _deallocs(module: ModuleOp) -> list[str]:
    return [
        str(op.memref.name_hint)
        for op in module.walk()
        if isinstance(op, memref.DeallocOp)
    ]


def test_results_of_an_external_function_are_the_callers():
    source = f"""
    func.func private @external({F4}) -> {F4}
    func.func @f(%x: {F4}, %out: {F4}) {{
      %m = func.call @external(%x) : ({F4}) -> {F4}
      linalg.copy ins(%m : {F4}) outs(%out : {F4})
      return
    }}
    """
    assert _deallocs(deallocated(parse_module(source))) == ["m"]


def test_a_callee_that_frees_its_argument_is_not_followed_by_a_second_free():
    source = f"""
    func.func @consume(%x: {F4}, %out: {F4}) {{
      linalg.copy ins(%x : {F4}) outs(%out : {F4})
      memref.dealloc %x : {F4}
      return
    }}
    func.func @f(%x: {F4}, %out: {F4}) {{
      %t = memref.alloc() : {F4}
      linalg.exp ins(%x : {F4}) outs(%t : {F4})
      func.call @consume(%t, %out) : ({F4}, {F4}) -> ()
      return
    }}
    """
    module = parse_module(source)
    after = deallocated(module)
    assert _deallocs(after) == ["x"]
    report = check.check_module(module, [BufferDeallocationPass()], entry="f")
    assert report.ok, report.verdicts[0].line()


def test_a_recursive_function():
    source = f"""
    func.func @r(%x: {F4}, %n: index) {{
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %t = memref.alloc() : {F4}
      %u = memref.alloc() : {F4}
      linalg.exp ins(%x : {F4}) outs(%u : {F4})
      linalg.copy ins(%u : {F4}) outs(%t : {F4})
      %more = arith.cmpi sgt, %n, %c0 : index
      scf.if %more {{
        %m = arith.subi %n, %c1 : index
        func.call @r(%t, %m) : ({F4}, index) -> ()
      }}
      return
    }}
    """
    module = parse_module(source)
    # @r never frees its argument, so %t is freed after the recursive call.
    assert _deallocs(deallocated(module)) == ["u", "t"]
    assert check.check_module(module, [BufferDeallocationPass()]).ok


def test_a_buffer_passed_to_a_function_the_pass_does_not_follow_is_not_freed(
    capsys,
):
    source = f"""
    func.func @blocks(%x: {F4}, %out: {F4}) {{
      cf.br ^next
    ^next:
      linalg.copy ins(%x : {F4}) outs(%out : {F4})
      return
    }}
    func.func @f(%x: {F4}, %out: {F4}) {{
      %t = memref.alloc() : {F4}
      linalg.exp ins(%x : {F4}) outs(%t : {F4})
      func.call @blocks(%t, %out) : ({F4}, {F4}) -> ()
      return
    }}
    """
    assert _deallocs(deallocated(parse_module(source), report=True)) == []
    assert capsys.readouterr().err.strip() == (
        "buffer-deallocation-pipeline: @f: %t (memref.alloc) not freed: it is "
        "passed to @blocks, which may free it (@blocks has several blocks, which "
        "the pass does not follow)"
    )


def test_a_tensor_made_from_a_buffer_keeps_it_alive():
    source = f"""
    func.func @f(%x: {F4}) -> f32 {{
      %c1 = arith.constant 1 : index
      %t = memref.alloc() : {F4}
      linalg.exp ins(%x : {F4}) outs(%t : {F4})
      %v = bufferization.to_tensor %t : {F4} to tensor<4xf32>
      linalg.negf ins(%x : {F4}) outs(%x : {F4})
      %s = tensor.extract %v[%c1] : tensor<4xf32>
      return %s : f32
    }}
    """
    module = parse_module(source)
    after = deallocated(module)
    function = find_function(after, "f")
    ops = [op.name for op in function.body.block.ops]
    # Freed after the tensor's last use, not after the buffer's.
    assert ops[-3:] == ["tensor.extract", "memref.dealloc", "func.return"]
    assert check.check_module(module, [BufferDeallocationPass()]).ok


# --------------------------------------------------------------------------
# Random programs (dealloc_programs.mixed_program): allocations, views,
# loops, branches and calls mixed at random. After the pass: same results,
# no double free, no use after free, idempotent, and no leak.
# --------------------------------------------------------------------------


@pytest.mark.parametrize("chunk", range(4))
def test_random_programs(chunk, capsys):
    for seed in range(chunk * 40, chunk * 40 + 40):
        text = mixed_program(seed)
        module = parse_module(text)
        after = deallocated(module, report=True)
        refused = capsys.readouterr().err
        assert print_module(deallocated(after)) == print_module(after), seed
        rng = np.random.default_rng(seed)
        function = find_function(module, "f")
        for _ in range(3):
            inputs = random_inputs(function, rng)
            expected = run_function(module, "f", copied(inputs))
            try:
                actual = run_function(after, "f", copied(inputs))
            except InterpretationError as error:
                pytest.fail(f"seed {seed}: {error}\n{print_module(after)}")
            difference = compare_values(
                expected.results, actual.results, "result"
            ) or compare_values(expected.arguments, actual.arguments, "argument")
            assert difference is None, f"seed {seed}: {difference}"
            # Run-time ownership flags: nothing leaks.
            assert not actual.leaks, (seed, actual.leaks, refused)


# --------------------------------------------------------------------------
# Upstream MLIR
# --------------------------------------------------------------------------

needs_mlir_opt = pytest.mark.skipif(
    shutil.which("mlir-opt-22") is None, reason="mlir-opt-22 is not installed"
)


@needs_mlir_opt
@pytest.mark.parametrize("path", INPUTS, ids=lambda p: p.stem)
def test_mlir_opt_accepts_the_output(path):
    text = print_module(deallocated(parse_module(path.read_text())))
    result = subprocess.run(
        ["mlir-opt-22", "--verify-each"], input=text, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.count("memref.dealloc") == text.count("memref.dealloc")


NATIVE_RUN = """
import sys
import numpy as np
from helpers import parse_module, print_module
from linalg_ext.comparison import compare_values
from linalg_ext.context import make_context
from linalg_ext.passes.buffer_deallocation import BufferDeallocationPass
from linalg_ext.running import find_function, random_inputs, run_function
from linalg_ext.upstream import run_upstream

module = parse_module(open(sys.argv[1]).read())
after = module.clone()
BufferDeallocationPass().apply(make_context(), after)
text = print_module(after)
for name in sys.argv[2:]:
    rng = np.random.default_rng(23)
    for _ in range(2):
        inputs = random_inputs(find_function(module, name), rng)
        ours = run_function(module, name, [np.copy(v) for v in inputs])
        theirs = run_upstream(text, after, name, inputs)
        difference = compare_values(ours.results, theirs.results, "result")
        difference = difference or compare_values(
            ours.arguments, theirs.arguments, "argument"
        )
        if difference:
            print(f"@{name}: {difference}")
            sys.exit(3)
print("ok")
"""


@needs_mlir_opt
@pytest.mark.skipif(
    shutil.which("mlir-translate-22") is None, reason="mlir-translate-22 is missing"
)
@pytest.mark.parametrize("path", INPUTS, ids=lambda p: p.stem)
def test_the_output_compiled_by_upstream_runs_and_agrees(path):
    """In a separate process: a double free in native code aborts it."""
    names = function_names(parse_module(path.read_text()))
    result = subprocess.run(
        [sys.executable, "-c", NATIVE_RUN, str(path), *names],
        capture_output=True,
        text=True,
        cwd=Path(__file__).parent,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.strip() == "ok"
