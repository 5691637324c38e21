// Any all-parallel structured producer: named elementwise ops, linalg.transpose
// and linalg.map are fused like linalg.generic.
// RUN: xdsl-opt %s -p fuse-pad | filecheck %s

func.func @named_producers(%a: tensor<3x4xf32>, %b: tensor<3x4xf32>, %v: f32) -> (tensor<5x4xf32>, tensor<4x5xf32>, tensor<3x6xf32>) {
  %e = tensor.empty() : tensor<3x4xf32>
  %sum = linalg.add ins(%a, %b : tensor<3x4xf32>, tensor<3x4xf32>) outs(%e : tensor<3x4xf32>) -> tensor<3x4xf32>
  %p1 = tensor.pad %sum low[1, 0] high[1, 0] {
  ^bb0(%i: index, %j: index):
    tensor.yield %v : f32
  } : tensor<3x4xf32> to tensor<5x4xf32>
  %te = tensor.empty() : tensor<4x3xf32>
  %t = linalg.transpose ins(%a : tensor<3x4xf32>) outs(%te : tensor<4x3xf32>) permutation = [1, 0]
  %p2 = tensor.pad %t low[0, 1] high[0, 1] {
  ^bb0(%i: index, %j: index):
    tensor.yield %v : f32
  } : tensor<4x3xf32> to tensor<4x5xf32>
  %me = tensor.empty() : tensor<3x4xf32>
  %m = linalg.map { math.exp } ins(%b : tensor<3x4xf32>) outs(%me : tensor<3x4xf32>)
  %p3 = tensor.pad %m low[0, 2] high[0, 0] {
  ^bb0(%i: index, %j: index):
    tensor.yield %v : f32
  } : tensor<3x4xf32> to tensor<3x6xf32>
  return %p1, %p2, %p3 : tensor<5x4xf32>, tensor<4x5xf32>, tensor<3x6xf32>
}
// CHECK-LABEL: func.func @named_producers
// CHECK:      %[[S1:.*]] = tensor.extract_slice %{{.*}}[1, 0] [3, 4] [1, 1] : tensor<5x4xf32> to tensor<3x4xf32>
// CHECK-NEXT: %[[A:.*]] = linalg.add ins(%a, %b : tensor<3x4xf32>, tensor<3x4xf32>) outs(%[[S1]] : tensor<3x4xf32>) -> tensor<3x4xf32>
// CHECK-NEXT: %p1{{.*}} = tensor.insert_slice %[[A]]
// CHECK:      %[[S2:.*]] = tensor.extract_slice %{{.*}}[0, 1] [4, 3] [1, 1] : tensor<4x5xf32> to tensor<4x3xf32>
// CHECK-NEXT: %[[T:.*]] = linalg.transpose ins(%a : tensor<3x4xf32>) outs(%[[S2]] : tensor<4x3xf32>) permutation = [1, 0]
// CHECK-NEXT: %p2{{.*}} = tensor.insert_slice %[[T]]
// CHECK:      %[[S3:.*]] = tensor.extract_slice %{{.*}}[0, 2] [3, 4] [1, 1] : tensor<3x6xf32> to tensor<3x4xf32>
// CHECK-NEXT: %[[M:.*]] = linalg.map { math.exp } ins(%b : tensor<3x4xf32>) outs(%[[S3]] : tensor<3x4xf32>)
// CHECK-NEXT: %p3{{.*}} = tensor.insert_slice %[[M]]
// CHECK-NOT:  tensor.pad
