// MLIR 19's linalg.elemwise_unary / elemwise_binary (ByteIR's payloads): one
// loop per dimension of the output; each input element is converted to the
// output's element type by `cast` before `fun`, and a scalar or rank-0 input
// is read whole at every index.
// RUN: xdsl-opt %s -p convert-linalg-to-loops-ext | filecheck %s

// CHECK-LABEL: func.func @binary_scalar_unsigned
func.func @binary_scalar_unsigned(%m: memref<4x8xi8>, %s: i8, %o: memref<4x8xf32>) {
  linalg.elemwise_binary {fun = #linalg.binary_fn<mul>, cast = #linalg.type_fn<cast_unsigned>} ins(%m, %s : memref<4x8xi8>, i8) outs(%o : memref<4x8xf32>)
  return
}
// CHECK:      scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:   scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:     %[[X:.*]] = memref.load %m[%[[I]], %[[J]]] : memref<4x8xi8>
// CHECK-NEXT:     %[[XF:.*]] = arith.uitofp %[[X]] : i8 to f32
// CHECK-NEXT:     %[[SF:.*]] = arith.uitofp %s : i8 to f32
// CHECK-NEXT:     %[[P:.*]] = arith.mulf %[[XF]], %[[SF]] : f32
// CHECK-NEXT:     memref.store %[[P]], %o[%[[I]], %[[J]]] : memref<4x8xf32>

// CHECK-LABEL: func.func @unary_rank0
func.func @unary_rank0(%r: memref<f32>, %o: memref<4x8xf32>) {
  linalg.elemwise_unary {fun = #linalg.unary_fn<tanh>} ins(%r : memref<f32>) outs(%o : memref<4x8xf32>)
  return
}
// CHECK:      scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:   scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:     %[[X:.*]] = memref.load %r[] : memref<f32>
// CHECK-NEXT:     %[[T:.*]] = math.tanh %[[X]] : f32
// CHECK-NEXT:     memref.store %[[T]], %o[%[[I]], %[[J]]] : memref<4x8xf32>

// The default: exp, with the signed conversion of i32 to f32.
// CHECK-LABEL: func.func @unary_default_signed
func.func @unary_default_signed(%m: memref<6xi32>, %o: memref<6xf32>) {
  linalg.elemwise_unary ins(%m : memref<6xi32>) outs(%o : memref<6xf32>)
  return
}
// CHECK:      scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:   %[[X:.*]] = memref.load %m[%[[I]]] : memref<6xi32>
// CHECK-NEXT:   %[[F:.*]] = arith.sitofp %[[X]] : i32 to f32
// CHECK-NEXT:   %[[E:.*]] = math.exp %[[F]] : f32
// CHECK-NEXT:   memref.store %[[E]], %o[%[[I]]] : memref<6xf32>
