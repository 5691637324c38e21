// Generics the pass leaves exactly as they are.
// RUN: xdsl-opt %s -p linalg-collapse-loops | filecheck %s

// linalg.index of a loop that would be merged: left alone.
func.func @index_of_merged(%x: tensor<2x3xi32>) -> tensor<2x3xi32> {
  %e = tensor.empty() : tensor<2x3xi32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<2x3xi32>) outs(%e : tensor<2x3xi32>) {
  ^bb0(%in: i32, %o: i32):
    %j = linalg.index 1 : index
    %jj = arith.index_cast %j : index to i32
    %s = arith.addi %in, %jj : i32
    linalg.yield %s : i32
  } -> tensor<2x3xi32>
  return %r : tensor<2x3xi32>
}
// CHECK-LABEL: func.func @index_of_merged
// CHECK-NOT:   tensor.collapse_shape
// CHECK:       iterator_types = ["parallel", "parallel"]

// A transpose: d0 and d1 are adjacent in both maps but in opposite orders.
func.func @transpose(%x: tensor<2x3xf32>) -> tensor<3x2xf32> {
  %e = tensor.empty() : tensor<3x2xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1, d0)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<2x3xf32>) outs(%e : tensor<3x2xf32>) {
  ^bb0(%in: f32, %o: f32):
    linalg.yield %in : f32
  } -> tensor<3x2xf32>
  return %r : tensor<3x2xf32>
}
// CHECK-LABEL: func.func @transpose
// CHECK-NOT:   tensor.collapse_shape
// CHECK:       iterator_types = ["parallel", "parallel"]

// Memrefs and dynamic shapes are not taken.
func.func @on_memrefs(%x: memref<2x3xf32>, %y: memref<2x3xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<2x3xf32>) outs(%y : memref<2x3xf32>) {
  ^bb0(%in: f32, %o: f32):
    linalg.yield %in : f32
  }
  return
}
// CHECK-LABEL: func.func @on_memrefs
// CHECK-NOT:   memref.collapse_shape
// CHECK:       iterator_types = ["parallel", "parallel"]
