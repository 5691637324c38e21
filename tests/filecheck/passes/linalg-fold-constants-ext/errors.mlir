// A bad option is a one-line error.
// RUN: not linalg-ext-opt --verify-diagnostics %s -p "linalg-fold-constants-ext{max-elements=many}" 2>&1 | filecheck %s --check-prefix=VALUE
// RUN: not linalg-ext-opt --verify-diagnostics %s -p "linalg-fold-constants-ext{limit=4}" 2>&1 | filecheck %s --check-prefix=NAME

func.func @f(%x: tensor<3xf32>) -> tensor<3xf32> {
  return %x : tensor<3xf32>
}
// VALUE: linalg-ext-opt: error: pass 'linalg-fold-constants-ext': option 'max-elements' expects an integer, got 'many'
// NAME: linalg-ext-opt: error: pass 'linalg-fold-constants-ext' has no option 'limit'; its options: max-elements
