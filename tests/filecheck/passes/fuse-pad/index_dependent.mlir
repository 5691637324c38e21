// A pad value that depends on the indices (seed 000, 8.1.3: "not implemented"
// upstream) is computed by a linalg.generic over linalg.index, offset by the
// position of what it fills; the interior is left to the producer.
// RUN: xdsl-opt %s -p fuse-pad | filecheck %s
// RUN: xdsl-opt %s -p "fuse-pad{fill=border}" | filecheck %s --check-prefix=BORDER

func.func @ramp_border(%x: tensor<3x4xf32>) -> tensor<5x7xf32> {
  %e = tensor.empty() : tensor<3x4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<3x4xf32>) outs(%e : tensor<3x4xf32>) {
  ^bb0(%in: f32, %o: f32):
    %n = arith.negf %in : f32
    linalg.yield %n : f32
  } -> tensor<3x4xf32>
  %p = tensor.pad %r low[1, 2] high[1, 1] {
  ^bb0(%i: index, %j: index):
    %s = arith.addi %i, %j : index
    %c = arith.index_cast %s : index to i32
    %f = arith.sitofp %c : i32 to f32
    tensor.yield %f : f32
  } : tensor<3x4xf32> to tensor<5x7xf32>
  return %p : tensor<5x7xf32>
}
// CHECK-LABEL: func.func @ramp_border
// CHECK:      %[[E:.*]] = tensor.empty() : tensor<5x7xf32>
// CHECK-NEXT: %[[B:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%[[E]] : tensor<5x7xf32>) {
// CHECK-NEXT: ^bb0(%{{.*}}: f32):
// CHECK-NEXT:   %[[I:.*]] = linalg.index 0 : index
// CHECK-NEXT:   %[[J:.*]] = linalg.index 1 : index
// CHECK-NEXT:   %s = arith.addi %[[I]], %[[J]] : index
// CHECK-NEXT:   %c = arith.index_cast %s : index to i32
// CHECK-NEXT:   %f = arith.sitofp %c : i32 to f32
// CHECK-NEXT:   linalg.yield %f : f32
// CHECK-NEXT: } -> tensor<5x7xf32>
// CHECK-NEXT: %[[S:.*]] = tensor.extract_slice %[[B]][1, 2] [3, 4] [1, 1]
// CHECK-NEXT: linalg.generic {{.*}} outs(%[[S]] : tensor<3x4xf32>)

// The high slab of dimension 0 starts at row 4: its indices are shifted.
// BORDER-LABEL: func.func @ramp_border
// BORDER:      tensor.extract_slice %{{.*}}[0, 0] [1, 7] [1, 1]
// BORDER:      tensor.extract_slice %{{.*}}[4, 0] [1, 7] [1, 1]
// BORDER-NEXT: linalg.generic
// BORDER-NEXT: ^bb0(%{{.*}}: f32):
// BORDER-NEXT:   %[[I:.*]] = linalg.index 0 : index
// BORDER-NEXT:   %[[FOUR:.*]] = arith.constant 4 : index
// BORDER-NEXT:   %{{.*}} = arith.addi %[[I]], %[[FOUR]] : index
// BORDER:      tensor.extract_slice %{{.*}}[1, 0] [3, 2] [1, 1]
// BORDER:      tensor.extract_slice %{{.*}}[1, 6] [3, 1] [1, 1]
