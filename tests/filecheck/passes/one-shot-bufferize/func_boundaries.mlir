// Function boundaries: arguments are writable unless marked
// `bufferization.writable = false`; a call passes its callee's facts (which
// arguments it reads and writes, which results are its arguments) to the
// caller's analysis.
// RUN: xdsl-opt %s -p 'one-shot-bufferize{bufferize-function-boundaries=true}' | filecheck %s
// RUN: xdsl-opt %s -p 'one-shot-bufferize{bufferize-function-boundaries=true test-analysis-only=true}' | filecheck %s --check-prefix=ANALYSIS
// RUN: xdsl-opt %s -p 'one-shot-bufferize{bufferize-function-boundaries=true function-boundary-type-conversion=identity-layout-map}' | filecheck %s --check-prefix=IDENTITY

#id = affine_map<(d0) -> (d0)>
func.func @scale_in_place(%t: tensor<8xf32>, %k: f32) -> tensor<8xf32> {
  %r = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel"]} outs(%t : tensor<8xf32>) {
  ^bb0(%x: f32):
    %y = arith.mulf %x, %k : f32
    linalg.yield %y : f32
  } -> tensor<8xf32>
  return %r : tensor<8xf32>
}
// An argument written in place is the caller's buffer: no allocation.
// CHECK-LABEL: func.func @scale_in_place(%t: memref<8xf32, strided<[?], offset: ?>>, %k: f32) -> memref<8xf32, strided<[?], offset: ?>>
// CHECK-NOT:     memref.alloc
// CHECK:         outs(%t : memref<8xf32, strided<[?], offset: ?>>)
// CHECK:         func.return %t : memref<8xf32, strided<[?], offset: ?>>
// ANALYSIS-LABEL: func.func @scale_in_place(%t: tensor<8xf32> {bufferization.access = "read-write"}, %k: f32)
// ANALYSIS:       __inplace_operands_attr__ = ["true"]
// ANALYSIS:       func.return {__inplace_operands_attr__ = ["true"], __equivalent_func_args__ = [0 : i64]}
// IDENTITY-LABEL: func.func @scale_in_place(%t: memref<8xf32>, %k: f32) -> memref<8xf32>

func.func @read_only(%t: tensor<8xf32> {bufferization.writable = false}, %k: f32) -> tensor<8xf32> {
  %r = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel"]} outs(%t : tensor<8xf32>) {
  ^bb0(%x: f32):
    %y = arith.addf %x, %k : f32
    linalg.yield %y : f32
  } -> tensor<8xf32>
  return %r : tensor<8xf32>
}
// A read-only argument is copied before it is written.
// CHECK-LABEL: func.func @read_only(%t: memref<8xf32, strided<[?], offset: ?>>, %k: f32) -> memref<8xf32>
// CHECK-NEXT:    %0 = memref.alloc() {alignment = 64 : i64} : memref<8xf32>
// CHECK-NEXT:    "memref.copy"(%t, %0) : (memref<8xf32, strided<[?], offset: ?>>, memref<8xf32>) -> ()
// CHECK-NEXT:    linalg.generic {{.*}} outs(%0 : memref<8xf32>)
// CHECK:         func.return %0 : memref<8xf32>
// ANALYSIS-LABEL: func.func @read_only
// ANALYSIS:       __inplace_operands_attr__ = ["false"]

func.func @caller(%t: tensor<8xf32>, %k: f32) -> (tensor<8xf32>, f32) {
  %c0 = arith.constant 0 : index
  %r = func.call @scale_in_place(%t, %k) : (tensor<8xf32>, f32) -> tensor<8xf32>
  %old = tensor.extract %t[%c0] : tensor<8xf32>
  return %r, %old : tensor<8xf32>, f32
}
// The callee writes its argument, and the caller reads %t after the call:
// the call gets a copy.
// CHECK-LABEL: func.func @caller(%t: memref<8xf32, strided<[?], offset: ?>>, %k: f32) -> (memref<8xf32, strided<[?], offset: ?>>, f32)
// CHECK:         %0 = memref.alloc() {alignment = 64 : i64} : memref<8xf32>
// CHECK-NEXT:    "memref.copy"(%t, %0)
// CHECK-NEXT:    %1 = "memref.cast"(%0) : (memref<8xf32>) -> memref<8xf32, strided<[?], offset: ?>>
// CHECK-NEXT:    %2 = func.call @scale_in_place(%1, %k)
// CHECK-NEXT:    %old = memref.load %t[%c0]
// CHECK-NEXT:    func.return %2, %old
// ANALYSIS-LABEL: func.func @caller(%t: tensor<8xf32> {bufferization.access = "read"}, %k: f32)
// ANALYSIS:       func.call @scale_in_place(%t, %k) {__inplace_operands_attr__ = ["false", "none"]}
// ANALYSIS:       tensor.extract %t[%c0] {__inplace_operands_attr__ = ["true", "none"]}

func.func @caller_no_conflict(%t: tensor<8xf32>, %k: f32) -> tensor<8xf32> {
  %r = func.call @scale_in_place(%t, %k) : (tensor<8xf32>, f32) -> tensor<8xf32>
  %s = func.call @scale_in_place(%r, %k) : (tensor<8xf32>, f32) -> tensor<8xf32>
  return %s : tensor<8xf32>
}
// Each call's result is its argument's buffer: a chain of calls in place.
// CHECK-LABEL: func.func @caller_no_conflict
// CHECK-NOT:     memref.alloc
// CHECK:         %0 = func.call @scale_in_place(%t, %k)
// CHECK-NEXT:    %1 = func.call @scale_in_place(%0, %k)
// CHECK-NEXT:    func.return %1
// ANALYSIS-LABEL: func.func @caller_no_conflict(%t: tensor<8xf32> {bufferization.access = "read-write"}, %k: f32)
// ANALYSIS:       __inplace_operands_attr__ = ["true", "none"]
// ANALYSIS:       __inplace_operands_attr__ = ["true", "none"]
