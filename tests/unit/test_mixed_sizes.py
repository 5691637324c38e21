"""The mixed static/dynamic index arithmetic of
linalg_ext/transforms/mixed_sizes.py: what folds, what is emitted, and that
the emitted ops compute the folded values."""

from __future__ import annotations

from xdsl.dialects import affine, test
from xdsl.dialects.builtin import IndexType
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap
from xdsl.rewriter import InsertPoint, Rewriter

from helpers import parse_module
from linalg_ext.running import find_function, run_function
from linalg_ext.transforms.mixed_sizes import (
    Mixed,
    affine_min,
    apply_affine_map,
    min_mixed,
)


def _index_values(count: int) -> list[SSAValue]:
    return list(test.TestOp(result_types=[IndexType()] * count).results)


D0, D1 = AffineExpr.dimension(0), AffineExpr.dimension(1)


def test_apply_affine_map_folds_what_is_static():
    (iv, n) = _index_values(2)
    new_ops: list[Operation] = []
    results = apply_affine_map(
        AffineMap(2, 0, (D0 * 2 + D1, D1, D0 * 0 + 3)), [iv, 1], new_ops
    )
    assert results[1:] == [1, 3]
    assert [str(op.map.data) for op in new_ops] == ["(d0) -> (((d0 * 2) + 1))"]  # pyright: ignore
    assert apply_affine_map(AffineMap(2, 0, (D0 * 2 + D1,)), [3, 4], new_ops) == [10]
    # One operand alone is that operand; a value used twice is one dimension.
    assert apply_affine_map(AffineMap(2, 0, (D0 + D1 - D0,)), [iv, n], []) == [n]
    ops: list[Operation] = []
    apply_affine_map(AffineMap(2, 0, (D0 + D1,)), [iv, iv], ops)
    assert len(ops) == 1 and len(ops[0].operands) == 1


def test_apply_affine_map_composes_applies():
    (iv, n) = _index_values(2)
    new_ops: list[Operation] = []
    (inner,) = apply_affine_map(AffineMap(2, 0, (D0 * 2 + D1,)), [iv, n], new_ops)
    (outer,) = apply_affine_map(AffineMap(1, 0, (D0 + 1,)), [inner], new_ops)
    assert isinstance(outer, SSAValue) and isinstance(outer.owner, affine.ApplyOp)
    assert list(outer.owner.operands) == [iv, n]


def test_affine_min_and_min_mixed():
    (iv, n) = _index_values(2)
    c = AffineExpr.constant
    partial = AffineMap(1, 0, (c(4), c(10) - D0))
    assert affine_min(partial, [8], []) == 2
    new_ops: list[Operation] = []
    result = affine_min(partial, [iv], new_ops)
    assert isinstance(result, SSAValue) and isinstance(result.owner, affine.MinOp)
    assert str(result.owner.map.data) == "(d0) -> (4, ((d0 * -1) + 10))"
    assert min_mixed([4, 8, 3], []) == 3
    ops: list[Operation] = []
    smallest = min_mixed([4, n, 8, n], ops)
    assert isinstance(smallest, SSAValue) and isinstance(smallest.owner, affine.MinOp)
    assert str(smallest.owner.map.data) == "(d0) -> (4, d0)"
    assert min_mixed([n], []) is n


def test_mixed_helpers_compute_what_they_fold():
    """The emitted ops compute the folded values (run in the interpreter)."""
    text = """
func.func @main(%x: index, %y: index) -> (index, index, index) {
  return %x, %x, %x : index, index, index
}
"""
    module = parse_module(text)
    function = find_function(module, "main")
    x, y = function.body.block.args
    new_ops: list[Operation] = []
    c = AffineExpr.constant
    (window,) = apply_affine_map(
        AffineMap(2, 0, ((D0 - 1) * 2 + (D1 - 1) * 3 + 1,)), [x, y], new_ops
    )
    low = affine_min(AffineMap(1, 0, (c(4), c(10) - D0)), [x], new_ops)
    smallest = min_mixed([y, 6, x], new_ops)
    values: list[Mixed] = [window, low, smallest]
    returned = [v for v in values if isinstance(v, SSAValue)]
    terminator = function.body.block.last_op
    assert terminator is not None and len(returned) == 3
    Rewriter.insert_op(new_ops, InsertPoint.before(terminator))
    terminator.operands = returned
    module.verify()
    for a, b in [(3, 5), (8, 2), (9, 9)]:
        run = run_function(module, "main", [a, b])
        assert run.results == [
            (a - 1) * 2 + (b - 1) * 3 + 1,
            min(4, 10 - a),
            min(b, 6, a),
        ]
