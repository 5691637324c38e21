// After `fuse-pad` (seed 000: a 2-D elementwise square padded with a
// constant), in both fill modes: the producer already computes into the
// interior of the filled tensor, so there is nothing left to eliminate and
// the result bufferizes to one allocation with no copy. The producer's old
// init is left dead, for `dce`.
// RUN: xdsl-opt %s -p fuse-pad,eliminate-empty-tensors | filecheck %s --check-prefixes=CHECK,FULL
// RUN: xdsl-opt %s -p "fuse-pad{fill=border},eliminate-empty-tensors" | filecheck %s --check-prefixes=CHECK,BORDER

#id = affine_map<(d0, d1) -> (d0, d1)>

// CHECK-LABEL: func.func @square_padded
func.func @square_padded(%x: tensor<4x6xf32>) -> tensor<7x9xf32> {
  %zero = arith.constant 0.0 : f32
  %init = tensor.empty() : tensor<4x6xf32>
  %sq = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x6xf32>) outs(%init : tensor<4x6xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.mulf %in, %in : f32
    linalg.yield %m : f32
  } -> tensor<4x6xf32>
  %padded = tensor.pad %sq low[1, 2] high[2, 1] {
  ^bb0(%i: index, %j: index):
    tensor.yield %zero : f32
  } : tensor<4x6xf32> to tensor<7x9xf32>
  return %padded : tensor<7x9xf32>
}
// CHECK:       %init = tensor.empty() : tensor<4x6xf32>
// CHECK-NEXT:  %[[E:.*]] = tensor.empty() : tensor<7x9xf32>
// FULL-NEXT:   %[[P:.*]] = linalg.fill ins(%zero : f32) outs(%[[E]] : tensor<7x9xf32>)
// BORDER:      %[[P:.*]] = tensor.insert_slice %{{.*}} into %{{.*}}[1, 8] [4, 1] [1, 1]
// CHECK-NEXT:  %[[S:.*]] = tensor.extract_slice %[[P]][1, 2] [4, 6] [1, 1] : tensor<7x9xf32> to tensor<4x6xf32>
// CHECK-NEXT:  %[[G:.*]] = linalg.generic {{.*}} ins(%x : tensor<4x6xf32>) outs(%[[S]] : tensor<4x6xf32>)
// CHECK:       %[[R:.*]] = tensor.insert_slice %[[G]] into %[[P]][1, 2] [4, 6] [1, 1]
// CHECK-NEXT:  func.return %[[R]]
// CHECK-NOT:   tensor.empty

// Dynamic image, offsets and border value (seed 000's first example).
// CHECK-LABEL: func.func @square_padded_dynamic
func.func @square_padded_dynamic(%x: tensor<?x?xf32>, %lo0: index, %lo1: index, %hi0: index, %hi1: index, %v: f32) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %h = tensor.dim %x, %c0 : tensor<?x?xf32>
  %w = tensor.dim %x, %c1 : tensor<?x?xf32>
  %init = tensor.empty(%h, %w) : tensor<?x?xf32>
  %sq = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<?x?xf32>) outs(%init : tensor<?x?xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.mulf %in, %in : f32
    linalg.yield %m : f32
  } -> tensor<?x?xf32>
  %padded = tensor.pad %sq low[%lo0, %lo1] high[%hi0, %hi1] {
  ^bb0(%i: index, %j: index):
    tensor.yield %v : f32
  } : tensor<?x?xf32> to tensor<?x?xf32>
  return %padded : tensor<?x?xf32>
}
// CHECK:       %init = tensor.empty(%h, %w) : tensor<?x?xf32>
// CHECK:       %[[E:.*]] = tensor.empty(%{{.*}}, %{{.*}}) : tensor<?x?xf32>
// FULL-NEXT:   %[[P:.*]] = linalg.fill ins(%v : f32) outs(%[[E]] : tensor<?x?xf32>)
// BORDER:      %[[P:.*]] = tensor.insert_slice %{{.*}} into %{{.*}}[%lo0, %{{.*}}] [%h, %hi1] [1, 1]
// CHECK-NEXT:  %[[S:.*]] = tensor.extract_slice %[[P]][%lo0, %lo1] [%h, %w] [1, 1] : tensor<?x?xf32> to tensor<?x?xf32>
// CHECK-NEXT:  %[[G:.*]] = linalg.generic {{.*}} ins(%x : tensor<?x?xf32>) outs(%[[S]] : tensor<?x?xf32>)
// CHECK:       %[[R:.*]] = tensor.insert_slice %[[G]] into %[[P]][%lo0, %lo1] [%h, %w] [1, 1]
// CHECK-NEXT:  func.return %[[R]]
// CHECK-NOT:   tensor.empty
