// Seed 001 §7: %1 = A + 1 (generic), %2 = %1 × B (matmul), %3 = %2 × 2
// (generic). The consumer %3 is tiled by hand (8×8 tiles); greedy fusion
// pulls the matmul into the loops (a 8×16 row panel of %1 and a 16×8 column
// panel of B per tile), then, in the next round, the generic that makes %1
// (its 8×16 tile), which depends only on %i: loop-invariant code motion
// computes it once per row, before the j loop (as upstream's pass does). The
// untiled originals are gone; the fill, an init, stays (upstream's rule).
// RUN: xdsl-opt %s -p test-linalg-greedy-fusion | filecheck %s

#id = affine_map<(d0, d1) -> (d0, d1)>

// CHECK-LABEL: func.func @seed_example
func.func @seed_example(%A: tensor<16x16xf32>, %B: tensor<16x16xf32>, %C: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %init1 = tensor.empty() : tensor<16x16xf32>
  %1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%A : tensor<16x16xf32>) outs(%init1 : tensor<16x16xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %a, %one : f32
    linalg.yield %s : f32
  } -> tensor<16x16xf32>
  %empty2 = tensor.empty() : tensor<16x16xf32>
  %init2 = linalg.fill ins(%zero : f32) outs(%empty2 : tensor<16x16xf32>) -> tensor<16x16xf32>
  %2 = linalg.matmul ins(%1, %B : tensor<16x16xf32>, tensor<16x16xf32>) outs(%init2 : tensor<16x16xf32>) -> tensor<16x16xf32>
  %3 = scf.for %i = %c0 to %c16 step %c8 iter_args(%acc_i = %C) -> (tensor<16x16xf32>) {
    %row = scf.for %j = %c0 to %c16 step %c8 iter_args(%acc_j = %acc_i) -> (tensor<16x16xf32>) {
      %tile2 = tensor.extract_slice %2[%i, %j] [8, 8] [1, 1] : tensor<16x16xf32> to tensor<8x8xf32>
      %tileC = tensor.extract_slice %acc_j[%i, %j] [8, 8] [1, 1] : tensor<16x16xf32> to tensor<8x8xf32>
      %tile3 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
          ins(%tile2 : tensor<8x8xf32>) outs(%tileC : tensor<8x8xf32>) {
      ^bb0(%x: f32, %o: f32):
        %m = arith.mulf %x, %two : f32
        linalg.yield %m : f32
      } -> tensor<8x8xf32>
      %updated = tensor.insert_slice %tile3 into %acc_j[%i, %j] [8, 8] [1, 1] : tensor<8x8xf32> into tensor<16x16xf32>
      scf.yield %updated : tensor<16x16xf32>
    }
    scf.yield %row : tensor<16x16xf32>
  }
  return %3 : tensor<16x16xf32>
}
// CHECK:          %init1 = tensor.empty() : tensor<16x16xf32>
// CHECK-NEXT:     %init2 = linalg.fill ins(%zero : f32) outs(%init1 : tensor<16x16xf32>) -> tensor<16x16xf32>
// CHECK-NEXT:     %{{.*}} = scf.for %i = %c0 to %c16 step %c8 iter_args(%acc_i = %C) -> (tensor<16x16xf32>) {
// CHECK-NEXT:       %[[A:.*]] = tensor.extract_slice %A[%i, 0] [8, 16] [1, 1] : tensor<16x16xf32> to tensor<8x16xf32>
// CHECK-NEXT:       %[[I1:.*]] = tensor.empty() : tensor<8x16xf32>
// CHECK-NEXT:       %[[P1:.*]] = linalg.generic {{.*}} ins(%[[A]] : tensor<8x16xf32>) outs(%[[I1]] : tensor<8x16xf32>) {
// CHECK:            arith.addf
// CHECK:          } -> tensor<8x16xf32>
// CHECK-NEXT:       %row = scf.for %j = %c0 to %c16 step %c8 iter_args(%acc_j = %acc_i) -> (tensor<16x16xf32>) {
// CHECK-NEXT:         %[[B:.*]] = tensor.extract_slice %B[0, %j] [16, 8] [1, 1] : tensor<16x16xf32> to tensor<16x8xf32>
// CHECK-NEXT:         %[[I2:.*]] = tensor.extract_slice %init2[%i, %j] [8, 8] [1, 1] : tensor<16x16xf32> to tensor<8x8xf32>
// CHECK-NEXT:         %tile2 = linalg.matmul ins(%[[P1]], %[[B]] : tensor<8x16xf32>, tensor<16x8xf32>) outs(%[[I2]] : tensor<8x8xf32>) -> tensor<8x8xf32>
// CHECK-NEXT:         %tileC = tensor.extract_slice %acc_j[%i, %j] [8, 8] [1, 1] : tensor<16x16xf32> to tensor<8x8xf32>
// CHECK-NEXT:         %tile3 = linalg.generic {{.*}} ins(%tile2 : tensor<8x8xf32>) outs(%tileC : tensor<8x8xf32>) {
// The originals of the generic and of the matmul were erased.
// CHECK-NOT:      linalg.matmul
// CHECK-NOT:      arith.addf
