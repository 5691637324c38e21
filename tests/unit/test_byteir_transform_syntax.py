"""ByteIR's transform scripts, as written (`linalg_ext.compat.transform_sequence`,
`linalg_ext.transform_ops.byteir_ops`, the pass `transform-dialect-interpreter`).

- `transform.sequence` with MLIR's syntax: round trips, the implicit
  `transform.yield`, MLIR's generic form both ways, mlir-opt-22 reading what
  we print (skipped without it), MLIR's verifier messages;
- `!pdl.operation` handles accepted by every transform op the scripts use;
  bare op names inside a sequence;
- `transform.structured.fuse` in the older attribute-dictionary form;
- `fuse_ext` / `fuse_operands`: ByteIR's syntax, results, verifier;
- the pass: executed before/after (`check_module`), `failures(suppress)`,
  `erase-after`, a failure as one located line with the module unchanged.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from xdsl.dialects import pdl, scf, transform
from xdsl.dialects.builtin import ModuleOp, StringAttr
from xdsl.utils.exceptions import ParseError, VerifyException

from helpers import REPO, parse_module, print_module
from linalg_ext.compat.transform_sequence import SequenceOp
from linalg_ext.context import make_context
from linalg_ext.tools.check import check_module, parse_pipeline
from linalg_ext.transform_ops.byteir_ops import FuseExtOp, FuseOperandsOp
from linalg_ext.transform_ops.ops import FuseOp

PASS = "transform-dialect-interpreter"
HAS_MLIR_OPT = shutil.which("mlir-opt-22") is not None
needs_mlir_opt = pytest.mark.skipif(
    not HAS_MLIR_OPT, reason="mlir-opt-22 is not installed"
)

SEQUENCES = """\
transform.sequence failures(propagate) {
^bb0(%arg0: !pdl.operation):
  %0 = transform.structured.match ops{["linalg.matmul"]} attributes {__root__} in %arg0 : (!pdl.operation) -> !pdl.operation
  %1 = transform.cast %0 : !pdl.operation to !transform.any_op
  transform.sequence %1 : !transform.any_op failures(suppress) {
  ^bb1(%arg1: !transform.any_op):
  }
  %2 = transform.sequence %1, %0 : !transform.any_op, !pdl.operation -> !transform.any_op failures(suppress) attributes {tag = "inner"} {
  ^bb1(%arg1: !transform.any_op, %arg2: !pdl.operation):
    transform.yield %arg1 : !transform.any_op
  }
}
transform.sequence failures(suppress) {
^bb0(%arg0: !transform.any_op):
}
"""


def sequences(module: ModuleOp) -> list[SequenceOp]:
    return [op for op in module.walk() if isinstance(op, SequenceOp)]


# --------------------------------------------------------------------------
# transform.sequence


def test_sequence_round_trip_and_implicit_terminator():
    module = parse_module(SEQUENCES)
    outer, empty_inner, inner, top_suppress = sequences(module)
    # The terminator is there although the text has none...
    for sequence in (outer, empty_inner, top_suppress):
        assert isinstance(sequence.body.block.last_op, transform.YieldOp)
        assert not sequence.body.block.last_op.operands
    assert [o.name for o in outer.body.block.ops][-1] == "transform.yield"
    assert len(inner.results) == 1 and inner.attributes["tag"] == StringAttr("inner")
    assert [s.mode.value for s in (outer, empty_inner, top_suppress)] == [
        "propagate",
        "suppress",
        "suppress",
    ]
    printed = print_module(module)
    # ...and printed only when it yields something.
    assert printed.count("transform.yield") == 1
    assert "transform.sequence failures(propagate) {\n" in printed
    assert (
        "%2 = transform.sequence %1, %0 : (!transform.any_op, !pdl.operation) "
        '-> !transform.any_op failures(suppress) attributes {tag = "inner"} {'
    ) in printed
    assert parse_module(printed).is_structurally_equivalent(module)
    generic = print_module(module, generic=True)
    assert "failure_propagation_mode = 1 : i32" in generic
    assert "failure_propagation_mode = 2 : i32" in generic
    assert parse_module(generic).is_structurally_equivalent(module)


def test_bare_op_names_in_a_sequence_are_transform_ops():
    module = parse_module(
        """\
transform.sequence failures(propagate) {
^bb0(%arg0: !pdl.operation):
  %0 = cast %arg0 : !pdl.operation to !transform.any_op
  %1 = sequence %0 : !transform.any_op -> !transform.any_op failures(propagate) {
  ^bb1(%arg1: !transform.any_op):
    yield %arg1 : !transform.any_op
  }
  yield
}
"""
    )
    names = [op.name for op in module.walk()][1:]
    assert names == [
        "transform.sequence",
        "transform.cast",
        "transform.sequence",
        "transform.yield",
        "transform.yield",
    ]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "transform.sequence failures(propagate) {\n}",
            "'transform.sequence' op expects the entry block to have at least one argument",
        ),
        (
            "transform.sequence failures(propagate) {\n^bb0(%a: !pdl.operation):\n"
            "  transform.sequence failures(propagate) {\n  ^bb1(%b: !pdl.operation):\n  }\n}",
            "'transform.sequence' op expects operands to be provided for a nested op",
        ),
        (
            "%0 = transform.sequence -> !pdl.operation failures(propagate) {\n"
            "^bb0(%a: !pdl.operation):\n  transform.yield\n}",
            "'transform.sequence' op expects the types of the terminator operands "
            "to match the types of the result",
        ),
        (
            "transform.sequence failures(propagate) {\n^bb0(%a: !pdl.operation):\n"
            "  %c = arith.constant 1.0 : f32\n}",
            "'transform.sequence' op expected children ops to implement TransformOpInterface",
        ),
        (
            "transform.sequence failures(propagate) {\n^bb0(%a: !pdl.operation):\n"
            "  transform.sequence %a : !pdl.operation failures(propagate) {\n"
            "  ^bb1(%b: !transform.any_op):\n  }\n}",
            "'transform.sequence' op expects the type of the block argument to "
            "match the type of the operand",
        ),
        (
            "transform.sequence failures(propagate) {\n^bb0(%a: i32):\n}",
            "'transform.sequence' op expects the first entry block argument to be "
            "of type implementing TransformHandleTypeInterface",
        ),
    ],
)
def test_sequence_verifier_says_what_mlir_says(text, message):
    with pytest.raises(VerifyException, match=re.escape(message)):
        parse_module(text)


def test_unknown_failure_mode_is_refused():
    with pytest.raises(ParseError, match=r"\[propagate, suppress\]"):
        parse_module(
            "transform.sequence failures(fail) {\n^bb0(%a: !pdl.operation):\n}"
        )


@needs_mlir_opt
def test_mlir_opt_and_we_read_each_other():
    printed = print_module(parse_module(SEQUENCES))
    for flags in ([], ["--mlir-print-op-generic"]):
        done = subprocess.run(
            ["mlir-opt-22", *flags], input=printed, capture_output=True, text=True
        )
        assert done.returncode == 0, done.stderr
        assert parse_module(done.stdout).is_structurally_equivalent(
            parse_module(SEQUENCES)
        )


def test_xdsl_without_our_package_is_unchanged():
    code = (
        "from xdsl.dialects import pdl, transform\n"
        "assert transform.SequenceOp in transform.Transform.operations\n"
        "assert not isinstance(pdl.OperationType(), transform.TransformHandleType)\n"
        "import linalg_ext.compat as compat\n"
        "compat.install()\n"
        "from linalg_ext.compat.transform_sequence import SequenceOp\n"
        "assert SequenceOp in transform.Transform.operations\n"
        "assert transform.SequenceOp not in transform.Transform.operations\n"
        "assert isinstance(pdl.OperationType(), transform.AnyOpType)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO
    )
    assert done.returncode == 0, done.stderr


# --------------------------------------------------------------------------
# !pdl.operation handles in every op the scripts use

PDL_SCRIPT = """\
transform.sequence failures(propagate) {
^bb0(%root: !pdl.operation):
  %0 = transform.structured.match ops{["linalg.generic"]} in %root : (!pdl.operation) -> !pdl.operation
  %a, %b = transform.split_handle %0 : (!pdl.operation) -> (!pdl.operation, !pdl.operation)
  %m = transform.merge_handles %a, %b : !pdl.operation
  %t, %l:2 = transform.structured.tile_using_for %m tile_sizes [2, 3] : (!pdl.operation) -> (!pdl.operation, !pdl.operation, !pdl.operation)
  %f, %fl = transform.structured.fuse %b {tile_sizes = [4, 0]} : (!pdl.operation) -> (!pdl.operation, !pdl.operation)
  %p, %c = transform.structured.fuse_into_containing_op %a into %fl : (!pdl.operation, !pdl.operation) -> (!pdl.operation, !pdl.operation)
  %loop = transform.cast %l#0 : !pdl.operation to !transform.op<"scf.for">
  %main, %rest = transform.loop.peel %loop : (!transform.op<"scf.for">) -> (!pdl.operation, !pdl.operation)
  %x, %xl = transform.structured.fuse_ext %a, %b {tile_sizes = [2]}
}
"""


def test_pdl_handles_verify_in_every_op():
    module = parse_module(PDL_SCRIPT)
    handles = [
        value
        for op in module.walk()
        if op.name.startswith("transform.") and not isinstance(op, SequenceOp)
        for value in (*op.operands, *op.results)
    ]
    assert len(handles) > 20
    assert all(
        isinstance(v.type, pdl.OperationType | transform.OperationType) for v in handles
    )
    assert parse_module(print_module(module)).is_structurally_equivalent(module)


# --------------------------------------------------------------------------
# transform.structured.fuse, ByteIR's form


def script_ops(text: str) -> list:
    return [
        op for op in parse_module(text).walk() if op.name.startswith("transform.s")
    ][1:]


def test_old_fuse_form_means_the_new_one():
    old, new = script_ops(
        """\
transform.sequence failures(propagate) {
^bb0(%arg0: !pdl.operation):
  %1, %loops:2 = transform.structured.fuse %arg0 {tile_sizes = [32, 0, 32], tile_interchange = [2, 1, 0]} :
    (!pdl.operation) -> (!pdl.operation, !pdl.operation, !pdl.operation)
  %2, %loops2:2 = transform.structured.fuse %arg0 tile_sizes [32, 0, 32] interchange [2, 1, 0] : (!pdl.operation) -> (!pdl.operation, !pdl.operation, !pdl.operation)
}
"""
    )
    assert isinstance(old, FuseOp) and isinstance(new, FuseOp)
    assert old.properties == new.properties and not old.attributes
    text = print_module(ModuleOp([old.clone()]))
    assert "tile_sizes [32, 0, 32] interchange [2, 1, 0] :" in text


def test_old_fuse_form_refuses_sizes_given_twice():
    with pytest.raises(ParseError, match="'tile_sizes' given twice"):
        parse_module(
            "transform.sequence failures(propagate) {\n^bb0(%a: !pdl.operation):\n"
            "  %1, %l = transform.structured.fuse %a tile_sizes [4] {tile_sizes = [4]}"
            " : (!pdl.operation) -> (!pdl.operation, !pdl.operation)\n}"
        )


# --------------------------------------------------------------------------
# fuse_ext / fuse_operands

BYTEIR_OPS = """\
transform.sequence failures(propagate) {
^bb0(%arg0: !pdl.operation):
  %0 = transform.structured.match attributes {__root__} in %arg0 : (!pdl.operation) -> !pdl.operation
  %1 = transform.structured.match attributes {__stop__} in %arg0 : (!pdl.operation) -> !pdl.operation
  %2, %3 = transform.structured.fuse_ext %0, %1 {tile_interchange = [], tile_sizes = [4]}
  %4, %5:2 = transform.structured.fuse_ext %0 {keep_intermediates = true, tile_interchange = [2, 1, 0], tile_sizes = [4, 0, 8]}
  %6 = transform.structured.fuse_ext %0 {tile_sizes = [0, 0]}
  %7, %8:2 = transform.structured.fuse_operands %0 {expect_whole_graph_fusion = true, tile_interchange = [0, 1, 2], tile_nums = [2, 1, 4], use_distributed = [0, 0, 0]}
  %9 = transform.structured.fuse_operands %0 {tile_nums = [1, 1]}
}
"""


def test_fuse_ext_and_fuse_operands_print_as_written():
    module = parse_module(BYTEIR_OPS)
    printed = print_module(module)
    # (xDSL names each result: `%5:2` prints as `%5, %6`.)
    for line in BYTEIR_OPS.splitlines()[4:-1]:
        assert line.split(" = ", 1)[1] in printed, line
    fuse_ext = [op for op in module.walk() if isinstance(op, FuseExtOp)]
    assert [len(op.loops) for op in fuse_ext] == [1, 2, 0]
    assert fuse_ext[0].stop is not None and fuse_ext[1].stop is None
    assert fuse_ext[1].sizes == (4, 0, 8) and fuse_ext[1].interchange == (2, 1, 0)
    assert fuse_ext[1].keeps_intermediates and not fuse_ext[0].keeps_intermediates
    assert all(isinstance(r.type, pdl.OperationType) for r in fuse_ext[1].results)
    fuse_operands = [op for op in module.walk() if isinstance(op, FuseOperandsOp)]
    assert [len(op.loops) for op in fuse_operands] == [2, 0]
    assert fuse_operands[0].nums == (2, 1, 4)
    assert fuse_operands[0].expects_whole_graph_fusion
    assert parse_module(print_module(module, generic=True)).is_structurally_equivalent(
        module
    )


def test_keep_intermediates_false_is_not_printed():
    module = parse_module(
        BYTEIR_OPS.replace("keep_intermediates = true", "keep_intermediates = false")
    )
    assert "keep_intermediates" not in print_module(module)


def test_constructors_build_what_the_parser_builds():
    module = parse_module(BYTEIR_OPS)
    root, stop = [op for op in module.walk() if isinstance(op, transform.MatchOp)]
    built = FuseExtOp(root.result, stop.result, [4, 0, 8], [2, 1, 0], True)
    assert len(built.loops) == 2 and built.stop is stop.result
    assert built.keeps_intermediates and built.interchange == (2, 1, 0)
    built.verify()
    operands = FuseOperandsOp(root.result, [2, 1, 4], [0, 1, 2], True)
    assert len(operands.loops) == 2 and operands.expects_whole_graph_fusion
    operands.verify()
    parsed = [op for op in module.walk() if isinstance(op, FuseExtOp)][1]
    assert built.properties == parsed.properties


@pytest.mark.parametrize(
    ("op_text", "error", "message"),
    [
        (
            "%1, %l:2 = transform.structured.fuse_ext %arg0 {tile_sizes = [4, 4], tile_interchange = [1, 1]}",
            VerifyException,
            "'transform.structured.fuse_ext' op expects interchange to be a permutation, found [1, 1]",
        ),
        (
            "%1 = transform.structured.fuse_operands %arg0 {tile_nums = [1, 1], tile_interchange = [0, 2]}",
            VerifyException,
            "'transform.structured.fuse_operands' op expects interchange to be a permutation, found [0, 2]",
        ),
        (
            "%1, %l = transform.structured.fuse_ext %arg0 {tile_interchange = [0]}",
            ParseError,
            "expected 'tile_sizes' attribute",
        ),
        (
            "%1, %l = transform.structured.fuse_ext %arg0 {tile_sizes = 4}",
            ParseError,
            "'tile_sizes' attribute must be an array",
        ),
        (
            "%1 = transform.structured.fuse_operands %arg0 {tile_interchange = [0]}",
            ParseError,
            "expected 'tile_nums' attribute",
        ),
        (
            '%1 = "transform.structured.fuse_ext"(%arg0) <{tile_sizes = [4]}> : (!pdl.operation) -> !pdl.operation',
            VerifyException,
            "'transform.structured.fuse_ext' op expects 1 loop results, got 0",
        ),
    ],
)
def test_fuse_ext_and_fuse_operands_refuse(op_text, error, message):
    text = (
        "transform.sequence failures(propagate) {\n"
        f"^bb0(%arg0: !pdl.operation):\n  {op_text}\n}}"
    )
    with pytest.raises(error, match=re.escape(message)):
        parse_module(text)


# --------------------------------------------------------------------------
# The pass

PAYLOAD = """\
#id = affine_map<(i, j) -> (i, j)>
func.func @chain(%a: tensor<8x6xf32>, %b: tensor<6x10xf32>) -> tensor<8x10xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x10xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%e : tensor<8x10xf32>) -> tensor<8x10xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<8x6xf32>, tensor<6x10xf32>) outs(%fill : tensor<8x10xf32>) -> tensor<8x10xf32>
  %out = tensor.empty() : tensor<8x10xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%mm : tensor<8x10xf32>) outs(%out : tensor<8x10xf32>) attrs = {__root__} {
  ^bb0(%x: f32, %o: f32):
    %m = arith.maximumf %x, %zero : f32
    linalg.yield %m : f32
  } -> tensor<8x10xf32>
  return %r : tensor<8x10xf32>
}
"""

SCRIPT = """\
transform.sequence failures({mode}) {{
^bb0(%arg0: !pdl.operation):
  %0 = transform.structured.match attributes {{__root__}} in %arg0 : (!pdl.operation) -> !pdl.operation
  %1, %loops:2 = transform.structured.fuse %0 {{tile_sizes = [4, 5], tile_interchange = [1, 0]}} : (!pdl.operation) -> (!pdl.operation, !pdl.operation, !pdl.operation)
  %2 = transform.structured.match ops{{["linalg.matmul"]}} in %arg0 : (!pdl.operation) -> !pdl.operation
  {middle}
  %3, %inner:2 = transform.structured.tile_using_for %2 tile_sizes [2, 0, 3] : (!pdl.operation) -> (!pdl.operation, !pdl.operation, !pdl.operation)
}}
"""


def run_pass(text: str, pipeline: str = PASS) -> ModuleOp:
    module = parse_module(text)
    parse_pipeline(pipeline).apply(make_context(), module)
    module.verify()
    return module


def loops_of(module: ModuleOp) -> list[scf.ForOp]:
    return [op for op in module.walk() if isinstance(op, scf.ForOp)]


def test_the_pass_runs_the_script_and_keeps_the_meaning():
    text = PAYLOAD + SCRIPT.format(mode="propagate", middle="")
    module = run_pass(text)
    # fuse made 2 loops (the matmul fused into them), tile_using_for 2 more
    # around the fused matmul; the script stays (erase-after is false).
    assert len(loops_of(module)) == 4
    assert len(sequences(module)) == 1
    (matmul,) = [op for op in module.walk() if op.name == "linalg.matmul"]
    assert len([p for p in _ancestors(matmul) if isinstance(p, scf.ForOp)]) == 4
    report = check_module(parse_module(text), PASS, trials=2, seed=3)
    assert report.ok, "\n".join(v.line() for v in report.verdicts)
    erased = f"{PASS}{{erase-after=true}}"
    report = check_module(parse_module(text), erased, trials=1, backend="jit")
    assert report.ok, "\n".join(v.line() for v in report.verdicts)


def _ancestors(op):
    parent = op.parent_op()
    while parent is not None:
        yield parent
        parent = parent.parent_op()


FAILING = (
    '%peel = transform.cast %loops#0 : !pdl.operation to !transform.op<"scf.for">\n'
    '  %main, %rest = transform.loop.peel %peel : (!transform.op<"scf.for">) '
    "-> (!pdl.operation, !pdl.operation)"
)
"""A peel of a loop without a partial step (10 by 5): a failure."""


def test_suppress_goes_on_after_a_failing_op():
    module = run_pass(PAYLOAD + SCRIPT.format(mode="suppress", middle=FAILING))
    assert len(loops_of(module)) == 4


def test_propagate_stops_and_leaves_the_module_as_it_was():
    from linalg_ext.diagnostics import OpPassFailed

    text = PAYLOAD + SCRIPT.format(mode="propagate", middle=FAILING)
    module = parse_module(text)
    before = print_module(module)
    with pytest.raises(OpPassFailed, match="'transform.loop.peel' op"):
        parse_pipeline(PASS).apply(make_context(), module)
    assert print_module(module) == before


def test_erase_after_erases_every_transform_op():
    module = run_pass(
        PAYLOAD + SCRIPT.format(mode="propagate", middle=""),
        f"{PASS}{{erase-after=true}}",
    )
    assert not [op for op in module.walk() if op.name.startswith("transform.")]
    assert len(loops_of(module)) == 4


def test_nested_sequence_runs_on_its_root_and_yields():
    script = """\
transform.sequence failures(propagate) {
^bb0(%arg0: !pdl.operation):
  %0 = transform.structured.match attributes {__root__} in %arg0 : (!pdl.operation) -> !pdl.operation
  %1 = sequence %0 : !pdl.operation -> !pdl.operation failures(propagate) {
  ^bb1(%arg1: !pdl.operation):
    %t, %l = transform.structured.tile_using_for %arg1 tile_sizes [4] : (!pdl.operation) -> (!pdl.operation, !pdl.operation)
    yield %t : !pdl.operation
  }
  %2, %3 = transform.structured.tile_using_for %1 tile_sizes [0, 5] : (!pdl.operation) -> (!pdl.operation, !pdl.operation)
}
"""
    module = run_pass(PAYLOAD + script)
    assert len(loops_of(module)) == 2


def test_a_failure_is_one_located_line(tmp_path):
    path = tmp_path / "failing.mlir"
    text = PAYLOAD + SCRIPT.format(mode="propagate", middle=FAILING)
    path.write_text(text)
    done = subprocess.run(
        [str(Path(sys.executable).parent / "linalg-ext-opt"), "-p", PASS, str(path)],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 1
    assert done.stdout == "" and "Traceback" not in done.stderr
    lines = done.stderr.splitlines()
    assert len(lines) == 1, done.stderr
    line = 1 + text.splitlines().index("  " + FAILING.splitlines()[1].strip())
    assert lines[0].startswith(f"{path}:{line}:"), lines[0]
    assert "'transform.loop.peel' op" in lines[0]
