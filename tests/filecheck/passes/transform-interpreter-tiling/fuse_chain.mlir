// transform.structured.fuse on the seed 001 chain: a generic (square) feeds
// a matmul whose init is a fill, and a generic (bias + relu) consumes it.
// Tiling the last generic 4x3 fuses every producer into the loops: the
// matmul tile over the whole k, its fill, the squares of the rows it reads.
// With apply_cleanup the loop body holds no dead or repeated op, and the
// inits of the square and the fill are tensor.empty ops of the tile's shape,
// not slices of whole tensor.empty ops (those are erased: the loops carry
// the relu's %out).
// RUN: linalg-ext-opt %s -p transform-interpreter,test-transform-dialect-erase-schedule | filecheck %s

#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (j)>
module attributes {transform.with_named_sequence} {
  // CHECK-LABEL: func.func @chain
  func.func @chain(%a: tensor<10x8xf32>, %b: tensor<8x6xf32>, %bias: tensor<6xf32>) -> tensor<10x6xf32> {
    %zero = arith.constant 0.0 : f32
    %sq_init = tensor.empty() : tensor<10x8xf32>
    %sq = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
        ins(%a : tensor<10x8xf32>) outs(%sq_init : tensor<10x8xf32>) {
    ^bb0(%x: f32, %o: f32):
      %y = arith.mulf %x, %x : f32
      linalg.yield %y : f32
    } -> tensor<10x8xf32>
    %empty = tensor.empty() : tensor<10x6xf32>
    %fill = linalg.fill ins(%zero : f32) outs(%empty : tensor<10x6xf32>) -> tensor<10x6xf32>
    %mm = linalg.matmul ins(%sq, %b : tensor<10x8xf32>, tensor<8x6xf32>) outs(%fill : tensor<10x6xf32>) -> tensor<10x6xf32>
    %out = tensor.empty() : tensor<10x6xf32>
    %relu = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
        ins(%mm, %bias : tensor<10x6xf32>, tensor<6xf32>) outs(%out : tensor<10x6xf32>) {
    ^bb0(%p: f32, %c: f32, %o: f32):
      %s = arith.addf %p, %c : f32
      %m = arith.maximumf %s, %zero : f32
      linalg.yield %m : f32
    } -> tensor<10x6xf32>
    return %relu : tensor<10x6xf32>
  }
  // CHECK-NOT:  linalg.
  // CHECK-NOT:  %empty
  // CHECK:      scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %out) -> (tensor<10x6xf32>) {
  // CHECK-NEXT:   scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (tensor<10x6xf32>) {
  // CHECK-NEXT:     %[[H:.*]] = affine.min affine_map<(d0) -> (((d0 * -1) + 10), 4)> (%[[I]])
  // CHECK-NEXT:     %[[A:.*]] = tensor.extract_slice %a[%[[I]], 0] [%[[H]], 8] [1, 1] : tensor<10x8xf32> to tensor<?x8xf32>
  // CHECK-NEXT:     %[[SQI:.*]] = tensor.empty(%[[H]]) : tensor<?x8xf32>
  // CHECK-NEXT:     %[[SQ:.*]] = linalg.generic {{.*}} ins(%[[A]] : tensor<?x8xf32>) outs(%[[SQI]] : tensor<?x8xf32>)
  // CHECK:          %[[B:.*]] = tensor.extract_slice %b[0, %[[J]]] [8, 3] [1, 1] : tensor<8x6xf32> to tensor<8x3xf32>
  // CHECK-NEXT:     %[[E:.*]] = tensor.empty(%[[H]]) : tensor<?x3xf32>
  // CHECK-NEXT:     %[[F:.*]] = linalg.fill ins(%zero : f32) outs(%[[E]] : tensor<?x3xf32>) -> tensor<?x3xf32>
  // CHECK-NEXT:     %[[MM:.*]] = linalg.matmul ins(%[[SQ]], %[[B]] : tensor<?x8xf32>, tensor<8x3xf32>) outs(%[[F]] : tensor<?x3xf32>) -> tensor<?x3xf32>
  // CHECK-NEXT:     %[[BIAS:.*]] = tensor.extract_slice %bias[%[[J]]] [3] [1] : tensor<6xf32> to tensor<3xf32>
  // CHECK-NEXT:     %[[O:.*]] = tensor.extract_slice %[[ACC]][%[[I]], %[[J]]] [%[[H]], 3] [1, 1] : tensor<10x6xf32> to tensor<?x3xf32>
  // CHECK-NEXT:     %[[R:.*]] = linalg.generic {{.*}} ins(%[[MM]], %[[BIAS]] : tensor<?x3xf32>, tensor<3xf32>) outs(%[[O]] : tensor<?x3xf32>)
  // CHECK:          tensor.insert_slice %[[R]] into %[[ACC]][%[[I]], %[[J]]] [%[[H]], 3] [1, 1] : tensor<?x3xf32> into tensor<10x6xf32>

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %generics = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    %square, %relu = transform.split_handle %generics : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %tiled, %loops:2 = transform.structured.fuse %relu tile_sizes [4, 3] {apply_cleanup} : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}
