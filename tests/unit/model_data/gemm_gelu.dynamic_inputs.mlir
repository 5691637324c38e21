#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d1)>
#map2 = affine_map<(d0, d1) -> ()>
module {
  func.func @gemm_gelu(%arg0: tensor<?x8xf32>, %arg1: tensor<16x8xf32>, %arg2: tensor<16xf32>) -> tensor<?x16xf32> {
    %c3_i64 = arith.constant 3 : i64
    %c0 = arith.constant 0 : index
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant dense<4.471500e-02> : tensor<f32>
    %cst_1 = arith.constant dense<0.797884583> : tensor<f32>
    %cst_2 = arith.constant dense<1.000000e+00> : tensor<f32>
    %cst_3 = arith.constant dense<5.000000e-01> : tensor<f32>
    %0 = tensor.empty() : tensor<8x16xf32>
    %transposed = linalg.transpose ins(%arg1 : tensor<16x8xf32>) outs(%0 : tensor<8x16xf32>) permutation = [1, 0] 
    %dim = tensor.dim %arg0, %c0 : tensor<?x8xf32>
    %1 = tensor.empty(%dim) : tensor<?x16xf32>
    %2 = linalg.fill ins(%cst : f32) outs(%1 : tensor<?x16xf32>) -> tensor<?x16xf32>
    %3 = linalg.matmul ins(%arg0, %transposed : tensor<?x8xf32>, tensor<8x16xf32>) outs(%2 : tensor<?x16xf32>) -> tensor<?x16xf32>
    %4 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%3, %arg2 : tensor<?x16xf32>, tensor<16xf32>) outs(%1 : tensor<?x16xf32>) {
    ^bb0(%in: f32, %in_4: f32, %out: f32):
      %13 = arith.addf %in, %in_4 : f32
      linalg.yield %13 : f32
    } -> tensor<?x16xf32>
    %5 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%4 : tensor<?x16xf32>) outs(%1 : tensor<?x16xf32>) {
    ^bb0(%in: f32, %out: f32):
      %13 = math.fpowi %in, %c3_i64 : f32, i64
      linalg.yield %13 : f32
    } -> tensor<?x16xf32>
    %6 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel"]} ins(%5, %cst_0 : tensor<?x16xf32>, tensor<f32>) outs(%1 : tensor<?x16xf32>) {
    ^bb0(%in: f32, %in_4: f32, %out: f32):
      %13 = arith.mulf %in, %in_4 : f32
      linalg.yield %13 : f32
    } -> tensor<?x16xf32>
    %7 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%4, %6 : tensor<?x16xf32>, tensor<?x16xf32>) outs(%1 : tensor<?x16xf32>) {
    ^bb0(%in: f32, %in_4: f32, %out: f32):
      %13 = arith.addf %in, %in_4 : f32
      linalg.yield %13 : f32
    } -> tensor<?x16xf32>
    %8 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel"]} ins(%7, %cst_1 : tensor<?x16xf32>, tensor<f32>) outs(%1 : tensor<?x16xf32>) {
    ^bb0(%in: f32, %in_4: f32, %out: f32):
      %13 = arith.mulf %in, %in_4 : f32
      linalg.yield %13 : f32
    } -> tensor<?x16xf32>
    %9 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%8 : tensor<?x16xf32>) outs(%1 : tensor<?x16xf32>) {
    ^bb0(%in: f32, %out: f32):
      %13 = math.tanh %in : f32
      linalg.yield %13 : f32
    } -> tensor<?x16xf32>
    %10 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel"]} ins(%9, %cst_2 : tensor<?x16xf32>, tensor<f32>) outs(%1 : tensor<?x16xf32>) {
    ^bb0(%in: f32, %in_4: f32, %out: f32):
      %13 = arith.addf %in, %in_4 : f32
      linalg.yield %13 : f32
    } -> tensor<?x16xf32>
    %11 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel"]} ins(%4, %cst_3 : tensor<?x16xf32>, tensor<f32>) outs(%1 : tensor<?x16xf32>) {
    ^bb0(%in: f32, %in_4: f32, %out: f32):
      %13 = arith.mulf %in, %in_4 : f32
      linalg.yield %13 : f32
    } -> tensor<?x16xf32>
    %12 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%11, %10 : tensor<?x16xf32>, tensor<?x16xf32>) outs(%1 : tensor<?x16xf32>) {
    ^bb0(%in: f32, %in_4: f32, %out: f32):
      %13 = arith.mulf %in, %in_4 : f32
      linalg.yield %13 : f32
    } -> tensor<?x16xf32>
    return %12 : tensor<?x16xf32>
  }
}
