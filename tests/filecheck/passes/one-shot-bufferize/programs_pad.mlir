// tensor.pad through one-shot-bufferize: a new buffer, filled with the pad
// value (linalg.fill when the body yields one value, a linalg.generic over
// linalg.index otherwise), and the source copied into its interior. The
// unfused pad of a generic costs the generic's own buffer and that copy;
// its fused forms (programs.mlir: @pad_fused, @pad_fused_border) have one
// allocation and no copy.
// RUN: xdsl-opt %s -p 'one-shot-bufferize{bufferize-function-boundaries=true}' | filecheck %s
// RUN: xdsl-opt %s -p 'one-shot-bufferize{bufferize-function-boundaries=true test-analysis-only=true}' | filecheck %s --check-prefix=ANALYSIS

#id2 = affine_map<(i, j) -> (i, j)>

// The input of `fuse-pad` for programs.mlir's @pad_fused.
func.func @pad_unfused(%x: tensor<4x6xf32>, %v: f32) -> tensor<6x9xf32> {
  %e = tensor.empty() : tensor<4x6xf32>
  %r = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x6xf32>) outs(%e : tensor<4x6xf32>) {
  ^bb0(%in: f32, %o: f32):
    %n = arith.negf %in : f32
    linalg.yield %n : f32
  } -> tensor<4x6xf32>
  %padded = tensor.pad %r low[1, 2] high[1, 1] {
  ^bb0(%i: index, %j: index):
    tensor.yield %v : f32
  } : tensor<4x6xf32> to tensor<6x9xf32>
  return %padded : tensor<6x9xf32>
}
// CHECK-LABEL: func.func @pad_unfused
// CHECK-NEXT:    %[[R:.*]] = memref.alloc() {alignment = 64 : i64} : memref<4x6xf32>
// CHECK-NEXT:    linalg.generic {{.*}} outs(%[[R]] : memref<4x6xf32>)
// CHECK:         %[[P:.*]] = memref.alloc() {alignment = 64 : i64} : memref<6x9xf32>
// CHECK-NEXT:    linalg.fill ins(%v : f32) outs(%[[P]] : memref<6x9xf32>)
// CHECK-NEXT:    %[[I:.*]] = memref.subview %[[P]][1, 2] [4, 6] [1, 1] : memref<6x9xf32> to memref<4x6xf32, strided<[9, 1], offset: 11>>
// CHECK-NEXT:    memref.copy{{.*}}%[[R]], %[[I]]
// CHECK-NEXT:    func.return %[[P]] : memref<6x9xf32>
// ANALYSIS-LABEL: func.func @pad_unfused
// ANALYSIS:       attrs = {__inplace_operands_attr__ = ["true", "true"]}
// ANALYSIS:       } {__inplace_operands_attr__ = ["true"]} : tensor<4x6xf32> to tensor<6x9xf32>
// ANALYSIS-NEXT:  func.return {__inplace_operands_attr__ = ["true"]}

// A read-only use of an argument: the argument itself is copied in.
func.func @pad_argument(%x: tensor<4x6xf32>, %v: f32) -> tensor<6x9xf32> {
  %padded = tensor.pad %x low[1, 2] high[1, 1] {
  ^bb0(%i: index, %j: index):
    tensor.yield %v : f32
  } : tensor<4x6xf32> to tensor<6x9xf32>
  return %padded : tensor<6x9xf32>
}
// CHECK-LABEL: func.func @pad_argument
// CHECK-NEXT:    %[[P:.*]] = memref.alloc() {alignment = 64 : i64} : memref<6x9xf32>
// CHECK-NEXT:    linalg.fill ins(%v : f32) outs(%[[P]] : memref<6x9xf32>)
// CHECK-NEXT:    %[[I:.*]] = memref.subview %[[P]][1, 2] [4, 6] [1, 1]
// CHECK-NEXT:    memref.copy{{.*}}%x, %[[I]]
// CHECK-NEXT:    func.return %[[P]] : memref<6x9xf32>
// ANALYSIS-LABEL: func.func @pad_argument(%x: tensor<4x6xf32> {bufferization.access = "read"}, %v: f32)

// A pad value computed from the position.
func.func @pad_index_dependent(%x: tensor<3x4xf32>) -> tensor<5x5xf32> {
  %padded = tensor.pad %x low[1, 0] high[1, 1] {
  ^bb0(%i: index, %j: index):
    %s = arith.addi %i, %j : index
    %k = arith.index_cast %s : index to i32
    %f = arith.sitofp %k : i32 to f32
    tensor.yield %f : f32
  } : tensor<3x4xf32> to tensor<5x5xf32>
  return %padded : tensor<5x5xf32>
}
// CHECK-LABEL: func.func @pad_index_dependent
// CHECK-NEXT:    %[[P:.*]] = memref.alloc() {alignment = 64 : i64} : memref<5x5xf32>
// CHECK-NEXT:    linalg.generic {{.*}} outs(%[[P]] : memref<5x5xf32>)
// CHECK:           linalg.index 0
// CHECK-NEXT:      linalg.index 1
// CHECK:         %[[I:.*]] = memref.subview %[[P]][1, 0] [3, 4] [1, 1]
// CHECK-NEXT:    memref.copy{{.*}}%x, %[[I]]
// CHECK-NEXT:    func.return %[[P]] : memref<5x5xf32>
