// A chain of elementwise ops on dynamic shapes: exp, then a sum with a
// broadcast row, then a product whose first operand is the exp again. Tiled
// 3×5 (partial tiles on both loops, clamped with affine.min over the
// tensor.dim extents), every producer is computed per tile; the exp is read
// by two fused ops and fused for each (recomputed, as upstream does).
// RUN: xdsl-opt %s -p 'linalg-tile-and-fuse{tile-sizes=3,5}' | filecheck %s

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>

// CHECK-LABEL: func.func @chain
func.func @chain(%x: tensor<?x?xf32>, %r: tensor<?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = tensor.dim %x, %c0 : tensor<?x?xf32>
  %n = tensor.dim %x, %c1 : tensor<?x?xf32>
  %empty = tensor.empty(%m, %n) : tensor<?x?xf32>
  %exp = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<?x?xf32>) outs(%empty : tensor<?x?xf32>) {
  ^bb0(%a: f32, %o: f32):
    %e = math.exp %a : f32
    linalg.yield %e : f32
  } -> tensor<?x?xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%exp, %r : tensor<?x?xf32>, tensor<?xf32>) outs(%empty : tensor<?x?xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<?x?xf32>
  %product = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%exp, %sum : tensor<?x?xf32>, tensor<?x?xf32>) outs(%empty : tensor<?x?xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %p = arith.mulf %a, %b : f32
    linalg.yield %p : f32
  } -> tensor<?x?xf32>
  return %product : tensor<?x?xf32>
}
// CHECK:          %empty = tensor.empty(%m, %n) : tensor<?x?xf32>
// CHECK-NOT:      linalg
// CHECK:          %product = scf.for %[[I:.*]] = %c0 to %m step %{{.*}} iter_args(%[[ACC_I:.*]] = %empty) -> (tensor<?x?xf32>) {
// CHECK-NEXT:       scf.for %[[J:.*]] = %c0 to %n step %{{.*}} iter_args(%[[ACC:.*]] = %[[ACC_I]]) -> (tensor<?x?xf32>) {
// CHECK-NEXT:         %[[SI:.*]] = affine.min affine_map<(d0, d1) -> (((d0 * -1) + d1), 3)> (%[[I]], %m)
// CHECK-NEXT:         %[[SJ:.*]] = affine.min affine_map<(d0, d1) -> (((d0 * -1) + d1), 5)> (%[[J]], %n)
// CHECK-NEXT:         %[[X:.*]] = tensor.extract_slice %x[%[[I]], %[[J]]] [%[[SI]], %[[SJ]]] [1, 1] : tensor<?x?xf32> to tensor<?x?xf32>
// CHECK-NEXT:         %[[E:.*]] = tensor.empty(%[[SI]], %[[SJ]]) : tensor<?x?xf32>
// CHECK-NEXT:         %[[EXP1:.*]] = linalg.generic {{.*}} ins(%[[X]] : tensor<?x?xf32>) outs(%[[E]] : tensor<?x?xf32>) {
// CHECK:              math.exp
// CHECK:            } -> tensor<?x?xf32>
// CHECK-NEXT:         %[[EXP2:.*]] = linalg.generic {{.*}} ins(%[[X]] : tensor<?x?xf32>) outs(%[[E]] : tensor<?x?xf32>) {
// CHECK:              math.exp
// CHECK:            } -> tensor<?x?xf32>
// CHECK-NEXT:         %[[R:.*]] = tensor.extract_slice %r[%[[J]]] [%[[SJ]]] [1] : tensor<?xf32> to tensor<?xf32>
// CHECK-NEXT:         %[[SUM:.*]] = linalg.generic {{.*}} ins(%[[EXP2]], %[[R]] : tensor<?x?xf32>, tensor<?xf32>) outs(%[[E]] : tensor<?x?xf32>) {
// CHECK:            } -> tensor<?x?xf32>
// CHECK-NEXT:         %[[D:.*]] = tensor.extract_slice %[[ACC]][%[[I]], %[[J]]] [%[[SI]], %[[SJ]]] [1, 1] : tensor<?x?xf32> to tensor<?x?xf32>
// CHECK-NEXT:         %[[P:.*]] = linalg.generic {{.*}} ins(%[[EXP1]], %[[SUM]] : tensor<?x?xf32>, tensor<?x?xf32>) outs(%[[D]] : tensor<?x?xf32>) {
// CHECK:            } -> tensor<?x?xf32>
// CHECK-NEXT:         tensor.insert_slice %[[P]] into %[[ACC]][%[[I]], %[[J]]] [%[[SI]], %[[SJ]]] [1, 1] : tensor<?x?xf32> into tensor<?x?xf32>
