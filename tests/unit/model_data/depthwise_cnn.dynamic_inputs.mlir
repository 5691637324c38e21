#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map1 = affine_map<(d0, d1, d2, d3) -> (0, d1, 0, 0)>
module {
  func.func @depthwise_cnn(%arg0: tensor<?x4x8x8xf32>, %arg1: tensor<4x1x3x3xf32>, %arg2: tensor<4xf32>, %arg3: tensor<4xf32>, %arg4: tensor<4xf32>, %arg5: tensor<4xf32>, %arg6: tensor<4xf32>, %arg7: tensor<8x4x1x1xf32>, %arg8: tensor<8xf32>) -> tensor<?x8x8x8xf32> {
    %c0 = arith.constant 0 : index
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 1.000000e+00 : f32
    %cst_1 = arith.constant 9.99999974E-6 : f32
    %dim = tensor.dim %arg0, %c0 : tensor<?x4x8x8xf32>
    %padded = tensor.pad %arg0 low[0, 0, 1, 1] high[0, 0, 1, 1] {
    ^bb0(%arg9: index, %arg10: index, %arg11: index, %arg12: index):
      tensor.yield %cst : f32
    } : tensor<?x4x8x8xf32> to tensor<?x4x10x10xf32>
    %0 = tensor.empty(%dim) : tensor<?x4x8x8xf32>
    %broadcasted = linalg.broadcast ins(%arg2 : tensor<4xf32>) outs(%0 : tensor<?x4x8x8xf32>) dimensions = [0, 2, 3] 
    %collapsed = tensor.collapse_shape %arg1 [[0, 1], [2], [3]] : tensor<4x1x3x3xf32> into tensor<4x3x3xf32>
    %1 = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%padded, %collapsed : tensor<?x4x10x10xf32>, tensor<4x3x3xf32>) outs(%broadcasted : tensor<?x4x8x8xf32>) -> tensor<?x4x8x8xf32>
    %expanded = tensor.expand_shape %arg5 [[0, 1, 2, 3]] output_shape [1, 4, 1, 1] : tensor<4xf32> into tensor<1x4x1x1xf32>
    %expanded_2 = tensor.expand_shape %arg6 [[0, 1, 2, 3]] output_shape [1, 4, 1, 1] : tensor<4xf32> into tensor<1x4x1x1xf32>
    %2 = tensor.empty() : tensor<1x4x1x1xf32>
    %3 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded_2 : tensor<1x4x1x1xf32>) outs(%2 : tensor<1x4x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %13 = arith.addf %in, %cst_1 : f32
      linalg.yield %13 : f32
    } -> tensor<1x4x1x1xf32>
    %4 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%3 : tensor<1x4x1x1xf32>) outs(%2 : tensor<1x4x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %13 = math.rsqrt %in : f32
      linalg.yield %13 : f32
    } -> tensor<1x4x1x1xf32>
    %5 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%1, %expanded : tensor<?x4x8x8xf32>, tensor<1x4x1x1xf32>) outs(%0 : tensor<?x4x8x8xf32>) {
    ^bb0(%in: f32, %in_6: f32, %out: f32):
      %13 = arith.subf %in, %in_6 : f32
      linalg.yield %13 : f32
    } -> tensor<?x4x8x8xf32>
    %6 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%5, %4 : tensor<?x4x8x8xf32>, tensor<1x4x1x1xf32>) outs(%0 : tensor<?x4x8x8xf32>) {
    ^bb0(%in: f32, %in_6: f32, %out: f32):
      %13 = arith.mulf %in, %in_6 : f32
      linalg.yield %13 : f32
    } -> tensor<?x4x8x8xf32>
    %expanded_3 = tensor.expand_shape %arg3 [[0, 1, 2, 3]] output_shape [1, 4, 1, 1] : tensor<4xf32> into tensor<1x4x1x1xf32>
    %7 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%6, %expanded_3 : tensor<?x4x8x8xf32>, tensor<1x4x1x1xf32>) outs(%0 : tensor<?x4x8x8xf32>) {
    ^bb0(%in: f32, %in_6: f32, %out: f32):
      %13 = arith.mulf %in, %in_6 : f32
      linalg.yield %13 : f32
    } -> tensor<?x4x8x8xf32>
    %expanded_4 = tensor.expand_shape %arg4 [[0, 1, 2, 3]] output_shape [1, 4, 1, 1] : tensor<4xf32> into tensor<1x4x1x1xf32>
    %8 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%7, %expanded_4 : tensor<?x4x8x8xf32>, tensor<1x4x1x1xf32>) outs(%0 : tensor<?x4x8x8xf32>) {
    ^bb0(%in: f32, %in_6: f32, %out: f32):
      %13 = arith.addf %in, %in_6 : f32
      linalg.yield %13 : f32
    } -> tensor<?x4x8x8xf32>
    %9 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%8 : tensor<?x4x8x8xf32>) outs(%0 : tensor<?x4x8x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %13 = arith.negf %in : f32
      %14 = math.exp %13 : f32
      %15 = arith.addf %14, %cst_0 : f32
      %16 = arith.divf %cst_0, %15 : f32
      linalg.yield %16 : f32
    } -> tensor<?x4x8x8xf32>
    %10 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%8, %9 : tensor<?x4x8x8xf32>, tensor<?x4x8x8xf32>) outs(%0 : tensor<?x4x8x8xf32>) {
    ^bb0(%in: f32, %in_6: f32, %out: f32):
      %13 = arith.mulf %in, %in_6 : f32
      linalg.yield %13 : f32
    } -> tensor<?x4x8x8xf32>
    %11 = tensor.empty(%dim) : tensor<?x8x8x8xf32>
    %broadcasted_5 = linalg.broadcast ins(%arg8 : tensor<8xf32>) outs(%11 : tensor<?x8x8x8xf32>) dimensions = [0, 2, 3] 
    %12 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%10, %arg7 : tensor<?x4x8x8xf32>, tensor<8x4x1x1xf32>) outs(%broadcasted_5 : tensor<?x8x8x8xf32>) -> tensor<?x8x8x8xf32>
    return %12 : tensor<?x8x8x8xf32>
  }
}
