"""Forms that upstream's and ByteIR's test inputs write and xDSL 0.74 could
not read (issue 16, "Upstream's syntax parses"; docs/compat.md, "Upstream's
syntax in test inputs"): `scf.for`/`scf.if` result types without
parentheses, `scf.while` without operands, `linalg.generic #trait`,
semi-affine maps, `vector.print`, `shape.shape_of` and friends.

For each program (our own inputs): it parses and verifies, our print and
our generic print read back to the same IR, and with mlir-opt-22 installed
mlir-opt-22 reads our print and prints what we read as the same IR. Then the
functions run: against numpy or Python references, `vector.print` against
what `mlir-runner-22` prints for the same program, and the semi-affine maps
before and after `lower-affine-ext`.
"""

from __future__ import annotations

import math
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest
from xdsl.dialects.builtin import IndexType, IntegerType, Signedness, VectorType, f32
from xdsl.utils.exceptions import InterpretationError, ParseError, VerifyException

from helpers import mlir_opt_text, parse_module, print_module
from linalg_ext.running import run_function
from linalg_ext.semantics.print_format import format_printed

MLIR_OPT = shutil.which("mlir-opt-22")
MLIR_RUNNER = shutil.which("mlir-runner-22")
needs_mlir_opt = pytest.mark.skipif(
    MLIR_OPT is None, reason="mlir-opt-22 is not installed"
)
needs_mlir_runner = pytest.mark.skipif(
    MLIR_OPT is None or MLIR_RUNNER is None,
    reason="mlir-opt-22 and mlir-runner-22 are not installed",
)

PROGRAMS: dict[str, str] = {
    "scf_result_types": """
func.func @f(%t: tensor<4xf32>, %n: index, %c: i1, %v: f32) -> (tensor<4xf32>, f32, index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %t) -> tensor<4xf32> {
    %x = tensor.extract %acc[%i] : tensor<4xf32>
    %y = arith.addf %x, %v : f32
    %e = tensor.insert %y into %acc[%i] : tensor<4xf32>
    scf.yield %e : tensor<4xf32>
  }
  %s = scf.if %c -> f32 {
    scf.yield %v : f32
  } else {
    %z = arith.negf %v : f32
    scf.yield %z : f32
  }
  %k:2 = scf.for %i = %c0 to %n step %c1 iter_args(%a = %c0, %b = %c1) -> (index, index) {
    %sum = arith.addi %a, %b : index
    scf.yield %b, %sum : index, index
  }
  scf.while : () -> () {
    %false = arith.constant false
    scf.condition(%false)
  } do {
    scf.yield
  }
  return %r, %s, %k#0 : tensor<4xf32>, f32, index
}
""",
    "generic_trait": """
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#elementwise = {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
#row_sum = {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"], library_call = "row_sum"}
func.func @f(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>, %init: tensor<2xf32>) -> (tensor<2x3xf32>, tensor<2xf32>) {
  %sum = linalg.generic #elementwise ins(%a, %b : tensor<2x3xf32>, tensor<2x3xf32>) outs(%a : tensor<2x3xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<2x3xf32>
  %prod = linalg.generic #elementwise ins(%sum, %b : tensor<2x3xf32>, tensor<2x3xf32>) outs(%a : tensor<2x3xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %p = arith.mulf %x, %y : f32
    linalg.yield %p : f32
  } -> tensor<2x3xf32>
  %rows = linalg.generic #row_sum ins(%prod : tensor<2x3xf32>) outs(%init : tensor<2xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %s = arith.addf %x, %acc : f32
    linalg.yield %s : f32
  } -> tensor<2xf32>
  return %prod, %rows : tensor<2x3xf32>, tensor<2xf32>
}
""",
    "semi_affine": """
func.func @f(%i: index, %n: index) -> (index, index, index, index, index) {
  %a = affine.apply affine_map<(d0)[s0] -> (d0 ceildiv s0)>(%i)[%n]
  %b = affine.apply affine_map<(d0)[s0] -> (d0 floordiv s0)>(%i)[%n]
  %c = affine.apply affine_map<(d0)[s0] -> (d0 mod s0)>(%i)[%n]
  %d = affine.min affine_map<(d0)[s0] -> (d0 * s0, (d0 + 3) floordiv s0)>(%i)[%n]
  %e = affine.max affine_map<(d0)[s0, s1] -> (d0 ceildiv (s0 * s1), -d0 mod s0)>(%i)[%n, %n]
  return %a, %b, %c, %d, %e : index, index, index, index, index
}
""",
    "affine_access": """
func.func @f(%m: memref<16xi32>, %n: index) -> i32 {
  %sum0 = arith.constant 0 : i32
  %r = affine.for %i = 0 to 8 iter_args(%sum = %sum0) -> (i32) {
    %v = affine.load %m[%i floordiv symbol(%n) + %i] : memref<16xi32>
    affine.store %v, %m[%i * symbol(%n) mod 16] : memref<16xi32>
    %s = arith.addi %sum, %v : i32
    affine.yield %s : i32
  }
  return %r : i32
}
""",
    "vector_print": """
func.func @f(%x: f32, %k: i32, %v: vector<3xf32>) {
  vector.print %x : f32
  vector.print %v : vector<3xf32>
  vector.print %k : i32 punctuation <comma>
  vector.print str "done\\n"
  vector.print punctuation <open>
  vector.print {tag}
  return
}
""",
    "shapes": """
func.func @f(%t: tensor<?x4xf32>, %m: memref<2x?xi8>) -> (tensor<2xindex>, tensor<2xindex>, tensor<3xindex>, index) {
  %c0 = arith.constant 0 : index
  %s = shape.shape_of %t : tensor<?x4xf32> -> tensor<?xindex>
  %e = shape.to_extent_tensor %s : tensor<?xindex> -> tensor<2xindex>
  %b = shape.shape_of %m {tag} : memref<2x?xi8> -> tensor<2xindex>
  %c = shape.const_shape [2, 1, 4] : tensor<3xindex>
  %rows = tensor.extract %e[%c0] : tensor<2xindex>
  return %e, %b, %c, %rows : tensor<2xindex>, tensor<2xindex>, tensor<3xindex>, index
}
""",
}


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_round_trip(name: str) -> None:
    module = parse_module(PROGRAMS[name])
    text = print_module(module)
    assert parse_module(text).is_structurally_equivalent(module), text
    generic = print_module(module, generic=True)
    assert parse_module(generic).is_structurally_equivalent(module), generic


@needs_mlir_opt
@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_mlir_opt_reads_our_print(name: str) -> None:
    module = parse_module(PROGRAMS[name])
    for generic in (False, True):
        upstream = mlir_opt_text(print_module(module, generic=generic))
        back = parse_module(upstream)
        assert back.is_structurally_equivalent(module), upstream


# --------------------------------------------------------------------------
# Meaning


def test_scf_result_types_run() -> None:
    module = parse_module(PROGRAMS["scf_result_types"])
    t = np.arange(4, dtype=np.float32)
    for n, c in ((3, True), (0, False), (4, False)):
        run = run_function(module, "f", [t.copy(), n, c, 0.5])
        expected = t.copy()
        expected[:n] += 0.5
        np.testing.assert_array_equal(run.results[0], expected)
        assert run.results[1] == (0.5 if c else -0.5)
        fibonacci = [0, 1]
        for _ in range(n):
            fibonacci = [fibonacci[1], sum(fibonacci)]
        assert run.results[2] == fibonacci[0]


def test_generic_trait_run() -> None:
    module = parse_module(PROGRAMS["generic_trait"])
    rng = np.random.default_rng(3)
    a, b = (rng.standard_normal((2, 3)).astype(np.float32) for _ in range(2))
    init = rng.standard_normal(2).astype(np.float32)
    run = run_function(module, "f", [a, b, init])
    product = (a + b) * b
    np.testing.assert_allclose(run.results[0], product, rtol=1e-6)
    np.testing.assert_allclose(run.results[1], init + product.sum(axis=1), rtol=1e-5)


def _semi_affine_reference(i: int, n: int) -> list[int]:
    """MLIR's semi-affine operators: floor and ceiling of the exact
    quotient, and the remainder of the floor division."""
    return [
        -(-i // n),
        i // n,
        i % n,
        min(i * n, (i + 3) // n),
        max(-(-i // (n * n)), (-i) % n),
    ]


SEMI_AFFINE_POINTS = [(i, n) for i in (-7, -1, 0, 1, 5, 12) for n in (1, 2, 3, 5)]


def test_semi_affine_run() -> None:
    module = parse_module(PROGRAMS["semi_affine"])
    for i, n in SEMI_AFFINE_POINTS:
        assert run_function(module, "f", [i, n]).results == _semi_affine_reference(
            i, n
        ), (i, n)


def test_semi_affine_lowered_keeps_meaning() -> None:
    """`lower-affine-ext` turns the maps into arith ops that compute the same."""
    from linalg_ext.pipelines import apply_pipeline

    module = parse_module(PROGRAMS["semi_affine"])
    lowered = module.clone()
    apply_pipeline("lower-affine-ext", lowered)
    assert not any(op.name.startswith("affine.") for op in lowered.walk())
    for i, n in SEMI_AFFINE_POINTS:
        assert (
            run_function(lowered, "f", [i, n]).results
            == run_function(module, "f", [i, n]).results
        ), (i, n)


@pytest.mark.parametrize("op_name", ["affine.apply", "affine.min", "affine.max"])
def test_semi_affine_division_by_zero_is_named(op_name: str) -> None:
    source = {
        "affine.apply": "%r = affine.apply affine_map<(d0)[s0] -> (d0 floordiv s0)>(%i)[%n]",
        "affine.min": "%r = affine.min affine_map<(d0)[s0] -> (d0 ceildiv s0, 4)>(%i)[%n]",
        "affine.max": "%r = affine.max affine_map<(d0)[s0] -> (d0 mod s0, 4)>(%i)[%n]",
    }[op_name]
    module = parse_module(
        f"func.func @f(%i: index, %n: index) -> index {{\n  {source}\n"
        "  return %r : index\n}"
    )
    with pytest.raises(InterpretationError, match=f"{op_name}: division by zero"):
        run_function(module, "f", [7, 0])


def test_affine_access_run() -> None:
    """Symbols of access maps are their own operands (xDSL printed the n-th
    operand for `sN`), and the maps mean what upstream's mean."""
    module = parse_module(PROGRAMS["affine_access"])
    back = parse_module(print_module(module))
    for n in (1, 3):
        memory = np.arange(16, dtype=np.int32) * 10
        expected_memory, total = memory.copy(), 0
        for i in range(8):
            value = expected_memory[i // n + i]
            expected_memory[(i * n) % 16] = value
            total += int(value)
        for program in (module, back):
            run = run_function(program, "f", [memory.copy(), n])
            assert run.results == [total]
            np.testing.assert_array_equal(run.arguments[0], expected_memory)


def test_shapes_run() -> None:
    module = parse_module(PROGRAMS["shapes"])
    t = np.zeros((5, 4), dtype=np.float32)
    m = np.zeros((2, 7), dtype=np.int8)
    run = run_function(module, "f", [t, m])
    np.testing.assert_array_equal(run.results[0], [5, 4])
    np.testing.assert_array_equal(run.results[1], [2, 7])
    np.testing.assert_array_equal(run.results[2], [2, 1, 4])
    assert run.results[3] == 5


def test_to_extent_tensor_of_wrong_length_is_named() -> None:
    module = parse_module(
        """
func.func @f(%e: tensor<?xindex>) -> tensor<2xindex> {
  %r = shape.to_extent_tensor %e : tensor<?xindex> -> tensor<2xindex>
  return %r : tensor<2xindex>
}"""
    )
    with pytest.raises(InterpretationError, match="shape.to_extent_tensor"):
        run_function(module, "f", [np.array([1, 2, 3], dtype=np.int64)])


# --------------------------------------------------------------------------
# vector.print: what mlir-runner-22 prints

PRINTING = """
func.func @main() {
  %f = arith.constant 1.5 : f32
  %tiny = arith.constant -2.25e-7 : f32
  %big = arith.constant 1.0e20 : f64
  %third = arith.constant 0.333333333 : f64
  %h = arith.constant 2.5 : f16
  %i = arith.constant -7 : i32
  %wrapped = arith.constant 200 : i8
  %t = arith.constant true
  %x = arith.constant -1 : index
  %y = arith.constant 42 : index
  vector.print %f : f32
  vector.print %tiny : f32
  vector.print %big : f64
  vector.print %third : f64
  vector.print %h : f16
  vector.print %i : i32
  vector.print %wrapped : i8
  vector.print %t : i1
  vector.print %x : index
  vector.print str "values: "
  vector.print punctuation <open>
  vector.print %y : index punctuation <comma>
  vector.print %i : i32 punctuation <no_punctuation>
  vector.print punctuation <close>
  vector.print
  vector.print str "end\\n"
  return
}
"""

EXPECTED_PRINTING = (
    "1.5\n-2.25e-07\n1e+20\n0.333333\n2.5\n-7\n-56\n1\n18446744073709551615\n"
    "values: ( 42, -7 )\nend\n"
)

RUNNER_LOWERING = (
    "--convert-vector-to-scf",
    "--convert-scf-to-cf",
    "--convert-vector-to-llvm",
    "--convert-arith-to-llvm",
    "--convert-func-to-llvm",
    "--convert-cf-to-llvm",
    "--reconcile-unrealized-casts",
)


def _mlir_runner_output(source: str) -> str:
    assert MLIR_OPT is not None and MLIR_RUNNER is not None
    lowered = mlir_opt_text(source, *RUNNER_LOWERING)
    lib_dir = Path(MLIR_OPT).resolve().parent.parent / "lib"
    library = next(iter(sorted(lib_dir.glob("libmlir_c_runner_utils.so*"))))
    result = subprocess.run(
        [
            MLIR_RUNNER,
            "-e",
            "main",
            "-entry-point-result=void",
            f"-shared-libs={library}",
        ],
        input=lowered,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_vector_print_run(capsys: pytest.CaptureFixture[str]) -> None:
    run_function(parse_module(PRINTING), "main", [])
    assert capsys.readouterr().out == EXPECTED_PRINTING


@needs_mlir_runner
def test_vector_print_matches_mlir_runner() -> None:
    assert _mlir_runner_output(PRINTING) == EXPECTED_PRINTING


VECTORS = [
    ("dense<[1.0, 2.5, -3.0]> : vector<3xf32>", [1.0, 2.5, -3.0]),
    ("dense<[[1, 2], [3, -4]]> : vector<2x2xi64>", [[1, 2], [3, -4]]),
    ("dense<[true, false]> : vector<2xi1>", [True, False]),
    ("dense<7.0> : vector<f32>", 7.0),
    ("dense<[255, 1]> : vector<2xi8>", [255, 1]),
]


def _vector_type(text: str) -> VectorType:
    module = parse_module(
        f"func.func @f() {{\n  %v = arith.constant {text}\n  return\n}}"
    )
    (constant,) = [op for op in module.walk() if op.name == "arith.constant"]
    type_ = constant.results[0].type
    assert isinstance(type_, VectorType)
    return type_


def test_vector_format() -> None:
    expected = ["( 1, 2.5, -3 )", "( ( 1, 2 ), ( 3, -4 ) )", "( 1, 0 )", "( 7 )"]
    expected.append("( -1, 1 )")
    for (text, values), line in zip(VECTORS, expected, strict=True):
        assert format_printed(np.array(values), _vector_type(text)) == line


@needs_mlir_runner
def test_vector_format_matches_mlir_runner() -> None:
    constants = "\n".join(
        f"  %v{i} = arith.constant {text}\n  vector.print %v{i} : {text.split(' : ')[1]}"
        for i, (text, _) in enumerate(VECTORS)
    )
    output = _mlir_runner_output(f"func.func @main() {{\n{constants}\n  return\n}}")
    ours = "".join(
        format_printed(np.array(values), _vector_type(text)) + "\n"
        for text, values in VECTORS
    )
    assert output == ours


def test_unsigned_and_index_format() -> None:
    ui8 = IntegerType(8, Signedness.UNSIGNED)
    assert format_printed(-1, ui8) == "255"
    assert format_printed(-1, IndexType()) == str(2**64 - 1)
    assert format_printed(math.inf, f32) == "inf"


# --------------------------------------------------------------------------
# Refused forms


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (
            'vector.print %x : f32 str "a"',
            "'vector.print' op failed to verify that `source` or `punctuation` "
            "are not set when printing strings",
        ),
        (
            "%s = shape.shape_of %t : tensor<?x4xf32> -> tensor<3xindex>",
            "'shape.shape_of' op inferred type(s) 'tensor<2xindex>' are "
            "incompatible with return type(s) of operation 'tensor<3xindex>'",
        ),
        (
            "%s = shape.shape_of %t : tensor<?x4xf32> -> tensor<2xi32>",
            "'shape.shape_of' op result #0 must be shape or extent tensor, but got "
            "'tensor<2xi32>'",
        ),
        (
            "%s = shape.const_shape [1, 2] : tensor<?xindex>",
            "'shape.const_shape' op inferred type(s) 'tensor<2xindex>' are "
            "incompatible with return type(s) of operation 'tensor<?xindex>'",
        ),
    ],
)
def test_invalid_forms_are_refused(body: str, message: str) -> None:
    source = f"func.func @f(%x: f32, %t: tensor<?x4xf32>) {{\n  {body}\n  return\n}}"
    with pytest.raises(VerifyException) as error:
        parse_module(source)
    assert message in str(error.value)
    if MLIR_OPT is not None:  # upstream refuses it with the same words
        result = subprocess.run(
            [MLIR_OPT], input=source, capture_output=True, text=True
        )
        assert result.returncode != 0 and message in result.stderr


def test_generic_with_a_non_dictionary_alias_is_refused() -> None:
    source = """
#not_a_trait = [1, 2]
func.func @f(%t: tensor<4xf32>) -> tensor<4xf32> {
  %r = linalg.generic #not_a_trait ins(%t : tensor<4xf32>) outs(%t : tensor<4xf32>) {
  ^bb0(%x: f32, %y: f32):
    linalg.yield %x : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}"""
    with pytest.raises(ParseError, match="'linalg.generic' expects a dictionary"):
        parse_module(source)
