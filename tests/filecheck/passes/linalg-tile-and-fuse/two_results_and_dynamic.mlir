// A root with two results whose inits are the same linalg.fill: the loops
// carry it twice, and each destination slice gets its own fused fill (the
// loops then carry the fill's tensor.empty in both positions). A dynamic
// matmul with a fill init: tiled along i and j (partial tiles from affine.min
// over the tensor.dim extents) the fill is fused; with k tiled too
// (`4,3,2`) it stays before the loops and runs once.
// RUN: xdsl-opt %s -p 'linalg-tile-and-fuse{tile-sizes=4,3}' | filecheck %s
// RUN: xdsl-opt %s -p 'linalg-tile-and-fuse{tile-sizes=4,3,2}' | filecheck %s --check-prefix=K

// CHECK-LABEL: func.func @two_results
// K-LABEL: func.func @two_results
func.func @two_results(%x: tensor<6x8xf32>) -> (tensor<6x8xf32>, tensor<6x8xf32>) {
  %one = arith.constant 1.0 : f32
  %e = tensor.empty() : tensor<6x8xf32>
  %f = linalg.fill ins(%one : f32) outs(%e : tensor<6x8xf32>) -> tensor<6x8xf32>
  %r:2 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<6x8xf32>) outs(%f, %f : tensor<6x8xf32>, tensor<6x8xf32>) {
  ^bb0(%a: f32, %o1: f32, %o2: f32):
    %s = arith.addf %a, %o1 : f32
    %m = arith.mulf %a, %o2 : f32
    linalg.yield %s, %m : f32, f32
  } -> (tensor<6x8xf32>, tensor<6x8xf32>)
  return %r#0, %r#1 : tensor<6x8xf32>, tensor<6x8xf32>
}
// CHECK:          %e = tensor.empty() : tensor<6x8xf32>
// CHECK-NOT:      linalg.fill
// CHECK:          scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[A1:.*]] = %e, %[[A2:.*]] = %e) -> (tensor<6x8xf32>, tensor<6x8xf32>) {
// CHECK-NEXT:       scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[B1:.*]] = %[[A1]], %[[B2:.*]] = %[[A2]])
// CHECK:              %[[D1:.*]] = tensor.extract_slice %[[B1]][%[[I]], %[[J]]]
// CHECK-NEXT:         %[[F1:.*]] = linalg.fill ins(%one : f32) outs(%[[D1]] : tensor<?x?xf32>) -> tensor<?x?xf32>
// CHECK-NEXT:         %[[D2:.*]] = tensor.extract_slice %[[B2]][%[[I]], %[[J]]]
// CHECK-NEXT:         %[[F2:.*]] = linalg.fill ins(%one : f32) outs(%[[D2]] : tensor<?x?xf32>) -> tensor<?x?xf32>
// CHECK-NEXT:         linalg.generic {{.*}} outs(%[[F1]], %[[F2]] : tensor<?x?xf32>, tensor<?x?xf32>)
// The generic has two loops: three tile sizes do not fit it, it stays.
// K:              %f = linalg.fill
// K-NEXT:         %r, %r_1 = linalg.generic
// CHECK-LABEL: func.func @dyn
// K-LABEL: func.func @dyn
func.func @dyn(%A: tensor<?x?xf32>, %B: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = tensor.dim %A, %c0 : tensor<?x?xf32>
  %n = tensor.dim %B, %c1 : tensor<?x?xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty(%m, %n) : tensor<?x?xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<?x?xf32>) -> tensor<?x?xf32>
  %p = linalg.matmul ins(%A, %B : tensor<?x?xf32>, tensor<?x?xf32>) outs(%f : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %p : tensor<?x?xf32>
}
// CHECK:          %e = tensor.empty(%m, %n) : tensor<?x?xf32>
// CHECK-NOT:      linalg.fill
// CHECK:          %p = scf.for %[[I:.*]] = %c0 to %m step %{{.*}} iter_args(%[[ACC_I:.*]] = %e) -> (tensor<?x?xf32>) {
// CHECK-NEXT:       scf.for %[[J:.*]] = %c0 to %n step %{{.*}} iter_args(%[[ACC:.*]] = %[[ACC_I]]) -> (tensor<?x?xf32>) {
// CHECK-NEXT:         %[[SI:.*]] = affine.min affine_map<(d0, d1) -> (((d0 * -1) + d1), 4)> (%[[I]], %m)
// CHECK-NEXT:         %[[SJ:.*]] = affine.min affine_map<(d0, d1) -> (((d0 * -1) + d1), 3)> (%[[J]], %n)
// CHECK:              %[[D:.*]] = tensor.extract_slice %[[ACC]][%[[I]], %[[J]]] [%[[SI]], %[[SJ]]] [1, 1] : tensor<?x?xf32> to tensor<?x?xf32>
// CHECK-NEXT:         %[[F:.*]] = linalg.fill ins(%zero : f32) outs(%[[D]] : tensor<?x?xf32>) -> tensor<?x?xf32>
// CHECK-NEXT:         linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<?x?xf32>, tensor<?x?xf32>) outs(%[[F]] : tensor<?x?xf32>) -> tensor<?x?xf32>
// K:              %f = linalg.fill ins(%zero : f32) outs(%e : tensor<?x?xf32>) -> tensor<?x?xf32>
// K:              %p = scf.for %{{.*}} = %c0 to %m step %{{.*}} iter_args(%{{.*}} = %f) -> (tensor<?x?xf32>) {
// K:                  scf.for
// K-NOT:              linalg.fill
// K:                  linalg.matmul
