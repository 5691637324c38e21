#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d1)>
module {
  func.func @mlp(%arg0: tensor<?x8xf32>, %arg1: tensor<8x16xf32>, %arg2: tensor<16xf32>, %arg3: tensor<16x8xf32>, %arg4: tensor<8xf32>) -> tensor<?x8xf32> {
    %c0 = arith.constant 0 : index
    %cst = arith.constant 0.000000e+00 : f32
    %dim = tensor.dim %arg0, %c0 : tensor<?x8xf32>
    %0 = tensor.empty(%dim) : tensor<?x16xf32>
    %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<?x16xf32>) -> tensor<?x16xf32>
    %2 = linalg.matmul ins(%arg0, %arg1 : tensor<?x8xf32>, tensor<8x16xf32>) outs(%1 : tensor<?x16xf32>) -> tensor<?x16xf32>
    %3 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%2, %arg2 : tensor<?x16xf32>, tensor<16xf32>) outs(%0 : tensor<?x16xf32>) {
    ^bb0(%in: f32, %in_0: f32, %out: f32):
      %9 = arith.addf %in, %in_0 : f32
      linalg.yield %9 : f32
    } -> tensor<?x16xf32>
    %4 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%3 : tensor<?x16xf32>) outs(%0 : tensor<?x16xf32>) {
    ^bb0(%in: f32, %out: f32):
      %9 = arith.cmpf ugt, %in, %cst : f32
      %10 = arith.select %9, %in, %cst : f32
      linalg.yield %10 : f32
    } -> tensor<?x16xf32>
    %5 = tensor.empty(%dim) : tensor<?x8xf32>
    %6 = linalg.fill ins(%cst : f32) outs(%5 : tensor<?x8xf32>) -> tensor<?x8xf32>
    %7 = linalg.matmul ins(%4, %arg3 : tensor<?x16xf32>, tensor<16x8xf32>) outs(%6 : tensor<?x8xf32>) -> tensor<?x8xf32>
    %8 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%7, %arg4 : tensor<?x8xf32>, tensor<8xf32>) outs(%5 : tensor<?x8xf32>) {
    ^bb0(%in: f32, %in_0: f32, %out: f32):
      %9 = arith.addf %in, %in_0 : f32
      linalg.yield %9 : f32
    } -> tensor<?x8xf32>
    return %8 : tensor<?x8xf32>
  }
}
