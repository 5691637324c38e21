// A tiled loop: scf.for over row (or row and column) tiles, each iteration
// taking a slice of the iteration argument, computing into it with a
// linalg.generic and inserting it back. Everything bufferizes in place on
// the loop's init: no allocation when it is a writable argument, one for a
// tensor.empty, and a copy of the init before the loop when the init is
// read after it.
// RUN: xdsl-opt %s -p 'one-shot-bufferize{bufferize-function-boundaries=true}' | filecheck %s
// RUN: xdsl-opt %s -p 'one-shot-bufferize{bufferize-function-boundaries=true test-analysis-only=true}' | filecheck %s --check-prefix=ANALYSIS

#id2 = affine_map<(i, j) -> (i, j)>

func.func @tiled_into_argument(%x: tensor<8x6xf32>, %acc: tensor<8x6xf32>) -> tensor<8x6xf32> {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %r = scf.for %i = %c0 to %c8 step %c2 iter_args(%t = %acc) -> (tensor<8x6xf32>) {
    %xs = tensor.extract_slice %x[%i, 0] [2, 6] [1, 1] : tensor<8x6xf32> to tensor<2x6xf32>
    %ts = tensor.extract_slice %t[%i, 0] [2, 6] [1, 1] : tensor<8x6xf32> to tensor<2x6xf32>
    %g = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
        ins(%xs : tensor<2x6xf32>) outs(%ts : tensor<2x6xf32>) {
    ^bb0(%in: f32, %o: f32):
      %s = arith.addf %o, %in : f32
      linalg.yield %s : f32
    } -> tensor<2x6xf32>
    %u = tensor.insert_slice %g into %t[%i, 0] [2, 6] [1, 1] : tensor<2x6xf32> into tensor<8x6xf32>
    scf.yield %u : tensor<8x6xf32>
  }
  return %r : tensor<8x6xf32>
}
// CHECK-LABEL: func.func @tiled_into_argument
// CHECK-NOT:     memref.alloc
// CHECK-NOT:     memref.copy
// CHECK:         %[[R:.*]] = scf.for %i = %c0 to %c8 step %c2 iter_args(%t = %acc) -> (memref<8x6xf32, strided<[?, ?], offset: ?>>)
// CHECK:           %[[S:.*]] = memref.subview %t[%i, 0] [2, 6] [1, 1]
// CHECK-NEXT:      linalg.generic {{.*}} outs(%[[S]] : memref<2x6xf32, strided<[?, ?], offset: ?>>)
// CHECK-NOT:     memref.copy
// CHECK:           scf.yield %t
// CHECK:         func.return %[[R]]
// ANALYSIS-LABEL: func.func @tiled_into_argument(%x: tensor<8x6xf32> {bufferization.access = "read"}, %acc: tensor<8x6xf32> {bufferization.access = "read-write"})
// ANALYSIS:         tensor.extract_slice %x{{.*}} {__inplace_operands_attr__ = ["true", "none"]}
// ANALYSIS-NEXT:    tensor.extract_slice %t{{.*}} {__inplace_operands_attr__ = ["true", "none"]}
// ANALYSIS-NEXT:    attrs = {__inplace_operands_attr__ = ["true", "true"]}
// ANALYSIS:         tensor.insert_slice %g into %t{{.*}} {__inplace_operands_attr__ = ["true", "true", "none"]}
// ANALYSIS-NEXT:    scf.yield {__inplace_operands_attr__ = ["true"]} %u
// ANALYSIS-NEXT:  } {__inplace_operands_attr__ = ["none", "none", "none", "true"]}

func.func @tiled_into_empty(%x: tensor<8x6xf32>) -> tensor<8x6xf32> {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %e = tensor.empty() : tensor<8x6xf32>
  %r = scf.for %i = %c0 to %c8 step %c2 iter_args(%t = %e) -> (tensor<8x6xf32>) {
    %xs = tensor.extract_slice %x[%i, 0] [2, 6] [1, 1] : tensor<8x6xf32> to tensor<2x6xf32>
    %ts = tensor.extract_slice %t[%i, 0] [2, 6] [1, 1] : tensor<8x6xf32> to tensor<2x6xf32>
    %g = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
        ins(%xs : tensor<2x6xf32>) outs(%ts : tensor<2x6xf32>) {
    ^bb0(%in: f32, %o: f32):
      %n = arith.negf %in : f32
      linalg.yield %n : f32
    } -> tensor<2x6xf32>
    %u = tensor.insert_slice %g into %t[%i, 0] [2, 6] [1, 1] : tensor<2x6xf32> into tensor<8x6xf32>
    scf.yield %u : tensor<8x6xf32>
  }
  return %r : tensor<8x6xf32>
}
// CHECK-LABEL: func.func @tiled_into_empty
// CHECK:         %[[E:.*]] = memref.alloc() {alignment = 64 : i64} : memref<8x6xf32>
// CHECK-NEXT:    %[[R:.*]] = scf.for %i = %c0 to %c8 step %c2 iter_args(%t = %[[E]]) -> (memref<8x6xf32>)
// CHECK-NOT:     memref.alloc
// CHECK-NOT:     memref.copy
// CHECK:         func.return %[[R]] : memref<8x6xf32>
// ANALYSIS-LABEL: func.func @tiled_into_empty
// ANALYSIS:       } {__inplace_operands_attr__ = ["none", "none", "none", "true"]}

// The same over 2x3 tiles, in a nest of two loops.
func.func @tiled_2d_nest(%x: tensor<8x6xf32>, %acc: tensor<8x6xf32>) -> tensor<8x6xf32> {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c6 = arith.constant 6 : index
  %c8 = arith.constant 8 : index
  %r = scf.for %i = %c0 to %c8 step %c2 iter_args(%t = %acc) -> (tensor<8x6xf32>) {
    %inner = scf.for %j = %c0 to %c6 step %c3 iter_args(%tt = %t) -> (tensor<8x6xf32>) {
      %xs = tensor.extract_slice %x[%i, %j] [2, 3] [1, 1] : tensor<8x6xf32> to tensor<2x3xf32>
      %ts = tensor.extract_slice %tt[%i, %j] [2, 3] [1, 1] : tensor<8x6xf32> to tensor<2x3xf32>
      %g = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
          ins(%xs : tensor<2x3xf32>) outs(%ts : tensor<2x3xf32>) {
      ^bb0(%in: f32, %o: f32):
        %m = arith.mulf %o, %in : f32
        linalg.yield %m : f32
      } -> tensor<2x3xf32>
      %u = tensor.insert_slice %g into %tt[%i, %j] [2, 3] [1, 1] : tensor<2x3xf32> into tensor<8x6xf32>
      scf.yield %u : tensor<8x6xf32>
    }
    scf.yield %inner : tensor<8x6xf32>
  }
  return %r : tensor<8x6xf32>
}
// CHECK-LABEL: func.func @tiled_2d_nest
// CHECK-NOT:     memref.alloc
// CHECK-NOT:     memref.copy
// CHECK:         scf.for %i = %c0 to %c8 step %c2 iter_args(%t = %acc)
// CHECK-NEXT:      scf.for %j = %c0 to %c6 step %c3 iter_args(%tt = %t)
// CHECK:             memref.subview %tt[%i, %j] [2, 3] [1, 1]
// CHECK:         func.return
// ANALYSIS-LABEL: func.func @tiled_2d_nest
// ANALYSIS:           tensor.insert_slice %g into %tt{{.*}} {__inplace_operands_attr__ = ["true", "true", "none", "none"]}
// ANALYSIS:         } {__inplace_operands_attr__ = ["none", "none", "none", "true"]}
// ANALYSIS-NEXT:    scf.yield {__inplace_operands_attr__ = ["true"]} %inner
// ANALYSIS-NEXT:  } {__inplace_operands_attr__ = ["none", "none", "none", "true"]}

// The init is read after the loop: the loop runs on a copy.
func.func @tiled_init_read_after(%x: tensor<8x6xf32>, %acc: tensor<8x6xf32>) -> (tensor<8x6xf32>, f32) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %r = scf.for %i = %c0 to %c8 step %c2 iter_args(%t = %acc) -> (tensor<8x6xf32>) {
    %xs = tensor.extract_slice %x[%i, 0] [2, 6] [1, 1] : tensor<8x6xf32> to tensor<2x6xf32>
    %ts = tensor.extract_slice %t[%i, 0] [2, 6] [1, 1] : tensor<8x6xf32> to tensor<2x6xf32>
    %g = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
        ins(%xs : tensor<2x6xf32>) outs(%ts : tensor<2x6xf32>) {
    ^bb0(%in: f32, %o: f32):
      %s = arith.addf %o, %in : f32
      linalg.yield %s : f32
    } -> tensor<2x6xf32>
    %u = tensor.insert_slice %g into %t[%i, 0] [2, 6] [1, 1] : tensor<2x6xf32> into tensor<8x6xf32>
    scf.yield %u : tensor<8x6xf32>
  }
  %old = tensor.extract %acc[%c2, %c2] : tensor<8x6xf32>
  return %r, %old : tensor<8x6xf32>, f32
}
// CHECK-LABEL: func.func @tiled_init_read_after
// CHECK:         %[[C:.*]] = memref.alloc() {alignment = 64 : i64} : memref<8x6xf32>
// CHECK-NEXT:    memref.copy{{.*}}%acc, %[[C]]
// CHECK-NEXT:    %[[R:.*]] = scf.for %i = %c0 to %c8 step %c2 iter_args(%t = %[[C]]) -> (memref<8x6xf32>)
// CHECK-NOT:     memref.alloc
// CHECK-NOT:     memref.copy
// CHECK:         memref.load %acc[%c2, %c2]
// CHECK:         func.return %[[R]], %old
// ANALYSIS-LABEL: func.func @tiled_init_read_after(%x: tensor<8x6xf32> {bufferization.access = "read"}, %acc: tensor<8x6xf32> {bufferization.access = "read"})
// ANALYSIS:       } {__inplace_operands_attr__ = ["none", "none", "none", "false"]}
// ANALYSIS-NEXT:  tensor.extract %acc[%c2, %c2] {__inplace_operands_attr__ = ["true", "none", "none"]}
