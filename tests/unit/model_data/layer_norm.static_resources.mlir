#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d0, 0)>
#map2 = affine_map<(d0, d1) -> (d0)>
#map3 = affine_map<(d0, d1) -> (d1)>
module {
  func.func @layer_norm(%arg0: tensor<4x16xf32>) -> tensor<4x16xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant dense_resource<gamma_1> : tensor<16xf32>
    %cst_1 = arith.constant dense_resource<beta_2> : tensor<16xf32>
    %cst_2 = arith.constant 1.600000e+01 : f32
    %cst_3 = arith.constant 9.99999974E-6 : f32
    %0 = tensor.empty() : tensor<4x1xf32>
    %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<4x1xf32>) -> tensor<4x1xf32>
    %2 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "reduction"]} ins(%arg0 : tensor<4x16xf32>) outs(%1 : tensor<4x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %16 = arith.addf %in, %out : f32
      linalg.yield %16 : f32
    } -> tensor<4x1xf32>
    %3 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%2 : tensor<4x1xf32>) outs(%0 : tensor<4x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %16 = arith.divf %in, %cst_2 : f32
      linalg.yield %16 : f32
    } -> tensor<4x1xf32>
    %4 = tensor.empty() : tensor<4x16xf32>
    %collapsed = tensor.collapse_shape %3 [[0, 1]] : tensor<4x1xf32> into tensor<4xf32>
    %5 = linalg.generic {indexing_maps = [#map2, #map], iterator_types = ["parallel", "parallel"]} ins(%collapsed : tensor<4xf32>) outs(%4 : tensor<4x16xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<4x16xf32>
    %6 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0, %5 : tensor<4x16xf32>, tensor<4x16xf32>) outs(%4 : tensor<4x16xf32>) {
    ^bb0(%in: f32, %in_5: f32, %out: f32):
      %16 = arith.subf %in, %in_5 : f32
      linalg.yield %16 : f32
    } -> tensor<4x16xf32>
    %7 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%6, %6 : tensor<4x16xf32>, tensor<4x16xf32>) outs(%4 : tensor<4x16xf32>) {
    ^bb0(%in: f32, %in_5: f32, %out: f32):
      %16 = arith.mulf %in, %in_5 : f32
      linalg.yield %16 : f32
    } -> tensor<4x16xf32>
    %8 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "reduction"]} ins(%7 : tensor<4x16xf32>) outs(%1 : tensor<4x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %16 = arith.addf %in, %out : f32
      linalg.yield %16 : f32
    } -> tensor<4x1xf32>
    %9 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%8 : tensor<4x1xf32>) outs(%0 : tensor<4x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %16 = arith.divf %in, %cst_2 : f32
      linalg.yield %16 : f32
    } -> tensor<4x1xf32>
    %10 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%9 : tensor<4x1xf32>) outs(%0 : tensor<4x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %16 = arith.addf %in, %cst_3 : f32
      linalg.yield %16 : f32
    } -> tensor<4x1xf32>
    %11 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%10 : tensor<4x1xf32>) outs(%0 : tensor<4x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %16 = math.rsqrt %in : f32
      linalg.yield %16 : f32
    } -> tensor<4x1xf32>
    %collapsed_4 = tensor.collapse_shape %11 [[0, 1]] : tensor<4x1xf32> into tensor<4xf32>
    %12 = linalg.generic {indexing_maps = [#map2, #map], iterator_types = ["parallel", "parallel"]} ins(%collapsed_4 : tensor<4xf32>) outs(%4 : tensor<4x16xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<4x16xf32>
    %13 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%6, %12 : tensor<4x16xf32>, tensor<4x16xf32>) outs(%4 : tensor<4x16xf32>) {
    ^bb0(%in: f32, %in_5: f32, %out: f32):
      %16 = arith.mulf %in, %in_5 : f32
      linalg.yield %16 : f32
    } -> tensor<4x16xf32>
    %14 = linalg.generic {indexing_maps = [#map, #map3, #map], iterator_types = ["parallel", "parallel"]} ins(%13, %cst_0 : tensor<4x16xf32>, tensor<16xf32>) outs(%4 : tensor<4x16xf32>) {
    ^bb0(%in: f32, %in_5: f32, %out: f32):
      %16 = arith.mulf %in, %in_5 : f32
      linalg.yield %16 : f32
    } -> tensor<4x16xf32>
    %15 = linalg.generic {indexing_maps = [#map, #map3, #map], iterator_types = ["parallel", "parallel"]} ins(%14, %cst_1 : tensor<4x16xf32>, tensor<16xf32>) outs(%4 : tensor<4x16xf32>) {
    ^bb0(%in: f32, %in_5: f32, %out: f32):
      %16 = arith.addf %in, %in_5 : f32
      linalg.yield %16 : f32
    } -> tensor<4x16xf32>
    return %15 : tensor<4x16xf32>
  }
}

{-#
  dialect_resources: {
    builtin: {
      gamma_1: "0x080000007E28BC3F97021B3FCB10693F49E4053FAA5A8E3FC0CE1A3F0D14473F154C893FC80F013FC0A0783FC456363F88BF843F6191A73FD582473FA566873F248A8E3F",
      beta_2: "0x080000001261CEBEC8A3363EFD0E77BE42E554BEB5D21DBE9C5642BCD3FA083C9518FF3E6669863E79584DBEE95D933DEEA7A2BEF71055BD62A6323EF7CE1CBE9DA4FFBD"
    }
  }
#-}
