// linalg_ext outputs follow the same rules as linalg's: an output that is
// read after the op, or that may not be written (an argument when function
// boundaries are not bufferized, a constant, a `to_tensor` that is not
// `writable`), is copied (the scan reads its carry). See conflicts.mlir.
// RUN: xdsl-opt %s -p 'one-shot-bufferize' | filecheck %s --check-prefix=TENSORS
// RUN: xdsl-opt %s -p 'one-shot-bufferize{bufferize-function-boundaries=true}' | filecheck %s

func.func @scan_carry_argument(%x: tensor<4x5xi32>, %carry: tensor<4xi32>) -> (tensor<4x5xi32>, tensor<4xi32>) {
  %e = tensor.empty() : tensor<4x5xi32>
  %r:2 = linalg_ext.scan dimension(1) inclusive(true) ins(%x : tensor<4x5xi32>) outs(%e, %carry : tensor<4x5xi32>, tensor<4xi32>) {
  ^bb0(%run: i32, %el: i32):
    %n = arith.addi %run, %el : i32
    linalg_ext.yield %n : i32
  } -> tensor<4x5xi32>, tensor<4xi32>
  return %r#0, %r#1 : tensor<4x5xi32>, tensor<4xi32>
}

// CHECK-LABEL: func.func @scan_carry_argument(
// CHECK-NEXT:    %[[OUT:.*]] = memref.alloc() {alignment = 64 : i64} : memref<4x5xi32>
// CHECK-NEXT:    linalg_ext.scan {{.*}} outs(%[[OUT]], %carry : {{.*}})
// TENSORS-LABEL: func.func @scan_carry_argument(
// TENSORS:         %[[ARG:.*]] = bufferization.to_buffer %carry
// TENSORS-NEXT:    %[[COPY:.*]] = memref.alloc() {alignment = 64 : i64} : memref<4xi32>
// TENSORS-NEXT:    "memref.copy"(%[[ARG]], %[[COPY]])
// TENSORS:         linalg_ext.scan {{.*}} outs(%{{.*}}, %[[COPY]] : {{.*}})

func.func @scan_carry_constant(%x: tensor<4x5xi32>) -> (tensor<4x5xi32>, tensor<4xi32>) {
  %carry = arith.constant dense<[1, 2, 3, 4]> : tensor<4xi32>
  %e = tensor.empty() : tensor<4x5xi32>
  %r:2 = linalg_ext.scan dimension(1) inclusive(true) ins(%x : tensor<4x5xi32>) outs(%e, %carry : tensor<4x5xi32>, tensor<4xi32>) {
  ^bb0(%run: i32, %el: i32):
    %n = arith.addi %run, %el : i32
    linalg_ext.yield %n : i32
  } -> tensor<4x5xi32>, tensor<4xi32>
  return %r#0, %r#1 : tensor<4x5xi32>, tensor<4xi32>
}

// CHECK-LABEL: func.func @scan_carry_constant(
// CHECK-NEXT:    %[[G:.*]] = memref.get_global @__constant_4xi32
// CHECK:         %[[COPY:.*]] = memref.alloc() {alignment = 64 : i64} : memref<4xi32>
// CHECK-NEXT:    "memref.copy"(%[[G]], %[[COPY]])
// CHECK-NEXT:    linalg_ext.scan {{.*}} outs(%{{.*}}, %[[COPY]] : {{.*}})

func.func @scan_carry_to_tensor(%x: tensor<4x5xi32>, %m: memref<4xi32>) -> (tensor<4x5xi32>, tensor<4xi32>) {
  %carry = bufferization.to_tensor %m restrict : memref<4xi32> to tensor<4xi32>
  %e = tensor.empty() : tensor<4x5xi32>
  %r:2 = linalg_ext.scan dimension(1) inclusive(true) ins(%x : tensor<4x5xi32>) outs(%e, %carry : tensor<4x5xi32>, tensor<4xi32>) {
  ^bb0(%run: i32, %el: i32):
    %n = arith.addi %run, %el : i32
    linalg_ext.yield %n : i32
  } -> tensor<4x5xi32>, tensor<4xi32>
  return %r#0, %r#1 : tensor<4x5xi32>, tensor<4xi32>
}

// CHECK-LABEL: func.func @scan_carry_to_tensor(
// CHECK:         %[[COPY:.*]] = memref.alloc() {alignment = 64 : i64} : memref<4xi32>
// CHECK-NEXT:    "memref.copy"(%m, %[[COPY]])
// CHECK-NEXT:    linalg_ext.scan {{.*}} outs(%{{.*}}, %[[COPY]] : {{.*}})

func.func @scan_carry_read_after(%x: tensor<4x5xi32>, %carry: tensor<4xi32>) -> (tensor<4x5xi32>, tensor<4xi32>, tensor<4xi32>) {
  %e = tensor.empty() : tensor<4x5xi32>
  %r:2 = linalg_ext.scan dimension(1) inclusive(true) ins(%x : tensor<4x5xi32>) outs(%e, %carry : tensor<4x5xi32>, tensor<4xi32>) {
  ^bb0(%run: i32, %el: i32):
    %n = arith.addi %run, %el : i32
    linalg_ext.yield %n : i32
  } -> tensor<4x5xi32>, tensor<4xi32>
  %o = tensor.empty() : tensor<4xi32>
  %d = linalg.sub ins(%r#1, %carry : tensor<4xi32>, tensor<4xi32>) outs(%o : tensor<4xi32>) -> tensor<4xi32>
  return %r#0, %r#1, %d : tensor<4x5xi32>, tensor<4xi32>, tensor<4xi32>
}
// CHECK-LABEL: func.func @scan_carry_read_after(
// CHECK:         %[[COPY:.*]] = memref.alloc() {alignment = 64 : i64} : memref<4xi32>
// CHECK-NEXT:    "memref.copy"(%carry, %[[COPY]])
// CHECK-NEXT:    linalg_ext.scan {{.*}} outs(%{{.*}}, %[[COPY]] : {{.*}})
// CHECK:         linalg.sub ins(%[[COPY]], %carry : {{.*}})
