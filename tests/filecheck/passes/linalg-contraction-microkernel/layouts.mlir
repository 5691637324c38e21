// Any layout runs the same micro-kernel: only the packing loops read the
// operands, through their indexing maps. Batch loops stay outside.
// RUN: xdsl-opt %s -p 'linalg-contraction-microkernel{vector-bits=128 min-multiply-adds=0}' | filecheck %s

#lhs_t = affine_map<(m, n, k) -> (k, m)>
#rhs_t = affine_map<(m, n, k) -> (n, k)>
#out = affine_map<(m, n, k) -> (m, n)>
// A transposed and B transposed, written as a generic (operands of the
// multiply swapped, the accumulator added last).
func.func @generic_tt(%a: memref<6x9xf32>, %b: memref<10x6xf32>, %c: memref<9x10xf32>) {
  linalg.generic {indexing_maps = [#lhs_t, #rhs_t, #out], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<6x9xf32>, memref<10x6xf32>) outs(%c : memref<9x10xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %y, %x : f32
    %s = arith.addf %p, %acc : f32
    linalg.yield %s : f32
  }
  return
}
// CHECK-LABEL: func.func @generic_tt
// CHECK:         memref.load %b[%{{.*}}, %{{.*}}] : memref<10x6xf32>
// CHECK:         memref.load %a[%{{.*}}, %{{.*}}] : memref<6x9xf32>
// CHECK:         vector.load %packed_rhs[%q, %k, %c4] : memref<{{.*}}xf32>, vector<4xf32>
// CHECK-NOT:     linalg.generic

func.func @batch(%a: memref<3x5x7xf32>, %b: memref<3x7x9xf32>, %c: memref<3x5x9xf32>) {
  linalg.batch_matmul ins(%a, %b : memref<3x5x7xf32>, memref<3x7x9xf32>) outs(%c : memref<3x5x9xf32>)
  return
}
// CHECK-LABEL: func.func @batch
// CHECK:         scf.for %batch = %c0 to %c3 step %c1 {
// CHECK:           scf.for %jc =
// CHECK:             memref.load %b[%batch,
// CHECK-NOT:     linalg.batch_matmul

func.func @ext_nt(%a: memref<2x5x7xf32>, %b: memref<2x9x7xf32>, %c: memref<2x5x9xf32>) {
  linalg_ext.batch_matmul ins(%a, %b : memref<2x5x7xf32>, memref<2x9x7xf32>) outs(%c : memref<2x5x9xf32>) layout = "nt"
  return
}
// CHECK-LABEL: func.func @ext_nt
// CHECK:         scf.for %batch = %c0 to %c2 step %c1 {
// CHECK-NOT:     linalg_ext.batch_matmul

func.func @ext_tn(%a: memref<2x7x5xf32>, %b: memref<2x7x9xf32>, %c: memref<2x5x9xf32>) {
  linalg_ext.batch_matmul ins(%a, %b : memref<2x7x5xf32>, memref<2x7x9xf32>) outs(%c : memref<2x5x9xf32>) layout = "tn"
  return
}
// CHECK-LABEL: func.func @ext_tn
// CHECK-NOT:     linalg_ext.batch_matmul

func.func @ext_tt_4d(%a: memref<2x3x7x5xf32>, %b: memref<2x3x9x7xf32>, %c: memref<2x3x5x9xf32>) {
  linalg_ext.batch_matmul ins(%a, %b : memref<2x3x7x5xf32>, memref<2x3x9x7xf32>) outs(%c : memref<2x3x5x9xf32>) layout = "tt"
  return
}
// CHECK-LABEL: func.func @ext_tt_4d
// CHECK:         scf.for %batch = %c0 to %c2 step %c1 {
// CHECK-NEXT:      scf.for %batch_1 = %c0 to %c3 step %c1 {
// CHECK-NOT:     linalg_ext.batch_matmul

// A strided view of C (a subview) is read and written through its layout.
func.func @subview_out(%a: memref<8x6xf32>, %b: memref<6x8xf32>, %big: memref<16x16xf32>) {
  %c = memref.subview %big[2, 3] [8, 8] [1, 1] : memref<16x16xf32> to memref<8x8xf32, strided<[16, 1], offset: 35>>
  linalg.matmul ins(%a, %b : memref<8x6xf32>, memref<6x8xf32>) outs(%c : memref<8x8xf32, strided<[16, 1], offset: 35>>)
  return
}
// CHECK-LABEL: func.func @subview_out
// CHECK:         memref.store {{.*}}, %c[{{.*}}] : memref<8x8xf32, strided<[16, 1], offset: 35>>
// CHECK-NOT:     linalg.matmul
