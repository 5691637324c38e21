// MLIR 19's OpDSL ops linalg.elemwise_unary / linalg.elemwise_binary (removed
// from MLIR 22, used by ByteIR's payloads): read and printed back as written
// (fun and cast only when given), printed again the same; the generic form
// shows the body MLIR 19 builds: the inputs converted to the output's element
// type by `cast`, then `fun`.
// RUN: linalg-ext-opt %s | filecheck %s
// RUN: linalg-ext-opt %s | linalg-ext-opt | filecheck %s
// RUN: linalg-ext-opt --print-op-generic %s | filecheck %s --check-prefix=GENERIC
// Plain xDSL (our package not loaded) does not know the ops: compat is additive.
// RUN: not xdsl-opt %s 2>&1 | filecheck %s --check-prefix=STOCK
// STOCK: Operation linalg.elemwise_unary is not registered

// CHECK-LABEL: func.func @defaults
// GENERIC-LABEL: sym_name = "defaults"
func.func @defaults(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %0 = linalg.elemwise_unary ins(%a : tensor<4x8xf32>) outs(%b : tensor<4x8xf32>) -> tensor<4x8xf32>
  %1 = linalg.elemwise_binary ins(%0, %a : tensor<4x8xf32>, tensor<4x8xf32>) outs(%b : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0, %1 : tensor<4x8xf32>, tensor<4x8xf32>
}
// CHECK-NEXT: %0 = linalg.elemwise_unary ins(%a : tensor<4x8xf32>) outs(%b : tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: %1 = linalg.elemwise_binary ins(%0, %a : tensor<4x8xf32>, tensor<4x8xf32>) outs(%b : tensor<4x8xf32>) -> tensor<4x8xf32>
// GENERIC:      "linalg.elemwise_unary"(%a, %b) <{operandSegmentSizes = array<i32: 1, 1>}> ({
// GENERIC-NEXT: ^bb0(%[[X:[0-9]+]]: f32, %{{[0-9]+}}: f32):
// GENERIC-NEXT:   %[[E:[0-9]+]] = "math.exp"(%[[X]])
// GENERIC-NEXT:   "linalg.yield"(%[[E]])
// GENERIC:      "linalg.elemwise_binary"
// GENERIC-NEXT: ^bb0(%[[L:[0-9]+]]: f32, %[[R:[0-9]+]]: f32, %{{[0-9]+}}: f32):
// GENERIC-NEXT:   %[[S:[0-9]+]] = "arith.addf"(%[[L]], %[[R]])
// GENERIC-NEXT:   "linalg.yield"(%[[S]])

// The dictionary is printed sorted, in front of ins; a trailing one is read.
// CHECK-LABEL: func.func @attributes
// GENERIC-LABEL: sym_name = "attributes"
func.func @attributes(%a: tensor<4x8xf32>, %i: tensor<4x8xi8>, %o: tensor<4x8xi32>) -> (tensor<4x8xf32>, tensor<4x8xi32>, tensor<4x8xf32>) {
  %0 = linalg.elemwise_unary {fun = #linalg.unary_fn<log>, my.tag = 7 : i64} ins(%a : tensor<4x8xf32>) outs(%a : tensor<4x8xf32>) -> tensor<4x8xf32>
  %1 = linalg.elemwise_binary ins(%i, %i : tensor<4x8xi8>, tensor<4x8xi8>) outs(%o : tensor<4x8xi32>) {fun = #linalg.binary_fn<max_unsigned>, cast = #linalg.type_fn<cast_unsigned>} -> tensor<4x8xi32>
  %2 = linalg.elemwise_unary {cast = #linalg.type_fn<cast_signed>, fun = #linalg.unary_fn<negf>} ins(%i : tensor<4x8xi8>) outs(%a : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0, %1, %2 : tensor<4x8xf32>, tensor<4x8xi32>, tensor<4x8xf32>
}
// CHECK-NEXT: %0 = linalg.elemwise_unary {fun = #linalg.unary_fn<log>, my.tag = 7 : i64} ins(%a : tensor<4x8xf32>) outs(%a : tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: %1 = linalg.elemwise_binary {cast = #linalg.type_fn<cast_unsigned>, fun = #linalg.binary_fn<max_unsigned>} ins(%i, %i : tensor<4x8xi8>, tensor<4x8xi8>) outs(%o : tensor<4x8xi32>) -> tensor<4x8xi32>
// CHECK-NEXT: %2 = linalg.elemwise_unary {cast = #linalg.type_fn<cast_signed>, fun = #linalg.unary_fn<negf>} ins(%i : tensor<4x8xi8>) outs(%a : tensor<4x8xf32>) -> tensor<4x8xf32>
// GENERIC:      "math.log"
// GENERIC:      ^bb0(%[[L:[0-9]+]]: i8, %[[R:[0-9]+]]: i8, %{{[0-9]+}}: i32):
// GENERIC-NEXT:   %[[LW:[0-9]+]] = "arith.extui"(%[[L]]) : (i8) -> i32
// GENERIC-NEXT:   %[[RW:[0-9]+]] = "arith.extui"(%[[R]]) : (i8) -> i32
// GENERIC-NEXT:   %[[M:[0-9]+]] = "arith.maxui"(%[[LW]], %[[RW]])
// GENERIC:      ^bb0(%[[X:[0-9]+]]: i8, %{{[0-9]+}}: f32):
// GENERIC-NEXT:   %[[F:[0-9]+]] = "arith.sitofp"(%[[X]]) : (i8) -> f32
// GENERIC-NEXT:   "arith.negf"(%[[F]])

// OpDSL's rules: on floats the unsigned extrema are maximumf/minimumf; on i1
// add is ori and mul andi.
// CHECK-LABEL: func.func @opdsl_rules
// GENERIC-LABEL: sym_name = "opdsl_rules"
func.func @opdsl_rules(%a: tensor<4xf32>, %c: tensor<4xi1>) -> (tensor<4xf32>, tensor<4xi1>, tensor<4xi1>) {
  %0 = linalg.elemwise_binary {fun = #linalg.binary_fn<min_unsigned>} ins(%a, %a : tensor<4xf32>, tensor<4xf32>) outs(%a : tensor<4xf32>) -> tensor<4xf32>
  %1 = linalg.elemwise_binary ins(%c, %c : tensor<4xi1>, tensor<4xi1>) outs(%c : tensor<4xi1>) -> tensor<4xi1>
  %2 = linalg.elemwise_binary {fun = #linalg.binary_fn<mul>} ins(%c, %c : tensor<4xi1>, tensor<4xi1>) outs(%c : tensor<4xi1>) -> tensor<4xi1>
  return %0, %1, %2 : tensor<4xf32>, tensor<4xi1>, tensor<4xi1>
}
// GENERIC: "arith.minimumf"
// GENERIC: "arith.ori"
// GENERIC: "arith.andi"

// A scalar or rank-0 input is read whole at every index (broadcast); on
// memrefs the op has no result.
// CHECK-LABEL: func.func @broadcast_memref
func.func @broadcast_memref(%m: memref<4x8xf32>, %s: f32, %r: memref<f32>) {
  linalg.elemwise_binary {fun = #linalg.binary_fn<sub>} ins(%m, %s : memref<4x8xf32>, f32) outs(%m : memref<4x8xf32>)
  linalg.elemwise_binary {fun = #linalg.binary_fn<powf>} ins(%r, %m : memref<f32>, memref<4x8xf32>) outs(%m : memref<4x8xf32>)
  return
}
// CHECK-NEXT: linalg.elemwise_binary {fun = #linalg.binary_fn<sub>} ins(%m, %s : memref<4x8xf32>, f32) outs(%m : memref<4x8xf32>)
// CHECK-NEXT: linalg.elemwise_binary {fun = #linalg.binary_fn<powf>} ins(%r, %m : memref<f32>, memref<4x8xf32>) outs(%m : memref<4x8xf32>)
// CHECK-NEXT: func.return
