"""Building linalg_ext ops from Python, as another xDSL project would."""

from __future__ import annotations

import pytest
from xdsl.dialects import arith, func
from xdsl.dialects.builtin import (
    BFloat16Type,
    Float32Type,
    IndexType,
    MemRefType,
    ModuleOp,
    TensorType,
    f32,
    i8,
    i32,
    i64,
)
from xdsl.ir import Block, Region
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.test_value import create_ssa_value

from helpers import parse_module, print_module
from linalg_ext import dialect as le


def tensor(*shape, element=f32):
    return create_ssa_value(TensorType(element, shape))


def memref(*shape, element=f32):
    return create_ssa_value(MemRefType(element, shape))


def combiner(arg_types, body):
    """A one-block region whose block takes `arg_types` and runs `body(args)`."""
    block = Block(arg_types=arg_types)
    block.add_ops(body(block.args))
    return Region(block)


def test_softmax_results_follow_tensor_outputs():
    op = le.SoftmaxOp(
        tensor(4, 8), [tensor(4, 8), tensor(4), tensor(4), tensor(4)], dimension=1
    )
    op.verify()
    assert [r.type for r in op.res] == [o.type for o in op.outputs]


def test_softmax_on_memrefs_has_no_results():
    op = le.UnnormSoftmaxOp(
        memref(4, 8), [memref(4, 8), memref(4), memref(4), memref(4)], dimension=1
    )
    op.verify()
    assert len(op.res) == 0


def test_scan_builder_and_verifier():
    def add(args):
        total = arith.AddiOp(args[0], args[1])
        return [total, le.YieldOp(total)]

    op = le.ScanOp(
        tensor(16, 3, element=i32),
        [tensor(16, 3, element=i32), tensor(3, element=i32)],
        dimension=0,
        inclusive=False,
        region=combiner([i32, i32], add),
    )
    op.verify()
    assert op.inclusive.value.data == 0


def test_scatter_topk_custom_builders():
    def overwrite(args):
        return [le.YieldOp(args[1])]

    scatter = le.ScatterOp(
        tensor(5, 2, element=i64),
        tensor(5, element=i32),
        tensor(7, 9, element=i32),
        combiner([i32, i32], overwrite),
    )
    scatter.verify()

    def greater(args):
        cmp = arith.CmpfOp(args[0], args[1], "ogt")
        return [cmp, le.YieldOp(cmp)]

    topk = le.TopkOp(
        [tensor(3, 10)],
        [tensor(3, 2), tensor(3, 2, element=IndexType())],
        dimension=1,
        region=combiner([f32, f32], greater),
    )
    topk.verify()

    out = tensor(4)
    custom = le.CustomOp(
        [], [out], combiner([out.type], lambda args: [le.YieldOp(args[0])])
    )
    custom.verify()
    assert custom.res[0].type == out.type


def test_layer_norm_and_diag_builders():
    ln = le.LayerNormOp(
        [tensor(2, 6, 5), tensor(6, 5), tensor(6, 5)],
        [tensor(2, 6, 5), tensor(2), tensor(2)],
        axis=[1, 2],
        epsilon=1e-5,
    )
    ln.verify()
    assert ln.axis_values == (1, 2)
    diag = le.DiagOp(tensor(2, 3), tensor(2, 3, 3))
    diag.verify()


def test_alias_builder():
    op = le.AliasOp(create_ssa_value(f32))
    op.verify()
    assert op.result.type == f32


@pytest.mark.parametrize(
    ("lhs", "rhs", "out", "casts"),
    [
        (f32, f32, f32, []),
        (i8, i8, i32, ["arith.extsi", "arith.extsi"]),
        (BFloat16Type(), BFloat16Type(), f32, ["arith.extf", "arith.extf"]),
        (i8, f32, f32, ["arith.sitofp"]),
        (
            Float32Type(),
            Float32Type(),
            BFloat16Type(),
            ["arith.truncf", "arith.truncf"],
        ),
    ],
)
def test_batch_matmul_body_casts_to_the_init_element_type(lhs, rhs, out, casts):
    op = le.BatchMatmulOp(
        tensor(2, 4, 8, element=lhs),
        tensor(2, 8, 3, element=rhs),
        tensor(2, 4, 3, element=out),
        "nn",
    )
    op.verify()
    names = [o.name for o in op.body.block.ops]
    assert names[: len(casts)] == casts
    assert names[len(casts) :][-1] == "linalg.yield"
    assert names[-3] in ("arith.mulf", "arith.muli")
    assert names[-2] in ("arith.addf", "arith.addi")


def test_batch_matmul_tensor_and_memref_forms():
    tensor_op = le.BatchMatmulOp(
        tensor(2, 4, 8), tensor(2, 3, 8), tensor(2, 4, 3), "nt"
    )
    tensor_op.verify()
    assert [r.type for r in tensor_op.res] == [tensor_op.init.type]
    memref_op = le.BatchMatmulOp(
        memref(2, 8, 4), memref(2, 8, 3), memref(2, 4, 3), "tn"
    )
    memref_op.verify()
    assert len(memref_op.res) == 0


def test_verifier_error_names_the_op_and_the_rule():
    op = le.SoftmaxOp(
        tensor(4, 8), [tensor(4, 8), tensor(4), tensor(4), tensor(8)], dimension=1
    )
    with pytest.raises(
        VerifyException, match=r"^'linalg_ext.softmax' op expected scale"
    ):
        op.verify()


def test_built_ops_print_in_byteir_syntax():
    # Build a whole function and check it prints as ByteIR writes it and
    # parses back to the same IR.
    arg_types = [
        TensorType(f32, (2, 4, 8)),
        TensorType(f32, (2, 8, 3)),
        TensorType(f32, (2, 4, 3)),
    ]
    block = Block(arg_types=arg_types)
    bmm = le.BatchMatmulOp(*block.args, "nn")
    block.add_ops([bmm, func.ReturnOp(bmm.res[0])])
    function = func.FuncOp("f", (arg_types, [arg_types[2]]), Region(block))
    module = ModuleOp([function])
    module.verify()
    text = print_module(module)
    assert (
        'linalg_ext.batch_matmul ins(%0, %1 : tensor<2x4x8xf32>, tensor<2x8x3xf32>) outs(%2 : tensor<2x4x3xf32>) layout = "nn"'
        in text
    )
    assert parse_module(text).is_structurally_equivalent(module)


def test_topk_comparator_yields_one_value():
    def two_values(args):
        return [le.YieldOp(args[0], args[1])]

    op = le.TopkOp(
        [tensor(3, 10)],
        [tensor(3, 2), tensor(3, 2, element=i32)],
        dimension=1,
        region=combiner([f32, f32], two_values),
    )
    with pytest.raises(VerifyException, match="yield 1 value"):
        op.verify()
