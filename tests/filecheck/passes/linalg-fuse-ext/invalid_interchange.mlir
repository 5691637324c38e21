// An interchange that is not a permutation is refused before anything
// changes: one line located at the first root (unmarked here: the add),
// exit code 1.
// RUN: linalg-ext-opt --verify-diagnostics %s -p 'linalg-fuse-ext{tile-sizes=4,4 tile-interchange=1,1}'

func.func @f(%a: tensor<16x8xf32>, %b: tensor<16x8xf32>) -> tensor<16x8xf32> {
  %e = tensor.empty() : tensor<16x8xf32>
  %0 = linalg.exp ins(%a : tensor<16x8xf32>) outs(%e : tensor<16x8xf32>) -> tensor<16x8xf32>
  // expected-error @below {{linalg-fuse-ext: tile-interchange [1, 1] is not a permutation}}
  %1 = linalg.add ins(%0, %b : tensor<16x8xf32>, tensor<16x8xf32>) outs(%e : tensor<16x8xf32>) -> tensor<16x8xf32>
  return %1 : tensor<16x8xf32>
}
