// linalg.pooling_nchw_max: the generic maximises the output it accumulates
// into with the input element, as upstream's body does. xDSL 0.74's hidden
// body (which its own linalg-generalize-named-ops copies) is max(input,
// window) and never reads the output: a wrong result whenever the output
// does not start below every input. test_pass_meaning runs both forms.
// RUN: xdsl-opt %s -p linalg-generalization-ext | filecheck %s

// CHECK-LABEL: func.func @max_f32
// CHECK-NOT:     linalg.pooling_nchw_max
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, (d2 + d4), (d3 + d5))>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d4, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%x, %w : tensor<1x2x3x3xf32>, tensor<2x2xf32>) outs(%o : tensor<1x2x2x2xf32>) {
// CHECK-NEXT:    ^bb0(%[[IN:.*]]: f32, %[[WINDOW:.*]]: f32, %[[OUT:.*]]: f32):
// CHECK-NEXT:      %[[M:.*]] = arith.maximumf %[[OUT]], %[[IN]] : f32
// CHECK-NEXT:      linalg.yield %[[M]] : f32
func.func @max_f32(%x: tensor<1x2x3x3xf32>, %w: tensor<2x2xf32>, %o: tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32> {
  %r = linalg.pooling_nchw_max {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : tensor<1x2x3x3xf32>, tensor<2x2xf32>) outs(%o : tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  return %r : tensor<1x2x2x2xf32>
}

// Strided, on memrefs, with integers: maxsi.
// CHECK-LABEL: func.func @max_i32_strided
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, ((d2 * 2) + d4), ((d3 * 2) + d5))>
// CHECK-SAME:        outs(%o : memref<1x1x2x2xi32>) {
// CHECK-NEXT:    ^bb0(%[[IN:.*]]: i32, %[[WINDOW:.*]]: i32, %[[OUT:.*]]: i32):
// CHECK-NEXT:      %[[M:.*]] = arith.maxsi %[[OUT]], %[[IN]] : i32
// CHECK-NEXT:      linalg.yield %[[M]] : i32
func.func @max_i32_strided(%x: memref<1x1x5x5xi32>, %w: memref<2x2xi32>, %o: memref<1x1x2x2xi32>) {
  linalg.pooling_nchw_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%x, %w : memref<1x1x5x5xi32>, memref<2x2xi32>) outs(%o : memref<1x1x2x2xi32>)
  return
}
