#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map1 = affine_map<(d0, d1, d2, d3) -> (0, d1, 0, 0)>
module {
  func.func @depthwise_cnn(%arg0: tensor<?x4x8x8xf32>) -> tensor<?x8x8x8xf32> {
    %c0 = arith.constant 0 : index
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 1.000000e+00 : f32
    %cst_1 = arith.constant dense<[-0.0924232676, -0.0711696297, -0.0880655646, -0.0769286901]> : tensor<4xf32>
    %cst_2 = arith.constant dense<[[[[-0.095435746]], [[0.380196422]], [[0.129984364]], [[-0.572706521]]], [[[-0.666898787]], [[-0.672368586]], [[-0.140424445]], [[-0.612188697]]], [[[0.968875944]], [[0.521990597]], [[-0.258236915]], [[6.331740e-01]]], [[[0.0444280654]], [[-0.39121896]], [[0.244399235]], [[0.00865478348]]], [[[-0.226802126]], [[-0.304899305]], [[0.174350485]], [[0.362253785]]], [[[0.285345942]], [[-0.890662432]], [[0.283391625]], [[0.0187949687]]], [[[0.653458953]], [[0.317756772]], [[-0.729766607]], [[0.735629797]]], [[[0.451725394]], [[1.14657009]], [[-0.240211383]], [[-0.662704349]]]]> : tensor<8x4x1x1xf32>
    %cst_3 = arith.constant dense<[-0.0925758779, -0.0488492139, -0.0712841898, 0.0359495543, 0.0282811224, 0.0153690856, 0.0663361549, 0.0738366842]> : tensor<8xf32>
    %cst_4 = arith.constant dense<[[[0.545968652, 0.24532634, 0.0154552357], [0.493815154, 0.528772891, 0.15993534], [0.481082976, -0.195554078, 0.0384068191]], [[-0.170455486, -0.0927310809, -0.105111957], [-0.359980792, -0.278847754, -0.587986946], [-0.0655170307, 0.111307837, -0.163142771]], [[-0.319528669, 0.274654955, 0.174631611], [-0.537104785, -0.0806333124, 0.0966911911], [-0.087714836, 0.901112914, 0.0432761945]], [[-0.3993617, 1.11838758, 0.0838927552], [-0.329639047, -0.32984069, -0.114400662], [-0.177332819, 0.25946787, 0.16521655]]]> : tensor<4x3x3xf32>
    %cst_5 = arith.constant dense<[[[[0.146801874]], [[0.0646364465]], [[0.0835405737]], [[0.140528426]]]]> : tensor<1x4x1x1xf32>
    %cst_6 = arith.constant dense<[[[[1.18661225]], [[0.918579101]], [[1.20159113]], [[0.657784521]]]]> : tensor<1x4x1x1xf32>
    %cst_7 = arith.constant 9.99999974E-6 : f32
    %cst_8 = arith.constant dense<[[[[1.30647111]], [[0.793007135]], [[1.3202889]], [[1.12495971]]]]> : tensor<1x4x1x1xf32>
    %cst_9 = arith.constant dense<[[[[-0.117325969]], [[-0.395334721]], [[-0.283543408]], [[-0.183934689]]]]> : tensor<1x4x1x1xf32>
    %dim = tensor.dim %arg0, %c0 : tensor<?x4x8x8xf32>
    %padded = tensor.pad %arg0 low[0, 0, 1, 1] high[0, 0, 1, 1] {
    ^bb0(%arg1: index, %arg2: index, %arg3: index, %arg4: index):
      tensor.yield %cst : f32
    } : tensor<?x4x8x8xf32> to tensor<?x4x10x10xf32>
    %0 = tensor.empty(%dim) : tensor<?x4x8x8xf32>
    %broadcasted = linalg.broadcast ins(%cst_1 : tensor<4xf32>) outs(%0 : tensor<?x4x8x8xf32>) dimensions = [0, 2, 3] 
    %1 = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%padded, %cst_4 : tensor<?x4x10x10xf32>, tensor<4x3x3xf32>) outs(%broadcasted : tensor<?x4x8x8xf32>) -> tensor<?x4x8x8xf32>
    %2 = tensor.empty() : tensor<1x4x1x1xf32>
    %3 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%cst_6 : tensor<1x4x1x1xf32>) outs(%2 : tensor<1x4x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %13 = arith.addf %in, %cst_7 : f32
      linalg.yield %13 : f32
    } -> tensor<1x4x1x1xf32>
    %4 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%3 : tensor<1x4x1x1xf32>) outs(%2 : tensor<1x4x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %13 = math.rsqrt %in : f32
      linalg.yield %13 : f32
    } -> tensor<1x4x1x1xf32>
    %5 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%1, %cst_5 : tensor<?x4x8x8xf32>, tensor<1x4x1x1xf32>) outs(%0 : tensor<?x4x8x8xf32>) {
    ^bb0(%in: f32, %in_11: f32, %out: f32):
      %13 = arith.subf %in, %in_11 : f32
      linalg.yield %13 : f32
    } -> tensor<?x4x8x8xf32>
    %6 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%5, %4 : tensor<?x4x8x8xf32>, tensor<1x4x1x1xf32>) outs(%0 : tensor<?x4x8x8xf32>) {
    ^bb0(%in: f32, %in_11: f32, %out: f32):
      %13 = arith.mulf %in, %in_11 : f32
      linalg.yield %13 : f32
    } -> tensor<?x4x8x8xf32>
    %7 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%6, %cst_8 : tensor<?x4x8x8xf32>, tensor<1x4x1x1xf32>) outs(%0 : tensor<?x4x8x8xf32>) {
    ^bb0(%in: f32, %in_11: f32, %out: f32):
      %13 = arith.mulf %in, %in_11 : f32
      linalg.yield %13 : f32
    } -> tensor<?x4x8x8xf32>
    %8 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%7, %cst_9 : tensor<?x4x8x8xf32>, tensor<1x4x1x1xf32>) outs(%0 : tensor<?x4x8x8xf32>) {
    ^bb0(%in: f32, %in_11: f32, %out: f32):
      %13 = arith.addf %in, %in_11 : f32
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
    ^bb0(%in: f32, %in_11: f32, %out: f32):
      %13 = arith.mulf %in, %in_11 : f32
      linalg.yield %13 : f32
    } -> tensor<?x4x8x8xf32>
    %11 = tensor.empty(%dim) : tensor<?x8x8x8xf32>
    %broadcasted_10 = linalg.broadcast ins(%cst_3 : tensor<8xf32>) outs(%11 : tensor<?x8x8x8xf32>) dimensions = [0, 2, 3] 
    %12 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%10, %cst_2 : tensor<?x4x8x8xf32>, tensor<8x4x1x1xf32>) outs(%broadcasted_10 : tensor<?x8x8x8xf32>) -> tensor<?x8x8x8xf32>
    return %12 : tensor<?x8x8x8xf32>
  }
}
