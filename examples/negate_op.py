"""A new op end to end, outside the package: `linalg_ext.negate` (y = -x).

    python examples/negate_op.py

docs/adding-an-op.md walks through the steps this file takes, and where each
piece goes when the op joins the dialect: the op class with its verifier
and syntax, its interpreter function, its bufferization model, then a run
on tensors and, after `one-shot-bufferize`, on memrefs, both checked
against numpy.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
from xdsl.dialects.builtin import ModuleOp, ShapedType
from xdsl.interpreter import (
    Interpreter,
    InterpreterFunctions,
    PythonValues,
    impl,
    register_impls,
)
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import irdl_op_definition
from xdsl.parser import Parser

from linalg_ext.bufferization import register_model
from linalg_ext.bufferization.models.structured import DestinationStyleModel
from linalg_ext.context import make_context
from linalg_ext.dialect import LinalgExtDpsOp
from linalg_ext.dialect.destination_style import INS, OUTS
from linalg_ext.dialect.verifiers import expect_count, expect_same_element_type
from linalg_ext.passes.one_shot_bufferize import OneShotBufferizePass
from linalg_ext.running import make_interpreter
from linalg_ext.semantics.arrays import (
    destination_results,
    destinations,
    numpy_view,
    shaped_array,
)
from linalg_ext.verification import op_error


# 1. The op: operands, syntax, verifier.
@irdl_op_definition
class NegateOp(LinalgExtDpsOp):
    """ins(x) outs(y): y = -x, elementwise; x and y have one shape."""

    name = "linalg_ext.negate"

    assembly_format = f"attr-dict {INS} {OUTS} (`:` type($res)^)?"

    def __init__(
        self,
        input: SSAValue,
        output: SSAValue,
        attributes: Mapping[str, Attribute] | None = None,
    ):
        super().__init__([input], [output], attributes=attributes)

    def reads_output(self, index: int) -> bool:
        return False  # the output is overwritten whole

    def verify_operands(self) -> None:
        expect_count(self, "input", len(self.inputs), (1,), "input")
        expect_count(self, "output", len(self.outputs), (1,), "output")
        x, y = self.inputs[0].type, self.outputs[0].type
        assert isinstance(x, ShapedType) and isinstance(y, ShapedType)
        expect_same_element_type(self, "output", y, "input", x)
        if x.get_shape() != y.get_shape():
            op_error(self, f"expected the output's shape to be the input's, got {y}")


# 2. Its meaning on the interpreter: tensors give a new value, memrefs are
# written in place (`destinations` and `destination_results` do both).
@register_impls
class NegateFunctions(InterpreterFunctions):
    @impl(NegateOp)
    def run_negate(
        self, interpreter: Interpreter, op: NegateOp, args: PythonValues
    ) -> PythonValues:
        (output,) = destinations(op, args[1:])
        numpy_view(output)[...] = -numpy_view(args[0])
        return destination_results(op, (output,))


# 3. How it bufferizes: the destination-passing model (an op of the dialect
# gets it without this line).
register_model(NegateOp, DestinationStyleModel())


PROGRAM = """
func.func @neg(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %e = tensor.empty() : tensor<2x3xf32>
  %y = linalg_ext.negate ins(%x : tensor<2x3xf32>) outs(%e : tensor<2x3xf32>)
      : tensor<2x3xf32>
  return %y : tensor<2x3xf32>
}
"""


def run(module: ModuleOp, x: np.ndarray) -> np.ndarray:
    interpreter = make_interpreter(module)
    interpreter.register_implementations(NegateFunctions())
    function = next(iter(module.ops))
    element = function.function_type.inputs.data[0].get_element_type()
    (result,) = interpreter.call_op("neg", (shaped_array(x, element),))
    return numpy_view(result).copy()


def main() -> None:
    ctx = make_context()
    ctx.load_op(NegateOp)
    module = Parser(ctx, PROGRAM).parse_module()
    module.verify()
    print(module)

    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    assert np.array_equal(run(module, x), -x)
    print("== on tensors: y = -x, as numpy says")

    OneShotBufferizePass(bufferize_function_boundaries=True).apply(ctx, module)
    module.verify()
    print(module)
    assert np.array_equal(run(module, x), -x)
    print("== on memrefs, after one-shot-bufferize: y = -x, as numpy says")


if __name__ == "__main__":
    main()
