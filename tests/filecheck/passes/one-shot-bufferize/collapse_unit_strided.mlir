// Collapsing a group of unit dimensions of a strided view: the collapsed
// stride is that of the group's first dimension when all are unit (MLIR's
// rule; taking the last one gave a type mlir-opt-22 rejects; found by
// make fuzz, seed 9687).
// RUN: xdsl-opt %s -p 'one-shot-bufferize{bufferize-function-boundaries=true function-boundary-type-conversion=identity-layout-map}' | filecheck %s

func.func @collapse_unit_slice(%t: tensor<3x3xf32>) -> tensor<1xf32> {
  %s = tensor.extract_slice %t[1, 2] [1, 1] [1, 1] : tensor<3x3xf32> to tensor<1x1xf32>
  %c = tensor.collapse_shape %s [[0, 1]] : tensor<1x1xf32> into tensor<1xf32>
  return %c : tensor<1xf32>
}

// CHECK-LABEL: func.func @collapse_unit_slice(
// CHECK:         %[[VIEW:.*]] = memref.subview %{{.*}}[1, 2] [1, 1] [1, 1] : memref<3x3xf32> to memref<1x1xf32, strided<[3, 1], offset: 5>>
// CHECK:         memref.collapse_shape %[[VIEW]] {{\[}}[0 : i64, 1 : i64]] : memref<1x1xf32, strided<[3, 1], offset: 5>> into memref<1xf32, strided<[3], offset: 5>>
