// The pass reports no error on any op (an op whose tag it cannot read is
// left alone, see data_place.mlir); a bad option value is a one-line error.
// RUN: not linalg-ext-opt --verify-diagnostics %s -p "linalg-data-place{mem-spaces=1,-2}" 2>&1 | filecheck %s
// RUN: not linalg-ext-opt --verify-diagnostics %s -p "linalg-data-place{mem-spaces=shared}" 2>&1 | filecheck %s --check-prefix=NAME

func.func @f(%a: memref<4xf32>, %c: memref<4xf32>) {
  linalg.exp {__byteir_data_place__} ins(%a : memref<4xf32>) outs(%c : memref<4xf32>)
  return
}
// CHECK: error: {{.*}}linalg-data-place: option 'mem-spaces' takes memory spaces >= 0 or -1 (leave in place), got -2
// NAME: linalg-ext-opt: error: pass 'linalg-data-place': option 'mem-spaces' expects a comma-separated list of integers, got 'shared'
