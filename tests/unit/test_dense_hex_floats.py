"""Hex (bit pattern) float elements of `dense<...>` (`compat/dense_hex`):
parsed as the element type's bits, printed so that upstream reads them back,
and run through the interpreter and the JIT."""

from __future__ import annotations

import subprocess

import numpy as np
import pytest
from xdsl.dialects import arith
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr
from xdsl.utils.exceptions import ParseError

from helpers import MLIR_OPT, parse_module, print_module

CONSTANTS = """
func.func @f() -> (tensor<3xf32>, tensor<4xf32>, tensor<2xf16>, tensor<2xf64>,
                   tensor<2xf32>, tensor<2xbf16>) {
  %a = arith.constant dense<[0xFF800000, 1.0, 0x7FC00000]> : tensor<3xf32>
  %b = arith.constant dense<0xFF800000> : tensor<4xf32>
  %c = arith.constant dense<[0xFC00, -0.0]> : tensor<2xf16>
  %d = arith.constant dense<[0xFFF0000000000000, 0x7FF8000000000000]> : tensor<2xf64>
  %e = arith.constant dense<[0.0, -0.0]> : tensor<2xf32>
  %g = arith.constant dense<[0xFF80, 1.0]> : tensor<2xbf16>
  return %a, %b, %c, %d, %e, %g : tensor<3xf32>, tensor<4xf32>, tensor<2xf16>,
                                  tensor<2xf64>, tensor<2xf32>, tensor<2xbf16>
}
"""


def _dense_values(text: str) -> list[list[float]]:
    module = parse_module(text)
    values: list[list[float]] = []
    for op in module.walk():
        if isinstance(op, arith.ConstantOp):
            assert isinstance(op.value, DenseIntOrFPElementsAttr)
            values.append([float(v) for v in op.value.get_values()])  # pyright: ignore[reportArgumentType]
    return values


def _raw(text: str) -> list[bytes]:
    """The raw data of each dense constant: equal bits, not equal values."""
    return [
        op.value.data.data
        for op in parse_module(text).walk()
        if isinstance(op, arith.ConstantOp)
        and isinstance(op.value, DenseIntOrFPElementsAttr)
    ]


def _bits(values: list[float], dtype: str) -> list[int]:
    return [
        int(b)
        for b in np.array(values, dtype=dtype).view(f"u{np.dtype(dtype).itemsize}")
    ]


def test_hex_elements_are_bit_patterns():
    a, b, c, d, e, g = _dense_values(CONSTANTS)
    assert _bits(a, "float32") == [0xFF800000, 0x3F800000, 0x7FC00000]
    assert b == [-np.inf] * 4
    assert _bits(c, "float16") == [0xFC00, 0x8000]
    assert _bits(d, "float64") == [0xFFF0000000000000, 0x7FF8000000000000]
    assert _bits(e, "float32") == [0, 0x80000000]
    # bf16 is the high half of an f32.
    assert [x >> 16 for x in _bits(g, "float32")] == [0xFF80, 0x3F80]


def test_prints_as_upstream_and_round_trips():
    printed = print_module(parse_module(CONSTANTS))
    # xDSL's spelling of non-finite values (upstream prints upper case).
    assert "dense<[0xff800000, 1.000000e+00, 0x7fc00000]> : tensor<3xf32>" in printed
    assert "dense<0xff800000> : tensor<4xf32>" in printed
    # +0.0 and -0.0 differ: not a splat.
    assert "dense<[0.000000e+00, -0.000000e+00]> : tensor<2xf32>" in printed
    assert _raw(printed) == _raw(CONSTANTS)


def test_hex_splat_string_and_integers_unchanged():
    text = """
    "test.op"() {v = dense<"0x0000803F0000807F"> : tensor<2xf32>,
                      i = dense<[0xFF, 1]> : tensor<2xi32>} : () -> ()
    """
    module = parse_module(text)
    op = next(iter(module.body.block.ops))
    v = op.attributes["v"]
    i = op.attributes["i"]
    assert isinstance(v, DenseIntOrFPElementsAttr)
    assert isinstance(i, DenseIntOrFPElementsAttr)
    assert list(v.get_values()) == [1.0, np.inf]
    assert list(i.get_values()) == [255, 1]


@pytest.mark.parametrize(
    ("element", "message"),
    [
        ("-0xFF800000", "hexadecimal float literal should not have a leading minus"),
        ("0x1FF800000", "hexadecimal float constant out of range for type f32"),
    ],
)
def test_bad_hex_is_one_located_error(element: str, message: str):
    text = f'"test.op"() {{v = dense<[{element}, 1.0]> : tensor<2xf32>}} : () -> ()'
    with pytest.raises(ParseError) as error:
        parse_module(text)
    assert message in str(error.value)


@pytest.mark.skipif(MLIR_OPT is None, reason="mlir-opt-22 is not installed")
def test_upstream_reads_our_print_back():
    assert MLIR_OPT is not None
    printed = print_module(parse_module(CONSTANTS))
    result = subprocess.run(
        [MLIR_OPT], input=printed, capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr
    assert _raw(result.stdout) == _raw(CONSTANTS)
    assert "dense<[0xFF800000, 1.000000e+00, 0x7FC00000]>" in result.stdout


MASKED = """
func.func @masked(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %mask = arith.constant dense<[[0.0, 0xFF800000, 0xFF800000],
                                [0.0, 0.0, 0xFF800000]]> : tensor<2x3xf32>
  %init = tensor.empty() : tensor<2x3xf32>
  %r = linalg.add ins(%x, %mask : tensor<2x3xf32>, tensor<2x3xf32>)
                  outs(%init : tensor<2x3xf32>) -> tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}
"""


def test_attention_mask_runs_on_interpreter_and_jit():
    from linalg_ext.jit import compile_module
    from linalg_ext.running import run_function

    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    mask = np.array([[0, -np.inf, -np.inf], [0, 0, -np.inf]], dtype=np.float32)
    expected = x + mask
    module = parse_module(MASKED)
    interpreted = run_function(module, "masked", [x.copy()]).results[0]
    np.testing.assert_array_equal(np.asarray(interpreted), expected)
    compiled = compile_module(module.clone())["masked"](x.copy())
    result = compiled[0] if isinstance(compiled, tuple | list) else compiled
    np.testing.assert_array_equal(np.asarray(result), expected)
