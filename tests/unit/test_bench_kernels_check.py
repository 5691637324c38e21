"""Every kernel of the standing bench (bench/standing_workloads.py), at small
sizes, compiled as `make bench` compiles it (default, and the fast-math
column's reassoc + approximate math) agrees with the interpreter: what
`linalg-ext-check --backend jit [--fast-math reassoc --approximate-math]`
checks."""

from __future__ import annotations

import sys

import pytest

from helpers import REPO, parse_module
from linalg_ext.checking import check_module
from linalg_ext.lowering.fast_math import FastMathMode

sys.path.insert(0, str(REPO / "bench"))

from fuse_ext_bench import (  # noqa: E402  # pyright: ignore[reportMissingImports]
    attention_source,
    flash_spec,
)
from native_bench import (  # noqa: E402  # pyright: ignore[reportMissingImports]
    matmul_bias_relu,
)
from standing_workloads import (  # noqa: E402  # pyright: ignore[reportMissingImports]
    add_mul,
    matmul,
    softmax_ours,
)

from linalg_ext.pipelines import apply_pipeline  # noqa: E402

KERNELS = {
    # 40^3 multiply-adds: above linalg-contraction-microkernel's threshold.
    "matmul": (matmul(40), None),
    "matmul_bias_relu": (matmul_bias_relu(40), None),
    "attention_unfused": (attention_source(64, 32), None),
    # Flash tiles of 32 x 32 x 32: the micro-kernel takes the tile matmuls.
    "attention_flash": (attention_source(64, 32), flash_spec((32, 0, 32))),
    "softmax": (softmax_ours(24), None),
    "add_mul": (add_mul(24), None),
}

MODES: dict[str, tuple[FastMathMode, bool]] = {
    "default": ("none", False),
    "fast-math column": ("reassoc", True),
}


@pytest.mark.parametrize("mode", sorted(MODES))
@pytest.mark.parametrize("kernel", sorted(KERNELS))
def test_bench_kernel_compiled_agrees_with_the_interpreter(kernel, mode):
    source, before = KERNELS[kernel]
    module = parse_module(source)
    if before is not None:
        apply_pipeline(before, module)
    fast_math, approximate = MODES[mode]
    report = check_module(
        module,
        [],
        backend="jit",
        trials=1,
        seed=11,
        fast_math=fast_math,
        approximate_math=approximate,
    )
    assert report.ok, [v.line() for v in report.verdicts]
