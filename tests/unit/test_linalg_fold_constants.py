"""`linalg-fold-constants-ext` computes what numpy computes, bit for bit, and
folds exactly up to `max-elements`."""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, Float32Type, TensorType

from helpers import parse_module
from linalg_ext.constant_folding import dense_attribute
from linalg_ext.passes.linalg_fold_constants import LinalgFoldConstantsExtPass


def _literal(array: np.ndarray) -> str:
    return np.array2string(array, separator=", ", floatmode="unique", threshold=10**6)


def _folded(text: str, max_elements: int = 1 << 16) -> list[np.ndarray]:
    """The dense constants left in the module after the pass, as arrays, and
    checks that no linalg op is left."""
    module = parse_module(text)
    LinalgFoldConstantsExtPass(max_elements=max_elements).apply(Context(), module)
    names = [op.name for op in module.walk()]
    assert not [n for n in names if n.startswith("linalg.")], names
    values: list[np.ndarray] = []
    for op in module.walk():
        if isinstance(op, arith.ConstantOp) and isinstance(
            op.value, DenseIntOrFPElementsAttr
        ):
            shape = op.value.get_shape()
            flat = np.array(op.value.get_values())
            values.append(np.broadcast_to(flat, (int(np.prod(shape)),)).reshape(shape))
    return values


def test_transpose_and_add_match_numpy_bits():
    rng = np.random.default_rng(3)
    w = rng.standard_normal((5, 7)).astype(np.float32)
    b = rng.standard_normal((7, 5)).astype(np.float32)
    text = f"""
func.func @f() -> tensor<7x5xf32> {{
  %w = arith.constant dense<{_literal(w)}> : tensor<5x7xf32>
  %b = arith.constant dense<{_literal(b)}> : tensor<7x5xf32>
  %e = tensor.empty() : tensor<7x5xf32>
  %t = linalg.transpose ins(%w : tensor<5x7xf32>) outs(%e : tensor<7x5xf32>) permutation = [1, 0]
  %r = linalg.add ins(%t, %b : tensor<7x5xf32>, tensor<7x5xf32>) outs(%e : tensor<7x5xf32>) -> tensor<7x5xf32>
  return %r : tensor<7x5xf32>
}}
"""
    (value,) = _folded(text)
    expected = w.T + b
    assert value.astype(np.float32).tobytes() == expected.tobytes()


@pytest.mark.parametrize(("limit", "folds"), [(12, True), (11, False)])
def test_max_elements_is_inclusive(limit: int, folds: bool):
    text = """
func.func @f() -> tensor<4x3xi32> {
  %c = arith.constant dense<[1, 2, 3]> : tensor<3xi32>
  %e = tensor.empty() : tensor<4x3xi32>
  %r = linalg.broadcast ins(%c : tensor<3xi32>) outs(%e : tensor<4x3xi32>) dimensions = [0]
  return %r : tensor<4x3xi32>
}
"""
    if folds:
        (value,) = _folded(text, limit)
        assert value.tolist() == [[1, 2, 3]] * 4
    else:
        with pytest.raises(AssertionError):
            _folded(text, limit)


def test_signed_zeros_are_not_a_splat():
    type_ = TensorType(Float32Type(), [2])
    attribute = dense_attribute(np.array([0.0, -0.0], dtype=np.float32), type_)
    assert attribute is not None
    assert [np.signbit(v) for v in attribute.get_values()] == [False, True]
    splat = dense_attribute(np.array([-0.0, -0.0], dtype=np.float32), type_)
    assert splat is not None and splat.is_splat()
