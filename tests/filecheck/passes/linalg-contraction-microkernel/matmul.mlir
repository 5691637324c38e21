// A matmul as packed, register-tiled vector loops, tiled for 256-bit vectors
// (8 f32 lanes; register tile 6 x 16 by default). Sizes that are not
// multiples of any tile: the packed panels are zero-padded and only the valid
// part of each staged C tile is copied back. Without fma each step is a
// vector multiply then a vector add (the plain loops' bits); with fma one
// vector.fma.
// RUN: xdsl-opt %s -p 'linalg-contraction-microkernel{vector-bits=256 min-multiply-adds=0 cache-tile=12,32,8}' | filecheck %s
// RUN: xdsl-opt %s -p 'linalg-contraction-microkernel{vector-bits=256 min-multiply-adds=0 fma=true}' | filecheck %s --check-prefix=FMA
// RUN: xdsl-opt %s -p 'linalg-contraction-microkernel{vector-bits=512 min-multiply-adds=0 register-tile=4,32}' | filecheck %s --check-prefix=WIDE

func.func @matmul(%a: memref<13x11xf32>, %b: memref<11x19xf32>, %c: memref<13x19xf32>) {
  linalg.matmul ins(%a, %b : memref<13x11xf32>, memref<11x19xf32>) outs(%c : memref<13x19xf32>)
  return
}
// CHECK-LABEL: func.func @matmul
// CHECK-DAG:     %packed_rhs = memref.alloc() {alignment = 64 : i64} : memref<2x8x16xf32>
// CHECK-DAG:     %packed_lhs = memref.alloc() {alignment = 64 : i64} : memref<2x8x6xf32>
// CHECK-DAG:     %stage = memref.alloca() {alignment = 64 : i64} : memref<6x16xf32>
// CHECK:         scf.for %jc = %c0 to %c19 step %c32 {
// CHECK:           scf.for %pc = %c0 to %c11 step %c8 {
// CHECK:             memref.load %b[
// CHECK:             memref.store {{.*}}, %packed_rhs[
// CHECK:             scf.for %ic = %c0 to %c13 step %c12 {
// CHECK:               memref.load %a[
// CHECK:               memref.store {{.*}}, %packed_lhs[
// CHECK:               memref.load %c[
// CHECK:               memref.store {{.*}}, %stage[
// CHECK:               %acc, %acc_1, {{.*}}, %acc_11 = scf.for %k = %c0 to %{{.*}} step %c1 iter_args({{.*}}) -> ({{(vector<8xf32>, )+}}vector<8xf32>) {
// CHECK-NEXT:            vector.load %packed_rhs[%q, %k, %c0] : memref<2x8x16xf32>, vector<8xf32>
// CHECK-NEXT:            vector.load %packed_rhs[%q, %k, %c8] : memref<2x8x16xf32>, vector<8xf32>
// CHECK-NEXT:            memref.load %packed_lhs[%p, %k, %c0] : memref<2x8x6xf32>
// CHECK-NEXT:            vector.broadcast {{.*}} : f32 to vector<8xf32>
// CHECK-NEXT:            arith.mulf {{.*}} : vector<8xf32>
// CHECK-NEXT:            arith.addf {{.*}} : vector<8xf32>
// CHECK:                 scf.yield
// CHECK:               vector.store {{.*}}, %stage[
// CHECK:               memref.load %stage[
// CHECK-NEXT:          memref.store {{.*}}, %c[
// CHECK:         memref.dealloc %packed_lhs : memref<2x8x6xf32>
// CHECK-NEXT:    memref.dealloc %packed_rhs : memref<2x8x16xf32>
// CHECK-NOT:     linalg.matmul

// FMA-LABEL: func.func @matmul
// FMA:         memref<2x11x16xf32>
// FMA:         vector.fma {{.*}} : vector<8xf32>
// FMA-NOT:     arith.mulf

// WIDE-LABEL: func.func @matmul
// WIDE:         %stage = memref.alloca() {alignment = 64 : i64} : memref<4x32xf32>
// WIDE:         vector.load %packed_rhs[%q, %k, %c16] : memref<1x11x32xf32>, vector<16xf32>

// Dynamic sizes: the cache tile's full sizes are allocated, the loops run to
// the operands' extents.
func.func @dynamic(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>) {
  linalg.matmul ins(%a, %b : memref<?x?xf32>, memref<?x?xf32>) outs(%c : memref<?x?xf32>)
  return
}
// CHECK-LABEL: func.func @dynamic
// CHECK-DAG:     memref.dim %a, %c0
// CHECK-DAG:     %packed_rhs = memref.alloc() {alignment = 64 : i64} : memref<2x8x16xf32>
// CHECK-DAG:     %packed_lhs = memref.alloc() {alignment = 64 : i64} : memref<2x8x6xf32>
// CHECK:         scf.for %jc = %c0 to %{{.*}} step %c32 {
// CHECK-NOT:     linalg.matmul

// f64: four lanes per 256-bit vector.
func.func @matmul_f64(%a: memref<9x7xf64>, %b: memref<7x10xf64>, %c: memref<9x10xf64>) {
  linalg.matmul ins(%a, %b : memref<9x7xf64>, memref<7x10xf64>) outs(%c : memref<9x10xf64>)
  return
}
// CHECK-LABEL: func.func @matmul_f64
// CHECK:         vector.load %packed_rhs[%q, %k, %c4] : memref<2x7x8xf64>, vector<4xf64>
// CHECK-NOT:     linalg.matmul
