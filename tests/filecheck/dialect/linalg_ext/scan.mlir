// Round trip of scan.
// RUN: xdsl-opt %s | filecheck %s
// RUN: xdsl-opt %s | xdsl-opt | filecheck %s
// RUN: xdsl-opt %s --print-op-generic | xdsl-opt | filecheck %s

// CHECK-LABEL: func.func @cumsum_1d
func.func @cumsum_1d(%x: tensor<32xi64>) -> (tensor<32xi64>, tensor<i64>) {
  %carry = tensor.empty() : tensor<i64>
  %init = tensor.empty() : tensor<32xi64>
  %r:2 = linalg_ext.scan
    dimension(0) inclusive(true)
    ins(%x : tensor<32xi64>) outs(%init, %carry : tensor<32xi64>, tensor<i64>) {
    ^bb0(%running : i64, %elem : i64):
      %next = arith.addi %running, %elem : i64
      linalg_ext.yield %next : i64
  } -> tensor<32xi64>, tensor<i64>
  return %r#0, %r#1 : tensor<32xi64>, tensor<i64>
}
// CHECK:      %{{.*}}, %{{.*}} = linalg_ext.scan dimension(0) inclusive(true) ins(%x : tensor<32xi64>) outs(%init, %carry : tensor<32xi64>, tensor<i64>) {
// CHECK-NEXT: ^bb0(%running: i64, %elem: i64):
// CHECK-NEXT:   %next = arith.addi %running, %elem : i64
// CHECK-NEXT:   linalg_ext.yield %next : i64
// CHECK-NEXT: } -> tensor<32xi64>, tensor<i64>

// An exclusive product scan over the middle dimension, with a tiling marker
// in front as ByteIR's tiling tests write it.
// CHECK-LABEL: func.func @cumprod_exclusive_3d
func.func @cumprod_exclusive_3d(%x: tensor<2x9x4xf32>, %init: tensor<2x9x4xf32>, %carry: tensor<2x4xf32>) -> tensor<2x9x4xf32> {
  %r:2 = linalg_ext.scan
    {__internal_linalg_transform__ = "tile_me"}
    dimension(1) inclusive(false)
    ins(%x : tensor<2x9x4xf32>) outs(%init, %carry : tensor<2x9x4xf32>, tensor<2x4xf32>) {
    ^bb0(%running : f32, %elem : f32):
      %next = arith.mulf %running, %elem : f32
      linalg_ext.yield %next : f32
  } -> tensor<2x9x4xf32>, tensor<2x4xf32>
  return %r#0 : tensor<2x9x4xf32>
}
// CHECK: linalg_ext.scan {__internal_linalg_transform__ = "tile_me"} dimension(1) inclusive(false) ins(%x : tensor<2x9x4xf32>) outs(%init, %carry : tensor<2x9x4xf32>, tensor<2x4xf32>) {
// CHECK: } -> tensor<2x9x4xf32>, tensor<2x4xf32>

// CHECK-LABEL: func.func @scan_memref_dynamic
func.func @scan_memref_dynamic(%x: memref<?x8xi32>, %out: memref<?x8xi32>, %carry: memref<?xi32>) {
  linalg_ext.scan
    dimension(1) inclusive(true)
    ins(%x : memref<?x8xi32>) outs(%out, %carry : memref<?x8xi32>, memref<?xi32>) {
    ^bb0(%running : i32, %elem : i32):
      %next = arith.maxsi %running, %elem : i32
      linalg_ext.yield %next : i32
  }
  return
}
// CHECK:      linalg_ext.scan dimension(1) inclusive(true) ins(%x : memref<?x8xi32>) outs(%out, %carry : memref<?x8xi32>, memref<?xi32>) {
// CHECK-NEXT: ^bb0(%running: i32, %elem: i32):
// CHECK-NEXT:   %next = arith.maxsi %running, %elem : i32
// CHECK-NEXT:   linalg_ext.yield %next : i32
// CHECK-NEXT: }
// CHECK-NEXT: func.return
