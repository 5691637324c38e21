// MLIR 22's linalg.elementwise, linalg.matmul with indexing_maps and a
// linalg.reduce with two inputs and inits: the loops read each operand
// through its indexing map.
// RUN: xdsl-opt %s -p convert-linalg-to-loops-ext | filecheck %s

// CHECK-LABEL: func.func @elementwise_transposed
func.func @elementwise_transposed(%t: memref<8x4xf32>, %o: memref<4x8xf32>) {
  linalg.elementwise kind=#linalg.elementwise_kind<exp> indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>] ins(%t : memref<8x4xf32>) outs(%o : memref<4x8xf32>)
  return
}
// CHECK:      scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:   scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:     %[[X:.*]] = memref.load %t[%[[J]], %[[I]]] : memref<8x4xf32>
// CHECK-NEXT:     %[[E:.*]] = math.exp %[[X]] : f32
// CHECK-NEXT:     memref.store %[[E]], %o[%[[I]], %[[J]]] : memref<4x8xf32>

// CHECK-LABEL: func.func @matmul_transposed_lhs
func.func @matmul_transposed_lhs(%a: memref<8x4xf32>, %b: memref<8x5xf32>, %o: memref<4x5xf32>) {
  linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%a, %b : memref<8x4xf32>, memref<8x5xf32>) outs(%o : memref<4x5xf32>)
  return
}
// CHECK:      scf.for %[[M:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:   scf.for %[[N:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:     %[[INIT:.*]] = memref.load %o[%[[M]], %[[N]]] : memref<4x5xf32>
// CHECK-NEXT:     %{{.*}} = scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %[[INIT]]) -> (f32) {
// CHECK-NEXT:       %[[A:.*]] = memref.load %a[%[[K]], %[[M]]] : memref<8x4xf32>
// CHECK-NEXT:       %[[B:.*]] = memref.load %b[%[[K]], %[[N]]] : memref<8x5xf32>
// CHECK-NEXT:       %[[P:.*]] = arith.mulf %[[A]], %[[B]] : f32
// CHECK-NEXT:       %[[S:.*]] = arith.addf %[[ACC]], %[[P]] : f32

// CHECK-LABEL: func.func @reduce_two
func.func @reduce_two(%a: memref<4x8xf32>, %b: memref<4x8xf32>, %r: memref<4xf32>, %s: memref<4xf32>) {
  linalg.reduce ins(%a, %b : memref<4x8xf32>, memref<4x8xf32>) outs(%r, %s : memref<4xf32>, memref<4xf32>) dimensions = [1]
    (%x: f32, %y: f32, %acc: f32, %best: f32) {
      %sum = arith.addf %x, %acc : f32
      %max = arith.maximumf %y, %best : f32
      linalg.yield %sum, %max : f32, f32
    }
  return
}
// CHECK:      scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:   %[[R0:.*]] = memref.load %r[%[[I]]] : memref<4xf32>
// CHECK-NEXT:   %[[S0:.*]] = memref.load %s[%[[I]]] : memref<4xf32>
// CHECK-NEXT:   %[[RN:.*]], %[[SN:.*]] = scf.for %{{.*}} iter_args(%{{.*}} = %[[R0]], %{{.*}} = %[[S0]]) -> (f32, f32) {
// CHECK:          arith.addf
// CHECK-NEXT:     arith.maximumf
// CHECK:        memref.store %[[RN]], %r[%[[I]]] : memref<4xf32>
// CHECK-NEXT:   memref.store %[[SN]], %s[%[[I]]] : memref<4xf32>
