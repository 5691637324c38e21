// transform.structured.tile_using_for on linalg.matmul, run by xDSL's
// transform-interpreter with our implementation (the tiling library):
// @partial: 10x9 result tiled 4x3 with the loops interchanged (j outer):
// the last i tile is partial, clamped with affine.min; @dynamic: the tile
// sizes are a !transform.param (4) and an index value the payload computes
// (%ts, a handle to its defining op), on dynamic shapes: both loops clamp. Ops are chosen by an attribute (`op_attrs`).
// RUN: linalg-ext-opt %s -p transform-interpreter,test-transform-dialect-erase-schedule | filecheck %s

module attributes {transform.with_named_sequence} {
  // CHECK-LABEL: func.func @partial
  func.func @partial(%a: tensor<10x12xf32>, %b: tensor<12x9xf32>, %c: tensor<10x9xf32>) -> tensor<10x9xf32> {
    %r = linalg.matmul {tile = "partial"} ins(%a, %b : tensor<10x12xf32>, tensor<12x9xf32>) outs(%c : tensor<10x9xf32>) -> tensor<10x9xf32>
    return %r : tensor<10x9xf32>
  }
  // CHECK:      %[[R:.*]] = scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC_J:.*]] = %c) -> (tensor<10x9xf32>) {
  // CHECK-NEXT:   scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %[[ACC_J]]) -> (tensor<10x9xf32>) {
  // CHECK-NEXT:     %[[H:.*]] = affine.min affine_map<(d0) -> (((d0 * -1) + 10), 4)> (%[[I]])
  // CHECK-NEXT:     %[[A:.*]] = tensor.extract_slice %a[%[[I]], 0] [%[[H]], 12] [1, 1] : tensor<10x12xf32> to tensor<?x12xf32>
  // CHECK-NEXT:     %[[B:.*]] = tensor.extract_slice %b[0, %[[J]]] [12, 3] [1, 1] : tensor<12x9xf32> to tensor<12x3xf32>
  // CHECK-NEXT:     %[[C:.*]] = tensor.extract_slice %[[ACC]][%[[I]], %[[J]]] [%[[H]], 3] [1, 1] : tensor<10x9xf32> to tensor<?x3xf32>
  // CHECK-NEXT:     %[[T:.*]] = linalg.matmul {tile = "partial"} ins(%[[A]], %[[B]] : tensor<?x12xf32>, tensor<12x3xf32>) outs(%[[C]] : tensor<?x3xf32>) -> tensor<?x3xf32>
  // CHECK-NEXT:     %[[U:.*]] = tensor.insert_slice %[[T]] into %[[ACC]][%[[I]], %[[J]]] [%[[H]], 3] [1, 1] : tensor<?x3xf32> into tensor<10x9xf32>
  // CHECK-NEXT:     scf.yield %[[U]] : tensor<10x9xf32>
  // CHECK:      func.return %[[R]] : tensor<10x9xf32>

  // CHECK-LABEL: func.func @dynamic
  func.func @dynamic(%a: tensor<?x?xf32>, %b: tensor<?x?xf32>, %c: tensor<?x?xf32>) -> tensor<?x?xf32> {
    %c1 = arith.constant 1 : index
    %n = tensor.dim %c, %c1 : tensor<?x?xf32>
    %ts = arith.maxsi %n, %c1 {tile_size} : index
    %r = linalg.matmul {tile = "dynamic"} ins(%a, %b : tensor<?x?xf32>, tensor<?x?xf32>) outs(%c : tensor<?x?xf32>) -> tensor<?x?xf32>
    return %r : tensor<?x?xf32>
  }
  // CHECK:      %[[TS:.*]] = arith.maxsi %{{.*}}, %{{.*}} {tile_size} : index
  // CHECK:      %[[M:.*]] = tensor.dim %a, %{{.*}} : tensor<?x?xf32>
  // CHECK:      %[[K:.*]] = tensor.dim %a, %{{.*}} : tensor<?x?xf32>
  // CHECK:      %[[FOUR:.*]] = arith.constant 4 : index
  // CHECK:      scf.for %[[I:.*]] = %{{.*}} to %[[M]] step %[[FOUR]] iter_args
  // CHECK-NEXT:   scf.for %[[KK:.*]] = %{{.*}} to %[[K]] step %[[TS]] iter_args
  // CHECK-NEXT:     %[[H:.*]] = affine.min affine_map<(d0, d1) -> (((d0 * -1) + d1), 4)> (%[[I]], %[[M]])
  // CHECK-NEXT:     %[[W:.*]] = affine.min affine_map<(d0, d1, d2) -> (((d0 * -1) + d1), d2)> (%[[KK]], %[[K]], %[[TS]])
  // CHECK:          linalg.matmul {tile = "dynamic"} ins(%{{.*}}, %{{.*}} : tensor<?x?xf32>, tensor<?x?xf32>) outs(%{{.*}} : tensor<?x?xf32>) -> tensor<?x?xf32>

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %partial = transform.structured.match ops{["linalg.matmul"]} attributes {tile = "partial"} in %root : (!transform.any_op) -> !transform.any_op
    %tiled, %loops:2 = transform.structured.tile_using_for %partial tile_sizes [4, 3] interchange = [1, 0] : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    %dynamic = transform.structured.match ops{["linalg.matmul"]} attributes {tile = "dynamic"} in %root : (!transform.any_op) -> !transform.any_op
    %four = transform.param.constant 4 : i64 -> !transform.param<i64>
    %size = transform.structured.match ops{["arith.maxsi"]} attributes {tile_size} in %root : (!transform.any_op) -> !transform.any_op
    %tiled2, %loops2:2 = transform.structured.tile_using_for %dynamic tile_sizes [%four, 0, %size] : (!transform.any_op, !transform.param<i64>, !transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}
