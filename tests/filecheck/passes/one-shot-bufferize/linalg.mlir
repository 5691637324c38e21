// Linalg ops write their inits: a `tensor.empty` init becomes an allocation,
// an elementwise op may reuse its input's buffer as its output, and an init
// read after the op is copied first.
// RUN: xdsl-opt %s -p 'one-shot-bufferize{bufferize-function-boundaries=true}' | filecheck %s
// RUN: xdsl-opt %s -p 'one-shot-bufferize{bufferize-function-boundaries=true test-analysis-only=true}' | filecheck %s --check-prefix=ANALYSIS

#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @chain(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %s = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%a, %b : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %z = arith.addf %x, %y : f32
    linalg.yield %z : f32
  } -> tensor<4x8xf32>
  %m = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%s : tensor<4x8xf32>) outs(%s : tensor<4x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %z = arith.mulf %x, %x : f32
    linalg.yield %z : f32
  } -> tensor<4x8xf32>
  return %m : tensor<4x8xf32>
}
func.func @transposed_reuse(%a: tensor<4x4xf32>) -> tensor<4x4xf32> {
// The second generic reads and writes %s element by element: in place.
// CHECK-LABEL: func.func @chain
// CHECK-NEXT:    %0 = memref.alloc() {alignment = 64 : i64} : memref<4x8xf32>
// CHECK-NEXT:    linalg.generic {{.*}} ins(%a, %b : {{.*}}) outs(%0 : memref<4x8xf32>)
// CHECK:         linalg.generic {{.*}} ins(%0 : memref<4x8xf32>) outs(%0 : memref<4x8xf32>)
// CHECK-NOT:     memref.alloc
// CHECK:         func.return %0 : memref<4x8xf32>
// ANALYSIS-LABEL: func.func @chain
// ANALYSIS:       __inplace_operands_attr__ = ["true", "true", "true"]
// ANALYSIS:       __inplace_operands_attr__ = ["true", "true"]

  %t = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, #id], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<4x4xf32>) outs(%a : tensor<4x4xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  } -> tensor<4x4xf32>
  return %t : tensor<4x4xf32>
}
// A transposed read of the buffer being written is a conflict; the old
// contents of the init are not read, so its copy needs no data.
// CHECK-LABEL: func.func @transposed_reuse
// CHECK-NEXT:    %0 = memref.alloc() {alignment = 64 : i64} : memref<4x4xf32>
// CHECK-NEXT:    linalg.generic {{.*}} ins(%a : {{.*}}) outs(%0 : memref<4x4xf32>)
// CHECK-NOT:     memref.copy
// ANALYSIS-LABEL: func.func @transposed_reuse
// ANALYSIS:       __inplace_operands_attr__ = ["true", "false"]

func.func @matmul_acc(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>, %c: tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>) {
  %r = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x4xf32>) outs(%c : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %r, %c : tensor<4x4xf32>, tensor<4x4xf32>
}
// The accumulator is returned unchanged as well: matmul works on a copy.
// CHECK-LABEL: func.func @matmul_acc
// CHECK-NEXT:    %0 = memref.alloc() {alignment = 64 : i64} : memref<4x4xf32>
// CHECK-NEXT:    "memref.copy"(%c, %0)
// CHECK-NEXT:    linalg.matmul ins(%a, %b : {{.*}}) outs(%0 : memref<4x4xf32>)
// CHECK-NEXT:    func.return %0, %c
// ANALYSIS-LABEL: func.func @matmul_acc
// ANALYSIS:       __inplace_operands_attr__ = ["true", "true", "false"]
