// Options no op can take are refused before anything changes: one line
// located at the first root, exit code 1.
// RUN: linalg-ext-opt --verify-diagnostics %s -p 'linalg-fuse-ext{tile-sizes=4,-1}'

func.func @f(%a: tensor<16x8xf32>, %b: tensor<16x8xf32>) -> tensor<16x8xf32> {
  %e = tensor.empty() : tensor<16x8xf32>
  // expected-error @below {{linalg-fuse-ext: tile size -1 is negative}}
  %0 = linalg.add {__root__} ins(%a, %b : tensor<16x8xf32>, tensor<16x8xf32>) outs(%e : tensor<16x8xf32>) -> tensor<16x8xf32>
  return %0 : tensor<16x8xf32>
}
