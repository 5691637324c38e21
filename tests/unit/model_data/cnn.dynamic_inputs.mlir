#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map1 = affine_map<(d0, d1) -> (d0, d1)>
#map2 = affine_map<(d0, d1) -> (d1)>
module {
  func.func @cnn(%arg0: tensor<?x3x8x8xf32>, %arg1: tensor<4x3x3x3xf32>, %arg2: tensor<4xf32>, %arg3: tensor<6x4x3x3xf32>, %arg4: tensor<6xf32>, %arg5: tensor<6x4xf32>, %arg6: tensor<4xf32>) -> tensor<?x4xf32> {
    %c0 = arith.constant 0 : index
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 0xFF800000 : f32
    %cst_1 = arith.constant 1.600000e+01 : f32
    %dim = tensor.dim %arg0, %c0 : tensor<?x3x8x8xf32>
    %padded = tensor.pad %arg0 low[0, 0, 1, 1] high[0, 0, 1, 1] {
    ^bb0(%arg7: index, %arg8: index, %arg9: index, %arg10: index):
      tensor.yield %cst : f32
    } : tensor<?x3x8x8xf32> to tensor<?x3x10x10xf32>
    %0 = tensor.empty(%dim) : tensor<?x4x8x8xf32>
    %broadcasted = linalg.broadcast ins(%arg2 : tensor<4xf32>) outs(%0 : tensor<?x4x8x8xf32>) dimensions = [0, 2, 3] 
    %1 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%padded, %arg1 : tensor<?x3x10x10xf32>, tensor<4x3x3x3xf32>) outs(%broadcasted : tensor<?x4x8x8xf32>) -> tensor<?x4x8x8xf32>
    %2 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%1 : tensor<?x4x8x8xf32>) outs(%0 : tensor<?x4x8x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %19 = arith.cmpf ugt, %in, %cst : f32
      %20 = arith.select %19, %in, %cst : f32
      linalg.yield %20 : f32
    } -> tensor<?x4x8x8xf32>
    %3 = tensor.empty(%dim) : tensor<?x4x4x4xf32>
    %4 = linalg.fill ins(%cst_0 : f32) outs(%3 : tensor<?x4x4x4xf32>) -> tensor<?x4x4x4xf32>
    %5 = tensor.empty() : tensor<2x2xf32>
    %6 = linalg.pooling_nchw_max {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%2, %5 : tensor<?x4x8x8xf32>, tensor<2x2xf32>) outs(%4 : tensor<?x4x4x4xf32>) -> tensor<?x4x4x4xf32>
    %padded_2 = tensor.pad %6 low[0, 0, 1, 1] high[0, 0, 1, 1] {
    ^bb0(%arg7: index, %arg8: index, %arg9: index, %arg10: index):
      tensor.yield %cst : f32
    } : tensor<?x4x4x4xf32> to tensor<?x4x6x6xf32>
    %7 = tensor.empty(%dim) : tensor<?x6x4x4xf32>
    %broadcasted_3 = linalg.broadcast ins(%arg4 : tensor<6xf32>) outs(%7 : tensor<?x6x4x4xf32>) dimensions = [0, 2, 3] 
    %8 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%padded_2, %arg3 : tensor<?x4x6x6xf32>, tensor<6x4x3x3xf32>) outs(%broadcasted_3 : tensor<?x6x4x4xf32>) -> tensor<?x6x4x4xf32>
    %9 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%8 : tensor<?x6x4x4xf32>) outs(%7 : tensor<?x6x4x4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %19 = arith.cmpf ugt, %in, %cst : f32
      %20 = arith.select %19, %in, %cst : f32
      linalg.yield %20 : f32
    } -> tensor<?x6x4x4xf32>
    %10 = tensor.empty(%dim) : tensor<?x6x1x1xf32>
    %11 = linalg.fill ins(%cst : f32) outs(%10 : tensor<?x6x1x1xf32>) -> tensor<?x6x1x1xf32>
    %12 = tensor.empty() : tensor<4x4xf32>
    %13 = linalg.pooling_nchw_sum {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%9, %12 : tensor<?x6x4x4xf32>, tensor<4x4xf32>) outs(%11 : tensor<?x6x1x1xf32>) -> tensor<?x6x1x1xf32>
    %14 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%13 : tensor<?x6x1x1xf32>) outs(%10 : tensor<?x6x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %19 = arith.divf %in, %cst_1 : f32
      linalg.yield %19 : f32
    } -> tensor<?x6x1x1xf32>
    %collapsed = tensor.collapse_shape %14 [[0], [1, 2, 3]] : tensor<?x6x1x1xf32> into tensor<?x6xf32>
    %15 = tensor.empty(%dim) : tensor<?x4xf32>
    %16 = linalg.fill ins(%cst : f32) outs(%15 : tensor<?x4xf32>) -> tensor<?x4xf32>
    %17 = linalg.matmul ins(%collapsed, %arg5 : tensor<?x6xf32>, tensor<6x4xf32>) outs(%16 : tensor<?x4xf32>) -> tensor<?x4xf32>
    %18 = linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel"]} ins(%17, %arg6 : tensor<?x4xf32>, tensor<4xf32>) outs(%15 : tensor<?x4xf32>) {
    ^bb0(%in: f32, %in_4: f32, %out: f32):
      %19 = arith.addf %in, %in_4 : f32
      linalg.yield %19 : f32
    } -> tensor<?x4xf32>
    return %18 : tensor<?x4xf32>
  }
}
