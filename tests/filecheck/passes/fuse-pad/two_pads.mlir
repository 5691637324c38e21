// One producer, two pads: both are fused, as upstream fuses both. The first
// pad gets its own copy of the producer; the last one computes the original
// into its interior, so the producer runs once per pad and no pad copies.
// RUN: xdsl-opt %s -p fuse-pad | filecheck %s

func.func @two_pads(%x: tensor<3x4xf32>, %v: f32, %w: f32) -> (tensor<5x4xf32>, tensor<3x7xf32>) {
  %e = tensor.empty() : tensor<3x4xf32>
  %n = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<3x4xf32>) outs(%e : tensor<3x4xf32>) {
  ^bb0(%in: f32, %o: f32):
    %m = arith.negf %in : f32
    linalg.yield %m : f32
  } -> tensor<3x4xf32>
  %rows = tensor.pad %n low[1, 0] high[1, 0] {
  ^bb0(%i: index, %j: index):
    tensor.yield %v : f32
  } : tensor<3x4xf32> to tensor<5x4xf32>
  %cols = tensor.pad %n low[0, 1] high[0, 2] {
  ^bb0(%i: index, %j: index):
    tensor.yield %w : f32
  } : tensor<3x4xf32> to tensor<3x7xf32>
  return %rows, %cols : tensor<5x4xf32>, tensor<3x7xf32>
}
// CHECK-LABEL: func.func @two_pads
// CHECK-NOT:  linalg.generic
// CHECK:      %[[S1:.*]] = tensor.extract_slice %{{.*}}[1, 0] [3, 4] [1, 1] : tensor<5x4xf32> to tensor<3x4xf32>
// CHECK-NEXT: %[[G1:.*]] = linalg.generic {{.*}} outs(%[[S1]] : tensor<3x4xf32>)
// CHECK:      %[[P1:.*]] = tensor.insert_slice %[[G1]] into %{{.*}}[1, 0] [3, 4] [1, 1]
// CHECK-NOT:  linalg.generic
// CHECK:      %[[S2:.*]] = tensor.extract_slice %{{.*}}[0, 1] [3, 4] [1, 1] : tensor<3x7xf32> to tensor<3x4xf32>
// CHECK-NEXT: %[[G2:.*]] = linalg.generic {{.*}} outs(%[[S2]] : tensor<3x4xf32>)
// CHECK:      %[[P2:.*]] = tensor.insert_slice %[[G2]] into %{{.*}}[0, 1] [3, 4] [1, 1]
// CHECK-NEXT: func.return %[[P1]], %[[P2]]
// CHECK-NOT:  tensor.pad
