// Slices of slices, rank-reducing slices, dynamic shapes, a producer with
// another use, and consumers that are not tiled.
// RUN: xdsl-opt %s -p test-linalg-greedy-fusion | filecheck %s

#id1 = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>

// The consumer, tiled by hand into rows and then into 4-wide pieces, reads a
// rank-reduced slice (tensor<4xf32>) of a slice (one row) of the producer:
// the offsets compose to [%i, %j], the producer's 1×4 tile is computed and
// rank-reduced by an extract_slice of the whole tile.
// CHECK-LABEL: func.func @slice_of_slice
func.func @slice_of_slice(%x: tensor<8x16xf32>, %init: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %three = arith.constant 3.0 : f32
  %empty = tensor.empty() : tensor<8x16xf32>
  %p = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<8x16xf32>) outs(%empty : tensor<8x16xf32>) {
  ^bb0(%a: f32, %o: f32):
    %e = math.exp %a : f32
    linalg.yield %e : f32
  } -> tensor<8x16xf32>
  %r = scf.for %i = %c0 to %c8 step %c1 iter_args(%acc = %init) -> (tensor<8x16xf32>) {
    %panel = tensor.extract_slice %p[%i, 0] [1, 16] [1, 1] : tensor<8x16xf32> to tensor<1x16xf32>
    %row = scf.for %j = %c0 to %c16 step %c4 iter_args(%acc2 = %acc) -> (tensor<8x16xf32>) {
      %piece = tensor.extract_slice %panel[0, %j] [1, 4] [1, 1] : tensor<1x16xf32> to tensor<4xf32>
      %out = tensor.extract_slice %acc2[%i, %j] [1, 4] [1, 1] : tensor<8x16xf32> to tensor<4xf32>
      %t = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
          ins(%piece : tensor<4xf32>) outs(%out : tensor<4xf32>) {
      ^bb0(%a: f32, %o: f32):
        %m = arith.mulf %a, %three : f32
        linalg.yield %m : f32
      } -> tensor<4xf32>
      %u = tensor.insert_slice %t into %acc2[%i, %j] [1, 4] [1, 1] : tensor<4xf32> into tensor<8x16xf32>
      scf.yield %u : tensor<8x16xf32>
    }
    scf.yield %row : tensor<8x16xf32>
  }
  return %r : tensor<8x16xf32>
}
// CHECK:          %r = scf.for %i = %c0 to %c8 step %c1 iter_args(%acc = %init) -> (tensor<8x16xf32>) {
// CHECK-NEXT:       %row = scf.for %j = %c0 to %c16 step %c4 iter_args(%acc2 = %acc) -> (tensor<8x16xf32>) {
// CHECK-NEXT:         %[[X:.*]] = tensor.extract_slice %x[%i, %j] [1, 4] [1, 1] : tensor<8x16xf32> to tensor<1x4xf32>
// CHECK-NEXT:         %[[E:.*]] = tensor.empty() : tensor<1x4xf32>
// CHECK-NEXT:         %[[P:.*]] = linalg.generic {{.*}} ins(%[[X]] : tensor<1x4xf32>) outs(%[[E]] : tensor<1x4xf32>) {
// CHECK:              math.exp
// CHECK:            } -> tensor<1x4xf32>
// CHECK-NEXT:         %piece = tensor.extract_slice %[[P]][0, 0] [1, 4] [1, 1] : tensor<1x4xf32> to tensor<4xf32>
// CHECK-NEXT:         %out = tensor.extract_slice %acc2[%i, %j] [1, 4] [1, 1] : tensor<8x16xf32> to tensor<4xf32>
// CHECK-NEXT:         %t = linalg.generic {{.*}} ins(%piece : tensor<4xf32>) outs(%out : tensor<4xf32>) {
// CHECK-NOT:      %panel

// Dynamic sizes, a tile size that need not divide them (affine.min), and a
// producer that is also returned: it stays for that use.
// CHECK-LABEL: func.func @dynamic_with_other_use
func.func @dynamic_with_other_use(%x: tensor<?x?xf32>) -> (tensor<?x?xf32>, tensor<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %m = tensor.dim %x, %c0 : tensor<?x?xf32>
  %n = tensor.dim %x, %c1 : tensor<?x?xf32>
  %empty = tensor.empty(%m, %n) : tensor<?x?xf32>
  %p = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<?x?xf32>) outs(%empty : tensor<?x?xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.negf %a : f32
    linalg.yield %s : f32
  } -> tensor<?x?xf32>
  %r = scf.for %i = %c0 to %m step %c3 iter_args(%acc = %empty) -> (tensor<?x?xf32>) {
    %size = affine.min affine_map<(d0)[s0] -> (3, s0 - d0)> (%i)[%m]
    %tile = tensor.extract_slice %p[%i, 0] [%size, %n] [1, 1] : tensor<?x?xf32> to tensor<?x?xf32>
    %out = tensor.extract_slice %acc[%i, 0] [%size, %n] [1, 1] : tensor<?x?xf32> to tensor<?x?xf32>
    %t = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
        ins(%tile : tensor<?x?xf32>) outs(%out : tensor<?x?xf32>) {
    ^bb0(%a: f32, %o: f32):
      %sq = arith.mulf %a, %a : f32
      linalg.yield %sq : f32
    } -> tensor<?x?xf32>
    %u = tensor.insert_slice %t into %acc[%i, 0] [%size, %n] [1, 1] : tensor<?x?xf32> into tensor<?x?xf32>
    scf.yield %u : tensor<?x?xf32>
  }
  return %r, %p : tensor<?x?xf32>, tensor<?x?xf32>
}
// CHECK:          %p = linalg.generic {{.*}} ins(%x : tensor<?x?xf32>) outs(%empty : tensor<?x?xf32>) {
// CHECK:          %r = scf.for %i = %c0 to %m step %c3 iter_args(%acc = %empty) -> (tensor<?x?xf32>) {
// CHECK-NEXT:       %size = affine.min
// CHECK-NEXT:       %[[X:.*]] = tensor.extract_slice %x[%i, 0] [%size, %n] [1, 1] : tensor<?x?xf32> to tensor<?x?xf32>
// CHECK-NEXT:       %[[E:.*]] = tensor.empty(%size, %n) : tensor<?x?xf32>
// CHECK-NEXT:       %tile = linalg.generic {{.*}} ins(%[[X]] : tensor<?x?xf32>) outs(%[[E]] : tensor<?x?xf32>) {
// CHECK:            arith.negf
// CHECK:            %t = linalg.generic {{.*}} ins(%tile : tensor<?x?xf32>)
// CHECK:          func.return %r, %p : tensor<?x?xf32>, tensor<?x?xf32>

// No loops: a consumer reading a slice in the producer's own block is left
// alone (there is nothing to fuse into), as upstream does.
// CHECK-LABEL: func.func @untiled
func.func @untiled(%x: tensor<8xf32>) -> tensor<4xf32> {
  %empty = tensor.empty() : tensor<8xf32>
  %p = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
      ins(%x : tensor<8xf32>) outs(%empty : tensor<8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.negf %a : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  %half = tensor.extract_slice %p[2] [4] [1] : tensor<8xf32> to tensor<4xf32>
  %empty4 = tensor.empty() : tensor<4xf32>
  %q = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
      ins(%half : tensor<4xf32>) outs(%empty4 : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.mulf %a, %a : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  return %q : tensor<4xf32>
}
// CHECK:       %p = linalg.generic
// CHECK:       %half = tensor.extract_slice %p[2] [4] [1] : tensor<8xf32> to tensor<4xf32>
// CHECK:       %q = linalg.generic {{.*}} ins(%half : tensor<4xf32>)
