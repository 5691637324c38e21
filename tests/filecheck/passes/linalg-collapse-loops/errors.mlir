// The pass reports no error on any op (what it cannot merge it leaves
// alone, see untouched.mlir); a bad option value is a one-line error.
// RUN: not linalg-ext-opt --verify-diagnostics %s -p "linalg-collapse-loops{iterator-type=window}" 2>&1 | filecheck %s

func.func @f(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  return %x : tensor<2x3xf32>
}
// CHECK: linalg-ext-opt: error: pass 'linalg-collapse-loops': option 'iterator-type' expects one of parallel, reduction, got 'window'
