// Views of buffers: extract_slice is a subview, insert_slice of a slice
// computed in place is no copy at all, reshapes and casts are views unless
// the layout forbids it.
// RUN: xdsl-opt %s -p 'one-shot-bufferize{bufferize-function-boundaries=true}' | filecheck %s
// RUN: xdsl-opt %s -p 'one-shot-bufferize{bufferize-function-boundaries=true test-analysis-only=true}' | filecheck %s --check-prefix=ANALYSIS

func.func @slice_update(%t: tensor<8x8xf32>, %v: f32) -> tensor<8x8xf32> {
  %s = tensor.extract_slice %t[2, 0] [4, 8] [1, 1] : tensor<8x8xf32> to tensor<4x8xf32>
  %f = linalg.fill ins(%v : f32) outs(%s : tensor<4x8xf32>) -> tensor<4x8xf32>
  %r = tensor.insert_slice %f into %t[2, 0] [4, 8] [1, 1] : tensor<4x8xf32> into tensor<8x8xf32>
  return %r : tensor<8x8xf32>
}
// The fill writes the subview of %t it will be inserted into: no copy.
// CHECK-LABEL: func.func @slice_update
// CHECK-NEXT:    %0 = memref.subview %t[2, 0] [4, 8] [1, 1] : memref<8x8xf32, strided<[?, ?], offset: ?>> to memref<4x8xf32, strided<[?, ?], offset: ?>>
// CHECK-NEXT:    linalg.fill ins(%v : f32) outs(%0 : memref<4x8xf32, strided<[?, ?], offset: ?>>)
// CHECK-NEXT:    func.return %t
// ANALYSIS-LABEL: func.func @slice_update
// ANALYSIS:       tensor.extract_slice {{.*}} {__inplace_operands_attr__ = ["true"]}
// ANALYSIS:       __inplace_operands_attr__ = ["none", "true"]
// ANALYSIS:       tensor.insert_slice {{.*}} {__inplace_operands_attr__ = ["true", "true"]}

func.func @slice_read_after(%t: tensor<8xf32>, %v: f32) -> (tensor<8xf32>, tensor<4xf32>) {
  %s = tensor.extract_slice %t[2] [4] [1] : tensor<8xf32> to tensor<4xf32>
  %f = linalg.fill ins(%v : f32) outs(%s : tensor<4xf32>) -> tensor<4xf32>
  %r = tensor.insert_slice %f into %t[2] [4] [1] : tensor<4xf32> into tensor<8xf32>
  %again = tensor.extract_slice %t[0] [4] [1] : tensor<8xf32> to tensor<4xf32>
  return %r, %again : tensor<8xf32>, tensor<4xf32>
}
// %t is read again after the insertion: the insertion goes into a copy of
// %t, and the fill into a buffer of its own, copied into it.
// CHECK-LABEL: func.func @slice_read_after
// CHECK:         %1 = memref.alloc() {alignment = 64 : i64} : memref<4xf32>
// CHECK-NEXT:    linalg.fill ins(%v : f32) outs(%1 : memref<4xf32>)
// CHECK-NEXT:    %2 = memref.alloc() {alignment = 64 : i64} : memref<8xf32>
// CHECK-NEXT:    "memref.copy"(%t, %2)
// CHECK-NEXT:    %3 = memref.subview %2[2] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1], offset: 2>>
// CHECK-NEXT:    "memref.copy"(%1, %3)
// CHECK-NEXT:    %4 = memref.subview %t[0] [4] [1]
// CHECK-NEXT:    func.return %2, %4
// ANALYSIS-LABEL: func.func @slice_read_after
// ANALYSIS:       tensor.extract_slice %t[2] [4] [1] {__inplace_operands_attr__ = ["false"]}
// ANALYSIS:       __inplace_operands_attr__ = ["none", "true"]
// ANALYSIS:       tensor.insert_slice {{.*}} {__inplace_operands_attr__ = ["true", "false"]}

func.func @reshape_dyn(%t: tensor<?x4xf32>) -> (tensor<?xf32>, index) {
  %c0 = arith.constant 0 : index
  %c = tensor.collapse_shape %t [[0, 1]] : tensor<?x4xf32> into tensor<?xf32>
  %d = tensor.dim %t, %c0 : tensor<?x4xf32>
  %x = tensor.expand_shape %c [[0, 1]] output_shape [%d, 4] : tensor<?xf32> into tensor<?x4xf32>
  %y = tensor.cast %x : tensor<?x4xf32> to tensor<?x?xf32>
  %e = tensor.empty(%d) : tensor<?xf32>
  %z = tensor.collapse_shape %y [[0, 1]] : tensor<?x?xf32> into tensor<?xf32>
  return %z, %d : tensor<?xf32>, index
}
func.func @strided_collapse(%t: tensor<8x8xf32>) -> tensor<16xf32> {
// An argument's strides are unknown, so collapsing it needs a packed copy;
// the expand_shape, cast and second collapse are views.
// CHECK-LABEL: func.func @reshape_dyn
// CHECK:         %2 = memref.alloc(%1) {alignment = 64 : i64} : memref<?x4xf32>
// CHECK-NEXT:    "memref.copy"(%t, %2)
// CHECK-NEXT:    %3 = memref.collapse_shape %2 {{.*}} : memref<?x4xf32> into memref<?xf32>
// CHECK-NEXT:    %d = memref.dim %t, %c0
// CHECK-NEXT:    %4 = memref.expand_shape %3 {{.*}} output_shape [%d, 4] {rtcheck.origin = "tensor.expand_shape"} : memref<?xf32> into memref<?x4xf32>
// CHECK-NEXT:    %5 = "memref.cast"(%4) : (memref<?x4xf32>) -> memref<?x?xf32>
// CHECK-NEXT:    %6 = memref.collapse_shape %5 {{.*}} : memref<?x?xf32> into memref<?xf32>
// CHECK-NEXT:    func.return %6, %d

  %s = tensor.extract_slice %t[0, 0] [4, 4] [2, 1] : tensor<8x8xf32> to tensor<4x4xf32>
  %c = tensor.collapse_shape %s [[0, 1]] : tensor<4x4xf32> into tensor<16xf32>
  return %c : tensor<16xf32>
}
// A slice with a row step of 2 is not contiguous: collapsed from a copy.
// CHECK-LABEL: func.func @strided_collapse
// CHECK-NEXT:    %0 = memref.subview %t[0, 0] [4, 4] [2, 1]
// CHECK-NEXT:    %1 = memref.alloc() {alignment = 64 : i64} : memref<4x4xf32>
// CHECK-NEXT:    "memref.copy"(%0, %1)
// CHECK-NEXT:    %2 = memref.collapse_shape %1 {{.*}} : memref<4x4xf32> into memref<16xf32>
