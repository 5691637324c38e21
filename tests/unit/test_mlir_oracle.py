"""Upstream MLIR 22 reads our generic form as the same IR.

Our generic print goes through `mlir-opt-22` (which knows nothing of
linalg_ext and keeps its ops as unregistered operations) and comes back to be
parsed by us: properties, operand segments, regions and types must survive,
so the module must be structurally identical. Skipped without mlir-opt-22.
"""

from __future__ import annotations

import shutil
import subprocess

import pytest

from helpers import parse_module, print_module, roundtrip_inputs

MLIR_OPT = shutil.which("mlir-opt-22")

pytestmark = pytest.mark.skipif(MLIR_OPT is None, reason="mlir-opt-22 is not installed")


@pytest.mark.parametrize("path", roundtrip_inputs(), ids=lambda p: p.name)
def test_generic_form_survives_upstream_mlir(path):
    text = path.read_text()
    module = parse_module(text)
    flags = ["--allow-unregistered-dialect", "--mlir-print-op-generic"]
    if "linalg_ext.batch_matmul" in text:
        # batch_matmul's body ends in linalg.yield, which upstream accepts only
        # under a registered Linalg op; ByteIR registers it, plain mlir-opt
        # cannot, so for this file only upstream's parser and printer are used.
        flags.append("--mlir-very-unsafe-disable-verifier-on-parsing")
    upstream = subprocess.run(
        [MLIR_OPT, *flags],
        input=print_module(module, generic=True),
        capture_output=True,
        text=True,
    )
    assert upstream.returncode == 0, upstream.stderr
    assert parse_module(upstream.stdout).is_structurally_equivalent(module)
