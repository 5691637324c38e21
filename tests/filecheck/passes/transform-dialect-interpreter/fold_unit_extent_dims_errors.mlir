// What transform.structured.fold_unit_extent_dims refuses: one located error
// at the transform op naming the payload op (ByteIR's message), the payload
// unchanged.
// RUN: linalg-ext-opt --split-input-file --verify-diagnostics %s -p transform-dialect-interpreter

// A named op (ByteIR's op takes linalg.generic only; generalize first).
func.func @named(%x: tensor<1x3xf32>) -> tensor<1x3xf32> {
  %r = linalg.add ins(%x, %x : tensor<1x3xf32>, tensor<1x3xf32>) outs(%x : tensor<1x3xf32>) -> tensor<1x3xf32>
  return %r : tensor<1x3xf32>
}
transform.sequence failures(propagate) {
^bb0(%root: !pdl.operation):
  %0 = transform.structured.match ops{["linalg.add"]} in %root : (!pdl.operation) -> !pdl.operation
  // expected-error @below {{'transform.structured.fold_unit_extent_dims' op fold_unit_extent_dims transformation should be applied on linalg.generic (target: linalg.add at}}
  %1 = transform.structured.fold_unit_extent_dims %0
}

// -----

// A generic among the targets with a non-generic: nothing is changed.
func.func @mixed(%x: tensor<1x3xf32>) -> tensor<1x3xf32> {
  %g = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      outs(%x : tensor<1x3xf32>) {
  ^bb0(%a: f32):
    linalg.yield %a : f32
  } -> tensor<1x3xf32>
  %e = tensor.empty() : tensor<1x3xf32>
  return %g : tensor<1x3xf32>
}
transform.sequence failures(propagate) {
^bb0(%root: !pdl.operation):
  %0 = transform.structured.match ops{["linalg.generic", "tensor.empty"]} in %root : (!pdl.operation) -> !pdl.operation
  // expected-error @below {{'transform.structured.fold_unit_extent_dims' op fold_unit_extent_dims transformation should be applied on linalg.generic (target: tensor.empty at}}
  %1 = transform.structured.fold_unit_extent_dims %0
}
