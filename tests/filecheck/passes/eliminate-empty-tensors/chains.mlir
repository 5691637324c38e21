// The computation that fills a tensor.empty is redirected into the slice of
// the destination its result is inserted into: one generic, a chain of two,
// the second result of a two-output generic, a linalg_ext op, and an
// insert_slice into the empty. The empty goes when nothing else uses it.
// RUN: xdsl-opt %s -p eliminate-empty-tensors | filecheck %s

#id = affine_map<(d0, d1) -> (d0, d1)>

// CHECK-LABEL: func.func @one_generic
func.func @one_generic(%x: tensor<4x8xf32>, %dest: tensor<10x8xf32>) -> tensor<10x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %sq = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.mulf %in, %in : f32
    linalg.yield %m : f32
  } -> tensor<4x8xf32>
  %r = tensor.insert_slice %sq into %dest[3, 0] [4, 8] [1, 1] : tensor<4x8xf32> into tensor<10x8xf32>
  return %r : tensor<10x8xf32>
}
// CHECK-NOT:  tensor.empty
// CHECK:      %[[S:.*]] = tensor.extract_slice %dest[3, 0] [4, 8] [1, 1] : tensor<10x8xf32> to tensor<4x8xf32>
// CHECK-NEXT: %sq = linalg.generic {{.*}} ins(%x : tensor<4x8xf32>) outs(%[[S]] : tensor<4x8xf32>)
// CHECK:      %r = tensor.insert_slice %sq into %dest[3, 0] [4, 8] [1, 1]

// Two generics in a row: the first one's init is the end of the chain.
// CHECK-LABEL: func.func @two_generics
func.func @two_generics(%x: tensor<4x8xf32>, %dest: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %sq = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.mulf %in, %in : f32
    linalg.yield %m : f32
  } -> tensor<4x8xf32>
  %plus = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x8xf32>) outs(%sq : tensor<4x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %a = arith.addf %in, %out : f32
    linalg.yield %a : f32
  } -> tensor<4x8xf32>
  %r = tensor.insert_slice %plus into %dest[0, 8] [4, 8] [1, 1] : tensor<4x8xf32> into tensor<4x16xf32>
  return %r : tensor<4x16xf32>
}
// CHECK-NOT:  tensor.empty
// CHECK:      %[[S:.*]] = tensor.extract_slice %dest[0, 8] [4, 8] [1, 1] : tensor<4x16xf32> to tensor<4x8xf32>
// CHECK-NEXT: %sq = linalg.generic {{.*}} outs(%[[S]] : tensor<4x8xf32>)
// CHECK:      %plus = linalg.generic {{.*}} outs(%sq : tensor<4x8xf32>)
// CHECK:      tensor.insert_slice %plus into %dest[0, 8] [4, 8] [1, 1]

// Only the init of the inserted result is replaced.
// CHECK-LABEL: func.func @second_result
func.func @second_result(%x: tensor<4x8xf32>, %dest: tensor<10x8xf32>) -> (tensor<10x8xf32>, tensor<4x8xf32>) {
  %e0 = tensor.empty() : tensor<4x8xf32>
  %e1 = tensor.empty() : tensor<4x8xf32>
  %g:2 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x8xf32>) outs(%e0, %e1 : tensor<4x8xf32>, tensor<4x8xf32>) {
  ^bb0(%in: f32, %o0: f32, %o1: f32):
    %m = arith.mulf %in, %in : f32
    %n = arith.negf %in : f32
    linalg.yield %m, %n : f32, f32
  } -> (tensor<4x8xf32>, tensor<4x8xf32>)
  %r = tensor.insert_slice %g#1 into %dest[6, 0] [4, 8] [1, 1] : tensor<4x8xf32> into tensor<10x8xf32>
  return %r, %g#0 : tensor<10x8xf32>, tensor<4x8xf32>
}
// CHECK:      %e0 = tensor.empty() : tensor<4x8xf32>
// CHECK-NEXT: %[[S:.*]] = tensor.extract_slice %dest[6, 0] [4, 8] [1, 1]
// CHECK-NEXT: %g, %g_1 = linalg.generic {{.*}} outs(%e0, %[[S]] : tensor<4x8xf32>, tensor<4x8xf32>)
// CHECK-NOT:  tensor.empty

// A linalg_ext op's result is its init updated, as a Linalg op's is.
// CHECK-LABEL: func.func @linalg_ext_op
func.func @linalg_ext_op(%x: tensor<4x8xf32>, %dest: tensor<4x8x8xf32>) -> tensor<4x8x8xf32> {
  %e = tensor.empty() : tensor<4x8x8xf32>
  %d = linalg_ext.diag ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8x8xf32>) : tensor<4x8x8xf32>
  %r = bufferization.materialize_in_destination %d in %dest : (tensor<4x8x8xf32>, tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
  return %r : tensor<4x8x8xf32>
}
// CHECK-NOT:  tensor.empty
// CHECK:      %d = linalg_ext.diag ins(%x : tensor<4x8xf32>) outs(%dest : tensor<4x8x8xf32>)
// CHECK-NEXT: bufferization.materialize_in_destination %d in %dest

// The chain goes through the dest of an insert_slice; the two halves
// written into the empty cover all of it.
// CHECK-LABEL: func.func @halves
func.func @halves(%a: tensor<2x8xf32>, %b: tensor<2x8xf32>, %dest: tensor<10x8xf32>) -> tensor<10x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %top = tensor.insert_slice %a into %e[0, 0] [2, 8] [1, 1] : tensor<2x8xf32> into tensor<4x8xf32>
  %both = tensor.insert_slice %b into %top[2, 0] [2, 8] [1, 1] : tensor<2x8xf32> into tensor<4x8xf32>
  %r = tensor.insert_slice %both into %dest[5, 0] [4, 8] [1, 1] : tensor<4x8xf32> into tensor<10x8xf32>
  return %r : tensor<10x8xf32>
}
// CHECK-NOT:  tensor.empty
// CHECK:      %[[S:.*]] = tensor.extract_slice %dest[5, 0] [4, 8] [1, 1]
// CHECK-NEXT: %top = tensor.insert_slice %a into %[[S]][0, 0] [2, 8] [1, 1]
// CHECK-NEXT: %both = tensor.insert_slice %b into %top[2, 0] [2, 8] [1, 1]
// CHECK-NEXT: %r = tensor.insert_slice %both into %dest[5, 0] [4, 8] [1, 1]

// Through a tensor.cast: the slice, built once the size it needs is
// defined (moved up), is cast to the empty's type.
// CHECK-LABEL: func.func @cast
func.func @cast(%x: tensor<?x8xf32>, %dest: tensor<10x8xf32>) -> tensor<10x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %c = tensor.cast %e : tensor<4x8xf32> to tensor<?x8xf32>
  %sq = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<?x8xf32>) outs(%c : tensor<?x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.mulf %in, %in : f32
    linalg.yield %m : f32
  } -> tensor<?x8xf32>
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x8xf32>
  %r = tensor.insert_slice %sq into %dest[1, 0] [%n, 8] [1, 1] : tensor<?x8xf32> into tensor<10x8xf32>
  return %r : tensor<10x8xf32>
}
// CHECK-NOT:  tensor.empty
// CHECK:      %c0 = arith.constant 0 : index
// CHECK-NEXT: %n = tensor.dim %x, %c0 : tensor<?x8xf32>
// CHECK-NEXT: %[[S:.*]] = tensor.extract_slice %dest[1, 0] [%n, 8] [1, 1] : tensor<10x8xf32> to tensor<?x8xf32>
// CHECK-NEXT: %[[E:.*]] = tensor.cast %[[S]] : tensor<?x8xf32> to tensor<4x8xf32>
// CHECK-NEXT: %c = tensor.cast %[[E]] : tensor<4x8xf32> to tensor<?x8xf32>
// CHECK-NEXT: %sq = linalg.generic {{.*}} outs(%c : tensor<?x8xf32>)
// CHECK:      tensor.insert_slice %sq into %dest[1, 0] [%n, 8] [1, 1]
