// A rank-reducing insertion: the slice has the source's (reduced) type and
// the insertion's offsets, sizes and strides, static and dynamic.
// RUN: xdsl-opt %s -p eliminate-empty-tensors | filecheck %s

// CHECK-LABEL: func.func @row
func.func @row(%x: tensor<8xf32>, %dest: tensor<6x8xf32>, %i: index) -> tensor<6x8xf32> {
  %e = tensor.empty() : tensor<8xf32>
  %neg = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%x : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %n = arith.negf %in : f32
    linalg.yield %n : f32
  } -> tensor<8xf32>
  %r = tensor.insert_slice %neg into %dest[%i, 0] [1, 8] [1, 1] : tensor<8xf32> into tensor<6x8xf32>
  return %r : tensor<6x8xf32>
}
// CHECK-NOT:  tensor.empty
// CHECK:      %[[S:.*]] = tensor.extract_slice %dest[%i, 0] [1, 8] [1, 1] : tensor<6x8xf32> to tensor<8xf32>
// CHECK-NEXT: %neg = linalg.generic {{.*}} outs(%[[S]] : tensor<8xf32>)
// CHECK:      tensor.insert_slice %neg into %dest[%i, 0] [1, 8] [1, 1] : tensor<8xf32> into tensor<6x8xf32>

// Strided, the middle dimension dropped, dynamic sizes: a column of every
// other plane.
// CHECK-LABEL: func.func @strided_column
func.func @strided_column(%dest: tensor<8x5x?xf32>, %v: f32, %j: index) -> tensor<8x5x?xf32> {
  %c2 = arith.constant 2 : index
  %n = tensor.dim %dest, %c2 : tensor<8x5x?xf32>
  %e = tensor.empty(%n) : tensor<4x?xf32>
  %f = linalg.fill ins(%v : f32) outs(%e : tensor<4x?xf32>) -> tensor<4x?xf32>
  %r = tensor.insert_slice %f into %dest[1, %j, 0] [4, 1, %n] [2, 1, 1] : tensor<4x?xf32> into tensor<8x5x?xf32>
  return %r : tensor<8x5x?xf32>
}
// CHECK-NOT:  tensor.empty
// CHECK:      %n = tensor.dim %dest, %c2 : tensor<8x5x?xf32>
// CHECK-NEXT: %[[S:.*]] = tensor.extract_slice %dest[1, %j, 0] [4, 1, %n] [2, 1, 1] : tensor<8x5x?xf32> to tensor<4x?xf32>
// CHECK-NEXT: %f = linalg.fill ins(%v : f32) outs(%[[S]] : tensor<4x?xf32>)
// CHECK-NEXT: tensor.insert_slice %f into %dest[1, %j, 0] [4, 1, %n] [2, 1, 1] : tensor<4x?xf32> into tensor<8x5x?xf32>
