"""The workloads of the standing bench (bench/standing_bench.py): issue 19's
table, each as the program our JIT compiles, the program upstream MLIR and
IREE compile (the same computation in upstream's ops only), a numpy
reference, and the work it does (flops or bytes moved)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from fuse_ext_bench import attention_source
from native_bench import matmul_bias_relu

ID2 = "affine_map<(i, j) -> (i, j)>"
ROW = "affine_map<(i, j) -> (i)>"
COLUMN = "affine_map<(i, j) -> (j)>"
FLASH_TILES = (64, 0, 256)
QUICK_FLASH_TILES = (64, 0, 128)


@dataclass
class Workload:
    """One row of the table."""

    key: str
    """Stable name, the row's key in the JSON."""
    label: str
    ours: str
    """The program our JIT compiles (its function is `function`)."""
    portable: str | None
    """The same computation in upstream's ops, function `@kernel` (None: no
    such form; the reason is `portable_missing`)."""
    function: str
    shapes: list[tuple[int, ...]]
    reference: Callable[..., np.ndarray]
    work: float
    """Flops (unit GFLOP/s) or bytes moved (unit GB/s); 0 for none."""
    unit: str
    """"GFLOP/s", "GB/s" or "" (per-call overhead: time only)."""
    upstream_repetitions: int
    """Calls timed inside mlir-runner (the naive code is slow)."""
    flash_tiles: tuple[int, ...] | None = None
    """Ours is the flash form: `linalg-fuse-ext` with these tiles first."""
    portable_missing: str = ""
    """Why there is no portable form (upstream and IREE skip the row)."""
    upstream_missing: str = ""
    """Why upstream skips the row although there is a portable form."""


def matmul(n: int) -> str:
    t = f"tensor<{n}x{n}xf32>"
    return f"""
func.func @kernel(%a: {t}, %b: {t}) -> {t} {{
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : {t}
  %acc = linalg.fill ins(%zero : f32) outs(%e : {t}) -> {t}
  %m = linalg.matmul ins(%a, %b : {t}, {t}) outs(%acc : {t}) -> {t}
  return %m : {t}
}}
"""


def softmax_generics(x: str, rows: int, cols: int, suffix: str) -> str:
    """Row softmax of SSA value `x` as four generics (max, exp, sum,
    divide); defines `%p{suffix}`."""
    t, v = f"tensor<{rows}x{cols}xf32>", f"tensor<{rows}xf32>"
    reduce = 'iterator_types = ["parallel", "reduction"]'
    parallel = 'iterator_types = ["parallel", "parallel"]'
    s = suffix
    return f"""
  %ninf{s} = arith.constant 0xFF800000 : f32
  %zero{s} = arith.constant 0.0 : f32
  %em{s} = tensor.empty() : {v}
  %m0{s} = linalg.fill ins(%ninf{s} : f32) outs(%em{s} : {v}) -> {v}
  %max{s} = linalg.generic {{indexing_maps = [{ID2}, {ROW}], {reduce}}}
      ins({x} : {t}) outs(%m0{s} : {v}) {{
  ^bb0(%in: f32, %acc: f32):
    %r = arith.maximumf %in, %acc : f32
    linalg.yield %r : f32
  }} -> {v}
  %ee{s} = tensor.empty() : {t}
  %exp{s} = linalg.generic {{indexing_maps = [{ID2}, {ROW}, {ID2}], {parallel}}}
      ins({x}, %max{s} : {t}, {v}) outs(%ee{s} : {t}) {{
  ^bb0(%in: f32, %mx: f32, %out: f32):
    %d = arith.subf %in, %mx : f32
    %r = math.exp %d : f32
    linalg.yield %r : f32
  }} -> {t}
  %es{s} = tensor.empty() : {v}
  %s0{s} = linalg.fill ins(%zero{s} : f32) outs(%es{s} : {v}) -> {v}
  %sum{s} = linalg.generic {{indexing_maps = [{ID2}, {ROW}], {reduce}}}
      ins(%exp{s} : {t}) outs(%s0{s} : {v}) {{
  ^bb0(%in: f32, %acc: f32):
    %r = arith.addf %in, %acc : f32
    linalg.yield %r : f32
  }} -> {v}
  %ep{s} = tensor.empty() : {t}
  %p{s} = linalg.generic {{indexing_maps = [{ID2}, {ROW}, {ID2}], {parallel}}}
      ins(%exp{s}, %sum{s} : {t}, {v}) outs(%ep{s} : {t}) {{
  ^bb0(%in: f32, %sm: f32, %out: f32):
    %r = arith.divf %in, %sm : f32
    linalg.yield %r : f32
  }} -> {t}"""


def softmax_portable(n: int) -> str:
    t = f"tensor<{n}x{n}xf32>"
    return f"""
func.func @kernel(%x: {t}) -> {t} {{{softmax_generics("%x", n, n, "")}
  return %p : {t}
}}
"""


def softmax_ours(n: int) -> str:
    """`linalg_ext.softmax` over rows (our op; upstream gets the generics)."""
    t, v = f"tensor<{n}x{n}xf32>", f"tensor<{n}xf32>"
    return f"""
func.func @kernel(%x: {t}) -> {t} {{
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : {t}
  %e0 = tensor.empty() : {v}
  %e1 = tensor.empty() : {v}
  %e2 = tensor.empty() : {v}
  %max = linalg.fill ins(%ninf : f32) outs(%e0 : {v}) -> {v}
  %acc = linalg.fill ins(%zero : f32) outs(%e1 : {v}) -> {v}
  %r:4 = linalg_ext.softmax dimension(1) ins(%x : {t})
      outs(%e, %max, %acc, %e2 : {t}, {v}, {v}, {v}) : {t}, {v}, {v}, {v}
  return %r#0 : {t}
}}
"""


def attention_portable(s: int, d: int) -> str:
    """Q @ K, the row softmax as generics, @ V."""
    ss, sd, ds = f"tensor<{s}x{s}xf32>", f"tensor<{s}x{d}xf32>", f"tensor<{d}x{s}xf32>"
    return f"""
func.func @kernel(%q: {sd}, %k: {ds}, %v: {sd}) -> {sd} {{
  %zero = arith.constant 0.0 : f32
  %e_scores = tensor.empty() : {ss}
  %scores_init = linalg.fill ins(%zero : f32) outs(%e_scores : {ss}) -> {ss}
  %scores = linalg.matmul ins(%q, %k : {sd}, {ds})
      outs(%scores_init : {ss}) -> {ss}{softmax_generics("%scores", s, s, "_sm")}
  %e_out = tensor.empty() : {sd}
  %out_init = linalg.fill ins(%zero : f32) outs(%e_out : {sd}) -> {sd}
  %out = linalg.matmul ins(%p_sm, %v : {ss}, {sd}) outs(%out_init : {sd}) -> {sd}
  return %out : {sd}
}}
"""


def add_mul(n: int) -> str:
    """(a+b)*c as one generic (the fused form)."""
    t = f"tensor<{n}x{n}xf32>"
    maps = ", ".join([ID2] * 4)
    return f"""
func.func @kernel(%a: {t}, %b: {t}, %c: {t}) -> {t} {{
  %e = tensor.empty() : {t}
  %p = linalg.generic {{indexing_maps = [{maps}],
      iterator_types = ["parallel", "parallel"]}}
      ins(%a, %b, %c : {t}, {t}, {t}) outs(%e : {t}) {{
  ^bb0(%x: f32, %y: f32, %z: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    %r = arith.mulf %s, %z : f32
    linalg.yield %r : f32
  }} -> {t}
  return %p : {t}
}}
"""


def tiny_add(n: int) -> str:
    t = f"tensor<{n}xf32>"
    m = "affine_map<(i) -> (i)>"
    return f"""
func.func @kernel(%a: {t}, %b: {t}) -> {t} {{
  %e = tensor.empty() : {t}
  %p = linalg.generic {{indexing_maps = [{m}, {m}, {m}],
      iterator_types = ["parallel"]}}
      ins(%a, %b : {t}, {t}) outs(%e : {t}) {{
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  }} -> {t}
  return %p : {t}
}}
"""


def softmax_rows(x: np.ndarray) -> np.ndarray:
    e = np.exp(x - x.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def attention_numpy(q: np.ndarray, k: np.ndarray, v: np.ndarray) -> np.ndarray:
    """Three steps, float32: q @ k, a row softmax in place, @ v."""
    x = q @ k
    x = np.exp(x - x.max(axis=1, keepdims=True))
    x /= x.sum(axis=1, keepdims=True)
    return x @ v


def workloads(quick: bool) -> list[Workload]:
    """Issue 19's workloads; `quick`: small sizes, for a smoke test."""
    matmuls = (32, 64) if quick else (256, 512, 1024)
    n_bias = 64 if quick else 1024
    seqs = (256,) if quick else (1024, 4096)
    head = 64
    n_big = 128 if quick else 4096
    tiles = QUICK_FLASH_TILES if quick else FLASH_TILES
    rows: list[Workload] = []
    for n in matmuls:
        rows.append(
            Workload(
                f"matmul_{n}",
                f"matmul {n}³",
                matmul(n),
                matmul(n),
                "kernel",
                [(n, n)] * 2,
                lambda a, b: a @ b,
                2.0 * n**3,
                "GFLOP/s",
                2 if n >= 1024 else 3,
            )
        )
    bias = matmul_bias_relu(n_bias)
    rows.append(
        Workload(
            f"matmul_bias_relu_{n_bias}",
            f"matmul {n_bias}² + bias + relu",
            bias,
            bias,
            "kernel",
            [(n_bias, n_bias), (n_bias, n_bias), (n_bias,)],
            lambda a, b, c: np.maximum(a @ b + c, 0),
            2.0 * n_bias**3 + 2.0 * n_bias**2,
            "GFLOP/s",
            2 if n_bias >= 1024 else 3,
        )
    )
    for s in seqs:
        flops = 4.0 * s * s * head
        shapes = [(s, head), (head, s), (s, head)]
        ours = attention_source(s, head)
        portable = attention_portable(s, head)
        for form in ("unfused", "flash"):
            flash = form == "flash"
            rows.append(
                Workload(
                    f"attention_{s}_{form}",
                    f"attention 1×{s}×{head} {form}",
                    ours,
                    None if flash else portable,
                    "attention",
                    shapes,
                    attention_numpy,
                    flops,
                    "GFLOP/s",
                    2 if s >= 4096 else 3,
                    flash_tiles=tiles if flash else None,
                    portable_missing="the flash form is ours (linalg_ext); see "
                    "the unfused row"
                    if flash
                    else "",
                )
            )
    rows.append(
        Workload(
            f"softmax_{n_big}",
            f"row softmax {n_big}²",
            softmax_ours(n_big),
            softmax_portable(n_big),
            "kernel",
            [(n_big, n_big)],
            softmax_rows,
            2.0 * 4 * n_big * n_big,
            "GB/s",
            5,
        )
    )
    rows.append(
        Workload(
            f"add_mul_{n_big}",
            f"(a+b)·c {n_big}², fused",
            add_mul(n_big),
            add_mul(n_big),
            "kernel",
            [(n_big, n_big)] * 3,
            lambda a, b, c: (a + b) * c,
            4.0 * 4 * n_big * n_big,
            "GB/s",
            5,
        )
    )
    rows.append(
        Workload(
            "call_overhead",
            "per-call overhead (add of 16 f32)",
            tiny_add(16),
            tiny_add(16),
            "kernel",
            [(16,)] * 2,
            lambda a, b: a + b,
            0.0,
            "",
            0,
            upstream_missing="a call from Python (mlir-runner times inside "
            "the program)",
        )
    )
    return rows
