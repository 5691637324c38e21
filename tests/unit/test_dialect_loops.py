"""The loops and indexing maps linalg_ext ops and the completed linalg ops
report (the structured-op queries passes rely on)."""

from __future__ import annotations

from helpers import parse_module


def loops_and_maps(source: str) -> dict[str, tuple[list[str], list[str] | None]]:
    found = {}
    for op in parse_module(source).walk():
        if hasattr(op, "get_iterator_types"):
            iterators = [str(t.data) for t in op.get_iterator_types().data]
            maps = (
                [str(m.data) for m in op.get_indexing_maps().data]
                if hasattr(op, "get_indexing_maps")
                else None
            )
            found[op.name] = (iterators, maps)
    return found


def test_linalg_ext_loops():
    source = """
    func.func @f(%x: tensor<2x3xf32>, %d: tensor<2x3x3xf32>, %m: tensor<2xf32>,
                 %i: tensor<4x1xi64>, %u: tensor<4x5xf32>, %s: tensor<7x5xf32>,
                 %t: tensor<2x1xf32>, %ti: tensor<2x1xi64>) {
      %g = linalg_ext.diag ins(%x : tensor<2x3xf32>) outs(%d : tensor<2x3x3xf32>) : tensor<2x3x3xf32>
      %r:4 = linalg_ext.softmax dimension(1) ins(%x : tensor<2x3xf32>)
          outs(%x, %m, %m, %m : tensor<2x3xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>)
          : tensor<2x3xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>
      %c:2 = linalg_ext.scan dimension(1) inclusive(true) ins(%x : tensor<2x3xf32>)
          outs(%x, %m : tensor<2x3xf32>, tensor<2xf32>) {
      ^bb0(%a: f32, %b: f32):
        %y = arith.addf %a, %b : f32
        linalg_ext.yield %y : f32
      } -> tensor<2x3xf32>, tensor<2xf32>
      %v = linalg_ext.scatter ins(%i, %u : tensor<4x1xi64>, tensor<4x5xf32>) outs(%s : tensor<7x5xf32>) {
      ^bb0(%a: f32, %b: f32):
        linalg_ext.yield %b : f32
      } -> tensor<7x5xf32>
      %k:2 = linalg_ext.topk dimension(1) ins(%x : tensor<2x3xf32>) outs(%t, %ti : tensor<2x1xf32>, tensor<2x1xi64>) {
      ^bb0(%a: f32, %b: f32):
        %lt = arith.cmpf ogt, %a, %b : f32
        linalg_ext.yield %lt : i1
      } -> tensor<2x1xf32>, tensor<2x1xi64>
      return
    }
    """
    found = loops_and_maps(source)
    p, r = "parallel", "reduction"
    assert found["linalg_ext.diag"] == (
        [p, p, p],
        ["(d0, d1, d2) -> (d0, d1)", "(d0, d1, d2) -> (d0, d1, d2)"],
    )
    reduced = "(d0, d1) -> (d0)"
    assert found["linalg_ext.softmax"] == (
        [p, r],
        ["(d0, d1) -> (d0, d1)"] * 2 + [reduced] * 3,
    )
    assert found["linalg_ext.scan"] == (
        [p, r],
        ["(d0, d1) -> (d0, d1)"] * 2 + [reduced],
    )
    assert found["linalg_ext.scatter"] == ([r, p], None)
    assert found["linalg_ext.topk"] == ([p, r], None)


def test_broadcast_and_reduce_get_the_structured_queries():
    source = """
    func.func @f(%a: tensor<4xf32>, %e: tensor<3x4xf32>, %o: tensor<3xf32>) {
      %b = linalg.broadcast ins(%a : tensor<4xf32>) outs(%e : tensor<3x4xf32>) dimensions = [0]
      %r = linalg.reduce ins(%e : tensor<3x4xf32>) outs(%o : tensor<3xf32>) dimensions = [1]
        (%x: f32, %y: f32) {
          %s = arith.addf %x, %y : f32
          linalg.yield %s : f32
        }
      return
    }
    """
    found = loops_and_maps(source)
    assert found["linalg.broadcast"] == (
        ["parallel", "parallel"],
        ["(d0, d1) -> (d1)", "(d0, d1) -> (d0, d1)"],
    )
    assert found["linalg.reduce"] == (
        ["parallel", "reduction"],
        ["(d0, d1) -> (d0, d1)", "(d0, d1) -> (d0)"],
    )
    module = parse_module(source)
    broadcast = next(op for op in module.walk() if op.name == "linalg.broadcast")
    assert [v.name_hint for v in broadcast.inputs] == ["a"]
    assert [v.name_hint for v in broadcast.outputs] == ["e"]
