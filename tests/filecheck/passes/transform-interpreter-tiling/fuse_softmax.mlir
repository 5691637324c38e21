// transform.structured.fuse through a linalg_ext.softmax: generic (x * 2)
// -> softmax along dimension 1 -> generic (square), the square tiled.
// @rows: tiled by 4 rows only, every producer is fused: the softmax tile
// needs whole rows, which it has (its running max and sum are sliced per row).
// @columns: the rows are also tiled by columns (4 of 8): a tile of the
// softmax cannot be computed from part of a row, so the softmax (and its
// producer) stay before the loops, whole.
// RUN: linalg-ext-opt %s -p transform-interpreter,test-transform-dialect-erase-schedule | filecheck %s

module attributes {transform.with_named_sequence} {
  // CHECK-LABEL: func.func @rows
  func.func @rows(%x: tensor<6x8xf32>, %m: tensor<6xf32>, %a: tensor<6xf32>) -> tensor<6x8xf32> {
    %e = tensor.empty() : tensor<6x8xf32>
    %two = arith.constant 2.0 : f32
    %scaled = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<6x8xf32>) outs(%e : tensor<6x8xf32>) {
    ^bb0(%v: f32, %o: f32):
      %y = arith.mulf %v, %two : f32
      linalg.yield %y : f32
    } -> tensor<6x8xf32>
    %out = tensor.empty() : tensor<6x8xf32>
    %s = tensor.empty() : tensor<6xf32>
    %r:4 = linalg_ext.softmax dimension(1) ins(%scaled : tensor<6x8xf32>)
        outs(%out, %m, %a, %s : tensor<6x8xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>)
        : tensor<6x8xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>
    %relu = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"], root = "rows"} ins(%r#0 : tensor<6x8xf32>) outs(%e : tensor<6x8xf32>) {
    ^bb0(%v: f32, %o: f32):
      %y = arith.mulf %v, %v : f32
      linalg.yield %y : f32
    } -> tensor<6x8xf32>
    return %relu : tensor<6x8xf32>
  }
  // CHECK-NOT:  linalg
  // CHECK:      scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %e) -> (tensor<6x8xf32>) {
  // CHECK-NEXT:   %[[H:.*]] = affine.min affine_map<(d0) -> (((d0 * -1) + 6), 4)> (%[[I]])
  // CHECK:        %[[SCALED:.*]] = linalg.generic {{.*}} ins(%{{.*}} : tensor<?x8xf32>)
  // CHECK:        %[[MAX:.*]] = tensor.extract_slice %m[%[[I]]] [%[[H]]] [1] : tensor<6xf32> to tensor<?xf32>
  // CHECK-NEXT:   %[[SUM:.*]] = tensor.extract_slice %a[%[[I]]] [%[[H]]] [1] : tensor<6xf32> to tensor<?xf32>
  // CHECK:        %[[SM:.*]], %{{.*}}, %{{.*}}, %{{.*}} = linalg_ext.softmax dimension(1) ins(%[[SCALED]] : tensor<?x8xf32>) outs(%{{.*}}, %[[MAX]], %[[SUM]], %{{.*}} :
  // CHECK:        linalg.generic {{.*}} ins(%[[SM]] : tensor<?x8xf32>)

  // CHECK-LABEL: func.func @columns
  func.func @columns(%x: tensor<6x8xf32>, %m: tensor<6xf32>, %a: tensor<6xf32>) -> tensor<6x8xf32> {
    %e = tensor.empty() : tensor<6x8xf32>
    %two = arith.constant 2.0 : f32
    %scaled = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<6x8xf32>) outs(%e : tensor<6x8xf32>) {
    ^bb0(%v: f32, %o: f32):
      %y = arith.mulf %v, %two : f32
      linalg.yield %y : f32
    } -> tensor<6x8xf32>
    %out = tensor.empty() : tensor<6x8xf32>
    %s = tensor.empty() : tensor<6xf32>
    %r:4 = linalg_ext.softmax dimension(1) ins(%scaled : tensor<6x8xf32>)
        outs(%out, %m, %a, %s : tensor<6x8xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>)
        : tensor<6x8xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>
    %relu = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"], root = "columns"} ins(%r#0 : tensor<6x8xf32>) outs(%e : tensor<6x8xf32>) {
    ^bb0(%v: f32, %o: f32):
      %y = arith.mulf %v, %v : f32
      linalg.yield %y : f32
    } -> tensor<6x8xf32>
    return %relu : tensor<6x8xf32>
  }
  // CHECK:      linalg.generic
  // CHECK:      linalg_ext.softmax dimension(1) ins(%scaled : tensor<6x8xf32>)
  // CHECK:      scf.for
  // CHECK-NEXT:   scf.for
  // CHECK-NOT:      linalg_ext.softmax
  // CHECK:          linalg.generic {{.*}} ins(%{{.*}} : tensor<?x4xf32>)

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %rows = transform.structured.match attributes {root = "rows"} in %root : (!transform.any_op) -> !transform.any_op
    %t0, %l0 = transform.structured.fuse %rows tile_sizes [4] {apply_cleanup} : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %columns = transform.structured.match attributes {root = "columns"} in %root : (!transform.any_op) -> !transform.any_op
    %t1, %l1:2 = transform.structured.fuse %columns tile_sizes [4, 4] {apply_cleanup} : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}
