// Upstream's OpDSL convolutions xDSL 0.74 lacks (linalg_ext/compat/linalg_opdsl.py):
// depthwise, quantized, 1-D and 3-D. Round trip (custom and generic form;
// strides and dilations printed only when given) and linalg-generalization-ext
// (the window maps from the strides and dilations, upstream's bodies).
// RUN: linalg-ext-opt %s | filecheck %s
// RUN: linalg-ext-opt %s --print-op-generic | linalg-ext-opt | filecheck %s
// RUN: linalg-ext-opt %s -p linalg-generalization-ext | filecheck %s --check-prefix=GEN

// CHECK-LABEL: func.func @convolutions
// GEN-LABEL: func.func @convolutions
func.func @convolutions(%i: tensor<1x8x8x3xf32>, %k: tensor<3x3x3xf32>, %o: tensor<1x3x2x3xf32>, %ci: tensor<1x3x5x5xf32>, %ck: tensor<3x3x3xf32>, %co: tensor<1x3x3x3xf32>, %qi: memref<1x5x5x2xi8>, %qk: memref<3x3x2x4xi8>, %z: i32, %qo: memref<1x3x3x4xi32>, %wi: tensor<2x9x2xf16>, %wk: tensor<3x2xf16>, %wo: tensor<2x3x2xf32>) -> (tensor<1x3x2x3xf32>, tensor<1x3x3x3xf32>, tensor<2x3x2xf32>) {
  %0 = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<[1, 2]> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%i, %k : tensor<1x8x8x3xf32>, tensor<3x3x3xf32>) outs(%o : tensor<1x3x2x3xf32>) -> tensor<1x3x2x3xf32>
  %1 = linalg.depthwise_conv_2d_nchw_chw ins(%ci, %ck : tensor<1x3x5x5xf32>, tensor<3x3x3xf32>) outs(%co : tensor<1x3x3x3xf32>) -> tensor<1x3x3x3xf32>
  linalg.conv_2d_nhwc_hwcf_q {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%qi, %qk, %z, %z : memref<1x5x5x2xi8>, memref<3x3x2x4xi8>, i32, i32) outs(%qo : memref<1x3x3x4xi32>)
  %2 = linalg.depthwise_conv_1d_nwc_wc {dilations = dense<2> : tensor<1xi64>, strides = dense<2> : tensor<1xi64>} ins(%wi, %wk : tensor<2x9x2xf16>, tensor<3x2xf16>) outs(%wo : tensor<2x3x2xf32>) -> tensor<2x3x2xf32>
  return %0, %1, %2 : tensor<1x3x2x3xf32>, tensor<1x3x3x3xf32>, tensor<2x3x2xf32>
}
// CHECK-NEXT: %0 = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<[1, 2]> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%i, %k : tensor<1x8x8x3xf32>, tensor<3x3x3xf32>) outs(%o : tensor<1x3x2x3xf32>) -> tensor<1x3x2x3xf32>
// CHECK-NEXT: %1 = linalg.depthwise_conv_2d_nchw_chw ins(%ci, %ck : tensor<1x3x5x5xf32>, tensor<3x3x3xf32>) outs(%co : tensor<1x3x3x3xf32>) -> tensor<1x3x3x3xf32>
// CHECK-NEXT: linalg.conv_2d_nhwc_hwcf_q {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%qi, %qk, %z, %z : memref<1x5x5x2xi8>, memref<3x3x2x4xi8>, i32, i32) outs(%qo : memref<1x3x3x4xi32>)
// CHECK-NEXT: %2 = linalg.depthwise_conv_1d_nwc_wc {dilations = dense<2> : tensor<1xi64>, strides = dense<2> : tensor<1xi64>} ins(%wi, %wk : tensor<2x9x2xf16>, tensor<3x2xf16>) outs(%wo : tensor<2x3x2xf32>) -> tensor<2x3x2xf32>

// Loops (n, oh, ow, c, kh, kw); rows stride 2, columns stride 2 and dilation 2.
// GEN:      linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, ((d1 * 2) + d4), ((d2 * 2) + (d5 * 2)), d3)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d4, d5, d3)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
// GEN-NEXT: ^{{.*}}(%[[A:.*]]: f32, %[[B:.*]]: f32, %[[OUT:.*]]: f32):
// GEN-NEXT:   %[[M:.*]] = arith.mulf %[[A]], %[[B]] : f32
// GEN-NEXT:   %[[S:.*]] = arith.addf %[[OUT]], %[[M]] : f32
// GEN-NEXT:   linalg.yield %[[S]] : f32
// GEN:      linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d3, (d1 + d4), (d2 + d5))>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d3, d4, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d3, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
// GEN:      linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, (d1 + d4), (d2 + d5), d6)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d4, d5, d6, d3)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> ()>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> ()>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
// GEN-SAME: outs(%qo : memref<1x3x3x4xi32>)
// GEN:      linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, ((d1 * 2) + (d3 * 2)), d2)>, affine_map<(d0, d1, d2, d3) -> (d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
// GEN-NEXT: ^{{.*}}(%[[H:.*]]: f16, %[[G:.*]]: f16, %[[F:.*]]: f32):
// GEN-NEXT:   %[[HE:.*]] = arith.extf %[[H]] : f16 to f32
// GEN-NEXT:   %[[GE:.*]] = arith.extf %[[G]] : f16 to f32
// GEN-NEXT:   %[[P:.*]] = arith.mulf %[[HE]], %[[GE]] : f32
// GEN-NEXT:   %[[Q:.*]] = arith.addf %[[F]], %[[P]] : f32
// GEN-NEXT:   linalg.yield %[[Q]] : f32
