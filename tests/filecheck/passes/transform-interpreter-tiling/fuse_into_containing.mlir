// transform.structured.fuse_into_containing_op after a manual tiling: the
// consumer (a generic adding two products) is tiled 4x2 with
// tile_using_for, then its producers are fused into the outer loop one
// handle at a time, in any order: `merge_handles` of the two matmuls (each
// recomputed per tile over its whole k), then the transpose feeding one of
// them, which has a use in the loop only once that matmul is fused (the
// handle is processed until no producer is left). Dead originals are erased.
// RUN: linalg-ext-opt %s -p transform-interpreter,test-transform-dialect-erase-schedule | filecheck %s

#id = affine_map<(i, j) -> (i, j)>
module attributes {transform.with_named_sequence} {
  // CHECK-LABEL: func.func @sum_of_products
  func.func @sum_of_products(%a: tensor<8x5xf32>, %b: tensor<5x4xf32>, %ct: tensor<3x8xf32>, %d: tensor<3x4xf32>, %acc: tensor<8x4xf32>) -> tensor<8x4xf32> {
    %c_init = tensor.empty() : tensor<8x3xf32>
    %c = linalg.transpose ins(%ct : tensor<3x8xf32>) outs(%c_init : tensor<8x3xf32>) permutation = [1, 0]
    %ab = linalg.matmul {product} ins(%a, %b : tensor<8x5xf32>, tensor<5x4xf32>) outs(%acc : tensor<8x4xf32>) -> tensor<8x4xf32>
    %cd = linalg.matmul {product} ins(%c, %d : tensor<8x3xf32>, tensor<3x4xf32>) outs(%acc : tensor<8x4xf32>) -> tensor<8x4xf32>
    %out = tensor.empty() : tensor<8x4xf32>
    %sum = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
        ins(%ab, %cd : tensor<8x4xf32>, tensor<8x4xf32>) outs(%out : tensor<8x4xf32>) {
    ^bb0(%x: f32, %y: f32, %o: f32):
      %s = arith.addf %x, %y : f32
      linalg.yield %s : f32
    } -> tensor<8x4xf32>
    return %sum : tensor<8x4xf32>
  }
  // CHECK-NOT:  linalg.
  // CHECK:      scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %out) -> (tensor<8x4xf32>) {
  // CHECK-NEXT:   scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (tensor<8x4xf32>) {
  // CHECK:          %[[AB:.*]] = linalg.matmul {product} ins(%{{.*}}, %{{.*}} : tensor<4x5xf32>, tensor<5x2xf32>) outs(%{{.*}} : tensor<4x2xf32>) -> tensor<4x2xf32>
  // CHECK:          %[[CT:.*]] = tensor.extract_slice %ct[0, %[[I]]] [3, 4] [1, 1] : tensor<3x8xf32> to tensor<3x4xf32>
  // CHECK:          %[[C:.*]] = linalg.transpose ins(%[[CT]] : tensor<3x4xf32>) outs(%{{.*}} : tensor<4x3xf32>) permutation = [1, 0]
  // CHECK:          %[[CD:.*]] = linalg.matmul {product} ins(%[[C]], %{{.*}} : tensor<4x3xf32>, tensor<3x2xf32>) outs(%{{.*}} : tensor<4x2xf32>) -> tensor<4x2xf32>
  // CHECK:          linalg.generic {{.*}} ins(%[[AB]], %[[CD]] : tensor<4x2xf32>, tensor<4x2xf32>)
  // CHECK:      func.return

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %sum = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    %tiled, %outer, %inner = transform.structured.tile_using_for %sum tile_sizes [4, 2] : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    %products = transform.structured.match ops{["linalg.matmul"]} attributes {product} in %root : (!transform.any_op) -> !transform.any_op
    %ab, %cd = transform.split_handle %products : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %transpose = transform.structured.match ops{["linalg.transpose"]} in %root : (!transform.any_op) -> !transform.any_op
    %both = transform.merge_handles %transpose, %cd, %ab : !transform.any_op
    %fused, %loop = transform.structured.fuse_into_containing_op %both into %outer : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}
