#map = affine_map<(d0, d1, d2) -> (d1, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map2 = affine_map<(d0, d1, d2) -> ()>
#map3 = affine_map<(d0, d1, d2) -> (d0, d1)>
#map4 = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
module {
  func.func @attention(%arg0: tensor<2x8x4xf32>) -> tensor<2x8x4xf32> {
    %c0_i64 = arith.constant 0 : i64
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 0xFF800000 : f32
    %cst_1 = arith.constant dense_resource<wq_1> : tensor<4x4xf32>
    %cst_2 = arith.constant dense_resource<wk_3> : tensor<4x4xf32>
    %cst_3 = arith.constant dense_resource<wv_5> : tensor<4x4xf32>
    %cst_4 = arith.constant dense<2.000000e+00> : tensor<f32>
    %cst_5 = arith.constant dense_resource<wo_13> : tensor<4x4xf32>
    %0 = tensor.empty() : tensor<2x4x4xf32>
    %1 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%cst_1 : tensor<4x4xf32>) outs(%0 : tensor<2x4x4xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<2x4x4xf32>
    %2 = tensor.empty() : tensor<2x8x4xf32>
    %3 = linalg.fill ins(%cst : f32) outs(%2 : tensor<2x8x4xf32>) -> tensor<2x8x4xf32>
    %4 = linalg.batch_matmul ins(%arg0, %1 : tensor<2x8x4xf32>, tensor<2x4x4xf32>) outs(%3 : tensor<2x8x4xf32>) -> tensor<2x8x4xf32>
    %5 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%cst_2 : tensor<4x4xf32>) outs(%0 : tensor<2x4x4xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<2x4x4xf32>
    %6 = linalg.batch_matmul ins(%arg0, %5 : tensor<2x8x4xf32>, tensor<2x4x4xf32>) outs(%3 : tensor<2x8x4xf32>) -> tensor<2x8x4xf32>
    %7 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%cst_3 : tensor<4x4xf32>) outs(%0 : tensor<2x4x4xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<2x4x4xf32>
    %8 = linalg.batch_matmul ins(%arg0, %7 : tensor<2x8x4xf32>, tensor<2x4x4xf32>) outs(%3 : tensor<2x8x4xf32>) -> tensor<2x8x4xf32>
    %9 = tensor.empty() : tensor<2x4x8xf32>
    %transposed = linalg.transpose ins(%6 : tensor<2x8x4xf32>) outs(%9 : tensor<2x4x8xf32>) permutation = [0, 2, 1] 
    %10 = tensor.empty() : tensor<2x8x8xf32>
    %11 = linalg.fill ins(%cst : f32) outs(%10 : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
    %12 = linalg.batch_matmul ins(%4, %transposed : tensor<2x8x4xf32>, tensor<2x4x8xf32>) outs(%11 : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
    %13 = linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%12, %cst_4 : tensor<2x8x8xf32>, tensor<f32>) outs(%10 : tensor<2x8x8xf32>) {
    ^bb0(%in: f32, %in_6: f32, %out: f32):
      %28 = arith.divf %in, %in_6 : f32
      linalg.yield %28 : f32
    } -> tensor<2x8x8xf32>
    %14 = tensor.empty() : tensor<2x8xi64>
    %15 = linalg.fill ins(%c0_i64 : i64) outs(%14 : tensor<2x8xi64>) -> tensor<2x8xi64>
    %16 = tensor.empty() : tensor<2x8xf32>
    %17 = linalg.fill ins(%cst_0 : f32) outs(%16 : tensor<2x8xf32>) -> tensor<2x8xf32>
    %18:2 = linalg.generic {indexing_maps = [#map1, #map3, #map3], iterator_types = ["parallel", "parallel", "reduction"]} ins(%13 : tensor<2x8x8xf32>) outs(%17, %15 : tensor<2x8xf32>, tensor<2x8xi64>) {
    ^bb0(%in: f32, %out: f32, %out_6: i64):
      %28 = linalg.index 2 : index
      %29 = arith.index_cast %28 : index to i64
      %30 = arith.maximumf %in, %out : f32
      %31 = arith.cmpf ogt, %in, %out : f32
      %32 = arith.select %31, %29, %out_6 : i64
      linalg.yield %30, %32 : f32, i64
    } -> (tensor<2x8xf32>, tensor<2x8xi64>)
    %expanded = tensor.expand_shape %18#0 [[0], [1, 2]] output_shape [2, 8, 1] : tensor<2x8xf32> into tensor<2x8x1xf32>
    %19 = linalg.generic {indexing_maps = [#map1, #map4, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%13, %expanded : tensor<2x8x8xf32>, tensor<2x8x1xf32>) outs(%10 : tensor<2x8x8xf32>) {
    ^bb0(%in: f32, %in_6: f32, %out: f32):
      %28 = arith.subf %in, %in_6 : f32
      linalg.yield %28 : f32
    } -> tensor<2x8x8xf32>
    %20 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%19 : tensor<2x8x8xf32>) outs(%10 : tensor<2x8x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %28 = math.exp %in : f32
      linalg.yield %28 : f32
    } -> tensor<2x8x8xf32>
    %21 = tensor.empty() : tensor<2x8x1xf32>
    %22 = linalg.fill ins(%cst : f32) outs(%21 : tensor<2x8x1xf32>) -> tensor<2x8x1xf32>
    %23 = linalg.generic {indexing_maps = [#map1, #map4], iterator_types = ["parallel", "parallel", "reduction"]} ins(%20 : tensor<2x8x8xf32>) outs(%22 : tensor<2x8x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %28 = arith.addf %in, %out : f32
      linalg.yield %28 : f32
    } -> tensor<2x8x1xf32>
    %24 = linalg.generic {indexing_maps = [#map1, #map4, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%20, %23 : tensor<2x8x8xf32>, tensor<2x8x1xf32>) outs(%10 : tensor<2x8x8xf32>) {
    ^bb0(%in: f32, %in_6: f32, %out: f32):
      %28 = arith.divf %in, %in_6 : f32
      linalg.yield %28 : f32
    } -> tensor<2x8x8xf32>
    %25 = linalg.batch_matmul ins(%24, %8 : tensor<2x8x8xf32>, tensor<2x8x4xf32>) outs(%3 : tensor<2x8x4xf32>) -> tensor<2x8x4xf32>
    %26 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "parallel"]} ins(%cst_5 : tensor<4x4xf32>) outs(%0 : tensor<2x4x4xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<2x4x4xf32>
    %27 = linalg.batch_matmul ins(%25, %26 : tensor<2x8x4xf32>, tensor<2x4x4xf32>) outs(%3 : tensor<2x8x4xf32>) -> tensor<2x8x4xf32>
    return %27 : tensor<2x8x4xf32>
  }
}

{-#
  dialect_resources: {
    builtin: {
      wq_1: "0x080000002B5BA1BCDD3BB73CE23D703F180B0DBF5105323E2007053F8A713BBD8BAB90BE2E4C88BF0D68B3BE63E5DFBDB7B52FBF340B723F2DB50D3FA67AA83E3CB6153F",
      wk_3: "0x08000000B20434BE877486BE78DE323FE545733FC11E3BBF3122DABD3F1BCEBEF0CC183FEE107CBE0AC1C3BE6847483F588B8FBED9FFA6BE76F2503C8375B23D5D0F1CBB",
      wv_5: "0x080000004F0620BD2FA97F3D0F36953FD913193DE869823EBDC4873D335E98BEA8CA4F3E0AC0B63EC1B3B43EEEC6C33E9F36EF3E05D1863F320426BEC6200FBEF176CB3E",
      wo_13: "0x08000000B60358BF6205023F2C4F4ABFF5A6A33EC42878BF2468D83EC1A8EE3E6D82FD3D1D2E8FBDDA62CBBD231A063F3D80A7BD361E97BFF6ADF0BE09F6BE3EC96F09BE"
    }
  }
#-}
