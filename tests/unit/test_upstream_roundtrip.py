"""What `mlir-opt-22` prints, we read back, verify and (where it runs) run.

Our own programs of each kind (linalg/tensor programs, one-shot-bufferize
inputs, memref programs, scf and scalar programs: the valid inputs of the
FileCheck suite listed in `CORPUS`, split at `// -----`) go through the
upstream pipelines we compare against (`PIPELINES`). Each output must parse
with `linalg_ext.context.make_context()` and verify. For the pipelines whose
output stays at the tensor/memref level (`EXECUTABLE`), every function is
also run before and after on random inputs (`linalg_ext.running`), and must
compute the same results (and write the same values into its memref
arguments, when they were memrefs before too).

Skipped: without mlir-opt-22; inputs with `linalg_ext` ops or MLIR 19's
`linalg.elemwise_unary`/`binary` (upstream does not know them), inputs our context cannot read, and inputs mlir-opt-22 rejects
(each with the reason). Functions whose reference run fails on random inputs
(an out-of-range index, say) are not compared.
"""

from __future__ import annotations

import ast
import functools
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from xdsl.dialects import func
from xdsl.dialects.builtin import MemRefType, ModuleOp
from xdsl.parser import Parser
from xdsl.utils.exceptions import InterpretationError

from helpers import REPO
from linalg_ext.comparison import compare_values
from linalg_ext.context import make_context
from linalg_ext.running import random_inputs, run_function

MLIR_OPT = shutil.which("mlir-opt-22")
pytestmark = pytest.mark.skipif(MLIR_OPT is None, reason="mlir-opt-22 is not installed")


def _bench_pipeline() -> str:
    """`UPSTREAM_PIPELINE` of bench/native_bench.py (read, not imported: the
    bench module loads the JIT)."""
    tree = ast.parse((REPO / "bench" / "native_bench.py").read_text())
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "UPSTREAM_PIPELINE"
            for t in node.targets
        ):
            return ast.literal_eval(node.value)
    raise AssertionError("bench/native_bench.py has no UPSTREAM_PIPELINE")


BUFFERIZE = "--one-shot-bufferize=bufferize-function-boundaries"
PIPELINES: dict[str, tuple[str, ...]] = {
    "bufferize": ("--one-shot-bufferize",),
    "bufferize-boundaries": (BUFFERIZE,),
    "deallocation": (BUFFERIZE, "--buffer-deallocation-pipeline"),
    "canonicalize": ("--canonicalize",),
    "cse": ("--cse",),
    "bufferize-canonicalize": (BUFFERIZE, "--canonicalize", "--cse"),
    "llvm": (
        BUFFERIZE,
        "--convert-linalg-to-loops",
        "--convert-scf-to-cf",
        "--expand-strided-metadata",
        "--finalize-memref-to-llvm",
        "--convert-arith-to-llvm",
        "--convert-cf-to-llvm",
        "--convert-func-to-llvm",
        "--reconcile-unrealized-casts",
    ),
    "bench": (f"--pass-pipeline={_bench_pipeline()}",),
}
"""Name -> mlir-opt-22 arguments. `llvm` is the issue's lowering (after
bufferization, so that tensor programs reach it too); `bench` the pipeline
bench/native_bench.py compares against."""

EXECUTABLE = frozenset(
    {
        "bufferize",
        "bufferize-boundaries",
        "deallocation",
        "canonicalize",
        "cse",
        "bufferize-canonicalize",
    }
)
"""Pipelines whose output the interpreter runs (not the llvm dialect)."""

FILECHECK = REPO / "tests" / "filecheck"
CORPUS: tuple[tuple[str, tuple[str, ...]], ...] = (
    # linalg/tensor programs
    (
        "compat/*.mlir",
        ("bufferize-boundaries", "canonicalize", "cse", "bench"),
    ),
    ("passes/linalg-fuse-elementwise-ext/*.mlir", ("bufferize-canonicalize",)),
    ("passes/fuse-pad/*.mlir", ("bufferize-boundaries",)),
    ("passes/eliminate-empty-tensors/*.mlir", ("deallocation",)),
    # one-shot-bufferize inputs
    (
        "passes/one-shot-bufferize/*.mlir",
        ("bufferize", "bufferize-boundaries", "deallocation"),
    ),
    # memref programs
    ("passes/buffer-deallocation-pipeline/*.mlir", ("deallocation", "llvm")),
    ("passes/finalize-memref-to-llvm/**/*.mlir", ("llvm", "canonicalize")),
    ("passes/convert-linalg-to-loops-ext/*.mlir", ("llvm",)),
    # scf and affine programs
    ("passes/convert-scf-to-cf-ext/*.mlir", ("canonicalize", "cse", "llvm")),
    ("passes/lower-affine-ext/*.mlir", ("canonicalize", "bench")),
    # scalar programs
    ("passes/convert-arith-to-llvm/*.mlir", ("llvm",)),
    ("passes/convert-math-to-llvm/*.mlir", ("bench",)),
)
"""FileCheck inputs (globs under tests/filecheck) and the pipelines each goes
through."""

INLINE: dict[str, tuple[str, tuple[str, ...]]] = {
    # Dynamic shapes: upstream's bufferization and lowering of these bring
    # memref.cast, memref.copy, semi-affine maps, extract_strided_metadata.
    "dynamic_tensor_program": (
        """
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @dynamic(%a: tensor<?x?xf32>, %b: tensor<?x?xf32>, %x: f32) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tensor.dim %a, %c0 : tensor<?x?xf32>
  %m = tensor.dim %a, %c1 : tensor<?x?xf32>
  %e = tensor.empty(%n, %m) : tensor<?x?xf32>
  %r = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%a, %b : tensor<?x?xf32>, tensor<?x?xf32>) outs(%e : tensor<?x?xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %s = arith.remf %p, %q : f32
    linalg.yield %s : f32
  } -> tensor<?x?xf32>
  %rows = arith.subi %n, %c1 : index
  %s = tensor.extract_slice %r[1, 1] [%rows, 2] [1, 1] : tensor<?x?xf32> to tensor<?x2xf32>
  %p = tensor.pad %s low[0, 1] high[1, 0] {
  ^bb0(%i: index, %j: index):
    tensor.yield %x : f32
  } : tensor<?x2xf32> to tensor<?x3xf32>
  %f = tensor.from_elements %x, %x : tensor<2xf32>
  %v = tensor.extract %f[%c1] : tensor<2xf32>
  %ins = tensor.insert %v into %p[%c0, %c0] : tensor<?x3xf32>
  %flat = tensor.collapse_shape %ins [[0, 1]] : tensor<?x3xf32> into tensor<?xf32>
  %back = tensor.expand_shape %flat [[0, 1]] output_shape [%n, 3] : tensor<?xf32> into tensor<?x3xf32>
  %c = tensor.cast %back : tensor<?x3xf32> to tensor<?x?xf32>
  return %c : tensor<?x?xf32>
}
""",
        ("bufferize-boundaries", "deallocation", "canonicalize", "llvm", "bench"),
    ),
    # A loop carrying a tensor, and unsigned index casts.
    "while_loop": (
        """
func.func @loop(%t: tensor<4xf32>, %k: i8) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.index_castui %k : i8 to index
  %bound = arith.minui %n, %c1 : index
  %r:2 = scf.while (%i = %c0, %acc = %t) : (index, tensor<4xf32>) -> (index, tensor<4xf32>) {
    %go = arith.cmpi ult, %i, %bound : index
    scf.condition(%go) %i, %acc : index, tensor<4xf32>
  } do {
  ^bb0(%i: index, %acc: tensor<4xf32>):
    %v = tensor.extract %acc[%c0] : tensor<4xf32>
    %w = arith.addf %v, %v : f32
    %u = tensor.insert %w into %acc[%c1] : tensor<4xf32>
    %j = arith.addi %i, %c1 : index
    scf.yield %j, %u : index, tensor<4xf32>
  }
  return %r#1 : tensor<4xf32>
}
""",
        ("bufferize-boundaries", "deallocation", "canonicalize", "llvm"),
    ),
}
"""Programs written here for what the corpus lacks (name -> text,
pipelines)."""

NOT_INPUTS = ("error", "invalid", "refusal", "diag")
"""Files whose names say they hold programs meant to be refused."""

XFAILS: dict[tuple[str, str], str] = {
    ("compat/map.mlir#0", "bufferize-boundaries"): (
        "upstream bug, not ours to read: MLIR 22's one-shot-bufferize gives the "
        "result of a linalg.map whose mapper reads its init element (@region_form, "
        "%accumulated) a fresh uninitialized buffer instead of a copy of the init, "
        "while its own linalg-generalize-named-ops reads the init there"
    ),
}
"""(input id, pipeline) -> why its output cannot be read back yet (out of
this suite's scope)."""


def _chunks() -> Iterator[tuple[str, str]]:
    seen: set[Path] = set()
    for pattern, _ in CORPUS:
        for path in sorted(FILECHECK.glob(pattern)):
            if path in seen or any(word in path.name for word in NOT_INPUTS):
                continue
            seen.add(path)
            for index, text in enumerate(path.read_text().split("// -----")):
                if "linalg_ext." in text or "func.func" not in text:
                    continue
                if "linalg.elemwise_" in text:  # MLIR 19's, gone from MLIR 22
                    continue
                yield f"{path.relative_to(FILECHECK)}#{index}", text


def _inputs() -> Iterator[tuple[str, str, tuple[str, ...]]]:
    """(input id, text, pipelines) of every input."""
    pipelines_of = {
        path: names
        for pattern, names in reversed(CORPUS)
        for path in FILECHECK.glob(pattern)
    }
    for input_id, text in _chunks():
        yield input_id, text, pipelines_of[FILECHECK / input_id.split("#")[0]]
    for name, (text, pipelines) in INLINE.items():
        yield name, text, pipelines


def _cases() -> list[object]:
    cases: list[object] = []
    for input_id, text, pipelines in _inputs():
        for pipeline in pipelines:
            reason = XFAILS.get((input_id, pipeline))
            marks = [pytest.mark.xfail(reason=reason, strict=True)] if reason else []
            cases.append(
                pytest.param(
                    input_id, text, pipeline, marks=marks, id=f"{input_id}-{pipeline}"
                )
            )
    return cases


def parse(text: str) -> ModuleOp:
    module = Parser(make_context(), text).parse_module()
    module.verify()
    return module


@functools.cache
def parsed_input(text: str) -> ModuleOp | str:
    """The input, or why we cannot read it."""
    try:
        return parse(text)
    except Exception as error:  # noqa: BLE001 (any parse or verify failure)
        return f"our context does not read the input: {str(error).splitlines()[-1]}"


UPSTREAM_REJECTS = {
    (
        "passes/one-shot-bufferize/scf_for_return_allocs.mlir#0",
        "bufferize",
    ): "Yield operand #0 is not equivalent to the corresponding iter bbArg",
    (
        "passes/one-shot-bufferize/scf_for_return_allocs.mlir#0",
        "bufferize-boundaries",
    ): "Yield operand #0 is not equivalent to the corresponding iter bbArg",
    (
        "passes/one-shot-bufferize/scf_for_return_allocs.mlir#0",
        "deallocation",
    ): "Yield operand #0 is not equivalent to the corresponding iter bbArg",
    (
        "passes/buffer-deallocation-pipeline/idempotence.mlir#0",
        "deallocation",
    ): "memory free side-effect on MemRef value not supported",
    (
        "passes/convert-scf-to-cf-ext/execute_region.mlir#0",
        "llvm",
    ): "op without unique scf.yield is not supported",
    ("passes/convert-arith-to-llvm/casts.mlir#0", "llvm"): "'arith.bitcast' op result",
    (
        "compat/upstream_test_syntax.mlir#3",
        "bufferize-boundaries",
    ): "op was not bufferized",
    ("compat/upstream_test_syntax.mlir#3", "bench"): "op was not bufferized",
    (
        "passes/finalize-memref-to-llvm/memory_space.mlir#0",
        "llvm",
    ): "'llvm.call' op operand type mismatch for operand 0: '!llvm.ptr<1>'",
}
"""Inputs an upstream pipeline refuses, and (part of) its message: cases where
upstream is narrower than we are (loops returning new buffers, a
dealloc-twice input, `scf.execute_region` with several yields, bitcasts of
`index`, the `shape` ops its one-shot-bufferize does not know, a free of a
buffer in memory space 1: its pointer is `!llvm.ptr<1>`, `free`'s `!llvm.ptr`). Checked, so a new refusal, or one that goes away, is noticed."""


def upstream_output(text: str, pipeline: str) -> tuple[str | None, str]:
    """mlir-opt-22's output, or None and the first line of its error."""
    assert MLIR_OPT is not None
    run = subprocess.run(
        [MLIR_OPT, *PIPELINES[pipeline]], input=text, capture_output=True, text=True
    )
    if run.returncode != 0:
        return None, next((line for line in run.stderr.splitlines() if line), "")
    return run.stdout, ""


def _functions(module: ModuleOp) -> list[func.FuncOp]:
    return [
        op
        for op in module.ops
        if isinstance(op, func.FuncOp) and op.body.blocks and not op.is_declaration
    ]


def _copied(values: list) -> list:
    return [v.copy() if isinstance(v, np.ndarray) else v for v in values]


def meaning_difference(before: ModuleOp, after: ModuleOp) -> str | None:
    """The first function of `before` that `after` computes differently."""
    rng = np.random.default_rng(11)
    for function in _functions(before):
        name = function.sym_name.data
        try:
            inputs = random_inputs(function, rng)
            expected = run_function(before, name, _copied(inputs))
        except InterpretationError:
            continue  # no random inputs it accepts: nothing to compare
        actual = run_function(after, name, _copied(inputs))
        difference = compare_values(expected.results, actual.results, "result")
        if difference is None:
            # Arguments that were memrefs before are written in place by both.
            written = [
                index
                for index, type_ in enumerate(function.function_type.inputs.data)
                if isinstance(type_, MemRefType)
            ]
            difference = compare_values(
                [expected.arguments[i] for i in written],
                [actual.arguments[i] for i in written],
                "memref argument",
            )
        if difference is not None:
            return f"@{name}: {difference}"
    return None


@pytest.mark.parametrize(("input_id", "text", "pipeline"), _cases())
def test_upstream_output_reads_back(input_id: str, text: str, pipeline: str):
    before = parsed_input(text)
    assert not isinstance(before, str), before
    output, error = upstream_output(text, pipeline)
    refusal = UPSTREAM_REJECTS.get((input_id, pipeline))
    if output is None:
        assert refusal is not None and refusal in error, (
            f"mlir-opt-22 {pipeline} rejects {input_id}: {error}"
        )
        return
    assert refusal is None, f"mlir-opt-22 {pipeline} now accepts {input_id}"
    after = parse(output)
    if pipeline in EXECUTABLE:
        difference = meaning_difference(before, after)
        assert difference is None, f"{input_id} after {pipeline}: {difference}"
