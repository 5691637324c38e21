// transform.structured.fuse_ext on elementwise chains, in ByteIR's script
// form: elemwise_unary/elemwise_binary (MLIR <= 19's ops) and named ops;
// every op of the chain computed tile by tile inside the loops, nothing
// left before them. On dynamic shapes the tensor.dims of intermediate
// values are rewritten to the function's arguments first, so the loop
// bounds do not depend on what the loops compute. A loop of fuse_ext
// peeled after: the fused chain is in both parts. A fill read as an input
// is fused like any producer.
// RUN: linalg-ext-opt %s -p 'transform-dialect-interpreter{erase-after=true}' | filecheck %s

// The root is the second elemwise_binary; loops interchanged (columns
// outermost). One tile of each op, each reading the slices of the tile.
// CHECK-LABEL: func.func @chain(
// CHECK-SAME:      %[[X:.*]]: tensor<24x40xf32>, %[[Y:.*]]: tensor<24x40xf32>)
// CHECK-NOT:     linalg.
// CHECK:         %[[R:.*]] = scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %e) -> (tensor<24x40xf32>) {
// CHECK-NEXT:      scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (tensor<24x40xf32>) {
// CHECK-NEXT:        %[[W:.*]] = affine.min affine_map<(d0) -> (((d0 * -1) + 40), 16)> (%[[J]])
// CHECK-NEXT:        %[[XS:.*]] = tensor.extract_slice %[[X]][%[[I]], %[[J]]] [8, %[[W]]] [1, 1]
// CHECK-NEXT:        %[[ES:.*]] = tensor.{{extract_slice %e|empty}}
// CHECK-NEXT:        %[[EXP:.*]] = linalg.elemwise_unary {fun = #linalg.unary_fn<exp>} ins(%[[XS]] : tensor<8x?xf32>) outs(%[[ES]] : tensor<8x?xf32>)
// CHECK-NEXT:        %[[YS:.*]] = tensor.extract_slice %[[Y]][%[[I]], %[[J]]] [8, %[[W]]] [1, 1]
// CHECK-NEXT:        %[[MUL:.*]] = linalg.elemwise_binary {fun = #linalg.binary_fn<mul>} ins(%[[EXP]], %[[YS]] : tensor<8x?xf32>, tensor<8x?xf32>)
// CHECK-NEXT:        %[[NEG:.*]] = linalg.negf ins(%[[MUL]] : tensor<8x?xf32>)
// CHECK-NEXT:        %[[OUT:.*]] = tensor.extract_slice %[[ACC]][%[[I]], %[[J]]] [8, %[[W]]] [1, 1]
// CHECK-NEXT:        %[[ROOT:.*]] = linalg.elemwise_binary {__root__} ins(%[[NEG]], %[[XS]] : tensor<8x?xf32>, tensor<8x?xf32>) outs(%[[OUT]] : tensor<8x?xf32>)
// CHECK-NEXT:        %[[INS:.*]] = tensor.insert_slice %[[ROOT]] into %[[ACC]][%[[I]], %[[J]]] [8, %[[W]]] [1, 1]
// CHECK-NEXT:        scf.yield %[[INS]] : tensor<24x40xf32>
// CHECK-NEXT:      }
// CHECK-NEXT:      scf.yield
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %[[R]] : tensor<24x40xf32>
func.func @chain(%x: tensor<24x40xf32>, %y: tensor<24x40xf32>) -> tensor<24x40xf32> {
  %e = tensor.empty() : tensor<24x40xf32>
  %0 = linalg.elemwise_unary {fun = #linalg.unary_fn<exp>} ins(%x : tensor<24x40xf32>) outs(%e : tensor<24x40xf32>) -> tensor<24x40xf32>
  %1 = linalg.elemwise_binary {fun = #linalg.binary_fn<mul>} ins(%0, %y : tensor<24x40xf32>, tensor<24x40xf32>) outs(%e : tensor<24x40xf32>) -> tensor<24x40xf32>
  %2 = linalg.negf ins(%1 : tensor<24x40xf32>) outs(%e : tensor<24x40xf32>) -> tensor<24x40xf32>
  %3 = linalg.elemwise_binary {__root__} ins(%2, %x : tensor<24x40xf32>, tensor<24x40xf32>) outs(%e : tensor<24x40xf32>) -> tensor<24x40xf32>
  return %3 : tensor<24x40xf32>
}

// The empty tensor of the add is sized by tensor.dims of %0, an
// intermediate value: they become dims of %x, before the loops, and
// nothing inside the loops reads a dim.
// CHECK-LABEL: func.func @dynamic(
// CHECK-SAME:      %[[X:.*]]: tensor<?x?xf32>, %[[Y:.*]]: tensor<?x?xf32>)
// CHECK-NOT:     linalg.
// CHECK:         %[[D0:.*]] = tensor.dim %[[X]], %{{.*}} : tensor<?x?xf32>
// CHECK-NEXT:    %[[D1:.*]] = tensor.dim %[[X]], %{{.*}} : tensor<?x?xf32>
// CHECK-NEXT:    %[[E:.*]] = tensor.empty(%[[D0]], %[[D1]]) : tensor<?x?xf32>
// CHECK-NOT:     tensor.dim
// CHECK-NOT:     linalg.
// CHECK:         %[[R:.*]] = scf.for %[[I:.*]] = %{{.*}} to %[[D0]] step %{{.*}} iter_args(%{{.*}} = %[[E]]) -> (tensor<?x?xf32>) {
// CHECK-NEXT:      scf.for %[[J:.*]] = %{{.*}} to %[[D1]] step %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (tensor<?x?xf32>) {
// CHECK-NOT:         tensor.dim
// CHECK:             %[[XS:.*]] = tensor.extract_slice %[[X]][%[[I]], %[[J]]]
// CHECK-NEXT:        %[[YS:.*]] = tensor.extract_slice %[[Y]][%[[I]], %[[J]]]
// CHECK-NEXT:        %[[ABS:.*]] = linalg.elemwise_unary {fun = #linalg.unary_fn<abs>} ins(%[[XS]] : tensor<?x?xf32>) outs(%[[YS]] : tensor<?x?xf32>)
// CHECK-NEXT:        %[[ES:.*]] = tensor.{{extract_slice|empty}}
// CHECK-NEXT:        %[[ADD:.*]] = linalg.elemwise_binary {fun = #linalg.binary_fn<add>} ins(%[[ABS]], %[[XS]] : tensor<?x?xf32>, tensor<?x?xf32>) outs(%[[ES]] : tensor<?x?xf32>)
// CHECK-NEXT:        %[[OUT:.*]] = tensor.extract_slice %[[ACC]][%[[I]], %[[J]]]
// CHECK-NEXT:        linalg.elemwise_unary {__root__, fun = #linalg.unary_fn<log>} ins(%[[ADD]] : tensor<?x?xf32>) outs(%[[OUT]] : tensor<?x?xf32>)
// CHECK-NOT:         tensor.dim
// CHECK:         func.return %[[R]] : tensor<?x?xf32>
func.func @dynamic(%x: tensor<?x?xf32>, %y: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %0 = linalg.elemwise_unary {fun = #linalg.unary_fn<abs>} ins(%x : tensor<?x?xf32>) outs(%y : tensor<?x?xf32>) -> tensor<?x?xf32>
  %d0 = tensor.dim %0, %c0 : tensor<?x?xf32>
  %d1 = tensor.dim %0, %c1 : tensor<?x?xf32>
  %e = tensor.empty(%d0, %d1) : tensor<?x?xf32>
  %1 = linalg.elemwise_binary {fun = #linalg.binary_fn<add>} ins(%0, %x : tensor<?x?xf32>, tensor<?x?xf32>) outs(%e : tensor<?x?xf32>) -> tensor<?x?xf32>
  %2 = linalg.elemwise_unary {__root__, fun = #linalg.unary_fn<log>} ins(%1 : tensor<?x?xf32>) outs(%e : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %2 : tensor<?x?xf32>
}

// 30 rows by 8: the row loop peeled into the whole steps (to 24) and the
// last 6 rows; each part computes its tile of the ceil and of the root.
// CHECK-LABEL: func.func @peeled(
// CHECK-NOT:     linalg.
// CHECK:         %[[MAIN:.*]] = scf.for %{{.*}} = %{{.*}} to %[[C24:.*]] step %{{.*}} iter_args(%{{.*}} = %e) -> (tensor<30x20xf32>) {
// CHECK-NEXT:      scf.for
// CHECK:             linalg.elemwise_unary {fun = #linalg.unary_fn<ceil>} ins(%{{.*}} : tensor<8x10xf32>)
// CHECK:             linalg.elemwise_binary {__root__, fun = #linalg.binary_fn<sub>} ins(%{{.*}}, %{{.*}} : tensor<{{8|\?}}x10xf32>, tensor<8x10xf32>)
// CHECK:         %[[REST:.*]] = scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %[[MAIN]]) -> (tensor<30x20xf32>) {
// CHECK-NEXT:      tensor.extract_slice %x[24, %{{.*}}] [6, 10] [1, 1]
// CHECK-NEXT:      tensor.{{extract_slice %e\[24, .*\] \[6, 10\]|empty}}
// CHECK-NEXT:      linalg.elemwise_unary {fun = #linalg.unary_fn<ceil>} ins(%{{.*}} : tensor<6x10xf32>)
// CHECK:           linalg.elemwise_binary {__root__, fun = #linalg.binary_fn<sub>} ins(%{{.*}}, %{{.*}} : tensor<{{6|\?}}x10xf32>, tensor<6x10xf32>)
// CHECK:         func.return %[[REST]] : tensor<30x20xf32>
func.func @peeled(%x: tensor<30x20xf32>, %y: tensor<30x20xf32>) -> tensor<30x20xf32> {
  %e = tensor.empty() : tensor<30x20xf32>
  %0 = linalg.elemwise_unary {fun = #linalg.unary_fn<ceil>} ins(%x : tensor<30x20xf32>) outs(%e : tensor<30x20xf32>) -> tensor<30x20xf32>
  %1 = linalg.elemwise_binary {__root__, fun = #linalg.binary_fn<sub>} ins(%0, %y : tensor<30x20xf32>, tensor<30x20xf32>) outs(%e : tensor<30x20xf32>) -> tensor<30x20xf32>
  return %1 : tensor<30x20xf32>
}

// Dynamic shapes, the row loop peeled: whole steps of 4 up to
// n - n mod 4, then the rest; the fused chain in both.
// CHECK-LABEL: func.func @dynamic_peeled(
// CHECK-NOT:     linalg.
// CHECK:         %[[MAIN:.*]] = scf.for %{{.*}} = %{{.*}} to %[[SPLIT:.*]] step %{{.*}} iter_args
// CHECK-NEXT:      scf.for
// CHECK:             linalg.elemwise_unary ins(%{{.*}} : tensor<4x?xf32>)
// CHECK:             linalg.elemwise_binary {__root__} ins(%{{.*}}, %{{.*}} : tensor<4x?xf32>, tensor<4x?xf32>)
// CHECK:         %[[REST:.*]] = scf.for %{{.*}} = %[[SPLIT]] to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %[[MAIN]])
// CHECK-NEXT:      scf.for
// CHECK:             linalg.elemwise_unary ins(%{{.*}} : tensor<?x?xf32>)
// CHECK:             linalg.elemwise_binary {__root__} ins(%{{.*}}, %{{.*}} : tensor<?x?xf32>, tensor<?x?xf32>)
// CHECK-NOT:     linalg.
// CHECK:         func.return %[[REST]] : tensor<?x?xf32>
func.func @dynamic_peeled(%x: tensor<?x?xf32>, %y: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %0 = linalg.elemwise_unary ins(%x : tensor<?x?xf32>) outs(%y : tensor<?x?xf32>) -> tensor<?x?xf32>
  %1 = linalg.elemwise_binary {__root__} ins(%0, %x : tensor<?x?xf32>, tensor<?x?xf32>) outs(%y : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %1 : tensor<?x?xf32>
}

// A fill read as an input (not a destination): fused, one 8x4 tile of
// it per tile of the root; nothing before the loops.
// CHECK-LABEL: func.func @fill_input(
// CHECK-NOT:     linalg.
// CHECK:         %[[R:.*]] = scf.for
// CHECK-NEXT:      scf.for %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}})
// CHECK-NEXT:        tensor.{{extract_slice|empty}}
// CHECK-NEXT:        %[[F:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<8x4xf32>)
// CHECK-NEXT:        %[[OUT:.*]] = tensor.extract_slice %[[ACC]]
// CHECK-NEXT:        linalg.elemwise_unary {__root__} ins(%[[F]] : tensor<8x4xf32>) outs(%[[OUT]] : tensor<8x4xf32>)
// CHECK-NOT:     linalg.
// CHECK:         func.return %[[R]] : tensor<16x8xf32>
func.func @fill_input() -> tensor<16x8xf32> {
  %0 = tensor.empty() : tensor<16x8xf32>
  %cst = arith.constant 2.5 : f32
  %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<16x8xf32>) -> tensor<16x8xf32>
  %2 = tensor.empty() : tensor<16x8xf32>
  %3 = linalg.elemwise_unary {__root__} ins(%1 : tensor<16x8xf32>) outs(%2: tensor<16x8xf32>) -> tensor<16x8xf32>
  return %3 : tensor<16x8xf32>
}

// CHECK-NOT: transform.
transform.sequence failures(propagate) {
^bb0(%arg0: !pdl.operation):
  %f = transform.structured.match ops{["func.func"]} attributes {sym_name = "chain"} in %arg0 : (!pdl.operation) -> !pdl.operation
  %0 = transform.structured.match attributes {__root__} in %f : (!pdl.operation) -> !pdl.operation
  %1, %loops:2 = transform.structured.fuse_ext %0 {tile_sizes = [8, 16], tile_interchange = [1, 0]}
}
transform.sequence failures(propagate) {
^bb0(%arg0: !pdl.operation):
  %f = transform.structured.match ops{["func.func"]} attributes {sym_name = "dynamic"} in %arg0 : (!pdl.operation) -> !pdl.operation
  %0 = transform.structured.match attributes {__root__} in %f : (!pdl.operation) -> !pdl.operation
  %1, %loops:2 = transform.structured.fuse_ext %0 {tile_sizes = [4, 8], tile_interchange = [0, 1]}
  cleanup
}
transform.sequence failures(propagate) {
^bb0(%arg0: !pdl.operation):
  %f = transform.structured.match ops{["func.func"]} attributes {sym_name = "peeled"} in %arg0 : (!pdl.operation) -> !pdl.operation
  %0 = transform.structured.match attributes {__root__} in %f : (!pdl.operation) -> !pdl.operation
  %1, %loops:2 = transform.structured.fuse_ext %0 {tile_sizes = [8, 10], tile_interchange = [0, 1]}
  %loop = transform.cast %loops#0 : !pdl.operation to !transform.op<"scf.for">
  transform.loop.peel %loop : (!transform.op<"scf.for">) -> (!pdl.operation, !pdl.operation)
  cleanup
}
transform.sequence failures(propagate) {
^bb0(%arg0: !pdl.operation):
  %f = transform.structured.match ops{["func.func"]} attributes {sym_name = "fill_input"} in %arg0 : (!pdl.operation) -> !pdl.operation
  %0 = transform.structured.match attributes {__root__} in %f : (!pdl.operation) -> !pdl.operation
  %1, %loops:2 = transform.structured.fuse_ext %0 {tile_sizes = [8, 4], tile_interchange = [0, 1]}
  cleanup
}
transform.sequence failures(propagate) {
^bb0(%arg0: !pdl.operation):
  %f = transform.structured.match ops{["func.func"]} attributes {sym_name = "dynamic_peeled"} in %arg0 : (!pdl.operation) -> !pdl.operation
  %0 = transform.structured.match attributes {__root__} in %f : (!pdl.operation) -> !pdl.operation
  %1, %loops:2 = transform.structured.fuse_ext %0 {tile_sizes = [4, 8], tile_interchange = [0, 1]}
  %loop = transform.cast %loops#0 : !pdl.operation to !transform.op<"scf.for">
  transform.loop.peel %loop : (!transform.op<"scf.for">) -> (!pdl.operation, !pdl.operation)
  cleanup
}
