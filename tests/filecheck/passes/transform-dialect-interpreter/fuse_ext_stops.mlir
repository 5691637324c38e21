// transform.structured.fuse_ext with a stop handle holding several ops:
// the two ops marked __stop__ bound the cone and stay before the loops,
// untiled (the loops read slices of their results); the exp and the add
// between the root and the stops are fused. A scatter as the root: its
// model lets no producer fuse (duplicate indices must update in order), so
// the exp of its updates and the negf of its source stay before the loops.
// A producer also read by a stop stays before the loops with it.
// RUN: linalg-ext-opt %s -p 'transform-dialect-interpreter{erase-after=true}' | filecheck %s

// CHECK-LABEL: func.func @stops(
// CHECK-SAME:      %[[A:.*]]: tensor<64x32xf32>, %[[B:.*]]: tensor<64x32xf32>, %[[C:.*]]: tensor<64x32xf32>)
// CHECK:         %[[LOG:.*]] = linalg.elemwise_unary {__stop__, fun = #linalg.unary_fn<log>} ins(%[[B]] : tensor<64x32xf32>)
// CHECK-NEXT:    %[[ABS:.*]] = linalg.elemwise_unary {__stop__, fun = #linalg.unary_fn<abs>} ins(%[[C]] : tensor<64x32xf32>)
// CHECK-NOT:     linalg.
// CHECK:         %[[R:.*]] = scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %e) -> (tensor<64x32xf32>) {
// CHECK-NEXT:      %[[AS:.*]] = tensor.extract_slice %[[A]][%[[I]], 0] [16, 32] [1, 1]
// CHECK-NEXT:      %[[ES:.*]] = tensor.{{extract_slice %e|empty}}
// CHECK-NEXT:      %[[EXP:.*]] = linalg.elemwise_unary {fun = #linalg.unary_fn<exp>} ins(%[[AS]] : tensor<16x32xf32>) outs(%[[ES]] : tensor<16x32xf32>)
// CHECK-NEXT:      %[[LOGS:.*]] = tensor.extract_slice %[[LOG]][%[[I]], 0] [16, 32] [1, 1]
// CHECK-NEXT:      %[[ADD:.*]] = linalg.elemwise_binary {fun = #linalg.binary_fn<add>} ins(%[[EXP]], %[[LOGS]] : tensor<16x32xf32>, tensor<16x32xf32>)
// CHECK-NEXT:      %[[ABSS:.*]] = tensor.extract_slice %[[ABS]][%[[I]], 0] [16, 32] [1, 1]
// CHECK-NEXT:      %[[OUT:.*]] = tensor.extract_slice %[[ACC]][%[[I]], 0] [16, 32] [1, 1]
// CHECK-NEXT:      linalg.elemwise_binary {__root__, fun = #linalg.binary_fn<mul>} ins(%[[ADD]], %[[ABSS]] : tensor<16x32xf32>, tensor<16x32xf32>) outs(%[[OUT]] : tensor<16x32xf32>)
// CHECK-NOT:       __stop__
// CHECK:         func.return %[[R]] : tensor<64x32xf32>
func.func @stops(%a: tensor<64x32xf32>, %b: tensor<64x32xf32>, %c: tensor<64x32xf32>) -> tensor<64x32xf32> {
  %e = tensor.empty() : tensor<64x32xf32>
  %0 = linalg.elemwise_unary {fun = #linalg.unary_fn<exp>} ins(%a : tensor<64x32xf32>) outs(%e : tensor<64x32xf32>) -> tensor<64x32xf32>
  %1 = linalg.elemwise_unary {__stop__, fun = #linalg.unary_fn<log>} ins(%b : tensor<64x32xf32>) outs(%e : tensor<64x32xf32>) -> tensor<64x32xf32>
  %2 = linalg.elemwise_unary {__stop__, fun = #linalg.unary_fn<abs>} ins(%c : tensor<64x32xf32>) outs(%e : tensor<64x32xf32>) -> tensor<64x32xf32>
  %3 = linalg.elemwise_binary {fun = #linalg.binary_fn<add>} ins(%0, %1 : tensor<64x32xf32>, tensor<64x32xf32>) outs(%e : tensor<64x32xf32>) -> tensor<64x32xf32>
  %4 = linalg.elemwise_binary {__root__, fun = #linalg.binary_fn<mul>} ins(%3, %2 : tensor<64x32xf32>, tensor<64x32xf32>) outs(%e : tensor<64x32xf32>) -> tensor<64x32xf32>
  return %4 : tensor<64x32xf32>
}

// The scatter tiled along its batch loop (2 updates per tile) and its
// window column loop: only slices of %ue and %src inside the loops.
// CHECK-LABEL: func.func @scatter_root(
// CHECK:         %[[UE:.*]] = linalg.exp ins(%{{.*}} : tensor<6x4xf32>)
// CHECK:         %[[SRC:.*]] = linalg.negf ins(%{{.*}} : tensor<5x4xf32>)
// CHECK-NOT:     linalg.
// CHECK:         %[[R:.*]] = scf.for %[[B:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %[[SRC]]) -> (tensor<5x4xf32>) {
// CHECK-NEXT:      scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (tensor<5x4xf32>) {
// CHECK-NEXT:        %[[IS:.*]] = tensor.extract_slice %{{.*}}[%[[B]], 0] [2, 1] [1, 1] : tensor<6x1xi64> to tensor<2x1xi64>
// CHECK-NEXT:        %[[US:.*]] = tensor.extract_slice %[[UE]][%[[B]], %[[J]]] [2, 2] [1, 1] : tensor<6x4xf32> to tensor<2x2xf32>
// CHECK-NEXT:        %[[SS:.*]] = tensor.extract_slice %[[ACC]][0, %[[J]]] [5, 2] [1, 1] : tensor<5x4xf32> to tensor<5x2xf32>
// CHECK-NEXT:        linalg_ext.scatter ins(%[[IS]], %[[US]] : tensor<2x1xi64>, tensor<2x2xf32>) outs(%[[SS]] : tensor<5x2xf32>)
// CHECK-NOT:         linalg.
// CHECK:         func.return %[[R]] : tensor<5x4xf32>
func.func @scatter_root(%idx: tensor<6x1xi64>, %u: tensor<6x4xf32>, %s: tensor<5x4xf32>) -> tensor<5x4xf32> {
  %e = tensor.empty() : tensor<6x4xf32>
  %ue = linalg.exp ins(%u : tensor<6x4xf32>) outs(%e : tensor<6x4xf32>) -> tensor<6x4xf32>
  %es = tensor.empty() : tensor<5x4xf32>
  %src = linalg.negf ins(%s : tensor<5x4xf32>) outs(%es : tensor<5x4xf32>) -> tensor<5x4xf32>
  %r = linalg_ext.scatter ins(%idx, %ue : tensor<6x1xi64>, tensor<6x4xf32>) outs(%src : tensor<5x4xf32>) {
  ^bb0(%x: f32, %y: f32):
    %z = arith.addf %x, %y : f32
    linalg_ext.yield %z : f32
  } -> tensor<5x4xf32>
  return %r : tensor<5x4xf32>
}

// The exp is read by the root and by the stop, which the root reads too:
// the stop runs before the loops, so the exp must too; only the root is
// tiled, reading slices of both.
// CHECK-LABEL: func.func @read_by_a_stop(
// CHECK:         %[[EXP:.*]] = linalg.exp ins(%{{.*}} : tensor<8x8xf32>)
// CHECK-NEXT:    %[[S:.*]] = linalg.negf {__stop__} ins(%[[EXP]] : tensor<8x8xf32>)
// CHECK-NOT:     linalg.
// CHECK:         scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args
// CHECK-NEXT:      scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args
// CHECK-NEXT:        %[[ES:.*]] = tensor.extract_slice %[[EXP]][%[[I]], %[[J]]] [4, 4] [1, 1]
// CHECK-NEXT:        %[[SS:.*]] = tensor.extract_slice %[[S]][%[[I]], %[[J]]] [4, 4] [1, 1]
// CHECK-NEXT:        tensor.extract_slice
// CHECK-NEXT:        linalg.add {__root__} ins(%[[ES]], %[[SS]] : tensor<4x4xf32>, tensor<4x4xf32>)
// CHECK-NOT:     linalg.
func.func @read_by_a_stop(%a: tensor<8x8xf32>, %b: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %e = tensor.empty() : tensor<8x8xf32>
  %0 = linalg.exp ins(%a : tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
  %s = linalg.negf {__stop__} ins(%0 : tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
  %2 = linalg.add {__root__} ins(%0, %s : tensor<8x8xf32>, tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %2 : tensor<8x8xf32>
}

// CHECK-NOT: transform.
transform.sequence failures(propagate) {
^bb0(%arg0: !pdl.operation):
  %f = transform.structured.match ops{["func.func"]} attributes {sym_name = "stops"} in %arg0 : (!pdl.operation) -> !pdl.operation
  %0 = transform.structured.match attributes {__root__} in %f : (!pdl.operation) -> !pdl.operation
  %stops = transform.structured.match attributes {__stop__} in %f : (!pdl.operation) -> !pdl.operation
  %1, %loops = transform.structured.fuse_ext %0, %stops {tile_interchange = [], tile_sizes = [16]}
  cleanup
}
transform.sequence failures(propagate) {
^bb0(%arg0: !pdl.operation):
  %0 = transform.structured.match ops{["linalg_ext.scatter"]} in %arg0 : (!pdl.operation) -> !pdl.operation
  %1, %loops:2 = transform.structured.fuse_ext %0 {tile_sizes = [2, 2]}
  cleanup
}
transform.sequence failures(propagate) {
^bb0(%arg0: !pdl.operation):
  %f = transform.structured.match ops{["func.func"]} attributes {sym_name = "read_by_a_stop"} in %arg0 : (!pdl.operation) -> !pdl.operation
  %0 = transform.structured.match attributes {__root__} in %f : (!pdl.operation) -> !pdl.operation
  %s = transform.structured.match attributes {__stop__} in %f : (!pdl.operation) -> !pdl.operation
  %1, %loops:2 = transform.structured.fuse_ext %0, %s {tile_sizes = [4, 4]}
  cleanup
}
