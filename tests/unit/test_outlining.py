"""ByteIR's `transform.structured.outline` and `transform.structured.inline`,
what the FileCheck inputs cannot show (they are in
tests/filecheck/passes/transform-dialect-interpreter/outline*.mlir and
inline*.mlir, run before and after by test_pass_meaning.py):

- `inline` erases a private callee nothing refers to any more, and the
  caller computes the same (the meaning test runs every function of the
  input, so a file cannot lose one); a callee of several blocks becomes an
  `scf.execute_region`, which runs compiled;
- `outline {libcall}` calls an existing declaration of the right type
  (ByteIR's case; the output then cannot run until linked);
- a target twice in the handle is outlined once; a refusal leaves the
  payload unchanged;
- both ops parse and print their syntax in both script forms.
"""

from __future__ import annotations

import pytest
from xdsl.dialects import func, scf
from xdsl.dialects.builtin import ModuleOp

from helpers import meaning_difference, parse_module, print_module
from linalg_ext.checking import check_module
from linalg_ext.context import make_context
from linalg_ext.tools.check import parse_pipeline
from linalg_ext.transform_ops.handles import TransformOpFailed
from linalg_ext.transform_ops.outlining import LIBCALL_ATTR
from linalg_ext.transforms.module_contents import unique_name

SCRIPT = "transform-dialect-interpreter{erase-after=true}"


def run(text: str, pipeline: str = SCRIPT) -> ModuleOp:
    module = parse_module(text)
    parse_pipeline(pipeline).apply(make_context(), module)
    module.verify()
    return module


def functions(module: ModuleOp) -> dict[str, func.FuncOp]:
    return {
        op.sym_name.data: op
        for op in module.body.block.ops
        if isinstance(op, func.FuncOp)
    }


PAYLOAD = """\
func.func private @scale(%x: tensor<3xf32>, %s: f32) -> tensor<3xf32> {
  %e = tensor.empty() : tensor<3xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
                       iterator_types = ["parallel"]}
      ins(%x : tensor<3xf32>) outs(%e : tensor<3xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.mulf %in, %s : f32
    linalg.yield %m : f32
  } -> tensor<3xf32>
  return %r : tensor<3xf32>
}
func.func @main(%x: tensor<3xf32>, %s: f32) -> tensor<3xf32> {
  %a = func.call @scale(%x, %s) : (tensor<3xf32>, f32) -> tensor<3xf32>
  %b = func.call @scale(%a, %s) : (tensor<3xf32>, f32) -> tensor<3xf32>
  return %b : tensor<3xf32>
}
"""

INLINE_ALL = """\
transform.sequence failures(propagate) {
^bb0(%root: !pdl.operation):
  %0 = transform.structured.match ops{["func.call"]} in %root : (!pdl.operation) -> !pdl.operation
  transform.structured.inline %0
}
"""


def test_inline_erases_the_private_callee_and_keeps_the_meaning():
    before = parse_module(PAYLOAD)
    after = run(PAYLOAD + INLINE_ALL)
    assert set(functions(after)) == {"main"}
    assert not any(isinstance(op, func.CallOp) for op in after.walk())
    assert meaning_difference(before, after, "main") is None


def test_a_callee_of_several_blocks_becomes_an_execute_region():
    # Not a FileCheck input: the JIT cannot compile a function of several
    # blocks (bufferization), and a private callee that is erased would
    # leave the meaning test without it.
    text = """\
func.func private @clamp_or_square(%v: f32, %low: f32) -> f32 {
  %lt = arith.cmpf olt, %v, %low : f32
  cf.cond_br %lt, ^low, ^high
^low:
  return %low : f32
^high:
  %sq = arith.mulf %v, %v : f32
  return %sq : f32
}
func.func @main(%x: f32, %l: f32) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %r = scf.for %i = %c0 to %c2 step %c1 iter_args(%acc = %x) -> (f32) {
    %c = func.call @clamp_or_square(%acc, %l) : (f32, f32) -> f32
    scf.yield %c : f32
  }
  return %r : f32
}
"""
    before = parse_module(text)
    after = run(text + INLINE_ALL)
    assert set(functions(after)) == {"main"}
    regions = [op for op in after.walk() if isinstance(op, scf.ExecuteRegionOp)]
    assert len(regions) == 1 and len(regions[0].region.blocks) == 3
    assert sum(isinstance(op, scf.YieldOp) for op in regions[0].walk()) == 2
    assert meaning_difference(before, after, "main") is None
    assert check_module(after, [], backend="jit").ok


def test_inline_keeps_a_public_callee():
    text = PAYLOAD.replace("func.func private @scale", "func.func @scale")
    after = run(text + INLINE_ALL)
    assert set(functions(after)) == {"scale", "main"}
    assert not any(isinstance(op, func.CallOp) for op in after.walk())


ONE_EXP = """\
func.func @f(%x: tensor<3xf32>) -> tensor<3xf32> {
  %e = tensor.empty() : tensor<3xf32>
  %r = linalg.exp ins(%x : tensor<3xf32>) outs(%e : tensor<3xf32>) -> tensor<3xf32>
  return %r : tensor<3xf32>
}
"""


def test_outline_then_inline_round_trips():
    text = (
        ONE_EXP
        + """\
transform.sequence failures(propagate) {
^bb0(%root: !pdl.operation):
  %0 = transform.structured.match ops{["linalg.exp"]} in %root : (!pdl.operation) -> !pdl.operation
  %f, %c = transform.structured.outline %0 {func_name = "k"} : (!pdl.operation) -> (!pdl.operation, !pdl.operation)
  transform.structured.inline %c
}
"""
    )
    after = run(text)
    expected = parse_module(ONE_EXP)
    assert print_module(after) == print_module(expected)


def test_libcall_calls_an_existing_declaration():
    text = """\
func.func private @exp_lib(tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
func.func @f(%x: tensor<3xf32>) -> tensor<3xf32> {
  %e = tensor.empty() : tensor<3xf32>
  %r = linalg.exp ins(%x : tensor<3xf32>) outs(%e : tensor<3xf32>) -> tensor<3xf32>
  %s = linalg.exp ins(%r : tensor<3xf32>) outs(%e : tensor<3xf32>) -> tensor<3xf32>
  return %s : tensor<3xf32>
}
transform.sequence failures(propagate) {
^bb0(%root: !pdl.operation):
  %0 = transform.structured.match ops{["linalg.exp"]} in %root : (!pdl.operation) -> !pdl.operation
  %f, %c = transform.structured.outline %0 {func_name = "exp_lib", libcall} : (!pdl.operation) -> (!pdl.operation, !pdl.operation)
  transform.annotate_ext %f {__function__}
}
"""
    after = run(text)
    found = functions(after)
    assert set(found) == {"exp_lib", "f"}
    library = found["exp_lib"]
    assert library.is_declaration and "__function__" in library.attributes
    calls = [op for op in after.walk() if isinstance(op, func.CallOp)]
    assert [c.callee.string_value() for c in calls] == ["exp_lib", "exp_lib"]


def test_a_target_twice_in_the_handle_is_outlined_once():
    text = (
        ONE_EXP
        + """\
transform.sequence failures(propagate) {
^bb0(%root: !pdl.operation):
  %0 = transform.structured.match ops{["linalg.exp"]} in %root : (!pdl.operation) -> !pdl.operation
  %1 = transform.merge_handles %0, %0 : !pdl.operation
  %f, %c = transform.structured.outline %1 {func_name = "k", libcall} : (!pdl.operation) -> (!pdl.operation, !pdl.operation)
}
"""
    )
    before = parse_module(text)
    after = run(text)
    found = functions(after)
    assert set(found) == {"k", "f"}
    assert LIBCALL_ATTR in found["k"].attributes
    assert sum(isinstance(op, func.CallOp) for op in after.walk()) == 1
    assert meaning_difference(before, after, "f") is None


def test_a_refusal_leaves_the_payload_unchanged():
    text = """\
func.func @f(%x: f32) -> f32 {
  %e = math.exp %x : f32
  %l = math.log %e : f32
  return %l : f32
}
transform.sequence failures(propagate) {
^bb0(%root: !pdl.operation):
  %0 = transform.structured.match ops{["math.exp", "math.log"]} in %root : (!pdl.operation) -> !pdl.operation
  %f, %c = transform.structured.outline %0 {func_name = "lib", libcall} : (!pdl.operation) -> (!pdl.operation, !pdl.operation)
}
"""
    module = parse_module(text)
    before = print_module(module)
    with pytest.raises(TransformOpFailed, match="computes something else"):
        parse_pipeline("transform-dialect-interpreter").apply(make_context(), module)
    assert print_module(module) == before


def test_unique_names_follow_mlir_renaming():
    assert unique_name("k", set()) == "k"
    assert unique_name("k", {"k"}) == "k_0"
    assert unique_name("k", {"k", "k_0", "k_1"}) == "k_2"


def test_both_syntaxes_round_trip():
    for handle in ("!pdl.operation", "!transform.any_op"):
        text = f"""\
builtin.module {{
  transform.sequence failures(propagate) {{
  ^bb0(%root: {handle}):
    %f, %c = transform.structured.outline %root {{func_name = "k", libcall}} : ({handle}) -> ({handle}, {handle})
    transform.structured.inline %c
  }}
}}
"""
        printed = print_module(parse_module(text))
        assert (
            f'transform.structured.outline %root {{func_name = "k", libcall}} : '
            f"({handle}) -> ({handle}, {handle})" in printed
        )
        assert "transform.structured.inline %c\n" in printed
        assert print_module(parse_module(printed)) == printed
