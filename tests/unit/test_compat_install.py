"""`linalg_ext.compat.install()`: what it adds to xDSL's dialects, that doing
it twice changes nothing, and that the ops also work when built in Python."""

from __future__ import annotations

import re

from xdsl.dialects import func, math, test
from xdsl.dialects.builtin import (
    AffineMapAttr,
    ArrayAttr,
    IndexType,
    ModuleOp,
    StringAttr,
    TensorType,
    f32,
)
from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.dialects.linalg.ops import GenericOp, YieldOp
from xdsl.ir import Block, Region
from xdsl.ir.affine import AffineMap

from helpers import REPO, parse_module, print_module
from linalg_ext import compat
from linalg_ext.compat.affine_ops import MaxOp
from linalg_ext.compat.forall_ops import (
    FORALL_OPS,
    ForallOp,
    InParallelOp,
    ParallelInsertSliceOp,
)
from linalg_ext.compat.gpu_attrs import GPU_MAPPING_ATTRS, MappingId, ThreadMappingAttr
from linalg_ext.compat.linalg_ops import LINALG_OPS, MapOp
from linalg_ext.compat.tensor_ops import TENSOR_OPS
from linalg_ext.context import make_context

ADDED_OPS = (*LINALG_OPS, MaxOp, *FORALL_OPS, ParallelInsertSliceOp, *TENSOR_OPS)


def test_install_is_idempotent():
    from xdsl.dialects.linalg import Linalg

    compat.install()
    compat.install()
    names = [op.name for op in Linalg.operations]
    assert len(names) == len(set(names))
    assert names.count("linalg.map") == 1


def test_a_context_knows_every_added_op_and_attribute():
    context = make_context()
    for op in ADDED_OPS:
        assert context.get_optional_op(op.name) is op
    for attr in GPU_MAPPING_ATTRS:
        assert context.get_optional_attr(attr.name) is attr


def test_every_added_op_is_documented():
    for op in ADDED_OPS:
        assert op.__doc__ and op.__doc__.strip(), op.name


def _identity_maps(count: int) -> list[AffineMapAttr]:
    return [AffineMapAttr(AffineMap.identity(1))] * count


def test_a_generic_built_in_python_prints_upstreams_syntax_and_reads_back():
    tensor = TensorType(f32, [4])
    inputs = test.TestOp(result_types=[tensor, tensor, tensor])
    body = Block(arg_types=[f32, f32, f32])
    body.add_op(YieldOp(body.args[0], body.args[0]))
    generic = GenericOp(
        inputs=[inputs.results[0]],
        outputs=[inputs.results[1], inputs.results[2]],
        body=Region(body),
        indexing_maps=_identity_maps(3),
        iterator_types=[IteratorTypeAttr.parallel()],
        result_types=[tensor, tensor],
        doc=StringAttr("doc"),
    )
    generic.attributes["tag"] = StringAttr("kept")
    module = ModuleOp([inputs, generic])
    text = print_module(module)
    assert '{doc = "doc", indexing_maps = [' in text
    assert 'attrs =  {tag = "kept"}' in text
    assert "} -> (tensor<4xf32>, tensor<4xf32>)" in text
    assert parse_module(text).is_structurally_equivalent(module)


def test_ops_built_in_python_verify_and_round_trip():
    tensor = TensorType(f32, [8])
    slice_type = TensorType(f32, [2])
    index = IndexType()

    # A forall writing a tile per iteration, from Python builders.
    body = Block(arg_types=[index, tensor])
    (iv, shared) = body.args
    tile = test.TestOp(result_types=[slice_type])
    insert = ParallelInsertSliceOp(tile.results[0], shared, [iv], [2], [1])
    body.add_ops([tile, InParallelOp([insert])])
    init = test.TestOp(result_types=[tensor])
    forall = ForallOp(
        [0],
        [4],
        [2],
        [init.results[0]],
        Region(body),
        mapping=ArrayAttr([ThreadMappingAttr(MappingId.X)]),
    )

    # affine.max and a map over the forall's result.
    bound = test.TestOp(result_types=[index])
    largest = MaxOp(
        (bound.results[0],),
        AffineMapAttr(AffineMap.from_callable(lambda d0: (d0, 4))),
    )
    mapper = Block(arg_types=[f32, f32])
    mapper.add_ops([exp := math.ExpOp(mapper.args[0]), YieldOp(exp)])
    mapped = MapOp([forall.res[0]], init.results[0], Region(mapper))

    function = func.FuncOp("f", ((), ()))
    function.body.block.add_ops([init, forall, bound, largest, mapped, func.ReturnOp()])
    module = ModuleOp([function])
    module.verify()
    text = print_module(module)
    assert re.search(
        r"scf.forall \(%\d+\) = \(0\) to \(4\) step \(2\) shared_outs\(", text
    )
    assert "} {mapping = [#gpu.thread<x>]}" in text
    assert "affine.max affine_map<(d0) -> (d0, 4)>(" in text
    assert "linalg.map { math.exp } ins(" in text
    assert parse_module(text).is_structurally_equivalent(module)


def test_every_example_of_the_docs_page_parses_and_verifies():
    page = (REPO / "docs" / "compat.md").read_text()
    examples = re.findall(r"```mlir\n(.*?)```", page, re.S)
    assert len(examples) >= 7
    for example in examples:
        parse_module(example)
