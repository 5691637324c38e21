"""The tools never end in a traceback; `.npy` inputs follow one rule.

Every bad invocation of `linalg-ext-run` (and the internal errors of
`linalg-ext-opt`) is one line on stderr naming the file, function or op and
the reason, with exit code 1. Inputs are converted by
`linalg_ext.argument_values` for both backends: accepted and refused alike,
with the same message.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from xdsl.dialects.builtin import (
    Float16Type,
    Float32Type,
    IndexType,
    IntegerType,
    MemRefType,
    TensorType,
)
from xdsl.utils.exceptions import InterpretationError

from helpers import parse_module
from linalg_ext.argument_values import ArgumentValueError, argument_value
from linalg_ext.running import run_function
from linalg_ext.tools import opt, run

PROGRAM = """
func.func @scale(%x: tensor<4xf32>, %s: f32) -> tensor<4xf32> {
  %init = tensor.empty() : tensor<4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
                       iterator_types = ["parallel"]}
      ins(%x : tensor<4xf32>) outs(%init : tensor<4xf32>) {
  ^bb0(%v: f32, %o: f32):
    %a = arith.mulf %v, %s : f32
    linalg.yield %a : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}
func.func @shift(%x: memref<4xi32>, %s: i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %c4 step %c1 {
    %v = memref.load %x[%i] : memref<4xi32>
    %w = arith.addi %v, %s : i32
    memref.store %w, %x[%i] : memref<4xi32>
  }
  return
}
func.func @select(%m: tensor<3xi1>, %a: tensor<3xi8>) -> tensor<3xi8> {
  %zero = arith.constant 0 : i8
  %init = tensor.empty() : tensor<3xi8>
  %r = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>,
                                        affine_map<(i) -> (i)>],
                       iterator_types = ["parallel"]}
      ins(%m, %a : tensor<3xi1>, tensor<3xi8>) outs(%init : tensor<3xi8>) {
  ^bb0(%b: i1, %v: i8, %o: i8):
    %s = arith.select %b, %v, %zero : i8
    linalg.yield %s : i8
  } -> tensor<3xi8>
  return %r : tensor<3xi8>
}
func.func @alloc(%n: index) -> memref<?xf32> {
  %m = memref.alloc(%n) : memref<?xf32>
  return %m : memref<?xf32>
}
func.func @empty(%n: index) -> tensor<?x?xf32> {
  %t = tensor.empty(%n, %n) : tensor<?x?xf32>
  return %t : tensor<?x?xf32>
}
"""

UNSUPPORTED = """
func.func private @external(i32) -> i32
func.func @unranked(%x: tensor<*xf32>) -> tensor<*xf32> {
  return %x : tensor<*xf32>
}
func.func @vector(%x: vector<4xf32>) -> vector<4xf32> {
  return %x : vector<4xf32>
}
func.func @brain(%x: tensor<4xbf16>) -> tensor<4xbf16> {
  return %x : tensor<4xbf16>
}
"""

BACKENDS = ["interpreter", "jit"]


@pytest.fixture
def program(tmp_path) -> Path:
    path = tmp_path / "program.mlir"
    path.write_text(PROGRAM)
    return path


@pytest.fixture
def unsupported(tmp_path) -> Path:
    path = tmp_path / "unsupported.mlir"
    path.write_text(UNSUPPORTED)
    return path


def write_npz(path: Path) -> None:
    with path.open("wb") as file:
        np.savez(file, a=X)


def one_line_error(capsys, code: int) -> str:
    """The one stderr line of a failed run, `linalg-ext-run: error: ` cut."""
    out, err = capsys.readouterr()
    assert code == 1, out + err
    assert "Traceback" not in err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    prefix = "linalg-ext-run: error: "
    assert lines[0].startswith(prefix), err
    return lines[0].removeprefix(prefix)


def located(text: str, op: str, function: str) -> str:
    """`line:col` of the name of the first op `op` written in `@function`
    of `text` (where the tools locate it)."""
    lines = list(enumerate(text.splitlines(), 1))
    start = next(n for n, line in lines if f"@{function}(" in line)
    number, line = next((n, line) for n, line in lines[start:] if op in line)
    return f"{number}:{line.index(op) + 1}"


def save(tmp_path: Path, name: str, value) -> str:
    path = tmp_path / f"{name}.npy"
    np.save(path, value, allow_pickle=True)
    return str(path)


def run_with(program: Path, entry: str, backend: str, *inputs: str) -> int:
    argv = [str(program), "--entry", entry, "--backend", backend]
    return run.main([*argv, "--inputs", *inputs] if inputs else argv)


# --------------------------------------------------------------------------
# --inputs: the same refusals on both backends, before anything runs


X = np.ones(4, np.float32)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(
    ("x", "s", "message"),
    [
        # A scalar given as an array, even of one element.
        (
            X,
            np.array([2.0], np.float32),
            "argument #1 of @scale is a scalar of type "
            "f32, the input has shape [1] (file {s})",
        ),
        (
            X,
            np.ones((2, 2), np.float32),
            "argument #1 of @scale is a scalar of type "
            "f32, the input has shape [2, 2] (file {s})",
        ),
        # Strings, complex numbers, structured dtypes, booleans: never numbers
        # of the declared type.
        (
            np.array(list("abcd")),
            np.float32(1),
            "argument #0 of @scale has dtype <U1, "
            "tensor<4xf32> needs float32 (file {x})",
        ),
        (X, np.array("a"), "argument #1 of @scale has dtype <U1, f32 needs float32"),
        (
            X.astype(np.complex64),
            np.float32(1),
            "argument #0 of @scale has dtype complex64, tensor<4xf32> needs float32",
        ),
        (
            X,
            np.complex128(1 + 2j),
            "argument #1 of @scale has dtype complex128, f32 needs float32",
        ),
        (
            np.zeros(4, [("a", "f4")]),
            np.float32(1),
            "argument #0 of @scale has dtype "
            "[('a', '<f4')], tensor<4xf32> needs float32",
        ),
        (
            np.ones(4, bool),
            np.float32(1),
            "argument #0 of @scale has dtype bool, tensor<4xf32> needs float32",
        ),
        (
            X,
            np.zeros(1, "V2").reshape(()),
            "argument #1 of @scale has dtype |V2, f32 needs float32",
        ),  # a bf16 numpy cannot read
        # Finite values the type cannot hold.
        (
            np.full(4, 1e40),
            np.float32(1),
            "argument #0 of @scale: element [0] = 1e+40 "
            "is out of range of f32 (file {x})",
        ),
        (X, np.float64(-1e40), "argument #1 of @scale: -1e+40 is out of range of f32"),
    ],
)
def test_refused_float_inputs(backend, x, s, message, program, tmp_path, capsys):
    paths = {"x": save(tmp_path, "x", x), "s": save(tmp_path, "s", s)}
    code = run_with(program, "scale", backend, paths["x"], paths["s"])
    assert one_line_error(capsys, code).startswith(message.format(**paths))


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(
    ("x", "s", "message"),
    [
        (
            np.zeros(4, np.int32),
            np.float64(2.7),
            "argument #1 of @shift has dtype float64, i32 needs int32",
        ),
        (
            np.zeros(4, np.int32),
            np.float64(2.0),
            "argument #1 of @shift has dtype float64, i32 needs int32",
        ),
        (
            np.zeros(4, np.int32),
            np.int64(10**10),
            "argument #1 of @shift: 10000000000 is out of range of i32",
        ),
        (
            np.zeros(4, np.int32),
            np.bool_(True),
            "argument #1 of @shift has dtype bool, i32 needs int32",
        ),
        (
            np.array([0, 1, 2, 2**33]),
            np.int32(1),
            "argument #0 of @shift: element [3] = 8589934592 is out of range of i32",
        ),
        (
            np.array([0.0, 1, 2, 3]),
            np.int32(1),
            "argument #0 of @shift has dtype float64, memref<4xi32> needs int32",
        ),
        (
            np.zeros(5, np.int32),
            np.int32(1),
            "argument #0 of @shift has shape [5], which does not fit memref<4xi32>",
        ),
    ],
)
def test_refused_integer_inputs(backend, x, s, message, program, tmp_path, capsys):
    paths = [save(tmp_path, "x", x), save(tmp_path, "s", s)]
    code = run_with(program, "shift", backend, *paths)
    assert one_line_error(capsys, code).startswith(message)


def accepted_shift(program: Path, backend: str, tmp_path: Path, capsys, x, s):
    paths = [save(tmp_path, "x", x), save(tmp_path, "s", s)]
    out_dir = tmp_path / backend
    argv = [str(program), "--entry", "shift", "--backend", backend]
    code = run.main([*argv, "--inputs", *paths, "--save-dir", str(out_dir)])
    assert code == 0, capsys.readouterr().err
    capsys.readouterr()
    return np.load(out_dir / "argument0.npy")


@pytest.mark.parametrize("backend", BACKENDS)
def test_values_that_fit_are_converted(backend, program, tmp_path, capsys):
    # int64 values that fit an i32; a uint32 read as the signless i32 it is.
    shifted = accepted_shift(
        program, backend, tmp_path, capsys, np.array([1, -2, 3, 2**31 - 2]), 1
    )
    assert shifted.dtype == np.int32
    np.testing.assert_array_equal(shifted, [2, -1, 4, 2**31 - 1])
    shifted = accepted_shift(
        program, backend, tmp_path, capsys, np.zeros(4, np.int32), np.uint32(2**32 - 1)
    )
    np.testing.assert_array_equal(shifted, [-1, -1, -1, -1])


@pytest.mark.parametrize("backend", BACKENDS)
def test_bool_arrays_are_i1(backend, program, tmp_path, capsys):
    paths = [
        save(tmp_path, "m", np.array([True, False, True])),
        save(tmp_path, "a", np.array([5, 6, 7], np.int64)),
    ]
    argv = [str(program), "--entry", "select", "--backend", backend]
    code = run.main([*argv, "--inputs", *paths, "--save-dir", str(tmp_path)])
    assert code == 0, capsys.readouterr().err
    np.testing.assert_array_equal(np.load(tmp_path / "result0.npy"), [5, 0, 7])
    paths[0] = save(tmp_path, "m", np.array([0, 2, 1]))
    code = run.main([*argv, "--inputs", *paths])
    assert one_line_error(capsys, code).startswith(
        "argument #0 of @select: element [1] = 2 is out of range of i1"
    )


@pytest.mark.parametrize("backend", BACKENDS)
def test_float64_into_f32_rounds(backend, program, tmp_path, capsys):
    x = np.array([0.1, 1e30, -2.5, np.inf])
    paths = [save(tmp_path, "x", x), save(tmp_path, "s", 2.0)]
    argv = [str(program), "--entry", "scale", "--backend", backend]
    code = run.main([*argv, "--inputs", *paths, "--save-dir", str(tmp_path)])
    assert code == 0, capsys.readouterr().err
    result = np.load(tmp_path / "result0.npy")
    np.testing.assert_array_equal(result, x.astype(np.float32) * 2)


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda p: p.write_bytes(b"hello"), "{p} is not a .npy file"),
        (write_npz, "{p} is not a .npy file"),
        (
            lambda p: np.save(p, np.array([1, "a"], object), allow_pickle=True),
            "{p} holds Python objects (dtype object), not numbers",
        ),
        (lambda p: None, "cannot read {p}: No such file or directory"),
        (lambda p: p.mkdir(), "cannot read {p}: Is a directory"),
        (
            lambda p: p.write_bytes(np.lib.format.MAGIC_PREFIX + b"\x01\x00"),
            "cannot load {p}: ",
        ),
    ],
)
def test_unreadable_input_files(make, message, program, tmp_path, capsys):
    path = tmp_path / "bad.npy"
    make(path)
    s = save(tmp_path, "s", np.float32(1))
    code = run_with(program, "scale", "interpreter", str(path), s)
    assert one_line_error(capsys, code).startswith(message.format(p=path))


def test_wrong_number_of_inputs(program, tmp_path, capsys):
    code = run_with(program, "scale", "interpreter", save(tmp_path, "x", X))
    assert one_line_error(capsys, code) == "@scale takes 2 arguments, --inputs gives 1"


# --------------------------------------------------------------------------
# The module, the entry, the arguments' types, the options


@pytest.mark.parametrize(
    ("entry", "message"),
    [
        ("nope", "no function @nope in the module"),
        ("external", "@external is only declared in {file}, not defined"),
        ("unranked", "argument #0 of @unranked: unsupported type tensor<*xf32>"),
        ("vector", "argument #0 of @vector: unsupported type vector<4xf32>"),
        ("brain", "argument #0 of @brain: unsupported type tensor<4xbf16>"),
    ],
)
@pytest.mark.parametrize("backend", BACKENDS)
def test_functions_that_cannot_be_run(entry, message, backend, unsupported, capsys):
    code = run_with(unsupported, entry, backend)
    assert one_line_error(capsys, code) == message.format(file=unsupported)


def test_module_without_a_function(tmp_path, capsys):
    path = tmp_path / "empty.mlir"
    path.write_text("builtin.module {}\n")
    assert one_line_error(capsys, run.main([str(path)])) == (
        f"{path} defines no function to run"
    )


def test_module_that_does_not_verify_is_located(tmp_path, capsys):
    path = tmp_path / "invalid.mlir"
    path.write_text(
        "func.func @f() -> i32 {\n"
        "  %c = arith.constant 1 : i64\n"
        "  func.return %c : i64\n"
        "}\n"
    )
    message = one_line_error(capsys, run.main([str(path)]))
    assert message.startswith(f"{path}:3:3: invalid IR: 'func.return' op ")


def test_file_that_is_not_text(tmp_path, capsys):
    path = tmp_path / "binary.mlir"
    path.write_bytes(b"\xff\xfe\x00func")
    assert one_line_error(capsys, run.main([str(path)])) == (
        f"cannot read {path}: not a text file (UTF-8)"
    )


def test_save_dir_that_cannot_be_written(program, tmp_path, capsys):
    argv = [str(program), "--entry", "scale", "--save-dir"]
    code = run.main([*argv, str(program)])
    assert one_line_error(capsys, code) == (
        f"--save-dir {program}: exists and is not a directory"
    )
    code = run.main([*argv, str(program / "below")])
    assert one_line_error(capsys, code).startswith(
        f"--save-dir {program / 'below'}: cannot create it: "
    )


def test_bad_command_line_is_one_line_exit_1(program, capsys):
    code = 0
    try:
        run.main([str(program), "--seed", "x"])
    except SystemExit as exit_:
        code = exit_.code
    assert one_line_error(capsys, int(code or 0)) == (
        "argument --seed: invalid int value: 'x' (--help lists the options)"
    )


# --------------------------------------------------------------------------
# Run-time failures


@pytest.mark.parametrize(
    ("entry", "size", "message"),
    [
        ("alloc", 2**40, "memref.alloc: cannot allocate 4398046511104 bytes"),
        (
            "empty",
            2**40,
            "tensor.empty: cannot allocate shape [1099511627776, 1099511627776] "
            "of 4-byte elements (more than 2**63 - 1 bytes)",
        ),
    ],
)
def test_huge_allocation_is_refused(entry, size, message, program, tmp_path, capsys):
    n = save(tmp_path, "n", np.int64(size))
    code = run_with(program, entry, "interpreter", n)
    op = message.split(":")[0]
    assert one_line_error(capsys, code) == (
        f"{program}:{located(PROGRAM, op, entry)}: cannot run @{entry}: {message}"
    )


def test_unforeseen_exception_is_an_internal_error(
    program, tmp_path, capsys, monkeypatch
):
    def crash(*_):
        raise KeyError("missing")

    monkeypatch.setattr(run, "run_function", crash)
    code = run.main([str(program), "--entry", "scale"])
    assert one_line_error(capsys, code) == (
        f"{program}: cannot run @scale: internal error: KeyError: 'missing' "
        "(LINALG_EXT_TRACEBACK=1 shows the traceback)"
    )

    def exhaust(*_):
        raise MemoryError

    monkeypatch.setattr(run, "run_function", exhaust)
    code = run.main([str(program), "--entry", "scale"])
    assert (
        one_line_error(capsys, code) == f"{program}: cannot run @scale: out of memory"
    )
    monkeypatch.setenv("LINALG_EXT_TRACEBACK", "1")
    with pytest.raises(MemoryError):
        run.main([str(program), "--entry", "scale"])


def test_no_traceback_from_the_installed_script(program, tmp_path):
    script = Path(sys.executable).parent / "linalg-ext-run"
    x, s = save(tmp_path, "x", X), save(tmp_path, "s", np.ones((2, 2)))
    for argv in (
        [str(program), "--entry", "scale", "--inputs", x, s],
        [str(program), "--entry", "scale", "--save-dir", str(program)],
    ):
        done = subprocess.run(
            [str(script), *argv], capture_output=True, text=True, timeout=120
        )
        assert done.returncode == 1
        assert "Traceback" not in done.stderr
        assert len(done.stderr.strip().splitlines()) == 1, done.stderr


# --------------------------------------------------------------------------
# linalg-ext-opt: an exception outside any pass is an internal error too


def test_opt_internal_error_outside_a_pass(tmp_path, capsys, monkeypatch):
    path = tmp_path / "p.mlir"
    path.write_text("func.func @f() { func.return }")

    def crash(*_):
        raise RuntimeError("driver bug")

    monkeypatch.setattr(opt.LinalgExtOptMain, "split", crash)
    assert opt.main([str(path)]) == 1
    out, err = capsys.readouterr()
    assert (out, err) == (
        "",
        "linalg-ext-opt: internal error: RuntimeError: driver bug (--show-traceback "
        "or LINALG_EXT_TRACEBACK=1 prints the traceback)\n",
    )
    with pytest.raises(RuntimeError):
        opt.main([str(path), "--show-traceback"])
    monkeypatch.setenv("LINALG_EXT_TRACEBACK", "1")
    with pytest.raises(RuntimeError):
        opt.main([str(path)])


# --------------------------------------------------------------------------
# The rule itself (linalg_ext.argument_values), and the interpreter's API

F32, I32, I1 = Float32Type(), IntegerType(32), IntegerType(1)


@pytest.mark.parametrize(
    ("value", "type_", "expected"),
    [
        (3, F32, 3.0),
        (np.float64(0.1), F32, float(np.float32(0.1))),
        (np.uint8(200), IntegerType(8), -56),
        (2**64 - 1, IndexType(), -1),
        (-(2**31), I32, -(2**31)),
        (True, I1, 1),
        (np.int8(-1), I1, 1),
        (float("nan"), Float16Type(), "nan"),
    ],
)
def test_accepted_scalars(value, type_, expected):
    converted = argument_value(value, type_, "argument #0 of @f")
    if expected == "nan":
        assert np.isnan(converted)
    else:
        assert converted == expected and type(converted) is type(expected)


@pytest.mark.parametrize(
    ("value", "type_", "message"),
    [
        (2**32, I32, "argument #0 of @f: 4294967296 is out of range of i32"),
        (-(2**31) - 1, I32, "argument #0 of @f: -2147483649 is out of range of i32"),
        (10**400, F32, "argument #0 of @f: 100000... (401 digits) is out of range"),
        (np.float32(1e5), Float16Type(), "argument #0 of @f: 100000.0 is out of range"),
        (2.5, I32, "argument #0 of @f has dtype float64, i32 needs int32"),
        (2, I1, "argument #0 of @f: 2 is out of range of i1"),
        (1.0, I1, "argument #0 of @f has dtype float64, i1 needs int8"),
        (None, F32, "argument #0 of @f has dtype object, f32 needs float32"),
        ([1.0], F32, "argument #0 of @f is a scalar of type f32, the input has shape"),
    ],
)
def test_refused_scalars(value, type_, message):
    with pytest.raises(ArgumentValueError) as error:
        argument_value(value, type_, "argument #0 of @f")
    assert str(error.value).startswith(message)


def test_arrays_of_the_right_dtype_are_not_copied():
    array = np.zeros(4, np.float32)
    assert argument_value(array, MemRefType(F32, [4]), "x") is array
    mask = np.array([True, False])
    viewed = argument_value(mask, TensorType(I1, [2]), "x")
    assert viewed.dtype == np.int8 and np.shares_memory(viewed, mask)


def test_the_interpreter_refuses_what_the_tool_refuses():
    module = parse_module(PROGRAM)
    with pytest.raises(InterpretationError, match="1e\\+40 is out of range of f32"):
        run_function(module, "scale", [X, 1e40])
    with pytest.raises(InterpretationError, match="has dtype float64, i32 needs"):
        run_function(module, "shift", [np.zeros(4, np.int32), 2.7])
    done = run_function(module, "shift", [np.zeros(4, np.int64), np.int64(3)])
    np.testing.assert_array_equal(done.arguments[0], [3, 3, 3, 3])


def test_jit_compiles_only_what_the_entry_reaches(tmp_path, capsys):
    # @unranked and friends cannot be compiled; @twice (and @scale, which it
    # calls) can, so --backend jit runs it as the interpreter does.
    path = tmp_path / "mixed.mlir"
    path.write_text(
        PROGRAM
        + UNSUPPORTED
        + """
        func.func @twice(%x: tensor<4xf32>) -> tensor<4xf32> {
          %two = arith.constant 2.0 : f32
          %r = func.call @scale(%x, %two) : (tensor<4xf32>, f32) -> tensor<4xf32>
          return %r : tensor<4xf32>
        }
        """
    )
    for backend in BACKENDS:
        out_dir = tmp_path / backend
        argv = [str(path), "--entry", "twice", "--backend", backend]
        code = run.main([*argv, "--save-dir", str(out_dir)])
        assert code == 0, capsys.readouterr().err
    np.testing.assert_array_equal(
        np.load(tmp_path / "jit" / "result0.npy"),
        np.load(tmp_path / "interpreter" / "result0.npy"),
    )


def test_opt_pass_that_cannot_be_set_up(tmp_path, capsys, monkeypatch):
    from linalg_ext.passes import ALL_PASSES

    def broken_loader():
        raise ImportError("cannot import name 'helper'")

    monkeypatch.setitem(ALL_PASSES, "test-broken", broken_loader)
    path = tmp_path / "p.mlir"
    path.write_text("func.func @f() { func.return }")
    assert opt.main([str(path), "-p", "test-broken"]) == 1
    out, err = capsys.readouterr()
    assert (out, err) == (
        "",
        "linalg-ext-opt: internal error in pass 'test-broken' while setting it up: "
        "ImportError: cannot import name 'helper' (--show-traceback or "
        "LINALG_EXT_TRACEBACK=1 prints the traceback)\n",
    )
    with pytest.raises(ImportError):
        opt.main([str(path), "-p", "test-broken", "--show-traceback"])


# --------------------------------------------------------------------------
# Issue 16 follow-ups: options of compile_module, located refusals


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"opt_level": "fast"}, "opt_level must be an int in 0..3, not 'fast'"),
        ({"opt_level": 4}, "opt_level must be an int in 0..3, not 4"),
        ({"opt_level": -1}, "opt_level must be an int in 0..3, not -1"),
        ({"opt_level": True}, "opt_level must be an int in 0..3, not True"),
        ({"track_memory": 1}, "track_memory must be True or False, not 1"),
        ({"runtime_checks": "no"}, "runtime_checks must be True or False, not 'no'"),
        ({"microkernels": 0}, "microkernels must be True or False, not 0"),
    ],
)
def test_compile_module_refuses_bad_options(options, message):
    from linalg_ext.jit import JitError, compile_module

    with pytest.raises(JitError) as refused:
        compile_module(parse_module(PROGRAM), **options)
    assert str(refused.value) == f"compile_module: {message}"


def test_compile_module_takes_every_valid_option():
    from linalg_ext.jit import compile_module

    for level in range(4):
        compiled = compile_module(
            parse_module(PROGRAM), opt_level=level, runtime_checks=level % 2 == 0
        )
        done = compiled["scale"](X, np.float32(3))
        np.testing.assert_array_equal(done, 3 * X)


MATERIALIZE = """\
func.func @f(%src: tensor<4xf32>) -> (tensor<4xf32>, f32) {
  %c0 = arith.constant 0 : index
  %e = tensor.empty() : tensor<4xf32>
  %one = arith.constant 1.0 : f32
  %dst = linalg.fill ins(%one : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %r = bufferization.materialize_in_destination %src in %dst : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %v = tensor.extract %dst[%c0] : tensor<4xf32>
  return %r, %v : tensor<4xf32>, f32
}
"""

REFUSAL = (
    "one-shot-bufferize: 'linalg.fill': not bufferizable under the given "
    "constraints: cannot avoid RaW conflict"
)


def test_check_locates_a_pass_refusal_like_opt(tmp_path, capsys):
    from linalg_ext.tools import check

    path = tmp_path / "mat.mlir"
    path.write_text(MATERIALIZE)
    where = f"{path}:{located(MATERIALIZE, 'linalg.fill', 'f')}"
    assert opt.main([str(path), "-p", "one-shot-bufferize"]) == 1
    assert capsys.readouterr().err == f"{where}: error: {REFUSAL}\n"
    assert check.main([str(path), "-p", "one-shot-bufferize"]) == 1
    out, err = capsys.readouterr()
    assert (out, err) == ("", f"{where}: error: {REFUSAL}\n")


def test_check_error_says_how_the_pipeline_failed(tmp_path):
    from linalg_ext.checking import PipelineFailed, check_module
    from linalg_ext.tools.common import load_module

    path = tmp_path / "mat.mlir"
    path.write_text(MATERIALIZE)
    with pytest.raises(PipelineFailed) as refused:
        check_module(load_module(str(path)), "one-shot-bufferize")
    error = refused.value
    assert (str(error), error.outcome, error.pass_name) == (
        REFUSAL,
        "refused",
        "one-shot-bufferize",
    )
    line, column = located(MATERIALIZE, "linalg.fill", "f").split(":")
    assert error.location == (str(path), int(line), int(column))


def use_test_pass(monkeypatch, name: str, apply) -> None:
    """Make the pipeline `name` one pass doing `apply(ctx, module)`."""
    from dataclasses import dataclass

    from xdsl.passes import ModulePass, PassPipeline

    import linalg_ext.checking

    @dataclass(frozen=True)
    class TestPass(ModulePass):
        def apply(self, ctx, op) -> None:
            apply(ctx, op)

    TestPass.name = name
    real = linalg_ext.checking.parse_pipeline

    def parse(spec: str) -> PassPipeline:
        return PassPipeline((TestPass(),)) if spec == name else real(spec)

    monkeypatch.setattr(linalg_ext.checking, "parse_pipeline", parse)


def test_check_reports_an_invalid_output_at_its_op(tmp_path, capsys, monkeypatch):
    from xdsl.dialects import func

    from linalg_ext.tools import check

    def drop_results(_ctx, module):
        for op in list(module.walk()):
            if isinstance(op, func.ReturnOp):
                op.operands = ()

    use_test_pass(monkeypatch, "test-bad-return", drop_results)
    path = tmp_path / "mat.mlir"
    path.write_text(MATERIALIZE)
    assert check.main([str(path), "-p", "test-bad-return"]) == 1
    out, err = capsys.readouterr()
    where = f"{path}:{located(MATERIALIZE, 'return', 'f')}"
    assert out == ""
    assert err.startswith(
        f"{where}: error: the pipeline's output does not verify: 'func.return' op "
    ), err
    assert len(err.splitlines()) == 1


def test_check_pass_crash_is_an_internal_error(tmp_path, capsys, monkeypatch):
    from linalg_ext.checking import PipelineFailed, check_module
    from linalg_ext.tools import check

    def crash(_ctx, _module):
        raise KeyError("x")

    use_test_pass(monkeypatch, "test-crash", crash)
    path = tmp_path / "mat.mlir"
    path.write_text(MATERIALIZE)
    assert check.main([str(path), "-p", "test-crash"]) == 1
    assert capsys.readouterr().err == (
        "linalg-ext-check: error: the pipeline failed in pass 'test-crash': "
        "internal error: KeyError: 'x' (LINALG_EXT_TRACEBACK=1 shows the traceback)\n"
    )
    with pytest.raises(PipelineFailed) as crashed:
        check_module(parse_module(MATERIALIZE), "test-crash")
    assert crashed.value.outcome == "internal"
    assert isinstance(crashed.value.__cause__, KeyError)
    monkeypatch.setenv("LINALG_EXT_TRACEBACK", "1")
    with pytest.raises(KeyError):
        check.main([str(path), "-p", "test-crash"])


REFUSING = """\
func.func @f(%m: memref<4xf32>, %i: index, %j: index) -> f32 {
  %a = memref.load %m[%i] : memref<4xf32>
  %b = memref.load %m[%j] : memref<4xf32>
  %s = arith.addf %a, %b : f32
  return %s : f32
}
func.func @g(%a: i32, %b: i32) -> i32 {
  %q = arith.divsi %a, %b : i32
  return %q : i32
}
"""


@pytest.mark.parametrize("backend", BACKENDS)
def test_run_refusals_name_the_file_and_the_op(backend, tmp_path, capsys):
    path = tmp_path / "refusing.mlir"
    path.write_text(REFUSING)
    natively = " natively" if backend == "jit" else ""
    m = save(tmp_path, "m", np.zeros(4, np.float32))
    i, j = save(tmp_path, "i", np.int64(0)), save(tmp_path, "j", np.int64(9))
    # Two memref.load in @f: the refusal is located at the file.
    code = run_with(path, "f", backend, m, i, j)
    assert one_line_error(capsys, code) == (
        f"{path}: cannot run @f{natively}: memref.load: index [9] is out of bounds "
        "of shape [4]"
    )
    a, b = save(tmp_path, "a", np.int32(7)), save(tmp_path, "b", np.int32(0))
    code = run_with(path, "g", backend, a, b)
    assert one_line_error(capsys, code) == (
        f"{path}:{located(REFUSING, 'arith.divsi', 'g')}: cannot run @g{natively}: "
        "'arith.divsi' divides by zero"
    )
