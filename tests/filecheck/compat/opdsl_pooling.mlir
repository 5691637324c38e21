// Upstream's OpDSL poolings xDSL 0.74 lacks (it has pooling_nchw_max):
// linalg_ext/compat/linalg_opdsl.py. Round trip (custom and generic form) and
// linalg-generalization-ext: the output combined with the converted input
// (sum: addf; max: maximumf; min_unsigned: extui, then minui); the window
// operand only gives the window's shape.
// RUN: linalg-ext-opt %s | filecheck %s
// RUN: linalg-ext-opt %s --print-op-generic | linalg-ext-opt | filecheck %s
// RUN: linalg-ext-opt %s -p linalg-generalization-ext | filecheck %s --check-prefix=GEN

// CHECK-LABEL: func.func @pooling
// GEN-LABEL: func.func @pooling
func.func @pooling(%x: tensor<1x3x6x6xf32>, %w: tensor<2x2xf32>, %s: tensor<1x3x3x3xf32>, %y: tensor<2x7x3xf32>, %v: tensor<3xf32>, %m: tensor<2x3x3xf32>, %u: memref<1x5x5x2xi8>, %uw: memref<2x2xi8>, %uo: memref<1x4x4x2xi32>) -> (tensor<1x3x3x3xf32>, tensor<2x3x3xf32>) {
  %0 = linalg.pooling_nchw_sum {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%x, %w : tensor<1x3x6x6xf32>, tensor<2x2xf32>) outs(%s : tensor<1x3x3x3xf32>) -> tensor<1x3x3x3xf32>
  %1 = linalg.pooling_nwc_max {dilations = dense<1> : tensor<1xi64>, strides = dense<2> : tensor<1xi64>} ins(%y, %v : tensor<2x7x3xf32>, tensor<3xf32>) outs(%m : tensor<2x3x3xf32>) -> tensor<2x3x3xf32>
  linalg.pooling_nhwc_min_unsigned ins(%u, %uw : memref<1x5x5x2xi8>, memref<2x2xi8>) outs(%uo : memref<1x4x4x2xi32>)
  return %0, %1 : tensor<1x3x3x3xf32>, tensor<2x3x3xf32>
}
// CHECK-NEXT: %0 = linalg.pooling_nchw_sum {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%x, %w : tensor<1x3x6x6xf32>, tensor<2x2xf32>) outs(%s : tensor<1x3x3x3xf32>) -> tensor<1x3x3x3xf32>
// CHECK-NEXT: %1 = linalg.pooling_nwc_max {dilations = dense<1> : tensor<1xi64>, strides = dense<2> : tensor<1xi64>} ins(%y, %v : tensor<2x7x3xf32>, tensor<3xf32>) outs(%m : tensor<2x3x3xf32>) -> tensor<2x3x3xf32>
// CHECK-NEXT: linalg.pooling_nhwc_min_unsigned ins(%u, %uw : memref<1x5x5x2xi8>, memref<2x2xi8>) outs(%uo : memref<1x4x4x2xi32>)

// GEN:      linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, ((d2 * 2) + d4), ((d3 * 2) + d5))>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d4, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
// GEN-NEXT: ^{{.*}}(%[[IN:.*]]: f32, %{{.*}}: f32, %[[OUT:.*]]: f32):
// GEN-NEXT:   %[[S:.*]] = arith.addf %[[OUT]], %[[IN]] : f32
// GEN-NEXT:   linalg.yield %[[S]] : f32
// GEN:      linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, ((d1 * 2) + d3), d2)>, affine_map<(d0, d1, d2, d3) -> (d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
// GEN-NEXT: ^{{.*}}(%[[IN2:.*]]: f32, %{{.*}}: f32, %[[OUT2:.*]]: f32):
// GEN-NEXT:   %[[M:.*]] = arith.maximumf %[[OUT2]], %[[IN2]] : f32
// GEN:      linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, (d1 + d4), (d2 + d5), d3)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d4, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
// GEN-NEXT: ^{{.*}}(%[[IN3:.*]]: i8, %{{.*}}: i8, %[[OUT3:.*]]: i32):
// GEN-NEXT:   %[[E:.*]] = arith.extui %[[IN3]] : i8 to i32
// GEN-NEXT:   %[[N:.*]] = arith.minui %[[OUT3]], %[[E]] : i32
// GEN-NEXT:   linalg.yield %[[N]] : i32
