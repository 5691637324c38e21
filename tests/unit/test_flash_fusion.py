"""The flash-attention fusion (linalg_ext/dialect/flash_fusion.py) through
`linalg-fuse-ext`: attention `Q·Kᵀ → softmax → ·V` with the P·V matmul the
root, tiled along k (and rows, batches), becomes one loop nest carrying the
running max and sum, in which the softmax is computed per k tile and the
accumulated rows are rescaled by `diag(scale)`. Every form is executed
compiled against the untiled program, and no op outside the loops computes a
sequence × sequence tensor."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from xdsl.dialects import scf, tensor
from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.ir import Operation

from helpers import parse_module
from linalg_ext.checking import check_module
from linalg_ext.context import make_context
from linalg_ext.dialect import DiagOp, SoftmaxLikeOp
from linalg_ext.running import find_function
from linalg_ext.tiling.fuse_ext import fuse_ext
from linalg_ext.tools.check import parse_pipeline


@dataclass(frozen=True)
class Attention:
    """An attention program: `form` says which ops compute the products
    (`matmul`: linalg.matmul, rank 2; `batch_matmul`: linalg.batch_matmul;
    `ext_nn`: linalg_ext.batch_matmul "nn"; `ext_tn`: the scores computed
    transposed, [B, L, M], read by a "tn" batch_matmul), `kind` the softmax
    op; `m` queries, `seq` keys, `d` and `e` head dims."""

    form: str = "matmul"
    kind: str = "softmax"
    batch: tuple[int, ...] = ()
    m: int = 16
    seq: int = 24
    d: int = 8
    e: int = 8
    scaled: bool = False
    divide: bool = False  # divide the result by the final sum (unnorm)
    return_stats: bool = False  # also return the final max and sum
    init: str = "zero"  # the root's init: "zero" or "argument"
    return_scale: bool = False
    return_scores: bool = False

    def text(self) -> str:
        b = self.batch
        rank = len(b) + 2

        def t(*dims: int) -> str:
            return "tensor<" + "x".join(str(x) for x in (*b, *dims)) + "xf32>"

        transposed = self.form == "ext_tn"
        scores = t(self.seq, self.m) if transposed else t(self.m, self.seq)
        rows = t(self.m)
        out = t(self.m, self.e)
        dimension = rank - 2 if transposed else rank - 1
        if transposed:
            args = [("%k", t(self.seq, self.d)), ("%qt", t(self.d, self.m))]
        else:
            args = [("%q", t(self.m, self.d)), ("%kt", t(self.d, self.seq))]
        args.append(("%v", t(self.seq, self.e)))
        if self.init == "argument":
            args.append(("%o0", out))
        results = [out]
        if self.return_stats:
            results += [rows, rows]
        if self.return_scale:
            results.append(rows)
        if self.return_scores:
            results.append(scores)
        lines = [
            "func.func @main("
            + ", ".join(f"{n}: {ty}" for n, ty in args)
            + ") -> ("
            + ", ".join(results)
            + ") {",
            "  %zero = arith.constant 0.0 : f32",
            "  %ninf = arith.constant 0xFF800000 : f32",
            f"  %es = tensor.empty() : {scores}",
            f"  %s0 = linalg.fill ins(%zero : f32) outs(%es : {scores}) -> {scores}",
            "  "
            + self._product(
                "%s",
                args[0][0],
                args[1][0],
                "%s0",
                args[0][1],
                args[1][1],
                scores,
                "nn",
            ),
        ]
        s = "%s"
        if self.scaled:
            ids = ", ".join(f"d{i}" for i in range(rank))
            par = ", ".join(['"parallel"'] * rank)
            lines += [
                f"  %ss = tensor.empty() : {scores}",
                f"  %sc = linalg.generic {{indexing_maps = [affine_map<({ids}) -> "
                f"({ids})>, affine_map<({ids}) -> ({ids})>], iterator_types = "
                f"[{par}]}} ins(%s : {scores}) outs(%ss : {scores}) {{",
                "  ^bb0(%x: f32, %y: f32):",
                "    %c = arith.constant 0.35 : f32",
                "    %r = arith.mulf %x, %c : f32",
                "    linalg.yield %r : f32",
                f"  }} -> {scores}",
            ]
            s = "%sc"
        lines += [
            f"  %er = tensor.empty() : {rows}",
            f"  %m0 = linalg.fill ins(%ninf : f32) outs(%er : {rows}) -> {rows}",
            f"  %a0 = linalg.fill ins(%zero : f32) outs(%er : {rows}) -> {rows}",
            f"  %ep = tensor.empty() : {scores}",
            f"  %scale = tensor.empty() : {rows}",
            f"  %p:4 = linalg_ext.{self.kind} dimension({dimension}) ins({s} : "
            f"{scores}) outs(%ep, %m0, %a0, %scale : {scores}, {rows}, {rows}, "
            f"{rows}) : {scores}, {rows}, {rows}, {rows}",
        ]
        if self.init == "zero":
            lines += [
                f"  %eo = tensor.empty() : {out}",
                f"  %o0 = linalg.fill ins(%zero : f32) outs(%eo : {out}) -> {out}",
            ]
        layout = "tn" if transposed else "nn"
        lines.append(
            "  "
            + self._product(
                "%o",
                "%p#0",
                "%v",
                "%o0",
                scores,
                t(self.seq, self.e),
                out,
                layout,
                root=True,
            )
        )
        value = "%o"
        if self.divide:
            ids = ", ".join(f"d{i}" for i in range(rank))
            row_ids = ", ".join(f"d{i}" for i in range(rank - 1))
            par = ", ".join(['"parallel"'] * rank)
            lines += [
                f"  %ed = tensor.empty() : {out}",
                f"  %n = linalg.generic {{indexing_maps = [affine_map<({ids}) -> "
                f"({ids})>, affine_map<({ids}) -> ({row_ids})>, affine_map<({ids}) "
                f"-> ({ids})>], iterator_types = [{par}]}} ins(%o, %p#2 : {out}, "
                f"{rows}) outs(%ed : {out}) {{",
                "  ^bb0(%x: f32, %a: f32, %y: f32):",
                "    %r = arith.divf %x, %a : f32",
                "    linalg.yield %r : f32",
                f"  }} -> {out}",
            ]
            value = "%n"
        values = [value]
        if self.return_stats:
            values += ["%p#1", "%p#2"]
        if self.return_scale:
            values.append("%p#3")
        if self.return_scores:
            values.append("%p#0")
        lines += [f"  return {', '.join(values)} : {', '.join(results)}", "}"]
        return "\n".join(lines)

    def _product(
        self,
        name: str,
        lhs: str,
        rhs: str,
        init: str,
        lhs_type: str,
        rhs_type: str,
        out_type: str,
        layout: str,
        root: bool = False,
    ) -> str:
        mark = " {__root__}" if root else ""
        ins = f"ins({lhs}, {rhs} : {lhs_type}, {rhs_type}) outs({init} : {out_type})"
        if self.form == "matmul":
            return f"{name} = linalg.matmul{mark} {ins} -> {out_type}"
        if self.form == "batch_matmul":
            return f"{name} = linalg.batch_matmul{mark} {ins} -> {out_type}"
        return f'{name} = linalg_ext.batch_matmul {ins} layout = "{layout}"{mark}'


def fuse_ext_pipeline(sizes: list[int], interchange: list[int]) -> str:
    options = "tile-sizes=" + ",".join(map(str, sizes))
    if interchange:
        options += " tile-interchange=" + ",".join(map(str, interchange))
    return f"linalg-fuse-ext{{{options}}}"


def transformed(program: Attention, pipeline: str) -> ModuleOp:
    module = parse_module(program.text())
    for module_pass in parse_pipeline(pipeline).passes:
        module_pass.apply(make_context(), module)
    module.verify()
    return module


def loop_nest(module: ModuleOp) -> scf.ForOp:
    body = find_function(module, "main").body.block
    loops = [op for op in body.ops if isinstance(op, scf.ForOp)]
    assert len(loops) == 1, "one loop nest"
    return loops[0]


def whole_score_ops(module: ModuleOp, program: Attention) -> list[Operation]:
    """Ops outside the loops whose result has the scores' shape (the
    sequence × sequence matrix), but for shape-only `tensor.empty`s."""
    body = find_function(module, "main").body.block
    batch = program.batch
    shapes = {(*batch, program.m, program.seq), (*batch, program.seq, program.m)}
    return [
        op
        for op in body.ops
        if not isinstance(op, tensor.EmptyOp)
        and any(
            isinstance(r.type, TensorType) and tuple(r.type.get_shape()) in shapes
            for r in op.results
        )
    ]


def assert_flash_form(module: ModuleOp, program: Attention) -> None:
    nest = loop_nest(module)
    inner = [op for op in nest.walk() if isinstance(op, SoftmaxLikeOp)]
    assert len(inner) == 1, "the softmax is computed in the loops"
    assert [op for op in nest.walk() if isinstance(op, DiagOp)], "rows rescaled"
    assert not whole_score_ops(module, program)
    outside = [
        op
        for op in find_function(module, "main").walk()
        if isinstance(op, SoftmaxLikeOp) and not nest.is_ancestor(op)
    ]
    assert not outside


def assert_same_meaning(
    program: Attention, pipeline: str, backend: str = "jit"
) -> None:
    report = check_module(
        parse_module(program.text()), pipeline, backend=backend, trials=2
    )
    assert report.ok, [str(v) for v in report.verdicts]


CASES = [
    # ByteIR's dot attention: k outer, rows inner.
    pytest.param(Attention(), [4, 0, 8], [2, 1, 0], id="matmul-k-outer"),
    # Rows outer (parallel), k inner; scaled scores; partial tiles both ways.
    pytest.param(
        Attention(m=10, seq=13, scaled=True), [4, 0, 5], [0, 2, 1], id="matmul-partial"
    ),
    pytest.param(
        Attention(kind="unnorm_softmax", divide=True, m=10, seq=13),
        [4, 0, 5],
        [2, 1, 0],
        id="unnorm-divided",
    ),
    pytest.param(
        Attention(return_stats=True), [4, 0, 8], [0, 2, 1], id="stats-returned"
    ),
    pytest.param(
        Attention(form="batch_matmul", batch=(3,), seq=20),
        [1, 4, 0, 8],
        [0, 3, 1, 2],
        id="batch_matmul",
    ),
    pytest.param(
        Attention(form="ext_nn", batch=(2, 3), m=8, seq=12, e=4),
        [1, 0, 4, 0, 5],
        [0, 1, 4, 3, 2],
        id="ext-nn-4d",
    ),
    pytest.param(
        Attention(
            form="ext_tn",
            batch=(2,),
            m=6,
            seq=10,
            kind="unnorm_softmax",
            divide=True,
            return_stats=True,
        ),
        [0, 4, 0, 4],
        [3, 1, 0, 2],
        id="ext-tn-unnorm",
    ),
]


@pytest.mark.parametrize(("program", "sizes", "interchange"), CASES)
def test_flash_form_computes_the_attention(program, sizes, interchange):
    pipeline = fuse_ext_pipeline(sizes, interchange)
    assert_flash_form(transformed(program, pipeline), program)
    assert_same_meaning(program, pipeline)


def test_k_only_tiling():
    """No loop tiles the rows: each iteration's result is the rescaling
    matmul's fresh tensor (the full-size `insert_slice` folds away), which
    one-shot-bufferize takes with allow-return-allocs-from-loops (as the
    JIT's bufferization does), the deallocation freeing each one."""
    program = Attention(m=6, seq=20, scaled=True)
    pipeline = fuse_ext_pipeline([0, 0, 8], [])
    assert_flash_form(transformed(program, pipeline), program)
    assert_same_meaning(program, pipeline, backend="interpreter")
    assert_same_meaning(program, pipeline)


DYNAMIC = """
func.func @main(%q: tensor<?x?xf32>, %kt: tensor<?x?xf32>, %v: tensor<?x?xf32>) -> (tensor<?x?xf32>, tensor<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %m = tensor.dim %q, %c0 : tensor<?x?xf32>
  %l = tensor.dim %kt, %c1 : tensor<?x?xf32>
  %e = tensor.dim %v, %c1 : tensor<?x?xf32>
  %es = tensor.empty(%m, %l) : tensor<?x?xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%es : tensor<?x?xf32>) -> tensor<?x?xf32>
  %s = linalg.matmul ins(%q, %kt : tensor<?x?xf32>, tensor<?x?xf32>) outs(%s0 : tensor<?x?xf32>) -> tensor<?x?xf32>
  %er = tensor.empty(%m) : tensor<?xf32>
  %m0 = linalg.fill ins(%ninf : f32) outs(%er : tensor<?xf32>) -> tensor<?xf32>
  %a0 = linalg.fill ins(%zero : f32) outs(%er : tensor<?xf32>) -> tensor<?xf32>
  %p:4 = linalg_ext.softmax dimension(1) ins(%s : tensor<?x?xf32>) outs(%es, %m0, %a0, %er : tensor<?x?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>) : tensor<?x?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>
  %eo = tensor.empty(%m, %e) : tensor<?x?xf32>
  %o0 = linalg.fill ins(%zero : f32) outs(%eo : tensor<?x?xf32>) -> tensor<?x?xf32>
  %o = linalg.matmul {__root__} ins(%p#0, %v : tensor<?x?xf32>, tensor<?x?xf32>) outs(%o0 : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %o, %p#1 : tensor<?x?xf32>, tensor<?xf32>
}
"""


def test_dynamic_shapes():
    """Dynamic extents: partial tiles clamped, the tiles' empties sized by
    the clamped sizes; the final max read from the loops."""
    module = parse_module(DYNAMIC)
    root = next(op for op in module.walk() if "__root__" in op.attributes)
    result = fuse_ext(root, [4, 0, 8], [2, 1, 0])
    module.verify()
    nest = result.loops[0]
    assert len(nest.results) == 3, "the result, the max and the sum"
    ret = find_function(module, "main").body.block.last_op
    assert ret is not None and ret.operands[1] is nest.results[1]
    report = check_module(
        parse_module(DYNAMIC),
        fuse_ext_pipeline([4, 0, 8], [2, 1, 0]),
        backend="jit",
        trials=2,
    )
    assert report.ok, [str(v) for v in report.verdicts]


def test_reasons_name_the_carried_inits():
    module = parse_module(Attention().text())
    root = next(op for op in module.walk() if "__root__" in op.attributes)
    result = fuse_ext(root, [4, 0, 8], [2, 1, 0])
    reasons = [reason for _, reason in result.outside]
    assert any(r.startswith("it initialises the running max") for r in reasons)
    assert any(r.startswith("it initialises the running sum") for r in reasons)
    assert [op for op in result.fused if isinstance(op, SoftmaxLikeOp)]


REFUSED = [
    # A loop along N: each softmax tile would be computed once per N tile.
    pytest.param(Attention(), [4, 4, 8], [2, 0, 1], "tiles the matmul's N", id="n"),
    # A nonzero init would be rescaled away (the first scale is 0).
    pytest.param(
        Attention(init="argument"), [4, 0, 8], [2, 1, 0], "not a zero fill", id="init"
    ),
    # Scale and the output tiles have no whole-tensor meaning.
    pytest.param(
        Attention(return_scale=True), [4, 0, 8], [2, 1, 0], "its scale", id="scale"
    ),
    pytest.param(
        Attention(return_scores=True),
        [4, 0, 8],
        [2, 1, 0],
        "its output is used outside",
        id="probabilities",
    ),
]


def flash_refusals(program: Attention, sizes: list[int], interchange: list[int]):
    module = parse_module(program.text())
    root = next(op for op in module.walk() if "__root__" in op.attributes)
    result = fuse_ext(root, sizes, interchange)
    return [
        reason
        for op, reason in result.outside
        if isinstance(op, SoftmaxLikeOp) and reason.startswith("no flash")
    ]


@pytest.mark.parametrize(("program", "sizes", "interchange", "reason"), REFUSED)
def test_refused_leaves_the_softmax_whole(program, sizes, interchange, reason):
    """Where the flash form would change the meaning, the softmax stays
    whole before the loops (the general rule refuses to cut its dimension),
    the report says why, and the program still computes the same."""
    refusals = flash_refusals(program, sizes, interchange)
    assert len(refusals) == 1 and reason in refusals[0], refusals
    pipeline = fuse_ext_pipeline(sizes, interchange)
    module = transformed(program, pipeline)
    nest = loop_nest(module)
    assert not [op for op in nest.walk() if isinstance(op, SoftmaxLikeOp | DiagOp)]
    assert_same_meaning(program, pipeline)


def test_keep_intermediates_refuses():
    """keep_intermediates asks for every intermediate whole: the softmax's
    output tiles are not its final values, so it stays whole."""
    module = parse_module(Attention().text())
    root = next(op for op in module.walk() if "__root__" in op.attributes)
    result = fuse_ext(root, [4, 0, 8], [2, 1, 0], keep_intermediates=True)
    assert not [op for op in result.fused if isinstance(op, SoftmaxLikeOp)]
    reasons = [r for op, r in result.outside if isinstance(op, SoftmaxLikeOp)]
    assert any("keep_intermediates" in r for r in reasons), reasons


def test_rows_only_uses_the_general_rule():
    """Without a loop along k the softmax tiles by rows (its own model):
    no running statistics, no rescale."""
    program = Attention(m=10)
    assert not flash_refusals(program, [4, 0, 0], [])
    pipeline = fuse_ext_pipeline([4, 0, 0], [])
    module = transformed(program, pipeline)
    nest = loop_nest(module)
    assert [op for op in nest.walk() if isinstance(op, SoftmaxLikeOp)]
    assert not [op for op in nest.walk() if isinstance(op, DiagOp)]
    assert len(nest.results) == 1
    assert_same_meaning(program, pipeline)
