// Diamonds and intermediates with transform.structured.fuse_ext: a producer
// read by several ops of the cone is tiled once per tile, when all its
// in-cone uses have been reached (its slices merged), where upstream's
// tile-and-fuse makes one copy per use (2^6 of the first op on six residual
// blocks). A fused value also used after the loops is yielded from them,
// no untiled copy left; keep_intermediates = true yields every fused value.
// Two readers of different tiles of a producer (through a transpose) share
// one tile of it, the bounding box of both.
// RUN: linalg-ext-opt %s -p 'transform-dialect-interpreter{erase-after=true}' | filecheck %s

// %0 read by the mul and by the sub: one tanh per tile, read by both.
// CHECK-LABEL: func.func @diamond(
// CHECK-NOT:     linalg.
// CHECK:         scf.for
// CHECK-NEXT:      scf.for
// CHECK:             %[[T:.*]] = linalg.elemwise_unary {fun = #linalg.unary_fn<tanh>}
// CHECK-NOT:         linalg.elemwise_unary
// CHECK:             %[[M:.*]] = linalg.elemwise_binary {fun = #linalg.binary_fn<mul>} ins(%[[T]], %{{.*}} :
// CHECK-NOT:         linalg.elemwise_unary
// CHECK:             %[[S:.*]] = linalg.elemwise_binary {fun = #linalg.binary_fn<sub>} ins(%{{.*}}, %[[T]] :
// CHECK-NOT:         linalg.elemwise_unary
// CHECK:             linalg.elemwise_binary {__root__, fun = #linalg.binary_fn<add>} ins(%[[M]], %[[S]] :
// CHECK-NOT:     linalg.
// CHECK:         func.return
func.func @diamond(%a: tensor<16x24xf32>, %b: tensor<16x24xf32>) -> tensor<16x24xf32> {
  %e = tensor.empty() : tensor<16x24xf32>
  %0 = linalg.elemwise_unary {fun = #linalg.unary_fn<tanh>} ins(%a : tensor<16x24xf32>) outs(%e : tensor<16x24xf32>) -> tensor<16x24xf32>
  %1 = linalg.elemwise_binary {fun = #linalg.binary_fn<mul>} ins(%0, %b : tensor<16x24xf32>, tensor<16x24xf32>) outs(%e : tensor<16x24xf32>) -> tensor<16x24xf32>
  %2 = linalg.elemwise_binary {fun = #linalg.binary_fn<sub>} ins(%b, %0 : tensor<16x24xf32>, tensor<16x24xf32>) outs(%e : tensor<16x24xf32>) -> tensor<16x24xf32>
  %3 = linalg.elemwise_binary {__root__, fun = #linalg.binary_fn<add>} ins(%1, %2 : tensor<16x24xf32>, tensor<16x24xf32>) outs(%e : tensor<16x24xf32>) -> tensor<16x24xf32>
  return %3 : tensor<16x24xf32>
}

// Six residual blocks x' = tanh(x) + x: every x read twice. Exactly one
// tile of each of the twelve ops, in order, inside the loops.
// CHECK-LABEL: func.func @residual(
// CHECK-SAME:      %[[X0:.*]]: tensor<16x24xf32>)
// CHECK-NOT:     linalg.
// CHECK:         scf.for
// CHECK-NEXT:      scf.for
// CHECK-NEXT:        %[[S0:.*]] = tensor.extract_slice %[[X0]]
// CHECK-NEXT:        tensor.{{extract_slice|empty}}
// CHECK-NEXT:        %[[T0:.*]] = linalg.elemwise_unary {fun = #linalg.unary_fn<tanh>} ins(%[[S0]] :
// CHECK-NEXT:        %[[X1:.*]] = linalg.elemwise_binary {fun = #linalg.binary_fn<add>} ins(%[[T0]], %[[S0]] :
// CHECK-NEXT:        %[[T1:.*]] = linalg.elemwise_unary {fun = #linalg.unary_fn<tanh>} ins(%[[X1]] :
// CHECK-NEXT:        %[[X2:.*]] = linalg.elemwise_binary {fun = #linalg.binary_fn<add>} ins(%[[T1]], %[[X1]] :
// CHECK-NEXT:        %[[T2:.*]] = linalg.elemwise_unary {fun = #linalg.unary_fn<tanh>} ins(%[[X2]] :
// CHECK-NEXT:        %[[X3:.*]] = linalg.elemwise_binary {fun = #linalg.binary_fn<add>} ins(%[[T2]], %[[X2]] :
// CHECK-NEXT:        %[[T3:.*]] = linalg.elemwise_unary {fun = #linalg.unary_fn<tanh>} ins(%[[X3]] :
// CHECK-NEXT:        %[[X4:.*]] = linalg.elemwise_binary {fun = #linalg.binary_fn<add>} ins(%[[T3]], %[[X3]] :
// CHECK-NEXT:        %[[T4:.*]] = linalg.elemwise_unary {fun = #linalg.unary_fn<tanh>} ins(%[[X4]] :
// CHECK-NEXT:        %[[X5:.*]] = linalg.elemwise_binary {fun = #linalg.binary_fn<add>} ins(%[[T4]], %[[X4]] :
// CHECK-NEXT:        %[[T5:.*]] = linalg.elemwise_unary {fun = #linalg.unary_fn<tanh>} ins(%[[X5]] :
// CHECK-NEXT:        tensor.{{extract_slice|empty}}
// CHECK-NEXT:        linalg.elemwise_binary {__root__, fun = #linalg.binary_fn<add>} ins(%[[T5]], %[[X5]] :
// CHECK-NOT:     linalg.
// CHECK:         func.return
func.func @residual(%x0: tensor<16x24xf32>) -> tensor<16x24xf32> {
  %e = tensor.empty() : tensor<16x24xf32>
  %t0 = linalg.elemwise_unary {fun = #linalg.unary_fn<tanh>} ins(%x0 : tensor<16x24xf32>) outs(%e : tensor<16x24xf32>) -> tensor<16x24xf32>
  %x1 = linalg.elemwise_binary {fun = #linalg.binary_fn<add>} ins(%t0, %x0 : tensor<16x24xf32>, tensor<16x24xf32>) outs(%e : tensor<16x24xf32>) -> tensor<16x24xf32>
  %t1 = linalg.elemwise_unary {fun = #linalg.unary_fn<tanh>} ins(%x1 : tensor<16x24xf32>) outs(%e : tensor<16x24xf32>) -> tensor<16x24xf32>
  %x2 = linalg.elemwise_binary {fun = #linalg.binary_fn<add>} ins(%t1, %x1 : tensor<16x24xf32>, tensor<16x24xf32>) outs(%e : tensor<16x24xf32>) -> tensor<16x24xf32>
  %t2 = linalg.elemwise_unary {fun = #linalg.unary_fn<tanh>} ins(%x2 : tensor<16x24xf32>) outs(%e : tensor<16x24xf32>) -> tensor<16x24xf32>
  %x3 = linalg.elemwise_binary {fun = #linalg.binary_fn<add>} ins(%t2, %x2 : tensor<16x24xf32>, tensor<16x24xf32>) outs(%e : tensor<16x24xf32>) -> tensor<16x24xf32>
  %t3 = linalg.elemwise_unary {fun = #linalg.unary_fn<tanh>} ins(%x3 : tensor<16x24xf32>) outs(%e : tensor<16x24xf32>) -> tensor<16x24xf32>
  %x4 = linalg.elemwise_binary {fun = #linalg.binary_fn<add>} ins(%t3, %x3 : tensor<16x24xf32>, tensor<16x24xf32>) outs(%e : tensor<16x24xf32>) -> tensor<16x24xf32>
  %t4 = linalg.elemwise_unary {fun = #linalg.unary_fn<tanh>} ins(%x4 : tensor<16x24xf32>) outs(%e : tensor<16x24xf32>) -> tensor<16x24xf32>
  %x5 = linalg.elemwise_binary {fun = #linalg.binary_fn<add>} ins(%t4, %x4 : tensor<16x24xf32>, tensor<16x24xf32>) outs(%e : tensor<16x24xf32>) -> tensor<16x24xf32>
  %t5 = linalg.elemwise_unary {fun = #linalg.unary_fn<tanh>} ins(%x5 : tensor<16x24xf32>) outs(%e : tensor<16x24xf32>) -> tensor<16x24xf32>
  %x6 = linalg.elemwise_binary {__root__, fun = #linalg.binary_fn<add>} ins(%t5, %x5 : tensor<16x24xf32>, tensor<16x24xf32>) outs(%e : tensor<16x24xf32>) -> tensor<16x24xf32>
  return %x6 : tensor<16x24xf32>
}

// %1 is returned too: the loops yield its tiles as their second result,
// which the return reads; no mul before the loops.
// CHECK-LABEL: func.func @used_outside(
// CHECK-NOT:     linalg.
// CHECK:         %[[R:.*]], %[[MUL:.*]] = scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %e, %{{.*}} = %e) -> (tensor<16x24xf32>, tensor<16x24xf32>) {
// CHECK-NEXT:      scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}, %[[KEPT:.*]] = %{{.*}}) -> (tensor<16x24xf32>, tensor<16x24xf32>) {
// CHECK:             %[[EXP:.*]] = linalg.elemwise_unary {fun = #linalg.unary_fn<exp>}
// CHECK:             %[[M:.*]] = linalg.elemwise_binary {fun = #linalg.binary_fn<mul>} ins(%[[EXP]], %{{.*}} :
// CHECK:             %[[ROOT:.*]] = linalg.elemwise_binary {__root__, fun = #linalg.binary_fn<add>} ins(%[[M]], %[[EXP]] :
// CHECK-NEXT:        %[[W0:.*]] = tensor.insert_slice %[[ROOT]] into %[[ACC]][%[[I]], %[[J]]] [8, 8] [1, 1]
// CHECK-NEXT:        %[[W1:.*]] = tensor.insert_slice %[[M]] into %[[KEPT]][%[[I]], %[[J]]] [8, 8] [1, 1]
// CHECK-NEXT:        scf.yield %[[W0]], %[[W1]] : tensor<16x24xf32>, tensor<16x24xf32>
// CHECK-NOT:     linalg.
// CHECK:         func.return %[[R]], %[[MUL]] : tensor<16x24xf32>, tensor<16x24xf32>
func.func @used_outside(%a: tensor<16x24xf32>, %b: tensor<16x24xf32>) -> (tensor<16x24xf32>, tensor<16x24xf32>) {
  %e = tensor.empty() : tensor<16x24xf32>
  %0 = linalg.elemwise_unary {fun = #linalg.unary_fn<exp>} ins(%a : tensor<16x24xf32>) outs(%e : tensor<16x24xf32>) -> tensor<16x24xf32>
  %1 = linalg.elemwise_binary {fun = #linalg.binary_fn<mul>} ins(%0, %b : tensor<16x24xf32>, tensor<16x24xf32>) outs(%e : tensor<16x24xf32>) -> tensor<16x24xf32>
  %2 = linalg.elemwise_binary {__root__, fun = #linalg.binary_fn<add>} ins(%1, %0 : tensor<16x24xf32>, tensor<16x24xf32>) outs(%e : tensor<16x24xf32>) -> tensor<16x24xf32>
  return %2, %1 : tensor<16x24xf32>, tensor<16x24xf32>
}

// keep_intermediates = true: the mul and the exp are loop results too
// (in fusion order), though nothing outside reads them.
// CHECK-LABEL: func.func @keep(
// CHECK-NOT:     linalg.
// CHECK:         %[[R:.*]], %{{.*}}, %{{.*}} = scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %e, %[[K1:.*]] = %e, %[[K2:.*]] = %e) -> (tensor<16x24xf32>, tensor<16x24xf32>, tensor<16x24xf32>) {
// CHECK:           %[[EXP:.*]] = linalg.elemwise_unary {fun = #linalg.unary_fn<exp>}
// CHECK:           %[[M:.*]] = linalg.elemwise_binary {fun = #linalg.binary_fn<mul>}
// CHECK:           %[[ROOT:.*]] = linalg.elemwise_binary {__root__, fun = #linalg.binary_fn<add>}
// CHECK-NEXT:      %[[W0:.*]] = tensor.insert_slice %[[ROOT]] into %[[ACC]][%[[I]], 0] [8, 24] [1, 1]
// CHECK-NEXT:      %[[W1:.*]] = tensor.insert_slice %[[M]] into %[[K1]][%[[I]], 0] [8, 24] [1, 1]
// CHECK-NEXT:      %[[W2:.*]] = tensor.insert_slice %[[EXP]] into %[[K2]][%[[I]], 0] [8, 24] [1, 1]
// CHECK-NEXT:      scf.yield %[[W0]], %[[W1]], %[[W2]] :
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %[[R]] : tensor<16x24xf32>
func.func @keep(%a: tensor<16x24xf32>, %b: tensor<16x24xf32>) -> tensor<16x24xf32> {
  %e = tensor.empty() : tensor<16x24xf32>
  %0 = linalg.elemwise_unary {fun = #linalg.unary_fn<exp>} ins(%a : tensor<16x24xf32>) outs(%e : tensor<16x24xf32>) -> tensor<16x24xf32>
  %1 = linalg.elemwise_binary {fun = #linalg.binary_fn<mul>} ins(%0, %b : tensor<16x24xf32>, tensor<16x24xf32>) outs(%e : tensor<16x24xf32>) -> tensor<16x24xf32>
  %2 = linalg.elemwise_binary {__root__, fun = #linalg.binary_fn<add>} ins(%1, %b : tensor<16x24xf32>, tensor<16x24xf32>) outs(%e : tensor<16x24xf32>) -> tensor<16x24xf32>
  return %2 : tensor<16x24xf32>
}

// %0 read at the root's tile and, through the transpose, at the mirrored
// tile: one exp per tile over the bounding box of both (min/max of the
// offsets), each reader taking its part of it.
// CHECK-LABEL: func.func @transpose_diamond(
// CHECK-NOT:     linalg.
// CHECK:         scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args
// CHECK-NEXT:      scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args
// CHECK-NEXT:        %[[R0:.*]] = affine.min affine_map<(d0, d1) -> (d0, d1)> (%[[I]], %[[J]])
// CHECK:             %[[C0:.*]] = affine.min affine_map<(d0, d1) -> (d0, d1)> (%[[J]], %[[I]])
// CHECK:             %[[S:.*]] = tensor.extract_slice %{{.*}}[%[[R0]], %[[C0]]] [%{{.*}}, %{{.*}}] [1, 1] : tensor<8x8xf32> to tensor<?x?xf32>
// CHECK:             %[[EXP:.*]] = linalg.exp ins(%[[S]] : tensor<?x?xf32>)
// CHECK-NOT:         linalg.exp
// CHECK:             %[[P0:.*]] = tensor.extract_slice %[[EXP]][%{{.*}}, %{{.*}}] [4, 4] [1, 1] : tensor<?x?xf32> to tensor<4x4xf32>
// CHECK-NOT:         linalg.exp
// CHECK:             %[[P1:.*]] = tensor.extract_slice %[[EXP]][%{{.*}}, %{{.*}}] [4, 4] [1, 1] : tensor<?x?xf32> to tensor<4x4xf32>
// CHECK-NOT:         linalg.exp
// CHECK:             %[[T:.*]] = linalg.transpose ins(%[[P1]] : tensor<4x4xf32>)
// CHECK-NOT:         linalg.exp
// CHECK:             linalg.add {__root__} ins(%[[P0]], %[[T]] : tensor<4x4xf32>, tensor<4x4xf32>)
// CHECK-NOT:     linalg.
// CHECK:         func.return
func.func @transpose_diamond(%a: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %e = tensor.empty() : tensor<8x8xf32>
  %0 = linalg.exp ins(%a : tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
  %1 = linalg.transpose ins(%0 : tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) permutation = [1, 0]
  %2 = linalg.add {__root__} ins(%0, %1 : tensor<8x8xf32>, tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %2 : tensor<8x8xf32>
}

// CHECK-NOT: transform.
transform.sequence failures(propagate) {
^bb0(%arg0: !pdl.operation):
  %f = transform.structured.match ops{["func.func"]} attributes {sym_name = "diamond"} in %arg0 : (!pdl.operation) -> !pdl.operation
  %0 = transform.structured.match attributes {__root__} in %f : (!pdl.operation) -> !pdl.operation
  %1, %loops:2 = transform.structured.fuse_ext %0 {tile_sizes = [4, 8], tile_interchange = [1, 0]}
  cleanup
}
transform.sequence failures(propagate) {
^bb0(%arg0: !pdl.operation):
  %f = transform.structured.match ops{["func.func"]} attributes {sym_name = "residual"} in %arg0 : (!pdl.operation) -> !pdl.operation
  %0 = transform.structured.match attributes {__root__} in %f : (!pdl.operation) -> !pdl.operation
  %1, %loops:2 = transform.structured.fuse_ext %0 {tile_sizes = [8, 8]}
  cleanup
}
transform.sequence failures(propagate) {
^bb0(%arg0: !pdl.operation):
  %f = transform.structured.match ops{["func.func"]} attributes {sym_name = "used_outside"} in %arg0 : (!pdl.operation) -> !pdl.operation
  %0 = transform.structured.match attributes {__root__} in %f : (!pdl.operation) -> !pdl.operation
  %1, %loops:2 = transform.structured.fuse_ext %0 {tile_sizes = [8, 8]}
  cleanup
}
transform.sequence failures(propagate) {
^bb0(%arg0: !pdl.operation):
  %f = transform.structured.match ops{["func.func"]} attributes {sym_name = "keep"} in %arg0 : (!pdl.operation) -> !pdl.operation
  %0 = transform.structured.match attributes {__root__} in %f : (!pdl.operation) -> !pdl.operation
  %1, %loops = transform.structured.fuse_ext %0 {keep_intermediates = true, tile_sizes = [8]}
  cleanup
}
transform.sequence failures(propagate) {
^bb0(%arg0: !pdl.operation):
  %f = transform.structured.match ops{["func.func"]} attributes {sym_name = "transpose_diamond"} in %arg0 : (!pdl.operation) -> !pdl.operation
  %0 = transform.structured.match attributes {__root__} in %f : (!pdl.operation) -> !pdl.operation
  %1, %loops:2 = transform.structured.fuse_ext %0 {tile_sizes = [4, 4]}
  cleanup
}
