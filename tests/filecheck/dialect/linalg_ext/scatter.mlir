// Round trip of scatter.
// RUN: xdsl-opt %s | filecheck %s
// RUN: xdsl-opt %s | xdsl-opt | filecheck %s
// RUN: xdsl-opt %s --print-op-generic | xdsl-opt | filecheck %s

// Rows of a matrix updated by accumulation: indices [B=6, D=1], updates
// [B=6, W=16], src [S0=40, W=16].
// CHECK-LABEL: func.func @scatter_add_rows
func.func @scatter_add_rows(%src: tensor<40x16xf32>, %idx: tensor<6x1xi64>, %upd: tensor<6x16xf32>) -> tensor<40x16xf32> {
  %r = linalg_ext.scatter
    ins(%idx, %upd : tensor<6x1xi64>, tensor<6x16xf32>)
    outs(%src : tensor<40x16xf32>) {
    ^bb0(%old : f32, %new : f32):
      %sum = arith.addf %old, %new : f32
      linalg_ext.yield %sum : f32
  } -> tensor<40x16xf32>
  return %r : tensor<40x16xf32>
}
// CHECK:      %r = linalg_ext.scatter ins(%idx, %upd : tensor<6x1xi64>, tensor<6x16xf32>) outs(%src : tensor<40x16xf32>) {
// CHECK-NEXT: ^bb0(%old: f32, %new: f32):
// CHECK-NEXT:   %sum = arith.addf %old, %new : f32
// CHECK-NEXT:   linalg_ext.yield %sum : f32
// CHECK-NEXT: } -> tensor<40x16xf32>

// Point updates that overwrite: two batch dimensions, D=2, no window.
// CHECK-LABEL: func.func @scatter_overwrite_points
func.func @scatter_overwrite_points(%src: tensor<5x6xi32>, %idx: tensor<3x4x2xindex>, %upd: tensor<3x4xi32>) -> tensor<5x6xi32> {
  %r = linalg_ext.scatter ins(%idx, %upd : tensor<3x4x2xindex>, tensor<3x4xi32>) outs(%src : tensor<5x6xi32>) {
    ^bb0(%old : i32, %new : i32):
      linalg_ext.yield %new : i32
  } -> tensor<5x6xi32>
  return %r : tensor<5x6xi32>
}
// CHECK:      %r = linalg_ext.scatter ins(%idx, %upd : tensor<3x4x2xindex>, tensor<3x4xi32>) outs(%src : tensor<5x6xi32>) {
// CHECK-NEXT: ^bb0(%old: i32, %new: i32):
// CHECK-NEXT:   linalg_ext.yield %new : i32
// CHECK-NEXT: } -> tensor<5x6xi32>

// memref form with a dynamic batch and a trailing unit index depth.
// CHECK-LABEL: func.func @scatter_memref
func.func @scatter_memref(%src: memref<100xf16>, %idx: memref<?x1xi32>, %upd: memref<?xf16>) {
  linalg_ext.scatter ins(%idx, %upd : memref<?x1xi32>, memref<?xf16>) outs(%src : memref<100xf16>) {
    ^bb0(%old : f16, %new : f16):
      %m = arith.maximumf %old, %new : f16
      linalg_ext.yield %m : f16
  }
  return
}
// CHECK:      linalg_ext.scatter ins(%idx, %upd : memref<?x1xi32>, memref<?xf16>) outs(%src : memref<100xf16>) {
// CHECK-NEXT: ^bb0(%old: f16, %new: f16):
// CHECK-NEXT:   %m = arith.maximumf %old, %new : f16
// CHECK-NEXT:   linalg_ext.yield %m : f16
// CHECK-NEXT: }
// CHECK-NEXT: func.return
