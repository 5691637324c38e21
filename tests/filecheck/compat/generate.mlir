// Round trip of tensor.generate: the dynamic extents, the body (one index
// argument per dimension, ending in tensor.yield), attributes, the type.
// (mlir-opt-22 prints two spaces after `tensor.generate` when there are no
// extents; one is printed here.)
// RUN: linalg-ext-opt %s | filecheck %s
// RUN: linalg-ext-opt %s | linalg-ext-opt | filecheck %s
// RUN: linalg-ext-opt %s --print-op-generic | linalg-ext-opt | filecheck %s

// CHECK-LABEL: func.func @generate
func.func @generate(%rows: index, %source: tensor<?xf32>, %fill: f32) -> (tensor<?x3xf32>, tensor<4xf32>, tensor<?x?xf32>) {
  %gathered = tensor.generate %rows {
  ^bb0(%i: index, %j: index):
    %v = tensor.extract %source[%i] : tensor<?xf32>
    tensor.yield %v : f32
  } : tensor<?x3xf32>
  %static = tensor.generate {
  ^bb0(%k: index):
    tensor.yield %fill : f32
  } {tag} : tensor<4xf32>
  %square = tensor.generate %rows, %rows {
  ^bb0(%r: index, %c: index):
    tensor.yield %fill : f32
  } : tensor<?x?xf32>
  return %gathered, %static, %square : tensor<?x3xf32>, tensor<4xf32>, tensor<?x?xf32>
}
// CHECK-NEXT: %gathered = tensor.generate %rows {
// CHECK-NEXT: ^bb0(%i: index, %j: index):
// CHECK-NEXT:   %v = tensor.extract %source[%i] : tensor<?xf32>
// CHECK-NEXT:   tensor.yield %v : f32
// CHECK-NEXT: } : tensor<?x3xf32>
// CHECK-NEXT: %static = tensor.generate {
// CHECK-NEXT: ^bb0(%k: index):
// CHECK-NEXT:   tensor.yield %fill : f32
// CHECK-NEXT: } {tag} : tensor<4xf32>
// CHECK-NEXT: %square = tensor.generate %rows, %rows {
// CHECK-NEXT: ^bb0(%r: index, %c: index):
// CHECK-NEXT:   tensor.yield %fill : f32
// CHECK-NEXT: } : tensor<?x?xf32>
