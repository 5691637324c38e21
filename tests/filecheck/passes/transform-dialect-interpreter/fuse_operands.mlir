// transform.structured.fuse_operands on a func.return (ByteIR's multi-root
// tile-and-fuse): the returned values are tiled together, dimension d in
// tile_nums[d] tiles (1: not tiled), loops in tile_interchange order, and
// the ops they depend on fused into the one nest with fuse_ext's rules:
// %0, read by three ops, and %1, read by two, are computed once per tile.
// With expect_whole_graph_fusion = true nothing may stay outside.
// RUN: linalg-ext-opt %s -p 'transform-dialect-interpreter{erase-after=true}' | filecheck %s

// 16x12 in 4 x 3 tiles of 4x4, columns outermost.
// CHECK-LABEL: func.func @graph(
// CHECK-SAME:      %[[A:.*]]: tensor<16x12xf32>, %[[B:.*]]: tensor<16x12xf32>)
// CHECK-NOT:     linalg.
// CHECK:         %[[R0:.*]], %[[R1:.*]] = scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) -> (tensor<16x12xf32>, tensor<16x12xf32>) {
// CHECK-NEXT:      scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[O0:.*]] = %{{.*}}, %[[O1:.*]] = %{{.*}}) -> (tensor<16x12xf32>, tensor<16x12xf32>) {
// CHECK-NEXT:        %[[AS:.*]] = tensor.extract_slice %[[A]][%[[I]], %[[J]]] [4, 4] [1, 1]
// CHECK:             %[[EXP:.*]] = linalg.elemwise_unary {fun = #linalg.unary_fn<exp>} ins(%[[AS]] : tensor<4x4xf32>)
// CHECK-NEXT:        %[[BS:.*]] = tensor.extract_slice %[[B]][%[[I]], %[[J]]] [4, 4] [1, 1]
// CHECK-NEXT:        %[[ADD:.*]] = linalg.elemwise_binary {fun = #linalg.binary_fn<add>} ins(%[[EXP]], %[[BS]] :
// CHECK-NEXT:        %[[MUL:.*]] = linalg.elemwise_binary {fun = #linalg.binary_fn<mul>} ins(%[[EXP]], %[[ADD]] :
// CHECK-NEXT:        %[[W0:.*]] = tensor.insert_slice %[[MUL]] into %[[O0]][%[[I]], %[[J]]] [4, 4] [1, 1]
// CHECK-NEXT:        %[[SUB:.*]] = linalg.elemwise_binary {fun = #linalg.binary_fn<sub>} ins(%[[ADD]], %[[EXP]] :
// CHECK-NEXT:        %[[W1:.*]] = tensor.insert_slice %[[SUB]] into %[[O1]][%[[I]], %[[J]]] [4, 4] [1, 1]
// CHECK-NEXT:        scf.yield %[[W0]], %[[W1]] :
// CHECK-NOT:     linalg.
// CHECK:         func.return %[[R0]], %[[R1]] : tensor<16x12xf32>, tensor<16x12xf32>
func.func @graph(%a: tensor<16x12xf32>, %b: tensor<16x12xf32>) -> (tensor<16x12xf32>, tensor<16x12xf32>) {
  %e = tensor.empty() : tensor<16x12xf32>
  %0 = linalg.elemwise_unary {fun = #linalg.unary_fn<exp>} ins(%a : tensor<16x12xf32>) outs(%e : tensor<16x12xf32>) -> tensor<16x12xf32>
  %1 = linalg.elemwise_binary {fun = #linalg.binary_fn<add>} ins(%0, %b : tensor<16x12xf32>, tensor<16x12xf32>) outs(%e : tensor<16x12xf32>) -> tensor<16x12xf32>
  %2 = linalg.elemwise_binary {fun = #linalg.binary_fn<mul>} ins(%0, %1 : tensor<16x12xf32>, tensor<16x12xf32>) outs(%e : tensor<16x12xf32>) -> tensor<16x12xf32>
  %3 = linalg.elemwise_binary {fun = #linalg.binary_fn<sub>} ins(%1, %0 : tensor<16x12xf32>, tensor<16x12xf32>) outs(%e : tensor<16x12xf32>) -> tensor<16x12xf32>
  return %2, %3 : tensor<16x12xf32>, tensor<16x12xf32>
}

// A softmax and an exp returned, tiled along rows only (tile_nums [2, 1]):
// the softmax, its fills and the exp all fuse (the whole graph).
// CHECK-LABEL: func.func @rows(
// CHECK-NOT:     linalg.
// CHECK:         %[[R0:.*]], %[[R1:.*]] = scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) -> (tensor<8x8xf32>, tensor<8x8xf32>) {
// CHECK:           linalg.fill ins(%ninf : f32) outs(%{{.*}} : tensor<4xf32>)
// CHECK-NEXT:      linalg.fill ins(%zero : f32) outs(%{{.*}} : tensor<4xf32>)
// CHECK-NEXT:      linalg_ext.softmax dimension(1) ins(%{{.*}} : tensor<4x8xf32>)
// CHECK:           linalg.exp ins(%{{.*}} : tensor<4x8xf32>)
// CHECK:           scf.yield
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %[[R0]], %[[R1]] : tensor<8x8xf32>, tensor<8x8xf32>
func.func @rows(%x: tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>) {
  %e = tensor.empty() : tensor<8x8xf32>
  %v = tensor.empty() : tensor<8xf32>
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %m = linalg.fill ins(%ninf : f32) outs(%v : tensor<8xf32>) -> tensor<8xf32>
  %a = linalg.fill ins(%zero : f32) outs(%v : tensor<8xf32>) -> tensor<8xf32>
  %s:4 = linalg_ext.softmax dimension(1) ins(%x : tensor<8x8xf32>) outs(%e, %m, %a, %v : tensor<8x8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) : tensor<8x8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>
  %n = linalg.exp ins(%x : tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %s#0, %n : tensor<8x8xf32>, tensor<8x8xf32>
}

// CHECK-NOT: transform.
transform.sequence failures(propagate) {
^bb0(%arg0: !pdl.operation):
  %f = transform.structured.match ops{["func.func"]} attributes {sym_name = "graph"} in %arg0 : (!pdl.operation) -> !pdl.operation
  %0 = transform.structured.match ops{["func.return"]} in %f : (!pdl.operation) -> !pdl.operation
  %1, %loops:2 = transform.structured.fuse_operands %0 {tile_nums = [4, 3], tile_interchange = [1, 0], expect_whole_graph_fusion = true}
  cleanup
}
transform.sequence failures(propagate) {
^bb0(%arg0: !pdl.operation):
  %f = transform.structured.match ops{["func.func"]} attributes {sym_name = "rows"} in %arg0 : (!pdl.operation) -> !pdl.operation
  %0 = transform.structured.match ops{["func.return"]} in %f : (!pdl.operation) -> !pdl.operation
  %1, %loop = transform.structured.fuse_operands %0 {tile_nums = [2, 1], expect_whole_graph_fusion = true}
  cleanup
}
