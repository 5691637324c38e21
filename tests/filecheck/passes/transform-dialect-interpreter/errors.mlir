// What a ByteIR script refuses: a transform op that fails stops a
// failures(propagate) sequence with one located error naming the payload op;
// a malformed op is a verifier error.
// RUN: linalg-ext-opt --split-input-file --verify-diagnostics %s -p transform-dialect-interpreter

func.func @matmul(%a: tensor<8x4xf32>, %b: tensor<4x8xf32>, %c: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<8x4xf32>, tensor<4x8xf32>) outs(%c : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %r : tensor<8x8xf32>
}

transform.sequence failures(propagate) {
^bb0(%arg0: !pdl.operation):
  %0 = transform.structured.match ops{["linalg.matmul"]} in %arg0 : (!pdl.operation) -> !pdl.operation
  %1, %loops:2 = transform.structured.tile_using_for %0 tile_sizes [4, 4] : (!pdl.operation) -> (!pdl.operation, !pdl.operation, !pdl.operation)
  %2 = cast %loops#0 : !pdl.operation to !transform.op<"scf.for">
  // expected-error @below {{'transform.loop.peel' op failed to peel the last iteration: the loop has no partial last step (target: scf.for at}}
  %main, %rest = transform.loop.peel %2 : (!transform.op<"scf.for">) -> (!pdl.operation, !pdl.operation)
}

// -----

transform.sequence failures(propagate) {
^bb0(%arg0: !pdl.operation):
  %0 = transform.structured.match attributes {__root__} in %arg0 : (!pdl.operation) -> !pdl.operation
  // expected-error @below {{'transform.structured.fuse_ext' op expects interchange to be a permutation, found [0, 0]}}
  %1, %loops:2 = transform.structured.fuse_ext %0 {tile_sizes = [4, 4], tile_interchange = [0, 0]}
}

// -----

// expected-error @below {{'transform.sequence' op expects the entry block to have at least one argument}}
transform.sequence failures(propagate) {
}
