// What the tiling transform ops refuse: one located error at the transform
// op, naming the payload op and the reason; a verifier error for a malformed
// transform op.
// RUN: linalg-ext-opt --split-input-file --verify-diagnostics %s -p transform-interpreter

module attributes {transform.with_named_sequence} {
  func.func @softmax(%x: tensor<4x8xf32>, %m: tensor<4xf32>, %a: tensor<4xf32>) -> tensor<4x8xf32> {
    %out = tensor.empty() : tensor<4x8xf32>
    %s = tensor.empty() : tensor<4xf32>
    %r:4 = linalg_ext.softmax dimension(1) ins(%x : tensor<4x8xf32>)
        outs(%out, %m, %a, %s : tensor<4x8xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>)
        : tensor<4x8xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
    return %r#0 : tensor<4x8xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %0 = transform.structured.match ops{["linalg_ext.softmax"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{'transform.structured.tile_using_for' op linalg_ext.softmax cannot be tiled along loop 1: it must stay whole (target: linalg_ext.softmax at}}
    %t, %l:2 = transform.structured.tile_using_for %0 tile_sizes [2, 4] : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  func.func @matmul(%a: tensor<4x4xf32>, %b: tensor<4x4xf32>, %c: tensor<4x4xf32>) -> tensor<4x4xf32> {
    %r = linalg.matmul ins(%a, %b : tensor<4x4xf32>, tensor<4x4xf32>) outs(%c : tensor<4x4xf32>) -> tensor<4x4xf32>
    return %r : tensor<4x4xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %0 = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{'transform.structured.fuse' op linalg.matmul has 3 loops but 4 tile sizes were given}}
    %t, %l:4 = transform.structured.fuse %0 tile_sizes [2, 2, 2, 2] : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  func.func @not_tileable(%a: tensor<4xf32>) -> tensor<4xf32> {
    return %a : tensor<4xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %0 = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{'transform.structured.tile_using_for' op only ops implementing TilingInterface are supported (target: func.func at}}
    %t, %l = transform.structured.tile_using_for %0 tile_sizes [2] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  func.func @two(%a: tensor<4xf32>) -> tensor<4xf32> {
    %e = tensor.empty() : tensor<4xf32>
    %r = linalg.exp ins(%a : tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
    %s = linalg.exp ins(%r : tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
    return %s : tensor<4xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %0 = transform.structured.match ops{["linalg.exp"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{'transform.split_handle' op expected to contain 3 payload ops but it contains 2 payload ops}}
    %x:3 = transform.split_handle %0 : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  func.func @unused(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
    %e = tensor.empty() : tensor<4xf32>
    %r = linalg.exp ins(%a : tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
    %s = linalg.exp {consumer} ins(%b : tensor<4xf32>) outs(%r : tensor<4xf32>) -> tensor<4xf32>
    return %s : tensor<4xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %consumer = transform.structured.match ops{["linalg.exp"]} attributes {consumer} in %root : (!transform.any_op) -> !transform.any_op
    %t, %loop = transform.structured.tile_using_for %consumer tile_sizes [2] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %all = transform.structured.match ops{["linalg.exp"]} in %root : (!transform.any_op) -> !transform.any_op
    %producer, %tile = transform.split_handle %all : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    // The producer is the init of the tiled exp, read through the loop's
    // iter_args: no slice of it inside the loop to fuse.
    // expected-error @below {{'transform.structured.fuse_into_containing_op' op could not find next producer to fuse into container (target: linalg.exp at}}
    %f, %c = transform.structured.fuse_into_containing_op %producer into %loop : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %0 = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{'transform.structured.fuse' op expects 2 loop results}}
    %t, %l = transform.structured.fuse %0 tile_sizes [2, 2] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  func.func @divisible(%a: tensor<8xf32>, %b: tensor<8xf32>) -> tensor<8xf32> {
    %r = linalg.exp ins(%a : tensor<8xf32>) outs(%b : tensor<8xf32>) -> tensor<8xf32>
    return %r : tensor<8xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %0 = transform.structured.match ops{["linalg.exp"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %l = transform.structured.tile_using_for %0 tile_sizes [4] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %loop = transform.cast %l : !transform.any_op to !transform.op<"scf.for">
    // expected-error @below {{'transform.loop.peel' op failed to peel the last iteration: the loop has no partial last step (target: scf.for at}}
    %main, %rest = transform.loop.peel %loop : (!transform.op<"scf.for">) -> (!transform.op<"scf.for">, !transform.op<"scf.for">)
    transform.yield
  }
}
