"""convert-linalg-to-loops-ext, lower-affine-ext, convert-scf-to-cf-ext: what FileCheck
and the meaning test do not show.

- every structured op `generalize` knows is lowered by some FileCheck input
  of convert-linalg-to-loops-ext (so the meaning test runs its loops);
- a refused module is left exactly as it was, by each pass;
- `mlir-opt-22` accepts what each pass makes of each of its inputs
  (skipped without it);
- views are looked through to find an output's buffer.
"""

from __future__ import annotations

import shutil
import subprocess

import pytest
from opdsl_programs import MEMREF_OPS as OPDSL_MEMREF_OPS
from xdsl.dialects import func
from xdsl.utils.exceptions import PassFailedException

from helpers import REPO, parse_module, print_module
from linalg_ext.context import make_context
from linalg_ext.passes.convert_linalg_to_loops import buffer_root
from linalg_ext.tools.check import parse_pipeline
from linalg_ext.transforms.generalize import GENERALIZED_OPS

PASSES = REPO / "tests" / "filecheck" / "passes"
LOWERINGS = ("convert-linalg-to-loops-ext", "lower-affine-ext", "convert-scf-to-cf-ext")


def _inputs(pass_name: str) -> list:
    return sorted(p for p in (PASSES / pass_name).glob("*.mlir") if p.stem != "errors")


def _apply(pipeline: str, text: str):
    module = parse_module(text)
    for lowering in parse_pipeline(pipeline).passes:
        lowering.apply(make_context(), module)
    return module


def test_every_generalized_op_has_a_lowering_test():
    text = "\n".join(p.read_text() for p in _inputs("convert-linalg-to-loops-ext"))
    # The OpDSL ops are lowered, and run against the named ops, in
    # test_opdsl_ops.py, on these programs.
    text += OPDSL_MEMREF_OPS
    missing = sorted(name for name in GENERALIZED_OPS if f"{name} " not in text)
    assert not missing, f"no convert-linalg-to-loops-ext input uses {missing}"


REFUSED = {
    "convert-linalg-to-loops-ext": """
func.func @f(%m: memref<4xf32>, %t: tensor<4xf32>) -> tensor<4xf32> {
  linalg.exp ins(%m : memref<4xf32>) outs(%m : memref<4xf32>)
  %r = linalg.exp ins(%t : tensor<4xf32>) outs(%t : tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}
""",
    "lower-affine-ext": """
func.func @f(%m: memref<8xf32>, %i: index) -> vector<4xf32> {
  %j = affine.apply affine_map<(d0) -> (d0 mod 4)>(%i)
  %v = affine.vector_load %m[%j] : memref<8xf32>, vector<4xf32>
  return %v : vector<4xf32>
}
""",
    "convert-scf-to-cf-ext": """
func.func @f(%t: tensor<4xf32>, %b: i1) -> tensor<4xf32> {
  %x = scf.if %b -> (tensor<4xf32>) {
    scf.yield %t : tensor<4xf32>
  } else {
    scf.yield %t : tensor<4xf32>
  }
  %r = scf.forall (%i) in (4) shared_outs(%o = %x) -> (tensor<4xf32>) {
    %s = tensor.extract_slice %o[%i] [1] [1] : tensor<4xf32> to tensor<1xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %s into %o[%i] [1] [1] : tensor<1xf32> into tensor<4xf32>
    }
  }
  return %r : tensor<4xf32>
}
""",
}


@pytest.mark.parametrize("pass_name", LOWERINGS)
def test_refusal_leaves_the_module_unchanged(pass_name):
    module = parse_module(REFUSED[pass_name])
    before = print_module(module)
    (lowering,) = parse_pipeline(pass_name).passes
    with pytest.raises(PassFailedException, match=pass_name):
        lowering.apply(make_context(), module)
    assert print_module(module) == before


@pytest.mark.skipif(shutil.which("mlir-opt-22") is None, reason="needs mlir-opt-22")
@pytest.mark.parametrize(
    ("pass_name", "path"),
    [(name, path) for name in LOWERINGS for path in _inputs(name)],
    ids=lambda v: v if isinstance(v, str) else v.stem,
)
def test_mlir_opt_accepts_the_output(pass_name, path):
    lowered = _apply(pass_name, path.read_text())
    checked = subprocess.run(
        ["mlir-opt-22", "--verify-diagnostics"],
        input=print_module(lowered, generic=True),
        capture_output=True,
        text=True,
    )
    assert checked.returncode == 0, checked.stderr


def test_buffer_root_looks_through_views():
    module = parse_module(
        """
func.func @f(%m: memref<4x6xf32>) {
  %v = memref.subview %m[0, 2] [4, 4] [1, 1] : memref<4x6xf32> to memref<4x4xf32, strided<[6, 1], offset: 2>>
  %c = "memref.cast"(%v) : (memref<4x4xf32, strided<[6, 1], offset: 2>>) -> memref<4x4xf32, strided<[?, ?], offset: ?>>
  %e = memref.collapse_shape %m [[0, 1]] : memref<4x6xf32> into memref<24xf32>
  return
}
"""
    )
    function = next(op for op in module.walk() if isinstance(op, func.FuncOp))
    argument = function.body.block.args[0]
    values = [op.results[0] for op in function.body.block.ops if op.results]
    assert [buffer_root(v) for v in values] == [argument] * 3
