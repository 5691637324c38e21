// The two examples of seed 000, section 5: a dynamic 2-D image and a mixed
// static/dynamic transpose. The producer is computed once, straight into the
// interior of the padded tensor; its sizes come from its init, not from the
// old result, so nothing else is left of it.
// RUN: xdsl-opt %s -p fuse-pad | filecheck %s

// CHECK-LABEL: func.func @dynamic_image
func.func @dynamic_image(%input: tensor<?x?xf32>, %low_y: index, %low_x: index, %high_y: index, %high_x: index, %border: f32) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %h = tensor.dim %input, %c0 : tensor<?x?xf32>
  %w = tensor.dim %input, %c1 : tensor<?x?xf32>
  %buffer = tensor.empty(%h, %w) : tensor<?x?xf32>
  %squared = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%input : tensor<?x?xf32>) outs(%buffer : tensor<?x?xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.mulf %in, %in : f32
    linalg.yield %s : f32
  } -> tensor<?x?xf32>
  %padded = tensor.pad %squared low[%low_y, %low_x] high[%high_y, %high_x] {
  ^bb0(%i: index, %j: index):
    tensor.yield %border : f32
  } : tensor<?x?xf32> to tensor<?x?xf32>
  return %padded : tensor<?x?xf32>
}
// CHECK:      %h = tensor.dim %input, %c0 : tensor<?x?xf32>
// CHECK-NEXT: %w = tensor.dim %input, %c1 : tensor<?x?xf32>
// CHECK-NEXT: %buffer = tensor.empty(%h, %w) : tensor<?x?xf32>
// CHECK-NEXT: %[[H:.*]] = affine.apply affine_map<()[s0, s1, s2] -> (((s0 + s1) + s2))> ()[%h, %low_y, %high_y]
// CHECK-NEXT: %[[W:.*]] = affine.apply affine_map<()[s0, s1, s2] -> (((s0 + s1) + s2))> ()[%w, %low_x, %high_x]
// CHECK-NEXT: %[[E:.*]] = tensor.empty(%[[H]], %[[W]]) : tensor<?x?xf32>
// CHECK-NEXT: %[[F:.*]] = linalg.fill ins(%border : f32) outs(%[[E]] : tensor<?x?xf32>) -> tensor<?x?xf32>
// CHECK-NEXT: %[[S:.*]] = tensor.extract_slice %[[F]][%low_y, %low_x] [%h, %w] [1, 1] : tensor<?x?xf32> to tensor<?x?xf32>
// CHECK-NEXT: %[[G:.*]] = linalg.generic {{.*}} ins(%input : tensor<?x?xf32>) outs(%[[S]] : tensor<?x?xf32>) {
// CHECK:      %[[R:.*]] = tensor.insert_slice %[[G]] into %[[F]][%low_y, %low_x] [%h, %w] [1, 1] : tensor<?x?xf32> into tensor<?x?xf32>
// CHECK-NEXT: func.return %[[R]] : tensor<?x?xf32>
// CHECK-NOT:  linalg.generic

// CHECK-LABEL: func.func @mixed_transpose
func.func @mixed_transpose(%input: tensor<?x42xf32>, %low: index, %high: index, %value: f32) -> tensor<49x?xf32> {
  %c0 = arith.constant 0 : index
  %batch = tensor.dim %input, %c0 : tensor<?x42xf32>
  %init = tensor.empty(%batch) : tensor<42x?xf32>
  %t = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1, d0)>], iterator_types = ["parallel", "parallel"]}
      ins(%input : tensor<?x42xf32>) outs(%init : tensor<42x?xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.mulf %in, %in : f32
    linalg.yield %s : f32
  } -> tensor<42x?xf32>
  %padded = tensor.pad %t low[3, %low] high[4, %high] {
  ^bb0(%i: index, %j: index):
    tensor.yield %value : f32
  } : tensor<42x?xf32> to tensor<49x?xf32>
  return %padded : tensor<49x?xf32>
}
// The static dimension folds (49 = 42 + 3 + 4); the slice is of the pad's
// source shape whatever the producer's maps.
// CHECK:      %[[N:.*]] = affine.apply affine_map<()[s0, s1, s2] -> (((s0 + s1) + s2))> ()[%batch, %low, %high]
// CHECK-NEXT: %[[E:.*]] = tensor.empty(%[[N]]) : tensor<49x?xf32>
// CHECK-NEXT: %[[F:.*]] = linalg.fill ins(%value : f32) outs(%[[E]] : tensor<49x?xf32>) -> tensor<49x?xf32>
// CHECK-NEXT: %[[S:.*]] = tensor.extract_slice %[[F]][3, %low] [42, %batch] [1, 1] : tensor<49x?xf32> to tensor<42x?xf32>
// CHECK-NEXT: %[[G:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1, d0)>], {{.*}} ins(%input : tensor<?x42xf32>) outs(%[[S]] : tensor<42x?xf32>)
// CHECK:      tensor.insert_slice %[[G]] into %[[F]][3, %low] [42, %batch] [1, 1] : tensor<42x?xf32> into tensor<49x?xf32>
