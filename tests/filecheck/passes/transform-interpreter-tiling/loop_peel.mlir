// transform.loop.peel after tile_using_for: the row loop of a 10-row matmul
// tiled by 4 becomes a loop over rows 0..8 whose tile size is the constant 4
// and a loop over the partial last tile (2 rows); on dynamic extents the
// split point is ub - (ub - lb) mod 3 and the whole tiles' size is 3 (the
// last tile keeps its affine.min). (xDSL's tile_using_for types its
// loop handles !transform.any_op: transform.cast makes them scf.for handles.)
// RUN: linalg-ext-opt %s -p transform-interpreter,test-transform-dialect-erase-schedule | filecheck %s

module attributes {transform.with_named_sequence} {
  // CHECK-LABEL: func.func @static
  func.func @static(%a: tensor<10x12xf32>, %b: tensor<12x9xf32>, %c: tensor<10x9xf32>) -> tensor<10x9xf32> {
    %r = linalg.matmul {peel} ins(%a, %b : tensor<10x12xf32>, tensor<12x9xf32>) outs(%c : tensor<10x9xf32>) -> tensor<10x9xf32>
    return %r : tensor<10x9xf32>
  }
  // CHECK-DAG:  %[[C0:.*]] = arith.constant 0 : index
  // CHECK-DAG:  %[[C10:.*]] = arith.constant 10 : index
  // CHECK-DAG:  %[[C4:.*]] = arith.constant 4 : index
  // CHECK-DAG:  %[[C8:.*]] = arith.constant 8 : index
  // CHECK:      %[[MAIN:.*]] = scf.for %[[I:.*]] = %[[C0]] to %[[C8]] step %[[C4]] iter_args(%{{.*}} = %c) -> (tensor<10x9xf32>) {
  // CHECK-NEXT:   %[[FOUR:.*]] = arith.constant 4 : index
  // CHECK-NEXT:   tensor.extract_slice %a[%[[I]], 0] [%[[FOUR]], 12] [1, 1]
  // CHECK-NOT:    affine.min
  // CHECK:      %[[REST:.*]] = scf.for %[[J:.*]] = %[[C8]] to %[[C10]] step %[[C4]] iter_args(%{{.*}} = %[[MAIN]]) -> (tensor<10x9xf32>) {
  // CHECK-NEXT:   %[[TWO:.*]] = arith.constant 2 : index
  // CHECK-NEXT:   tensor.extract_slice %a[%[[J]], 0] [%[[TWO]], 12] [1, 1]
  // CHECK-NOT:    affine.min
  // CHECK:      func.return %[[REST]] : tensor<10x9xf32>

  // CHECK-LABEL: func.func @dynamic
  func.func @dynamic(%a: tensor<?x8xf32>, %init: tensor<?x8xf32>) -> tensor<?x8xf32> {
    %r = linalg.exp {peel} ins(%a : tensor<?x8xf32>) outs(%init : tensor<?x8xf32>) -> tensor<?x8xf32>
    return %r : tensor<?x8xf32>
  }
  // CHECK:      %[[N:.*]] = tensor.dim %a, %{{.*}} : tensor<?x8xf32>
  // CHECK:      %[[SPLIT:.*]] = affine.apply affine_map<(d0, d1) -> ((d1 + (((d1 + (d0 * -1)) mod 3) * -1)))> (%{{.*}}, %[[N]])
  // CHECK-NEXT: %[[MAIN:.*]] = scf.for %{{.*}} = %{{.*}} to %[[SPLIT]] step %{{.*}} iter_args(%{{.*}} = %init) -> (tensor<?x8xf32>) {
  // CHECK-NEXT:   %[[THREE:.*]] = arith.constant 3 : index
  // CHECK-NEXT:   tensor.extract_slice %a[%{{.*}}, 0] [%[[THREE]], 8] [1, 1]
  // CHECK:        linalg.exp {peel}
  // CHECK:      scf.for %{{.*}} = %[[SPLIT]] to %[[N]] step %{{.*}} iter_args(%{{.*}} = %[[MAIN]]) -> (tensor<?x8xf32>) {
  // CHECK:        affine.min
  // CHECK:        linalg.exp {peel}

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %ops = transform.structured.match attributes {peel} in %root : (!transform.any_op) -> !transform.any_op
    %matmul, %exp = transform.split_handle %ops : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %t0, %rows = transform.structured.tile_using_for %matmul tile_sizes [4] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %t1, %exp_rows = transform.structured.tile_using_for %exp tile_sizes [3] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %both = transform.merge_handles %rows, %exp_rows : !transform.any_op
    %loops = transform.cast %both : !transform.any_op to !transform.op<"scf.for">
    %main, %rest = transform.loop.peel %loops : (!transform.op<"scf.for">) -> (!transform.op<"scf.for">, !transform.op<"scf.for">)
    transform.yield
  }
}
