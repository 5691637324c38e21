// Layouts. A buffer is cast to another layout only where the cast holds for every
// buffer of its type: a strided argument (a view of another buffer, such as
// @main's every-other-element slice) is copied as it lies, never cast to an
// identity layout.
// RUN: xdsl-opt %s -p 'one-shot-bufferize{bufferize-function-boundaries=true}' | filecheck %s

func.func @materialize(%a: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %r = bufferization.materialize_in_destination %a in %e : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}
// CHECK-LABEL: func.func @materialize
// CHECK-SAME:      (%a: memref<4xf32, strided<[?], offset: ?>>) -> memref<4xf32>
// CHECK-NEXT:    %0 = memref.alloc() {alignment = 64 : i64} : memref<4xf32>
// CHECK-NEXT:    "memref.copy"(%a, %0) : (memref<4xf32, strided<[?], offset: ?>>, memref<4xf32>) -> ()
// CHECK-NEXT:    func.return %0 : memref<4xf32>

func.func @main(%x: tensor<8xf32>) -> tensor<4xf32> {
  %s = tensor.extract_slice %x[0] [4] [2] : tensor<8xf32> to tensor<4xf32>
  %r = func.call @materialize(%s) : (tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}
// CHECK-LABEL: func.func @main
// CHECK-NOT:     memref.copy
// CHECK:         func.return

// A subview at offset 0 of a dimension adds nothing to the offset, whatever
// that dimension's stride: the interior of a pad of a 5x? tensor has offset 0
// (as the subview verifier computes it).
func.func @pad(%a: tensor<5x?xf32>) -> tensor<5x?xf32> {
  %z = arith.constant 0.0 : f32
  %p = tensor.pad %a low[0, 0] high[0, 0] {
  ^bb0(%i: index, %j: index):
    tensor.yield %z : f32
  } : tensor<5x?xf32> to tensor<5x?xf32>
  return %p : tensor<5x?xf32>
}
// CHECK-LABEL: func.func @pad
// CHECK:         memref.subview %{{.*}}[0, 0] [5, %{{.*}}] [1, 1] : memref<5x?xf32> to memref<5x?xf32, strided<[?, 1]>>
