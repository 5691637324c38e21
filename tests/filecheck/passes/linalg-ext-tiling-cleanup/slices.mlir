// Slices the tiling drivers stack up: a slice of a slice is one slice of
// the original (offsets added), also when the inner one is rank-reducing;
// writing back an unchanged slice is no write; a slice that is the whole
// static tensor is the tensor; constant offsets and sizes become static.
// RUN: xdsl-opt %s -p linalg-ext-tiling-cleanup | filecheck %s

// CHECK-LABEL: func.func @slice_of_slice
// CHECK-NEXT:  %[[I:.*]] = affine.apply affine_map<()[s0] -> ((s0 + 1))> ()[%i]
// CHECK-NEXT:  %[[J:.*]] = affine.apply affine_map<()[s0] -> ((s0 + 2))> ()[%j]
// CHECK-NEXT:  %[[S:.*]] = tensor.extract_slice %t[%[[I]], %[[J]]] [2, 3] [1, 1] : tensor<16x16xf32> to tensor<2x3xf32>
// CHECK-NEXT:  func.return %[[S]]
func.func @slice_of_slice(%t: tensor<16x16xf32>, %i: index, %j: index) -> tensor<2x3xf32> {
  %a = tensor.extract_slice %t[%i, 2] [8, 8] [1, 1] : tensor<16x16xf32> to tensor<8x8xf32>
  %b = tensor.extract_slice %a[1, %j] [2, 3] [1, 1] : tensor<8x8xf32> to tensor<2x3xf32>
  return %b : tensor<2x3xf32>
}

// Static offsets add without any index arithmetic.
// CHECK-LABEL: func.func @static_slice_of_slice
// CHECK-NEXT:  %[[S:.*]] = tensor.extract_slice %t[5, 7] [4, 2] [1, 1] : tensor<16x16xf32> to tensor<4x2xf32>
// CHECK-NEXT:  func.return %[[S]]
func.func @static_slice_of_slice(%t: tensor<16x16xf32>) -> tensor<4x2xf32> {
  %a = tensor.extract_slice %t[4, 4] [8, 8] [1, 1] : tensor<16x16xf32> to tensor<8x8xf32>
  %b = tensor.extract_slice %a[1, 3] [4, 2] [1, 1] : tensor<8x8xf32> to tensor<4x2xf32>
  return %b : tensor<4x2xf32>
}

// The inner slice drops the unit row: the merged slice keeps it at size 1
// and drops it again.
// CHECK-LABEL: func.func @slice_of_rank_reducing_slice
// CHECK-NEXT:  %[[S:.*]] = tensor.extract_slice %t[%i, 2] [1, 4] [1, 1] : tensor<16x16xf32> to tensor<4xf32>
// CHECK-NEXT:  func.return %[[S]]
func.func @slice_of_rank_reducing_slice(%t: tensor<16x16xf32>, %i: index) -> tensor<4xf32> {
  %a = tensor.extract_slice %t[%i, 0] [1, 8] [1, 1] : tensor<16x16xf32> to tensor<8xf32>
  %b = tensor.extract_slice %a[2] [4] [1] : tensor<8xf32> to tensor<4xf32>
  return %b : tensor<4xf32>
}

// The outer slice is the rank-reducing one: the merged slice drops the same
// unit dimension.
// CHECK-LABEL: func.func @rank_reducing_slice_of_slice
// CHECK-NEXT:  %[[J:.*]] = affine.apply affine_map<()[s0] -> ((s0 + 2))> ()[%j]
// CHECK-NEXT:  %[[S:.*]] = tensor.extract_slice %t[5, %[[J]]] [1, 4] [1, 1] : tensor<16x16xf32> to tensor<4xf32>
// CHECK-NEXT:  func.return %[[S]]
func.func @rank_reducing_slice_of_slice(%t: tensor<16x16xf32>, %j: index) -> tensor<4xf32> {
  %a = tensor.extract_slice %t[4, 2] [8, 8] [1, 1] : tensor<16x16xf32> to tensor<8x8xf32>
  %b = tensor.extract_slice %a[1, %j] [1, 4] [1, 1] : tensor<8x8xf32> to tensor<4xf32>
  return %b : tensor<4xf32>
}

// Strided slices are left alone.
// CHECK-LABEL: func.func @strided_slice_of_slice
// CHECK-NEXT:  tensor.extract_slice %t[0, 0] [8, 8] [2, 2]
// CHECK-NEXT:  tensor.extract_slice
func.func @strided_slice_of_slice(%t: tensor<16x16xf32>) -> tensor<2x2xf32> {
  %a = tensor.extract_slice %t[0, 0] [8, 8] [2, 2] : tensor<16x16xf32> to tensor<8x8xf32>
  %b = tensor.extract_slice %a[1, 1] [2, 2] [1, 1] : tensor<8x8xf32> to tensor<2x2xf32>
  return %b : tensor<2x2xf32>
}

// A loop that writes back each tile unchanged does nothing: the loop goes.
// CHECK-LABEL: func.func @unchanged_write_back
// CHECK-NEXT:  func.return %t
func.func @unchanged_write_back(%t: tensor<16x8xf32>) -> tensor<16x8xf32> {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %r = scf.for %iv = %c0 to %c16 step %c4 iter_args(%acc = %t) -> (tensor<16x8xf32>) {
    %s = tensor.extract_slice %acc[%iv, 0] [4, 8] [1, 1] : tensor<16x8xf32> to tensor<4x8xf32>
    %w = tensor.insert_slice %s into %acc[%iv, 0] [4, 8] [1, 1] : tensor<4x8xf32> into tensor<16x8xf32>
    scf.yield %w : tensor<16x8xf32>
  }
  return %r : tensor<16x8xf32>
}

// Written back elsewhere, or into another tensor: kept (the two equal
// slices are one after CSE).
// CHECK-LABEL: func.func @changed_write_back
// CHECK-NEXT:  %[[S:.*]] = tensor.extract_slice %t[0, 0] [4, 8] [1, 1]
// CHECK-NEXT:  tensor.insert_slice %[[S]] into %t[4, 0] [4, 8] [1, 1]
// CHECK-NEXT:  tensor.insert_slice %[[S]] into %u[0, 0] [4, 8] [1, 1]
func.func @changed_write_back(%t: tensor<16x8xf32>, %u: tensor<16x8xf32>) -> (tensor<16x8xf32>, tensor<16x8xf32>) {
  %s = tensor.extract_slice %t[0, 0] [4, 8] [1, 1] : tensor<16x8xf32> to tensor<4x8xf32>
  %w = tensor.insert_slice %s into %t[4, 0] [4, 8] [1, 1] : tensor<4x8xf32> into tensor<16x8xf32>
  %s2 = tensor.extract_slice %t[0, 0] [4, 8] [1, 1] : tensor<16x8xf32> to tensor<4x8xf32>
  %w2 = tensor.insert_slice %s2 into %u[0, 0] [4, 8] [1, 1] : tensor<4x8xf32> into tensor<16x8xf32>
  return %w, %w2 : tensor<16x8xf32>, tensor<16x8xf32>
}

// CHECK-LABEL: func.func @whole_slices
// CHECK-NEXT:  func.return %u, %t
func.func @whole_slices(%t: tensor<4x6xf32>, %u: tensor<4x6xf32>) -> (tensor<4x6xf32>, tensor<4x6xf32>) {
  %a = tensor.extract_slice %t[0, 0] [4, 6] [1, 1] : tensor<4x6xf32> to tensor<4x6xf32>
  %b = tensor.insert_slice %u into %a[0, 0] [4, 6] [1, 1] : tensor<4x6xf32> into tensor<4x6xf32>
  return %b, %a : tensor<4x6xf32>, tensor<4x6xf32>
}

// Constant offsets and sizes become static; the more static slice is cast
// back for its users, and the insertion takes the static slice itself.
// CHECK-LABEL: func.func @constant_operands
// CHECK-NEXT:  %[[S:.*]] = tensor.extract_slice %t[1, 2] [2, 3] [1, 1] : tensor<8x8xf32> to tensor<2x3xf32>
// CHECK-NEXT:  %[[C:.*]] = tensor.cast %[[S]] : tensor<2x3xf32> to tensor<?x?xf32>
// CHECK-NEXT:  %[[I:.*]] = tensor.insert_slice %[[S]] into %u[0, 0] [2, 3] [1, 1] : tensor<2x3xf32> into tensor<8x8xf32>
// CHECK-NEXT:  func.return %[[I]], %[[C]]
func.func @constant_operands(%t: tensor<8x8xf32>, %u: tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %s = tensor.extract_slice %t[%c1, %c2] [%c2, %c3] [1, 1] : tensor<8x8xf32> to tensor<?x?xf32>
  %i = tensor.insert_slice %s into %u[%c0, %c0] [%c2, %c3] [1, 1] : tensor<?x?xf32> into tensor<8x8xf32>
  return %i, %s : tensor<8x8xf32>, tensor<?x?xf32>
}
