"""ByteIR's `transform.structured.collapse_dims`, `detensorize` and
`insert_slice_to_copy_ext` (linalg_ext/transform_ops/reshaping_ops.py).

- Syntax: ByteIR's forms round-trip, in a `transform.sequence` with
  `!pdl.operation` handles and in a `named_sequence` with
  `!transform.any_op`; `collapse_dims`' result takes the target's type.
- A refused target leaves every target as it was (each op checks them all
  first). The rewrites themselves, and their meaning, are checked by the
  FileCheck inputs in tests/filecheck/passes/transform-dialect-interpreter/
  (run before and after by test_pass_meaning.py).
"""

from __future__ import annotations

import pytest
from xdsl.interpreter import Interpreter
from xdsl.interpreters.transform import OperationHandle
from xdsl.ir import Operation

from helpers import parse_module, print_module
from linalg_ext.transform_ops.handles import TransformOpFailed
from linalg_ext.transform_ops.reshaping_functions import ReshapingFunctions
from linalg_ext.transform_ops.reshaping_ops import (
    CollapseDimsOp,
    DetensorizeOp,
    InsertSliceToCopyExtOp,
)

SEQUENCE = """\
transform.sequence failures(propagate) {
^bb0(%arg0: !pdl.operation):
  %0 = transform.structured.match ops{["linalg.generic"]} in %arg0 : (!pdl.operation) -> !pdl.operation
  %1 = transform.structured.collapse_dims %0 [[0], [1, 2]]
  transform.structured.detensorize %1
  %2 = transform.structured.insert_slice_to_copy_ext %0 : (!pdl.operation) -> !pdl.operation
}
"""

NAMED = """\
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %0 = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    %1 = transform.structured.collapse_dims %0 [[0, 1]] {note}
    transform.structured.detensorize %1
    %2 = transform.structured.insert_slice_to_copy_ext %0 : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
"""


@pytest.mark.parametrize(
    ("text", "handle"), [(SEQUENCE, "!pdl.operation"), (NAMED, "!transform.any_op")]
)
def test_byteir_syntax_round_trips(text: str, handle: str):
    module = parse_module(text)
    printed = print_module(module)
    assert print_module(parse_module(printed)) == printed
    collapse = next(o for o in module.walk() if isinstance(o, CollapseDimsOp))
    assert str(collapse.transformed.type) == handle
    assert any(isinstance(o, DetensorizeOp) for o in module.walk())
    assert any(isinstance(o, InsertSliceToCopyExtOp) for o in module.walk())
    line = next(x for x in printed.splitlines() if "collapse_dims" in x)
    assert " : " not in line and "i64" not in line


def script_op(line: str) -> Operation:
    """The transform op of a one-line `transform.sequence` on `%t`."""
    script = parse_module(
        "transform.sequence failures(propagate) {\n^bb0(%t: !pdl.operation):\n"
        f"  {line}\n}}\n"
    )
    return next(
        o
        for o in script.walk()
        if isinstance(o, CollapseDimsOp | DetensorizeOp | InsertSliceToCopyExtOp)
    )


PAYLOAD = """\
func.func @f(%a: tensor<f32>, %x: tensor<2x3xf32>, %t: tensor<3x2xf32>, %d: tensor<4x3xf32>)
    -> (tensor<f32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<4x3xf32>, tensor<2x3xf32>) {
  %0 = linalg.exp ins(%a : tensor<f32>) outs(%a : tensor<f32>) -> tensor<f32>
  %1 = linalg.exp ins(%x : tensor<2x3xf32>) outs(%x : tensor<2x3xf32>) -> tensor<2x3xf32>
  %2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%t : tensor<3x2xf32>) outs(%x : tensor<2x3xf32>) {
  ^bb0(%p: f32, %q: f32):
    linalg.yield %p : f32
  } -> tensor<2x3xf32>
  %3 = tensor.insert_slice %x into %d[1, 0] [2, 3] [1, 1] : tensor<2x3xf32> into tensor<4x3xf32>
  %4 = tensor.extract_slice %d[0, 0] [2, 3] [1, 1] : tensor<4x3xf32> to tensor<2x3xf32>
  return %0, %1, %2, %3, %4 : tensor<f32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<4x3xf32>, tensor<2x3xf32>
}
"""


def _generic_with_identity_maps() -> str:
    """A generic the grouping [[0, 1]] suits, before one it does not."""
    return PAYLOAD.replace(
        "  %2 = linalg.generic",
        """  %5 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<2x3xf32>) outs(%x : tensor<2x3xf32>) {
  ^bb0(%p: f32, %q: f32):
    linalg.yield %p : f32
  } -> tensor<2x3xf32>
  %2 = linalg.generic""",
    )


@pytest.mark.parametrize(
    ("line", "names", "message"),
    [
        (
            "%1 = transform.structured.collapse_dims %t [[0, 1]]",
            ["linalg.generic", "linalg.generic"],
            "is not valid for the indexing map",
        ),
        (
            "transform.structured.detensorize %t",
            ["linalg.exp", "linalg.exp"],
            "linalg.exp has 2 loops",
        ),
        (
            "%1 = transform.structured.insert_slice_to_copy_ext %t"
            " : (!pdl.operation) -> !pdl.operation",
            ["tensor.insert_slice", "tensor.extract_slice"],
            "only InsertSliceOp and ParallelInsertSliceOp ops are supported",
        ),
    ],
)
def test_a_refused_target_leaves_every_target_as_it_was(
    line: str, names: list[str], message: str
):
    module = parse_module(_generic_with_identity_maps())
    printed = print_module(module)
    targets = OperationHandle(
        *[
            op
            for name in dict.fromkeys(names)
            for op in module.walk()
            if op.name == name
        ]
    )
    assert len(targets.ops) == 2
    op = script_op(line)
    functions = ReshapingFunctions()
    runner = {
        CollapseDimsOp: functions.run_collapse_dims,
        DetensorizeOp: functions.run_detensorize,
        InsertSliceToCopyExtOp: functions.run_insert_slice_to_copy_ext,
    }[type(op)]
    with pytest.raises(TransformOpFailed, match=message):
        runner(Interpreter(module), op, (targets,))
    assert print_module(module) == printed
