// scf.for with tensor iter_args: each init is the buffer its iter_arg starts
// with, and the loop counts as a write of it. A loop that updates its
// iter_arg in place (extract_slice, compute, insert_slice of the same tile)
// needs no buffer of its own; an init read after the loop is copied first.
// RUN: xdsl-opt %s -p 'one-shot-bufferize{bufferize-function-boundaries=true}' | filecheck %s
// RUN: xdsl-opt %s -p 'one-shot-bufferize{bufferize-function-boundaries=true test-analysis-only=true}' | filecheck %s --check-prefix=ANALYSIS

// Tiles of %out computed in place: no allocation, no copy.
func.func @tiled(%x: tensor<8x16xf32>, %out: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %r = scf.for %i = %c0 to %c8 step %c2 iter_args(%acc = %out) -> (tensor<8x16xf32>) {
    %a = tensor.extract_slice %x[%i, 0] [2, 16] [1, 1] : tensor<8x16xf32> to tensor<2x16xf32>
    %o = tensor.extract_slice %acc[%i, 0] [2, 16] [1, 1] : tensor<8x16xf32> to tensor<2x16xf32>
    %e = linalg.exp ins(%a : tensor<2x16xf32>) outs(%o : tensor<2x16xf32>) -> tensor<2x16xf32>
    %n = tensor.insert_slice %e into %acc[%i, 0] [2, 16] [1, 1] : tensor<2x16xf32> into tensor<8x16xf32>
    scf.yield %n : tensor<8x16xf32>
  }
  return %r : tensor<8x16xf32>
}
// CHECK-LABEL: func.func @tiled
// CHECK-NOT:     memref.alloc
// CHECK:         %0 = scf.for %i = %c0 to %c8 step %c2 iter_args(%acc = %out) -> (memref<8x16xf32, strided<[?, ?], offset: ?>>) {
// CHECK-NEXT:      %1 = memref.subview %x[%i, 0] [2, 16] [1, 1]
// CHECK-NEXT:      %2 = memref.subview %acc[%i, 0] [2, 16] [1, 1]
// CHECK-NEXT:      linalg.exp ins(%1 : {{.*}}) outs(%2 : {{.*}})
// CHECK-NEXT:      scf.yield %acc : memref<8x16xf32, strided<[?, ?], offset: ?>>
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %0
// ANALYSIS-LABEL: func.func @tiled
// ANALYSIS-SAME:    %out: tensor<8x16xf32> {bufferization.access = "read-write"}
// ANALYSIS:         tensor.extract_slice %x{{.*}}__inplace_operands_attr__ = ["true", "none"]
// ANALYSIS:         tensor.extract_slice %acc{{.*}}__inplace_operands_attr__ = ["true", "none"]
// ANALYSIS:         linalg.exp {{.*}}__inplace_operands_attr__ = ["true", "true"]
// ANALYSIS:         tensor.insert_slice {{.*}}__inplace_operands_attr__ = ["true", "true", "none"]
// ANALYSIS:         scf.yield {__inplace_operands_attr__ = ["true"]}
// ANALYSIS:         } {__inplace_operands_attr__ = ["none", "none", "none", "true"]}

// %x is read after the loop: the loop works on a copy of it.
func.func @init_read_after(%x: tensor<8xf32>) -> tensor<8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%acc = %x) -> (tensor<8xf32>) {
    %s = linalg.add ins(%acc, %acc : tensor<8xf32>, tensor<8xf32>) outs(%acc : tensor<8xf32>) -> tensor<8xf32>
    scf.yield %s : tensor<8xf32>
  }
  %e = tensor.empty() : tensor<8xf32>
  %d = linalg.sub ins(%r, %x : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  return %d : tensor<8xf32>
}
// CHECK-LABEL: func.func @init_read_after
// CHECK:         %0 = memref.alloc() {alignment = 64 : i64} : memref<8xf32>
// CHECK-NEXT:    "memref.copy"(%x, %0)
// CHECK-NEXT:    %1 = scf.for %i = %c0 to %c3 step %c1 iter_args(%acc = %0) -> (memref<8xf32>) {
// CHECK-NEXT:      linalg.add ins(%acc, %acc : {{.*}}) outs(%acc : memref<8xf32>)
// CHECK-NEXT:      scf.yield %acc : memref<8xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    %2 = memref.alloc()
// CHECK-NEXT:    linalg.sub ins(%1, %x : {{.*}}) outs(%2 : memref<8xf32>)
// ANALYSIS-LABEL: func.func @init_read_after
// ANALYSIS-SAME:    {bufferization.access = "read"}
// ANALYSIS:         linalg.add {{.*}}__inplace_operands_attr__ = ["true", "true", "true"]
// ANALYSIS:         } {__inplace_operands_attr__ = ["none", "none", "none", "false"]}

// The loop does not change %x, yet it counts as a write of its init: a
// later read of %x still makes it work on a copy (as in MLIR).
func.func @unchanged(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%t = %x) -> (tensor<4xf32>) {
    scf.yield %t : tensor<4xf32>
  }
  %e = tensor.empty() : tensor<4xf32>
  %s = linalg.add ins(%r, %x : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  return %s : tensor<4xf32>
}
// CHECK-LABEL: func.func @unchanged
// CHECK:         %0 = memref.alloc() {alignment = 64 : i64} : memref<4xf32>
// CHECK-NEXT:    "memref.copy"(%x, %0)
// CHECK-NEXT:    %1 = scf.for %i = %c0 to %c3 step %c1 iter_args(%t = %0) -> (memref<4xf32>) {
// CHECK-NEXT:      scf.yield %t : memref<4xf32>
// ANALYSIS-LABEL: func.func @unchanged
// ANALYSIS:         } {__inplace_operands_attr__ = ["none", "none", "none", "false"]}

// Two-level tiling: the inner loop's init is the outer iter_arg.
func.func @nested(%x: tensor<8x16xf32>, %out: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %r = scf.for %i = %c0 to %c8 step %c2 iter_args(%acc = %out) -> (tensor<8x16xf32>) {
    %r2 = scf.for %j = %c0 to %c16 step %c4 iter_args(%acc2 = %acc) -> (tensor<8x16xf32>) {
      %a = tensor.extract_slice %x[%i, %j] [2, 4] [1, 1] : tensor<8x16xf32> to tensor<2x4xf32>
      %o = tensor.extract_slice %acc2[%i, %j] [2, 4] [1, 1] : tensor<8x16xf32> to tensor<2x4xf32>
      %e = linalg.add ins(%a, %o : tensor<2x4xf32>, tensor<2x4xf32>) outs(%o : tensor<2x4xf32>) -> tensor<2x4xf32>
      %n = tensor.insert_slice %e into %acc2[%i, %j] [2, 4] [1, 1] : tensor<2x4xf32> into tensor<8x16xf32>
      scf.yield %n : tensor<8x16xf32>
    }
    scf.yield %r2 : tensor<8x16xf32>
  }
  return %r : tensor<8x16xf32>
}
// CHECK-LABEL: func.func @nested
// CHECK-NOT:     memref.alloc
// CHECK-NOT:     memref.copy
// CHECK:         %0 = scf.for %i = %c0 to %c8 step %c2 iter_args(%acc = %out)
// CHECK-NEXT:      %1 = scf.for %j = %c0 to %c16 step %c4 iter_args(%acc2 = %acc)
// CHECK:             linalg.add
// CHECK-NEXT:        scf.yield %acc2
// CHECK:           scf.yield %1
// CHECK:         func.return %0
// ANALYSIS-LABEL: func.func @nested
// ANALYSIS:         } {__inplace_operands_attr__ = ["none", "none", "none", "true"]}
// ANALYSIS:         } {__inplace_operands_attr__ = ["none", "none", "none", "true"]}

// A scalar and a tensor carried together: only the tensor becomes a memref.
func.func @mixed_iter_args(%x: tensor<4xf32>, %s: f32) -> (tensor<4xf32>, f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %r:2 = scf.for %i = %c0 to %c4 step %c1 iter_args(%sum = %s, %t = %x) -> (f32, tensor<4xf32>) {
    %v = tensor.extract %t[%i] : tensor<4xf32>
    %w = arith.addf %sum, %v : f32
    %u = tensor.insert %w into %t[%i] : tensor<4xf32>
    scf.yield %w, %u : f32, tensor<4xf32>
  }
  return %r#1, %r#0 : tensor<4xf32>, f32
}
// CHECK-LABEL: func.func @mixed_iter_args
// CHECK:         %r, %0 = scf.for %i = %c0 to %c4 step %c1 iter_args(%sum = %s, %t = %x) -> (f32, memref<4xf32, strided<[?], offset: ?>>) {
// CHECK-NEXT:      %v = memref.load %t[%i]
// CHECK-NEXT:      %w = arith.addf %sum, %v : f32
// CHECK-NEXT:      memref.store %w, %t[%i]
// CHECK-NEXT:      scf.yield %w, %t : f32, memref<4xf32, strided<[?], offset: ?>>
// CHECK:         func.return %0, %r
// ANALYSIS-LABEL: func.func @mixed_iter_args
// ANALYSIS:         } {__inplace_operands_attr__ = ["none", "none", "none", "none", "true"]}

// The upper bound is not a constant: the loop may not run at all, so the
// init counts as read (its contents are then the result).
func.func @dynamic_bounds(%x: tensor<?xf32>, %y: tensor<?xf32>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tensor.dim %x, %c0 : tensor<?xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%t = %y) -> (tensor<?xf32>) {
    %v = tensor.extract %x[%i] : tensor<?xf32>
    %u = tensor.insert %v into %t[%i] : tensor<?xf32>
    scf.yield %u : tensor<?xf32>
  }
  return %r : tensor<?xf32>
}
// CHECK-LABEL: func.func @dynamic_bounds
// CHECK-NOT:     memref.alloc
// CHECK:         scf.for %i = %c0 to %n step %c1 iter_args(%t = %y) -> (memref<?xf32, strided<[?], offset: ?>>)
// ANALYSIS-LABEL: func.func @dynamic_bounds
// ANALYSIS-SAME:    %y: tensor<?xf32> {bufferization.access = "read-write"}
