#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map1 = affine_map<(d0, d1, d2, d3) -> (0, d1, 0, 0)>
module {
  func.func @depthwise_cnn(%arg0: tensor<2x4x8x8xf32>) -> tensor<2x8x8x8xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 1.000000e+00 : f32
    %cst_1 = arith.constant dense_resource<dw_b_2> : tensor<4xf32>
    %cst_2 = arith.constant dense_resource<pw_w_11> : tensor<8x4x1x1xf32>
    %cst_3 = arith.constant dense_resource<pw_b_12> : tensor<8xf32>
    %cst_4 = arith.constant dense_resource<constant> : tensor<4x3x3xf32>
    %cst_5 = arith.constant dense_resource<constant_1> : tensor<1x4x1x1xf32>
    %cst_6 = arith.constant dense_resource<constant_2> : tensor<1x4x1x1xf32>
    %cst_7 = arith.constant 9.99999974E-6 : f32
    %cst_8 = arith.constant dense_resource<constant_3> : tensor<1x4x1x1xf32>
    %cst_9 = arith.constant dense_resource<constant_4> : tensor<1x4x1x1xf32>
    %padded = tensor.pad %arg0 low[0, 0, 1, 1] high[0, 0, 1, 1] {
    ^bb0(%arg1: index, %arg2: index, %arg3: index, %arg4: index):
      tensor.yield %cst : f32
    } : tensor<2x4x8x8xf32> to tensor<2x4x10x10xf32>
    %0 = tensor.empty() : tensor<2x4x8x8xf32>
    %broadcasted = linalg.broadcast ins(%cst_1 : tensor<4xf32>) outs(%0 : tensor<2x4x8x8xf32>) dimensions = [0, 2, 3] 
    %1 = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%padded, %cst_4 : tensor<2x4x10x10xf32>, tensor<4x3x3xf32>) outs(%broadcasted : tensor<2x4x8x8xf32>) -> tensor<2x4x8x8xf32>
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
    %5 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%1, %cst_5 : tensor<2x4x8x8xf32>, tensor<1x4x1x1xf32>) outs(%0 : tensor<2x4x8x8xf32>) {
    ^bb0(%in: f32, %in_11: f32, %out: f32):
      %13 = arith.subf %in, %in_11 : f32
      linalg.yield %13 : f32
    } -> tensor<2x4x8x8xf32>
    %6 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%5, %4 : tensor<2x4x8x8xf32>, tensor<1x4x1x1xf32>) outs(%0 : tensor<2x4x8x8xf32>) {
    ^bb0(%in: f32, %in_11: f32, %out: f32):
      %13 = arith.mulf %in, %in_11 : f32
      linalg.yield %13 : f32
    } -> tensor<2x4x8x8xf32>
    %7 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%6, %cst_8 : tensor<2x4x8x8xf32>, tensor<1x4x1x1xf32>) outs(%0 : tensor<2x4x8x8xf32>) {
    ^bb0(%in: f32, %in_11: f32, %out: f32):
      %13 = arith.mulf %in, %in_11 : f32
      linalg.yield %13 : f32
    } -> tensor<2x4x8x8xf32>
    %8 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%7, %cst_9 : tensor<2x4x8x8xf32>, tensor<1x4x1x1xf32>) outs(%0 : tensor<2x4x8x8xf32>) {
    ^bb0(%in: f32, %in_11: f32, %out: f32):
      %13 = arith.addf %in, %in_11 : f32
      linalg.yield %13 : f32
    } -> tensor<2x4x8x8xf32>
    %9 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%8 : tensor<2x4x8x8xf32>) outs(%0 : tensor<2x4x8x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %13 = arith.negf %in : f32
      %14 = math.exp %13 : f32
      %15 = arith.addf %14, %cst_0 : f32
      %16 = arith.divf %cst_0, %15 : f32
      linalg.yield %16 : f32
    } -> tensor<2x4x8x8xf32>
    %10 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%8, %9 : tensor<2x4x8x8xf32>, tensor<2x4x8x8xf32>) outs(%0 : tensor<2x4x8x8xf32>) {
    ^bb0(%in: f32, %in_11: f32, %out: f32):
      %13 = arith.mulf %in, %in_11 : f32
      linalg.yield %13 : f32
    } -> tensor<2x4x8x8xf32>
    %11 = tensor.empty() : tensor<2x8x8x8xf32>
    %broadcasted_10 = linalg.broadcast ins(%cst_3 : tensor<8xf32>) outs(%11 : tensor<2x8x8x8xf32>) dimensions = [0, 2, 3] 
    %12 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%10, %cst_2 : tensor<2x4x8x8xf32>, tensor<8x4x1x1xf32>) outs(%broadcasted_10 : tensor<2x8x8x8xf32>) -> tensor<2x8x8x8xf32>
    return %12 : tensor<2x8x8x8xf32>
  }
}

{-#
  dialect_resources: {
    builtin: {
      dw_b_2: "0x080000006948BDBD62C191BDB85BB4BDCA8C9DBD",
      pw_w_11: "0x08000000D173C3BD1BA9C23E9F1A053EE59C12BFE1B92ABF59202CBF6DCB0FBE66B81CBF4108783F2DA1053FA13784BEB117223F34FA353DDA4DC8BECB437A3ECBCC0D3CD13E68BEC31B9CBEEF88323E5479B93EDD18923E740264BFB518913EE8F7993C1649273F04B1A23EFCD13ABF3C523C3F8D48E73ECFC2923FF9F975BEFEA629BF",
      pw_b_12: "0x080000006C98BDBD1D1648BD72FD91BDD73F133DD0ADE73C9ECE7B3C40DB873DB037973D",
      constant: "0x080000009AC40B3FD4367B3EF5377D3C57D5FC3EA95D073F17C6233E8250F63E543F48BE78501D3DE28B2EBECBE9BDBDF044D7BD674FB8BE22C58EBE508616BFCB2D86BD5DF5E33DE60E27BE4399A3BE939F8C3EA1D2323EB37F09BF1423A5BD0806C63DD6A3B3BD56AF663F6142313D2379CCBE53278F3FF7CFAB3D73C6A8BEE1E0A8BEE54AEABDBC9635BEF9D8843E872E293E",
      constant_1: "0x080000003B53163E1D60843D5217AB3DAFE60F3E",
      constant_2: "0x08000000E9E2973F00286B3FBDCD993F9164283F",
      constant_3: "0x08000000723AA73F84024B3F3AFFA83FAEFE8F3F",
      constant_4: "0x080000009948F0BD5069CABE9A2C91BE60593CBE"
    }
  }
#-}
