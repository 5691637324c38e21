"""The dialect is importable and loads into any xDSL Context."""

from __future__ import annotations

from xdsl.context import Context
from xdsl.dialects.func import Func
from xdsl.parser import Parser

from linalg_ext import dialect
from linalg_ext.dialect import LinalgExt

BYTEIR_OPS = {
    "linalg_ext.yield",
    "linalg_ext.alias",
    "linalg_ext.diag",
    "linalg_ext.scan",
    "linalg_ext.scatter",
    "linalg_ext.softmax",
    "linalg_ext.unnorm_softmax",
    "linalg_ext.topk",
    "linalg_ext.layer_norm",
    "linalg_ext.batch_matmul",
    "linalg_ext.custom",
}


def test_dialect_defines_every_byteir_op():
    assert LinalgExt.name == "linalg_ext"
    assert {op.name for op in LinalgExt.operations} == BYTEIR_OPS


def test_every_op_has_a_docstring():
    for op in LinalgExt.operations:
        assert op.__doc__ and op.__doc__.strip(), op.name


def test_loads_into_a_bare_context_and_parses_softmax():
    # Only the dialects the program uses, loaded by hand: what a user of
    # another xDSL project does.
    ctx = Context()
    ctx.load_dialect(Func)
    ctx.load_dialect(LinalgExt)
    module = Parser(
        ctx,
        """
        func.func @f(%x: tensor<4x3xf32>, %o: tensor<4x3xf32>, %m: tensor<3xf32>) -> tensor<4x3xf32> {
          %r:4 = linalg_ext.softmax dimension(0) ins(%x : tensor<4x3xf32>)
                 outs(%o, %m, %m, %m : tensor<4x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>)
                 : tensor<4x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>
          func.return %r#0 : tensor<4x3xf32>
        }
        """,
    ).parse_module()
    module.verify()
    softmax = next(op for op in module.walk() if isinstance(op, dialect.SoftmaxOp))
    assert softmax.dimension.value.data == 0
    assert len(softmax.res) == 4
