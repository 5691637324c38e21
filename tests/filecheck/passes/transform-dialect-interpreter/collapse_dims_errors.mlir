// What collapse_dims refuses: one located error at the transform op naming
// the payload op, the payload unchanged (every target is checked first).
// RUN: linalg-ext-opt --split-input-file --verify-diagnostics %s -p transform-dialect-interpreter

// Not a linalg.generic (ByteIR's message).
func.func @matmul(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>, %c: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<2x3xf32>, tensor<3x4xf32>) outs(%c : tensor<2x4xf32>) -> tensor<2x4xf32>
  return %r : tensor<2x4xf32>
}
transform.sequence failures(propagate) {
^bb0(%root: !pdl.operation):
  %0 = transform.structured.match ops{["linalg.matmul"]} in %root : (!pdl.operation) -> !pdl.operation
  // expected-error @below {{'transform.structured.collapse_dims' op collapse_dims transformation should be applied on linalg.generic (target: linalg.matmul at}}
  %1 = transform.structured.collapse_dims %0 [[0, 1], [2]]
}

// -----

// A transposed operand names the loops in the other order: the grouping is
// not valid for its map (ByteIR builds wrong reshapes for it).
#id = affine_map<(d0, d1) -> (d0, d1)>
#t = affine_map<(d0, d1) -> (d1, d0)>
func.func @transposed(%x: tensor<3x2xf32>, %o: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %r = linalg.generic {indexing_maps = [#t, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<3x2xf32>) outs(%o : tensor<2x3xf32>) {
  ^bb0(%a: f32, %b: f32):
    linalg.yield %a : f32
  } -> tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}
transform.sequence failures(propagate) {
^bb0(%root: !pdl.operation):
  %0 = transform.structured.match ops{["linalg.generic"]} in %root : (!pdl.operation) -> !pdl.operation
  // expected-error @below {{'transform.structured.collapse_dims' op cannot collapse linalg.generic: reassociation group [0, 1] is not valid for the indexing map (d0, d1) -> (d1, d0) of operand #0: its loops must appear together, in this order, or not at all (target: linalg.generic at}}
  %1 = transform.structured.collapse_dims %0 [[0, 1]]
}

// -----

// A group mixing a parallel and a reduction loop.
func.func @mixed(%x: tensor<2x3xf32>, %o: tensor<2xf32>) -> tensor<2xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<2x3xf32>) outs(%o : tensor<2xf32>) {
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<2xf32>
  return %r : tensor<2xf32>
}
transform.sequence failures(propagate) {
^bb0(%root: !pdl.operation):
  %0 = transform.structured.match ops{["linalg.generic"]} in %root : (!pdl.operation) -> !pdl.operation
  // expected-error @below {{'transform.structured.collapse_dims' op cannot collapse linalg.generic: reassociation group [0, 1] mixes parallel and reduction loops (target: linalg.generic at}}
  %1 = transform.structured.collapse_dims %0 [[0, 1]]
}

// -----

// Reduction loops merged out of their order: the sum would be accumulated
// in another order (a different floating-point result).
func.func @reductions_reordered(%x: tensor<3x2xf32>, %o: tensor<f32>) -> tensor<f32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> ()>], iterator_types = ["reduction", "reduction"]}
      ins(%x : tensor<3x2xf32>) outs(%o : tensor<f32>) {
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<f32>
  return %r : tensor<f32>
}
transform.sequence failures(propagate) {
^bb0(%root: !pdl.operation):
  %0 = transform.structured.match ops{["linalg.generic"]} in %root : (!pdl.operation) -> !pdl.operation
  // expected-error @below {{'transform.structured.collapse_dims' op cannot collapse linalg.generic: reassociation group [1, 0] merges reduction loops out of their order (it would reorder the accumulation) (target: linalg.generic at}}
  %1 = transform.structured.collapse_dims %0 [[1, 0]]
}

// -----

// A loop named twice, then a loop the op does not have.
func.func @bad_groups(%x: tensor<2x3xf32>, %o: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<2x3xf32>) outs(%o : tensor<2x3xf32>) {
  ^bb0(%a: f32, %b: f32):
    linalg.yield %a : f32
  } -> tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}
transform.sequence failures(propagate) {
^bb0(%root: !pdl.operation):
  %0 = transform.structured.match ops{["linalg.generic"]} in %root : (!pdl.operation) -> !pdl.operation
  // expected-error @below {{'transform.structured.collapse_dims' op cannot collapse linalg.generic: reassociation names loop 1 twice (target: linalg.generic at}}
  %1 = transform.structured.collapse_dims %0 [[0, 1], [1]]
}

// -----

func.func @out_of_range(%x: tensor<2x3xf32>, %o: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<2x3xf32>) outs(%o : tensor<2x3xf32>) {
  ^bb0(%a: f32, %b: f32):
    linalg.yield %a : f32
  } -> tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}
transform.sequence failures(propagate) {
^bb0(%root: !pdl.operation):
  %0 = transform.structured.match ops{["linalg.generic"]} in %root : (!pdl.operation) -> !pdl.operation
  // expected-error @below {{'transform.structured.collapse_dims' op cannot collapse linalg.generic: has no loop 2 (it has 2) (target: linalg.generic at}}
  %1 = transform.structured.collapse_dims %0 [[1, 2]]
}

// -----

// A memref with a layout: its dimensions may not be collapsible.
func.func @strided(%x: memref<2x3xf32, strided<[4, 1]>>, %o: memref<2x3xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<2x3xf32, strided<[4, 1]>>) outs(%o : memref<2x3xf32>) {
  ^bb0(%a: f32, %b: f32):
    linalg.yield %a : f32
  }
  return
}
transform.sequence failures(propagate) {
^bb0(%root: !pdl.operation):
  %0 = transform.structured.match ops{["linalg.generic"]} in %root : (!pdl.operation) -> !pdl.operation
  // expected-error @below {{'transform.structured.collapse_dims' op cannot collapse linalg.generic: has a memref operand with a layout (memref<2x3xf32, strided<[4, 1]>>) (target: linalg.generic at}}
  %1 = transform.structured.collapse_dims %0 [[0, 1]]
}

// -----

// A map that is not a projected permutation (a constant result).
func.func @constant_map(%x: tensor<2x3x1xf32>, %o: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1, 0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<2x3x1xf32>) outs(%o : tensor<2x3xf32>) {
  ^bb0(%a: f32, %b: f32):
    linalg.yield %a : f32
  } -> tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}
transform.sequence failures(propagate) {
^bb0(%root: !pdl.operation):
  %0 = transform.structured.match ops{["linalg.generic"]} in %root : (!pdl.operation) -> !pdl.operation
  // expected-error @below {{'transform.structured.collapse_dims' op cannot collapse linalg.generic: has an indexing map that is not a projected permutation (target: linalg.generic at}}
  %1 = transform.structured.collapse_dims %0 [[0, 1]]
}
