// What transform.structured.tile_loop_hint refuses: a target without a
// tiling model, a target in no loop. One located error at the transform op,
// naming the payload op.
// RUN: linalg-ext-opt --split-input-file --verify-diagnostics %s -p transform-interpreter

module attributes {transform.with_named_sequence} {
  func.func @not_tileable(%x: tensor<4xf32>) -> tensor<4xf32> {
    return %x : tensor<4xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %0 = transform.structured.match ops{["func.return"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{'transform.structured.tile_loop_hint' op only TilingInterface ops are supported (target: func.return at}}
    transform.structured.tile_loop_hint %0 : !transform.any_op
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  func.func @untiled(%a: tensor<4x4xf32>, %b: tensor<4x4xf32>, %c: tensor<4x4xf32>) -> tensor<4x4xf32> {
    %r = linalg.matmul ins(%a, %b : tensor<4x4xf32>, tensor<4x4xf32>) outs(%c : tensor<4x4xf32>) -> tensor<4x4xf32>
    return %r : tensor<4x4xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %0 = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{'transform.structured.tile_loop_hint' op no loops at the target op (target: linalg.matmul at}}
    transform.structured.tile_loop_hint %0 : !transform.any_op
    transform.yield
  }
}
