"""MLIR 19's `linalg.elemwise_unary` / `linalg.elemwise_binary` (compat
`linalg_elemwise_legacy`; docs/compat.md): read and printed back as written,
each function computed as numpy computes it (interpreter and JIT), the
conversions `cast_signed`/`cast_unsigned`, broadcast scalar and rank-0 inputs,
refusals, generalization, tiling with `tile_using_for` and tile-and-fuse.
(tests/filecheck/compat/elemwise_legacy.mlir checks the syntax, the bodies and
that plain xDSL does not know the ops.)
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pytest
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter
from xdsl.utils.exceptions import ParseError, VerifyException

from helpers import meaning_difference, parse_module, print_module
from linalg_ext.checking import check_module
from linalg_ext.compat.linalg_elemwise_legacy import (
    BinaryFn,
    ElemwiseBinaryOp,
    ElemwiseUnaryOp,
    UnaryFn,
)
from linalg_ext.running import run_function
from linalg_ext.tiling.fusion_driver import tile_and_fuse
from linalg_ext.tiling.loops import tile_using_for
from linalg_ext.transforms.generalize import generalize

T = "tensor<3x5xf32>"
LEGACY = (ElemwiseUnaryOp, ElemwiseBinaryOp)


def _unary_program(fun: str, types: str = T, out: str = T) -> str:
    attr = f" {{fun = #linalg.unary_fn<{fun}>}}" if fun else ""
    return f"""
func.func @main(%x: {types}, %o: {out}) -> {out} {{
  %r = linalg.elemwise_unary{attr} ins(%x : {types}) outs(%o : {out}) -> {out}
  return %r : {out}
}}
"""


def _binary_program(fun: str, lhs: str = T, rhs: str = T, out: str = T) -> str:
    attr = f" {{fun = #linalg.binary_fn<{fun}>}}" if fun else ""
    return f"""
func.func @main(%x: {lhs}, %y: {rhs}, %o: {out}) -> {out} {{
  %r = linalg.elemwise_binary{attr} ins(%x, %y : {lhs}, {rhs}) outs(%o : {out}) -> {out}
  return %r : {out}
}}
"""


def _run(text: str, *inputs: np.ndarray | float | int) -> np.ndarray:
    (result,) = run_function(parse_module(text), "main", list(inputs)).results
    return result


RNG = np.random.default_rng(18)
POSITIVE = RNG.uniform(0.5, 3.0, (3, 5)).astype(np.float32)
SIGNED = RNG.uniform(-3.0, 3.0, (3, 5)).astype(np.float32)
OUT = np.zeros((3, 5), np.float32)


def _erf(values: np.ndarray) -> np.ndarray:
    import math

    return np.vectorize(math.erf)(values).astype(values.dtype)


UNARY_REFERENCE = {
    UnaryFn.EXP: np.exp,
    UnaryFn.LOG: np.log,
    UnaryFn.ABS: np.abs,
    UnaryFn.CEIL: np.ceil,
    UnaryFn.FLOOR: np.floor,
    UnaryFn.NEGF: np.negative,
    UnaryFn.RECIPROCAL: np.reciprocal,
    UnaryFn.ROUND: lambda x: np.sign(x) * np.floor(np.abs(x) + 0.5),
    UnaryFn.SQRT: np.sqrt,
    UnaryFn.RSQRT: lambda x: 1 / np.sqrt(x),
    UnaryFn.SQUARE: np.square,
    UnaryFn.TANH: np.tanh,
    UnaryFn.ERF: _erf,
}


@pytest.mark.parametrize("fun", list(UnaryFn))
def test_each_unary_function_computes_numpys(fun: UnaryFn):
    """Every MLIR 19 unary function, on positive and signed inputs (log,
    sqrt and rsqrt on positive ones only)."""
    positive_only = fun in (UnaryFn.LOG, UnaryFn.SQRT, UnaryFn.RSQRT)
    values = POSITIVE if positive_only else SIGNED
    result = _run(_unary_program(fun.value), values, OUT.copy())
    np.testing.assert_allclose(result, UNARY_REFERENCE[fun](values), rtol=1e-5)


def test_unary_default_is_exp():
    result = _run(_unary_program(""), SIGNED, OUT.copy())
    np.testing.assert_allclose(result, np.exp(SIGNED), rtol=1e-6)


FLOAT_BINARY = {
    BinaryFn.ADD: np.add,
    BinaryFn.SUB: np.subtract,
    BinaryFn.MUL: np.multiply,
    BinaryFn.DIV: np.divide,
    BinaryFn.MAX_SIGNED: np.maximum,
    BinaryFn.MIN_SIGNED: np.minimum,
    # OpDSL: the unsigned extrema of floats are the float extrema.
    BinaryFn.MAX_UNSIGNED: np.maximum,
    BinaryFn.MIN_UNSIGNED: np.minimum,
    BinaryFn.POWF: np.power,
}


@pytest.mark.parametrize("fun", sorted(FLOAT_BINARY))
def test_each_binary_function_on_floats(fun: BinaryFn):
    lhs = POSITIVE if fun == BinaryFn.POWF else SIGNED
    result = _run(_binary_program(fun.value), lhs, POSITIVE, OUT.copy())
    np.testing.assert_allclose(result, FLOAT_BINARY[fun](lhs, POSITIVE), rtol=1e-5)


def _as_unsigned(values: np.ndarray) -> np.ndarray:
    return values.astype(np.int64) % 2**32


INTEGER_BINARY = {
    BinaryFn.ADD: np.add,
    BinaryFn.SUB: np.subtract,
    BinaryFn.MUL: np.multiply,
    BinaryFn.DIV: lambda a, b: np.trunc(a / b).astype(np.int32),
    BinaryFn.DIV_UNSIGNED: lambda a, b: _as_unsigned(a) // _as_unsigned(b),
    BinaryFn.MAX_SIGNED: np.maximum,
    BinaryFn.MIN_SIGNED: np.minimum,
    BinaryFn.MAX_UNSIGNED: lambda a, b: np.maximum(_as_unsigned(a), _as_unsigned(b)),
    BinaryFn.MIN_UNSIGNED: lambda a, b: np.minimum(_as_unsigned(a), _as_unsigned(b)),
}


@pytest.mark.parametrize("fun", sorted(INTEGER_BINARY))
def test_each_binary_function_on_integers(fun: BinaryFn):
    """Signed and unsigned readings differ on negative elements."""
    i32 = "tensor<3x5xi32>"
    lhs = RNG.integers(-50, 50, (3, 5)).astype(np.int32)
    rhs = RNG.integers(1, 9, (3, 5)).astype(np.int32) * np.where(
        RNG.random((3, 5)) < 0.5, -1, 1
    ).astype(np.int32)
    result = _run(
        _binary_program(fun.value, i32, i32, i32),
        lhs,
        rhs,
        np.zeros((3, 5), np.int32),
    )
    expected = np.asarray(INTEGER_BINARY[fun](lhs, rhs)).astype(np.int32)
    np.testing.assert_array_equal(result.astype(np.int32), expected)


def test_binary_default_is_add_and_i1_add_is_or():
    np.testing.assert_allclose(
        _run(_binary_program(""), SIGNED, POSITIVE, OUT.copy()), SIGNED + POSITIVE
    )
    b = "tensor<3x5xi1>"
    x = RNG.random((3, 5)) < 0.5
    y = RNG.random((3, 5)) < 0.5
    result = _run(_binary_program("", b, b, b), x, y, np.zeros((3, 5), bool))
    np.testing.assert_array_equal(result.astype(bool), x | y)


def test_casts_read_integers_signed_or_unsigned():
    """`cast_signed` (the default) reads i8 -1 as -1, `cast_unsigned` as 255,
    widening to i32 and converting to f32 alike."""
    values = np.array([[-1, 2, -128, 127]], np.int8)
    for out, dtype in (("tensor<1x4xi32>", np.int32), ("tensor<1x4xf32>", np.float32)):
        for cast, expected in (
            ("cast_signed", values.astype(np.int64)),
            ("cast_unsigned", values.astype(np.int64) % 256),
        ):
            text = f"""
func.func @main(%x: tensor<1x4xi8>, %o: {out}) -> {out} {{
  %r = linalg.elemwise_binary {{cast = #linalg.type_fn<{cast}>}} ins(%x, %x : tensor<1x4xi8>, tensor<1x4xi8>) outs(%o : {out}) -> {out}
  return %r : {out}
}}
"""
            result = _run(text, values, np.zeros((1, 4), dtype))
            np.testing.assert_array_equal(result, (2 * expected).astype(dtype))


def test_scalar_and_rank0_inputs_are_broadcast():
    text = f"""
func.func @main(%x: {T}, %s: f32, %r: tensor<f32>, %o: {T}) -> ({T}, {T}) {{
  %a = linalg.elemwise_binary {{fun = #linalg.binary_fn<mul>}} ins(%x, %s : {T}, f32) outs(%o : {T}) -> {T}
  %b = linalg.elemwise_binary {{fun = #linalg.binary_fn<sub>}} ins(%r, %a : tensor<f32>, {T}) outs(%o : {T}) -> {T}
  return %a, %b : {T}, {T}
}}
"""
    module = parse_module(text)
    rank0 = np.array(5.0, np.float32)
    a, b = run_function(module, "main", [SIGNED, 3.0, rank0, OUT.copy()]).results
    np.testing.assert_allclose(a, SIGNED * 3)
    np.testing.assert_allclose(b, 5 - SIGNED * 3, rtol=1e-6)
    op = next(o for o in module.walk() if isinstance(o, ElemwiseBinaryOp))
    assert [str(m.data) for m in op.get_indexing_maps()] == [
        "(d0, d1) -> (d0, d1)",
        "(d0, d1) -> ()",
        "(d0, d1) -> (d0, d1)",
    ]
    assert [t.data.value for t in op.get_iterator_types()] == ["parallel"] * 2


ROUND_TRIP = f"""
func.func @main(%x: {T}, %i: tensor<3x5xi8>, %m: memref<3x5xf32>, %o: {T}) -> ({T}, {T}) {{
  %a = linalg.elemwise_unary {{fun = #linalg.unary_fn<abs>, my.tag = 1 : i64}} ins(%x : {T}) outs(%o : {T}) -> {T}
  %b = linalg.elemwise_binary {{cast = #linalg.type_fn<cast_unsigned>}} ins(%i, %a : tensor<3x5xi8>, {T}) outs(%o : {T}) -> {T}
  linalg.elemwise_unary ins(%m : memref<3x5xf32>) outs(%m : memref<3x5xf32>)
  return %a, %b : {T}, {T}
}}
"""


def test_printed_as_written_and_read_back():
    module = parse_module(ROUND_TRIP)
    text = print_module(module)
    for line in ROUND_TRIP.strip().splitlines()[1:4]:
        assert line.strip() in text, line
    reparsed = parse_module(text)
    assert reparsed.is_structurally_equivalent(module)
    generic = parse_module(print_module(module, generic=True))
    assert generic.is_structurally_equivalent(module)
    assert meaning_difference(module, reparsed, "main") is None


INVALID = {
    "unary on integers": (
        _unary_program("", "tensor<3xi32>", "tensor<3xi32>"),
        "'linalg.elemwise_unary' cannot compute fun exp on i32 elements",
    ),
    "powf on integers": (
        _binary_program("powf", *["tensor<3xi32>"] * 3),
        "cannot compute fun powf on i32 elements",
    ),
    "div on i1": (
        _binary_program("div", *["tensor<3xi1>"] * 3),
        "cannot compute fun div on i1 elements",
    ),
    "no conversion": (
        _unary_program("", "tensor<3xbf16>", "tensor<3xf16>"),
        "cannot cast_signed bf16 to f16",
    ),
    "binary fun on unary op": (
        _unary_program("", T, T).replace(
            "elemwise_unary", "elemwise_unary {fun = #linalg.binary_fn<add>}"
        ),
        "expects fun to be a #linalg.unary_fn<...>",
    ),
    "arity": (
        _unary_program("", T, T)
        .replace("ins(%x :", "ins(%x, %x :")
        .replace(f": {T}) outs", f": {T}, {T}) outs", 1),
        "expects 1 input(s) and 1 output, got 2 and 1",
    ),
    "rank": (
        _unary_program("", "tensor<5xf32>", T),
        "expected operand rank (1) to match the result rank of indexing_map #0 (2)",
    ),
    "shape": (
        _binary_program("", "tensor<3x4xf32>", T, T),
        "inferred input/output operand",
    ),
}


@pytest.mark.parametrize("case", sorted(INVALID))
def test_refused_with_a_message(case: str):
    text, message = INVALID[case]
    with pytest.raises((ParseError, VerifyException)) as error:
        parse_module(text)
    assert message in str(error.value)
    assert "Traceback" not in str(error.value)


def test_generalized_to_the_generic_it_stands_for():
    module = parse_module(ROUND_TRIP)
    before = parse_module(ROUND_TRIP)
    for op in list(module.walk()):
        if isinstance(op, LEGACY):
            generic = generalize(op)
            assert generic is not None
            Rewriter.replace_op(op, generic)
    names = {op.name for op in module.walk()}
    assert "linalg.elemwise_unary" not in names and "linalg.generic" in names
    assert meaning_difference(before, module, "main") is None


@dataclass(frozen=True)
class _TileElemwise(ModulePass):
    """Tile every elemwise op of the module by `sizes`."""

    name = "test-tile-elemwise"
    sizes: tuple[int, ...] = ()

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        targets: list[Operation] = [o for o in op.walk() if isinstance(o, LEGACY)]
        for target in targets:
            tile_using_for(target, self.sizes)


TILED = """
func.func @main(%x: tensor<7x10xf32>, %s: f32, %r: tensor<f32>, %i: tensor<7x10xi8>, %o: tensor<7x10xf32>) -> tensor<7x10xf32> {
  %a = linalg.elemwise_binary {fun = #linalg.binary_fn<mul>} ins(%x, %s : tensor<7x10xf32>, f32) outs(%o : tensor<7x10xf32>) -> tensor<7x10xf32>
  %b = linalg.elemwise_unary {fun = #linalg.unary_fn<tanh>} ins(%a : tensor<7x10xf32>) outs(%o : tensor<7x10xf32>) -> tensor<7x10xf32>
  %c = linalg.elemwise_binary {fun = #linalg.binary_fn<max_signed>} ins(%r, %b : tensor<f32>, tensor<7x10xf32>) outs(%o : tensor<7x10xf32>) -> tensor<7x10xf32>
  %d = linalg.elemwise_binary {cast = #linalg.type_fn<cast_unsigned>} ins(%i, %c : tensor<7x10xi8>, tensor<7x10xf32>) outs(%o : tensor<7x10xf32>) -> tensor<7x10xf32>
  return %d : tensor<7x10xf32>
}
"""


def test_tiled_with_scf_for_computes_the_same():
    """Partial tiles (7 by 3, 10 by 4), the scalar and the rank-0 input
    passed whole; the tiled ops are the same ops on slices."""
    module = parse_module(TILED)
    _TileElemwise((3, 4)).apply(Context(), module)
    module.verify()
    tiled = [o for o in module.walk() if isinstance(o, LEGACY)]
    assert len(tiled) == 4 and all(_in_loop(o) for o in tiled)
    assert meaning_difference(parse_module(TILED), module, "main") is None


def test_producers_fuse_into_the_tiled_consumer():
    """Tile-and-fuse from the last op: the three producers (scalar and
    rank-0 inputs among them) are computed tile by tile inside the loops."""
    module = parse_module(TILED)
    root = [o for o in module.walk() if isinstance(o, ElemwiseBinaryOp)][-1]
    result = tile_and_fuse(root, [3, 4])
    module.verify()
    assert sorted(op.name for op in result.producers) == [
        "linalg.elemwise_binary",
        "linalg.elemwise_binary",
        "linalg.elemwise_unary",
    ]
    outside = [o for o in module.walk() if isinstance(o, LEGACY) and not _in_loop(o)]
    assert outside == []
    assert meaning_difference(parse_module(TILED), module, "main") is None


def _in_loop(op: Operation) -> bool:
    parent = op.parent_op()
    return parent is not None and parent.name == "scf.for"


def test_tiled_and_untiled_compiled_natively():
    """The JIT (bufferization, loops, LLVM) runs the ops, untiled and tiled,
    as the interpreter does."""
    for pipeline in ([], [_TileElemwise((3, 4))]):
        report = check_module(parse_module(TILED), pipeline, backend="jit", trials=2)
        assert report.ok, report
    every_function = f"""
func.func @main(%x: {T}, %p: {T}, %o: {T}, %i: tensor<3x5xi32>, %j: tensor<3x5xi32>, %k: tensor<3x5xi32>) -> ({T}, {T}, {T}, tensor<3x5xi32>, tensor<3x5xi32>) {{
  %u = linalg.elemwise_unary {{fun = #linalg.unary_fn<erf>}} ins(%x : {T}) outs(%o : {T}) -> {T}
  %v = linalg.elemwise_unary {{fun = #linalg.unary_fn<round>}} ins(%u : {T}) outs(%o : {T}) -> {T}
  %w = linalg.elemwise_binary {{fun = #linalg.binary_fn<min_unsigned>}} ins(%x, %p : {T}, {T}) outs(%o : {T}) -> {T}
  %y = linalg.elemwise_binary {{fun = #linalg.binary_fn<max_unsigned>}} ins(%i, %j : tensor<3x5xi32>, tensor<3x5xi32>) outs(%k : tensor<3x5xi32>) -> tensor<3x5xi32>
  %z = linalg.elemwise_unary {{fun = #linalg.unary_fn<rsqrt>, cast = #linalg.type_fn<cast_unsigned>}} ins(%i : tensor<3x5xi32>) outs(%o : {T}) -> {T}
  %q = linalg.elemwise_binary {{fun = #linalg.binary_fn<div_unsigned>}} ins(%i, %j : tensor<3x5xi32>, tensor<3x5xi32>) outs(%k : tensor<3x5xi32>) -> tensor<3x5xi32>
  return %v, %w, %z, %y, %q : {T}, {T}, {T}, tensor<3x5xi32>, tensor<3x5xi32>
}}
"""
    report = check_module(
        parse_module(every_function),
        [],
        backend="jit",
        trials=2,
        ranges=["%j=1:100"],
    )
    assert report.ok, report
