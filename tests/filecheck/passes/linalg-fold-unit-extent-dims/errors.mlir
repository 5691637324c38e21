// The pass reports no error on any op (what it cannot fold it leaves alone:
// named ops, memrefs with a layout); a bad option is a one-line error.
// RUN: not linalg-ext-opt --verify-diagnostics %s -p "linalg-fold-unit-extent-dims{use-rank-reducing-slices=maybe}" 2>&1 | filecheck %s --check-prefix=VALUE
// RUN: not linalg-ext-opt --verify-diagnostics %s -p "linalg-fold-unit-extent-dims{rank-reducing=true}" 2>&1 | filecheck %s --check-prefix=NAME

func.func @f(%x: tensor<1x3xf32>) -> tensor<1x3xf32> {
  return %x : tensor<1x3xf32>
}
// VALUE: linalg-ext-opt: error: pass 'linalg-fold-unit-extent-dims': option 'use-rank-reducing-slices' expects true or false, got 'maybe'
// NAME: linalg-ext-opt: error: pass 'linalg-fold-unit-extent-dims' has no option 'rank-reducing' (did you mean 'use-rank-reducing-slices'?); its options: use-rank-reducing-slices
