// A pad written out by hand (or by a pad decomposition): the padded tensor
// is filled, the producer computes into a tensor.empty of the interior's
// size, and that is inserted into the filled tensor. The producer's init
// becomes the interior of the filled tensor, as `fuse-pad` builds it, so
// bufferized there is one allocation and no copy.
// RUN: xdsl-opt %s -p eliminate-empty-tensors | filecheck %s

#id = affine_map<(d0, d1) -> (d0, d1)>

// CHECK-LABEL: func.func @static_pad
func.func @static_pad(%x: tensor<4x6xf32>, %v: f32) -> tensor<7x9xf32> {
  %outer = tensor.empty() : tensor<7x9xf32>
  %filled = linalg.fill ins(%v : f32) outs(%outer : tensor<7x9xf32>) -> tensor<7x9xf32>
  %inner = tensor.empty() : tensor<4x6xf32>
  %sq = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x6xf32>) outs(%inner : tensor<4x6xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.mulf %in, %in : f32
    linalg.yield %m : f32
  } -> tensor<4x6xf32>
  %padded = tensor.insert_slice %sq into %filled[1, 2] [4, 6] [1, 1] : tensor<4x6xf32> into tensor<7x9xf32>
  return %padded : tensor<7x9xf32>
}
// CHECK:      %outer = tensor.empty() : tensor<7x9xf32>
// CHECK-NEXT: %filled = linalg.fill ins(%v : f32) outs(%outer : tensor<7x9xf32>) -> tensor<7x9xf32>
// CHECK-NEXT: %[[S:.*]] = tensor.extract_slice %filled[1, 2] [4, 6] [1, 1] : tensor<7x9xf32> to tensor<4x6xf32>
// CHECK-NEXT: %sq = linalg.generic {{.*}} ins(%x : tensor<4x6xf32>) outs(%[[S]] : tensor<4x6xf32>)
// CHECK:      %padded = tensor.insert_slice %sq into %filled[1, 2] [4, 6] [1, 1]
// CHECK-NOT:  tensor.empty

// Dynamic sizes and offsets, the interior's empty made before the fill: the
// slice goes right after the fill, the first point where all it needs is
// defined.
// CHECK-LABEL: func.func @dynamic_pad
func.func @dynamic_pad(%x: tensor<?x?xf32>, %lo0: index, %lo1: index, %hi0: index, %hi1: index, %v: f32) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %h = tensor.dim %x, %c0 : tensor<?x?xf32>
  %w = tensor.dim %x, %c1 : tensor<?x?xf32>
  %inner = tensor.empty(%h, %w) : tensor<?x?xf32>
  %ph = affine.apply affine_map<()[s0, s1, s2] -> (s0 + s1 + s2)> ()[%h, %lo0, %hi0]
  %pw = affine.apply affine_map<()[s0, s1, s2] -> (s0 + s1 + s2)> ()[%w, %lo1, %hi1]
  %outer = tensor.empty(%ph, %pw) : tensor<?x?xf32>
  %filled = linalg.fill ins(%v : f32) outs(%outer : tensor<?x?xf32>) -> tensor<?x?xf32>
  %sq = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<?x?xf32>) outs(%inner : tensor<?x?xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.mulf %in, %in : f32
    linalg.yield %m : f32
  } -> tensor<?x?xf32>
  %padded = tensor.insert_slice %sq into %filled[%lo0, %lo1] [%h, %w] [1, 1] : tensor<?x?xf32> into tensor<?x?xf32>
  return %padded : tensor<?x?xf32>
}
// CHECK:      %outer = tensor.empty(%ph, %pw) : tensor<?x?xf32>
// CHECK-NEXT: %filled = linalg.fill ins(%v : f32) outs(%outer : tensor<?x?xf32>) -> tensor<?x?xf32>
// CHECK-NEXT: %[[S:.*]] = tensor.extract_slice %filled[%lo0, %lo1] [%h, %w] [1, 1] : tensor<?x?xf32> to tensor<?x?xf32>
// CHECK-NEXT: %sq = linalg.generic {{.*}} ins(%x : tensor<?x?xf32>) outs(%[[S]] : tensor<?x?xf32>)
// CHECK:      %padded = tensor.insert_slice %sq into %filled[%lo0, %lo1] [%h, %w] [1, 1]
// CHECK-NOT:  tensor.empty

// The border filled slab by slab, each slab an insert_slice of a filled
// empty: every one of them writes into the padded tensor's slab instead.
// CHECK-LABEL: func.func @border_slabs
func.func @border_slabs(%x: tensor<4xf32>, %v: f32) -> tensor<7xf32> {
  %outer = tensor.empty() : tensor<7xf32>
  %e_low = tensor.empty() : tensor<1xf32>
  %low = linalg.fill ins(%v : f32) outs(%e_low : tensor<1xf32>) -> tensor<1xf32>
  %with_low = tensor.insert_slice %low into %outer[0] [1] [1] : tensor<1xf32> into tensor<7xf32>
  %e_high = tensor.empty() : tensor<2xf32>
  %high = linalg.fill ins(%v : f32) outs(%e_high : tensor<2xf32>) -> tensor<2xf32>
  %with_high = tensor.insert_slice %high into %with_low[5] [2] [1] : tensor<2xf32> into tensor<7xf32>
  %padded = tensor.insert_slice %x into %with_high[1] [4] [1] : tensor<4xf32> into tensor<7xf32>
  return %padded : tensor<7xf32>
}
// CHECK:      %outer = tensor.empty() : tensor<7xf32>
// CHECK-NEXT: %[[L:.*]] = tensor.extract_slice %outer[0] [1] [1] : tensor<7xf32> to tensor<1xf32>
// CHECK-NEXT: %low = linalg.fill ins(%v : f32) outs(%[[L]] : tensor<1xf32>)
// CHECK-NEXT: %with_low = tensor.insert_slice %low into %outer[0] [1] [1]
// CHECK-NEXT: %[[H:.*]] = tensor.extract_slice %with_low[5] [2] [1] : tensor<7xf32> to tensor<2xf32>
// CHECK-NEXT: %high = linalg.fill ins(%v : f32) outs(%[[H]] : tensor<2xf32>)
// CHECK-NEXT: %with_high = tensor.insert_slice %high into %with_low[5] [2] [1]
// CHECK-NEXT: %padded = tensor.insert_slice %x into %with_high[1] [4] [1]
