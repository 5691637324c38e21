#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d0, 0)>
#map2 = affine_map<(d0, d1) -> ()>
#map3 = affine_map<(d0, d1) -> (d0)>
module {
  func.func @reduce_chain(%arg0: tensor<?x16xf32>) -> tensor<?x16xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %c0 = arith.constant 0 : index
    %c0_i64 = arith.constant 0 : i64
    %cst_0 = arith.constant 0xFF800000 : f32
    %cst_1 = arith.constant dense<1.600000e+01> : tensor<f32>
    %cst_2 = arith.constant dense<9.99999974E-6> : tensor<f32>
    %cst_3 = arith.constant 1.600000e+01 : f32
    %dim = tensor.dim %arg0, %c0 : tensor<?x16xf32>
    %0 = tensor.empty(%dim) : tensor<?x1xf32>
    %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<?x1xf32>) -> tensor<?x1xf32>
    %2 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "reduction"]} ins(%arg0 : tensor<?x16xf32>) outs(%1 : tensor<?x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %19 = arith.addf %in, %out : f32
      linalg.yield %19 : f32
    } -> tensor<?x1xf32>
    %3 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%2 : tensor<?x1xf32>) outs(%0 : tensor<?x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %19 = arith.divf %in, %cst_3 : f32
      linalg.yield %19 : f32
    } -> tensor<?x1xf32>
    %4 = tensor.empty(%dim) : tensor<?x16xf32>
    %5 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0, %3 : tensor<?x16xf32>, tensor<?x1xf32>) outs(%4 : tensor<?x16xf32>) {
    ^bb0(%in: f32, %in_4: f32, %out: f32):
      %19 = arith.subf %in, %in_4 : f32
      linalg.yield %19 : f32
    } -> tensor<?x16xf32>
    %6 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%5, %5 : tensor<?x16xf32>, tensor<?x16xf32>) outs(%4 : tensor<?x16xf32>) {
    ^bb0(%in: f32, %in_4: f32, %out: f32):
      %19 = arith.mulf %in, %in_4 : f32
      linalg.yield %19 : f32
    } -> tensor<?x16xf32>
    %7 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "reduction"]} ins(%6 : tensor<?x16xf32>) outs(%1 : tensor<?x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %19 = arith.addf %in, %out : f32
      linalg.yield %19 : f32
    } -> tensor<?x1xf32>
    %8 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel"]} ins(%7, %cst_1 : tensor<?x1xf32>, tensor<f32>) outs(%0 : tensor<?x1xf32>) {
    ^bb0(%in: f32, %in_4: f32, %out: f32):
      %19 = arith.divf %in, %in_4 : f32
      linalg.yield %19 : f32
    } -> tensor<?x1xf32>
    %9 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel"]} ins(%8, %cst_2 : tensor<?x1xf32>, tensor<f32>) outs(%0 : tensor<?x1xf32>) {
    ^bb0(%in: f32, %in_4: f32, %out: f32):
      %19 = arith.addf %in, %in_4 : f32
      linalg.yield %19 : f32
    } -> tensor<?x1xf32>
    %10 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%9 : tensor<?x1xf32>) outs(%0 : tensor<?x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %19 = math.sqrt %in : f32
      linalg.yield %19 : f32
    } -> tensor<?x1xf32>
    %11 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%5, %10 : tensor<?x16xf32>, tensor<?x1xf32>) outs(%4 : tensor<?x16xf32>) {
    ^bb0(%in: f32, %in_4: f32, %out: f32):
      %19 = arith.divf %in, %in_4 : f32
      linalg.yield %19 : f32
    } -> tensor<?x16xf32>
    %12 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%11 : tensor<?x16xf32>) outs(%4 : tensor<?x16xf32>) {
    ^bb0(%in: f32, %out: f32):
      %19 = math.absf %in : f32
      linalg.yield %19 : f32
    } -> tensor<?x16xf32>
    %13 = tensor.empty(%dim) : tensor<?xi64>
    %14 = linalg.fill ins(%c0_i64 : i64) outs(%13 : tensor<?xi64>) -> tensor<?xi64>
    %15 = tensor.empty(%dim) : tensor<?xf32>
    %16 = linalg.fill ins(%cst_0 : f32) outs(%15 : tensor<?xf32>) -> tensor<?xf32>
    %17:2 = linalg.generic {indexing_maps = [#map, #map3, #map3], iterator_types = ["parallel", "reduction"]} ins(%12 : tensor<?x16xf32>) outs(%16, %14 : tensor<?xf32>, tensor<?xi64>) {
    ^bb0(%in: f32, %out: f32, %out_4: i64):
      %19 = linalg.index 1 : index
      %20 = arith.index_cast %19 : index to i64
      %21 = arith.maximumf %in, %out : f32
      %22 = arith.cmpf ogt, %in, %out : f32
      %23 = arith.select %22, %20, %out_4 : i64
      linalg.yield %21, %23 : f32, i64
    } -> (tensor<?xf32>, tensor<?xi64>)
    %expanded = tensor.expand_shape %17#0 [[0, 1]] output_shape [%dim, 1] : tensor<?xf32> into tensor<?x1xf32>
    %18 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%11, %expanded : tensor<?x16xf32>, tensor<?x1xf32>) outs(%4 : tensor<?x16xf32>) {
    ^bb0(%in: f32, %in_4: f32, %out: f32):
      %19 = arith.subf %in, %in_4 : f32
      linalg.yield %19 : f32
    } -> tensor<?x16xf32>
    return %18 : tensor<?x16xf32>
  }
}
