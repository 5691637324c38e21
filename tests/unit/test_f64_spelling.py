"""`format_f64_like_mlir` prints doubles exactly as upstream MLIR does.

The comparison runs when mlir-opt-22 is installed: each value goes in as its
exact bit pattern and upstream's printed spelling must equal ours.
"""

from __future__ import annotations

import random
import re
import shutil
import struct
import subprocess

import pytest

from linalg_ext.assembly import format_f64_like_mlir


def f32_rounded(value: float) -> float:
    return struct.unpack("<f", struct.pack("<f", value))[0]


# Spellings worked out by hand from APFloat's rules.
@pytest.mark.parametrize(
    ("value", "spelling"),
    [
        (f32_rounded(1e-6), "9.9999999747524271E-7"),
        (1e-5, "1.000000e-05"),
        (-2.5e-7, "-2.500000e-07"),
        (0.001234567, "0.001234567"),
        (1234567.0, "0x4132D68700000000"),
        (float("inf"), "0x7FF0000000000000"),
        (0.0, "0.000000e+00"),
    ],
)
def test_known_spellings(value, spelling):
    assert format_f64_like_mlir(value) == spelling


def sample_values() -> list[float]:
    rng = random.Random(20261121)
    values = []
    for _ in range(400):
        sign = rng.choice((1, -1))
        values.append(sign * 10 ** rng.uniform(-300, 300))
        # Epsilons usually come from f32 constants widened to f64.
        values.append(f32_rounded(sign * 10 ** rng.uniform(-37, 37)))
    values += [float(i) for i in range(0, 3000, 37)]
    values += [
        0.5,
        1e-3,
        1e-4,
        9.999e-4,
        1e16,
        1e17,
        5e-324,
        1.7976931348623157e308,
        -0.0,
    ]
    return values


@pytest.mark.skipif(
    shutil.which("mlir-opt-22") is None, reason="mlir-opt-22 is not installed"
)
def test_matches_upstream_mlir():
    values = sample_values()
    lines = ["func.func @f() {"]
    for index, value in enumerate(values):
        bits = struct.unpack("<Q", struct.pack("<d", value))[0]
        lines.append(f"  %c{index} = arith.constant 0x{bits:016X} : f64")
        lines.append(f'  "test.use"(%c{index}) : (f64) -> ()')
    lines.append("  return\n}")
    upstream = subprocess.run(
        ["mlir-opt-22", "--allow-unregistered-dialect"],
        input="\n".join(lines),
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    spellings = re.findall(r"arith\.constant (\S+) : f64", upstream)
    assert len(spellings) == len(values)
    mismatches = [
        (value, theirs, format_f64_like_mlir(value))
        for value, theirs in zip(values, spellings, strict=True)
        if theirs != format_f64_like_mlir(value)
    ]
    assert not mismatches
