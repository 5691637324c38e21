// Seed 001 §7 without tiling by hand: %1 = A + 1 (generic), %2 = %1 × B
// (matmul, init a fill), %3 = %2 × 2 (generic, the root). The root is tiled
// 4×8 with the loops interchanged (j outermost); the matmul, its fill init
// and the generic making %1 are computed tile by tile inside the loops; 8
// does not divide 12, so the last j tile is clamped with affine.min. The
// tiled generic and fill write into tensor.empty ops of the tile's shape:
// the whole %init1 and %empty2 are gone.
// RUN: xdsl-opt %s -p 'linalg-tile-and-fuse{tile-sizes=4,8 interchange=1,0}' | filecheck %s

#id = affine_map<(d0, d1) -> (d0, d1)>

// CHECK-LABEL: func.func @seed_example
func.func @seed_example(%A: tensor<16x8xf32>, %B: tensor<8x12xf32>, %C: tensor<16x12xf32>) -> tensor<16x12xf32> {
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  %zero = arith.constant 0.0 : f32
  %init1 = tensor.empty() : tensor<16x8xf32>
  %1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%A : tensor<16x8xf32>) outs(%init1 : tensor<16x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %a, %one : f32
    linalg.yield %s : f32
  } -> tensor<16x8xf32>
  %empty2 = tensor.empty() : tensor<16x12xf32>
  %init2 = linalg.fill ins(%zero : f32) outs(%empty2 : tensor<16x12xf32>) -> tensor<16x12xf32>
  %2 = linalg.matmul ins(%1, %B : tensor<16x8xf32>, tensor<8x12xf32>) outs(%init2 : tensor<16x12xf32>) -> tensor<16x12xf32>
  %3 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%2 : tensor<16x12xf32>) outs(%C : tensor<16x12xf32>) {
  ^bb0(%x: f32, %o: f32):
    %m = arith.mulf %x, %two : f32
    linalg.yield %m : f32
  } -> tensor<16x12xf32>
  return %3 : tensor<16x12xf32>
}
// CHECK-NOT:      tensor.empty
// CHECK-NOT:      linalg
// CHECK:          %[[OUT:.*]] = scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC_J:.*]] = %C) -> (tensor<16x12xf32>) {
// CHECK-NEXT:       scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %[[ACC_J]]) -> (tensor<16x12xf32>) {
// CHECK-NEXT:         %[[N:.*]] = affine.min affine_map<(d0) -> (((d0 * -1) + 12), 8)> (%[[J]])
// CHECK-NEXT:         %[[A:.*]] = tensor.extract_slice %A[%[[I]], 0] [4, 8] [1, 1] : tensor<16x8xf32> to tensor<4x8xf32>
// CHECK-NEXT:         %[[I1:.*]] = tensor.empty() : tensor<4x8xf32>
// CHECK-NEXT:         %[[P1:.*]] = linalg.generic {{.*}} ins(%[[A]] : tensor<4x8xf32>) outs(%[[I1]] : tensor<4x8xf32>) {
// CHECK:              arith.addf
// CHECK:            } -> tensor<4x8xf32>
// CHECK-NEXT:         %[[B:.*]] = tensor.extract_slice %B[0, %[[J]]] [8, %[[N]]] [1, 1] : tensor<8x12xf32> to tensor<8x?xf32>
// CHECK-NEXT:         %[[E2:.*]] = tensor.empty(%[[N]]) : tensor<4x?xf32>
// CHECK-NEXT:         %[[F:.*]] = linalg.fill ins(%zero : f32) outs(%[[E2]] : tensor<4x?xf32>) -> tensor<4x?xf32>
// CHECK-NEXT:         %[[M:.*]] = linalg.matmul ins(%[[P1]], %[[B]] : tensor<4x8xf32>, tensor<8x?xf32>) outs(%[[F]] : tensor<4x?xf32>) -> tensor<4x?xf32>
// CHECK-NEXT:         %[[D:.*]] = tensor.extract_slice %[[ACC]][%[[I]], %[[J]]] [4, %[[N]]] [1, 1] : tensor<16x12xf32> to tensor<4x?xf32>
// CHECK-NEXT:         %[[R:.*]] = linalg.generic {{.*}} ins(%[[M]] : tensor<4x?xf32>) outs(%[[D]] : tensor<4x?xf32>) {
// CHECK:              arith.mulf
// CHECK:            } -> tensor<4x?xf32>
// CHECK-NEXT:         %[[U:.*]] = tensor.insert_slice %[[R]] into %[[ACC]][%[[I]], %[[J]]] [4, %[[N]]] [1, 1] : tensor<4x?xf32> into tensor<16x12xf32>
// CHECK-NEXT:         scf.yield %[[U]] : tensor<16x12xf32>
// CHECK:          func.return %[[OUT]] : tensor<16x12xf32>
