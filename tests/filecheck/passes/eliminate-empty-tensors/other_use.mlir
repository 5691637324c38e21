// Only the use of the empty on the inserted chain is replaced: its other
// users keep it.
// RUN: xdsl-opt %s -p eliminate-empty-tensors | filecheck %s

#id = affine_map<(d0, d1) -> (d0, d1)>

// CHECK-LABEL: func.func @two_users
func.func @two_users(%x: tensor<4x8xf32>, %dest: tensor<10x8xf32>) -> (tensor<10x8xf32>, tensor<4x8xf32>) {
  %e = tensor.empty() : tensor<4x8xf32>
  %sq = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.mulf %in, %in : f32
    linalg.yield %m : f32
  } -> tensor<4x8xf32>
  %twice = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %a = arith.addf %in, %in : f32
    linalg.yield %a : f32
  } -> tensor<4x8xf32>
  %r = tensor.insert_slice %sq into %dest[2, 0] [4, 8] [1, 1] : tensor<4x8xf32> into tensor<10x8xf32>
  return %r, %twice : tensor<10x8xf32>, tensor<4x8xf32>
}
// CHECK:      %[[S:.*]] = tensor.extract_slice %dest[2, 0] [4, 8] [1, 1] : tensor<10x8xf32> to tensor<4x8xf32>
// CHECK-NEXT: %[[E:.*]] = tensor.empty() : tensor<4x8xf32>
// CHECK-NEXT: %sq = linalg.generic {{.*}} outs(%[[S]] : tensor<4x8xf32>)
// CHECK:      %twice = linalg.generic {{.*}} outs(%[[E]] : tensor<4x8xf32>)

// The same result inserted twice: the first insertion gets the empty; the
// second then finds a slice, not an empty, and keeps its copy.
// CHECK-LABEL: func.func @inserted_twice
func.func @inserted_twice(%x: tensor<4x8xf32>, %a: tensor<10x8xf32>, %b: tensor<4x16xf32>) -> (tensor<10x8xf32>, tensor<4x16xf32>) {
  %e = tensor.empty() : tensor<4x8xf32>
  %sq = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.mulf %in, %in : f32
    linalg.yield %m : f32
  } -> tensor<4x8xf32>
  %ra = tensor.insert_slice %sq into %a[1, 0] [4, 8] [1, 1] : tensor<4x8xf32> into tensor<10x8xf32>
  %rb = tensor.insert_slice %sq into %b[0, 4] [4, 8] [1, 1] : tensor<4x8xf32> into tensor<4x16xf32>
  return %ra, %rb : tensor<10x8xf32>, tensor<4x16xf32>
}
// CHECK-NOT:  tensor.empty
// CHECK:      %[[S:.*]] = tensor.extract_slice %a[1, 0] [4, 8] [1, 1] : tensor<10x8xf32> to tensor<4x8xf32>
// CHECK-NEXT: %sq = linalg.generic {{.*}} outs(%[[S]] : tensor<4x8xf32>)
// CHECK:      %ra = tensor.insert_slice %sq into %a[1, 0] [4, 8] [1, 1]
// CHECK-NEXT: %rb = tensor.insert_slice %sq into %b[0, 4] [4, 8] [1, 1]
