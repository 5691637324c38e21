// Runs of parallel loops every operand indexes together become one loop.
// RUN: xdsl-opt %s -p linalg-collapse-loops | filecheck %s
// RUN: xdsl-opt %s -p "linalg-collapse-loops{iterator-type=parallel}" | filecheck %s

// All three loops run together in both maps: one loop of 24.
func.func @all_loops(%x: tensor<2x3x4xf32>) -> tensor<2x3x4xf32> {
  %e = tensor.empty() : tensor<2x3x4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x : tensor<2x3x4xf32>) outs(%e : tensor<2x3x4xf32>) {
  ^bb0(%in: f32, %o: f32):
    %s = arith.addf %in, %in : f32
    linalg.yield %s : f32
  } -> tensor<2x3x4xf32>
  return %r : tensor<2x3x4xf32>
}
// CHECK-LABEL: func.func @all_loops
// CHECK:      %[[X:.*]] = tensor.collapse_shape %x {{\[}}[0 : i64, 1 : i64, 2 : i64]] : tensor<2x3x4xf32> into tensor<24xf32>
// CHECK-NEXT: %[[E:.*]] = tensor.collapse_shape %e {{\[}}[0 : i64, 1 : i64, 2 : i64]] : tensor<2x3x4xf32> into tensor<24xf32>
// CHECK-NEXT: %[[R:.*]] = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%[[X]] : tensor<24xf32>) outs(%[[E]] : tensor<24xf32>)
// CHECK:      %{{.*}} = tensor.expand_shape %[[R]] {{\[}}[0 : i64, 1 : i64, 2 : i64]] output_shape [2, 3, 4] : tensor<24xf32> into tensor<2x3x4xf32>

// The first operand is a broadcast that names d2 alone (ByteIR follows only
// the first map, so it merges nothing here); d0 and d1 run together in every
// map that names them. linalg.index of the unmerged d2 becomes index 1.
func.func @broadcast_first(%bias: tensor<2xi32>, %x: tensor<3x4x2xi32>) -> tensor<3x4x2xi32> {
  %e = tensor.empty() : tensor<3x4x2xi32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%bias, %x : tensor<2xi32>, tensor<3x4x2xi32>) outs(%e : tensor<3x4x2xi32>) {
  ^bb0(%b: i32, %in: i32, %o: i32):
    %i = linalg.index 2 : index
    %ii = arith.index_cast %i : index to i32
    %s = arith.addi %b, %in : i32
    %t = arith.muli %s, %ii : i32
    linalg.yield %t : i32
  } -> tensor<3x4x2xi32>
  return %r : tensor<3x4x2xi32>
}
// CHECK-LABEL: func.func @broadcast_first
// CHECK:      %[[X:.*]] = tensor.collapse_shape %x {{\[}}[0 : i64, 1 : i64], [2 : i64]] : tensor<3x4x2xi32> into tensor<12x2xi32>
// CHECK-NEXT: %[[E:.*]] = tensor.collapse_shape %e {{\[}}[0 : i64, 1 : i64], [2 : i64]] : tensor<3x4x2xi32> into tensor<12x2xi32>
// CHECK-NEXT: %[[R:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%bias, %[[X]] : tensor<2xi32>, tensor<12x2xi32>) outs(%[[E]] : tensor<12x2xi32>)
// CHECK:      linalg.index 1 : index
// CHECK:      %{{.*}} = tensor.expand_shape %[[R]] {{\[}}[0 : i64, 1 : i64], [2 : i64]] output_shape [3, 4, 2] : tensor<12x2xi32> into tensor<3x4x2xi32>
